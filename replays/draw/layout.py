"""Pixel geometry of the board picture: where every hex, isle and piece goes.

Hexes are pointy-top, laid out from board.json's offset even-r coordinates (even rows shifted
half a hex right). The four safe isles sit in the board's corners, each on the spot that
touches both of its access hexes (the virtual hexes (1,0), (1,11), (11,0), (11,11)), drawn as a
larger rounded box pushed outwards. Pieces sharing a hex get *slots*: points of a triangular
lattice inside the hex, as coarse as still fits them all, so that tokens never overlap and stay
as large as the crowd allows (a land tile at a 6-player setup, a boat with 3 passengers, a
shark and a dolphin beside swimmers). A boat takes three slots side by side in one row, its
passengers' seats; creatures take the slots at the top of a sea hex, swimmers those at the
bottom.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

from ..board import BOARD

R = 48.0                                  # hex size: centre to corner, px
W = math.sqrt(3) * R                      # hex width (pointy-top): centre to centre in a row
INRADIUS = W / 2
PAD = 14.0                                # margin around everything drawn
ISLE_W, ISLE_H = 2.55 * R, 2.05 * R       # the safe isles' boxes
ISLE_SPOT = {"NW": (1, 0), "NE": (1, 11), "SW": (11, 0), "SE": (11, 11)}
ISLE_PUSH = {"NW": (-0.7, -0.6), "NE": (0.7, -0.6), "SW": (-0.7, 0.6), "SE": (0.7, 0.6)}
SPACINGS = (0.5, 0.42, 0.36, 0.31, 0.27, 0.235, 0.205)   # lattice spacing in hex sizes
TOKEN = 0.46                              # token radius / lattice spacing
MAX_TOKEN = 0.235 * R                     # a lone token is not drawn larger than this


def _raw(r: float, c: float) -> tuple[float, float]:
    return W * (c + (0.5 if r % 2 == 0 else 0.0)), 1.5 * R * r


@dataclass(frozen=True)
class Geometry:
    """The fixed geometry: picture size, hex centres, isle boxes (x, y, w, h)."""
    width: float
    height: float
    centres: tuple[tuple[float, float], ...]       # by hex code 0..132
    isles: dict                                    # isle code 133..136 -> (x, y, w, h)


@lru_cache(maxsize=1)
def geometry() -> Geometry:
    raw = [_raw(r, c) for r, c in BOARD.rc]
    isles = {}
    for k, name in enumerate(BOARD.ISLE_NAMES):
        x, y = _raw(*ISLE_SPOT[name])
        px, py = ISLE_PUSH[name]
        isles[BOARD.isle0 + k] = (x + px * R - ISLE_W / 2, y + py * R - ISLE_H / 2, ISLE_W, ISLE_H)
    xs = [x for x, _ in raw] + [b[0] for b in isles.values()] + [b[0] + b[2] for b in isles.values()]
    ys = [y for _, y in raw] + [b[1] for b in isles.values()] + [b[1] + b[3] for b in isles.values()]
    x0 = min(min(xs), min(x for x, _ in raw) - INRADIUS) - PAD
    y0 = min(min(ys), min(y for _, y in raw) - R) - PAD
    x1 = max(max(xs), max(x for x, _ in raw) + INRADIUS) + PAD
    y1 = max(max(ys), max(y for _, y in raw) + R) + PAD
    centres = tuple((round(x - x0, 2), round(y - y0, 2)) for x, y in raw)
    isles = {code: (round(x - x0, 2), round(y - y0, 2), w, h) for code, (x, y, w, h) in isles.items()}
    return Geometry(math.ceil(x1 - x0), math.ceil(y1 - y0), centres, isles)


def centre(loc: int) -> tuple[float, float]:
    """Pixel centre of a hex or of a safe isle's box."""
    g = geometry()
    if BOARD.is_isle(loc):
        x, y, w, h = g.isles[loc]
        return x + w / 2, y + h / 2
    return g.centres[loc]


@lru_cache(maxsize=1024)
def corners(h: int, scale: float = 1.0) -> tuple[tuple[float, float], ...]:
    """The 6 corners of hex ``h`` (pointy-top), optionally shrunk towards its centre."""
    cx, cy = geometry().centres[h]
    return tuple((round(cx + scale * R * math.cos(math.radians(a)), 2),
                  round(cy + scale * R * math.sin(math.radians(a)), 2))
                 for a in range(-90, 270, 60))


# ---------------------------------------------------------------------------- slots
@dataclass(frozen=True)
class Slots:
    """Offsets from a hex centre: ``creatures`` and ``swimmers`` one point each, ``boats``
    three points each (the passengers' seats, left to right); ``r`` the token radius."""
    creatures: tuple
    boats: tuple
    swimmers: tuple
    r: float


def _inside(x: float, y: float, margin: float) -> bool:
    # a pointy-top hex's sides face 0, 60 and 120 degrees
    lim = INRADIUS - margin + 1e-6
    return (abs(x) <= lim and abs(0.5 * x + 0.8660254 * y) <= lim
            and abs(-0.5 * x + 0.8660254 * y) <= lim)


def _lattice(s: float, offset: tuple[float, float], r: float) -> list[tuple[float, float]]:
    ox, oy = offset
    h = s * math.sqrt(3) / 2
    pts = []
    n = int(R / min(s, h)) + 2
    for j in range(-n, n + 1):
        for i in range(-n, n + 1):
            x = ox + i * s + (j % 2) * s / 2
            y = oy + j * h
            if _inside(x, y, r):
                pts.append((round(x, 2), round(y, 2)))
    return pts


def _rows_of_three(pts):
    """Windows of three neighbouring lattice points in one row, nearest the centre first."""
    by_row: dict[float, list[float]] = {}
    for x, y in pts:
        by_row.setdefault(y, []).append(x)
    out = []
    for y, xs in by_row.items():
        xs.sort()
        for k in range(len(xs) - 2):
            out.append(((xs[k], y), (xs[k + 1], y), (xs[k + 2], y)))
    out.sort(key=lambda w: (abs(w[1][1]), abs(w[1][0]), w[1][1], w[1][0]))
    return out


@lru_cache(maxsize=4096)
def slots(n_creatures: int, n_boats: int, n_swimmers: int) -> Slots:
    """Where the pieces of one hex go (see the module's docstring)."""
    need = n_creatures + n_swimmers
    spacings = list(SPACINGS)
    while True:
        for sp in spacings:
            s = sp * R
            r = min(TOKEN * s, MAX_TOKEN)
            best = None
            offsets = [(0.0, 0.0)] if n_boats else [
                (0.0, 0.0), (s / 2, 0.0), (s / 2, s * math.sqrt(3) / 6)]
            for off in offsets:
                pts = _lattice(s, off, r)
                boats, used = [], set()
                for w in _rows_of_three(pts):
                    if len(boats) == n_boats:
                        break
                    if not used.intersection(w):
                        boats.append(w)
                        used.update(w)
                if len(boats) < n_boats:
                    continue
                free = [p for p in pts if p not in used]
                if len(free) < need:
                    continue
                if n_boats:
                    top = sorted(free, key=lambda p: (p[1], abs(p[0]), p[0]))
                    creatures = top[:n_creatures]
                    rest = [p for p in free if p not in creatures]
                    bottom = sorted(rest, key=lambda p: (-p[1], abs(p[0]), p[0]))
                    swimmers = sorted(bottom[:n_swimmers], key=lambda p: (p[1], p[0]))
                else:
                    near = sorted(free, key=lambda p: (round(p[0] ** 2 + p[1] ** 2, 1), p[1], p[0]))
                    chosen = sorted(near[:need], key=lambda p: (p[1], p[0]))
                    creatures, swimmers = chosen[:n_creatures], chosen[n_creatures:]
                score = sum(x * x + y * y for x, y in creatures + swimmers)
                if best is None or score < best[0] - 1e-6:
                    best = (score, Slots(tuple(creatures), tuple(boats), tuple(swimmers), r))
            if best is not None:
                return best[1]
        spacings = [spacings[-1] * 0.88]        # more than ever fits a hex: keep shrinking


# ---------------------------------------------------------------------------- isles
def isle_entries(code: int, n: int) -> list[tuple[float, float, float, float]]:
    """Boxes (x, y, w, h) for ``n`` per-seat entries of rescued explorers on an isle, in two
    columns of up to three rows below the isle's name."""
    x, y, w, h = geometry().isles[code]
    top = y + 0.42 * R
    rows = max(3, math.ceil(n / 2))
    eh = (h - 0.42 * R - 0.12 * R) / rows
    ew = (w - 0.3 * R) / 2
    return [(x + 0.15 * R + (k % 2) * ew, top + (k // 2) * eh, ew, eh) for k in range(n)]


CORNER_ORDER = (-30, 30, 150, 210, 90, -90)    # upper right first; the top holds the (row,col)


def corner_spots(n: int) -> list[tuple[float, float]]:
    """Offsets near the hex's corners, outside the coarsest slots: where the explorers lost in
    the last event are marked, so that the marks do not cover the pieces still there."""
    out = []
    for k in range(n):
        a = math.radians(CORNER_ORDER[k % 6])
        d = 0.7 * R - 0.12 * R * (k // 6)
        out.append((round(d * math.cos(a), 2), round(d * math.sin(a), 2)))
    return out
