"""The report page writer (``reports.page``): the files it writes, links that resolve, escaping,
truncated tables, and the atomic replace / refuse / clean-up behaviour. No browser needed."""
from __future__ import annotations

import hashlib
import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from matplotlib.figure import Figure as MplFigure
from PIL import Image

from reports.page import (
    MARKER,
    Figure,
    Game,
    Picture,
    Report,
    Section,
    Table,
    format_cell,
    inline_tokens,
    write_report,
)

pytestmark = pytest.mark.engine_free


NASTY = "<script>alert('x')</script> A & B | C"
PARTIAL = "PARTIAL RUN: 1,200,000 of 7,200,000 games finished"


def _chart(kind: str) -> MplFigure:
    fig = MplFigure(figsize=(4, 2.5))
    ax = fig.add_subplot()
    if kind == "bar":
        ax.bar(["0", "1", "2"], [0.3, 0.4, 0.3])
    elif kind == "line":
        ax.plot([1, 2, 3], [2, 1, 3])
    else:
        ax.scatter([1, 2, 3], [3, 1, 2])
    ax.set_title(kind)
    return fig


_SVG = ('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="800" '
        'height="600"><g id="ex-3"><circle cx="1" cy="2" r="3"/></g></svg>\n')


def _game(name: str) -> Game:
    return Game(name, f"<!DOCTYPE html><title>{name}</title>",
                [Picture("setup", _SVG, 12, "after setup (event 12)"),
                 Picture("end", _SVG, 99, f"at the end {NASTY}")],
                f"Game `{name}` {NASTY}")


def _report(**over) -> Report:
    verdicts = pd.DataFrame({"claim": ["S1", "N3", "T1"],
                             "statement": [f"first seat wins {NASTY}", "ties", "chain"],
                             "verdict": ["supported", "refuted", "inconclusive"],
                             "evidence": ["+3.1 pp", "p = 0.2", np.nan]})
    long = pd.DataFrame({"setting": [f"p5-s{i}" for i in range(40)], "seat": range(40),
                         "share": np.linspace(0, 1, 40), "pct": [f"{i}.0%" for i in range(40)]})
    small = pd.DataFrame({"name": [NASTY, "plain"], "value": [1234567.0, np.nan]})
    sections = [
        Section("Seat balance", paragraphs=[f"Use `a | b <c>` and **bold** here; {NASTY}"],
                figures=[Figure("seat_share", _chart("bar"), "Win share `by seat`",
                                data=pd.DataFrame({"seat": [0, 1, 2], "share": [.3, .4, .3]})),
                         Figure("turns", _chart("line"), f"Turns {NASTY}", alt="turns chart")],
                tables=[Table("long", long, "Forty rows", max_rows=10),
                        Table("small", small, f"Small {NASTY}")],
                games=[_game("g1")],
                subsections=[Section("Ties", paragraphs=["Ties are rare."],
                                     tables=[Table("ties", pd.DataFrame({"t": [0.1]}),
                                                   "hidden", show=False)])]),
        Section(f"Scores {NASTY}", paragraphs=["Scores."],
                figures=[Figure("scores", _chart("scatter"), "Scores")],
                tables=[Table("scores", pd.DataFrame({"x": [1, 2], "y": [3.5, 4.25]}),
                              "Data of the scores figure")]),
    ]
    kw = {"title": f"Balance {NASTY}", "subtitle": "seed 1", "notes": [PARTIAL, "note `two`"],
          "verdicts": verdicts, "sections": sections}
    kw.update(over)
    return Report(**kw)


class _Refs(HTMLParser):
    def __init__(self):
        super().__init__()
        self.refs, self.ids, self.tags = [], set(), []

    def handle_starttag(self, tag, attrs):
        self.tags.append(tag)
        for k, v in attrs:
            if k in ("src", "href"):
                self.refs.append(v)
            if k == "id":
                self.ids.add(v)


def _snapshot(folder: Path) -> dict[str, str]:
    return {str(p.relative_to(folder)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(folder.rglob("*")) if p.is_file()}


def _siblings(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.parent.iterdir() if p.name.startswith("."))


@pytest.fixture(scope="module")
def written(tmp_path_factory):
    out = tmp_path_factory.mktemp("page") / "report"
    index = write_report(_report(), out)
    return out, index


def test_every_file_exists(written):
    out, index = written
    assert index == out / "index.html"
    for name in ("seat_share", "turns", "scores"):
        png, svg = out / "figures" / f"{name}.png", out / "figures" / f"{name}.svg"
        assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        with Image.open(png) as im:
            im.verify()
        assert ET.parse(svg).getroot().tag.endswith("svg")
    for name in ("long", "small", "ties", "scores", "seat_share"):
        assert (out / "tables" / f"{name}.csv").is_file()
    for name in ("index.html", "index.md", "verdicts.csv", MARKER):
        assert (out / name).is_file()
    assert not (out / "tables" / "turns.csv").exists()        # a figure without data
    assert _siblings(out) == []                                # no temporary left


def test_html_links_resolve_and_nothing_external(written):
    out, index = written
    html = index.read_text(encoding="utf-8")
    parser = _Refs()
    parser.feed(html)
    assert parser.refs
    for ref in parser.refs:
        if ref.startswith("#"):
            assert ref[1:] in parser.ids, ref
        else:
            assert (out / ref.split("#")[0]).is_file(), ref     # games/NAME.html#event=N
    assert "http://" not in html and "https://" not in html
    assert "<script" not in parser.tags and "link" not in parser.tags
    assert html.count("<style>") == 1
    # the contents link every section and the verdicts; the verdicts come before the sections
    for anchor in ("verdicts", "seat-balance", "ties", "scores-script-alert-x-script-a-b-c"):
        assert f'href="#{anchor}"' in html and f'id="{anchor}"' in html
    assert html.index('id="verdicts"') < html.index('id="seat-balance"')
    # figures: the PNG in the page, a link to its SVG, its data where it has some
    assert 'src="figures/seat_share.png"' in html and 'href="figures/seat_share.svg"' in html
    assert 'data: <a href="tables/seat_share.csv">' in html
    assert 'data: <a href="tables/scores.csv">' in html         # a table of the same name
    assert 'alt="turns chart"' in html


def test_md_links_resolve(written):
    out, _ = written
    md = (out / "index.md").read_text(encoding="utf-8")
    ids = set(re.findall(r'<a id="([^"]+)"></a>', md))
    links = re.findall(r"\]\(([^)\s]+)\)", md)
    assert "figures/seat_share.png" in links and "tables/long.csv" in links
    for link in links:
        if link.startswith("#"):
            assert link[1:] in ids, link
        else:
            assert (out / link.split("#")[0]).is_file(), link
    assert "](http" not in md
    assert md.index("## Verdicts") < md.index("## Seat balance")
    assert re.search(r"!\[Win share by seat\]\(figures/seat_share\.png\)", md)


def test_text_is_escaped(written):
    out, index = written
    html = index.read_text(encoding="utf-8")
    assert "<script>" not in html
    assert "&lt;script&gt;alert(&#x27;x&#x27;)&lt;/script&gt; A &amp; B | C" in html
    assert not re.search(r"&(?!(amp|lt|gt|quot|#x27|#\d+);)", html)     # every & is an entity
    # the minimal markup: code spans (their text escaped too) and bold
    assert "<code>a | b &lt;c&gt;</code>" in html and "<strong>bold</strong>" in html
    assert "<code>by seat</code>" in html
    md = (out / "index.md").read_text(encoding="utf-8")
    assert "<script>" not in md and "&lt;script&gt;" in md and "A &amp; B \\| C" in md
    assert "`a | b <c>`" in md and "**bold**" in md            # code spans stay literal
    # pipe tables: every row of a table has the header's number of cells
    for block in re.findall(r"(?m)(?:^\|.*\|$\n?)+", md):
        rows = [r for r in block.splitlines() if r.strip()]
        widths = {len(re.split(r"(?<!\\)\|", r)) for r in rows}
        assert len(widths) == 1, block


def test_tables_and_numbers(written):
    out, index = written
    html = index.read_text(encoding="utf-8")
    md = (out / "index.md").read_text(encoding="utf-8")
    full = pd.read_csv(out / "tables" / "long.csv")
    assert len(full) == 40 and list(full.columns) == ["setting", "seat", "share", "pct"]
    assert "showing 10 of 40 rows — full table: " in html
    assert 'showing 10 of 40 rows — full table: <a href="tables/long.csv">' in html
    assert "showing 10 of 40 rows — full table: [tables/long.csv](tables/long.csv)" in md
    assert "p5-s9" in html and "p5-s10<" not in html
    assert '<td class="num">1,234,567</td>' in html and '<td class="num empty">–</td>' in html
    assert '<th scope="col" class="num">pct</th>' in html          # percent strings: numbers
    assert "|---|---:|---:|---:|" in md
    assert 'href="tables/ties.csv"' in html and "hidden" in html   # show=False: a link only
    verdicts = pd.read_csv(out / "verdicts.csv")
    assert list(verdicts["verdict"]) == ["supported", "refuted", "inconclusive"]
    for v in ("supported", "refuted", "inconclusive"):
        assert re.search(rf'<td class="verdict v-{v}"[^>]*>.*{v}</td>', html)
        assert f"**{v}**" in md


def test_partial_note_in_both(written):
    out, index = written
    html = index.read_text(encoding="utf-8")
    md = (out / "index.md").read_text(encoding="utf-8")
    assert PARTIAL in html and PARTIAL in md
    assert html.index(PARTIAL) < html.index('id="verdicts"')
    assert re.search(r'<div class="notes"[^>]*>\s*<p>[^\n]*' + re.escape(PARTIAL), html)
    assert md.index(PARTIAL) < md.index("## Verdicts")


def test_format_cell_and_markup():
    assert [format_cell(v) for v in (np.nan, None, pd.NA, 0.0, 3.0, 12345.6, 0.123456,
                                     1234.5, 9999.7, 2.5e-7, np.int64(200000), 7, "12.5%",
                                     float("inf"), True)] == \
        ["–", "–", "–", "0", "3", "12,346", "0.1235", "1234", "10,000", "2.5e-07",
         "200,000", "7", "12.5%", "∞", "True"]
    assert inline_tokens("a `x**y**` **b** c") == [("text", "a "), ("code", "x**y**"),
                                                   ("text", " "), ("bold", "b"), ("text", " c")]


def test_write_again_replaces(tmp_path):
    out = tmp_path / "rep"
    write_report(_report(), out)
    second = _report(sections=[Section("Only", paragraphs=["new"],
                                       tables=[Table("other", pd.DataFrame({"a": [1]}))])],
                     verdicts=None, notes=[])
    write_report(second, out)
    files = set(_snapshot(out))
    assert files == {"index.html", "index.md", MARKER, "tables/other.csv"}
    assert "new" in (out / "index.html").read_text(encoding="utf-8")
    assert _siblings(out) == []
    (tmp_path / "empty").mkdir()                                 # an empty folder is fine too
    write_report(second, tmp_path / "empty")
    assert (tmp_path / "empty" / "index.html").is_file()


def test_foreign_folder_refused(tmp_path):
    out = tmp_path / "mine"
    out.mkdir()
    (out / "notes.txt").write_text("keep me")
    before = _snapshot(out)
    with pytest.raises(ValueError) as err:
        write_report(_report(), out)
    assert "\n" not in str(err.value) and "not empty" in str(err.value)
    assert _snapshot(out) == before and _siblings(out) == []
    (tmp_path / "file").write_text("x")
    with pytest.raises(ValueError, match="is a file"):
        write_report(_report(), tmp_path / "file")


class _Exploding:
    def savefig(self, *args, **kwargs):
        raise RuntimeError("disk on fire")


def test_failure_leaves_nothing(tmp_path):
    bad = _report()
    bad.sections[1].figures.append(Figure("boom", _Exploding(), "fails"))
    fresh = tmp_path / "fresh"
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_report(bad, fresh)
    assert not fresh.exists() and list(tmp_path.iterdir()) == []
    out = tmp_path / "rep"
    write_report(_report(), out)
    before = _snapshot(out)
    mtime = os.stat(out / "index.html").st_mtime_ns
    with pytest.raises(RuntimeError, match="disk on fire"):
        write_report(bad, out)
    assert _snapshot(out) == before and os.stat(out / "index.html").st_mtime_ns == mtime
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rep"]


@pytest.mark.parametrize("change, message", [
    (lambda r: r.sections[0].figures.append(Figure("Bad Name", _chart("bar"))), "file stem"),
    (lambda r: r.sections[1].figures.append(Figure("turns", _chart("bar"))), "two figures"),
    (lambda r: r.sections[1].tables.append(Table("long", pd.DataFrame())), "tables/long.csv"),
    (lambda r: r.sections[0].figures.append(Figure("small", _chart("bar"),
                                                   data=pd.DataFrame())), "tables/small.csv"),
    (lambda r: r.sections[0].tables.append(Table("t0", pd.DataFrame(), max_rows=0)), "max_rows"),
    (lambda r: setattr(r, "verdicts", pd.DataFrame({"claim": ["S1"]})), "'verdict' column"),
    (lambda r: r.sections[0].figures.append(Figure("nofig", object())), "savefig"),
    (lambda r: r.sections[0].games.append(_game("g1")), "two games"),
    (lambda r: r.sections[1].games.append(Game("g2", "<html>", [Picture("end", "<p>", 3)])),
     "not an SVG document"),
    (lambda r: r.sections[1].games.append(Game("g2", "<html>", [Picture("a b", _SVG, 3)])),
     "file stem"),
])
def test_bad_reports_refused_before_writing(tmp_path, change, message):
    report = _report()
    change(report)
    with pytest.raises(ValueError, match=re.escape(message)) as err:
        write_report(report, tmp_path / "out")
    assert "\n" not in str(err.value) and list(tmp_path.iterdir()) == []


def test_parent_checked_up_front(tmp_path, monkeypatch):
    with pytest.raises(ValueError, match="does not exist") as err:
        write_report(_report(), tmp_path / "missing" / "out")
    assert "\n" not in str(err.value)
    monkeypatch.setattr(os, "access", lambda *a, **k: False)     # (root can write anywhere)
    with pytest.raises(ValueError, match="not writable") as err:
        write_report(_report(), tmp_path / "out")
    assert "\n" not in str(err.value) and list(tmp_path.iterdir()) == []


def test_games_are_pictures_linking_their_viewer_pages(written):
    """A sample game: its pictures as SVG files, each a link to the game's page (written as
    given) at the picture's event, in the HTML and the Markdown; its text escaped."""
    out, index = written
    assert (out / "games" / "g1.html").read_text() == _game("g1").page
    for label in ("setup", "end"):
        assert (out / "games" / f"g1-{label}.svg").read_text() == _SVG
    html = index.read_text(encoding="utf-8")
    assert '<a href="games/g1.html#event=12"' in html and 'src="games/g1-setup.svg"' in html
    assert '<a href="games/g1.html#event=99"' in html and 'width="500" height="375"' in html
    assert NASTY not in html and "at the end &lt;script&gt;" in html
    md = (out / "index.md").read_text(encoding="utf-8")
    assert "(games/g1-end.svg)](games/g1.html#event=99)" in md
    assert "[step through the game](games/g1.html)" in md
