"""A user's plug-in that writes into what it is handed or answers with a float, run as the user
runs it: ``pub[:] = 0`` made simulate, tournament and ``replay --check`` hang, ``return 1e30``
was played as a row, and ``opts[0, 0] = 99`` ended in a ``ZeroDivisionError`` traceback. Each is
now one line naming the file and what it did, exit code 2, nothing written, and a ``ValueError``
from the Python API with the same text (docs/writing-a-strategy.md, "What is checked")."""
from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import numpy as np
import pytest

import survive_sim
from support.cli_harness import ROOT
from play.settings import Settings
from play.simulate import run_records
from strategies.plugins import load_plugin

TIMEOUT = 300                     # a hang fails the test instead of the suite


def _bot(folder: Path, name: str, body: str) -> Path:
    f = folder / f"{name}.py"
    f.write_text("import numpy as np\nfrom simulator.rng import randint\n"
                 "from strategies.api import compiled\n"
                 f'NAME = "{name}"\nDESCRIPTION = "a misbehaving test plug-in"\n\n'
                 "@compiled\ndef choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):\n"
                 + textwrap.indent(textwrap.dedent(body).strip() + "\n", "    "))
    return f


BODIES = {
    "pubzero": "pub[:] = 0\nreturn 0",
    "minezero": "mine[:] = 0\nreturn 0",
    "huge": "return 1e30",
    "nan": "return np.nan",
    "yesno": "return n > 5",
    "optszero": "opts[:] = 0\nreturn 0",
    "opts99": "opts[0, 0] = 99\nreturn 0",
    "minus2": "return -2",                                  # not mistaken for a changed opts
    "scratch": "opts[n, 0] = 5\nopts[n + 1, 3] = -9\nreturn randint(rng, 0, n)",
}


@pytest.fixture(scope="module")
def bots(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bots")
    return {name: _bot(folder, name, body) for name, body in BODIES.items()}


def _run(*args, cwd: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=TIMEOUT)


def _command(which: str, bot: Path, out: Path) -> list:
    """The command a user runs, the plug-in in the first seat, writing into ``out``."""
    name = bot.stem
    if which == "simulate":
        return ["simulate", "--plugin", bot, "--games", 20, "--players", 4, "--strategies",
                f"{name},random,random,random", "--out", out / "x.parquet", "--no-progress"]
    if which == "tournament":
        return ["tournament", "--plugin", bot, "--strategies", f"{name},random", "--players", 2,
                "--games", 4, "--out", out / "t", "--no-progress"]
    return ["replay", "--check", "--game", 0, "--plugin", bot, "--strategies",
            f"{name},random,random,random", "--json", out / "g.json"]


def _fails_in_one_line(bot: Path, which: str, tmp_path: Path, *needles: str) -> str:
    r = _run(*_command(which, bot, tmp_path), cwd=tmp_path)
    assert r.returncode == 2, (r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    line = lines[0]
    assert line.startswith(f"survive-sim {which}: error: "), line
    assert f"plug-in {bot}" in line, line
    for needle in needles:
        assert needle in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == []      # no file, no .partial folder
    return line


def _api_error(bot: Path, players: int = 4) -> str:
    with pytest.raises(ValueError) as e:
        survive_sim.simulate(20, players=players, strategies=[bot.stem, "random", "random",
                                                              "random"], plugins=[bot])
    return str(e.value)


# ------------------------------------------------------------------ 1. writing into pub or mine
@pytest.mark.parametrize("name, which", [
    ("pubzero", "simulate"), ("pubzero", "tournament"), ("pubzero", "replay"),
    ("minezero", "simulate")])
def test_a_plugin_that_writes_into_pub_or_mine_is_refused_before_any_game(
        bots, tmp_path, name, which):
    """``pub`` and ``mine`` are read-only in ``choose``: the write is a compile error, named by
    its line, not a game that never ends."""
    field = "pub" if name == "pubzero" else "mine"
    line = _fails_in_one_line(bots[name], which, tmp_path, "writes into pub or mine at line 9",
                              f"({field}[:] = 0)", "read-only")
    if which == "simulate":
        assert _api_error(bots[name]) in line


def _writes_mine(pub, mine, seat, n, opts, phase, rng, mem, work, params):
    x = 1
    mine[0] = x
    return 0


@pytest.mark.parametrize("message", [
    "Cannot modify readonly array of type: readonly array(int32, 1d, C)",
    'Cannot modify readonly array\nFile "elsewhere.py", line 3:\n<source missing, REPL/exec in use?>'])
def test_the_line_of_a_write_is_named_whatever_numba_s_message_holds(message):
    """CI's numba printed its error without the source block the first parser looked for (the
    line came out "?"): the line is taken from the error's own location, then from the message,
    then from the plug-in's source."""
    from strategies.api import _read_only_write
    first = _writes_mine.__code__.co_firstlineno
    refused = str(_read_only_write(_writes_mine, TypeError(message)))
    want = first + 2 if "line 3" not in message else 3
    assert f"at line {want}" in refused, refused
    if want == first + 2:
        assert "(mine[0] = x)" in refused, refused


# ------------------------------------------------------------------ 2. a float answer
@pytest.mark.parametrize("name, which, returned", [
    ("huge", "simulate", "float64"), ("huge", "tournament", "float64"),
    ("huge", "replay", "float64"), ("nan", "simulate", "float64"), ("yesno", "simulate", "bool")])
def test_a_plugin_that_returns_a_float_is_refused_before_any_game(bots, tmp_path, name, which,
                                                                  returned):
    """numba turned a float answer into some int the engine played (1e30, NaN); a ``choose``
    whose return type is not an integer is refused when the file loads."""
    line = _fails_in_one_line(bots[name], which, tmp_path, f"strategy {name}'s choose returns "
                              f"{returned}, not an int", "an int 0 <= k < n")
    if which == "simulate":
        assert _api_error(bots[name]) in line


# ------------------------------------------------------------------ 3. writing into opts
@pytest.mark.parametrize("name, which", [
    ("optszero", "simulate"), ("optszero", "tournament"), ("optszero", "replay"),
    ("opts99", "simulate")])
def test_a_plugin_that_changes_its_legal_options_stops_the_run(bots, tmp_path, name, which):
    """The seat call keeps a copy of ``opts[:n]`` and compares it after ``choose``: a change
    stops the run, naming the seat and the decision, before the engine plays a changed row."""
    seat = 2 if which == "tournament" else 0     # its first line-up sits random,<bot>,random,..
    line = _fails_in_one_line(bots[name], which, tmp_path, f"strategy {name} (seat {seat})",
                              "changed its legal options opts[:n] at a place_explorer decision",
                              "(game 0, seed 0)", "rows past n are scratch")
    if which == "simulate":
        assert _api_error(bots[name]) == line.split(": error: ", 1)[1]


def test_a_negative_answer_is_a_row_outside_the_options_not_a_change_of_them(bots, tmp_path):
    line = _fails_in_one_line(bots["minus2"], "simulate", tmp_path, "strategy minus2 (seat 0)",
                              "returned a row outside the legal options", "0 <= k < n")
    assert "opts" not in line


def test_rows_past_n_stay_scratch(bots):
    """Writing past ``opts[:n]`` is allowed (greedy's whole-move search does): the same games
    as ``random``, whose draws the plug-in repeats."""
    load_plugin(bots["scratch"])
    for players in (4, 6):
        mine = run_records(Settings(players=players, strategies=("scratch",)), 3, 0, 40)
        theirs = run_records(Settings(players=players, strategies=("random",)), 3, 0, 40)
        np.testing.assert_array_equal(mine, theirs)
