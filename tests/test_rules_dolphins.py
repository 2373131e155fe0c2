"""Scenario tests for Challenge 5, Dolphins & Dive Dice (RULES.md X5.1-X5.9): hand-built
positions, one action, the exact expected result."""
from __future__ import annotations

import pytest

from support.harness import BD, H, Table, i32, mv
from play import steps as TS
from simulator import rules as R
from simulator import state as ST
from test_rules_base import sea_reach

ROW1 = [(1, c) for c in range(3, 9)]        # open sea, one hex from the next, far from land


def dive_table(**kw) -> Table:
    t = Table.empty(4, dolphins=True, **kw)
    return t


def roll(t: Table, number) -> Table:
    """Pretend step 4 rolled ``number`` on the dive dice (for listing options)."""
    t.set(ST.ROLL_NUMBER, ST.DIVE_D if number == "D" else number)
    return t


def dive_step(t: Table, seat: int, face, number, row=None, choices=()):
    """Step 4 with the dive dice forced to (``face``, ``number``); ``row`` = (kind, slot, dest
    [, via]) scripted as the whole die move, ``choices`` the mover's further answers."""
    t.set_dive(face, number)
    for s in range(t.seats):
        t.script(s, [])
    rows = [] if row is None else [tuple(row[:2]) + (H(*row[2]) if isinstance(row[2], tuple)
                                                     else row[2],) + tuple(row[3:])]
    t.script(seat, rows + [tuple(x) if isinstance(x, tuple) else (x,) for x in choices])
    t._run(TS.step_creature, *t._engine(), i32(seat))


def dests(t: Table, kind, slot: int) -> set:
    k = ST.FACE_NAMES.index(kind)
    return {(x[2], x[3]) for x in t.options("creature", creature=k) if x[1] == slot}


def hexes(rows) -> set:
    return {H(*x) for x in rows}


# ============================================================================ X5.1, X5.3
def test_x5_1_x5_3_step_4_rolls_the_two_dive_dice_instead_of_the_creature_die():
    """X5.1 / X5.3: with Challenge 5 step 4 rolls the symbol die and the number die (two draws
    of the dice stream) and the roll is logged with both; the creature die is not used."""
    t = dive_table().log_on()
    t.creature("shark", 0, 1, 3)
    dive_step(t, 0, "shark", 2, (ST.SHARK, 0, (1, 5)))
    roll_ev = [e for e in t.events() if e["type"] == "roll"][0]
    assert roll_ev["f"][:3] == [ST.SHARK, 2, 1]                      # face, number, dive dice
    assert t.creature_at("shark", 0) == (1, 5)                         # two hexes away


@pytest.mark.parametrize("number", [1, 2, 3])
def test_x5_3_the_number_die_bounds_the_move(number):
    """X5.3 / X5.4: a whale may move up to the number rolled (and may stay, R2)."""
    t = dive_table()
    t.creature("whale", 0, 1, 3)
    roll(t, number)
    got = {d for d, via in dests(t, "whale", 0)}
    far = {H(1, 3 + k) for k in range(number + 1)}
    assert far <= got and H(1, 4 + number) not in got


def test_x5_3_boat_face_lists_only_empty_boats_and_starfish_every_kind():
    """X5.3 / X5.4: the boat face moves an *empty* boat (an occupied boat is never moved by the
    dice); the starfish lets the roller pick a serpent, shark, whale, dolphin or empty boat."""
    t = dive_table()
    t.boat(0, 1, 3)
    t.boat(1, 1, 6)
    t.explorer(0, 9, "boat", 1)                    # boat 1 is occupied
    t.creature("serpent", 0, 10, 3)
    t.creature("shark", 0, 10, 5)
    t.creature("whale", 0, 10, 7)
    t.creature("dolphin", 2, 11, 3)
    assert t.options("creature_piece", creature=ST.FACE_BOAT) == [(ST.PK_BOAT, 0)]
    star = t.options("creature_piece", creature=ST.FACE_STAR)
    assert star == [(ST.SERPENT, 0), (ST.SHARK, 0), (ST.WHALE, 0), (ST.DOLPHIN, 2),
                    (ST.PK_BOAT, 0)]


def test_x5_3_starfish_choice_moves_the_chosen_piece():
    """X5.3: on the starfish the roller chooses the piece (here a dolphin) and moves it as far
    as the number die allows."""
    t = dive_table()
    t.creature("shark", 0, 10, 5)
    t.creature("dolphin", 0, 1, 3)
    dive_step(t, 1, "starfish", 3, (ST.DOLPHIN, 0, (1, 6)))
    assert t.creature_at("dolphin", 0) == (1, 6) and t.creature_at("shark", 0) == (10, 5)


def test_x5_3_empty_boat_drifts_by_the_dice_but_never_through_another_boat():
    """X5.3 / B6.6: an empty boat moved by the dice goes up to the number, not into or through
    a hex holding another boat."""
    t = dive_table()
    t.boat(0, 1, 3)
    t.boat(1, 1, 5)
    roll(t, 3)
    got = {d for d, _ in dests(t, "boat", 0)}
    assert H(1, 4) in got and H(1, 5) not in got
    dive_step(t, 0, "boat", 1, (ST.PK_BOAT, 0, (1, 4)))
    assert t.boat_hex(0) == (1, 4)


# ============================================================================ X5.4
def test_x5_4_d_jumps_to_any_unoccupied_sea_hex_and_must_move():
    """X5.4 / R19 / R21: on a D the piece goes to any unoccupied sea hex (no boat, swimmer,
    creature or dolphin there); staying is not offered."""
    t = dive_table()
    t.creature("shark", 0, 1, 3)
    t.creature("dolphin", 0, 1, 8)
    t.boat(0, 10, 3)
    t.explorer(1, 9, "sea", (10, 5))
    roll(t, "D")
    rows = dests(t, "shark", 0)
    assert {via for _, via in rows} == {ST.VIA_JUMP}
    got = {d for d, _ in rows}
    sea = {h for h in range(BD.N_HEX) if t.S[ST.HEX_TERRAIN + h] < 0}
    assert got == sea - hexes([(1, 3), (1, 8), (10, 3), (10, 5)])
    dive_step(t, 0, "shark", "D", (ST.SHARK, 0, (11, 6), ST.VIA_JUMP))
    assert t.creature_at("shark", 0) == (11, 6)


def test_x5_4_shark_stops_at_the_first_unprotected_swimmer_but_passes_a_protected_one():
    """X5.4 / B6.7: with a 3 a shark still stops on entering a hex with a swimmer it can eat;
    a swimmer protected by a dolphin does not stop it."""
    t = dive_table()
    t.creature("shark", 0, 1, 3)
    a = t.explorer(0, 9, "sea", (1, 4))
    roll(t, 3)
    got = {d for d, _ in dests(t, "shark", 0)} - {H(1, 3)}
    assert got == hexes(sea_reach(t, (1, 3), 3, stop={(1, 4)}))
    t.creature("dolphin", 0, 1, 4)
    t.protect(0, a)
    got = {d for d, _ in dests(t, "shark", 0)} - {H(1, 3)}
    assert got == hexes(sea_reach(t, (1, 3), 3))


def test_x5_4_serpent_with_a_number_stops_at_what_it_can_attack():
    """X5.4: a serpent moving 2-3 stops on entering a hex with an occupied boat."""
    t = dive_table()
    t.creature("serpent", 0, 1, 3)
    t.boat(0, 1, 4)
    e = t.explorer(2, 9, "boat", 0)
    roll(t, 3)
    got = {d for d, _ in dests(t, "serpent", 0)} - {H(1, 3)}
    assert got == hexes(sea_reach(t, (1, 3), 3, stop={(1, 4)}))
    dive_step(t, 1, "serpent", 3, (ST.SERPENT, 0, (1, 4)))
    assert t.fate(e) == "serpent" and t.boat_hex(0) == "supply"


def test_x5_4_occupied_boats_are_never_moved_by_the_dice():
    """X5.4: a boat with passengers is not a die piece, even for the seat that controls it."""
    t = dive_table()
    t.boat(0, 1, 3)
    t.explorer(0, 9, "boat", 0)
    assert t.options("creature_piece", creature=ST.FACE_BOAT) == []
    assert (ST.PK_BOAT, 0) not in t.options("creature_piece", creature=ST.FACE_STAR)


# ============================================================================ X5.2
def test_x5_2_dolphin_tile_places_a_dolphin_protecting_the_revealers_choice():
    """X5.2 / X5.9: a sunk dolphin tile is revealed at once: a dolphin goes on its hex, the
    tile leaves the game (not into the hand), and of the two explorers that became swimmers
    the revealer chooses the one it protects."""
    t = dive_table()
    t.land(3, 4, "beach", "dolphin")
    a = t.explorer(0, 9, "land", (3, 4))
    b = t.explorer(2, 9, "land", (3, 4))
    t.sink(1, (3, 4), choices=[(b,)])
    assert t.creature_at("dolphin", 0) == (3, 4)
    assert t.protector(b) == 0 and t.protector(a) == -1
    assert t.hand_of(1) == {}
    rec = t.record()
    assert rec["dolphins_placed"] == 1 and rec["back_dolphin"] == 1


def test_x5_2_without_challenge_5_the_dolphin_tile_is_kept():
    """X5.2 applies only under Challenge 5: otherwise the dolphin back is a red tile (B3.6)."""
    t = Table.empty(4)
    t.land(3, 4, "beach", "dolphin")
    t.sink(1, (3, 4))
    assert t.hand_of(1) == {"dolphin": 1} and t.creatures("dolphin") == []


# ============================================================================ X5.5
def test_x5_5_one_dolphin_protects_one_swimmer_from_a_shark():
    """X5.5: a shark moved into a hex with two swimmers and one dolphin eats only the
    unprotected one."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(1, 9, "sea", (1, 5))
    t.protect(0, a)
    t.creature("shark", 0, 1, 4)
    roll(t, 1)
    t.creature_move(2, "shark", 0, (1, 5))
    assert t.where(a) == ("sea", (1, 5)) and t.fate(b) == "shark"


def test_x5_5_several_dolphins_protect_different_swimmers_and_not_from_whirlpools():
    """X5.5 / X5.8: two dolphins protect two swimmers against a serpent; a whirlpool still
    takes protected swimmers and removes dolphins."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    t.creature("dolphin", 1, 1, 5)
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(1, 9, "sea", (1, 5))
    t.protect(0, a).protect(1, b)
    t.creature("serpent", 0, 1, 4)
    roll(t, 1)
    t.creature_move(2, "serpent", 0, (1, 5))
    assert t.where(a) == ("sea", (1, 5)) and t.where(b) == ("sea", (1, 5))
    R.whirlpool(t.S, i32(H(1, 5)))
    assert t.fate(a) == t.fate(b) == "whirlpool"
    assert t.creature_at("dolphin", 0) == t.creature_at("dolphin", 1) == "gone"
    assert (t.S[ST.DOL_PROT:ST.DOL_PROT + 4] == -1).all()


def test_x5_5_dolphin_moved_into_several_swimmers_protects_the_movers_choice():
    """X5.5 / X5.9: a dolphin moved by the dice into a hex with several unprotected swimmers
    protects the one its mover chooses."""
    t = dive_table().log_on()
    t.creature("dolphin", 0, 1, 3)
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(1, 9, "sea", (1, 5))
    dive_step(t, 2, "dolphin", 2, (ST.DOLPHIN, 0, (1, 5)), choices=[(b,)])
    assert t.protector(b) == 0 and t.protector(a) == -1
    ev = [e for e in t.events() if e["type"] == "creature"][0]
    assert ev["f"][6] == b                                           # logged: protects b


# ============================================================================ X5.6
def test_x5_6_dolphin_moved_away_beside_a_shark_leaves_its_swimmer_to_be_eaten():
    """X5.6: the dolphin protecting a swimmer that shares its hex with a shark is moved away
    by another player: the swimmer is eaten at once."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    t.creature("shark", 0, 1, 5)
    a = t.explorer(0, 9, "sea", (1, 5))
    t.protect(0, a)
    dive_step(t, 1, "dolphin", 1, (ST.DOLPHIN, 0, (1, 6)))
    assert t.fate(a) == "shark" and t.creature_at("dolphin", 0) == (1, 6)
    assert t.S[ST.DOL_PROT + 0] == -1


# ============================================================================ X5.7
def test_x5_7_protected_swimmer_may_take_its_dolphin_along():
    """X5.7: a protected swimmer swims one hex with its dolphin (same MP, still its one hex)
    and stays protected: a shark there does not eat it. Without the dolphin it would."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    t.creature("shark", 0, 1, 6)
    a = t.explorer(0, 9, "sea", (1, 5))
    t.protect(0, a)
    rows = t.options("move", 0)
    assert (ST.MV_EXPLORER, a, H(1, 6), ST.SWIM_WITH_DOLPHIN) in rows
    assert (ST.MV_EXPLORER, a, H(1, 6), -1) in rows
    t.move(0, (ST.MV_EXPLORER, a, H(1, 6), ST.SWIM_WITH_DOLPHIN))
    assert t.where(a) == ("sea", (1, 6)) and t.protector(a) == 0
    assert t.creature_at("dolphin", 0) == (1, 6) and t.swam(a)
    assert t.move_dests(0, a) == set()                     # its one sea hex is used


def test_x5_7_unprotected_swimmers_have_no_dolphin_rows_and_leaving_it_unprotects():
    """X5.7 / X5.9: only a protected swimmer gets 'with its dolphin' rows; swimming off without
    it leaves the dolphin free in its hex (it does not take up another swimmer there)."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(1, 9, "sea", (1, 5))
    t.protect(0, a)
    assert not any(r[1] == b and r[3] == ST.SWIM_WITH_DOLPHIN for r in t.options("move", 1))
    t.move(0, mv(a, (1, 6)))
    assert t.protector(a) == -1 and t.protector(b) == -1 and t.S[ST.DOL_PROT + 0] == -1
    assert t.creature_at("dolphin", 0) == (1, 5)


@pytest.mark.parametrize("number", [1, "D"])
def test_x5_7_dive_dice_may_switch_protection_instead_of_moving(number):
    """X5.7 / X5.9: a dolphin sharing its hex with two swimmers may switch its protection to
    the other one instead of moving, on any roll (a D too)."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(1, 9, "sea", (1, 5))
    t.protect(0, a)
    roll(t, number)
    assert (H(1, 5), ST.VIA_SWITCH + b) in dests(t, "dolphin", 0)
    assert (H(1, 5), ST.VIA_SWITCH + a) not in dests(t, "dolphin", 0)
    dive_step(t, 2, "dolphin", number, (ST.DOLPHIN, 0, (1, 5), ST.VIA_SWITCH + b))
    assert t.protector(b) == 0 and t.protector(a) == -1
    assert t.creature_at("dolphin", 0) == (1, 5)


def test_x5_7_no_switch_with_a_single_swimmer():
    """X5.9: a protection switch needs two or more swimmers in the dolphin's hex."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    t.explorer(0, 9, "sea", (1, 5))
    roll(t, 1)
    assert all(via < ST.VIA_SWITCH for _, via in dests(t, "dolphin", 0))


# ============================================================================ X5.8
def test_x5_8_dolphins_share_hexes_with_creatures_and_boats():
    """X5.8: a dolphin moves into hexes holding a shark, a whale or a boat; nothing happens to
    anyone (and a dolphin never stops a creature nor is attacked)."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 3)
    t.creature("shark", 0, 1, 4)
    t.boat(0, 1, 5)
    roll(t, 3)
    got = {d for d, _ in dests(t, "dolphin", 0)}
    assert {H(1, 4), H(1, 5), H(1, 6)} <= got
    dive_step(t, 0, "dolphin", 2, (ST.DOLPHIN, 0, (1, 5)))
    assert t.creature_at("dolphin", 0) == (1, 5) and t.boat_hex(0) == (1, 5)


# ============================================================================ X5.9
def test_x5_9_a_swimmer_entering_a_free_dolphins_hex_is_protected_before_the_shark_bites():
    """X5.9: protection is assigned when a swimmer and a free dolphin come together -- here the
    swimmer swims into a hex holding a free dolphin and a shark, and survives."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 6)
    t.creature("shark", 0, 1, 6)
    a = t.explorer(0, 9, "sea", (1, 5))
    t.move(0, mv(a, (1, 6)))
    assert t.where(a) == ("sea", (1, 6)) and t.protector(a) == 0


def test_x5_9_capsized_passengers_outnumbering_free_dolphins_the_mover_chooses():
    """X5.9 / B6.7 / R15: a whale capsizes a boat of three into a hex with one free dolphin
    and a shark; the seat that moved the whale chooses the passenger the dolphin protects;
    the shark eats the other two, lost to the whale's capsize."""
    t = dive_table()
    t.boat(0, 1, 5)
    a = t.explorer(0, 9, "boat", 0)
    b = t.explorer(2, 9, "boat", 0)
    c = t.explorer(3, 9, "boat", 0)
    t.creature("dolphin", 0, 1, 5)
    t.creature("shark", 0, 1, 5)
    t.creature("whale", 0, 1, 4)
    roll(t, 1)
    t.creature_move(1, "whale", 0, (1, 5), choices=[(c,)])
    assert t.where(c) == ("sea", (1, 5)) and t.protector(c) == 0
    assert t.fate(a) == t.fate(b) == "whale" and t.fate(c) == "none"


def test_x5_9_capsized_passengers_with_enough_free_dolphins_are_all_protected():
    """X5.9: as many free dolphins as capsized passengers: each passenger is protected (in
    boarding order, lowest dolphin first) with no question asked."""
    t = dive_table()
    t.boat(0, 1, 5)
    a = t.explorer(0, 9, "boat", 0)
    b = t.explorer(2, 9, "boat", 0)
    for d in (0, 1, 2):
        t.creature("dolphin", d, 1, 5)
    t.creature("shark", 0, 1, 5)
    t.creature("whale", 0, 1, 4)
    roll(t, 1)
    t.creature_move(1, "whale", 0, (1, 5))
    assert t.protector(a) == 0 and t.protector(b) == 1
    assert t.where(a) == ("sea", (1, 5)) and t.where(b) == ("sea", (1, 5))
    assert t.S[ST.PROTECT_PENDING] == -1


def test_x5_9_a_dolphin_whose_swimmer_left_stays_free():
    """X5.9: after its swimmer boards a boat the dolphin protects nobody, even though another
    unprotected swimmer shares its hex; a later come-together (that swimmer re-entering) is
    needed."""
    t = dive_table()
    t.creature("dolphin", 0, 1, 5)
    t.boat(0, 1, 5)
    a = t.explorer(0, 9, "sea", (1, 5))
    b = t.explorer(1, 9, "sea", (1, 5))
    t.protect(0, a)
    t.move(0, mv(a, (1, 5), boat=0))
    assert t.protector(a) == -1 and t.protector(b) == -1 and t.S[ST.DOL_PROT] == -1


@pytest.mark.parametrize("with_dolphin", [True, False])
def test_x5_7_x6_3_the_overpopulated_bonus_point_never_takes_a_dolphin_along(with_dolphin):
    """X5.7 / X6.3: taking the dolphin along is a step-2 movement point only: the bonus point
    after a sinking offers the protected swimmer's plain moves, not the dolphin's company."""
    from support.harness import STOP, EngineError
    t = Table.empty(5, challenges=(6,), dolphins=True)
    t.clear_island()
    t.land(9, 5, "mountain", "wind")
    t.land(3, 4, "beach", "dolphin")
    a = t.explorer(2, 9, "land", (3, 4))
    t.set(ST.CUR_SEAT, 2)
    boat = ST.SWIM_WITH_DOLPHIN if with_dolphin else -1
    t.script(2, [STOP, mv(a, (2, 4), boat=boat)])
    t.set_dive("serpent", 1)
    if with_dolphin:
        with pytest.raises(EngineError):              # no such option: a bad choice
            t.play_turn()
    else:
        t.play_turn()
        assert t.where(a) == ("sea", (2, 4)) and t.protector(a) == -1
        assert t.creature_at("dolphin", 0) == (3, 4)
