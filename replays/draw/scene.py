"""A logged position as a scene: the shapes of the board picture after one event.

This is the drawing API (the SVG writer, the raster writer, the animations and the HTML viewer
all start here): ``scene(log, i)`` reads only the log (``docs/replay-log.md``): the position
is event ``i``'s ``after`` snapshot, so any moment of a saved game can be drawn without the
engine. The shapes come in two lists: ``static`` (sea, hex outlines, lagoon, safe isles: the
same for every event of every game) and ``dynamic`` (land tiles, explorers, boats, creatures,
the last event's arrow or outline, the isles' rescued explorers), each shape in a group named
by its piece (``tile-17``, ``ex-23``, ``boat-4``, ``shark-1``, ``safe-NW``, ``last-event``)
so that a viewer can swap just the pieces that changed.
"""
from __future__ import annotations

import textwrap
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache

import replays.draw.layout as L
import replays.draw.pieces as P
import replays.draw.style as S

from ..board import BOARD
from ..text import event_text
from .shapes import Line, Polygon, Rect, Text

SLOTS = 10                                 # explorer id = seat * 10 + slot
KINDS = S.KINDS
CAUSES = ("serpent", "shark", "whale", "whirlpool", "squid")
BACKS = ("whale", "shark", "boat", "whirlpool", "volcano", "dolphin", "wind", "move_serpent",
         "move_shark", "move_whale", "defend_shark", "defend_whale")
PLAYER_NAMES = "ABCDEF"
__all__ = ["Scene", "board_shapes", "event_text", "rule_of", "scene", "turn_start"]


@dataclass(frozen=True)
class Scene:
    """The picture of the position after event ``index`` of a log.

    ``width``/``height``: the board's size in px (the static and dynamic shapes lie inside it;
    ``svg.document`` and ``raster`` add the header and scoreboard around it). ``header``: short
    text lines (game and seed; event, rule, turn and seat to move; the event's text).
    ``scores``: one dict per seat. ``static``/``dynamic``: tuples of ``shapes``' primitives.
    ``titles``: group id -> a tooltip (what the piece is). ``seat``: the seat to move (the
    placing seat during setup, -1 before it); ``settings``: the log's settings."""
    width: int
    height: int
    index: int
    rule: str
    text: str
    header: list
    scores: list
    static: tuple
    dynamic: tuple
    titles: dict = field(default_factory=dict)
    seat: int = -1
    settings: dict = field(default_factory=dict)


# ---------------------------------------------------------------------------- events
def rule_of(ev: dict) -> str:
    """The RULES.md id of the rule an event carries out (for linking a step to its rule)."""
    t = ev["type"]
    if t == "creature":
        if ev["kind"] in ("dolphin", "boat"):
            return "X5.4"
        return {"serpent": "B6.8", "shark": "B6.9", "whale": "B6.10", "squid": "X7.2"}[ev["kind"]]
    if t == "squid":
        return "X7.1" if ev["placed"] else "X7.4"
    if t == "roll":
        return "X5.3" if "number" in ev else "B5.4"
    if t == "end":
        return {"volcano": "B7.1", "turn_cap": "R10", "no_explorers": "X2.2",
                "island_gone": "X2.4"}.get(ev["reason"], "B7")
    return {"layout": "B4.1", "place_explorer": "B4.3", "place_boat": "B4.4",
            "turn_start": "B5", "play_tile": "B5.1", "move": "B5.2", "sink": "B5.3",
            "bonus": "X6.3"}.get(t, "")


def turn_start(log: dict, turn: int) -> int:
    """Index of the ``turn_start`` event of seat-turn ``turn`` (1-based, the events' ``turn``);
    ``ValueError`` naming the accepted range when the game has no such turn."""
    last = 0
    for ev in log["events"]:
        if ev["type"] == "turn_start":
            if ev["turn"] == turn:
                return ev["i"]
            last = max(last, ev["turn"])
    raise ValueError(f"turn {turn} is outside the game: accepted 1..{last}"
                     if last else f"turn {turn}: the game has no turns")


def _seat_to_move(log: dict, i: int) -> int:
    for ev in reversed(log["events"][:i + 1]):
        if ev["type"] == "turn_start":
            return ev["seat"]
        if ev["turn"] == 0 and ev["seat"] >= 0:
            return ev["seat"]
    return -1


# ---------------------------------------------------------------------------- static
@lru_cache(maxsize=1)
def board_shapes() -> tuple:
    """The static layer: backdrop, the 133 hexes with their (row,col), lagoon, safe isles."""
    g = L.geometry()
    out = [Rect("sea.back", "sea", 0, 0, g.width, g.height, S.SEA_DEEP)]
    for h in range(BOARD.n_hex):
        grp = f"hex-{h}"
        cx, cy = g.centres[h]
        fill = S.LAGOON if h == BOARD.lagoon else S.SEA
        out.append(Polygon(f"{grp}.shape", grp, L.corners(h), fill, S.SEA_EDGE, 1.0))
        r, c = BOARD.rc[h]
        out.append(Text(f"{grp}.rc", grp, cx, round(cy - 0.76 * L.R, 2), f"{r},{c}", 9.0, S.COORD))
        if h == BOARD.lagoon:
            out.append(Text(f"{grp}.name", grp, cx, round(cy + 0.74 * L.R, 2), "lagoon", 9.0,
                            S.COORD))
    for code, (x, y, w, h) in g.isles.items():
        name = BOARD.ISLE_NAMES[code - BOARD.isle0]
        grp = f"isle-{name}"
        bx, by = x + w / 2, y + h / 2
        for k, a in enumerate(BOARD.isle_access[code]):
            ax, ay = g.centres[a]
            out.append(Line(f"{grp}.jetty{k}", grp, ((round(bx, 2), round(by, 2)),
                            (round(bx + 0.8 * (ax - bx), 2), round(by + 0.8 * (ay - by), 2))),
                            S.ISLE_EDGE, 5.0))
        out.append(Rect(f"{grp}.box", grp, x, y, w, h, S.ISLE, S.ISLE_EDGE, 2.0, 10.0))
        out.append(Text(f"{grp}.name", grp, round(bx, 2), round(y + 0.22 * L.R, 2),
                        f"safe isle {name}", 10.0, S.INK, bold=True))
    return tuple(out)


# ---------------------------------------------------------------------------- dynamic
_WHERE: dict = {}


def _where_at(log: dict, i: int):
    """``_where`` of event ``i``'s position, remembered for the next scene (whose "before" it is)."""
    after = log["events"][i]["after"]
    key = (id(log), i)
    hit = _WHERE.get(key)
    if hit is None or hit[0] is not after:
        if len(_WHERE) > 6:
            _WHERE.clear()
        hit = _WHERE[key] = (after, _where(after, log))
    return hit[1]


def _where(after: dict, log: dict):
    """Every piece's pixel position and the shapes of the pieces, for one snapshot.

    Returns (positions: group -> (x, y, hex or isle code), (tile shapes, the other pieces'
    shapes in drawing order), titles)."""
    values = {x["id"]: x["value"] for x in log["explorers"]}
    land, sea, safe = defaultdict(list), defaultdict(list), defaultdict(list)
    for e, loc, at in after["explorers"]:
        if loc == "land":
            land[at].append(e)
        elif loc == "sea":
            sea[at].append(e)
        elif loc == "safe":
            safe[at].append(e)
    boats = defaultdict(list)
    for b, (h, passengers) in enumerate(after["boats"]):
        if h >= 0:
            boats[h].append((b, passengers))
    creatures = defaultdict(list)
    for kind in KINDS:
        for k, h in enumerate(after["creatures"].get(kind, [])):
            if h >= 0:
                creatures[h].append((kind, k))
    protected = {int(e) for e in after.get("protect", {})}
    g = L.geometry()
    pos, titles = {}, {}
    tiles, hulls, markers, tokens, badges = [], [], [], [], []
    terrain = {t["hex"]: t["terrain"] for t in log["tiles"]}
    for h in after["land"]:
        grp = f"tile-{h}"
        kind = terrain[h]
        r, c = BOARD.rc[h]
        cx, cy = g.centres[h]
        tiles += [Polygon(f"{grp}.shape", grp, L.corners(h, 0.96), S.TERRAIN[kind],
                          S.TERRAIN_EDGE[kind], 1.5),
                  Text(f"{grp}.rc", grp, cx, round(cy - 0.76 * L.R, 2), f"{r},{c}", 9.0,
                       S.TERRAIN_EDGE[kind] if kind == "beach" else S.PAPER)]
        titles[grp] = f"{kind} tile at ({r},{c})"

    def put_token(e, x, y, r, where, h):
        grp = f"ex-{e}"
        pos[grp] = (x, y, h)
        seat = e // SLOTS
        tokens.extend(P.token(grp, x, y, r, S.SEAT_COLOURS[seat], str(values[e]), e in protected))
        titles[grp] = f"explorer {seat}.{e % SLOTS} of seat {seat}, value {values[e]}, {where}"

    for h in sorted(set(land) | set(sea) | set(boats) | set(creatures)):
        cx, cy = g.centres[h]
        rc = "({},{})".format(*BOARD.rc[h])
        if h in land:
            sl = L.slots(0, 0, len(land[h]))
            for e, (dx, dy) in zip(sorted(land[h]), sl.swimmers):
                put_token(e, round(cx + dx, 2), round(cy + dy, 2), sl.r, f"on land at {rc}", h)
            continue
        here = sorted(creatures[h], key=lambda x: (KINDS.index(x[0]), x[1]))
        sl = L.slots(len(here), len(boats[h]), len(sea[h]))
        # a creature alone is drawn larger; beside a boat's hull a little smaller
        big = 1.4 if len(here) == 1 and not boats[h] and not sea[h] else (0.92 if boats[h] else 1.0)
        for (kind, k), (dx, dy) in zip(here, sl.creatures):
            grp = f"{kind}-{k}"
            x, y = round(cx + dx, 2), round(cy + dy, 2)
            pos[grp] = (x, y, h)
            markers.extend(P.creature(grp, kind, x, y, sl.r * big))
            titles[grp] = f"{kind} {k} at {rc}"
        for (b, passengers), seats in zip(sorted(boats[h]), sl.boats):
            grp = f"boat-{b}"
            seats = tuple((round(cx + dx, 2), round(cy + dy, 2)) for dx, dy in seats)
            pos[grp] = seats[1] + (h,)
            hulls.extend(P.boat(grp, seats, sl.r))
            titles[grp] = f"boat {b} at {rc}, {len(passengers)} aboard"
            for e, (x, y) in zip(passengers, seats):
                put_token(e, x, y, sl.r, f"in boat {b} at {rc}", h)
        for e, (dx, dy) in zip(sorted(sea[h]), sl.swimmers):
            put_token(e, round(cx + dx, 2), round(cy + dy, 2), sl.r, f"swimming at {rc}", h)
    for code in sorted(safe):
        name = BOARD.ISLE_NAMES[code - BOARD.isle0]
        grp = f"safe-{name}"
        per_seat = defaultdict(list)
        for e in safe[code]:
            per_seat[e // SLOTS].append(values[e])
            pos[f"ex-{e}"] = L.centre(code) + (code,)
        boxes = L.isle_entries(code, len(per_seat))
        for seat, box in zip(sorted(per_seat), boxes):
            badges.extend(P.isle_badge(grp, seat, box, len(per_seat[seat]), sum(per_seat[seat])))
        titles[grp] = f"rescued on isle {name}: " + ", ".join(
            f"seat {s} {len(v)} worth {sum(v)}" for s, v in sorted(per_seat.items()))
    return pos, (tiles, badges + hulls + markers + tokens), titles


def _last_event(log: dict, i: int, before, now) -> list:
    """The last event drawn: an arrow along a move, an outline on a hex, crosses on losses."""
    ev = log["events"][i]
    t, grp, out = ev["type"], "last-event", []
    g = L.geometry()

    def hexline(h):
        return P.outline(grp, "hex", L.corners(h, 0.92))

    def trail(piece, path):
        start = before[piece][:2] if piece in before else None
        end = now[piece][:2] if piece in now else None
        pts = ([start] if start else []) + [L.centre(x) for x in path[:-1]] + (
            [end] if end else ([L.centre(path[-1])] if path else []))
        pts = [p for k, p in enumerate(pts) if k == 0 or p != pts[k - 1]]
        if len(pts) >= 2:
            return P.arrow(grp, _trim(pts))
        return hexline(path[-1]) if path else []

    if t in ("place_explorer", "place_boat", "sink", "squid"):
        out = hexline(ev["hex"])
    elif t in ("move", "bonus"):
        piece = f"ex-{ev['id']}" if ev["what"] == "explorer" else f"boat-{ev['id']}"
        out = trail(piece, [ev["to"]])
    elif t == "play_tile":
        back = ev["back"]
        if back == "dolphin":
            piece = f"ex-{ev['piece']}"
        elif back == "wind":
            piece = f"boat-{ev['piece']}"
        else:
            piece = f"{ev.get('kind') or back[5:]}-{ev['piece']}"
        out = trail(piece, ev["path"])
    elif t == "creature":
        piece = f"{ev['kind']}-{ev['piece']}"
        if ev["path"]:
            out = trail(piece, ev["path"])
        elif piece in now:
            out = hexline(now[piece][2])
    if i:                                     # explorers lost: crossed marks at their hexes
        was = log["events"][i - 1]["after"]["fates"]
        values = {x["id"]: x["value"] for x in log["explorers"]}
        by_hex = defaultdict(list)
        for e in sorted(int(x) for x in ev["after"]["fates"] if x not in was):
            if f"ex-{e}" in before and BOARD.is_hex(before[f"ex-{e}"][2]):
                by_hex[before[f"ex-{e}"][2]].append(e)
        for h, lost in sorted(by_hex.items()):
            cx, cy = g.centres[h]
            for e, (dx, dy) in zip(lost, L.corner_spots(len(lost))):
                out += P.ghost(grp, f"lost{e}", round(cx + dx, 2), round(cy + dy, 2),
                               0.18 * L.R, S.SEAT_COLOURS[e // SLOTS], str(values[e]))
    return out


def _trim(pts):
    """Start a little past the first point and stop short of the last, so that the arrow does
    not hide the piece it points at."""
    def towards(a, b, d):
        (ax, ay), (bx, by) = a, b
        n = ((bx - ax) ** 2 + (by - ay) ** 2) ** 0.5 or 1.0
        d = min(d, n / 3)
        return (ax + (bx - ax) * d / n, ay + (by - ay) * d / n)
    pts = list(pts)
    pts[0] = towards(pts[0], pts[1], 0.3 * L.R)
    pts[-1] = towards(pts[-1], pts[-2], 0.42 * L.R)
    return pts


# ---------------------------------------------------------------------------- header, scores
def _scores(log: dict, after: dict) -> list[dict]:
    s = log["settings"]
    values = {x["id"]: x["value"] for x in log["explorers"]}
    pos = s.get("player_of_seat") or list(range(s["seats"]))
    out = []
    for seat in range(s["seats"]):
        mine = [(e, loc) for e, loc, _ in after["explorers"] if e // SLOTS == seat]
        lost = {c: 0 for c in CAUSES}
        for e, fate in after["fates"].items():
            if int(e) // SLOTS == seat:
                lost[fate] = lost.get(fate, 0) + 1
        hand = after["hands"][seat] if seat < len(after["hands"]) else []
        out.append({
            "seat": seat, "colour": S.SEAT_COLOURS[seat], "colour_name": S.SEAT_NAMES[seat],
            "strategy": log["strategies"][seat], "player": PLAYER_NAMES[pos[seat]],
            "rescued": sum(loc == "safe" for _, loc in mine),
            "value": sum(values[e] for e, loc in mine if loc == "safe"),
            "lost": lost, "lost_total": sum(lost.values()),
            "on_board": sum(loc in ("land", "sea", "boat") for _, loc in mine),
            "to_place": sum(loc == "unplaced" for _, loc in mine),
            "tiles": sum(hand), "hand": {b: n for b, n in zip(BACKS, hand) if n}})
    return out


def _title(log: dict) -> str:
    s = log["settings"]
    strategies = log["strategies"]
    who = (f"{strategies[0]} ×{len(strategies)}" if len(set(strategies)) == 1
           else ", ".join(strategies))
    extra = "; squid only" if s.get("squid_only") else ("; squid" if s.get("squid") else "")
    return (f"Game {log['game']} of seed {log['seed']} · {s['players']} players · {who} · "
            f"challenges {','.join(map(str, s.get('challenges') or [])) or 'none'}{extra}")


def _status(log: dict, i: int, rule: str) -> str:
    ev = log["events"][i]
    n = len(log["events"])
    seat = _seat_to_move(log, i)
    if ev["turn"] == 0:
        phase = "setup" + (f" · seat {seat} placing" if seat >= 0 else "")
    else:
        phase = f"turn {ev['turn']} · seat {seat} to move ({log['strategies'][seat]})"
    return f"event {i} of {n - 1} · {ev['type']} [{rule}] · {phase}"


def scene(log: dict, i: int) -> Scene:
    """The position after event ``i`` of ``log`` (``IndexError`` naming the accepted range
    when the game has no such event)."""
    n = len(log["events"])
    if type(i) is not int or not 0 <= i < n:
        raise IndexError(f"event {i} is outside the game: accepted 0..{n - 1}")
    ev = log["events"][i]
    after = ev["after"]
    now, shapes, titles = _where_at(log, i)
    before = _where_at(log, i - 1)[0] if i else {}
    last = _last_event(log, i, before, now)
    rule = rule_of(ev)
    text = event_text(log, i)
    header = [_title(log), _status(log, i, rule)] + textwrap.wrap(text, 120)[:2]
    g = L.geometry()
    tiles, pieces = shapes        # the last event goes under the pieces: it never hides one
    return Scene(g.width, g.height, i, rule, text, header, _scores(log, after), board_shapes(),
                 tuple(tiles + last + pieces), titles, _seat_to_move(log, i), log["settings"])
