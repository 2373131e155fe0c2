"""The shapes of the pieces: tokens, boats, creature markers, isle badges, highlights.

Each function returns the shapes of one group (one piece), positioned by the caller; the look
of every piece is decided here and nowhere else. Explorer tokens are circles in the seat's
colour with a dark outline and a thin white halo (visible on sea, sand and forest alike) and
the explorer's value; creatures are non-circular silhouettes (serpent diamond, shark fin,
whale oval, dolphin pentagon, squid star) with a letter, so that shape alone tells them apart.
"""
from __future__ import annotations

import math

import replays.draw.style as S

from .shapes import Circle, Line, Polygon, Rect, Text


def _p(x, y):
    return (round(x, 2), round(y, 2))


def token(group: str, x: float, y: float, r: float, colour: str, label: str,
          protected: bool = False) -> list:
    out = []
    if protected:                         # X5.5: a dolphin guards this swimmer
        out += [Circle(f"{group}.protect-edge", group, x, y, r + 3.4, None, S.INK, 4.6),
                Circle(f"{group}.protect", group, x, y, r + 3.4, None, S.CREATURE["dolphin"][0], 2.6)]
    out += [Circle(f"{group}.halo", group, x, y, r + 1.2, S.PAPER),
            Circle(f"{group}.token", group, x, y, r, colour, S.INK, 1.3),
            Text(f"{group}.value", group, x, y, label, round(r * 1.25, 1), S.text_on(colour),
                 bold=True)]
    return out


def boat(group: str, seats: tuple, r: float) -> list:
    """A hull around the three passenger seats ``seats`` (left to right, one row)."""
    (xl, y), _, (xr, _) = seats
    top, bottom = y - 1.05 * r, y + 1.1 * r      # low enough not to reach the next row up
    hull = (_p(xl - 1.5 * r, top), _p(xr + 1.5 * r, top), _p(xr + 0.9 * r, bottom),
            _p(xl - 0.9 * r, bottom))
    out = [Polygon(f"{group}.hull", group, hull, S.BOAT, S.BOAT_EDGE, 1.6)]
    for k, (sx, sy) in enumerate(seats):
        out.append(Circle(f"{group}.seat{k}", group, sx, sy, round(0.55 * r, 2), S.BOAT_SEAT))
    return out


def _star(x, y, outer, inner, n):
    return tuple(_p(x + (outer if k % 2 == 0 else inner) * math.sin(math.pi * k / n),
                    y - (outer if k % 2 == 0 else inner) * math.cos(math.pi * k / n))
                 for k in range(2 * n))


def _regular(x, y, rad, n, sx=1.0, sy=1.0):
    return tuple(_p(x + sx * rad * math.sin(2 * math.pi * k / n),
                    y - sy * rad * math.cos(2 * math.pi * k / n)) for k in range(n))


def creature(group: str, kind: str, x: float, y: float, r: float) -> list:
    """A creature marker within 1.15 r of (x, y): slots are 2.17 r apart, so a marker never
    touches a neighbouring token (and two markers at most graze)."""
    fill, edge, ink, letter = S.CREATURE[kind]
    dy, size = 0.0, r * (1.08 if len(letter) == 1 else 0.95)
    if kind == "serpent":
        pts = tuple(_p(*q) for q in ((x, y - 1.18 * r), (x + 1.15 * r, y), (x, y + 1.18 * r),
                                     (x - 1.15 * r, y)))
    elif kind == "shark":                 # a fin
        pts = (_p(x - 1.15 * r, y + 0.85 * r), _p(x + 1.12 * r, y + 0.85 * r),
               _p(x + 0.42 * r, y - 1.15 * r), _p(x - 0.2 * r, y - 0.5 * r))
        dy, size = 0.3 * r, r * 0.88
    elif kind == "whale":
        pts = _regular(x, y, r, 18, sx=1.15, sy=0.8)
    elif kind == "dolphin":
        pts = _regular(x, y + 0.08 * r, 1.1 * r, 5)
    else:                                 # squid: an eight-armed star
        pts = _star(x, y, 1.17 * r, 0.7 * r, 8)
    return [Polygon(f"{group}.marker", group, pts, fill, edge, 1.4),
            Text(f"{group}.letter", group, x, round(y + dy, 2), letter, round(size, 1), ink,
                 bold=True)]


def isle_badge(group: str, seat: int, box, count: int, value: int) -> list:
    x, y, w, h = box
    colour = S.SEAT_COLOURS[seat]
    return [Rect(f"{group}.seat{seat}", group, round(x + 2, 2), round(y + 2, 2), round(w - 4, 2),
                 round(h - 4, 2), colour, S.INK, 1.2, 4.0),
            Text(f"{group}.seat{seat}-text", group, round(x + w / 2, 2), round(y + h / 2, 2),
                 f"{count} = {value}", round(min(13.0, h * 0.5), 1), S.text_on(colour), bold=True)]


def outline(group: str, name: str, points) -> list:
    """A hex outlined in dark on a white casing: visible on every background."""
    return [Polygon(f"{group}.{name}-case", group, tuple(points), None, S.PAPER, 5.0),
            Polygon(f"{group}.{name}", group, tuple(points), None, S.HIGHLIGHT, 2.4)]


def arrow(group: str, points) -> list:
    pts = tuple(_p(*q) for q in points)
    return [Line(f"{group}.arrow-case", group, pts, S.PAPER, 6.0, arrow=True),
            Line(f"{group}.arrow", group, pts, S.HIGHLIGHT, 2.6, arrow=True)]


def ghost(group: str, name: str, x: float, y: float, r: float, colour: str, label: str) -> list:
    """An explorer lost in the last event: a small token of its colour and value, struck
    crossed by four ticks that leave its value readable."""
    out = [Circle(f"{group}.{name}-halo", group, x, y, r + 1.0, S.PAPER),
           Circle(f"{group}.{name}", group, x, y, r, colour, S.INK, 1.0),
           Text(f"{group}.{name}-value", group, x, y, label, round(r * 1.15, 1),
                S.text_on(colour), bold=True)]
    for k, (dx, dy) in enumerate(((1, 1), (1, -1), (-1, 1), (-1, -1))):  # ticks, not over the value
        a, b = 0.5 * r, 1.5 * r
        out.append(Line(f"{group}.{name}-x{k}", group, (_p(x + dx * a, y + dy * a),
                                                         _p(x + dx * b, y + dy * b)), S.INK, 1.8))
    return out
