"""A world the searching seat cannot tell from the real one (ISMCTS's determinization).

``determinize(S, seat, rng, k)`` replaces, in place, every cell of ``S`` that is hidden from
``seat`` (RULES R11) by a draw consistent with what it knows: the public table and its own
secrets. It reads nothing else, so a search built on it is blind to hidden information by
construction (``tests/test_search.py`` changes every hidden cell and gets the same world).

* **Other seats' explorer values**: each colour's values (the rules' slots less those X1
  removes, which is public) shuffled over its explorers still in the game; its unplaced ones
  then hold their values in slot order, as the rules list them for placing (B4.3).
* **Tile backs and other hands**: per terrain, the pool is the terrain's backs (B3) less the
  seat's own hand and less the backs the table shows were revealed: every shark, whale (and,
  with the dive dice, dolphin) out of the supply came from a tile, and every tile of a lower
  terrain is gone first (B5.5), so those are counted exactly. Other hands draw their red backs
  for their public terrains first, then every tile still on the island draws from what is
  left. Backs whose reveal leaves no mark (a whirlpool, a boat) stay in the pool: the seat
  knows no better from the table (as ``strategies.queries.back_odds``).
"""
from simulator.board import ISLAND_HEXES, N_HEX
from simulator.jit import hot
from simulator.rng import randint
from simulator.state import (
    B_DOLPHIN,
    B_SHARK,
    B_WHALE,
    B_WIND,
    BACK_COUNTS,
    BACKS_REMOVED,
    CH_DIVE,
    CHALLENGES,
    DOLPHIN,
    EX_LOC,
    EX_VALUE,
    HAND_TERRAIN,
    HEX_TERRAIN,
    L_OFF,
    L_UNPLACED,
    MAX_EX,
    MAX_SEATS,
    N_BACKS,
    N_SEATS,
    N_TERRAIN,
    P_HAND,
    P_HAND_T,
    P_VALUE,
    PRIV,
    PRIV_W,
    SHARK,
    SLOT_VALUES,
    SLOTS,
    SQUID_ONLY,
    TILE_BACK,
    WHALE,
)
from strategies.queries import revealed

TMP_W = 2 * SLOTS + N_BACKS


@hot
def _shuffle_values(S, s, rng, k, tmp):
    """Colour ``s``'s values shuffled over its explorers in the game; unplaced ones in slot
    order."""
    vals = tmp[:SLOTS]
    slots = tmp[SLOTS:2 * SLOTS]
    m = 0
    for slot in range(SLOTS):
        if S[EX_LOC + s * SLOTS + slot] != L_OFF:
            vals[m] = SLOT_VALUES[slot]
            slots[m] = slot
            m += 1
    for i in range(m - 1, 0, -1):
        j = randint(rng, k, i + 1)
        t = vals[i]
        vals[i] = vals[j]
        vals[j] = t
    for i in range(m):                         # the unplaced ones' values, in slot order
        if S[EX_LOC + s * SLOTS + slots[i]] != L_UNPLACED:
            continue
        for j in range(i + 1, m):
            if S[EX_LOC + s * SLOTS + slots[j]] == L_UNPLACED and vals[j] < vals[i]:
                t = vals[i]
                vals[i] = vals[j]
                vals[j] = t
    for i in range(m):
        S[EX_VALUE + s * SLOTS + slots[i]] = vals[i]
        S[PRIV + s * PRIV_W + P_VALUE + slots[i]] = vals[i]


@hot
def _draw(pool, lo, hi, rng, k):
    """One back from ``pool[lo:hi]`` in proportion to its counts (taken out); -1 if empty."""
    total = 0
    for b in range(lo, hi):
        total += pool[b]
    if total <= 0:
        return -1
    r = randint(rng, k, total)
    for b in range(lo, hi):
        if r < pool[b]:
            pool[b] -= 1
            return b
        r -= pool[b]
    return -1


@hot
def _clear_the_rest(S, seat):
    """The hidden cells no draw sets: the observer's values from its own row, nothing for
    explorers out of the game, absent seats and sunk hexes, and no record of removed backs
    (the per-game table's, which no rule reads)."""
    nseats = S[N_SEATS]
    for e in range(MAX_EX):
        s = e // SLOTS
        if s >= nseats or S[EX_LOC + e] == L_OFF:
            S[EX_VALUE + e] = 0
            if s < nseats and s != seat:
                S[PRIV + s * PRIV_W + P_VALUE + e % SLOTS] = 0
        elif s == seat:
            S[EX_VALUE + e] = S[PRIV + seat * PRIV_W + P_VALUE + e % SLOTS]
    for s in range(nseats, MAX_SEATS):
        for i in range(PRIV_W):
            S[PRIV + s * PRIV_W + i] = 0
    for h in range(N_HEX):
        if S[HEX_TERRAIN + h] < 0:
            S[TILE_BACK + h] = -1
    for b in range(N_BACKS):
        S[BACKS_REMOVED + b] = 0


@hot
def determinize(S, seat, rng, k, tmp):
    """Replace every cell hidden from ``seat`` by a consistent draw from stream ``k``
    (``tmp``: ``TMP_W`` int32 of scratch)."""
    nseats = S[N_SEATS]
    _clear_the_rest(S, seat)
    for s in range(nseats):
        if s != seat:
            _shuffle_values(S, s, rng, k, tmp)
    dive = (S[CHALLENGES] & CH_DIVE) != 0
    own = PRIV + seat * PRIV_W
    pool = tmp[2 * SLOTS:2 * SLOTS + N_BACKS]
    for t in range(N_TERRAIN):
        for b in range(N_BACKS):
            pool[b] = BACK_COUNTS[b, t] - S[own + P_HAND_T + b * N_TERRAIN + t]
        pool[B_SHARK] -= revealed(S, SHARK, B_SHARK, t)
        if S[SQUID_ONLY] == 0:
            pool[B_WHALE] -= revealed(S, WHALE, B_WHALE, t)
        if dive:
            pool[B_DOLPHIN] -= revealed(S, DOLPHIN, B_DOLPHIN, t)
        for b in range(N_BACKS):
            pool[b] = max(pool[b], 0)
        red = B_WIND if dive else B_DOLPHIN    # backs from here on go to a hand (B5.6)
        for s in range(nseats):
            if s == seat:
                continue
            row = PRIV + s * PRIV_W
            if t == 0:
                for b in range(N_BACKS):
                    S[row + P_HAND + b] = 0
                    for u in range(N_TERRAIN):
                        S[row + P_HAND_T + b * N_TERRAIN + u] = 0
            for _ in range(S[HAND_TERRAIN + s * N_TERRAIN + t]):
                b = _draw(pool, red, N_BACKS, rng, k)
                if b < 0:
                    b = B_WIND                 # cannot happen: the pool holds the truth
                S[row + P_HAND + b] += 1
                S[row + P_HAND_T + b * N_TERRAIN + t] += 1
        for i in range(ISLAND_HEXES.shape[0]):
            h = ISLAND_HEXES[i]
            if S[HEX_TERRAIN + h] == t:
                b = _draw(pool, 0, N_BACKS, rng, k)
                S[TILE_BACK + h] = b if b >= 0 else B_WIND
