"""One game's replay log, without the engine: read it, check it against the rules (the
referee), draw the board, write its viewer page (``survive-sim referee``, ``view``, ``draw
--log``). Part of the Python API (``survive_sim.api``, docs/python.md).

Only ``replays`` (plain Python) and the light file helpers of ``experiments`` are imported:
no numpy, pandas or engine, so the commands that read a saved log start at once.
"""
from __future__ import annotations

import os

from experiments.atomic import write_bytes, write_text
from experiments.outputs import sign_png, sign_svg
from replays.draw.logfile import check_log, drawing
from replays.draw.logfile import read_log as _read_log
from replays.draw.raster import png
from replays.draw.scene import scene
from replays.draw.svg import document
from replays.referee import check as _referee
from replays.referee.failure import Discrepancy
from replays.viewer.page import build_page

Log = dict | str | os.PathLike          # a replay log, or the path of its JSON file


def read_log(path: str | os.PathLike) -> dict:
    """The replay log in the JSON file ``path`` (``survive-sim replay --json``), checked for
    the parts a picture or a page reads; ``LogError`` (a ``ValueError``, one line naming the
    file and the problem) when it is not one."""
    return _read_log(os.fspath(path))


def _log(log: Log) -> dict:
    """A path read (``read_log``), a dict as it is."""
    return read_log(log) if isinstance(log, (str, os.PathLike)) else log


def check(log: Log) -> Discrepancy | None:
    """The independent referee (``replays.referee``, written from RULES.md) on ``log`` (a dict,
    or a path: read with ``read_log``): the first discrepancy with the rules, or None. A
    discrepancy has ``event``, ``turn``, ``seat``, ``rule`` (the rule's id; ``"format"``
    when the log itself is malformed) and ``message``; ``str()`` is the line
    ``survive-sim referee`` prints."""
    return _referee(_log(log))


def draw(log: Log, event: int | None = None, out: str | os.PathLike | None = None,
         scale: float = 1.0) -> str | bytes:
    """The board after event ``event`` of ``log`` (a dict, or a path: ``read_log``; default
    event: the final position): SVG text, or PNG bytes when ``out`` ends in ``.png``;
    written to ``out`` when given."""
    log = _log(log)
    n = len(log["events"])
    i = n - 1 if event is None else event
    if not 0 <= i < n:
        raise ValueError(f"event {event} is outside the game: accepted 0..{n - 1}")
    sc = scene(log, i)
    as_png = out is not None and str(out).lower().endswith(".png")
    data: str | bytes = sign_png(png(sc, scale)) if as_png else sign_svg(document(sc))
    if out is not None:
        write_bytes(out, data if isinstance(data, bytes) else data.encode("utf-8"))
    return data


def view(log: Log, out: str | os.PathLike | None = None) -> str:
    """The viewer page of ``log`` (a dict, or a path: ``read_log``) as one self-contained HTML
    string (docs/viewer.md), as ``survive-sim view`` writes it; written to ``out`` (atomically)
    when given. A log the page cannot be built from raises ``LogError`` naming it."""
    if isinstance(log, (str, os.PathLike)):
        name = os.fspath(log)
        log = read_log(name)
    else:
        name = "the log"
        log = check_log(log, name)
    with drawing(name):
        page = build_page(log)
    if out is not None:
        write_text(out, page)
    return page
