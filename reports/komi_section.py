"""The report's komi tables (RULES.md C1; docs/fairest.md "Komi tables"), as Go publishes its
komi: for every player count and style of a run's base game under the rules' boats, each seat's
win share against a score bonus of its own, and the fair bonus where the share crosses 1/N.

They are read from the run's stored scores and tie-break keys (``experiments.komi``), which is
exact for strategies that never read the score (every heuristic rung): no game is played. A
second pass over the run, chunk by chunk in flat memory, and only over the settings shown.
Settings whose strategies read the score (the search rung, a plug-in), mixed tables, settings
that already move a lever (a bonus, a setup order) and variants are left out, as the section
says.
"""
from __future__ import annotations

import math
import time

import pandas as pd

from experiments.komi.screen import komi_blind
from experiments.komi.tables import run_komi
from reports import page
from reports.render import Chart, render
from reports.sections import name_part

TOP, STEP = 3.0, 0.5           # each seat's own bonus from -3 to +3 points in half points


def shown_settings(meta: pd.DataFrame) -> dict[str, list[str]]:
    """The settings the section reads, by style: the base game (no challenge, expansion or
    house rule) under the rules' boats, self-play of a komi-blind strategy; in player-count
    order. (A mixed table's seats change players from rotation to rotation: a seat's own
    bonus there is no one player's question, so mixed tables are left out.)"""
    out: dict[str, list[str]] = {}
    rows = meta[(meta["allocation"] == "rules") & (meta["variant"] == "base")
                & (meta["flags"].fillna("") == "")]
    for label, row in rows.sort_values("players", kind="stable").iterrows():
        if len(set(row["strategies"])) == 1 and komi_blind(row["strategies"]):
            out.setdefault(row["strategies_text"], []).append(label)
    return out


def _titles(meta: pd.DataFrame, labels: list[str]) -> dict[str, str]:
    tiebreaks = meta.loc[labels].groupby("players")["tiebreak"].nunique()
    return {lab: f"{meta.at[lab, 'players']} players"
            + (f", tie-break {meta.at[lab, 'tiebreak']}"
               if tiebreaks[meta.at[lab, "players"]] > 1 else "") for lab in labels}


def _points(x: float) -> str:
    return "open" if math.isinf(x) else f"{x:+.1f}"


def fair_view(fair: pd.DataFrame, meta: pd.DataFrame) -> pd.DataFrame:
    """The fair bonus of every seat as the page shows it: the setting in words, the seat's
    share with none, the bonus that brings it to 1/N and the bonuses the games cannot tell
    from fair, or that no bonus in the range does."""
    rows = []
    for r in fair.itertuples():
        m = meta.loc[r.setting]
        fair_text = (f"{r.bonus:+.2f} [{_points(r.low)}, {_points(r.high)}]" if r.reached
                     else f"never within ±{TOP:g} (stays {r.side} 1/N)")
        rows.append({"players": m["players"], "style": m["strategies_text"],
                     "tie-break": m["tiebreak"], "seat": r.seat + 1,
                     "share with no bonus, %": f"{100 * r.share_at_0:.2f}",
                     "fair bonus, points [interval]": fair_text, "n": f"{r.n:,}"})
    return pd.DataFrame(rows)


def section(run_path, meta: pd.DataFrame, games: int | None, pool=None, log=None,
            watch=None) -> page.Section | None:
    """The section; None where the run has no setting to show."""
    chosen = shown_settings(meta)
    labels = [lab for labs in chosen.values() for lab in labs]
    if not labels:
        return None
    t0 = time.perf_counter()
    if watch is not None:
        watch.begin(f"komi tables of {len(labels)} settings")
    table, fair = run_komi(run_path, TOP, STEP, games, set(labels))
    if len(table):
        moved = set(table.loc[table["levers"], "setting"])
        table, fair = table[~table["setting"].isin(moved)], fair[~fair["setting"].isin(moved)]
        chosen = {k: [x for x in v if x not in moved] for k, v in chosen.items()}
        chosen = {k: v for k, v in chosen.items() if v}
    if not len(table):
        return None
    jobs = [Chart(f"komi_{name_part(style)}", "komi_panels",
                  f"Each seat's win share against its own score bonus, {style}: the fair "
                  f"bonus where it crosses 1/N", args=(labs, _titles(meta, labs)))
            for style, labs in chosen.items()]
    figures = render(jobs, (table, fair), pool)
    seconds = time.perf_counter() - t0
    if log is not None:
        log(f"report: komi tables of {len(labels)} settings in {seconds:.1f} s")
    never = fair[~fair["reached"]]
    text = [
        "**Komi** is a score bonus per seat (RULES.md C1), added before the tie-break: Go set "
        "its own from data this way. Each seat's win share (ties split) when it alone gets "
        f"a bonus of −{TOP:g} to +{TOP:g} points in half points, the other seats none, with "
        "its 95% interval; and the **fair bonus**, where the seat's share crosses 1/N, with "
        "the bonuses the games cannot tell from fair for that seat (per seat, no correction "
        "across seats: each seat's line is a question of its own).",
        "Read from the stored scores and tie-break keys of the games played without a bonus "
        "(the komi screen, `experiments.komi`): exact for these strategies, which never read "
        "the score, so no game was played for it; a test checks it against games played with "
        "the bonus. The base game under the rules' boats in self-play only: a mixed table's "
        "seats change players between rotations, and a strategy that reads the score (the "
        "search rung) needs games played with the bonus (`survive-sim fairest --space "
        "komi=...`).",
        ("Every seat reaches fairness within the range." if not len(never) else
         f"{len(never)} seat(s) never reach fairness within ±{TOP:g} points: a bonus in that "
         f"range does not bring them to 1/N (the table says on which side they stay)."),
        "A bonus per seat read this way moves one seat at a time; a rule gives every seat its "
        "bonus at once, which `survive-sim fairest --space` searches and confirms on fresh "
        "games. For these bots, not people.",
    ]
    tables = [page.Table("komi_fair", fair_view(fair, meta), "Each seat's fair bonus "
                         "(points) with its interval, by player count and style.",
                         max_rows=60),
              page.Table("komi", table.drop(columns=["levers"]),
                         "Every seat's share against its own bonus (tidy).", show=False)]
    return page.Section("Komi tables", text, figures=figures, tables=tables)
