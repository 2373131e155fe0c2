"""B1 (components): what the box holds, as the engine sets it up. And a coverage guard: every
rule id of docs/RULES.md in the base game's scope is cited by some test."""
import re
from collections import Counter
from pathlib import Path

import numpy as np
from support.harness import Table

from simulator import board as BD
from simulator import state as ST

ROOT = Path(__file__).resolve().parents[1]


def test_b1_1_forty_terrain_tiles_16_beach_16_forest_8_mountain_with_their_backs():
    """B1.1 / B3: 40 tiles laid on the 40 island hexes, 16/16/8 by terrain, backs as listed."""
    t = Table(4, seed=3)
    terrain = t.S[ST.HEX_TERRAIN:ST.HEX_TERRAIN + BD.N_HEX]
    backs = t.S[ST.TILE_BACK:ST.TILE_BACK + BD.N_HEX]
    on_island = BD.ISLAND_HEXES
    assert (terrain[on_island] >= 0).all() and (terrain >= 0).sum() == 40
    assert Counter(terrain[on_island].tolist()) == {0: 16, 1: 16, 2: 8}
    pairs = Counter(zip(backs[on_island].tolist(), terrain[on_island].tolist()))
    for back in range(ST.N_BACKS):
        for terr in range(3):
            assert pairs.get((back, terr), 0) == ST.BACK_COUNTS[back, terr]
    assert int(t.S[ST.TILES_LEFT]) == 40


def test_b1_2_ten_explorers_per_colour_valued_1_1_1_2_2_3_3_4_5_6():
    """B1.2: each colour has 10 explorers worth 1,1,1,2,2,3,3,4,5,6 (sum 28), unplaced at the
    start, and each seat's private row knows exactly its own values."""
    t = Table(4)
    for seat in range(4):
        ids = range(seat * 10, seat * 10 + 10)
        values = sorted(int(t.S[ST.EX_VALUE + e]) for e in ids)
        assert values == [1, 1, 1, 2, 2, 3, 3, 4, 5, 6] and sum(values) == 28
        assert all(t.S[ST.EX_LOC + e] == ST.L_UNPLACED for e in ids)
        mine = t.S[ST.PRIV + seat * ST.PRIV_W + ST.P_VALUE:][:10]
        assert sorted(mine.tolist()) == values
    assert all(t.S[ST.EX_LOC + e] == ST.L_OFF for e in range(40, 60))


def test_b1_3_b1_4_five_serpents_on_the_board_sharks_and_whales_in_the_supply():
    """B1.3 / B1.4 / B4.1: 5 serpents on the serpent starts; 6 sharks and 5 whales wait in the
    supply."""
    t = Table(4)
    serpents = t.S[ST.CR_HEX + ST.SERPENT * ST.CR_SLOTS:][:5]
    assert serpents.tolist() == BD.SERPENT_STARTS.tolist()
    assert (t.S[ST.CR_HEX + ST.SHARK * ST.CR_SLOTS:][:6] == ST.CR_SUPPLY).all()
    assert (t.S[ST.CR_HEX + ST.WHALE * ST.CR_SLOTS:][:5] == ST.CR_SUPPLY).all()
    assert t.S[ST.CR_HEX + ST.WHALE * ST.CR_SLOTS + 5] == ST.CR_GONE   # no sixth whale
    assert ST.KIND_COUNT.tolist()[:3] == [5, 6, 5]


def test_b1_5_twelve_boats_of_capacity_three():
    """B1.5: 12 boats, all in the supply before setup; a boat with 3 aboard takes no fourth."""
    t = Table.empty(4)
    assert (t.S[ST.BOAT_HEX:ST.BOAT_HEX + ST.N_BOATS] == -1).all() and ST.N_BOATS == 12
    t.boat(0, 4, 0)
    for slot in range(3):
        t.explorer(0, slot, "boat", 0)
    t.explorer(0, 3, "sea", (4, 1))
    assert ("boat", 0) not in t.move_dests(0, 3)


def test_b1_6_creature_die_has_two_faces_of_each_creature():
    """B1.6: the die's six faces are 2 serpent, 2 shark, 2 whale: over many rolls each kind
    comes up a third of the time."""
    from support.harness import die_face
    rng = np.random.default_rng(0)
    faces = Counter(die_face(int(s)) for s in rng.integers(0, 2**62, 30_000))
    assert set(faces) == {0, 1, 2}
    for kind in range(3):
        assert abs(faces[kind] / 30_000 - 1 / 3) < 0.015


def test_b1_7_expansion_pieces_exist_but_stay_out_of_the_base_game():
    """B1.7: 4 dolphins and 5 squid are part of the state (for X5/X7) and stay in the supply
    in the base game."""
    t = Table(4)
    assert ST.KIND_COUNT[ST.DOLPHIN] == 4 and ST.KIND_COUNT[ST.SQUID] == 5
    assert (t.S[ST.CR_HEX + ST.DOLPHIN * ST.CR_SLOTS:][:4] == ST.CR_SUPPLY).all()
    assert (t.S[ST.CR_HEX + ST.SQUID * ST.CR_SLOTS:][:5] == ST.CR_SUPPLY).all()


# rules that only exist under the challenge rules (next issue): R20 is about X2.2 / X2.4
NOT_IN_BASE_GAME = {"R20"}


def test_every_base_game_rule_id_is_cited_by_a_test():
    """Coverage guard: each id of B1-B8 and R1-R21 in docs/RULES.md appears (as b6_10 / B6.10
    / r12 / R12) in some test's name or docstring."""
    rules = (ROOT / "docs" / "RULES.md").read_text()
    ids = set(re.findall(r"^\| (B\d+\.\d+|R\d+) \|", rules, flags=re.M))
    assert len(ids) > 60
    text = "\n".join(p.read_text() for p in (ROOT / "tests").glob("test_*.py"))
    cited = {m.upper().replace("_", ".") for m in re.findall(r"(?<![A-Za-z0-9])[bBrR]\d+(?:[._]\d+)?", text)}
    missing = sorted(ids - cited - NOT_IN_BASE_GAME)
    assert not missing, f"rule ids without a test: {missing}"
