"""`survive-sim study skill-trace` end to end, at one game per setting (the search levels cost
seconds a game): it writes its report with S5's verdicts; played on a Dask LocalCluster it
gives the very table and verdicts of a local run; killed with kill -9 and run again it ends
with the uninterrupted run's table and verdicts."""
from __future__ import annotations

import signal

import pandas as pd
import pytest
from support.cli_harness import invoke
from support.run_table import load_run
from test_sweep_cli import start, wait_for_chunks

pytestmark = pytest.mark.slow

GAMES = 1
VERDICT_COLUMNS = ["claim", "play", "scope", "verdict", "effect", "low", "high", "n"]


@pytest.fixture(scope="module")
def local(tmp_path_factory):
    """One uninterrupted local run of the study: its folder."""
    out = tmp_path_factory.mktemp("skill") / "local"
    r = invoke("study", "skill-trace", "--games", GAMES, "--out", out, "--threads", 1,
               "--no-progress")
    assert r.exit_code == 0, r.stderr
    return out


def _verdicts(out) -> pd.DataFrame:
    return pd.read_csv(out / "report" / "verdicts.csv")[VERDICT_COLUMNS]


def test_the_study_writes_its_report_with_s5_across_the_levels(local):
    table, account = load_run(local / "run")
    assert len(account) == 40 and set(h for h, _ in account.values()) == {GAMES}
    assert table["setting"].str.contains("search256:budget=64").any()
    v = pd.read_csv(local / "report" / "verdicts.csv")
    s5 = v[v["claim"].isin(["S5", "S5b"])]
    assert set(s5["play"]) == {"self-play, every skill level"} and len(s5) == 10
    assert "strong_play" in v.columns
    assert (local / "report" / "index.html").exists()


def test_a_dask_local_cluster_gives_the_local_tables(local, tmp_path):
    pytest.importorskip("dask.distributed")
    out = tmp_path / "dask"
    r = invoke("study", "skill-trace", "--games", GAMES, "--out", out, "--scheduler", "local",
               "--workers", 2, "--no-progress")
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(load_run(out / "run")[0], load_run(local / "run")[0])
    pd.testing.assert_frame_equal(_verdicts(out), _verdicts(local))


def test_killed_with_kill_9_it_resumes_to_the_uninterrupted_run(local, tmp_path):
    out = tmp_path / "killed"
    args = ["study", "skill-trace", "--games", GAMES, "--out", out, "--threads", 1,
            "--no-progress"]
    proc = start(*args)
    wait_for_chunks(out / "run", 12, proc, timeout=600)      # past the heuristic levels
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    part, _ = load_run(out / "run")
    assert 0 < part["setting"].nunique() < 40
    done = start(*args)
    _, stderr = done.communicate(timeout=1200)
    assert done.returncode == 0, stderr
    pd.testing.assert_frame_equal(load_run(out / "run")[0], load_run(local / "run")[0])
    pd.testing.assert_frame_equal(_verdicts(out), _verdicts(local))
