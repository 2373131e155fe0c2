"""What the report page's two renderers (``page_html``, ``page_md``) draw, and the text rules
they share: a report (``page_content``) becomes a ``PageView`` of numbered, anchored,
formatted pieces with their file paths (``reports.page`` builds it while writing the files),
so that the HTML and the Markdown cannot disagree on a number, an id or a cell.

Text is plain everywhere; paragraphs, notes and captions also accept `` `code` `` and
``**bold**`` (``inline_tokens``). Cells are formatted once (``format_cell``).
"""
from __future__ import annotations

import math
import numbers
import re
import unicodedata
from dataclasses import dataclass, field
from typing import Any

import pandas as pd

from experiments.verdicts.decisions import VERDICTS

EMPTY = "–"                                # a missing value on the page


# ---------------------------------------------------------------------------------------------
# text and numbers

_CODE = re.compile(r"`([^`\n]+)`")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")


def inline_tokens(text: str) -> list[tuple[str, str]]:
    """``text`` as ``(kind, text)`` pieces, kind ``text``, ``code`` (between backticks) or
    ``bold`` (between ``**``); nothing else is markup, and a code span is never bold."""
    out: list[tuple[str, str]] = []
    pos = 0
    for m in _CODE.finditer(text):
        out += _bold_tokens(text[pos:m.start()])
        out.append(("code", m.group(1)))
        pos = m.end()
    return out + _bold_tokens(text[pos:])


def _bold_tokens(text: str) -> list[tuple[str, str]]:
    out, pos = [], 0
    for m in _BOLD.finditer(text):
        if m.start() > pos:
            out.append(("text", text[pos:m.start()]))
        out.append(("bold", m.group(1)))
        pos = m.end()
    if pos < len(text):
        out.append(("text", text[pos:]))
    return out


def plain(text: str) -> str:
    """``text`` without its markup (for ``alt`` text and titles)."""
    return "".join(t for _, t in inline_tokens(one_line(text)))


def one_line(text: Any) -> str:
    return " ".join(str(text).split())


def format_cell(value: Any) -> str:
    """A table cell as shown: missing values as ``–``, integers (and whole floats) with
    thousands separators from 10,000, other floats to 4 significant digits; strings as given."""
    if value is None or value is pd.NaT or value is pd.NA:
        return EMPTY
    if isinstance(value, str):
        return value
    if isinstance(value, bool) or type(value).__name__ == "bool_":
        return str(bool(value))
    if isinstance(value, numbers.Integral):
        return _int(int(value))
    if isinstance(value, numbers.Real):
        x = float(value)
        if math.isnan(x):
            return EMPTY
        if math.isinf(x):
            return "∞" if x > 0 else "-∞"
        if x == 0:
            return "0"
        if abs(x) >= 1e4 and abs(x) < 1e15:
            return _int(round(x))
        if x == round(x) and abs(x) < 1e4:
            return str(int(x))
        s = f"{x:.4g}"
        return _int(round(x)) if "e+" in s else s
    try:
        if pd.isna(value):
            return EMPTY
    except (TypeError, ValueError):
        pass
    return str(value)


def _int(n: int) -> str:
    return f"{n:,}" if abs(n) >= 10_000 else str(n)


_NUMERIC_CHARS = set("0123456789.,%+-−±–—[]()×eE ")


def looks_numeric(text: str) -> bool:
    """A number as callers format them: ``0.25``, ``12,000``, ``24.1%``, ``+0.3 pp``,
    ``[23.9%, 25.2%]``, ``1.2e-05``."""
    s = text.replace("pp", "").replace("p.p.", "").strip()
    return any(c.isdigit() for c in s) and set(s) <= _NUMERIC_CHARS and s[0] not in "eE"


def slug(text: str) -> str:
    s = unicodedata.normalize("NFKD", one_line(plain(text))).encode("ascii", "ignore").decode()
    return re.sub(r"[^a-z0-9]+", "-", s.lower()).strip("-") or "section"


# ---------------------------------------------------------------------------------------------
# what the renderers draw (page_html, page_md): ids, numbers, formatted cells, file paths

@dataclass
class TableView:
    name: str
    number: int                 # "Table N" (0: the verdicts)
    caption: str
    anchor: str
    csv: str                    # relative to the page
    columns: list[str]
    numeric: list[bool]         # right-aligned columns
    rows: list[list[str]]       # formatted, at most max_rows of them
    total: int                  # rows in the CSV
    show: bool = True
    verdict_col: int | None = None

    @property
    def truncated(self) -> bool:
        return len(self.rows) < self.total


@dataclass
class FigureView:
    name: str
    number: int
    caption: str
    alt: str
    anchor: str
    png: str
    svg: str
    data: str | None            # tables/NAME.csv or None
    width: int                  # CSS pixels
    height: int


@dataclass
class PictureView:
    label: str
    text: str
    svg: str                    # relative to the page
    link: str                   # the viewer page at the picture's event
    width: int                  # CSS pixels
    height: int


@dataclass
class GameView:
    name: str
    caption: str
    anchor: str
    page: str                   # games/NAME.html
    pictures: list[PictureView]


@dataclass
class SectionView:
    heading: str
    anchor: str
    level: int                  # 2 for a top section, 3 for its subsections, ... (at most 6)
    paragraphs: list[str]
    figures: list[FigureView]
    tables: list[TableView]
    subsections: list[SectionView]
    games: list[GameView] = field(default_factory=list)


@dataclass
class PageView:
    title: str
    subtitle: str
    notes: list[str]
    verdicts: TableView | None
    sections: list[SectionView]
    created: str
    summary: list[str] = field(default_factory=list)
    verdict_notes: list[str] = field(default_factory=list)


def display_frame(frame: pd.DataFrame) -> pd.DataFrame:
    """The frame as shown and as written to CSV: a meaningful index becomes columns, column
    levels are joined with `` / ``."""
    df = frame
    if not (isinstance(df.index, pd.RangeIndex) and df.index.name is None
            and df.index.start == 0 and df.index.step == 1):
        df = df.reset_index()
    if isinstance(df.columns, pd.MultiIndex):
        df = df.copy()
        df.columns = [" / ".join(one_line(p) for p in col if str(p) != "") for col in df.columns]
    return df


def table_view(frame: pd.DataFrame, *, name: str, number: int, caption: str, anchor: str,
               csv: str, max_rows: int | None, show: bool = True,
               verdict: bool = False) -> TableView:
    df = display_frame(frame)
    shown = df if max_rows is None else df.iloc[:max_rows]
    rows = [[format_cell(v) for v in row] for row in shown.itertuples(index=False, name=None)]
    columns = [one_line(c) for c in df.columns]
    numeric = []
    for j in range(len(columns)):
        cells = [r[j] for r in rows if r[j] not in ("", EMPTY)]
        numeric.append(bool(cells) and all(looks_numeric(c) for c in cells))
    vcol = None
    if verdict:
        vcol = [str(c).strip().lower() for c in df.columns].index("verdict")
        numeric[vcol] = False
    return TableView(name, number, caption, anchor, csv, columns, numeric, rows, len(df), show,
                     vcol)


def verdict_class(value: str) -> str | None:
    v = value.strip().lower()
    return v if v in VERDICTS else None
