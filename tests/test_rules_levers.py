"""Scenario tests for the compensation levers (RULES.md C1 komi, C2 setup order): the settings'
checks, who wins with a score bonus, the order seats place in, and that tables without a lever
keep their columns (so every earlier table keeps its bytes)."""
from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

from support.harness import Table
from experiments.tables.games import prepare, winners
from play.layout import EV_PLACE_EXPLORER, EV_TURN
from play.outcome import shares
from play.record import play_logged
from play.settings import (
    Settings,
    SettingsError,
    parse_komi,
    parse_setup_order,
)
from play.simulate import simulate
from simulator import state as ST
from simulator.scoring import STEPS, decide

KOMI5 = (0, 0, 0.5, 1, 1.5)


def _decide(score, rescued, value, turns, komi, rule="chain"):
    win, step = decide(np.array([score]), np.array([rescued]), np.array([value]),
                       np.array([turns]), rule=rule, komi=np.array(komi))
    return win[0].tolist(), STEPS[int(step[0])]


# ---------------------------------------------------------------------------- C1.1 the setting
def test_c1_1_komi_is_one_bonus_per_seat_in_whole_or_half_points():
    s = Settings(players=5, komi=KOMI5)
    assert s.komi == KOMI5 and s.komi_halves == (0, 0, 1, 2, 3)
    assert parse_komi("0,0,0.5,1,1.5") == KOMI5 and parse_komi("none") == ()
    assert Settings(players=4, komi=(0, 0, 0, 0)).komi == ()          # all zero is no komi
    assert Settings(players=2, komi=(0.5, 0, 1, 0)).player_komi_halves == (3, 0)  # B4.5


@pytest.mark.parametrize("text", ["0.25", "31", "-30.5", "a", "1,,2", "1.5.0", "nan"])
def test_c1_1_bad_komi_text_is_refused_naming_the_accepted_values(text):
    with pytest.raises(SettingsError, match="whole or half") as e:
        parse_komi(text)
    assert e.value.param == "--komi"


@pytest.mark.parametrize("komi", [(0, 1), (0, 0, 0, 0.25), (0, 0, 0, 31), (0, 0, 0, np.nan),
                                  (0, 0, 0, True)])
def test_c1_1_bad_komi_values_are_refused(komi):
    with pytest.raises(SettingsError, match="komi must be 4 bonuses"):
        Settings(players=4, komi=komi)


def test_c1_1_komi_goes_into_the_settings_dict_only_when_set():
    plain = Settings(players=5)
    assert "komi" not in plain.as_dict() and "setup_order" not in plain.as_dict()
    s = Settings(players=5, strategies=("greedy",), komi=KOMI5, setup_order=("snake", "reverse"))
    d = s.to_dict()
    assert d["komi"] == list(KOMI5) and d["setup_order"] == ["snake", "reverse"]
    assert Settings.from_dict(d) == s


# ---------------------------------------------------------------------------- C1.2 who wins
def test_c1_2_a_half_point_breaks_a_score_tie_outright():
    assert _decide([10, 10, 4], [3, 4, 1], [10, 10, 4], [9, 9, 9], [1, 0, 0]) == \
        ([True, False, False], "score")


def test_c1_2_the_bonus_can_overturn_a_lead():
    assert _decide([10, 9, 4], [3, 3, 1], [10, 9, 4], [9, 9, 9], [0, 4, 0]) == \
        ([False, True, False], "score")


def test_c1_2_equal_totals_go_to_the_chain_which_the_bonus_does_not_touch():
    # 10 + 0 and 9 + 1: a tie on totals; X1.6 (a) most explorers rescued decides
    assert _decide([10, 9, 4], [3, 4, 1], [10, 9, 4], [9, 9, 9], [0, 2, 0]) == \
        ([False, True, False], "rescued")
    assert _decide([10, 9, 4], [3, 4, 1], [10, 9, 4], [9, 9, 9], [0, 2, 0], "shared") == \
        ([True, True, False], "shared")


def test_c1_2_no_bonus_is_the_rules_scoring():
    args = ([10, 10, 4], [3, 4, 1], [10, 10, 4], [9, 9, 9])
    assert _decide(*args, [0, 0, 0]) == _decide(*args, None) == ([False, True, False], "rescued")


# ---------------------------------------------------------------------------- C1.3 the table
@pytest.fixture(scope="module")
def tables():
    base = Settings(players=5, strategies=("greedy",))
    komi = Settings(players=5, strategies=("greedy",), komi=KOMI5)
    return simulate(base, 120, 3), simulate(komi, 120, 3), komi


def test_c1_3_the_table_keeps_the_raw_score_and_records_the_bonus(tables):
    base, komi, settings = tables
    assert not base.filter(like="komi").columns.any()                 # the rules' columns only
    assert [float(komi[f"komi_{s}"].iloc[0]) for s in range(5)] == list(KOMI5)
    assert komi["komi_5"].isna().all()
    raw = [c for c in base.columns if c not in ("decided_by",)]
    # greedy is komi-blind: the same games, move for move, so the same raw record
    assert base[raw].equals(komi[raw])


def test_c1_3_winners_and_decided_by_count_the_bonus(tables):
    base, komi, settings = tables
    def cols(df, m):
        return np.column_stack([df[f"{m}_{s}"].to_numpy(np.int64) for s in range(5)])
    keys = [cols(komi, m) for m in ("score", "rescued", "rescued_value", "turns")]
    want, step = decide(*keys, rule="chain", komi=settings.player_komi_halves)
    assert np.array_equal(winners(komi).to_numpy(), want)
    assert list(komi["decided_by"].astype(str)) == [STEPS[i] for i in step]
    assert np.array_equal(prepare("k", komi).win["chain"], want)
    plain, _ = decide(*keys, rule="chain")
    assert not np.array_equal(want, plain)          # 120 games: some win changes hands
    assert np.array_equal(winners(base).to_numpy(), plain)


@pytest.mark.parametrize("case", [dict(players=5, komi=KOMI5), dict(players=2, komi=(0.5, 0, 1, 0)),
                                  dict(players=4, komi=(0, 3, 0, 0.5), tiebreak="chain")])
def test_c1_3_the_search_reward_sees_the_bonus(case):
    """The win shares a search backs up (``play.outcome.shares``) equal the table's winners
    with the bonus counted."""
    settings = Settings(strategies=("greedy",), **case)
    keys = np.zeros((ST.MAX_SEATS, 4), np.int64)
    out = np.zeros(3 * ST.MAX_SEATS)
    table = simulate(settings, games=8, seed=9)
    won = winners(table).to_numpy()
    for game in range(8):
        _, _, S = play_logged(settings, 9, game)
        assert list(S[ST.KOMI:ST.KOMI + settings.seats]) == list(settings.komi_halves)
        shares(np.ascontiguousarray(S), settings.tiebreak == "chain", keys, out)
        want = won[game] / won[game].sum()
        got = [out[s] for s in range(settings.players)]
        assert np.allclose(got, want), (game, got, want)


# ---------------------------------------------------------------------------- C2 setup order
def _orders(players, order, **kw):
    t = Table(players, strategy="random", setup_order=order, **kw).log_on(200)
    t.setup()
    ev = t.events()
    return ([e["seat"] for e in ev if e["type"] == "place_explorer"],
            [e["seat"] for e in ev if e["type"] == "place_boat"])


def test_c2_1_forward_is_the_rules_order():
    explorers, boats = _orders(5, ("forward", "forward"))
    assert explorers == [0, 1, 2, 3, 4] * 8 and boats == [0, 1, 2, 3, 4, 2, 3, 4]


def test_c2_1_reverse_starts_from_the_last_seat():
    explorers, boats = _orders(5, ("reverse", "reverse"))
    assert explorers == [4, 3, 2, 1, 0] * 8 and boats == [4, 3, 2, 1, 0, 4, 3, 2]


def test_c2_1_snake_turns_round_at_each_end():
    explorers, boats = _orders(4, ("snake", "snake"))
    assert explorers == ([0, 1, 2, 3] + [3, 2, 1, 0]) * 5
    assert boats == [0, 1, 2, 3, 3, 2, 1, 0]
    _, boats = _orders(5, ("forward", "snake"))
    assert boats == [0, 1, 2, 3, 4, 4, 3, 2]                    # X1.4: seats 0, 1 are done


def test_c2_1_each_phase_is_set_on_its_own():
    explorers, boats = _orders(4, parse_setup_order("boats=reverse"))
    assert explorers[:4] == [0, 1, 2, 3] and boats[:4] == [3, 2, 1, 0]
    explorers, boats = _orders(4, parse_setup_order("explorers=snake"))
    assert explorers[:8] == [0, 1, 2, 3, 3, 2, 1, 0] and boats[:4] == [0, 1, 2, 3]


def test_c2_1_play_begins_with_seat_0_whatever_the_setup_order():
    s = Settings(players=4, strategies=("greedy",), setup_order=("reverse", "snake"))
    ev = play_logged(s, 5, 0)[0]
    turns = ev[ev[:, 0] == EV_TURN]
    assert len(turns) and turns[0, 1] == 0
    setup = ev[ev[:, 0] == EV_PLACE_EXPLORER]
    assert list(setup[:4, 1]) == [3, 2, 1, 0]


@pytest.mark.parametrize("text", ["backwards", "explorers=up", "boats=snake,boats=reverse",
                                  "explorers", "tiles=snake", ""])
def test_c2_1_bad_setup_orders_are_refused(text):
    with pytest.raises(SettingsError, match="accepted: forward, reverse, snake") as e:
        parse_setup_order(text)
    assert e.value.param == "--setup-order"


def test_c2_2_six_players_last_explorers_of_seats_4_and_5_follow_x1_3_in_reverse():
    """C2.2: with seat 5 placing first, seats 4 and 5 still put their last explorer on a tile
    holding exactly one explorer of another colour (X1.3)."""
    for seed in (1, 2):
        t = Table(6, strategy="random", seed=seed, setup_order=("reverse", "forward")).log_on(200)
        t.setup()
        places = [ev for ev in t.events() if ev["type"] == "place_explorer"]
        last = {s: [ev for ev in places if ev["seat"] == s][-1] for s in (4, 5)}
        for s, ev in last.items():
            e, h = ev["f"][0], ev["f"][1]
            on = [x for x in range(60) if t.S[ST.EX_LOC + x] == ST.L_LAND
                  and t.S[ST.EX_AT + x] == h]
            assert len(on) == 2 and [x // 10 for x in on if x != e][0] != s
        assert [ev["seat"] for ev in places[:6]] == [5, 4, 3, 2, 1, 0]


def test_c2_3_setup_order_is_recorded_in_the_table_only_when_set():
    plain = simulate(Settings(players=4, strategies=("greedy",)), 4, 1)
    assert not plain.filter(like="setup_order").columns.any()
    s = Settings(players=4, strategies=("greedy",), setup_order=("snake", "forward"))
    df = simulate(s, 4, 1)
    assert set(df["setup_order_explorers"].astype(str)) == {"snake"}
    assert set(df["setup_order_boats"].astype(str)) == {"forward"}
    assert prepare("s", df).factors["setup_order"] == ("snake", "forward")
    assert prepare("p", plain).factors["setup_order"] == ("forward", "forward")


def test_every_lever_rule_id_is_cited_by_a_test():
    """Coverage guard: each C id of docs/RULES.md appears (as c1_2 / C1.2) in a test here."""
    root = Path(__file__).resolve().parents[1]
    rules = (root / "docs" / "RULES.md").read_text(encoding="utf-8")
    ids = set(re.findall(r"^\| (C\d+\.\d+) \|", rules, flags=re.M))
    assert len(ids) == 6
    text = Path(__file__).read_text(encoding="utf-8")
    cited = {m.upper().replace("_", ".") for m in re.findall(r"(?<![A-Za-z0-9])c\d+_\d+", text)}
    assert not ids - cited, f"lever rule ids without a test: {sorted(ids - cited)}"


def test_c2_1_a_search_seat_re_enters_the_game_under_any_order_and_komi():
    """The search rung replays the game from its journal (``play.reentry``): the setup order
    and the bonus come back with the state, so its simulations place in the same order as the
    game (a wrong replay would end the game with an engine error) and race on the bonus."""
    s = Settings(players=4, strategies=("search:budget=8", "greedy", "greedy", "greedy"),
                 setup_order=("snake", "reverse"), komi=(0, 0, 0, 1.5))
    df = simulate(s, 2, 1)
    assert len(df) == 2 and (df["end_reason"].astype(str) != "").all()
    assert set(df["setup_order_explorers"].astype(str)) == {"snake"}


# ---------------------------------------------------------------------------- the referee
LEVER_CASES = [dict(players=5, komi=KOMI5, setup_order=("snake", "reverse")),
               dict(players=6, setup_order=("reverse", "snake")),
               dict(players=2, komi=(0.5, 0, 1, 0), setup_order=("snake", "snake")),
               dict(players=4, komi=(0, 0, 0, 2.5), tiebreak="chain",
                    setup_order=("forward", "reverse"))]


@pytest.mark.parametrize("case", LEVER_CASES)
def test_c2_1_c1_3_the_referee_agrees_with_the_engine_under_the_levers(case):
    """The referee (written from RULES.md C1, C2) replays logged games played under the
    levers and finds no discrepancy: the placement order, the record's bonus and the deciding
    step counted with it."""
    from play.record import game_log
    from replays import referee
    s = Settings(strategies=("greedy",), **case)
    for game in range(6):
        log = game_log(s, 11, game)
        assert log["settings"].get("setup_order") == list(s.setup_order) or \
            s.setup_order == ("forward", "forward")
        assert referee.check(log) is None, (game, referee.check(log))


def test_c2_1_the_referee_catches_a_placement_out_of_order():
    import copy

    from play.record import game_log
    from replays import referee
    log = game_log(Settings(players=4, strategies=("greedy",),
                            setup_order=("snake", "forward")), 11, 0)
    bad = copy.deepcopy(log)
    bad["settings"]["setup_order"] = ["forward", "forward"]      # claimed, but not played
    found = referee.check(bad)
    assert found is not None and found.rule == "B4.3"
    bad["settings"]["setup_order"] = ["reverse", "forward"]
    assert referee.check(bad).rule == "C2.1"
    bad["settings"]["setup_order"] = ["sideways", "forward"]
    assert referee.check(bad).rule == "C2.1"


def test_c1_3_the_referee_catches_a_bonus_the_record_does_not_count():
    import copy

    from play.record import game_log
    from replays import referee
    s = Settings(players=5, strategies=("greedy",), komi=KOMI5)
    logs = [game_log(s, 11, g) for g in range(12)]
    # a game whose deciding step differs without the bonus: drop the bonus from the settings
    for log in logs:
        bad = copy.deepcopy(log)
        del bad["settings"]["komi"]
        found = referee.check(bad)
        assert found is not None and found.rule in ("C1.3", "X1.6")
    bad = copy.deepcopy(logs[0])
    bad["settings"]["komi"] = [0, 0, 0.25, 0, 0]
    assert referee.check(bad).rule == "C1.1"


def test_c1_2_a_search_seat_with_a_bonus_plays_the_same_games_on_any_threads_and_chunks():
    """The contract's same-seed check, with a bonus and a setup order set: the search's
    reward reads the bonus from the state, and nothing of that depends on threads or chunks."""
    from play.simulate import numba_threads, run_records
    s = Settings(players=4, strategies=("search:budget=4", "greedy", "search:budget=4", "random"),
                 komi=(0, 0.5, 1, 1.5), setup_order=("snake", "reverse"))
    with numba_threads(1):
        one = run_records(s, 5, 0, 4)
    with numba_threads(2):
        two = np.concatenate([run_records(s, 5, 0, 1), run_records(s, 5, 1, 3)])
    assert np.array_equal(one, two)
