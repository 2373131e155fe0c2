"""The skill trace end to end, on a miniature of the shipped study: the shipped file's grid and
claims with two heuristic levels and the search rung at budgets 2 and 4, two games a setting
(the shipped budgets cost seconds a game, which a test suite cannot pay 40 times over; the
shipped file itself is checked without playing). The miniature writes its report with S5's
verdicts; played on a Dask LocalCluster it gives the very table of a local run; killed with
kill -9 and run again it ends with the uninterrupted run's table and verdicts (judged through
the API, without drawing the report's charts again)."""
from __future__ import annotations

import re
import signal

import pandas as pd
import pytest
from support.cli_harness import invoke
from support.run_table import load_run
from test_sweep_cli import start, wait_for_chunks

import survive_sim
from experiments.sweeps import spec as S

pytestmark = pytest.mark.slow

LEVELS = ["greedy", "racer", "search256:budget=2", "search256:budget=4"]
SETTINGS = 5 * len(LEVELS)                   # 5 and 6 players x 2 boat rules, and 4 players
GAMES = 2
VERDICT_COLUMNS = ["claim", "play", "scope", "verdict", "effect", "low", "high", "n"]


@pytest.mark.engine_free
def test_the_shipped_study_plays_eight_levels_at_4_5_and_6_players():
    s = S.load("skill_trace")
    styles = list(dict.fromkeys(p.settings.strategies[0] for p in s.points))
    assert len(s.points) == 40 and len(styles) == 8
    assert styles[:5] == ["greedy", "racer", "tuned", "lookahead", "expert"]
    assert styles[5:] == [f"search256:budget={b}" for b in (16, 32, 64)]
    assert {"S5", "S5b", "S1", "S1b", "S1c", "N3"} <= set(s.claims)


@pytest.fixture(scope="module")
def mini(tmp_path_factory):
    """The shipped file with LEVELS for its levels and GAMES games in chunks of one."""
    text = S.STUDIES.joinpath("skill_trace.toml").read_text(encoding="utf-8")
    levels = "strategies = [" + ", ".join(f'"{x}"' for x in LEVELS) + "]"
    text, swapped = re.subn(r"strategies = \[[^\]]*\]", levels, text)
    assert swapped == 2
    text = re.sub(r"(?m)^games = \d+", f"games = {GAMES}", text)
    text = re.sub(r"(?m)^chunk = \d+", "chunk = 1", text)
    path = tmp_path_factory.mktemp("mini") / "skill_trace_mini.toml"
    path.write_text(text, encoding="utf-8")
    return path


def _play(spec_file, out, *extra):
    r = invoke("sweep", spec_file, "--out", out / "run", "--no-progress", *extra)
    assert r.exit_code == 0, r.stderr
    r = invoke("report", out / "run", "--out", out / "report", "--no-progress")
    assert r.exit_code == 0, r.stderr


@pytest.fixture(scope="module")
def local(mini, tmp_path_factory):
    """One uninterrupted local run of the miniature and its report: the folder."""
    out = tmp_path_factory.mktemp("skill") / "local"
    _play(mini, out, "--threads", 1)
    return out


def _verdicts(run) -> pd.DataFrame:
    return survive_sim.Run(run).verdicts()[VERDICT_COLUMNS].reset_index(drop=True)


@pytest.fixture(scope="module")
def local_verdicts(local):
    """The uninterrupted run's verdicts, as its report wrote them, and checked equal to the
    API's judgement of the same run."""
    written = pd.read_csv(local / "report" / "verdicts.csv")[VERDICT_COLUMNS]
    judged = _verdicts(local / "run")
    pd.testing.assert_frame_equal(judged, written, check_dtype=False)
    return judged


def test_the_study_writes_its_report_with_s5_across_the_levels(local):
    table, account = load_run(local / "run")
    assert len(account) == SETTINGS and set(h for h, _ in account.values()) == {GAMES}
    assert table["setting"].str.contains("search256:budget=4").any()
    v = pd.read_csv(local / "report" / "verdicts.csv")
    s5 = v[v["claim"].isin(["S5", "S5b"])]
    assert set(s5["play"]) == {"self-play, every skill level"} and len(s5) == 10
    assert "strong_play" in v.columns
    assert (local / "report" / "index.html").exists()


def test_a_dask_local_cluster_gives_the_local_tables(mini, local, local_verdicts, tmp_path):
    pytest.importorskip("dask.distributed")
    out = tmp_path / "dask"
    r = invoke("sweep", mini, "--out", out / "run", "--scheduler", "local", "--workers", 2,
               "--no-progress")
    assert r.exit_code == 0, r.stderr
    pd.testing.assert_frame_equal(load_run(out / "run")[0], load_run(local / "run")[0])
    pd.testing.assert_frame_equal(_verdicts(out / "run"), local_verdicts)


def test_killed_with_kill_9_it_resumes_to_the_uninterrupted_run(mini, local, local_verdicts,
                                                                tmp_path):
    out = tmp_path / "killed"
    args = ["sweep", mini, "--out", out / "run", "--threads", 1, "--no-progress"]
    proc = start(*args)
    wait_for_chunks(out / "run", 12, proc, timeout=600)
    proc.send_signal(signal.SIGKILL)
    proc.wait(timeout=60)
    assert proc.returncode == -signal.SIGKILL
    part, _ = load_run(out / "run")
    assert 0 < part["setting"].nunique() < SETTINGS
    done = start(*args)
    _, stderr = done.communicate(timeout=1200)
    assert done.returncode == 0, stderr
    pd.testing.assert_frame_equal(load_run(out / "run")[0], load_run(local / "run")[0])
    pd.testing.assert_frame_equal(_verdicts(out / "run"), local_verdicts)
