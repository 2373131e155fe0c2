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
import re
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
    "reports": {"simulator", "play", "replays", "experiments"},
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


# experiments/ by concept, bottom to top (docs/architecture.md): where runs are stored, the
# tables read from them, the claims and their verdicts, the sweeps that play for them, and the
# searches above them all. Each part imports only the parts below it.
EXPERIMENTS = ("store", "capture", "tables", "komi", "verdicts", "sweeps", "tune", "tournament",
               "fairest")


def _part(module: str) -> str | None:
    parts = module.split(".")
    return parts[1] if parts[0] == "experiments" and len(parts) > 1 else None


def test_experiments_is_its_parts_and_nothing_else():
    here = ROOT / "experiments"
    found = {p.stem for p in here.glob("*.py") if p.stem != "__init__"} | \
        {d.name for d in here.iterdir() if (d / "__init__.py").is_file()}
    assert found == set(EXPERIMENTS)
    assert GRAPH["experiments"] == set(), "experiments/__init__ is a table of contents"


def _upward(graph: dict[str, set[str]]) -> list[str]:
    return sorted(f"{m} imports {t}" for m, targets in graph.items() if _part(m) in EXPERIMENTS
                  for t in targets if _part(t) in EXPERIMENTS
                  and EXPERIMENTS.index(_part(t)) > EXPERIMENTS.index(_part(m)))


def test_each_part_of_experiments_imports_only_the_parts_below_it():
    assert not _upward(GRAPH), f"experiments' parts, bottom to top: {', '.join(EXPERIMENTS)}"


def test_the_parts_order_catches_an_upward_import():
    assert _upward({"experiments.store.runs": {"experiments.sweeps.spec"},
                    "experiments.sweeps.spec": {"experiments.store.runs"}}) == \
        ["experiments.store.runs imports experiments.sweeps.spec"]


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


# Every command parses, calls the API and prints (docs/architecture.md, "Which layer each
# command calls"). That table is read here: a row names the command, the API functions it
# calls (``runs.study``: ``study`` of ``survive_sim.runs``) and what it may import below the
# API -- the exceptions it turns into one-line usage errors, the text functions that format
# the API's results, and the parts the API has no function for. The work -- playing, the
# tournament's folder, the tuning state, the referee, the viewer page, the timing, a study's
# rounds -- is the API's.
ARCHITECTURE = ROOT / "docs" / "architecture.md"
API_MODULES = {"games", "tables", "logs", "runs", "ranking", "speed", "fair"}
CHECKS = "survive_sim.checks"          # the API's own checks: any command may call them too


def _command_table() -> dict[str, tuple[list[str], list[str]]]:
    """command -> (the API column's names, the below-the-API column's names), in backticks."""
    text = ARCHITECTURE.read_text(encoding="utf-8")
    rows = text.split("### Which layer each command calls", 1)[1].split("\n\n", 2)[1]
    table = {}
    for line in rows.splitlines()[2:]:
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        command = re.fullmatch(r"`([a-z-]+)`", cells[0]).group(1)
        assert command not in table, f"{command} has two rows"
        table[command] = (re.findall(r"`([^`]+)`", cells[1]),
                          re.findall(r"`([^`]+)`", cells[2]))
    return table


COMMANDS = sorted(p.stem for p in (ROOT / "survive_sim" / "cli").glob("*.py")
                  if re.search(r"^@main\.command", p.read_text(encoding="utf-8"), re.M))
TABLE = _command_table()


def _imports_and_calls(path: Path) -> tuple[list[tuple[str, str | None, str]], set[str]]:
    """The module's absolute imports ``(module, name, bound as)`` and the names it calls."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imports, called = [], set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imports += [(a.name, None, a.asname or a.name) for a in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level and node.module:
            imports += [(node.module, a.name, a.asname or a.name) for a in node.names]
        elif isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
            called.add(node.func.id)
    return imports, called


def _allowed_below(module: str, name: str | None, allowed: list[str]) -> bool:
    """``from module import name`` is named in the row: as ``module.name``, as the module or
    a package above it, or (an exception) by its name alone."""
    for t in allowed:
        if t == f"{module}.{name}" or t == module or module.startswith(t + "."):
            return True
        if name is not None and t == name and name.endswith("Error"):
            return True
    return False


def test_the_table_has_one_row_per_command():
    assert len(COMMANDS) == 15
    assert sorted(TABLE) == COMMANDS


@pytest.mark.parametrize("command", COMMANDS)
def test_each_command_calls_the_api_its_row_names_and_only_that_below_it(command):
    api_names, below_names = TABLE[command]
    imports, called = _imports_and_calls(ROOT / "survive_sim" / "cli" / f"{command}.py")
    from_api = {(m.split(".", 1)[1], n): alias for m, n, alias in imports
                if m.startswith("survive_sim.") and m != CHECKS}
    named = {tuple(t.split(".")[:2]) for t in api_names if t.split(".")[0] in API_MODULES}
    # every API function of the row is imported and called; every API import is in the row
    missing = sorted(f"{m}.{n}" for m, n in named if (m, n) not in from_api)
    assert not missing, f"the table says {command} calls {missing}; the module does not"
    idle = sorted(f"{m}.{n}" for (m, n), alias in from_api.items()
                  if (m, n) in named and alias not in called and n[0].islower())
    assert not idle, f"{command} imports {idle} and never calls it"
    unnamed = sorted(f"{m}.{n}" for m, n in from_api if (m, n) not in named)
    assert not unnamed, f"{command} calls {unnamed} of the API: name it in its row"
    below = sorted(f"{m}: {n}" for m, n, _ in imports
                   if m.split(".")[0] in PACKAGES and m.split(".")[0] != "survive_sim"
                   and not _allowed_below(m, n, below_names))
    assert not below, f"survive_sim/cli/{command}.py drives a layer below the API " \
                      f"that its row does not name"


def test_the_study_command_calls_the_api_study_and_has_no_run_logic():
    """``survive-sim study`` re-implemented ``survive_sim.study`` (its rounds, its sweeps,
    its checks), and the two copies worded one rule differently; now the command parses,
    calls ``study`` with its hooks and prints."""
    imports, called = _imports_and_calls(ROOT / "survive_sim" / "cli" / "study.py")
    assert ("survive_sim.runs", "study", "study") in imports and "study" in called
    modules = {m for m, _, _ in imports} | {f"{m}.{n}" for m, n, _ in imports}
    for logic in ("experiments.sweeps.settle", "experiments.sweeps.sweep", "experiments.store.runs",
                  "survive_sim.checks", "survive_sim.runs.SETTLE_CAP"):
        assert logic not in modules, f"cli/study.py imports {logic}"
