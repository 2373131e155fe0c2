"""Komi tables, as Go publishes them: each seat's win share against its own score bonus, and
the fair bonus read where the share crosses 1/N, with an interval.

The table of a seat holds the other seats at no bonus and moves its own over ``-top .. +top``
(``own_bonus_grid``); for a komi-blind strategy every row is exact from one run without a bonus
(``screen``). A seat's share can only grow with its own bonus (a bonus adds wins, never takes
one), so the curve crosses 1/N at most once:

* the **fair bonus** is read by straight lines between the two grid points around the crossing;
* its **interval** runs over the bonuses the data cannot tell from fair for that seat: the grid
  points whose 95% interval (Wilson, on tie-split counts) holds 1/N, widened to the next grid
  point on each side, where the share is known to be off (a seat's own interval, no correction
  across seats: each seat's line is a question of its own);
* where every grid point's interval lies on one side of 1/N, the seat **never reaches
  fairness** within the range, and the table says on which side; where the share jumps past
  1/N between two neighbouring grid points (a half point turns every tie at that margin into
  a win at once), the interval is those two points.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from ..tables.moments import ALPHA, wilson
from . import screen as KS
from .screen import KomiSums, vector_label

SEAT_COUNTS = (3, 4, 5, 6)             # 2 players hold four seats (B4.5)


def own_bonus_grid(seats: int, top: float = 3.0, step: float = 0.5) -> tuple[np.ndarray, list]:
    """The vectors of every seat's own line: seat ``s`` at ``b`` in ``-top .. top`` (step
    ``step``), every other seat at 0; and ``[(seat, b)]`` for each row. The all-zero vector
    appears once per seat."""
    if step <= 0 or float(2 * step) != int(2 * step) or float(2 * top) != int(2 * top):
        raise ValueError(f"the komi table's step and top must be whole or half points, step > 0,"
                         f" got step {step!r}, top {top!r}")
    values = np.arange(-top, top + step / 2, step)
    rows, keys = [], []
    for s in range(seats):
        for b in values:
            v = np.zeros(seats)
            v[s] = b
            rows.append(v)
            keys.append((s, float(b)))
    return np.array(rows), keys


def komi_table(sums: KomiSums, keys: list, alpha: float = ALPHA) -> pd.DataFrame:
    """One row per seat and own bonus: the seat's tie-split win share, its interval and n
    (``sums``: a screen over ``own_bonus_grid``'s vectors; ``keys`` its row keys). With two
    players a seat's share is its player's (both colours; B4.5)."""
    n = sums.n
    owner = {s: p for p, seats in sums.probe.owners.items() for s in seats}
    rows = []
    for v, (seat, bonus) in enumerate(keys):
        wins = sums.win60[v, owner[seat]] / 60.0
        lo, hi = wilson(wins, n, alpha)
        rows.append({"setting": sums.label, "seat": seat, "bonus": bonus,
                     "komi": vector_label(sums.grid[v]), "share": wins / n if n else np.nan,
                     "low": lo, "high": hi, "n": n})
    return pd.DataFrame(rows)


def fair_bonus(table: pd.DataFrame, players: int) -> pd.DataFrame:
    """Per setting and seat: the bonus at which the seat's share crosses 1/N (``bonus``), its
    interval (``low``, ``high``), and ``reached`` (False: no bonus in the range brings the
    seat's interval to 1/N; ``side`` says whether it stays above or below)."""
    fair = 1.0 / players
    out = []
    for (label, seat), g in table.groupby(["setting", "seat"], sort=False):
        g = g.sort_values("bonus")
        b, share = g["bonus"].to_numpy(), g["share"].to_numpy()
        lo, hi = g["low"].to_numpy(), g["high"].to_numpy()
        holds = (lo <= fair) & (fair <= hi)
        row = {"setting": label, "seat": int(seat), "fair_share": fair,
               "share_at_0": float(share[b == 0][0]) if (b == 0).any() else np.nan,
               "n": int(g["n"].iloc[0])}
        if (lo > fair).all() or (hi < fair).all():
            out.append({**row, "bonus": np.nan, "low": np.nan, "high": np.nan,
                        "reached": False, "side": "above" if (lo > fair).all() else "below"})
            continue
        if not holds.any():               # the share jumps past 1/N between two grid points
            i = int(np.flatnonzero(lo > fair)[0])
            out.append({**row, "bonus": _crossing(b, share, fair), "low": float(b[i - 1]),
                        "high": float(b[i]), "reached": True, "side": ""})
            continue
        first, last = np.flatnonzero(holds)[[0, -1]]
        low = b[max(first - 1, 0)] if first > 0 else -np.inf     # open: the range's edge
        high = b[min(last + 1, len(b) - 1)] if last < len(b) - 1 else np.inf
        out.append({**row, "bonus": _crossing(b, share, fair), "low": float(low),
                    "high": float(high), "reached": True, "side": ""})
    return pd.DataFrame(out)


def run_komi(path, top: float = 3.0, step: float = 0.5, games: int | None = None,
             labels=None) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The komi tables of a run folder: ``(table, fair)`` as ``komi_table`` and ``fair_bonus``
    give them for every setting (``labels``: only these), each with ``exact`` (every seat
    komi-blind: the screen equals games played with the bonus). The run is read chunk by
    chunk, in memory flat in the games (``screen.run_blocks``); ``games``: the first of each
    setting."""
    grids = {seats: own_bonus_grid(seats, top, step) for seats in SEAT_COUNTS}
    sums = KS.screen(KS.run_blocks(path, games, labels), lambda seats: grids[seats][0])
    tables, fair = [], []
    for s in sums.values():
        t = komi_table(s, grids[s.probe.seats][1])
        t["exact"] = KS.komi_blind(s.probe.factors.get("strategies") or ())
        # the setting's own levers: its table's bonus is on top of any the setting had
        t["levers"] = bool(s.probe.factors.get("komi")) or tuple(
            s.probe.factors.get("setup_order") or ("forward", "forward")) != ("forward",
                                                                              "forward")
        tables.append(t)
        f = fair_bonus(t, s.players)
        f["exact"], f["levers"] = t["exact"].iloc[0], t["levers"].iloc[0]
        fair.append(f)

    def cat(parts):
        return pd.concat(parts, ignore_index=True) if parts else pd.DataFrame()
    return cat(tables), cat(fair)


def _crossing(b: np.ndarray, share: np.ndarray, fair: float) -> float:
    """Where the non-decreasing ``share(b)`` meets ``fair``, by straight lines between grid
    points (the middle of a flat stretch at ``fair``; NaN outside the range)."""
    at = np.flatnonzero(share == fair)
    if len(at):
        return float((b[at[0]] + b[at[-1]]) / 2)
    above = np.flatnonzero(share > fair)
    if not len(above) or above[0] == 0:
        return float("nan")
    i = above[0]
    x0, x1, y0, y1 = b[i - 1], b[i], share[i - 1], share[i]
    return float(x0 + (fair - y0) * (x1 - x0) / (y1 - y0))
