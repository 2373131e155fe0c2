"""Invariants over thousands of logged random and greedy games at 2 to 6 players, checked on
the state after every single event (placement, move, sink, creature move, ...).

The checks are plain numpy over the snapshot array, independent of the compiled rules: every
explorer is in exactly one place and the occupancy counts agree; no boat holds more than 3; no
hex holds two boats; the at-rest rule (B6.7) holds everywhere; tiles sink in terrain order
(B5.5); an explorer never returns to land (B6.3); the game ends exactly at the volcano (B5.7);
each colour plays 10 explorers, 8 with 5 players and 7 with 6 (X1.1, X1.2); a land tile holds one
explorer after the setup, with exactly two doubled tiles with 6 players (X1.3).
"""
import numpy as np
import pytest

from simulator import engine as E
from simulator.board import N_HEX
from simulator.settings import Settings
from simulator.simulate import settings_vector
from simulator.state import (
    B_VOLCANO,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_HEX,
    CR_SLOTS,
    DOLPHIN,
    E_VOLCANO,
    EX_AT,
    EX_LOC,
    HEX_BOAT,
    HEX_NCR,
    HEX_NLAND,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_OFF,
    L_SEA,
    MAX_EX,
    N_BOATS,
    N_PLAYERS,
    N_SEATS,
    N_KINDS,
    SERPENT,
    SHARK,
    STATE_SIZE,
    TERRAIN_LEFT,
    WHALE,
)

GAMES = 400          # per (player count, strategy mix): 2,400 games, every event checked
MIXES = {"random": ("random",), "greedy": ("greedy",)}


def _play(settings, seed, game, buffers):
    ev, snaps, S = buffers
    n, err = E.replay_game(settings_vector(settings), np.int64(seed), np.int64(game), ev, snaps, S)
    assert err == 0
    return ev[:n], snaps[:n]


def check_snapshots(ev: np.ndarray, X: np.ndarray) -> None:
    n = len(X)
    loc = X[:, EX_LOC:EX_LOC + MAX_EX]
    at = X[:, EX_AT:EX_AT + MAX_EX]
    in_play = loc[0] != L_OFF
    players, seats = X[0, N_PLAYERS], X[0, N_SEATS]
    per_colour = {5: 8, 6: 7}.get(players, 10)                      # X1.1, X1.2
    assert (in_play.reshape(-1, 10).sum(axis=1) == [per_colour] * seats + [0] * (6 - seats)).all()
    most = 2 if players == 6 else 1                                  # B4.3, X1.3 (at setup:
    placed = np.flatnonzero(ev[:, 0] == E.EV_PLACE_EXPLORER)[-1]     # explorers walk together
    nland = X[placed, HEX_NLAND:HEX_NLAND + N_HEX]                   # later, B6.2)
    assert nland.max() <= most and (nland == 2).sum() == (2 if players == 6 else 0)
    # every explorer in exactly one place: recount the occupancy arrays from the explorers
    for kind, region in ((L_LAND, HEX_NLAND), (L_SEA, HEX_NSWIM)):
        counts = np.zeros((n, N_HEX), np.int64)
        rows, cols = np.nonzero(loc == kind)
        np.add.at(counts, (rows, at[rows, cols]), 1)
        assert (counts == X[:, region:region + N_HEX]).all(), f"occupancy of loc {kind} drifted"
    boat_n = X[:, BOAT_N:BOAT_N + N_BOATS]
    assert (boat_n <= 3).all() and (boat_n >= 0).all(), "a boat holds more than 3"
    passengers = X[:, BOAT_P:BOAT_P + 3 * N_BOATS].reshape(n, N_BOATS, 3)
    for i in range(n):
        aboard = np.flatnonzero(loc[i] == L_BOAT)
        listed = passengers[i][passengers[i] >= 0]
        assert sorted(listed.tolist()) == aboard.tolist(), "boat passengers disagree"
        for b in range(N_BOATS):
            got = passengers[i, b, :boat_n[i, b]]
            assert (at[i, got] == b).all() and (passengers[i, b, boat_n[i, b]:] == -1).all()
    # no hex holds two boats, and the boat-by-hex table agrees
    bh = X[:, BOAT_HEX:BOAT_HEX + N_BOATS]
    for i in range(n):
        placed = bh[i][bh[i] >= 0]
        assert len(np.unique(placed)) == len(placed), "two boats in one hex"
        table = X[i, HEX_BOAT:HEX_BOAT + N_HEX]
        assert (table[placed] == np.flatnonzero(bh[i] >= 0)).all()
        assert (table >= 0).sum() == len(placed)
        assert (X[i, HEX_TERRAIN + placed] < 0).all(), "a boat on land"
    # creatures: counts by hex agree with the pieces, only on sea
    for kind in range(N_KINDS):
        hexes = X[:, CR_HEX + kind * CR_SLOTS:CR_HEX + kind * CR_SLOTS + KIND_COUNT[kind]]
        counts = np.zeros((n, N_HEX), np.int64)
        rows, cols = np.nonzero(hexes >= 0)
        np.add.at(counts, (rows, hexes[rows, cols]), 1)
        assert (counts == X[:, HEX_NCR + kind * N_HEX:HEX_NCR + (kind + 1) * N_HEX]).all()
        terrain = X[:, HEX_TERRAIN:HEX_TERRAIN + N_HEX]
        assert (terrain[counts > 0] < 0).all(), "a creature on land"
    # at-rest rule (B6.7): no swimmer with a serpent or shark; no occupied boat with a serpent
    # or whale (no dolphins in the base game, so every swimmer is unprotected)
    ncr = X[:, HEX_NCR:HEX_NCR + N_KINDS * N_HEX].reshape(n, N_KINDS, N_HEX)
    assert (ncr[:, DOLPHIN] == 0).all()
    swim = X[:, HEX_NSWIM:HEX_NSWIM + N_HEX]
    assert not ((swim > 0) & ((ncr[:, SERPENT] > 0) | (ncr[:, SHARK] > 0))).any(), "B6.7 swimmer"
    occupied = np.zeros((n, N_HEX), bool)
    rows, cols = np.nonzero((bh >= 0) & (boat_n > 0))
    occupied[rows, bh[rows, cols]] = True
    assert not (occupied & ((ncr[:, SERPENT] > 0) | (ncr[:, WHALE] > 0))).any(), "B6.7 boat"
    # an explorer that left land never returns (B6.3)
    on_land = loc == L_LAND
    left = np.maximum.accumulate(~on_land & (loc != 6), axis=0)   # 6 = unplaced
    assert not (left & on_land).any(), "an explorer returned to land"
    # tiles sink in terrain order (B5.5) and the game ends exactly at the volcano (B5.7)
    sinks = np.flatnonzero(ev[:, 0] == E.EV_SINK)
    for i in sinks:
        before = X[i - 1]
        h = ev[i, 3]
        lowest = np.flatnonzero(before[TERRAIN_LEFT:TERRAIN_LEFT + 3] > 0)[0]
        assert before[HEX_TERRAIN + h] == lowest, "a tile sank out of terrain order"
    volcano = [i for i in sinks if ev[i, 4] == B_VOLCANO]
    assert len(volcano) == 1 and volcano[0] == n - 2, "the game did not end at the volcano"
    assert ev[-1, 0] == E.EV_END and ev[-1, 3] == E_VOLCANO
    assert in_play.sum() == (loc[-1] != L_OFF).sum()


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_invariants_after_every_step(players, mix):
    """B2-B7 invariants after every event of many complete games."""
    settings = Settings(players=players, strategies=MIXES[mix])
    buffers = (np.zeros((6000, E.EV_W), np.int32), np.zeros((6000, STATE_SIZE), np.int32),
               np.zeros(STATE_SIZE, np.int32))
    for game in range(GAMES):
        ev, X = _play(settings, 11, game, buffers)
        check_snapshots(ev, X)
