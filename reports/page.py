"""A self-contained report folder: one HTML page, the same content as Markdown, and the figures
and tables behind it as files. The content (statistics, charts, verdicts) comes from other
modules; this module is the container.

    report = Report("Five-six balance", sections=[Section("Seat shares", paragraphs=[...],
                    figures=[Figure("seat_share", fig, "Win share by seat", data=frame)],
                    tables=[Table("shares", frame, "Win share per seat", max_rows=30)])],
                    notes=["PARTIAL RUN: 1,200,000 of 7,200,000 games finished"],
                    verdicts=verdict_frame)
    write_report(report, "runs/five-six/report")        # -> runs/five-six/report/index.html

The folder (``write_report``):

* ``index.html``: one page that opens from disk with no server and no network (CSS inline,
  images and links relative), verdicts first, then a table of contents and the sections;
* ``index.md``: the same content as GitHub-flavoured Markdown;
* ``figures/NAME.png`` (150 dpi) and ``figures/NAME.svg``; ``tables/NAME.csv`` (every row, also
  of a table the page shows truncated) and ``verdicts.csv``; ``_report.json``, the marker that
  lets a later ``write_report`` replace the folder, with the list of the files the report
  wrote (``files``): on a re-run those are replaced and every other file in the folder (the
  user's notes) is kept, untouched, in the new folder;
* for a section's ``Game`` (a sample game): ``games/NAME.html`` (its viewer page, as given) and
  ``games/NAME-LABEL.svg`` per ``Picture``, shown side by side, each linking to the page at the
  picture's event (``games/NAME.html#event=N``).

A figure's data is ``tables/NAME.csv`` under the figure's own name: pass it as ``Figure.data``
or as a ``Table`` of the same name (e.g. with ``show=False``); the page links it under the
figure. Text is plain and escaped everywhere; paragraphs, notes and captions also accept
`` `code` `` and ``**bold**``. Problems with the report or the folder are a one-line
``ValueError``; the folder is written atomically (see ``write_report``).
"""
from __future__ import annotations

import json
import math
import numbers
import os
import re
import secrets
import shutil
import tempfile
import unicodedata
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pandas as pd

from experiments import outputs
from experiments.decisions import VERDICTS
from experiments.runs import tag_alive, writer_tag

__all__ = [
    "FORMAT",
    "MARKER",
    "Figure",
    "Game",
    "Picture",
    "Report",
    "Section",
    "Table",
    "format_cell",
    "inline_tokens",
    "write_report",
]

FAMILY = outputs.REPORT_FAMILY
FORMAT = f"{FAMILY}/1"                     # the marker's "format"
MARKER = outputs.REPORT_MARKER
NAME_RE = re.compile(r"[a-z0-9_-]+")
PNG_DPI = 150
CSS_DPI = 110                              # a figure is shown at 110 CSS px per inch (10 pt: 15 px)
EMPTY = "–"                                # a missing value on the page


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


# ---------------------------------------------------------------------------------------------
# checks

def _fail(msg: str) -> None:
    raise ValueError(one_line(msg))


def _check_text(value: Any, what: str) -> None:
    if not isinstance(value, str):
        _fail(f"{what} must be a string, not {type(value).__name__}")


def check_report(report: Report) -> None:
    """Raise ``ValueError`` (one line) for the first thing ``write_report`` cannot write."""
    if not isinstance(report, Report):
        _fail(f"write_report needs a Report, not {type(report).__name__}")
    _check_text(report.title, "the report's title")
    _check_text(report.subtitle, "the report's subtitle")
    if not isinstance(report.notes, (list, tuple)):
        _fail("Report.notes must be a list of strings")
    for i, note in enumerate(report.notes):
        _check_text(note, f"note {i + 1}")
    for frame in (report.verdicts, report.verdicts_shown):
        if frame is None:
            continue
        if not isinstance(frame, pd.DataFrame):
            _fail(f"Report.verdicts must be a DataFrame or None, not {type(frame).__name__}")
        cols = [str(c).strip().lower() for c in display_frame(frame).columns]
        if cols.count("verdict") != 1:
            _fail("the verdict table needs exactly one 'verdict' column (has: "
                  f"{', '.join(map(str, frame.columns)) or 'none'})")
    if report.verdicts_shown is not None and report.verdicts is None:
        _fail("Report.verdicts_shown needs Report.verdicts (the numbers behind it)")
    figures: set[str] = set()
    games: set[str] = set()
    tables: dict[str, str] = {}

    def name_ok(name: Any, what: str) -> None:
        if not isinstance(name, str) or not NAME_RE.fullmatch(name):
            _fail(f"{what} name {name!r} is not a file stem (letters a-z, digits, '_', '-')")

    def walk(sections: Any, where: str) -> None:
        if not isinstance(sections, (list, tuple)):
            _fail(f"{where}: sections must be a list")
        for s in sections:
            if not isinstance(s, Section):
                _fail(f"{where}: {type(s).__name__} is not a Section")
            _check_text(s.heading, f"a section heading ({where})")
            at = f"section {s.heading!r}"
            for p in s.paragraphs:
                _check_text(p, f"a paragraph of {at}")
            for f in s.figures:
                if not isinstance(f, Figure):
                    _fail(f"{at}: {type(f).__name__} is not a Figure")
                name_ok(f.name, "figure")
                if f.name in figures:
                    _fail(f"two figures are named {f.name!r}")
                figures.add(f.name)
                if not callable(getattr(f.figure, "savefig", None)):
                    _fail(f"figure {f.name!r}: {type(f.figure).__name__} has no savefig")
                _check_text(f.caption, f"the caption of figure {f.name!r}")
                _check_text(f.alt, f"the alt text of figure {f.name!r}")
                if f.data is not None:
                    if not isinstance(f.data, pd.DataFrame):
                        _fail(f"figure {f.name!r}: data must be a DataFrame or None")
                    claim(f.name, f"the data of figure {f.name!r}")
            for t in s.tables:
                if not isinstance(t, Table):
                    _fail(f"{at}: {type(t).__name__} is not a Table")
                name_ok(t.name, "table")
                if not isinstance(t.frame, pd.DataFrame):
                    _fail(f"table {t.name!r}: frame must be a DataFrame, not "
                          f"{type(t.frame).__name__}")
                _check_text(t.caption, f"the caption of table {t.name!r}")
                if t.max_rows is not None and (not isinstance(t.max_rows, int)
                                               or isinstance(t.max_rows, bool)
                                               or t.max_rows < 1):
                    _fail(f"table {t.name!r}: max_rows must be a positive integer or None, "
                          f"not {t.max_rows!r}")
                claim(t.name, f"table {t.name!r}")
            for g in s.games:
                if not isinstance(g, Game):
                    _fail(f"{at}: {type(g).__name__} is not a Game")
                name_ok(g.name, "game")
                if g.name in games:
                    _fail(f"two games are named {g.name!r}")
                games.add(g.name)
                _check_text(g.page, f"the page of game {g.name!r}")
                _check_text(g.caption, f"the caption of game {g.name!r}")
                labels = set()
                for pic in g.pictures:
                    if not isinstance(pic, Picture):
                        _fail(f"game {g.name!r}: {type(pic).__name__} is not a Picture")
                    name_ok(pic.label, f"game {g.name!r}: picture")
                    if pic.label in labels:
                        _fail(f"game {g.name!r}: two pictures are labelled {pic.label!r}")
                    labels.add(pic.label)
                    _check_text(pic.svg, f"picture {pic.label!r} of game {g.name!r}")
                    _check_text(pic.text, f"the text of picture {pic.label!r}")
                    if not _svg_size(pic.svg):
                        _fail(f"picture {pic.label!r} of game {g.name!r} is not an SVG "
                              f"document with a width and a height")
            walk(s.subsections, at)

    def claim(name: str, what: str) -> None:
        if name in tables:
            _fail(f"{what} and {tables[name]} would both be tables/{name}.csv")
        tables[name] = what

    walk(report.sections, "the report")


# ---------------------------------------------------------------------------------------------
# writing

def write_report(report: Report, out_dir: str | os.PathLike) -> Path:
    """Write ``report`` into the folder ``out_dir`` and return the path of its ``index.html``.

    Everything is built in a hidden sibling, ``.NAME.tmp-XXXX``, and renamed into place. A
    folder ``out_dir`` that holds an earlier report (its ``_report.json``) or nothing is
    replaced: the old one is renamed away, the new one in, and the old one removed. Only what
    the earlier report wrote (the marker's ``files``; for a marker without that list, the
    report's layout: ``index.*``, ``verdicts.csv``, ``figures/*.png|svg``, ``tables/*.csv``,
    ``games/*.html|svg``) is replaced: every other file or folder in ``out_dir`` (the user's)
    is kept, as the same file (a hard link made into the new folder before the swap, so that
    it is in one of the two folders at every moment). A file of the user's where the new
    report writes one of its own is refused, as is any other existing ``out_dir`` that is not
    a report (``ValueError``, one line), or a parent folder that is missing or not writable.
    If anything fails, the exception propagates, the temporary folder is removed and an
    existing ``out_dir`` is left as it was."""
    check_report(report)
    tidy_after_kill(out_dir)
    out, replace = check_target(out_dir)
    parent = out.parent
    tag = writer_tag()
    try:
        tmp = Path(tempfile.mkdtemp(prefix=f".{out.name}.tmp-{tag}-", dir=parent))
    except OSError as e:
        _fail(f"cannot write the report in {parent}: {e.strerror or e}")
    try:
        os.chmod(tmp, 0o777 & ~_umask())
        _build(report, tmp)
        _sync_tree(tmp)                          # the report's files (not the user's)
        if replace:
            _keep_foreign(out, tmp, foreign_entries(out))
            for dirpath, _dirs, _files in os.walk(tmp):
                _fsync_dir(Path(dirpath))        # the links to the user's files
        if replace:
            old = parent / f".{out.name}.old-{tag}-{secrets.token_hex(4)}"
            os.rename(out, old)
            try:
                os.rename(tmp, out)
            except BaseException:
                os.rename(old, out)
                raise
            shutil.rmtree(old, ignore_errors=True)
        else:
            os.rename(tmp, out)
        _fsync_dir(parent)
    except BaseException:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    return out / "index.html"


def tidy_after_kill(out_dir: str | os.PathLike) -> None:
    """Put right what a report killed with SIGKILL left beside ``out_dir``: its hidden build
    folder (``.NAME.tmp-PID-START-*``) and the earlier report it was swapping out
    (``.NAME.old-PID-START-*``), of writers that are gone (``runs.tag_alive``). Killed between
    the two renames of the swap, ``out_dir`` is missing and the old folder (the earlier report
    with the user's files) goes back in its place; otherwise the old folder's files of the
    user's are also in ``out_dir`` (hard links), and both leftovers are removed."""
    out = Path(os.path.abspath(out_dir))
    try:
        entries = list(out.parent.iterdir())
    except OSError:
        return
    stale = {"tmp": [], "old": []}
    for p in entries:
        for kind in stale:
            head = f".{out.name}.{kind}-"
            if p.name.startswith(head) and p.is_dir() and not p.is_symlink() \
                    and not tag_alive(p.name[len(head):]):
                stale[kind].append(p)
    if not out.exists() and stale["old"]:
        newest = max(stale["old"], key=lambda p: p.stat().st_mtime)
        try:
            os.rename(newest, out)
            stale["old"].remove(newest)
        except OSError:
            return                                   # leave everything for the user to see
    if out.exists() or not stale["old"]:           # (a first report's build: nothing else)
        for p in stale["tmp"] + stale["old"]:
            shutil.rmtree(p, ignore_errors=True)


def check_target(out_dir: str | os.PathLike) -> tuple[Path, bool]:
    """``(absolute out_dir, whether it holds a report to replace)``, or ``ValueError`` (one
    line) when a report cannot go there: no folder name, a missing or unwritable parent, or
    an existing folder that is not a report (``experiments.outputs.check_folder_target``;
    standard library only, so a command may call it at once). Callers check before computing
    anything."""
    return outputs.check_folder_target(out_dir, MARKER, FAMILY, "report")


REPORT_DIRS = ("figures", "tables", "games")
_LAYOUT = re.compile(r"(index\.html|index\.md|verdicts\.csv|_report\.json"
                     r"|figures/[a-z0-9_-]+\.(png|svg)|tables/[a-z0-9_-]+\.csv"
                     r"|games/[a-z0-9_-]+\.(html|svg))")


def report_files(out: str | os.PathLike) -> set[str] | None:
    """The files (paths relative to ``out``, with ``/``) the report in ``out`` wrote, from its
    marker; for a marker written before the list was kept, the files that fit the report's
    layout. None when ``out`` holds no report."""
    return outputs.folder_files(out, MARKER, FAMILY, _LAYOUT)


def foreign_entries(out: str | os.PathLike) -> list[str]:
    """What in the report folder ``out`` the report did not write (relative paths, with ``/``):
    files, links and whole folders of the user's, sorted."""
    return outputs.foreign_entries(out, report_files(out) or set(), REPORT_DIRS)


def _keep_foreign(out: Path, tmp: Path, foreign: list[str]) -> None:
    outputs.keep_foreign(out, tmp, foreign, "report")


def _build(report: Report, root: Path) -> None:
    from reports.page_html import render_html  # they import this module's helpers
    from reports.page_md import render_md

    created = datetime.now(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")
    (root / "figures").mkdir()
    (root / "tables").mkdir()
    if _has_games(report.sections):
        (root / "games").mkdir()
    counter = {"figure": 0, "table": 0}
    used_ids = {"contents", "verdicts", "top", "summary"}
    named_tables = _table_names(report.sections)

    def anchor(base: str) -> str:
        a, k = base, 2
        while a in used_ids:
            a, k = f"{base}-{k}", k + 1
        used_ids.add(a)
        return a

    def section(s: Section, level: int) -> SectionView:
        figs, tabs = [], []
        for f in s.figures:
            figs.append(_save_figure(f, root, counter, anchor(f"fig-{f.name}"), named_tables))
        for t in s.tables:
            _write_csv(t.frame, root / "tables" / f"{t.name}.csv")
            counter["table"] += t.show
            tabs.append(table_view(t.frame, name=t.name, number=counter["table"] if t.show else 0,
                                   caption=t.caption, anchor=anchor(f"table-{t.name}"),
                                   csv=f"tables/{t.name}.csv", max_rows=t.max_rows,
                                   show=t.show))
        view = SectionView(s.heading, anchor(slug(s.heading)), min(level, 6),
                           list(s.paragraphs), figs, tabs, [],
                           [_save_game(g, root, anchor(f"game-{g.name}")) for g in s.games])
        view.subsections = [section(sub, level + 1) for sub in s.subsections]
        return view

    verdicts = None
    if report.verdicts is not None:
        _write_csv(report.verdicts, root / "verdicts.csv")
        shown = report.verdicts if report.verdicts_shown is None else report.verdicts_shown
        verdicts = table_view(shown, name="verdicts", number=0, caption="",
                              anchor="verdicts", csv="verdicts.csv", max_rows=None,
                              verdict=True)
    sections = [section(s, 2) for s in report.sections]
    page = PageView(report.title, report.subtitle, list(report.notes), verdicts, sections,
                    created, list(report.summary))
    _write_text(root / "index.html", render_html(page))
    _write_text(root / "index.md", render_md(page))
    files = sorted({Path(d, n).relative_to(root).as_posix()
                    for d, _dirs, names in os.walk(root) for n in names} | {MARKER})
    _write_text(root / MARKER, json.dumps({"format": FORMAT, "created": created,
                                           "title": report.title, "files": files},
                                          indent=1) + "\n")


def _has_games(sections: list[Section]) -> bool:
    return any(s.games or _has_games(s.subsections) for s in sections)


_SVG_SIZE = re.compile(r"<svg\b[^>]*?\bwidth=\"([0-9.]+)(?:px)?\"[^>]*?\bheight=\"([0-9.]+)"
                       r"(?:px)?\"", re.S)
GAME_PICTURE_WIDTH = 500                   # CSS px: two pictures side by side


def _svg_size(svg: str) -> tuple[float, float] | None:
    m = _SVG_SIZE.search(svg[:2000])
    return (float(m.group(1)), float(m.group(2))) if m else None


def _save_game(g: Game, root: Path, anchor: str) -> GameView:
    page = f"games/{g.name}.html"
    _write_text(root / page, g.page)
    pictures = []
    for pic in g.pictures:
        path = f"games/{g.name}-{pic.label}.svg"
        _write_text(root / path, pic.svg)
        w, h = _svg_size(pic.svg)
        pictures.append(PictureView(pic.label, pic.text or pic.label, path,
                                    f"{page}#event={pic.event}",
                                    GAME_PICTURE_WIDTH, round(GAME_PICTURE_WIDTH * h / w)))
    return GameView(g.name, g.caption, anchor, page, pictures)


def _table_names(sections: list[Section]) -> set[str]:
    names: set[str] = set()
    for s in sections:
        names |= {t.name for t in s.tables} | _table_names(s.subsections)
    return names


def _save_figure(f: Figure, root: Path, counter: dict, anchor: str,
                 named_tables: set[str]) -> FigureView:
    import matplotlib

    png, svg = f"figures/{f.name}.png", f"figures/{f.name}.svg"
    with matplotlib.rc_context({"svg.hashsalt": f.name}):     # stable ids in the SVG
        f.figure.savefig(root / png, dpi=PNG_DPI, format="png", bbox_inches="tight")
        f.figure.savefig(root / svg, format="svg", bbox_inches="tight",
                         metadata={"Date": None})
    width, height = _png_size(root / png)
    data = None
    if f.data is not None:
        _write_csv(f.data, root / "tables" / f"{f.name}.csv")
        data = f"tables/{f.name}.csv"
    elif f.name in named_tables:
        data = f"tables/{f.name}.csv"
    counter["figure"] += 1
    return FigureView(f.name, counter["figure"], f.caption, f.alt or plain(f.caption), anchor,
                      png, svg, data, round(width * CSS_DPI / PNG_DPI),
                      round(height * CSS_DPI / PNG_DPI))


def _png_size(path: Path) -> tuple[int, int]:
    with open(path, "rb") as fh:
        head = fh.read(24)
    if head[:8] != b"\x89PNG\r\n\x1a\n" or head[12:16] != b"IHDR":
        raise ValueError(f"{path.name}: savefig did not write a PNG")
    return int.from_bytes(head[16:20], "big"), int.from_bytes(head[20:24], "big")


def _write_csv(frame: pd.DataFrame, path: Path) -> None:
    display_frame(frame).to_csv(path, index=False, encoding="utf-8", lineterminator="\n")


def _write_text(path: Path, text: str) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)


def _sync_tree(root: Path) -> None:
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            fd = os.open(os.path.join(dirpath, name), os.O_RDONLY)
            try:
                os.fsync(fd)
            finally:
                os.close(fd)
        _fsync_dir(Path(dirpath))


def _fsync_dir(path: Path) -> None:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def _umask() -> int:
    """The process's umask, read without changing it (Linux), else the usual 022."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    return 0o022
