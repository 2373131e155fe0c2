"""The decision rules: how an estimate and its interval become a verdict, one rule per kind of
claim, the same in the report, in ``verdicts.csv`` and in ``docs/verdicts.md``.

Every rule reads the two-sided ``1 - alpha`` interval of ``experiments.verdicts.inference`` at the
look (fixed at a run's first judgment, anytime-valid after it), so a reader can check each
verdict against the interval printed beside it. The labels:

* ``supported`` -- the claim holds, with an effect at least as large as its tolerance;
* ``negligible`` -- the claimed effect is real (the interval excludes 0 on the claimed side)
  but smaller than the tolerance, the smallest effect that matters;
* ``refuted`` -- an effect of the size that matters on the claimed side is excluded (or, for
  a claim of balance, some part is shown outside its tolerance);
* ``inconclusive`` -- none of these yet: the row says how many games would settle it.

Three shapes (``tol`` the tolerance, ``[lo, hi]`` the interval on the claimed side):

* **direction** ("win share falls with seat"): supported when ``lo > tol``; negligible when
  ``0 < lo`` and ``hi < tol``; refuted when ``hi < tol`` otherwise; else inconclusive. Each of
  "supported" and "not supported" is a one-sided test at ``alpha / 2`` (a minimum-effect test
  against the tolerance).
* **balance** ("every seat within ±tol of 1/N"): supported when every part's interval lies
  inside ``(-tol, tol)`` (TOST on each part, intersection-union: no correction needed);
  refuted when some part's interval, Bonferroni-adjusted over the parts (``alpha / k``), lies
  wholly outside ``[-tol, tol]``; else inconclusive.
* **threshold** ("ties are common", above a rate): supported when ``lo > threshold``, refuted
  when ``hi < threshold``.

``games_needed`` is the n at which the next look settles the row with 80% power if the observed
effect and spread were the truth (``inference.games_for``; the next look of a run is always
sequential). For a balance claim every part must pass at once: each part aims at power
``1 - 0.2 / k`` (so that all k pass together with probability at least 0.8, whatever their
dependence); to refute, the part farthest outside needs to clear alone.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from .inference import ALPHA, FIXED, POWER, Estimate, Look, games_for, interval, p_above, p_below

SUPPORTED, NEGLIGIBLE, REFUTED, INCONCLUSIVE = "supported", "negligible", "refuted", \
    "inconclusive"
VERDICTS = (SUPPORTED, NEGLIGIBLE, REFUTED, INCONCLUSIVE)
SETTLED = frozenset({SUPPORTED, NEGLIGIBLE, REFUTED})

DIRECTION_RULE = ("direction: on the claimed side, supported when the 95% interval lies above "
                  "the tolerance; negligible when it lies between 0 and the tolerance (real "
                  "but too small to matter); refuted when it lies below the tolerance and "
                  "reaches 0 or below; else inconclusive")
BALANCE_RULE = ("balance: supported when every part's 95% interval lies inside ±tolerance "
                "(TOST per part, intersection-union); refuted when some part's interval, "
                "Bonferroni-adjusted over the parts, lies wholly outside; else inconclusive")
THRESHOLD_RULE = ("threshold: supported when the 95% interval lies above the threshold, "
                  "refuted when below; else inconclusive")


@dataclass
class Decision:
    """A verdict with the numbers behind it. ``effect``/``low``/``high`` are on the claim's own
    scale (not mirrored); ``p_value`` is the one-sided p of the test whose rejection supports
    the claim (supported exactly when it is below ``alpha / 2`` at the look's level)."""
    verdict: str
    effect: float
    low: float
    high: float
    n: int
    p_value: float
    games_needed: int | None = None
    parts: list = field(default_factory=list)      # (name, effect, low, high) of each part
    within: float = math.nan        # balance rules: "fair within ±within" (``fair_within``)


def _next(look: Look, n: int) -> Look:
    return look.next(n) if not look.sequential else look


def direction_verdict(lo: float, hi: float, tol: float) -> str:
    """The direction rule on an interval already on the claimed side."""
    if math.isnan(lo) or math.isnan(hi):
        return INCONCLUSIVE
    if lo > tol:
        return SUPPORTED
    if hi < tol:
        return NEGLIGIBLE if lo > 0 else REFUTED
    return INCONCLUSIVE


def direction(est: Estimate, tol: float, sign: int = +1, alpha: float = ALPHA,
              look: Look = FIXED) -> Decision:
    """The direction rule on ``est`` (``sign`` +1: the claim is "above 0", -1: "below 0")."""
    e = est if sign > 0 else est.mirrored()
    lo, hi = interval(e, alpha, look)
    verdict = direction_verdict(lo, hi, tol)
    need = None if math.isnan(e.value) else \
        games_for(e, abs(e.value - tol), alpha, _next(look, e.n))
    low, high = (lo, hi) if sign > 0 else (-hi, -lo)
    return Decision(verdict, est.value, low, high, est.n, p_above(e, tol, look), need)


def balance(parts: list[tuple[str, Estimate]], tol: float, alpha: float = ALPHA,
            look: Look = FIXED, advice: Look | None = None) -> Decision:
    """The balance rule on estimates of differences from their targets (``parts``: name and
    estimate). The row's effect and interval are those of the part farthest from 0.
    ``advice``: the look ``games_needed`` plans for (default: the next look of these games;
    ``FIXED`` for a fresh, independent run judged once)."""
    k = len(parts)
    shown, inside, outside, p_tost = [], True, False, []
    for name, est in parts:
        lo, hi = interval(est, alpha, look)
        shown.append((name, est.value, lo, hi))
        inside &= -tol < lo and hi < tol
        blo, bhi = interval(est, alpha / k, look)
        outside |= blo > tol or bhi < -tol
        p_tost.append(max(p_above(est, -tol, look), p_below(est, tol, look)))
    verdict = SUPPORTED if inside else REFUTED if outside else INCONCLUSIVE
    nxt = advice if advice is not None else _next(look, max(e.n for _, e in parts))
    beyond = [e for _, e in parts if abs(e.value) > tol]
    if beyond:              # one part clearing the margin settles it
        options = [games_for(e, abs(e.value) - tol, alpha / k, nxt) for e in beyond]
    else:                   # every part inside at once
        each = 1 - (1 - POWER) / k
        options = [games_for(e, tol - abs(e.value), alpha, nxt, each) for _, e in parts]
        options = [max(options)] if None not in options else []
    options = [o for o in options if o is not None]
    need = min(options) if options else None
    worst = max(range(k), key=lambda i: abs(shown[i][1]))
    _, effect, lo, hi = shown[worst]
    dec = Decision(verdict, effect, lo, hi, max(e.n for _, e in parts), max(p_tost), need,
                   shown)
    dec.within = fair_within(dec)
    return dec


def fair_within(dec: Decision) -> float:
    """"Fair within ±X": the smallest tolerance a balance decision's parts pass, the largest
    distance from 0 of any part's interval (at the rule's level). It is an upper confidence
    bound on the largest true distance of any part, valid for all parts at once with no
    correction: it fails only when the farthest part lies beyond its own interval, at most
    ``alpha / 2``."""
    if not dec.parts:
        return math.nan
    return max(max(abs(lo), abs(hi)) for _, _, lo, hi in dec.parts)


def threshold(est: Estimate, thr: float, alpha: float = ALPHA, look: Look = FIXED) -> Decision:
    """The threshold rule: the mean above ``thr``."""
    lo, hi = interval(est, alpha, look)
    verdict = SUPPORTED if lo > thr else REFUTED if hi < thr else INCONCLUSIVE
    need = games_for(est, abs(est.value - thr), alpha, _next(look, est.n))
    return Decision(verdict, est.value, lo, hi, est.n, p_above(est, thr, look), need)


# ------------------------------------------------------------------------------ composite rules
BOTH_RULE = ("both parts by the direction rule: supported when both are supported (95%, "
             "intersection-union); refuted when either part is refuted, negligible when either "
             "is negligible (each at Bonferroni alpha/2, 97.5%); else inconclusive")
AT_MOST_RULE = ("non-inferiority on each part: supported when every part's 95% interval lies "
                "on the claimed side of its margin (intersection-union); refuted when some "
                "part's interval, Bonferroni-adjusted over the parts, lies wholly beyond its "
                "margin; else inconclusive")
CHANGES_RULE = ("change: supported when some part's interval, Bonferroni-adjusted over the "
                "parts, lies wholly outside ±tolerance; refuted when every part's 95% interval "
                "lies inside ±tolerance (TOST, intersection-union) and none is shown away from "
                "0 (Bonferroni over the parts and both sides, alpha/2k); negligible when every "
                "part lies inside ±tolerance but some is shown away from 0; else inconclusive")


def both(parts: list[tuple[str, Estimate, float, int]], alpha: float = ALPHA,
         look: Look = FIXED) -> Decision:
    """Every part by the direction rule (``(name, estimate, tolerance, sign)``): supported
    when all are supported at ``alpha`` (intersection-union); refuted when some part is
    refuted, negligible when some part is negligible, each re-judged at ``alpha / k``
    (Bonferroni); else inconclusive. The row shows the first part."""
    k = len(parts)
    at = [direction(e, t, s, alpha, look) for _, e, t, s in parts]
    adj = [direction(e, t, s, alpha / k, look) for _, e, t, s in parts]
    if all(d.verdict == SUPPORTED for d in at):
        verdict = SUPPORTED
    elif any(d.verdict == REFUTED for d in adj):
        verdict = REFUTED
    elif any(d.verdict == NEGLIGIBLE for d in adj):
        verdict = NEGLIGIBLE
    else:
        verdict = INCONCLUSIVE
    need = max((d.games_needed or 0 for d in at), default=0) or None
    shown = [(name, d.effect, d.low, d.high) for (name, _, _, _), d in zip(parts, at)]
    first = at[0]
    return Decision(verdict, first.effect, first.low, first.high, first.n,
                    max(d.p_value for d in at), need, shown)


def at_most(parts: list[tuple[str, Estimate, float, int]], alpha: float = ALPHA,
            look: Look = FIXED) -> Decision:
    """Non-inferiority (``(name, estimate, margin, sign)``: the claim is ``sign * mean <
    margin``, e.g. "not longer by more than a round" is sign +1, "not lower by more than 2
    points" sign -1): supported when every part's interval lies on the claimed side
    (intersection-union); refuted when some part's ``1 - alpha / k`` interval lies wholly
    beyond its margin; else inconclusive. ``p_value``: the largest part's one-sided p."""
    k = len(parts)
    inside, beyond, shown, ps, needs = True, False, [], [], []
    for name, est, margin, sign in parts:
        e = est if sign > 0 else est.mirrored()
        lo, hi = interval(e, alpha, look)
        blo, _ = interval(e, alpha / k, look)
        inside &= hi < margin
        beyond |= blo > margin
        ps.append(p_below(e, margin, look))
        low, high = (lo, hi) if sign > 0 else (-hi, -lo)
        shown.append((name, est.value, low, high))
        needs.append((e, margin))
    verdict = SUPPORTED if inside else REFUTED if beyond else INCONCLUSIVE
    nxt = _next(look, max(e.n for _, e, _, _ in parts))
    over = [(e, m) for e, m in needs if e.value > m]
    if over:
        options = [games_for(e, e.value - m, alpha / k, nxt) for e, m in over]
    else:
        each = 1 - (1 - POWER) / k
        options = [games_for(e, m - e.value, alpha, nxt, each) for e, m in needs]
        options = [max(options)] if None not in options else []
    options = [o for o in options if o is not None]
    _, effect, lo, hi = shown[0]
    return Decision(verdict, effect, lo, hi, max(e.n for _, e, _, _ in parts), max(ps),
                    min(options) if options else None, shown)


def changes(parts: list[tuple[str, Estimate]], tol: float, alpha: float = ALPHA,
            look: Look = FIXED) -> Decision:
    """"Something changes by more than ``tol``" over ``k`` parts: the balance rule read the
    other way. Supported when balance is refuted (some part's ``1 - alpha / k`` interval
    wholly outside ``±tol``); refuted when balance is supported (every part inside at
    ``alpha``) and no part's ``1 - alpha / 2k`` interval excludes 0 (the union over k parts
    and two sides errs at most ``alpha / 2``); negligible when balance is supported and some
    part's does; else inconclusive. ``p_value``: the Bonferroni-adjusted
    p of the part farthest outside."""
    k = len(parts)
    bal = balance(parts, tol, alpha, look)
    # "some part is real": either side of any of k parts, so each two-sided at alpha / 2k
    # (the union errs at most alpha / 2, as every other one-sided conclusion)
    real = any(interval(e, alpha / (2 * k), look)[0] > 0 or
               interval(e, alpha / (2 * k), look)[1] < 0 for _, e in parts)
    if bal.verdict == REFUTED:
        verdict = SUPPORTED
    elif bal.verdict == SUPPORTED:
        verdict = NEGLIGIBLE if real else REFUTED
    else:
        verdict = INCONCLUSIVE
    p = min(1.0, k * min(min(p_above(e, tol, look), p_below(e, -tol, look)) for _, e in parts))
    return Decision(verdict, bal.effect, bal.low, bal.high, bal.n, p, bal.games_needed,
                    bal.parts, bal.within)
