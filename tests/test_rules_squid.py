"""Scenario tests for the Giant Squid (RULES.md X7.1-X7.8): hand-built positions, one action,
the exact expected result."""
from __future__ import annotations

import pytest

from support.harness import BD, H, Table, i32, nbrs, rc, tile
from simulator import rules as R
from simulator.rules import paths as PA
from simulator import state as ST
from play.settings import Settings, SettingsError
from test_rules_base import sea_reach


def squid_table(**kw) -> Table:
    """Squid in play, an all-sea board (tests lay the land they need)."""
    t = Table.empty(4, squid=True, **kw)
    t.clear_island()
    return t


def next_to_land(t: Table, h: tuple) -> bool:
    return any(t.terrain(x) is not None and t.S[ST.HEX_NLAND + H(*x)] > 0 for x in nbrs(*h))


def squid_events(t: Table) -> list[list[int]]:
    return [e["f"] for e in t.events() if e["type"] == "squid"]


# ============================================================================ X7.1
def test_x7_1_whale_tile_brings_a_squid_next_to_land_which_takes_one_explorer():
    """X7.1: the whale tile puts a whale on its hex and the revealer places a squid on an
    unoccupied sea hex next to land; next to a tile with explorers, it removes one of them
    (the revealer's choice)."""
    t = squid_table().log_on()
    t.land(3, 4, "beach", "whale")
    t.land(3, 5, "forest", "wind")
    x = t.explorer(2, 9, "land", (3, 5))
    y = t.explorer(3, 9, "land", (3, 5))
    t.sink(0, (3, 4), choices=[(H(2, 5),), (y,)])
    assert t.creature_at("whale", 0) == (3, 4) and t.creature_at("squid", 0) == (2, 5)
    assert t.fate(y) == "squid" and t.where(x) == ("land", (3, 5))
    assert squid_events(t) == [[0, H(2, 5), 0, y, 1, 0, 0]]      # no whale removed (mask 0)
    rec = t.record()
    assert rec["squid_placed"] == 1 and rec["lost_squid_3"] == 1 and rec["lost_3"] == 1


def test_x7_1_squid_goes_only_on_unoccupied_sea_next_to_land():
    """X7.1 / R19: the squid's hexes are unoccupied (no boat, swimmer, creature, dolphin,
    squid) sea hexes adjacent to a land tile -- with or without explorers on it."""
    t = squid_table()
    t.land(3, 5, "forest", "wind")
    t.boat(0, 2, 5)
    t.creature("shark", 0, 4, 5)
    t.explorer(0, 9, "sea", (3, 6))
    got = {h for (h,) in t.options("place_squid")}
    around = {H(*x) for x in nbrs(3, 5) if t.terrain(x) is None}
    assert got == around - {H(2, 5), H(4, 5), H(3, 6)}


def test_x7_8_no_whale_into_play_no_squid():
    """X7.8: a whale tile brings a squid only when a whale actually came into play: with the
    whale supply empty nothing is placed."""
    t = squid_table()
    for k in range(5):
        t.creature("whale", k, 11, 2 + k)
    t.land(3, 4, "beach", "whale")
    t.sink(0, (3, 4))
    assert t.creatures("squid") == [] and t.record()["squid_placed"] == 0


def test_x7_8_squid_supply_runs_out():
    """X7.1 / B3 supply limits: with all 5 squid on the board the whale tile places only its
    whale."""
    t = squid_table()
    for k in range(5):
        t.creature("squid", k, 11, 2 + k)
    t.land(3, 4, "beach", "whale")
    t.sink(0, (3, 4))
    assert t.creature_at("whale", 0) == (3, 4) and t.record()["squid_placed"] == 0


# ============================================================================ X7.2
def test_x7_2_the_die_whale_face_may_move_a_squid_instead():
    """X7.2: on the creature die's whale face the roller may move a squid (up to 3)."""
    t = squid_table()
    t.creature("whale", 0, 11, 2)
    t.creature("squid", 0, 1, 3)
    assert t.options("creature_piece", creature=ST.WHALE) == [(ST.WHALE, 0), (ST.SQUID, 0)]
    t.roll_step(1, "whale", (ST.SQUID, 0, (1, 6)))
    assert t.creature_at("squid", 0) == (1, 6)


def test_x7_2_move_whale_tile_moves_a_squid_to_any_unoccupied_hex_and_it_attacks():
    """X7.2 / X7.4: the move-whale tile may send a squid to any unoccupied sea hex; once there
    it removes one explorer from an adjacent land tile."""
    t = squid_table().log_on()
    t.land(3, 5, "forest", "wind")
    x = t.explorer(2, 9, "land", (3, 5))
    t.creature("whale", 0, 11, 2)
    t.creature("squid", 0, 1, 3)
    t.hand(0, "move_whale")
    rows = t.options("play_tile", 0)
    assert (ST.B_MOVE_WHALE, 0, -1, ST.SQUID) in rows and (ST.B_MOVE_WHALE, 0, -1, ST.WHALE) in rows
    dests = {r[2] for r in t.options("tile_dest", 0, creature=("move_whale", 0, "squid"))}
    assert H(2, 5) in dests and H(11, 2) not in dests
    t.play_tile(0, tile("move_whale", 0, (2, 5), kind="squid"), (x,))
    assert t.creature_at("squid", 0) == (2, 5) and t.fate(x) == "squid"
    assert t.creature_at("whale", 0) == (11, 2)


def test_x7_2_a_squid_that_stays_still_attacks():
    """X7.2 / X7.4: staying put counts as a squid move: it still removes an explorer."""
    t = squid_table()
    t.land(3, 5, "forest", "wind")
    x = t.explorer(2, 9, "land", (3, 5))
    t.creature("squid", 0, 2, 5)
    t.roll_step(1, "whale", (ST.SQUID, 0, (2, 5)))
    assert t.creature_at("squid", 0) == (2, 5) and t.fate(x) == "squid"


def test_r21_a_squid_may_stay_even_when_creatures_must_move():
    """R21: with creatures_must_move a squid may still stay (X7.2: staying is a move)."""
    t = squid_table(creatures_must_move=True)
    t.creature("squid", 0, 1, 3)
    assert H(1, 3) in {x[2] for x in t.options("creature", creature=ST.SQUID)}


# ============================================================================ X7.3
def test_x7_3_squid_stops_next_to_explorers_on_land_at_occupied_boats_and_whales():
    """X7.3: a moving squid stops on entering a hex next to a land tile holding explorers, a
    hex with an occupied boat or a hex with a whale (R12: no path goes on from there)."""
    t = squid_table()
    t.land(3, 4, "forest", "wind")
    t.explorer(0, 9, "land", (3, 4))
    t.boat(0, 1, 6)
    t.explorer(1, 9, "boat", 0)
    t.creature("whale", 0, 0, 3)
    t.creature("squid", 0, 1, 4)
    stop = {rc(h) for h in range(BD.N_HEX)
            if rc(h) in {(1, 6), (0, 3)} or next_to_land(t, rc(h))}
    want = sea_reach(t, (1, 4), 3, stop=stop) | {(1, 4)}
    got = {x[2] for x in t.options("creature", creature=ST.SQUID)}
    assert got == {H(*x) for x in want}


def test_x7_3_an_empty_boat_does_not_stop_a_squid():
    """X7.3: only an occupied boat stops a squid."""
    t = squid_table()
    t.boat(0, 1, 5)
    assert not PA._stops(t.S, R.MT_SQUID, i32(H(1, 5)))
    t.explorer(0, 9, "boat", 0)
    assert PA._stops(t.S, R.MT_SQUID, i32(H(1, 5)))


# ============================================================================ X7.4
def test_x7_4_squid_removes_a_whale_in_its_hex_then_one_explorer():
    """X7.4: after its move a squid first removes a whale in its hex, then one explorer from an
    adjacent land tile."""
    t = squid_table().log_on()
    t.land(3, 5, "forest", "wind")
    x = t.explorer(2, 9, "land", (3, 5))
    t.creature("whale", 1, 2, 4)
    t.creature("squid", 0, 1, 4)
    t.creature_move(1, "squid", 0, (2, 4))
    assert t.creature_at("whale", 1) == "gone" and t.fate(x) == "squid"
    assert squid_events(t)[-1][:4] == [0, H(2, 4), 1 << 1, x]       # whale 1 (bit mask)


def test_x7_4_squid_removes_every_whale_in_its_hex():
    """X7.4 (a RULES.md ruling): a squid ending its move in a hex with two whales removes
    both -- a whale and a squid never rest in one hex -- then takes one explorer. The other
    pieces stay where they were."""
    t = squid_table().log_on()
    t.land(3, 5, "forest", "wind")
    x = t.explorer(2, 9, "land", (3, 5))
    t.creature("whale", 0, 2, 4)
    t.creature("whale", 3, 2, 4)
    t.creature("whale", 1, 6, 6)                  # elsewhere: stays
    t.creature("squid", 0, 1, 4)
    t.creature("squid", 2, 2, 4)                  # a squid sharing the hex is not touched
    before = t.S.copy()
    t.creature_move(1, "squid", 0, (2, 4))
    assert t.creature_at("whale", 0) == t.creature_at("whale", 3) == "gone"
    assert t.creature_at("whale", 1) == (6, 6)
    assert t.creature_at("squid", 0) == t.creature_at("squid", 2) == (2, 4)
    assert t.fate(x) == "squid"
    assert squid_events(t) == [[0, H(2, 4), (1 << 0) | (1 << 3), x, 0, 0, 0]]
    assert t.S[ST.HEX_NCR + ST.WHALE * BD.N_HEX + H(2, 4)] == 0
    assert t.S[ST.HEX_NCR + ST.SQUID * BD.N_HEX + H(2, 4)] == 2
    # nothing else changed: only the two whales, the squid that moved, the explorer
    changed = set(map(int, (t.S != before).nonzero()[0]))
    cr = lambda k, n: ST.CR_HEX + k * ST.CR_SLOTS + n                      # noqa: E731
    allowed = {cr(ST.WHALE, 0), cr(ST.WHALE, 3), cr(ST.SQUID, 0),
               ST.HEX_NCR + ST.WHALE * BD.N_HEX + H(2, 4),
               ST.HEX_NCR + ST.SQUID * BD.N_HEX + H(1, 4),
               ST.HEX_NCR + ST.SQUID * BD.N_HEX + H(2, 4),
               ST.EX_LOC + x, ST.EX_AT + x, ST.EX_FATE + x, ST.HEX_NLAND + H(3, 5)}
    assert changed <= allowed, sorted(changed - allowed)


def test_x7_4_the_mover_chooses_one_explorer_from_a_boat_or_the_land_not_both():
    """X7.4: in a hex with an occupied boat next to a land tile with an explorer, the mover
    removes exactly one: here the passenger, and the explorer on land stays."""
    t = squid_table()
    t.land(3, 5, "forest", "wind")
    x = t.explorer(2, 9, "land", (3, 5))
    t.boat(0, 2, 5)
    p = t.explorer(1, 9, "boat", 0)
    t.creature("squid", 0, 1, 4)
    assert {e for (e,) in t.options("squid_victim", creature=(2, 5))} == {x, p}
    t.creature_move(3, "squid", 0, (2, 5), choices=[(p,)])
    assert t.fate(p) == "squid" and t.where(x) == ("land", (3, 5))
    assert t.passengers(0) == [] and t.boat_hex(0) == (2, 5)


def test_x7_4_squid_with_nothing_to_take_takes_nothing():
    """X7.4: no explorer next to it and no occupied boat in its hex: nothing is removed."""
    t = squid_table().log_on()
    t.creature("squid", 0, 1, 4)
    t.creature_move(1, "squid", 0, (1, 6))
    assert squid_events(t) == [[0, H(1, 6), 0, -1, 0, 0, 0]]


# ============================================================================ X7.5
def test_x7_5_whale_entering_a_squid_hex_ends_its_move_and_removes_the_squid():
    """X7.5: a whale stops on entering a squid's hex (R12) and the squid leaves the game."""
    t = squid_table()
    t.creature("whale", 0, 1, 3)
    t.creature("squid", 0, 1, 4)
    assert PA._stops(t.S, R.MT_WHALE, i32(H(1, 4)))
    t.creature_move(1, "whale", 0, (1, 4))
    assert t.creature_at("squid", 0) == "gone" and t.creature_at("whale", 0) == (1, 4)


def test_x7_5_whale_entering_a_hex_with_two_squid_removes_both():
    """X7.5 (a RULES.md ruling): a whale entering a hex holding squid 1 and squid 2 ends its
    move there and removes every squid in it; a squid elsewhere stays."""
    t = squid_table().log_on()
    t.creature("whale", 3, 1, 3)
    t.creature("squid", 1, 1, 4)
    t.creature("squid", 2, 1, 4)
    t.creature("squid", 0, 6, 6)
    assert PA._stops(t.S, R.MT_WHALE, i32(H(1, 4)))
    t.creature_move(1, "whale", 3, (1, 4))
    assert t.creature_at("squid", 1) == t.creature_at("squid", 2) == "gone"
    assert t.creature_at("squid", 0) == (6, 6) and t.creature_at("whale", 3) == (1, 4)
    assert t.S[ST.HEX_NCR + ST.SQUID * BD.N_HEX + H(1, 4)] == 0
    assert [e["type"] for e in t.events()] == ["creature"]          # no squid moved: no attack


def test_x7_8_whale_into_squid_and_occupied_boat_removes_the_squid_then_capsizes():
    """X7.8: a whale entering a hex with a squid and an occupied boat removes the squid first,
    then capsizes the boat."""
    t = squid_table()
    t.boat(0, 1, 4)
    e = t.explorer(0, 9, "boat", 0)
    t.creature("squid", 0, 1, 4)
    t.creature("whale", 0, 1, 3)
    t.creature_move(1, "whale", 0, (1, 4))
    assert t.creature_at("squid", 0) == "gone"
    assert t.boat_hex(0) == "supply" and t.where(e) == ("sea", (1, 4))


# ============================================================================ X7.6
def test_x7_6_squid_only_no_whales_and_whale_tiles_place_squid():
    """X7.6: with squid instead of whales no whale is ever in play; a whale tile places a
    squid (X7.1) and the move-whale tile moves squid only."""
    t = Table.empty(4, squid=True, squid_only=True)
    assert all(t.creature_at("whale", k) == "gone" for k in range(5))
    t.clear_island()
    t.land(3, 4, "beach", "whale")
    t.land(9, 5, "forest", "wind")
    t.sink(0, (3, 4), choices=[(H(10, 5),)])
    assert t.creatures("whale") == [] and t.creature_at("squid", 0) == (10, 5)
    t.hand(1, "move_whale")
    rows = t.options("play_tile", 1)
    assert [r for r in rows if r[0] == ST.B_MOVE_WHALE] == [(ST.B_MOVE_WHALE, 0, -1, ST.SQUID)]


def test_x7_6_squid_only_needs_the_squid():
    """X7.6 is an option of the squid expansion: asking for it alone is bad input."""
    with pytest.raises(SettingsError, match="squid"):
        Settings(players=4, squid_only=True)


def test_x7_6_whale_defence_has_no_target():
    """X7.6 / X7.7: a whale-defence tile is never playable against squid: the squid moved into
    a hex with that player's boat takes a passenger, and no defence is asked."""
    t = squid_table(squid_only=True)
    t.hand(0, "defend_whale", "forest")
    t.boat(0, 1, 5)
    a = t.explorer(0, 9, "boat", 0)
    t.creature("squid", 0, 1, 3)
    t.creature_move(1, "squid", 0, (1, 5), defend={0: 1})
    assert t.fate(a) == "squid" and t.hand_of(0) == {"defend_whale": 1}


# ============================================================================ X7.7
def test_x7_7_whirlpool_removes_squid():
    """X7.7 / B3.4: a whirlpool removes squid from its hex and the adjacent sea."""
    t = squid_table()
    t.land(3, 4, "forest", "whirlpool")
    t.creature("squid", 0, 2, 4)
    t.sink(0, (3, 4))
    assert t.creature_at("squid", 0) == "gone"


def test_x7_7_defence_tiles_do_not_stop_squid():
    """X7.7: no defence window opens for a squid: the holder of a whale defence whose boat the
    squid reaches loses a passenger and keeps the tile."""
    t = squid_table()
    t.hand(2, "defend_whale")
    t.boat(0, 1, 5)
    a = t.explorer(2, 9, "boat", 0)
    t.creature("whale", 0, 11, 2)
    t.creature("squid", 0, 1, 3)
    t.creature_move(1, "squid", 0, (1, 5), defend={2: 1})
    assert t.fate(a) == "squid" and t.hand_of(2) == {"defend_whale": 1}
    assert not R.attack_pending(t.S, i32(ST.SQUID), i32(H(1, 5)))
