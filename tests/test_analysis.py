"""experiments.verdicts.analysis: a run read chunk by chunk gives the numbers the whole run in
memory gives -- the tidy statistics, every chart's table and the verdicts -- whatever the chunking,
in one process, in several, or on a Dask cluster."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from experiments.verdicts import analysis
from experiments.sweeps import spec, sweep
from experiments.verdicts.looks import judge_run
from experiments.tables.rotations import pool_table
from experiments.tables.stats import balance_stats
from experiments.verdicts.table import verdicts
from reports import charts
from support.run_table import load_run

pytestmark = pytest.mark.slow      # whole runs and games: docs/performance.md, "Test suite"

SPEC = {"name": "mix", "seed": 11, "games": 600, "chunk": 250,
        "grid": [{"players": [2, 4, 5], "boats": ["rules", "flat"], "tiebreak": ["chain", "shared"],
                  "challenges": [[], [3]], "strategies": ["random"]},
                 {"players": [5], "boats": ["rules", "flat"], "tiebreak": ["chain"],
                  "strategies": [{"rotate": ["random", "greedy"]}]},
                 {"players": [4], "challenges": [[2], [4]], "strategies": ["random"]}],
        "claims": {"S1": {}, "S1b": {"tolerance": 0.05}, "S1c": {}, "T1": {}, "T2": {},
                   "N3": {}}}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("analysis")
    sweep.run_sweep(spec.build(SPEC), root / "run")
    return root / "run"


@pytest.fixture(scope="module")
def whole(run):
    return load_run(run)[0]


def _same(a: pd.DataFrame, b: pd.DataFrame, exact: bool = False) -> None:
    a, b = a.reset_index(drop=True), b.reset_index(drop=True)
    assert list(a.columns) == list(b.columns) and len(a) == len(b)
    for c in a.columns:
        x, y = a[c], b[c]
        if x.dtype.kind in "fiu" and y.dtype.kind in "fiu":
            if exact:
                np.testing.assert_array_equal(x.to_numpy(float), y.to_numpy(float))
            else:
                np.testing.assert_allclose(x.to_numpy(float), y.to_numpy(float), rtol=1e-9,
                                           atol=1e-12, equal_nan=True)
        else:
            assert (x.astype(str) == y.astype(str)).all(), c


def test_statistics_equal_the_whole_run_in_memory(run, whole):
    streamed = analysis.analyse(run, pool_rotations=False, charts=False, workers=1)
    _same(streamed.tidy(), balance_stats(whole))
    pooled = analysis.analyse(run, workers=1)
    _same(pooled.tidy(), balance_stats(pool_table(whole.copy())))
    assert streamed.rows == len(whole) and streamed.games == len(whole)


def test_every_chart_table_equals_the_whole_run_in_memory(run, whole):
    streamed = analysis.analyse(run, workers=1)
    df = pool_table(whole.copy())
    p4 = [lab for lab in streamed.meta.index if lab.startswith("p4-boats_rules")
          and "tb_shared" in lab]
    p5 = ["p5-boats_rules-base-tb_chain-random", "p5-boats_flat-base-tb_chain-random"]
    ties = ["p5-boats_rules-base-tb_chain-random", "p5-boats_rules-ch3-tb_chain-random",
            "p4-boats_rules-base-tb_chain-random"]
    mixed = [lab for lab in streamed.meta.index if "rotations" in lab]
    assert len(mixed) == 2
    made = [
        (charts.seat_win_share, (), {"settings": p5}),
        (charts.seat_win_share, (), {"settings": mixed}),
        (charts.seat_score_rescued, (), {"settings": p5}),
        (charts.tie_decisions, (), {"settings": ties}),
        (charts.tiebreak_transitions, ("p5-boats_rules-base-tb_chain-random",), {}),
        (charts.game_length, (), {"settings": p4}),
        (charts.rescued_per_game, (), {"settings": p4}),
        (charts.losses_by_cause, (), {"settings": p4}),
        (charts.end_reasons, (), {"settings": p4}),
        (charts.turn_capped, (), {"settings": p4}),
        (charts.score_distributions, (p5[0],), {}),
        (charts.paired_differences, (), {"reference": p5[0]}),
    ]
    for fn, args, kwargs in made:
        _, got = fn(streamed, *args, **kwargs)
        _, want = fn(df, *args, **kwargs)
        _same(got, want)


def test_verdicts_equal_the_whole_run_in_memory(run, whole):
    got = judge_run(run, SPEC["claims"], record=False, workers=1)
    want = verdicts(whole, SPEC["claims"])
    assert list(got["verdict"]) == list(want["verdict"])
    for c in ("effect", "low", "high", "p_value"):
        np.testing.assert_allclose(got[c].to_numpy(float), want[c].to_numpy(float),
                                   rtol=1e-7, atol=1e-12, equal_nan=True)
    assert list(got["games_needed"].astype(str)) == list(want["games_needed"].astype(str))
    assert set(got["claim"]) >= {"S1", "S1b", "S1c", "T1", "T2", "N3"}


def test_the_numbers_do_not_depend_on_the_chunking(run, tmp_path):
    """The same games cut into chunks of 100 instead of 250: the statistics are exact sums, so
    they are equal to the last digit; the verdicts' moments to rounding."""
    sweep.run_sweep(spec.build({**SPEC, "chunk": 100}), tmp_path / "cut")
    a = analysis.analyse(run, workers=1, claims=SPEC["claims"])
    b = analysis.analyse(tmp_path / "cut", workers=1, claims=SPEC["claims"])
    _same(a.tidy(), b.tidy(), exact=True)
    for key, j in a.catalog.joints.items():
        k = b.catalog.joints[key]
        assert j.n == k.n
        np.testing.assert_allclose(j.mom.mean, k.mom.mean, rtol=1e-12, atol=1e-15)
        np.testing.assert_allclose(j.mom.m2, k.mom.m2, rtol=1e-9, atol=1e-12)


def test_worker_processes_give_the_same_numbers(run):
    one = analysis.analyse(run, workers=1, claims=SPEC["claims"])
    two = analysis.analyse(run, workers=2, claims=SPEC["claims"])
    _same(one.tidy(), two.tidy(), exact=True)
    for key, j in one.catalog.joints.items():
        np.testing.assert_array_equal(j.mom.m2, two.catalog.joints[key].mom.m2)


def test_the_analysis_on_dask_equals_the_local_one(run):
    """On a LocalCluster each chunk is read on a worker and only its sums come back: the
    result is identical to the local one (the chunks' sums are merged in chunk order)."""
    pytest.importorskip("dask.distributed")
    local = analysis.analyse(run, workers=1, claims=SPEC["claims"])
    remote = analysis.analyse(run, scheduler="local", workers=2, claims=SPEC["claims"])
    _same(local.tidy(), remote.tidy(), exact=True)
    for key, j in local.catalog.joints.items():
        np.testing.assert_array_equal(j.mom.m2, remote.catalog.joints[key].mom.m2)
        np.testing.assert_array_equal(j.mom.mean, remote.catalog.joints[key].mom.mean)
    got = judge_run(run, SPEC["claims"], record=False, analysis=remote)
    want = judge_run(run, SPEC["claims"], record=False, analysis=local)
    pd.testing.assert_frame_equal(got, want)


def test_the_first_games_only(run, whole):
    cut = analysis.analyse(run, games=300, pool_rotations=False, charts=False, workers=1)
    _same(cut.tidy(), balance_stats(whole[whole["game"] < 300]))


def test_blocks_smaller_than_a_chunk_give_the_same_numbers(run, monkeypatch):
    """A chunk larger than a block is read a block at a time (row group by row group): the
    same sums, to the last digit, and the same moments to rounding."""
    whole = analysis.analyse(run, workers=1, claims=SPEC["claims"])
    monkeypatch.setattr(analysis, "BLOCK", 100)
    cut = analysis.analyse(run, workers=1, claims=SPEC["claims"])
    _same(whole.tidy(), cut.tidy(), exact=True)
    for key, j in whole.catalog.joints.items():
        np.testing.assert_allclose(j.mom.m2, cut.catalog.joints[key].mom.m2, rtol=1e-9,
                                   atol=1e-12)


def test_results_come_back_in_order_with_a_bounded_window_whatever_the_items():
    from concurrent.futures import Future

    from experiments.store.workers import in_order
    live = []

    def submit(x):
        live.append(x)
        f = Future()
        f.set_result(x)
        return f
    got = in_order(submit, [1, None, 3, None, 5], 2)
    assert next(got) == 1 and live == [1, None]   # two in flight, then one more per result
    assert list(got) == [None, 3, None, 5]
