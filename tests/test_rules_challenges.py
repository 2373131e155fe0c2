"""Scenario tests for Challenges 1-4 (RULES.md X2.1-X2.5): hand-built positions, one action, the
exact expected result."""
from __future__ import annotations

import pytest

from support.harness import SAFE_ISLE_OF, STOP, H, Table, i32, mv
from simulator import board as BD
from simulator import rules as R
from simulator import state as ST
from play.settings import Settings, SettingsError

OUTER = [int(h) for h in BD.ISLAND_HEXES if BD.DENSE_CAP[h] == 1]
INNER = [int(h) for h in BD.ISLAND_HEXES if BD.DENSE_CAP[h] == 2]
NW_ACCESS = SAFE_ISLE_OF["NW"][0]


def _dests(t: Table, dense: bool) -> set[int]:
    n = R.options_place_explorer(t.S, i32(0), i32(9), t.opts, dense)
    return {int(t.opts[k, 1]) for k in range(n)}


def test_x2_1_densely_populated_two_per_tile_one_next_to_the_outer_sea():
    """X2.1: with Challenge 1 a tile holding one explorer takes a second unless it touches the
    outer sea (the open sea, not the lagoon); a tile holding two takes no more."""
    assert OUTER and INNER
    lagoon_only = [h for h in INNER if BD.LAGOON in BD.NEIGHBOURS[h, :BD.N_NEIGHBOURS[h]]]
    assert lagoon_only, "a tile next to the lagoon but not the outer sea holds 2"
    t = Table.empty(4, challenges=(1,))
    t.fill_island()
    one_outer, one_inner, two_inner = OUTER[0], INNER[0], INNER[1]
    R.place_explorer(t.S, 10, ST.L_LAND, i32(one_outer))
    R.place_explorer(t.S, 11, ST.L_LAND, i32(one_inner))
    R.place_explorer(t.S, 12, ST.L_LAND, i32(two_inner))
    R.place_explorer(t.S, 13, ST.L_LAND, i32(two_inner))
    dense = _dests(t, True)
    assert one_inner in dense and one_outer not in dense and two_inner not in dense
    assert len(dense) == 40 - 2
    assert _dests(t, False) == set(int(h) for h in BD.ISLAND_HEXES) - {one_outer, one_inner,
                                                                        two_inner}


def test_x2_1_dense_six_player_setup_respects_the_caps_and_needs_no_stacking_rule():
    """X2.1 with 6 players: all 42 explorers placed within the caps (X1.3 is not needed: the
    simulator's ruling is that it does not apply under Challenge 1)."""
    t = Table(6, strategy="random", challenges=(1,))
    t.setup()
    nland = t.S[ST.HEX_NLAND:ST.HEX_NLAND + BD.N_HEX]
    assert nland.sum() == 42
    assert (nland <= BD.DENSE_CAP).all()


def _last_explorer_table(challenges, tiles=((9, 5), (9, 6))) -> tuple[Table, int]:
    t = Table.empty(4, challenges=challenges)
    t.clear_island()
    for x in tiles:
        t.land(*x, "mountain", "wind")
    e = t.explorer(0, 9, "sea", NW_ACCESS)
    return t, e


def test_x2_2_game_ends_the_moment_the_last_explorer_leaves_the_board():
    """X2.2: the last explorer on the board reaches a safe isle with the first movement point:
    the game ends at once (no further movement, no sink, no roll)."""
    t, e = _last_explorer_table((2,))
    dice = int(t.rng[ST.RNG_DICE])
    t.play_turn({0: [mv(e, "NW"), STOP]})
    assert t.over and t.end_reason == "no_explorers" and t.S[ST.END_SEAT] == 0
    assert t.S[ST.TILES_LEFT] == 2 and int(t.rng[ST.RNG_DICE]) == dice
    assert t.record()["score_0"] == 6


def test_x2_2_volcano_is_a_whirlpool_and_the_game_goes_on():
    """X2.2: the volcano does not end the game; it clears its hex and the adjacent sea like a
    whirlpool (B3.4): the explorer on it and a swimmer next to it are lost."""
    t = Table.empty(4, challenges=(2,))
    t.clear_island()
    t.land(3, 4, "mountain", "volcano")
    t.land(9, 5, "mountain", "wind")
    on = t.explorer(0, 9, "land", (3, 4))
    swim = t.explorer(1, 9, "sea", (2, 4))
    far = t.explorer(2, 9, "land", (9, 5))
    t.sink(0, (3, 4))
    assert not t.over
    assert t.fate(on) == "whirlpool" and t.fate(swim) == "whirlpool"
    assert t.where(far) == ("land", (9, 5))
    assert t.record()["back_volcano"] == 1


def test_x2_2_once_the_island_is_gone_turns_have_no_sink_step():
    """X2.2: with no land left a turn is steps 1, 2 and 4: the creature is rolled and moved,
    nothing is sunk, play passes on."""
    t = Table.empty(4, challenges=(2,))
    t.clear_island()
    t.explorer(0, 9, "sea", (6, 6))
    t.creature("shark", 0, 1, 5)
    t.set_die("shark")
    dice = int(t.rng[ST.RNG_DICE])
    t.play_turn({0: [STOP, (ST.SHARK, 0, H(1, 6))]})
    assert not t.over and t.S[ST.CUR_SEAT] == 1
    assert int(t.rng[ST.RNG_DICE]) != dice                    # the roll happened
    assert t.creature_at("shark", 0) == (1, 6)


def test_x2_3_everyone_is_equal_scores_one_per_explorer():
    """X2.3: the score is the number rescued; the value rescued is still recorded (X1.6 b)."""
    t = Table.empty(4, challenges=(3,))
    t.explorer(0, 9, "safe", "NW")                # a 6
    t.explorer(0, 0, "safe", "SE")                # a 1
    t.explorer(1, 8, "safe", "NE")                # a 5
    rec = t.record()
    assert rec["score_0"] == 2 and rec["rescued_value_0"] == 7 and rec["score_1"] == 1


def test_x2_4_atlantis_is_gone_ends_when_the_last_tile_is_removed():
    """X2.4: sinking the last land tile ends the game at once, explorers still on the board."""
    t, e = _last_explorer_table((4,), tiles=((9, 5),))
    t.play_turn({0: [STOP, (H(9, 5),)]})
    assert t.over and t.end_reason == "island_gone" and t.S[ST.TILES_LEFT] == 0
    assert t.where(e) == ("sea", NW_ACCESS)


@pytest.mark.parametrize("back", ["shark", "boat", "whale", "wind"])
def test_r20_last_tile_ends_the_game_before_its_back_is_resolved(back):
    """R20 (Challenge 4): the last tile's back is not resolved -- no shark eats, no boat
    comes, nothing goes into the hand -- but it still counts among the removed tiles; the
    explorers on it are stranded swimmers."""
    t = Table.empty(4, challenges=(4,))
    t.clear_island()
    t.land(3, 5, "forest" if back != "wind" else "beach", back)
    e = t.explorer(1, 9, "land", (3, 5))
    t.sink(0, (3, 5))
    assert t.over and t.end_reason == "island_gone"
    assert t.where(e) == ("sea", (3, 5))
    assert t.creatures("shark") == [] and t.creatures("whale") == [] and t.boat_at(3, 5) is None
    assert t.hand_of(0) == {}
    rec = t.record()
    assert rec[f"back_{back}"] == 1 and rec["tiles_removed"] == 1 and rec["lost_1"] == 0


def test_x2_4_volcano_is_a_whirlpool_while_tiles_remain():
    """X2.4: the volcano is resolved as a whirlpool and the game goes on while land remains."""
    t = Table.empty(4, challenges=(4,))
    t.clear_island()
    t.land(3, 4, "mountain", "volcano")
    t.land(9, 5, "mountain", "wind")
    t.sink(0, (3, 4))
    assert not t.over


@pytest.mark.parametrize("what", ["island first", "explorers first", "last tile a whirlpool"])
def test_x2_5_with_both_end_rules_the_first_met_ends_the_game(what):
    """X2.5: with Challenges 2 and 4 the game ends as soon as either is met. R20: the last
    tile ends the game before its back is resolved, so a last tile that is a whirlpool does
    not take the explorer standing on it: the island is gone first."""
    if what == "island first":
        t, e = _last_explorer_table((2, 4), tiles=((9, 5),))
        t.play_turn({0: [STOP, (H(9, 5),)]})
        assert t.end_reason == "island_gone"
    elif what == "explorers first":
        t, e = _last_explorer_table((2, 4), tiles=((9, 5),))
        t.play_turn({0: [mv(e, "NW")]})
        assert t.end_reason == "no_explorers" and t.S[ST.TILES_LEFT] == 1
    else:
        t = Table.empty(4, challenges=(2, 4))
        t.clear_island()
        t.land(3, 5, "forest", "whirlpool")
        e = t.explorer(0, 9, "land", (3, 5))
        t.play_turn({0: [STOP, (H(3, 5),)]})
        assert t.end_reason == "island_gone" and t.S[ST.TILES_LEFT] == 0
        assert t.where(e) == ("sea", (3, 5)) and t.fate(e) == "none"
    assert t.over and t.S[ST.END_SEAT] == 0


def test_x2_challenges_are_validated():
    assert Settings(challenges=(4, 1, 4)).challenges == (1, 4)
    with pytest.raises(SettingsError, match="accepted: 1, 2, 3, 4"):
        Settings(challenges=(7,))
    assert Settings(challenges=(1, 3)).challenge_bits == ST.CH_DENSE | ST.CH_EQUAL
