"""experiments.tables.summary on small hand-made tables: exact wins and ties, 2-player seat sums,
Wilson bounds against statsmodels. No engine: these run in a fraction of a second."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from statsmodels.stats.proportion import proportion_confint

from experiments.tables import games as G
from experiments.tables import moments as M
from experiments.tables import summary as S

pytestmark = pytest.mark.engine_free

T3 = 3.182446305284263                # t(0.975) with 3 degrees of freedom: 4 games

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
    w = G.winners(df)
    expected = [[True, False, False], [True, True, False], [True, True, True],
                [False, True, True]]
    assert w.to_numpy().tolist() == expected
    assert list(w.columns) == [0, 1, 2]
    assert G.shared_top(df).tolist() == [False, True, True, True]


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
    ps = G.player_scores(df)
    assert ps["score_0"].tolist() == [5, 4, 6, 0]
    assert ps["score_1"].tolist() == [6, 4, 5, 9]
    assert ps["rescued_0"].tolist() == [2, 2, 2, 0]
    assert ps["rescued_1"].tolist() == [3, 1, 1, 3]
    assert ps["rescued_value_0"].tolist() == [5, 4, 6, 0]
    assert ps["explorers_0"].tolist() == [20, 20, 20, 20]
    assert G.winners(df).to_numpy().tolist() == [[False, True], [True, True], [True, False],
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
        # rescue rate: an interval over games (explorers of one game are not independent):
        # t where it fits in [0, 1], else Wilson of the shares' sum
        share = G.player_scores(df)[f"rescued_{r.player}"] / 10
        half = T3 * share.std(ddof=1) / math.sqrt(len(share))
        normal = (share.mean() - half, share.mean() + half)
        fits = normal[0] >= 0 and normal[1] <= 1 and share.std() > 0
        expected = normal if fits else wilson_ref(share.sum(), len(share))
        assert (r.rescue_lo, r.rescue_hi) == pytest.approx(expected, abs=1e-12)
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
    lo, hi = M.wilson(0, 0)
    assert math.isnan(lo) and math.isnan(hi)
    assert M.wilson(0, 10)[0] == pytest.approx(0.0, abs=1e-12)
    assert M.wilson(10, 10)[1] == pytest.approx(1.0)
    lo, hi = M.wilson(np.array([1, 5]), np.array([10, 0]))
    assert lo[0] == pytest.approx(wilson_ref(1, 10)[0]) and math.isnan(lo[1])


def test_mean_score_interval_follows_the_rule():
    """Seat 0 scored 5, 4, 0, 2 in four games: the t interval (t with 3 degrees of freedom)
    would reach below 0, so the score's interval is the Wilson interval of the mean scaled to
    [0, 28]."""
    df = frame(3, THREE)
    t = S.summary_table(df)
    x = np.array([5, 4, 0, 2], dtype=float)
    half = T3 * x.std(ddof=1) / 2
    assert x.mean() - half < 0
    r = t.iloc[0]
    assert r["mean_score"] == pytest.approx(x.mean())
    lo, hi = wilson_ref(x.sum() / 28, 4)
    assert (r["score_lo"], r["score_hi"]) == pytest.approx((28 * lo, 28 * hi))


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
    assert G.tiebreak_rule(df) == "chain"                   # 5-6 players: the chain by default
    assert G.winners(df).to_numpy().tolist() == [
        [False, True, False, False, False], [True, False, True, False, False],
        [True, True, False, False, False]]
    assert G.decided_by(df).astype(str).tolist() == ["rescued", "shared", "shared"]
    shared = G.winners(df, "shared").to_numpy()
    assert shared.sum(axis=1).tolist() == [2, 2, 2]
    run = S.run_summary(df)
    assert run["tiebreak"] == "chain" and run["decided"]["rescued"][0] == 1
    assert run["decided"]["shared"][0] == 2 and run["ties"] == 3
    t = S.summary_table(df)
    assert t["wins"].tolist() == [2, 2, 1, 0, 0] and t["shared_wins"].tolist() == [2, 1, 1, 0, 0]
    text = S.format_summary(t)
    assert "tie-break: chain (X1.6)" in text and "rescued 33.33%" in text
    with pytest.raises(ValueError, match="shared, chain"):
        G.winners(df, "coin")


# ---------------------------------------------------------------------------- bounded means
# (the rule lives in experiments.tables.moments; the summary uses it like every other table)
def test_bounded_mean_ci_falls_back_to_wilson_outside_the_range():
    """A no-boats run: a rescue rate of 0.10% once printed [-0.04%, 0.24%]."""
    x = np.r_[[0.1, 0.1], np.zeros(198)]                      # mean 0.001 over 200 games
    half = 1.96 * x.std(ddof=1) / math.sqrt(len(x))
    assert x.mean() - half < 0                                # a plain interval leaves [0, 1]
    mean, lo, hi, n, method = M.bounded_mean_ci(x, 0, 1)
    assert (mean, n, method) == (pytest.approx(0.001), 200, "wilson-scaled")
    assert (lo, hi) == pytest.approx(wilson_ref(x.sum(), 200), abs=1e-12)
    assert 0 <= lo < mean < hi


def test_bounded_mean_ci_all_zero_and_all_at_the_top_keep_their_width():
    mean, lo, hi, n, _ = M.bounded_mean_ci(np.zeros(200), 0, 1)  # nobody rescued anybody
    assert mean == 0 and lo == 0 and hi == pytest.approx(wilson_ref(0, 200)[1]) and hi > 0.01
    mean, lo, hi, n, _ = M.bounded_mean_ci(np.full(50, 28), 0, 28)       # every explorer home
    assert mean == 28 and hi == 28
    assert lo == pytest.approx(28 * wilson_ref(50, 50)[0]) and lo < 28
    mean, lo, hi, n, _ = M.bounded_mean_ci(np.full(40, 400), 0, 400)     # every game capped
    assert hi == 400 and lo < 400


def test_bounded_mean_ci_maps_the_wilson_interval_onto_lo_hi():
    x = np.array([3, 3, 3, 3, 3])                             # sd 0: the scaled Wilson interval
    mean, lo, hi, n, _ = M.bounded_mean_ci(x, 1, 6)
    wlo, whi = wilson_ref(((x - 1) / 5).sum(), 5)
    assert (lo, hi) == pytest.approx((1 + 5 * wlo, 1 + 5 * whi))


def test_bounded_mean_ci_t_branch_is_statsmodels_tconfint():
    from statsmodels.stats.weightstats import DescrStatsW
    rng = np.random.default_rng(3)
    for x, hi in ((rng.integers(0, 29, 300), 28), (rng.random(80), 1),
                  (rng.integers(20, 60, 40), 400)):
        mean, lo, up, n, method = M.bounded_mean_ci(x, 0, hi)
        assert method == "t"
        assert (lo, up) == pytest.approx(DescrStatsW(x.astype(float)).tconfint_mean(),
                                         abs=1e-12)
        assert 0 <= lo and up <= hi


def test_bounded_mean_ci_without_an_upper_bound_is_the_t_interval():
    from statsmodels.stats.weightstats import DescrStatsW
    x = np.array([0, 0, 0, 1, 5])
    lo, hi = DescrStatsW(x.astype(float)).tconfint_mean()
    assert M.bounded_mean_ci(x, 0, math.inf)[1:3] == pytest.approx((lo, hi))
    assert lo < 0                                             # clipped nowhere
    assert M.bounded_mean_ci(np.full(4, 2), 0, math.inf)[1:3] == (2, 2)


def test_every_summary_interval_stays_in_range():
    """Scores all zero for seat 2 and no rescues: intervals inside [0, ...], with width."""
    df = frame(3, [[5, 3, 0], [4, 4, 0], [0, 0, 0], [2, 6, 0]])
    t = S.summary_table(df)
    r = t.iloc[2]
    assert r["score_lo"] == 0 and r["score_hi"] == pytest.approx(28 * wilson_ref(0, 4)[1])
    assert r["rescue_lo"] == 0 and r["rescue_hi"] == pytest.approx(wilson_ref(0, 4)[1])
    assert (t["rescue_lo"] >= 0).all() and (t["score_lo"] >= 0).all()
    run = t.attrs["run"]
    assert run["turns_lo"] == pytest.approx(30 - 0) and run["turns_lo"] == run["turns_hi"]
    capped = frame(3, THREE).assign(max_turns=30)              # every game ends at the cap
    run = S.run_summary(capped)
    assert run["turns_hi"] == 30 and run["turns_lo"] < 30


def test_score_range_follows_the_explorers():
    """B1.2, X1.1, X1.2, X2.3: a colour's values are 28 (10 explorers), 24 (8), 22 (7); under
    Challenge 3 each explorer scores 1."""
    assert G.explorer_value(np.array([10, 8, 7, 3])).tolist() == [28, 24, 22, 18]
    df = frame(3, [[28, 0, 0]] * 4, rescued=[[10, 0, 0]] * 4)
    assert S.summary_table(df).iloc[0]["score_hi"] == 28
    eq = frame(3, [[10, 0, 0]] * 4, rescued=[[10, 0, 0]] * 4).assign(challenges="3")
    assert S.summary_table(eq).iloc[0]["score_hi"] == 10


# ---------------------------------------------------------------------------- chunks
def test_totals_chunk_by_chunk_equal_the_whole_table():
    rng = np.random.default_rng(5)
    scores = rng.integers(0, 8, (97, 5)).tolist()
    rescued = rng.integers(0, 4, (97, 5)).tolist()
    df = frame(5, scores, rescued=rescued, turns=rng.integers(20, 60, 97).tolist(),
               end_reasons=list(rng.choice(["volcano", "turn_cap"], 97)))
    whole = S.summary_table(df)
    for cut in (9, 31, 50):
        t = S.Totals()
        for i in range(0, len(df), cut):
            t.add(df.iloc[i:i + cut])
        part = t.table()
        pd.testing.assert_frame_equal(part, whole)
        assert part.attrs["run"] == whole.attrs["run"]
        assert S.format_summary(part) == S.format_summary(whole)


def test_totals_refuse_mixed_chunks_and_empty_tables():
    t = S.Totals().add(frame(3, [[1, 0, 0]]))
    with pytest.raises(ValueError, match="differ in players"):
        t.add(frame(4, [[1, 0, 0, 0]]))
    with pytest.raises(ValueError, match="no games"):
        S.summary_table(frame(3, [[1, 0, 0]]).iloc[:0])


# ---------------------------------------------------------------------------- saved tables
def test_check_table_names_the_first_problem():
    from experiments.tables.results import check_table
    check_table(frame(3, THREE))
    check_table(frame(2, [[3, 1, 2, 5]], csv_like=True))
    with pytest.raises(ValueError, match="no games"):
        check_table(frame(3, THREE).iloc[:0])
    short = frame(3, THREE)
    short.loc[3, "rescued_2"] = None
    with pytest.raises(ValueError, match=r"row 4 \(game 3\) has no rescued_2"):
        check_table(short)
    with pytest.raises(ValueError, match="has players 9"):
        check_table(frame(3, THREE).assign(players=9))
    with pytest.raises(ValueError, match="missing column 'turns'"):
        check_table(frame(3, THREE).drop(columns="turns"))


def test_setting_groups_and_duplicates():
    from experiments.tables.results import check_duplicates, setting_groups, table_header
    a = frame(3, THREE)
    b = frame(3, THREE, strategies=["greedy", "random", "random"])
    df = pd.concat([a.iloc[:2], b, a.iloc[2:]], ignore_index=True)
    groups = setting_groups(df)
    assert [g.tolist() for g in groups] == [[0, 1, 6, 7], [2, 3, 4, 5]]
    check_duplicates(df, groups)
    assert table_header(df.iloc[groups[1]]) == (
        "3 players (3 seats), strategies greedy,random,random, boats 2,2,2, challenges none, "
        "seed 7, games 0..3")
    dup = pd.concat([a, a.iloc[1:3]], ignore_index=True)
    with pytest.raises(ValueError, match="2 duplicate game.*the first: game 1"):
        check_duplicates(dup, setting_groups(dup))
    assert len(setting_groups(dup.assign(seed=[7] * 4 + [8] * 2))) == 2    # another seed
