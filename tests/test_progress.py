"""Progress a person can follow: the phase, done/total, rate and ETA, a line at least every
``every`` seconds in a log even when nothing finishes (the heartbeat), silence after ``close``
and with ``--no-progress``.

The unit tests drive a fake clock and call ``tick`` themselves (no sleeps, no wall clock); the
end-to-end tests run real commands with stderr in a file or a pipe and
``SURVIVE_SIM_PROGRESS_EVERY=0`` (a line at every update), and look for the lines."""
from __future__ import annotations

import io
import os
import re
import subprocess
import sys

import click
import pytest
from support.cli_harness import ROOT, invoke

from experiments.store.watch import Silent, watching
from survive_sim.cli.progress import ENV, Progress, duration, interval


class Clock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


class Terminal(io.StringIO):
    def isatty(self):
        return True


def make(total=None, phase="", **kw):
    clock, log = Clock(), io.StringIO()
    kw.setdefault("every", 10)
    p = Progress(total, "game", phase, stream=log, clock=clock, heartbeat=False, **kw)
    return p, clock, log


def lines(log) -> list[str]:
    return log.getvalue().splitlines()


# ---------------------------------------------------------------------------- the lines
def test_a_phase_shows_done_total_rate_and_eta():
    p, clock, log = make(100, "playing", title="sweep five-six")
    for _ in range(10):
        clock.now += 4                                    # a chunk every 4 s
        p.update(10)
    p.close()
    assert lines(log) == [
        "sweep five-six: playing: 0/100 games (0%) in 0.0 s, ETA unknown",
        "sweep five-six: playing: 30/100 games (30%) in 12.0 s, 2.5 games/s, ETA 28.0 s",
        "sweep five-six: playing: 60/100 games (60%) in 24.0 s, 2.5 games/s, ETA 16.0 s",
        "sweep five-six: playing: 90/100 games (90%) in 36.0 s, 2.5 games/s, ETA 4.0 s",
        "sweep five-six: playing: 100/100 games (100%) in 40.0 s, 2.5 games/s"]


def test_the_heartbeat_repeats_the_state_when_nothing_finishes():
    p, clock, log = make(1000, "playing", title="sweep x")
    clock.now += 5
    p.update(100)                                         # 5 s after the start: no line yet
    assert len(lines(log)) == 1
    clock.now += 4
    assert p.tick() == pytest.approx(1.0)                 # 9 s after the last line: 1 s to go
    assert len(lines(log)) == 1
    clock.now += 1
    assert p.tick() == pytest.approx(10.0)                # due: written, next in 10 s
    assert lines(log)[-1] == "sweep x: playing: 100/1,000 games (10%) in 10.0 s, 10 games/s, " \
                             "ETA 1 min 30 s"
    clock.now += 25                                       # a slow chunk: the rate decays
    p.tick()
    assert lines(log)[-1] == "sweep x: playing: 100/1,000 games (10%) in 35.0 s, 2.9 games/s, " \
                             "ETA 5 min 15 s"
    assert len(lines(log)) == 3
    p.close()


def test_a_phase_without_units_shows_its_elapsed_time():
    p, clock, log = make(title="tournament")
    p.begin("standings and head to head")
    clock.now += 31
    p.tick()
    p.close()
    assert lines(log) == ["tournament: standings and head to head ...",
                          "tournament: standings and head to head ... 31.0 s"]


def test_phases_and_a_resumed_run():
    """A new phase ends the last one (its last line, no ETA); games already in the folder count
    towards done/total but not towards the rate."""
    p, clock, log = make(title="sweep x")
    p.begin("checking the chunk files already there", 4, unit="chunk file")
    clock.now += 2
    p.update(4)
    p.begin("playing", 1000, done=600)
    clock.now += 20
    p.update(200)
    p.close()
    assert lines(log) == [
        ("sweep x: checking the chunk files already there: 0/4 chunk files (0%) in 0.0 s, "
         "ETA unknown"),
        ("sweep x: checking the chunk files already there: 4/4 chunk files (100%) in 2.0 s, "
         "2.0 chunk files/s"),
        "sweep x: playing: 600/1,000 games (60%) in 0.0 s, ETA unknown",
        "sweep x: playing: 800/1,000 games (80%) in 20.0 s, 10 games/s, ETA 20.0 s"]
    # an unfinished phase has no last line at close: the command says why it stopped


def test_a_phase_ended_early_says_so_without_eta():
    p, clock, log = make(title="tournament")
    p.begin("playing", 9000)
    p.phase = "batch 1 of at most 6: playing"             # a rename keeps the counts
    clock.now += 3
    p.update(1500)
    p.begin("standings and head to head")
    p.close()
    assert lines(log)[1:] == [
        ("tournament: batch 1 of at most 6: playing: 1,500/9,000 games (16%) in 3.0 s, "
         "500 games/s"),
        "tournament: standings and head to head ..."]


def test_rename_and_title_and_finish():
    p, clock, log = make(100, "generation 1/4", title="tune")
    clock.now += 5
    p.phase = "generation 2/4"
    p.update(50)
    p.finish()                                           # the phase's line under this title
    p.title = "study x"
    p.begin("round 1 of at most 2: judging")
    p.close()
    assert lines(log) == ["tune: generation 1/4: 0/100 games (0%) in 0.0 s, ETA unknown",
                          "tune: generation 2/4: 50/100 games (50%) in 5.0 s, 10 games/s",
                          "study x: round 1 of at most 2: judging ..."]


def test_every_zero_writes_a_line_at_every_update():
    p, clock, log = make(3, "playing", every=0)
    p.update(1)
    clock.now += 1
    p.update(1)
    p.close()
    assert len(lines(log)) == 3                           # unfinished: no last line
    assert lines(log)[-1] == "playing: 2/3 games (66%) in 1.0 s, 2.0 games/s, ETA 0.5 s"


# ---------------------------------------------------------------------------- silence
def test_nothing_after_close():
    p, clock, log = make(10, "playing")
    p.update(10)
    p.close()
    before = log.getvalue()
    clock.now += 1000
    p.update(5)
    p.tick()
    p.note("late")
    p.begin("another", 3)
    p.phase = "renamed"
    p.close()
    assert log.getvalue() == before and before.endswith("10/10 games (100%) in 0.0 s\n")


def test_an_error_stops_it_without_a_last_line():
    p, clock, log = make(10, "playing")
    with pytest.raises(RuntimeError), p:
        p.update(10)
        raise RuntimeError("engine error")
    clock.now += 100
    p.tick()
    assert lines(log) == ["playing: 0/10 games (0%) in 0.0 s, ETA unknown"]


def test_quiet_prints_nothing(monkeypatch):
    monkeypatch.setenv(ENV, "not a number")               # not even read
    log = io.StringIO()
    with Progress(5, "game", "playing", quiet=True, stream=log) as p:
        p.update(5)
        p.begin("more", 3)
        p.note("a note")
        p.tick()
    assert log.getvalue() == "" and p._beat is None


def test_the_heartbeat_thread_stops_at_close():
    log = io.StringIO()
    p = Progress(5, "game", "playing", stream=log)
    beat = p._beat
    assert beat.daemon and beat.is_alive()                # never holds the process at exit
    p.close()
    beat.join(60)
    assert not beat.is_alive()


# ---------------------------------------------------------------------------- a terminal
def test_a_terminal_gets_a_bar_named_by_the_phase_with_eta():
    tty = Terminal()
    p = Progress(200, "game", "playing", title="sweep x", stream=tty, heartbeat=False)
    p.update(100)
    p.note("done: a setting")
    assert p.tick() == 1.0                                # redraw every second: the clock moves
    p.update(100)
    p.begin("standings")
    p.close()
    out = tty.getvalue()
    assert "\r" in out and "sweep x: playing" in out and "100%" in out
    assert "<" in out                                     # tqdm's [elapsed<remaining]
    assert "done: a setting\n" in out and "sweep x: standings" in out


# ---------------------------------------------------------------------------- settings
def test_the_interval_comes_from_the_environment(monkeypatch):
    monkeypatch.delenv(ENV, raising=False)
    assert interval() == 10.0 and interval(3) == 3.0
    monkeypatch.setenv(ENV, "0.5")
    assert interval() == 0.5
    for bad in ("soon", "-1", "nan", "inf"):
        monkeypatch.setenv(ENV, bad)
        with pytest.raises(click.UsageError, match=ENV):
            interval()


def test_a_bad_interval_is_one_line_and_exit_2(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, "soon")
    r = invoke("sweep", "--players", 3, "--games", 10, "--out", tmp_path / "run")
    assert r.exit_code == 2 and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert f"error: {ENV}='soon': give the seconds between progress lines, a number >= 0" \
        in r.stderr
    assert not (tmp_path / "run").exists()


def test_durations():
    assert [duration(s) for s in (0, 9.96, 59.9, 59.96, 61, 3599, 3600, 7322)] == [
        "0.0 s", "10.0 s", "59.9 s", "1 min 00 s", "1 min 01 s", "59 min 59 s", "1 h 00 min",
        "2 h 02 min"]


def test_a_silent_watch_and_an_old_callback():
    got = []
    w = watching(None, got.append)
    w.begin("playing", 10)
    w.phase = "batch 1"
    w.update(4)
    assert got == [4] and w.phase == "batch 1"
    assert isinstance(watching(None), Silent)


# ---------------------------------------------------------------------------- real commands
def first_of_each_count(got, name):
    """The lines of phase ``name`` that show a new count (heartbeats repeat the last one)."""
    seen, out = set(), []
    for m in map(PHASE_LINE.match, got):
        if m and name(m["name"]) and m["done"] not in seen:
            seen.add(m["done"])
            out.append(m)
    return out


PHASE_LINE = re.compile(r"^(?P<name>.+?): (?P<done>[\d,]+)/(?P<total>[\d,]+) games "
                        r"\(\d+%\) in [\d.]+ s(, (?P<rate>[\d.,]+) games/s)?"
                        r"(, ETA (?P<eta>unknown|[\w. ]+))?$")


def test_a_tournament_logs_its_phases_to_a_file(tmp_path):
    """stderr in a file, as under nohup: every phase named, the games with rate and ETA."""
    log = tmp_path / "nohup.err"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    env[ENV] = "0"
    with open(log, "w") as err:
        args = ["tournament", "--strategies", "random,greedy", "--players", 3, "--games", 600,
                "--batch", 200, "--no-stop", "--out", tmp_path / "t"]
        p = subprocess.run([sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=ROOT,
                           env=env, stdout=subprocess.PIPE, stderr=err, text=True,
                           timeout=600, check=False)
    assert p.returncode == 0
    text = log.read_text()
    assert "\r" not in text and "Traceback" not in text
    got = text.splitlines()
    assert "tournament: loading the engine ..." in got
    assert "tournament: playing: 0/1,800 games (0%) in 0.0 s, ETA unknown" in got
    batches = first_of_each_count(got, lambda n: n.endswith(": rating"))
    assert [m["name"] for m in batches] == [
        "tournament: batch 1 of at most 3: rating",
        "tournament: batch 2 of at most 3 (1 of 1 adjacent pairs settled): rating",
        "tournament: batch 3 of at most 3 (1 of 1 adjacent pairs settled): rating"]
    assert [m["done"] for m in batches] == ["600", "1,200", "1,800"]
    assert all(m["rate"] for m in batches)
    assert batches[0]["eta"] and batches[0]["eta"] != "unknown" and batches[2]["eta"] is None
    assert "tournament: standings and head to head ..." in got
    assert f"tournament: writing {tmp_path / 't'} ..." in got
    assert got[-1].startswith("tournament: writing")


def test_a_resumed_sweep_counts_what_is_there(tmp_path, monkeypatch):
    monkeypatch.setenv(ENV, "0")
    out = tmp_path / "run"
    first = invoke("sweep", "--players", 3, "--games", 200, "--chunk", 100, "--out", out)
    assert first.exit_code == 0, first.stderr
    assert first.stderr.splitlines()[:2] == [   # nothing before the folder is accepted
        f"sweep run: 1 settings x 200 games (seed 0) into {out}; 0 of 200 games already there",
        "sweep run: loading the engine ..."]
    assert "sweep run: playing: 0/200 games (0%) in 0.0 s, ETA unknown" in first.stderr
    r = invoke("sweep", "--players", 3, "--games", 400, "--chunk", 100, "--out", out)
    assert r.exit_code == 0, r.stderr
    got = r.stderr.splitlines()
    assert "sweep run: checking the chunk files already there: 0/4 chunk files (0%) in 0.0 s, " \
           "ETA unknown" in got
    assert any(x.startswith("sweep run: checking the chunk files already there: 4/4 chunk "
                            "files (100%)") for x in got)
    assert "sweep run: playing: 200/400 games (50%) in 0.0 s, ETA unknown" in got
    played = first_of_each_count(got, lambda n: n == "sweep run: playing")
    assert [m["done"] for m in played] == ["200", "300", "400"]
    assert played[1]["rate"] and played[1]["eta"] not in (None, "unknown")
    assert played[2]["eta"] is None                       # the last line: done, no ETA
    quiet = invoke("sweep", "--players", 3, "--games", 400, "--chunk", 100, "--out", out,
                   "--no-progress")
    assert quiet.exit_code == 0 and quiet.stderr == ""


def test_loading_the_engine_plays_its_one_game_with_searching_seats_at_budget_1():
    """``load_engine`` plays one game to read the cache; with ``search256:budget=4096`` seats
    that game took minutes and was thrown away. It now plays the same settings with every
    searching seat at budget 1 (the same compiled code: the budget is data), every other
    parameter and seat kept."""
    from play.settings import Settings
    from survive_sim.cli.progress import warm_settings
    s = Settings(players=4, strategies=("search256:budget=4096", "expert") * 2, boats=(1, 2, 2, 3))
    w = warm_settings(s)
    assert w.strategies == ("search256:budget=1", "expert") * 2
    assert w.boats == s.boats and w.players == s.players
    tree = Settings(players=5, strategies=("search:rollout=expert,depth=4,budget=64,c=1",))
    assert set(warm_settings(tree).strategies) == {"search:budget=1,c=1,rollout=expert,depth=4"}
    plain = Settings(players=4, strategies=("greedy", "racer", "tuned", "expert"))
    assert warm_settings(plain) is plain


def test_a_slow_rate_keeps_two_significant_digits():
    """A search tournament played 20 games in 2,610 s and printed "0 games/s"."""
    from survive_sim.cli.progress import rate_text
    assert rate_text(20 / 2610.13) == "0.0077"
    assert rate_text(3.25) == "3.2" and rate_text(3839.4) == "3,839"
