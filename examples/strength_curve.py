"""The search rung's strength curve: ``search256`` at doubling budgets against ``expert``, one
resumable tournament per budget and player count, then a table and a chart of the head-to-head
share (with its 95% interval and n) against the budget, and each budget's gain over the one
below it, paired on the game indices both played (docs/search.md, "The strength curve").

    python examples/strength_curve.py --out runs/curve --players 4 --budgets 16,32,64 \\
        --indices 256,256,128

Each tournament is ``survive-sim tournament --strategies search256:budget=B,expert --seed 1
--no-stop`` (``expert`` named first at 5 or more players: at 5 the search then sits in 2 of
the 5 seats of every line-up, not 3, the cheaper way round) in ``OUT/pP_bB``: run the same
command again after an interruption and it resumes; a finished one is read back, not played.
``--draw`` only reads the folders already in OUT (any ``pP_bB`` folder, or a link to a
tournament of ``search64`` or ``search256`` against ``expert``). Budget 4,096 costs about 3
minutes a game at 4 players on one core: run the dear budgets in a second process with
``--threads 1`` beside the cheap ones. Bad input gets one line and exit code 2.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd

FOLDER = re.compile(r"p(\d)_b(\d+)$")
REFERENCE = 256                     # the shipped preset's budget (search256)


def play(out: Path, players: int, budgets, indices, threads, batch):
    import survive_sim as ss
    for budget, n in zip(budgets, indices):
        pair = [f"search256:budget={budget}", "expert"]
        if players > 4:
            pair.reverse()
        folder = out / f"p{players}_b{budget}"
        print(f"{folder}: {','.join(pair)}, {n} game indices", flush=True)
        ss.tournament(pair, n, players=players, seed=1, batch=batch, stop=False,
                      threads=threads, out=folder)


def curve(out: Path) -> pd.DataFrame:
    """One row per finished tournament in ``out``: the search's head-to-head share against
    ``expert`` with its interval, the games and indices, and both sides' win shares."""
    rows = []
    for folder in sorted(out.iterdir()):
        m = FOLDER.match(folder.name)
        if not m or not (folder / "head_to_head.csv").exists():
            continue
        h2h = pd.read_csv(folder / "head_to_head.csv")
        me = h2h[h2h.opponent == "expert"].iloc[0]
        st = pd.read_csv(folder / "standings.csv").set_index("strategy")
        row = {"players": int(m[1]), "budget": int(m[2]), "share": me.share, "low": me.low,
               "high": me.high, "games": int(me.games), "indices": int(me.indices)}
        for side, name in (("search", me.strategy), ("expert", "expert")):
            for c in ("win_share", "low", "high"):
                row[f"{side}_{c}"] = st.loc[name, c]
        rows.append(row)
    table = pd.DataFrame(rows)
    return table.sort_values(["players", "budget"]).reset_index(drop=True) if rows else table


def per_index(folder: Path) -> pd.Series:
    """The tournament's head to head per game index (search above ``expert``, ties half, over
    their player pairs: ``pair_shares``, the tournament's own count; then the mean over the
    index's line-ups), read from ``games.parquet`` one row group at a time: sums per index,
    never the whole run."""
    import pyarrow.parquet as pq

    from experiments.tournament.stats import pair_shares
    f = pq.ParquetFile(folder / "games.parquet")
    names = set(f.schema_arrow.names)
    players = sum(f"standing_{i}" in names for i in range(6))
    cols = ["game"] + [f"{c}_{i}" for c in ("player_strategy", "standing")
                       for i in range(players)]
    sums = []
    for k in range(f.num_row_groups):
        d = f.read_row_group(k, columns=cols).to_pandas()
        strat = np.column_stack([d[f"player_strategy_{i}"].astype(str).to_numpy() == "expert"
                                 for i in range(players)]).astype(int)     # 0 search, 1 expert
        rank = np.column_stack([d[f"standing_{i}"].to_numpy(int) for i in range(players)])
        _, above, tied = pair_shares(strat, rank, 0, 1)
        y = pd.Series(above + 0.5 * tied, index=d.game.to_numpy())
        sums.append(y.groupby(level=0).agg(["sum", "count"]))
    total = pd.concat(sums).groupby(level=0).sum()
    return (total["sum"] / total["count"]).astype(float)


def gains(out: Path, table: pd.DataFrame, reference: int = REFERENCE) -> pd.DataFrame:
    """Each budget against the next smaller one at the same player count (``step``), and
    each budget above ``reference`` against it (``against 256``: is any budget stronger than
    the shipped preset's?), paired on the game indices both played (the same games: seed
    1): the mean gain in head-to-head share with its 95% interval over those indices."""
    from experiments.tables.moments import bounded_mean_ci
    rows = []
    for players, t in table.groupby("players"):
        budgets = t.budget.tolist()
        share = {b: per_index(out / f"p{players}_b{b}") for b in budgets}
        pairs = [("step", a, b) for a, b in zip(budgets, budgets[1:])]
        if reference in budgets:
            steps = {(a, b) for _, a, b in pairs}
            pairs += [(f"against {reference}", reference, b) for b in budgets
                      if b > reference and (reference, b) not in steps]
        for kind, small, big in pairs:
            a, b = share[small], share[big]
            common = a.index.intersection(b.index)
            mean, low, high, n, _ = bounded_mean_ci(b[common].to_numpy() - a[common].to_numpy(),
                                                    -1.0, 1.0)
            rows.append({"players": players, "kind": kind, "from": small, "to": big,
                         "gain": mean, "low": low, "high": high, "indices": n})
    return pd.DataFrame(rows, columns=["players", "kind", "from", "to", "gain", "low", "high",
                                       "indices"])


def draw(table: pd.DataFrame, path: Path):
    from reports.charts.style import MARKERS, SERIES, Chart, chart

    @chart
    def make():
        c = Chart(7.5, 4.2)
        ax = c.body.subplots()
        handles = {}
        for k, (players, t) in enumerate(table.groupby("players")):
            x = t.budget.to_numpy() * (1.0 + 0.05 * (k - 1))           # side by side
            y = t.share.to_numpy()
            err = np.vstack([y - t.low.to_numpy(), t.high.to_numpy() - y])
            handles[f"{players} players"] = ax.errorbar(
                x, y, yerr=err, color=SERIES[k], marker=MARKERS[k], capsize=3, lw=1.5)
            # n beside each point: the first count's over its bars, the second's under them,
            # the third's to the right of its point
            where = k % 3
            ends = (t.high if where == 0 else t.low if where == 1 else t.share).to_numpy()
            offset, va, ha = [((0, 4), "bottom", "center"), ((0, -4), "top", "center"),
                              ((5, 0), "center", "left")][where]
            for xi, yi, n in zip(x, ends, t.indices.to_numpy()):
                ax.annotate(f"n={n}", (xi, yi), textcoords="offset points", xytext=offset,
                            va=va, ha=ha, fontsize=7.5, color=SERIES[k])
        ax.axhline(0.5, color="#555555", lw=1, ls="--")
        ax.set_xscale("log", base=2)
        budgets = sorted(table.budget.unique())
        ax.set_xticks(budgets, [f"{b:,}" for b in budgets])
        ax.set_xlabel("search budget (iterations per decision)")
        ax.set_ylabel("games above expert (ties half)")
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        return c.finish(
            "search256 at each budget against expert: the share of games it finishes above",
            "Head to head in one tournament per point: search256:budget=B and expert "
            "alternating round the table (search in two seats of 4, two of 5, three of 6), "
            "every rotation on the same game indices (seed 1). Bars: 95% intervals over n "
            "game indices; dashed: as strong as expert. For these bots only.", handles)

    fig = make()
    fig.savefig(path)


def whole(p: Parser, option: str, text: str) -> list[int]:
    """A comma-separated list of positive whole numbers, or argparse's one-line error."""
    try:
        values = [int(x) for x in text.split(",")]
    except ValueError:
        values = []
    if not values or min(values) < 1:
        p.error(f"{option}: give positive whole numbers separated by commas, e.g. 16,32,64")
    return values


class Parser(argparse.ArgumentParser):
    def error(self, message):
        """Bad input: one line and exit code 2 (no usage block)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def main():
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, required=True)
    p.add_argument("--players", type=int, default=4)
    p.add_argument("--budgets", default="16,32,64,128,256")
    p.add_argument("--indices", default="256,256,128,128,64",
                   help="game indices per budget (one number, or one per budget)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--batch", type=int, default=64)
    p.add_argument("--draw", action="store_true", help="only read OUT and draw")
    a = p.parse_args()
    if not 2 <= a.players <= 6:
        p.error(f"--players: one of 2, 3, 4, 5, 6, got {a.players}")
    if not a.draw:
        budgets, indices = whole(p, "--budgets", a.budgets), whole(p, "--indices", a.indices)
        if len(indices) == 1:
            indices *= len(budgets)
        if len(indices) != len(budgets):
            p.error("--indices: give one number, or one per budget")
        new = not a.out.exists()
        a.out.mkdir(parents=True, exist_ok=True)
        from experiments.tournament import TournamentError
        from play.settings import SettingsError
        try:
            play(a.out, a.players, budgets, indices, a.threads, a.batch)
        except (TournamentError, SettingsError) as e:
            if new and not any(a.out.iterdir()):
                a.out.rmdir()                   # nothing half-written
            p.error(str(e))
    table = curve(a.out) if a.out.is_dir() else pd.DataFrame()
    if table.empty:
        p.error(f"--out: {a.out} holds no finished tournament folder (pP_bB)")
    steps = gains(a.out, table)
    table.to_csv(a.out / "curve.csv", index=False)
    steps.to_csv(a.out / "gains.csv", index=False)
    with pd.option_context("display.width", 140):
        print(table.to_string(index=False))
        print("\neach budget over the one below it (step) and over the shipped preset's "
              f"budget {REFERENCE} (against {REFERENCE}), paired on their common game indices:")
        print(steps.to_string(index=False))
    draw(table, a.out / "curve.png")
    print(f"wrote {a.out / 'curve.csv'}, {a.out / 'gains.csv'} and {a.out / 'curve.png'}")


if __name__ == "__main__":
    main()
