"""experiments.verdicts.inference: the fixed and anytime-valid intervals, their p-values, the
constant-sample bound and the games for 80% power -- each checked against a closed form, a
library, or a simulation where the truth is known. No engine."""
from __future__ import annotations

import math

import numpy as np
import pytest
from scipy import stats as sps
from statsmodels.stats.proportion import proportion_confint
from statsmodels.stats.weightstats import DescrStatsW

from experiments.verdicts import inference as I

pytestmark = pytest.mark.engine_free

SEQ = I.Look(True, 40_000, 2)


def test_the_fixed_interval_is_the_t_interval_and_wilson_for_a_rate():
    x = np.random.default_rng(1).normal(0.3, 2.0, 500)
    lo, hi = I.interval(I.mean_of(x))
    want = DescrStatsW(x).tconfint_mean(0.05)
    assert (lo, hi) == pytest.approx(want, rel=1e-12)
    b = (np.arange(1000) % 7 == 0).astype(float)
    assert I.interval(I.mean_of(b, 0, 1)) == pytest.approx(
        proportion_confint(b.sum(), 1000, 0.05, "wilson"), rel=1e-12)


def test_the_boundary_solves_the_one_sided_mixture_and_is_tightest_near_t_opt():
    a, t_opt = 0.025, 40_000
    rho = I._rho(t_opt, a)
    for v in (100.0, 5_000.0, 40_000.0, 1e6):
        u = I.boundary(v, a, t_opt)
        assert I._log_mixture(u, v, rho) == pytest.approx(math.log(1 / a), abs=1e-9)
    # the half-width per unit sd, relative to the fixed one, is smallest near t_opt
    ratio = {n: I.radius(n, 0.05, SEQ) / I.radius(n, 0.05, I.FIXED)
             for n in (2_500, 10_000, 40_000, 160_000, 640_000)}
    assert min(ratio, key=ratio.get) in (10_000, 40_000, 160_000)
    assert 1.4 < ratio[40_000] < 1.7          # the price of looking at any time
    # one-sided at a is tighter than the two-sided closed form at 2a's both sides (Howard et al.)
    two = math.sqrt((40_000 + rho) * (math.log(1 + 40_000 / rho) + 2 * math.log(1 / a)))
    assert I.boundary(40_000.0, a, t_opt) < two


def test_a_random_walk_crosses_the_boundary_at_most_a_of_the_time_over_many_looks():
    """Gaussian increments, and Bernoulli(0.2) ones standardised by the running sd (the
    asymptotic confidence sequence): looked at after every 50 values up to 20,000 (400
    looks), the upper boundary at a = 2.5% is crossed in at most 2.5% of 4,000 paths."""
    rng = np.random.default_rng(7)
    paths, step, looks, a = 4000, 50, 400, 0.025
    ns = np.arange(1, looks + 1) * step
    u = np.array([I.boundary(float(n), a, 4_000.0) for n in ns])
    for kind in ("normal", "bernoulli"):
        crossed = np.zeros(paths, bool)
        total = np.zeros(paths)
        total2 = np.zeros(paths)
        for j in range(looks):
            if kind == "normal":
                x = rng.standard_normal((paths, step))
            else:
                x = (rng.random((paths, step)) < 0.2).astype(float) - 0.2
            total += x.sum(axis=1)
            total2 += (x * x).sum(axis=1)
            n = ns[j]
            sd = 1.0 if kind == "normal" else np.sqrt(np.maximum(
                total2 / n - (total / n) ** 2, 1e-12) * n / (n - 1))
            crossed |= total / sd >= u[j]
        rate = crossed.mean()
        assert rate <= a + 3 * math.sqrt(a * (1 - a) / paths), (kind, rate)


@pytest.mark.parametrize("look", [I.FIXED, SEQ], ids=["fixed", "sequential"])
def test_p_values_agree_with_the_interval_they_come_with(look):
    rng = np.random.default_rng(3)
    for _ in range(400):
        n = int(rng.integers(50, 5000))
        x = rng.normal(rng.normal(0, 0.05), 1, n)
        est = I.mean_of(x)
        lo, hi = I.interval(est, 0.05, look)
        edge = float(rng.normal(0, 0.1))
        assert (I.p_above(est, edge, look) < 0.025) == (lo > edge)
        assert (I.p_below(est, edge, look) < 0.025) == (hi < edge)
    b = I.mean_of((rng.random(800) < 0.1).astype(float), 0, 1)
    lo, _ = I.interval(b)
    assert I.p_above(b, lo) == pytest.approx(0.025, abs=1e-9)


def test_our_tost_p_is_statsmodels_tost_p():
    """The balance rule's TOST p (the larger one-sided p) is statsmodels' ttost_mean p, so a
    95% interval inside the margin and p < 0.025 agree (checked on 2,000 random samples)."""
    rng = np.random.default_rng(11)
    agree = 0
    for _ in range(2000):
        x = rng.normal(rng.normal(0, 0.3), 1, int(rng.integers(20, 400)))
        est = I.mean_of(x)
        ours = max(I.p_above(est, -0.25), I.p_below(est, 0.25))
        theirs = float(DescrStatsW(x).ttost_mean(-0.25, 0.25)[0])
        assert ours == pytest.approx(theirs, rel=1e-9, abs=1e-12)
        lo, hi = I.interval(est)
        agree += (ours < 0.025) == (-0.25 < lo and hi < 0.25)
    assert agree == 2000


def test_a_constant_sample_has_a_finite_interval_and_names_the_games_to_settle():
    """All 2,000 differences 0 (e.g. two settings that play the same games): the interval is
    the zero-of-n bound -- no game differed, so at most 1 - 0.025**(1/n) of games could -- not
    NaN, and it shrinks like 1/n, so a tolerance is met at a stated number of games."""
    est = I.mean_of(np.zeros(2000), -1, 1)
    lo, hi = I.interval(est)
    q = 1 - 0.025 ** (1 / 2000)
    assert (lo, hi) == pytest.approx((-q, q))
    assert I.interval(est, look=SEQ) == (lo, hi)          # anytime-valid as it stands
    assert I.p_above(est, -0.01) < 0.025 and I.p_above(est, -q / 2) > 0.025
    need = I.games_for(est, 0.0005)
    assert I.interval(I.mean_of(np.zeros(need), -1, 1))[1] < 0.0005
    assert I.interval(I.mean_of(np.zeros(need - 50), -1, 1))[1] > 0.0005 * 0.97


@pytest.mark.parametrize("look", [I.FIXED, SEQ], ids=["fixed", "sequential"])
def test_games_for_80_percent_power_give_80_percent_power(look):
    """With the effect and spread known, the advised n clears the room in at least 80% of
    3,000 simulated runs (and the formula's n is not far above what is needed)."""
    rng = np.random.default_rng(5)
    sd, room = 0.45, 0.01
    est = I.Estimate(0.0, sd, 1000)
    n = I.games_for(est, room, 0.05, look)
    if not look.sequential:
        z = sps.norm.ppf(0.975) + sps.norm.ppf(0.8)
        assert n == math.ceil((z * sd / room) ** 2)
    means = rng.normal(room, sd / math.sqrt(n), 3000)            # the truth is `room` away
    half = sd * I.radius(n, 0.05, look)
    power = np.mean(means - half > 0)
    assert 0.78 <= power <= 0.83
