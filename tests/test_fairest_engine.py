"""The fairest-allocation search on the engine: its counting agrees with the studies', game
``g`` of every allocation is engine game ``g``, and an interrupted search resumes to the same
tables (few games: the statistics are tests/test_fairest.py's)."""
from __future__ import annotations

import numpy as np
import pytest

from experiments.fairest import EnginePlayer, Style, build, run_search
from experiments.fairest.players import block_of_records
from experiments.tables.games import keys, winners
from play.settings import Settings
from play.simulate import records_frame, run_records


@pytest.mark.parametrize("players, strategies, challenges", [
    (5, ("greedy",), ()), (6, ("random",), (3,)), (2, ("random", "greedy"), ()),
    (4, ("random",), ())])
def test_shares_count_as_the_studies_count(players, strategies, challenges):
    """A block's tie-split shares are those the studies' per-game tables give (X1.6's chain
    at 5-6 players, shared wins at 2-4; Challenge 3's value step; 2 players' colours summed)."""
    st = Settings(players=players, strategies=strategies, challenges=challenges)
    rows = run_records(st, 7, 0, 300)
    b = block_of_records(rows, st)
    df = records_frame(rows, st, 7, 0)
    w = winners(df).to_numpy()
    assert np.array_equal(b.y, w * (60 // w.sum(axis=1, keepdims=True)))
    assert np.array_equal(b.rescued, keys(df)[1].sum(axis=1))
    assert np.array_equal(b.length, df["turns"].to_numpy())


def test_mixed_style_sums_every_rotation():
    style = Style(("greedy", "random"))
    p = EnginePlayer(4, style, seed=3)
    assert p.rotations == 2
    b = p.play((1, 2, 2, 2), 10, 20)
    assert (b.y.sum(axis=1) == 60 * 2).all()             # each index: two games' wins
    alone = block_of_records(run_records(p.settings((1, 2, 2, 2), p.seatings[1]), 3, 10, 20),
                             p.settings((1, 2, 2, 2), p.seatings[1]))
    first = block_of_records(run_records(p.settings((1, 2, 2, 2), p.seatings[0]), 3, 10, 20),
                             p.settings((1, 2, 2, 2), p.seatings[0]))
    assert np.array_equal(b.y, alone.y + first.y)


def _spec(**kw):
    f = dict(players=[3], styles=["random", {"rotate": ["random", "greedy"]}], screen=30,
             max_games=60, confirm=1, confirm_games=40, chunk=20)
    f.update(kw)
    return build({"name": "tiny", "seed": 11, "fairest": f})


def test_engine_search_resumes_to_the_same_tables(tmp_path, monkeypatch):
    monkeypatch.setattr("experiments.fairest.search.SAVE_EVERY", 0.0)
    spec = _spec()
    whole = run_search(spec, tmp_path / "whole")
    assert whole.games_read_back == 0 and whole.games_played > 0

    import play.simulate as PS
    real, calls = PS.run_records, [0]

    def dying(*a, **k):
        calls[0] += 1
        if calls[0] == 23:
            raise KeyboardInterrupt
        return real(*a, **k)
    monkeypatch.setattr(PS, "run_records", dying)
    with pytest.raises(KeyboardInterrupt):
        run_search(spec, tmp_path / "cut")
    monkeypatch.setattr(PS, "run_records", real)
    again = run_search(spec, tmp_path / "cut")
    assert again.games_read_back > 0
    for name in ("fairest.csv", "confirmation.csv", "conclusions.csv"):
        assert (tmp_path / "cut" / name).read_text() == (tmp_path / "whole" / name).read_text()
    # a finished search plays nothing when run again
    third = run_search(spec, tmp_path / "cut")
    assert third.games_played == 0


def test_same_games_for_every_allocation(tmp_path):
    """Common random numbers: with `random` self-play an allocation's boats change the game,
    but game g is seeded from (seed, g) alone -- two calls give the same block."""
    p = EnginePlayer(5, Style(("random",)), seed=2)
    a = p.play((1, 1, 2, 2, 2), 0, 50)
    b = p.play((1, 1, 2, 2, 2), 0, 50)
    assert np.array_equal(a.y, b.y) and np.array_equal(a.length, b.length)
    parts = [p.play((1, 1, 2, 2, 2), f, 10) for f in range(0, 50, 10)]
    assert np.array_equal(np.concatenate([x.y for x in parts]), a.y)
