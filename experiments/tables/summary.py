"""Summary statistics of a per-game results table (one row per game, see the README's columns).

Pure pandas/numpy: no engine import, so it works on any saved table (Parquet or CSV read back)
as well as on ``play.simulate.simulate``'s frame. ``Totals`` keeps only counts and exact
sums, added chunk by chunk, so a run of any length is summarised in constant memory (and the
one-frame functions, ``summary_table`` and ``run_summary``, are ``Totals`` fed once: the two
always print the same numbers).

Project rule (``experiments.tables.moments``): every rate carries its 95% interval and its sample
size n, and an interval stays inside the metric's range and keeps its width when every outcome is
the same: proportions of games (win rate, tie rate, scoreless and turn-capped games, the
tie-break steps) get the Wilson score interval; means of a per-game quantity known to lie in
[lo, hi] get ``moments.bounded_interval`` (the t interval while the games vary and it fits in
the range, else the Wilson interval of the mean scaled to the range). The ranges: the rescue
rate, a game's share of the player's explorers rescued, [0, 1] (its unit is the game: one
game's explorers share its fate); the score, [0, the player's explorer values] (B1.2: 28 for
10 explorers, X1.1: 24 for 8, X1.2: 22 for 7; the explorer count under Challenge 3); turns, [0,
max_turns] (R10); dolphins placed, [0, 4] (X5.2); giant squid placed, [0, 5] (B1.7); explorers
lost to squid, [0, the explorers in play]. The Overpopulated bonus moves per game (X6.3) have
no finite upper bound: the t interval, clipped nowhere (zero width if every game has the same
count).

A saved table read back (``survive-sim summary``) is checked first by ``check_values``: every
value the summary reads must be one the rules allow (a score at most the seat's explorers'
values, counts that add up, the turn cap an int32, ...), else one line names the column, the
first bad row and the accepted range. And whatever the values, an interval never excludes its
own mean: ``Moments.ci`` widens a range that values fall outside of rather than clip to it.

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

import numpy as np
import pandas as pd

from simulator.scoring import STEPS, decide
from simulator.state import END_NAMES

from .games import (
    LOSS_CAUSES,
    equal_rule,
    explorer_value,
    explorers_per_colour,
    keys,
    komi_rule,
    n_players,
    n_seats,
    player_scores,
    seat_ints,
    seats_of_players,
    tiebreak_rule,
)
from .moments import Sums, bounded_interval, wilson
from .results import row_name

MAX_SEATS = 6
DOLPHINS = 4                                     # X5.2: four dolphin tiles, one dolphin each
GIANT_SQUID = 5                                  # B1.7
LAND_TILES = 40                                  # B1.1: each sinks once
MAX_BOATS = 3                                    # X1.5: 0-3 boats per seat, at most 12 in all
TOTAL_BOATS = 12                                 # B1.5
INDEX_MAX = 2**63 - 1                            # game indices and seeds are int64
INT32_MAX = 2**31 - 1                            # the engine's turn cap is an int32 (R10)
BOOL_COLUMNS = ("dolphins", "squid", "squid_only", "lagoon_is_sea", "creatures_must_move")


class Moments:
    """A per-game quantity's exact sums (``moments.Sums``) with its range: the upper end is
    fixed (``hi``) or widened to the largest bound the games allow (``widen``)."""

    def __init__(self, lo: float = 0, hi: float | None = None):
        self.sums = Sums()
        self.lo, self.hi = lo, hi

    def add(self, x) -> None:
        self.sums.add(x)

    def add_shares(self, num, den) -> None:
        self.sums.add_ratio(num, den)

    def widen(self, hi) -> None:
        if len(np.atleast_1d(hi)):
            top = float(np.max(hi))
            self.hi = top if self.hi is None else max(self.hi, top)

    def ci(self, alpha: float = 0.05) -> tuple[float, float, float, float]:
        """``(mean, sd, lo, hi)``; NaN without values."""
        s = self.sums
        if s.n == 0:
            return (np.nan, np.nan, np.nan, np.nan)
        lo = self.lo
        hi = math.inf if self.hi is None else self.hi
        # the range is where the values are known to lie: a value outside it (a table edited
        # by hand) widens it, so the interval is never clipped away from its own mean
        lo, hi = min(lo, float(s.lo)), max(hi, float(s.hi))
        low, up, _ = bounded_interval(s.n, s.mean, s.sd, lo, hi, alpha)
        return (s.mean, s.sd, min(low, s.mean), max(up, s.mean))


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
        keys_ = keys(df, ps)
        equal = equal_rule(df)
        komi = komi_rule(df)                                     # C1: None without a bonus
        win, step = decide(*keys_, rule=rule, equal=equal, komi=komi)
        top = win if rule == "shared" else decide(*keys_, rule="shared", komi=komi)[0]
        tie = win.sum(axis=1) > 1
        self.games += len(df)
        self.wins += win.sum(axis=0)
        self.shared_wins += (win & tie[:, None]).sum(axis=0)
        in_play = 0
        for p, own in owners.items():
            counts = [seat_ints(df, "rescued", s) + seat_ints(df, "lost", s) for s in own]
            values = sum(np.where(equal, c, explorer_value(c)) for c in counts)
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
        self.scoreless += int((keys_[0].max(axis=1) == 0).sum())
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


# ---------------------------------------------------------------------------- checks
def _shown(value) -> str:
    if isinstance(value, (bool, np.bool_)):
        return str(bool(value))
    if isinstance(value, (float, np.floating)) and math.isfinite(value) and value.is_integer():
        return str(int(value))
    if isinstance(value, str):
        return repr(value)
    return str(value)


def _fail(df: pd.DataFrame, bad: np.ndarray, col: str, accepted) -> None:
    """Raise the one line naming the first row of ``bad`` (``accepted(i)``: the accepted values
    for that row, or a string)."""
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        text = accepted(i) if callable(accepted) else accepted
        raise ValueError(f"{row_name(df, i)} has {col} {_shown(df[col].iloc[i])}; accepted: {text}")


def _whole(series: pd.Series) -> tuple[np.ndarray, np.ndarray]:
    """``(values as int64, ok)``: ``ok`` where the value is a whole number of int64 (not NA,
    not NaN or infinite, not a fraction, not text)."""
    dtype = series.dtype
    if pd.api.types.is_bool_dtype(dtype):
        return np.zeros(len(series), np.int64), np.zeros(len(series), bool)
    if pd.api.types.is_integer_dtype(dtype):
        ok = ~series.isna().to_numpy()
        if pd.api.types.is_unsigned_integer_dtype(dtype):
            raw = series.to_numpy(dtype=np.uint64, na_value=0)
            ok &= raw <= np.uint64(INDEX_MAX)
            return np.where(ok, raw, 0).astype(np.int64), ok
        return series.to_numpy(dtype=np.int64, na_value=0), ok
    x = pd.to_numeric(series, errors="coerce")
    if not (pd.api.types.is_float_dtype(x.dtype) or pd.api.types.is_integer_dtype(x.dtype)):
        x = pd.to_numeric(x.astype(object).where(x.notna(), None), errors="coerce")
    f = x.to_numpy(dtype=np.float64, na_value=np.nan)
    with np.errstate(invalid="ignore"):
        ok = np.isfinite(f) & (np.floor(f) == f) & (np.abs(f) < 2.0**63)
    return np.where(ok, f, 0).astype(np.int64), ok


def _ints(df: pd.DataFrame, col: str, lo, hi, rule: str, where=None) -> np.ndarray:
    """The whole numbers of ``df[col]`` (rows ``where``, default all) in ``[lo, hi]`` (scalars
    or one bound per row), else ``ValueError`` naming the first bad row and the range."""
    values, ok = _whole(df[col])
    lo = np.broadcast_to(np.asarray(lo, np.int64), values.shape)
    hi = np.broadcast_to(np.asarray(hi, np.int64), values.shape)
    bad = ~ok | (values < lo) | (values > hi)
    if where is not None:
        bad &= where
    _fail(df, bad, col, lambda i: (f"exactly {lo[i]}" if lo[i] == hi[i] else
                                   f"whole numbers {lo[i]}-{hi[i]}")
                                  + f" ({rule(i) if callable(rule) else rule})")
    return values


def _labels(series: pd.Series) -> tuple[np.ndarray, list[str]]:
    """``(codes, labels)``: each row's value as text, by its index into the distinct values
    (a column of millions of rows holds a handful of them)."""
    codes, uniques = pd.factorize(series, use_na_sentinel=False)
    return codes, [str(u) for u in uniques]


def _challenges(df: pd.DataFrame, players: np.ndarray) -> dict[int, np.ndarray]:
    """Per challenge 1-6, the rows it is in force in (the ``challenges`` column: ``"none"`` or
    e.g. ``"2,3"``), checked against X2-X6."""
    n = len(df)
    if "challenges" not in df.columns:
        return {c: np.zeros(n, bool) for c in range(1, 7)}
    codes, labels = _labels(df["challenges"])
    member = np.zeros((len(labels), 7), bool)
    for k, label in enumerate(labels):
        parts = [] if label == "none" else label.split(",")
        if not parts and label != "none" or not all(
                p.strip().isascii() and p.strip().isdigit() and len(p.strip()) < 3
                and 1 <= int(p) <= 6 for p in parts):
            _fail(df, codes == k, "challenges",
                  "none, or challenges 1-6 comma-separated, e.g. 2,3 (X2-X6)")
        member[k, [int(p) for p in parts]] = True
    out = {c: member[codes, c] for c in range(1, 7)}
    _fail(df, out[6] & (players < 5), "challenges",
          lambda i: f"challenge 6 (Overpopulated) only with 5 or 6 players, and this game has "
                    f"{players[i]} (X6)")
    return out


def _flags(df: pd.DataFrame, col: str) -> np.ndarray:
    """A True/False column (``True``, ``False``, ``true``, ``1``, ``0`` as a CSV reads back)."""
    series = df[col]
    if pd.api.types.is_bool_dtype(series.dtype) and not series.isna().any():
        return series.to_numpy(dtype=bool)
    codes, labels = _labels(series)
    words = np.array([w.lower() for w in labels] + [""], dtype=object)[codes]
    _fail(df, ~np.isin(words, ["true", "false", "1", "0"]), col, "True or False")
    return np.isin(words, ["true", "1"])


def check_values(df: pd.DataFrame) -> None:
    """Raise ``ValueError`` (one line: the column, the first bad row, the accepted values)
    unless every value a summary reads is one the rules allow. For a table that passed
    ``experiments.tables.results.check_table`` (columns there, players 2-6, seats to match, no NA).

    The bounds, per row (its players and challenges): ``game`` and ``seed`` int64 >= 0;
    ``max_turns`` 1..2**31-1 (R10, the engine's int32); ``turns`` and each ``turns_s`` 0..
    ``max_turns``, the seats' turns adding up to the game's (R18); ``end_seat`` a seat of the
    game (R18); a seat's explorers (``rescued_s + lost_s``) exactly the colour's count: 10 with
    2-4 players (B1.2), 8 with 5 (X1.1), 7 with 6 (X1.2), 10 under Challenge 6 (X6.1);
    ``rescued_value_s`` 0 to those explorers' values (28, 24, 22; B1.2, X1.1, X1.2);
    ``score_s`` the value of the seat's rescued explorers, ``rescued_value_s`` (B7.2), or their
    count under Challenge 3 (X2.3); the ``lost_<cause>_s`` adding up to ``lost_s``,
    ``lost_squid_s`` 0 without the squid (X7); ``player_s`` the B4.5
    owner ``s mod players``; ``boats_s`` 0-3, at most 12 in all (X1.5); ``bonus_moves`` 0 (40
    tiles x seats under Challenge 6: one per seat per sunk tile, X6.3, B1.1);
    ``dolphins_placed`` 0 (0-4 under Challenge 5, X5.2); ``squid_placed`` 0 (0-5 with the
    squid, B1.7, X7); ``end_reason`` one of the engine's; the flags True or False, ``dolphins``
    exactly when Challenge 5 is in force, ``squid_only`` only with ``squid`` (X7.6)."""
    n = len(df)
    players = pd.to_numeric(df["players"]).to_numpy().astype(np.int64)
    seats = np.where(players == 2, 4, players)
    for col in ("game", "seed"):
        if col in df.columns:
            _ints(df, col, 0, INDEX_MAX, "an int64 index >= 0")
    max_turns = (_ints(df, "max_turns", 1, INT32_MAX, "R10: the turn cap, an int32")
                 if "max_turns" in df.columns else np.full(n, 400, np.int64))
    ch = _challenges(df, players)
    flags = {col: _flags(df, col) for col in BOOL_COLUMNS if col in df.columns}
    if "dolphins" in flags:
        _fail(df, flags["dolphins"] != ch[5], "dolphins",
              lambda i: f"{ch[5][i]}, as the challenges say (X5 is Challenge 5)")
    if "squid_only" in flags and "squid" in flags:
        _fail(df, flags["squid_only"] & ~flags["squid"], "squid_only",
              "True only with squid True (X7.6)")
    codes, labels = _labels(df["end_reason"])
    _fail(df, ~np.isin(codes, [k for k, r in enumerate(labels) if r in END_NAMES]),
          "end_reason", ", ".join(END_NAMES))
    if "end_seat" in df.columns:
        _ints(df, "end_seat", 0, seats - 1, "R18: a seat of the game, numbered from 0")
    turns = _ints(df, "turns", 0, max_turns, "R10: 0 to the game's max_turns")
    if "bonus_moves" in df.columns:
        _ints(df, "bonus_moves", 0, np.where(ch[6], LAND_TILES * seats, 0),
              "X6.3: one per seat per sunk tile of the 40 (B1.1), 0 without Challenge 6")
    if "dolphins_placed" in df.columns:
        _ints(df, "dolphins_placed", 0, np.where(ch[5], DOLPHINS, 0),
              "X5.2: 4 dolphin tiles, 0 without Challenge 5")
    squid = flags.get("squid", np.ones(n, bool))
    if "squid_placed" in df.columns:
        _ints(df, "squid_placed", 0, np.where(squid, GIANT_SQUID, 0),
              "B1.7: 5 giant squid, 0 without the squid (X7)")
    # a colour's explorers and their values, per row
    per = np.array([[explorers_per_colour(p, {6} if c6 else set()) for c6 in (False, True)]
                    for p in range(MAX_SEATS + 1)], np.int64)      # [players, ch6, count|value]
    count = per[players, ch[6].astype(int), 0]
    value = per[players, ch[6].astype(int), 1]
    source = np.where(ch[6], "X6.1", np.where(players == 5, "X1.1",
                                              np.where(players == 6, "X1.2", "B1.2")))

    def rule(i: int) -> str:
        return (f"a colour has {count[i]} explorers worth {value[i]} with {players[i]} players"
                f"{' under Challenge 6' if ch[6][i] else ''}, {source[i]}")

    boats = np.zeros(n, np.int64)
    seat_turns = np.zeros(n, np.int64)
    for s in range(MAX_SEATS):
        here = seats > s
        if not here.any():
            continue
        if f"player_{s}" in df.columns:
            _ints(df, f"player_{s}", s % players, s % players,
                  f"B4.5: seat {s} belongs to player {s} mod players, seats numbered from 0",
                  here)
        if f"boats_{s}" in df.columns:
            boats += np.where(here, _ints(df, f"boats_{s}", 0, MAX_BOATS,
                                          "X1.5: 0-3 boats per seat", here), 0)
            _fail(df, boats > TOTAL_BOATS, f"boats_{s}",
                  "boats adding up to at most 12 over the seats (B1.5, X1.5)")
        rescued = _ints(df, f"rescued_{s}", 0, count, lambda i: f"explorers rescued; {rule(i)}",
                        here)
        _ints(df, f"lost_{s}", count - rescued, count - rescued,
              lambda i: f"rescued_{s} + lost_{s} = the seat's explorers; {rule(i)}", here)
        worth = _ints(df, f"rescued_value_{s}", 0, value,
                      lambda i: f"the value of the explorers rescued; {rule(i)}", here)
        _ints(df, f"score_{s}", 0, np.where(ch[3], count, value),
              lambda i: (f"Challenge 3 scores 1 per explorer rescued, X2.3; {rule(i)}"
                         if ch[3][i] else f"B7.2: the value of the explorers rescued; "
                                          f"{rule(i)}"), here)
        score = np.where(ch[3], rescued, worth)
        _ints(df, f"score_{s}", score, score,
              f"B7.2: the value of the seat's rescued explorers, rescued_value_{s}, or under "
              f"Challenge 3 their count, rescued_{s} (X2.3)", here)
        causes = [f"lost_{c}_{s}" for c in LOSS_CAUSES]
        if all(c in df.columns for c in causes):
            total = np.zeros(n, np.int64)
            for c in causes:
                squid_cause = c.startswith("lost_squid_")
                top = np.where(squid, count - rescued, 0) if squid_cause else count - rescued
                total += np.where(here, _ints(
                    df, c, 0, top, f"explorers lost by this cause, 0 to lost_{s}"
                    + (", 0 without the squid (X7)" if squid_cause else ""), here), 0)
            _fail(df, here & (total != count - rescued), f"lost_{s}",
                  lambda i: f"the sum of its causes lost_*_{s}, {total[i]}")
        seat_turns += np.where(here, _ints(df, f"turns_{s}", 0, turns,
                                           "R18: the turns the seat began, 0 to the game's "
                                           "turns", here), 0)
    _fail(df, seat_turns != turns, "turns",
          lambda i: f"the sum of the seats' turns_s, {seat_turns[i]} (R18: turns counts the "
                    f"seat-turns played)")


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
