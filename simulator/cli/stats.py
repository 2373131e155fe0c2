"""``survive-sim stats``: the balance statistics of a sweep's run folder.

Per setting and seat: win share (ties split) under both tie-breaks, outright wins, shared tops,
score, rescued fraction, turns; per setting the χ² test of seat uniformity (Holm-adjusted over
the grid), tie rate and deciding steps; paired differences between settings that share games.
Every rate has its 95% interval and n (``experiments.stats``). A partial run is reported for
what it holds, and says so.
"""
from __future__ import annotations

import click

from . import main
from .files import check_writable, write_text
from .options import bad


@main.command(short_help="Balance statistics of a sweep's run folder.")
@click.argument("run", metavar="RUN", type=click.Path(file_okay=False))
@click.option("--out", default=None, metavar="FILE",
              help="Also write the tidy table (setting, seat, metric, value, low, high, n, "
                   "method) as CSV.")
@click.option("--precision", type=click.FloatRange(min=0.0001, max=0.5), default=0.01,
              show_default=True,
              help="Half-width of a seat's win share the `games needed` lines aim at.")
def stats(run, out, precision):
    """Print the balance statistics of the sweep folder RUN (made by `survive-sim sweep`)."""
    import os
    if not os.path.isdir(run):
        bad(f"{run} is not a run folder (no such directory); make one with `survive-sim sweep`")
    if out is not None:
        if not out.lower().endswith(".csv"):
            bad(f"--out must name a .csv file, got {out}", "--out")
        check_writable(out, "--out")
    from experiments.runs import RunError, load_run
    from experiments.stats import balance_stats, format_stats
    try:
        df, account = load_run(run, columns=STATS_COLUMNS)
    except RunError as e:
        bad(str(e))
    have = sum(h for h, _ in account.values())
    want = sum(w for _, w in account.values())
    if have == 0:
        bad(f"{run} holds no finished games yet; run its sweep (the same `survive-sim sweep` "
            f"command resumes it)")
    if have < want:
        short = [f"{label} {h}/{w}" for label, (h, w) in account.items() if h < w]
        click.echo(f"partial run: {have:,} of {want:,} games finished; short: "
                   f"{', '.join(short[:4])}{' ...' if len(short) > 4 else ''}")
    tidy = balance_stats(df, precision=precision)
    click.echo(format_stats(tidy))
    if out is not None:
        write_text(out, tidy.to_csv(index=False))
        click.echo(f"wrote {out} ({len(tidy)} rows)")


# the per-game columns the statistics read (a run can hold millions of games: the per-cause
# losses, tile backs and end reasons are left on disk)
GAME_FIELDS = ("setting", "allocation", "game", "seed", "players", "seats", "turns", "tiebreak",
               "challenges", "dolphins", "squid", "squid_only", "lagoon_is_sea",
               "creatures_must_move", "max_turns")
SEAT_FIELDS = ("player", "score", "rescued", "rescued_value", "turns", "lost", "boats",
               "strategy")
STATS_COLUMNS = list(GAME_FIELDS) + [f"{f}_{s}" for f in SEAT_FIELDS for s in range(6)]
