"""Claims and verdicts (experiments/claims.py): each verdict follows its stated rule, flips when
the data are built to flip it, and a claim of balance is supported only by an equivalence test.

Synthetic runs start from a real sweep's rows (so every column is the engine's) and rewrite the
keys that decide the winner: each game gets one winner, a seat drawn with planted chances (or in
turn, for an exactly uniform run), with a score of 5 and one explorer rescued; every other seat
scores 0."""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from experiments import claims, spec, sweep
from experiments.runs import load_run

GRID = {"players": [4, 5], "boats": ["rules", "flat"], "tiebreak": ["chain", "shared"],
        "strategies": ["random"]}


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    out = tmp_path_factory.mktemp("claims") / "run"
    sweep.run_sweep(spec.build({"seed": 4, "games": 100, "chunk": 100, "grid": GRID}), out)
    return load_run(out)[0]


def synthetic(real: pd.DataFrame, label: str, games: int, chances=None, seed: int = 0):
    """``games`` games of setting ``label`` with one winner each: seat ``i % N`` in game i
    (``chances`` None: exactly uniform) or drawn with ``chances``."""
    g = real[real["setting"] == label]
    rows = g.iloc[np.arange(games) % len(g)].reset_index(drop=True).copy()
    rows["game"] = np.arange(games)
    n = int(rows["players"].iloc[0])
    if chances is None:
        win = np.arange(games) % n
    else:
        win = np.random.default_rng(seed).choice(n, size=games, p=chances)
    for s in range(n):
        mine = win == s
        for col, v in (("score", 5), ("rescued", 1), ("rescued_value", 5)):
            rows[f"{col}_{s}"] = pd.array(np.where(mine, v, 0), dtype="Int32")
        rows[f"lost_{s}"] = pd.array(np.where(mine, 7, 8), dtype="Int32")
    return rows


def verdict(df, cid, **params):
    out = claims.verdicts(df, {cid: params})
    return out[out["claim"] == cid]


FLAT5 = "p5-boats_flat-base-tb_chain-random"
RULES5 = "p5-boats_rules-base-tb_chain-random"


def test_s1_a_planted_first_seat_advantage_is_supported(real):
    df = synthetic(real, FLAT5, 4000, [0.28, 0.2, 0.2, 0.16, 0.16])
    (row,) = verdict(df, "S1").itertuples()
    assert row.verdict == "supported" and row.high < 0 and row.n == 4000
    assert "slope" in row.test and row.games_needed is pd.NA


def test_s1_a_uniform_run_does_not_support_it(real):
    few = verdict(synthetic(real, FLAT5, 800), "S1").iloc[0]
    assert few.verdict == "inconclusive" and few.low < 0 < few.high
    assert few.games_needed > 800                        # how many would settle it
    many = verdict(synthetic(real, FLAT5, 16000), "S1").iloc[0]
    assert many.verdict == "refuted"                     # no trend of practical size


def test_s1b_balance_is_supported_only_by_equivalence(real):
    """Exactly uniform wins: with 6,000 games every seat's TOST against 1/5 +- 1 pp passes;
    with 300 the same perfect balance is only inconclusive (no difference found is not
    equality), with the games that would settle it; a planted advantage is refuted."""
    good = verdict(synthetic(real, RULES5, 6000), "S1b")
    s1b = good[good["claim"] == "S1b"].iloc[0]
    assert s1b.verdict == "supported" and s1b.p_value < 0.05 and "TOST" in s1b.test
    few = verdict(synthetic(real, RULES5, 300), "S1b").iloc[0]
    assert few.verdict == "inconclusive" and few.games_needed > 300
    bad = verdict(synthetic(real, RULES5, 4000, [0.3, 0.2, 0.2, 0.15, 0.15]), "S1b").iloc[0]
    assert bad.verdict == "refuted" and bad.low > 0.01


def test_s1b_brings_the_rules_against_flat_comparison(real):
    df = pd.concat([synthetic(real, RULES5, 4000, [0.2] * 5, seed=1),
                    synthetic(real, FLAT5, 4000, [0.3, 0.25, 0.2, 0.15, 0.1], seed=1)])
    out = claims.verdicts(df, {"S1b": {}})
    s1c = out[out["claim"] == "S1c"].iloc[0]
    assert s1c.verdict == "supported" and s1c.low > 0       # rules' slope closer to 0


def test_t2_a_threshold_on_the_tie_rate(real):
    label = "p4-boats_rules-base-tb_shared-random"
    df = synthetic(real, label, 3000)
    tied = np.arange(3000) % 5 == 0                             # 20% of games tied
    df.loc[tied, "score_1"] = df.loc[tied, [f"score_{s}" for s in range(4)]].max(axis=1)
    df.loc[tied, "score_0"] = df.loc[tied, "score_1"]
    row = verdict(df, "T2").iloc[0]
    assert row.verdict == "supported" and row.low > 0.05
    row = verdict(synthetic(real, label, 3000), "T2").iloc[0]
    assert row.verdict == "refuted" and row.high < 0.05         # no ties at all


def test_every_verdict_is_one_of_three_and_the_columns_are_stated(real):
    out = claims.verdicts(real, {cid: {} for cid in ("S1", "S1b", "N3", "T1", "T2", "N1")})
    assert list(out.columns[:10]) == ["claim", "question", "verdict", "test", "statistic",
                                      "p_value", "effect", "low", "high", "n"]
    assert set(out["verdict"]) <= set(claims.VERDICTS)
    assert out["rule"].str.len().min() > 20                      # every rule stated in words


def test_a_claim_the_run_cannot_judge_says_so(real):
    out = claims.verdicts(real, {"C6": {}})
    assert list(out["verdict"]) == ["inconclusive"] and "none of the settings" in out["scope"][0]


def test_study_files_name_known_claims_with_valid_parameters():
    for name in spec.studies():
        assert spec.load(name).claims
    with pytest.raises(spec.SpecError, match="unknown claim"):
        spec.build({"games": 1, "grid": {"players": [4]}, "claims": {"Z9": {}}})
    with pytest.raises(spec.SpecError, match="tolerance"):
        spec.build({"games": 1, "grid": {"players": [4]}, "claims": {"S1b": {"tolerance": 2}}})


def test_the_slope_is_the_least_squares_slope_of_the_seat_shares():
    shares = np.array([[1, 0, 0, 0], [0, 0, 0, 1], [0.5, 0.5, 0, 0]], float)
    means = shares.mean(axis=0)
    want = np.polyfit(np.arange(1, 5), means, 1)[0]
    assert claims.slope(shares).mean() == pytest.approx(want)


def _as_style(df: pd.DataFrame, name: str) -> pd.DataFrame:
    """The same games relabelled as played by ``name`` self-play (a strategy axis)."""
    out = df.copy()
    out["setting"] = out["setting"].astype(str).str.replace("-random", f"-{name}")
    for s in range(6):
        col = f"strategy_{s}"
        present = out[col].notna()
        out[col] = pd.Categorical(np.where(present, name, None), categories=["random", name])
    return out


def test_each_style_of_play_is_judged_alone_and_summed_up_across_the_ladder(real):
    planted = synthetic(real, FLAT5, 4000, [0.28, 0.2, 0.2, 0.16, 0.16])
    uniform = _as_style(synthetic(real, FLAT5, 16000), "greedy")
    out = verdict(pd.concat([planted, uniform], ignore_index=True), "S1")
    assert sorted(out["play"]) == ["greedy self-play", "random self-play"]
    by = dict(zip(out["play"], out["verdict"]))
    assert by == {"random self-play": "supported", "greedy self-play": "refuted"}
    assert set(out["across_ladder"]) == {"depends on the style of play"}
    both = verdict(pd.concat([planted, _as_style(planted, "greedy")], ignore_index=True), "S1")
    assert set(both["across_ladder"]) == {"holds for every style"}
    alone = verdict(planted, "S1")
    assert set(alone["across_ladder"]) == {"one style of play only"}


def test_the_ladder_rule():
    s = claims.ladder_summary
    assert s(["supported"] * 3) == "holds for every style"
    assert s(["refuted", "refuted"]) == "refuted for every style"
    assert s(["supported", "refuted", "inconclusive"]) == "depends on the style of play"
    assert s(["supported", "inconclusive"]) == "holds for some styles"
    assert s(["inconclusive", "inconclusive"]) == "inconclusive"


def _seated(real: pd.DataFrame, seating: tuple, games: int, chances, seed: int) -> pd.DataFrame:
    """Synthetic 5-player games of the seating ``seating`` (its own setting label)."""
    out = synthetic(real, FLAT5, games, chances, seed=seed)
    out["setting"] = FLAT5.replace("-random", "-" + "+".join(seating))
    names = sorted(set(seating))
    for s, name in enumerate(seating):
        out[f"strategy_{s}"] = pd.Categorical([name] * len(out), categories=names)
    return out


def test_a_mixed_table_is_judged_on_all_its_rotations_pooled(real):
    """racer wins wherever it sits and no seat is favoured. Seated once (racer in seat 0), the
    first seat looks advantaged: S1 is supported for that fixed table, which confounds seat and
    strategy. Played in all five rotations on the same games and pooled, each seat holds racer
    once in five: S1 is refuted, and the pooled style takes part in the summary across styles."""
    from experiments.rotations import base_seating, rotations
    seatings = rotations(base_seating(("racer", "greedy", "greedy", "greedy", "greedy"), 5))
    assert len(seatings) == 5
    parts = [_seated(real, st, 6000, [0.6 if n == "racer" else 0.1 for n in st], seed=r)
             for r, st in enumerate(seatings)]
    fixed = verdict(parts[0], "S1").iloc[0]
    assert fixed.play == "mixed: racer, greedy" and fixed.verdict == "supported"
    assert fixed.across_ladder == ""                       # a fixed seating is not a style
    pooled = verdict(pd.concat(parts, ignore_index=True), "S1")
    (row,) = pooled.itertuples()
    assert row.play == "mixed, every seat in turn: greedy, racer"
    assert row.verdict == "refuted" and row.n == 5 * 6000
    assert row.across_ladder == "one style of play only"
    with_self = verdict(pd.concat(parts + [_as_style(synthetic(real, FLAT5, 16000), "greedy")],
                                  ignore_index=True), "S1")
    assert set(with_self["play"]) == {"greedy self-play", row.play}
    assert set(with_self["across_ladder"]) == {"refuted for every style"}
    partial = verdict(pd.concat(parts[:4], ignore_index=True), "S1")   # a rotation missing
    assert len(partial) == 4 and set(partial["play"]) == {"mixed: racer, greedy",
                                                           "mixed: greedy, racer"}


def test_rotations_of_a_seating():
    from experiments.rotations import base_seating, rotation_of, rotations
    assert base_seating(("a", "b", "c"), 5) == ("a", "b", "c", "a", "b")
    assert rotations(("a", "b", "a", "b")) == [("a", "b", "a", "b"), ("b", "a", "b", "a")]
    assert len(rotations(base_seating(("a", "b", "c"), 6))) == 3
    seating, r = rotation_of(("c", "a", "b", "c", "a"))
    assert seating == min(rotations(seating)) and rotations(seating)[r] == ("c", "a", "b", "c", "a")
    assert rotation_of(("a", "a", "a")) is None


def test_an_experiment_file_rotates_a_line_up_round_the_table():
    sp = spec.build({"games": 10, "grid": {"players": [5], "strategies": [
        {"rotate": ["greedy", "careful", "racer"]}]}})
    seatings = [p.settings.strategies for p in sp.points]
    assert len(seatings) == 5 and len(set(seatings)) == 5
    assert all(sorted(st) == sorted(seatings[0]) for st in seatings)   # same table each time
    for s in range(5):                                   # each seat holds greedy twice in five
        assert [st[s] for st in seatings].count("greedy") == 2
    for players, bad_value, words in ((5, {"rotate": ["greedy"]}, "each value must be"),
                                      (5, {"rotate": ["greedy"] * 3}, "two different"),
                                      (2, {"rotate": ["greedy", "racer", "careful"]}, "two players")):
        with pytest.raises(spec.SpecError, match=words):
            spec.build({"games": 10, "grid": {"players": [players], "strategies": [bad_value]}})
