"""The command line: results files and their columns, the printed summary, replay/referee, and
every kind of bad input (exit code 2, one line on stderr, no traceback, no file left behind).

Most tests call the click command in-process (CliRunner), so the engine compiled by the
session fixture is reused; a few run ``python -m survive_sim.cli`` as a real process to see the
real exit code and stderr. Game counts are small: compiling is the slow part, not playing.
"""
from __future__ import annotations

import json
import os
import shutil
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


# ---------------------------------------------------------------------------- simulate
@pytest.fixture(scope="module")
def parquet_run(tmp_path_factory):
    d = tmp_path_factory.mktemp("parquet")
    out = d / "results.parquet"
    r = invoke("simulate", "--players", 4, "--games", 40, "--seed", 1, "--strategies",
               "greedy,random,random,random", "--out", out, "--no-progress")
    return d, out, r


def test_simulate_writes_parquet_with_the_column_contract(parquet_run):
    d, out, r = parquet_run
    assert r.exit_code == 0, r.output
    assert listing(d) == ["results.parquet"]              # no temporary file left
    df = pd.read_parquet(out)
    assert list(df.columns) == CONTRACT
    assert len(df) == 40 and df["game"].tolist() == list(range(40))
    assert (df["seed"] == 1).all() and (df["players"] == 4).all() and (df["seats"] == 4).all()
    assert isinstance(df["end_reason"].dtype, pd.CategoricalDtype)
    assert df["strategy_0"].astype(str).eq("greedy").all()
    assert df["strategy_3"].astype(str).eq("random").all()
    assert df["player_2"].tolist() == [2] * 40
    for s in (4, 5):                                       # absent seats are NA
        assert df[f"score_{s}"].isna().all() and df[f"strategy_{s}"].isna().all()
    assert ((df["rescued_0"] + df["lost_0"]) == 10).all()


def test_simulate_prints_the_summary(parquet_run):
    _, _, r = parquet_run
    out = r.stdout
    for text in ("win rate [95% CI]", "mean score", "rescue rate", "top-score ties",
                 "tie-break: shared (B7.3)", "games/s", "turn-capped", "n=40"):
        assert text in out, text
    rows = [line for line in out.splitlines() if line.startswith(("0 ", "1 ", "2 ", "3 "))]
    assert len(rows) == 4 and "greedy" in rows[0] and "random" in rows[3]


def test_simulate_six_players_chain_tiebreak_and_boats(tmp_path):
    """X1: 6 players with the rules' boats and the chain tie-break (the 5-6 player default):
    the summary says how often each step of the chain decided; `summary --tiebreak shared`
    recounts the saved table under the other rule."""
    out = tmp_path / "six.parquet"
    r = invoke("simulate", "--players", 6, "--games", 60, "--seed", 3, "--strategies", "greedy",
               "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert "boats 1,1,1,1,2,2" in r.stdout and "tie-break: chain (X1.6)" in r.stdout
    assert "games decided by score" in r.stdout and "rescued" in r.stdout
    rows = [line for line in r.stdout.splitlines() if line.startswith(tuple(f"{s} " for s in range(6)))]
    assert len(rows) == 6
    df = pd.read_parquet(out)
    assert list(df.columns) == CONTRACT
    assert [int(df[f"boats_{s}"].iloc[0]) for s in range(6)] == [1, 1, 1, 1, 2, 2]
    assert (df["tiebreak"] == "chain").all()
    assert set(df["decided_by"].astype(str)) <= {"score", "rescued", "value", "turns", "shared"}
    r2 = invoke("summary", out, "--tiebreak", "shared")
    assert r2.exit_code == 0 and "tie-break: shared (B7.3)" in r2.stdout
    r3 = invoke("simulate", "--players", 4, "--games", 5, "--boats", "3,3,3,3", "--tiebreak",
                "chain", "--no-progress")
    assert r3.exit_code == 0 and "boats 3,3,3,3" in r3.stdout and "chain (X1.6)" in r3.stdout


def test_simulate_challenges_are_played_and_recorded(tmp_path):
    """X2: --challenge 2,3,4 reaches the engine (ends by no_explorers / island_gone, scores
    count explorers) and the table's `challenges` column; replay --check agrees."""
    out = tmp_path / "ch.csv"
    r = invoke("simulate", "--players", 5, "--games", 40, "--seed", 4, "--strategies", "greedy",
               "--challenge", "4,3,2", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert "challenges 2,3,4" in r.stdout
    df = pd.read_csv(out)
    assert (df["challenges"] == "2,3,4").all()
    assert set(df["end_reason"]) <= {"no_explorers", "island_gone", "turn_cap"}
    assert (df["score_0"] == df["rescued_0"]).all()                     # X2.3
    assert (df["bonus_moves"] == 0).all()
    r3 = invoke("simulate", "--players", 6, "--games", 20, "--seed", 4, "--strategies", "greedy",
                "--challenge", "6", "--no-progress")
    assert r3.exit_code == 0 and "Overpopulated bonus moves per game" in r3.stdout
    r2 = invoke("replay", "--seed", 4, "--game", 1, "--players", 5, "--strategies", "greedy",
                "--challenge", "2,3,4", "--check")
    assert r2.exit_code == 0 and "challenges 2,3,4" in r2.stdout and "referee: OK" in r2.stdout


def test_simulate_dolphins_and_squid_are_played_and_recorded(tmp_path):
    """X5, X7: --dolphins (= --challenge 5) and --squid reach the engine and the table's
    setting columns; the summary reports dolphins and squid with intervals; replay shows the
    dive dice and the squid, and the referee agrees."""
    out = tmp_path / "ds.parquet"
    r = invoke("simulate", "--players", 6, "--boats", "rules", "--challenge", 3, "--dolphins",
               "--squid", "--games", 60, "--seed", 4, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert "challenges 3,5, squid" in r.stdout
    assert "dolphins placed per game" in r.stdout and "lost to squid per game" in r.stdout
    assert "tie-break: chain (X1.6); games decided by score" in r.stdout
    df = pd.read_parquet(out)
    assert (df["challenges"] == "3,5").all() and df["dolphins"].all() and df["squid"].all()
    assert not df["squid_only"].any()
    assert (df["dolphins_placed"] == df["back_dolphin"]).all()      # X5.2: 4 tiles, 4 dolphins
    assert (df["squid_placed"] <= df["back_whale"]).all()
    same = invoke("simulate", "--players", 6, "--challenge", "3,5", "--squid", "--games", 60,
                  "--seed", 4, "--out", tmp_path / "same.parquet", "--no-progress")
    assert same.exit_code == 0
    pd.testing.assert_frame_equal(df, pd.read_parquet(tmp_path / "same.parquet"))
    r2 = invoke("replay", "--seed", 4, "--game", 2, "--players", 4, "--strategies", "greedy",
                "--dolphins", "--squid", "--squid-only", "--check")
    assert r2.exit_code == 0, r2.output
    assert "rolls " in r2.stdout and " and " in r2.stdout and "squid" in r2.stdout
    assert "referee: OK" in r2.stdout


def test_simulate_csv_two_players(tmp_path):
    out = tmp_path / "two.csv"
    r = invoke("simulate", "--players", 2, "--games", 12, "--seed", 5, "--strategies",
               "greedy,random,greedy,random", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    assert listing(tmp_path) == ["two.csv"]
    df = pd.read_csv(out)
    assert list(df.columns) == CONTRACT
    assert len(df) == 12 and (df["players"] == 2).all() and (df["seats"] == 4).all()
    assert [df[f"player_{s}"].iloc[0] for s in range(4)] == [0, 1, 0, 1]
    assert "player 0 (seats 0,2)" in r.stdout and "player 1 (seats 1,3)" in r.stdout
    # the summary command reads the saved table back
    r2 = invoke("summary", out)
    assert r2.exit_code == 0 and "player 0 (seats 0,2)" in r2.stdout


def test_results_do_not_depend_on_threads_or_chunks(tmp_path, parquet_run):
    _, ref, _ = parquet_run
    out = tmp_path / "again.parquet"
    r = invoke("simulate", "--players", 4, "--games", 40, "--seed", 1, "--strategies",
               "greedy,random,random,random", "--out", out, "--threads", 1, "--chunk", 7,
               "--no-progress")
    assert r.exit_code == 0, r.output
    pd.testing.assert_frame_equal(pd.read_parquet(ref), pd.read_parquet(out))


def test_simulate_without_out_writes_nothing(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke("simulate", "--players", 3, "--games", 5, "--seed", 2, "--no-progress")
    assert r.exit_code == 0 and "seat" in r.stdout
    assert listing(tmp_path) == []


def test_progress_bar_goes_to_stderr(tmp_path):
    r = invoke("simulate", "--players", 3, "--games", 5, "--seed", 2)
    assert r.exit_code == 0
    assert "game" in r.stderr and "game/s" not in r.stdout


@pytest.mark.parametrize("fmt", ["parquet", "csv"])
def test_failed_write_leaves_nothing_behind(tmp_path, monkeypatch, fmt):
    """A write that fails half-way (disk full) removes the temporary file: one line, exit 1."""
    import pyarrow.parquet as pq
    calls = []

    def boom(original):
        def write(self, *a, **k):
            calls.append(1)
            if len(calls) == 2:                      # the first chunk went through
                raise OSError(28, "No space left on device")
            return original(self, *a, **k)
        return write
    if fmt == "parquet":
        monkeypatch.setattr("survive_sim.cli.files.ROW_GROUP", 1)
        monkeypatch.setattr(pq.ParquetWriter, "write_table", boom(pq.ParquetWriter.write_table))
    else:
        monkeypatch.setattr(pd.DataFrame, "to_csv", boom(pd.DataFrame.to_csv))
    out = tmp_path / f"r.{fmt}"
    r = invoke("simulate", "--games", 5, "--chunk", 2, "--out", out, "--no-progress")
    assert r.exit_code == 1 and len(calls) == 2
    assert "No space left on device" in r.stderr and len(r.stderr.strip().splitlines()) == 1
    assert listing(tmp_path) == []


# ---------------------------------------------------------------------------- bad input
def _unwritable_dir(tmp_path: Path) -> Path:
    d = tmp_path / "readonly"
    d.mkdir()
    d.chmod(0o555)
    if os.access(d, os.W_OK):                     # root ignores permissions
        if not Path("/proc").is_dir():
            pytest.skip("no directory that root cannot write to")
        return Path("/proc")
    return d


BAD_SIMULATE = {
    "unknown strategy": (["--strategies", "greedy,bogus,random,random"], "bogus"),
    "unknown single strategy": (["--strategies", "smart"], "accepted: random, greedy"),
    "strategy list too short": (["--strategies", "greedy,random"], "1 or 4"),
    "strategy list too long": (["--players", 3, "--strategies", "random,random,random,random"],
                               "1 or 3"),
    "2 players take 1, 2 or 4 names": (["--players", 2, "--strategies", "greedy,random,random"],
                                       "1, 2 or 4 comma-separated names for 2 players (4 seats)"),
    "empty strategy list": (["--strategies", ""], "no strategy given; accepted: random, greedy"),
    "empty strategy in a list": (["--strategies", "greedy,,random,random"],
                                 "unknown strategy ''; accepted: random, greedy"),
    "too many players": (["--players", 7], "2<=x<=6"),
    "too few players": (["--players", 1], "2<=x<=6"),
    "boats wrong length": (["--players", 5, "--boats", "2,2,2,2"], "0-3 (one per seat"),
    "boats out of range": (["--boats", "2,4,2,2"], "0-3 (one per seat"),
    "boats over 12": (["--players", 5, "--boats", "3,3,3,3,1"], "at most 12"),
    "boats not numbers": (["--boats", "two"], "`rules` or comma-separated numbers 0-3"),
    "bad tiebreak": (["--tiebreak", "coin"], "'shared', 'chain'"),
    "unknown challenge": (["--challenge", "1,9"], "accepted: 1, 2, 3, 4, 5, 6"),
    "challenge not a number": (["--challenge", "x"], "accepted: 1, 2, 3, 4, 5, 6"),
    "challenge 6 with 4 players": (["--challenge", "6"], "needs 5 or 6 players"),
    "squid-only without the squid (X7.6)": (["--squid-only"], "needs --squid"),
    "zero games": (["--games", 0], "1<=x"),
    "negative games": (["--games", -5], "1<=x"),
    "last game past 2**63-1": (["--first", 2**63 - 2, "--games", 3],
                               "past the last game index 2**63-1"),
    "first past 2**63-1": (["--first", 2**63], "0<=x<=9223372036854775807"),
    "negative seed": (["--seed", -1], "0<=x"),
    "zero threads": (["--threads", 0], "1<=x<="),
    "zero chunk": (["--chunk", 0], "1<=x<="),
    "missing directory": (["--out", "{tmp}/missing/r.parquet"], "does not exist"),
    "unwritable directory": (["--out", "{ro}/r.parquet"], "not writable"),
    "unknown extension": (["--out", "{tmp}/r.txt"], "accepted: .parquet, .csv"),
    "no extension": (["--out", "{tmp}/results"], "accepted: .parquet, .csv"),
    "directory as file": (["--out", "{tmp}/adir.csv"], "is a directory"),
    "existing directory without extension": (["--out", "{tmp}"], "is a directory"),
}


def _fill(args, tmp_path, ro):
    return [str(a).format(tmp=tmp_path, ro=ro) for a in args]


@pytest.mark.parametrize("case", sorted(BAD_SIMULATE))
def test_simulate_bad_input(case, tmp_path):
    args, needle = BAD_SIMULATE[case]
    (tmp_path / "adir.csv").mkdir()
    ro = _unwritable_dir(tmp_path) if "{ro}" in " ".join(map(str, args)) else tmp_path
    before = listing(tmp_path)
    base = ["simulate", "--games", "3", "--no-progress"]
    r = runner().invoke(main, base + _fill(args, tmp_path, ro))
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == before
    assert r.stdout == ""


@pytest.mark.parametrize("case", ["unknown strategy", "negative seed", "missing directory",
                                  "unknown extension"])
def test_bad_input_in_a_real_process(case, tmp_path):
    args, needle = BAD_SIMULATE[case]
    (tmp_path / "adir.csv").mkdir()
    before = listing(tmp_path)
    p = run_process("simulate", "--games", 3, *_fill(args, tmp_path, tmp_path))
    assert_usage_error(p.returncode, p.stderr, p.stdout, needle)
    assert p.stderr.startswith("survive-sim simulate: error: ")
    assert listing(tmp_path) == before


BAD_OTHER = {
    "replay negative game": (["replay", "--seed", 1, "--game", -1], "0<=x"),
    "replay game past 2**63-1": (["replay", "--seed", 1, "--game", 2**63],
                                 "0<=x<=9223372036854775807"),
    "replay empty strategies": (["replay", "--seed", 1, "--game", 0, "--strategies", " "],
                                "no strategy given"),
    "replay missing game": (["replay", "--seed", 1], "--game"),
    "replay bad strategy": (["replay", "--seed", 1, "--game", 0, "--strategies", "x"],
                            "accepted: random, greedy"),
    "replay wrong strategy count": (["replay", "--seed", 1, "--game", 0, "--players", 3,
                                     "--strategies", "greedy,random"], "1 or 3"),
    "replay json dir missing": (["replay", "--seed", 1, "--game", 0, "--json",
                                 "{tmp}/no/g.json"], "does not exist"),
    "referee missing file": (["referee", "{tmp}/nothing.json"], "does not exist"),
    "referee not json": (["referee", "{tmp}/garbage.json"], "not a JSON replay log"),
    "bench bad players": (["bench", "--players", "2,7"], "2, 3, 4, 5, 6"),
    "bench zero games": (["bench", "--games", 0], "1<=x<="),
    "bench zero repeats": (["bench", "--repeat", 0], "1<=x<=100"),
    "bench unknown challenge": (["bench", "--challenge", "9"], "accepted: 1, 2, 3, 4, 5, 6"),
    "bench challenge 6 for 4 players": (["bench", "--players", "4,5", "--challenge", "6"],
                                        "needs 5 or 6 players"),
    "bench zero threads": (["bench", "--threads", 0], "1<=x<="),
    "summary unknown extension": (["summary", "{tmp}/garbage.json"], ".parquet, .csv"),
}


@pytest.mark.parametrize("case", sorted(BAD_OTHER))
def test_other_commands_bad_input(case, tmp_path):
    (tmp_path / "garbage.json").write_text("{not json")
    args, needle = BAD_OTHER[case]
    before = listing(tmp_path)
    r = runner().invoke(main, _fill(args, tmp_path, tmp_path))
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == before


# ---------------------------------------------------------------------------- replay, referee
@pytest.fixture(scope="module")
def replayed(tmp_path_factory):
    d = tmp_path_factory.mktemp("replay")
    log = d / "game3.json"
    r = invoke("replay", "--seed", 11, "--game", 3, "--players", 3, "--strategies",
               "greedy,random,greedy", "--json", log, "--check")
    return d, log, r


def test_replay_prints_writes_json_and_checks(replayed):
    d, log, r = replayed
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith("Game 3 of seed 11: 3 players")
    assert "Turn 1 - seat 0 (greedy)" in r.stdout and "Game over:" in r.stdout
    assert r.stdout.rstrip().endswith("referee: OK")
    assert listing(d) == ["game3.json"]
    data = json.loads(log.read_text())
    assert data["format"] == "survive-sim-log/2"
    assert data["seed"] == 11 and data["game"] == 3
    assert data["strategies"] == ["greedy", "random", "greedy"]


def test_replay_record_is_the_simulated_row(replayed, tmp_path):
    _, log, _ = replayed
    out = tmp_path / "r.csv"
    r = invoke("simulate", "--players", 3, "--games", 4, "--seed", 11, "--strategies",
               "greedy,random,greedy", "--out", out, "--no-progress")
    assert r.exit_code == 0
    row = pd.read_csv(out).iloc[3]
    record = json.loads(log.read_text())["record"]
    for key, value in record.items():
        if value is None:
            assert pd.isna(row[key]), key
        else:
            assert str(row[key]) == str(value), key


def test_referee_accepts_the_saved_log(replayed):
    _, log, _ = replayed
    r = invoke("referee", log)
    assert r.exit_code == 0 and r.stdout.strip() == "referee: OK"


@pytest.mark.parametrize("corrupt", ["score", "no_end"])
def test_referee_reports_a_corrupted_log(replayed, tmp_path, corrupt):
    _, log, _ = replayed
    data = json.loads(log.read_text())
    if corrupt == "score":
        data["record"]["score_1"] += 1
    else:
        data["events"] = data["events"][:-1]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data))
    r = invoke("referee", bad)
    assert r.exit_code == 1
    assert r.stdout.startswith("referee: DISCREPANCY [")
    assert ("B7.2" if corrupt == "score" else "no end event") in r.stdout
    p = run_process("referee", bad)
    assert p.returncode == 1 and "DISCREPANCY" in p.stdout and "Traceback" not in p.stderr


# ---------------------------------------------------------------------------- help, bench
def test_help_is_light():
    """The CLI package imports neither numpy, pandas nor the compiled engine at import time."""
    code = ("import sys, survive_sim.cli; "
            "print(sorted(m for m in ('numpy', 'numba', 'pandas', 'pyarrow', 'play.engine', "
            "'play.simulate', 'play.settings', 'experiments.tables.summary', 'tqdm', "
            "'statsmodels') if m in sys.modules))")
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    assert p.stdout.strip() == "[]"
    h = run_process("--help")
    assert h.returncode == 0
    for command in ("simulate", "replay", "referee", "bench", "summary"):
        assert command in h.stdout


@pytest.mark.skipif(shutil.which("survive-sim") is None, reason="console script not installed")
def test_console_script_is_installed():
    p = subprocess.run(["survive-sim", "--help"], capture_output=True, text=True)
    assert p.returncode == 0 and "simulate" in p.stdout


def test_bench_small():
    r = invoke("bench", "--games", 30, "--players", "2", "--repeat", 2)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("machine: ") and "logical CPUs" in lines[0]
    assert any("best of 2 runs" in line for line in lines)
    rows = [line.split() for line in lines if line.strip().startswith("2 ")]
    assert [row[1] for row in rows] == ["random", "greedy"]
    r2 = invoke("bench", "--games", 20, "--players", "5", "--repeat", 1, "--challenge", "2,6")
    assert r2.exit_code == 0 and "challenges 2,6" in r2.stdout
    for row in rows:                               # best [slowest]: best >= slowest > 0
        best, slowest = float(row[2].replace(",", "")), float(row[3].strip("[]").replace(",", ""))
        assert best >= slowest > 0


def test_rule_flags_reach_the_engine_and_the_table(tmp_path):
    """R1, R2/R21 and R10 variant flags: accepted on the command line, played, and recorded."""
    out = tmp_path / "flags.csv"
    r = invoke("simulate", "--players", 3, "--games", 20, "--seed", 2, "--strategies", "greedy",
               "--lagoon-not-sea", "--creatures-must-move", "--max-turns", 6, "--out", out,
               "--no-progress")
    assert r.exit_code == 0, r.output
    df = pd.read_csv(out)
    assert (~df["lagoon_is_sea"]).all() and df["creatures_must_move"].all()
    assert (df["max_turns"] == 6).all() and (df["end_reason"] == "turn_cap").all()
    assert (df["turns"] == 6).all()
    r = invoke("replay", "--seed", 2, "--game", 3, "--players", 3, "--strategies", "greedy",
               "--lagoon-not-sea", "--creatures-must-move", "--max-turns", 6, "--check")
    assert r.exit_code == 0 and "referee: OK" in r.output


# ---------------------------------------------------------------------------- players, threads
def test_two_players_named_as_players(tmp_path):
    """B4.5: with 2 players, two names name the players: seats A,B,A,B get A,B,A,B."""
    a, b = tmp_path / "a.parquet", tmp_path / "b.parquet"
    r = invoke("simulate", "--players", 2, "--games", 12, "--seed", 5, "--strategies",
               "greedy,random", "--out", a, "--no-progress")
    assert r.exit_code == 0, r.output
    assert "strategies greedy,random,greedy,random" in r.stdout
    rows = [line.split() for line in r.stdout.splitlines()
            if line.startswith(("player 0 ", "player 1 "))]
    assert [row[4] for row in rows] == ["greedy", "random"]
    df = pd.read_parquet(a)
    assert [str(df[f"strategy_{s}"].iloc[0]) for s in range(4)] == ["greedy", "random"] * 2
    same = invoke("simulate", "--players", 2, "--games", 12, "--seed", 5, "--strategies",
                  "greedy,random,greedy,random", "--out", b, "--no-progress")
    assert same.exit_code == 0
    pd.testing.assert_frame_equal(df, pd.read_parquet(b))


def test_bench_threads():
    r = invoke("bench", "--games", 20, "--players", "3", "--repeat", 1, "--threads", 1)
    assert r.exit_code == 0, r.output
    head = [line for line in r.stdout.splitlines() if line.strip().startswith("players")][0]
    assert "1 thread " in head and "1 threads" in head


def test_bench_search_small():
    r = invoke("bench", "--search", "search:rollout=random,depth=2", "--budgets", "4",
               "--players", "4", "--decisions", 2, "--repeat", 1, "--games", 1)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("machine: ") and "overhead" in lines[2]
    assert lines[3].split()[:2] == ["4", "4"] and lines[3].split()[5].endswith("%")
    assert lines[-1].split()[:2] == ["4", "256"] and lines[-1].split()[-1] == "1"
    for args, words in ((("--search", "greedy"), "re-enters the game"),
                        (("--search", "search", "--budgets", "x"), "budgets must be"),
                        (("--search", "search", "--budgets", "0"), "budget must be"),
                        (("--search", "search", "--challenge", "1"), "leave out --challenge")):
        bad = invoke("bench", *args)
        assert bad.exit_code == 2 and words in bad.output and "Traceback" not in bad.output
