"""A tournament's result as text: the printed tables and the folder's README.md."""
from __future__ import annotations

import math

from ..tables.summary import align
from .design import lineup_label
from .run import Result


def _pct(x) -> str:
    return "nan" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def _standing_rows(result: Result) -> tuple[list[str], list[list[str]]]:
    header = ["rank", "strategy", "games", "win share [95% CI]", "mean score [95% CI]", "mu",
              "sigma", "ordinal"]
    rows = [[str(r.rank), r.strategy, f"{r.games:,}",
             f"{_pct(r.win_share)} [{_pct(r.low)}, {_pct(r.high)}]",
             f"{r.mean_score:.2f} [{r.score_low:.2f}, {r.score_high:.2f}]", f"{r.mu:.2f}",
             f"{r.sigma:.2f}", f"{r.ordinal:.2f}"]
            for r in result.standings.itertuples(index=False)]
    return header, rows


def _h2h_rows(result: Result) -> tuple[list[str], list[list[str]]]:
    order = list(result.standings["strategy"])
    cell = {(r.strategy, r.opponent): f"{_pct(r.share)} [{_pct(r.low)}, {_pct(r.high)}] "
            f"n={r.games:,}" for r in result.head_to_head.itertuples(index=False)}
    header = ["row above column", *order]
    rows = [[a, *[("-" if a == b else cell.get((a, b), "never met")) for b in order]]
            for a in order]
    return header, rows


def _intro(result: Result) -> list[str]:
    t = result.tournament
    s = t.settings[0]
    head = (f"tournament: {', '.join(t.strategies)} at {t.players} players "
            f"({s.seats} seats), {len(t.lineups)} line-ups, seed {t.seed}, tie-break "
            f"{s.tiebreak}; {result.games_played:,} games = {result.indices_played:,} game "
            f"indices x {len(t.lineups)} line-ups")
    return [head, result.statement()]


def _notes(result: Result) -> str:
    k, p = result.indices_played, result.tournament.players
    return (f"n = games played (tables sat at); intervals are 95% over the {k:,} game indices "
            f"(the games of one index share layout and dice); win share and mean score are per "
            f"player the strategy played (fair share 1/{p} = {100 / p:.1f}%), a tie split among "
            f"its winners; rating = openskill PlackettLuce (tau = 0), ordinal = mu - 3 sigma.")


def text(result: Result) -> str:
    """The printed result: the line-up and stop statement, standings, head to head."""
    lines = _intro(result) + [""]
    lines += align(*_standing_rows(result), right={0, 2})
    lines += [_notes(result), "", ("head to head: share of games where the row finished "
                                   "above the column (ties half), 95% CI, n games")]
    lines += align(*_h2h_rows(result))
    return "\n".join(lines)


def _md_table(header, rows) -> list[str]:
    return ["| " + " | ".join(header) + " |", "|" + "---|" * len(header),
            *["| " + " | ".join(r) + " |" for r in rows]]


def markdown(result: Result) -> str:
    """The folder's README.md."""
    t = result.tournament
    intro = _intro(result)
    lines = ["# Tournament: " + ", ".join(t.strategies), "", intro[0], "", f"**{intro[1]}**",
             "", "## Standings (by rating)", "", *_md_table(*_standing_rows(result)), "",
             _notes(result), "", "## Head to head", "",
             "Share of the games where the row finished above the column (ties half).", "",
             *_md_table(*_h2h_rows(result)), "", "## Line-ups", "",
             *[f"{i}. {lineup_label(lu)}" for i, lu in enumerate(t.lineups)], "",
             "## Files", "",
             "* `standings.csv`: one row per strategy, best rating first.",
             "* `head_to_head.csv`: one row per ordered pair that met.",
             ("* `games.parquet`: one row per game (game index, line-up, per player strategy, "
              "score, standing, winner, win share; then the engine's per-game columns)."),
             ("* `tournament.json`: settings, seed, batches, the stop rule and its outcome, "
              "the engine's source hash."), ""]
    return "\n".join(lines)
