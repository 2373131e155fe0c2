"""A run's looks: every time its verdicts were judged at a new size, kept in the run folder.

Judging a run, extending it and judging again is optional stopping unless the later looks are
corrected for. So a run folder remembers its looks in ``_looks.json`` (written atomically; a
``--force-new`` removes it with the run): how many games each look had, how it read its
intervals, and the rows it settled. The rule (``next_look``):

* the **first** look of a study's run is **fixed** (ordinary intervals at its planned size),
  unless the run plays until settled, whose every look is sequential;
* judging the **same games again** (another report of the same run) is the same look: it gives
  the same table;
* a look at **more games** is the next look and reads **anytime-valid** intervals, tuned to
  ``inference.T_OPT_FACTOR`` times the first look's games, and every row an earlier look
  settled keeps its verdict (``verdicts.judge``'s ``history``).

So each kind of wrong conclusion stays within ``alpha / 2`` at the first look plus ``alpha /
2`` over all later ones, however often the run is extended.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

from .decisions import SETTLED
from .inference import T_OPT_FACTOR, Look
from .runs import LOOKS

FORMAT = "survive-sim-looks/1"
KEPT = ("claim", "play", "scope", "verdict", "adjusted", "effect", "low", "high", "n",
        "p_value", "interval", "looks", "settled_at", "detail")


def read(run) -> dict:
    """The look log of a run folder (an empty one when there is none, or it belongs to an
    earlier run of the folder)."""
    from .runs import RunFolder
    path = Path(run) / LOOKS
    manifest = RunFolder(Path(run)).read_manifest() or {}
    try:
        log = json.loads(path.read_text(encoding="utf-8"))
    except (FileNotFoundError, ValueError, OSError):
        log = None
    if not isinstance(log, dict) or log.get("format") != FORMAT or \
            log.get("run") != manifest.get("run"):
        log = {"format": FORMAT, "run": manifest.get("run"), "looks": []}
    return log


def next_look(log: dict, games: int, per_setting: int, sequential: bool = False
              ) -> tuple[Look, dict, bool]:
    """``(look, history, new)`` for judging ``games`` finished games (``per_setting`` the
    most any setting holds). ``sequential``: the run plays until settled (every look
    anytime-valid). ``history`` is what ``verdicts.judge`` freezes; ``new`` whether the look
    must be recorded."""
    looks = log["looks"]
    for i, old in enumerate(looks):
        if old["games"] == games:                       # the same games: the same look
            return _look(old), history(looks[:i]), False
    if not looks:
        t_opt = T_OPT_FACTOR * max(per_setting, 1)
        return Look(sequential, t_opt if sequential else 0, 1), {}, True
    first = looks[0]
    t_opt = first.get("t_opt") or T_OPT_FACTOR * max(first["per_setting"], 1)
    return Look(True, int(t_opt), len(looks) + 1), history(looks), True


def _look(entry: dict) -> Look:
    return Look(bool(entry["sequential"]), int(entry.get("t_opt") or 0), int(entry["number"]))


def history(looks: list[dict]) -> dict:
    """``{(claim, play, scope): row}`` of every row an earlier look settled (the first
    settlement kept)."""
    out: dict = {}
    for entry in looks:
        for r in entry["rows"]:
            key = (r["claim"], r["play"], r["scope"])
            if key not in out and r["verdict"] in SETTLED:
                out[key] = r
    return out


def record(run, log: dict, look: Look, games: int, per_setting: int, table, mode: str) -> None:
    """Append this look (its rows) to the run's log, atomically."""
    from .runs import _atomic
    rows = []
    for r in table.to_dict("records"):
        rows.append({k: _plain(r.get(k)) for k in KEPT})
    log["looks"].append({"number": look.number, "games": int(games),
                         "per_setting": int(per_setting), "sequential": look.sequential,
                         "t_opt": look.t_opt or None, "mode": mode,
                         "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "rows": rows})
    path = Path(run) / LOOKS
    _atomic(path, lambda f: f.write((json.dumps(log, indent=1) + "\n").encode()))


def _plain(x):
    """A JSON-safe value (NaN and NA as None, numpy scalars as Python numbers)."""
    import math

    import pandas as pd
    if x is None or x is pd.NA:
        return None
    if hasattr(x, "item"):
        x = x.item()
    if isinstance(x, float) and math.isnan(x):
        return None
    return x
