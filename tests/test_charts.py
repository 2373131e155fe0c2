"""Charts (reports/charts/): every chart runs on a small real run table, saves a valid PNG and
SVG, names seats for people, states n and the interval, and returns a table of exactly the
numbers drawn, which is checked here against the tidy statistics or a recount of the games.

The run is a small sweep played once for the module (random self-play, 300 games a setting):
4 and 6 players x two allocations x base / Challenge 3 x both tie-breaks, Challenges 2, 4, 5
and 6 and the Giant Squid at 6 players, and 2 players under both tie-breaks.
"""
from __future__ import annotations

import itertools
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from statsmodels.stats.proportion import proportion_confint
from support.run_table import load_run

from experiments.store import runs
from experiments.sweeps import spec, sweep
from experiments.tables import stats
from experiments.tables.games import player_scores, winners
from reports import charts

ROOT = Path(__file__).resolve().parents[1]
GAMES = 300
P6 = "p6-boats_rules-base-tb_chain-random"
P6_SHARED = "p6-boats_rules-base-tb_shared-random"
P2 = "p2-boats_rules-base-tb_shared-random"
CAUSES = ("serpent", "shark", "whale", "whirlpool", "squid", "stranded")
GRIDS = [
    {"players": [4, 6], "boats": ["rules", "flat"], "challenges": [[], [3]],
     "tiebreak": ["chain", "shared"], "strategies": ["random"]},
    {"players": [6], "challenges": [[2], [4], [5], [6]], "strategies": ["random"]},
    {"players": [6], "squid": [True], "squid_only": [False, True], "strategies": ["random"]},
    {"players": [2], "tiebreak": ["shared", "chain"], "strategies": ["random"]},
]
CHALLENGE_SET = [P6] + [f"p6-boats_rules-ch{c}-tb_chain-random" for c in (2, 4, 5, 6)] + \
    ["p6-boats_rules-base-tb_chain-random-squid", "p6-boats_rules-base-tb_chain-random-squidonly"]


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("charts") / "run"
    sweep.run_sweep(spec.build({"name": "charts", "seed": 5, "games": GAMES, "chunk": GAMES,
                                "grid": GRIDS}), out)
    df, _ = load_run(out)
    return df, stats.balance_stats(df)


def games_of(df, label):
    return df[df["setting"].astype(str) == label]


def assert_same_rows(table, tidy, keys=("setting", "seat", "metric")):
    """Every row of ``table`` is the tidy row with the same keys, value and interval alike."""
    t, mine = tidy.copy(), table.copy()
    if "seat" in keys:
        t["seat"] = t["seat"].astype("float")
        mine["seat"] = mine["seat"].astype("float")
    else:
        t = t[t["seat"].isna()]
    merged = mine.merge(t, on=list(keys), suffixes=("", "_tidy"), how="left")
    assert len(merged) == len(table)
    for col in ("value", "low", "high"):
        np.testing.assert_allclose(merged[col].astype(float), merged[f"{col}_tidy"].astype(float),
                                   rtol=0, atol=1e-12, err_msg=col)
    assert (merged["n"].astype(int) == merged["n_tidy"].astype(int)).all()
    assert (merged["method"] == merged["method_tidy"]).all()


def check_saved(fig, stem: Path):
    png, svg = charts.save(fig, stem)
    assert png == stem.with_suffix(".png") and svg == stem.with_suffix(".svg")
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    with Image.open(png) as im:
        im.verify()
    with Image.open(png) as im:
        w, h = im.size
        assert w >= 800 and h >= 400
    root = ET.parse(svg).getroot()
    assert root.tag.split("}")[-1] == "svg"
    return png, svg


def check_text(fig, interval: bool = True):
    text = charts.title_of(fig) + " " + charts.caption_of(fig)
    assert "n = " in text
    if interval:
        assert "95%" in text and "interval" in text


def tick_texts(ax, axis="x"):
    labels = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    return [t.get_text().replace("\n", " ") for t in labels]


def no_overlaps(fig, ax, axis="x"):
    """The tick labels of ``ax`` do not overlap once drawn."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    canvas = FigureCanvasAgg(fig)
    canvas.draw()
    r = canvas.get_renderer()
    labels = ax.get_xticklabels() if axis == "x" else ax.get_yticklabels()
    boxes = [t.get_window_extent(r) for t in labels if t.get_text()]
    for a, b in itertools.pairwise(boxes):
        assert not a.overlaps(b), (a, b)


# ------------------------------------------------------------------------------ settings
@pytest.mark.slow
def test_settings_are_described_for_people(run):
    df, _ = run
    meta = charts.settings_table(df)
    assert charts.describe_setting(meta, P6) == \
        "6 players, rules boats (1,1,1,1,2,2), base game, chain tie-break, random"
    assert charts.describe_setting(df, "p4-boats_flat-ch3-tb_shared-random") == \
        "4 players, flat boats (2,2,2,2), Challenge 3 Everyone is Equal, shared tie-break, random"
    names = charts.setting_names(meta, CHALLENGE_SET)
    assert list(names.values()) == ["base", "Challenge 2 Leave No One Behind",
                                    "Challenge 4 Atlantis is Gone", "Dolphins & Dive Dice",
                                    "Challenge 6 Overpopulated", "Giant Squid", "squid only"]
    assert len(charts.setting_titles(df)) == df["setting"].nunique()
    assert charts.select(meta, players=6, challenges="3", tiebreak="chain") == \
        ["p6-boats_rules-ch3-tb_chain-random", "p6-boats_flat-ch3-tb_chain-random"]
    assert charts.select(meta, players=4, challenges=["none", 3], allocation="rules",
                         tiebreak="shared") == ["p4-boats_rules-base-tb_shared-random",
                                                "p4-boats_rules-ch3-tb_shared-random"]
    with pytest.raises(ValueError, match="no setting matches"):
        charts.select(meta, players=5)


def test_seats_are_named_one_based_first_and_last():
    assert charts.seat_labels(6) == ["seat 1 (first)", "seat 2", "seat 3", "seat 4", "seat 5",
                                     "seat 6 (last)"]
    assert charts.seat_labels(2) == ["player 1 (seats 1 & 3)", "player 2 (seats 2 & 4)"]


# ------------------------------------------------------------------------------ seats
def test_seat_win_share_draws_the_tidy_rows_against_the_fair_share(run, tmp_path):
    df, tidy = run
    fig, table = charts.seat_win_share(df, tidy, players=[4, 6], challenges="none", squid=False,
                                       tiebreak="chain")
    assert set(table["players"]) == {4, 6} and set(table["group"]) == {"rules", "flat"}
    assert len(table) == 2 * 4 + 2 * 6
    assert_same_rows(table, tidy)
    assert (table["metric"] == "win_share").all()
    np.testing.assert_allclose(table["fair_share"], 1 / table["players"])
    six = fig.axes[1]
    assert tick_texts(six) == charts.seat_labels(6)
    no_overlaps(fig, six)
    fair = [ln for ln in six.get_lines() if ln.get_linestyle() == "--"]
    assert fair and np.allclose(fair[0].get_ydata(), 1 / 6)
    check_text(fig)
    assert "Wilson" in charts.caption_of(fig) and f"n = {GAMES:,} games" in charts.caption_of(fig)
    check_saved(fig, tmp_path / "win")
    # another rule, grouped by the tie-break instead
    _, chain = charts.seat_win_share(df, tidy, settings=[P6, P6_SHARED], group_by="tiebreak",
                                     rule="chain")
    assert (chain["metric"] == "win_share_chain").all()
    assert_same_rows(chain, tidy)


def test_a_selection_with_two_settings_per_point_is_refused(run):
    df, tidy = run
    with pytest.raises(ValueError, match="several settings"):
        charts.seat_win_share(df, tidy, players=6, challenges="none")


def test_seat_score_and_rescued_fraction_are_the_tidy_rows(run, tmp_path):
    df, tidy = run
    fig, table = charts.seat_score_rescued(df, tidy, challenges="3", tiebreak="shared")
    assert set(table["metric"]) == {"mean_score", "rescued_fraction"}
    assert len(table) == 2 * (2 * 4 + 2 * 6)
    assert_same_rows(table, tidy)
    for ax in fig.axes[:2] + fig.axes[2:4]:
        assert ax.get_ylabel() or ax in (fig.axes[1], fig.axes[3])
    assert tick_texts(fig.axes[-1]) == charts.seat_labels(6)
    check_text(fig)
    check_saved(fig, tmp_path / "score")


# ------------------------------------------------------------------------------ ties
def test_tie_decisions_are_the_tidy_rows_and_add_up(run, tmp_path):
    df, tidy = run
    fig, table = charts.tie_decisions(df, tidy, allocation="rules",
                                      strategies_text="random")
    assert set(table["players"]) == {2, 4, 6}
    assert_same_rows(table, tidy, keys=("setting", "metric"))
    assert set(table.loc[table["variant"] == "base", "series"]) == \
        {"top score tied (tie rate)", "rescued", "turns", "shared"}
    assert "value" in set(table.loc[table["variant"] != "base", "series"])
    for _, g in table.groupby("setting"):
        tie = g.loc[g["metric"] == "tie_rate", "value"].item()
        steps = g.loc[g["metric"] != "tie_rate", "value"].sum()
        assert steps == pytest.approx(tie)
    # tie rate recounted from the games
    g = games_of(df, P6)
    assert table.loc[(table["setting"].isin([P6, P6_SHARED]))
                     & (table["metric"] == "tie_rate"), "value"].item() == \
        pytest.approx((winners(g, "shared").sum(axis=1) > 1).mean())
    check_text(fig)
    check_saved(fig, tmp_path / "ties")


@pytest.mark.parametrize("shared, chain", [(P6_SHARED, P6),
                                           (P2, "p2-boats_rules-base-tb_chain-random")])
def test_the_transition_table_is_a_recount_of_the_winners(run, tmp_path, shared, chain):
    df, _ = run
    fig, table = charts.tiebreak_transitions(df, chain, shared)      # either order
    a, b = games_of(df, shared), games_of(df, chain)
    assert (a["game"].to_numpy() == b["game"].to_numpy()).all()
    ws = winners(a, "shared").to_numpy()
    wc = winners(b, "chain").to_numpy()
    players = ws.shape[1]
    expected = {}
    for g in range(len(a)):
        if ws[g].sum() < 2:
            continue
        out = "still shared" if wc[g].sum() > 1 else charts.seat_label(wc[g].argmax(), players)
        for p in np.flatnonzero(ws[g]):
            key = (charts.seat_label(p, players), out)
            expected[key] = expected.get(key, 0) + 1
    got = {(r.tied_seat_label, r.outcome_label): r.count for r in table.itertuples()}
    assert {k: v for k, v in got.items() if v} == expected
    assert len(table) == players * (players + 1)
    assert table["tied_games"].iloc[0] == int((ws.sum(axis=1) > 1).sum())
    # the heatmap's annotations are the counts
    ax = fig.axes[0]
    cells = [t.get_text() for t in ax.texts]
    assert sorted(int(c.replace(",", "")) for c in cells) == sorted(table["count"])
    assert f"n = {GAMES:,}" in charts.caption_of(fig)
    if players == 6:
        assert [t.split(":")[0] for t in tick_texts(ax, "y")] == charts.seat_labels(6)
        assert tick_texts(ax) == charts.seat_labels(6) + ["still shared"]
        no_overlaps(fig, ax)
    check_saved(fig, tmp_path / f"trans{players}")


def test_transitions_need_two_settings_that_differ_only_in_the_tiebreak(run):
    df, _ = run
    _, table = charts.tiebreak_transitions(df, P6_SHARED)             # the twin is found
    assert table["setting_chain"].iloc[0] == P6
    with pytest.raises(ValueError, match="only in the tie-break"):
        charts.tiebreak_transitions(df, P6_SHARED, "p6-boats_flat-base-tb_chain-random")


# ------------------------------------------------------------------------------ the game
def test_game_length_box_numbers_are_the_games(run, tmp_path):
    df, _ = run
    fig, table = charts.game_length(df, settings=CHALLENGE_SET)
    for lab in CHALLENGE_SET:
        x = games_of(df, lab)["turns"].to_numpy()
        t = table[table["setting"] == lab].set_index("stat")
        q1, med, q3 = np.percentile(x, [25, 50, 75])
        assert (t.loc["q1", "value"], t.loc["median", "value"], t.loc["q3", "value"]) == \
            pytest.approx((q1, med, q3))
        assert t.loc["mean", "value"] == pytest.approx(x.mean())
        assert t.loc["mean", "low"] <= x.mean() <= t.loc["mean", "high"]
        lo, hi = t.loc["whisker_low", "value"], t.loc["whisker_high", "value"]
        outliers = table[(table["setting"] == lab) & (table["stat"] == "outlier")]
        assert outliers["count"].sum() == ((x < lo) | (x > hi)).sum()
    assert tick_texts(fig.axes[0], "y")[0] == "base"
    check_text(fig)
    check_saved(fig, tmp_path / "length")


def test_rescued_per_game_is_the_mean_of_the_games(run, tmp_path):
    df, _ = run
    fig, table = charts.rescued_per_game(df, settings=CHALLENGE_SET)
    for r in table.itertuples():
        g = games_of(df, r.setting)
        seats = int(g["seats"].iloc[0])
        total = g[[f"rescued_{s}" for s in range(seats)]].astype(int).sum(axis=1)
        assert r.value == pytest.approx(total.mean())
        assert r.low <= r.value <= r.high and r.n == GAMES
    assert table.set_index("setting").loc["p6-boats_rules-ch6-tb_chain-random", "in_play"] == 60
    check_text(fig)
    check_saved(fig, tmp_path / "rescued")


@pytest.mark.slow
def test_losses_by_cause_are_the_mean_per_game_summed_over_seats(run, tmp_path):
    df, _ = run
    fig, table = charts.losses_by_cause(df, settings=CHALLENGE_SET)
    sub = df[df["setting"].astype(str).isin(CHALLENGE_SET)]
    for cause in set(table["part"]):
        cols = [f"lost_{cause}_{s}" for s in range(6)]
        expected = sub[cols].astype(float).sum(axis=1).groupby(
            sub["setting"].astype(str)).mean()
        got = table[table["part"] == cause].set_index("setting")["value"]
        np.testing.assert_allclose(got.loc[CHALLENGE_SET], expected.loc[CHALLENGE_SET])
    assert "squid" in set(table["part"])               # squid settings are in the selection
    base = table[(table["setting"] == P6) & (table["part"] == "squid")].iloc[0]
    assert base["value"] == 0 and base["high"] > 0     # an interval keeps its width
    # the stack: each segment starts where the one before ended
    for _, g in table.groupby("setting"):
        np.testing.assert_allclose(g["left"].to_numpy()[1:],
                                   np.cumsum(g["value"].to_numpy())[:-1])
    check_text(fig)
    check_saved(fig, tmp_path / "losses")


@pytest.mark.slow
def test_end_reasons_and_turn_caps_are_shares_with_wilson_intervals(run, tmp_path):
    df, _ = run
    fig, table = charts.end_reasons(df, settings=CHALLENGE_SET)
    for r in table.itertuples():
        reasons = games_of(df, r.setting)["end_reason"].astype(str)
        count = int((reasons == r.part).sum())
        assert r.count == count and r.value == pytest.approx(count / len(reasons))
        lo, hi = proportion_confint(count, len(reasons), method="wilson")
        assert (r.low, r.high) == pytest.approx((lo, hi))
    shares = table.groupby("setting")["value"].sum()
    np.testing.assert_allclose(shares, 1.0)
    check_text(fig)
    check_saved(fig, tmp_path / "ends")
    fig, capped = charts.turn_capped(df, settings=CHALLENGE_SET)
    for r in capped.itertuples():
        reasons = games_of(df, r.setting)["end_reason"].astype(str)
        assert r.count == int((reasons == "turn_cap").sum()) and r.n == GAMES
        assert r.high > 0
    check_text(fig)
    check_saved(fig, tmp_path / "capped")


# ------------------------------------------------------------------------------ distributions
def test_score_distributions_count_the_scores(run, tmp_path):
    df, tidy = run
    fig, table = charts.score_distributions(df, P6, tidy)
    ps = player_scores(games_of(df, P6))
    shares = table[table["metric"] == "score_share"]
    for p in range(6):
        counts = ps[f"score_{p}"].value_counts()
        got = shares[shares["seat"] == p].set_index("score")["count"]
        assert got.sum() == GAMES
        assert {int(k): int(v) for k, v in got[got > 0].items()} == \
            {int(k): int(v) for k, v in counts.items()}
    assert_same_rows(table[table["metric"] == "mean_score"], tidy)
    assert list(dict.fromkeys(shares["seat_label"])) == charts.seat_labels(6)
    check_text(fig)
    check_saved(fig, tmp_path / "dist")


def test_paired_differences_are_the_tidy_rows(run, tmp_path):
    df, tidy = run
    fig, table = charts.paired_differences(df, tidy, reference=P6)
    assert set(table["b"]) == {P6}                       # read as other minus base
    for r in table.itertuples():
        row = tidy[(tidy["setting"] == r.pair) & (tidy["metric"] == r.metric)
                   & (tidy["seat"] == r.seat)].iloc[0]
        sign = -1 if r.flipped else 1
        assert r.value == pytest.approx(sign * row["value"])
        assert sorted((r.low, r.high)) == pytest.approx(sorted((sign * row["low"],
                                                                sign * row["high"])))
        assert r.n == row["n"]
    assert tick_texts(fig.axes[0], "y") == charts.seat_labels(6)
    check_text(fig)
    check_saved(fig, tmp_path / "forest")
    # tie-break twins: only the win share differs
    fig, twins = charts.paired_differences(df, tidy, a=P6, b=P6_SHARED)
    assert set(twins["metric"]) == {"diff_win_share"} and len(twins) == 6
    assert "only in the tie-break" in charts.caption_of(fig)


def test_the_package_does_not_use_pyplot():
    code = "import reports.charts, sys; print('matplotlib.pyplot' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"
