"""The section of a report that shows the numbers behind the boat, turn, skill and leader claims
(``experiments.verdicts.exhibits``): one table per exhibit, formatted for reading (every value
with its 95% interval and n; the CSV keeps the numbers), and its chart where it has one. Nothing
is computed here but the text."""
from __future__ import annotations

import math

import pandas as pd

from experiments.verdicts.exhibits import Exhibit
from reports import page
from reports.render import Chart

INTRO = ("The numbers behind the verdicts of the claims above, with 95% intervals (fixed-"
         "sample, descriptive: each verdict's own interval, at the run's look, is in the "
         "verdict table) and n, the game indices. Win shares are in per cent or percentage "
         "points, scores in points, turns in turns per game.")
LABELS = {"share_plus": "win share, a boat more (pp)", "share_minus": "win share, a boat "
          "fewer costs (pp)", "share_both": "win share per boat (pp)",
          "score_plus": "score, a boat more", "score_minus": "score, a boat fewer costs",
          "score_both": "score per boat", "turns": "turns per game",
          "points_per_turn": "points per extra turn",
          "win_share_per_turn": "win share per extra turn (pp)", "win_share": "win share (%)",
          "win_share_per_seat": "win share per seat (%)", "score_per_seat": "score per seat",
          "with": "with the saboteur (%)", "without": "without it (%)",
          "change": "change (pp)"}


def _scale(metric: str) -> float:
    return 1.0 if ("score" in metric or metric in ("turns", "points_per_turn")) else 100.0


def _cell(v, lo, hi, k: float) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return "–"
    if lo is None or (isinstance(lo, float) and math.isnan(lo)):
        return f"{k * v:.2f}"
    return f"{k * v:.2f} [{k * lo:.2f}, {k * hi:.2f}]"


def view(ex: Exhibit) -> pd.DataFrame:
    """An exhibit's table as people read it."""
    t = ex.table
    if ex.name == "boat_exchange":
        return pd.DataFrame({"play": t["play"], "players": t["players"],
                             "a boat (pp)": t["boat_pp"].map(lambda x: f"{x:+.2f}"),
                             "a seat later costs (pp)": t["seat_pp"].map(lambda x: f"{x:+.2f}"),
                             "seats of turn order per boat [95% CI]": [
                                 _cell(v, lo, hi, 1) for v, lo, hi in
                                 zip(t["seats_per_boat"], t["low"], t["high"])],
                             "n": t["n"].map(lambda n: f"{n:,}")})
    keys = [c for c in t.columns if c not in ("value", "low", "high", "n")]
    out = t[keys].copy()
    metric = t["metric"] if "metric" in t.columns else t.get("component")
    out["value [95% CI]"] = [_cell(v, lo, hi, 100 if "component" in t.columns else _scale(m))
                             for v, lo, hi, m in zip(t["value"], t["low"], t["high"],
                                                     metric)]
    if "metric" in out.columns:
        out["metric"] = out["metric"].map(lambda m: LABELS.get(m, m))
    out["n"] = t["n"].map(lambda n: f"{int(n):,}")
    return out.drop(columns=[c for c in ("rules_boats", "fair") if c in out.columns
                             and out[c].isna().all()])


def section(exhibits: list[Exhibit]) -> tuple[page.Section | None, list[Chart]]:
    """The section (None without exhibits) and its chart jobs, named by the exhibits."""
    if not exhibits:
        return None, []
    jobs = [Chart(ex.name, ex.chart, ex.caption, kwargs={"table": ex.table})
            for ex in exhibits if ex.chart]
    tables = [page.Table(f"{ex.name}_table", view(ex), f"{ex.caption} (claims "
                         f"{', '.join(ex.claims)})", max_rows=60) for ex in exhibits]
    return page.Section("The claims' numbers", [INTRO], tables=tables), jobs
