"""``survive-sim tune``: CMA-ES over a strategy's parameters on paired games, measured on
held-out games. The example plug-in ``homing`` has one parameter, ``wander`` (the chance of a
random move): against ``random`` the search must move it down from a poor start, and the held-out
measurement is reported with its paired interval."""
from __future__ import annotations

import json

import numpy as np
import pytest

from support.cli_harness import ROOT, assert_usage_error, invoke, run_process
from experiments.tune import Tuning, TuneError, measure, tune
from strategies.plugins import load_plugin

EXAMPLE = ROOT / "examples" / "homing_bot.py"


@pytest.fixture(scope="module", autouse=True)
def homing():
    load_plugin(EXAMPLE)


def _tuning(**kw):
    base = dict(strategy="homing:wander=0.9", against=("random",), players=3, budget=4 * 30 * 3 * 3,
                games=30, popsize=4, holdout=150, seed=3)
    return Tuning(**{**base, **kw})


def test_candidates_of_a_generation_share_their_games():
    t = _tuning()
    a = measure(t, "homing:wander=0.9", 0, 30)
    b = measure(t, "homing:wander=0.9", 0, 30)
    np.testing.assert_array_equal(a, b)
    assert a.shape == (30,) and ((0 <= a) & (a <= 1)).all()


def test_the_search_improves_a_poor_start_on_held_out_games():
    r = tune(_tuning())
    wander = float(r.best.partition("wander=")[2] or 0)
    assert wander < 0.9
    assert len(r.history) == 12 and {h["generation"] for h in r.history} == {0, 1, 2}
    h = r.holdout
    assert h["indices"] == 150 and h["low"] <= h["win_share"] <= h["high"]
    assert h["gain_low"] <= h["gain"] <= h["gain_high"] and h["gain_method"] == "paired-t"
    assert h["start_win_share"] > 1 / 3                 # homing beats random at any wander
    again = tune(_tuning())
    assert again.best == r.best and again.holdout == r.holdout      # reproducible


def test_tune_command_writes_the_result(tmp_path):
    out = tmp_path / "tuned.json"
    r = invoke("tune", "homing:wander=0.9", "--plugin", EXAMPLE, "--against", "random",
               "--players", 3, "--budget", 1080, "--games", 30, "--popsize", 4, "--holdout", 150,
               "--seed", 3, "--out", out, "--no-progress")
    assert r.exit_code == 0, r.output
    doc = json.loads(out.read_text())
    assert doc["best"].startswith("homing") and len(doc["history"]) == 12
    assert "held-out games" in r.output and "gain" in r.output


@pytest.mark.parametrize("args, needle", [
    (["random", "--against", "greedy", "--budget", 10_000], "random has no parameters to tune"),
    (["homing", "--against", "greedy", "--budget", 10], "does not cover one generation"),
    (["homing", "--against", "grey", "--budget", 10_000], "unknown strategy 'grey'"),
    (["homing", "--against", "greedy", "--budget", 10_000, "--params", "speed"],
     "homing has no parameter 'speed'"),
])
def test_bad_tuning_input_is_one_line(args, needle):
    r = run_process("tune", *args, "--plugin", EXAMPLE)
    assert_usage_error(r.returncode, r.stderr, r.stdout, needle)


def test_tuning_validates_in_python():
    with pytest.raises(TuneError, match="at least one strategy"):
        _tuning(against=())
