"""The machinery of ``test_fuzz_cli.py``: command lines made by Hypothesis from click's own
description of every command, prepared input files, the work boundary, and the run of one
command line in-process through the group's real error handling.

What a command line is made of comes from ``survive_sim.cli.main`` alone: every command of
``main.commands`` and every ``click.Option`` / ``click.Argument`` of ``cmd.params`` -- its
``type`` (``Choice``, ``IntRange``, ``FloatRange``, ``Path``, ``INT``, text), ``is_flag``,
``multiple``, ``nargs`` and ``metavar`` -- so a new command or option is fuzzed without a change
here. A command line starts, most of the time, from a known-valid line of its command
(``bases``) with one to three of its parameters replaced by a fuzzed value (or dropped), so that
the bad value is met deep in the command's checks rather than behind a missing required
option; sometimes it starts from nothing, sometimes it gets a stray token too.

Input that passes every check must not start the real work (games, compiles, Dask, the
report's reading of chunks, pictures): ``BOUNDARIES`` are the entry points each command calls
once its input is checked, replaced during the fuzz by a function raising ``ReachedWork`` (a
``BaseException``, so no ``except Exception`` of the product can turn it into an error line).
Reaching one counts as "valid input accepted".
"""
from __future__ import annotations

import contextlib
import errno
import importlib
import json
import math
import os
import pkgutil
import re
import shlex
import shutil
import tempfile
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

import click
from hypothesis import strategies as st

KNOWN_COMMANDS = ("bench", "draw", "fairest", "referee", "replay", "report", "simulate",
                  "stats", "strategies", "study", "summary", "sweep", "tournament", "tune",
                  "view")

# one line, the command's path first: ``survive-sim simulate: error: ...``
ERROR_LINE = re.compile(r"^survive-sim( [\w-]+)*: error: \S")


class ReachedWork(BaseException):
    """Raised by a work entry point during the fuzz: the input passed every check."""


def _stop(where: str):
    def stop(*args, **kwargs):
        raise ReachedWork(where)
    stop.__name__ = f"reached_work_{where.replace('.', '_').replace(':', '_')}"
    return stop


# The work each command starts once its input is checked, as ``module:attribute`` (an attribute
# path may go through a class). A name a command imported with ``from x import y`` at module
# level is patched where that command looks it up (``survive_sim.cli.tournament:load_engine``);
# names imported inside the command's function are looked up at call time, so patching their
# home module is enough. The engine's own entry points are the last net: nothing plays a game.
BOUNDARIES = (
    # the compiled engine (every game of every command ends here)
    "play.engine:run_games",
    "play.engine:replay_game",
    # playing games: simulate, bench, plan, tournament, tune, sweep's local executor
    "play.simulate:run_records",
    "play.simulate:iter_frames",
    "play.simulate:simulate",
    "play.simulate:engine_call",
    # one logged game: replay, draw (without --log)
    "play.record:play_logged",
    "play.record:game_log",
    # loading or compiling the engine (tune, sweep/study via play, tournament's own copy)
    "survive_sim.cli.progress:load_engine",
    "survive_sim.cli.progress:compile_apart",
    "survive_sim.cli.tournament:load_engine",
    # tournament and tune, after their options are checked
    "experiments.tournament:play",
    "experiments.tune:tune",
    # sweep and study: run_sweep checks the folder (prepare) and the scheduler (Cluster), then
    # _play writes the manifest and plays; connecting to or starting Dask is work too
    "experiments.sweeps.sweep:_play",
    "experiments.sweeps.sweep:Cluster",
    # report and stats: the run folder is checked (manifest, finished chunks), then _run reads
    # the chunks (here, on a process pool, or on Dask)
    "experiments.verdicts.analysis:_run",
    "experiments.store.workers:Pool._executor",
    # draw: the scene is built, then the picture is rendered
    "replays.draw.raster:png",
    "replays.draw.svg:document",
    # replay's animations (after game_log, so a net only)
    "replays.draw.animate:gif",
    "replays.draw.animate:mp4",
)


def resolve(target: str):
    """``(object, attribute name)`` of ``module:attr.path``; AttributeError when it is gone."""
    module, _, path = target.partition(":")
    obj = importlib.import_module(module)
    *owners, name = path.split(".")
    for part in owners:
        obj = getattr(obj, part)
    getattr(obj, name)                       # exists?
    return obj, name


PACKAGES = ("simulator", "strategies", "play", "experiments", "reports", "replays",
            "survive_sim")


def import_everything() -> None:
    """Import every module of the project before the boundaries are patched: a module first
    imported *during* the fuzz would bind a patched name with its ``from x import y`` for the
    rest of the session (and the next test module would reach a ``ReachedWork``). Bound to the
    real function, it still stops at the engine's entry points, which are patched in place."""
    for pkg in PACKAGES:
        package = importlib.import_module(pkg)
        for info in pkgutil.walk_packages(package.__path__, f"{pkg}."):
            if not info.name.endswith("__main__"):
                importlib.import_module(info.name)


def patch_boundaries(monkeypatch) -> list[str]:
    """Replace every boundary by a ``ReachedWork`` raiser; returns those that do not exist."""
    import_everything()
    missing = []
    for target in BOUNDARIES:
        try:
            obj, name = resolve(target)
        except (ImportError, AttributeError):
            missing.append(target)
            continue
        monkeypatch.setattr(obj, name, _stop(target))
    return missing


# ------------------------------------------------------------------------------ the sandbox
def guard_filesystem(monkeypatch, allowed: list[str]) -> None:
    """The fuzz runs as whatever user CI has, often root: a fuzzed ``--html /dev/null`` would
    rename a file over the device, ``--out /0`` would make a folder at the root. Renames,
    folder creation and tree removal outside ``allowed`` fail as they would for a user
    without the right (``PermissionError``), which the commands must handle anyway."""
    roots = [os.path.realpath(a) for a in allowed]

    def inside(path) -> bool:
        try:
            p = os.path.realpath(os.fspath(path))
        except (TypeError, ValueError):
            return True                      # let the real function complain
        return any(p == r or p.startswith(r + os.sep) for r in roots)

    def guarded(fn, *positions):
        def wrapper(*args, **kwargs):
            if any(kwargs.get(k) is not None for k in ("dir_fd", "src_dir_fd", "dst_dir_fd")):
                return fn(*args, **kwargs)       # relative to an open folder (rmtree's walk)
            for i in positions:
                if i < len(args) and not isinstance(args[i], int) and not inside(args[i]):
                    raise PermissionError(errno.EACCES, "Permission denied (fuzz sandbox)",
                                          os.fspath(args[i]))
            return fn(*args, **kwargs)
        wrapper.__wrapped__ = fn
        return wrapper

    monkeypatch.setattr(os, "replace", guarded(os.replace, 0, 1))
    monkeypatch.setattr(os, "rename", guarded(os.rename, 0, 1))
    monkeypatch.setattr(os, "mkdir", guarded(os.mkdir, 0))
    monkeypatch.setattr(os, "rmdir", guarded(os.rmdir, 0))
    monkeypatch.setattr(shutil, "rmtree", guarded(shutil.rmtree, 0))
    monkeypatch.setattr(shutil, "move", guarded(shutil.move, 0, 1))


# ------------------------------------------------------------------------------ input files
VALID_PLUGIN = '''\
from strategies.api import Param, compiled

NAME = "fuzzbot"
DESCRIPTION = "always the first legal option (the fuzz test's plug-in)"
PARAMS = (Param("x", 0.5, 0.0, 1.0, "unused"),)
MEM_W = 0


@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return 0
'''

BAD_PLUGINS = {
    "plugin_syntax.py": "def (:\n",
    "plugin_raises.py": "raise RuntimeError('boom at import')\n",
    "plugin_exit.py": "import sys\nsys.exit(3)\n",
    "plugin_empty.py": "",
    "plugin_name_only.py": "NAME = 'lonely'\n",
    "plugin_plain_choose.py": "NAME = 'plain'\ndef choose(*a):\n    return 0\n",
    "plugin_bad_params.py": "NAME = 'badp'\nPARAMS = 'x'\nMEM_W = -1\nchoose = None\n",
    "plugin_strategies_str.py": "STRATEGIES = 'x'\n",
    "plugin_strategies_junk.py": "STRATEGIES = [1, None, {'name': 5}]\n",
    "plugin_random_name.py": "NAME = 'random'\nchoose = None\n",
    "plugin_not_py.txt": VALID_PLUGIN,
}

TINY_SPEC = '''\
name = "fuzzspec"
description = "the fuzz test's tiny sweep"
seed = 1
games = 4
chunk = 2

[grid]
players = [4]
strategies = ["random"]
tiebreak = ["shared", "chain"]
'''

BAD_SPECS = {
    "spec_garbage.toml": "this is [not toml\n",
    "spec_empty.toml": "",
    "spec_games_text.toml": 'name = "x"\ngames = "many"\n[grid]\nplayers = [4]\n',
    "spec_games_huge.toml": 'name = "x"\ngames = 99999999999999999999\n[grid]\nplayers = [4]\n',
    "spec_games_float.toml": 'name = "x"\ngames = 1e400\n[grid]\nplayers = [4]\n',
    "spec_games_nan.toml": 'name = "x"\ngames = nan\n[grid]\nplayers = [4]\n',
    "spec_players_bad.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [99, "a"]\n',
    "spec_grid_str.toml": 'name = "x"\ngames = 4\ngrid = "x"\n',
    "spec_no_grid.toml": 'name = "x"\ngames = 4\n',
    "spec_seed_neg.toml": 'name = "x"\ngames = 4\nseed = -1\n[grid]\nplayers = [4]\n',
    "spec_chunk_zero.toml": 'name = "x"\ngames = 4\nchunk = 0\n[grid]\nplayers = [4]\n',
    "spec_claims_bad.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [4]\n[claims.ZZ9]\n',
    "spec_boats_bad.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [4]\nboats = [[9, 9]]\n',
    "spec_strats_bad.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [4]\n'
                            'strategies = ["greedy:risk=nan", 5]\n',
    "spec_max_turns_huge.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [4]\n'
                                'max_turns = [99999999999]\n',
    "spec_plugins_num.toml": 'name = "x"\ngames = 4\nplugins = [5]\n[grid]\nplayers = [4]\n',
    "spec_plugins_missing.toml": 'name = "x"\ngames = 4\nplugins = ["/nonexistent/p.py"]\n'
                                 '[grid]\nplayers = [4]\n',
    "spec_plugin_name.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [4]\n'
                             'strategies = ["fuzzbot:x=0.5"]\n',
    "spec_claims_num.toml": 'name = "x"\ngames = 4\nclaims = 5\n[grid]\nplayers = [4]\n',
    "spec_claim_value.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = [4, 5]\n'
                             '[claims.T2]\nthreshold = "x"\n',
    "spec_name_empty.toml": 'name = ""\ngames = 4\n[grid]\nplayers = [4]\n',
    "spec_name_slash.toml": 'name = "../../x"\ngames = 4\n[grid]\nplayers = [4]\n',
    "spec_grid_empty_list.toml": 'name = "x"\ngames = 4\n[grid]\nplayers = []\n',
    "spec_bytes.toml": 'name = "x\\u0000"\ngames = 4\n[grid]\nplayers = [4]\n',
}

JSON_FILES = {
    "null.json": "null",
    "list.json": "[]",
    "settings_str.json": '{"settings": "x"}',
    "object.json": "{}",
    "string.json": '"survive-sim-log/2"',
    "number.json": "1e400",
    "nan.json": "NaN",
    "deep.json": "[" * 100000 + "]" * 100000,
    "format_only.json": '{"format": "survive-sim-log/2"}',
    "format_other.json": '{"format": "survive-sim-log/9", "events": []}',
    "format_list.json": '{"format": ["x"]}',
}


def _log_variants(log: dict) -> dict[str, str]:
    """A drawable hand-built log and broken copies of it."""
    import copy

    def dump(x):
        return json.dumps(x)

    out = {"log.json": dump(log)}
    text = dump(log)
    out["log_truncated.json"] = text[: len(text) // 2]
    for name, change in {
        "log_no_events.json": lambda g: g.pop("events"),
        "log_events_empty.json": lambda g: g.update(events=[]),
        "log_events_str.json": lambda g: g.update(events="x"),
        "log_tiles_str.json": lambda g: g.update(tiles="x"),
        "log_explorers_none.json": lambda g: g.update(explorers=None),
        "log_settings_str.json": lambda g: g.update(settings="x"),
        "log_settings_empty.json": lambda g: g.update(settings={}),
        "log_players_huge.json": lambda g: g["settings"].update(players=10**30, seats=10**30),
        "log_after_none.json": lambda g: [e.update(after=None) for e in g["events"]],
        "log_after_empty.json": lambda g: [e.update(after={}) for e in g["events"]],
        "log_hex_huge.json": lambda g: [e["after"].update(land=[10**20]) for e in g["events"]],
        "log_strategies_num.json": lambda g: g.update(strategies=5),
        "log_turn_str.json": lambda g: [e.update(turn="x") for e in g["events"]],
        "log_record_list.json": lambda g: g.update(record=[]),
    }.items():
        g = copy.deepcopy(log)
        change(g)
        out[name] = dump(g)
    return out


@dataclass
class Env:
    """The prepared files and what the strategies draw from."""
    root: Path                       # everything the fuzz may touch lives here
    fixtures: Path                   # the working copy of the prepared files (restored)
    pristine: Path                   # the prepared files, never handed to a command
    work: Path                       # per-example working folders are made here
    paths: list[str] = field(default_factory=list)        # absolute: prepared inputs
    targets: list[str] = field(default_factory=list)      # relative: outputs to write
    tokens: list[str] = field(default_factory=list)       # list items (names, numbers ...)
    names: dict[str, str] = field(default_factory=dict)   # role -> a prepared path
    signature: tuple = ()
    restored: bool = False           # the last example changed a prepared file

    def fixture_signature(self) -> tuple:
        out = []
        for d, dirs, files in os.walk(self.fixtures):
            dirs[:] = sorted(x for x in dirs if x != "__pycache__")
            for f in sorted(files) + dirs:
                p = os.path.join(d, f)
                try:
                    s = os.lstat(p)
                except OSError:
                    continue
                out.append((os.path.relpath(p, self.fixtures), s.st_size, s.st_mtime_ns,
                            s.st_mode))
        return tuple(out)

    def restore_fixtures(self) -> bool:
        """Put the prepared files back if a command changed them; True when it had to."""
        if self.fixture_signature() == self.signature:
            return False
        shutil.rmtree(self.fixtures)
        shutil.copytree(self.pristine, self.fixtures, symlinks=True)
        self.signature = self.fixture_signature()
        return True


def _fake_run(folder: Path, spec_text: str) -> None:
    """A small, complete run folder made by the real ``run_sweep`` with made-up records in
    place of the engine's (no game is played, nothing compiles)."""
    import tomllib

    import numpy as np

    import play.layout as LY
    import play.simulate as S
    from experiments.sweeps import spec as specs
    from experiments.sweeps.sweep import run_sweep

    rng = np.random.default_rng(0)

    def records(settings, seed, first, count):
        from play.simulate import SEAT_COLUMNS
        rows = np.zeros((count, LY.REC_W), np.int32)
        game = dict(zip(LY.REC_GAME, range(len(LY.REC_GAME))))
        rows[:, game["players"]] = settings.players
        rows[:, game["seats"]] = settings.seats
        rows[:, game["end_reason"]] = 1                   # volcano
        rows[:, game["tiles_removed"]] = rng.integers(5, 40, count)
        width = len(SEAT_COLUMNS)
        values = np.cumsum([0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6])      # B1.2: 10 worth 28
        for s in range(settings.seats):
            at = LY.R_SEAT0 + s * width

            def put(col, v):
                rows[:, at + SEAT_COLUMNS.index(col)] = v
            rescued = rng.integers(0, 6, count)
            put("rescued", rescued)
            put("rescued_value", values[rescued])
            put("score", values[rescued])
            put("lost", 10 - rescued)
            put("lost_shark", 10 - rescued)
            put("turns", rng.integers(5, 30, count))
        seat_turns = [LY.R_SEAT0 + s * width + SEAT_COLUMNS.index("turns")
                      for s in range(settings.seats)]
        rows[:, game["turns"]] = rows[:, seat_turns].sum(axis=1)
        return rows

    spec = specs.build(tomllib.loads(spec_text), "fuzzspec.toml", spec_text)
    old = S.run_records
    S.run_records = records
    try:
        run_sweep(spec, folder)
    finally:
        S.run_records = old


def prepare(root: Path) -> Env:
    """Write every prepared input into ``root`` (once per test session)."""
    root.mkdir(parents=True, exist_ok=True)
    pristine, fixtures, work = root / "pristine", root / "fx", root / "work"
    pristine.mkdir()
    work.mkdir()
    p = pristine

    def write(name, data):
        path = p / name
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(data, bytes):
            path.write_bytes(data)
        else:
            path.write_text(data, encoding="utf-8")
        return name

    rel = []                                     # names relative to the fixtures folder
    garbage = bytes(range(256)) * 4 + b"\xff\xfe\x00\x00PAR1\x00"
    for ext in (".json", ".csv", ".parquet", ".py", ".toml", ".png", ".svg", ".html", ""):
        rel.append(write(f"garbage{ext}", garbage))
        rel.append(write(f"empty{ext}", b""))
    rel.append(write("latin1.json", "{\"format\": \"caf\xe9\"}".encode("latin-1")))
    for name, text in JSON_FILES.items():
        rel.append(write(name, text))
    from .draw_log import make_log
    for name, text in _log_variants(make_log()).items():
        rel.append(write(name, text))
    rel.append(write("fuzzbot.py", VALID_PLUGIN))
    for name, text in BAD_PLUGINS.items():
        rel.append(write(name, text))
    rel.append(write("fuzzspec.toml", TINY_SPEC))
    for name, text in BAD_SPECS.items():
        rel.append(write(name, text))
    # run folders: a complete one (made-up records), and broken ones
    _fake_run(p / "run_ok", TINY_SPEC)
    rel.append("run_ok")
    import pandas as pd
    table = pd.read_parquet(p / "run_ok")
    table.to_csv(p / "table.csv", index=False)
    table.to_parquet(p / "table.parquet", index=False)
    rel += ["table.csv", "table.parquet"]
    rel.append(write("table_header.csv", ",".join(table.columns) + "\n"))
    rel.append(write("table_junk.csv", ",".join(table.columns) + "\n"
                     + ",".join(["nan"] * len(table.columns)) + "\n"))
    rel.append(write("table_text.csv", "a,b\nx,y\n"))
    double = pd.concat([table, table])
    double.to_csv(p / "table_twice.csv", index=False)
    rel.append("table_twice.csv")
    cols = table.copy()
    cols["players"] = 10**18
    cols.to_csv(p / "table_players_huge.csv", index=False)
    rel.append("table_players_huge.csv")
    (p / "run_empty").mkdir()
    rel.append("run_empty")
    manifest = (p / "run_ok" / "_manifest.json").read_text(encoding="utf-8")
    for name, text in {"run_manifest_null": "null", "run_manifest_list": "[]",
                       "run_manifest_settings": '{"settings": "x"}',
                       "run_manifest_obj": "{}", "run_manifest_garbage": garbage,
                       "run_manifest_only": manifest,
                       "run_manifest_claims": json.dumps({**json.loads(manifest),
                                                          "claims": "x", "games": "x"})}.items():
        (p / name).mkdir()
        write(f"{name}/_manifest.json", text)
        rel.append(name)
    shutil.copytree(p / "run_ok", p / "run_bad_chunk")
    for chunk in (p / "run_bad_chunk").rglob("*.parquet"):
        chunk.write_bytes(garbage)
    rel.append("run_bad_chunk")
    (p / "a_dir").mkdir()
    rel.append("a_dir")
    os.symlink("nowhere/at/all", p / "dangling_link")
    os.symlink("loop_link", p / "loop_link")
    os.symlink("log.json", p / "log_link.json")
    rel += ["dangling_link", "loop_link", "log_link.json"]

    shutil.copytree(pristine, fixtures, symlinks=True)
    env = Env(root=root, fixtures=fixtures, pristine=pristine, work=work)
    env.paths = [str(fixtures / r) for r in rel] + [
        str(fixtures / "missing.json"), str(fixtures / "missing" / "x.csv"), str(fixtures),
        "/proc/x", "/proc/version", "/proc", "/dev/null", "/", "/nonexistent/x.csv"]
    env.names = {"log": str(fixtures / "log.json"), "plugin": str(fixtures / "fuzzbot.py"),
                 "spec": str(fixtures / "fuzzspec.toml"), "run": str(fixtures / "run_ok"),
                 "table": str(fixtures / "table.csv")}
    env.targets = ["out.csv", "out.parquet", "out.CSV", "out.png", "out.svg", "out.gif",
                   "out.mp4", "out.html", "out.json", "out.txt", "out", "out/", "newdir",
                   "missingdir/x.csv", "missingdir/x.png", ".", "..", "", " ", "-",
                   ".csv", "a" * 300 + ".csv", "\udcff.csv", "é.svg",
                   "/proc/x.csv", "/proc/x/y.png", "/proc/version", "/dev/null", "/",
                   "~nosuchuser/x.csv", "~/x.csv", "~"]
    env.signature = env.fixture_signature()
    return env


def vocabulary(main) -> list[str]:
    """Items for comma lists, harvested from the project itself: strategy names, shipped
    studies, every Choice of every command, and the words the list options know."""
    from experiments.sweeps import spec as specs
    from strategies.registry import listed_names
    words = set(listed_names()) | set(specs.shipped())
    for cmd in main.commands.values():
        for p in cmd.params:
            if isinstance(p.type, click.Choice):
                words |= {str(c) for c in p.type.choices}
    words |= {"rules", "flat", "reversed", "none", "base", "both", "local", "fuzzbot",
              "greedy:risk=2", "greedy:risk=nan", "greedy:risk=1e400", "greedy:risk=-1",
              "greedy:risk=", "greedy:=", "greedy:risk", "greedy:nope=1", "greedy:risk=2,risk=3",
              "fuzzbot:x=0.5", "fuzzbot:x=2", "fuzzbot:x=inf", "random:", ":", "=", "key=1",
              "2.2.2.2", "2.2.x", "2..2", "3.3.3.3.3", "0.0.0.0", "tcp://127.0.0.1:1",
              "tcp://", "tcp://[::1", "inproc://x", "ucx://", "risk", "x"}
    return sorted(words) + [str(i) for i in range(-1, 8)]


# ------------------------------------------------------------------------------ the values
SPECIAL_NUMBERS = ("nan", "NaN", "-nan", "inf", "-inf", "+inf", "Infinity", "1e400", "-1e400",
                   "1e-400", "5e-324", "1.7976931348623157e308", "-0", "-0.0", "0", "00", "1",
                   "-1", "0.5", "1.0", "2.5", "1e3", "1E3", "0x10", "0b1", "0o7", "1_000",
                   "99999999999999999999", "2147483647", "2147483648", "-2147483649",
                   "4294967296", "9223372036854775807", "9223372036854775808",
                   "-9223372036854775808", "-9223372036854775809", "18446744073709551616",
                   "1" + "0" * 400, "9" * 5000, " 4 ", "4\n", "\t3", "+4", "٣", "１", "½", "",
                   "4,abc", "1,2,3", "4.", ".5", "1e", "--1", "1-", "True", "None")

TEXT_SPECIALS = ("", " ", "  ", "\t", "\n", "\r\n", "-", "--", "-x", "--bogus", "=", ",",
                 ",,", "a,,b", ",4", "4,", "4,abc", "abc,4", "é", "日本語", "💥", "\u202e",
                 "\x1b[31mred", "\x07", "\x7f", "\ufeff", "a\u0301", "x" * 3000,
                 "a," * 2000, "%s%n", "{}", "{0}", "'", '"', "\\", "$(echo hi)", "*", "?",
                 "~", "~/x", "\udcff", "none", "None", "null", "true", "local")


def _text():
    chars = st.characters(exclude_characters="\x00", exclude_categories=("Cs",))
    return st.one_of(st.text(chars, max_size=40), st.sampled_from(TEXT_SPECIALS),
                     st.text(st.sampled_from("0123456789,.-+eE naif:=x"), max_size=12))


def _numbers():
    return st.one_of(
        st.sampled_from(SPECIAL_NUMBERS),
        st.integers().map(str),
        st.integers(-2**70, 2**70).map(str),
        st.floats().map(repr),
        st.floats(allow_nan=False, allow_infinity=False).map(lambda f: f"{f:.3e}"),
    )


def _range_values(t) -> st.SearchStrategy[str]:
    """A click IntRange / FloatRange: its bounds, the values just outside, values inside."""
    lo, hi = t.min, t.max
    is_int = isinstance(t, click.IntRange)
    edges = []
    for b in (lo, hi):
        if b is None:
            continue
        if is_int:
            edges += [b, b - 1, b + 1]
        else:
            edges += [b, math.nextafter(b, -math.inf), math.nextafter(b, math.inf)]
    edges = [repr(e) if isinstance(e, float) else str(e) for e in edges]
    parts = [st.sampled_from(edges or ["0"])]
    if is_int:
        a = -2**63 if lo is None else lo
        b = a + 1000 if hi is None else min(hi, a + 1000)
        parts.append(st.integers(a, b).map(str))
        parts.append(st.integers(a, b).map(lambda i: f"{i}.0"))
        parts.append(st.integers(a, b).map(lambda i: f"{i}.5"))
    else:
        a = -1e6 if lo is None else lo
        b = 1e6 if hi is None else hi
        parts.append(st.floats(a, b).map(repr))
        parts.append(st.floats(a, b).map(lambda f: f"{f:.2e}"))
    return st.one_of(*parts)


def _choice_values(t) -> st.SearchStrategy[str]:
    choices = [str(c) for c in t.choices]
    near = []
    for c in choices:
        near += [c.upper(), c.title(), f" {c}", f"{c} ", f"{c},", c[:-1], c + c[-1:],
                 f"{c},{c}"]
    return st.one_of(st.sampled_from(choices), st.sampled_from(near or [""]))


PATH_METAVARS = ("FILE", "DIR", "FOLDER", "LOG", "SPEC", "RUN")
LIST_METAVARS = ("LIST", "NAMES", "SET")
PATH_WORDS = ("path", "file", "out", "log", "json", "html", "gif", "mp4", "spec", "run",
              "plugin", "dir", "folder")


def _kind(param) -> set[str]:
    """What a parameter's values look like, from click's description of it."""
    kinds = set()
    meta = (param.metavar or "").upper()
    name = (param.name or "").lower()
    if isinstance(param.type, click.Path) or any(m in meta for m in PATH_METAVARS) or \
            any(w in name for w in PATH_WORDS):
        kinds.add("path")
    if any(m in meta for m in LIST_METAVARS) or \
            name in ("boats", "max_turns", "tiebreak", "against", "params", "name", "strategy"):
        kinds.add("list")
    if "ADDRESS" in meta or "scheduler" in name:
        kinds.add("address")
    return kinds


def _lists(tokens: list[str]) -> st.SearchStrategy[str]:
    item = st.one_of(st.sampled_from(tokens), st.sampled_from(tokens),
                     st.sampled_from(SPECIAL_NUMBERS), _text())
    sep = st.sampled_from([",", ",", ",", ", ", " ,", ".", ";", " "])
    return st.tuples(st.lists(item, min_size=1, max_size=6), sep).map(lambda x: x[1].join(x[0]))


def scalar_values(param, env: Env) -> st.SearchStrategy[str]:
    """Strings for one value of ``param``: its own type's values and near misses, numbers of
    every kind, random text, comma lists and paths, weighted by what the parameter is."""
    t = param.type
    weighted = [(_text(), 2), (_numbers(), 2)]
    if isinstance(t, click.Choice):
        weighted.append((_choice_values(t), 5))
    if isinstance(t, (click.IntRange, click.FloatRange)):
        weighted.append((_range_values(t), 6))
    elif isinstance(t, click.types.IntParamType):
        weighted.append((st.integers(-2**65, 2**65).map(str), 4))
    elif isinstance(t, click.types.FloatParamType):
        weighted.append((st.floats().map(repr), 4))
    kinds = _kind(param)
    inputs, outputs = st.sampled_from(env.paths), st.sampled_from(env.targets)
    paths = st.one_of(inputs, inputs, inputs, outputs)      # mostly files that exist
    weighted.append((paths, 6 if "path" in kinds else 1))
    weighted.append((_lists(env.tokens), 6 if "list" in kinds else 1))
    if "address" in kinds:
        weighted.append((st.sampled_from(["local", "LOCAL", "tcp://127.0.0.1:1", "tcp://",
                                          "tcp://[::1", "inproc://", "ucx://x", "x:y:z",
                                          "tcp://host:99999999", "tcp://:-1", ""]), 5))
    pool = [s for s, w in weighted for _ in range(w)]
    return st.sampled_from(pool).flatmap(lambda s: s)


def param_values(param, env: Env):
    """What the command line holds for ``param``: a flag's on/off (or the other spelling of a
    boolean pair), one value, ``nargs`` values, or a list of values of a ``multiple`` option."""
    if isinstance(param, click.Option) and param.is_flag:
        spellings = list(param.opts) + list(param.secondary_opts)
        if param.secondary_opts:
            return st.sampled_from(spellings + [False])
        return st.booleans()
    one = scalar_values(param, env)
    if param.nargs == -1:
        return st.lists(one, max_size=3)
    if param.nargs > 1:
        return st.tuples(*[one] * param.nargs)
    if getattr(param, "multiple", False):
        return st.lists(one, min_size=1, max_size=3)
    return one


def render(cmd, values: dict) -> list[str]:
    """The argument list of ``values`` (parameter name -> value): options in their declared
    order, then the arguments."""
    args, tail = [], []
    for p in cmd.params:
        if p.name not in values:
            continue
        v = values[p.name]
        if isinstance(p, click.Argument):
            tail += list(v) if isinstance(v, (list, tuple)) else [v]
            continue
        opt = p.opts[0]
        if p.is_flag:
            if v is True:
                args.append(opt)
            elif isinstance(v, str):
                args.append(v)                          # a chosen spelling
            continue
        items = v if isinstance(v, list) else [v]
        for item in items:
            if isinstance(item, tuple):
                args += [opt, *item]
            else:
                args += [opt, item]
    return [str(a) for a in args + tail]


@st.composite
def command_lines(draw, name: str, cmd, env: Env, bases: list[dict]):
    """One command line of ``name``: a known-valid line with one to three parameters fuzzed
    (or dropped); sometimes built from nothing; sometimes with a stray token added."""
    params = list(cmd.params)
    mode = draw(st.sampled_from(["mutate"] * 8 + ["scratch", "stray"]))
    values = {} if mode == "scratch" or not bases else dict(draw(st.sampled_from(bases)))
    if params:
        chosen = draw(st.lists(st.sampled_from(params), min_size=1,
                               max_size=5 if mode == "scratch" else 3,
                               unique_by=lambda p: p.name))
        for p in chosen:
            if values and draw(st.integers(0, 9)) == 0:
                values.pop(p.name, None)
            else:
                values[p.name] = draw(param_values(p, env))
    args = render(cmd, values)
    if mode == "stray":
        token = draw(st.one_of(st.sampled_from(["--bogus", "-x", "--", "extra", "--help=x",
                                                "--games", "-"]), _text()))
        args.insert(draw(st.integers(0, len(args))), token)
    return [name] + args


# ------------------------------------------------------------------------------ one run
@dataclass
class Outcome:
    kind: str                        # "work", "exit" or "exception"
    code: int | None = None
    stdout: str = ""
    stderr: str = ""
    where: str = ""                  # the boundary reached
    error: BaseException | None = None
    seconds: float = 0.0


def run_line(main, args: list[str]) -> Outcome:
    """``survive-sim ARGS`` in-process, in standalone mode: ``OneLineErrors.main`` prints the
    error line and calls ``sys.exit``, which CliRunner turns into the exit code; anything else
    that leaves ``main`` is what a user would see as a traceback."""
    from click.testing import CliRunner
    try:
        runner = CliRunner(mix_stderr=False)        # click < 8.2
    except TypeError:
        runner = CliRunner()                        # click >= 8.2: stderr is separate
    t0 = time.perf_counter()
    try:
        r = runner.invoke(main, args, catch_exceptions=False, prog_name="survive-sim")
    except ReachedWork as w:
        return Outcome("work", where=str(w), seconds=time.perf_counter() - t0)
    except Exception as e:                          # noqa: BLE001 -- exactly what we look for
        return Outcome("exception", error=e, seconds=time.perf_counter() - t0)
    return Outcome("exit", code=r.exit_code, stdout=r.stdout, stderr=r.stderr,
                   seconds=time.perf_counter() - t0)


@contextlib.contextmanager
def in_folder(env: Env):
    """A fresh working folder for one example (relative outputs land there), removed after;
    the prepared files are put back if the command changed them."""
    old = os.getcwd()
    d = tempfile.mkdtemp(dir=env.work)
    os.chdir(d)
    try:
        yield Path(d)
    finally:
        os.chdir(old)
        shutil.rmtree(d, ignore_errors=True)
        env.restored = env.restore_fixtures()


def command_text(args: list[str]) -> str:
    return "survive-sim " + " ".join(shlex.quote(a if len(a) <= 200 else a[:200] + "...")
                                     for a in args)


PROJECT = str(Path(__file__).resolve().parents[2])


def frames_of(e: BaseException) -> tuple[str, str]:
    """The last frame of the traceback, and the last one in the project's own code."""
    tb = traceback.extract_tb(e.__traceback__)
    last = f"{tb[-1].filename}:{tb[-1].lineno}" if tb else "?"
    own = [f for f in tb if f.filename.startswith(PROJECT) and "/tests/" not in f.filename
           and "site-packages" not in f.filename]
    mine = f"{os.path.relpath(own[-1].filename, PROJECT)}:{own[-1].lineno}" if own else "?"
    return last, mine


def record(path: str | None, entry: dict) -> None:
    """Append a finding to ``$SURVIVE_SIM_FUZZ_LOG`` (JSON lines) when it is set."""
    if not path:
        return
    with open(path, "a", encoding="utf-8") as f:
        f.write(json.dumps(entry, ensure_ascii=True) + "\n")
