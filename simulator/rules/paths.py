"""Reach (R12): the hexes a mover reaches in 1..n steps of adjacent sea hexes (simple paths; a
hex where it must stop ends its path: R12, X5.4, X7.3, X7.5; a swimmer's last step may be onto
the safe isle of its access hex, R7), and the path there. A breadth-first search in the work
array ``W`` (``layout``), reset by search id rather than cleared."""
import numpy as np

from simulator.board import ACCESS_ISLE, N_HEX, N_NEIGHBOURS, NEIGHBOURS
from simulator.jit import hot
from simulator.state import HEX_BOAT, HEX_NCR, HEX_TERRAIN, SERPENT, SHARK, SQUID, WHALE

from .layout import W_DIST, W_JOURNAL, W_MARK, W_PARENT, W_QUEUE, W_SEARCH
from .queries import boat_occupied, land_explorers_next_to, unprotected_swimmers

# movers for reach(): how a piece moving several hexes in one go treats each hex (R12)
MT_SERPENT, MT_SHARK, MT_WHALE, MT_SWIMMER, MT_BOAT = 0, 1, 2, 3, 4
MT_DOLPHIN, MT_SQUID, MT_EMPTY_BOAT = 5, 6, 7


@hot
def _stops(S, mt, h):
    """A mover of type ``mt`` that enters sea hex ``h`` must end its path there (R12)."""
    if mt == MT_SHARK:
        return unprotected_swimmers(S, h) > 0
    if mt == MT_WHALE:                   # X7.5: a whale entering a squid's hex ends its move
        return boat_occupied(S, h) or S[HEX_NCR + SQUID * N_HEX + h] > 0
    if mt == MT_SERPENT:                 # only matters for dive-dice moves of 2-3 (X5.4)
        return boat_occupied(S, h) or unprotected_swimmers(S, h) > 0
    if mt == MT_SQUID:                   # X7.3
        return boat_occupied(S, h) or S[HEX_NCR + WHALE * N_HEX + h] > 0 \
            or land_explorers_next_to(S, h)
    if mt == MT_SWIMMER:
        return S[HEX_NCR + SERPENT * N_HEX + h] + S[HEX_NCR + SHARK * N_HEX + h] > 0
    if mt == MT_BOAT:
        return S[HEX_NCR + SERPENT * N_HEX + h] + S[HEX_NCR + WHALE * N_HEX + h] > 0
    return False


@hot
def reach(S, W, mt, start, maxd):
    """Breadth-first search of the hexes a mover of type ``mt`` can end on from ``start`` in
    1..maxd steps of adjacent sea hexes (R12: simple paths; a stop hex ends the path). A swimmer
    may take its last step from an access hex onto the safe isle (R7). Fills ``W[W_DIST+loc]``
    and ``W[W_PARENT+loc]`` for the locations it reaches (marked with this search's id in
    ``W_MARK``, so nothing is reset between searches); returns how many it reached, listed from
    ``W[W_QUEUE+1]`` on (the start sits at ``W[W_QUEUE]``)."""
    mark = W[W_SEARCH] + 1
    W[W_SEARCH] = mark
    W[W_MARK + start] = mark
    W[W_DIST + start] = 0
    W[W_PARENT + start] = -1
    W[W_QUEUE] = start
    boat = (mt == MT_BOAT) | (mt == MT_EMPTY_BOAT)
    head = 0
    tail = 1
    while head < tail:
        u = W[W_QUEUE + head]
        head += 1
        du = W[W_DIST + u]
        if du >= maxd or u >= N_HEX:
            continue
        if u != start and _stops(S, mt, u):
            continue
        for i in range(N_NEIGHBOURS[u]):           # enter any sea hex (a boat: without a
            v = NEIGHBOURS[u, i]                   # boat) not reached yet; branch-free
            ok = (W[W_MARK + v] != mark) & (S[HEX_TERRAIN + v] < 0)
            if boat:
                ok = ok & (S[HEX_BOAT + v] < 0)
            W[W_MARK + v] = mark if ok else W[W_MARK + v]
            W[W_DIST + v] = du + 1 if ok else W[W_DIST + v]
            W[W_PARENT + v] = u if ok else W[W_PARENT + v]
            W[W_QUEUE + tail] = v                  # kept only if ok (tail <= 38 for maxd 3)
            tail += np.int64(ok)
        if mt == MT_SWIMMER and ACCESS_ISLE[u] >= 0:
            v = ACCESS_ISLE[u]
            if W[W_MARK + v] != mark:
                W[W_MARK + v] = mark
                W[W_DIST + v] = du + 1
                W[W_PARENT + v] = u
                W[W_QUEUE + tail] = v
                tail += 1
    return tail - 1


@hot
def reset_work(W):
    """Clear the scratch array at the start of a game (search marks start from zero); the
    journal past ``W_JOURNAL`` is the engine's own, written afresh at each clean point."""
    for i in range(W_JOURNAL):
        W[i] = 0


@hot
def path_to(W, dest, path):
    """Write the path found by ``reach`` into ``path`` (entered locations, in order); return
    its length."""
    n = W[W_DIST + dest]
    x = dest
    for i in range(n - 1, -1, -1):
        path[i] = x
        x = W[W_PARENT + x]
    return n
