"""The judges of the claims about skill and luck (docs/claims.md K) and about bashing the
leader (L), all read on mixed tables played in every rotation on the same game indices, so
that every seat holds every strategy equally often and a strategy's numbers are its own.

* K1: the win share of a lone stronger strategy against N-1 copies of a weaker one.
* K2: the share of a player's score variance left to luck, from a variance decomposition into
  seat, strategy, the game's seed (tiles and dice) and the rest (``variance_parts``; the model
  is in docs/verdicts.md).
* K3: what placement alone is worth: the plug-in strategies of ``experiments/plugins/
  placement.py`` (``placer``: greedy's placement, random play; ``scatter``: random placement,
  greedy's play).
* L1, L2: a table with the leader-basher (``saboteur``) against the same table with another
  strategy in its seat: does anyone's win share per seat move, and does careful gain?
"""
from __future__ import annotations

import math

import numpy as np

from . import decisions as D
from .features import col, combo, count_of, delta, strategies_of
from .inference import ALPHA, FIXED, Estimate, Look, interval
from .judges import Found, iv, pp, scope_of
from .units import Catalog, Entry

PLACEMENT = {frozenset({"placer", "random"}): "placer", frozenset({"greedy", "scatter"}): "greedy"}
BASHER, QUIET = "saboteur", "careful"


def _pooled(entries) -> list[Entry]:
    return [e for e in entries if e.seating is not None]


def lone(e: Entry) -> str | None:
    """The strategy that holds exactly one seat of a two-strategy line-up, else None."""
    counts = count_of(e)
    if len(counts) != 2:
        return None
    ones = [t for t, c in counts.items() if c == 1]
    return ones[0] if len(ones) == 1 else None


def _line_up(e: Entry) -> str:
    counts = count_of(e)
    return " + ".join(f"{c} {t}" for t, c in sorted(counts.items(), key=lambda x: (x[1], x[0])))


def _score_gap(j, a: str, others: list[str], ca: dict) -> Estimate:
    """Mean score per seat of ``a`` less that of the others' seats."""
    total = sum(ca[t] for t in others)
    terms = [(col(j, f"score_{a}"), 1.0)] + [(col(j, f"score_{t}"), -ca[t] / total)
                                             for t in others]
    return combo(j, terms, -100, 100)


def _strong(cat, e: Entry, t: str, tol: float, alpha, look, test: str) -> Found:
    j = cat.joint([e], "strategy")
    counts = count_of(e)
    est = j.est(f"share_{t}", 0, 1).shifted(counts[t] / e.players)
    gap = _score_gap(j, t, [x for x in counts if x != t], counts)
    lo, hi = interval(gap, alpha, look)
    return Found(f"{scope_of(e)}, {_line_up(e)}",
                 f"{t}'s score per seat less the others' {gap.value:+.2f} [{lo:+.2f}, "
                 f"{hi:+.2f}]", D.direction(est, tol, +1, alpha, look), test)


def k1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _pooled(entries):
        t = lone(e)
        if t is None or frozenset(count_of(e)) in PLACEMENT:
            continue
        out.append(_strong(cat, e, t, p["tolerance"], alpha, look,
                           "the lone strategy's win share against 1/N, rotations averaged "
                           "within each game index (t over game indices)"))
    return out


def k3(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _pooled(entries):
        t = PLACEMENT.get(frozenset(count_of(e)))
        if t is None:
            continue
        out.append(_strong(cat, e, t, p["tolerance"], alpha, look,
                           "the greedy-placing seat's win share against its fair share, "
                           "rotations averaged within each game index (t over game indices)"))
    return out


# ------------------------------------------------------------------------------ variance
COMPONENTS = ("strategy", "seat", "seed", "rest", "luck")


def variance_parts(cat: Catalog, e: Entry) -> dict[str, Estimate]:
    """Each component's share of the variance of a player's score at a mixed table played in
    all its k rotations (model: score = mean + seat + strategy + seed-by-seat + rest, the seat
    and strategy effects fixed, the seed effect shared by the k rotations of a game index, the
    rest independent across them). From per-index means (``features`` set ``variance``):

    * total: the mean of score squared less the squared grand mean;
    * seat: the variance of the seat means, strategy: the share-weighted variance of the
      strategy means, each less its sampling noise;
    * seed: per seat, the covariance of two different rotations' scores of one index,
      ``(k mean(a^2) - mean(score^2)) / (k - 1) - mean(a)^2``, plus the strategy part
      that covariance leaves out (``strategy / (k - 1)``), averaged over seats;
    * rest: what is left; luck: seed + rest.

    Each share's interval is the delta method's over game indices."""
    j = cat.joint([e], "variance")
    players, k = e.players, len(e.parts)
    counts = count_of(e)
    names = strategies_of(e)
    a = [col(j, f"a_{s}") for s in range(players)]
    sq = [col(j, f"e_{s}") for s in range(players)]
    a2 = [col(j, f"a2_{s}") for s in range(players)]
    b = [col(j, f"b_{t}") for t in names]
    w = np.array([counts[t] / players for t in names])
    cols = a + sq + a2 + b
    n = max(j.n, 1)
    cov = j.mom.cov()
    centre = np.eye(players) - 1 / players
    noise_seat = float(np.trace(centre @ cov[np.ix_(a, a)] @ centre)) / players / n
    mix = np.zeros((len(names), players + len(names)))
    for i in range(len(names)):
        mix[i, :players] = -1 / players
        mix[i, players + i] = 1.0
    ab = a + b
    noise_strat = float(w @ np.diag(mix @ cov[np.ix_(ab, ab)] @ mix.T)) / n
    P = players

    def parts(m):
        am, em, a2m, bm = m[:P], m[P:2 * P], m[2 * P:3 * P], m[3 * P:]
        mu = am.mean()
        total = em.mean() - mu * mu
        seat = float(((am - mu) ** 2).mean()) - noise_seat
        strat = float(w @ (bm - mu) ** 2) - noise_strat
        seed = float(((k * a2m - em) / (k - 1) - am * am).mean()) + strat / (k - 1)
        return total, seat, strat, seed

    def share(i):
        def f(m):
            total, seat, strat, seed = parts(m)
            x = {"seat": seat, "strategy": strat, "seed": seed,
                 "rest": total - seat - strat - seed, "luck": total - seat - strat}[i]
            return x / total if total > 0 else math.nan
        return f
    return {c: delta(j, share(c), cols, -1, 2) for c in COMPONENTS}


def k2(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _pooled(entries):
        if frozenset(count_of(e)) in PLACEMENT or len(e.parts) < 2:
            continue
        parts = variance_parts(cat, e)
        words = []
        for c in COMPONENTS[:4]:
            lo, hi = interval(parts[c], alpha, look)
            words.append(f"{c} {100 * parts[c].value:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
        out.append(Found(f"{scope_of(e)}, {_line_up(e)}",
                         "shares of the score variance: " + ", ".join(words),
                         D.threshold(parts["luck"], p["threshold"], alpha, look),
                         "variance components from per-index moments, delta method over game "
                         "indices"))
    return out


# ------------------------------------------------------------------------------ the leader
def basher_pairs(cat: Catalog, entries) -> list[tuple[Entry, Entry, list[str]]]:
    """``(with, without, strategies at both)``: a pooled table with the saboteur, and the
    pooled table (anywhere in the run) equal but for another strategy in its seats."""
    out = []
    for b in _pooled(entries):
        cb = count_of(b)
        if BASHER not in cb:
            continue
        rest = {k: v for k, v in b.meta.items()}
        for a in _pooled(cat.entries):
            ca = count_of(a)
            if BASHER in ca or a.meta != rest:
                continue
            others = {t: c for t, c in cb.items() if t != BASHER}
            extra = {t: ca.get(t, 0) - others.get(t, 0) for t in set(ca) | set(others)}
            moved = [t for t, x in extra.items() if x]
            if len(moved) == 1 and extra[moved[0]] == cb[BASHER] and \
                    all(t in ca for t in others):
                out.append((b, a, sorted(others)))
    return out


def _per_seat(j, t: str, part: int, c: int) -> list[tuple[int, float]]:
    return [(col(j, f"share_{t}", part), 1.0 / c)]


def _changes(cat, b: Entry, a: Entry, common: list[str]):
    j = cat.joint([b, a], "strategy")
    cb, ca = count_of(b), count_of(a)
    est = {t: combo(j, _per_seat(j, t, 0, cb[t]) + [(c, -w) for c, w in
                                                   _per_seat(j, t, 1, ca[t])], -1, 1)
           for t in common}
    own = combo(j, _per_seat(j, BASHER, 0, cb[BASHER]), 0, 1)
    return j, est, own


def _pair_scope(b: Entry, a: Entry) -> str:
    return f"{scope_of(b)}, {_line_up(b)} against {_line_up(a)}"


def l1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for b, a, common in basher_pairs(cat, entries):
        _, est, own = _changes(cat, b, a, common)
        dec = D.changes([(t, est[t]) for t in common], p["tolerance"], alpha, look)
        words = ", ".join(f"{t} {pp(v)} {iv(lo, hi)}" for t, v, lo, hi in dec.parts)
        lo, hi = interval(own, alpha, look)
        out.append(Found(_pair_scope(b, a), f"win share per seat, with the saboteur minus "
                         f"without (pp): {words}; the saboteur's own per seat {pp(own.value)} "
                         f"{iv(lo, hi)}", dec,
                         "paired differences of each strategy's win share per seat over game "
                         "indices, rotations averaged within each"))
    return out


def l2(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for b, a, common in basher_pairs(cat, entries):
        if QUIET not in common:
            continue
        _, est, _ = _changes(cat, b, a, common)
        out.append(Found(_pair_scope(b, a), "",
                         D.direction(est[QUIET], p["tolerance"], +1, alpha, look),
                         "paired difference of careful's win share per seat over game indices"))
    return out


JUDGES = {"K1": k1, "K2": k2, "K3": k3, "L1": l1, "L2": l2}
