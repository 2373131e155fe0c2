"""The house reads top-down (docs/architecture.md): every import points down the layers, no
module imports itself round a cycle, no module is over 600 lines, and project imports sit at
the top of a module unless start-up time needs them (and a comment says so).

Layers, bottom to top: ``simulator`` (the rules core) -> ``strategies`` -> ``play`` (engine,
settings, tables, logs) -> ``experiments`` -> ``reports`` -> ``survive_sim`` (the Python API
and the CLI). ``replays`` reads logs in plain Python and imports no other package (the board's
data file is its own package data, a link to ``simulator``'s in the repository). Read from the source with ``ast``:
nothing is imported.
"""
from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
LAYERS = ("simulator", "strategies", "play", "experiments", "reports", "survive_sim")
MAY_IMPORT = {
    "simulator": set(),
    "strategies": {"simulator"},
    "play": {"simulator", "strategies"},
    "replays": set(),
    "experiments": {"simulator", "strategies", "play"},
    "reports": {"simulator", "strategies", "play", "replays", "experiments"},
    "survive_sim": {"simulator", "strategies", "play", "replays", "experiments", "reports"},
}
PACKAGES = tuple(MAY_IMPORT)
MAX_LINES = 600
# in-function imports are the rule here: ``survive-sim --help`` answers before pandas loads
STARTUP_PACKAGES = ("survive_sim/cli/",)


def _modules() -> dict[str, Path]:
    out = {}
    for pkg in PACKAGES:
        for f in sorted((ROOT / pkg).rglob("*.py")):
            rel = f.relative_to(ROOT).with_suffix("")
            parts = rel.parts[:-1] if rel.name == "__init__" else rel.parts
            out[".".join(parts)] = f
    return out


MODULES = _modules()


def _imports(name: str, path: Path):
    """``(imported module, line, inside a function)`` for every project import of ``path``.
    ``from pkg import sub`` names the module ``pkg.sub`` when ``sub`` is one, else ``pkg``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    tree = ast.parse(path.read_text(encoding="utf-8"))
    inner = {id(n) for f in ast.walk(tree) if isinstance(f, (ast.FunctionDef,
                                                             ast.AsyncFunctionDef))
             for n in ast.walk(f)}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            targets = [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:
                up = package.split(".")
                up = up[:len(up) - (node.level - 1)]
                base = ".".join(up + ([node.module] if node.module else []))
            else:
                base = node.module or ""
            subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in MODULES]
            targets = subs if len(subs) == len(node.names) else subs + [base]
        else:
            continue
        for t in targets:
            while t and t not in MODULES:
                t = t.rpartition(".")[0]
            if t and t.split(".")[0] in PACKAGES:
                yield t, node.lineno, id(node) in inner


GRAPH = {m: {t for t, _, _ in _imports(m, p) if t != m} for m, p in MODULES.items()}


def test_the_layers_are_the_top_level_packages():
    assert set(PACKAGES) == set(LAYERS) | {"replays"}
    for pkg in PACKAGES:
        assert (ROOT / pkg / "__init__.py").is_file(), pkg


@pytest.mark.parametrize("pkg", PACKAGES)
def test_every_import_points_down(pkg):
    wrong = sorted(f"{m} imports {t}" for m, targets in GRAPH.items()
                   if m.split(".")[0] == pkg for t in targets
                   if t.split(".")[0] != pkg and t.split(".")[0] not in MAY_IMPORT[pkg])
    assert not wrong, f"{pkg} may import only {sorted(MAY_IMPORT[pkg]) or 'nothing else'}"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components with more than one module (Tarjan, iteratively)."""
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]
    for root in graph:
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter[0]
        counter[0] += 1
        stack.append(root)
        on.add(root)
        while work:
            v, it = work[-1]
            w = next(it, None)
            if w is not None:
                if w not in index:
                    index[w] = low[w] = counter[0]
                    counter[0] += 1
                    stack.append(w)
                    on.add(w)
                    work.append((w, iter(sorted(graph.get(w, ())))))
                elif w in on:
                    low[v] = min(low[v], index[w])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[v])
            if low[v] == index[v]:
                comp = []
                while True:
                    w = stack.pop()
                    on.discard(w)
                    comp.append(w)
                    if w == v:
                        break
                if len(comp) > 1:
                    out.append(sorted(comp))
    return out


def test_no_module_imports_itself_round_a_cycle():
    assert _cycles(GRAPH) == []


def test_the_cycle_finder_finds_a_cycle():
    assert _cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_no_module_is_over_600_lines():
    long = {str(p.relative_to(ROOT)): n for p in MODULES.values()
            if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert not long


def test_project_imports_sit_at_the_top_or_say_why():
    """An import inside a function hides a dependency; where start-up time needs one, the
    line (or the one above it) says why in a comment."""
    hidden = []
    for m, p in MODULES.items():
        rel = p.relative_to(ROOT).as_posix()
        if rel.startswith(STARTUP_PACKAGES):
            continue
        lines = p.read_text(encoding="utf-8").splitlines()
        for t, line, inside in _imports(m, p):
            said = "#" in lines[line - 1] or lines[line - 2].strip().startswith("#")
            if inside and not said:
                hidden.append(f"{rel}:{line} imports {t}")
    assert not hidden


def test_one_list_of_the_compiled_packages():
    """``simulator.sources.PACKAGES`` names what numba compiles; the cache key and the
    negative-index rule (``simulator.jit``) both read it."""
    sys.path.insert(0, str(ROOT))
    from simulator import sources
    assert sources.PACKAGES == ("simulator", "strategies", "play")
    jit = (ROOT / "simulator" / "jit.py").read_text(encoding="utf-8")
    assert "from .sources import PACKAGES" in jit and '"strategies")' not in jit
    compiled = {f.relative_to(ROOT).parts[0] for f in sources.compiled_files(ROOT)}
    assert compiled == set(sources.PACKAGES)


# The commands that parse, call the API and print (docs/architecture.md, "Which layer each
# command calls"). Below the API they import only what turns the API's errors into one-line
# usage errors and what formats its results as text; the work -- playing, the tournament's
# folder, the tuning state, the referee, the viewer page, the timing -- is the API's.
API_COMMANDS = {"tournament": "survive_sim.ranking", "tune": "survive_sim.ranking",
                "strategies": "survive_sim.ranking", "summary": "survive_sim.tables",
                "referee": "survive_sim.logs", "view": "survive_sim.logs",
                "bench": "survive_sim.speed"}
BELOW_THE_API = {
    ("experiments.tournament", "TournamentError"), ("experiments.tournament", "text"),
    ("experiments.tune", "TuneError"), ("experiments.tune", "summary"),
    ("experiments.summary", "format_summary"), ("experiments.runs", "RunError"),
    ("experiments.spec", "SpecError"), ("play.settings", "SettingsError"),
    ("strategies.registry", "StrategyError"), ("replays.draw.logfile", "LogError"),
}


@pytest.mark.parametrize("command", sorted(API_COMMANDS))
def test_these_commands_call_the_api_not_the_layers_below(command):
    path = ROOT / "survive_sim" / "cli" / f"{command}.py"
    below, api = [], set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            pairs = [(a.name, None) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            pairs = [(node.module, a.name) for a in node.names]
        else:
            continue
        for module, name in pairs:
            top = module.split(".")[0]
            if top == "survive_sim":
                api.add(module)
            elif top in PACKAGES and (module, name) not in BELOW_THE_API:
                below.append(f"{module}: {name}")
    assert not below, f"survive_sim/cli/{command}.py drives a layer below the API"
    assert API_COMMANDS[command] in api
