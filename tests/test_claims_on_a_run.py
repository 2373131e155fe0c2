"""Claims judged on a small run of the engine (tests/test_claims.py checks their rules on
synthetic data): each of B2, B2r, S2, S2v, S3, S4, T3, N4, C1-C4, E1, E1d, K1, K2, L1 and L2
is judged from the run read chunk by chunk (``experiments.verdicts.analysis``, the feature sets'
joints of k settings) exactly as from the whole run in memory, whatever the chunking, in one process
or two; the feature sets hold what they say (turn cap, house rule, value scoring, losses by
cause, strategies per rotation); T2, N1 and E2 keep their rows when the others are judged
beside them; the shipped studies name valid claims, and a bad claim parameter is one line; and
the placement plug-ins play legal games that differ from their parents only where they
should."""
from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
from support.run_table import load_run

from experiments.verdicts import analysis, features
from experiments.sweeps import spec, sweep
from experiments.tables.games import prepare_all
from experiments.verdicts.looks import judge_run
from experiments.verdicts.catalog import from_frame
from experiments.verdicts.table import verdicts

pytestmark = pytest.mark.slow      # whole runs and games: docs/performance.md, "Test suite"

NUMBER = re.compile(r"[-+]?\d+(?:\.\d+)?")
NEW = {"B2": {}, "B2r": {}, "S2": {}, "S2v": {}, "S3": {}, "S4": {}, "T3": {}, "N4": {},
       "C1": {}, "C2": {}, "C3": {}, "C4": {}, "E1": {}, "E1d": {}, "K1": {}, "K2": {},
       "L1": {}, "L2": {}}
SPEC = {"name": "new-claims", "seed": 27, "games": 240, "chunk": 100, "grid": [
    {"players": [5], "strategies": ["greedy"],
     "boats": ["rules", "flat", [2, 1, 2, 2, 2], [1, 1, 2, 2, 3], [0, 1, 2, 2, 2],
               [1, 1, 2, 2, 1]]},
    {"players": [2, 4, 6], "strategies": ["greedy"], "challenges": [[], [2], [3], [5]]},
    {"players": [4], "strategies": ["greedy"], "challenges": [[1], [4]]},
    {"players": [4], "strategies": ["greedy"], "challenges": [[], [5]], "squid": [True]},
    {"players": [4], "strategies": [{"rotate": ["careful", "greedy", "racer", "greedy"]},
                                    {"rotate": ["careful", "greedy", "racer", "saboteur"]},
                                    {"rotate": ["racer", "greedy", "greedy", "greedy"]}]}],
    "claims": NEW}


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    root = tmp_path_factory.mktemp("new-claims")
    sweep.run_sweep(spec.build(SPEC), root / "run")
    return root / "run"


@pytest.fixture(scope="module")
def whole(run):
    return load_run(run)[0]


def _close(got: pd.DataFrame, want: pd.DataFrame) -> None:
    assert list(got["claim"]) == list(want["claim"])
    assert list(got["scope"]) == list(want["scope"])
    assert list(got["verdict"]) == list(want["verdict"])
    for c in ("effect", "low", "high", "p_value"):
        np.testing.assert_allclose(got[c].to_numpy(float), want[c].to_numpy(float),
                                   rtol=1e-7, atol=1e-10, equal_nan=True)
    assert list(got["games_needed"].astype(str)) == list(want["games_needed"].astype(str))
    for a, b in zip(got["detail"], want["detail"]):    # rounded numbers: one last digit
        assert NUMBER.sub("#", a) == NUMBER.sub("#", b)
        np.testing.assert_allclose([float(x) for x in NUMBER.findall(a)],
                                   [float(x) for x in NUMBER.findall(b)], atol=0.0101)


def test_every_new_claim_is_judged_streamed_as_in_memory(run, whole):
    got = judge_run(run, NEW, record=False, workers=1)
    want = verdicts(whole, NEW)
    _close(got, want)
    judged = set(got.loc[got["n"] > 0, "claim"])
    assert judged == set(NEW), sorted(set(NEW) - judged)


def test_the_k_setting_joints_equal_the_whole_run_in_memory(run, whole):
    streamed = analysis.analyse(run, workers=1, claims=NEW)
    cat = from_frame(whole)
    keys = [k for k in streamed.catalog.joints if features.is_set_key(k)]
    assert {k[0] for k in keys} >= {"@seat", "@turn", "@game", "@causes", "@strategy",
                                    "@variance"}
    assert max(len(k) for k in keys) >= 6                 # the boats' joint of k settings
    for key in keys:
        j = streamed.catalog.joints[key]
        mine = cat.joint([cat.entry(lab) for lab in key[1:]], key[0][1:])
        assert j.n == mine.n == 240 and j.names == mine.names
        np.testing.assert_allclose(j.mom.mean, mine.mom.mean, rtol=1e-10, atol=1e-12)
        np.testing.assert_allclose(j.mom.m2, mine.mom.m2, rtol=1e-8, atol=1e-9)


def test_the_k_setting_joints_do_not_depend_on_chunks_blocks_or_processes(run, tmp_path,
                                                                        monkeypatch):
    sweep.run_sweep(spec.build({**SPEC, "chunk": 70}), tmp_path / "cut")
    a = analysis.analyse(run, workers=1, claims=NEW)
    b = analysis.analyse(tmp_path / "cut", workers=1, claims=NEW)
    c = analysis.analyse(run, workers=2, claims=NEW)
    monkeypatch.setattr(analysis, "BLOCK", 50)
    d = analysis.analyse(run, workers=1, claims=NEW)
    for key, j in a.catalog.joints.items():
        for other in (b, c, d):
            k = other.catalog.joints[key]
            assert j.n == k.n
            np.testing.assert_allclose(j.mom.mean, k.mom.mean, rtol=1e-12, atol=1e-13)
            np.testing.assert_allclose(j.mom.m2, k.mom.m2, rtol=1e-9, atol=1e-10)


def test_the_first_claims_keep_their_numbers(run, whole):
    """Naming the new claims beside the old ones (and reading the extra columns for losses by
    cause) leaves every old row as it is."""
    old = {"T2": {}, "N1": {}, "E2": {}}
    alone = judge_run(run, old, record=False, workers=1)
    both = judge_run(run, {**old, **NEW}, record=False, workers=1)
    mine = both[both["claim"].isin(list(old))].reset_index(drop=True)
    pd.testing.assert_frame_equal(alone.reset_index(drop=True), mine)


def test_the_game_features_hold_what_they_say(whole):
    cat = from_frame(whole)
    for d in prepare_all(whole):
        e = next(x for x in cat.entries if d.label in x.parts)
        if e.seating is not None:
            continue
        x = features._per_game("game", d, e, tuple(e.strategies))
        g = whole[whole["setting"] == d.label].sort_values("game")
        at = {n: i for i, n in enumerate(features.GAME)}
        np.testing.assert_array_equal(x[:, at["capped"]] == 1,
                                      (g["end_reason"] == "turn_cap").to_numpy())
        np.testing.assert_allclose(x[:, at["rounds"]], g["turns"].to_numpy() / d.seats)
        # the house rule: most explorers rescued, then value; ties shared
        key = d.rescued * 1000 + d.score
        house = key == key.max(axis=1, keepdims=True)
        np.testing.assert_array_equal(x[:, at["house"]] == 1,
                                      (house != d.win[d.own]).any(axis=1))
        if 3 not in d.challenges:                           # value is the score itself
            assert (x[:, at["valuewin"]] == 0).all()
        else:
            assert (d.score == d.rescued).all() and x[:, at["valuewin"]].max() == 1
        lost = sum(d.lost[c] for c in d.lost)
        np.testing.assert_array_equal(lost, d.explorers - d.rescued)


def test_a_rotated_table_counts_each_strategy_in_the_seats_it_holds(whole):
    cat = from_frame(whole)
    e = next(x for x in cat.entries if x.seating is not None and "saboteur" in x.seating)
    assert features.count_of(e) == {"careful": 1, "greedy": 1, "racer": 1, "saboteur": 1}
    idx, x = features.rows("strategy", cat.data(e), e)
    names = features.names("strategy", e)
    shares = x[:, [names.index(f"share_{t}") for t in ("careful", "greedy", "racer",
                                                       "saboteur")]]
    np.testing.assert_allclose(shares.sum(axis=1), 1.0)     # every index's wins, split
    by_hand = []
    for r, d in enumerate(cat.data(e)):                     # saboteur's seat in rotation r
        seat = [s for s in range(4) if whole[(whole["setting"] == d.label)][
            f"strategy_{s}"].iloc[0] == "saboteur"][0]
        by_hand.append(d.share(d.own)[:, seat])
    np.testing.assert_allclose(shares[:, 3], np.mean(by_hand, axis=0))


def test_the_shipped_studies_name_valid_claims_and_list_them():
    for name in ("boats_turns", "skill_luck", "bash_leader", "dolphins_squid", "tiebreaks",
                 "challenges"):
        s = spec.load(name)
        assert s.claims and s.points
    assert {"B2", "B2r", "S2", "S2v"} <= set(spec.load("boats_turns").claims)
    assert {"T3", "S2", "S3", "S4", "N4"} <= set(spec.load("tiebreaks").claims)
    assert {"C1", "C2", "C3", "C4", "E1d"} <= set(spec.load("challenges").claims)


def test_the_placement_plug_ins_play_legal_games_differing_only_where_they_should():
    """``placer`` places as greedy and plays at random: its setup equals greedy's seat for
    seat; ``scatter`` places at random and then plays as greedy. Both legal, both seeded."""
    from pathlib import Path

    from play.settings import Settings
    from play.simulate import simulate
    from strategies.plugins import load_plugin
    load_plugin(Path(spec.find("skill_luck")).parent / "plugins" / "placement.py")
    for lineup in (("placer", "random", "random", "random"),
                   ("greedy", "scatter", "scatter", "scatter")):
        a = simulate(Settings(players=4, strategies=lineup), seed=3, games=30)
        b = simulate(Settings(players=4, strategies=lineup), seed=3, games=30)
        pd.testing.assert_frame_equal(a, b)
        assert len(a) == 30 and (a["end_reason"] != "none").all()


@pytest.mark.parametrize("cid, key, value", [
    ("B2", "tolerance", 2), ("B2r", "tolerance", -1), ("S2", "tolerance", "half"),
    ("S2v", "tolerance", 31), ("S4", "tolerance", True), ("T3", "threshold", 1.5),
    ("N4", "lost", 0), ("N4", "per_round", 11), ("C2", "rounds", -2), ("E1", "value", 1),
    ("E1d", "losses", 20), ("K2", "threshold", [0.5]), ("L1", "tolerance", 1),
    ("K1", "margin", 0.1)])
def test_a_bad_claim_parameter_is_one_line_and_exit_2(tmp_path, cid, key, value):
    from support.cli_harness import assert_usage_error, invoke
    with pytest.raises(spec.SpecError, match=f"claims.{cid}"):
        spec.build({"games": 1, "grid": {"players": [4]}, "claims": {cid: {key: value}}})
    v = str(value).lower() if isinstance(value, bool) else repr(value).replace("'", '"')
    f = tmp_path / "bad.toml"
    f.write_text(f'games = 10\n[grid]\nplayers = [4]\n[claims.{cid}]\n{key} = {v}\n')
    r = invoke("sweep", f, "--out", tmp_path / "run")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, f"claims.{cid}")
    assert not (tmp_path / "run").exists()
