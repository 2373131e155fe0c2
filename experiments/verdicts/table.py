"""The verdict table: every claim a study names, judged on each style of play, summed up across
the styles, at the run's current look.

``judge(catalog, claims, look, history)`` returns one row per claim, style and scope with the
columns of ``COLUMNS``. A verdict is ``supported``, ``negligible``, ``refuted`` or
``inconclusive`` (``experiments.verdicts.decisions``), never typed in. A run played by several
styles (a strategy axis) is judged once per style on that style's settings alone, so every
comparison stays within one style; a mixed line-up's rotations are pooled first and judged as
one style (``experiments.verdicts.catalog``; ``Entry.style`` names the style).

Looks. ``history`` holds the rows of the run's earlier looks (``experiments.verdicts.looks``): a row
settled at an earlier look keeps that verdict (``settled_at`` says at how many games), so a
verdict never flips back when the run grows; every other row is judged at ``look`` (fixed at
the first look, anytime-valid after it). ``looks`` counts the judgments the run has had.
A run folder is judged at its current look by ``experiments.verdicts.looks.judge_run``, which reads
the run (``experiments.verdicts.analysis``, itself a user of ``judge``'s dry run) and keeps the look
log.

Across the ladder (``LADDER_RULE``): "for every style" statements need every style's verdict
(intersection-union, no correction); "for some styles" and "depends on the style" are union
statements, so they read each style's verdict re-judged at ``alpha / k`` for the k styles that
take part (Bonferroni).
"""
from __future__ import annotations

import math

import pandas as pd

import experiments.verdicts.decisions as D

from ..tables.rotations import rotated_label
from .catalog import Catalog, from_frame
from .claims import CLAIMS, Found
from .claims.skill import ACROSS_PLAY, search_budget
from .inference import ALPHA, FIXED, Look

COLUMNS = ("claim", "play", "scope", "verdict", "measure", "effect", "low", "high", "n",
           "tolerance", "fair_within", "p_value", "interval", "looks", "settled_at",
           "games_needed", "detail", "test", "rule", "family", "question", "across_ladder",
           "strong_play", "wrong_at_most")

LADDER_RULE = (
    "across the ladder (the same claim and scope judged on each bot style we play: self-play "
    "of each rung, and each mixed line-up played in every rotation and pooled): 'holds for "
    "every bot style we play' when every style's verdict is supported; 'refuted for every bot "
    "style we play' when every one is refuted ('refuted or negligible for every bot style we "
    "play' when each is one of the two); with each style re-judged at alpha/k for the k "
    "styles (Bonferroni): 'depends on the bot style' when some are supported and others "
    "refuted or negligible, 'holds for some bot styles' when some are supported and the rest "
    "inconclusive, 'refuted or negligible for some bot styles' when some are and the rest "
    "inconclusive; 'inconclusive' otherwise. The styles are bots of this package: none of "
    "it is a claim about people")


def judged_across(label: str) -> bool:
    """Whether a style of play takes part in the summary across styles: self-play of a rung,
    or a mixed line-up in every rotation (a fixed mixed seating judges the seats it was dealt)."""
    return label.endswith(" self-play") or label.startswith(rotated_label(()))


def ladder_summary(verdicts: list[str], adjusted: list[str] | None = None) -> str:
    """One claim and scope over the styles of play (``LADDER_RULE``): ``verdicts`` at alpha,
    ``adjusted`` at alpha / k (the same when not given)."""
    v = set(verdicts)
    if v == {D.SUPPORTED}:
        return "holds for every bot style we play"
    if v == {D.REFUTED}:
        return "refuted for every bot style we play"
    if v == {D.NEGLIGIBLE}:
        return "negligible for every bot style we play"
    if v <= {D.REFUTED, D.NEGLIGIBLE}:
        return "refuted or negligible for every bot style we play"
    a = set(verdicts if adjusted is None else adjusted)
    against = bool(a & {D.REFUTED, D.NEGLIGIBLE})
    if D.SUPPORTED in a and against:
        return "depends on the bot style"
    if D.SUPPORTED in a:
        return "holds for some bot styles"
    if against:
        return "refuted or negligible for some bot styles, inconclusive for the others"
    return "inconclusive"


STRONG_RULE = (
    "for strong play (the search rung: self-play of a strategy that searches the game on from "
    "its decisions, at every budget the run plays, from its lowest up; the same claim and "
    "scope): 'holds for strong play' when the verdict is supported at every such budget; "
    "'refuted for strong play' ('refuted or negligible ...') when it is refuted (or one of "
    "the two) at every one; with each re-judged at alpha/k as across the ladder: 'depends on "
    "the budget' when some are supported and others refuted or negligible, 'holds at some "
    "budgets' when some are supported and the rest inconclusive; 'inconclusive for strong "
    "play' otherwise; empty when the run plays no search rung. About these bots, not people")


def strong_summary(verdicts: list[str], adjusted: list[str], lowest: int | None) -> str:
    """One claim and scope over the search levels (``STRONG_RULE``)."""
    at = f" (search, budget {lowest:,} and up)" if lowest is not None else " (search)"
    v, a = set(verdicts), set(adjusted)
    if v == {D.SUPPORTED}:
        return "holds for strong play" + at
    if v == {D.REFUTED}:
        return "refuted for strong play" + at
    if v <= {D.REFUTED, D.NEGLIGIBLE}:
        return "refuted or negligible for strong play" + at
    against = bool(a & {D.REFUTED, D.NEGLIGIBLE})
    if D.SUPPORTED in a and against:
        return "depends on the budget" + at
    if D.SUPPORTED in a:
        return "holds at some budgets" + at
    return "inconclusive for strong play" + at


def strong_play(out: pd.DataFrame, styles: dict) -> list[str]:
    """Each row's ``strong_play``: its claim and scope summed up over the search levels."""
    budgets = {style: search_budget(es[0]) for style, es in styles.items()
               if len(es) and judged_across(style)}
    budgets = {s: b for s, b in budgets.items() if b is not None}
    if not budgets:
        return [""] * len(out)
    lowest = min(budgets.values())
    strong = out["play"].isin(list(budgets)) & (out["n"] > 0)
    summary = {key: strong_summary(list(g["verdict"]), list(g["adjusted"]), lowest)
               for key, g in out[strong].groupby(["claim", "scope"], sort=False)}
    return [summary.get((c, s), "") for c, s in zip(out["claim"], out["scope"])]


def _tolerance(cid: str, params: dict) -> str:
    return ", ".join(f"{k} {v:g}" if not isinstance(v, list) else f"{k} {v}"
                     for k, v in params.items())


def _row(cid: str, style: str, f: Found, params: dict, look: Look) -> dict:
    c, d = CLAIMS[cid], f.decision
    return {"claim": cid, "play": style, "scope": f.scope, "verdict": d.verdict,
            "measure": c.measures, "effect": d.effect, "low": d.low, "high": d.high, "n": d.n,
            "tolerance": _tolerance(cid, params), "fair_within": d.within,
            "p_value": d.p_value, "interval": f"95% {look.kind}", "looks": look.number,
            "settled_at": d.n if d.verdict in D.SETTLED else None,
            "games_needed": None if d.verdict in D.SETTLED else d.games_needed,
            "to_settle": d.games_needed, "settings": f.settings, "detail": f.detail,
            "test": f.test,
            "rule": c.rule, "family": c.family, "question": c.question}


def _none_row(cid: str, style: str, params: dict, look: Look, why: str) -> dict:
    c = CLAIMS[cid]
    return {"claim": cid, "play": style, "scope": why, "verdict": D.INCONCLUSIVE,
            "measure": c.measures, "effect": math.nan, "low": math.nan, "high": math.nan, "n": 0,
            "tolerance": _tolerance(cid, params), "fair_within": math.nan, "p_value": math.nan,
            "interval": f"95% {look.kind}", "looks": look.number, "settled_at": None,
            "games_needed": None, "to_settle": None, "settings": (), "detail": "",
            "test": "none",
            "rule": c.rule,
            "family": c.family, "question": c.question}


NONE = "the run holds none of the settings this claim needs"
NONE_ACROSS = ("the run holds no table played in self-play at three or more skill levels "
               "(study skill-trace)")


def _claims(claims: dict) -> list[tuple[str, dict]]:
    """``(claim, parameters)`` in order, each with the claims it brings."""
    out = []
    for cid, given in claims.items():
        out.append((cid, {**CLAIMS[cid].defaults(), **given}))
        for extra in CLAIMS[cid].brings:
            if extra not in claims:
                out.append((extra, {**CLAIMS[extra].defaults(), **claims.get(extra, {})}))
    return out


def stated_claims(claims: dict) -> dict:
    """Every parameter the claims are judged at, defaults filled in and the claims they bring
    included: what a look records as its tolerances."""
    return {cid: params for cid, params in _claims(claims)}


def judge(cat: Catalog, claims: dict, look: Look = FIXED, history: dict | None = None
          ) -> pd.DataFrame:
    """The verdict table of ``claims`` (``{id: parameters}``) on the catalog's settings at
    ``look``; ``history``: ``{(claim, play, scope): row}`` of the settled rows of earlier looks."""
    styles = cat.styles()
    across = [s for s in styles if judged_across(s)]
    k = len(across)
    rows, adjusted, missing = [], {}, {}
    for cid, params in _claims(claims):
        if CLAIMS[cid].across:
            found = CLAIMS[cid].judge(cat, cat.entries, params, ALPHA, look)
            rows += [_row(cid, ACROSS_PLAY, f, params, look) for f in found] or \
                [_none_row(cid, ACROSS_PLAY, params, look, NONE_ACROSS)]
    for style, entries in styles.items():
        for cid, params in _claims(claims):
            claim = CLAIMS[cid]
            if claim.across:
                continue
            found = claim.judge(cat, entries, params, ALPHA, look)
            if not found and claim.per_style:
                missing.setdefault(cid, (style, params))
                continue
            if not found:
                why = claim.why_none(cat, entries) if claim.why_none else None
                rows.append(_none_row(cid, style, params, look, why or NONE))
                continue
            if k > 1 and style in across:
                for f in claim.judge(cat, entries, params, ALPHA / k, look):
                    adjusted[(cid, style, f.scope)] = f.decision.verdict
            rows += [_row(cid, style, f, params, look) for f in found]
    judged = {r["claim"] for r in rows}
    for cid, (style, params) in missing.items():
        if cid not in judged:
            rows.append(_none_row(cid, style, params, look, NONE))
    history = history or {}
    for r in rows:
        key = (r["claim"], r["play"], r["scope"])
        old = history.get(key)
        if old is not None and old.get("verdict") in D.SETTLED:
            for col in ("verdict", "effect", "low", "high", "n", "fair_within", "p_value",
                        "interval", "looks", "settled_at", "detail"):
                r[col] = old.get(col, r[col])
            r["games_needed"] = None
            if old.get("adjusted") is not None:
                adjusted[key] = old["adjusted"]
        r["adjusted"] = adjusted.get(key, r["verdict"])
    out = pd.DataFrame(rows, columns=list(COLUMNS[:-3]) + ["adjusted", "to_settle",
                                                           "settings"])
    out["n"] = out["n"].astype("int64")
    out["looks"] = out["looks"].astype("int64")
    for col in ("games_needed", "settled_at", "to_settle"):
        out[col] = pd.array([None if x is None or (isinstance(x, float) and math.isnan(x))
                             else int(x) for x in out[col]], dtype="Int64")
    part_of = out["play"].map(judged_across).astype(bool) & (out["n"] > 0)
    summary = {}
    for (cid, scope), g in out[part_of].groupby(["claim", "scope"], sort=False):
        summary[(cid, scope)] = (ladder_summary(list(g["verdict"]), list(g["adjusted"]))
                                 if k > 1 and (len(g) > 1 or not CLAIMS[cid].per_style)
                                 else "one bot style only")
    out["across_ladder"] = [summary.get((c, s), "") for c, s in zip(out["claim"], out["scope"])]
    out["strong_play"] = strong_play(out, styles)
    out["wrong_at_most"] = error_rates(out, ALPHA / 2 if look.number == 1 else ALPHA)
    return out


def error_rates(table: pd.DataFrame, rate: float) -> list[float]:
    """Each row's stated chance of being wrong: ``rate`` for a settled row (its kind of wrong
    label: alpha / 2 at one look or a run played until settled, alpha for a run judged fixed
    and then again after it grew), NaN for an open one (no finding)."""
    return [rate if v in D.SETTLED else math.nan for v in table["verdict"]]


def expected_false(table: pd.DataFrame) -> tuple[int, float]:
    """``(findings, at most how many of them are expected to be false)``: the settled rows,
    and the sum of their stated rates (the expected number of false findings if every row
    were at the edge of its rule; fewer when effects lie farther from the tolerances)."""
    rates = pd.to_numeric(table.get("wrong_at_most"), errors="coerce")
    settled = table["verdict"].isin(D.SETTLED) & rates.notna()
    return int(settled.sum()), float(rates[settled].sum())


def verdicts(df: pd.DataFrame, claims: dict, look: Look = FIXED,
             history: dict | None = None) -> pd.DataFrame:
    """The verdict table of an in-memory run table (``judge`` on ``units.from_frame``)."""
    return judge(from_frame(df), claims, look, history)


def public(table: pd.DataFrame) -> pd.DataFrame:
    """The table as ``verdicts.csv`` writes it: the bookkeeping column ``adjusted`` (each
    style's verdict at alpha / k) renamed ``verdict_across``; ``to_settle`` (the advice
    computed for settled rows too) and ``settings`` (the settings each row read) left out."""
    return table.drop(columns=["to_settle", "settings"], errors="ignore").rename(
        columns={"adjusted": "verdict_across"})
