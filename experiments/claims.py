"""Claims about the game's balance, each turned into a question and judged by a stated rule.

A study file names the claims its report judges (``[claims.S1b]``, with parameters such as a
tolerance). ``verdicts(df, claims)`` computes, from the run's games alone, one row per claim and
scope (e.g. 5 players, 6 players): ``claim, question, verdict, test, statistic, p_value, effect,
low, high, n`` and then ``scope, rule, games_needed``. A verdict is ``supported``, ``refuted`` or
``inconclusive``, never typed in. The rules, in words, are in each claim's ``rule``; they share
three shapes (alpha = 0.05, 95% intervals):

* **a direction** ("win share falls with seat"): supported when the interval of the effect lies
  wholly on the claimed side of 0; refuted when it lies wholly on the other side, or inside
  ±tolerance (an effect too small to matter is not the claimed advantage); else inconclusive.
* **equality** ("the allocation compensates", "the task is unchanged"): supported only by an
  equivalence test (TOST against ±tolerance, every part of the claim: the largest p < alpha),
  never by a test that failed to find a difference; refuted when some part's 95% interval lies
  wholly outside ±tolerance; else inconclusive.
* **a threshold** ("ties are common"): supported when the interval lies above it, refuted when
  below, else inconclusive.

Inconclusive rows say how many games would settle them: the games at which the observed spread
would shrink the interval enough, ``n * (half-width / room)**2``, where room is the distance the
interval must clear (the effect itself, or the tolerance left around it).

Metrics are per game, so games -- the independent units -- carry every interval: a seat's
tie-split win share (``experiments.stats``), the trend of win share over seats (the
least-squares slope of one game's shares on seat position 1..N, averaged over games: the slope
of the seats' win shares), rescued and value fractions, losses, tie indicators.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import numpy as np
import pandas as pd

from .rotations import pool_table, rotated_label

ALPHA = 0.05
COLUMNS = ("claim", "question", "verdict", "test", "statistic", "p_value", "effect", "low",
           "high", "n", "scope", "rule", "games_needed")   # then play and across_ladder
VERDICTS = ("supported", "refuted", "inconclusive")


@dataclass(frozen=True)
class Claim:
    id: str
    source: str                     # D designer, R review, P players, H hypothesis
    said: str                       # the claim as made
    question: str
    rule: str                       # the verdict rule in words
    params: dict = field(default_factory=dict)      # name -> default


# ------------------------------------------------------------------------------ the registry
CLAIMS: dict[str, Claim] = {c.id: c for c in (
    Claim("S1", "D", "Seat order is an advantage: the first players keep the advantage of "
          "playing before the others (5-6 player rulebook).",
          "Under a flat allocation (2 boats each), does win share fall with seat?",
          "direction: the slope of win share over seats (pp per seat) with its 95% interval "
          "below 0 = supported; above 0, or inside ±tolerance/(N-1), = refuted",
          {"tolerance": 0.01}),
    Claim("S1b", "D", "The rules' boats compensate: the first seats get one boat fewer "
          "(5 players 1,1,2,2,2; 6 players 1,1,1,1,2,2).",
          "Under the rules' boats, is every seat's win share within the tolerance of 1/N?",
          "equality: TOST of every seat's win share against 1/N ± tolerance (largest p < "
          "0.05) = supported; some seat's 95% interval wholly outside = refuted",
          {"tolerance": 0.01}),
    Claim("S1c", "D", "The rules' boats reduce the seat advantage of a flat allocation.",
          "Is the slope of win share over seats closer to 0 (less negative) under the rules' "
          "boats than under flat, on the same games' seeds?",
          "direction: the paired difference of slopes (rules - flat) with its 95% interval "
          "above 0 = supported; below 0, or inside ±tolerance/(N-1), = refuted",
          {"tolerance": 0.01}),
    Claim("N3", "D", "\"Fewer people to rescue, but fewer turns\": a player's task with 5-6 "
          "players is as with 4.",
          "Are the rescued fraction and the value fraction at 5 and 6 players within the "
          "tolerance of 4 players'?",
          "equality: Welch TOST of each fraction's difference against ±tolerance (largest p "
          "< 0.05) = supported; either difference's 95% interval wholly outside = refuted",
          {"tolerance": 0.02}),
    Claim("T1", "D", "The 5-6 player chain's \"fewer turns\" step favours the seats that had "
          "fewer turns: the late seats.",
          "Counted by the chain instead of as shared wins, on the same games, do wins move "
          "toward late seats?",
          "direction: the paired difference of slopes (chain - shared, pp per seat) above 0 = "
          "supported; below 0, or inside ±tolerance/(N-1), = refuted",
          {"tolerance": 0.01}),
    Claim("T2", "H", "With 2-4 players ties for first are common enough to need a tie-break "
          "(the base rulebook has none).",
          "Is the share of games whose top score is shared above the threshold?",
          "threshold: the Wilson 95% interval of the tie rate above the threshold = "
          "supported; below = refuted", {"threshold": 0.05}),
    Claim("N1", "R", "The game is best with 4 players.",
          "Is 4 players the closest (smallest gap between the top two scores, as a fraction "
          "of a player's value), the most decisive (fewest shared tops) and the fairest "
          "(smallest excess win share of seat 1 over 1/N, relative to 1/N) player count?",
          "on each measure 4 players is better or worse than another count when the Welch "
          "95% interval of the difference excludes 0; supported = better than every other "
          "count on at least 2 of 3 measures; refuted = worse than some count on at least 2; "
          "else inconclusive"),
    Claim("C6", "D", "Overpopulated is \"the ultimate in crazy fun with lots of "
          "destruction\": players have far too many explorers to save them all.",
          "Against the standard 6-player rules, are more explorers lost per player and game, "
          "and is a smaller fraction rescued?",
          "direction: both paired differences (Overpopulated - standard) with 95% intervals "
          "on the claimed side (losses up, rescued fraction down) = supported; either on the "
          "other side = refuted"),
    Claim("E2", "R", "The Giant Squid is \"particularly nasty\".",
          "Are more explorers lost per player and game with the squid (and with squid "
          "instead of whales) than in the base game?",
          "direction: the paired difference of losses per player and game (squid - base) "
          "with its 95% interval above 0 = supported; below 0 = refuted"),
)}


def check_claims(claims: dict) -> str | None:
    """The problem with a study file's ``[claims]`` table, in one line, or None."""
    for cid, params in claims.items():
        if cid not in CLAIMS:
            return f"unknown claim {cid!r}; known: {', '.join(CLAIMS)}"
        for key in params:
            if key not in CLAIMS[cid].params:
                return (f"claims.{cid}: unknown parameter {key!r}; accepted: "
                        f"{', '.join(CLAIMS[cid].params) or 'none'}")
            if not isinstance(params[key], (int, float)) or isinstance(params[key], bool) \
                    or not 0 < params[key] < 1:
                return f"claims.{cid}.{key}: must be a number between 0 and 1"
    return None


# ------------------------------------------------------------------------------ measures
def slope(shares: np.ndarray) -> np.ndarray:
    """Per game, the least-squares slope of win share on seat position 1..N (pp per seat as a
    fraction); its mean over games is the slope through the seats' win shares."""
    n = shares.shape[1]
    c = np.arange(n) - (n - 1) / 2
    return shares @ (c / (c * c).sum())


def _t(x: np.ndarray, alpha: float = ALPHA) -> tuple[float, float, float, int]:
    from statsmodels.stats.weightstats import DescrStatsW
    x = np.asarray(x, dtype=float)
    if len(x) < 2 or np.ptp(x) == 0:
        return float(np.mean(x)) if len(x) else math.nan, math.nan, math.nan, len(x)
    lo, hi = DescrStatsW(x).tconfint_mean(alpha)
    return float(x.mean()), float(lo), float(hi), len(x)


def _welch(x: np.ndarray, y: np.ndarray, alpha: float = ALPHA):
    """(difference of means x - y, low, high) by Welch's t interval."""
    from statsmodels.stats.weightstats import CompareMeans, DescrStatsW
    cm = CompareMeans(DescrStatsW(np.asarray(x, float)), DescrStatsW(np.asarray(y, float)))
    lo, hi = cm.tconfint_diff(alpha=alpha, usevar="unequal")
    return float(np.mean(x) - np.mean(y)), float(lo), float(hi)


def _needed(n: int, low: float, high: float, room: float) -> int | None:
    """Games at which an interval as wide as (low, high) after n games shrinks to clear
    ``room`` on either side (width falls as 1/sqrt(n))."""
    half = (high - low) / 2
    if not (room > 0) or not math.isfinite(half) or half <= 0:
        return None
    return int(math.ceil(n * (half / room) ** 2))


def _row(claim: Claim, scope: str, verdict: str, test: str, statistic, p_value, effect, low,
         high, n, games_needed=None) -> dict:
    return {"claim": claim.id, "question": claim.question, "verdict": verdict, "test": test,
            "statistic": statistic, "p_value": p_value, "effect": effect, "low": low,
            "high": high, "n": n, "scope": scope, "rule": claim.rule,
            "games_needed": games_needed}


def _direction(claim, scope, test, x, sign: int, tol: float) -> dict:
    """The direction rule on per-game values ``x`` (their mean is the effect; ``sign`` the
    claimed side of 0); the statistic and p are the one-sample t test against 0."""
    from scipy import stats as sps
    effect, lo, hi, n = _t(x)
    t_stat = p = math.nan
    if n > 1 and np.ptp(x) > 0:
        res = sps.ttest_1samp(x, 0.0)
        t_stat, p = float(res.statistic), float(res.pvalue)
    claimed_lo, claimed_hi = (lo, hi) if sign > 0 else (-hi, -lo)
    if claimed_lo > 0:
        verdict, need = "supported", None
    elif claimed_hi < 0 or (-tol < lo and hi < tol):
        verdict, need = "refuted", None
    else:
        verdict = "inconclusive"
        need = _needed(n, lo, hi, max(abs(effect), tol - abs(effect)))
    return _row(claim, scope, verdict, test, t_stat, p, effect, lo, hi, n, need)


# ------------------------------------------------------------------------------ selections
def _meta(d) -> dict:
    f = d.factors
    return {"players": d.players, "allocation": f["boats"] if isinstance(f["boats"], str)
            else "custom", "challenges": d.challenges, "tiebreak": d.own,
            "squid": bool(f.get("squid")), "squid_only": bool(f.get("squid_only")),
            "strategies": f.get("strategies"), "lagoon": f.get("lagoon_is_sea"),
            "must_move": f.get("creatures_must_move"), "max_turns": d.max_turns}


def _find(data, **want):
    """The settings whose metadata match ``want`` (values or predicates)."""
    out = []
    for d in data:
        m = _meta(d)
        if all((v(m[k]) if callable(v) else m[k] == v) for k, v in want.items()):
            out.append(d)
    return out


def _default_tb(players: int) -> str:
    return "chain" if players >= 5 else "shared"


def _pair(a, b):
    """Row indices of the games both settings played, matched by game index."""
    common, ia, ib = np.intersect1d(a.games, b.games, assume_unique=True, return_indices=True)
    return ia, ib


def _base(**extra) -> dict:
    return dict(challenges=frozenset(), squid=False, squid_only=False, **extra)


def _scope(d) -> str:
    m = _meta(d)
    ch = ",".join(map(str, sorted(m["challenges"]))) or "base game"
    return (f"{m['players']} players, {m['allocation']} boats, "
            f"{'Challenge ' + ch if m['challenges'] else ch}, {m['tiebreak']} tie-break"
            + (", squid only" if m["squid_only"] else ", squid" if m["squid"] else ""))


# ------------------------------------------------------------------------------ the judges
def _s1(claim, data, p):
    rows = []
    for d in _find(data, allocation="flat", **_base(players=lambda n: n >= 5)):
        if d.own != _default_tb(d.players):
            continue
        rows.append(_direction(claim, _scope(d), "slope of win share over seats (paired t "
                               "over games)", slope(d.share()), -1,
                               p["tolerance"] / (d.players - 1)))
    return rows


def _s1b(claim, data, p):
    from statsmodels.stats.weightstats import DescrStatsW
    tol, rows = p["tolerance"], []
    for d in _find(data, allocation="rules", **_base(players=lambda n: n >= 5)):
        if d.own != _default_tb(d.players):
            continue
        fair, share = 1.0 / d.players, d.share()
        ps, worst, outside = [], None, False
        equivalent, beyond = [], []         # games each seat needs to settle either way
        for s in range(d.players):
            x = share[:, s]
            p_tost = float(DescrStatsW(x).ttost_mean(fair - tol, fair + tol)[0])
            mean, lo, hi, n = _t(x)
            ps.append(p_tost)
            dev = mean - fair
            if worst is None or abs(dev) > abs(worst[0]):
                worst = (dev, lo - fair, hi - fair, s)
            outside |= lo > fair + tol or hi < fair - tol
            if abs(dev) < tol:              # TOST's 90% interval must fit inside the margin
                equivalent.append(_needed(n, lo, hi, (tol - abs(dev)) * 1.96 / 1.645))
            else:                           # the 95% interval must clear the margin
                beyond.append(_needed(n, lo, hi, abs(dev) - tol))
        p_max = max(ps)
        verdict = "supported" if p_max < ALPHA else "refuted" if outside else "inconclusive"
        need = None
        if verdict == "inconclusive":       # settled by every seat equivalent, or one beyond
            options = [min(filter(None, beyond), default=None)]
            if not beyond:
                options.append(max(filter(None, equivalent), default=None))
            need = min(filter(None, options), default=None)
        rows.append(_row(claim, _scope(d) + f"; the seat farthest from 1/N is seat "
                         f"{worst[3] + 1}", verdict, f"TOST per seat against 1/N ± {tol:g} "
                         f"(intersection-union: largest p)", p_max, p_max, worst[0], worst[1],
                         worst[2], d.n, need))
    return rows


def _paired_slopes(claim, data, p, select: dict, vary: str, other, test: str):
    """The direction rule on the per-game difference of slopes between each selected setting
    and the setting equal to it but for ``vary`` = ``other`` (same game indices)."""
    rows = []
    for a in _find(data, **select):
        if vary != "tiebreak" and a.own != _default_tb(a.players):
            continue                        # one row per comparison, under the rules' tie-break
        for b in data:
            mb, ma = _meta(b), _meta(a)
            if mb[vary] != other or any(ma[k] != mb[k] for k in ma if k != vary):
                continue
            ia, ib = _pair(a, b)
            x = slope(a.share()[ia]) - slope(b.share()[ib])
            scope = (f"{_scope(a)}, minus the same games counted by the {other} rule"
                     if vary == "tiebreak" else f"{_scope(a)}, minus {other} boats")
            rows.append(_direction(claim, scope, test, x, +1, p["tolerance"] / (a.players - 1)))
    return rows


def _s1c(claim, data, p):
    return _paired_slopes(claim, data, p,
                          dict(allocation="rules", **_base(players=lambda n: n >= 5)),
                          "allocation", "flat",
                          "paired difference of slopes over seats, rules - flat (t over games)")


def _t1(claim, data, p):
    return _paired_slopes(claim, data, p, dict(tiebreak="chain", allocation="rules", **_base()),
                          "tiebreak", "shared",
                          "paired difference of slopes over seats, chain - shared (t over "
                          "the same games)")


def _fractions(d):
    from .stats import explorers_per_colour
    _, value = explorers_per_colour(d.players, d.challenges)
    per = 2 if d.players == 2 else 1
    rescued = (d.rescued / np.maximum(d.explorers, 1)).mean(axis=1)
    valued = (d.score / (per * value)).mean(axis=1)
    return rescued, valued


def _n3(claim, data, p):
    from statsmodels.stats.weightstats import ttost_ind
    tol, rows = p["tolerance"], []
    ref = [d for d in _find(data, players=4, allocation="rules", **_base())]
    if not ref:
        return rows
    r4, v4 = _fractions(ref[0])
    for d in _find(data, players=lambda n: n >= 5, allocation="rules", **_base()):
        if d.own != _default_tb(d.players):
            continue
        r, v = _fractions(d)
        parts = []
        for name, x, y in (("rescued fraction", r, r4), ("value fraction", v, v4)):
            p_tost = float(ttost_ind(x, y, -tol, tol, usevar="unequal")[0])
            diff, lo, hi = _welch(x, y)
            parts.append((name, p_tost, diff, lo, hi))
        p_max = max(q for _, q, *_ in parts)
        outside = any(lo > tol or hi < -tol for *_, lo, hi in parts)
        name, _, diff, lo, hi = max(parts, key=lambda t: abs(t[2]))
        verdict = "supported" if p_max < ALPHA else "refuted" if outside else "inconclusive"
        need = None
        if verdict == "inconclusive" and abs(diff) < tol:
            need = _needed(min(d.n, ref[0].n), lo, hi, (tol - abs(diff)) * 1.96 / 1.645)
        rows.append(_row(claim, f"{_scope(d)} against 4 players; the larger difference is "
                         f"the {name}", verdict, f"Welch TOST of the rescued and value "
                         f"fractions against ± {tol:g} (largest p)", p_max, p_max, diff,
                         lo, hi, d.n + ref[0].n, need))
    return rows


def _t2(claim, data, p):
    from .stats import wilson_ci
    thr, rows = p["threshold"], []
    for d in _find(data, players=lambda n: n <= 4, **_base()):
        if d.own != "shared":
            continue
        ties = int((d.win["shared"].sum(axis=1) > 1).sum())
        from scipy import stats as sps
        rate, lo, hi = wilson_ci(ties, d.n)
        pv = float(sps.binomtest(ties, d.n, thr, alternative="greater").pvalue)
        verdict = "supported" if lo > thr else "refuted" if hi < thr else "inconclusive"
        need = _needed(d.n, lo, hi, abs(rate - thr)) if verdict == "inconclusive" else None
        rows.append(_row(claim, _scope(d), verdict, f"Wilson interval of the tie rate against "
                         f"{thr:g} (one-sided binomial p)", rate, pv, rate, lo, hi, d.n, need))
    return rows


def _n1(claim, data, p):
    from .stats import explorers_per_colour
    by = {}
    for d in _find(data, **_base()):
        if d.own == "shared" and d.players not in by:
            by[d.players] = d
    if 4 not in by or len(by) < 2:
        return []

    def measures(d):
        _, value = explorers_per_colour(d.players, d.challenges)
        top = np.sort(d.score, axis=1)
        gap = (top[:, -1] - top[:, -2]) / ((2 if d.players == 2 else 1) * value)
        tie = (d.win["shared"].sum(axis=1) > 1).astype(float)
        first = d.share()[:, 0] * d.players - 1          # seat 1's excess over 1/N, relative
        return {"closeness (gap of the top two scores)": gap, "shared tops": tie,
                "seat 1's excess win share": first}

    four = measures(by[4])
    better = worse = 0
    words = []
    for name, x in four.items():
        wins, losses = [], []
        for k, d in by.items():
            if k != 4:
                diff, lo, hi = _welch(x, measures(d)[name])
                if hi < 0:
                    wins.append(k)
                elif lo > 0:
                    losses.append(k)
        better += len(wins) == len(by) - 1
        worse += bool(losses)
        words.append(f"{name}: better than {','.join(map(str, wins)) or 'none'}"
                     + (f", worse than {','.join(map(str, losses))}" if losses else ""))
    verdict = "supported" if better >= 2 else "refuted" if worse >= 2 else "inconclusive"
    counts = ", ".join(map(str, sorted(by)))
    return [_row(claim, f"{counts} players, base game, shared tie-break; 4 players' "
                 + "; ".join(words), verdict,
                 "Welch 95% intervals of 4 players' difference to each count, on 3 measures "
                 "(statistic: measures on which 4 is best)", float(better), math.nan,
                 float(better), math.nan, math.nan, sum(d.n for d in by.values()), None)]


def _losses(d):
    return (d.explorers - d.rescued).mean(axis=1)


def _c6(claim, data, p):
    rows = []
    for o in _find(data, players=6, challenges=frozenset({6}), squid=False, squid_only=False):
        base = [b for b in _find(data, players=6, allocation="rules", **_base())
                if b.own == o.own]
        if not base:
            continue
        b = base[0]
        ia, ib = _pair(o, b)
        lost = _direction(claim, "", "", _losses(o)[ia] - _losses(b)[ib], +1, 0.0)
        r_o, _ = _fractions(o)
        r_b, _ = _fractions(b)
        resc = _direction(claim, "", "", r_o[ia] - r_b[ib], -1, 0.0)
        both = {lost["verdict"], resc["verdict"]}
        verdict = "supported" if both == {"supported"} else \
            "refuted" if "refuted" in both else "inconclusive"
        rows.append(_row(claim, f"{_scope(o)} against the standard rules; the rescued "
                         f"fraction changes by {100 * resc['effect']:+.2f} pp "
                         f"[{100 * resc['low']:+.2f}, {100 * resc['high']:+.2f}]", verdict,
                         "paired t over games: losses per player and rescued fraction",
                         lost["statistic"], max(lost["p_value"], resc["p_value"]),
                         lost["effect"], lost["low"], lost["high"], len(ia),
                         max(filter(None, (lost["games_needed"], resc["games_needed"])),
                             default=None)))
    return rows


def _e2(claim, data, p):
    rows = []
    for s in _find(data, squid=True, challenges=frozenset()):
        base = [b for b in _find(data, players=s.players, **_base()) if b.own == s.own]
        if not base:
            continue
        ia, ib = _pair(s, base[0])
        rows.append(_direction(claim, f"{_scope(s)} against the base game",
                               "paired t over games: losses per player and game",
                               _losses(s)[ia] - _losses(base[0])[ib], +1, 0.0))
    return rows


JUDGES = {"S1": _s1, "S1b": _s1b, "S1c": _s1c, "N3": _n3, "T1": _t1, "T2": _t2, "N1": _n1,
          "C6": _c6, "E2": _e2}


def play_label(strategies) -> str:
    """How a setting's tables were played: ``greedy self-play``, ``mixed, every seat in turn:
    a, b, c`` (rotations pooled, ``experiments.rotations``) or ``mixed: a, b, ...`` (one fixed
    seating, where seat and strategy are confounded)."""
    names = list(dict.fromkeys(strategies or ()))
    if names and names[0].startswith(rotated_label(())):     # pooled by ``pool_table``
        return names[0]
    return f"{names[0]} self-play" if len(names) == 1 else "mixed: " + ", ".join(names)


def judged_across(label: str) -> bool:
    """Whether a style of play takes part in the summary across styles: self-play of a rung,
    or a mixed line-up in every rotation (a fixed mixed seating judges the seats it was dealt)."""
    return label.endswith(" self-play") or label.startswith(rotated_label(()))


def _judge(claims: dict, data) -> list[dict]:
    rows = []
    for cid, given in claims.items():
        claim = CLAIMS[cid]
        params = {**claim.params, **given}
        found = JUDGES[cid](claim, data, params)
        if cid == "S1b" and found:                      # S1b's second part: S1c
            found += JUDGES["S1c"](CLAIMS["S1c"], data, {**CLAIMS["S1c"].params, **given})
        rows += found or [_row(claim, "the run holds none of the settings this claim needs",
                               "inconclusive", "none", math.nan, math.nan, math.nan,
                               math.nan, math.nan, 0, None)]
    return rows


LADDER_RULE = ("across the ladder (the same claim and scope judged on each style of play: "
               "self-play of each rung, and each mixed line-up played in every rotation and "
               "pooled): 'holds for every style' when every style's verdict is supported; "
               "'refuted for every style' when every one is refuted; 'depends on the style of "
               "play' when some are supported and others refuted; 'holds for some styles' when "
               "some are supported and the rest inconclusive; 'inconclusive' otherwise")


def ladder_summary(verdicts: list[str]) -> str:
    """One claim and scope over the styles of play (``LADDER_RULE``)."""
    v = set(verdicts)
    if v == {"supported"}:
        return "holds for every style"
    if v == {"refuted"}:
        return "refuted for every style"
    if {"supported", "refuted"} <= v:
        return "depends on the style of play"
    if "supported" in v:
        return "holds for some styles"
    if "refuted" in v:
        return "refuted for some styles, inconclusive for the others"
    return "inconclusive"


def verdicts(df: pd.DataFrame, claims: dict) -> pd.DataFrame:
    """One row per claim and scope judged on the run table ``df``. A claim the run cannot
    judge (its settings are not in the run) gets one ``inconclusive`` row saying so.

    A run played by several styles (a strategy axis in the grid) is judged once per style, on
    that style's settings alone (so every comparison a claim makes stays within one style);
    the rotations of a mixed line-up are pooled first (``experiments.rotations``) and judged as
    one style. ``play`` names the style and ``across_ladder`` sums up each claim and scope over
    the styles that take part (``judged_across``, ``LADDER_RULE``). With one style both
    columns are still filled."""
    from .stats import prepare_all
    data = prepare_all(pool_table(df))
    groups: dict[str, list] = {}
    for d in data:
        groups.setdefault(play_label(d.factors.get("strategies")), []).append(d)
    rows = []
    for label, part in groups.items():
        for r in _judge(claims, part):
            r["play"] = label
            rows.append(r)
    out = pd.DataFrame(rows, columns=list(COLUMNS) + ["play"])
    out["n"] = out["n"].astype("int64")
    out["games_needed"] = pd.array(out["games_needed"], dtype="Int64")
    part_of = out["play"].map(judged_across).astype(bool)
    styles = sum(judged_across(label) for label in groups)
    where = out["scope"].str.split(";").str[0]       # the setting, not what was found there
    across = {}
    for (cid, scope), g in out[part_of].groupby([out["claim"][part_of], where[part_of]],
                                                sort=False):
        across[(cid, scope)] = (ladder_summary(list(g["verdict"])) if styles > 1
                                else "one style of play only")
    out["across_ladder"] = [across.get((c, sc), "") for c, sc in zip(out["claim"], where)]
    return out
