"""The judges: each claim's measures computed from the moments of the per-index values of the
settings it needs (``experiments.units``: ``cat.one(entry)``, ``cat.pair(a, b)``), and its
decision by the rule of ``experiments.claims``. Which settings a judge reads depends on what
they are, never on their games, so a dry run can learn them before a run is read.

A judge gets the catalog, the entries of one style of play, the claim's parameters, the level
``alpha`` (lower when a summary across styles corrects for them) and the look. It returns one
``Found`` per scope: a stable description of the settings (``scope``, the key under which
looks are compared), what the data showed in words (``detail``), the decision and the test.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from . import decisions as D
from .inference import ALPHA, FIXED, Estimate, Look, fieller, games_for, p_above, p_below
from .units import Catalog, Entry, Joint, spreads


@dataclass
class Found:
    scope: str
    detail: str
    decision: D.Decision
    test: str


# ------------------------------------------------------------------------------ measures
def _spread_est(j: Joint, tables, weights, lo: float, hi: float) -> Estimate:
    value, sd, constant = spreads(j, tables, weights)
    return Estimate(value, 0.0 if constant else sd, j.n, lo, hi, False, constant)


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
    return [first_seat(cat, e, p["tolerance"], alpha, look)
            for e in _at_own_rule(cat, entries, allocation="flat", players=lambda n: n >= 5)]


def first_seat(cat, e: Entry, tol: float, alpha=ALPHA, look: Look = FIXED) -> Found:
    """S1's decision on one setting (and S3's at 2-4 players): the claim holds when either
    criterion -- seat 1's excess over 1/N above ``tol``, or win share falling by more than
    ``tol / (N - 1)`` per seat -- does, each read by the direction rule at ``alpha / 2``
    (Bonferroni over the two). It is against the claim only when **both** criteria say so:
    "every seat within 1/N +- tol" still allows a slope of ``tol / 2`` per seat at 5 players,
    twice the slope's own tolerance, so the seats' balance cannot stand in for the slope. The
    seats' TOST is in the detail."""
    j = cat.one(e)
    n, own = e.players, e.own
    fair = 1 / n
    sl = j.est(f"slope_{own}", -1, 1)
    first = j.est(f"share_{own}_0", 0, 1).shifted(fair)
    by_slope = D.direction(sl, tol / (n - 1), -1, alpha / 2, look)
    by_first = D.direction(first, tol, +1, alpha / 2, look)
    seats = D.balance([(f"seat {s + 1}", j.est(f"share_{own}_{s}", 0, 1).shifted(fair))
                       for s in range(n)], tol, alpha, look)
    criteria = (by_first, by_slope)
    verdict, need = _either(criteria, [first.value - tol, -sl.value - tol / (n - 1)])
    p_support = min(1.0, 2 * min(by_slope.p_value, by_first.p_value))
    worst = max(seats.parts, key=lambda t: abs(t[1]))
    detail = (f"seat 1 {_pp(first.value)} pp {_iv(by_first.low, by_first.high)} "
              f"(97.5%); slope {_pp(sl.value)} pp per seat {_iv(by_slope.low, by_slope.high)}"
              f" (97.5%); farthest seat from 1/N: {worst[0]} {_pp(worst[1])} pp "
              f"{_iv(worst[2], worst[3])}; every seat within ±{100 * seats.within:.2f} pp")
    dec = D.Decision(verdict, first.value, by_first.low, by_first.high, j.n, p_support,
                     need, seats.parts, seats.within)
    return Found(scope_of(e), detail, dec, "seat 1's excess and the slope over seats "
                 "(t over game indices, Bonferroni over the two); TOST per seat in the detail")


def _either(criteria, beyond: list[float]) -> tuple[str, int | None]:
    """A claim that holds when either criterion does (each already judged at its share of
    alpha): supported when one is; negligible or refuted only when every criterion is one of
    the two (negligible when some effect is real); else inconclusive, advised by the open
    criteria -- to support, the fewest games of one whose estimate is beyond its tolerance
    (``beyond`` > 0); to rule the claim out, the most games of those still open."""
    verdicts = [d.verdict for d in criteria]
    against = {D.NEGLIGIBLE, D.REFUTED}
    if D.SUPPORTED in verdicts:
        verdict = D.SUPPORTED
    elif all(v in against for v in verdicts):
        verdict = D.NEGLIGIBLE if D.NEGLIGIBLE in verdicts else D.REFUTED
    else:
        verdict = D.INCONCLUSIVE
    # the advice (computed for settled rows too: the calibration's power uses it)
    open_ = [(d, b) for d, b in zip(criteria, beyond) if d.verdict not in against] or \
        list(zip(criteria, beyond))
    towards = [d.games_needed for d, b in open_ if b > 0 and d.games_needed]
    if towards:
        return verdict, min(towards)
    needs = [d.games_needed for d, _ in open_]
    return verdict, (max(needs) if needs and None not in needs else None)


def s1b(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out, tol = [], p["tolerance"]
    for e in _at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 5):
        j, fair = cat.one(e), 1 / e.players
        dec = D.balance([(f"seat {s + 1}", j.est(f"share_{e.own}_{s}", 0, 1).shifted(fair))
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
        j = cat.pair(a, b)
        rules, flat = (0, None), (1, None)
        q_rules, sd_r, _ = spreads(j, [rules], [1.0])
        q_flat, sd_f, _ = spreads(j, [flat], [1.0])
        _, sd_d, _ = spreads(j, [rules, flat], [1.0, -1.0])
        cov = (sd_r ** 2, sd_f ** 2, (sd_r ** 2 + sd_f ** 2 - sd_d ** 2) / 2)
        n, m = a.players, j.n
        detail = (f"seat spread (root mean square of win share - 1/N): flat "
                  f"{100 * rms(q_flat, n):.2f} pp, rules {100 * rms(q_rules, n):.2f} pp")
        # the share removed is 1 - rho, rho = q_rules / q_flat: Fieller's interval of rho,
        # and the linear test of (1 - tol) q_flat - q_rules for the p and the advice
        rho = fieller(q_rules, q_flat, cov, m, alpha, look)
        line = _spread_est(j, [flat, rules], [1 - tol, -1.0], -2, 2)
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
        j = cat.one(e)
        dec = D.direction(j.est("slope_rules", -1, 1), tol / (e.players - 1), +1, alpha, look)
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
        j = cat.pair(e, ref)
        parts = [("rescued fraction", j.diff("rescued", -1, 1)),
                 ("value fraction", j.diff("value", -1, 1))]
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
        dec = D.threshold(cat.one(e).est("tie", 0, 1), thr, alpha, look)
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
    tests = []                               # (measure, count, better p, not-better p, est)
    for k, e in sorted(by.items()):
        if k == 4:
            continue
        j = cat.pair(by[4], e)
        ests = {"closeness": j.diff("gap", -1, 1),
                "decisiveness": j.diff("tie", -1, 1),
                "fairness": _spread_est(j, [(0, None), (1, None)], [4.0, -float(k)], -12, 12)}
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
    n = min(cat.one(e).n for e in by.values())
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
        j = cat.pair(o, base[0])
        lost = j.diff("losses", -10, 10)
        resc = j.diff("rescued", -1, 1)
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
        dec = D.direction(cat.pair(s, base[0]).diff("losses", -10, 10), p["losses"], +1,
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
    j = cat.pair(b, a)
    dec = D.balance([(f"seat {s + 1}", j.diff(f"share_{b.own}_{s}", -1, 1))
                     for s in range(b.players)], tol, alpha, look)
    return Found(f"{b.label} against {a.label}", "", dec,
                 f"paired TOST of every seat's win share against ± {tol:g}")


JUDGES = {"S1": s1, "S1b": s1b, "S1c": s1c, "N3": n3, "T1": t1, "T2": t2, "N1": n1, "C6": c6,
          "E2": e2}
# a claim that brings another with it (S1b's second part is S1c)
BRINGS = {"S1b": ("S1c",)}


# names the judges of the later claims share (experiments.judges_*)
at_own_rule, twin, pp, iv = _at_own_rule, _twin, _pp, _iv
