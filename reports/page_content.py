"""What a report holds (``Report``: sections of paragraphs, figures, tables and sample games)
and the check that it can be written (``check_report``): every problem is one line
(``ValueError``) before a file is touched.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from reports.page_views import display_frame, one_line

NAME_RE = re.compile(r"[a-z0-9_-]+")       # a figure's, table's or game's file stem


@dataclass
class Figure:
    """A matplotlib figure (anything with ``savefig``). ``alt`` defaults to the caption;
    ``data``, when given, is written to ``tables/NAME.csv`` and linked under the figure."""
    name: str
    figure: Any
    caption: str = ""
    alt: str = ""
    data: pd.DataFrame | None = None


@dataclass
class Table:
    """A table shown on the page (its first ``max_rows`` rows; ``None``: all) and always written
    in full to ``tables/NAME.csv``. ``show=False`` writes and links the CSV only."""
    name: str
    frame: pd.DataFrame
    caption: str = ""
    show: bool = True
    max_rows: int | None = 30


@dataclass
class Picture:
    """One moment of a sample game: an SVG document, and the event it shows (the viewer page
    opens there when the picture is clicked)."""
    label: str
    svg: str
    event: int
    text: str = ""                  # shown under the picture (default: the label)


@dataclass
class Game:
    """A sample game: pictures of the board (``games/NAME-LABEL.svg``) that link to its viewer
    page (``page``, the HTML written as ``games/NAME.html``)."""
    name: str
    page: str
    pictures: list[Picture] = field(default_factory=list)
    caption: str = ""


@dataclass
class Section:
    heading: str
    paragraphs: list[str] = field(default_factory=list)
    figures: list[Figure] = field(default_factory=list)
    tables: list[Table] = field(default_factory=list)
    subsections: list[Section] = field(default_factory=list)
    games: list[Game] = field(default_factory=list)


@dataclass
class Report:
    """``notes`` are shown as a banner under the title (a partial run, a caveat); ``verdicts``
    (a frame with a ``verdict`` column) is shown first, its verdicts coloured, and written as
    ``verdicts.csv``; ``verdicts_shown``, when given, is what the page shows instead (the same
    rows, formatted for reading), while the CSV keeps the numbers."""
    title: str
    subtitle: str = ""
    notes: list[str] = field(default_factory=list)
    verdicts: pd.DataFrame | None = None
    sections: list[Section] = field(default_factory=list)
    verdicts_shown: pd.DataFrame | None = None
    summary: list[str] = field(default_factory=list)
    verdict_notes: list[str] = field(default_factory=list)     # paragraphs under the verdicts


# ---------------------------------------------------------------------------------------------
# checks

def fail(msg: str) -> None:
    """Raise the one-line ``ValueError`` every problem with a report or its folder is."""
    raise ValueError(one_line(msg))


def _check_text(value: Any, what: str) -> None:
    if not isinstance(value, str):
        fail(f"{what} must be a string, not {type(value).__name__}")


_SVG_SIZE = re.compile(r"<svg\b[^>]*?\bwidth=\"([0-9.]+)(?:px)?\"[^>]*?\bheight=\"([0-9.]+)"
                       r"(?:px)?\"", re.S)


def svg_size(svg: str) -> tuple[float, float] | None:
    """The ``(width, height)`` an SVG document declares, or None."""
    m = _SVG_SIZE.search(svg[:2000])
    return (float(m.group(1)), float(m.group(2))) if m else None


def check_report(report: Report) -> None:
    """Raise ``ValueError`` (one line) for the first thing ``write_report`` cannot write."""
    if not isinstance(report, Report):
        fail(f"write_report needs a Report, not {type(report).__name__}")
    _check_head(report)
    _check_sections(report.sections, "the report", _Names())


def _check_head(report: Report) -> None:
    """The title, subtitle, notes and verdict tables."""
    _check_text(report.title, "the report's title")
    _check_text(report.subtitle, "the report's subtitle")
    if not isinstance(report.notes, (list, tuple)):
        fail("Report.notes must be a list of strings")
    for i, note in enumerate(report.notes):
        _check_text(note, f"note {i + 1}")
    for frame in (report.verdicts, report.verdicts_shown):
        if frame is None:
            continue
        if not isinstance(frame, pd.DataFrame):
            fail(f"Report.verdicts must be a DataFrame or None, not {type(frame).__name__}")
        cols = [str(c).strip().lower() for c in display_frame(frame).columns]
        if cols.count("verdict") != 1:
            fail("the verdict table needs exactly one 'verdict' column (has: "
                 f"{', '.join(map(str, frame.columns)) or 'none'})")
    if report.verdicts_shown is not None and report.verdicts is None:
        fail("Report.verdicts_shown needs Report.verdicts (the numbers behind it)")


class _Names:
    """The file names taken so far: figures, games, and ``tables/NAME.csv`` (a table's, or a
    figure's data) with what took each."""

    def __init__(self):
        self.figures: set[str] = set()
        self.games: set[str] = set()
        self.tables: dict[str, str] = {}

    @staticmethod
    def stem(name: Any, what: str) -> None:
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            fail(f"{what} name {name!r} is not a file stem (letters a-z, digits, '_', '-')")

    def table(self, name: str, what: str) -> None:
        if name in self.tables:
            fail(f"{what} and {self.tables[name]} would both be tables/{name}.csv")
        self.tables[name] = what


def _check_sections(sections: Any, where: str, names: _Names) -> None:
    if not isinstance(sections, (list, tuple)):
        fail(f"{where}: sections must be a list")
    for s in sections:
        if not isinstance(s, Section):
            fail(f"{where}: {type(s).__name__} is not a Section")
        _check_text(s.heading, f"a section heading ({where})")
        at = f"section {s.heading!r}"
        for p in s.paragraphs:
            _check_text(p, f"a paragraph of {at}")
        for f in s.figures:
            _check_figure(f, at, names)
        for t in s.tables:
            _check_table(t, at, names)
        for g in s.games:
            _check_game(g, at, names)
        _check_sections(s.subsections, at, names)


def _check_figure(f: Any, at: str, names: _Names) -> None:
    if not isinstance(f, Figure):
        fail(f"{at}: {type(f).__name__} is not a Figure")
    names.stem(f.name, "figure")
    if f.name in names.figures:
        fail(f"two figures are named {f.name!r}")
    names.figures.add(f.name)
    if not callable(getattr(f.figure, "savefig", None)):
        fail(f"figure {f.name!r}: {type(f.figure).__name__} has no savefig")
    _check_text(f.caption, f"the caption of figure {f.name!r}")
    _check_text(f.alt, f"the alt text of figure {f.name!r}")
    if f.data is not None:
        if not isinstance(f.data, pd.DataFrame):
            fail(f"figure {f.name!r}: data must be a DataFrame or None")
        names.table(f.name, f"the data of figure {f.name!r}")


def _check_table(t: Any, at: str, names: _Names) -> None:
    if not isinstance(t, Table):
        fail(f"{at}: {type(t).__name__} is not a Table")
    names.stem(t.name, "table")
    if not isinstance(t.frame, pd.DataFrame):
        fail(f"table {t.name!r}: frame must be a DataFrame, not {type(t.frame).__name__}")
    _check_text(t.caption, f"the caption of table {t.name!r}")
    if t.max_rows is not None and (not isinstance(t.max_rows, int)
                                   or isinstance(t.max_rows, bool) or t.max_rows < 1):
        fail(f"table {t.name!r}: max_rows must be a positive integer or None, "
             f"not {t.max_rows!r}")
    names.table(t.name, f"table {t.name!r}")


def _check_game(g: Any, at: str, names: _Names) -> None:
    if not isinstance(g, Game):
        fail(f"{at}: {type(g).__name__} is not a Game")
    names.stem(g.name, "game")
    if g.name in names.games:
        fail(f"two games are named {g.name!r}")
    names.games.add(g.name)
    _check_text(g.page, f"the page of game {g.name!r}")
    _check_text(g.caption, f"the caption of game {g.name!r}")
    labels = set()
    for pic in g.pictures:
        if not isinstance(pic, Picture):
            fail(f"game {g.name!r}: {type(pic).__name__} is not a Picture")
        names.stem(pic.label, f"game {g.name!r}: picture")
        if pic.label in labels:
            fail(f"game {g.name!r}: two pictures are labelled {pic.label!r}")
        labels.add(pic.label)
        _check_text(pic.svg, f"picture {pic.label!r} of game {g.name!r}")
        _check_text(pic.text, f"the text of picture {pic.label!r}")
        if not svg_size(pic.svg):
            fail(f"picture {pic.label!r} of game {g.name!r} is not an SVG document with a "
                 f"width and a height")
