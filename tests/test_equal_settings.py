"""The A/A check on the engine: two settings that differ only in their name or their seed
stream, and a setting against itself through a resume, are judged equal by the balance rule
(``claims.shared.equal_settings``), never different; over many A/A pairs the
false-difference rate is at most alpha."""
from __future__ import annotations

import math

import pandas as pd
import pytest
from support.run_table import load_run

from experiments.sweeps import spec, sweep
from experiments.verdicts.claims.shared import equal_settings
from experiments.verdicts.inference import ALPHA, interval, mean_of
from experiments.tables.games import prepare
from experiments.verdicts.catalog import from_frame
from play.settings import Settings
from play.simulate import simulate


def _labelled(df: pd.DataFrame, label: str) -> pd.DataFrame:
    out = df.copy()
    out["setting"] = label
    out["allocation"] = "rules"
    return out


def _pair(a: pd.DataFrame, b: pd.DataFrame, tol: float):
    cat = from_frame(pd.concat([_labelled(a, "A"), _labelled(b, "B")], ignore_index=True))
    ea, eb = cat.entries
    return equal_settings(cat, ea, eb, tol).decision


def test_two_names_of_one_setting_are_equal():
    df = simulate(Settings(players=4, strategies=("greedy",)), 2000, 3)
    dec = _pair(df, df.copy(), 0.01)
    assert dec.verdict == "supported" and dec.high < 0.002      # zero of 2,000 games differ


def test_a_setting_against_itself_through_a_resume_is_equal(tmp_path):
    sp = spec.build({"seed": 6, "games": 600, "chunk": 200,
                     "grid": {"players": [5], "strategies": ["greedy"]}})
    first = sweep.run_sweep(sp, tmp_path / "cut", stop=lambda: True)    # one chunk, stop
    assert first.stopped and first.games_done == 200
    sweep.run_sweep(sp, tmp_path / "cut")                      # resumed
    sweep.run_sweep(sp, tmp_path / "whole")
    a, b = load_run(tmp_path / "whole")[0], load_run(tmp_path / "cut")[0]
    assert len(a) == len(b) == 600
    assert _pair(a, b, 0.01).verdict == "supported"


@pytest.mark.slow                              # 120,000 games
def test_seed_streams_are_judged_equal_and_rarely_different():
    """60 A/A pairs: blocks of 1,000 games of one setting from seed 1 against the same
    indices from seed 2 (independent games). The balance rule at ±5 points calls none of
    them different, and an uncorrected significance reading (some seat's 95% interval of
    the difference excluding 0, Bonferroni over the seats) no more than alpha of them."""
    games, block = 60_000, 1000
    s = Settings(players=4)
    a, b = simulate(s, games, 1), simulate(s, games, 2)
    different = significant = equal = 0
    pairs = games // block
    for k in range(pairs):
        part = slice(k * block, (k + 1) * block)
        dec = _pair(a.iloc[part], b.iloc[part].assign(game=a["game"].iloc[part].to_numpy()),
                    0.05)
        different += dec.verdict == "refuted"
        equal += dec.verdict == "supported"
        ua = prepare("A", _labelled(a.iloc[part], "A")).share()
        ub = prepare("B", _labelled(b.iloc[part], "B")).share()
        significant += any(lo > 0 or hi < 0 for lo, hi in
                           (interval(mean_of(ub[:, j] - ua[:, j], -1, 1), ALPHA / 4)
                            for j in range(4)))
    slack = 3 * math.sqrt(ALPHA * (1 - ALPHA) / pairs)
    assert different == 0
    assert significant / pairs <= ALPHA + slack
    assert equal / pairs >= 0.8
