"""Fuzz of every command's option values: Hypothesis builds command lines from click's
own description of each command (``tests/support/fuzz_harness.py``) -- random text, numbers of every
kind, each option's own choices and range and the values just outside, comma lists with a bad
item, prepared files of every kind -- and runs them in-process through the group's real error
handling (``OneLineErrors.main``, standalone mode). The rule:

* bad input is exactly one line on stderr, ``survive-sim CMD: error: ...``, exit code 2;
* good input runs: here it reaches the command's work (``fuzz_harness.BOUNDARIES``: games,
  compiles, Dask, the report's chunk reading, pictures), which is stopped there;
* nothing raises out of ``main`` (a traceback for the user), whatever the input.

A failure names the command (one test per command) and, shrunk by Hypothesis, the command
line, the exception and its last frame. The example count per command is
``$SURVIVE_SIM_FUZZ_EXAMPLES`` (default 50: the file runs in well under two minutes on a loaded
2-core machine). The examples are derandomized, so CI is reproducible; ``$SURVIVE_SIM_FUZZ_SEED=N``
picks another fixed sequence. With ``$SURVIVE_SIM_FUZZ_LOG=FILE`` every traceback met (shrinking
included) is also appended to FILE as a JSON line, with each command's tally of outcomes; adding
``$SURVIVE_SIM_FUZZ_KEEP_GOING=1`` records instead of failing (a survey: one shallow bug does not
stop the search for the others).

No game is played and the engine is never compiled, so this file replaces the session's
engine warm-up (``conftest.warm_engine``) with nothing.
"""
from __future__ import annotations

import collections
import json
import os
import sys
import time
import zlib

import pytest
from hypothesis import HealthCheck, Phase, given, seed, settings

from support import fuzz_harness as fh
from survive_sim.cli import main

pytestmark = pytest.mark.slow

EXAMPLES = int(os.environ.get("SURVIVE_SIM_FUZZ_EXAMPLES", "50"))
LOG = os.environ.get("SURVIVE_SIM_FUZZ_LOG")
# another fixed sequence of examples (a nightly job may vary it); unset: derandomized
SEED = os.environ.get("SURVIVE_SIM_FUZZ_SEED")
# with a LOG: record and go on instead of failing, so that one shallow bug does not end the
# search for the others (a survey; CI leaves it unset)
KEEP_GOING = bool(LOG) and os.environ.get("SURVIVE_SIM_FUZZ_KEEP_GOING", "") not in ("", "0")
COMMANDS = sorted(main.commands)

# Known-valid lines, per command (parameter name -> value; "@log" etc. name a prepared file):
# the fuzz starts from one of them and changes one to three parameters. A new command has
# none: it is fuzzed from nothing until one is added here.
BASES = {
    "bench": [{"games": "1", "repeat": "1", "players_list": "4"},
              {"sweep_spec": "@spec", "games": "2", "repeat": "1"}],
    "draw": [{"log_path": "@log", "out": "pic.svg"}, {"game": "0", "out": "pic.png"}],
    "fairest": [{"players": "5", "styles": "greedy", "screen": "2", "max_games": "4",
                 "confirm_games": "2", "out": "fa"},
                {"players": "4", "styles": "random+greedy", "plan": True},
                {"source": "fair-boats", "out": "fb", "no_progress": True}],
    "referee": [{"file": "@log"}],
    "replay": [{"game": "0"},
               {"game": "1", "json_path": "g.json", "html_path": "g.html", "gif_path": "g.gif"}],
    "report": [{"run": "@run", "out": "rep"}],
    "simulate": [{"games": "1"}, {"games": "3", "out": "t.csv", "no_progress": True},
                 {"games": "1", "plugins": ["@plugin"], "strategies": "fuzzbot:x=0.2,random",
                  "players": "2"}],
    "stats": [{"run": "@run"}, {"run": "@run", "out": "s.csv", "games": "2"}],
    "strategies": [{}, {"plugins": ["@plugin"]}, {"check": "@plugin"}],
    "study": [{"name": "tiebreaks", "games": "2", "out": "st"}, {"list_": True},
              {"name": "fair-boats", "out": "fbs"},
              {"name": "tiebreaks", "games": "2", "until_settled": True, "max_games": "8"}],
    "summary": [{"file": "@table"}],
    "sweep": [{"out": "sw", "players": "4", "games": "2"}, {"spec_file": "@spec", "out": "sw2"},
              {"spec_file": "@spec", "out": "sw3", "plan": True}],
    "tournament": [{"strategies": "random,greedy", "games": "2", "out": "tour"},
                   {"strategies": "fuzzbot,random", "plugins": ["@plugin"], "games": "2",
                    "out": "tour", "players": "2"}],
    "tune": [{"strategy": "greedy", "against": "random", "budget": "64", "games": "2",
              "popsize": "2", "holdout": "2"},
             {"strategy": "fuzzbot:x=0.1", "plugins": ["@plugin"], "against": "greedy,random",
              "budget": "64", "games": "2", "popsize": "2", "params": "x"}],
    "view": [{"log_path": "@log", "html_path": "v.html"}],
}
# commands whose whole job is cheap and in Python: their valid lines run to the end
RUN_TO_THE_END = {"referee": (0, 1), "strategies": (0,), "summary": (0,), "view": (0,),
                  "study --list": (0,)}


@pytest.fixture(scope="module")
def env(tmp_path_factory):
    return fh.prepare(tmp_path_factory.mktemp("fuzz"))


@pytest.fixture(scope="module")
def sandbox(env):
    """The work boundaries and the file-system guard, for the whole module."""
    import tempfile

    import simulator
    with pytest.MonkeyPatch.context() as mp:
        missing = fh.patch_boundaries(mp)
        fh.guard_filesystem(mp, [str(env.root), tempfile.gettempdir(), simulator.CACHE_DIR,
                                 os.path.expanduser("~/.cache")])
        mp.setattr(sys, "dont_write_bytecode", True)      # plug-ins: no __pycache__ beside them
        env.tokens = fh.vocabulary(main)
        yield missing


def resolved(env, name: str) -> list[dict]:
    def one(v):
        if isinstance(v, str) and v.startswith("@"):
            return env.names[v[1:]]
        if isinstance(v, list):
            return [one(x) for x in v]
        return v
    return [{k: one(v) for k, v in base.items()} for base in BASES.get(name, [])]


# ------------------------------------------------------------------------------ the set-up
def test_every_command_is_enumerated():
    assert COMMANDS, "survive_sim.cli.main has no commands"
    missing = set(fh.KNOWN_COMMANDS) - set(COMMANDS)
    assert not missing, f"commands gone from survive_sim.cli.main: {sorted(missing)}"
    for name in COMMANDS:                            # every base names real parameters
        known = {p.name for p in main.commands[name].params}
        for base in BASES.get(name, []):
            assert set(base) <= known, (name, set(base) - known)


def test_every_work_boundary_exists(sandbox):
    assert not sandbox, (f"work entry points not found (renamed? update "
                         f"fuzz_harness.BOUNDARIES): {sandbox}")


@pytest.mark.parametrize("name", COMMANDS)
def test_a_valid_line_reaches_the_work(name, env, sandbox):
    """The boundary works: each known-valid line passes the checks and is stopped at its work
    (or, for the cheap commands, runs to the end), quickly."""
    bases = resolved(env, name)
    if not bases:
        pytest.skip(f"no known-valid line for the new command {name!r}: add one to BASES")
    for base in bases:
        args = [name] + fh.render(main.commands[name], base)
        with fh.in_folder(env):
            out = fh.run_line(main, args)
        label = "study --list" if base.get("list_") else \
            "strategies --check" if base.get("check") else name
        line = fh.command_text(args)
        if out.kind == "exception":
            raise AssertionError(f"{line} raised {type(out.error).__name__}: {out.error}") \
                from out.error
        if label in RUN_TO_THE_END:
            assert out.kind == "exit" and out.code in RUN_TO_THE_END[label], \
                (line, out.kind, out.code, out.stderr)
        else:
            assert out.kind == "work", (line, out.kind, out.code, out.stdout, out.stderr)
        assert out.seconds < 60, (line, out.seconds)


# ------------------------------------------------------------------------------ the fuzz
TALLY: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)


def check(name: str, args: list[str], env) -> None:
    with fh.in_folder(env):
        out = fh.run_line(main, args)
    tally = TALLY[name]
    tally[out.where if out.kind == "work" else f"{out.kind} {out.code}"] += 1
    tally["max ms"] = max(tally["max ms"], int(1000 * out.seconds))
    if env.restored:
        tally["changed a prepared file"] += 1
        fh.record(LOG, {"command": name, "line": fh.command_text(args),
                        "type": "changed a prepared input file"})
    line = fh.command_text(args)
    if out.kind == "exception":
        e = out.error
        last, own = fh.frames_of(e)
        fh.record(LOG, {"command": name, "line": line, "type": type(e).__name__,
                        "message": str(e)[:300], "last": last, "own": own})
        if KEEP_GOING:
            return
        e.add_note(f"fuzz: {line}")
        e.add_note(f"fuzz: {type(e).__name__} escaped; last frame {last}; last project "
                   f"frame {own}")
        raise e
    if out.kind == "work":
        return
    text = out.stdout + out.stderr
    problem = kind = None
    if "Traceback" in text:
        kind = "traceback printed"
        problem = f"a traceback printed by {line} (exit {out.code}):\n{text}"
    elif out.code not in (0, 1, 2):
        kind = f"exit code {out.code}"
        problem = f"exit code {out.code} from {line}:\n{text}"
    elif out.code == 2:
        lines = out.stderr.splitlines()
        if len(lines) != 1 or not fh.ERROR_LINE.match(lines[0]):
            kind = "exit 2 without one error line"
            problem = (f"exit 2 without exactly one `survive-sim {name}: error: ...` line on "
                       f"stderr from {line}:\n{out.stderr}")
    if problem is None:
        return
    fh.record(LOG, {"command": name, "line": line, "type": "contract", "message": problem[:600],
                    "last": kind, "own": ""})
    if not KEEP_GOING:
        raise AssertionError(problem)


@pytest.mark.parametrize("name", COMMANDS)
def test_fuzz_option_values(name, env, sandbox):
    """Random option values for command ``name``: never a traceback, bad input one line."""
    cmd = main.commands[name]
    bases = resolved(env, name)
    t0 = time.perf_counter()

    def fuzz(args):
        check(name, args, env)

    # derandomize seeds from the test function: a name of its own gives each command its own
    # (fixed) sequence of examples
    fuzz.__name__ = fuzz.__qualname__ = f"fuzz_{name}"
    fuzz = settings(max_examples=EXAMPLES, deadline=None, derandomize=SEED is None,
                    database=None, suppress_health_check=list(HealthCheck),
                    report_multiple_bugs=True,
                    phases=(Phase.explicit, Phase.generate, Phase.shrink))(
        given(args=fh.command_lines(name, cmd, env, bases))(fuzz))
    if SEED is not None:
        fuzz = seed(int(SEED) * 1000 + zlib.crc32(name.encode()) % 1000)(fuzz)

    try:
        fuzz()
    finally:
        summary = dict(TALLY[name], seconds=round(time.perf_counter() - t0, 1))
        print(f"\nfuzz {name}: {json.dumps(summary)}")
        fh.record(LOG, {"command": name, "tally": summary})
