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

**Tolerances are written down first.** Every look records the claims' parameters it judged
(``stated``: every parameter, defaults filled in); those of the first look are the run's stated
tolerances. Judging the run again at other parameters is a **re-judgement**: recorded in the
log as a look of its own (``mode`` "another tolerance"), labelled in the verdict table's
``tolerance`` column with what was stated first, never a primary look (it neither freezes nor
is frozen by the primary looks' rows). The report's view of the verdicts at other win-share
tolerances (``sensitivity``) is recorded the same way, as one look of mode "sensitivity".

**A look at a prefix** (``games`` below the run's size: ``report RUN --games N``) is a look at
an earlier point of the same sequence: it reads anytime-valid intervals (unless it is a look
already recorded) and is not recorded: it writes nothing into its input run.

``judge_run(run)`` is the whole step: read the run (``experiments.verdicts.analysis``), take its
next look, judge it (``verdicts.judge``) and record the look.
"""
from __future__ import annotations

import json
import math
import time
from pathlib import Path

import pandas as pd

from ..store.atomic import write_text
from ..store.runs import LOOKS, RunFolder
from .analysis import analyse
from .catalog import Catalog
from .claims import win_share_params
from .decisions import SETTLED
from .inference import ALPHA, T_OPT_FACTOR, Look
from .table import error_rates, judge, stated_claims

FORMAT = "survive-sim-looks/1"
REJUDGED, SENSITIVITY = "another tolerance", "sensitivity"
SIDE = frozenset({REJUDGED, SENSITIVITY})            # looks that are not primary looks
SENSITIVITY_TOLERANCES = (0.005, 0.01, 0.02, 0.03)   # win share: 0.5, 1, 2 and 3 pp
KEPT = ("claim", "play", "scope", "verdict", "adjusted", "effect", "low", "high", "n",
        "fair_within", "p_value", "interval", "looks", "settled_at", "detail")


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


def primary(log: dict) -> list[dict]:
    """The run's primary looks (at its stated tolerances), in order."""
    return [x for x in log["looks"] if x.get("mode") not in SIDE]


def stated_of(log: dict) -> dict | None:
    """The claims' parameters the run's first look judged (None: no look yet, or a log
    written before looks recorded them)."""
    looks = primary(log)
    return looks[0].get("claims") if looks else None


def next_look(log: dict, games: int, per_setting: int, sequential: bool = False,
              prefix: bool = False) -> tuple[Look, dict, bool]:
    """``(look, history, new)`` for judging ``games`` finished games (``per_setting`` the
    most any setting holds) at the run's stated tolerances. ``sequential``: the run plays
    until settled (every look anytime-valid). ``prefix``: the games are the first of a larger
    run (never the fixed first look, never recorded). ``history`` is what ``verdicts.judge``
    freezes; ``new`` whether the look must be recorded."""
    looks = primary(log)
    for i, old in enumerate(looks):
        if old["games"] == games:                       # the same games: the same look
            return _look(old), history(looks[:i]), False
    if not looks:
        t_opt = T_OPT_FACTOR * max(per_setting, 1)
        if prefix:
            return Look(True, t_opt, 1), {}, False
        return Look(sequential, t_opt if sequential else 0, 1), {}, True
    first = looks[0]
    t_opt = first.get("t_opt") or T_OPT_FACTOR * max(first["per_setting"], 1)
    if prefix:                  # an earlier point of the sequence: what it had settled then
        before = [x for x in looks if x["games"] < games]
        return Look(True, int(t_opt), len(before) + 1), history(before), False
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
                mode: str, claims: dict | None = None, kept=KEPT) -> None:
    """Append this look (its rows and the claims' parameters it judged) to the run's log,
    atomically."""
    rows = []
    for r in table.to_dict("records"):
        rows.append({k: _plain(r.get(k)) for k in kept})
    log["looks"].append({"number": look.number, "games": int(games),
                         "per_setting": int(per_setting), "sequential": look.sequential,
                         "t_opt": look.t_opt or None, "mode": mode, "claims": claims,
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
    chunk (``experiments.verdicts.analysis``; the first ``games`` games of each setting when given),
    judged with the run's earlier looks frozen, and the look recorded in the folder when it is
    new. ``claims``: the manifest's when None; parameters other than those the run's first
    look stated make the judgement a labelled re-judgement (module text). ``sequential``: the
    run plays until settled. ``analysis``: the run's ``Analysis`` already read with these
    claims (the report reads the run once for everything)."""
    manifest = RunFolder(Path(run)).read_manifest() or {}
    claims = manifest.get("claims") or {} if claims is None else claims
    if analysis is None:
        analysis = analyse(run, games=games, charts=False, claims=claims or None,
                           scheduler=scheduler, workers=workers, watch=watch)
    have, per_setting, prefix = _size(analysis, manifest, games, sequential)
    book = read_log(run)
    given = stated_claims(claims)
    stated = stated_of(book)
    other = stated is not None and given != stated
    look, history, new = next_look(book, have, per_setting, sequential, prefix)
    cat = analysis.catalog if analysis.catalog is not None else Catalog([])
    if other:
        table = judge(cat, claims, look)
        table["wrong_at_most"] = math.nan        # a tolerance chosen after: no stated rate
        table["tolerance"] = [_labelled(t, c, stated) for t, c in
                              zip(table["tolerance"], table["claim"])]
        new = not prefix and not any(x.get("mode") == REJUDGED and x["games"] == have
                                     and x.get("claims") == given for x in book["looks"])
        mode = REJUDGED
    else:
        table = judge(cat, claims, look, history)
        table["wrong_at_most"] = error_rates(table, _rate(book, look))
        mode = "until-settled" if sequential else "study"
    if new and record:
        _record(run, book, look, have, per_setting, table, mode, given, log)
    return table


def _rate(book: dict, look: Look) -> float:
    """The stated rate of a wrong label at this look: alpha / 2 when every look of the run
    (this one included) reads the same kind of interval (one fixed look, or all anytime-valid:
    ``--until-settled``); alpha when a fixed first look was followed by anytime-valid ones."""
    kinds = {bool(x["sequential"]) for x in primary(book)[:look.number - 1]}
    kinds.add(look.sequential)
    return ALPHA / 2 if len(kinds) == 1 else ALPHA


def _size(analysis, manifest: dict, games: int | None, sequential: bool
          ) -> tuple[int, int, bool]:
    """``(games read, most per setting, a prefix look)``. A look at fewer games per setting
    than the run asks for is a prefix look, except a round of ``--until-settled`` (its rounds
    are the run's own looks)."""
    account = analysis.account
    have = sum(h for h, _ in account.values())
    per_setting = max((h for h, _ in account.values()), default=0)
    prefix = (not sequential and games is not None
              and games < int(manifest.get("games", games) or games))
    return have, per_setting, prefix


def _record(run, book, look, have, per_setting, table, mode, given, log, kept=KEPT) -> None:
    try:
        record_look(run, book, look, have, per_setting, table, mode, given, kept)
    except OSError as e:                        # a read-only run: judged, not remembered
        if log:
            log(f"verdicts: look {look.number} not recorded in {run} ({e.strerror})")


def _labelled(text: str, cid: str, stated: dict) -> str:
    """A re-judged row's tolerance, with what the run stated first."""
    first = stated.get(cid)
    if first is None:
        return f"{text} (not stated at the first look: re-judged)"
    was = ", ".join(f"{k} {v:g}" if not isinstance(v, list) else f"{k} {v}"
                    for k, v in first.items())
    if was == text:
        return text
    return f"{text} (stated first: {was}; re-judged at another tolerance)"


def sensitivity(run, claims: dict, analysis, *, games: int | None = None,
                sequential: bool = False, record: bool = True,
                tolerances=SENSITIVITY_TOLERANCES, log=None) -> pd.DataFrame | None:
    """The verdicts of the claims whose tolerance is a win share, re-judged at each of
    ``tolerances`` on the same games and look (no earlier look frozen): how much each verdict
    depends on the tolerance. Not the stated verdicts; recorded in the look log as one look of
    mode "sensitivity". None when no claim has a win-share tolerance."""
    manifest = RunFolder(Path(run)).read_manifest() or {}
    given = stated_claims(claims)
    varied = {cid: win_share_params(cid) for cid in given if win_share_params(cid)}
    if not varied:
        return None
    have, per_setting, prefix = _size(analysis, manifest, games, sequential)
    book = read_log(run)
    look, _, _ = next_look(book, have, per_setting, sequential, prefix)
    cat = analysis.catalog if analysis.catalog is not None else Catalog([])
    parts = []
    for tol in tolerances:
        at = {cid: {**given[cid], **{k: tol for k in varied[cid]}} for cid in varied}
        t = judge(cat, at, look)
        t = t[t["claim"].isin(list(varied))].copy()
        t.insert(3, "tolerance_pp", 100 * tol)
        parts.append(t)
    table = pd.concat(parts, ignore_index=True)
    done = any(x.get("mode") == SENSITIVITY and x["games"] == have for x in book["looks"])
    if record and not prefix and not done:
        _record(run, book, look, have, per_setting, table, SENSITIVITY,
                {"tolerances": list(tolerances), "claims": sorted(varied)}, log,
                KEPT + ("tolerance_pp",))
    return table
