"""Colours and sizes of the picture, in one place.

Seat colours are six of the Okabe-Ito palette (distinguishable with the common colour-vision
deficiencies); sky blue is left out because it would sit on a blue sea. Every token also
carries its value, and creature markers differ by shape, not only by colour. Terrains differ
in lightness as well as hue: beach light, forest mid, mountain dark, sea a mid blue.
"""
from __future__ import annotations

from functools import lru_cache

SEAT_COLOURS = ("#D55E00", "#0072B2", "#009E73", "#F0E442", "#CC79A7", "#E69F00")
SEAT_NAMES = ("vermillion", "blue", "green", "yellow", "purple", "orange")

SEA = "#5D8FBF"
SEA_DEEP = "#3F6C98"              # around the board
SEA_EDGE = "#456F99"
LAGOON = "#8DBFE3"
TERRAIN = {"beach": "#F3E2AE", "forest": "#5E9C45", "mountain": "#7A6A5D"}
TERRAIN_EDGE = {"beach": "#A08A50", "forest": "#3B6A2A", "mountain": "#4E4239"}
ISLE = "#E6CF8B"
ISLE_EDGE = "#6B5A2E"
INK = "#1A1A1A"                  # outlines and text on light ground
PAPER = "#FFFFFF"
MUTED = "#5A5A5A"
PANEL = "#F7F7F4"
TO_MOVE = "#FFF1B8"              # the scoreboard row of the seat to move
BOAT = "#8A5A2B"
BOAT_EDGE = "#3D2610"
BOAT_SEAT = "#C8A070"
HIGHLIGHT = "#111111"            # the last event's arrow and outline (with a white casing)
COORD = "#2F4F6F"                # the small (row,col) labels of the hexes

# creature markers: (fill, outline, letter colour, letter); each also has its own shape
CREATURE = {
    "serpent": ("#1E6B34", PAPER, PAPER, "S"),
    "shark": ("#59636B", PAPER, PAPER, "Sh"),
    "whale": ("#1B2F4E", PAPER, PAPER, "W"),
    "dolphin": ("#C9ECF7", INK, INK, "D"),
    "squid": ("#8E2C6B", PAPER, PAPER, "Sq"),
}
KINDS = ("serpent", "shark", "whale", "dolphin", "squid")


def luminance(colour: str) -> float:
    """WCAG relative luminance of ``#rrggbb``."""
    def lin(c):
        c /= 255
        return c / 12.92 if c <= 0.03928 else ((c + 0.055) / 1.055) ** 2.4
    r, g, b = (int(colour[k:k + 2], 16) for k in (1, 3, 5))
    return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b)


@lru_cache(maxsize=256)
def text_on(colour: str) -> str:
    """Black or white, whichever contrasts more with ``colour``."""
    lum = luminance(colour)
    return INK if (lum + 0.05) / (luminance(INK) + 0.05) >= 1.05 / (lum + 0.05) else PAPER


def rgb(colour: str) -> tuple[int, int, int]:
    return tuple(int(colour[k:k + 2], 16) for k in (1, 3, 5))


def all_colours() -> list[str]:
    """Every colour named here (an animation's palette keeps them exact)."""
    out = []

    def add(v):
        if isinstance(v, str) and v.startswith("#") and len(v) == 7 and v not in out:
            out.append(v)
        elif isinstance(v, (tuple, list)):
            for x in v:
                add(x)
        elif isinstance(v, dict):
            for x in v.values():
                add(x)
    for name, value in list(globals().items()):
        if name.isupper():
            add(value)
    return out
