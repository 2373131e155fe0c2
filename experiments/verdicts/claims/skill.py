"""Claims across skill levels: does the seat gap grow with playing strength (S5, S5b)?

A skill trace (``experiments/skill_trace.toml``) plays self-play of one style per skill level,
weakest first, on the same game indices (common random numbers). These claims are the only
ones judged *across* styles rather than within one: a scope is one table (player count, boats,
the count's own tie-break, the base game) and every self-play level the run holds of it, in
the order the study lists them. The level is an ordinal (its rank, 0, 1, 2, ...), fixed before
the run by the study's list; the measured strength of each level is a chart's axis, not the
test's, so the test does not depend on a second, noisy measurement.

* S5: the least-squares slope of seat 1's win share minus 1/N over the levels.
* S5b: the slope of the gap across the table, seat 1's win share less the last seat's, over
  the levels. The largest seat gap is a maximum over seats, which is not smooth (its
  delta-method interval fails where two seats are near equal); the seats' root-mean-square gap
  is a square root, biased where a gap is near its noise (the weak levels); and their squared
  gap, though unbiased, is so skewed at the sizes a search study can afford that its interval
  called a trend at the tolerance "refuted" 6-9% of the time at 100 games (calibrated; the
  bound is 2.5%). The first-to-last gap is a mean of per-index values, whose t interval holds.
  Each level's root-mean-square and largest gap are in the detail.

Both read the paired slope over game indices: each index contributes the weighted sum of its
levels' values, so the levels' shared tiles and dice cancel where they move the levels alike.
"""
from __future__ import annotations

import math

import numpy as np

from strategies.registry import StrategyError, parse_spec

from .. import decisions as D
from ..catalog import Catalog, Entry
from ..decisions import DIRECTION_RULE
from ..features import col, combo
from ..inference import ALPHA, FIXED, Look, interval
from .record import Claim, Found, Param
from .shared import BASE, default_tb, pp

CLAIMS: list[Claim] = []
ACROSS_PLAY = "self-play, every skill level"
"""The ``play`` column of a row judged across the levels (not one style's row)."""
MIN_LEVELS = 3


def level_name(e: Entry) -> str:
    return str(e.strategies[0])


def self_play(e: Entry) -> bool:
    return e.seating is None and len(set(e.strategies)) == 1


def skill_tables(cat: Catalog, entries, p) -> list[tuple[Entry, ...]]:
    """Per table (player count, boats, own tie-break, base game, seed), its self-play levels
    in run order -- the order the study lists its strategies, weakest first -- when it holds
    at least ``MIN_LEVELS`` (a slope over two levels is one difference, and says nothing of
    a trend)."""
    tables: dict[tuple, list[Entry]] = {}
    for e in cat.find(entries, **BASE):
        if not self_play(e) or e.own != default_tb(e.players):
            continue
        m = e.meta
        key = (m["players"], m["allocation"], e.boats, m["tiebreak"], m["lagoon"],
               m["must_move"], m["max_turns"], m["seed"])
        levels = tables.setdefault(key, [])
        if level_name(e) not in {level_name(x) for x in levels}:
            levels.append(e)
    return [tuple(v) for v in tables.values() if len(v) >= MIN_LEVELS]


def level_weights(levels: int) -> np.ndarray:
    """Least-squares slope over the ranks 0..L-1, as weights on the levels' means."""
    x = np.arange(levels) - (levels - 1) / 2
    return x / float((x * x).sum())


def scope_of_levels(levels: tuple[Entry, ...]) -> str:
    m = levels[0].meta
    names = ", ".join(level_name(e) for e in levels)
    return (f"{m['players']} players, {m['allocation']} boats, base game, {m['tiebreak']} "
            f"tie-break; levels {names}")


def _seat_columns(j, level: int, players: int) -> list[int]:
    return [col(j, f"share_{s}", level) for s in range(players)]


def first_seat_trend(cat, levels: tuple[Entry, ...], p, alpha=ALPHA,
                     look: Look = FIXED) -> Found:
    """S5: the slope of seat 1's excess over the levels, by the direction rule (it grows by
    more than the tolerance per level)."""
    tol, n = p["tolerance"], levels[0].players
    j = cat.joint(list(levels), "seat")
    w = level_weights(len(levels))
    est = combo(j, [(col(j, "share_0", i), float(w[i])) for i in range(len(levels))], -1, 1)
    dec = D.direction(est, tol, +1, alpha, look)
    each = []
    for i, e in enumerate(levels):
        one = j.est("share_0", 0, 1, part=i).shifted(1 / n)
        lo, hi = interval(one, alpha, look)
        each.append(f"{level_name(e)} {pp(one.value)} [{pp(lo)}, {pp(hi)}]")
    detail = ("seat 1's excess over 1/N by level (pp): " + "; ".join(each)
              + f"; slope {pp(dec.effect)} pp per level [{pp(dec.low)}, {pp(dec.high)}]")
    return Found(scope_of_levels(levels), detail, dec,
                 "least-squares slope of seat 1's win share over the level ranks, paired over "
                 "the game indices every level holds (t over game indices)")


def gap_trend(cat, levels: tuple[Entry, ...], p, alpha=ALPHA, look: Look = FIXED) -> Found:
    """S5b: the slope over the levels of the gap across the table, seat 1's win share less the
    last seat's, by the direction rule (it grows by more than the tolerance per level)."""
    tol, n = p["tolerance"], levels[0].players
    j = cat.joint(list(levels), "seat")
    w = level_weights(len(levels))
    terms = [t for i in range(len(levels)) for t in
             ((col(j, "share_0", i), float(w[i])), (col(j, f"share_{n - 1}", i), -float(w[i])))]
    dec = D.direction(combo(j, terms, -2, 2), tol, +1, alpha, look)
    mean = j.mom.mean
    each = []
    for i, e in enumerate(levels):
        gaps = mean[_seat_columns(j, i, n)] - 1 / n
        far = int(np.argmax(np.abs(gaps)))
        each.append(f"{level_name(e)} seat 1 - seat {n} {pp(float(gaps[0] - gaps[-1]))}, rms "
                    f"{100 * math.sqrt(float((gaps ** 2).mean())):.2f}, largest seat "
                    f"{far + 1} {pp(float(gaps[far]))}")
    detail = ("seat gaps by level (pp): " + "; ".join(each)
              + f"; slope of seat 1 - seat {n} {pp(dec.effect)} pp per level "
              f"[{pp(dec.low)}, {pp(dec.high)}]")
    return Found(scope_of_levels(levels), detail, dec,
                 "least-squares slope of seat 1's win share less the last seat's over the "
                 "level ranks, paired over the game indices every level holds (t over game "
                 "indices)")


TOL_TREND = Param(0.0025, 0, 1, "per skill level, in win share (0.0025 = a quarter point "
                  "of seat 1's excess per level)")
LEVELS = ("the levels are the self-play styles of one table in the order the study lists "
          "them (weakest first), each ranked 0, 1, 2, ...; at least three")

CLAIMS.append(Claim(
    "S5", "H", "The seat gap grows with skill: stronger players make more of moving first "
    "(as the first-move edge grows with strength in chess).",
    "Across skill levels played on the same games, does seat 1's win share above 1/N grow "
    "by more than the tolerance per level?",
    "slope of seat 1's win share minus 1/N over the skill levels (pp per level)",
    DIRECTION_RULE + "; the effect is the least-squares slope over the level ranks; "
    + LEVELS,
    "one test per table (player count and boats), no correction across tables: each table's "
    "row is its own question",
    {"tolerance": TOL_TREND}, "pp",
    scopes=skill_tables, measure=first_seat_trend, across=True))

CLAIMS.append(Claim(
    "S5b", "H", "The seat gap grows with skill, across the whole table: the first seat pulls "
    "further ahead of the last as play gets stronger.",
    "Across skill levels played on the same games, does seat 1's win share less the last "
    "seat's grow by more than the tolerance per level?",
    "slope of seat 1's win share less the last seat's over the skill levels (pp per level; "
    "each level's root-mean-square and largest seat gap in the detail)",
    DIRECTION_RULE + "; the effect is the least-squares slope over the level ranks; " + LEVELS,
    "one test per table, no correction across tables (S5 and S5b are two questions, each "
    "read on its own)",
    {"tolerance": TOL_TREND}, "pp",
    scopes=skill_tables, measure=gap_trend, across=True))


def search_budget(e: Entry) -> int | None:
    """A self-play entry's search budget when its strategy searches (the search rung: a
    strategy that ``reenters`` the game), else None -- what "strong play" is made of."""
    if not self_play(e):
        return None
    try:
        s, values = parse_spec(level_name(e))
    except StrategyError:
        return None
    if not s.reenters:
        return None
    default = {q.name: q.default for q in s.params}.get("budget", 0)
    return int(values.get("budget", default))
