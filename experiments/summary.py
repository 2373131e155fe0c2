"""Summary statistics of a per-game results table (one row per game, see the README's columns).

Pure pandas/numpy: no engine import, so it works on any saved table (Parquet or CSV read back)
as well as on ``simulator.simulate.simulate``'s frame. ``Totals`` keeps only counts and exact
sums, added chunk by chunk, so a run of any length is summarised in constant memory (and the
one-frame functions, ``summary_table`` and ``run_summary``, are ``Totals`` fed once: the two
always print the same numbers).

Project rule (``experiments.moments``): every rate carries its 95% interval and its sample size
n, and an interval stays inside the metric's range and keeps its width when every outcome is
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

from .games import (
    equal_rule,
    explorer_value,
    keys,
    n_players,
    n_seats,
    player_scores,
    seat_ints,
    seats_of_players,
    tiebreak_rule,
)
from .moments import Sums, bounded_interval, wilson

MAX_SEATS = 6
DOLPHINS = 4                                     # X5.2: four dolphin tiles, one dolphin each
GIANT_SQUID = 5                                  # B1.7


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
        hi = math.inf if self.hi is None else self.hi
        lo, up, _ = bounded_interval(s.n, s.mean, s.sd, self.lo, hi, alpha)
        return (s.mean, s.sd, lo, up)


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
        win, step = decide(*keys_, rule=rule, equal=equal)
        top = win if rule == "shared" else decide(*keys_, rule="shared")[0]
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
