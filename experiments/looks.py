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

``judge_run(run)`` is the whole step: read the run (``experiments.analysis``), take its next
look, judge it (``verdicts.judge``) and record the look.
"""
from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pandas as pd

from .analysis import analyse
from .atomic import write_text
from .decisions import SETTLED
from .inference import T_OPT_FACTOR, Look
from .runs import LOOKS, RunFolder
from .units import Catalog
from .verdicts import judge

FORMAT = "survive-sim-looks/1"
KEPT = ("claim", "play", "scope", "verdict", "adjusted", "effect", "low", "high", "n",
        "p_value", "interval", "looks", "settled_at", "detail")


def read_log(run) -> dict:
    """The look log of a run folder (an empty one when there is none, or it belongs to an
    earlier run of the folder)."""
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


def record_look(run, log: dict, look: Look, games: int, per_setting: int, table,
                mode: str) -> None:
    """Append this look (its rows) to the run's log, atomically."""
    rows = []
    for r in table.to_dict("records"):
        rows.append({k: _plain(r.get(k)) for k in KEPT})
    log["looks"].append({"number": look.number, "games": int(games),
                         "per_setting": int(per_setting), "sequential": look.sequential,
                         "t_opt": look.t_opt or None, "mode": mode,
                         "when": time.strftime("%Y-%m-%dT%H:%M:%S%z"), "rows": rows})
    write_text(Path(run) / LOOKS, json.dumps(log, indent=1) + "\n")


def _plain(x):
    """A JSON-safe value (NaN and NA as None, numpy scalars as Python numbers)."""
    if x is None or x is pd.NA:
        return None
    if hasattr(x, "item"):
        x = x.item()
    if isinstance(x, float) and math.isnan(x):
        return None
    return x


def judge_run(run, claims: dict | None = None, *, sequential: bool = False,
              games: int | None = None, record: bool = True, log=None,
              analysis=None, scheduler=None, workers: int | None = None,
              watch=None) -> pd.DataFrame:
    """The verdict table of a run folder at its current look: the run read once, chunk by
    chunk (``experiments.analysis``; the first ``games`` games of each setting when given),
    judged with the run's earlier looks frozen, and the look recorded in the folder when it is
    new. ``claims``: the manifest's when None. ``sequential``: the run
    plays until settled. ``analysis``: the run's ``Analysis`` already read with these
    claims (the report reads the run once for everything)."""
    manifest = RunFolder(Path(run)).read_manifest() or {}
    claims = manifest.get("claims") or {} if claims is None else claims
    if analysis is None:
        analysis = analyse(run, games=games, charts=False, claims=claims or None,
                           scheduler=scheduler, workers=workers, watch=watch)
    account = analysis.account
    have = sum(h for h, _ in account.values())
    per_setting = max((h for h, _ in account.values()), default=0)
    book = read_log(run)
    look, history, new = next_look(book, have, per_setting, sequential)
    cat = analysis.catalog if analysis.catalog is not None else Catalog([])
    table = judge(cat, claims, look, history)
    if new and record:
        try:
            record_look(run, book, look, have, per_setting, table,
                        "until-settled" if sequential else "study")
        except OSError as e:                        # a read-only run: judged, not remembered
            if log:
                log(f"verdicts: look {look.number} not recorded in {run} ({e.strerror})")
    return table
