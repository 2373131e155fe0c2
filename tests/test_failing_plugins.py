"""A user's plug-in that misbehaves, run as the user runs it: one line naming the file, the
strategy, the seat (counted from 0, as in the tables) and what went wrong, exit code 2, nothing
written; one that never returns can still be stopped with Ctrl-C or SIGTERM."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from support.cli_harness import ROOT, run_process

HEADER = "from strategies.api import compiled\n"


def _plugin(folder: Path, name: str, body: str) -> Path:
    f = folder / f"{name}.py"
    f.write_text(HEADER + f'NAME = "{name}"\nDESCRIPTION = "a test plug-in"\n'
                 + textwrap.dedent(body))
    return f


RAISES = """
@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    mem[0] += 1
    if mem[0] > 3:
        raise ValueError("boom from the plug-in")
    return 0
"""
LOOPS = """
from numba import objmode

@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    mem[0] += 1
    if mem[0] == 6:                       # tell the test it is stuck from now on
        with objmode():
            open(STUCK, "w").close()
    while mem[0] > 5:
        mem[1] += 1.0
    return 0
"""


@pytest.fixture(scope="module")
def bots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("bots")
    exits = folder / "exits.py"
    exits.write_text("import sys\nsys.exit(0)\n")
    return {"raises": _plugin(folder, "raises", RAISES), "exits": exits,
            "loops": _plugin(folder, "loops", f"STUCK = {str(folder / 'stuck')!r}\n" + LOOPS),
            "stuck": folder / "stuck"}


def _one_line(r) -> str:
    assert "Traceback" not in r.stderr + r.stdout, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


def _left(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir())


@pytest.mark.parametrize("command", [["strategies"], ["simulate", "--games", "3"]])
def test_a_plugin_that_calls_sys_exit_on_import_is_one_line_not_silent_success(
        bots, tmp_path, command):
    extra = ["--out", tmp_path / "x.parquet"] if command[0] == "simulate" else []
    r = run_process(*command, "--plugin", bots["exits"], *extra)
    assert r.returncode == 2
    line = _one_line(r)
    assert "exits.py" in line and "sys.exit(0)" in line
    assert _left(tmp_path) == []


def _raised(line: str, seat: int) -> None:
    assert "raises.py" in line and "strategy raises" in line, line
    assert f"(seat {seat})" in line and "ValueError: boom from the plug-in" in line, line
    assert "decision" in line and "seed" in line, line


def test_a_plugin_that_raises_while_simulating_names_file_strategy_seat_and_exception(
        bots, tmp_path):
    r = run_process("simulate", "--games", 20, "--players", 3, "--plugin", bots["raises"],
                    "--strategies", "random,random,raises", "--out", tmp_path / "x.parquet",
                    "--no-progress")
    assert r.returncode == 2
    _raised(_one_line(r), 2)
    assert _left(tmp_path) == []


def test_a_plugin_that_raises_in_a_replay_or_a_drawing(bots, tmp_path):
    r = run_process("replay", "--game", 3, "--plugin", bots["raises"],
                    "--strategies", "raises,random,random,random", "--json", tmp_path / "g.json")
    assert r.returncode == 2
    _raised(_one_line(r), 0)
    r = run_process("draw", "--game", 1, "--players", 2, "--plugin", bots["raises"],
                    "--strategies", "random,raises", "--out", tmp_path / "b.png")
    assert r.returncode == 2
    _raised(_one_line(r), 1)                     # 2 players: seats A,B,A,B
    assert _left(tmp_path) == []


def test_a_plugin_that_raises_in_a_sweep(bots, tmp_path):
    r = run_process("sweep", "--players", 4, "--strategies", "raises", "--games", 20,
                    "--plugin", bots["raises"], "--out", tmp_path / "run", "--no-progress")
    assert r.returncode == 2
    _raised(_one_line(r), 0)
    assert _left(tmp_path) == []                 # no folder holding only a manifest


SIMULATE = ["simulate", "--games", "50", "--out", "x.parquet"]
SWEEP = ["sweep", "--games", "20", "--out", "run"]


@pytest.mark.parametrize("command, signum, code, word, within", [
    (SIMULATE, signal.SIGINT, 130, "interrupted", 1.5),
    (SIMULATE, signal.SIGTERM, 143, "terminated", 1.5),
    (SWEEP, signal.SIGTERM, 143, "terminated", 3.5),   # a sweep waits 2 s for its chunk
], ids=["simulate-SIGINT", "simulate-SIGTERM", "sweep-SIGTERM"])
@pytest.mark.slow
def test_a_plugin_that_never_returns_can_be_stopped(bots, tmp_path, command, signum, code, word,
                                                    within):
    """The compiled games run on an engine thread while the main thread waits for signals:
    the command ends within a second or two, says which seat had not returned, and leaves no
    temporary file. (SIGINT is set back to its default in the child: a CI runner may start the
    test with it ignored, which the command respects.)"""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen(
        [sys.executable, "-m", "survive_sim.cli", *command, "--players", "2",
         "--plugin", str(bots["loops"]), "--strategies", "random,loops", "--no-progress"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        bots["stuck"].unlink(missing_ok=True)
        deadline = time.monotonic() + 300           # the engine loads (or compiles) first
        while not bots["stuck"].exists() and p.poll() is None and time.monotonic() < deadline:
            time.sleep(0.1)
        time.sleep(0.5)
        assert p.poll() is None, p.communicate()
        sent = time.monotonic()
        p.send_signal(signum)
        out, err = p.communicate(timeout=30)
        took = time.monotonic() - sent
    finally:
        if p.poll() is None:
            p.kill()
    assert p.returncode == code, err
    assert took < within, took
    assert "Traceback" not in err
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert word in lines[0] and "loops.py" in lines[0] and "(seat 1)" in lines[0], lines[0]
    assert "had not returned" in lines[0]
    assert _left(tmp_path) == []

