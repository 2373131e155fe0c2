"""What a finished (or cut-off) game is worth to each seat: the reward a search backs up.

``shares`` is the win share of each seat's player, from the final state: the B7.2 scores
(Challenge 3: every explorer counts 1, X2.3), the top score, then with ``chain`` the X1.6
tie-break chain (most explorers rescued; with Challenge 3 the highest value rescued; fewest
turns taken), a tie left standing split equally (B7.3). With 2 players a player's keys are
the sums over its two colours (B4.5), as ``simulator.scoring`` computes them for a table;
``tests/test_search.py`` checks the two agree on played games.

``estimate`` is the value of a position where a search stops looking ahead (its ``depth``):
each player's score so far plus, for every explorer still in play, its value times a rough
chance of getting home from where it stands (the lookahead's potential, ``strategies.queries``:
100 on an isle, less 10 per movement point still needed, less ``risk`` times the static danger
of the creatures' next die move where it swims or sails, as a fraction).
The players' estimates become shares by a softmax at ``temperature`` points, so a clear lead
counts nearly as a win and a close race as a near tie. A score bonus (komi, C1) counts in both:
the win is decided on score plus bonus, and the softmax races the estimates plus bonus.
``blend_scores`` mixes in shares of the points alone: a bonus is the same whatever is played.
``out`` holds 3 x 6 cells: the shares, then scratch, then the estimated points (``blend_scores``
reads them).
"""
import numpy as np

from simulator.board import DIST_TO_ACCESS, N_HEX
from simulator.jit import hot
from simulator.state import (
    BOAT_HEX,
    CH_EQUAL,
    CHALLENGES,
    EX_AT,
    EX_LOC,
    EX_VALUE,
    HEX_TERRAIN,
    KOMI,
    L_BOAT,
    L_LAND,
    L_SAFE,
    L_SEA,
    MAX_EX,
    MAX_SEATS,
    N_PLAYERS,
    N_SEATS,
    SLOTS,
    TURNS,
)
from strategies.queries import Q_BOAT, Q_STAMP, Q_SWIM, danger_maps


@hot
def _keys(S, keys):
    """Per player (rows): score, rescued, value rescued, turns taken."""
    equal = (S[CHALLENGES] & CH_EQUAL) != 0
    players = S[N_PLAYERS]
    for p in range(MAX_SEATS):
        for j in range(4):
            keys[p, j] = 0
    for s in range(S[N_SEATS]):
        keys[s % players, 3] += S[TURNS + s]
    for e in range(MAX_EX):
        s = e // SLOTS
        if s < S[N_SEATS] and S[EX_LOC + e] == L_SAFE:
            p = s % players
            keys[p, 0] += 1 if equal else S[EX_VALUE + e]
            keys[p, 1] += 1
            keys[p, 2] += S[EX_VALUE + e]


@hot
def komi_halves(S, p):
    """C1.1: player ``p``'s score bonus in half points (2 players: over its two colours)."""
    players = S[N_PLAYERS]
    out = 0
    for s in range(S[N_SEATS]):
        if s % players == p:
            out += S[KOMI + s]
    return out


@hot
def shares(S, chain, keys, out):
    """Each seat's win share (its player's) in ``out[:N_SEATS]``; ``keys`` is (6, 4) scratch.
    The totals compared are twice the score plus the bonus in half points (C1.2)."""
    _keys(S, keys)
    players = S[N_PLAYERS]
    equal = (S[CHALLENGES] & CH_EQUAL) != 0
    alive = np.int64(0)                        # bit p: player p still in the running
    best = np.int64(-(1 << 40))
    for p in range(players):
        total = 2 * keys[p, 0] + komi_halves(S, p)
        if total > best:
            best = total
    for p in range(players):
        if 2 * keys[p, 0] + komi_halves(S, p) == best:
            alive |= np.int64(1) << p
    if chain:
        for step in range(3):
            if step == 1 and not equal:
                continue
            top = np.int64(-(1 << 40))
            for p in range(players):
                if alive & (np.int64(1) << p):
                    key = -keys[p, 3] if step == 2 else keys[p, 1 + step]
                    if key > top:
                        top = key
            for p in range(players):
                if alive & (np.int64(1) << p):
                    key = -keys[p, 3] if step == 2 else keys[p, 1 + step]
                    if key != top:
                        alive &= ~(np.int64(1) << p)
    count = 0
    for p in range(players):
        count += (alive >> p) & 1
    for s in range(S[N_SEATS]):
        out[s] = ((alive >> (s % players)) & 1) / count


@hot
def _home(S, e, danger, risk):
    """A rough chance that explorer ``e`` gets home from where it stands: less ``risk`` times
    the static danger where it swims or sails (``danger``: ``queries.danger_maps``, 100 where a
    creature's die move attacks it, 12 next to that; /100)."""
    loc = S[EX_LOC + e]
    h = S[EX_AT + e]
    if loc == L_SAFE or h >= N_HEX:
        return 1.0
    if loc == L_BOAT:
        b = S[BOAT_HEX + h]
        return max(0.9 - 0.1 * DIST_TO_ACCESS[b] - risk * danger[Q_BOAT + b] / 100.0, 0.05)
    if loc == L_SEA:
        return max(0.9 - 0.1 * DIST_TO_ACCESS[h] - risk * danger[Q_SWIM + h] / 100.0, 0.05)
    if loc == L_LAND:
        return max(0.86 - 0.1 * (DIST_TO_ACCESS[h] + 1) + 0.02 * S[HEX_TERRAIN + h], 0.05)
    return 0.0


@hot
def estimate(S, temperature, keys, out, danger, risk):
    """Each seat's share at a cut-off position (see the module's docstring); ``danger`` is
    ``queries.Q_END`` cells of scratch for the danger maps, weighed ``risk``."""
    _keys(S, keys)
    if risk > 0.0:
        danger[Q_STAMP] = 0.0                     # marked afresh: the creatures have moved
        danger_maps(S, danger)
    players = S[N_PLAYERS]
    equal = (S[CHALLENGES] & CH_EQUAL) != 0
    for p in range(players):
        out[MAX_SEATS + p] = keys[p, 0]
    for e in range(MAX_EX):
        s = e // SLOTS
        loc = S[EX_LOC + e]
        if s < S[N_SEATS] and (loc == L_LAND or loc == L_BOAT or loc == L_SEA):
            out[MAX_SEATS + s % players] += ((1 if equal else S[EX_VALUE + e])
                                             * _home(S, e, danger, risk))
    for p in range(players):
        out[2 * MAX_SEATS + p] = out[MAX_SEATS + p]        # the points alone: blend_scores'
        out[MAX_SEATS + p] += 0.5 * komi_halves(S, p)      # the race is on points + bonus
    top = out[MAX_SEATS]
    for p in range(1, players):
        top = max(top, out[MAX_SEATS + p])
    total = 0.0
    for p in range(players):
        out[MAX_SEATS + p] = np.exp((out[MAX_SEATS + p] - top) / temperature)
        total += out[MAX_SEATS + p]
    for s in range(S[N_SEATS]):
        out[s] = out[MAX_SEATS + s % players] / total


@hot
def blend_scores(S, weight, keys, out, cut):
    """Mix each seat's share with ``weight`` times its player's share of the points scored
    (at a cut, of the estimated points, left in ``out[MAX_SEATS:]`` by ``estimate`` before its
    softmax, so ``cut`` passes them here): a smoother reward, which separates moves whose
    win shares differ too little to show in a few hundred games."""
    if weight <= 0.0:
        return
    players = S[N_PLAYERS]
    total = 0.0
    for p in range(players):
        total += out[2 * MAX_SEATS + p] if cut else keys[p, 0]
    for s in range(S[N_SEATS]):
        p = s % players
        part = (out[2 * MAX_SEATS + p] if cut else keys[p, 0]) / total if total > 0 else \
            1.0 / players
        out[s] = (1.0 - weight) * out[s] + weight * part
