"""A scene as SVG: a standalone document, or the layers an HTML viewer swaps.

Each group of shapes (one piece) becomes one ``<g id="...">`` holding its shapes (each with its
own ``id``) and a ``<title>`` tooltip; ``layers`` gives the static board as one fragment (the
same string for every event of a game) and each dynamic piece as its own fragment, so that a
viewer replaces only the pieces that changed. All text is XML-escaped.
"""
from __future__ import annotations

from xml.sax.saxutils import escape, quoteattr

from .panel import page
from .shapes import Circle, Line, Polygon, Rect, Text, arrow_parts, groups

FONT = "DejaVu Sans, Verdana, Arial, sans-serif"
ANCHOR = {"start": "start", "middle": "middle", "end": "end"}


def _n(v: float) -> str:
    return f"{v:.2f}".rstrip("0").rstrip(".")


def _paint(fill, stroke, width) -> str:
    out = f' fill="{fill or "none"}"'
    if stroke and width:
        out += f' stroke="{stroke}" stroke-width="{_n(width)}"'
    return out


def _pts(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def shape(s) -> str:
    """One primitive as an SVG element."""
    i = quoteattr(s.id)
    if isinstance(s, Circle):
        return (f'<circle id={i} cx="{_n(s.cx)}" cy="{_n(s.cy)}" r="{_n(s.r)}"'
                f'{_paint(s.fill, s.stroke, s.width)}/>')
    if isinstance(s, Polygon):
        return (f'<polygon id={i} points="{_pts(s.points)}"'
                f'{_paint(s.fill, s.stroke, s.width)} stroke-linejoin="round"/>')
    if isinstance(s, Rect):
        rx = f' rx="{_n(s.rx)}"' if s.rx else ""
        return (f'<rect id={i} x="{_n(s.x)}" y="{_n(s.y)}" width="{_n(s.w)}" '
                f'height="{_n(s.h)}"{rx}{_paint(s.fill, s.stroke, s.width)}/>')
    if isinstance(s, Text):
        bold = ' font-weight="bold"' if s.bold else ""
        return (f'<text id={i} x="{_n(s.x)}" y="{_n(s.y)}" font-size="{_n(s.size)}"{bold} '
                f'fill="{s.fill}" text-anchor="{ANCHOR[s.anchor]}" '
                f'dominant-baseline="central">{escape(s.text)}</text>')
    if isinstance(s, Line):
        line = (f'stroke="{s.stroke}" stroke-width="{_n(s.width)}" stroke-linecap="round" '
                f'stroke-linejoin="round" fill="none"')
        if not s.arrow:
            return f'<polyline id={i} points="{_pts(s.points)}" {line}/>'
        shaft, head = arrow_parts(s)
        return (f'<polyline id={i} points="{_pts(shaft)}" {line}/>'
                f'<polygon id={quoteattr(s.id + "-head")} points="{_pts(head)}" '
                f'fill="{s.stroke}" stroke="{s.stroke}" stroke-width="1" '
                f'stroke-linejoin="round"/>')
    raise TypeError(f"not a shape: {s!r}")


def group(gid: str, shapes, title: str | None = None) -> str:
    inner = "".join(shape(s) for s in shapes)
    tip = f"<title>{escape(title)}</title>" if title else ""
    return f"<g id={quoteattr(gid)}>{tip}{inner}</g>"


def fragment(shapes, titles=None) -> str:
    titles = titles or {}
    return "".join(group(g, ss, titles.get(g)) for g, ss in groups(shapes).items())


_BOARD: dict = {}


def board(static) -> str:
    """The static layer's fragment (kept for the game's static tuple: drawn once)."""
    key = id(static)
    hit = _BOARD.get(key)
    if hit is None or hit[0] is not static:
        hit = _BOARD[key] = (static, fragment(static))
    return hit[1]


def layers(scene) -> dict:
    """``width``, ``height`` (the board's), ``board`` (the static fragment) and ``pieces``
    (group id -> the fragment of that dynamic piece, in drawing order)."""
    return {"width": scene.width, "height": scene.height, "board": board(scene.static),
            "pieces": {g: group(g, ss, scene.titles.get(g))
                       for g, ss in groups(scene.dynamic).items()}}


def document(scene) -> str:
    """A complete standalone SVG: header, board and scoreboard with legend."""
    p = page(scene)
    body = (f'<g id="board" transform="translate({_n(p.board_x)},{_n(p.board_y)})">'
            f'{board(scene.static)}{fragment(scene.dynamic, scene.titles)}</g>')
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{p.width}" height="{p.height}" '
            f'viewBox="0 0 {p.width} {p.height}" font-family="{FONT}">'
            f'<title>{escape(scene.header[0])}: {escape(scene.text)}</title>'
            f'<rect width="100%" height="100%" fill="#ffffff"/>'
            f'{fragment(p.shapes)}{body}</svg>\n')
