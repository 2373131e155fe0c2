"""A scene as a Pillow image or PNG bytes, drawn from the same shapes as the SVG.

Shapes are drawn at twice the size and scaled down (supersampling gives smooth edges without
Pillow's lack of anti-aliasing showing). The static board is drawn once per picture size and
reused, so an animation draws only the pieces and the page's text per frame. The font is
DejaVu Sans from matplotlib's package data, found without importing matplotlib (which would
pull numpy in); Pillow's built-in font when it is absent.
"""
from __future__ import annotations

import importlib.util
import io
import os
from functools import lru_cache

from PIL import Image, ImageDraw, ImageFont

from .panel import page
from .shapes import Circle, Line, Polygon, Rect, Text, arrow_parts
from .style import rgb

SUPER = 2                                   # supersampling factor
ANCHOR = {"start": "lm", "middle": "mm", "end": "rm"}


@lru_cache(maxsize=2)
def _font_file(bold: bool) -> str | None:
    spec = importlib.util.find_spec("matplotlib")
    for root in (spec.submodule_search_locations or []) if spec else []:
        path = os.path.join(root, "mpl-data", "fonts", "ttf",
                            "DejaVuSans-Bold.ttf" if bold else "DejaVuSans.ttf")
        if os.path.exists(path):
            return path
    return None


@lru_cache(maxsize=64)
def font(size: float, bold: bool = False):
    """DejaVu Sans at ``size`` px (Pillow's default font when DejaVu is not installed)."""
    path = _font_file(bold)
    size = max(1, round(size))
    if path:
        return ImageFont.truetype(path, size)
    try:
        return ImageFont.load_default(size)
    except TypeError:                        # Pillow < 10.1: one bitmap size only
        return ImageFont.load_default()


@lru_cache(maxsize=8192)
def _text_mask(text: str, size: int, bold: bool, anchor: str):
    """The text's coverage mask and its offset from the anchor point (glyphs are rendered once
    per text and size: token values and hex labels repeat on every frame)."""
    f = font(size, bold)
    left, top, right, bottom = f.getbbox(text, anchor=anchor)
    mask = Image.new("L", (max(1, right - left), max(1, bottom - top)), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, fill=255, font=f, anchor=anchor)
    return mask, left, top


@lru_cache(maxsize=256)
def _colour(c):
    return None if c is None else rgb(c)


def draw_shapes(im: Image.Image, shapes, k: float, dx: float = 0.0, dy: float = 0.0) -> None:
    """Draw ``shapes`` on ``im`` at scale ``k``, offset by (dx, dy) picture px."""
    d = ImageDraw.Draw(im)

    def P(x, y):
        return ((x + dx) * k, (y + dy) * k)

    for s in shapes:
        if isinstance(s, Circle):
            x, y = P(s.cx, s.cy)
            r = s.r * k
            d.ellipse((x - r, y - r, x + r, y + r), fill=_colour(s.fill), outline=_colour(s.stroke),
                      width=max(1, round(s.width * k)) if s.stroke and s.width else 0)
        elif isinstance(s, Polygon):
            pts = [P(*q) for q in s.points]
            if s.fill:
                d.polygon(pts, fill=_colour(s.fill))
            if s.stroke and s.width:
                w = max(1, round(s.width * k))
                d.line(pts + pts[:1], fill=_colour(s.stroke), width=w, joint="curve")
        elif isinstance(s, Rect):
            x0, y0 = P(s.x, s.y)
            x1, y1 = P(s.x + s.w, s.y + s.h)
            w = max(1, round(s.width * k)) if s.stroke and s.width else 0
            d.rounded_rectangle((x0, y0, x1, y1), radius=s.rx * k, fill=_colour(s.fill),
                                outline=_colour(s.stroke) if w else None, width=w)
        elif isinstance(s, Text):
            mask, left, top = _text_mask(s.text, max(1, round(s.size * k)), s.bold,
                                         ANCHOR[s.anchor])
            x, y = P(s.x, s.y)
            im.paste(_colour(s.fill), (round(x) + left, round(y) + top), mask)
        elif isinstance(s, Line):
            pts, head = arrow_parts(s) if s.arrow else (s.points, None)
            pts = [P(*q) for q in pts]
            w = max(1, round(s.width * k))
            colour = _colour(s.stroke)
            d.line(pts, fill=colour, width=w, joint="curve")
            for x, y in (pts[0], pts[-1]):           # round caps, as in the SVG
                d.ellipse((x - w / 2, y - w / 2, x + w / 2, y + w / 2), fill=colour)
            if head:
                hp = [P(*q) for q in head]
                d.polygon(hp, fill=colour)
                d.line(hp + hp[:1], fill=colour, width=max(1, round(k)), joint="curve")
        else:
            raise TypeError(f"not a shape: {s!r}")


_STATIC: dict = {}


def _static(scene, pg, k: float) -> Image.Image:
    """White page with the static board drawn on it, kept per static layer, size and scale."""
    key = (id(scene.static), pg.width, pg.height, k)
    hit = _STATIC.get(key)
    if hit is None or hit[0] is not scene.static:
        im = Image.new("RGB", (round(pg.width * k), round(pg.height * k)), (255, 255, 255))
        draw_shapes(im, scene.static, k, pg.board_x, pg.board_y)
        if len(_STATIC) > 8:
            _STATIC.clear()
        hit = _STATIC[key] = (scene.static, im)
    return hit[1]


def image(scene, scale: float = 1.0) -> Image.Image:
    """The page (header, board, scoreboard) as an RGB image, ``scale`` times 1 px per unit."""
    pg = page(scene)
    k = SUPER * scale
    im = _static(scene, pg, k).copy()
    draw_shapes(im, pg.shapes, k)
    draw_shapes(im, scene.dynamic, k, pg.board_x, pg.board_y)
    return im.reduce(SUPER) if SUPER > 1 else im


def png(scene, scale: float = 1.0) -> bytes:
    buf = io.BytesIO()
    image(scene, scale).save(buf, "PNG", compress_level=3)
    return buf.getvalue()
