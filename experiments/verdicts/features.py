"""The per-index features every verdict reads, declared in one place: per game, then averaged
within each game index (the unit of every interval: ``experiments.verdicts.catalog``), one interface
for every kind -- ``names(kind, e)`` and ``rows(kind, parts, e)``.

* ``base`` (``BASE``): what the seat-balance verdicts of one setting or a pair read
  (``Catalog.one``, ``Catalog.pair``, keyed by the labels alone): each seat's tie-split win
  share under either rule, the rescued and value fractions, the losses, the tie, the winning
  gap and the slopes of win share over seats (``base_names``); a pair adds the differences of
  the features both settings have (``pair_names``).
* the named **sets** (``SETS``): joints of k settings over one set on their common indices
  (``Catalog.joint(entries, kind)``, keyed ``("@<set>", label, ...)``: part ``i``'s features
  are ``i:<name>``), kept apart from the base so that each joint holds only what its judges
  read.

The sets (per game; with 2 players each player is the sum of two seats, as everywhere):

* ``seat``: each player's tie-split win share under the setting's own rule (``share_p``),
  score (``score_p``) and turns (``turns_p``).
* ``turn``: within the game, each player's turns and score less the game's mean over players
  (``x_p``, ``y_p``), the win share ``w_p``, and the products ``xx_p``, ``xy_p``, ``xw_p``:
  the moments of a regression of score (or win share) on turns within a seat, with the game's
  length taken out (``slope``).
* ``game``: the rescued and value fractions and explorers lost per player (as the base
  features), the length in rounds (seat-turns / seats), explorers lost per player and round,
  whether the turn cap ended the game (seat-turns reached ``max_turns``, R10), whether the
  house rule "most explorers rescued wins, value breaks ties" names other winners than the
  rule in force (``house``), whether value scoring would name other winners than the score in
  force (``valuewin``: under Challenge 3 the score is a count), whether the top score is shared,
  and seat 1's win share (``first``).
* ``causes``: explorers lost per player to each cause, and to sharks and serpents together
  (``sea``); needs the run's ``lost_<cause>_<seat>`` columns (``games.cause_columns``).
* ``strategy``: per strategy at the table (a mixed line-up), the win share of the seats it
  holds (``share_<name>``) and their mean score (``score_<name>``), each rotation's seating
  read from the entry.
* ``variance``: per player the score ``a_p``, its square ``e_p`` (means over the index's
  rotations), the square of the mean ``a2_p`` (taken after the rotations are averaged) and per
  strategy the mean score ``b_<name>``: the moments of a variance decomposition
  (``experiments.verdicts.claims.skill_leader``, K2).

Everything a judge reads is a smooth function of the means of these per-index values:
``combo`` (a linear combination, e.g. a paired difference averaged over seats), ``cross``
(the covariance of two combinations' estimates), ``delta`` (any smooth function, by the delta
method with a numerical gradient).
"""
from __future__ import annotations

import functools
import math

import numpy as np

from simulator.scoring import TIEBREAKS, decide

from ..tables.games import LOSS_CAUSES, SettingData, explorers_per_colour
from ..tables.rotations import ROTATION_STRIDE, rotate
from .inference import Estimate

BASE = "base"
SETS = ("seat", "turn", "game", "causes", "strategy", "variance")
GAME = ("rescued", "value", "losses", "rounds", "lost_round", "capped", "house", "valuewin",
        "tie", "first")
PREFIX = "@"


def key_of(kind: str, labels) -> tuple[str, ...]:
    """The catalog key of a joint of ``labels`` over the set ``kind``."""
    if kind not in SETS:
        raise ValueError(f"unknown feature set {kind!r}; known: {', '.join(SETS)}")
    return (PREFIX + kind, *labels)


def is_set_key(key: tuple) -> bool:
    return bool(key) and str(key[0]).startswith(PREFIX)


def strategies_of(e) -> list[str]:
    """The strategies a (pooled) entry's players hold, sorted."""
    names = e.seating if e.seating is not None else e.strategies
    return sorted(set(names))


def names(kind: str, e) -> list[str]:
    """The features of one entry of the kind ``kind`` (``BASE`` or one of ``SETS``)."""
    ps = range(e.players)
    if kind == BASE:
        return base_names(e.players)
    if kind == "seat":
        return [f"{k}_{p}" for k in ("share", "score", "turns") for p in ps]
    if kind == "turn":
        return [f"{k}_{p}" for k in ("x", "y", "w", "xx", "xy", "xw") for p in ps]
    if kind == "game":
        return list(GAME)
    if kind == "causes":
        return list(LOSS_CAUSES) + ["sea"]
    if kind == "strategy":
        return [f"{k}_{t}" for k in ("share", "score") for t in strategies_of(e)]
    if kind == "variance":
        return ([f"{k}_{p}" for k in ("a", "e", "a2") for p in ps]
                + [f"b_{t}" for t in strategies_of(e)])
    raise ValueError(f"unknown feature set {kind!r}")


def joint_names(key: tuple, entries: list) -> list[str]:
    kind = key[0][len(PREFIX):]
    return [f"{i}:{n}" for i, e in enumerate(entries) for n in names(kind, e)]


# ------------------------------------------------------------------------------ the base
SCALARS = ("rescued", "value", "losses", "tie", "gap", "slope_chain", "slope_shared",
           "slope_rules")


def base_names(players: int) -> list[str]:
    """The per-index features of one setting: each seat's tie-split win share under each
    rule, then ``SCALARS`` (``slope_rules`` is the chain's slope less the shared win's)."""
    return [f"share_{rule}_{s}" for rule in TIEBREAKS for s in range(players)] + list(SCALARS)


def slope_weights(players: int) -> np.ndarray:
    """Least-squares slope of win share on seat position 1..N, as weights on the seats."""
    c = np.arange(players) - (players - 1) / 2
    return c / (c * c).sum()


def seat_slope(shares: np.ndarray) -> np.ndarray:
    """Per index, the slope of win share over seats; its mean is the slope of the means."""
    return shares @ slope_weights(shares.shape[1])


def _game_values(d: SettingData) -> np.ndarray:
    """Per game (row), the features before averaging within the index."""
    _, value = explorers_per_colour(d.players, d.challenges)
    per = 2 if d.players == 2 else 1
    shares = [d.share(rule) for rule in TIEBREAKS]
    rescued = (d.rescued / np.maximum(d.explorers, 1)).mean(axis=1)
    valued = (d.score / (per * value)).mean(axis=1)
    losses = (d.explorers - d.rescued).mean(axis=1)
    tie = (d.win["shared"].sum(axis=1) > 1).astype(float)
    top = np.sort(d.score, axis=1)
    gap = (top[:, -1] - top[:, -2]) / (per * value) if d.players > 1 else np.zeros(d.n)
    w = slope_weights(d.players)
    sl = [s @ w for s in shares]
    return np.column_stack(shares + [rescued, valued, losses, tie, gap, sl[1], sl[0],
                                     sl[1] - sl[0]])


def per_index(d: SettingData) -> tuple[np.ndarray, np.ndarray]:
    """``(indices, features)`` of one setting, or of a pooled table whose rotation r's game g
    is ``r * ROTATION_STRIDE + g`` (each index's rows averaged), indices sorted."""
    x = _game_values(d)
    base = d.games % ROTATION_STRIDE
    if len(base) == 0 or bool(np.all(np.diff(base) > 0)):
        return base, x
    idx, inverse, counts = np.unique(base, return_inverse=True, return_counts=True)
    out = np.column_stack([np.bincount(inverse, weights=x[:, j], minlength=len(idx))
                           for j in range(x.shape[1])])
    return idx, out / counts[:, None]


def per_index_pooled(parts: list[SettingData], label: str) -> tuple[np.ndarray, np.ndarray]:
    """The per-index features of one pooled table from its rotations' (each plays every index
    once, so an index's mean is the mean of the rotations' values), one rotation at a time."""
    idx, total = per_index(parts[0])
    for p in parts[1:]:
        i, x = per_index(p)
        if not np.array_equal(i, idx):
            raise ValueError(f"the rotations of {label} hold different games")
        total = total + x
    return idx, total / len(parts)


def _names(players: int, prefix: str) -> list[str]:
    return [f"{prefix}:{k}" for k in base_names(players)]


def pair_names(pa: int, pb: int | None = None) -> list[str]:
    """A joint's feature names: ``0:<feature>`` (and ``1:<feature>``, ``d:<feature>`` for a
    pair: the differences of the features both settings have)."""
    if pb is None:
        return _names(pa, "0")
    common = [k for k in base_names(pa) if k in base_names(pb)]
    return _names(pa, "0") + _names(pb, "1") + [f"d:{k}" for k in common]


def pair_columns(xa: np.ndarray, pa: int, xb: np.ndarray | None = None,
               pb: int | None = None) -> np.ndarray:
    """The rows a joint adds: one setting's features, or two settings' (paired rows) and
    their differences."""
    if xb is None:
        return xa
    fa, fb = base_names(pa), base_names(pb)
    common = [k for k in fa if k in fb]
    ia, ib = [fa.index(k) for k in common], [fb.index(k) for k in common]
    return np.hstack([xa, xb, xa[:, ia] - xb[:, ib]])


def pair_rows(a: tuple[np.ndarray, np.ndarray], b: tuple[np.ndarray, np.ndarray],
              pa: int, pb: int) -> np.ndarray:
    """The paired rows of two settings' per-index features on their common indices."""
    _, ia, ib = np.intersect1d(a[0], b[0], assume_unique=True, return_indices=True)
    return pair_columns(a[1][ia], pa, b[1][ib], pb)


# ------------------------------------------------------------------------------ per game
def _player_strategies(d: SettingData, seating: tuple) -> list[str]:
    owners = d.owners or {p: [p] for p in range(d.players)}
    return [seating[owners[p][0]] if seating else "" for p in range(d.players)]


def count_of(e) -> dict[str, int]:
    """How many players hold each strategy (the same in every rotation): player ``p``'s
    strategy is its first seat's, seat ``p`` (with 2 players seats A,B,A,B)."""
    names_ = e.seating if e.seating is not None else e.strategies
    counts: dict[str, int] = {}
    for t in list(names_)[:e.players]:
        counts[t] = counts.get(t, 0) + 1
    return counts


def _game(d: SettingData) -> np.ndarray:
    _, value = explorers_per_colour(d.players, d.challenges)
    per = 2 if d.players == 2 else 1
    score = d.score.astype(float)
    rescued = (d.rescued / np.maximum(d.explorers, 1)).mean(axis=1)
    valued = (score / (per * value)).mean(axis=1)
    losses = (d.explorers - d.rescued).astype(float).mean(axis=1)
    seat_turns = d.turns.astype(float).sum(axis=1)
    rounds = seat_turns / d.seats
    lost_round = np.where(rounds > 0, losses / np.maximum(rounds, 1e-12), 0.0)
    capped = (seat_turns >= d.max_turns).astype(float)
    own = d.win[d.own]
    big = int(np.max(d.score, initial=0)) + 1
    key = d.rescued.astype(np.int64) * big + d.score.astype(np.int64)
    house = key == key.max(axis=1, keepdims=True)
    house_change = (house != own).any(axis=1).astype(float)
    if d.value is None:
        valuewin = np.zeros(d.n)
    else:
        v = d.value.astype(np.int64)
        by_value, _ = decide(v, d.rescued.astype(np.int64), v, d.turns.astype(np.int64),
                             rule=d.own, equal=False)
        valuewin = (by_value != own).any(axis=1).astype(float)
    tie = (d.win["shared"].sum(axis=1) > 1).astype(float)
    first = d.share(d.own)[:, 0]
    return np.column_stack([rescued, valued, losses, rounds, lost_round, capped, house_change,
                            valuewin, tie, first])


def _per_game(kind: str, d: SettingData, e, seating: tuple) -> np.ndarray:
    """Per game (rows of ``d``) the features of ``kind`` (``seating``: this rotation's)."""
    if kind == "seat":
        return np.hstack([d.share(d.own), d.score.astype(float), d.turns.astype(float)])
    if kind == "turn":
        t, s = d.turns.astype(float), d.score.astype(float)
        x = t - t.mean(axis=1, keepdims=True)
        y = s - s.mean(axis=1, keepdims=True)
        w = d.share(d.own)
        return np.hstack([x, y, w, x * x, x * y, x * w])
    if kind == "game":
        return _game(d)
    if kind == "causes":
        if not d.lost:
            raise ValueError(f"{d.label}: losses by cause need the run's lost_<cause>_<seat> "
                             f"columns")
        cols = [d.lost[c].astype(float).mean(axis=1) for c in LOSS_CAUSES]
        sea = (d.lost["shark"].astype(float) + d.lost["serpent"]).mean(axis=1)
        return np.column_stack(cols + [sea])
    held = _player_strategies(d, seating)
    share, score = d.share(d.own), d.score.astype(float)
    names_ = strategies_of(e)
    if kind == "strategy":
        out = []
        for t in names_:
            mask = np.array([h == t for h in held])
            out.append(share[:, mask].sum(axis=1))
        for t in names_:
            mask = np.array([h == t for h in held])
            out.append(score[:, mask].mean(axis=1))
        return np.column_stack(out)
    if kind == "variance":
        b = [score[:, np.array([h == t for h in held])].mean(axis=1) for t in names_]
        return np.hstack([score, score * score, np.zeros_like(score), np.column_stack(b)])
    raise ValueError(f"unknown feature set {kind!r}")


def _seatings(e, count: int) -> list[tuple]:
    if e.seating is not None:
        return [rotate(e.seating, r) for r in range(count)]
    return [tuple(e.strategies)] * count


def rows(kind: str, parts: list[SettingData], e) -> tuple[np.ndarray, np.ndarray]:
    """``(indices, values)`` of one entry (its rotations in order, or its one setting): each
    rotation's per-game features, the rotations averaged within each index."""
    if kind == BASE:
        return per_index(parts[0]) if e.seating is None else per_index_pooled(parts, e.label)
    seatings = _seatings(e, len(parts))
    idx, total = None, None
    for d, seating in zip(parts, seatings):
        x = _per_game(kind, d, e, seating)
        games = d.games
        if len(games) and not bool(np.all(np.diff(games) > 0)):
            order = np.argsort(games, kind="stable")
            games, x = games[order], x[order]
        if idx is None:
            idx, total = games, x.copy()
            continue
        if not np.array_equal(idx, games):
            raise ValueError(f"the rotations of {e.label} hold different games")
        total += x
    out = total / len(parts)
    if kind == "variance":                           # the square of the index's mean
        p = e.players
        out[:, 2 * p:3 * p] = out[:, :p] ** 2
    return idx, out


def joint_rows(values: list[tuple[np.ndarray, np.ndarray]]) -> np.ndarray:
    """The rows of a joint: each entry's features on the indices all of them hold."""
    common = functools.reduce(np.intersect1d, [v[0] for v in values])
    out = []
    for idx, x in values:
        at = np.searchsorted(idx, common)
        out.append(x[at])
    return np.hstack(out) if out else np.zeros((0, 0))


# ------------------------------------------------------------------------------ estimates
def col(j, name: str, part: int = 0) -> int:
    return j.names.index(f"{part}:{name}")


def _terms(terms) -> tuple[np.ndarray, np.ndarray]:
    cols = np.array([c for c, _ in terms], dtype=np.int64)
    w = np.array([w for _, w in terms], dtype=float)
    return cols, w


def combo(j, terms: list[tuple[int, float]], lo: float = -math.inf, hi: float = math.inf
          ) -> Estimate:
    """The estimate of ``sum w * mean(column)`` (``terms``: ``(column, weight)``): the mean of
    the per-index linear combination, so its interval is a mean's. All values equal (a zero
    variance) is the constant sample of ``inference``."""
    m = j.mom
    if m.n == 0 or not terms:
        return Estimate(math.nan, math.nan, 0, lo, hi)
    cols, w = _terms(terms)
    value = float(w @ m.mean[cols])
    cov = m.cov()[np.ix_(cols, cols)]
    var = float(w @ cov @ w) if m.n > 1 else 0.0
    scale = float((np.abs(w) @ np.sqrt(np.maximum(np.diag(cov), 0.0))) ** 2)
    constant = m.n > 1 and var <= 1e-20 * max(scale, 1e-300) or (m.n > 1 and scale == 0.0)
    sd = 0.0 if constant else math.sqrt(max(var, 0.0))
    return Estimate(value, sd, m.n, lo, hi, False, bool(constant))


def cross(j, a: list[tuple[int, float]], b: list[tuple[int, float]]) -> float:
    """The per-index covariance of two linear combinations."""
    ca, wa = _terms(a)
    cb, wb = _terms(b)
    return float(wa @ j.mom.cov()[np.ix_(ca, cb)] @ wb)


def delta(j, f, cols: list[int], lo: float = -math.inf, hi: float = math.inf) -> Estimate:
    """The estimate of ``f(means of cols)`` by the delta method: the per-index influence of
    each mean is its value less the mean, so the estimate's per-index sd is ``sqrt(g' C g)``
    with ``g`` the gradient of ``f`` (central differences) and ``C`` the columns'
    covariance."""
    m = j.mom
    if m.n < 2:
        return Estimate(math.nan, math.nan, m.n, lo, hi)
    mu = m.mean[cols].astype(float)
    try:
        value = float(f(mu))
    except (ZeroDivisionError, FloatingPointError, ValueError):
        return Estimate(math.nan, math.nan, m.n, lo, hi)
    if not math.isfinite(value):
        return Estimate(math.nan, math.nan, m.n, lo, hi)
    g = np.zeros(len(cols))
    for i in range(len(cols)):
        h = 1e-6 * max(1.0, abs(mu[i]))
        up, dn = mu.copy(), mu.copy()
        up[i] += h
        dn[i] -= h
        g[i] = (float(f(up)) - float(f(dn))) / (2 * h)
    var = float(g @ m.cov()[np.ix_(cols, cols)] @ g)
    if not math.isfinite(var):
        return Estimate(math.nan, math.nan, m.n, lo, hi)
    return Estimate(value, math.sqrt(max(var, 0.0)), m.n, lo, hi)


def slope(j, part: int, p: int, y: str = "y") -> tuple[list[int], object]:
    """Columns and function of the within-seat least-squares slope of ``y`` (``y``: score less
    the game's mean, or ``w``: win share) on ``x`` (turns less the game's mean) for player
    ``p``: cov(x, y) / var(x) from the means of x, y, xx and x*y."""
    cols = [col(j, f"x_{p}", part), col(j, f"{y}_{p}", part), col(j, f"xx_{p}", part),
            col(j, f"x{y}_{p}", part)]

    def f(m):
        var = m[2] - m[0] * m[0]
        return (m[3] - m[0] * m[1]) / var if var > 0 else math.nan
    return cols, f


__all__ = ["BASE", "SETS", "base_names", "col", "combo", "count_of", "cross", "delta",
           "is_set_key", "joint_names", "joint_rows", "key_of", "names", "pair_columns",
           "pair_names", "pair_rows", "per_index", "per_index_pooled", "rows", "seat_slope",
           "slope", "slope_weights", "strategies_of"]
