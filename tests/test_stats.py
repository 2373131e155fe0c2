"""experiments.tables.stats: exact Wilson / chi-square / Holm rows on hand-built tables, tie
splitting, the other-rule recount, paired differences between settings that share games, the
bounded-mean rule, games needed, and the text. A few hundred games per setting (about 2,000 in
all)."""
from __future__ import annotations

import math

import numpy as np
import pandas as pd
import pytest
from scipy.stats import chisquare, norm
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import confint_proportions_2indep, proportion_confint
from statsmodels.stats.weightstats import DescrStatsW

from experiments.tables import games as G
from experiments.tables import moments as M
from experiments.tables import stats as ST
from experiments.tables.games import decided_by, player_scores, winners
from experiments.tables.stats_text import format_stats
from play.settings import Settings
from play.simulate import simulate

GAMES = 300
FLAT5 = (2, 2, 2, 2, 2)


def labelled(df, setting, allocation):
    df = df.copy()
    df["setting"] = setting
    df["allocation"] = allocation
    return df


@pytest.fixture(scope="module")
def frames():
    """Settings of a small sweep, all seed 1 unless said: p5 flat chain / flat shared
    (tie-break twins) / rules chain / rules chain with Challenge 3, p4 random, and p5 flat chain
    with seed 2."""
    g = ("greedy",)
    out = {
        "p5-flat-tb_chain": labelled(simulate(Settings(players=5, strategies=g, boats=FLAT5),
                                              GAMES, 1), "p5-flat-tb_chain", "flat"),
        "p5-flat-tb_shared": labelled(simulate(Settings(players=5, strategies=g, boats=FLAT5,
                                                        tiebreak="shared"), GAMES, 1),
                                      "p5-flat-tb_shared", "flat"),
        "p5-rules-tb_chain": labelled(simulate(Settings(players=5, strategies=g), GAMES, 1),
                                      "p5-rules-tb_chain", "rules"),
        "p5-rules-ch3-tb_chain": labelled(simulate(Settings(players=5, strategies=g,
                                                            challenges=(3,)), GAMES, 1),
                                          "p5-rules-ch3-tb_chain", "rules"),
        "p4-rules-random": labelled(simulate(Settings(players=4), GAMES, 1), "p4-rules-random",
                                    "rules"),
        "p5-flat-tb_chain-seed2": labelled(simulate(Settings(players=5, strategies=g,
                                                             boats=FLAT5), GAMES, 2),
                                           "p5-flat-tb_chain-seed2", "flat"),
    }
    return out


@pytest.fixture(scope="module")
def run(frames):
    return pd.concat(list(frames.values()), ignore_index=True)


@pytest.fixture(scope="module")
def tidy(run):
    return ST.balance_stats(run)


def handmade(base, scores, rescued, turns=None, label="hand"):
    """``base``'s first len(scores) rows with the seats' scores, rescues and turns replaced
    (5 players: 8 explorers per seat, the ones not rescued lost)."""
    n = len(scores)
    df = base.iloc[:n].copy().reset_index(drop=True)
    scores, rescued = np.asarray(scores), np.asarray(rescued)
    turns = np.full(scores.shape, 8) if turns is None else np.asarray(turns)
    for s in range(scores.shape[1]):
        df[f"score_{s}"] = pd.array(scores[:, s], dtype="Int32")
        df[f"rescued_value_{s}"] = pd.array(scores[:, s], dtype="Int32")
        df[f"rescued_{s}"] = pd.array(rescued[:, s], dtype="Int32")
        df[f"lost_{s}"] = pd.array(8 - rescued[:, s], dtype="Int32")
        df[f"turns_{s}"] = pd.array(turns[:, s], dtype="Int32")
    df["setting"] = label
    return df


def row(t, setting, metric, seat=None):
    sel = (t["setting"] == setting) & (t["metric"] == metric)
    sel &= t["seat"].isna() if seat is None else (t["seat"] == seat)
    hit = t[sel.fillna(False)]
    assert len(hit) == 1, (setting, metric, seat, len(hit))
    return hit.iloc[0]


def close(r, value, low, high):
    assert r["value"] == pytest.approx(value, abs=1e-12)
    assert r["low"] == pytest.approx(low, abs=1e-12)
    assert r["high"] == pytest.approx(high, abs=1e-12)


def wilson(k, n):
    return proportion_confint(k, n, alpha=0.05, method="wilson")


@pytest.fixture(scope="module")
def hundred(frames):
    """100 games, 5 players: seat 0 wins games 0-29 outright, seat 1 games 30-89; games 90-99
    tie seats 0 and 1 at the top; in 95-99 seat 0 rescued more (the chain gives it the game),
    in 90-94 everything is equal (the tie stands under both rules)."""
    scores = np.zeros((100, 5), int)
    rescued = np.zeros((100, 5), int)
    scores[:30, 0], rescued[:30, 0] = 10, 3
    scores[30:90, 1], rescued[30:90, 1] = 10, 3
    scores[90:, :2], rescued[90:, :2] = 10, 2
    rescued[95:, 0] = 3
    return handmade(frames["p5-flat-tb_chain"], scores, rescued)


# ---------------------------------------------------------------------------- exact rows
def test_wilson_rows_on_a_hand_built_table(hundred):
    t = ST.seat_stats(hundred)
    assert list(t.columns) == list(ST.COLUMNS)
    close(row(t, "hand", "outright_shared", 0), 0.30, *wilson(30, 100))
    close(row(t, "hand", "outright_shared", 1), 0.60, *wilson(60, 100))
    close(row(t, "hand", "outright_chain", 0), 0.35, *wilson(35, 100))
    close(row(t, "hand", "outright", 0), 0.35, *wilson(35, 100))          # own rule = chain
    close(row(t, "hand", "win_share_shared", 0), 0.35, *wilson(35, 100))  # 30 + 10 halves
    close(row(t, "hand", "win_share_chain", 0), 0.375, *wilson(37.5, 100))
    close(row(t, "hand", "win_share_chain", 1), 0.625, *wilson(62.5, 100))
    close(row(t, "hand", "win_share", 1), 0.625, *wilson(62.5, 100))
    close(row(t, "hand", "win_share_shared", 3), 0.0, *wilson(0, 100))
    close(row(t, "hand", "top_tie", 0), 0.10, *wilson(10, 100))
    close(row(t, "hand", "top_tie", 2), 0.0, *wilson(0, 100))
    close(row(t, "hand", "tie_rate"), 0.10, *wilson(10, 100))
    close(row(t, "hand", "decided_rescued_chain"), 0.05, *wilson(5, 100))
    close(row(t, "hand", "decided_shared_chain"), 0.05, *wilson(5, 100))
    close(row(t, "hand", "decided_score_chain"), 0.90, *wilson(90, 100))
    close(row(t, "hand", "decided_shared_shared"), 0.10, *wilson(10, 100))
    assert row(t, "hand", "own_tiebreak")["method"] == "chain"
    assert row(t, "hand", "games")["value"] == 100
    assert (t.loc[t["method"] == "wilson", "n"] == 100).all()
    assert t.loc[t["seat"].isna(), "metric"].str.startswith(("win", "outright")).sum() == 0
    assert set(t["seat"].dropna()) == {0, 1, 2, 3, 4}
    # rescued fraction: 8 explorers each, seat 0 rescued 3 in 30 + 5 games and 2 in 5
    frac = row(t, "hand", "rescued_fraction", 0)
    x = np.r_[np.full(35, 3 / 8), np.full(5, 2 / 8), np.zeros(60)]
    assert frac["method"] == "t"
    close(frac, x.mean(), *DescrStatsW(x).tconfint_mean(0.05))


def test_three_way_tie_splits_thirds(frames):
    scores = [[5, 5, 5, 0, 0], [6, 0, 0, 0, 0], [0, 0, 0, 4, 0]]
    rescued = [[2, 2, 2, 0, 0], [2, 0, 0, 0, 0], [0, 0, 0, 1, 0]]
    df = handmade(frames["p5-flat-tb_chain"], scores, rescued)
    d = ST.prepare_all(df)[0]
    for rule in ("shared", "chain"):
        assert d.share(rule)[0].tolist() == pytest.approx([1 / 3, 1 / 3, 1 / 3, 0, 0])
    t = ST.seat_stats(df)
    close(row(t, "hand", "win_share_chain", 0), (1 / 3 + 1) / 3, *wilson(4 / 3, 3))
    close(row(t, "hand", "win_share_shared", 2), 1 / 9, *wilson(1 / 3, 3))
    assert row(t, "hand", "top_tie", 1)["value"] == pytest.approx(1 / 3)
    assert row(t, "hand", "outright_chain", 1)["value"] == 0


def test_chi2_and_holm(hundred, frames):
    t = ST.seat_stats(hundred)
    ref = chisquare([37.5, 62.5, 0, 0, 0], [20] * 5)           # own rule: chain
    assert row(t, "hand", "chi2_stat")["value"] == pytest.approx(ref.statistic)
    assert row(t, "hand", "chi2_p")["value"] == pytest.approx(ref.pvalue)
    # three settings: Holm over their three chi-square p-values
    run = pd.concat([hundred, frames["p5-flat-tb_chain"], frames["p4-rules-random"]],
                    ignore_index=True)
    t = ST.seat_stats(run)
    labels = ["hand", "p5-flat-tb_chain", "p4-rules-random"]
    p = [row(t, s, "chi2_p")["value"] for s in labels]
    adjusted = multipletests(p, alpha=0.05, method="holm")[1]
    for s, q in zip(labels, adjusted):
        r = row(t, s, "chi2_p_holm")
        assert r["value"] == pytest.approx(q) and r["method"] == "holm"
    g = frames["p4-rules-random"]
    split = winners(g, "shared").to_numpy(float)
    split = (split / split.sum(axis=1, keepdims=True)).sum(axis=0)
    assert row(t, "p4-rules-random", "chi2_p")["value"] == pytest.approx(
        chisquare(split, [GAMES / 4] * 4).pvalue)


# ---------------------------------------------------------------------------- recounts
@pytest.mark.slow
@pytest.mark.parametrize("name", ["p5-flat-tb_chain", "p5-flat-tb_shared",
                                  "p5-rules-ch3-tb_chain", "p4-rules-random"])
def test_both_rules_match_games_winners(frames, tidy, name):
    df = frames[name]
    d = G.prepare(name, df)
    own = str(df["tiebreak"].iloc[0])
    assert d.own == own
    for rule in ("shared", "chain"):
        w = winners(df, rule).to_numpy()
        assert np.array_equal(d.win[rule], w)
        share = (w / w.sum(axis=1, keepdims=True)).mean(axis=0)
        outright = (w & (w.sum(axis=1) == 1)[:, None]).mean(axis=0)
        steps = decided_by(df, rule).value_counts()
        for p in range(d.players):
            assert row(tidy, name, f"win_share_{rule}", p)["value"] == pytest.approx(share[p])
            assert row(tidy, name, f"outright_{rule}", p)["value"] == pytest.approx(outright[p])
        for step, count in steps.items():
            if count:
                assert row(tidy, name, f"decided_{step}_{rule}")["value"] == count / GAMES
    own_steps = df["decided_by"].astype(str).value_counts()
    for step, count in own_steps.items():
        assert row(tidy, name, f"decided_{step}_{own}")["value"] == count / GAMES
    for p in range(d.players):
        assert row(tidy, name, "win_share", p)["value"] == \
            row(tidy, name, f"win_share_{own}", p)["value"]


def test_score_bounds_follow_the_rules(frames):
    assert G.explorers_per_colour(4, set()) == (10, 28)
    assert G.explorers_per_colour(5, set()) == (8, 24)
    assert G.explorers_per_colour(6, set()) == (7, 22)
    assert G.explorers_per_colour(6, {6}) == (10, 28)
    assert G.score_bound(2, set()) == 56 and G.score_bound(2, {3}) == 20
    assert G.score_bound(5, {3}) == 8 and G.score_bound(5, {3, 6}) == 10
    for name, df in frames.items():                 # the engine's explorers in play agree
        d = G.prepare(name, df)
        count, _ = G.explorers_per_colour(d.players, d.challenges)
        assert (d.explorers == count).all()
        assert d.score.max() <= G.score_bound(d.players, d.challenges)


def test_two_players_are_labelled_by_player(frames):
    df = labelled(simulate(Settings(players=2, strategies=("greedy",)), 100, 1), "p2", "rules")
    t = ST.seat_stats(df)
    assert set(t["seat"].dropna()) == {0, 1}
    ps = player_scores(df)
    assert row(t, "p2", "mean_score", 1)["value"] == pytest.approx(ps["score_1"].mean())
    assert row(t, "p2", "win_share", 0)["value"] + row(t, "p2", "win_share", 1)["value"] == \
        pytest.approx(1.0)


def test_a_setting_must_be_one_setting(frames):
    other = frames["p5-flat-tb_chain-seed2"].assign(game=lambda d: d["game"] + GAMES)
    bad = pd.concat([frames["p5-flat-tb_chain"], other]).assign(setting="mixed")
    with pytest.raises(ValueError, match="mixes values of 'seed'"):
        ST.balance_stats(bad)
    with pytest.raises(ValueError, match="game indices more than once"):
        ST.balance_stats(pd.concat([frames["p5-flat-tb_chain"]] * 2))


# ---------------------------------------------------------------------------- pairs
def test_tiebreak_twins_pair_on_win_share_only(tidy, frames):
    pair = "p5-flat-tb_chain vs p5-flat-tb_shared"
    rows = tidy[tidy["setting"] == pair]
    assert row(tidy, pair, "paired_games")["method"] == "tiebreak"
    assert not rows["metric"].str.startswith("diff_score").any()
    a, b = frames["p5-flat-tb_chain"], frames["p5-flat-tb_shared"]
    wa, wb = winners(a, "chain").to_numpy(float), winners(b, "shared").to_numpy(float)
    diff = wa / wa.sum(axis=1, keepdims=True) - wb / wb.sum(axis=1, keepdims=True)
    for p in range(5):
        r = row(tidy, pair, "diff_win_share", p)
        assert r["value"] == pytest.approx(diff[:, p].mean(), abs=1e-15)
        assert r["n"] == GAMES
        if np.ptp(diff[:, p]) > 0:
            assert r["method"] == "paired-t"
            close(r, diff[:, p].mean(), *DescrStatsW(diff[:, p]).tconfint_mean(0.05))


def test_tiebreak_twins_must_share_their_games(frames):
    a = frames["p5-flat-tb_chain"]
    b = frames["p5-flat-tb_shared"].copy()
    b["score_0"] = b["score_0"] + 1
    with pytest.raises(ValueError, match="differ only in the tie-break"):
        ST.paired_stats(pd.concat([a, b], ignore_index=True))


def test_boats_pair_is_matched_on_game(frames):
    a = frames["p5-flat-tb_chain"]
    b = frames["p5-rules-tb_chain"].iloc[50:].sample(frac=1.0, random_state=3)  # games 50-299
    t = ST.paired_stats(pd.concat([a, b], ignore_index=True))
    pair = "p5-flat-tb_chain vs p5-rules-tb_chain"
    assert row(t, pair, "paired_games")["method"] == "boats"
    sa = a.set_index("game").loc[range(50, GAMES)]
    sb = b.set_index("game").loc[range(50, GAMES)]
    for p in range(5):
        d = (sa[f"score_{p}"].astype(float) - sb[f"score_{p}"].astype(float)).to_numpy()
        r = row(t, pair, "diff_score", p)
        assert r["n"] == GAMES - 50 and r["method"] == "paired-t"
        close(r, d.mean(), *DescrStatsW(d).tconfint_mean(0.05))
        assert row(t, pair, "diff_score_p", p)["value"] == pytest.approx(
            DescrStatsW(d).ttest_mean(0)[1])
        wa = winners(sa, "chain").to_numpy(float)
        wb = winners(sb, "chain").to_numpy(float)
        share = (wa / wa.sum(axis=1, keepdims=True) - wb / wb.sum(axis=1, keepdims=True))[:, p]
        assert row(t, pair, "diff_win_share", p)["value"] == pytest.approx(share.mean())


def test_only_one_factor_pairs_of_one_player_count_and_seed(tidy):
    pairs = set(tidy.loc[tidy["metric"] == "paired_games", "setting"])
    assert pairs == {"p5-flat-tb_chain vs p5-flat-tb_shared",          # tie-break
                     "p5-flat-tb_chain vs p5-rules-tb_chain",          # boats
                     "p5-rules-tb_chain vs p5-rules-ch3-tb_chain"}     # challenges
    for label in ("p4-rules-random", "p5-flat-tb_chain-seed2"):
        assert not any(label in p.split(ST.PAIR_SEP) for p in pairs)


@pytest.mark.slow
def test_paired_holm_families_are_per_factor_and_metric(tidy):
    """Review item 5: Holm over every paired p of a run mixes unrelated questions. A family is
    the pairs that differ in one factor, for one metric (e.g. every boats pair's win shares)."""
    p = tidy[tidy["metric"].isin(["diff_win_share_p", "diff_score_p"])].reset_index(drop=True)
    q = tidy[tidy["metric"].isin(["diff_win_share_p_holm", "diff_score_p_holm"])]
    q = q.reset_index(drop=True)
    assert len(p) == len(q) == 5 + 2 * 5 + 2 * 5
    factor = {r.setting: r.method for r in tidy[tidy["metric"] == "paired_games"].itertuples()}
    fam = [(factor[s], m) for s, m in zip(p["setting"], p["metric"])]
    assert len(set(fam)) == 5                    # tie-break: win share; boats, challenges: both
    for key in set(fam):
        at = [i for i, f in enumerate(fam) if f == key]
        assert q["value"].to_numpy()[at] == pytest.approx(
            multipletests(p["value"].to_numpy()[at], method="holm")[1])
    assert (q["method"] == "holm").all()


def test_pairs_that_play_identical_games_have_no_test(frames):
    """Named allocations that give the same boats (4 players: 2,2,2,2 for all three) play the
    same games: their differences are exactly 0, with no p, outside every Holm family (the
    review counted 352 such p-values in the five-six study's family)."""
    a = frames["p4-rules-random"]
    b = labelled(a, "p4-flat-random", "flat")
    t = ST.paired_stats(pd.concat([a, b], ignore_index=True))
    pg = t[t["metric"] == "paired_games"].iloc[0]
    assert pg.method == "boats (identical games)"
    d = t[t["metric"].str.startswith("diff_")]
    assert (d["method"] == "identical").all()
    assert d[d["metric"].str.endswith("_p")]["value"].isna().all()
    assert (d[d["metric"].isin(["diff_win_share", "diff_score"])]["value"] == 0).all()
    both = pd.concat([a, b], ignore_index=True)
    assert "identical games" in format_stats(ST.balance_stats(both))


def test_paired_diff_falls_back_to_newcombe_without_variation():
    r = ST.paired_diff(np.full(50, 2.0), np.full(50, 1.0), hi=4)
    lo, hi = confint_proportions_2indep(25, 50, 12.5, 50, method="newcomb", compare="diff")
    assert r["method"] == "newcomb" and r["value"] == 1.0
    assert (r["low"], r["high"]) == pytest.approx((4 * lo, 4 * hi))
    assert 0 < r["p"] < 0.05
    r = ST.paired_diff(np.zeros(40), np.zeros(40), hi=1)
    assert r["method"] == "newcomb" and r["p"] == 1.0 and r["low"] < 0 < r["high"]


# ---------------------------------------------------------------------------- intervals
def test_bounded_mean_ci_t_branch():
    x = np.random.default_rng(5).integers(0, 25, 200)
    mean, lo, hi, n, method = M.bounded_mean_ci(x, 0, 24)
    assert method == "t" and n == 200
    assert (mean, lo, hi) == pytest.approx((x.mean(), *DescrStatsW(x.astype(float))
                                            .tconfint_mean(0.05)))


def test_bounded_mean_ci_all_zero_keeps_width():
    mean, lo, hi, _, method = M.bounded_mean_ci(np.zeros(100), 0, 24)
    assert method == "wilson-scaled" and mean == 0 and lo == 0
    assert hi == pytest.approx(24 * proportion_confint(0, 100, method="wilson")[1]) and hi > 0


def test_bounded_mean_ci_near_a_bound():
    x = np.r_[np.zeros(97), np.ones(3)]
    t_lo, _ = DescrStatsW(x).tconfint_mean(0.05)
    assert t_lo < 0                                   # the t interval would cross 0
    _, lo, hi, _, method = M.bounded_mean_ci(x, 0, 1)
    assert method == "wilson-scaled"
    assert (lo, hi) == pytest.approx(proportion_confint(3, 100, method="wilson"))
    # turns near a cap of 10: scaled to [0, 1] on [2, 10]
    y = np.r_[np.full(98, 10.0), [9.0, 9.0]]
    _, lo, hi, _, method = M.bounded_mean_ci(y, 2, 10)
    w = proportion_confint(((y - 2) / 8).sum(), 100, method="wilson")
    assert method == "wilson-scaled" and (lo, hi) == pytest.approx((2 + 8 * w[0], 2 + 8 * w[1]))
    assert M.bounded_mean_ci([], 0, 1)[3] == 0
    with pytest.raises(ValueError):
        M.bounded_mean_ci([2.0], 0, 1)


def test_games_for_precision_and_share_precision(tidy):
    z = norm.ppf(0.975)
    for p, h in [(0.2, 0.01), (0.5, 0.01), (1 / 6, 0.005), (0.03, 0.02)]:
        assert ST.games_for_precision(p, h) == math.ceil(z * z * p * (1 - p) / h ** 2)
    assert ST.share_precision(10_000, 5) == pytest.approx(z * math.sqrt(0.2 * 0.8 / 10_000))
    assert ST.share_precision(np.array([100, 400]), 4) == pytest.approx(
        [z * math.sqrt(3 / 16 / 100), z * math.sqrt(3 / 16 / 400)])
    for games, players in [(1000, 2), (12_345, 5), (50_000, 6)]:
        assert ST.games_for_precision(1 / players, ST.share_precision(games, players)) == games
    share = row(tidy, "p5-rules-tb_chain", "win_share", 2)["value"]
    r = row(tidy, "p5-rules-tb_chain", "games_for_precision", 2)
    assert r["value"] == ST.games_for_precision(share, 0.01) and r["n"] == GAMES


# ---------------------------------------------------------------------------- text
def test_format_stats(tidy, frames):
    text = format_stats(tidy)
    for label in frames:
        assert f"{label}  (n={GAMES} games" in text
    assert "p5-flat-tb_chain vs p5-rules-tb_chain  [boats differs; n=300 matched games]" in text
    assert "identical games (tie-break only)" in text
    assert "Holm p" in text and "games for win shares ±1.00 pp" in text
    lines = text.splitlines()
    block = lines.index(next(x for x in lines if x.startswith("p5-rules-tb_chain  (")))
    header, seats = lines[block + 1], lines[block + 2:block + 7]
    assert [s.split()[0] for s in seats] == ["0", "1", "2", "3", "4"]
    col = header.index("mean score")
    assert all(s[col - 2:col] == "  " and s[col] != " " for s in seats)   # aligned


@pytest.mark.engine_free
def test_holm_is_statsmodels_holm_to_the_bit(monkeypatch):
    """Our Holm (written out because statsmodels' runs gc.collect() per call) gives
    multipletests' adjusted p-values and rejections exactly, ties, NaNs and edges included.
    statsmodels' collection is switched off here: it changes no number and costs about a
    second a call in the suite's process."""
    import gc
    monkeypatch.setattr(gc, "collect", lambda *a: 0)
    rng = np.random.default_rng(7)
    cases = [rng.uniform(size=k) for k in (1, 2, 5, 13, 40)]
    cases += [rng.uniform(size=20) ** 6, np.array([0.01, 0.01, 0.02, 0.5, 0.5]),
              np.array([0.05 / 3, 0.025, 0.05]), np.array([1.0, 0.0, 0.3])]
    for p in cases:
        for alpha in (0.05, 0.025, 0.1):
            reject, adjusted = multipletests(p, alpha=alpha, method="holm")[:2]
            np.testing.assert_array_equal(ST.holm_reject(p, alpha), reject)
            np.testing.assert_array_equal(ST.holm(p, alpha), adjusted)
    with_nan = np.array([0.2, np.nan, 0.01])
    np.testing.assert_array_equal(ST.holm(with_nan),
                                  [multipletests([0.2, 0.01], method="holm")[1][0], np.nan,
                                   multipletests([0.2, 0.01], method="holm")[1][1]])
