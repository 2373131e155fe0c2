"""Scenario tests for Challenge 6, Overpopulated (RULES.md X6.1-X6.6): hand-built positions,
one action, the exact expected result."""
from __future__ import annotations

import pytest

from support.harness import STOP, EngineError, Table, i32, mv, rc
from simulator import board as BD
from simulator import rules as R
from simulator import state as ST
from play.settings import Settings, SettingsError


def test_x6_1_everyone_keeps_ten_explorers_and_gets_two_boats():
    """X6.1: with Challenge 6 no explorer is removed and every seat places 2 boats."""
    for players in (5, 6):
        t = Table(players, strategy="random", challenges=(6,)).log_on(200)
        t.setup()
        for seat in range(players):
            values = sorted(int(t.S[ST.EX_VALUE + seat * 10 + k]) for k in range(10)
                            if t.S[ST.EX_LOC + seat * 10 + k] == ST.L_LAND)
            assert values == [1, 1, 1, 2, 2, 3, 3, 4, 5, 6]
        boats = [ev["seat"] for ev in t.events() if ev["type"] == "place_boat"]
        assert [boats.count(s) for s in range(players)] == [2] * players


def test_x6_1_challenge_6_needs_five_or_six_players():
    with pytest.raises(SettingsError, match="needs 5 or 6 players"):
        Settings(players=4, challenges=(6,))
    assert Settings(players=5, challenges=(6,)).boats == (2, 2, 2, 2, 2)


def test_x6_2_once_every_tile_is_occupied_explorers_join_a_lone_explorer_of_another_colour():
    """X6.2: a 6-player setup puts the first 40 explorers on empty tiles, then 20 more on
    tiles holding one explorer of another colour: no tile with 3, none with two of a colour."""
    t = Table(6, strategy="random", challenges=(6,)).log_on(200)
    t.setup()
    places = [ev for ev in t.events() if ev["type"] == "place_explorer"]
    assert len(places) == 60 and len({ev["f"][1] for ev in places[:40]}) == 40
    nland = t.S[ST.HEX_NLAND:ST.HEX_NLAND + BD.N_HEX]
    assert (nland[BD.ISLAND_HEXES] == 2).sum() == 20 and nland.max() == 2
    for h in BD.ISLAND_HEXES:
        on = [e for e in range(60) if t.S[ST.EX_LOC + e] == ST.L_LAND and t.S[ST.EX_AT + e] == h]
        assert len({e // 10 for e in on}) == len(on)
    # the options once every tile is occupied
    t2 = Table.empty(5, challenges=(6,))
    t2.fill_island()
    hexes = [int(h) for h in BD.ISLAND_HEXES]
    for k, h in enumerate(hexes):
        R.place_explorer(t2.S, (k % 5) * 10 + k // 5, ST.L_LAND, i32(h))   # seat k % 5
    assert R.options_place_explorer(t2.S, i32(0), i32(9), t2.opts, False) == 0
    n = R.options_place_stacked(t2.S, i32(0), i32(9), t2.opts, False)
    assert sorted(int(t2.opts[k, 1]) for k in range(n)) == \
        sorted(h for k, h in enumerate(hexes) if k % 5 != 0)


def _dense_overpopulated(leave_empty: bool) -> tuple[Table, list[int]]:
    """6 players, Challenges 1 and 6: tile ``k`` of the island holds explorer ``(k % 6) * 10 +
    k // 6`` (seat k % 6); with ``leave_empty`` the last tile stays empty. Tile 1 holds a
    second explorer, of seat 2: a pair. Seat 0's explorer 9 is still to be placed."""
    t = Table.empty(6, challenges=(1, 6))
    t.fill_island()
    hexes = [int(h) for h in BD.ISLAND_HEXES]
    for k, h in enumerate(hexes[:-1] if leave_empty else hexes):
        R.place_explorer(t.S, (k % 6) * 10 + k // 6, ST.L_LAND, i32(h))
    R.place_explorer(t.S, 29, ST.L_LAND, i32(hexes[1]))
    t.set(ST.EX_LOC + 9, ST.L_UNPLACED)
    return t, hexes


def test_x6_2_with_challenge_1_every_tile_occupied_never_onto_ones_own_colour():
    """X6.2 with Challenges 1 and 6: once every tile holds an explorer, X6.2's limits govern
    every placement, inland tiles included: only a tile holding one explorer of another
    colour; an inland tile holding one's own explorer is refused (the old reading allowed it
    under X2.1's two-per-inland-tile room), and a coast tile holding one of another colour is
    allowed (X6.2's 2 per tile, not X2.1's 1)."""
    t, hexes = _dense_overpopulated(leave_empty=False)
    own = [h for k, h in enumerate(hexes) if k % 6 == 0]
    own_inland = [h for h in own if BD.DENSE_CAP[h] == 2]
    assert own_inland, "the layout needs one of seat 0's tiles inland"
    want = {h for k, h in enumerate(hexes) if k % 6 != 0 and k != 1}
    assert {h for _, h in t.options("place_explorer", 0)} == want
    for wrong in (own_inland[0], hexes[1]):
        bad, _ = _dense_overpopulated(leave_empty=False)
        with pytest.raises(EngineError):
            bad.place(0, 9, wrong)
    coast = [h for h in want if BD.DENSE_CAP[h] == 1][0]
    before = t.S.copy()
    t.place(0, 9, coast)
    changed = set(map(int, (t.S != before).nonzero()[0]))
    assert changed == {ST.EX_LOC + 9, ST.EX_AT + 9, ST.HEX_NLAND + coast}
    assert t.where(9) == ("land", rc(coast)) and t.S[ST.HEX_NLAND + coast] == 2


def test_x6_2_with_challenge_1_while_a_tile_is_empty_x2_1_caps_govern():
    """X6.2 with Challenge 1: while some tile is still empty, "as usual" means X2.1's caps:
    two per inland tile, any colours -- one's own colour's inland tile included -- and the
    empty tile; no coast tile that already holds one."""
    t, hexes = _dense_overpopulated(leave_empty=True)
    room = {h for h in hexes if t.S[ST.HEX_NLAND + h] < BD.DENSE_CAP[h]}
    assert {h for _, h in t.options("place_explorer", 0)} == room
    own_inland = [h for k, h in enumerate(hexes[:-1]) if k % 6 == 0 and BD.DENSE_CAP[h] == 2]
    assert hexes[-1] in room and own_inland[0] in room
    before = t.S.copy()
    t.place(0, 9, own_inland[0])
    assert t.S[ST.HEX_NLAND + own_inland[0]] == 2
    assert set(map(int, (t.S != before).nonzero()[0])) == \
        {ST.EX_LOC + 9, ST.EX_AT + 9, ST.HEX_NLAND + own_inland[0]}


def test_x6_6_x1_3_does_not_apply_under_challenge_6():
    """X6.6: under Challenge 6 the last explorer of seat 4 is placed by X6.2, not X1.3: with a
    tile still empty it may go there."""
    t = Table.empty(6, challenges=(6,))
    t.fill_island()
    a, b = (int(h) for h in BD.ISLAND_HEXES[:2])
    R.place_explorer(t.S, 1, ST.L_LAND, i32(a))
    t.set(ST.EX_LOC + 49, ST.L_UNPLACED)
    assert {h for _, h in t.options("place_explorer", 4)} == \
        {int(h) for h in BD.ISLAND_HEXES} - {a}
    t.place(4, 9, b)
    assert t.where(49) == ("land", rc(b))


def _sinking_table():
    """Seat 2 is to sink the tile at (3,4), on which explorers of seats 1 and 2 stand."""
    t = Table.empty(5, challenges=(6,)).log_on(100)
    t.clear_island()
    t.land(9, 5, "mountain", "wind")
    return t


def test_x6_3_bonus_point_in_turn_order_after_the_sinking_before_the_roll():
    """X6.3 / X6.6: the whale tile sinks under explorers of seats 2 and 1 (seat 2 sinks it):
    the whale is placed, then seat 2 is asked first (it swims one hex), then seat 1 (it
    passes); only then the creature roll."""
    t = _sinking_table()
    t.land(3, 4, "beach", "whale")
    a = t.explorer(2, 9, "land", (3, 4))
    b = t.explorer(1, 9, "land", (3, 4))
    t.set(ST.CUR_SEAT, 2)
    t.script(2, [STOP, mv(a, (2, 4))])           # (the only sinkable tile is not asked)
    t.script(1, [STOP])
    t.set_die("whale")
    t.play_turn()
    types = [(ev["type"], ev["seat"]) for ev in t.events()]
    sink = types.index(("sink", 2))
    assert types[sink + 1] == ("bonus", 2) and types[sink + 2][0] == "roll"
    assert t.where(a) == ("sea", (2, 4)) and t.swam(a)
    assert t.where(b) == ("sea", (3, 4))
    assert t.creature_at("whale", 0) == (3, 4)                 # placed, then stayed
    assert t.script_used(1) == 1                          # seat 1 was asked, and passed
    assert t.record()["bonus_moves"] == 1


def test_x6_3_no_bonus_for_swimmers_a_shark_tile_ate():
    """X6.3: the shark tile's effect comes first: its swimmers are eaten, nobody is asked."""
    t = _sinking_table()
    t.land(3, 4, "beach", "shark")
    a = t.explorer(2, 9, "land", (3, 4))
    b = t.explorer(1, 9, "land", (3, 4))
    t.set(ST.CUR_SEAT, 2)
    t.script(2, [STOP])
    t.script(1, [])
    t.play_turn()
    assert t.fate(a) == "shark" and t.fate(b) == "shark"
    assert "bonus" not in [ev["type"] for ev in t.events()]
    assert t.script_used(1) == 0


def test_x6_6_bonus_point_moves_an_explorer_from_the_tile_never_a_boat():
    """X6.6: the bonus options are the seat's explorers from the sunk tile only: not its other
    explorers, not a boat it controls; a boat-tile passenger may step out of the boat."""
    t = _sinking_table()
    t.land(3, 4, "beach", "boat")
    a = t.explorer(2, 9, "land", (3, 4))
    other = t.explorer(2, 8, "sea", (6, 6))
    t.boat(5, 0, 2)
    t.explorer(2, 7, "boat", 5)
    t.set(ST.CUR_SEAT, 2)
    t.sink(2)                                     # the only sinkable tile: (3,4)
    assert t.where(a)[0] == "boat"
    W = t.W
    n = R.options_bonus_pieces(t.S, i32(2), W, t.opts)
    rows = [tuple(int(x) for x in t.opts[k]) for k in range(n)]
    assert rows == [STOP, (ST.MV_EXPLORER, a, -1, -1)]
    assert other not in [r[1] for r in rows]


def test_x6_4_x6_5_boats_return_to_the_supply_and_a_boat_tile_takes_a_free_boat():
    """X6.4 / R5: a whirlpool sends a boat back to the supply; X6.5 / R6: with all 12 boats
    out (6 players, 2 each), a boat tile takes an unoccupied boat from the board."""
    t = Table.empty(6, challenges=(6,))
    spots = [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8), (12, 2), (12, 3),
             (12, 4), (12, 5), (12, 6)]
    for b, x in enumerate(spots):
        t.boat(b, *x)
    t.land(3, 4, "beach", "boat")
    e = t.explorer(1, 0, "land", (3, 4))
    t.sink(1, (3, 4), choices=[(4,)])
    assert t.boat_hex(4) == (3, 4) and t.passengers(4) == [e]
    t.land(3, 5, "beach", "whirlpool")
    t.sink(2, (3, 5))
    assert t.boat_hex(4) == "supply" and t.fate(e) == "whirlpool"
