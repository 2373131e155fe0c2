"""Rule scenario tests of the base game (docs/RULES.md B2-B8, R1-R21) on the real engine.

Each test hand-builds a position with ``tests/support/harness.py`` (real state array, real
put/place functions), runs one real action (a compiled rules or engine function) and checks the
exact result. Test names cite the rule ids they cover. Hexes are ``(row, col)`` of ``board.json``.
Explorer ids are ``seat * 10 + slot``; slot values are 1,1,1,2,2,3,3,4,5,6 (B1.2).
"""
from __future__ import annotations

import numpy as np
import pytest
from support.harness import BACKS, BD, NO_TILE, ST, STOP, H, Table, mv, nbrs, rc, sail, tile

ISLAND = {rc(h) for h in BD.ISLAND_HEXES}
LAGOON = (6, 5)


# ---- an independent oracle for multi-hex moves (R12), from board.json neighbours only -----
def unchanged_but_the_roll(before, S) -> bool:
    """Nothing moved: the state equals ``before`` except the public record of the roll."""
    roll = [ST.ROLL_FACE, ST.ROLL_NUMBER]
    return np.array_equal(np.delete(before, roll), np.delete(S, roll))


def sea_reach(t: Table, start, maxd: int, stop=(), blocked=(), isles=False) -> set:
    """Hexes a piece at ``start`` can end on in 1..maxd steps of adjacent sea hexes: never
    entering ``blocked``, never going on from a ``stop`` hex, never re-entering a hex (R12).
    With ``isles`` the last step may go from an access hex onto its safe isle (R7)."""
    access = {acc: name for name, hexes in BD.BOARD_JSON["safe_isles"].items()
              for acc in map(tuple, hexes)}
    dist = {start: 0}
    frontier = [start]
    while frontier:
        nxt = []
        for u in frontier:
            if dist[u] >= maxd or (u != start and u in stop):
                continue
            for v in nbrs(*u):
                if v in dist or v in blocked or t.terrain(v) is not None:
                    continue
                dist[v] = dist[u] + 1
                nxt.append(v)
            if isles and u in access and access[u] not in dist:
                dist[access[u]] = dist[u] + 1
        frontier = nxt
    return set(dist) - {start}


def sea_nbrs(t: Table, r, c) -> set:
    return {x for x in nbrs(r, c) if t.terrain(x) is None}


def corridor() -> Table:
    """A full island with a straight channel of sunk tiles (4,4)-(4,5)-(4,6)-(4,7): every hex
    next to the channel is land except (4,8) and (3,8) at its east end."""
    t = Table.empty(4)
    t.fill_island("forest", "wind")
    for c in (4, 5, 6, 7):
        t.sea(4, c)
    return t


# =============================================================================== B2 board
def test_b2_1_board_133_hexes_40_tiles_lagoon_is_sea():
    """B2.1: 133 hexes; the 40 island hexes hold the tiles; 93 sea hexes incl. the lagoon."""
    t = Table(4)
    assert BD.N_HEX == 133 and len(ISLAND) == 40
    land = {rc(h) for h in range(BD.N_HEX) if t.terrain(rc(h)) is not None}
    assert land == ISLAND
    assert t.S[ST.TILES_LEFT] == 40
    assert t.terrain(LAGOON) is None and LAGOON not in ISLAND
    assert BD.N_HEX - len(land) == 93


def test_b2_2_safe_isle_only_from_its_access_hexes_one_mp():
    """B2.2: an isle is reached only from its 2 access hexes, 1 MP per landing (B5.2: at
    most 3 MP, so the 4th landing does not happen)."""
    t = Table.empty(4)
    a = t.explorer(0, 0, "sea", (1, 1))     # NW access
    b = t.explorer(0, 1, "sea", (2, 0))     # NW access
    c = t.explorer(0, 2, "sea", (1, 10))    # NE access
    d = t.explorer(0, 3, "sea", (2, 10))    # NE access
    x = t.explorer(0, 4, "sea", (1, 2))     # next to (1,1), not an access hex
    assert "NW" in t.move_dests(0, a) and "NW" in t.move_dests(0, b)
    assert "NE" in t.move_dests(0, c) and "NE" in t.move_dests(0, d)
    assert not {"NW", "NE", "SW", "SE"} & t.move_dests(0, x)
    t.step_move(0, [mv(a, "NW"), mv(b, "NW"), mv(c, "NE"), mv(d, "NE")])
    assert [t.where(e) for e in (a, b, c, d)] == [
        ("safe", "NW"), ("safe", "NW"), ("safe", "NE"), ("sea", (2, 10))]
    assert t.script_used(0) == 3 and t.S[ST.MP_LEFT] == 0


def test_b2_3_sunk_tile_becomes_sea():
    """B2.3: the hex of a sunk tile is sea: boats sail onto it, land explorers dive into it."""
    t = Table.empty(4)
    t.land(3, 5, "beach", "wind")
    t.land(3, 4, "forest", "wind")
    e = t.explorer(0, 0, "land", (3, 4))
    t.boat(0, 2, 5)
    assert (3, 5) not in t.boat_dests(0, 0)
    t.sink(1, (3, 5))
    assert t.terrain(3, 5) is None
    assert (3, 5) in t.boat_dests(0, 0)
    assert (3, 5) in t.move_dests(0, e)          # as a swimmer, not onto land
    t.move(0, mv(e, (3, 5)))
    assert t.where(e) == ("sea", (3, 5))


def test_b2_4_safe_explorers_never_moved_nor_attacked():
    """B2.4: explorers on a safe isle have no moves and creatures in the access hex do not
    touch them; creature and boat moves only ever go to sea hexes."""
    t = Table.empty(4)
    e = t.explorer(0, 9, "safe", "NW")
    t.creature("serpent", 0, 1, 2)
    t.creature("shark", 0, 2, 1)
    assert all(row[1] != e for row in t.options("move", 0)[1:])
    t.creature_move(1, "serpent", 0, (1, 1))
    t.creature_move(1, "shark", 0, (1, 1))
    assert t.where(e) == ("safe", "NW") and t.fate(e) == "none"
    t.boat(0, 2, 4)
    t.creature("whale", 0, 11, 5)
    for dests in (t.creature_dests("whale", 0), t.boat_dests(0, 0),
                  t.creature_dests("shark", 0)):
        assert all(isinstance(d, tuple) and t.terrain(d) is None for d in dests)


# =============================================================================== B3 tiles
def test_b3_1_whale_tile_places_a_whale_swimmers_unharmed():
    """B3.1: a whale from the supply goes on the tile's hex; its swimmers are unharmed."""
    t = Table.empty(4)
    t.land(3, 4, "beach", "whale")
    a = t.explorer(0, 9, "land", (3, 4))
    b = t.explorer(2, 9, "land", (3, 4))
    assert t.sink(1, (3, 4)) == BACKS["whale"]
    assert t.creatures("whale") == [(3, 4)] and t.creature_at("whale", 0) == (3, 4)
    assert t.where(a) == ("sea", (3, 4)) and t.where(b) == ("sea", (3, 4))
    assert t.hand_of(1) == {}


def test_b3_2_shark_tile_eats_every_swimmer_of_its_hex():
    """B3.2: a shark goes on the tile's hex and every swimmer there is eaten."""
    t = Table.empty(4)
    t.land(3, 4, "beach", "shark")
    a = t.explorer(0, 9, "land", (3, 4))
    b = t.explorer(3, 2, "land", (3, 4))
    other = t.explorer(0, 8, "sea", (2, 4))     # next door: untouched
    t.sink(1, (3, 4))
    assert t.creatures("shark") == [(3, 4)]
    assert t.fate(a) == t.fate(b) == "shark"
    assert t.where(a) == ("lost", None)
    assert t.where(other) == ("sea", (2, 4))


def test_b3_supply_limit_green_shark_tile_with_empty_supply_places_nothing():
    """B3 supply limits: a shark tile with no shark in the supply places nothing, so its
    swimmers are not eaten (4 sharks on the board, 2 removed from the game)."""
    t = Table.empty(4)
    for slot, (r, c) in enumerate([(0, 2), (0, 4), (12, 2), (12, 4)]):
        t.creature("shark", slot, r, c)
    t.remove_creature("shark", 4)
    t.remove_creature("shark", 5)
    t.land(3, 4, "beach", "shark")
    a = t.explorer(0, 9, "land", (3, 4))
    t.sink(1, (3, 4))
    assert t.where(a) == ("sea", (3, 4)) and t.fate(a) == "none"
    assert t.creatures("shark") == [(0, 2), (0, 4), (12, 2), (12, 4)]
    assert t.record()["back_shark"] == 1


def test_b3_supply_limit_green_whale_tile_with_empty_supply_places_nothing():
    """B3 supply limits: with all 5 whales out of the supply the whale tile places nothing."""
    t = Table.empty(4)
    for slot in range(5):
        t.remove_creature("whale", slot)
    t.land(3, 4, "beach", "whale")
    a = t.explorer(0, 9, "land", (3, 4))
    t.sink(1, (3, 4))
    assert t.creatures("whale") == [] and t.where(a) == ("sea", (3, 4))


def test_b3_3_boat_tile_boards_its_swimmers():
    """B3.3: a boat from the supply goes on the tile's hex and its swimmers (up to 3) board."""
    t = Table.empty(4)
    t.land(3, 4, "beach", "boat")
    a = t.explorer(0, 9, "land", (3, 4))
    b = t.explorer(2, 0, "land", (3, 4))
    t.sink(1, (3, 4))
    assert t.boat_at(3, 4) == 0
    assert sorted(t.passengers(0)) == [a, b]
    assert t.where(a) == ("boat", 0) and t.where(b) == ("boat", 0)


def test_b3_3_boat_tile_with_four_swimmers_the_revealer_chooses_three():
    """B3.3: with more than 3 swimmers the revealer (seat 2, who sank it) chooses who boards."""
    t = Table.empty(4)
    t.land(3, 4, "beach", "boat")
    swimmers = [t.explorer(0, 0, "land", (3, 4)), t.explorer(0, 1, "land", (3, 4)),
                t.explorer(1, 0, "land", (3, 4)), t.explorer(1, 1, "land", (3, 4))]
    assert swimmers == [0, 1, 10, 11]
    t.sink(2, (3, 4), choices=[(11,), (0,), (10,)])
    assert t.script_used(2) == 4                 # the sink and three boarding choices
    assert t.passengers(0) == [11, 0, 10]
    assert t.where(1) == ("sea", (3, 4))


def test_b3_4_whirlpool_clears_its_hex_and_adjacent_sea_only():
    """B3.4: swimmers, boats with passengers, empty boats and creatures in the tile's hex and
    every adjacent sea hex are removed; land tiles, their explorers and hexes further away are
    untouched. Removed boats go back to the supply (R5)."""
    t = Table.empty(4)
    t.clear_island()
    t.land(3, 5, "forest", "whirlpool")
    for x in [(3, 4), (3, 6), (4, 4)]:
        t.land(*x, "mountain", "wind")
    t.sea(4, 5)                                  # adjacent sea hexes: (2,4), (2,5), (4,5)
    on_tile = t.explorer(0, 0, "land", (3, 5))
    on_land = t.explorer(0, 1, "land", (3, 4))
    swim = t.explorer(1, 0, "sea", (2, 4))
    t.creature("whale", 0, 2, 4)
    t.boat(0, 2, 5)
    rider = t.explorer(2, 0, "boat", 0)
    t.creature("shark", 0, 2, 5)
    t.boat(1, 4, 5)                              # empty boat
    t.creature("serpent", 0, 4, 5)
    far_swim = t.explorer(3, 0, "sea", (2, 3))   # two hexes away
    t.creature("shark", 1, 1, 4)
    t.creature("whale", 1, 1, 5)
    t.sink(1, (3, 5))
    for e in (on_tile, swim, rider):
        assert t.fate(e) == "whirlpool"
    assert t.boat_hex(0) == "supply" and t.boat_hex(1) == "supply"
    assert [t.creature_at(k, 0) for k in ("whale", "shark", "serpent")] == ["gone"] * 3
    assert t.where(on_land) == ("land", (3, 4))
    assert [t.terrain(x) for x in [(3, 4), (3, 6), (4, 4)]] == ["mountain"] * 3
    assert t.where(far_swim) == ("sea", (2, 3))
    assert t.creature_at("shark", 1) == (1, 4) and t.creature_at("whale", 1) == (1, 5)


def test_b3_5_b5_7_b7_1_volcano_ends_the_game_with_no_creature_roll():
    """B3.5 / B5.7 / B7.1: revealing the volcano ends the game at once: no creature roll
    (the dice stream is untouched, the shark that the die would move stays), no next seat."""
    t = Table.empty(3, creatures_must_move=True)
    t.clear_island()
    t.land(3, 4, "mountain", "volcano")
    t.land(9, 5, "mountain", "wind")
    e = t.explorer(2, 9, "land", (3, 4))
    t.creature("shark", 0, 1, 5)
    t.set_die("shark")
    dice = int(t.rng[ST.RNG_DICE])
    t.set(ST.CUR_SEAT, 2)
    t.play_turn({2: [STOP, (H(3, 4),)]})     # no move, then sink the volcano
    assert t.over and t.end_reason == "volcano"
    assert t.S[ST.END_SEAT] == 2 and t.S[ST.CUR_SEAT] == 2
    assert int(t.rng[ST.RNG_DICE]) == dice
    assert t.creature_at("shark", 0) == (1, 5)
    assert t.where(e) == ("sea", (3, 4))


def test_b3_6_dolphin_tile_moves_own_swimmer_one_to_three_sea_hexes():
    """B3.6: the Dolphin tile moves one of the player's own swimmers 1 to 3 sea hexes."""
    t = Table.empty(4)
    t.hand(0, "dolphin", "beach")
    e = t.explorer(0, 9, "sea", (1, 5))
    t.explorer(1, 9, "sea", (11, 5))            # not seat 0's: never a target
    rows = t.options("play_tile", 0)
    assert rows[0] == NO_TILE
    assert {r[1] for r in rows[1:]} == {e}
    assert {rc(r[2]) for r in rows[1:]} == sea_reach(t, (1, 5), 3)
    assert (1, 8) in {rc(r[2]) for r in rows} and (1, 9) not in {rc(r[2]) for r in rows}
    t.play_tile(0, tile("dolphin", e, (1, 8)))
    assert t.where(e) == ("sea", (1, 8))
    assert t.hand_of(0) == {}


def test_b3_7_wind_tile_moves_a_controlled_boat_with_its_passengers():
    """B3.7: the Wind tile moves a boat the player controls 1 to 3 sea hexes; passengers ride."""
    t = Table.empty(4)
    t.hand(0, "wind", "beach")
    t.boat(0, 1, 5)
    a = t.explorer(0, 9, "boat", 0)
    b = t.explorer(1, 0, "boat", 0)             # tie: seat 0 still controls (B6.1)
    dests = {rc(r[2]) for r in t.options("play_tile", 0)[1:]}
    assert dests == sea_reach(t, (1, 5), 3)
    t.play_tile(0, tile("wind", 0, (1, 8)))
    assert t.boat_hex(0) == (1, 8) and t.passengers(0) == [a, b]
    assert t.hand_of(0) == {}


@pytest.mark.parametrize("back,kind", [("move_serpent", "serpent"), ("move_shark", "shark"),
                                       ("move_whale", "whale")])
def test_b3_8_b3_9_b3_10_move_creature_tile_to_any_unoccupied_sea_hex(back, kind):
    """B3.8-B3.10: a move-creature tile moves any creature of its kind to any unoccupied sea
    hex (no boat, no swimmer, no creature), however far, and never attacks."""
    t = Table.empty(4)
    t.hand(0, back, "forest")
    t.creature(kind, 0, 1, 5)
    t.boat(0, 1, 7)
    sw = t.explorer(1, 9, "sea", (0, 5))
    t.creature("whale" if kind != "whale" else "shark", 3, 2, 3)
    rows = t.options("play_tile", 0)
    assert rows[1:] == [(BACKS[back], 0, -1, ST.KIND_NAMES.index(kind))]   # then where to
    dests = {rc(r[2]) for r in t.options("tile_dest", 0, creature=(back, 0))}
    sea = {rc(h) for h in range(BD.N_HEX) if t.terrain(rc(h)) is None}
    assert dests == sea - {(1, 5), (1, 7), (0, 5), (2, 3)}
    t.play_tile(0, tile(back, 0, (11, 5)))
    assert t.creature_at(kind, 0) == (11, 5)
    assert t.where(sw) == ("sea", (0, 5))
    assert t.hand_of(0) == {}


def test_b3_8_move_serpent_tile_frees_the_boxed_in_lagoon_serpent():
    """B3.8: the move-serpent tile needs no path: the lagoon serpent ringed by land goes
    straight to an unoccupied sea hex."""
    t = Table.empty(4)
    t.fill_island("forest", "wind")
    t.hand(0, "move_serpent", "beach")
    t.creature("serpent", 0, *LAGOON)
    assert t.creature_dests("serpent", 0) == {LAGOON}
    t.play_tile(0, tile("move_serpent", 0, (12, 5)))
    assert t.creature_at("serpent", 0) == (12, 5)


def test_b3_11_shark_defence_played_against_another_players_shark():
    """B3.11: seat 1 moves a shark (die) into a hex with seat 0's swimmer; seat 0 plays its
    shark defence: the shark leaves the game and every swimmer there survives."""
    t = Table.empty(4)
    t.hand(0, "defend_shark", "mountain")
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(2, 9, "sea", (1, 5))         # another player's swimmer is saved too
    t.creature("shark", 0, 1, 7)
    t.creature_move(1, "shark", 0, (1, 5), defend={0: 1})
    assert t.script_used(0) == 1
    assert t.creature_at("shark", 0) == "gone"
    assert t.where(a) == ("sea", (1, 5)) and t.where(b) == ("sea", (1, 5))
    assert t.hand_of(0) == {}
    assert t.S[ST.HAND_N + 0] == 0


def test_b3_12_whale_defence_saves_the_boat_its_player_controls():
    """B3.12: seat 1 moves a whale 3 hexes into seat 0's boat; seat 0's whale defence removes
    the whale before it capsizes the boat."""
    t = Table.empty(4)
    t.hand(0, "defend_whale", "forest")
    t.boat(0, 1, 5)
    a = t.explorer(0, 9, "boat", 0)
    t.creature("whale", 0, 1, 8)
    t.creature_move(1, "whale", 0, (1, 5), defend={0: 1})
    assert t.creature_at("whale", 0) == "gone"
    assert t.boat_hex(0) == (1, 5) and t.passengers(0) == [a]
    assert t.hand_of(0) == {}


# =============================================================================== B4 setup
@pytest.mark.parametrize("seed", [1, 2])
def test_b4_1_serpents_on_starts_and_tiles_shuffled_onto_the_island(seed):
    """B4.1 (and the B3 tile table): 5 serpents on the serpent starts; the 40 tiles, 16 beach /
    16 forest / 8 mountain with the backs of B3.1-B3.12, lie on the island hexes at random."""
    t = Table(4, seed=seed)
    starts = sorted(tuple(x) for x in BD.BOARD_JSON["serpent_starts"])
    assert t.creatures("serpent") == starts
    counts = np.zeros((ST.N_BACKS, 3), int)
    for h in BD.ISLAND_HEXES:
        counts[t.S[ST.TILE_BACK + h], t.S[ST.HEX_TERRAIN + h]] += 1
    assert (counts == ST.BACK_COUNTS).all()
    assert list(counts.sum(axis=0)) == [16, 16, 8]
    other = Table(4, seed=seed + 10)
    assert not np.array_equal(t.S[ST.TILE_BACK:ST.TILE_BACK + BD.N_HEX],
                              other.S[ST.TILE_BACK:ST.TILE_BACK + BD.N_HEX])


def test_b4_2_seat_0_starts_and_play_goes_round_in_seat_order():
    """B4.2: seat 0 plays the first turn, then 1, 2, back to 0."""
    t = Table.empty(3)
    seats = []
    for _ in range(4):
        seats.append(int(t.S[ST.CUR_SEAT]))
        t.play_turn()
    assert seats == [0, 1, 2, 0]
    assert list(t.S[ST.TURNS:ST.TURNS + 3]) == [2, 1, 1]
    assert t.S[ST.CUR_SEAT] == 1


@pytest.mark.parametrize("players,seats", [(4, 4), (3, 3)])
def test_b4_3_b4_5_explorers_placed_one_at_a_time_one_per_empty_tile(players, seats):
    """B4.3 / B4.5: from seat 0, each seat in turn places one explorer on an empty land tile
    until all 10 of every seat are placed; with 3 players 10 tiles stay empty."""
    t = Table(players, strategy="random", seed=5).log_on()
    t.setup()
    ev = [x for x in t.events() if x["type"] == "place_explorer"]
    assert [x["seat"] for x in ev] == [i % seats for i in range(10 * seats)]
    hexes = [x["f"][1] for x in ev]
    assert len(set(hexes)) == len(hexes) == 10 * seats
    assert all(rc(h) in ISLAND for h in hexes)
    for e in range(10 * seats):
        assert t.where(e)[0] == "land"
    assert int((t.S[ST.HEX_NLAND:ST.HEX_NLAND + BD.N_HEX] == 0)[BD.ISLAND_HEXES].sum()) \
        == 40 - 10 * seats
    assert all(ev_["f"][0] // 10 == ev_["seat"] for ev_ in ev)


def test_b4_3_placement_options_are_empty_tiles_only():
    """B4.3: a tile that holds an explorer is no longer offered for placement."""
    t = Table(4)
    opts = t.options("place_explorer", 0)
    assert {rc(h) for _, h in opts} == ISLAND
    t.explorer(1, 0, "land", (3, 4))
    assert (3, 4) not in {rc(h) for _, h in t.options("place_explorer", 0)}


@pytest.mark.parametrize("players", [4, 3])
def test_b4_4_b4_5_boats_placed_two_each_in_seat_order_next_to_land(players):
    """B4.4 / B4.5: seat by seat, one boat at a time, 2 per seat: each on an empty sea hex next
    to a land tile, not the lagoon (its serpent), and empty."""
    t = Table(players, strategy="random", seed=11).log_on()
    t.setup()
    ev = [x for x in t.events() if x["type"] == "place_boat"]
    assert [x["seat"] for x in ev] == list(range(players)) * 2
    assert [x["f"][0] for x in ev] == list(range(2 * players))
    hexes = [rc(x["f"][1]) for x in ev]
    assert len(set(hexes)) == len(hexes) and LAGOON not in hexes
    for h in hexes:
        assert t.terrain(h) is None and any(t.terrain(n) is not None for n in nbrs(*h))
    assert all(t.passengers(b) == [] for b in range(2 * players))
    assert all(t.boat_hex(b) == "supply" for b in range(2 * players, 12))


def test_b4_4_r19_boat_placement_hexes():
    """B4.4 / R19: setup boats go on sea hexes next to land with no boat and no creature of any
    kind (dolphins and squid included); the lagoon is out while its serpent is there."""
    t = Table(4)
    coast = {rc(h) for h in range(BD.N_HEX)
             if t.terrain(rc(h)) is None and any(t.terrain(n) for n in nbrs(*rc(h)))}
    assert {rc(h) for (h,) in t.options("place_boat")} == coast - {LAGOON}
    t.boat(0, 2, 4)
    t.creature("whale", 0, 2, 5)
    t.creature("dolphin", 0, 2, 6)
    t.creature("squid", 0, 2, 7)
    got = {rc(h) for (h,) in t.options("place_boat")}
    assert got == coast - {LAGOON, (2, 4), (2, 5), (2, 6), (2, 7)}
    assert (1, 5) not in got                     # open sea, not next to land


def test_b4_5_two_players_sit_abab_each_seat_a_full_turn_scores_summed():
    """B4.5: 2 players play two colours as four seats A,B,A,B; each seat takes its own turn;
    the record scores each colour and a player's score is the sum of their two seats."""
    t = Table.empty(2)
    assert t.seats == 4 and list(t.S[ST.PLAYER_OF:ST.PLAYER_OF + 4]) == [0, 1, 0, 1]
    t.explorer(0, 9, "safe", "NW")              # 6 for player A, seat 0
    t.explorer(2, 8, "safe", "SE")              # 5 for player A, seat 2
    t.explorer(1, 7, "safe", "NE")              # 4 for player B, seat 1
    for _ in range(4):
        t.play_turn()
    assert list(t.S[ST.TURNS:ST.TURNS + 4]) == [1, 1, 1, 1]
    df = t.record_frame()
    assert [int(df[f"player_{s}"].iloc[0]) for s in range(4)] == [0, 1, 0, 1]
    assert [int(df[f"score_{s}"].iloc[0]) for s in range(4)] == [6, 4, 5, 0]
    by_player = {p: sum(int(df[f"score_{s}"].iloc[0]) for s in range(4)
                        if int(df[f"player_{s}"].iloc[0]) == p) for p in (0, 1)}
    assert by_player == {0: 11, 1: 4}


# =============================================================================== B5 turn
def test_b5_1_one_red_tile_in_step_1_its_movement_extra_to_the_3_mp():
    """B5.1: a red tile played in step 1 moves a swimmer, and step 2 still has all 3 MP."""
    t = Table.empty(4)
    t.hand(0, "dolphin", "beach")
    a = t.explorer(0, 0, "sea", (1, 5))
    b = t.explorer(0, 1, "sea", (11, 3))
    c = t.explorer(0, 2, "sea", (11, 5))
    d = t.explorer(0, 3, "sea", (11, 7))
    t.play_tile(0, tile("dolphin", a, (1, 8)))
    t.step_move(0, [mv(b, (11, 2)), mv(c, (11, 4)), mv(d, (11, 6))])
    assert [t.where(e)[1] for e in (a, b, c, d)] == [(1, 8), (11, 2), (11, 4), (11, 6)]


def test_b5_1_defence_tiles_are_not_played_in_step_1():
    """B5.1: only red non-defence tiles are playable in step 1."""
    t = Table.empty(4)
    t.hand(0, "defend_shark", "beach")
    t.hand(0, "defend_whale", "forest")
    t.explorer(0, 0, "sea", (1, 5))
    t.creature("shark", 0, 11, 5)
    assert t.options("play_tile", 0) == [NO_TILE]


def test_b5_2_at_most_three_movement_points():
    """B5.2: up to 3 MP, each moving one piece one step; a 4th move is not made."""
    t = Table.empty(4)
    sw = [t.explorer(0, k, "sea", (11, 2 + 2 * k)) for k in range(4)]
    t.step_move(0, [mv(e, (12, 2 + 2 * k)) for k, e in enumerate(sw)])
    assert [t.where(e)[1] for e in sw] == [(12, 2), (12, 4), (12, 6), (11, 8)]
    assert t.script_used(0) == 3 and t.S[ST.MP_LEFT] == 0


def test_b5_2_unused_movement_points_are_lost():
    """B5.2: stopping early ends step 2; the unused MP are not kept."""
    t = Table.empty(4)
    e = t.explorer(0, 0, "sea", (11, 2))
    f = t.explorer(0, 1, "sea", (11, 5))
    t.step_move(0, [mv(e, (12, 2)), STOP, mv(f, (11, 6))])
    assert t.where(e) == ("sea", (12, 2)) and t.where(f) == ("sea", (11, 5))
    assert t.script_used(0) == 2 and t.S[ST.MP_LEFT] == 0


def test_b5_3_sinking_a_tile_is_mandatory():
    """B5.3: step 3 offers no 'sink nothing'; a strategy that takes the first option still
    removes a tile."""
    t = Table.empty(4)
    rows = t.options("sink")
    assert rows and all(t.terrain(rc(h)) is not None for (h,) in rows)
    t.sink(0)                                    # the strategy has no scripted choice
    assert t.S[ST.TILES_LEFT] == 39
    assert t.terrain(rc(rows[0][0])) is None


def test_b5_4_creature_roll_is_mandatory_and_moves_the_rolled_kind():
    """B5.4: step 4 rolls the die and moves a creature of the rolled kind (here: shark, with
    creatures_must_move so that a move is visible); the other kinds stay."""
    t = Table.empty(4, creatures_must_move=True)
    t.creature("serpent", 0, 1, 3)
    t.creature("shark", 0, 1, 6)
    t.creature("whale", 0, 11, 5)
    assert t.roll_step(0, kind="shark", choice=("shark", 0, (0, 6))) == "shark"
    assert t.creature_at("shark", 0) == (0, 6)
    assert t.creature_at("serpent", 0) == (1, 3) and t.creature_at("whale", 0) == (11, 5)


def test_b5_4_roll_of_a_kind_not_on_the_board_moves_nothing():
    """B5.4: if no creature of the rolled kind is on the board nothing moves."""
    t = Table.empty(4, creatures_must_move=True)
    t.creature("shark", 0, 1, 6)
    before = t.S.copy()
    assert t.roll_step(0, kind="whale") == "whale"
    assert unchanged_but_the_roll(before, t.S)


def test_b5_5_lowest_terrain_touching_the_sea_is_eligible():
    """B5.5: only tiles of the lowest remaining terrain that touch the sea may sink: the
    coastal beach (3,4), not the inland beach (4,5), and no forest."""
    t = Table.empty(4)
    t.fill_island("forest", "wind")
    t.land(3, 4, "beach", "wind")
    t.land(4, 5, "beach", "wind")
    assert [rc(h) for (h,) in t.options("sink")] == [(3, 4)]


def test_b5_5_landlocked_beaches_are_all_eligible():
    """B5.5 exception: when no beach touches the sea, every beach is eligible."""
    t = Table.empty(4)
    t.fill_island("forest", "wind")
    t.land(4, 5, "beach", "wind")
    t.land(8, 5, "beach", "wind")
    assert sorted(rc(h) for (h,) in t.options("sink")) == [(4, 5), (8, 5)]


def test_b5_5_next_terrain_once_the_beaches_are_gone():
    """B5.5: with no beach left, the forests touching the sea are eligible (not the inland
    ones, not the mountains)."""
    t = Table.empty(4)
    t.fill_island("mountain", "wind")
    t.land(3, 4, "forest", "wind")
    t.land(4, 4, "forest", "wind")               # inland
    t.land(9, 7, "forest", "wind")
    assert sorted(rc(h) for (h,) in t.options("sink")) == [(3, 4), (9, 7)]


def test_b5_6_sunk_explorers_swim_and_a_red_back_goes_hidden_into_the_hand():
    """B5.6: the tile's explorers become swimmers in its hex; a red back goes into the
    sinker's hidden hand (its terrain public), nothing is resolved."""
    t = Table.empty(4)
    t.land(3, 4, "beach", "move_whale")
    a = t.explorer(0, 0, "land", (3, 4))
    b = t.explorer(2, 5, "land", (3, 4))
    t.sink(1, (3, 4))
    assert t.where(a) == ("sea", (3, 4)) and t.where(b) == ("sea", (3, 4))
    assert not t.swam(a) and not t.swam(b)
    assert t.hand_of(1) == {"move_whale": 1}
    assert t.S[ST.HAND_N + 1] == 1
    assert list(t.S[ST.HAND_TERRAIN + 3:ST.HAND_TERRAIN + 6]) == [1, 0, 0]
    assert t.S[ST.TILE_BACK + H(3, 4)] == -1
    assert t.creatures("whale") == []
    assert t.record()["back_move_whale"] == 1


# =============================================================================== B6 moving
def test_b6_1_own_explorers_controlled_and_empty_boats_only():
    """B6.1: a seat moves its own explorers, boats it controls (most explorers aboard; every
    tied seat controls) and empty boats."""
    t = Table.empty(4)
    t.boat(0, 1, 3)                              # empty
    t.boat(1, 1, 6)                              # seat 1 has 2 aboard, seat 0 has 1
    t.explorer(1, 0, "boat", 1)
    t.explorer(1, 1, "boat", 1)
    t.explorer(0, 0, "boat", 1)
    t.boat(2, 11, 5)                             # tie 1-1
    t.explorer(0, 1, "boat", 2)
    t.explorer(2, 0, "boat", 2)
    t.explorer(3, 0, "sea", (11, 8))
    boats = lambda s: {r[1] for r in t.options("move", s) if r[0] == ST.MV_BOAT}
    explorers = lambda s: {r[1] for r in t.options("move", s) if r[0] == ST.MV_EXPLORER}
    assert boats(0) == {0, 2} and boats(1) == {0, 1} and boats(2) == {0, 2} \
        and boats(3) == {0}
    assert explorers(0) == {0, 1} and explorers(3) == {30}
    assert [t.controls(s, 1) for s in range(4)] == [False, True, False, False]
    assert [t.controls(s, 2) for s in range(4)] == [True, False, True, False]
    assert not any(t.controls(s, 0) for s in range(4))


def test_b6_2_explorer_on_land_options():
    """B6.2: to an adjacent land tile, into a non-full boat in an adjacent sea hex, or into an
    adjacent sea hex as a swimmer (a full boat is not offered)."""
    t = Table.empty(4)
    for x in [(3, 5), (3, 4), (3, 6), (4, 4), (4, 5)]:
        t.land(*x, "forest", "wind")
    e = t.explorer(0, 9, "land", (3, 5))
    t.explorer(1, 0, "land", (3, 4))            # tiles may be shared
    t.boat(0, 2, 4)
    t.explorer(1, 1, "boat", 0)
    t.explorer(1, 2, "boat", 0)
    t.boat(1, 2, 5)
    for k in range(3):
        t.explorer(2, k, "boat", 1)
    assert t.move_dests(0, e) == {(3, 4), (3, 6), (4, 4), (4, 5), (2, 4), (2, 5),
                                  ("boat", 0)}
    t.move(0, mv(e, (3, 4)))
    assert t.where(e) == ("land", (3, 4)) and t.S[ST.HEX_NLAND + H(3, 4)] == 2


def test_b6_3_explorer_that_left_land_never_returns_to_land():
    """B6.3: a swimmer next to land and a passenger next to land get no land destination."""
    t = Table.empty(4)
    for x in [(3, 4), (3, 5), (3, 6)]:
        t.land(*x, "forest", "wind")
    sw = t.explorer(0, 0, "sea", (2, 5))
    t.boat(0, 2, 4)
    p = t.explorer(0, 1, "boat", 0)
    assert t.move_dests(0, sw) == {(2, 4), (2, 6), (1, 5), (1, 6)}
    assert t.move_dests(0, p) == {(2, 4)}                     # overboard only
    assert not (t.move_dests(0, sw) | t.move_dests(0, p)) & ISLAND


def test_b6_4_explorer_in_a_boat_options():
    """B6.4: from a boat: into a non-full boat in an adjacent hex, overboard into its own hex,
    or (from an access hex) onto the safe isle; a full boat is not offered."""
    t = Table.empty(4)
    t.boat(0, 1, 1)                              # NW access hex
    e = t.explorer(0, 9, "boat", 0)
    t.boat(1, 1, 2)
    t.explorer(1, 0, "boat", 1)
    t.boat(2, 2, 1)
    for k in range(3):
        t.explorer(2, k, "boat", 2)
    assert t.move_dests(0, e) == {("boat", 1), (1, 1), "NW"}
    t.move(0, mv(e, (1, 2), boat=1))
    assert t.where(e) == ("boat", 1) and t.passengers(1) == [10, e] and t.passengers(0) == []


def test_b6_5_swimmer_moves_one_sea_hex_per_turn_then_may_board():
    """B6.5: a swimmer swims one hex; afterwards only boarding a non-full boat in its own hex
    is left to it this turn."""
    t = Table.empty(4)
    e = t.explorer(0, 0, "sea", (1, 5))
    t.boat(0, 1, 6)
    assert t.move_dests(0, e) == {(1, 4), (1, 6), (0, 4), (0, 5), (2, 4), (2, 5)}
    t.move(0, mv(e, (1, 6)))
    assert t.swam(e)
    assert t.move_dests(0, e) == {("boat", 0)}
    t.move(0, mv(e, (1, 6), boat=0))
    assert t.where(e) == ("boat", 0)
    f = t.explorer(0, 1, "sea", (11, 5))         # a full boat in its hex is not offered
    t.boat(1, 11, 5)
    for k in range(3):
        t.explorer(1, k, "boat", 1)
    assert ("boat", 1) not in t.move_dests(0, f)


def test_b6_5_swimmer_that_dived_this_turn_may_not_swim_again():
    """B6.5: an explorer that dived from land this turn has used its one sea hex."""
    t = Table.empty(4)
    for x in [(3, 5), (3, 6)]:
        t.land(*x, "forest", "wind")
    e = t.explorer(0, 0, "land", (3, 5))
    t.boat(0, 2, 5)
    t.move(0, mv(e, (2, 5)))                     # dive (not into the boat)
    assert t.where(e) == ("sea", (2, 5)) and t.swam(e)
    assert t.move_dests(0, e) == {("boat", 0)}


def test_b6_5_landing_from_the_water_counts_as_the_swimmers_move():
    """B6.5: a swimmer on an access hex lands on the isle for 1 MP at the start of its turn."""
    t = Table.empty(4)
    e = t.explorer(0, 0, "sea", (2, 0))
    assert t.move_dests(0, e) == {(2, 1), (1, 1), (3, 1), "NW"}
    t.move(0, mv(e, "NW"))
    assert t.where(e) == ("safe", "NW")


def test_b6_6_boat_moves_one_hex_per_mp_passengers_ride():
    """B6.6: a boat moves one sea hex per MP with its passengers; 3 MP = 3 hexes."""
    t = Table.empty(4)
    t.boat(0, 11, 3)
    a = t.explorer(0, 0, "boat", 0)
    t.step_move(0, [sail(0, (11, 4)), sail(0, (11, 5)), sail(0, (11, 6))])
    assert t.boat_hex(0) == (11, 6) and t.where(a) == ("boat", 0)
    assert t.boat_at(11, 3) is None and t.boat_at(11, 6) == 0


def test_b6_6_one_boat_per_hex_and_never_onto_land():
    """B6.6: a boat may not enter a hex holding another boat, nor a land tile."""
    t = Table.empty(4)
    t.land(3, 5, "forest", "wind")
    t.land(3, 6, "forest", "wind")
    t.boat(0, 2, 5)
    t.boat(1, 2, 6)
    assert t.boat_dests(0, 0) == {(2, 4), (1, 5), (1, 6)}


def test_b6_6_r12_wind_boat_may_not_pass_through_another_boat():
    """B6.6 / R12: in the channel (4,4)-(4,7) a boat blown by the Wind tile cannot pass the
    boat at (4,6): it reaches (4,5) only; with the channel clear it reaches all 3 hexes."""
    t = corridor()
    t.hand(0, "wind", "beach")
    t.boat(0, 4, 4)
    t.explorer(0, 0, "boat", 0)
    t.boat(1, 4, 6)
    assert {rc(r[2]) for r in t.options("play_tile", 0)[1:]} == {(4, 5)}
    t.boat(1, 11, 5)                             # move the other boat away
    assert {rc(r[2]) for r in t.options("play_tile", 0)[1:]} == {(4, 5), (4, 6), (4, 7)}


def test_b6_6_r12_wind_path_ends_in_a_whales_hex_and_the_boat_capsizes():
    """B6.6 / R12 / B6.7: a whale's hex ends a blown boat's path: in the channel the occupied
    boat reaches (4,5) and no further, and is capsized there."""
    t = corridor()
    t.hand(0, "wind", "beach")
    t.boat(0, 4, 4)
    a = t.explorer(0, 0, "boat", 0)
    t.creature("whale", 0, 4, 5)
    assert {rc(r[2]) for r in t.options("play_tile", 0)[1:]} == {(4, 5)}
    t.play_tile(0, tile("wind", 0, (4, 5)))
    assert t.boat_hex(0) == "supply" and t.where(a) == ("sea", (4, 5))


def test_b6_7_boarding_a_boat_that_shares_a_hex_with_a_whale_capsizes_it():
    """B6.7: an empty boat with a whale is safe; a swimmer boarding it makes it occupied, so
    the whale capsizes it at once: the boat goes (to the supply), the swimmer swims."""
    t = Table.empty(4)
    t.boat(0, 1, 5)
    t.creature("whale", 0, 1, 5)
    e = t.explorer(0, 0, "sea", (1, 5))
    t.move(0, mv(e, (1, 5), boat=0))
    assert t.boat_hex(0) == "supply" and t.where(e) == ("sea", (1, 5))
    assert t.fate(e) == "none" and not t.swam(e)
    assert t.creature_at("whale", 0) == (1, 5)


def test_b6_7_serpent_destroys_an_occupied_boat_but_not_an_empty_one():
    """B6.7: a boat sailing into a serpent's hex: empty, it is unharmed; occupied, it is
    removed with its passengers (cause serpent)."""
    t = Table.empty(4)
    t.creature("serpent", 0, 1, 5)
    t.boat(0, 1, 4)
    t.move(0, sail(0, (1, 5)))
    assert t.boat_hex(0) == (1, 5)
    t.boat(1, 1, 7)
    a = t.explorer(0, 0, "boat", 1)
    t.move(0, sail(0, (0, 5)))                   # make room: boat 0 leaves (1,5)
    t.move(0, sail(1, (1, 6)))
    t.move(0, sail(1, (1, 5)))
    assert t.boat_hex(1) == "supply" and t.fate(a) == "serpent"


def test_b6_7_shark_eats_a_swimmer_that_swims_in_a_whale_does_not():
    """B6.7: a swimmer moving into a shark's hex is eaten; into a whale's hex it is safe."""
    t = Table.empty(4)
    t.creature("shark", 0, 1, 6)
    t.creature("whale", 0, 11, 6)
    a = t.explorer(0, 0, "sea", (1, 5))
    b = t.explorer(0, 1, "sea", (11, 5))
    t.move(0, mv(a, (1, 6)))
    t.move(0, mv(b, (11, 6)))
    assert t.fate(a) == "shark" and t.where(b) == ("sea", (11, 6))


def test_b6_7_whale_capsizes_an_occupied_boat_sailing_in_and_the_shark_eats_them():
    """B6.7: an occupied boat sailing into a hex with a whale and a shark is capsized; its
    passengers become swimmers and the shark eats them."""
    t = Table.empty(4)
    t.creature("whale", 0, 1, 6)
    t.creature("shark", 0, 1, 6)
    t.boat(0, 1, 5)
    a = t.explorer(0, 0, "boat", 0)
    b = t.explorer(1, 0, "boat", 0)
    t.move(0, sail(0, (1, 6)))
    assert t.boat_hex(0) == "supply"
    assert t.where(a) == ("lost", None) and t.where(b) == ("lost", None)


def test_r15_serpent_and_whale_in_one_hex_the_serpent_destroys_the_boat():
    """R15: serpents resolve before whales: an occupied boat meeting a serpent and a whale is
    destroyed by the serpent (cause serpent, not capsized)."""
    t = Table.empty(4)
    t.creature("serpent", 0, 1, 6)
    t.creature("whale", 0, 1, 6)
    t.boat(0, 1, 5)
    a = t.explorer(0, 0, "boat", 0)
    t.move(0, sail(0, (1, 6)))
    assert t.fate(a) == "serpent" and t.boat_hex(0) == "supply"


def test_r15_capsized_then_eaten_passengers_are_lost_to_the_whale():
    """R15: passengers capsized by a whale and then eaten by a shark are lost to the whale
    (cause whale); a swimmer who swims in later is lost to the shark."""
    t = Table.empty(4)
    t.creature("whale", 0, 1, 6)
    t.creature("shark", 0, 1, 6)
    t.boat(0, 1, 5)
    a = t.explorer(0, 0, "boat", 0)
    b = t.explorer(0, 1, "boat", 0)
    t.move(0, sail(0, (1, 6)))
    assert t.fate(a) == t.fate(b) == "whale"
    c = t.explorer(1, 0, "sea", (1, 7))
    t.move(1, mv(c, (1, 6)))
    assert t.fate(c) == "shark"
    rec = t.record()
    assert rec["lost_whale_0"] == 2 and rec["lost_shark_1"] == 1


def test_b6_8_serpent_die_move_up_to_one_sea_hex():
    """B6.8 / R2: a serpent moves 0 or 1 sea hex."""
    t = Table.empty(4)
    t.land(3, 5, "forest", "wind")
    t.land(3, 6, "forest", "wind")
    t.creature("serpent", 0, 2, 5)
    assert t.creature_dests("serpent", 0) == {(2, 5), (2, 4), (2, 6), (1, 5), (1, 6)}


def test_b6_8_b6_12_serpent_die_move_attacks_and_no_defence_exists_against_it():
    """B6.8 / B6.7 / B6.12: a serpent moved by the die into a hex destroys the occupied boat
    with its passengers and eats the swimmers; whale or shark defence tiles do not apply."""
    t = Table.empty(4)
    t.hand(0, "defend_whale", "forest")
    t.hand(0, "defend_shark", "beach")
    t.creature("serpent", 0, 1, 6)
    t.boat(0, 1, 5)
    a = t.explorer(0, 0, "boat", 0)
    b = t.explorer(0, 1, "sea", (1, 5))
    t.creature_move(1, "serpent", 0, (1, 5), defend={0: 1})
    assert t.script_used(0) == 0
    assert t.fate(a) == t.fate(b) == "serpent" and t.boat_hex(0) == "supply"
    assert t.hand_of(0) == {"defend_whale": 1, "defend_shark": 1}


def test_b6_9_shark_moves_up_to_two_stopping_at_the_first_swimmer():
    """B6.9: a shark moves up to 2 sea hexes but stops at once in a hex with a swimmer: it
    reaches (1,6) but nothing beyond it; it eats the swimmer there."""
    t = Table.empty(4)
    t.creature("shark", 0, 1, 5)
    e = t.explorer(0, 0, "sea", (1, 6))
    dests = t.creature_dests("shark", 0)
    assert dests == {(1, 5)} | sea_reach(t, (1, 5), 2, stop={(1, 6)})
    assert (1, 6) in dests and (1, 7) not in dests
    t.remove_explorer(e)
    assert (1, 7) in t.creature_dests("shark", 0)          # 2 hexes through (1,6)
    e = t.explorer(0, 0, "sea", (1, 6))
    t.creature_move(1, "shark", 0, (1, 6))
    assert t.fate(e) == "shark" and t.creature_at("shark", 0) == (1, 6)


def test_b6_10_whale_stops_at_first_occupied_boat():
    """B6.10: a whale moves up to 3 sea hexes but stops at once in a hex with an occupied boat:
    in the channel (4,4)-(4,7) with boats at (4,6) and (4,7) it can reach (4,6) and no further,
    and moving there capsizes that boat only."""
    t = corridor()
    t.creature("whale", 0, 4, 4)
    t.boat(0, 4, 6)
    a = t.explorer(0, 0, "boat", 0)
    t.boat(1, 4, 7)
    b = t.explorer(1, 0, "boat", 1)
    assert t.creature_dests("whale", 0) == {(4, 4), (4, 5), (4, 6)}
    t.creature_move(2, "whale", 0, (4, 6))
    assert t.creature_at("whale", 0) == (4, 6)
    assert t.boat_hex(0) == "supply" and t.where(a) == ("sea", (4, 6))
    assert t.boat_hex(1) == (4, 7) and t.where(b) == ("boat", 1)


def test_b6_10_whale_passes_empty_boats_and_moves_three_hexes():
    """B6.10: empty boats do not stop a whale: it moves the whole channel, 3 hexes."""
    t = corridor()
    t.creature("whale", 0, 4, 4)
    t.boat(0, 4, 5)
    t.boat(1, 4, 6)
    assert t.creature_dests("whale", 0) == {(4, 4), (4, 5), (4, 6), (4, 7)}
    t.creature_move(2, "whale", 0, (4, 7))
    assert t.creature_at("whale", 0) == (4, 7)
    assert t.boat_hex(0) == (4, 5) and t.boat_hex(1) == (4, 6)


def test_b6_10_r15_whale_die_move_capsizes_into_a_sharks_hex_lost_to_the_whale():
    """B6.10 / R15: a whale moved by the die onto an occupied boat that shares its hex with a
    shark: the boat is capsized and the shark eats its passengers, cause whale."""
    t = Table.empty(4)
    t.creature("shark", 0, 1, 5)
    t.boat(0, 1, 5)
    a = t.explorer(1, 0, "boat", 0)
    t.creature("whale", 0, 1, 7)
    t.creature_move(2, "whale", 0, (1, 5))
    assert t.fate(a) == "whale" and t.boat_hex(0) == "supply"
    assert t.creature_at("whale", 0) == (1, 5) and t.creature_at("shark", 0) == (1, 5)


def test_b6_11_lagoon_serpent_cannot_move_until_a_neighbouring_tile_sinks():
    """B6.11: creatures move through sea only: the lagoon serpent, ringed by land, can only
    stay; once (5,5) has sunk it may move there."""
    t = Table.empty(4)
    t.fill_island("forest", "wind")
    t.creature("serpent", 0, *LAGOON)
    assert t.creature_dests("serpent", 0) == {LAGOON}
    t.sea(5, 5)
    assert t.creature_dests("serpent", 0) == {LAGOON, (5, 5)}


def test_b6_11_creatures_of_any_kinds_share_hexes():
    """B6.11: a shark may move into a hex with a whale and one with a serpent."""
    t = Table.empty(4)
    t.creature("shark", 0, 1, 5)
    t.creature("whale", 0, 1, 6)
    t.creature("serpent", 0, 1, 4)
    dests = t.creature_dests("shark", 0)
    assert {(1, 6), (1, 4)} <= dests
    t.creature_move(1, "shark", 0, (1, 6))
    assert t.creature_at("shark", 0) == (1, 6) and t.creature_at("whale", 0) == (1, 6)


def test_b6_12_no_defence_against_a_shark_placed_by_a_green_tile():
    """B6.12: defence tiles work only against die moves, not a shark placed by a green tile."""
    t = Table.empty(4)
    t.hand(0, "defend_shark", "beach")
    t.land(3, 4, "beach", "shark")
    e = t.explorer(0, 9, "land", (3, 4))
    t.script(0, [(1,)])                          # seat 0 would play it if asked
    t.sink(1, (3, 4))
    assert t.fate(e) == "shark"
    assert t.hand_of(0) == {"defend_shark": 1} and t.script_used(0) == 0


def test_b6_12_no_defence_against_ones_own_shark():
    """B6.12: a player is not offered its defence against a shark it moves itself."""
    t = Table.empty(4)
    t.hand(0, "defend_shark", "beach")
    e = t.explorer(0, 9, "sea", (1, 5))
    t.creature("shark", 0, 1, 6)
    assert not t.may_defend(0, 0, "shark", 1, 5)
    t.creature_move(0, "shark", 0, (1, 5), defend={0: 1})
    assert t.fate(e) == "shark" and t.script_used(0) == 0
    assert t.hand_of(0) == {"defend_shark": 1}


def test_b6_12_several_defence_tiles_one_per_attack():
    """B6.12: a player may hold several defence tiles and play one per attack."""
    t = Table.empty(4)
    t.hand(0, "defend_shark", "beach")
    t.hand(0, "defend_shark", "forest")
    e = t.explorer(0, 9, "sea", (1, 5))
    t.creature("shark", 0, 1, 6)
    t.creature("shark", 1, 0, 5)
    t.creature_move(1, "shark", 0, (1, 5), defend={0: 1})
    assert t.hand_of(0) == {"defend_shark": 1}
    t.creature_move(2, "shark", 1, (1, 5), defend={0: 1})
    assert t.hand_of(0) == {}
    assert t.creatures("shark") == [] and t.where(e) == ("sea", (1, 5))


# =============================================================================== B7 end, score
def test_b7_2_score_is_the_value_on_safe_isles_only():
    """B7.2: a seat scores the values of its explorers on safe isles; explorers in boats, on
    land, in the water and tiles in hand score nothing."""
    t = Table.empty(4)
    t.explorer(0, 9, "safe", "NW")               # 6
    t.explorer(0, 0, "safe", "NE")               # 1
    t.boat(0, 1, 1)
    t.explorer(0, 8, "boat", 0)                  # 5, in a boat at the access hex
    t.explorer(0, 7, "sea", (2, 0))              # 4
    t.explorer(1, 5, "safe", "SE")               # 3
    t.explorer(1, 6, "safe", "SW")               # 3
    t.hand(2, "dolphin", "beach")
    rec = t.record()
    assert [rec[f"score_{s}"] for s in range(4)] == [7, 6, 0, 0]
    assert [rec[f"rescued_{s}"] for s in range(4)] == [2, 2, 0, 0]
    assert [rec[f"rescued_value_{s}"] for s in range(4)] == [7, 6, 0, 0]


def test_b7_3_r18_record_keeps_the_tie_break_keys():
    """B7.3 / R18 / X1.6 keys: a three-way tie on score is recorded with explorers rescued,
    value rescued, turns taken per seat and the seat whose turn ended the game."""
    t = Table.empty(3)
    t.clear_island()
    t.land(3, 4, "beach", "wind")
    t.land(9, 5, "mountain", "volcano")
    t.explorer(0, 9, "safe", "NW")               # 6
    t.explorer(1, 5, "safe", "SE")               # 3 + 3
    t.explorer(1, 6, "safe", "SE")
    t.explorer(2, 9, "safe", "SW")               # 6
    t.play_turn()                                # seat 0 sinks the beach
    t.play_turn()                                # seat 1 reveals the volcano
    assert t.over and t.end_reason == "volcano"
    rec = t.record()
    assert [rec[f"score_{s}"] for s in range(3)] == [6, 6, 6]
    assert [rec[f"rescued_{s}"] for s in range(3)] == [1, 2, 1]
    assert [rec[f"rescued_value_{s}"] for s in range(3)] == [6, 6, 6]
    assert [rec[f"turns_{s}"] for s in range(3)] == [1, 1, 0]
    assert rec["end_seat"] == 1 and rec["turns"] == 2
    assert rec["end_reason"] == ST.E_VOLCANO
    df = t.record_frame()
    for col in ("end_seat", "rescued_0", "rescued_value_0", "turns_0", "score_0"):
        assert col in df.columns


def test_b7_4_seat_with_nothing_to_move_still_sinks_and_rolls():
    """B7.4: a seat with no pieces at all still sinks a tile and rolls the die."""
    t = Table.empty(4, creatures_must_move=True)
    t.creature("shark", 0, 1, 5)
    t.set_die("shark")
    t.set(ST.CUR_SEAT, 1)
    dice = int(t.rng[ST.RNG_DICE])
    assert t.options("move", 1) == [STOP]
    t.play_turn()
    assert t.S[ST.TILES_LEFT] == 39
    assert int(t.rng[ST.RNG_DICE]) != dice
    assert t.creature_at("shark", 0) != (1, 5)
    assert t.S[ST.TURNS + 1] == 1 and t.S[ST.CUR_SEAT] == 2


# =============================================================================== rulings
@pytest.mark.parametrize("lagoon_is_sea,expected", [(True, [(3, 4), (5, 5)]), (False, [(3, 4)])])
def test_r1_lagoon_counts_as_sea_for_sinking_unless_switched_off(lagoon_is_sea, expected):
    """R1 / B5.5: the beach (5,5), whose only sea neighbour is the lagoon, is eligible when the
    lagoon counts as sea (default) and not under lagoon_is_sea = False."""
    t = Table.empty(4, lagoon_is_sea=lagoon_is_sea)
    t.fill_island("forest", "wind")
    t.land(3, 4, "beach", "wind")
    t.land(5, 5, "beach", "wind")
    assert sorted(rc(h) for (h,) in t.options("sink")) == expected


def test_r1_lagoon_off_a_lagoon_only_beach_is_landlocked():
    """R1 / B5.5: with lagoon_is_sea off and no other beach, the lagoon beach is landlocked,
    so the exception makes it (and every beach) eligible."""
    t = Table.empty(4, lagoon_is_sea=False)
    t.fill_island("forest", "wind")
    t.land(5, 5, "beach", "wind")
    t.land(4, 5, "beach", "wind")
    assert sorted(rc(h) for (h,) in t.options("sink")) == [(4, 5), (5, 5)]


def test_r2_a_die_moved_creature_may_stay():
    """R2: staying put (0 hexes) is a legal die move by default, and changes nothing."""
    t = Table.empty(4)
    t.creature("whale", 0, 1, 5)
    t.creature("shark", 0, 11, 5)
    assert (ST.WHALE, 0, H(1, 5)) in t.options("creature", creature="whale")
    before = t.S.copy()
    t.roll_step(0, kind="whale", choice=("whale", 0, (1, 5)))
    assert unchanged_but_the_roll(before, t.S)


def test_r3_landing_costs_one_mp_per_explorer_and_the_boat_stays():
    """R3: three passengers landing from a boat on an access hex cost 1 MP each; the boat stays
    in the access hex; no MP is left to sail it."""
    t = Table.empty(4)
    t.boat(0, 11, 10)                            # SE access
    ps = [t.explorer(0, k, "boat", 0) for k in (7, 8, 9)]
    t.step_move(0, [mv(e, "SE") for e in ps] + [sail(0, (11, 9))])
    assert [t.where(e) for e in ps] == [("safe", "SE")] * 3
    assert t.boat_hex(0) == (11, 10) and t.passengers(0) == []
    assert t.script_used(0) == 3


def test_r4_only_one_red_tile_per_turn():
    """R4: step 1 plays at most one tile; the second scripted tile is never played."""
    t = Table.empty(4)
    t.hand(0, "move_shark", "beach")
    t.hand(0, "move_whale", "forest")
    t.creature("shark", 0, 1, 5)
    t.creature("whale", 0, 11, 5)
    t.play_tile(0, tile("move_shark", 0, (0, 2)), tile("move_whale", 0, (12, 2)))
    assert t.creature_at("shark", 0) == (0, 2) and t.creature_at("whale", 0) == (11, 5)
    # the move-shark row answered both halves (the shark, then where); the whale's is unused
    assert t.hand_of(0) == {"move_whale": 1} and t.script_used(0) == 1


def test_r5_destroyed_boat_returns_to_the_supply_and_is_used_again():
    """R5: a boat destroyed by a serpent returns to the supply: with the other 11 boats on the
    board, the next boat tile places that very boat."""
    t = Table.empty(4)
    spots = [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8), (12, 2), (12, 3),
             (12, 4), (12, 5), (11, 5)]
    for b, x in enumerate(spots):
        t.boat(b, *x)
    a = t.explorer(0, 0, "boat", 11)
    t.creature("serpent", 0, 11, 6)
    t.move(0, sail(11, (11, 6)))
    assert t.boat_hex(11) == "supply" and t.fate(a) == "serpent"
    t.land(3, 4, "beach", "boat")
    e = t.explorer(1, 0, "land", (3, 4))
    t.sink(1, (3, 4))
    assert t.boat_hex(11) == (3, 4) and t.passengers(11) == [e]


def _all_boats_on_board(t: Table, occupied: set) -> None:
    spots = [(0, 2), (0, 3), (0, 4), (0, 5), (0, 6), (0, 7), (0, 8), (12, 2), (12, 3),
             (12, 4), (12, 5), (12, 6)]
    seat_slot = iter([(s, k) for s in (2, 3) for k in range(10)])
    for b, x in enumerate(spots):
        t.boat(b, *x)
        if b in occupied:
            t.explorer(*next(seat_slot), "boat", b)


def test_r6_boat_tile_with_empty_supply_takes_an_unoccupied_boat_the_revealer_picks():
    """R6: all 12 boats on the board: a boat tile takes an unoccupied boat of the revealer's
    choice (boat 7 of the empty boats 5 and 7), and its swimmer boards it."""
    t = Table.empty(4)
    _all_boats_on_board(t, occupied=set(range(12)) - {5, 7})
    t.land(3, 4, "beach", "boat")
    e = t.explorer(1, 0, "land", (3, 4))
    t.sink(1, (3, 4), choices=[(7,)])
    assert t.boat_hex(7) == (3, 4) and t.passengers(7) == [e]
    assert t.boat_hex(5) == (0, 7)


def test_r6_boat_tile_with_no_boat_to_take_does_nothing():
    """R6: all 12 boats on the board and occupied: the boat tile places nothing."""
    t = Table.empty(4)
    _all_boats_on_board(t, occupied=set(range(12)))
    before = [t.boat_hex(b) for b in range(12)]
    t.land(3, 4, "beach", "boat")
    e = t.explorer(1, 0, "land", (3, 4))
    t.sink(1, (3, 4))
    assert [t.boat_hex(b) for b in range(12)] == before
    assert t.where(e) == ("sea", (3, 4))


def test_r7_dolphin_tile_may_carry_its_swimmer_onto_a_safe_isle():
    """R7: the landing counts as one of the Dolphin tile's 3 steps: (1,3) -> (1,2) -> (1,1)
    -> NW."""
    t = Table.empty(4)
    t.hand(0, "dolphin", "beach")
    e = t.explorer(0, 9, "sea", (1, 3))
    dests = {rc(r[2]) for r in t.options("play_tile", 0)[1:]}
    assert dests == sea_reach(t, (1, 3), 3, isles=True)
    assert "NW" in dests
    t.play_tile(0, tile("dolphin", e, "NW"))
    assert t.where(e) == ("safe", "NW")
    assert t.record()["score_0"] == 6


def test_r8_minority_passenger_may_not_play_whale_defence():
    """R8: whale defence needs control of the boat: seat 0 (1 of 3 aboard) may not defend, seat
    1 (2 of 3) may; seat 0's attempt is never asked and the boat capsizes."""
    t = Table.empty(4)
    t.hand(0, "defend_whale", "forest")
    t.boat(0, 1, 5)
    a = t.explorer(0, 0, "boat", 0)
    t.explorer(1, 0, "boat", 0)
    t.explorer(1, 1, "boat", 0)
    t.creature("whale", 0, 1, 7)
    assert not t.may_defend(0, 2, "whale", 1, 5)
    t.hand(1, "defend_whale", "forest")
    assert t.may_defend(1, 2, "whale", 1, 5)
    t.creature_move(2, "whale", 0, (1, 5), defend={0: 1, 1: 0})
    assert t.script_used(0) == 0 and t.script_used(1) == 1
    assert t.boat_hex(0) == "supply" and t.where(a) == ("sea", (1, 5))
    assert t.hand_of(0) == {"defend_whale": 1}


def test_r9_move_tile_without_such_a_creature_on_the_board_is_kept():
    """R9: a move-shark tile is not offered while no shark is on the board."""
    t = Table.empty(4)
    t.hand(0, "move_shark", "beach")
    t.creature("whale", 0, 1, 5)
    assert t.options("play_tile", 0) == [NO_TILE]
    t.play_tile(0, tile("move_shark", 0, (1, 6)))    # the engine does not even ask
    assert t.hand_of(0) == {"move_shark": 1} and t.script_used(0) == 0
    t.creature("shark", 2, 11, 5)
    assert {(r[0], r[1]) for r in t.options("play_tile", 0)[1:]} == {(BACKS["move_shark"], 2)}


def test_r10_turn_cap_ends_the_game_with_end_reason_turn_cap():
    """R10: with max_turns = 6 the game ends after the 6th turn with end reason turn_cap; the
    record carries the reason."""
    t = Table(4, strategy="random", max_turns=6, seed=3)
    t.play_game()
    assert t.over and t.end_reason == "turn_cap"
    rec = t.record()
    assert rec["end_reason"] == ST.E_TURN_CAP and rec["turns"] == 6
    assert rec["end_seat"] == 1                   # the 6th turn was seat 1's
    assert [rec[f"turns_{s}"] for s in range(4)] == [2, 2, 1, 1]
    assert str(t.record_frame()["end_reason"].iloc[0]) == "turn_cap"


def test_r11_strategy_views_hold_no_tile_backs_and_no_other_seats_secrets():
    """R11: what a strategy is handed -- pub = S[:PUB_SIZE] and its own private row -- does not
    change when every secret it may not know changes (tile backs, other seats' values and
    hands), and does show the public hand sizes/terrains and its own values and hand."""
    t = Table(4, strategy="random", seed=7)
    t.setup()
    t.hand(1, "defend_shark", "mountain")
    t.hand(0, "wind", "beach")
    S1 = t.S.copy()
    # views never overlap the secret cells
    secret = set(range(ST.TILE_BACK, ST.STATE_SIZE))
    for seat in range(4):
        view = set(range(ST.PUB_SIZE)) | set(range(ST.PRIV + seat * ST.PRIV_W,
                                                   ST.PRIV + (seat + 1) * ST.PRIV_W))
        assert not view & secret
        others = {i for s in range(ST.MAX_SEATS) if s != seat
                  for i in range(ST.PRIV + s * ST.PRIV_W, ST.PRIV + (s + 1) * ST.PRIV_W)}
        assert not view & others
    # change every secret seat 0 may not know
    land = [h for h in BD.ISLAND_HEXES if t.S[ST.TILE_BACK + h] >= 0]
    backs = t.S[ST.TILE_BACK + np.array(land)]
    t.S[ST.TILE_BACK + np.array(land)] = np.roll(backs, 1)
    for e in range(10, 40):
        t.S[ST.EX_VALUE + e] = 7 - t.S[ST.EX_VALUE + e]
    for s in (1, 2, 3):
        row = slice(ST.PRIV + s * ST.PRIV_W, ST.PRIV + (s + 1) * ST.PRIV_W)
        t.S[row] = t.S[row][::-1].copy()
    assert not np.array_equal(S1, t.S)
    assert np.array_equal(S1[:ST.PUB_SIZE], t.pub())
    assert np.array_equal(S1[ST.PRIV:ST.PRIV + ST.PRIV_W], t.mine(0))
    # the public part shows hand sizes and terrains, never backs
    assert t.pub()[ST.HAND_N + 1] == 1
    assert list(t.pub()[ST.HAND_TERRAIN + 3:ST.HAND_TERRAIN + 6]) == [0, 0, 1]
    mine = t.mine(0)
    assert list(mine[ST.P_VALUE:ST.P_VALUE + 10]) == list(ST.SLOT_VALUES)
    assert mine[ST.P_HAND + BACKS["wind"]] == 1 and mine[ST.P_HAND + BACKS["defend_shark"]] == 0


def test_r11_decisions_do_not_depend_on_secrets():
    """R11: a strategy's step 2 (greedy, the seat's own noise stream) makes the same moves when
    only secrets differ."""
    a = Table(4, strategy="greedy", seed=9)
    a.setup()
    b = Table(4, strategy="greedy", seed=9)
    b.S[:] = a.S
    b.rng[:] = a.rng
    b.mem[:] = a.mem
    land = np.array([h for h in BD.ISLAND_HEXES if b.S[ST.TILE_BACK + h] >= 0])
    b.S[ST.TILE_BACK + land] = b.S[ST.TILE_BACK + land][::-1]
    for e in range(10, 40):
        b.S[ST.EX_VALUE + e] = 7 - b.S[ST.EX_VALUE + e]
    before = a.S.copy()
    for t in (a, b):
        t.step_move(0)                           # greedy decides
    assert not np.array_equal(before[:ST.PUB_SIZE], a.pub())     # it did move something
    assert np.array_equal(a.pub(), b.pub())


def test_r11_strategies_read_nothing_past_their_views():
    """R11: compiled code does not check array bounds, so a strategy that indexed past ``pub``
    would silently read secrets. Played as plain Python (NUMBA_DISABLE_JIT), the views are
    bounded numpy slices and any such read raises: a few whole games of every shipped
    strategy at 2 to 6 players, with and without challenges, dolphins and squid, must run
    clean (the same run checks that no negative index is made: ``support/negative_index_audit.py``)."""
    from support.negative_index_audit import played_in_plain_python
    done = played_in_plain_python()
    assert done.returncode == 0, done.stderr[-3000:]


def test_r12_die_move_is_a_simple_path_never_back_to_its_start():
    """R12 / R21: no hex is entered twice, the start included: with creatures_must_move a shark
    cannot 'move' out and back to its own hex."""
    t = Table.empty(4, creatures_must_move=True)
    t.creature("shark", 0, 1, 5)
    dests = t.creature_dests("shark", 0)
    assert (1, 5) not in dests
    assert dests == sea_reach(t, (1, 5), 2)


def test_r12_only_entered_hexes_are_resolved_and_a_stop_hex_ends_the_path():
    """R12: in the channel (4,4)-(4,7) the Dolphin tile's swimmer can reach the whale's hex
    (4,5) and the shark's hex (4,6), where it would have to stop, but not (4,7) behind the
    shark; moved onto the whale's hex it is unharmed, and the shark next door (not entered)
    does nothing."""
    t = corridor()
    t.hand(0, "dolphin", "beach")
    e = t.explorer(0, 9, "sea", (4, 4))
    t.creature("whale", 0, 4, 5)
    t.creature("shark", 0, 4, 6)
    dests = {rc(r[2]) for r in t.options("play_tile", 0)[1:]}
    assert dests == {(4, 5), (4, 6)}
    t.play_tile(0, tile("dolphin", e, (4, 5)))
    assert t.where(e) == ("sea", (4, 5)) and t.fate(e) == "none"
    assert t.creature_at("shark", 0) == (4, 6)


def test_r12_dolphin_into_a_sharks_hex_is_eaten_there():
    """R12 / B6.7: the stop hex ends the Dolphin tile's path and is resolved: eaten."""
    t = Table.empty(4)
    t.hand(0, "dolphin", "beach")
    e = t.explorer(0, 9, "sea", (1, 5))
    t.creature("shark", 0, 1, 7)
    t.play_tile(0, tile("dolphin", e, (1, 7)))
    assert t.fate(e) == "shark"


def test_r13_dolphin_moved_swimmer_used_its_sea_hex_but_may_board():
    """R13: after the Dolphin tile the swimmer may not swim in step 2, but it may board a boat
    in its hex."""
    t = Table.empty(4)
    t.hand(0, "dolphin", "beach")
    e = t.explorer(0, 9, "sea", (1, 5))
    t.boat(0, 1, 7)
    t.play_tile(0, tile("dolphin", e, (1, 7)))
    assert t.swam(e)
    assert t.move_dests(0, e) == {("boat", 0)}


def test_r13_overboard_capsize_and_sinking_do_not_use_the_sea_hex():
    """R13: jumping overboard, being capsized and having one's tile sink leave the swimmer
    its one sea hex for the turn."""
    t = Table.empty(4)
    t.boat(0, 1, 5)
    a = t.explorer(0, 0, "boat", 0)
    t.move(0, mv(a, (1, 5)))                     # overboard
    assert t.where(a) == ("sea", (1, 5)) and not t.swam(a)
    assert (1, 6) in t.move_dests(0, a)
    t.boat(1, 11, 5)
    b = t.explorer(0, 1, "boat", 1)
    t.creature("whale", 0, 11, 7)
    t.creature_move(1, "whale", 0, (11, 5))      # capsized
    assert t.where(b) == ("sea", (11, 5)) and not t.swam(b)
    assert (11, 6) in t.move_dests(0, b)
    t.land(3, 4, "beach", "wind")
    c = t.explorer(0, 2, "land", (3, 4))
    t.sink(1, (3, 4))                            # its tile sinks
    assert not t.swam(c) and (2, 4) in t.move_dests(0, c)


def test_r13_b6_5_swimmer_that_swam_may_not_land_on_the_isle():
    """R13 / B6.5: a swimmer that swam onto an access hex this turn may not also land."""
    t = Table.empty(4)
    e = t.explorer(0, 0, "sea", (1, 2))
    t.move(0, mv(e, (1, 1)))
    assert "NW" not in t.move_dests(0, e)
    assert t.move_dests(0, e) == set()


def test_r14_wind_moves_only_an_occupied_boat_the_player_controls():
    """R14: nobody controls an empty boat; the Wind tile is offered only for boats with
    passengers the seat controls."""
    t = Table.empty(4)
    t.hand(0, "wind", "beach")
    t.boat(0, 1, 3)                              # empty
    t.boat(1, 1, 7)
    t.explorer(1, 0, "boat", 1)                  # seat 1's
    t.boat(2, 11, 5)
    t.explorer(0, 0, "boat", 2)                  # seat 0's
    rows = t.options("play_tile", 0)
    assert {r[1] for r in rows[1:]} == {2}
    t.remove_explorer(0)
    assert t.options("play_tile", 0) == [NO_TILE]


def test_r16_defence_window_asks_seats_in_turn_order_after_the_mover():
    """R16: the seats after the mover (2) are asked in turn order 3, 0, 1; seat 3 holds, seat
    0 plays, and that first defence closes the window (seat 1 is never asked)."""
    t = Table.empty(4)
    for s in (0, 1, 3):
        t.hand(s, "defend_shark", "beach")
        t.explorer(s, 9, "sea", (1, 5))
    t.creature("shark", 0, 1, 7)
    t.creature_move(2, "shark", 0, (1, 5), defend={3: 0, 0: 1, 1: 1})
    assert [t.script_used(s) for s in (3, 0, 1)] == [1, 1, 0]
    assert t.hand_of(3) == t.hand_of(1) == {"defend_shark": 1} and t.hand_of(0) == {}
    assert t.creature_at("shark", 0) == "gone"
    assert all(t.where(s * 10 + 9) == ("sea", (1, 5)) for s in (0, 1, 3))


def test_r16_no_window_when_no_attack_would_happen():
    """R16: a shark moved into a hex without swimmers opens no window."""
    t = Table.empty(4)
    t.hand(0, "defend_shark", "beach")
    t.explorer(0, 9, "sea", (1, 5))
    t.creature("shark", 0, 1, 7)
    t.creature_move(1, "shark", 0, (1, 6), defend={0: 1})
    assert t.script_used(0) == 0 and t.hand_of(0) == {"defend_shark": 1}


def test_r16_two_players_a_seat_of_the_same_player_may_not_defend():
    """R16 / B6.12: with 2 players 'another player' compares players: seat 2 (player A, like
    the mover seat 0) may not defend; seat 1 (player B) may."""
    t = Table.empty(2)
    t.hand(2, "defend_shark", "beach")
    a = t.explorer(2, 9, "sea", (1, 5))
    t.creature("shark", 0, 1, 7)
    assert not t.may_defend(2, 0, "shark", 1, 5)
    t.creature_move(0, "shark", 0, (1, 5), defend={2: 1})
    assert t.fate(a) == "shark" and t.script_used(2) == 0
    assert t.hand_of(2) == {"defend_shark": 1}
    t.hand(1, "defend_shark", "beach")
    b = t.explorer(1, 9, "sea", (11, 5))
    t.creature("shark", 1, 11, 7)
    assert t.may_defend(1, 0, "shark", 11, 5)
    t.creature_move(0, "shark", 1, (11, 5), defend={1: 1})
    assert t.where(b) == ("sea", (11, 5)) and t.creature_at("shark", 1) == "gone"


def test_r17_b4_5_two_players_seats_move_only_their_own_colour():
    """R17 / B4.5: with 2 players seat 0 moves neither seat 2's explorers (same player) nor a
    boat seat 2 controls (control is counted per colour)."""
    t = Table.empty(2)
    a = t.explorer(0, 0, "sea", (1, 5))
    t.explorer(2, 0, "sea", (1, 3))
    t.boat(0, 11, 5)
    t.explorer(2, 1, "boat", 0)
    t.explorer(2, 2, "boat", 0)
    t.explorer(0, 1, "boat", 0)
    rows = t.options("move", 0)
    assert {r[1] for r in rows if r[0] == ST.MV_EXPLORER} == {a, 1}
    assert not [r for r in rows if r[0] == ST.MV_BOAT]
    assert t.controls(2, 0) and not t.controls(0, 0)


def test_r18_turns_taken_count_turns_begun_and_the_end_seat():
    """R18: turns_s counts the turns each seat began; the end seat is the seat whose turn it
    was when the game ended."""
    t = Table.empty(3)
    t.clear_island()
    for c in (4, 5, 6, 7):
        t.land(3, c, "beach", "wind")
    t.land(9, 4, "beach", "wind")
    t.land(9, 5, "mountain", "volcano")
    for _ in range(6):
        t.play_turn()
        if t.over:
            break
    assert t.over and t.end_reason == "volcano"
    assert t.S[ST.TURN] == 6 and list(t.S[ST.TURNS:ST.TURNS + 3]) == [2, 2, 2]
    rec = t.record()
    assert rec["end_seat"] == 2 and [rec[f"turns_{s}"] for s in range(3)] == [2, 2, 2]


def test_r19_move_tiles_skip_hexes_with_dolphins_or_squid():
    """R19: 'unoccupied' for the move-creature tiles also excludes dolphins and squid."""
    t = Table.empty(4)
    t.hand(0, "move_whale", "beach")
    t.creature("whale", 0, 1, 5)
    t.creature("dolphin", 0, 11, 5)
    t.creature("squid", 0, 11, 6)
    dests = {rc(r[2]) for r in t.options("tile_dest", 0, creature=("move_whale", 0))}
    assert (11, 5) not in dests and (11, 6) not in dests and (11, 7) in dests


def test_r21_creatures_must_move_forbids_staying_when_a_move_exists():
    """R21: with creatures_must_move the stay option disappears for the rolled kind as long
    as some piece of it can move (the boxed-in lagoon serpent gets no row at all)."""
    t = Table.empty(4, creatures_must_move=True)
    t.fill_island("forest", "wind")
    t.creature("serpent", 0, *LAGOON)
    t.creature("serpent", 1, 1, 5)
    rows = t.options("creature", creature="serpent")
    assert {(s, rc(d)) for _, s, d in rows} == {(1, x) for x in nbrs(1, 5)}
    t.roll_step(0, kind="serpent")               # first option: a real move of serpent 1
    assert t.creature_at("serpent", 1) != (1, 5)


def test_r21_zero_move_is_legal_when_no_piece_of_the_kind_can_move():
    """R21: when no piece of the rolled kind can move, staying is legal even under
    creatures_must_move."""
    t = Table.empty(4, creatures_must_move=True)
    t.fill_island("forest", "wind")
    t.creature("serpent", 0, *LAGOON)
    assert t.options("creature", creature="serpent") == []
    t.roll_step(0, kind="serpent")
    assert t.creature_at("serpent", 0) == LAGOON
