"""Calibration of the anytime-valid sequences at small samples: how often a sequence of looks
crosses the truth, for shares near 0 and small first looks, at the levels the verdicts, the
race and the confirmation read them at -- by simulation, where the truth is known.

A sequence is read at every look of a growing run (here: a first look of ``first`` games,
doubled ``looks - 1`` times). One side of a two-sided ``1 - 2a`` sequence must be crossed at
*some* look with probability at most ``a``. The normal-mixture sequence standardises by the
running sd, which is right as n grows but not for a share near 0 at a small n (its upper end
fell below a share of 0.05 in 5.9% of runs against 2.5% from a first look of 100 games, and 9
times its level at the race's Bonferroni levels). ``inference`` therefore reads a bounded
mean whose spread is small against its range with the non-asymptotic beta-binomial mixture
(``inference.SMALL``); this module measures both, and so sets ``SMALL``.

* ``share_rates`` -- 0/1 values (the worst case: a share without ties): the count at each look
  decides the interval, so the intervals are tabulated once per (look, count) and a million
  replications take seconds;
* ``value_rates`` -- any bounded per-index values drawn by a function (tie-split shares, sparse
  paired differences), one replication at a time.

``python -m experiments.verdicts.calibration_sequences --reps 1000000`` writes the table of
docs/calibration.md ("Small samples"); ``tests/test_calibration_sequences.py`` runs a short one.
"""
from __future__ import annotations

import argparse
import math
import time
from collections.abc import Callable

import numpy as np

from . import inference as I
from .inference import Estimate, Look, interval

ALPHA = I.ALPHA
# one-sided levels the verdicts and the fairest search read a sequence at (alpha = 0.05)
LEVELS = {
    "a verdict (alpha/2)": ALPHA / 2,
    "race, lower bound per player (alpha/(4P), P = 5)": ALPHA / 20,
    "race, upper bound per player (alpha/(2K), K = 53)": ALPHA / 106,
    "race, upper bound per player (alpha/(2K), K = 69)": ALPHA / 138,
    "confirmation, a seat to refute (alpha/(2FN), F = 18, N = 6)": ALPHA / 216,
}


def _share_estimate(k: int, n: int) -> Estimate:
    """The estimate a look at ``k`` wins in ``n`` 0/1 values reads."""
    m = k / n
    var = (k - n * m * m) / (n - 1) if n > 1 else 0.0
    return Estimate(m, math.sqrt(max(var, 0.0)), n, 0.0, 1.0, True, k in (0, n),
                    bounded=True)


def _table(n: int, kmax: int, a: float, look: Look) -> tuple[np.ndarray, np.ndarray]:
    lo = np.empty(kmax + 1)
    hi = np.empty(kmax + 1)
    for k in range(kmax + 1):
        lo[k], hi[k] = interval(_share_estimate(k, n), 2 * a, look)
    return lo, hi


def share_rates(p: float, first: int, looks: int, a: float, reps: int, seed: int = 0,
                chunk: int = 200_000) -> tuple[float, float]:
    """``(lower, upper)``: the share of ``reps`` runs of 0/1 values with mean ``p`` in which
    the sequence's lower end rose above ``p``, or its upper end fell below it, at some look
    ``first * 2**i`` (``i < looks``; every look anytime-valid, tuned to 4 x ``first``)."""
    sizes = [first * 2 ** i for i in range(looks)]
    look = Look(True, I.T_OPT_FACTOR * first, 2)
    tables = []
    for n in sizes:
        kmax = min(n, int(math.ceil(n * p + 14 * math.sqrt(n * p * (1 - p)) + 30)))
        tables.append(_table(n, kmax, a, look))
    rng = np.random.default_rng(seed)
    crossed_lo = crossed_hi = 0
    left = reps
    while left > 0:
        m = min(chunk, left)
        left -= m
        k = np.zeros(m, np.int64)
        lo_any = np.zeros(m, bool)
        hi_any = np.zeros(m, bool)
        prev = 0
        for n, (lo, hi) in zip(sizes, tables):
            k += rng.binomial(n - prev, p, m)
            prev = n
            kk = np.minimum(k, len(lo) - 1)      # beyond the table: far above p, never low
            lo_any |= np.where(k < len(lo), lo[kk] > p, True)
            hi_any |= np.where(k < len(lo), hi[kk] < p, False)
        crossed_lo += int(lo_any.sum())
        crossed_hi += int(hi_any.sum())
    return crossed_lo / reps, crossed_hi / reps


def value_rates(draw: Callable, truth: float, lo_b: float, hi_b: float, first: int,
                looks: int, a: float, reps: int, seed: int = 0) -> tuple[float, float]:
    """As ``share_rates`` for per-index values in ``[lo_b, hi_b]`` drawn by ``draw(rng, n)``
    (their mean ``truth``), each replication judged look by look."""
    sizes = [first * 2 ** i for i in range(looks)]
    look = Look(True, I.T_OPT_FACTOR * first, 2)
    rng = np.random.default_rng(seed)
    low = high = 0
    for _ in range(reps):
        x = draw(rng, sizes[-1])
        s1, s2 = np.cumsum(x), np.cumsum(x * x)
        cl = ch = False
        for n in sizes:
            m = s1[n - 1] / n
            var = max((s2[n - 1] - n * m * m) / (n - 1), 0.0)
            e = Estimate(float(m), math.sqrt(var), n, lo_b, hi_b, False, var == 0.0,
                         bounded=True)
            lo, hi = interval(e, 2 * a, look)
            cl |= lo > truth
            ch |= hi < truth
        low += cl
        high += ch
    return low / reps, high / reps


def tie_split(p: float, ties: float = 0.15):
    """A seat's tie-split win share: it wins alone with chance ``p``, shares a tie for the top
    with one other seat with chance ``ties * p`` (half a win)."""
    def draw(rng, n):
        u = rng.random(n)
        return np.where(u < p, 1.0, np.where(u < p * (1 + ties), 0.5, 0.0))
    return draw, p * (1 + ties / 2)


def sparse_difference(q: float):
    """A paired difference of two settings' 0/1 values that differ in a share ``q`` of the
    game indices: +1 in ``2q/3`` of them, -1 in ``q/3`` (mean ``q/3``)."""
    def draw(rng, n):
        u = rng.random(n)
        return np.where(u < 2 * q / 3, 1.0, np.where(u < q, -1.0, 0.0))
    return draw, q / 3


def _with_small(small: float | None):
    """A context in which ``inference.SMALL`` is ``small`` (None: as shipped; 0: never the
    non-asymptotic sequence, the rule before it)."""
    class _Ctx:
        def __enter__(self):
            self.old = I.SMALL
            if small is not None:
                I.SMALL = small
                I._beta_lower.cache_clear()

        def __exit__(self, *exc):
            I.SMALL = self.old
    return _Ctx()


def share_table(reps: int, seed: int = 0, small: float | None = None,
                shares=(0.002, 0.01, 0.05, 0.2, 0.5), firsts=(20, 100, 1000), looks: int = 10
                ) -> list[dict]:
    """Every share, first look and level of ``LEVELS``: the crossing rates of each side."""
    out = []
    with _with_small(small):
        for first in firsts:
            for p in shares:
                for name, a in LEVELS.items():
                    t0 = time.perf_counter()
                    lo, hi = share_rates(p, first, looks, a, reps, seed)
                    worst = max(lo, hi)
                    out.append({"values": "0/1 share", "share": p, "first": first,
                                "looks": looks, "level": name, "a": a, "lower": lo,
                                "upper": hi, "worst": worst, "reps": reps,
                                "mc_se": math.sqrt(a * (1 - a) / reps),
                                "seconds": time.perf_counter() - t0})
    return out


def value_table(reps: int, seed: int = 0, small: float | None = None, first: int = 100,
                looks: int = 8) -> list[dict]:
    """Tie-split shares and sparse paired differences at the two widest levels."""
    out = []
    cases = [("tie-split share", *tie_split(0.05), 0.0, 1.0),
             ("sparse paired difference", *sparse_difference(0.05), -1.0, 1.0)]
    with _with_small(small):
        for label, draw, truth, lo_b, hi_b in cases:
            for name in list(LEVELS)[:2]:
                a = LEVELS[name]
                lo, hi = value_rates(draw, truth, lo_b, hi_b, first, looks, a, reps, seed)
                out.append({"values": label, "share": truth, "first": first, "looks": looks,
                            "level": name, "a": a, "lower": lo, "upper": hi,
                            "worst": max(lo, hi), "reps": reps,
                            "mc_se": math.sqrt(a * (1 - a) / reps)})
    return out


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reps", type=int, default=1_000_000)
    ap.add_argument("--value-reps", type=int, default=20_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--small", type=float, default=None,
                    help="SMALL to measure (default: as shipped; 0: the normal mixture alone)")
    args = ap.parse_args(argv)
    rows = share_table(args.reps, args.seed, args.small)
    rows += value_table(args.value_reps, args.seed, args.small)
    lines = ["| values | mean | first look | level (one side) | lower end above the truth | "
             "upper end below it | worst / level |", "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['values']} | {r['share']:g} | {r['first']:,} x {r['looks']} "
                     f"looks | {r['level']}: {r['a']:.2g} | {r['lower']:.2e} | "
                     f"{r['upper']:.2e} | {r['worst'] / r['a']:.2f} "
                     f"(± {2 * r['mc_se'] / r['a']:.2f}) |")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
