"""The board as numpy tables, built once from the packaged ``data/board.json`` (RULES B2).

Every place a piece can be is a *location code*: ``0..132`` are the hexes in the order of
``board.json``; ``133..136`` are the four safe isles (NW, NE, SW, SE). The rules core only ever
indexes these tables, so they are plain module-level arrays that numba freezes as constants.
"""
from __future__ import annotations

import json
from importlib import resources

import numpy as np

N_HEX = 133
N_ISLE = 4
ISLE0 = N_HEX                      # location code of the first safe isle
N_LOC = N_HEX + N_ISLE
ISLE_NAMES = ("NW", "NE", "SW", "SE")
TERRAIN_NAMES = ("beach", "forest", "mountain")


def _load() -> dict:
    with resources.files("simulator").joinpath("data/board.json").open() as f:
        return json.load(f)


BOARD_JSON = _load()
HEX_RC = np.array(BOARD_JSON["hexes"], dtype=np.int64)          # (133, 2) row, col
_INDEX = {(int(r), int(c)): i for i, (r, c) in enumerate(HEX_RC)}


def hex_index(r: int, c: int) -> int:
    """Hex id of offset coordinates (row, col)."""
    return _INDEX[(r, c)]


def _neighbours_rc(r: int, c: int):
    # even-r offset layout, exactly as board.json's "coordinates" note states
    if r % 2 == 0:
        return [(r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1)]
    return [(r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c)]


def _build():
    nb = np.full((N_HEX, 6), -1, dtype=np.int64)
    nnb = np.zeros(N_HEX, dtype=np.int64)
    for i, (r, c) in enumerate(HEX_RC):
        k = 0
        for rc in _neighbours_rc(int(r), int(c)):
            j = _INDEX.get(rc)
            if j is not None:
                nb[i, k] = j
                k += 1
        nnb[i] = k
    island = np.zeros(N_HEX, dtype=np.bool_)
    for r, c in BOARD_JSON["island"]:
        island[_INDEX[(r, c)]] = True
    lagoon = _INDEX[tuple(BOARD_JSON["lagoon"])]
    serpent_starts = np.array([_INDEX[tuple(rc)] for rc in BOARD_JSON["serpent_starts"]],
                              dtype=np.int64)
    # access_isle[h] = location code of the isle reachable from hex h, or -1
    access_isle = np.full(N_HEX, -1, dtype=np.int64)
    for k, name in enumerate(ISLE_NAMES):
        for rc in BOARD_JSON["safe_isles"][name]:
            access_isle[_INDEX[tuple(rc)]] = ISLE0 + k
    # outer sea (X2.1): sea hexes other than the lagoon
    outer_sea = ~island
    outer_sea[lagoon] = False
    # all-pairs hex distance ignoring terrain (a lower bound on any path), by BFS
    dist = np.full((N_HEX, N_HEX), 99, dtype=np.int64)
    for s in range(N_HEX):
        dist[s, s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for k in range(nnb[u]):
                    v = nb[u, k]
                    if dist[s, v] == 99:
                        dist[s, v] = dist[s, u] + 1
                        nxt.append(v)
            frontier = nxt
    # distance from each hex to the nearest access hex, and which isle that is
    acc = np.flatnonzero(access_isle >= 0)
    dist_access = dist[:, acc].min(axis=1)
    # balls: the hexes within 3 of each hex, nearest first; ball_n[h, d] = how many within d
    ball = np.full((N_HEX, 37), -1, dtype=np.int64)
    ball_n = np.zeros((N_HEX, 4), dtype=np.int64)
    for h in range(N_HEX):
        near = [x for x in np.argsort(dist[h], kind="stable") if dist[h, x] <= 3]
        ball[h, :len(near)] = near
        for d in range(4):
            ball_n[h, d] = int((dist[h] <= d).sum())
    return (nb, nnb, island, lagoon, serpent_starts, access_isle, outer_sea, dist,
            dist_access, ball, ball_n)


(NEIGHBOURS, N_NEIGHBOURS, ISLAND, LAGOON, SERPENT_STARTS, ACCESS_ISLE,
 OUTER_SEA, HEX_DIST, DIST_TO_ACCESS, BALL, BALL_N) = _build()

ISLAND_HEXES = np.flatnonzero(ISLAND).astype(np.int64)       # the 40 tile hexes, ascending
# every hex next to an island hex: the only hexes that can ever be "next to a land tile"
COAST_HEXES = np.array([h for h in range(N_HEX) if not ISLAND[h] and
                        ISLAND[NEIGHBOURS[h, :N_NEIGHBOURS[h]]].any()], dtype=np.int64)

# X2.1 (Challenge 1): explorers a land tile may hold at setup: 1 next to the outer sea, else 2
DENSE_CAP = np.array([1 if OUTER_SEA[NEIGHBOURS[h, :N_NEIGHBOURS[h]]].any() else 2
                      for h in range(N_HEX)], dtype=np.int64)

assert N_HEX == len(HEX_RC) == BOARD_JSON["counts"]["hexes"]
assert len(ISLAND_HEXES) == BOARD_JSON["counts"]["island"]


def loc_name(loc: int) -> str:
    """Human-readable name of a location code, e.g. ``(6,5)`` or ``isle NW``."""
    if loc >= ISLE0:
        return f"isle {ISLE_NAMES[loc - ISLE0]}"
    r, c = HEX_RC[loc]
    return f"({r},{c})"
