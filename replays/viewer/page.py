"""One self-contained HTML page that steps through a replay log (``build_page(log) -> str``).

The page needs no server and no network: the board is inline SVG, the script and the style
are inlined from this package's files (``viewer.html``, ``viewer.js``, ``viewer.css``), and
the game is embedded as JSON in ``<script id="game-data">``:

* ``frags``: every distinct SVG fragment of the pieces layer (``replays.draw.svg.layers``),
  stored once however many events draw it (a piece that did not move is the same string),
  with the substrings every fragment repeats written as one character (``tokens``: char ->
  substring, ``squeeze``);
* ``frames[i]``: the fragments of the position after event ``i``, as indices, in drawing order;
  a frame may list only its changes from the one before (``delta_frames``; ``expand`` gives
  the frames in full);
* ``texts``/``heads``/``scores``/``rules``: the distinct event texts, lines saying who acts
  (HTML), scoreboards and rule ids, and per frame its index into each (``text``, ``head``,
  ``score``, ``rule``) and its ``turn``; a scoreboard is a list of indices into ``rows``, the
  distinct rows (HTML; a seat's row changes only when its counts do); ``turnStarts``: the
  frames where a seat-turn begins;
* the static board (sea, island, safe isles) is drawn once, outside the frames.

The rules the game's events cite are embedded as text (``replays.viewer.rules``, from the
shipped RULES.md) in a ``<details>`` panel, each with the anchor ``#rule-ID``.
"""
from __future__ import annotations

import json
from difflib import SequenceMatcher
from html import escape
from importlib import resources

from replays.draw.scene import scene
from replays.draw.shapes import groups
from replays.draw.svg import FONT
from replays.draw.svg import board as board_svg
from replays.draw.svg import fragment as fragment_svg
from replays.draw.svg import group as group_svg
from replays.viewer.rules import rules_for

NO_RULE = "–"
SIZE_LIMIT = 2_000_000          # bytes: the brief's bound for a 6-player all-expansion game


def _asset(name: str) -> str:
    return resources.files("replays.viewer").joinpath(name).read_text(encoding="utf-8")


def _pieces(sc, cache: dict) -> list[str]:
    """The fragments of ``replays.draw.svg.layers(sc)["pieces"]``, in its order, each piece
    written once per distinct look: most pieces stand still from one event to the next, and
    their shapes (frozen dataclasses) are the cache's key."""
    out = []
    for gid, shapes in groups(sc.dynamic).items():
        title = sc.titles.get(gid)
        key = (gid, title, *shapes)
        frag = cache.get(key)
        if frag is None:
            frag = cache[key] = group_svg(gid, shapes, title)
        out.append(frag)
    return out


class _Interner:
    """Each distinct value once: ``index(value)`` -> its position in ``values``."""

    def __init__(self):
        self.values: list = []
        self._at: dict = {}

    def index(self, value) -> int:
        k = self._at.get(value)
        if k is None:
            k = self._at[value] = len(self.values)
            self.values.append(value)
        return k


CAUSE_MARK = {"serpent": "S", "shark": "Sh", "whale": "W", "whirlpool": "Wp", "squid": "Sq"}


def _swatch(colour: str) -> str:
    return f'<span class="swatch" style="background:{escape(colour)}"></span>'


def _score_rows(scores: list[dict], to_move: int, komi=()) -> list[str]:
    """The scoreboard as HTML pieces: its head, then per seat its score (value rescued; with
    a score bonus, C1, the bonus under it), explorers rescued, lost (by cause), still in play
    or to place, and tiles in hand; the seat to move highlighted. The page joins them inside a
    ``<table>`` (``viewer.js``)."""
    placing = any(r.get("to_place") for r in scores)
    out = ['<thead><tr><th scope="col">seat</th><th scope="col">score</th>'
           '<th scope="col">safe</th><th scope="col">lost</th>'
           f'<th scope="col">{"to place" if placing else "in play"}</th>'
           '<th scope="col">tiles</th></tr></thead>']
    for row in scores:
        seat = row["seat"]
        cls = ' class="to-move"' if seat == to_move else ""
        causes = " ".join(f"{n}{CAUSE_MARK.get(c, c)}" for c, n in row["lost"].items() if n)
        hand = ", ".join(f"{b.replace('_', ' ')}" + (f" ×{n}" if n > 1 else "")
                         for b, n in row["hand"].items())
        out.append(
            f'<tr{cls}><td>{_swatch(row["colour"])}{seat} {escape(row["colour_name"])}'
            f'<span class="sub">{escape(row["strategy"])}</span></td>'
            f'<td><b>{row["value"]}</b>{_komi_note(komi, seat)}</td><td>{row["rescued"]}</td>'
            f'<td>{row["lost_total"]}<span class="sub causes">{escape(causes)}</span></td>'
            f'<td>{row["to_place"] if placing else row["on_board"]}</td>'
            f'<td title="{escape(hand)}">{row["tiles"]}'
            f'<span class="sub">{escape(hand)}</span></td></tr>')
    return out


def _komi_note(komi, seat: int) -> str:
    """``+1.5 komi`` under a seat's score when it has a bonus (C1.1)."""
    if not komi or not komi[seat]:
        return ""
    return f'<span class="sub">{komi[seat]:+g} komi</span>'


def _head_html(log: dict, sc, ev: dict) -> str:
    """Who is acting: the seat to move (or placing, during setup) with its colour."""
    seat = sc.seat
    if seat < 0:
        return "<p>setup: the tiles are laid</p>"
    row = sc.scores[seat]
    who = (f'{_swatch(row["colour"])}seat {seat} ({escape(row["colour_name"])}, '
           f'{escape(row["strategy"])})')
    if ev["type"] == "end":
        return f"<p>game over ({escape(ev.get('reason', ''))}) in {who}'s turn</p>"
    if ev["turn"] == 0:
        return f"<p>setup: {who} placing</p>"
    actor = ev.get("seat", -1)
    also = (f" · this step by seat {actor}" if actor is not None and actor >= 0
            and actor != seat else "")
    return f"<p>{who} to move{also}</p>"


# Substrings of replays.draw.svg's elements that the fragments repeat; each is written as one
# character the fragments never use (``squeeze``). Only the size depends on this list.
TOKENS = ('" text-anchor="middle" dominant-baseline="central">', '" stroke-linejoin="round"/>',
          'stroke-linecap="round" ', '" fill="none" stroke="', '" font-weight="bold"',
          '<polyline id="', '<polygon id="', '" stroke-width="', '<circle id="', '<text id="',
          '" font-size="', '" points="', "last-event", "</title>", '" stroke="', '" fill="',
          "#FFFFFF", "#111111", "<title>", "</text>", '<g id="', '" cx="', '" cy="', '" r="',
          "</g>", '"')
POOL = "~^`|{}@$%*+;?![]_'" + "QGHIJKLMOPQRTUVXYZ"


def squeeze(frags: list[str]) -> tuple[dict, list[str]]:
    """The fragments with each of ``TOKENS`` replaced by a character none of them holds:
    ``(char -> token, squeezed fragments)``. ``viewer.js`` (and ``unsqueeze``) put the tokens
    back, each character for its token in one pass; no token holds a pool character, so the
    round trip is exact."""
    used = set().union(*map(set, frags)) if frags else set()
    free = [c for c in dict.fromkeys(POOL) if c not in used]
    table = dict(zip(free, TOKENS))
    out = list(frags)
    for char, token in table.items():          # longest first; '"' (inside others) last
        out = [f.replace(token, char) for f in out]
    return table, out


def unsqueeze(table: dict, frag: str) -> str:
    return "".join(table.get(c, c) for c in frag)


def delta_frames(frames: list[list[int]]) -> list[list[int]]:
    """Frames as ``viewer.js`` reads them: a frame given as its changes from the one before is
    ``[-1, copy, skip, m, v1..vm, copy, skip, m, ...]``: copy ``copy`` fragments of the frame
    before, skip ``skip`` of them, insert the ``m`` fragments ``v1..vm``, and so on (the rest
    of the frame before is dropped); a frame whose changes would be longer is given in full."""
    out, last = [], None
    for f in frames:
        if last is not None:
            delta, pending = [-1], [0, 0, []]
            for op, i1, i2, j1, j2 in SequenceMatcher(None, last, f, autojunk=False).get_opcodes():
                if op == "equal":
                    if pending[1] or pending[2]:
                        delta += [pending[0], pending[1], len(pending[2]), *pending[2]]
                        pending = [0, 0, []]
                    pending[0] += i2 - i1
                else:
                    pending[1] += i2 - i1
                    pending[2] += f[j1:j2]
            if pending[1] or pending[2] or pending[0]:
                delta += [pending[0], pending[1], len(pending[2]), *pending[2]]
            if len(delta) < len(f):
                out.append(delta)
                last = f
                continue
        out.append(list(f))
        last = f
    return out


def expand(data: dict) -> tuple[list[list[int]], list[str]]:
    """The embedded data's frames (in full) and fragments (as ``replays.draw.svg`` wrote
    them): what ``viewer.js`` draws."""
    frames, last = [], None
    for f in data["frames"]:
        if f and f[0] == -1:
            new, at, k = [], 0, 1
            while k < len(f):
                copy, skip, m = f[k:k + 3]
                new += last[at:at + copy]
                at += copy + skip
                new += f[k + 3:k + 3 + m]
                k += 3 + m
            f = new
        frames.append(f)
        last = f
    return frames, [unsqueeze(data["tokens"], f) for f in data["frags"]]


def frames(log: dict) -> dict:
    """The page's embedded data (see the module's docstring), built from ``log``."""
    events = log["events"]
    frags, texts, heads, rows, boards, rules = (_Interner() for _ in range(6))
    data = {"frames": [], "text": [], "head": [], "score": [], "rule": [], "turn": []}
    board = width = height = None
    cache: dict = {}
    for i, ev in enumerate(events):
        sc = scene(log, i)
        if board is None:
            board, width, height = board_svg(sc.static), sc.width, sc.height
        data["frames"].append([frags.index(f) for f in _pieces(sc, cache)])
        data["text"].append(texts.index(sc.text))
        data["head"].append(heads.index(_head_html(log, sc, ev)))
        board_rows = tuple(rows.index(r) for r in _score_rows(sc.scores, sc.seat,
                                                              log["settings"].get("komi")))
        data["score"].append(boards.index(board_rows))
        data["rule"].append(rules.index(sc.rule or NO_RULE))
        data["turn"].append(int(ev.get("turn", 0)))
    data["turnStarts"] = [ev["i"] for ev in events if ev["type"] == "turn_start"]
    data["frames"] = delta_frames(data["frames"])
    data["tokens"], squeezed = squeeze(frags.values)
    data.update(frags=squeezed, texts=texts.values, heads=heads.values, rows=rows.values,
                scores=[list(b) for b in boards.values], rules=rules.values)
    return {"data": data, "board": board, "width": width, "height": height}


def _rules_html(texts: dict) -> str:
    out = ['<div class="rules-body">']
    for rid, r in texts.items():
        out.append(f'<p class="rule" id="rule-{escape(rid)}"><span class="rid">{escape(rid)}</span>'
                   f'{r["html"]}<span class="rsec">{escape(r["section"])}</span></p>')
    out.append("</div>")
    return "\n".join(out)


def _about(log: dict) -> str:
    s = log["settings"]
    rules = []
    if s.get("challenges"):
        rules.append("challenges " + ", ".join(map(str, s["challenges"])))
    if s.get("squid_only"):
        rules.append("squid instead of whales")
    elif s.get("squid"):
        rules.append("giant squid")
    if s.get("dolphins") and 5 not in (s.get("challenges") or []):
        rules.append("dolphins")
    if s.get("komi"):                                                    # C1
        rules.append("komi " + ",".join(f"{k:g}" for k in s["komi"]))
    order = s.get("setup_order") or ["forward", "forward"]
    if list(order) != ["forward", "forward"]:                            # C2
        rules.append(f"setup order {order[0]}" if order[0] == order[1] else
                     f"setup order: explorers {order[0]}, boats {order[1]}")
    strategies = ", ".join(dict.fromkeys(log.get("strategies") or []))
    end = (log.get("record") or {}).get("end_reason")
    parts = [f"{s['players']} players", f"strategies {strategies}" if strategies else "",
             "; ".join(rules) or "base game", f"ended by {end}" if end else "",
             f"{len(log['events']) - 1} events"]
    return " · ".join(p for p in parts if p)


def board_picture(sc) -> str:
    """The board alone (no header, scoreboard or legend) as a standalone SVG document: the
    picture a report shows small, beside a caption that says the rest."""
    return (f'<?xml version="1.0" encoding="UTF-8"?>\n'
            f'<svg xmlns="http://www.w3.org/2000/svg" width="{sc.width}" height="{sc.height}" '
            f'viewBox="0 0 {sc.width} {sc.height}" font-family="{FONT}">'
            f"<title>{escape(sc.header[0])}: {escape(sc.text)}</title>"
            f"{board_svg(sc.static)}{fragment_svg(sc.dynamic, sc.titles)}</svg>\n")


def _json_script(data) -> str:
    """JSON that is safe inside ``<script>``: no ``</`` and no ``<!--`` can close it."""
    text = json.dumps(data, separators=(",", ":"), ensure_ascii=False)
    return text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def build_page(log: dict) -> str:
    """The viewer page of ``log`` (docs/replay-log.md) as one HTML string."""
    built = frames(log)
    data = built["data"]
    cited = rules_for(r for r in data["rules"] if r != NO_RULE)
    data["sections"] = {rid: r["section"] for rid, r in cited.items()}
    title = f"survive-sim replay: seed {log.get('seed')}, game {log.get('game')}"
    fill = {
        "title": escape(title), "heading": escape(title), "about": escape(_about(log)),
        "css": _asset("viewer.css"), "js": _asset("viewer.js"),
        "width": str(built["width"]), "height": str(built["height"]),
        "ratio": f"{built['width'] / built['height']:.4f}",
        "board": built["board"], "last": str(len(data["frames"]) - 1),
        "nrules": str(len(cited)), "rules": _rules_html(cited), "data": _json_script(data),
    }
    page = _asset("viewer.html")
    out, pos = [], 0
    while True:                                  # one pass: filled text is never re-scanned
        a = page.find("{{", pos)
        if a < 0:
            break
        b = page.index("}}", a)
        out += [page[pos:a], fill[page[a + 2:b]]]
        pos = b + 2
    out.append(page[pos:])
    return "".join(out)
