"""The few primitive shapes a board picture is made of, shared by the SVG and raster writers.

A scene is a flat list of these; both writers draw exactly the same list, so the SVG and the
PNG cannot drift apart. Every shape names its ``group`` (the piece it belongs to: ``ex-23``,
``boat-4``, ``hex-17`` ...; the SVG wraps a group's shapes in one ``<g id=...>``) and its own
``id`` (``group.part``, unique in a picture). Coordinates are pixels, y pointing down. Colours
are ``#rrggbb`` strings; ``None`` means no fill / no outline.
"""
from __future__ import annotations

from dataclasses import dataclass

Point = tuple[float, float]


@dataclass(frozen=True)
class Circle:
    id: str
    group: str
    cx: float
    cy: float
    r: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Polygon:
    id: str
    group: str
    points: tuple[Point, ...]
    fill: str | None
    stroke: str | None = None
    width: float = 0.0


@dataclass(frozen=True)
class Rect:
    id: str
    group: str
    x: float
    y: float
    w: float
    h: float
    fill: str | None
    stroke: str | None = None
    width: float = 0.0
    rx: float = 0.0                    # corner radius


@dataclass(frozen=True)
class Text:
    id: str
    group: str
    x: float
    y: float                           # the middle of the text's height
    text: str
    size: float                        # font size, px
    fill: str
    anchor: str = "middle"             # start | middle | end
    bold: bool = False


@dataclass(frozen=True)
class Line:
    id: str
    group: str
    points: tuple[Point, ...]          # a polyline
    stroke: str
    width: float
    arrow: bool = False                # an arrowhead at the last point


Shape = Circle | Polygon | Rect | Text | Line


def groups(shapes) -> dict[str, list]:
    """The shapes of each group, in drawing order (a dict keeps the first-seen group order)."""
    out: dict[str, list] = {}
    for s in shapes:
        out.setdefault(s.group, []).append(s)
    return out


def arrow_parts(line: Line) -> tuple[tuple[Point, ...], tuple[Point, ...]]:
    """A ``Line`` with ``arrow``: the shaft (ending under the head) and the head's triangle,
    computed once here so that both writers draw the same arrow."""
    pts = line.points
    (ax, ay), (bx, by) = pts[-2], pts[-1]
    d = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1.0
    ux, uy = (bx - ax) / d, (by - ay) / d
    hl, hw = 10 + line.width, 4.5 + 0.75 * line.width
    base = (bx - ux * hl, by - uy * hl)
    head = ((round(bx, 2), round(by, 2)),
            (round(base[0] - uy * hw, 2), round(base[1] + ux * hw, 2)),
            (round(base[0] + uy * hw, 2), round(base[1] - ux * hw, 2)))
    cut = (round(bx - ux * hl * 0.7, 2), round(by - uy * hl * 0.7, 2))
    return tuple(pts[:-1]) + (cut,), head
