"""A self-contained report folder: one HTML page, the same content as Markdown, and the figures
and tables behind it as files. The content (statistics, charts, verdicts) comes from other
modules; this module is the container, and writes the folder. What a report holds and the
check that it can be written are ``reports.page_content`` (re-exported here); what the two
renderers draw and the text rules they share, ``reports.page_views``; the pages themselves,
``reports.page_html`` and ``reports.page_md``.

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
import os
import re
import shutil
from datetime import UTC, datetime
from pathlib import Path

import pandas as pd

from experiments.store import atomic, outputs
from experiments.store.runs import tag_alive, writer_tag
from reports.page_content import (
    NAME_RE,
    Figure,
    Game,
    Picture,
    Report,
    Section,
    Table,
    check_report,
    fail,
    svg_size,
)
from reports.page_html import render_html
from reports.page_md import render_md
from reports.page_views import (
    FigureView,
    GameView,
    PageView,
    PictureView,
    SectionView,
    display_frame,
    format_cell,
    inline_tokens,
    plain,
    slug,
    table_view,
)

__all__ = [
    "FORMAT",
    "MARKER",
    "NAME_RE",
    "Figure",
    "Game",
    "Picture",
    "Report",
    "Section",
    "Table",
    "check_report",
    "format_cell",
    "inline_tokens",
    "write_report",
]

FAMILY = outputs.REPORT_FAMILY
FORMAT = f"{FAMILY}/1"                     # the marker's "format"
MARKER = outputs.REPORT_MARKER
PNG_DPI = 150
CSS_DPI = 110                              # a figure is shown at 110 CSS px per inch (10 pt: 15 px)


# ---------------------------------------------------------------------------------------------
# writing

def write_report(report: Report, out_dir: str | os.PathLike) -> Path:
    """Write ``report`` into the folder ``out_dir`` and return the path of its ``index.html``.

    Everything is built in a hidden sibling, ``.NAME.tmp-XXXX`` (``atomic.build_folder``),
    synced, and swapped into place (``atomic.replace_folder``). A folder ``out_dir`` that
    holds an earlier report (its ``_report.json``) or nothing is replaced: the old one is
    renamed away, the new one in, and the old one removed. Only what
    the earlier report wrote (the marker's ``files``; for a marker without that list, the
    report's layout: ``index.*``, ``verdicts.csv``, ``figures/*.png|svg``, ``tables/*.csv``,
    ``games/*.html|svg``) is replaced: every other file or folder in ``out_dir`` (the user's)
    is kept, as the same file (a hard link made into the new folder before the swap, so that
    it is in one of the two folders at every moment). A file of the user's where the new
    report writes one of its own is refused, as is any other existing ``out_dir`` that is not
    a report (``ValueError``, one line), or a parent folder that is missing or not writable.
    If anything fails, the exception propagates, the temporary folder is removed and an
    existing ``out_dir`` is left as it was; an ``OSError`` (a full disk) names ``out_dir``
    (``atomic.failed_target``). One writer at a time: another process writing the same
    folder is refused (``outputs.folder_lock``, ``ValueError``)."""
    check_report(report)
    check_target(out_dir)                        # one line before the lock: a missing parent
    with outputs.folder_lock(out_dir, "report"):
        return _write(report, out_dir)


def _write(report: Report, out_dir) -> Path:
    tidy_after_kill(out_dir)
    out, replace = check_target(out_dir)
    tag = writer_tag()
    tmp = None
    try:
        with atomic.interrupts_held():           # a Ctrl-C waits until tmp is known
            try:
                tmp = atomic.build_folder(out, tag)
            except OSError as e:
                fail(f"cannot write the report in {out.parent}: {e.strerror or e}")
        _build(report, tmp)
        atomic.fsync_tree(tmp)                   # the report's files (not the user's)
        if replace:
            _keep_foreign(out, tmp, foreign_entries(out))
            for dirpath, _dirs, _files in os.walk(tmp):
                atomic.fsync_dir(dirpath)        # the links to the user's files
        atomic.replace_folder(tmp, out, replace=replace, tag=tag)
    except BaseException as e:
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)
        atomic.name_target(e, out)
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
    an existing folder that is not a report (``experiments.store.outputs.check_folder_target``;
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
                    created, list(report.summary), list(report.verdict_notes))
    _write_text(root / "index.html", render_html(page))
    _write_text(root / "index.md", render_md(page))
    files = sorted({Path(d, n).relative_to(root).as_posix()
                    for d, _dirs, names in os.walk(root) for n in names} | {MARKER})
    _write_text(root / MARKER, json.dumps({"format": FORMAT, "created": created,
                                           "title": report.title, "files": files},
                                          indent=1) + "\n")


def _has_games(sections: list[Section]) -> bool:
    return any(s.games or _has_games(s.subsections) for s in sections)


GAME_PICTURE_WIDTH = 500                   # CSS px: two pictures side by side


def _save_game(g: Game, root: Path, anchor: str) -> GameView:
    page = f"games/{g.name}.html"
    _write_text(root / page, g.page)
    pictures = []
    for pic in g.pictures:
        path = f"games/{g.name}-{pic.label}.svg"
        _write_text(root / path, pic.svg)
        w, h = svg_size(pic.svg)
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
    """A file of the build folder (atomic as a whole: the folder is swapped in)."""
    with open(path, "w", encoding="utf-8", newline="\n") as fh:
        fh.write(text)
