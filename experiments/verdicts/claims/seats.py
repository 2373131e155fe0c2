"""Claims about the seats and the tie-breaks: whether the first seats win more (S1, S3), whether
the rules' boats balance the seats (S1b) and by how much they cut flat boats' spread (S1c),
which seats the 5-6 player chain favours (T1), and how often a top score is shared and whose
win a house rule would change (T2, T3).
"""
from __future__ import annotations

import math

from .. import decisions as D
from ..catalog import Entry, spreads
from ..decisions import BALANCE_RULE, DIRECTION_RULE, THRESHOLD_RULE
from ..inference import ALPHA, FIXED, Estimate, Look, fieller, games_for, p_above
from .record import TOL_SEAT, Claim, Found, Param
from .shared import (BASE, at_own_rule, default_tb, iv, pp, rate, rms, scope_of, small_spread,
                     spread_est, twin)

CLAIMS: list[Claim] = []


# ------------------------------------------------------------------------------ the first seats
def first_seat_advantage(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    """S1's decision on one setting (and S3's at 2-4 players): the claim holds when either
    criterion -- seat 1's excess over 1/N above the tolerance, or win share falling by more
    than ``tolerance / (N - 1)`` per seat -- does, each read by the direction rule at
    ``alpha / 2`` (Bonferroni over the two). It is against the claim only when **both**
    criteria say so: "every seat within 1/N +- tol" still allows a slope of ``tol / 2`` per
    seat at 5 players, twice the slope's own tolerance, so the seats' balance cannot stand in
    for the slope. The seats' TOST is in the detail."""
    tol = p["tolerance"]
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
    verdict, need = either(criteria, [first.value - tol, -sl.value - tol / (n - 1)])
    p_support = min(1.0, 2 * min(by_slope.p_value, by_first.p_value))
    worst = max(seats.parts, key=lambda t: abs(t[1]))
    detail = (f"seat 1 {pp(first.value)} pp {iv(by_first.low, by_first.high)} "
              f"(97.5%); slope {pp(sl.value)} pp per seat {iv(by_slope.low, by_slope.high)}"
              f" (97.5%); farthest seat from 1/N: {worst[0]} {pp(worst[1])} pp "
              f"{iv(worst[2], worst[3])}; every seat within ±{100 * seats.within:.2f} pp")
    dec = D.Decision(verdict, first.value, by_first.low, by_first.high, j.n, p_support,
                     need, seats.parts, seats.within)
    return Found(scope_of(e), detail, dec, "seat 1's excess and the slope over seats "
                 "(t over game indices, Bonferroni over the two); TOST per seat in the detail")


def either(criteria, beyond: list[float]) -> tuple[str, int | None]:
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


def flat_boats_at_five_six(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="flat", players=lambda n: n >= 5)


CLAIMS.append(Claim(
    "S1", "D", "Seat order is an advantage: the first players keep the advantage of "
    "playing before the others (5-6 player rulebook).",
    "Under a flat allocation (2 boats each), do the first seats win more: does win share "
    "fall with seat, or does seat 1 win more than its fair share 1/N?",
    "seat 1's win share minus 1/N (pp); the slope over seats in the detail",
    "supported when either criterion shows an advantage larger than the tolerance: the "
    "slope of win share over seats below -tolerance/(N-1) per seat, or seat 1 above 1/N "
    "+ tolerance (each by the direction rule at Bonferroni alpha/2, intervals 97.5%); "
    "negligible or refuted only when both criteria are (negligible when either still "
    "shows a real advantage); else inconclusive. Every seat within 1/N ± tolerance is "
    "not enough to rule the claim out (it allows a slope of tolerance/2 per seat at 5 "
    "players, twice the slope's tolerance): the seats' TOST and 'fair within' are in "
    "the detail",
    "the two criteria (slope, seat 1): Bonferroni for support, intersection-union "
    "against it (both must be ruled out)",
    {"tolerance": TOL_SEAT},
    scopes=flat_boats_at_five_six, measure=first_seat_advantage))


def rules_boats_at_two_to_four(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="rules", players=lambda n: n <= 4)


CLAIMS.append(Claim(
    "S3", "H", "With 2-4 players the first seat wins more than 1/N.",
    "Under the rules' boats (two each), does seat 1 win more than its fair share 1/N, or "
    "does win share fall with seat (2 players: player A against B)?",
    "seat 1's win share minus 1/N (pp); the slope over seats in the detail",
    "as S1: supported when either criterion shows an advantage larger than the "
    "tolerance (Bonferroni alpha/2 each); negligible or refuted only when both criteria "
    "are; else inconclusive",
    "the two criteria: Bonferroni for support, intersection-union against it",
    {"tolerance": TOL_SEAT}, "pp",
    scopes=rules_boats_at_two_to_four, measure=first_seat_advantage, per_style=True))


# ------------------------------------------------------------------------------ the rules' boats
def rules_boats_at_five_six(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 5)


def seat_balance(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    tol = p["tolerance"]
    j, fair = cat.one(e), 1 / e.players
    dec = D.balance([(f"seat {s + 1}", j.est(f"share_{e.own}_{s}", 0, 1).shifted(fair))
                     for s in range(e.players)], tol, alpha, look)
    worst = max(dec.parts, key=lambda t: abs(t[1]))
    seats = ", ".join(f"{name[5:]} {pp(v)}" for name, v, _, _ in dec.parts)
    return Found(scope_of(e), f"farthest from 1/N: {worst[0]}; seats' excess (pp): {seats}",
                 dec, f"TOST per seat against 1/N ± {tol:g} (intersection-union; Bonferroni "
                 f"over the {e.players} seats to refute)")


CLAIMS.append(Claim(
    "S1b", "D", "The rules' boats compensate: the first seats get one boat fewer "
    "(5 players 1,1,2,2,2; 6 players 1,1,1,1,2,2).",
    "Under the rules' boats, is every seat's win share within the tolerance of 1/N?",
    "win share minus 1/N of the seat farthest from it (pp)",
    BALANCE_RULE + "; the parts are the seats",
    "the N seats: intersection-union for support, Bonferroni (alpha/N) for refutation",
    {"tolerance": TOL_SEAT},
    scopes=rules_boats_at_five_six, measure=seat_balance, brings=("S1c",)))


def listed_boats_at_five_six(cat, entries, p) -> list[Entry]:
    """The 5-6 player settings of a boat list given by hand (allocation ``custom``): the
    allocations a search found closest, played again by another style (``fair-boats-search``)."""
    return at_own_rule(cat, entries, allocation="custom", players=lambda n: n >= 5)


def listed_balance(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    """S1b's test on a listed allocation, its scope naming the list."""
    f = seat_balance(cat, e, p, alpha, look)
    boats = ",".join(map(str, e.boats)) if e.boats else "custom"
    f.scope = f.scope.replace("custom boats", f"boats {boats}")
    return f


CLAIMS.append(Claim(
    "B3a", "H", "The closest allocation a search found for the heuristic bots is fair "
    "(per-seat boat lists, docs/fairest.md), for stronger play too.",
    "Under a listed boat allocation, is every seat's win share within the tolerance of 1/N?",
    "win share minus 1/N of the seat farthest from it (pp)",
    BALANCE_RULE + "; the parts are the seats",
    "the N seats: intersection-union for support, Bonferroni (alpha/N) for refutation; "
    "each allocation its own row (no correction across allocations)",
    {"tolerance": TOL_SEAT}, "pp",
    scopes=listed_boats_at_five_six, measure=listed_balance))


def rules_against_flat_boats(cat, entries, p) -> list[tuple[Entry, Entry]]:
    """Each 5-6 player setting of the rules' boats with its flat-boats twin."""
    pairs = ((a, twin(cat, entries, a, allocation="flat"))
             for a in rules_boats_at_five_six(cat, entries, p))
    return [(a, b) for a, b in pairs if b is not None]


def spread_removed_by_boats(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                            look: Look = FIXED) -> Found:
    a, b = pair
    tol = p["tolerance"]
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
    line = spread_est(j, [flat, rules], [1 - tol, -1.0], -2, 2)
    nxt = look if look.sequential else look.next(m)
    # both the linear test and a bounded interval (flat's spread shown above 0): each
    # at 90% power, so that both hold together at 80% or more
    bounded = Estimate(q_flat, sd_f, m, 0, 1)
    parts = [games_for(line, abs(line.value), alpha, nxt, 0.9),
             games_for(bounded, abs(q_flat), alpha, nxt, 0.9)]
    need = None if None in parts else max(parts)
    p_support = p_above(line, 0.0, look)
    if rho is None:                 # flat boats' spread not shown above 0 (yet): the ratio
        # has no point estimate worth printing (its denominator may be 1e-18 less noise)
        dec = D.Decision(D.INCONCLUSIVE, math.nan, math.nan, math.nan, m, p_support, need)
        detail += "; flat boats' spread is not yet shown above 0: no bounded interval"
    else:
        lo, hi = 1 - rho[1], 1 - rho[0]
        dec = small_spread(D.Decision(D.direction_verdict(lo, hi, tol), 1 - q_rules / q_flat,
                                      lo, hi, m, p_support, need), m)
    return Found(f"{scope_of(a)}, against flat boats", detail, dec,
                 "share of flat boats' squared seat spread that the rules' boats remove "
                 "(Fieller's interval over paired game indices)")


CLAIMS.append(Claim(
    "S1c", "D", "The rules' boats reduce the seat advantage of a flat allocation.",
    "On the same games, do the rules' boats remove more than the tolerance's share of "
    "the seats' spread around the fair share that flat boats leave?",
    "share of flat boats' squared seat spread that the rules' boats remove (1 - "
    "spread_rules / spread_flat, the spread being the sum over seats of (win share - "
    "1/N)^2 less its sampling noise; overcompensation counts as spread)",
    DIRECTION_RULE + "; the interval is Fieller's for the ratio of the two spreads "
    "(delta method over paired game indices), bounded once flat boats' spread is shown "
    "above 0",
    "none (one comparison per scope)",
    {"tolerance": Param(0.25, 0, 1, "share of the squared spread removed (0.25 = a "
                        "quarter)")},
    scopes=rules_against_flat_boats, measure=spread_removed_by_boats))


# ------------------------------------------------------------------------------ tie-breaks
def chain_counts(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="rules", players=lambda n: n in p["counts"])


def chain_shift_to_late_seats(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    j = cat.one(e)
    dec = D.direction(j.est("slope_rules", -1, 1), p["tolerance"] / (e.players - 1), +1,
                      alpha, look)
    return Found(scope_of(e).replace(f", {e.own} tie-break", "")
                 + ", chain against shared on the same games", "", dec,
                 "paired difference of slopes over seats, chain - shared (t over game "
                 "indices)")


CLAIMS.append(Claim(
    "T1", "D", "The 5-6 player chain's \"fewer turns\" step favours the seats that had "
    "fewer turns: the late seats.",
    "Counted by the chain instead of as shared wins, on the same games, do wins move "
    "toward late seats by more than the tolerance?",
    "slope of win share over seats, chain minus shared (pp per seat)",
    DIRECTION_RULE + "; tolerance/(N-1) per seat; judged where the chain is the rule "
    "(5-6 players) unless the study's `counts` say otherwise",
    "none (one comparison per scope)",
    {"tolerance": TOL_SEAT,
     "counts": Param([5, 6], counts=True, words="player counts judged")},
    scopes=chain_counts, measure=chain_shift_to_late_seats))


def shared_tops_at_two_to_four(cat, entries, p) -> list[Entry]:
    return [e for e in cat.find(entries, players=lambda n: n <= 4, allocation="rules", **BASE)
            if e.own == "shared"]


def tie_rate(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    thr = p["threshold"]
    dec = D.threshold(cat.one(e).est("tie", 0, 1), thr, alpha, look)
    return Found(scope_of(e), "", dec, f"interval of the tie rate against {thr:g}")


CLAIMS.append(Claim(
    "T2", "H", "With 2-4 players ties for first are common enough to need a tie-break "
    "(the base rulebook has none).",
    "Is the share of games whose top score is shared above the threshold?",
    "share of games with a shared top score (%)",
    THRESHOLD_RULE + "; Wilson interval at the first look",
    "none (one rate per scope)",
    {"threshold": Param(0.05, 0, 1, "tie rate")},
    scopes=shared_tops_at_two_to_four, measure=tie_rate))


def base_games_at_own_tie_break(cat, entries, p) -> list[Entry]:
    return [e for e in cat.find(entries, allocation="rules", **BASE)
            if e.own == default_tb(e.players)]


def house_rule_winner_change(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    j = cat.joint([e], "game")
    est = j.est("house", 0, 1)
    tie = j.est("tie", 0, 1)
    return Found(scope_of(e), f"ties for the top score {rate(tie, alpha, look)}",
                 D.threshold(est, p["threshold"], alpha, look),
                 f"interval of the share of games whose winners differ, against "
                 f"{p['threshold']:g}")


CLAIMS.append(Claim(
    "T3", "P", "House rule: the player with the most explorers rescued wins, their value "
    "breaking ties.",
    "On the same games, does that house rule name other winners than the rules (value, "
    "under the count's own tie-break) in more than the threshold's share of games?",
    "share of games whose winners differ (%)",
    THRESHOLD_RULE + "; Wilson interval at the first look", "none (one rate per scope)",
    {"threshold": Param(0.10, 0, 1, "share of games")}, "%",
    scopes=base_games_at_own_tie_break, measure=house_rule_winner_change, per_style=True))
