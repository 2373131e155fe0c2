"""The judges: each claim's measures computed from the per-index values of the settings it
needs (``experiments.units``), and its decision by the rule of ``experiments.claims``.

A judge gets the catalog, the entries of one style of play, the claim's parameters, the level
``alpha`` (lower when a summary across styles corrects for them) and the look. It returns one
``Found`` per scope: a stable description of the settings (``scope``, the key under which
looks are compared), what the data showed in words (``detail``), the decision and the test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from . import decisions as D
from .inference import ALPHA, FIXED, Estimate, Look, fieller, games_for, mean_of, p_above, p_below
from .units import Catalog, Entry, paired


@dataclass
class Found:
    scope: str
    detail: str
    decision: D.Decision
    test: str


# ------------------------------------------------------------------------------ measures
def slope(shares: np.ndarray) -> np.ndarray:
    """Per index, the least-squares slope of win share on seat position 1..N; its mean over
    indices is the slope through the seats' win shares."""
    n = shares.shape[1]
    c = np.arange(n) - (n - 1) / 2
    return shares @ (c / (c * c).sum())


def spread(shares: np.ndarray) -> tuple[float, np.ndarray]:
    """The squared seat spread of a table and its influence values per index: the sum over
    seats of (mean win share - 1/N)**2, less the sampling noise of the means (``sum var /
    n``), so that it is unbiased -- about 0 for a balanced table however few games it has.
    Delta method: index g's influence is ``2 (m - 1/N) . (s_g - m)``. The squared form is
    smooth (its root is not, near 0), so its interval holds at the n a study plays."""
    n, seats = shares.shape
    m = shares.mean(axis=0)
    noise = float(shares.var(axis=0, ddof=1).sum() / n) if n > 1 else 0.0
    value = float(((m - 1 / seats) ** 2).sum()) - noise
    return value, (shares - m) @ (2 * (m - 1 / seats))


def spreads(tables: list[np.ndarray], weights: list[float]) -> tuple[float, np.ndarray, float]:
    """``(value, influence, sd)`` of a weighted sum of squared spreads of tables paired on the
    same indices. The influence values' variance overstates the sum's: the gradient ``2 (m -
    1/N)`` carries the means' noise, which adds ``4 tr(C_kl C_lk) / n`` per pair of terms where
    the sum's own quadratic part adds only half of it (a Gaussian quadratic form); ``sd`` takes
    the difference off, so the interval is right also where a spread is near 0."""
    value, psi = 0.0, 0.0
    for w, t in zip(weights, tables):
        q, ps = spread(t)
        value += w * q
        psi = psi + w * ps
    n = tables[0].shape[0]
    x = np.hstack([t - t.mean(axis=0) for t in tables])
    c = x.T @ x / max(n - 1, 1)
    k = tables[0].shape[1]
    bias = 0.0
    for a, wa in enumerate(weights):
        for b, wb in enumerate(weights):
            cab = c[a * k:(a + 1) * k, b * k:(b + 1) * k]
            bias += wa * wb * float(np.trace(cab @ cab.T))
    var = float(np.var(psi, ddof=1)) if n > 1 else 0.0
    return value, psi, math.sqrt(max(var - 2 * bias / n, 0.25 * var))


def rms(q: float, seats: int) -> float:
    """The root-mean-square distance of the seats from 1/N, from a squared spread."""
    return math.sqrt(max(q, 0.0) / seats)


def _pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def _iv(lo: float, hi: float) -> str:
    return f"[{_pp(lo)}, {_pp(hi)}]"


# ------------------------------------------------------------------------------ selections
BASE = dict(challenges=frozenset(), squid=False, squid_only=False)


def default_tb(players: int) -> str:
    return "chain" if players >= 5 else "shared"


def scope_of(e: Entry) -> str:
    m = e.meta
    ch = ",".join(map(str, sorted(m["challenges"])))
    return (f"{m['players']} players, {m['allocation']} boats, "
            f"{'Challenge ' + ch if ch else 'base game'}, {m['tiebreak']} tie-break"
            + (", squid only" if m["squid_only"] else ", squid" if m["squid"] else ""))


def _at_own_rule(cat: Catalog, entries, **want) -> list[Entry]:
    """The base-game entries matching ``want`` under their player count's own tie-break (one
    row per comparison, not one per tie-break twin)."""
    return [e for e in cat.find(entries, **BASE, **want) if e.own == default_tb(e.players)]


def _twin(cat: Catalog, entries, e: Entry, **differ) -> Entry | None:
    """The entry equal to ``e`` in everything but ``differ``."""
    want = {**e.meta, **differ}
    want.pop("seed", None)
    found = [x for x in cat.find(entries, **want) if x is not e]
    same_seed = [x for x in found if x.meta["seed"] == e.meta["seed"]]
    return (same_seed or found or [None])[0]


# ------------------------------------------------------------------------------ the judges
def s1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, tol = [], p["tolerance"]
    for e in _at_own_rule(cat, entries, allocation="flat", players=lambda n: n >= 5):
        u = cat.units(e)
        sh, n = u.shares(), e.players
        fair = 1 / n
        sl = mean_of(slope(sh), -1, 1)
        first = mean_of(sh[:, 0], 0, 1).shifted(fair)
        by_slope = D.direction(sl, tol / (n - 1), -1, alpha / 2, look)
        by_first = D.direction(first, tol, +1, alpha / 2, look)
        seats = D.balance([(f"seat {s + 1}", mean_of(sh[:, s], 0, 1).shifted(fair))
                           for s in range(n)], tol, alpha, look)
        rising = D.direction(sl, 0.0, +1, alpha / 2, look)
        behind = D.direction(first, 0.0, -1, alpha / 2, look)
        real = D.SETTLED - {D.REFUTED}
        if D.SUPPORTED in (by_slope.verdict, by_first.verdict):
            verdict = D.SUPPORTED
        elif seats.verdict == D.SUPPORTED:
            verdict = D.NEGLIGIBLE if (by_slope.verdict in real or by_first.verdict in real) \
                else D.REFUTED
        elif rising.verdict == D.SUPPORTED and behind.verdict == D.SUPPORTED:
            verdict = D.REFUTED
        else:
            verdict = D.INCONCLUSIVE
        if first.value > tol or -sl.value > tol / (n - 1):
            need = min([x for x in (by_first.games_needed, by_slope.games_needed) if x],
                       default=None)
        elif all(abs(x[1]) < tol for x in seats.parts):
            need = seats.games_needed
        else:
            need = max(x.games_needed or 0 for x in (rising, behind)) or None
        p_support = min(1.0, 2 * min(by_slope.p_value, by_first.p_value))
        worst = max(seats.parts, key=lambda t: abs(t[1]))
        detail = (f"seat 1 {_pp(first.value)} pp {_iv(by_first.low, by_first.high)} "
                  f"(97.5%); slope {_pp(sl.value)} pp per seat {_iv(by_slope.low, by_slope.high)}"
                  f" (97.5%); farthest seat from 1/N: {worst[0]} {_pp(worst[1])} pp "
                  f"{_iv(worst[2], worst[3])}")
        dec = D.Decision(verdict, first.value, by_first.low, by_first.high, u.n, p_support,
                         need, seats.parts)
        out.append(Found(scope_of(e), detail, dec, "seat 1's excess and the slope over seats "
                         "(t over game indices, Bonferroni over the two), TOST per seat"))
    return out


def s1b(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, tol = [], p["tolerance"]
    for e in _at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 5):
        u = cat.units(e)
        sh, fair = u.shares(), 1 / e.players
        dec = D.balance([(f"seat {s + 1}", mean_of(sh[:, s], 0, 1).shifted(fair))
                         for s in range(e.players)], tol, alpha, look)
        worst = max(dec.parts, key=lambda t: abs(t[1]))
        seats = ", ".join(f"{name[5:]} {_pp(v)}" for name, v, _, _ in dec.parts)
        out.append(Found(scope_of(e), f"farthest from 1/N: {worst[0]}; seats' excess (pp): "
                         f"{seats}", dec, f"TOST per seat against 1/N ± {tol:g} "
                         f"(intersection-union; Bonferroni over the {e.players} seats to "
                         f"refute)"))
    return out


def s1c(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, tol = [], p["tolerance"]
    for a in _at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 5):
        b = _twin(cat, entries, a, allocation="flat")
        if b is None:
            continue
        ua, ub = cat.units(a), cat.units(b)
        ia, ib = paired(ua, ub)
        rules, flat = ua.shares()[ia], ub.shares()[ib]
        q_rules, _, sd_r = spreads([rules], [1.0])
        q_flat, _, sd_f = spreads([flat], [1.0])
        _, _, sd_d = spreads([rules, flat], [1.0, -1.0])
        cov = (sd_r ** 2, sd_f ** 2, (sd_r ** 2 + sd_f ** 2 - sd_d ** 2) / 2)
        n, m = a.players, len(ia)
        detail = (f"seat spread (root mean square of win share - 1/N): flat "
                  f"{100 * rms(q_flat, n):.2f} pp, rules {100 * rms(q_rules, n):.2f} pp")
        # the share removed is 1 - rho, rho = q_rules / q_flat: Fieller's interval of rho,
        # and the linear test of (1 - tol) q_flat - q_rules for the p and the advice
        rho = fieller(q_rules, q_flat, cov, m, alpha, look)
        value, psi, sd = spreads([flat, rules], [1 - tol, -1.0])
        line = Estimate(value, sd, m, -2, 2, False, bool(np.ptp(psi) == 0))
        nxt = look if look.sequential else look.next(m)
        # both the linear test and a bounded interval (flat's spread shown above 0): each
        # at 90% power, so that both hold together at 80% or more
        bounded = Estimate(q_flat, sd_f, m, 0, 1)
        parts = [games_for(line, abs(line.value), alpha, nxt, 0.9),
                 games_for(bounded, abs(q_flat), alpha, nxt, 0.9)]
        need = None if None in parts else max(parts)
        p_support = p_above(line, 0.0, look)
        removed = 1 - q_rules / q_flat if q_flat > 0 else math.nan
        if rho is None:                 # flat boats' spread not shown above 0 (yet)
            dec = D.Decision(D.INCONCLUSIVE, removed, math.nan, math.nan, m, p_support, need)
            detail += "; flat boats' spread is not yet shown above 0: no bounded interval"
        else:
            lo, hi = 1 - rho[1], 1 - rho[0]
            dec = D.Decision(D.direction_verdict(lo, hi, tol), removed, lo, hi, m, p_support,
                             need)
        out.append(Found(f"{scope_of(a)}, against flat boats", detail, dec,
                         "share of flat boats' squared seat spread that the rules' boats "
                         "remove (Fieller's interval over paired game indices)"))
    return out


def t1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, tol = [], p["tolerance"]
    for e in _at_own_rule(cat, entries, allocation="rules", players=lambda n: n in p["counts"]):
        if not {"chain", "shared"} <= set(cat.units(e).share):
            continue
        u = cat.units(e)
        x = slope(u.shares("chain")) - slope(u.shares("shared"))
        dec = D.direction(mean_of(x, -1, 1), tol / (e.players - 1), +1, alpha, look)
        out.append(Found(scope_of(e).replace(f", {e.own} tie-break", "")
                         + ", chain against shared on the same games", "", dec,
                         "paired difference of slopes over seats, chain - shared (t over game "
                         "indices)"))
    return out


def n3(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, tol = [], p["tolerance"]
    refs = [e for e in cat.find(entries, players=4, allocation="rules", **BASE)]
    if not refs:
        return out
    ref = refs[0]
    for e in _at_own_rule(cat, entries, players=lambda n: n >= 5, allocation="rules"):
        if e.mix() is None or e.mix() != ref.mix():
            continue                            # not like with like: the mix changes
        u, r = cat.units(e), cat.units(ref)
        ia, ir = paired(u, r)
        parts = [("rescued fraction", mean_of(u.rescued[ia] - r.rescued[ir], -1, 1)),
                 ("value fraction", mean_of(u.value[ia] - r.value[ir], -1, 1))]
        dec = D.balance(parts, tol, alpha, look)
        words = "; ".join(f"{name} {_pp(v)} pp {_iv(lo, hi)}" for name, v, lo, hi in dec.parts)
        out.append(Found(f"{scope_of(e)} against 4 players", words, dec,
                         f"paired TOST of the rescued and value fractions against ± {tol:g} "
                         f"(intersection-union; Bonferroni over the two to refute)"))
    return out


def t2(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, thr = [], p["threshold"]
    for e in cat.find(entries, players=lambda n: n <= 4, allocation="rules", **BASE):
        if e.own != "shared":
            continue
        u = cat.units(e)
        dec = D.threshold(mean_of(u.tie, 0, 1), thr, alpha, look)
        out.append(Found(scope_of(e), "", dec, f"interval of the tie rate against {thr:g}"))
    return out


def n1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    by = {}
    for e in cat.find(entries, allocation="rules", **BASE):
        if e.own == default_tb(e.players) and e.players not in by:
            by[e.players] = e
    if 4 not in by or len(by) < 2:
        return []
    tol = {"closeness": p["gap"], "decisiveness": p["ties"], "fairness": p["fairness"]}
    u4 = cat.units(by[4])
    tests = []                               # (measure, count, better p, not-better p, est)
    for k, e in sorted(by.items()):
        if k == 4:
            continue
        uk = cat.units(e)
        i4, ik = paired(u4, uk)
        fair, psi, sd = spreads([u4.shares()[i4], uk.shares()[ik]], [4.0, -float(k)])
        ests = {"closeness": mean_of(u4.gap[i4] - uk.gap[ik], -1, 1),
                "decisiveness": mean_of(u4.tie[i4] - uk.tie[ik], -1, 1),
                "fairness": Estimate(fair, sd, len(i4), -12, 12, False,
                                     bool(np.ptp(psi) == 0))}
        for name, est in ests.items():
            tests.append((name, k, p_below(est, -tol[name], look),
                          p_above(est, -tol[name], look), est))
    from statsmodels.stats.multitest import multipletests
    better = multipletests([t[2] for t in tests], alpha=alpha / 2, method="holm")[0]
    notbetter = multipletests([t[3] for t in tests], alpha=alpha / 2, method="holm")[0]
    best, lost, words = 0, 0, []
    for name in tol:
        mine = [i for i, t in enumerate(tests) if t[0] == name]
        b = [tests[i][1] for i in mine if better[i]]
        nb = [tests[i][1] for i in mine if notbetter[i]]
        best += len(b) == len(mine)
        lost += bool(nb)
        effects = ", ".join(f"vs {tests[i][1]}: {tests[i][4].value:+.4f}" for i in mine)
        words.append(f"{name}: better than {','.join(map(str, b)) or 'none'}"
                     + (f", not better than {','.join(map(str, nb))}" if nb else "")
                     + f" ({effects})")
    verdict = D.SUPPORTED if best >= 2 else D.REFUTED if lost >= 2 else D.INCONCLUSIVE
    n = min(cat.units(e).n for e in by.values())
    dec = D.Decision(verdict, float(best), math.nan, math.nan, n, math.nan, None)
    counts = ", ".join(map(str, sorted(by)))
    return [Found(f"{counts} players, base game, each count's own tie-break",
                  "4 players' " + "; ".join(words), dec,
                  "paired one-sided tests of 4 players' difference to each count on 3 "
                  "measures, Holm-adjusted")]


def c6(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for o in cat.find(entries, players=6, challenges=frozenset({6}), squid=False,
                      squid_only=False):
        base = [b for b in cat.find(entries, players=6, allocation="rules", **BASE)
                if b.own == o.own]
        if not base:
            continue
        uo, ub = cat.units(o), cat.units(base[0])
        io, ib = paired(uo, ub)
        lost = mean_of(uo.losses[io] - ub.losses[ib], -10, 10)
        resc = mean_of(uo.rescued[io] - ub.rescued[ib], -1, 1)
        both = [D.direction(lost, p["losses"], +1, alpha, look),
                D.direction(resc, p["rescued"], -1, alpha, look)]
        half = [D.direction(lost, p["losses"], +1, alpha / 2, look),
                D.direction(resc, p["rescued"], -1, alpha / 2, look)]
        if all(d.verdict == D.SUPPORTED for d in both):
            verdict = D.SUPPORTED
        elif any(d.verdict == D.REFUTED for d in half):
            verdict = D.REFUTED
        elif any(d.verdict == D.NEGLIGIBLE for d in half):
            verdict = D.NEGLIGIBLE
        else:
            verdict = D.INCONCLUSIVE
        need = max((d.games_needed or 0 for d in both), default=0) or None
        dec = D.Decision(verdict, lost.value, both[0].low, both[0].high, lost.n,
                         max(d.p_value for d in both), need)
        out.append(Found(f"{scope_of(o)} against the standard rules",
                         f"rescued fraction changes by {_pp(resc.value)} pp "
                         f"{_iv(both[1].low, both[1].high)}", dec,
                         "paired t over game indices: losses per player and rescued fraction"))
    return out


def e2(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for s in cat.find(entries, squid=True, challenges=frozenset()):
        base = [b for b in cat.find(entries, players=s.players, **BASE) if b.own == s.own
                and b.meta["allocation"] == s.meta["allocation"]]
        if not base:
            continue
        us, ub = cat.units(s), cat.units(base[0])
        i_s, ib = paired(us, ub)
        dec = D.direction(mean_of(us.losses[i_s] - ub.losses[ib], -10, 10), p["losses"], +1,
                          alpha, look)
        out.append(Found(f"{scope_of(s)} against the base game", "", dec,
                         "paired t over game indices: losses per player and game"))
    return out


def equal_settings(cat: Catalog, a: Entry, b: Entry, tol: float = 0.01, alpha=ALPHA,
                   look: Look = FIXED) -> Found:
    """The A/A check: do two settings play the same game? The balance rule on every seat's
    paired win-share difference (b - a) over the game indices both hold: equal (supported)
    when every seat's interval lies inside ±tol, different (refuted) when one lies outside.
    Settings that differ only in their name, or a setting against itself through a resume,
    play the very same games: every difference is 0, and the zero-of-n bound judges them
    equal at any n."""
    ua, ub = cat.units(a), cat.units(b)
    ia, ib = paired(ua, ub)
    sa, sb = ua.shares()[ia], ub.shares()[ib]
    dec = D.balance([(f"seat {s + 1}", mean_of(sb[:, s] - sa[:, s], -1, 1))
                     for s in range(sa.shape[1])], tol, alpha, look)
    return Found(f"{b.label} against {a.label}", "", dec,
                 f"paired TOST of every seat's win share against ± {tol:g}")


JUDGES = {"S1": s1, "S1b": s1b, "S1c": s1c, "N3": n3, "T1": t1, "T2": t2, "N1": n1, "C6": c6,
          "E2": e2}
# a claim that brings another with it (S1b's second part is S1c)
BRINGS = {"S1b": ("S1c",)}
