"""Summary statistics of a per-game results table (one row per game, see the README's columns).

Pure pandas/numpy: no engine import, so it works on any saved table (Parquet or CSV read back)
as well as on ``simulator.simulate.simulate``'s frame. ``Totals`` keeps only counts and exact
sums, added chunk by chunk, so a run of any length is summarised in constant memory (and the
one-frame functions, ``summary_table`` and ``run_summary``, are ``Totals`` fed once: the two
always print the same numbers).

Project rule: every rate carries its 95% interval and its sample size n, and an interval stays
inside the metric's range and keeps its width when every outcome is the same:

* Proportions of games (win rate, tie rate, scoreless and turn-capped games, the tie-break steps):
  the Wilson score interval, in closed form (``wilson``; checked in the tests against
  ``statsmodels``' ``proportion_confint(..., method="wilson")``: importing statsmodels takes
  about 1.8 s, which alone would break the CLI's start-up budget, so it is a test dependency).
* Means of a per-game quantity X known to lie in [lo, hi] (``bounded_mean_ci``): the normal
  interval ``mean +- z * sd / sqrt(n)`` (z, sd with n - 1) when the sample varies (sd > 0) and
  the interval lies inside [lo, hi]; otherwise the Wilson interval of the mean scaled to [0, 1],
  ``wilson(sum((X - lo) / (hi - lo)), n)`` mapped back to [lo, hi] (conservative: a quantity in
  [0, 1] with mean p has variance at most p(1 - p)). The ranges: the rescue rate, a game's share
  of the player's explorers rescued, [0, 1] (its unit is the game: one game's explorers share
  its fate); the score, [0, the player's explorer values] (B1.2: 28 for 10 explorers, X1.1: 24
  for 8, X1.2: 22 for 7; the explorer count under Challenge 3); turns, [0, max_turns] (R10);
  dolphins placed, [0, 4] (X5.2); giant squid placed, [0, 5] (B1.7); explorers lost to squid,
  [0, the explorers in play].
* The Overpopulated bonus moves per game (X6.3) have no finite upper bound: the normal interval,
  clipped nowhere (zero width if every game has the same count).

Players and seats (B4.5): with 3 to 6 players every player has one seat; with 2 players the four
seats sit A,B,A,B and a player's result is the sum of their two seats (``player_s`` says who owns
seat ``s``). Winners follow the table's tie-break rule (its ``tiebreak`` column, or the rules'
default: B7.3's shared win for 2-4 players, X1.6's chain for 5-6), which any function here can
override: under ``shared`` every player with the top score wins, so a game with a tie counts as a
win for each tied player and the win counts of a run can add up to more than its number of
games; under ``chain`` only the ties the chain cannot break are shared.
"""
from __future__ import annotations

import math
from fractions import Fraction
from statistics import NormalDist

import numpy as np
import pandas as pd

from simulator.scoring import STEPS, TIEBREAKS, decide

ALPHA = 0.05
Z = NormalDist().inv_cdf(1 - ALPHA / 2)          # 1.959963984540054
MAX_SEATS = 6
DOLPHINS = 4                                     # X5.2: four dolphin tiles, one dolphin each
GIANT_SQUID = 5                                  # B1.7
EXPLORER_VALUES = {10: 28, 8: 24, 7: 22}         # B1.2, X1.1, X1.2: a colour's values by count


# ---------------------------------------------------------------------------- intervals
def wilson(count, nobs, alpha: float = ALPHA):
    """Wilson score interval ``(lo, hi)`` of ``count`` successes in ``nobs`` trials.

    Scalars or arrays; ``nobs == 0`` gives NaN bounds. ``count`` need not be whole (the
    fallback of ``bounded_mean_ci`` passes a sum of shares).
    """
    count = np.asarray(count, dtype=float)
    nobs = np.asarray(nobs, dtype=float)
    z = NormalDist().inv_cdf(1 - alpha / 2)
    n = np.where(nobs > 0, nobs, 1.0)
    p = np.where(nobs > 0, count, 0.0) / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * np.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    # exact at the edges: rounding leaves ~1e-19 where the closed form gives 0 (or 1)
    lo = np.where(count <= 0, 0.0, np.clip(centre - half, 0.0, 1.0))
    hi = np.where(count >= nobs, 1.0, np.clip(centre + half, 0.0, 1.0))
    lo = np.where(nobs > 0, lo, np.nan)
    hi = np.where(nobs > 0, hi, np.nan)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def mean_ci(values, alpha: float = ALPHA) -> tuple[float, float, float, float, int]:
    """``(mean, sd, lo, hi, n)`` with the plain normal interval for the mean (no range)."""
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n == 0:
        return (np.nan, np.nan, np.nan, np.nan, 0)
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else np.nan
    z = NormalDist().inv_cdf(1 - alpha / 2)
    half = z * sd / np.sqrt(n) if n > 1 else np.nan
    return (mean, sd, mean - half, mean + half, n)


def bounded_interval(n: int, mean: float, sd: float, lo: float, hi: float,
                     alpha: float = ALPHA) -> tuple[float, float]:
    """The 95% interval of the mean of ``n`` values in ``[lo, hi]`` with sample mean ``mean``
    and sample sd ``sd`` (n - 1): the module's rule (normal if it varies and fits, else the
    scaled Wilson interval). An infinite ``hi`` or ``lo`` means no range: the normal interval."""
    if n == 0:
        return (np.nan, np.nan)
    bounded = math.isfinite(lo) and math.isfinite(hi)
    if n > 1 and sd > 0:
        half = NormalDist().inv_cdf(1 - alpha / 2) * sd / math.sqrt(n)
        a, b = mean - half, mean + half
        if not bounded or (lo <= a and b <= hi):
            return (a, b)
    elif not bounded:
        return (mean, mean) if n > 1 else (np.nan, np.nan)
    width = hi - lo
    if width <= 0:
        return (lo, hi)
    count = min(max(n * (mean - lo) / width, 0.0), float(n))
    wlo, whi = wilson(count, n, alpha)
    return (lo + width * wlo, lo + width * whi)


def bounded_mean_ci(values, lo: float, hi: float,
                    alpha: float = ALPHA) -> tuple[float, float, float, int]:
    """``(mean, lo, hi, n)`` of per-game values known to lie in ``[lo, hi]`` (see the module's
    rule; ``hi = math.inf`` for a count without an upper bound)."""
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n == 0:
        return (np.nan, np.nan, np.nan, 0)
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else np.nan
    return (mean, *bounded_interval(n, mean, sd, lo, hi, alpha), n)


class Moments:
    """Size, sum and sum of squares of a per-game quantity, exact (ints, or fractions for the
    rescue shares), with its range: its mean and interval, added chunk by chunk, come out the
    same however the games were cut."""

    def __init__(self, lo: float = 0, hi: float | None = None):
        self.n, self.s1, self.s2 = 0, 0, 0
        self.lo, self.hi = lo, hi              # hi None: set from the data by ``widen``

    def add(self, x) -> None:
        x = np.asarray(x, dtype=np.int64)
        self.n += int(x.size)
        self.s1 += int(x.sum())
        self.s2 += int((x * x).sum())

    def add_shares(self, num, den) -> None:
        """The values ``num / den`` (games with ``den == 0`` are left out)."""
        num, den = np.asarray(num, np.int64), np.asarray(den, np.int64)
        for e in np.unique(den[den > 0]):
            k = num[den == e]
            self.n += int(k.size)
            self.s1 += Fraction(int(k.sum()), int(e))
            self.s2 += Fraction(int((k * k).sum()), int(e) * int(e))

    def widen(self, hi) -> None:
        if len(np.atleast_1d(hi)):
            top = float(np.max(hi))
            self.hi = top if self.hi is None else max(self.hi, top)

    def ci(self, alpha: float = ALPHA) -> tuple[float, float, float, float]:
        """``(mean, sd, lo, hi)``; NaN without values."""
        if self.n == 0:
            return (np.nan, np.nan, np.nan, np.nan)
        mean = Fraction(self.s1) / self.n
        var = (Fraction(self.s2) - Fraction(self.s1) ** 2 / self.n) / (self.n - 1) \
            if self.n > 1 else None
        sd = math.sqrt(var) if var is not None else np.nan
        hi = math.inf if self.hi is None else self.hi
        return (float(mean), sd, *bounded_interval(self.n, float(mean), sd, self.lo, hi, alpha))


# ---------------------------------------------------------------------------- table shape
def n_players(df: pd.DataFrame) -> int:
    """The player count of the run (all rows must share it)."""
    if not len(df):
        raise ValueError("the table has no games")
    values = pd.unique(df["players"].astype("int64"))
    if len(values) != 1:
        raise ValueError(f"the table mixes player counts {sorted(int(v) for v in values)}; "
                         f"summarise each player count separately")
    return int(values[0])


def n_seats(df: pd.DataFrame) -> int:
    if "seats" in df.columns and len(df):
        values = pd.unique(df["seats"].astype("int64"))
        if len(values) != 1:
            raise ValueError(f"the table mixes seat counts {sorted(int(v) for v in values)}")
        return int(values[0])
    players = n_players(df)
    return 4 if players == 2 else players


def seats_of_players(df: pd.DataFrame) -> dict[int, list[int]]:
    """``{player: [seats]}`` from the ``player_s`` columns (B4.5: 2 players -> A,B,A,B)."""
    players, seats = n_players(df), n_seats(df)
    out: dict[int, list[int]] = {p: [] for p in range(players)}
    for s in range(seats):
        col = f"player_{s}"
        if col in df.columns:
            owners = pd.unique(df[col].astype("int64"))
            if len(owners) != 1:
                raise ValueError(f"seat {s} belongs to different players in different rows")
            p = int(owners[0])
        else:
            p = s % players
        if p not in out:
            raise ValueError(f"seat {s} belongs to player {p}, but the table has {players} "
                             f"players (0-{players - 1})")
        out[p].append(s)
    return out


def _seat_ints(df: pd.DataFrame, name: str, s: int) -> np.ndarray:
    return df[f"{name}_{s}"].astype("int64").to_numpy()


# ---------------------------------------------------------------------------- per game
def player_scores(df: pd.DataFrame) -> pd.DataFrame:
    """Per game (same index as ``df``) and per player ``p``: ``score_p``, ``rescued_p``,
    ``rescued_value_p``, ``turns_p`` and ``explorers_p`` (explorers in play = rescued + lost,
    stranded included). With 2 players each is the sum of the player's two seats."""
    owners = seats_of_players(df)
    cols: dict[str, object] = {}
    for key in ("game", "seed"):
        if key in df.columns:
            cols[key] = df[key].to_numpy()
    for name in ("score", "rescued", "rescued_value", "turns"):
        for p, seats in owners.items():
            cols[f"{name}_{p}"] = sum(_seat_ints(df, name, s) for s in seats)
    for p, seats in owners.items():
        cols[f"explorers_{p}"] = sum(_seat_ints(df, "rescued", s) + _seat_ints(df, "lost", s)
                                     for s in seats)
    return pd.DataFrame(cols, index=df.index)


def _key_matrix(ps: pd.DataFrame, name: str, players: int) -> np.ndarray:
    return np.column_stack([ps[f"{name}_{p}"].to_numpy() for p in range(players)]) \
        if len(ps) else np.zeros((0, players), np.int64)


def tiebreak_rule(df: pd.DataFrame, tiebreak: str | None = None) -> str:
    """The tie-break to apply: ``tiebreak`` if given, else the table's ``tiebreak`` column,
    else the rules' default for its player count (chain for 5-6, shared for 2-4)."""
    if tiebreak is not None:
        if tiebreak not in TIEBREAKS:
            raise ValueError(f"tiebreak must be one of {', '.join(TIEBREAKS)}, got {tiebreak!r}")
        return tiebreak
    if "tiebreak" in df.columns and len(df):
        values = pd.unique(df["tiebreak"].astype(str))
        if len(values) != 1:
            raise ValueError(f"the table mixes tie-break rules {sorted(values)}; pass one")
        return tiebreak_rule(df, str(values[0]))
    return "chain" if n_players(df) >= 5 else "shared"


def _equal(df: pd.DataFrame):
    """Per game: Challenge 3 (Everyone is Equal) in force (X1.6 (b), X2.3)."""
    if "challenges" not in df.columns:
        return np.zeros(len(df), dtype=bool)
    return np.array(["3" in str(c).split(",") for c in df["challenges"]], dtype=bool)


def _keys(df: pd.DataFrame, ps: pd.DataFrame | None = None) -> list[np.ndarray]:
    ps = player_scores(df) if ps is None else ps
    players = n_players(df)
    return [_key_matrix(ps, name, players) for name in ("score", "rescued", "rescued_value",
                                                         "turns")]


def winners(df: pd.DataFrame, tiebreak: str | None = None) -> pd.DataFrame:
    """Boolean, one row per game (``df``'s index) and one column per player: True for each
    winner under the tie-break rule (``tiebreak_rule``); a tie left standing is shared."""
    win, _ = decide(*_keys(df), rule=tiebreak_rule(df, tiebreak), equal=_equal(df))
    return pd.DataFrame(win, index=df.index, columns=range(win.shape[1]))


def decided_by(df: pd.DataFrame, tiebreak: str | None = None) -> pd.Series:
    """Per game, the step that decided it: ``score`` (a single top scorer), a step of the
    X1.6 chain (``rescued``, ``value``, ``turns``) or ``shared`` (the tie stood)."""
    _, step = decide(*_keys(df), rule=tiebreak_rule(df, tiebreak), equal=_equal(df))
    return pd.Series(pd.Categorical.from_codes(step, categories=list(STEPS)), index=df.index,
                     name="decided_by")


def shared_top(df: pd.DataFrame) -> pd.Series:
    """True for the games whose top score is held by two or more players (before any
    tie-break)."""
    return winners(df, "shared").sum(axis=1) > 1


# ---------------------------------------------------------------------------- totals
class Totals:
    """The counts and exact sums a summary needs, added one chunk of games at a time.

    ``add`` every chunk of a run (each a table in the simulator's layout, all of one setting),
    then ``table()`` / ``run()`` give what ``summary_table`` / ``run_summary`` give for the
    whole table, without holding it: memory does not grow with the number of games."""

    def __init__(self, tiebreak: str | None = None):
        self.override = tiebreak
        self.games = 0
        self.shape: tuple | None = None          # (players, seats, owners, tie-break rule)

    def _start(self, players: int, seats: int, owners: dict) -> None:
        self.owners = owners
        self.names: dict[int, list[str]] = {s: [] for s in range(seats)}
        self.wins = np.zeros(players, np.int64)
        self.shared_wins = np.zeros(players, np.int64)
        self.rescued = np.zeros(players, np.int64)
        self.explorers = np.zeros(players, np.int64)
        self.score = [Moments() for _ in range(players)]
        self.share = [Moments(0, 1) for _ in range(players)]
        self.ties = self.scoreless = 0
        self.steps = np.zeros(len(STEPS), np.int64)
        self.reasons: dict[str, int] = {}
        self.reason_order: list[str] | None = None    # the categories, for a categorical column
        self.plain_reasons = False
        self.turns = Moments()
        self.extra = {"bonus": Moments(0, math.inf), "dolphins": Moments(0, DOLPHINS),
                      "squid": Moments(0, GIANT_SQUID), "squid_lost": Moments()}
        self.shown = {"bonus": False, "dolphins": False, "squid": False}

    def add(self, df: pd.DataFrame) -> Totals:
        if not len(df):
            return self
        players, seats, owners = n_players(df), n_seats(df), seats_of_players(df)
        shape = (players, seats, owners, tiebreak_rule(df, self.override))
        if self.shape is None:
            self.shape = shape
            self._start(players, seats, owners)
        elif shape != self.shape:
            raise ValueError("the chunks of a run differ in players, seats or tie-break rule")
        rule = shape[3]
        ps = player_scores(df)
        keys = _keys(df, ps)
        equal = _equal(df)
        win, step = decide(*keys, rule=rule, equal=equal)
        top = win if rule == "shared" else decide(*keys, rule="shared")[0]
        tie = win.sum(axis=1) > 1
        self.games += len(df)
        self.wins += win.sum(axis=0)
        self.shared_wins += (win & tie[:, None]).sum(axis=0)
        in_play = 0
        for p, own in owners.items():
            counts = [_seat_ints(df, "rescued", s) + _seat_ints(df, "lost", s) for s in own]
            values = sum(np.where(equal, c, _explorer_value(c)) for c in counts)
            self.score[p].add(ps[f"score_{p}"])
            self.score[p].widen(values)
            explorers = ps[f"explorers_{p}"].to_numpy()
            self.rescued[p] += int(ps[f"rescued_{p}"].sum())
            self.explorers[p] += int(explorers.sum())
            self.share[p].add_shares(ps[f"rescued_{p}"], explorers)
            in_play = in_play + explorers
        for s in range(seats):
            col = f"strategy_{s}"
            if col in df.columns:
                for v in pd.unique(df[col].astype(object)):
                    if isinstance(v, str) and v not in self.names[s]:
                        self.names[s].append(v)
        self.ties += int((top.sum(axis=1) > 1).sum())
        self.steps += np.bincount(step, minlength=len(STEPS))
        self.scoreless += int((keys[0].max(axis=1) == 0).sum())
        self._add_reasons(df["end_reason"])
        self.turns.add(df["turns"].astype("int64"))
        if "max_turns" in df.columns:
            self.turns.widen(df["max_turns"].astype("int64").to_numpy())
        for name, col in (("bonus", "bonus_moves"), ("dolphins", "dolphins_placed"),
                          ("squid", "squid_placed")):
            if col in df.columns:
                x = df[col].astype("int64").to_numpy()
                self.extra[name].add(x)
                self.shown[name] |= bool((x > 0).any())
        lost = sum(df[c].fillna(0).astype("int64").to_numpy() for c in df.columns
                   if c.startswith("lost_squid_"))
        self.extra["squid_lost"].add(np.broadcast_to(lost, (len(df),)))
        self.extra["squid_lost"].widen(in_play)
        return self

    def _add_reasons(self, reasons: pd.Series) -> None:
        if isinstance(reasons.dtype, pd.CategoricalDtype):
            if self.reason_order is None:
                self.reason_order = [str(c) for c in reasons.cat.categories]
            counts = reasons.value_counts(sort=False)
        else:
            self.plain_reasons = True
            counts = reasons.astype(str).value_counts()
        for k, v in counts.items():
            if v:
                self.reasons[str(k)] = self.reasons.get(str(k), 0) + int(v)

    def _need(self) -> None:
        if not self.games:
            raise ValueError("the table has no games")

    def run(self) -> dict:
        """Run-level numbers: games, top-score ties, how often each tie-break step decided,
        scoreless games, end reasons, turn-capped games, turns (and the expansions' counts)."""
        self._need()
        games = self.games
        players, seats, _, rule = self.shape
        out: dict[str, object] = {"games": games, "players": players, "seats": seats,
                                  "tiebreak": rule}
        out.update(ties=self.ties, tie_rate=self.ties / games)
        out["tie_lo"], out["tie_hi"] = wilson(self.ties, games)
        out["decided"] = {k: (int(c), *wilson(int(c), games)) for k, c in zip(STEPS, self.steps)}
        out.update(scoreless=self.scoreless, scoreless_rate=self.scoreless / games)
        out["scoreless_lo"], out["scoreless_hi"] = wilson(self.scoreless, games)
        if self.reason_order is not None and not self.plain_reasons:
            order = self.reason_order + sorted(set(self.reasons) - set(self.reason_order))
        else:
            order = sorted(self.reasons)
        out["end_reasons"] = {k: self.reasons.get(k, 0) for k in order}
        capped = self.reasons.get("turn_cap", 0)
        out.update(turn_capped=capped, turn_cap_rate=capped / games)
        out["turn_cap_lo"], out["turn_cap_hi"] = wilson(capped, games)
        mean, _, lo, hi = self.turns.ci()
        out.update(mean_turns=mean, turns_lo=lo, turns_hi=hi)
        for name, stem in (("bonus", "bonus"), ("dolphins", "dolphins"), ("squid", "squid")):
            if self.shown[name]:
                mean, _, lo, hi = self.extra[name].ci()
                out.update({f"mean_{stem}": mean, f"{stem}_lo": lo, f"{stem}_hi": hi})
        if self.shown["squid"]:
            mean, _, lo, hi = self.extra["squid_lost"].ci()
            out.update(mean_squid_lost=mean, squid_lost_lo=lo, squid_lost_hi=hi)
        return out

    def table(self) -> pd.DataFrame:
        """One row per seat (per player with 2 players); ``.attrs["run"]`` holds ``run()``."""
        self._need()
        games = self.games
        players = self.shape[0]
        rows = []
        for p, seats in self.owners.items():
            wins = int(self.wins[p])
            lo, hi = wilson(wins, games)
            mean, sd, mlo, mhi = self.score[p].ci()
            _, _, rlo, rhi = self.share[p].ci()
            rescued, explorers = int(self.rescued[p]), int(self.explorers[p])
            names = [n for s in seats for n in self.names[s]]
            label = (f"player {p} (seats {','.join(map(str, seats))})" if players == 2
                     else f"seat {seats[0]}")
            rows.append({
                "label": label, "player": p, "seats": ",".join(map(str, seats)),
                "strategy": "+".join(dict.fromkeys(names)) or "?", "games": games,
                "wins": wins, "shared_wins": int(self.shared_wins[p]),
                "win_rate": wins / games, "win_lo": lo, "win_hi": hi,
                "mean_score": mean, "score_sd": sd, "score_lo": mlo, "score_hi": mhi,
                "rescued": rescued, "explorers": explorers,
                "rescue_rate": rescued / explorers if explorers else np.nan,
                "rescue_lo": rlo, "rescue_hi": rhi,
            })
        table = pd.DataFrame(rows)
        table.attrs["run"] = self.run()
        return table


def _explorer_value(count: np.ndarray) -> np.ndarray:
    """A colour's total explorer value from its explorer count (B1.2, X1.1, X1.2; at most 6
    each for any other count)."""
    out = 6 * count
    for n, v in EXPLORER_VALUES.items():
        out = np.where(count == n, v, out)
    return out


# ---------------------------------------------------------------------------- summaries
def run_summary(df: pd.DataFrame, tiebreak: str | None = None) -> dict:
    """Run-level numbers of a whole table (``Totals.run``)."""
    return Totals(tiebreak).add(df).run()


def summary_table(df: pd.DataFrame, tiebreak: str | None = None) -> pd.DataFrame:
    """One row per seat (per player with 2 players, labelled with its seats): strategy, games,
    wins under the tie-break rule (``tiebreak_rule``; a shared win counts for every player who
    shares it), ``shared_wins``, win rate with its Wilson 95% interval, mean score and the
    rescue rate with the bounded-mean interval of the module's rule. ``.attrs["run"]`` holds
    ``run_summary(df)``.

    The rescue rate's interval is taken over games (each game's share of its explorers
    rescued), not over explorers: the explorers of one game share its fate, so they are not
    independent trials, while games are.
    """
    return Totals(tiebreak).add(df).table()


# ---------------------------------------------------------------------------- text
def _pct(x: float) -> str:
    """Percent with 2 decimals; two significant digits below 0.01% (so 0 < x never shows 0)."""
    if x is None or np.isnan(x):
        return "nan"
    v = 100 * x
    if 0 < abs(v) < 0.01 or 99.99 < abs(v) < 100:
        return f"{v:.2g}%" if abs(v) < 1 else f"{100 - float(f'{100 - v:.2g}'):.10g}%"
    return f"{v:.2f}%"


def _rate(x: float, lo: float, hi: float) -> str:
    return f"{_pct(x)} [{_pct(lo)}, {_pct(hi)}]"


def _num(x: float) -> str:
    if x is None or np.isnan(x):
        return "nan"
    return f"{0.0 if abs(x) < 0.005 else x:.2f}"


def align(header: list[str], rows: list[list[str]], right: set[int] = frozenset()) -> list[str]:
    """Rows of cells as lines of aligned columns (two spaces between columns)."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    out = []
    for r in [header, *rows]:
        cells = [c.rjust(w) if i in right else c.ljust(w)
                 for i, (c, w) in enumerate(zip(r, widths))]
        out.append("  ".join(cells).rstrip())
    return out


def format_summary(table: pd.DataFrame, run: dict | None = None) -> str:
    """The summary as aligned text: one line per seat / player, then the run-level lines."""
    run = run if run is not None else table.attrs.get("run")
    two = run is not None and run.get("players") == 2
    header = ["player (seats)" if two else "seat", "strategy", "games", "wins (shared)",
              "win rate [95% CI]", "mean score [95% CI]", "rescued/explorers",
              "rescue rate [95% CI]"]
    rows = []
    for r in table.itertuples(index=False):
        rows.append([
            r.label if two else r.seats, r.strategy, str(r.games), f"{r.wins} ({r.shared_wins})",
            _rate(r.win_rate, r.win_lo, r.win_hi),
            f"{_num(r.mean_score)} [{_num(r.score_lo)}, {_num(r.score_hi)}]",
            f"{r.rescued}/{r.explorers}", _rate(r.rescue_rate, r.rescue_lo, r.rescue_hi),
        ])
    lines = align(header, rows, right={2, 3, 6})
    if run is not None:
        n = run["games"]
        lines.append("")
        lines.append(f"top-score ties: {run['ties']} of n={n} games = "
                     f"{_rate(run['tie_rate'], run['tie_lo'], run['tie_hi'])}")
        if run["tiebreak"] == "chain":
            steps = ", ".join(f"{k} {_rate(c / n if n else np.nan, lo, hi)}"
                              for k, (c, lo, hi) in run["decided"].items()
                              if c or k != "value")      # (b) only acts with Challenge 3
            lines.append(f"tie-break: chain (X1.6); games decided by {steps}; "
                         f"a shared game is a win for each player left tied")
        else:
            lines.append("tie-break: shared (B7.3); a tie is a win for each tied player")
        lines.append(f"scoreless games (nobody rescued anyone): {run['scoreless']} of n={n} = "
                     f"{_rate(run['scoreless_rate'], run['scoreless_lo'], run['scoreless_hi'])}")
        reasons = ", ".join(f"{k} {v}" for k, v in run["end_reasons"].items() if v or k in
                            ("volcano", "turn_cap"))
        lines.append(f"end reasons: {reasons}; turn-capped: {run['turn_capped']} of n={n} = "
                     f"{_rate(run['turn_cap_rate'], run['turn_cap_lo'], run['turn_cap_hi'])}")
        lines.append(f"turns per game: mean {_num(run['mean_turns'])} "
                     f"[{_num(run['turns_lo'])}, {_num(run['turns_hi'])}], n={n}")
        if "mean_bonus" in run:
            lines.append(f"Overpopulated bonus moves per game: mean {_num(run['mean_bonus'])} "
                         f"[{_num(run['bonus_lo'])}, {_num(run['bonus_hi'])}], n={n}")
        if "mean_dolphins" in run:
            lines.append(f"dolphins placed per game: mean {_num(run['mean_dolphins'])} "
                         f"[{_num(run['dolphins_lo'])}, {_num(run['dolphins_hi'])}], n={n}")
        if "mean_squid" in run:
            lines.append(f"giant squid placed per game: mean {_num(run['mean_squid'])} "
                         f"[{_num(run['squid_lo'])}, {_num(run['squid_hi'])}]; explorers lost "
                         f"to squid per game: mean {_num(run['mean_squid_lost'])} "
                         f"[{_num(run['squid_lost_lo'])}, {_num(run['squid_lost_hi'])}], n={n}")
    return "\n".join(lines)
