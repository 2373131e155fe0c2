"""The intervals every rate and mean of the tool is printed with, and the sums they are made
from: one rule, one place (``stats``, ``summary``, the charts and the tournaments use these).

A run can hold tens of millions of games, so nothing here needs the games themselves. A
per-game quantity is kept as its **sufficient statistics**, added chunk by chunk:

* ``Sums``: the count, sum and sum of squares, **exact** (Python integers, or fractions for
  ratios such as a game's share of its explorers rescued), with the smallest and largest value.
  A mean and its interval come out the same however the games were cut into chunks, on one
  machine or on many.
* ``Tally``: the count of each whole value (a score, a game's length), which also gives the
  quantiles of a box plot and a distribution chart exactly.

The interval rule (``bounded_interval``), for the mean of per-game values known to lie in
``[lo, hi]``: the t interval ``mean +- t(1 - alpha/2, n - 1) sd / sqrt(n)`` (method ``t``) when
the values vary and that interval lies inside ``[lo, hi]``; otherwise the Wilson interval of
the mean scaled to ``[0, 1]`` (count ``n (mean - lo) / (hi - lo)``) mapped back (method
``wilson-scaled``), which is conservative (a ``[0, 1]`` value with mean p has variance at most
p (1 - p)) and keeps a width when every game gave the same value. Without a finite range
(``hi = inf``) the t interval is used as it stands. Proportions of games: the Wilson score
interval (``wilson``, closed form; equal to statsmodels' ``proportion_confint(...,
method="wilson")``, checked in the tests). statsmodels and scipy.stats are not imported here:
the quick commands (``simulate``, ``summary``) start without them.
"""
from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache
from statistics import NormalDist

import numpy as np

ALPHA = 0.05


# ------------------------------------------------------------------------------ quantiles
@lru_cache(maxsize=4096)
def t_quantile(q: float, df: int) -> float:
    """The ``q`` quantile of Student's t with ``df`` degrees of freedom (scipy.special)."""
    from scipy.special import stdtrit
    return float(stdtrit(df, q))


@lru_cache(maxsize=64)
def z_quantile(q: float) -> float:
    return NormalDist().inv_cdf(q)


# ------------------------------------------------------------------------------ proportions
def wilson(count, nobs, alpha: float = ALPHA):
    """Wilson score interval ``(lo, hi)`` of ``count`` successes in ``nobs`` trials.

    Scalars or arrays; ``nobs == 0`` gives NaN bounds. ``count`` need not be whole (a sum of
    tie-split shares, or of a scaled mean)."""
    count = np.asarray(count, dtype=float)
    nobs = np.asarray(nobs, dtype=float)
    z = z_quantile(1 - alpha / 2)
    n = np.where(nobs > 0, nobs, 1.0)
    p = np.where(nobs > 0, count, 0.0) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(np.maximum(p * (1 - p), 0.0) / n + z * z / (4 * n * n))
    # exact at the edges: rounding leaves ~1e-19 where the closed form gives 0 (or 1)
    lo = np.where(count <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(count >= nobs, 1.0, np.clip(centre + half, 0.0, 1.0))
    lo = np.where(nobs > 0, lo, np.nan)
    hi = np.where(nobs > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def wilson_ci(count, nobs, alpha: float = ALPHA) -> tuple[float, float, float]:
    """``(count / nobs, low, high)``; NaN for nobs 0."""
    if nobs <= 0:
        return (math.nan, math.nan, math.nan)
    lo, hi = wilson(float(count), float(nobs), alpha)
    return (float(count) / nobs, lo, hi)


# ------------------------------------------------------------------------------ means
def bounded_interval(n: int, mean: float, sd: float, lo: float, hi: float,
                     alpha: float = ALPHA) -> tuple[float, float, str]:
    """``(low, high, method)``: the interval of the mean of ``n`` values in ``[lo, hi]`` with
    sample mean ``mean`` and sample sd ``sd`` (n - 1), by the module's rule."""
    if n == 0:
        return (math.nan, math.nan, "none")
    if not lo <= mean <= hi:               # values outside their range: no interval can hold
        raise ValueError(f"a mean of {mean:g} lies outside its values' range [{lo:g}, {hi:g}]")
    bounded = math.isfinite(lo) and math.isfinite(hi)
    if n > 1 and sd > 0:
        half = t_quantile(1 - alpha / 2, n - 1) * sd / math.sqrt(n)
        a, b = mean - half, mean + half
        if not bounded or (lo <= a and b <= hi):
            return (a, b, "t")
    if not bounded:                        # no spread to go by and no range to scale to
        return (mean, mean, "t") if n > 1 else (math.nan, math.nan, "none")
    width = hi - lo
    if width <= 0:                         # a range of one value: the mean is that value
        return (mean, mean, "exact")
    count = min(max(n * (mean - lo) / width, 0.0), float(n))
    wlo, whi = wilson(count, n, alpha)
    return (max(lo, lo + width * wlo), min(hi, lo + width * whi), "wilson-scaled")


def bounded_mean_ci(x, lo: float, hi: float,
                    alpha: float = ALPHA) -> tuple[float, float, float, int, str]:
    """``(mean, low, high, n, method)`` of per-game values ``x`` known to lie in ``[lo, hi]``
    (``hi = math.inf`` for a count without an upper bound); a value outside raises
    ``ValueError``. Whole numbers are summed exactly; other values as floats."""
    x = np.asarray(x)
    s = Sums()
    if x.size and np.issubdtype(x.dtype, np.integer):
        s.add(x)
    elif x.size:
        s.add_floats(x)
    return s.ci(lo, hi, alpha)


class Sums:
    """Count, sum, sum of squares, smallest and largest value of a per-game quantity.

    Exact for whole numbers (``add``) and ratios of whole numbers (``add_ratio``): the sums are
    Python integers or ``Fraction``s, so the mean and interval do not depend on how the games
    were cut into chunks, nor on the order the chunks were added. ``add_floats`` keeps float
    sums (for quantities that are not ratios; not chunk-exact)."""

    __slots__ = ("n", "s1", "s2", "lo", "hi")

    def __init__(self):
        self.n, self.s1, self.s2 = 0, 0, 0
        self.lo = self.hi = None

    def _extremes(self, lo, hi) -> None:
        self.lo = lo if self.lo is None or lo < self.lo else self.lo
        self.hi = hi if self.hi is None or hi > self.hi else self.hi

    def add(self, x) -> Sums:
        """Whole numbers."""
        x = np.asarray(x, dtype=np.int64)
        if x.size:
            self.n += int(x.size)
            self.s1 += int(x.sum())
            self.s2 += int((x * x).sum())
            self._extremes(int(x.min()), int(x.max()))
        return self

    def add_ratio(self, num, den) -> Sums:
        """The values ``num / den`` (whole numbers; values with ``den == 0`` are left out)."""
        num, den = np.asarray(num, np.int64), np.asarray(den, np.int64)
        keep = den != 0
        if not keep.all():
            num, den = num[keep], den[keep]
        if not den.size:
            return self
        if (den == den[0]).all():                     # the usual case: one denominator
            groups = [(int(den[0]), num)]
        else:
            groups = [(int(e), num[den == e]) for e in np.unique(den)]
        for e, k in groups:
            self.n += int(k.size)
            self.s1 += Fraction(int(k.sum()), e)
            self.s2 += Fraction(int((k * k).sum()), e * e)
            self._extremes(Fraction(int(k.min()), e), Fraction(int(k.max()), e))
        return self

    def add_floats(self, x) -> Sums:
        x = np.asarray(x, dtype=float)
        if x.size:
            self.n += int(x.size)
            self.s1 += float(x.sum())
            self.s2 += float((x * x).sum())
            self._extremes(float(x.min()), float(x.max()))
        return self

    def merge(self, other: Sums) -> Sums:
        if other.n:
            self.n += other.n
            self.s1 += other.s1
            self.s2 += other.s2
            self._extremes(other.lo, other.hi)
        return self

    @property
    def varies(self) -> bool:
        return self.n > 1 and self.hi > self.lo

    @property
    def mean(self) -> float:
        return float(Fraction(self.s1) / self.n) if self.n else math.nan

    @property
    def sd(self) -> float:
        """Sample standard deviation (n - 1); 0 when every value is equal, NaN below 2."""
        if self.n < 2:
            return math.nan
        if not self.varies:
            return 0.0
        if isinstance(self.s1, float) or isinstance(self.s2, float):
            var = (self.s2 - self.s1 * self.s1 / self.n) / (self.n - 1)
        else:
            var = (Fraction(self.s2) - Fraction(self.s1) ** 2 / self.n) / (self.n - 1)
        return math.sqrt(max(float(var), 0.0))

    def ci(self, lo: float, hi: float, alpha: float = ALPHA
           ) -> tuple[float, float, float, int, str]:
        """``(mean, low, high, n, method)`` by ``bounded_interval``."""
        if not hi > lo:
            raise ValueError(f"an interval needs lo < hi, got [{lo}, {hi}]")
        if self.n == 0:
            return (math.nan, math.nan, math.nan, 0, "none")
        if self.lo < lo or self.hi > hi:
            raise ValueError(f"values outside their bounds [{lo}, {hi}]: "
                             f"min {float(self.lo)}, max {float(self.hi)}")
        mean = self.mean
        low, high, method = bounded_interval(self.n, mean, self.sd, lo, hi, alpha)
        return (mean, low, high, self.n, method)

    def __repr__(self) -> str:
        return f"Sums(n={self.n}, mean={self.mean:.6g}, lo={self.lo}, hi={self.hi})"


def add_columns(sums: list[Sums], x) -> None:
    """``sums[j].add(x[:, j])`` for every column of a whole-number matrix, in one pass."""
    x = np.asarray(x, dtype=np.int64)
    if not x.shape[0]:
        return
    s1, s2 = x.sum(axis=0), (x * x).sum(axis=0)
    lo, hi = x.min(axis=0), x.max(axis=0)
    n = int(x.shape[0])
    for j, s in enumerate(sums):
        s.n += n
        s.s1 += int(s1[j])
        s.s2 += int(s2[j])
        s._extremes(int(lo[j]), int(hi[j]))


class Tally:
    """How often each whole value ``>= 0`` occurred: exact sums, quantiles and box-plot
    numbers of a per-game count without its games."""

    __slots__ = ("counts",)

    def __init__(self, size: int = 0):
        self.counts = np.zeros(size, np.int64)

    def add(self, x) -> Tally:
        x = np.asarray(x, dtype=np.int64)
        if x.size:
            if x.min() < 0:
                raise ValueError("a tally counts values >= 0")
            c = np.bincount(x)
            self._grow(len(c))
            self.counts[:len(c)] += c
        return self

    def _grow(self, size: int) -> None:
        if size > len(self.counts):
            self.counts = np.concatenate([self.counts, np.zeros(size - len(self.counts),
                                                                np.int64)])

    def merge(self, other: Tally) -> Tally:
        self._grow(len(other.counts))
        self.counts[:len(other.counts)] += other.counts
        return self

    @property
    def n(self) -> int:
        return int(self.counts.sum())

    def sums(self) -> Sums:
        s = Sums()
        values = np.nonzero(self.counts)[0]
        if len(values):
            c = self.counts[values]
            s.n = int(c.sum())
            s.s1 = int((c * values).sum())
            s.s2 = int((c * values * values).sum())
            s.lo, s.hi = int(values[0]), int(values[-1])
        return s

    def ci(self, lo: float, hi: float, alpha: float = ALPHA):
        return self.sums().ci(lo, hi, alpha)

    def _order(self, k: int) -> int:
        """The value of rank ``k`` (0-based) in sorted order."""
        return int(np.searchsorted(np.cumsum(self.counts), k, side="right"))

    def quantile(self, q: float) -> float:
        """As ``numpy.percentile(values, 100 q)`` (linear interpolation)."""
        n = self.n
        h = (n - 1) * q
        k = math.floor(h)
        a = self._order(k)
        b = self._order(min(k + 1, n - 1))
        return a + (h - k) * (b - a)

    def boxplot(self, whis: float = 1.5) -> dict:
        """matplotlib's ``cbook.boxplot_stats`` of the values (one dict), except that
        ``fliers`` holds each outlying value once and ``flier_counts`` how often it occurred."""
        n = self.n
        q1, med, q3 = self.quantile(0.25), self.quantile(0.5), self.quantile(0.75)
        iqr = q3 - q1
        values = np.nonzero(self.counts)[0]
        inside_hi = values[values <= q3 + whis * iqr]
        inside_lo = values[values >= q1 - whis * iqr]
        whishi = float(inside_hi.max()) if len(inside_hi) and inside_hi.max() > q3 else q3
        whislo = float(inside_lo.min()) if len(inside_lo) and inside_lo.min() < q1 else q1
        out = values[(values < whislo) | (values > whishi)]
        total = self.sums()
        mean = total.s1 / n
        notch = 1.57 * iqr / math.sqrt(n)
        return {"mean": mean, "iqr": iqr, "cilo": med - notch, "cihi": med + notch,
                "whishi": whishi, "whislo": whislo, "fliers": out.astype(float),
                "flier_counts": self.counts[out], "q1": q1, "med": med, "q3": q3}
