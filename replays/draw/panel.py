"""The page around the board: the header above it, the scoreboard and the legend beside it.

``svg.document`` and ``raster`` both lay a page out with ``page(scene)``, so the standalone
SVG and the PNG carry the same header, scores and legend (the HTML viewer shows these in HTML
and uses only the board layers). Text is sized for reading at 100%: 12-15 px.
"""
from __future__ import annotations

from dataclasses import dataclass

import replays.draw.pieces as P
import replays.draw.style as S

from .shapes import Polygon, Rect, Text

HEADER_H = 86
PANEL_W = 370
SEAT_H = 60
LINE = 21


@dataclass(frozen=True)
class Page:
    width: int
    height: int
    board_x: float
    board_y: float
    shapes: tuple                   # header, scoreboard and legend, in page coordinates


def _lost(s: dict) -> str:
    if not s["lost_total"]:
        return "lost none"
    parts = ", ".join(f"{c} {n}" for c, n in s["lost"].items() if n)
    return f"lost {s['lost_total']}: {parts}"


def _seat_lines(s: dict, players: int) -> tuple[str, str, str]:
    who = f"seat {s['seat']} · {s['strategy']}"
    if players == 2:
        who += f" · player {s['player']}"
    first = (f"to place {s['to_place']} · " if s["to_place"] else "") + (
        f"rescued {s['rescued']} worth {s['value']} · on board {s['on_board']} · "
        f"tiles {s['tiles']}")
    return who, first, _lost(s)


def legend_entries(settings: dict) -> list[tuple[str, str]]:
    """(icon, label) for the legend; creatures the game cannot have are left out."""
    ent = [("beach", "beach tile"), ("forest", "forest tile"), ("mountain", "mountain tile"),
           ("sea", "sea (and sunk tiles)"), ("token", "explorer: seat colour, value")]
    ent.append(("boat", "boat, 3 seats"))
    ent.append(("serpent", "sea serpent"))
    ent.append(("shark", "shark"))
    if not settings.get("squid_only"):
        ent.append(("whale", "whale"))
    if settings.get("dolphins") or 5 in (settings.get("challenges") or []):
        ent.append(("dolphin", "dolphin"))
        ent.append(("protect", "swimmer a dolphin protects"))
    if settings.get("squid") or settings.get("squid_only"):
        ent.append(("squid", "giant squid"))
    ent += [("badge", "on a safe isle: 2 rescued, worth 7"), ("arrow", "the last move"),
            ("outline", "hex of the last event"), ("ghost", "explorer lost in the last event")]
    return ent


def _icon(kind: str, x: float, y: float) -> list:
    g = f"legend-{kind}"
    r = 9.0
    if kind in S.TERRAIN or kind == "sea":
        fill = S.SEA if kind == "sea" else S.TERRAIN[kind]
        edge = S.SEA_EDGE if kind == "sea" else S.TERRAIN_EDGE[kind]
        pts = tuple((round(x + 11 * dx, 2), round(y + 11 * dy, 2)) for dx, dy in (
            (0, -1), (0.866, -0.5), (0.866, 0.5), (0, 1), (-0.866, 0.5), (-0.866, -0.5)))
        return [Polygon(f"{g}.hex", g, pts, fill, edge, 1.2)]
    if kind == "token":
        return P.token(g, x, y, r, S.SEAT_COLOURS[1], "3")
    if kind == "protect":
        return P.token(g, x, y, r - 1.5, S.SEAT_COLOURS[0], "1", protected=True)
    if kind == "boat":
        return P.boat(g, ((x - 10, y), (x, y), (x + 10, y)), 5.0)
    if kind in S.CREATURE:
        return P.creature(g, kind, x, y, r)
    if kind == "badge":
        return P.isle_badge(g, 2, (x - 18, y - 10, 36, 20), 2, 7)
    if kind == "arrow":
        return P.arrow(g, ((x - 14, y), (x + 14, y)))
    if kind == "outline":
        pts = tuple((round(x + 10 * dx, 2), round(y + 10 * dy, 2)) for dx, dy in (
            (0, -1), (0.866, -0.5), (0.866, 0.5), (0, 1), (-0.866, 0.5), (-0.866, -0.5)))
        return P.outline(g, "hex", pts)
    return P.ghost(g, "x", x, y, 7.0, S.SEAT_COLOURS[5], "2")


def page(scene) -> Page:
    """The page of a scene: header on top, board below it at (0, HEADER_H), panel right. The
    game's settings choose the legend's creatures."""
    settings = scene.settings
    width = scene.width + PANEL_W
    out = [Rect("header.back", "header", 0, 0, width, HEADER_H, S.PANEL),
           Rect("panel.back", "panel", scene.width, HEADER_H, PANEL_W, 10_000, S.PANEL)]
    for k, line in enumerate(scene.header[:4]):
        out.append(Text(f"header.line{k}", "header", 12, 15 + 19 * k, line,
                        15 if k == 0 else 13, S.INK if k != 1 else S.MUTED, "start", k == 0))
    x0, y = scene.width + 14, HEADER_H + 16
    out.append(Text("scores.title", "scores", x0, y, "Seats", 14, S.INK, "start", True))
    y += 14
    players = settings.get("players", 0)
    to_move = scene.seat
    for s in scene.scores:
        grp = f"score-{s['seat']}"
        if s["seat"] == to_move:
            out.append(Rect(f"{grp}.now", grp, x0 - 8, y - 1, PANEL_W - 12, SEAT_H - 2, S.TO_MOVE,
                            S.INK, 1.0, 5))
        out.append(Rect(f"{grp}.swatch", grp, x0, y + 6, 16, 16, s["colour"], S.INK, 1.2, 3))
        who, first, lost = _seat_lines(s, players)
        if s["seat"] == to_move:
            who += " · to move"
        out += [Text(f"{grp}.who", grp, x0 + 24, y + 14, who, 13, S.INK, "start", True),
                Text(f"{grp}.score", grp, x0 + 24, y + 32, first, 12, S.INK, "start"),
                Text(f"{grp}.lost", grp, x0 + 24, y + 47, lost, 12, S.MUTED, "start")]
        y += SEAT_H
    if players == 2:                      # B4.5: a player's score is the sum of two colours
        totals = {}
        for s in scene.scores:
            n, v = totals.get(s["player"], (0, 0))
            totals[s["player"]] = (n + s["rescued"], v + s["value"])
        for p, (n, v) in sorted(totals.items()):
            out.append(Text(f"scores.player{p}", "scores", x0, y + 6,
                            f"player {p}: rescued {n} worth {v}", 12, S.INK, "start", True))
            y += 18
    y += 14
    out.append(Text("legend.title", "legend", x0, y, "Legend", 14, S.INK, "start", True))
    y += 22
    for kind, label in legend_entries(settings):
        out += _icon(kind, x0 + 20, y)
        out.append(Text(f"legend-{kind}.label", f"legend-{kind}", x0 + 46, y, label, 12, S.INK,
                        "start"))
        y += LINE + 2
    height = int(max(HEADER_H + scene.height, y + 8))
    return Page(int(width), height, 0.0, float(HEADER_H), tuple(out))

