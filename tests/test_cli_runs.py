"""The command line with whole runs: the table written chunk by chunk and summarised without
being held, signals during a write, progress in a log, and ``summary`` of saved tables that are
damaged or hold several settings. Small game counts, except the signal tests, which
stop a long run a moment after it starts writing."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest
from support.cli_harness import (
    CONTRACT,
    ROOT,
    assert_usage_error,
    invoke,
    listing,
    run_process,
    runner,
)

from survive_sim.cli import main


@pytest.fixture(scope="module")
def parquet_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("parquet") / "results.parquet"
    r = invoke("simulate", "--players", 4, "--games", 40, "--seed", 1, "--strategies",
               "greedy,random,random,random", "--out", out, "--no-progress")
    assert r.exit_code == 0
    return out, r


def _summary_lines(stdout: str) -> str:
    """simulate's output without the speed and `wrote` lines: the header and the summary."""
    return "\n".join(line for line in stdout.splitlines()
                     if not line.startswith(("speed: ", "wrote ")))


def test_chunked_table_equals_one_write_and_the_summary_the_whole_table(tmp_path):
    """The table is written chunk by chunk (row groups; CSV appended) and the summary is added
    up chunk by chunk: the file reads back as today's single write of the whole frame did, and
    the printed summary is format_summary(summary_table(df)) of the whole table. A short turn
    cap makes the chunks differ in which end reasons (categories) they use."""
    from experiments.tables.summary import format_summary, summary_table
    from play.settings import Settings
    from play.simulate import simulate
    settings = Settings(players=5, strategies=("greedy", "random", "random", "greedy", "random"),
                        max_turns=33)
    whole = simulate(settings, 61, 3, first=4)
    assert whole["end_reason"].astype(str).nunique() == 2
    one = tmp_path / "one.parquet"
    whole.to_parquet(one, index=False)                       # the single write of before
    args = ["simulate", "--players", 5, "--strategies", "greedy,random,random,greedy,random",
            "--max-turns", 33, "--games", 61, "--first", 4, "--seed", 3, "--chunk", 7,
            "--no-progress", "--out"]
    r = invoke(*args, tmp_path / "t.parquet")
    assert r.exit_code == 0, r.output
    back = pd.read_parquet(tmp_path / "t.parquet")
    pd.testing.assert_frame_equal(back, pd.read_parquet(one))
    pd.testing.assert_frame_equal(back, whole)
    lines = _summary_lines(r.stdout).splitlines()
    assert lines[0] == ("5 players (5 seats), strategies greedy,random,random,greedy,random, "
                        "boats 1,1,2,2,2, challenges none, seed 3, games 4..64")
    assert "\n".join(lines[1:]) == format_summary(summary_table(whole))
    assert "wrote " in r.stdout and f"(61 games x {len(CONTRACT)} columns)" in r.stdout
    c = invoke(*args, tmp_path / "t.csv")
    assert c.exit_code == 0
    assert (tmp_path / "t.csv").read_text() == whole.to_csv(index=False)
    assert _summary_lines(c.stdout) == _summary_lines(r.stdout)


def test_simulate_never_holds_the_whole_table(monkeypatch):
    """The command plays through iter_frames: simulate(), which builds the whole frame, and
    summary_table on the whole run are never called."""
    import experiments.tables.summary
    import play.simulate

    def whole(*a, **k):
        raise AssertionError("the whole table was built")
    monkeypatch.setattr(play.simulate, "simulate", whole)
    monkeypatch.setattr(experiments.tables.summary, "summary_table", whole)
    r = invoke("simulate", "--players", 3, "--games", 9, "--chunk", 4, "--no-progress")
    assert r.exit_code == 0, r.output
    assert "n=9" in r.stdout


def _default_signals():
    """In the child: Ctrl-C and SIGTERM as a terminal delivers them, even when the suite itself
    runs as a background job (which inherits SIGINT ignored, and the CLI keeps what it
    inherited ignored, as ``nohup`` users expect)."""
    import signal
    signal.signal(signal.SIGINT, signal.SIG_DFL)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


@pytest.mark.parametrize("sig, code", [("SIGTERM", 143), ("SIGINT", 130)])
def test_a_signal_while_writing_removes_the_temporary_file(tmp_path, sig, code):
    """SIGTERM and Ctrl-C during a run remove the temporary table and exit 143 / 130."""
    import signal
    import time
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-m", "survive_sim.cli", "simulate", "--games",
                          "10000000", "--chunk", "1000", "--threads", "1", "--out",
                          str(tmp_path / "big.parquet")],
                         cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, preexec_fn=_default_signals)
    try:
        deadline = time.monotonic() + 120
        while not list(tmp_path.glob(".big.parquet.*.tmp")):
            assert p.poll() is None, p.communicate()
            assert time.monotonic() < deadline, "no temporary file appeared"
            time.sleep(0.05)
        time.sleep(0.3)                                   # a few chunks into the file
        p.send_signal(getattr(signal, sig))
        out, err = p.communicate(timeout=60)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == code, err
    assert listing(tmp_path) == []
    assert "Traceback" not in err and err.strip().splitlines()[-1].startswith("survive-sim: ")


@pytest.fixture(scope="module")
def csv_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("csvrun")
    out = d / "run.csv"
    r = invoke("simulate", "--players", 3, "--games", 30, "--seed", 8, "--out", out,
               "--no-progress")
    assert r.exit_code == 0
    return out, r


def _summary_error(path: Path, needle: str):
    r = runner().invoke(main, ["summary", str(path)])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert r.stdout == ""
    p = run_process("summary", path)
    assert_usage_error(p.returncode, p.stderr, p.stdout, needle)


def test_summary_of_damaged_tables_is_one_line(csv_run, tmp_path):
    """A truncated CSV, a player count of 9, a header only: one line, exit 2, no traceback."""
    out, _ = csv_run
    text = out.read_text()
    cut = tmp_path / "cut.csv"
    last = text.rstrip("\n").rfind("\n")
    cut.write_text(text[:last + 40])                      # 40 characters into the last row
    _summary_error(cut, "row 30 (game 29) has no")
    nine = tmp_path / "nine.csv"
    df = pd.read_csv(out)
    df["players"] = 9
    df.to_csv(nine, index=False)
    _summary_error(nine, "has players 9; a game has 2-6 players")
    header = tmp_path / "header.csv"
    header.write_text(text.splitlines()[0] + "\n")
    _summary_error(header, "the table has no games")
    strat = tmp_path / "strategy.csv"
    df = pd.read_csv(out)
    df.loc[5, "strategy_1"] = "gree"
    df.to_csv(strat, index=False)
    _summary_error(strat, "row 6 (game 5) has strategy_1 'gree'; accepted: random, greedy")


def test_summary_of_one_setting_is_what_simulate_printed(parquet_run):
    out, r = parquet_run
    s = invoke("summary", out)
    assert s.exit_code == 0
    assert s.stdout.rstrip("\n") == _summary_lines(r.stdout)


def test_summary_groups_concatenated_settings(tmp_path, csv_run):
    """Tables of different settings concatenated: one block per setting, each with its header;
    the same games twice in one setting are refused; a `setting` column groups by itself."""
    out, _ = csv_run
    other = tmp_path / "other.csv"
    r = invoke("simulate", "--players", 4, "--games", 20, "--seed", 8, "--boats", "3,3,1,1",
               "--challenge", 3, "--max-turns", 50, "--out", other, "--no-progress")
    assert r.exit_code == 0
    again = tmp_path / "again.csv"
    r2 = invoke("simulate", "--players", 3, "--games", 10, "--first", 30, "--seed", 8,
                "--out", again, "--no-progress")
    assert r2.exit_code == 0
    a, b, c = pd.read_csv(out), pd.read_csv(other), pd.read_csv(again)
    mixed = tmp_path / "mixed.csv"
    pd.concat([a.iloc[:10], b, a.iloc[10:], c], ignore_index=True).to_csv(mixed, index=False)
    s = invoke("summary", mixed)
    assert s.exit_code == 0, s.output
    headers = [line for line in s.stdout.splitlines() if " players (" in line]
    assert headers == [
        "3 players (3 seats), strategies random,random,random, boats 2,2,2, challenges none, "
        "seed 8, games 0..39",
        "4 players (4 seats), strategies random,random,random,random, boats 3,3,1,1, "
        "challenges 3, seed 8, games 0..19; rules: max turns 50"]
    assert s.stdout.count("top-score ties:") == 2 and "n=40" in s.stdout and "n=20" in s.stdout
    alone = invoke("summary", out)
    first_block = s.stdout.split("\n\n4 players")[0]
    assert "n=40" in first_block and "n=30" in alone.stdout
    dup = tmp_path / "dup.csv"
    pd.concat([a, c, a.iloc[3:5]], ignore_index=True).to_csv(dup, index=False)
    _summary_error(dup, "2 duplicate game(s)")
    r = runner().invoke(main, ["summary", str(dup)])
    assert "the first: game 3 of the setting '3 players (3 seats)" in r.stderr
    labelled = tmp_path / "labelled.csv"
    both = pd.concat([a, b], ignore_index=True)
    label = pd.Series(["p3"] * len(a) + ["p4-ch3"] * len(b), name="setting")
    pd.concat([both, label], axis=1).to_csv(labelled, index=False)
    s = invoke("summary", labelled)
    assert s.exit_code == 0
    assert [line.split(":")[0] for line in s.stdout.splitlines() if line.startswith("setting ")] \
        == ["setting p3", "setting p4-ch3"]
    pd.concat([both, pd.Series(["one"] * len(both), name="setting")], axis=1).to_csv(
        labelled, index=False)
    # one label for both runs: games 0..19 twice
    _summary_error(labelled, "duplicate game(s)")


def test_intervals_stay_inside_the_range(tmp_path):
    """No boats: hardly anybody is rescued; no interval may go below 0 or collapse to a point."""
    r = invoke("simulate", "--players", 4, "--boats", "0,0,0,0", "--games", 200, "--seed", 1,
               "--no-progress")
    assert r.exit_code == 0
    assert "[-" not in r.stdout
    rows = [line for line in r.stdout.splitlines() if line.startswith(("0 ", "1 ", "2 ", "3 "))]
    for row in rows:
        rate, lo, hi = row.split()[-3:]                     # the rescue rate [lo, hi]
        assert float(lo.strip("[,%")) >= 0 and float(hi.strip("]%")) > 0, row


def test_progress_in_a_log_is_plain_lines(tmp_path):
    """stderr not a terminal (CliRunner, a log file): no carriage returns, one final line
    (the phases, the rate, the ETA and the heartbeat: ``test_progress``)."""
    r = invoke("simulate", "--players", 3, "--games", 25, "--chunk", 5)
    assert r.exit_code == 0
    assert "\r" not in r.stderr
    assert r.stderr.strip().splitlines()[-1].startswith("simulate: 25/25 games (100%) in ")
    p = run_process("simulate", "--players", 3, "--games", 25, "--chunk", 5)
    assert p.returncode == 0 and "\r" not in p.stderr and "simulate: 25/25 games" in p.stderr
    q = invoke("simulate", "--players", 3, "--games", 25, "--no-progress")
    assert q.exit_code == 0 and q.stderr == ""
