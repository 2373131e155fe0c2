"""Claims about the player count: whether 5-6 players is the same task as 4 (N3), whether 6
players is more hectic than 4 (N4), and whether 4 players is the best count (N1). Counts are
compared on the same game indices, like with like: a table whose mix of strategies changes
with the count is left out.
"""
from __future__ import annotations

import math

from ...tables.stats import holm_reject
from .. import decisions as D
from ..catalog import Entry
from ..decisions import BALANCE_RULE, BOTH_RULE
from ..features import col, combo
from ..inference import ALPHA, FIXED, Look, p_above, p_below
from .record import Claim, Found, Param
from .shared import BASE, at_own_rule, default_tb, diff, iv, pp, said, scope_of, spread_est

CLAIMS: list[Claim] = []
NO_TIMES = "how early explorers go is not in the per-game table (it records no times)"


def like_four_players(cat, entries, p) -> list[tuple[Entry, Entry]]:
    """Each 5-6 player setting of the rules' boats with 4 players' base game, where both seat
    the same mix of strategies."""
    refs = [e for e in cat.find(entries, players=4, allocation="rules", **BASE)]
    if not refs:
        return []
    ref = refs[0]
    return [(e, ref) for e in at_own_rule(cat, entries, players=lambda n: n >= 5,
                                          allocation="rules")
            if e.mix() is not None and e.mix() == ref.mix()]


def mix_changes(cat, entries) -> str | None:
    if cat.find(entries, players=4):
        return ("not judged: the mix of strategies at the table changes with the player "
                "count, so 4 players is not like with like")
    return None


def task_against_four_players(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                              look: Look = FIXED) -> Found:
    e, ref = pair
    tol = p["tolerance"]
    j = cat.pair(e, ref)
    parts = [("rescued fraction", j.diff("rescued", -1, 1)),
             ("value fraction", j.diff("value", -1, 1))]
    dec = D.balance(parts, tol, alpha, look)
    words = "; ".join(f"{name} {pp(v)} pp {iv(lo, hi)}" for name, v, lo, hi in dec.parts)
    return Found(f"{scope_of(e)} against 4 players", words, dec,
                 f"paired TOST of the rescued and value fractions against ± {tol:g} "
                 f"(intersection-union; Bonferroni over the two to refute)")


CLAIMS.append(Claim(
    "N3", "D", "\"Fewer people to rescue, but fewer turns\": a player's task with 5-6 "
    "players is as with 4.",
    "On the same game indices, are the rescued fraction and the value fraction at 5 and "
    "6 players within the tolerance of 4 players'? (Like with like: a mixed table whose "
    "mix of strategies changes with the player count is left out.)",
    "difference to 4 players of the fraction farther from it (pp)",
    BALANCE_RULE + "; the parts are the rescued and the value fraction, each a paired "
    "difference over game indices",
    "the two fractions: intersection-union for support, Bonferroni for refutation",
    {"tolerance": Param(0.02, 0, 1, "fraction difference (0.02 = two points)")},
    scopes=like_four_players, measure=task_against_four_players, why_none=mix_changes))


def six_like_four_players(cat, entries, p) -> list[tuple[Entry, Entry]]:
    """6 players' base game with 4 players', each at its own tie-break, like with like."""
    fours = [e for e in cat.find(entries, players=4, allocation="rules", **BASE)
             if e.own == default_tb(4)]
    if not fours:
        return []
    return [(e, fours[0]) for e in cat.find(entries, players=6, allocation="rules", **BASE)
            if e.own == default_tb(6) and e.mix() is not None and e.mix() == fours[0].mix()]


def losses_against_four_players(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                                look: Look = FIXED) -> Found:
    e, four = pair
    j = cat.joint([e, four], "game")
    lost = combo(j, [(col(j, "rescued", 1), 1.0), (col(j, "rescued", 0), -1.0)], -1, 1)
    per_round = diff(j, "lost_round", -20, 20)
    dec = D.both([("share lost", lost, p["lost"], +1),
                  ("lost per player and round", per_round, p["per_round"], +1)], alpha, look)
    return Found(f"{scope_of(e)} against 4 players",
                 f"explorers lost per player and round "
                 f"{said(per_round, alpha, look, 1, '')}; {NO_TIMES}", dec,
                 "paired differences over game indices: share of explorers lost, "
                 "explorers lost per player and round")


CLAIMS.append(Claim(
    "N4", "P", "6 players is more hectic: explorers are dispatched very quickly.",
    "Against 4 players on the same game indices, is a larger share of each player's "
    "explorers lost, and are more explorers lost per player and round, each by more than "
    "its tolerance? (How early they go is not in the per-game table, which records no "
    "times.)",
    "share of each player's explorers lost, 6 minus 4 players (pp); explorers lost per "
    "player and round in the detail",
    BOTH_RULE, "the two parts: intersection-union for support, Bonferroni against it",
    {"lost": Param(0.05, 0, 1, "share of explorers lost"),
     "per_round": Param(0.1, 0, 10, "explorers lost per player and round")}, "pp",
    scopes=six_like_four_players, measure=losses_against_four_players, per_style=True))


def every_count(cat, entries, p) -> list[dict[int, Entry]]:
    """One scope: each player count's base game at its own tie-break, when 4 players and
    another count are there."""
    by = {}
    for e in cat.find(entries, allocation="rules", **BASE):
        if e.own == default_tb(e.players) and e.players not in by:
            by[e.players] = e
    return [by] if 4 in by and len(by) >= 2 else []


def four_players_best(cat, by: dict[int, Entry], p, alpha=ALPHA, look: Look = FIXED) -> Found:
    tol = {"closeness": p["gap"], "decisiveness": p["ties"], "fairness": p["fairness"]}
    tests = []                               # (measure, count, better p, not-better p, est)
    for k, e in sorted(by.items()):
        if k == 4:
            continue
        j = cat.pair(by[4], e)
        ests = {"closeness": j.diff("gap", -1, 1),
                "decisiveness": j.diff("tie", -1, 1),
                "fairness": spread_est(j, [(0, None), (1, None)], [4.0, -float(k)], -12, 12)}
        for name, est in ests.items():
            tests.append((name, k, p_below(est, -tol[name], look),
                          p_above(est, -tol[name], look), est))
    better = holm_reject([t[2] for t in tests], alpha / 2)
    notbetter = holm_reject([t[3] for t in tests], alpha / 2)
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
    return Found(f"{counts} players, base game, each count's own tie-break",
                 "4 players' " + "; ".join(words), dec,
                 "paired one-sided tests of 4 players' difference to each count on 3 "
                 "measures, Holm-adjusted")


CLAIMS.append(Claim(
    "N1", "R", "The game is best with 4 players.",
    "Is 4 players the closest (smallest gap between the top two scores, as a fraction "
    "of a player's value), the most decisive (fewest shared tops) and the fairest "
    "(smallest seat spread: the mean over seats of ((win share - 1/N) / (1/N))^2, less "
    "its sampling noise, under each count's own tie-break) player count, each by more "
    "than its tolerance?",
    "measures (of 3) on which 4 players is shown the best",
    "on each measure and other count, 4 is better when its paired difference lies "
    "below -tolerance, and not better when it lies above -tolerance (one-sided tests, "
    "Holm-adjusted over every measure and count at alpha/2 each way); supported when 4 "
    "is better than every other count on at least 2 of the 3 measures; refuted when on "
    "at least 2 measures it is not better than some count; else inconclusive",
    "the 3 measures x the other counts: Holm, each way",
    {"gap": Param(0.01, 0, 1, "gap of the top two, fraction of a player's value"),
     "ties": Param(0.01, 0, 1, "share of games with a shared top"),
     "fairness": Param(0.0025, 0, 1, "mean squared relative excess (0.0025: the seats "
                       "5% of 1/N off on average)")},
    scopes=every_count, measure=four_players_best))
