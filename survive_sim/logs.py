"""One game's replay log, without the engine: read it, check it against the rules (the
referee), draw the board, write its viewer page (``survive-sim referee``, ``view``, ``draw
--log``). Part of the Python API (``survive_sim.api``, docs/python.md).

Only ``replays`` (plain Python) and the light file helpers of ``experiments`` are imported:
no numpy, pandas or engine, so the commands that read a saved log start at once.
"""
from __future__ import annotations

import os

from experiments.store.atomic import write_bytes, write_text
from experiments.store.outputs import sign_png, sign_svg
from replays.draw.logfile import LogError, check_log, drawing
from replays.draw.logfile import read_log as _read_log
from replays.draw.raster import png
from replays.draw.scene import scene
from replays.draw.svg import document
from replays.referee import check as _referee
from replays.referee.failure import Discrepancy
from replays.viewer.page import build_page

from . import checks

Log = dict | str | os.PathLike          # a replay log, or the path of its JSON file
PICTURES = (".png", ".svg")             # what ``draw`` writes (as ``survive-sim draw --out``)
SCALE = (0.25, 4.0)                     # a PNG's scale (``draw --scale``)


def read_log(path: str | os.PathLike) -> dict:
    """The replay log in the JSON file ``path`` (``survive-sim replay --json``), checked for
    the parts a picture or a page reads; ``LogError`` (a ``ValueError``, one line naming the
    file and the problem) when it is not one."""
    return _read_log(checks.path(path, "path", error=LogError))


def _log(log: Log, checked: bool = True) -> tuple[dict, str]:
    """``(log, its name)``: a path read (``read_log``), a dict as it is (checked as a drawable
    log unless not ``checked``); anything else is a ``LogError``."""
    if isinstance(log, (str, os.PathLike)):
        return read_log(log), os.fspath(log)
    if not isinstance(log, dict) or checked:
        check_log(log, "the log")
    return log, "the log"


def check(log: Log) -> Discrepancy | None:
    """The independent referee (``replays.referee``, written from RULES.md) on ``log`` (a dict,
    or a path: read with ``read_log``): the first discrepancy with the rules, or None. A
    discrepancy has ``event``, ``turn``, ``seat``, ``rule`` (the rule's id; ``"format"``
    when the log itself is malformed) and ``message``; ``str()`` is the line
    ``survive-sim referee`` prints. A dict that is not a log is its first discrepancy
    (rule ``"format"``); what is neither a dict nor a path raises ``LogError``."""
    return _referee(_log(log, checked=False)[0])


def draw(log: Log, event: int | None = None, out: str | os.PathLike | None = None,
         scale: float = 1.0) -> str | bytes:
    """The board after event ``event`` of ``log`` (a dict, or a path: ``read_log``; default
    event: the final position): SVG text, or PNG bytes when ``out`` ends in ``.png``;
    written to ``out`` when given (``.png`` or ``.svg``; never over the log's own file, or a
    file survive-sim did not write). ``scale``: the PNG's, 0.25 to 4."""
    source = log
    log, name = _log(log)
    n = len(log["events"])
    i = n - 1 if event is None else event_index(event, n)
    scale = checks.number(scale, "scale", *SCALE)
    if out is not None:
        out = checks.output_file(out, "out", extensions=PICTURES, inputs={
            "log": source if isinstance(source, (str, os.PathLike)) else None})
    as_png = out is not None and out.lower().endswith(".png")
    with drawing(name):
        sc = scene(log, i)
        data: str | bytes = sign_png(png(sc, scale)) if as_png else sign_svg(document(sc))
    if out is not None:
        write_bytes(out, data if isinstance(data, bytes) else data.encode("utf-8"))
    return data


def event_index(event, n: int, name: str = "event") -> int:
    """``event`` when it is one of the ``n`` events of a game (0 .. n-1); else one line (an
    ``ArgumentError``, as ``draw --event`` says it)."""
    if not checks.is_whole(event) or not 0 <= event < n:
        what = "is outside the game" if checks.is_whole(event) else "is not an event number"
        checks.fail(f"{name} {event!r} {what}: accepted 0..{n - 1} ({n} events)",
                    name.lstrip("-"))
    return int(event)


def view(log: Log, out: str | os.PathLike | None = None) -> str:
    """The viewer page of ``log`` (a dict, or a path: ``read_log``) as one self-contained HTML
    string (docs/viewer.md), as ``survive-sim view`` writes it; written to ``out`` (atomically)
    when given (never over the log's own file, or a file survive-sim did not write). A log
    the page cannot be built from raises ``LogError`` naming it."""
    source = log
    log, name = _log(log)
    if out is not None:
        out = checks.output_file(out, "out", inputs={
            "log": source if isinstance(source, (str, os.PathLike)) else None})
    with drawing(name):
        page = build_page(log)
    if out is not None:
        write_text(out, page)
    return page
