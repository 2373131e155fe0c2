"""Claims about skill, luck and the leader, all read on mixed tables played in every rotation on
the same game indices, so that every seat holds every strategy equally often and a strategy's
numbers are its own.

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

from .. import decisions as D
from ..catalog import Catalog, Entry
from ..decisions import CHANGES_RULE, DIRECTION_RULE, THRESHOLD_RULE
from ..features import col, combo, count_of, delta, strategies_of
from ..inference import ALPHA, FIXED, Estimate, Look, interval
from .record import TOL_SEAT, Claim, Found, Param
from .shared import iv, pp, scope_of

CLAIMS: list[Claim] = []
PLACEMENT = {frozenset({"placer", "random"}): "placer", frozenset({"greedy", "scatter"}): "greedy"}
BASHER, QUIET = "saboteur", "careful"


def pooled(entries) -> list[Entry]:
    return [e for e in entries if e.seating is not None]


def lone(e: Entry) -> str | None:
    """The strategy that holds exactly one seat of a two-strategy line-up, else None."""
    counts = count_of(e)
    if len(counts) != 2:
        return None
    ones = [t for t, c in counts.items() if c == 1]
    return ones[0] if len(ones) == 1 else None


def line_up(e: Entry) -> str:
    counts = count_of(e)
    return " + ".join(f"{c} {t}" for t, c in sorted(counts.items(), key=lambda x: (x[1], x[0])))


# ------------------------------------------------------------------------------ skill
def _score_gap(j, a: str, others: list[str], ca: dict) -> Estimate:
    """Mean score per seat of ``a`` less that of the others' seats."""
    total = sum(ca[t] for t in others)
    terms = [(col(j, f"score_{a}"), 1.0)] + [(col(j, f"score_{t}"), -ca[t] / total)
                                             for t in others]
    return combo(j, terms, -100, 100)


def strategy_edge(cat, table: tuple[Entry, str, str], p, alpha=ALPHA,
                  look: Look = FIXED) -> Found:
    """A strategy's win share at a pooled table against its fair share (its seats over N)."""
    e, t, test = table
    j = cat.joint([e], "strategy")
    counts = count_of(e)
    est = j.est(f"share_{t}", 0, 1).shifted(counts[t] / e.players)
    gap = _score_gap(j, t, [x for x in counts if x != t], counts)
    lo, hi = interval(gap, alpha, look)
    return Found(f"{scope_of(e)}, {line_up(e)}",
                 f"{t}'s score per seat less the others' {gap.value:+.2f} [{lo:+.2f}, "
                 f"{hi:+.2f}]", D.direction(est, p["tolerance"], +1, alpha, look), test)


def lone_stronger(cat, entries, p) -> list[tuple[Entry, str, str]]:
    test = ("the lone strategy's win share against 1/N, rotations averaged within each game "
            "index (t over game indices)")
    return [(e, lone(e), test) for e in pooled(entries)
            if lone(e) is not None and frozenset(count_of(e)) not in PLACEMENT]


CLAIMS.append(Claim(
    "K1", "R", "\"A fair amount of planning\": a stronger player wins more (reviews).",
    "At a table of one stronger strategy and N-1 copies of a weaker one, every seat in "
    "turn, does the stronger win more than its fair share 1/N by more than the "
    "tolerance?",
    "the lone strategy's win share minus 1/N (pp)",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"tolerance": Param(0.05, 0, 1, "win share")}, "pp",
    scopes=lone_stronger, measure=strategy_edge, per_style=True))


def greedy_placement(cat, entries, p) -> list[tuple[Entry, str, str]]:
    test = ("the greedy-placing seat's win share against its fair share, rotations averaged "
            "within each game index (t over game indices)")
    return [(e, PLACEMENT[frozenset(count_of(e))], test) for e in pooled(entries)
            if frozenset(count_of(e)) in PLACEMENT]


CLAIMS.append(Claim(
    "K3", "P", "Placement decides much of the game.",
    "Does a player who places its explorers and boats as greedy does win more than 1/N "
    "against players who place at random, all else equal, by more than the tolerance? "
    "(Two tables: everyone plays the rest at random, or everyone plays it as greedy.)",
    "the greedy-placing seat's win share minus 1/N (pp); its score against the others' "
    "in the detail",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"tolerance": Param(0.02, 0, 1, "win share")}, "pp",
    scopes=greedy_placement, measure=strategy_edge, per_style=True))


# ------------------------------------------------------------------------------ luck
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


def rotated_tables(cat, entries, p) -> list[Entry]:
    """Pooled tables of built-in rungs played in two rotations or more."""
    return [e for e in pooled(entries)
            if frozenset(count_of(e)) not in PLACEMENT and len(e.parts) >= 2]


def luck_share(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    parts = variance_parts(cat, e)
    words = []
    for c in COMPONENTS[:4]:
        lo, hi = interval(parts[c], alpha, look)
        words.append(f"{c} {100 * parts[c].value:.1f}% [{100 * lo:.1f}, {100 * hi:.1f}]")
    return Found(f"{scope_of(e)}, {line_up(e)}",
                 "shares of the score variance: " + ", ".join(words),
                 D.threshold(parts["luck"], p["threshold"], alpha, look),
                 "variance components from per-index moments, delta method over game indices")


CLAIMS.append(Claim(
    "K2", "R", "\"Mostly luck\" (reviews).",
    "At a mixed table played in every rotation, is more than the threshold's share of "
    "the variance of a player's score left to luck -- the game's seed (tiles and dice) "
    "and the rest -- rather than explained by who plays (the strategy) and where (the "
    "seat)?",
    "luck's share of the score variance: 1 - (strategy's + seat's shares); every "
    "component with its interval in the detail",
    THRESHOLD_RULE + "; the components from per-index moments (model in "
    "docs/verdicts.md), intervals by the delta method",
    "none (one share per scope; the components in the detail are descriptive)",
    {"threshold": Param(0.5, 0, 1, "share of the score variance")}, "share",
    scopes=rotated_tables, measure=luck_share, per_style=True))


# ------------------------------------------------------------------------------ the leader
def basher_pairs(cat: Catalog, entries, p=None) -> list[tuple[Entry, Entry, list[str]]]:
    """``(with, without, strategies at both)``: a pooled table with the saboteur, and the
    pooled table (anywhere in the run) equal but for another strategy in its seats."""
    out = []
    for b in pooled(entries):
        cb = count_of(b)
        if BASHER not in cb:
            continue
        rest = {k: v for k, v in b.meta.items()}
        for a in pooled(cat.entries):
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


def basher_changes(cat, b: Entry, a: Entry, common: list[str]):
    """The joint of a pair of tables, each common strategy's change of win share per seat
    (with the saboteur less without) and the saboteur's own win share per seat."""
    j = cat.joint([b, a], "strategy")
    cb, ca = count_of(b), count_of(a)
    est = {t: combo(j, _per_seat(j, t, 0, cb[t]) + [(c, -w) for c, w in
                                                   _per_seat(j, t, 1, ca[t])], -1, 1)
           for t in common}
    own = combo(j, _per_seat(j, BASHER, 0, cb[BASHER]), 0, 1)
    return j, est, own


def pair_scope(b: Entry, a: Entry) -> str:
    return f"{scope_of(b)}, {line_up(b)} against {line_up(a)}"


def share_changes(cat, pair: tuple[Entry, Entry, list[str]], p, alpha=ALPHA,
                  look: Look = FIXED) -> Found:
    b, a, common = pair
    _, est, own = basher_changes(cat, b, a, common)
    dec = D.changes([(t, est[t]) for t in common], p["tolerance"], alpha, look)
    words = ", ".join(f"{t} {pp(v)} {iv(lo, hi)}" for t, v, lo, hi in dec.parts)
    lo, hi = interval(own, alpha, look)
    return Found(pair_scope(b, a), f"win share per seat, with the saboteur minus without "
                 f"(pp): {words}; the saboteur's own per seat {pp(own.value)} {iv(lo, hi)}",
                 dec, "paired differences of each strategy's win share per seat over game "
                 "indices, rotations averaged within each")


CLAIMS.append(Claim(
    "L1", "P", "Bash the leader: a player who attacks the leader changes who wins.",
    "When one seat of a mixed table is the leader-basher (saboteur) instead of another "
    "strategy, every seat in turn on the same games, does some other strategy's win "
    "share per seat move by more than the tolerance?",
    "the largest change of a strategy's win share per seat it holds, with the saboteur "
    "minus without (pp)",
    CHANGES_RULE + "; the parts are the strategies at both tables",
    "the strategies: Bonferroni for support, intersection-union against it",
    {"tolerance": Param(0.02, 0, 1, "win share per seat")}, "pp",
    scopes=basher_pairs, measure=share_changes, per_style=True))


def basher_pairs_with_careful(cat, entries, p) -> list[tuple[Entry, Entry, list[str]]]:
    return [t for t in basher_pairs(cat, entries) if QUIET in t[2]]


def careful_gain(cat, pair: tuple[Entry, Entry, list[str]], p, alpha=ALPHA,
                 look: Look = FIXED) -> Found:
    b, a, common = pair
    _, est, _ = basher_changes(cat, b, a, common)
    return Found(pair_scope(b, a), "", D.direction(est[QUIET], p["tolerance"], +1, alpha, look),
                 "paired difference of careful's win share per seat over game indices")


CLAIMS.append(Claim(
    "L2", "P", "Staying quiet wins: a low-profile style gains when someone bashes the "
    "leader.",
    "On the same tables, does careful's (the low-profile rung's) win share per seat rise "
    "by more than the tolerance when the saboteur joins?",
    "careful's win share per seat, with the saboteur minus without (pp)",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"tolerance": TOL_SEAT}, "pp",
    scopes=basher_pairs_with_careful, measure=careful_gain, per_style=True))
