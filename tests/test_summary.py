"""reports.summary on small hand-made tables: exact wins and ties, 2-player seat sums, Wilson
bounds against statsmodels. No engine: these run in a fraction of a second."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from reports import summary as S

SEAT_FIELDS = ("score", "rescued", "rescued_value", "lost", "turns", "lost_serpent",
               "lost_shark", "lost_whale", "lost_whirlpool", "lost_squid", "lost_stranded")
END_NAMES = ["none", "volcano", "turn_cap", "no_explorers", "island_gone"]


def frame(players, scores, rescued=None, strategies=None, end_reasons=None, turns=None,
          csv_like=False):
    """A results table in the simulator's layout. ``scores``/``rescued``: one list per game,
    one number per seat; every seat has 10 explorers, the ones not rescued are lost."""
    seats = 4 if players == 2 else players
    n = len(scores)
    scores = np.asarray(scores, dtype=np.int64).reshape(n, seats)
    rescued = (np.asarray(rescued, dtype=np.int64).reshape(n, seats) if rescued is not None
               else (scores > 0).astype(np.int64))
    strategies = strategies or ["random"] * seats
    end_reasons = end_reasons or ["volcano"] * n
    cols = {"game": np.arange(n), "seed": np.full(n, 7), "players": np.full(n, players),
            "seats": np.full(n, seats),
            "end_reason": (list(end_reasons) if csv_like
                           else pd.Categorical(end_reasons, categories=END_NAMES)),
            "end_seat": np.zeros(n, int), "turns": np.asarray(turns or [30] * n),
            "tiles_removed": np.full(n, 30), "bonus_moves": np.zeros(n, int)}
    for s in range(6):
        present = s < seats
        values = {"score": scores[:, s] if present else None,
                  "rescued": rescued[:, s] if present else None,
                  "rescued_value": scores[:, s] if present else None,
                  "lost": 10 - rescued[:, s] if present else None,
                  "turns": np.full(n, 8) if present else None}
        for f in SEAT_FIELDS:
            v = values.get(f, np.zeros(n, int) if present else None)
            if csv_like:
                cols[f"{f}_{s}"] = v if present else np.full(n, np.nan)
            else:
                cols[f"{f}_{s}"] = pd.array(v if present else [None] * n, dtype="Int32")
        player = s % players if present else None
        if csv_like:
            cols[f"player_{s}"] = np.full(n, player if present else np.nan)
            cols[f"boats_{s}"] = np.full(n, 2 if present else np.nan)
            cols[f"strategy_{s}"] = [strategies[s] if present else np.nan] * n
        else:
            cols[f"player_{s}"] = pd.array([player] * n, dtype="Int8")
            cols[f"boats_{s}"] = pd.array([2 if present else None] * n, dtype="Int8")
            cols[f"strategy_{s}"] = pd.Categorical([strategies[s] if present else None] * n)
    return pd.DataFrame(cols)


THREE = [[5, 3, 1], [4, 4, 0], [0, 0, 0], [2, 6, 6]]


def wilson_ref(k, n):
    return proportion_confint(k, n, alpha=0.05, method="wilson")


def test_winners_shared_top_score_three_players():
    df = frame(3, THREE)
    w = S.winners(df)
    expected = [[True, False, False], [True, True, False], [True, True, True],
                [False, True, True]]
    assert w.to_numpy().tolist() == expected
    assert list(w.columns) == [0, 1, 2]
    assert S.shared_top(df).tolist() == [False, True, True, True]


def test_summary_counts_three_players():
    t = S.summary_table(frame(3, THREE, strategies=["greedy", "random", "random"]))
    assert t["label"].tolist() == ["seat 0", "seat 1", "seat 2"]
    assert t["strategy"].tolist() == ["greedy", "random", "random"]
    assert t["games"].tolist() == [4, 4, 4]
    assert t["wins"].tolist() == [3, 3, 2]          # shared wins count for every tied player
    assert t["shared_wins"].tolist() == [2, 3, 2]
    assert t["win_rate"].tolist() == [0.75, 0.75, 0.5]
    assert t["mean_score"].tolist() == pytest.approx([11 / 4, 13 / 4, 7 / 4])
    assert t["rescued"].tolist() == [3, 3, 2]
    assert t["explorers"].tolist() == [40, 40, 40]
    run = t.attrs["run"]
    assert run["games"] == 4 and run["ties"] == 3 and run["tie_rate"] == 0.75
    assert run["scoreless"] == 1


def test_two_players_sum_their_two_seats():
    # seats A,B,A,B: player 0 owns seats 0 and 2, player 1 owns seats 1 and 3
    scores = [[3, 1, 2, 5],     # 5 vs 6: player 1 (seat 3 alone is the top seat)
              [4, 0, 0, 4],     # 4 vs 4: shared
              [6, 5, 0, 0],     # 6 vs 5: player 0
              [0, 9, 0, 0]]     # 0 vs 9: player 1
    rescued = [[1, 1, 1, 2], [2, 0, 0, 1], [2, 1, 0, 0], [0, 3, 0, 0]]
    df = frame(2, scores, rescued=rescued, strategies=["greedy", "random", "greedy", "random"])
    ps = S.player_scores(df)
    assert ps["score_0"].tolist() == [5, 4, 6, 0]
    assert ps["score_1"].tolist() == [6, 4, 5, 9]
    assert ps["rescued_0"].tolist() == [2, 2, 2, 0]
    assert ps["rescued_1"].tolist() == [3, 1, 1, 3]
    assert ps["rescued_value_0"].tolist() == [5, 4, 6, 0]
    assert ps["explorers_0"].tolist() == [20, 20, 20, 20]
    assert S.winners(df).to_numpy().tolist() == [[False, True], [True, True], [True, False],
                                                 [False, True]]
    t = S.summary_table(df)
    assert t["label"].tolist() == ["player 0 (seats 0,2)", "player 1 (seats 1,3)"]
    assert t["seats"].tolist() == ["0,2", "1,3"]
    assert t["strategy"].tolist() == ["greedy", "random"]
    assert t["wins"].tolist() == [2, 3]
    assert t["shared_wins"].tolist() == [1, 1]
    assert t["rescued"].tolist() == [6, 8]
    assert t["explorers"].tolist() == [80, 80]
    assert t.attrs["run"]["ties"] == 1


def test_two_players_mixed_strategies_within_a_player():
    df = frame(2, [[1, 0, 0, 0]], strategies=["greedy", "greedy", "random", "random"])
    assert S.summary_table(df)["strategy"].tolist() == ["greedy+random", "greedy+random"]


def test_wilson_bounds_match_statsmodels_and_rescue_interval_is_over_games():
    df = frame(3, THREE)
    t = S.summary_table(df)
    for r in t.itertuples():
        lo, hi = wilson_ref(r.wins, r.games)
        assert (r.win_lo, r.win_hi) == pytest.approx((lo, hi), abs=1e-12)
        # rescue rate: a normal interval over games (explorers of one game are not independent)
        share = S.player_scores(df)[f"rescued_{r.player}"] / 10
        half = 1.959963984540054 * share.std(ddof=1) / math.sqrt(len(share))
        assert (r.rescue_lo, r.rescue_hi) == pytest.approx((share.mean() - half,
                                                            share.mean() + half), abs=1e-12)
    run = t.attrs["run"]
    assert (run["tie_lo"], run["tie_hi"]) == pytest.approx(wilson_ref(3, 4), abs=1e-12)
    assert (run["turn_cap_lo"], run["turn_cap_hi"]) == pytest.approx(wilson_ref(0, 4), abs=1e-12)
    # hand check of one bound: k=3, n=4, z=1.96
    z = 1.959963984540054
    p, n = 0.75, 4
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    assert (run["tie_lo"], run["tie_hi"]) == pytest.approx((centre - half, centre + half))


def test_wilson_helper_edge_cases():
    lo, hi = S.wilson(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    assert S.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert S.wilson(10, 10)[1] == pytest.approx(1.0)
    lo, hi = S.wilson(np.array([1, 5]), np.array([10, 0]))
    assert lo[0] == pytest.approx(wilson_ref(1, 10)[0]) and math.isnan(lo[1])


def test_mean_score_normal_interval():
    df = frame(3, THREE)
    t = S.summary_table(df)
    x = np.array([5, 4, 0, 2], dtype=float)
    half = 1.959963984540054 * x.std(ddof=1) / 2
    r = t.iloc[0]
    assert r["mean_score"] == pytest.approx(x.mean())
    assert (r["score_lo"], r["score_hi"]) == pytest.approx((x.mean() - half, x.mean() + half))


def test_end_reasons_and_turn_cap():
    df = frame(4, [[1, 0, 0, 0]] * 5, end_reasons=["volcano"] * 3 + ["turn_cap"] * 2,
               turns=[30, 31, 32, 400, 400])
    run = S.run_summary(df)
    assert run["end_reasons"] == {"none": 0, "volcano": 3, "turn_cap": 2, "no_explorers": 0,
                                  "island_gone": 0}
    assert run["turn_capped"] == 2 and run["turn_cap_rate"] == 0.4
    assert (run["turn_cap_lo"], run["turn_cap_hi"]) == pytest.approx(wilson_ref(2, 5))
    assert run["mean_turns"] == pytest.approx(np.mean([30, 31, 32, 400, 400]))


def test_csv_read_back_table_gives_the_same_summary():
    a = S.summary_table(frame(2, [[3, 1, 2, 5], [4, 0, 0, 4]]))
    b = S.summary_table(frame(2, [[3, 1, 2, 5], [4, 0, 0, 4]], csv_like=True))
    pd.testing.assert_frame_equal(a, b)
    assert b.attrs["run"]["end_reasons"] == {"volcano": 2}


def test_every_rate_has_interval_and_sample_size():
    t = S.summary_table(frame(3, THREE))
    run = t.attrs["run"]
    for keys in (list(t.columns), list(run)):
        rates = [k for k in keys if k.endswith("_rate")]
        assert rates
        for k in rates:
            stem = k[:-len("_rate")]
            assert f"{stem}_lo" in keys and f"{stem}_hi" in keys, k
    assert {"games", "explorers"} <= set(t.columns) and "games" in run


def test_mixed_player_counts_are_rejected():
    df = pd.concat([frame(3, [[1, 0, 0]]), frame(4, [[1, 0, 0, 0]])], ignore_index=True)
    with pytest.raises(ValueError, match="mixes player counts"):
        S.summary_table(df)


def test_format_summary_is_an_aligned_table():
    t = S.summary_table(frame(3, THREE, strategies=["greedy", "random", "random"]))
    text = S.format_summary(t)
    lines = text.splitlines()
    header, rows = lines[0], lines[1:4]
    col = header.index("strategy")
    assert [r[col:].split()[0] for r in rows] == ["greedy", "random", "random"]
    rate_col = header.index("win rate")
    assert all(r[rate_col:].startswith(("75.00%", "50.00%")) for r in rows)
    assert "ties" in text and "3 of n=4 games" in text
    assert "turn-capped: 0 of n=4" in text
    two = S.format_summary(S.summary_table(frame(2, [[3, 1, 2, 5]])))
    assert "player 0 (seats 0,2)" in two and "player 1 (seats 1,3)" in two


def test_x1_6_chain_winners_and_decided_steps_from_a_table():
    """X1.6 / B7.3 on a saved table: the chain splits ties by explorers rescued (then turns);
    the shared rule counts every tied player; the run summary counts each deciding step."""
    scores = [[6, 6, 1, 0, 0], [5, 2, 5, 0, 0], [4, 4, 0, 0, 0]]
    rescued = [[1, 2, 1, 0, 0], [2, 1, 2, 0, 0], [2, 2, 0, 0, 0]]
    df = frame(5, scores, rescued=rescued)
    assert S.tiebreak_rule(df) == "chain"                   # 5-6 players: the chain by default
    assert S.winners(df).to_numpy().tolist() == [
        [False, True, False, False, False], [True, False, True, False, False],
        [True, True, False, False, False]]
    assert S.decided_by(df).astype(str).tolist() == ["rescued", "shared", "shared"]
    shared = S.winners(df, "shared").to_numpy()
    assert shared.sum(axis=1).tolist() == [2, 2, 2]
    run = S.run_summary(df)
    assert run["tiebreak"] == "chain" and run["decided"]["rescued"][0] == 1
    assert run["decided"]["shared"][0] == 2 and run["ties"] == 3
    t = S.summary_table(df)
    assert t["wins"].tolist() == [2, 2, 1, 0, 0] and t["shared_wins"].tolist() == [2, 1, 1, 0, 0]
    text = S.format_summary(t)
    assert "tie-break: chain (X1.6)" in text and "rescued 33.33%" in text
    with pytest.raises(ValueError, match="shared, chain"):
        S.winners(df, "coin")
