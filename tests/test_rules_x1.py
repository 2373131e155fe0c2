"""Scenario tests for the 5-6 player rules, boat allocations and tie-breaks (RULES.md X1.1-X1.6,
B7.3): hand-built positions or one setup, and the exact expected result."""
from __future__ import annotations

import numpy as np
import pytest

from support.harness import EngineError, Table, i32, rc
from simulator import board as BD
from simulator import rules as R
from simulator import state as ST
from simulator.scoring import STEPS, decide
from play.settings import Settings, SettingsError


def _values_in_play(t: Table, seat: int) -> list[int]:
    return sorted(int(t.S[ST.EX_VALUE + seat * 10 + k]) for k in range(10)
                  if t.S[ST.EX_LOC + seat * 10 + k] != ST.L_OFF)


def _setup_logged(players: int, **kw) -> tuple[Table, list[dict]]:
    t = Table(players, strategy="random", **kw).log_on(200)
    t.setup()
    return t, t.events()


def _boat_order(events) -> list[int]:
    return [ev["seat"] for ev in events if ev["type"] == "place_boat"]


def test_x1_1_five_players_remove_a_1_and_a_3_and_place_boats_1_1_2_2_2():
    """X1.1: each colour plays 1,1,2,2,3,4,5,6 (24 points); seats get 1,1,2,2,2 boats."""
    t, events = _setup_logged(5)
    for seat in range(5):
        assert _values_in_play(t, seat) == [1, 1, 2, 2, 3, 4, 5, 6]
        assert (t.S[ST.EX_LOC + seat * 10 + np.array([0, 5])] == ST.L_OFF).all()
    assert (t.S[ST.EX_LOC + 50:ST.EX_LOC + 60] == ST.L_OFF).all()        # no sixth colour
    assert _boat_order(events) == [0, 1, 2, 3, 4, 2, 3, 4]
    assert (t.S[ST.HEX_NLAND:ST.HEX_NLAND + BD.N_HEX] == 1).sum() == 40   # 40 explorers, 40 tiles


def test_x1_2_six_players_remove_a_1_a_2_and_a_3_and_place_boats_1_1_1_1_2_2():
    """X1.2: each colour plays 1,1,2,3,4,5,6 (22 points); seats get 1,1,1,1,2,2 boats."""
    t, events = _setup_logged(6)
    for seat in range(6):
        assert _values_in_play(t, seat) == [1, 1, 2, 3, 4, 5, 6]
        assert (t.S[ST.EX_LOC + seat * 10 + np.array([0, 3, 5])] == ST.L_OFF).all()
    assert _boat_order(events) == [0, 1, 2, 3, 4, 5, 4, 5]


def test_x1_3_fifth_seat_last_explorer_only_onto_a_lone_explorer_of_another_colour():
    """X1.3: the options for the fifth seat's last explorer are exactly the tiles holding one
    explorer of another colour -- not an empty tile, not its own colour's, not a full pair."""
    t = Table.empty(6)
    t.fill_island()
    a, b, c, d = (int(h) for h in BD.ISLAND_HEXES[:4])      # the rest of the island is empty
    R.place_explorer(t.S, 4 * 10 + 1, ST.L_LAND, i32(a))        # its own colour: not allowed
    R.place_explorer(t.S, 0 * 10 + 1, ST.L_LAND, i32(b))        # another colour alone: allowed
    R.place_explorer(t.S, 1 * 10 + 1, ST.L_LAND, i32(c))        # a pair already: not allowed
    R.place_explorer(t.S, 2 * 10 + 1, ST.L_LAND, i32(c))
    R.place_explorer(t.S, 5 * 10 + 1, ST.L_LAND, i32(d))        # the sixth colour: allowed
    n = R.options_place_stacked(t.S, i32(4), i32(9), t.opts, False)
    assert sorted(int(t.opts[k, 1]) for k in range(n)) == sorted([b, d])
    assert all(int(t.opts[k, 0]) == 9 for k in range(n))


def test_x1_3_six_player_setup_stacks_exactly_the_last_explorers_of_seats_4_and_5():
    """X1.3: 42 explorers on 40 tiles; the two doubled tiles each hold the last explorer of the
    fifth or sixth seat on top of one explorer of another colour."""
    for game in range(3):
        t, events = _setup_logged(6, game=game)
        places = [ev for ev in events if ev["type"] == "place_explorer"]
        assert len(places) == 42
        assert [ev["seat"] for ev in places[-2:]] == [4, 5]
        nland = t.S[ST.HEX_NLAND:ST.HEX_NLAND + BD.N_HEX]
        assert (nland == 2).sum() == 2 and (nland == 1).sum() == 38
        for ev in places[-2:]:
            e, h = ev["f"][0], ev["f"][1]
            on = [x for x in range(60) if t.S[ST.EX_LOC + x] == ST.L_LAND and t.S[ST.EX_AT + x] == h]
            assert e in on and len(on) == 2
            other = [x for x in on if x != e][0]
            assert other // 10 != ev["seat"]
        # every earlier explorer went on an empty tile (B4.3)
        assert len({ev["f"][1] for ev in places[:-2]}) == 40


# ---------------------------------------------------------------- X1.3 under Challenge 1
INLAND = [int(h) for h in BD.ISLAND_HEXES if BD.DENSE_CAP[h] == 2]     # X2.1 allows 2
COAST = [int(h) for h in BD.ISLAND_HEXES if BD.DENSE_CAP[h] == 1]      # next to the outer sea


def _dense_six(stand: dict[int, list[int]], last: int = 9) -> Table:
    """6 players, Challenge 1, every tile laid; ``stand`` = {hex: [explorer ids]} on land;
    seat 4's explorer ``last`` is its only unplaced one (its last explorer, X1.3)."""
    t = Table.empty(6, challenges=(1,))
    t.fill_island()
    for h, ids in stand.items():
        for e in ids:
            R.place_explorer(t.S, e, ST.L_LAND, i32(h))
    t.set(ST.EX_LOC + 40 + last, ST.L_UNPLACED)
    return t


def _placed_exactly(t: Table, before, e: int, h: int):
    """The one placement changed only the explorer's place and its tile's count."""
    changed = set(map(int, (t.S != before).nonzero()[0]))
    assert changed == {ST.EX_LOC + e, ST.EX_AT + e, ST.HEX_NLAND + h}, changed
    assert t.where(e) == ("land", rc(h))


def test_x1_3_with_challenge_1_the_last_explorer_joins_an_inland_lone_explorer():
    """X1.3 with Challenge 1 (6 players): seat 4's last explorer may go only on an inland tile
    holding exactly one explorer of another colour -- not an empty tile, not its own colour's,
    not a pair, and not a coast tile with a lone explorer while such an inland tile exists."""
    a, b, c, d, empty = INLAND[:5]
    k = COAST[0]
    stand = {a: [1], b: [41], c: [11, 21], d: [51], k: [31]}
    t = _dense_six(stand)
    assert {h for _, h in t.options("place_explorer", 4)} == {a, d}
    for wrong in (empty, b, c, k):                 # the old reading put it on an empty tile
        bad = _dense_six(stand)
        with pytest.raises(EngineError):
            bad.place(4, 9, wrong)
    before = t.S.copy()
    t.place(4, 9, d)
    _placed_exactly(t, before, 49, d)
    assert t.S[ST.HEX_NLAND + d] == 2
    # not its last explorer: the usual Challenge 1 rule (any tile with room under X2.1)
    u = _dense_six(stand)
    u.set(ST.EX_LOC + 48, ST.L_UNPLACED)
    room = {h for h in BD.ISLAND_HEXES if u.S[ST.HEX_NLAND + h] < BD.DENSE_CAP[h]}
    assert {h for _, h in u.options("place_explorer", 4)} == room
    assert empty in room and b in room


def test_x1_3_with_challenge_1_and_no_inland_lone_explorer_any_lone_explorer_will_do():
    """X1.3 with Challenge 1: no inland tile holds exactly one explorer of another colour (its
    own colour inland, a pair inland), so the last explorer goes on any tile holding exactly
    one explorer of another colour -- here a coast tile, which then holds two although X2.1
    allows one there."""
    a, b = INLAND[:2]
    k, m = COAST[:2]
    stand = {a: [41], b: [11, 21], k: [31], m: [42]}
    t = _dense_six(stand)
    assert {h for _, h in t.options("place_explorer", 4)} == {k}
    before = t.S.copy()
    t.place(4, 9, k)
    _placed_exactly(t, before, 49, k)
    assert t.S[ST.HEX_NLAND + k] == 2 > BD.DENSE_CAP[k]


def test_x1_3_with_challenge_1_and_no_lone_explorer_at_all_the_usual_rule():
    """X1.3 with Challenge 1: no tile holds exactly one explorer of another colour, so the last
    explorer is placed by the usual rule (X2.1: a tile with room, here also its own
    colour's inland tile)."""
    a, b = INLAND[:2]
    k = COAST[0]
    stand = {a: [41], b: [11, 21], k: [42]}
    t = _dense_six(stand)
    room = {h for h in BD.ISLAND_HEXES if t.S[ST.HEX_NLAND + h] < BD.DENSE_CAP[h]}
    assert {h for _, h in t.options("place_explorer", 4)} == room
    assert a in room and b not in room and k not in room
    before = t.S.copy()
    t.place(4, 9, a)
    _placed_exactly(t, before, 49, a)


def test_x1_3_with_challenge_1_the_sixth_seat_too_but_not_the_fourth():
    """X1.3 names the fifth and sixth seats (0-based 4 and 5) only."""
    a = INLAND[0]
    for seat, limited in ((5, True), (3, False)):
        t = Table.empty(6, challenges=(1,))
        t.fill_island()
        R.place_explorer(t.S, 1, ST.L_LAND, i32(a))
        t.set(ST.EX_LOC + seat * 10 + 9, ST.L_UNPLACED)
        hexes = {h for _, h in t.options("place_explorer", seat)}
        assert (hexes == {a}) == limited and (len(hexes) == 40) != limited


def test_x1_3_in_a_logged_challenge_1_setup():
    """X1.3 with Challenge 1 in whole 6-player setups: the last explorers of seats 4 and 5
    each join exactly one explorer of another colour, inland where such a tile exists."""
    for game in range(4):
        t, events = _setup_logged(6, challenges=(1,), game=game)
        places = [ev for ev in events if ev["type"] == "place_explorer"]
        assert len(places) == 42 and [ev["seat"] for ev in places[-2:]] == [4, 5]
        for ev in places[-2:]:
            e, h = ev["f"][0], ev["f"][1]
            on = [x for x in range(60) if t.S[ST.EX_LOC + x] == ST.L_LAND
                  and t.S[ST.EX_AT + x] == h]
            assert len(on) == 2 and [x // 10 for x in on if x != e][0] != ev["seat"]


def test_x1_4_boats_go_round_the_seats_skipping_those_whose_allocation_is_placed():
    """X1.4 / X1.5: allocation 3,0,1,2 places boats in seat order 0,2,3, 0,3, 0."""
    t, events = _setup_logged(4, boats=(3, 0, 1, 2))
    assert _boat_order(events) == [0, 2, 3, 0, 3, 0]
    assert (t.S[ST.BOAT_HEX:ST.BOAT_HEX + ST.N_BOATS] >= 0).sum() == 6


@pytest.mark.parametrize("players,boats", [(2, (3, 3, 3, 3)), (3, (0, 0, 1)),
                                           (5, (2, 2, 2, 2, 2)), (6, (2, 2, 2, 2, 2, 2))])
def test_x1_5_boat_allocation_is_a_setting_for_every_player_count(players, boats):
    """X1.5: any per-seat list of 0-3 boats, at most 12 in all, is played as given."""
    t, events = _setup_logged(players, boats=boats)
    order = _boat_order(events)
    assert [order.count(s) for s in range(len(boats))] == list(boats)
    assert list(t.S[ST.BOATS_ALLOC:ST.BOATS_ALLOC + len(boats)]) == list(boats)


@pytest.mark.parametrize("players,boats", [(4, (2, 2, 2)), (4, (4, 2, 2, 2)), (5, (3, 3, 3, 3, 1)),
                                           (6, (-1, 2, 2, 2, 2, 2))])
def test_x1_5_bad_allocations_are_refused(players, boats):
    with pytest.raises(SettingsError, match="0-3"):
        Settings(players=players, boats=boats)


def test_x1_5_rules_allocation_is_the_default():
    assert Settings(players=5).boats == (1, 1, 2, 2, 2)
    assert Settings(players=6).boats == (1, 1, 1, 1, 2, 2)
    assert Settings(players=2).boats == (2, 2, 2, 2) and Settings(players=3).boats == (2, 2, 2)


# ---------------------------------------------------------------------------- tie-breaks
def _decide(score, rescued, value, turns, rule="chain", equal=False):
    win, step = decide(np.array([score]), np.array([rescued]), np.array([value]),
                       np.array([turns]), rule=rule, equal=equal)
    return win[0].tolist(), STEPS[int(step[0])]


def test_x1_6_each_step_of_the_chain():
    """X1.6: (a) most rescued, (b) with Challenge 3 only the value, (c) fewest turns, (d) shared;
    a single top score needs no tie-break under either rule."""
    assert _decide([9, 7, 9], [3, 3, 3], [9, 7, 9], [5, 5, 4], rule="shared") == \
        ([True, False, True], "shared")
    assert _decide([9, 12, 9], [2, 3, 3], [9, 12, 9], [5, 5, 5]) == ([False, True, False], "score")
    assert _decide([9, 7, 9], [2, 3, 3], [9, 7, 9], [5, 5, 5]) == ([False, False, True], "rescued")
    # Challenge 3: the score is the count, so the value decides next
    assert _decide([3, 3, 2], [3, 3, 2], [9, 11, 8], [5, 5, 5], equal=True) == \
        ([False, True, False], "value")
    # without Challenge 3 the value is skipped: fewest turns decides
    assert _decide([9, 9, 2], [3, 3, 2], [9, 9, 2], [6, 5, 5]) == ([False, True, False], "turns")
    assert _decide([9, 9, 2], [3, 3, 2], [9, 9, 2], [5, 5, 5]) == ([True, True, False], "shared")


def _final(t: Table, safe: dict[int, list[int]], turns: list[int], end_seat: int):
    """A finished game: ``safe[seat]`` = slots on a safe isle; ``turns`` per seat."""
    for seat, slots in safe.items():
        for slot in slots:
            t.explorer(seat, slot, "safe", "NW")
    for s, n in enumerate(turns):
        t.S[ST.TURNS + s] = n
    t.S[ST.TURN] = sum(turns)
    t.S[ST.OVER] = 1
    t.S[ST.END_REASON] = ST.E_VOLCANO
    t.S[ST.END_SEAT] = end_seat
    return t.record_frame().iloc[0]


def test_x1_6_rescued_decides_a_constructed_six_player_final():
    """X1.6 (a): seats 0 and 3 both score 6; seat 3 rescued two explorers (1 + 5), seat 0 one
    (a 6): seat 3 wins on explorers rescued."""
    rec = _final(Table.empty(6), {0: [9], 3: [1, 8]}, [5, 5, 5, 5, 4, 4], end_seat=3)
    assert rec["score_0"] == rec["score_3"] == 6
    assert str(rec["tiebreak"]) == "chain" and str(rec["decided_by"]) == "rescued"


def test_x1_6_fewest_turns_decides_when_seats_after_the_end_seat_had_one_turn_fewer():
    """X1.6 (c): the volcano came up on seat 2's turn, so seats 3-5 took one turn fewer; seats 1
    and 4 tie on score and on explorers rescued, and seat 4 wins on turns."""
    rec = _final(Table.empty(6), {1: [9], 4: [9]}, [6, 6, 6, 5, 5, 5], end_seat=2)
    assert str(rec["decided_by"]) == "turns"


def test_x1_6_shared_when_the_chain_cannot_split_them():
    """X1.6 (d): same score, same count, same turns: a shared win."""
    rec = _final(Table.empty(5), {1: [9], 2: [9]}, [6, 6, 6, 5, 5], end_seat=2)
    assert str(rec["decided_by"]) == "shared"


def test_b7_3_base_game_default_is_a_shared_win_and_the_chain_is_a_setting():
    """B7.3: with 2-4 players a tie is shared by default; the X1.6 chain is available."""
    assert Settings(players=4).tiebreak == "shared" and Settings(players=5).tiebreak == "chain"
    rec = _final(Table.empty(4), {0: [9], 2: [1, 8]}, [5, 5, 5, 5], end_seat=3)
    assert str(rec["tiebreak"]) == "shared" and str(rec["decided_by"]) == "shared"
    rec = _final(Table.empty(4, tiebreak="chain"), {0: [9], 2: [1, 8]}, [5, 5, 5, 5], end_seat=3)
    assert str(rec["decided_by"]) == "rescued"
    with pytest.raises(SettingsError, match="shared, chain"):
        Settings(players=4, tiebreak="coin")


def test_b7_3_two_player_tie_break_sums_both_colours():
    """B4.5 / B7.3: with 2 players a player's keys are the sums over both of their colours."""
    t = Table.empty(2, tiebreak="chain")
    # player 0 = seats 0, 2: 6 + 0 from 1 explorer; player 1 = seats 1, 3: 1 + 5 from 2
    rec = _final(t, {0: [9], 1: [1], 3: [8]}, [5, 5, 5, 5], end_seat=3)
    assert str(rec["decided_by"]) == "rescued"
