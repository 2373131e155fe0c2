"""The Python API (``survive_sim``, docs/python.md) gives the command line's numbers, and the
notebook in examples/ runs from top to bottom."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pandas as pd
import pytest

import survive_sim as ss
from support.cli_harness import invoke

ROOT = Path(__file__).resolve().parents[1]
SPEC = {"name": "api-test", "description": "API against CLI", "seed": 5, "games": 240,
        "chunk": 120, "grid": [{"players": [4, 5], "strategies": ["greedy"],
                                "boats": ["rules", "flat"], "challenges": [[]],
                                "tiebreak": ["chain"]}],
        "claims": {"S1": {}, "S1b": {"tolerance": 0.01}}}
TOML = """name = "api-test"
description = "API against CLI"
seed = 5
games = 240
chunk = 120

[[grid]]
players = [4, 5]
strategies = ["greedy"]
boats = ["rules", "flat"]
challenges = [[]]
tiebreak = ["chain"]

[claims.S1]
[claims.S1b]
tolerance = 0.01
"""


def test_the_package_imports_nothing_heavy_until_a_name_is_used():
    """``import survive_sim`` (which the CLI does on every call) loads neither pandas nor the
    engine; the first API name does."""
    code = ("import sys, survive_sim\nprint('pandas' in sys.modules, 'play.engine' in "
            "sys.modules)\nsurvive_sim.Settings\nprint('play.settings' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True, env={**os.environ, "PYTHONPATH": str(ROOT)})
    assert out.stdout.split() == ["False", "False", "True"]
    assert sorted(dir(ss)) == sorted(set(dir(ss)))
    with pytest.raises(AttributeError):
        ss.no_such_name


@pytest.mark.slow
def test_simulate_is_the_cli_table(tmp_path):
    out = tmp_path / "t.parquet"
    r = invoke("simulate", "--players", 5, "--games", 300, "--seed", 11, "--strategies",
               "greedy,random,careful,racer,greedy", "--challenge", "3", "--no-progress",
               "--out", out)
    assert r.exit_code == 0, r.output
    cli = pd.read_parquet(out)
    api = ss.simulate(300, seed=11, players=5, strategies="greedy,random,careful,racer,greedy",
                      challenges=[3])
    pd.testing.assert_frame_equal(cli, api, check_dtype=False, check_categorical=False)
    chunks = list(ss.simulate_chunks(300, seed=11, settings=ss.settings(
        5, ["greedy", "random", "careful", "racer", "greedy"], challenges="3"), chunk=128))
    assert [len(c) for c in chunks] == [128, 128, 44]
    pd.testing.assert_frame_equal(pd.concat(chunks, ignore_index=True), api)


def test_settings_refuse_bad_input_with_the_cli_message():
    with pytest.raises(ValueError, match="players must be one of"):
        ss.settings(7)
    with pytest.raises(ValueError, match="either settings= or"):
        ss.simulate(10, settings=ss.settings(4), squid=True)


@pytest.mark.slow
def test_a_sweep_gives_the_cli_statistics_and_verdicts(tmp_path):
    spec_file = tmp_path / "api.toml"
    spec_file.write_text(TOML)
    cli_run, api_run = tmp_path / "cli-run", tmp_path / "api-run"
    r = invoke("sweep", spec_file, "--out", cli_run, "--no-progress")
    assert r.exit_code == 0, r.output
    r = invoke("stats", cli_run, "--out", tmp_path / "stats.csv", "--no-progress")
    assert r.exit_code == 0, r.output
    run = ss.sweep(SPEC, api_run)
    assert run.outcome.games_done == 4 * 240
    cli_stats = pd.read_csv(tmp_path / "stats.csv")
    api_stats = pd.read_csv(pd.io.common.StringIO(run.stats().to_csv(index=False)))
    pd.testing.assert_frame_equal(cli_stats, api_stats)
    # the tables, chunk by chunk and whole, are the CLI's run's games
    assert ss.Run(cli_run).table(["score_0"]).equals(run.table(["score_0"]))
    assert [len(c) for c in run.chunks(["score_0"], games=200)] == [120, 80] * 4
    # verdicts of the same games, by the same rule
    cli_v = ss.Run(cli_run).verdicts()
    pd.testing.assert_frame_equal(cli_v, run.verdicts())
    assert set(cli_v["claim"]) >= {"S1", "S1b"}
    fig, table = run.chart("seat_win_share")
    assert len(table) == 2 * (4 + 5) and table["n"].eq(240).all()
    with pytest.raises(ValueError, match="unknown chart"):
        run.chart("pie")
    # sweeping again plays nothing: the run folder resumes
    again = ss.sweep(SPEC, api_run)
    assert again.outcome.games_played == 0


@pytest.mark.slow
def test_a_study_and_its_report(tmp_path):
    study = ss.study("tiebreaks", games=60, out=tmp_path / "study")
    assert study.run.path == tmp_path / "study" / "run"
    verdicts = study.verdicts
    assert {"claim", "verdict"} <= set(verdicts.columns) and len(verdicts)
    result = study.report()
    assert result.path.exists() and result.path.parent == tmp_path / "study" / "report"
    written = pd.read_csv(tmp_path / "study" / "report" / "verdicts.csv")
    assert list(written["verdict"]) == list(verdicts["verdict"])
    # the CLI on the same folder plays nothing more and prints the same verdicts
    r = invoke("study", "tiebreaks", "--games", 60, "--out", tmp_path / "study",
               "--no-progress")
    assert r.exit_code == 0, r.output
    assert all(v in r.output for v in set(verdicts["verdict"]))
    with pytest.raises(ValueError, match="unknown study"):
        ss.study("no-such-study")


def test_replay_and_draw_are_the_cli_log_and_picture(tmp_path):
    r = invoke("replay", "--seed", 3, "--game", 7, "--players", 3, "--strategies", "greedy",
               "--json", tmp_path / "g.json")
    assert r.exit_code == 0, r.output
    log = ss.replay(3, 7, players=3, strategies="greedy")
    assert json.loads((tmp_path / "g.json").read_text()) == json.loads(json.dumps(log))
    r = invoke("draw", "--log", tmp_path / "g.json", "--event", 12, "--out", tmp_path / "c.svg")
    assert r.exit_code == 0, r.output
    assert ss.draw(log, 12) == (tmp_path / "c.svg").read_text()
    png = ss.draw(log, out=tmp_path / "end.png")
    assert png[:8] == b"\x89PNG\r\n\x1a\n" and (tmp_path / "end.png").read_bytes() == png
    with pytest.raises(ValueError, match="outside the game"):
        ss.draw(log, len(log["events"]))


def test_a_tournament_from_python():
    result = ss.tournament("random,greedy", 40, players=2, batch=20, stop=False)
    assert list(result.standings["strategy"]) == ["greedy", "random"]
    assert result.games_played == 40 * len(result.tournament.lineups)


@pytest.mark.slow
def test_the_notebook_draws_the_main_chart(tmp_path):
    """examples/main_chart.ipynb, executed cell by cell in a kernel with a few games."""
    nbformat = pytest.importorskip("nbformat")
    nbclient = pytest.importorskip("nbclient")
    nb = nbformat.read(ROOT / "examples" / "main_chart.ipynb", as_version=4)
    env = {"SURVIVE_SIM_NOTEBOOK_GAMES": "150", "SURVIVE_SIM_NOTEBOOK_RUN": str(tmp_path / "r")}
    old = {k: os.environ.get(k) for k in env}
    os.environ.update(env)
    try:
        nbclient.NotebookClient(nb, timeout=600, kernel_name="python3",
                                resources={"metadata": {"path": str(tmp_path)}}).execute()
    finally:
        for k, v in old.items():
            os.environ.pop(k) if v is None else os.environ.__setitem__(k, v)
    assert (tmp_path / "r" / "five-six-win-share.png").stat().st_size > 10_000
    errors = [o for c in nb.cells if c.cell_type == "code" for o in c.outputs
              if o.get("output_type") == "error"]
    assert not errors
