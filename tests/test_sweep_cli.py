"""``survive-sim sweep`` and ``survive-sim stats`` from the command line: a real sweep process
killed with SIGKILL mid-run resumes to exactly the uninterrupted table; Ctrl-C and SIGTERM stop
after the chunk in flight; ``--plan`` plays nothing; every bad input is one line on stderr, exit
code 2, and no run folder."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from support.cli_harness import invoke
from support.run_table import load_run

from experiments.store import runs
from experiments.sweeps import spec, sweep

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["--players", "4,5", "--strategies", "random", "--tiebreak", "chain,shared",
         "--seed", "5", "--chunk", "250"]


def start(*args) -> subprocess.Popen:
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.Popen([sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=ROOT,
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for_chunks(out: Path, n: int, proc: subprocess.Popen, timeout=300) -> None:
    t = time.time()
    while time.time() - t < timeout:
        if out.is_dir() and len(list(out.glob("*.parquet"))) >= n:
            return
        if proc.poll() is not None:
            raise AssertionError(f"the sweep ended before {n} chunks: {proc.stderr.read()}")
        time.sleep(0.02)
    raise AssertionError("no chunks appeared")


def quick_spec(games: int) -> spec.Spec:
    return spec.build({"name": "k", "seed": 5, "games": games, "chunk": 250,
                       "grid": {"players": [4, 5], "strategies": ["random"],
                                "tiebreak": ["chain", "shared"]}})


@pytest.fixture(scope="module")
def uninterrupted(tmp_path_factory):
    out = tmp_path_factory.mktemp("u") / "run"
    sweep.run_sweep(quick_spec(6000), out)
    return load_run(out)[0]


@pytest.mark.slow
def test_a_sweep_killed_with_sigkill_resumes_to_the_uninterrupted_table(uninterrupted, tmp_path):
    out = tmp_path / "run"
    args = ["sweep", *QUICK, "--games", 6000, "--out", out, "--no-progress"]
    for chunks in (3, 30):                          # killed twice, at different points
        proc = start(*args)
        wait_for_chunks(out, chunks, proc)
        proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=60)
        assert proc.returncode == -signal.SIGKILL
    part, account = load_run(out)
    assert 0 < len(part) < len(uninterrupted)
    done = start(*args)
    stdout, stderr = done.communicate(timeout=600)
    assert done.returncode == 0, stderr
    assert not list(out.glob(".*.tmp")) and not (out / ".lock").exists()
    pd.testing.assert_frame_equal(load_run(out)[0], uninterrupted)
    pd.testing.assert_frame_equal(pd.read_parquet(out).sort_values(["setting", "game"])
                                  .reset_index(drop=True), uninterrupted,
                                  check_categorical=False)


@pytest.mark.slow
def test_a_komi_and_setup_order_grid_killed_with_sigkill_resumes_to_the_uninterrupted_table(
        tmp_path):
    """Issue 41: the levers' settings (RULES.md C1, C2) in a sweep's grid are part of each
    setting and its games; killed mid-run, the sweep resumes to the uninterrupted table."""
    levers = ["--players", "5", "--strategies", "random", "--komi", "none",
              "--komi", "0,0,0.5,1,1", "--setup-order", "forward", "--setup-order", "snake",
              "--seed", "7", "--chunk", "250", "--games", 3000]
    whole = tmp_path / "whole"
    r = invoke("sweep", *levers, "--out", whole, "--no-progress")
    assert r.exit_code == 0, r.stderr
    out = tmp_path / "run"
    proc = start("sweep", *levers, "--out", out, "--no-progress")
    wait_for_chunks(out, 8, proc)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    part, _ = load_run(out)
    assert 0 < len(part) < len(load_run(whole)[0])
    done = start("sweep", *levers, "--out", out, "--no-progress")
    _, stderr = done.communicate(timeout=600)
    assert done.returncode == 0, stderr
    table = load_run(out)[0]
    pd.testing.assert_frame_equal(table, load_run(whole)[0])
    assert table["setting"].nunique() == 4
    assert {"komi_0", "komi_4"} <= set(pd.read_parquet(out).columns)


@pytest.mark.slow
@pytest.mark.parametrize("sig,code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_ctrl_c_and_sigterm_stop_after_the_chunk_in_flight(uninterrupted, tmp_path, sig, code):
    out = tmp_path / "run"
    proc = start("sweep", *QUICK, "--games", 6000, "--out", out, "--no-progress")
    wait_for_chunks(out, 2, proc)
    proc.send_signal(sig)
    stdout, stderr = proc.communicate(timeout=120)
    assert proc.returncode == code, stderr
    assert "resume" in stderr and "Traceback" not in stderr
    assert not list(out.glob(".*.tmp")) and not (out / ".lock").exists()
    r = invoke("sweep", *QUICK, "--games", 6000, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(load_run(out)[0], uninterrupted)


def test_sweep_from_an_experiment_file_with_games_overridden(tmp_path):
    f = tmp_path / "q.toml"
    f.write_text('name = "q"\nseed = 2\ngames = 100000\nchunk = 100\n[grid]\nplayers = [3]\n'
                 'strategies = ["random"]\nboats = ["rules", [1, 2, 3]]\n')
    out = tmp_path / "run"
    r = invoke("sweep", f, "--games", 300, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.stderr
    df = pd.read_parquet(out)
    assert len(df) == 600 and sorted(set(df["setting"].astype(str))) == \
        ["p3-boats_1.2.3-base-tb_shared-random", "p3-boats_rules-base-tb_shared-random"]
    assert "600 games of 2 settings" in r.stdout


def test_progress_lines_per_setting_when_not_a_terminal(tmp_path):
    out = tmp_path / "run"
    r = invoke("sweep", *QUICK, "--games", 500, "--out", out)
    assert r.exit_code == 0, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.startswith("done: ")]
    assert len(lines) == 4 and "\r" not in r.stderr
    assert invoke("sweep", *QUICK, "--games", 500, "--out", tmp_path / "q",
                  "--no-progress").stderr == ""


@pytest.mark.slow
def test_plan_plays_nothing_and_states_time_and_precision(tmp_path):
    out = tmp_path / "run"
    r = invoke("sweep", ROOT / "experiments" / "five_six_balance.toml", "--plan", "--out", out)
    assert r.exit_code == 0, r.stderr
    assert not out.exists()
    text = r.stdout
    assert "156 settings, 62 distinct games" in text and "estimated time" in text
    assert "p6-boats_flat-ch3-tb_shared-greedy" in text and "half-width" in text
    assert "+-0.27 pp" in text                      # 4 players, 100,000 games: 1.96*sqrt(3/16/1e5)
    assert "+-0.25 pp" in text                      # 5 players: the question the study asks


@pytest.mark.slow
def test_stats_of_a_run_folder(tmp_path):
    out = tmp_path / "run"
    invoke("sweep", *QUICK, "--games", 500, "--out", out, "--no-progress")
    csv = tmp_path / "stats.csv"
    r = invoke("stats", out, "--out", csv)
    assert r.exit_code == 0, r.stderr
    for label in ("p4-boats_rules-base-tb_chain-random", "p5-boats_rules-base-tb_shared-random"):
        assert label in r.stdout
    tidy = pd.read_csv(csv)
    assert list(tidy.columns[:7]) == ["setting", "seat", "metric", "value", "low", "high", "n"]
    assert "partial" not in r.stdout
    cut = tmp_path / "cut.csv"                      # --games: the first 200 games of each setting
    assert invoke("stats", out, "--games", 200, "--out", cut, "--no-progress").exit_code == 0
    small = tmp_path / "small"
    invoke("sweep", *QUICK, "--games", 200, "--out", small, "--no-progress")
    whole = tmp_path / "small.csv"
    assert invoke("stats", small, "--out", whole, "--no-progress").exit_code == 0
    pd.testing.assert_frame_equal(pd.read_csv(cut), pd.read_csv(whole))


def test_stats_says_when_a_run_is_partial(tmp_path):
    out = tmp_path / "run"
    sweep.run_sweep(quick_spec(1000), out, stop=lambda: True)
    r = invoke("stats", out)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.startswith("partial run:")


def _one_line_error(r, *needles):
    assert r.exit_code == 2, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    for n in needles:
        assert n in lines[0], lines[0]


@pytest.mark.slow
def test_bad_sweep_input_is_one_line_exit_2_and_no_folder(tmp_path):
    out = tmp_path / "run"
    bad = tmp_path / "bad.toml"
    bad.write_text("games = 5\n[grid]\nplayers = [4]\nboat = ['rules']\n")
    cases = [
        (["sweep", bad, "--out", out], ("bad.toml", "grid.boat (line 4)", "accepted")),
        (["sweep", tmp_path / "missing.toml", "--out", out], ("no such experiment file",)),
        (["sweep", "--out", out], ("experiment file",)),
        (["sweep", "--players", "4", "--out", out], ("--games",)),
        (["sweep", "--players", "4,9", "--games", 5, "--out", out], ("grid.players", "2-6")),
        (["sweep", "--players", "4", "--challenge", "6", "--games", 5, "--out", out],
         ("challenge 6", "skip_invalid")),
        (["sweep", "--players", "4", "--strategies", "clever", "--games", 5, "--out", out],
         ("clever",)),
        (["sweep", "--players", "4", "--games", 0, "--out", out], ("--games",)),
        (["sweep", "--players", "4", "--games", 5, "--workers", 2, "--out", out],
         ("--workers",)),
        (["sweep", bad, "--players", "4", "--out", out], ("not both",)),
        (["sweep", "--players", "4", "--games", 5, "--out", out, "--scheduler",
          "tcp://127.0.0.1:9"], ("cannot reach the Dask scheduler",)),
    ]
    for args, needles in cases:
        _one_line_error(invoke(*args), *needles)
        assert not out.exists(), args
    f = tmp_path / "afile"
    f.write_text("x")
    _one_line_error(invoke("sweep", "--players", "4", "--games", 5, "--out", f), "is a file")


def test_a_folder_of_another_spec_is_refused_from_the_command_line(tmp_path):
    out = tmp_path / "run"
    assert invoke("sweep", *QUICK, "--games", 250, "--out", out, "--no-progress").exit_code == 0
    before = sorted(p.name for p in out.iterdir())
    r = invoke("sweep", "--players", "4", "--strategies", "random", "--seed", "6", "--games",
               250, "--chunk", 250, "--out", out, "--no-progress")
    _one_line_error(r, "another run", "--force-new")
    assert sorted(p.name for p in out.iterdir()) == before
    r = invoke("sweep", "--players", "4", "--strategies", "random", "--seed", "6", "--games",
               250, "--chunk", 250, "--out", out, "--no-progress", "--force-new")
    assert r.exit_code == 0, r.stderr
    assert len(list(out.glob("*.parquet"))) == 1


def test_bad_stats_input_is_one_line(tmp_path):
    _one_line_error(invoke("stats", tmp_path / "nope"), "not a run folder")
    (tmp_path / "empty").mkdir()
    _one_line_error(invoke("stats", tmp_path / "empty"), "not a run folder")
    out = tmp_path / "run"
    invoke("sweep", *QUICK, "--games", 250, "--out", out, "--no-progress")
    _one_line_error(invoke("stats", out, "--out", tmp_path / "x.txt"), ".csv")


@pytest.mark.slow
def test_stats_read_chunk_by_chunk_equal_those_of_the_whole_table(tmp_path):
    """The command reads the run chunk by chunk (a run can hold tens of millions of games):
    its tidy table equals the one of the whole table in memory."""
    from experiments.tables.stats import balance_stats
    out = tmp_path / "run"
    sweep.run_sweep(quick_spec(500), out)
    r = invoke("stats", out, "--out", tmp_path / "t.csv", "--no-progress")
    assert r.exit_code == 0, r.stderr
    got = pd.read_csv(tmp_path / "t.csv")
    want = balance_stats(load_run(out)[0])
    assert list(got["metric"]) == list(want["metric"])
    assert got["value"].to_numpy() == pytest.approx(want["value"].to_numpy(), nan_ok=True)


@pytest.mark.slow
def test_a_shipped_study_is_found_by_its_name(tmp_path):
    r = invoke("sweep", "five_six_balance", "--plan", "--games", 10, "--out", tmp_path / "r")
    assert r.exit_code == 0, r.stderr
    assert "five_six_balance.toml" in r.stdout and "10 games per setting" in r.stdout


def test_bench_times_a_sweep_against_the_raw_engine_and_dask(tmp_path):
    f = tmp_path / "b.toml"
    f.write_text('games = 200\nchunk = 100\n[grid]\nplayers = [4]\nstrategies = ["random"]\n'
                 'tiebreak = ["chain", "shared"]\n')
    r = invoke("bench", "--sweep", f, "--repeat", 1, "--workers", 2)
    assert r.exit_code == 0, r.stderr
    assert "run 1: raw" in r.stdout and "dask" in r.stdout
    assert "sweep / raw engine:" in r.stdout and "Dask / threaded sweep:" in r.stdout


def test_a_compile_runs_in_a_child_process_that_fills_the_cache():
    """load_engine compiles apart (the compiler's memory leaves with the child); here the cache
    is warm, so the child only loads it, and says nothing."""
    from survive_sim.cli.progress import compile_apart, engine_cached
    lines = []
    assert compile_apart(["careful"], lines.append)
    assert engine_cached() and lines == []
