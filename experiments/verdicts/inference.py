"""Intervals, p-values and games for 80% power of a mean over game indices, at one look or at
any look of a run that is extended and judged again.

Every verdict reduces what it measures to one value per **game index** (the unit: the games of
one index share tiles, dice and seeds), so each estimate is a mean of ``n`` independent values
with a standard deviation ``sd`` (``Estimate``). A smooth function of several means (a spread,
a ratio) enters the same way through its influence values (the delta method).

How an interval is read depends on the look (``Look``):

* **fixed** -- the run's first judgment, at the size it was planned for: the t interval of the
  mean (Wilson for a rate of 0/1 values). Each one-sided conclusion drawn from the two-sided
  ``1 - alpha`` interval errs at most ``alpha / 2``.
* **sequential** -- every judgment after a run was extended, and every round of
  ``study --until-settled``: an *anytime-valid confidence sequence*, which covers the truth at
  every look at once, however many looks are taken and whenever one stops. Its two sides are
  one-sided normal-mixture boundaries (Howard, Ramdas, McAuliffe and Sekhon 2021, "Time-uniform,
  nonparametric, nonasymptotic confidence sequences", eq. 14; the ``confseq`` library's
  ``OneSidedNormalMixture``), each crossed with probability at most ``alpha / 2``, applied to
  the standardised mean with the running estimate of ``sd`` (Waudby-Smith, Arbour, Sinha,
  Kennedy and Ramdas 2021, "Time-uniform central limit theory and asymptotic confidence
  sequences"). The boundary is tuned, before any game is seen, to be tightest at ``t_opt``
  indices.

So a run judged once errs at most ``alpha / 2`` per kind of wrong conclusion, and a run judged
at its planned size and then again at any later sizes at most ``alpha / 2 + alpha / 2 =
alpha``. (``confseq`` itself is a C++ source package needing Boost, at version 0.0.11 with no
wheel; the two formulas it would give us are a few lines here, checked against the paper's
closed form and by simulation in ``tests/test_inference.py``.)

A sample whose values are all equal has no spread to estimate: its interval is then the exact
"zero of n games differed" bound (one-sided Clopper-Pearson, ``1 - (alpha/2)**(1/n)`` of the
range on each side), which is anytime-valid as it stands (the event "no game differed in the
first n" only shrinks as n grows).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from functools import lru_cache

import numpy as np
from scipy import special  # scipy.stats' own t and normal functions, without its import

ALPHA = 0.05                 # each verdict's error budget (see the module docstring)
POWER = 0.80                 # what "games to settle" aims at
T_OPT_FACTOR = 4             # a sequential look is tuned to 4 x the first look's games


@dataclass(frozen=True)
class Look:
    """How intervals are read at one judgment: ``fixed`` (the first look at a planned size) or
    ``sequential`` (a confidence sequence tuned to ``t_opt`` indices). ``number`` is how many
    looks the run has had, this one included."""
    sequential: bool = False
    t_opt: int = 0
    number: int = 1

    @property
    def kind(self) -> str:
        return "anytime-valid" if self.sequential else "fixed"

    def next(self, n_first: int) -> Look:
        """The look a later judgment of the same games gets (always sequential)."""
        return Look(True, self.t_opt or T_OPT_FACTOR * max(int(n_first), 1), self.number + 1)


FIXED = Look()


@dataclass(frozen=True)
class Estimate:
    """The mean ``value`` of ``n`` per-index values with standard deviation ``sd``. ``lo`` and
    ``hi`` bound a single value (they clip intervals and size the constant-sample bound);
    ``bounded``: the per-index values are known to lie in ``[lo, hi]`` (a mean of bounded
    values, not a delta-method function of means), which lets a sequential look at a small
    sample use the non-asymptotic sequence (``SMALL``). ``binary`` marks a share of 0/1
    values, kept through a shift or a mirror as ``value = offset + sign * share`` (Wilson on
    the share itself at a fixed look). ``constant``: every value equal."""
    value: float
    sd: float
    n: int
    lo: float = -math.inf
    hi: float = math.inf
    binary: bool = False
    constant: bool = False
    offset: float = 0.0
    sign: int = 1
    bounded: bool = False

    def shifted(self, by: float) -> Estimate:
        """The same estimate of ``value - by`` (the difference from a target)."""
        return Estimate(self.value - by, self.sd, self.n, self.lo - by, self.hi - by,
                        self.binary, self.constant, self.offset - by, self.sign, self.bounded)

    def mirrored(self) -> Estimate:
        """The estimate of ``-value`` (a claim on the lower side, read on the upper side)."""
        return Estimate(-self.value, self.sd, self.n, -self.hi, -self.lo, self.binary,
                        self.constant, -self.offset, -self.sign, self.bounded)

    @property
    def share(self) -> float:
        """The 0/1 share behind a ``binary`` estimate."""
        return (self.value - self.offset) * self.sign


def mean_of(x, lo: float = -math.inf, hi: float = math.inf) -> Estimate:
    """The estimate of the mean of per-index values ``x`` known to lie in ``[lo, hi]``."""
    x = np.asarray(x, dtype=float)
    n = int(x.size)
    if n == 0:
        return Estimate(math.nan, math.nan, 0, lo, hi)
    value = float(x.mean())
    constant = bool(np.ptp(x) == 0)
    sd = 0.0 if constant or n < 2 else float(x.std(ddof=1))
    binary = bool(lo == 0 and hi == 1 and np.all((x == 0) | (x == 1)))
    inside = bool(math.isfinite(lo) and math.isfinite(hi) and x.min() >= lo and x.max() <= hi)
    return Estimate(value, sd, n, lo, hi, binary, constant, bounded=inside)


def of_influence(value: float, psi, lo: float = -math.inf, hi: float = math.inf) -> Estimate:
    """A smooth function of means, ``value``, with its per-index influence values ``psi`` (the
    delta method: ``value``'s standard error is ``sd(psi) / sqrt(n)``)."""
    psi = np.asarray(psi, dtype=float)
    n = int(psi.size)
    if n == 0:
        return Estimate(math.nan, math.nan, 0, lo, hi)
    constant = bool(np.ptp(psi) == 0)
    sd = 0.0 if constant or n < 2 else float(psi.std(ddof=1))
    return Estimate(float(value), sd, n, lo, hi, False, constant)


# ------------------------------------------------------------------------------ the boundary
def _rho(t_opt: float, a: float) -> float:
    """The mixture's tuning for a one-sided crossing probability ``a``, tightest near
    ``t_opt`` (confseq's ``OneSidedNormalMixture::best_rho``: the two-sided rule at 2a)."""
    la = math.log(1 / (2 * a))
    return t_opt / (2 * la + math.log(1 + 2 * la))


def _log_mixture(s: float, v: float, rho: float) -> float:
    """log of the one-sided normal-mixture supermartingale at sum ``s`` and time ``v``."""
    return (0.5 * math.log(4 * rho / (v + rho)) + s * s / (2 * (v + rho))
            + float(special.log_ndtr(s / math.sqrt(v + rho))))


@lru_cache(maxsize=65536)
def boundary(v: float, a: float, t_opt: float) -> float:
    """The one-sided boundary ``u(v)``: a standardised sum (unit variance per index) crosses
    ``u`` at some time with probability at most ``a``."""
    rho = _rho(t_opt, a)
    target = math.log(1 / a)
    f = lambda s: _log_mixture(s, v, rho) - target      # noqa: E731
    hi = max(math.sqrt(v), 1.0)
    while f(hi) < 0:
        hi *= 2
    from scipy import optimize
    return float(optimize.brentq(f, 0.0, hi, xtol=1e-12, rtol=1e-12))


def radius(n: int, alpha: float, look: Look) -> float:
    """Half-width of the two-sided ``1 - alpha`` interval of a mean of ``n`` values with unit
    sd at this look (fixed: a t quantile over sqrt(n); sequential: the boundary over n)."""
    if n < 2:
        return math.inf
    if look.sequential:
        return boundary(float(n), alpha / 2, float(look.t_opt or n)) / n
    return _t(1 - alpha / 2, n - 1) / math.sqrt(n)


@lru_cache(maxsize=65536)
def _t(q: float, df: int) -> float:
    return float(special.stdtrit(df, q))


@lru_cache(maxsize=1024)
def _z(q: float) -> float:
    return float(special.ndtri(q))


def _zero_of_n(n: int, a: float) -> float:
    """The largest share of games that could differ when none of ``n`` did (one-sided
    Clopper-Pearson at ``a``)."""
    return 1.0 - a ** (1.0 / n) if n > 0 else 1.0


# ------------------------------------------------------------------------------ small samples
# The normal-mixture sequence above is valid as n grows (it standardises by the running sd);
# for a share near 0 or 1 at a small n it is not yet: with a first look of 100 games and a
# share of 0.05 one side was crossed 5.3% of the time against 2.5%, and 8-15 times its level at
# the race's Bonferroni levels (the few wins make the running sd small). So a sequential look
# at a mean of bounded values that lies near one end of its range reads a non-asymptotic
# sequence instead: when ``n * min(p, 1 - p)``, ``p`` the mean's place in its range ``(value -
# lo) / (hi - lo)`` (for a share, the share), is below ``SMALL * z(1 - a)**2`` at a one-sided
# level ``a`` (the farther into the tail, the more games a normal approximation needs). A mean
# in the middle of its range (a paired difference, a slope over seats) keeps the normal
# mixture: its running sd is no longer made small by a bound. ``SMALL`` was set by simulation
# (``experiments.verdicts.calibration_sequences``; docs/calibration.md, "Small samples").
SMALL = 12.0


def _small(est: Estimate, a: float) -> bool:
    """A sequential look at ``est`` at one-sided level ``a`` takes the non-asymptotic sequence
    (see ``SMALL``)."""
    span = est.hi - est.lo
    if not (est.bounded and math.isfinite(span) and span > 0):
        return False
    p = min(max((est.value - est.lo) / span, 0.0), 1.0)
    return bool(est.n * min(p, 1.0 - p) < SMALL * _z(1 - a) ** 2)


def _log_beta_mixture(s: float, t: float, p: float, c: float) -> float:
    """log of the one-sided beta-binomial mixture at mean ``p`` after ``t`` values in [0, 1]
    summing to ``s``: the Bernoulli likelihood ratio ``prod (theta/p)^x ((1-theta)/(1-p))^(1-x)``
    mixed over ``theta > p`` with a Beta(``c p``, ``c (1 - p)``) prior. For any value ``x`` in
    [0, 1] of mean ``p`` (or less) each factor has expectation at most 1 (it is convex in x, so
    below its chord, whose mean is 1), so the mixture is a nonnegative supermartingale however
    the values are distributed and Ville's inequality bounds its crossing of ``1 / a`` at any
    time by ``a``: a sequence valid at every n, with no normal approximation. It needs only the
    sum, which the moments keep."""
    a0, b0 = c * p, c * (1.0 - p)
    big_a, big_b = a0 + s, b0 + t - s
    tail = special.betaincc(big_a, big_b, p)
    prior = special.betaincc(a0, b0, p)
    if tail <= 0.0:
        return -math.inf
    return (float(special.betaln(big_a, big_b)) + math.log(tail)
            - float(special.betaln(a0, b0)) - math.log(prior)
            - s * math.log(p) - (t - s) * math.log1p(-p))


def _concentration(t_opt: float, a: float) -> float:
    """The prior's ``c``: its variance ``p (1 - p) / (c + 1)`` matches the normal mixture's
    tuning ``rho`` (tightest near ``t_opt``)."""
    return max(_rho(t_opt, a) - 1.0, 1.0)


@lru_cache(maxsize=65536)
def _beta_lower(s: float, t: float, a: float, c: float) -> float:
    """The lower end of the one-sided ``1 - a`` sequence of a [0, 1] mean: the smallest p
    the mixture has not rejected."""
    if s <= 0:
        return 0.0
    mean = s / t
    target = math.log(1.0 / a)
    g = lambda p: _log_beta_mixture(s, t, p, c) - target    # noqa: E731
    tiny = 1e-300
    if g(tiny) <= 0:
        return 0.0
    if g(mean) >= 0:
        return mean
    from scipy import optimize
    return float(optimize.brentq(g, tiny, mean, xtol=1e-14, rtol=1e-12))


def _rescaled(est: Estimate) -> tuple[float, float]:
    """``(sum, n)`` of the values mapped onto [0, 1] by their bounds."""
    span = est.hi - est.lo
    return (min(max((est.value - est.lo) / span, 0.0), 1.0) * est.n, float(est.n))


def small_interval(est: Estimate, alpha: float, look: Look) -> tuple[float, float]:
    """The non-asymptotic two-sided ``1 - alpha`` sequence of a mean of bounded values: each
    side a one-sided beta-binomial mixture at ``alpha / 2``, mapped back from [0, 1]."""
    s, t = _rescaled(est)
    a = alpha / 2
    c = _concentration(float(look.t_opt or est.n), a)
    span = est.hi - est.lo
    lower = _beta_lower(s, t, a, c)
    upper = 1.0 - _beta_lower(t - s, t, a, c)
    return (est.lo + span * lower, est.lo + span * upper)


def _small_p_above(est: Estimate, edge: float, look: Look) -> float:
    span = est.hi - est.lo
    s, t = _rescaled(est)
    e = (edge - est.lo) / span
    if e < 0:
        return 0.0
    if e >= 1 or s / t <= e:
        return 1.0
    if e == 0:
        return 0.0
    c = _concentration(float(look.t_opt or est.n), ALPHA / 2)
    return float(min(1.0, math.exp(-_log_beta_mixture(s, t, e, c))))


# ------------------------------------------------------------------------------ intervals
def _wilson(est: Estimate, alpha: float) -> tuple[float, float]:
    """Wilson's interval of the 0/1 share behind ``est``, mapped to ``est``'s scale."""
    from statsmodels.stats.proportion import proportion_confint
    share = min(max(est.share, 0.0), 1.0)
    lo, hi = proportion_confint(share * est.n, est.n, alpha=alpha, method="wilson")
    lo, hi = float(lo), float(hi)
    if est.sign > 0:
        return (est.offset + lo, est.offset + hi)
    return (est.offset - hi, est.offset - lo)


def interval(est: Estimate, alpha: float = ALPHA, look: Look = FIXED) -> tuple[float, float]:
    """The two-sided ``1 - alpha`` interval of the mean at this look, clipped to its bounds."""
    if est.n == 0 or math.isnan(est.value):
        return (math.nan, math.nan)
    if est.constant:
        if not (math.isfinite(est.lo) and math.isfinite(est.hi)):
            raise ValueError("a constant sample needs finite bounds for its interval")
        q = _zero_of_n(est.n, alpha / 2)
        return (est.value - (est.value - est.lo) * q, est.value + (est.hi - est.value) * q)
    if est.n < 2:
        return (est.lo, est.hi)
    if est.binary and not look.sequential:
        return _wilson(est, alpha)
    if look.sequential and _small(est, alpha / 2):
        return small_interval(est, alpha, look)
    half = est.sd * radius(est.n, alpha, look)
    return (max(est.lo, est.value - half), min(est.hi, est.value + half))


def _wilson_p_above(share: float, edge: float, n: int) -> float:
    """The score test's p of "the share is above ``edge``" (consistent with Wilson)."""
    if edge <= 0:
        return 0.0
    if edge >= 1:
        return 1.0
    z = (share - edge) / math.sqrt(edge * (1 - edge) / n)
    return float(special.ndtr(-z))


def p_above(est: Estimate, edge: float, look: Look = FIXED) -> float:
    """One-sided p-value of "the mean is above ``edge``", consistent with ``interval``: it is
    below ``alpha / 2`` exactly when the ``1 - alpha`` interval lies above ``edge``."""
    if est.n == 0 or math.isnan(est.value):
        return math.nan
    if est.constant:                        # none of n games differed from the value
        if edge >= est.value:
            return 1.0
        below = est.value - est.lo          # how far one game could fall
        q = (est.value - edge) / below if below > 0 else math.inf
        return 0.0 if q >= 1 else float((1.0 - q) ** est.n)
    if est.n < 2:
        return 1.0
    if est.binary and not look.sequential:
        share = min(max(est.share, 0.0), 1.0)
        if est.sign > 0:                    # value > edge: the share above edge - offset
            return _wilson_p_above(share, edge - est.offset, est.n)
        return _wilson_p_above(1.0 - share, 1.0 - (est.offset - edge), est.n)
    if est.sd == 0:
        return 0.0 if est.value > edge else 1.0
    if look.sequential:
        if _small(est, ALPHA / 2):
            return _small_p_above(est, edge, look)
        s = est.n * (est.value - edge) / est.sd
        if s <= 0:
            return 1.0
        rho = _rho(float(look.t_opt or est.n), ALPHA / 2)
        return float(min(1.0, math.exp(-_log_mixture(s, float(est.n), rho))))
    t = (est.value - edge) / (est.sd / math.sqrt(est.n))
    return float(special.stdtr(est.n - 1, -t))


def p_below(est: Estimate, edge: float, look: Look = FIXED) -> float:
    """One-sided p-value of "the mean is below ``edge``"."""
    return p_above(est.mirrored(), -edge, look)


def fieller(num: float, den: float, cov: tuple[float, float, float], n: int,
            alpha: float = ALPHA, look: Look = FIXED) -> tuple[float, float] | None:
    """Fieller's interval of the ratio ``num / den`` of two estimates over the same ``n``
    indices, with per-index (co)variances ``cov = (var num, var den, cov)``: every r with
    ``|num - r den| <= radius * sd(num - r den)`` at this look's radius. A decision about the
    ratio against a fixed r0 is then the linear test of ``num - r0 den``, which stays right
    when ``den`` is noisy. None when ``den`` is not shown away from 0 (an unbounded set)."""
    if n < 2:
        return None
    snn, sdd, snd = cov
    r2 = (radius(n, alpha, look) * math.sqrt(n)) ** 2 / n
    qa = den * den - r2 * sdd
    if qa <= 0:
        return None
    qb = num * den - r2 * snd
    qc = num * num - r2 * snn
    root = math.sqrt(max(qb * qb - qa * qc, 0.0))
    return ((qb - root) / qa, (qb + root) / qa)


# ------------------------------------------------------------------------------ power
def games_for(est: Estimate, room: float, alpha: float = ALPHA, look: Look = FIXED,
              power: float = POWER) -> int | None:
    """Games at which the ``1 - alpha`` interval, read at ``look``, clears a gap of ``room``
    from the estimate with probability ``power``, if the estimate and its spread are the truth.

    Fixed: ``n = ((z(1 - alpha/2) + z(power)) * sd / room)**2``. Sequential: the smallest n with
    ``sd * (u(n) / n + z(power) / sqrt(n)) <= room``, ``u`` the boundary of ``boundary``. A
    constant sample: the n at which the zero-of-n bound is narrower than ``room``. None when
    nothing can settle it (no room, no spread known)."""
    if not (room > 0) or est.n == 0 or math.isnan(est.sd):
        return None
    if est.constant:
        span = max(est.hi - est.value, est.value - est.lo)
        if not math.isfinite(span) or span <= 0:
            return None
        q = min(room / span, 1.0)
        if q >= 1:
            return 2
        return max(2, int(math.ceil(math.log(alpha / 2) / math.log1p(-q))))
    sd = est.sd if est.sd > 0 else math.nan
    if math.isnan(sd):
        return None
    zp = _z(power)
    if not look.sequential:
        return max(2, int(math.ceil(((_z(1 - alpha / 2) + zp) * sd / room) ** 2)))
    # the boundary per unit sd, u(n)/n, falls with n: bisect on whole numbers of games,
    # to within 0.1% (the boundary is cached by n)
    target = room / sd

    def short(n: int) -> bool:
        return boundary(float(n), alpha / 2, float(look.t_opt)) / n + zp / math.sqrt(n) \
            <= target

    lo, hi = 2, 4
    while not short(hi):
        lo, hi = hi, hi * 2
        if hi > 10**15:
            return None
    while hi - lo > max(1, hi // 1000):
        mid = (lo + hi) // 2
        if short(mid):
            hi = mid
        else:
            lo = mid
    return int(hi)
