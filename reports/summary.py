"""Summary statistics of a per-game results table (one row per game, see the README's columns).

Pure pandas/numpy: no engine import, so it works on any saved table (Parquet or CSV read back)
as well as on ``simulator.simulate.simulate``'s frame.

Project rule: every rate carries its 95% interval and its sample size. Proportions use the Wilson
score interval; means use the normal approximation ``mean +- z * sd / sqrt(n)``. The Wilson bounds
are the closed form, checked in the tests against ``statsmodels``' ``proportion_confint(...,
method="wilson")``: importing statsmodels takes about 1.8 s here, which alone would break the
CLI's warm start budget (2 s), so it is a test dependency only.

Players and seats (B4.5): with 3 to 6 players every player has one seat; with 2 players the four
seats sit A,B,A,B and a player's result is the sum of their two seats (``player_s`` says who owns
seat ``s``). Winners follow the table's tie-break rule (its ``tiebreak`` column, or the rules'
default: B7.3's shared win for 2-4 players, X1.6's chain for 5-6), which any function here can
override: under ``shared`` every player with the top score wins, so a game with a tie counts as a
win for each tied player and the win counts of a run can add up to more than its number of
games; under ``chain`` only the ties the chain cannot break are shared.
"""
from __future__ import annotations

from statistics import NormalDist

import numpy as np
import pandas as pd

from simulator.scoring import STEPS, TIEBREAKS, decide

ALPHA = 0.05
Z = NormalDist().inv_cdf(1 - ALPHA / 2)          # 1.959963984540054
MAX_SEATS = 6


# ---------------------------------------------------------------------------- intervals
def wilson(count, nobs, alpha: float = ALPHA):
    """Wilson score interval ``(lo, hi)`` of ``count`` successes in ``nobs`` trials.

    Scalars or arrays; ``nobs == 0`` gives NaN bounds.
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
    """``(mean, sd, lo, hi, n)`` with a normal-approximation interval for the mean."""
    x = np.asarray(values, dtype=float)
    n = int(x.size)
    if n == 0:
        return (np.nan, np.nan, np.nan, np.nan, 0)
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else np.nan
    z = NormalDist().inv_cdf(1 - alpha / 2)
    half = z * sd / np.sqrt(n) if n > 1 else np.nan
    return (mean, sd, mean - half, mean + half, n)


# ---------------------------------------------------------------------------- table shape
def n_players(df: pd.DataFrame) -> int:
    """The player count of the run (all rows must share it)."""
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
        out[p].append(s)
    return out


def _seat_ints(df: pd.DataFrame, name: str, s: int) -> np.ndarray:
    return df[f"{name}_{s}"].astype("int64").to_numpy()


def _strategy_label(df: pd.DataFrame, seats: list[int]) -> str:
    names: list[str] = []
    for s in seats:
        col = f"strategy_{s}"
        if col not in df.columns:
            continue
        for v in pd.unique(df[col].astype(object)):
            if isinstance(v, str) and v not in names:
                names.append(v)
    return "+".join(names) if names else "?"


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


def _score_matrix(df: pd.DataFrame) -> np.ndarray:
    return _key_matrix(player_scores(df), "score", n_players(df))


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


def _decide(df: pd.DataFrame, tiebreak: str | None) -> tuple[np.ndarray, np.ndarray]:
    ps, players = player_scores(df), n_players(df)
    keys = [_key_matrix(ps, name, players) for name in ("score", "rescued", "rescued_value",
                                                         "turns")]
    equal = False                                  # X1.6 (b) acts only under Challenge 3
    if "challenges" in df.columns:
        equal = np.array(["3" in str(c).split(",") for c in df["challenges"]], dtype=bool)
    return decide(*keys, rule=tiebreak_rule(df, tiebreak), equal=equal)


def winners(df: pd.DataFrame, tiebreak: str | None = None) -> pd.DataFrame:
    """Boolean, one row per game (``df``'s index) and one column per player: True for each
    winner under the tie-break rule (``tiebreak_rule``); a tie left standing is shared."""
    win, _ = _decide(df, tiebreak)
    return pd.DataFrame(win, index=df.index, columns=range(win.shape[1]))


def decided_by(df: pd.DataFrame, tiebreak: str | None = None) -> pd.Series:
    """Per game, the step that decided it: ``score`` (a single top scorer), a step of the
    X1.6 chain (``rescued``, ``value``, ``turns``) or ``shared`` (the tie stood)."""
    _, step = _decide(df, tiebreak)
    return pd.Series(pd.Categorical.from_codes(step, categories=list(STEPS)), index=df.index,
                     name="decided_by")


def shared_top(df: pd.DataFrame) -> pd.Series:
    """True for the games whose top score is held by two or more players (before any
    tie-break)."""
    return winners(df, "shared").sum(axis=1) > 1


# ---------------------------------------------------------------------------- summaries
def run_summary(df: pd.DataFrame, tiebreak: str | None = None) -> dict:
    """Run-level numbers: games, top-score ties, how often each tie-break step decided,
    scoreless games, end reasons, turn-capped games."""
    games = len(df)
    rule = tiebreak_rule(df, tiebreak)
    out: dict[str, object] = {"games": games, "players": n_players(df), "seats": n_seats(df),
                              "tiebreak": rule}
    tie = shared_top(df)
    ties = int(tie.sum())
    out.update(ties=ties, tie_rate=ties / games if games else np.nan)
    out["tie_lo"], out["tie_hi"] = wilson(ties, games)
    steps = decided_by(df, rule).value_counts(sort=False).reindex(list(STEPS), fill_value=0)
    out["decided"] = {str(k): (int(v), *wilson(int(v), games)) for k, v in steps.items()}
    scores = _score_matrix(df)
    scoreless = int((scores.max(axis=1) == 0).sum()) if games else 0
    out.update(scoreless=scoreless, scoreless_rate=scoreless / games if games else np.nan)
    out["scoreless_lo"], out["scoreless_hi"] = wilson(scoreless, games)
    reasons = df["end_reason"]
    if isinstance(reasons.dtype, pd.CategoricalDtype):
        counts = reasons.value_counts(sort=False)
        counts = counts.reindex(list(reasons.cat.categories), fill_value=0)
    else:
        counts = reasons.astype(str).value_counts().sort_index()
    out["end_reasons"] = {str(k): int(v) for k, v in counts.items()}
    capped = int((reasons.astype(str) == "turn_cap").sum())
    out.update(turn_capped=capped, turn_cap_rate=capped / games if games else np.nan)
    out["turn_cap_lo"], out["turn_cap_hi"] = wilson(capped, games)
    mean, sd, lo, hi, n = mean_ci(df["turns"].astype("int64"))
    out.update(mean_turns=mean, turns_lo=lo, turns_hi=hi)
    if "bonus_moves" in df.columns and games and (df["bonus_moves"] > 0).any():    # X6.3
        mean, sd, lo, hi, n = mean_ci(df["bonus_moves"].astype("int64"))
        out.update(mean_bonus=mean, bonus_lo=lo, bonus_hi=hi)
    if "dolphins_placed" in df.columns and games and (df["dolphins_placed"] > 0).any():  # X5.2
        mean, sd, lo, hi, n = mean_ci(df["dolphins_placed"].astype("int64"))
        out.update(mean_dolphins=mean, dolphins_lo=lo, dolphins_hi=hi)
    if "squid_placed" in df.columns and games and (df["squid_placed"] > 0).any():        # X7
        mean, sd, lo, hi, n = mean_ci(df["squid_placed"].astype("int64"))
        out.update(mean_squid=mean, squid_lo=lo, squid_hi=hi)
        lost = sum(df[c].fillna(0).astype("int64") for c in df.columns
                   if c.startswith("lost_squid_"))
        mean, sd, lo, hi, n = mean_ci(lost)
        out.update(mean_squid_lost=mean, squid_lost_lo=lo, squid_lost_hi=hi)
    return out


def summary_table(df: pd.DataFrame, tiebreak: str | None = None) -> pd.DataFrame:
    """One row per seat (per player with 2 players, labelled with its seats): strategy, games,
    wins under the tie-break rule (``tiebreak_rule``; a shared win counts for every player who
    shares it), ``shared_wins``, win rate with Wilson
    95% interval, mean score with a normal 95% interval, rescued / explorers in play with a
    normal 95% interval. ``.attrs["run"]`` holds ``run_summary(df)``.

    The rescue rate's interval is taken over games (each game's share of its explorers
    rescued), not over explorers: the explorers of one game share its fate, so they are not
    independent trials, while games are.
    """
    owners = seats_of_players(df)
    players = n_players(df)
    games = len(df)
    ps = player_scores(df)
    win = winners(df, tiebreak)
    tie = win.sum(axis=1).to_numpy() > 1
    rows = []
    for p, seats in owners.items():
        w = win[p].to_numpy()
        wins = int(w.sum())
        lo, hi = wilson(wins, games)
        mean, sd, mlo, mhi, _ = mean_ci(ps[f"score_{p}"])
        rescued = int(ps[f"rescued_{p}"].sum())
        explorers = int(ps[f"explorers_{p}"].sum())
        share = ps[f"rescued_{p}"] / ps[f"explorers_{p}"].where(ps[f"explorers_{p}"] > 0)
        _, _, rlo, rhi, _ = mean_ci(share.dropna())
        label = (f"player {p} (seats {','.join(map(str, seats))})" if players == 2
                 else f"seat {seats[0]}")
        rows.append({
            "label": label, "player": p, "seats": ",".join(map(str, seats)),
            "strategy": _strategy_label(df, seats), "games": games,
            "wins": wins, "shared_wins": int((w & tie).sum()),
            "win_rate": wins / games if games else np.nan, "win_lo": lo, "win_hi": hi,
            "mean_score": mean, "score_sd": sd, "score_lo": mlo, "score_hi": mhi,
            "rescued": rescued, "explorers": explorers,
            "rescue_rate": rescued / explorers if explorers else np.nan,
            "rescue_lo": rlo, "rescue_hi": rhi,
        })
    table = pd.DataFrame(rows)
    table.attrs["run"] = run_summary(df, tiebreak)
    return table


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
