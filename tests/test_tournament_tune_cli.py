"""Tournament and tune, as a user meets them: real ``python -m survive_sim.cli`` processes,
their exit codes, their first stderr line and the files they leave.

* both resume after kill -9 with results equal to an uninterrupted run, refuse to mix in a run
  with other options (one line saying what differs), and play nothing once complete;
* ``tournament --force`` never deletes a file of the user's; an output folder may not hold a
  ``--plugin`` input; ``tune --out`` never overwrites a file that is not a tune result;
* ``tune`` names its real options (STRATEGY, --against);
* memory: a ``--batch`` that cannot fit is refused before any game; tune's games and hold-out
  are played and counted in chunks (memory flat) and the chunking changes nothing;
* ``greedy`` and ``greedy:risk=1`` are one strategy: refused as a duplicate;
* NaN, infinities, overflow and zero in numeric options are one line each.

Games are few (3 players, batches of 5 indices; tune budgets of a few hundred games).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.cli_harness import ROOT, assert_usage_error, listing, run_process

PLUGIN = ROOT / "examples" / "homing_bot.py"
TOUR = ("tournament", "--strategies", "random,greedy", "--players", 3, "--games", 60,
        "--batch", 5, "--no-stop", "--seed", 4)
TUNE = ("tune", "homing:wander=0.9", "--plugin", PLUGIN, "--against", "random",
        "--players", 3, "--budget", 360 * 6, "--games", 30, "--popsize", 4, "--holdout", 60,
        "--seed", 3)
TOUR_FILES = ["README.md", "games.parquet", "head_to_head.csv", "standings.csv",
              "tournament.json"]


def start(*args, cwd):
    """``python -m survive_sim.cli ARGS`` in the background (``cli_harness.run_process``'s
    environment)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=cwd,
                            env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)


def kill_when(proc, path: Path, timeout=300.0):
    """SIGKILL ``proc`` as soon as ``path`` exists (a saved batch or generation)."""
    end = time.monotonic() + timeout
    while not path.exists():
        assert proc.poll() is None, f"it ended (rc {proc.returncode}) before {path} was saved"
        assert time.monotonic() < end, f"{path} never appeared"
        time.sleep(0.05)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert proc.returncode == -signal.SIGKILL


def tour_results(folder: Path):
    meta = json.loads((folder / "tournament.json").read_text())
    meta.pop("timing")
    return ([(folder / n).read_bytes() for n in TOUR_FILES if n != "tournament.json"], meta)


def no_leftovers(where: Path, *keep):
    assert sorted(p.name for p in where.iterdir()) == sorted(keep)


# ---------------------------------------------------------------------------- resume
@pytest.mark.slow
def test_tournament_resumes_after_kill_9_with_equal_results(tmp_path):
    proc = start(*TOUR, "--out", "k", "--no-progress", cwd=tmp_path)
    kill_when(proc, tmp_path / ".k.partial" / "batch-000001.npz")
    assert not (tmp_path / "k").exists()
    # other options: refused, one line saying what differs and how to start over
    r = run_process(*TOUR, "--out", "k", "--seed", 5, "--no-progress", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "--seed 4 there, 5 here")
    assert "--force" in r.stderr
    r = run_process(*TOUR[:-3], "--seed", 4, "--out", "k", "--no-progress", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "--no-stop given there")
    assert (tmp_path / ".k.partial" / "batch-000001.npz").exists()       # nothing mixed
    # the same command resumes
    r = run_process(*TOUR, "--out", "k", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "resumed: " in r.stderr
    timing = json.loads((tmp_path / "k" / "tournament.json").read_text())["timing"]
    played = json.loads((tmp_path / "k" / "tournament.json").read_text())["games_played"]
    assert timing["games_read_back"] > 0                       # the speed is of this run's own
    assert timing["games_timed"] + timing["games_read_back"] == played
    assert timing["games_per_second"] == timing["games_timed"] / timing["seconds"]
    run_process(*TOUR, "--out", "u", "--no-progress", cwd=tmp_path)
    assert tour_results(tmp_path / "k") == tour_results(tmp_path / "u")
    no_leftovers(tmp_path, "k", "u")                 # no .k.partial, no .k.tmp-XXXX
    # complete: the same command plays nothing
    before = (tmp_path / "k" / "tournament.json").read_bytes()
    r = run_process(*TOUR, "--out", "k", "--no-progress", cwd=tmp_path)
    assert r.returncode == 0 and "complete" in r.stdout and "nothing played" in r.stdout
    assert (tmp_path / "k" / "tournament.json").read_bytes() == before


def test_tournament_force_discards_another_runs_partial_state(tmp_path):
    """--force starts over a tournament interrupted with other options (only its own files)."""
    proc = start(*TOUR, "--out", "k", "--no-progress", cwd=tmp_path)
    kill_when(proc, tmp_path / ".k.partial" / "batch-000000.npz")
    small = ("tournament", "--strategies", "random,greedy", "--players", 3, "--games", 5,
             "--no-stop", "--out", "k", "--no-progress")
    r = run_process(*small, cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "--games 60 there, 5 here")
    r = run_process(*small, "--force", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert json.loads((tmp_path / "k" / "tournament.json").read_text())["games_played"] == 15
    no_leftovers(tmp_path, "k")


def _tune_doc(path: Path) -> dict:
    doc = json.loads(path.read_text())
    doc.pop("seconds")
    return doc


@pytest.mark.slow
def test_tune_resumes_after_kill_9_with_equal_results(tmp_path):
    proc = start(*TUNE, "--out", "k.json", "--no-progress", cwd=tmp_path)
    kill_when(proc, tmp_path / ".k.json.partial" / "gen-000001.json")
    assert not (tmp_path / "k.json").exists()
    r = run_process(*TUNE, "--out", "k.json", "--popsize", 6, "--no-progress", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "--popsize 4 there, 6 here")
    assert "--force-new" in r.stderr
    r = run_process(*TUNE, "--out", "k.json", "--threads", 2, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "resuming: " in r.stderr
    u = run_process(*TUNE, "--out", "u.json", "--no-progress", cwd=tmp_path)
    assert _tune_doc(tmp_path / "k.json") == _tune_doc(tmp_path / "u.json")
    # the printed result too, but for the seconds and the file name
    assert r.stdout.splitlines()[1:-1] == u.stdout.splitlines()[1:-1]
    no_leftovers(tmp_path, "k.json", "u.json")
    # complete: plays nothing, prints the result again
    before = (tmp_path / "u.json").read_bytes()
    again = run_process(*TUNE, "--out", "u.json", "--no-progress", cwd=tmp_path)
    assert again.returncode == 0 and "complete: nothing played" in again.stdout
    assert again.stdout.splitlines()[:5] == u.stdout.splitlines()[:5]
    assert (tmp_path / "u.json").read_bytes() == before


def test_tune_state_replays_cma_exactly_and_resumes_inside_the_hold_out(tmp_path, monkeypatch):
    """In-process: a tuning interrupted in its hold-out (chunks of 25 indices here) resumes
    from the saved generations (replayed through CMA-ES: asks checked equal) and the saved
    hold-out sums, and equals an uninterrupted run; the result does not depend on the chunk
    size (exact sums); no engine call plays more than a chunk (memory flat in --holdout)."""
    import experiments.tune as T
    import play.simulate as S
    from strategies.plugins import load_plugin
    load_plugin(PLUGIN)
    t = T.Tuning(strategy="homing:wander=0.9", against=("random",), players=3,
                 budget=360 * 2, games=30, popsize=4, holdout=60, seed=3)
    whole = T.tune(t)                                 # CHUNK = 10,000: one chunk each
    monkeypatch.setattr(T, "CHUNK", 25)
    calls = []
    real = S.run_records
    monkeypatch.setattr(S, "run_records", lambda s, seed, first, count:
                        calls.append(count) or real(s, seed, first, count))
    ident = T.identity(t)
    out = tmp_path / "t.json"

    class Stop(Exception):
        pass

    def interrupt(n):
        if (tmp_path / ".t.json.partial" / "holdout.json").exists():
            raise Stop

    with pytest.raises(Stop), T.TuneState(out, ident) as st:
        T.tune(t, progress=interrupt, state=st)
    saved = json.loads((tmp_path / ".t.json.partial" / "holdout.json").read_text())
    assert saved["indices"] == 25
    calls.clear()
    st = T.TuneState(out, ident)
    assert len(st.generations) == 2
    with st:
        again = T.tune(t, state=st)
    assert max(calls) <= 25 and sum(calls) == 2 * 35 * 3    # only the hold-out's rest
    assert again.best == whole.best and again.history == whole.history
    assert again.holdout == whole.holdout and again.games_played == whole.games_played
    # another state: refused, naming the difference
    other = T.identity(T.Tuning(**{**t.__dict__, "seed": 4}))
    with pytest.raises(T.TuneError, match="--seed 3 there, 4 here"):
        T.TuneState(out, other)


# ---------------------------------------------------------------------------- the user's files
def test_tournament_force_keeps_the_users_files_and_names_them(tmp_path):
    out = tmp_path / "t"
    small = ("tournament", "--strategies", "random,greedy", "--players", 3, "--games", 5,
             "--no-stop", "--out", out, "--no-progress")
    assert run_process(*small, cwd=tmp_path).returncode == 0
    (out / "notes.txt").write_text("my notes")
    before = {n: (out / n).read_bytes() for n in TOUR_FILES}
    r = run_process(*small, "--force", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "'notes.txt'")
    assert (out / "notes.txt").read_text() == "my notes"
    assert {n: (out / n).read_bytes() for n in TOUR_FILES} == before
    no_leftovers(tmp_path, "t")
    # a folder that is not a tournament's is never replaced
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    r = run_process(*small[:-3], "--out", mine, "--force", "--no-progress", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "something other than a tournament")
    assert listing(mine) == ["notes.txt"] and (mine / "notes.txt").read_text() == "mine"


def test_outputs_never_hold_or_replace_a_plugin(tmp_path):
    out = tmp_path / "t"
    out.mkdir()
    bot = out / "bot.py"
    shutil.copy(PLUGIN, bot)
    r = run_process("tournament", "--strategies", "random,homing", "--plugin", bot,
                    "--games", 5, "--out", out, "--force", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "is inside --out")
    assert listing(out) == ["bot.py"] and bot.read_bytes() == PLUGIN.read_bytes()
    r = run_process("tune", "homing", "--plugin", bot, "--against", "random", "--budget",
                    10_000, "--out", bot, cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "is the --plugin file")
    assert bot.read_bytes() == PLUGIN.read_bytes()
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    r = run_process("tune", "homing", "--plugin", bot, "--against", "random", "--budget",
                    10_000, "--out", notes, cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "is not a tune result")
    assert notes.read_text() == "mine"
    no_leftovers(tmp_path, "notes.txt", "t")


# ---------------------------------------------------------------------------- input
def test_same_strategy_in_two_spellings_is_refused_naming_both(tmp_path):
    r = run_process("tournament", "--strategies", "random,greedy,greedy:risk=1", "--games", 5,
                    "--out", tmp_path / "t", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout,
                       "'greedy' and 'greedy:risk=1' are the same strategy 'greedy'")
    from experiments.tournament import Tournament, TournamentError
    with pytest.raises(TournamentError, match="'greedy:risk=2,greed=0.5' and "
                                              "'greedy:greed=0.5,risk=2.0' are the same"):
        Tournament(strategies=("greedy:risk=2,greed=0.5", "greedy:greed=0.5,risk=2.0"))
    t = Tournament(strategies=("greedy:risk=2,greed=0.5,malice=1", "random"), players=3)
    assert t.strategies == ("greedy:risk=2,greed=0.5", "random")
    t = Tournament(strategies=("greedy:risk=2.0000001", "greedy:risk=2"), players=3)
    assert t.strategies == ("greedy:risk=2.0000001", "greedy:risk=2")   # never rounded together
    assert listing(tmp_path) == []


def test_tune_names_its_real_options():
    r = run_process("tune", "nosuch", "--against", "random", "--budget", 100)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "'STRATEGY': unknown strategy")
    assert "--strategy'" not in r.stderr
    r = run_process("tune", "greedy", "--against", "grey", "--budget", 100)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "'--against': unknown strategy 'grey'")


def test_a_batch_that_cannot_fit_is_refused_before_any_game(tmp_path):
    r = run_process("tournament", "--strategies", "random,greedy", "--games", 10**8,
                    "--batch", 10**8, "--out", tmp_path / "t", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "needs about")
    assert "available" in r.stderr and "the largest --batch that fits is" in r.stderr
    r = run_process("tournament", "--strategies", "random,greedy", "--games", 10**12,
                    "--batch", 100, "--no-stop", "--out", tmp_path / "t", cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "the largest --games that fits is")
    assert listing(tmp_path) == []


@pytest.mark.parametrize("args, needle", [
    (("tournament", "--delta", "nan"), "'nan' is not a finite number"),
    (("tournament", "--alpha", "inf"), "'inf' is not a finite number"),
    (("tournament", "--batch", "99999999999999999999"), "--batch"),
    (("tournament", "--games", "0"), "--games"),
    (("tune", "--holdout", str(2**63 - 1)), "the largest --holdout is"),
    (("tune", "--budget", "99999999999999999999"), "--budget"),
    (("tune", "--popsize", "1000000"), "--popsize"),
    (("tune", "--games", "0"), "--games"),
])
def test_numeric_options_are_one_line(tmp_path, args, needle):
    cmd, *rest = args
    base = (["--strategies", "random,greedy", "--games", "10", "--out", tmp_path / "t"]
            if cmd == "tournament" else
            ["greedy", "--against", "random", "--budget", "10000", "--games", "10"])
    r = run_process(cmd, *base, *rest, cwd=tmp_path)
    assert_usage_error(r.returncode, r.stderr, r.stdout, needle)
    assert r.stderr.startswith(f"survive-sim {cmd}: error: ")
    assert listing(tmp_path) == []
