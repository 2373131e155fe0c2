"""Board pictures (``replays.draw``) of a hand-built position: every piece is drawn where the
layout puts it (the SVG's elements by id, the PNG's pixels at hex centres), crowded hexes keep
their tokens apart, the layers a viewer swaps are consistent, bad indices are refused, and an
animation has one frame per event or per turn. Engine-free: the log is built by hand
(``support/draw_log.py``)."""
from __future__ import annotations

import io
import math
import re
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from PIL import Image, ImageChops, ImageStat
from support.draw_log import (
    BOAT_HEX,
    CROWD,
    CROWD_IDS,
    EMPTY,
    GONE,
    LAND_A,
    LAND_FROM,
    SERPENT_HEX,
    SHARK_HEX,
    SQUID_HEX,
    SWIM_HEX,
    WHALE_HEX,
    make_log,
    terrain,
)

from replays.board import BOARD
from replays.draw import animate, layout, raster, scene, style, svg
from replays.draw.panel import page
from replays.draw.scene import event_text, rule_of, turn_start
from replays.text import format_log

pytestmark = pytest.mark.engine_free

ROOT = Path(__file__).resolve().parents[1]
NS = {"s": "http://www.w3.org/2000/svg"}
MOVE, SINK = 3, 5                     # the hand-built log's walk and sink events


@pytest.fixture(scope="module")
def log():
    return make_log()


def _svg_tree(sc):
    return ET.fromstring(svg.document(sc).split("\n", 1)[1])


def _by_id(root):
    return {el.get("id"): el for el in root.iter() if el.get("id")}


def _near(a, b, tol=0.6):
    return abs(a[0] - b[0]) <= tol and abs(a[1] - b[1]) <= tol


def test_each_piece_is_drawn_on_its_hex(log):
    """Lone pieces sit at their hex's centre; the boat's passengers in its seats; rescued
    explorers in their isle; a removed tile is not drawn; every element id is unique."""
    sc = scene(log, MOVE)
    root = _svg_tree(sc)
    ids = [el.get("id") for el in root.iter() if el.get("id")]
    assert len(ids) == len(set(ids))
    el = _by_id(root)
    c = layout.centre
    token = el["ex-3.token"]
    assert el["ex-3"].tag.endswith("g") and token in list(el["ex-3"])
    assert _near((float(token.get("cx")), float(token.get("cy"))), c(LAND_A))
    assert el["ex-3.value"].text == "2"                         # slot 3 has value 2
    assert token.get("fill") == style.SEAT_COLOURS[0]
    for kind, k, h in (("serpent", 0, SERPENT_HEX), ("whale", 2, WHALE_HEX),
                       ("squid", 3, SQUID_HEX)):
        letter = el[f"{kind}-{k}.letter"]
        assert _near((float(letter.get("x")), float(letter.get("y"))), c(h)), kind
    assert "shark-1" in el and "dolphin-0" in el
    # a shark alone: its fin's points surround the hex centre
    pts = [tuple(map(float, p.split(","))) for p in el["shark-1.marker"].get("points").split()]
    mean = (sum(x for x, _ in pts) / len(pts), sum(y for _, y in pts) / len(pts))
    assert math.dist(mean, c(SHARK_HEX)) < 0.2 * layout.R
    # the boat's passengers sit in its left and middle seats, on the hex's middle row
    sl = layout.slots(0, 1, 0)
    for e, (dx, dy) in zip((11, 21), sl.boats[0]):
        t = el[f"ex-{e}.token"]
        assert _near((float(t.get("cx")), float(t.get("cy"))),
                     (c(BOAT_HEX)[0] + dx, c(BOAT_HEX)[1] + dy))
    assert "boat-4.hull" in el
    # the dolphin shares the swimmer's hex and protects it
    assert "ex-31.protect" in el
    # tiles: drawn where land remains, in their terrain's colour; the sunk one is gone
    assert el[f"tile-{LAND_A}.shape"].get("fill") == style.TERRAIN[terrain(LAND_A)]
    assert f"tile-{GONE}" not in el and f"hex-{GONE}" in el
    # rescued explorers: per-seat badges on isle NE (seat 1: two worth 3, seat 2: one worth 1)
    assert el["safe-NE.seat1-text"].text == "2 = 3"
    assert el["safe-NE.seat2-text"].text == "1 = 1"
    x, y, w, h = layout.geometry().isles[134]
    badge = el["safe-NE.seat1"]
    assert x <= float(badge.get("x")) and float(badge.get("x")) + float(badge.get("width")) <= x + w
    assert y <= float(badge.get("y")) <= y + h


def test_the_board_sits_below_the_header(log):
    root = _svg_tree(scene(log, MOVE))
    board = _by_id(root)["board"]
    assert board.get("transform") == f"translate(0,{page(scene(log, MOVE)).board_y:g})"


def test_the_png_shows_the_pieces_at_their_hexes(log):
    """Pixels at known centres: a lone explorer's seat colour, a tile's terrain colour, the sea
    where a tile sank, a sea hex."""
    sc = scene(log, SINK)
    im = raster.image(sc)
    pg = page(sc)
    assert im.size == (pg.width, pg.height)

    def px(h, dx=0.0, dy=0.0):
        x, y = layout.centre(h)
        return im.getpixel((round(x + dx + pg.board_x), round(y + dy + pg.board_y)))

    r = layout.slots(0, 0, 1).r
    assert px(LAND_A, -0.7 * r) == style.rgb(style.SEAT_COLOURS[0])     # beside the value
    after = log["events"][SINK]["after"]
    occupied = {at for _, loc, at in after["explorers"] if loc == "land"}
    lone = next(h for h in after["land"] if h not in occupied)       # a tile nobody stands on
    assert px(lone) == style.rgb(style.TERRAIN[terrain(lone)])
    assert px(GONE) == style.rgb(style.SEA)
    assert px(EMPTY, 0, 0.5 * layout.R) == style.rgb(style.SEA)         # sunk at this event
    sea = next(h for h in range(BOARD.n_hex) if h not in BOARD.island and h != BOARD.lagoon
               and h not in (BOAT_HEX, SWIM_HEX, SERPENT_HEX, SHARK_HEX, WHALE_HEX, SQUID_HEX))
    assert px(sea) == style.rgb(style.SEA)
    assert px(BOARD.lagoon, 0, 0.35 * layout.R) == style.rgb(style.LAGOON)
    png = raster.png(sc)
    assert Image.open(io.BytesIO(png)).size == im.size


def test_a_crowded_hex_keeps_its_tokens_apart(log):
    """Seven explorers of four seats on one tile: every token inside the hex, none touching
    another, and the value of each readable from its text element."""
    el = _by_id(_svg_tree(scene(log, MOVE)))
    pts = [(float(el[f"ex-{e}.token"].get("cx")), float(el[f"ex-{e}.token"].get("cy")),
            float(el[f"ex-{e}.token"].get("r"))) for e in CROWD_IDS]
    cx, cy = layout.centre(CROWD)
    for k, (x, y, r) in enumerate(pts):
        assert layout._inside(x - cx, y - cy, r)
        for x2, y2, r2 in pts[k + 1:]:
            assert math.dist((x, y), (x2, y2)) >= r + r2


@pytest.mark.parametrize("counts", [(0, 0, n) for n in range(1, 40)]
                         + [(c, 1, s) for c in range(4) for s in range(8)]
                         + [(2, 2, 3)])
def test_slots_fit_and_never_overlap(counts):
    sl = layout.slots(*counts)
    creatures, boats, swimmers = counts
    assert len(sl.creatures) == creatures and len(sl.boats) == boats
    assert len(sl.swimmers) == swimmers
    pts = list(sl.creatures) + [p for b in sl.boats for p in b] + list(sl.swimmers)
    assert len(set(pts)) == len(pts)
    for k, (x, y) in enumerate(pts):
        assert layout._inside(x, y, sl.r)
        for x2, y2 in pts[k + 1:]:
            assert math.dist((x, y), (x2, y2)) >= 2 * sl.r - 1e-6
    for b in sl.boats:                   # a boat's seats: one row, side by side
        assert b[0][1] == b[1][1] == b[2][1] and b[0][0] < b[1][0] < b[2][0]


def test_the_last_event_is_drawn(log):
    """A walk: an arrow from where the explorer stood to near where it stands; a sink: the
    sunk hex outlined."""
    el = _by_id(_svg_tree(scene(log, MOVE)))
    pts = [tuple(map(float, p.split(","))) for p in el["last-event.arrow"].get("points").split()]
    head = [tuple(map(float, p.split(","))) for p in el["last-event.arrow-head"].get("points").split()]
    assert math.dist(pts[0], layout.centre(LAND_FROM)) < 0.5 * layout.R
    assert math.dist(head[0], layout.centre(LAND_A)) < 0.5 * layout.R
    el = _by_id(_svg_tree(scene(log, SINK)))
    outline = [tuple(map(float, p.split(","))) for p in el["last-event.hex"].get("points").split()]
    mean = (sum(x for x, _ in outline) / 6, sum(y for _, y in outline) / 6)
    assert math.dist(mean, layout.centre(EMPTY)) < 1
    assert "last-event" not in _by_id(_svg_tree(scene(log, 2)))      # a roll: nothing on the board


def test_layers_give_the_same_board_and_one_fragment_per_piece(log):
    a, b = svg.layers(scene(log, MOVE)), svg.layers(scene(log, SINK))
    assert a["board"] == b["board"] and (a["width"], a["height"]) == (b["width"], b["height"])
    assert f"tile-{EMPTY}" in a["pieces"] and f"tile-{EMPTY}" not in b["pieces"]
    for gid, frag in a["pieces"].items():
        g = ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{frag}</svg>')[0]
        assert g.get("id") == gid
    ET.fromstring(f'<svg xmlns="http://www.w3.org/2000/svg">{a["board"]}</svg>')
    assert re.search(r'<g id="hex-0">', a["board"])


def test_the_header_and_scores(log):
    sc = scene(log, MOVE)
    assert sc.header[0].startswith("Game 3 of seed 7 · 4 players")
    assert "turn 1" in sc.header[1] and "seat 0 to move" in sc.header[1] and "[B5.2]" in sc.header[1]
    assert sc.header[2] == sc.text == event_text(log, MOVE) == "walk: explorer 0.3 (value 2) to " + BOARD.name(LAND_A)
    s1 = sc.scores[1]
    assert (s1["rescued"], s1["value"], s1["lost"]["shark"], s1["tiles"], s1["hand"]) == (
        2, 3, 1, 2, {"wind": 2})
    assert sc.scores[0]["colour"] == style.SEAT_COLOURS[0] and sc.seat == 0


def test_text_is_escaped():
    log = make_log(strategy="<b>&'\"")
    doc = svg.document(scene(log, 1))
    root = ET.fromstring(doc.split("\n", 1)[1])
    assert any(el.text and "<b>&'\"" in el.text for el in root.iter())


def test_event_text_is_the_accounts_wording(log):
    account = format_log({**log, "record": {f"{k}_{s}": 0 for s in range(4)
                                           for k in ("score", "rescued")}}).splitlines()
    for i in range(len(log["events"])):
        assert event_text(log, i).split("; ")[0] in [x.strip() for x in account]


def test_turns_and_bad_indices(log):
    assert turn_start(log, 1) == 1 and turn_start(log, 2) == 4
    with pytest.raises(ValueError, match=r"turn 3 is outside the game: accepted 1\.\.2"):
        turn_start(log, 3)
    for i in (-1, 7, 10**9):
        with pytest.raises(IndexError, match=r"accepted 0\.\.6"):
            scene(log, i)


def test_rule_ids_exist_in_the_rules():
    rules = (ROOT / "docs" / "RULES.md").read_text(encoding="utf-8")
    events = [{"type": t} for t in ("layout", "place_explorer", "place_boat", "turn_start",
                                    "play_tile", "move", "sink", "bonus")]
    events += [{"type": "creature", "kind": k} for k in ("serpent", "shark", "whale", "squid",
                                                         "dolphin", "boat")]
    events += [{"type": "squid", "placed": p} for p in (True, False)]
    events += [{"type": "roll"}, {"type": "roll", "number": 2}]
    events += [{"type": "end", "reason": r} for r in ("volcano", "turn_cap", "no_explorers",
                                                      "island_gone")]
    for ev in events:
        rid = rule_of(ev)
        assert re.search(rf"(\| {re.escape(rid)} \||^## {re.escape(rid)} )", rules, re.MULTILINE), (ev, rid)
    assert rule_of({"type": "creature", "kind": "shark"}) == "B6.9"


@pytest.mark.parametrize("frames, expected", [("events", 7), ("turns", 3)])
def test_the_gif_has_one_frame_per_event_or_turn(log, frames, expected):
    buf = io.BytesIO()
    n = animate.gif(log, buf, frames, scale=0.3)
    im = Image.open(io.BytesIO(buf.getvalue()))
    assert n == im.n_frames == expected
    assert animate.frame_events(log, frames)[-1] == len(log["events"]) - 1
    im.seek(expected - 1)
    assert im.info["duration"] == animate.HOLD_MS


def test_gif_frames_decode_to_the_pictures(log):
    """The frame-by-frame writer's patches add up to each frame as drawn."""
    buf = io.BytesIO()
    animate.gif(log, buf, "events", scale=0.3)
    im = Image.open(io.BytesIO(buf.getvalue()))
    for k in range(len(log["events"])):
        im.seek(k)
        got = im.convert("RGB")
        want = raster.image(scene(log, k), 0.3)
        assert got.size == want.size
        mean = ImageStat.Stat(ImageChops.difference(got, want)).mean
        assert max(mean) < 3                        # palette quantisation only


def test_mp4_needs_ffmpeg(log, tmp_path, monkeypatch):
    monkeypatch.setattr(animate, "ffmpeg", lambda: None)
    with pytest.raises(FileNotFoundError, match="ffmpeg is not on PATH"):
        animate.mp4(log, str(tmp_path / "g.mp4"))


def _fake_ffmpeg(tmp_path, body: str) -> str:
    exe = tmp_path / "ffmpeg"
    exe.write_text(f"#!{sys.executable}\nimport sys\n"
                   "if '-encoders' in sys.argv:\n    print(' V..... libx264')\n    sys.exit(0)\n"
                   f"{body}\n")
    exe.chmod(0o755)
    return str(exe)


def test_mp4_pipes_every_frame_to_ffmpeg(log, tmp_path):
    """The frames reach ffmpeg's stdin as raw RGB, the last one held (a stand-in ffmpeg
    writes how many bytes it read)."""
    exe = _fake_ffmpeg(tmp_path, "n = len(sys.stdin.buffer.read())\n"
                                 "open(sys.argv[-1], 'w').write(str(n))")
    out = tmp_path / "g.mp4"
    n = animate.mp4(log, str(out), "turns", scale=0.3, executable=exe)
    w, h = raster.image(scene(log, 0), 0.3).size
    hold = round(animate.HOLD_MS / animate.FRAME_MS["turns"])
    assert n == 3 and int(out.read_text()) == (n + hold - 1) * w * h * 3


def test_a_failing_ffmpeg_is_one_line(log, tmp_path):
    exe = _fake_ffmpeg(tmp_path, "sys.stdin.buffer.read()\n"
                                 "print('Unknown encoder libx264', file=sys.stderr)\nsys.exit(1)")
    with pytest.raises(RuntimeError, match="ffmpeg failed .exit 1.: Unknown encoder libx264"):
        animate.mp4(log, str(tmp_path / "g.mp4"), "turns", scale=0.3, executable=exe)


@pytest.mark.parametrize("encoders, codec", [(" V..... libx264  H.264", "libx264"),
                                             (" V..... mpeg4", "mpeg4")])
def test_mp4_uses_h264_when_ffmpeg_has_it(log, tmp_path, encoders, codec):
    exe = tmp_path / "ffmpeg"
    exe.write_text(f"#!{sys.executable}\nimport sys\nprint({encoders!r})\n")
    exe.chmod(0o755)
    assert animate._codec(str(exe))[1] == codec
