"""survive-sim tournament: line-ups, common games, standings, head to head, ratings, the SPRT
stop, identical results for any thread count or batch size, and one-line bad input.

Small tournaments: 3 players (random, greedy; the list repeated to fill the table, 3 line-ups),
a few hundred games each."""
from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from support.cli_harness import assert_usage_error, invoke, listing, run_process

from experiments.tournament import Tournament, lineups, split_names
from experiments.tournament.stats import sprt, standing_ranks
from simulator.scoring import decide
from play.settings import Settings

FILES = ["README.md", "games.parquet", "head_to_head.csv", "standings.csv", "tournament.json"]
STANDINGS = ["strategy", "games", "win_share", "low", "high", "mean_score", "score_low",
             "score_high", "mu", "sigma", "ordinal", "rank"]
BASE = ("--strategies", "random,greedy", "--players", 3, "--seed", 3, "--no-progress")


def tour(out, *args):
    return invoke("tournament", *BASE, "--out", out, *args)


def results(folder):
    meta = json.loads((folder / "tournament.json").read_text())
    for volatile in ("timing", "versions"):
        meta.pop(volatile)
    return ((folder / "standings.csv").read_text(), (folder / "head_to_head.csv").read_text(),
            pd.read_parquet(folder / "games.parquet"), meta)


def assert_same(a, b):
    assert a[0] == b[0] and a[1] == b[1]
    pd.testing.assert_frame_equal(a[2], b[2])
    assert a[3] == b[3]


@pytest.fixture(scope="module")
def stopped(tmp_path_factory):
    """random vs greedy, batches of 25 indices, at most 400: the SPRT stops it early."""
    out = tmp_path_factory.mktemp("tour") / "t"
    r = tour(out, "--games", 400, "--batch", 25, "--threads", 2)
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return out, r


# ---------------------------------------------------------------------------- the Python side
def test_lineups_cover_every_seat():
    assert lineups(("A", "B"), 4) == [("A", "B", "A", "B"), ("B", "A", "B", "A")]
    assert lineups(("A", "B"), 3) == [("A", "B", "A"), ("B", "A", "A"), ("A", "A", "B")]
    four = lineups(("A", "B", "C", "D"), 3)
    assert len(four) == 12 and len(set(four)) == 12
    for name in "ABCD":                     # every strategy in every seat, equally often
        assert [sum(lu[s] == name for lu in four) for s in range(3)] == [3, 3, 3]
    assert lineups(("A", "B"), 2) == [("A", "B"), ("B", "A")]


def test_names_are_opaque_and_may_carry_parameters():
    assert split_names("random, greedy") == ("random", "greedy")
    assert split_names("random,greedy:risk=2.0,greed=0.5") == ("random",
                                                               "greedy:risk=2.0,greed=0.5")
    with pytest.raises(ValueError, match="named twice"):
        Tournament(strategies=("greedy", "greedy"))
    with pytest.raises(ValueError, match="at least 2"):
        Tournament(strategies=("greedy",))


def test_standings_top_group_is_decides_winners():
    rng = np.random.default_rng(5)
    keys = [rng.integers(0, 4, (2000, 4)) for _ in range(4)]
    for rule in ("shared", "chain"):
        for equal in (False, True):
            win, _ = decide(*keys, rule=rule, equal=equal)
            rank = standing_ranks(*keys, rule=rule, equal=equal)
            assert ((rank == 0) == win).all()


def test_sprt_decisions():
    assert sprt(90, 100, 0.05, 0.05, 0.05)[0] == "above"
    assert sprt(10, 100, 0.05, 0.05, 0.05)[0] == "below"
    assert sprt(2000, 4000, 0.05, 0.05, 0.05)[0] == "equal"
    assert sprt(52, 100, 0.05, 0.05, 0.05)[0] == "open"


def test_ratings_do_not_drift_so_sigma_shrinks_and_a_close_pair_stays_ordered():
    """tau = 0: a strategy is a fixed program. With openskill's default drift sigma stays near
    1.5 whatever the number of games (1.47 for these games) and a 52-48 pair is ordered by the
    last few thousand; here sigma falls with the games (0.30) and the better one is first."""
    from types import SimpleNamespace

    from experiments.tournament.stats import Ratings
    n = 20_000
    first = np.random.default_rng(5).random(n) < 0.52
    rank = np.where(first[:, None], [0, 1], [1, 0])
    ratings = Ratings(("A", "B"))
    ratings.feed(SimpleNamespace(strat=np.tile([0, 1], (n, 1)), rank=rank, n=n))
    assert ratings.model.tau == 0.0
    assert ratings.order() == [0, 1] and ratings.sigma.max() < 0.5, ratings.current


def test_every_pair_meets_in_a_four_strategy_three_player_field():
    """K > P (only two strategies are built in, so on synthetic games): each pair sits together
    in 6 of the 12 line-ups per index, the two directions of a pair add up to 1, the batch-by-
    batch SPRT values equal those of the whole, and the strong strategy is rated first."""
    from experiments.tournament.stats import (
        Games,
        PairUnits,
        Ratings,
        head_to_head,
        pair_values,
        standings,
        stop_check,
    )
    names = ("A", "B", "C", "D")
    lus = lineups(names, 3)
    rng = np.random.default_rng(2)

    def block(first, count):
        g = np.repeat(np.arange(first, first + count), len(lus))
        lu = np.tile(np.arange(len(lus), dtype=np.int32), count)
        table = np.array([[names.index(s) for s in x] for x in lus])[lu]
        score = rng.integers(0, 10, (len(g), 3)) + 4 * (table == 3)
        zeros = np.zeros_like(score)
        win, _ = decide(score, zeros, zeros, zeros, rule="shared")
        rank = standing_ranks(score, zeros, zeros, zeros, rule="shared", equal=False)
        return Games(names, lus, "shared", False, 28, g, lu, score, zeros, zeros, zeros, win,
                     rank)

    blocks = [block(0, 60), block(60, 40)]
    games = Games.concat(blocks)
    ratings, pairs = Ratings(names), PairUnits()
    for b in blocks:
        ratings.feed(b)
        pairs.add(b)
    st = standings(games, ratings)
    assert st["strategy"].iloc[0] == "D" and (st["games"] == 100 * 9).all()
    h2h = head_to_head(games).set_index(["strategy", "opponent"])
    assert len(h2h) == 12 and (h2h["games"] == 100 * 6).all()
    for a in names:
        for b in names:
            if a < b:
                assert h2h.loc[(a, b), "share"] + h2h.loc[(b, a), "share"] == pytest.approx(1)
    units, n = pairs.units(3, 0)
    present, _, _ = pair_values(games, 3, 0)
    assert n == present.sum() == 600 and len(units) == 100
    assert units.mean() == pytest.approx(h2h.loc[("D", "A"), "share"])
    assert stop_check(pairs, ratings, 0.05, 0.05, 0.05).order[0] == "D"


# ---------------------------------------------------------------------------- the command
def test_the_folder_holds_every_file_with_its_columns(stopped):
    out, _ = stopped
    assert listing(out) == FILES
    assert [p.name for p in out.parent.iterdir()] == ["t"]          # no temporary left
    st = pd.read_csv(out / "standings.csv")
    assert list(st.columns)[:len(STANDINGS)] == STANDINGS
    assert list(st["rank"]) == [1, 2]
    h2h = pd.read_csv(out / "head_to_head.csv")
    assert list(h2h.columns) == ["strategy", "opponent", "games", "above", "tied", "share",
                                 "low", "high", "indices"]
    meta = json.loads((out / "tournament.json").read_text())
    games = pd.read_parquet(out / "games.parquet")
    assert len(games) == meta["games_played"] == 3 * meta["indices_played"]
    for key in ("tournament", "seed", "batches", "stop_rule", "outcome", "source_hash"):
        assert key in meta
    import simulator
    assert meta["source_hash"] == simulator.SOURCE_HASH
    for col in ("game", "lineup", "lineup_label", "player_strategy_0", "player_score_2",
                "standing_1", "winner_0", "win_share_2", "strategy_0", "score_0", "back_whale"):
        assert col in games.columns
    readme = (out / "README.md").read_text()
    assert "| rank | strategy |" in readme and "ordering settled by SPRT" in readme


def test_greedy_ranks_above_random_and_the_sprt_stops_early(stopped):
    out, r = stopped
    st = pd.read_csv(out / "standings.csv")
    assert list(st["strategy"]) == ["greedy", "random"]
    top = st.iloc[0]
    assert top["low"] <= top["win_share"] <= top["high"] and top["low"] > 1 / 3
    assert top["ordinal"] > st.iloc[1]["ordinal"]
    meta = json.loads((out / "tournament.json").read_text())
    assert meta["outcome"]["settled"] and meta["indices_played"] < 400
    assert meta["outcome"]["pairs"][0]["decision"] == "above"
    assert "ordering settled by SPRT after" in r.stdout
    assert "n = games" in r.stdout and "[" in r.stdout


def test_same_results_for_any_thread_count_and_batch_size(stopped, tmp_path):
    """The stop point of the first run, used as the batch, stops at the same games; with
    --no-stop, batches of 40 on one thread and one batch on two give the same tables."""
    out, _ = stopped
    first = results(out)
    n = first[3]["indices_played"]
    again = tmp_path / "again"
    assert tour(again, "--games", 400, "--batch", n, "--threads", 1).exit_code == 0
    a = results(again)
    assert a[3]["indices_played"] == n and len(a[3]["batches"]) == 1
    assert a[0] == first[0] and a[1] == first[1]
    pd.testing.assert_frame_equal(a[2], first[2])
    one, two = tmp_path / "one", tmp_path / "two"
    assert tour(one, "--games", 90, "--no-stop", "--batch", 40, "--threads", 1).exit_code == 0
    assert tour(two, "--games", 90, "--no-stop", "--batch", 90, "--threads", 2).exit_code == 0
    x, y = results(one), results(two)
    assert x[3]["indices_played"] == 90 == y[3]["indices_played"]
    x[3].pop("batches"), y[3].pop("batches")
    x[3]["tournament"].pop("batch"), y[3]["tournament"].pop("batch")
    assert_same(x, y)
    assert "--no-stop" in x[3]["outcome"]["statement"]


def test_head_to_head_and_win_share_recount_from_games(stopped):
    out, _ = stopped
    games = pd.read_parquet(out / "games.parquet")
    h2h = pd.read_csv(out / "head_to_head.csv").set_index(["strategy", "opponent"])
    st = pd.read_csv(out / "standings.csv").set_index("strategy")
    players = 3
    strat = np.column_stack([games[f"player_strategy_{p}"].astype(str) for p in range(players)])
    rank = np.column_stack([games[f"standing_{p}"] for p in range(players)])
    share = np.column_stack([games[f"win_share_{p}"] for p in range(players)])
    for a, b in (("greedy", "random"), ("random", "greedy")):
        above = tied = 0.0
        for row in range(len(games)):
            pa = [p for p in range(players) if strat[row, p] == a]
            pb = [p for p in range(players) if strat[row, p] == b]
            pairs = [(i, j) for i in pa for j in pb]
            above += sum(rank[row, i] < rank[row, j] for i, j in pairs) / len(pairs)
            tied += sum(rank[row, i] == rank[row, j] for i, j in pairs) / len(pairs)
        row = h2h.loc[(a, b)]
        assert row["games"] == len(games)
        assert row["above"] == pytest.approx(above) and row["tied"] == pytest.approx(tied)
        assert row["share"] == pytest.approx((above + tied / 2) / len(games))
        assert row["low"] <= row["share"] <= row["high"]
        mine = np.where(strat == a, share, 0).sum(axis=1) / (strat == a).sum(axis=1)
        assert st.loc[a, "win_share"] == pytest.approx(mine.mean())
    # the winners are the rules' winners of the seat-level columns
    from experiments.tables.games import winners
    w = winners(games)
    assert (w.to_numpy() == games[[f"winner_{p}" for p in range(players)]].to_numpy()).all()
    assert ((rank == 0) == w.to_numpy()).all()


def test_each_game_index_is_the_same_engine_game_in_every_lineup(stopped):
    """CRN: index g is engine game g of the seed in every line-up: its row is that game's
    record, and the line-ups of one index share the tile layout (another index does not)."""
    from play.record import game_log
    from play.simulate import records_frame, run_records
    out, _ = stopped
    games = pd.read_parquet(out / "games.parquet")
    counts = games.groupby("game")["lineup"].apply(lambda s: sorted(s))
    assert all(c == [0, 1, 2] for c in counts)
    labels = games["lineup_label"].astype(str)
    layouts = {}
    for g in (0, 7):
        for lu in range(3):
            row = games[(games["game"] == g) & (games["lineup"] == lu)].iloc[0]
            names = tuple(labels[row.name].split(" | "))
            s = Settings(players=3, strategies=names)
            rec = records_frame(run_records(s, 3, g, 1), s, 3, g).iloc[0]
            assert [int(rec[f"score_{p}"]) for p in range(3)] == \
                [int(row[f"score_{p}"]) for p in range(3)]
            assert int(rec["turns"]) == int(row["turns"])
            layouts[g, lu] = game_log(s, 3, g)["tiles"]
    assert layouts[0, 0] == layouts[0, 1] == layouts[0, 2]
    assert layouts[7, 0] == layouts[7, 2] and layouts[0, 0] != layouts[7, 0]


def test_two_players_sit_as_their_two_seats(tmp_path):
    out = tmp_path / "two"
    r = invoke("tournament", "--strategies", "greedy,random", "--players", 2, "--games", 15,
               "--no-stop", "--out", out, "--no-progress")
    assert r.exit_code == 0, r.stderr
    g = pd.read_parquet(out / "games.parquet")
    assert len(g) == 30
    assert (g["strategy_0"].astype(str) == g["player_strategy_0"].astype(str)).all()
    assert (g["strategy_2"].astype(str) == g["player_strategy_0"].astype(str)).all()
    assert (g["strategy_3"].astype(str) == g["player_strategy_1"].astype(str)).all()
    assert (g["player_score_0"] == g["score_0"] + g["score_2"]).all()


def test_force_replaces_only_a_tournament(stopped, tmp_path):
    out, _ = stopped
    r = tour(out, "--games", 10)
    assert_usage_error(r.exit_code, r.stderr, r.stdout, "not empty")
    other = tmp_path / "other"
    other.mkdir()
    (other / "keep.txt").write_text("mine")
    r = tour(other, "--games", 10, "--force")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, "something other than a tournament")
    assert listing(other) == ["keep.txt"]
    twice = tmp_path / "twice"
    assert tour(twice, "--games", 10, "--no-stop").exit_code == 0
    assert tour(twice, "--games", 12, "--no-stop", "--force").exit_code == 0
    assert json.loads((twice / "tournament.json").read_text())["indices_played"] == 12
    assert listing(tmp_path) == ["other", "twice"]


@pytest.mark.parametrize("args, needle", [
    (("--strategies", "random,nosuch"), "unknown strategy 'nosuch'"),
    (("--strategies", "greedy"), "at least 2 strategies"),
    (("--strategies", "greedy,greedy"), "named twice"),
    (("--players", 7), "--players"),
    (("--games", 0), "--games"),
    (("--delta", 0.7), "--delta"),
    (("--alpha", 0), "--alpha"),
    (("--boats", "3,3,3,3"), "boats"),
])
def test_bad_input_is_one_line_exit_2_and_nothing_written(tmp_path, args, needle):
    base = {"--strategies": "random,greedy", "--players": 3, "--games": 10}
    base.update(dict(zip(args[::2], args[1::2])))
    flat = [str(x) for kv in base.items() for x in kv]
    r = invoke("tournament", *flat, "--out", tmp_path / "t", "--no-progress")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == []


def test_bad_out_folders(tmp_path):
    (tmp_path / "file").write_text("x")
    for out, needle in ((tmp_path / "missing" / "t", "does not exist"),
                        (tmp_path / "file", "not a folder"),
                        (tmp_path / "file" / "t", "does not exist")):
        r = tour(out, "--games", 5)
        assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == ["file"]
    p = run_process("tournament", "--strategies", "random", "--games", 5, "--out",
                    tmp_path / "t")
    assert_usage_error(p.returncode, p.stderr, p.stdout, "at least 2 strategies")
    assert listing(tmp_path) == ["file"]
