"""greedy keeps per-seat caches between decisions to save work; each must equal what a fresh
computation gives at every moment of real games (the tables are only as right as the caches)."""
import numpy as np

import simulator.engine as E
from simulator.settings import Settings
from simulator.simulate import settings_vector
from simulator.state import EX_AT, EX_LOC, L_SEA, MAX_EX, PRIV, PRIV_W, PUB_SIZE, STATE_SIZE
from strategies import greedy
from strategies.dispatch import MEM_W

MAPS = slice(greedy.M_SWIM, greedy.M_SWIM + 2 * greedy.N_HEX)


def _snapshots(settings, seed, game):
    ev = np.zeros((6000, E.EV_W), np.int32)
    snaps = np.zeros((6000, STATE_SIZE), np.int32)
    S = np.zeros(STATE_SIZE, np.int32)
    n, err = E.replay_game(settings_vector(settings), np.int64(seed), np.int64(game), ev, snaps, S)
    assert err == 0
    return snaps[:n]


def test_danger_maps_kept_up_to_date_equal_fresh_maps():
    """The danger maps are updated only for creatures that moved since the last decision; after
    every event of greedy games (whales, sharks and serpents arriving, moving, leaving the game;
    with the dive dice and the squid too) they must equal maps made from scratch."""
    checked = 0
    for settings in (Settings(players=4, strategies=("greedy",)),
                     Settings(players=6, strategies=("greedy",), dolphins=True, squid=True)):
        for game in range(3):
            kept = np.zeros(MEM_W, np.float64)
            for snap in _snapshots(settings, 5, game):
                pub = np.ascontiguousarray(snap[:PUB_SIZE])
                greedy._danger_maps(pub, kept)
                fresh = np.zeros(MEM_W, np.float64)
                greedy._danger_maps(pub, fresh)
                np.testing.assert_array_equal(kept[MAPS], fresh[MAPS])
                checked += 1
    assert checked > 1000


def test_swimmer_victims_table_equals_the_sum_over_each_hexs_swimmers():
    """A serpent's or shark's attack on a hex is scored from a per-hex table made in one pass
    over the explorers per creature decision; it must equal, for every hex and seat, the sum
    over that hex's swimmers of what eating each is worth (``_value``), added in explorer
    order -- the per-option loop it replaced."""
    settings = Settings(players=6, strategies=("greedy",), dolphins=True)
    checked = gains = 0
    for snap in _snapshots(settings, 5, 0)[::7]:
        pub = np.ascontiguousarray(snap[:PUB_SIZE])
        for seat in (0, 3):
            mine = np.ascontiguousarray(snap[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W])
            mem = np.zeros(MEM_W, np.float64)
            mem[greedy.M_DECISION] = 1.0          # as in a decision: the leaders get counted
            greedy._hex_losses(pub, mine, np.int64(seat), np.int64(L_SEA), 10.0,
                               np.int64(greedy.M_SWIMV), mem)
            want = np.zeros(greedy.N_HEX)
            for e in range(MAX_EX):
                if pub[EX_LOC + e] == L_SEA:
                    want[pub[EX_AT + e]] -= 10.0 * greedy._value(pub, mine, np.int64(seat),
                                                                 np.int64(e), mem)
                    checked += 1
            np.testing.assert_array_equal(mem[greedy.M_SWIMV:greedy.M_SWIMV + greedy.N_HEX],
                                          want)
            gains += int((want > 0).sum())            # opponents' swimmers: eating them helps
    assert checked > 100 and gains > 0
