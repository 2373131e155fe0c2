"""examples/strength_curve.py's reading of finished tournaments, on synthetic folders: the
head to head per game index (search above expert over their player pairs, ties half, then
over the index's line-ups) and the paired steps and comparisons with the shipped preset's
budget. No engine (the example's tournaments are tested in tests/test_search.py)."""
from __future__ import annotations

import importlib.util
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

pytestmark = pytest.mark.engine_free
ROOT = Path(__file__).resolve().parents[1]


def _example():
    spec = importlib.util.spec_from_file_location("strength_curve",
                                                  ROOT / "examples" / "strength_curve.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _folder(path: Path, budget: int, standings: dict[int, list[list[int]]]):
    """A tournament folder of 4-player games: ``standings[game]`` is one list of the four
    seats' standings per line-up; seats 0 and 2 search in line-up 0, seats 1 and 3 in 1."""
    name = f"search256:budget={budget}"
    rows = []
    for game, lineups in standings.items():
        for lu, st in enumerate(lineups):
            strat = [name, "expert"] * 2 if lu == 0 else ["expert", name] * 2
            rows.append({"game": game, **{f"player_strategy_{i}": strat[i] for i in range(4)},
                         **{f"standing_{i}": st[i] for i in range(4)}})
    path.mkdir(parents=True)
    pd.DataFrame(rows).to_parquet(path / "games.parquet", row_group_size=3)
    return path


def test_the_head_to_head_per_index_counts_pairs_and_ties_half(tmp_path):
    ex = _example()
    f = _folder(tmp_path / "p4_b16", 16, {
        0: [[1, 2, 3, 4], [1, 2, 3, 4]],
        1: [[1, 1, 1, 1], [4, 3, 2, 1]]})
    got = ex.per_index(f)
    # game 0: search 1st and 3rd against 2nd and 4th: 3 of 4 pairs above; then search 2nd
    # and 4th against 1st and 3rd: 1 of 4
    assert got[0] == pytest.approx((3 / 4 + 1 / 4) / 2)
    # game 1: all four tied (every pair half); then search 3rd and 1st against 4th and 2nd
    assert got[1] == pytest.approx((1 / 2 + 3 / 4) / 2)


def test_steps_and_the_preset_comparison_are_paired_on_common_indices(tmp_path):
    ex = _example()
    rng = np.random.default_rng(1)

    def games(n):
        return {g: [list(rng.permutation(4) + 1) for _ in range(2)] for g in range(n)}
    for budget, n in ((128, 12), (256, 10), (512, 6), (1024, 4)):
        _folder(tmp_path / f"p4_b{budget}", budget, games(n))
    table = pd.DataFrame({"players": [4] * 4, "budget": [128, 256, 512, 1024]})
    g = ex.gains(tmp_path, table)
    assert g[["kind", "from", "to", "indices"]].values.tolist() == [
        ["step", 128, 256, 10], ["step", 256, 512, 6], ["step", 512, 1024, 4],
        ["against 256", 256, 1024, 4]]             # 256 -> 512 is a step already
    a, b = ex.per_index(tmp_path / "p4_b256"), ex.per_index(tmp_path / "p4_b1024")
    assert g.gain.iloc[-1] == pytest.approx((b - a[b.index]).mean())
    assert (g.low <= g.gain).all() and (g.gain <= g.high).all()
