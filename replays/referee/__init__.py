"""The referee: an independent, plain-Python re-check of one replay log against docs/RULES.md.

It is written from the rules text and the log format (docs/replay-log.md) alone; it imports
nothing from the engine (nor numpy or numba) and reads only the board data file,
``simulator/data/board.json``, through ``replays.board``. ``check(log)``
rebuilds the game from the log's ``settings``, ``tiles`` and ``explorers`` and walks its
``events`` in order. For every event it

(a) checks that the decision or chance outcome is legal in the position the referee holds,
(b) applies it and computes every consequence itself (at-rest rule, green tiles, defence, ...),
(c) compares its own position with the event's ``after`` snapshot,

and at the end checks the ``record`` against its own final position. The first disagreement is
returned as a :class:`Discrepancy` naming the rule id (RULES.md) that the failed check or the
mis-computed consequence belongs to; ``None`` means the log agrees with the rules everywhere.

Conventions of the returned :class:`Discrepancy`:

* ``event`` is the index of the offending event; ``-1`` for a problem in the log's header
  (settings, tiles, explorers) or in its final ``record`` (the message then starts with
  ``header:`` or ``record:``).
* ``turn`` is the number of seat-turns begun so far in the referee's position.
* ``seat`` is the event's acting seat as logged (``-1`` if none); for the record, the seat whose
  column is wrong (or -1).
* ``rule`` is a RULES.md id (``B6.5``, ``R15``, ...), or ``format`` when the log itself is
  malformed (missing fields, unknown event type, wrong event index), or ``X`` when the log uses a
  setting the referee does not implement yet (covered: the base game B1-B8, R1-R21, the
  5-6 player rules, boat allocations and tie-breaks of X1, Challenges 1-4 and 6 of X2-X4 and
  X6, Challenge 5 -- Dolphins & Dive Dice, X5 -- and the Giant Squid with its squid-only
  option, X7).

Where RULES.md is silent about X5/X7 the referee follows the simulator's published rulings
(docs/replay-log.md): protection is bookkept as swimmer -> dolphin (``after.protect``) and
assigned only when a swimmer and a free dolphin come together (X5.9); a dolphin leaving its
swimmer, or switching away from it, resolves the old hex at once (X5.6); a squid event follows
every squid placement and every squid move (X7.1, X7.4).

The referee is split by rule family, one module each, all plain Python (the standard library
only): ``components`` (the numbers of RULES.md), ``variant`` (the settings), ``state`` (the
position, its queries and tagged mutations), ``turns`` (event order, turns, the end),
``setup``, ``tiles``, ``movement``, ``creatures``, ``dolphins`` (X5), ``squid`` (X7),
``snapshot`` (c), ``records`` (the final record), and ``position``, which puts the families
together. Extending to a new X rule: settings are parsed into :class:`Variant`, so an
expansion adds a flag there and a branch or a method in the module of its rule family.
"""
from __future__ import annotations

import json
from pathlib import Path

from ..board import BOARD
from .components import FORMAT, is_int
from .failure import Discrepancy, Fail
from .position import Position
from .records import check_record
from .variant import Variant

__all__ = ["Discrepancy", "Position", "Variant", "check", "check_file", "BOARD"]

_MALFORMED = (KeyError, TypeError, IndexError, ValueError, AttributeError)


def _malformed(x: Exception) -> str:
    """The exception and the referee line where it surfaced (to tell bad logs from referee bugs)."""
    tb = x.__traceback__
    while tb is not None and tb.tb_next is not None:
        tb = tb.tb_next
    if tb is None:
        return repr(x)
    where = Path(tb.tb_frame.f_code.co_filename)
    return f"{x!r} at {'/'.join(where.parts[-3:])} line {tb.tb_lineno}"


def check(log: dict) -> Discrepancy | None:
    """Re-check one replay log (docs/replay-log.md) against RULES.md; the first discrepancy or None."""
    if not isinstance(log, dict):
        return Discrepancy(-1, 0, -1, "format", "header: the log is not a JSON object")
    if log.get("format") != FORMAT:
        return Discrepancy(-1, 0, -1, "format", f"header: format {log.get('format')!r}; this "
                           f"referee reads {FORMAT!r} (docs/replay-log.md)")
    try:
        pos = Position(log.get("settings"), log.get("tiles"), log.get("explorers"))
    except Fail as f:
        return Discrepancy(-1, 0, -1, f.rule, "header: " + f.message)
    except _MALFORMED as x:
        return Discrepancy(-1, 0, -1, "format", f"header: malformed ({_malformed(x)})")
    events = log.get("events")
    if not isinstance(events, list):
        return Discrepancy(-1, 0, -1, "format", "header: events missing or not a list")
    for i, ev in enumerate(events):
        seat = ev.get("seat", -1) if isinstance(ev, dict) else -1
        seat = seat if is_int(seat) else -1
        try:
            if not isinstance(ev, dict):
                raise Fail("format", "event is not an object")
            rule = pos.apply(ev, i)
            pos.compare(ev.get("after"), rule)
        except Fail as f:
            return Discrepancy(i, pos.turn, seat, f.rule, f.message)
        except _MALFORMED as x:
            return Discrepancy(i, pos.turn, seat, "format",
                               f"malformed {ev.get('type') if isinstance(ev, dict) else ''} event "
                               f"({_malformed(x)})")
    try:
        pos.finish()
    except Fail as f:
        return Discrepancy(len(events) - 1, pos.turn, pos.seat, f.rule, f.message)
    try:
        check_record(log, pos)
    except Fail as f:
        return Discrepancy(-1, pos.turn, -1 if f.seat is None else f.seat, f.rule, f.message)
    except _MALFORMED as x:
        return Discrepancy(-1, pos.turn, -1, "format", f"record: malformed ({_malformed(x)})")
    return None


def check_file(path) -> Discrepancy | None:
    """``check`` on a JSON log file."""
    with open(path, encoding="utf-8") as f:
        return check(json.load(f))
