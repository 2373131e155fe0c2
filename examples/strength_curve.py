"""The search rung's strength curve: ``search256`` at doubling budgets against ``expert``, one
resumable tournament per budget and player count, then a table and a chart of the head-to-head
share (with its 95% interval and n) against the budget (docs/search.md, "The strength curve").

    python examples/strength_curve.py --out runs/curve --players 4 --budgets 16,32,64 \\
        --indices 256,256,128

Each tournament is ``survive-sim tournament --strategies search256:budget=B,expert --seed 1
--no-stop`` (``expert`` named first at 5 or more players: at 5 the search then sits in 2 of
the 5 seats of every line-up, not 3, the cheaper way round) in ``OUT/pP_bB``: run the same
command again after an interruption and it resumes; a finished one is read back, not played.
``--draw`` only reads the folders already in OUT (any ``pP_bB`` folder, or a link to a
tournament of ``search64`` or ``search256`` against ``expert``). Budget 4,096 costs about 170 s
a game at 4 players on one core: run the dear budgets in a second process with ``--threads 1``
beside the cheap ones. Bad input gets one line and exit code 2.
"""
from __future__ import annotations

import argparse
import re
from pathlib import Path

import numpy as np
import pandas as pd

FOLDER = re.compile(r"p(\d)_b(\d+)$")


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


def draw(table: pd.DataFrame, path: Path):
    from reports.charts.style import MARKERS, SERIES, Chart, chart

    @chart
    def make():
        c = Chart(7.5, 4.2)
        ax = c.body.subplots()
        handles = {}
        for k, (players, t) in enumerate(table.groupby("players")):
            x = t.budget.to_numpy() * (1.0 + 0.04 * (k - 0.5))       # side by side
            y = t.share.to_numpy()
            err = np.vstack([y - t.low.to_numpy(), t.high.to_numpy() - y])
            handles[f"{players} players"] = ax.errorbar(
                x, y, yerr=err, color=SERIES[k], marker=MARKERS[k], capsize=3, lw=1.5)
            for xi, yi, n in zip(x, t.high.to_numpy(), t.indices.to_numpy()):
                ax.annotate(f"n={n}", (xi, yi), textcoords="offset points", xytext=(0, 4),
                            ha="center", fontsize=7.5, color=SERIES[k])
        ax.axhline(0.5, color="#555555", lw=1, ls="--")
        ax.set_xscale("log", base=2)
        budgets = sorted(table.budget.unique())
        ax.set_xticks(budgets, [f"{b:,}" for b in budgets])
        ax.set_xlabel("search budget (iterations per decision)")
        ax.set_ylabel("games above expert (ties half)")
        ax.yaxis.set_major_formatter(lambda v, _: f"{v:.0%}")
        return c.finish(
            "search256 at each budget against expert: the share of games it finishes above",
            "Head to head in one tournament per point: search256:budget=B and expert, two "
            "seats each at 4 players (three expert at 5), every rotation on the same game "
            "indices (seed 1). Bars: 95% intervals over n game indices; dashed: as strong as "
            "expert. For these bots only.", handles)

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
    table.to_csv(a.out / "curve.csv", index=False)
    with pd.option_context("display.width", 140):
        print(table.to_string(index=False))
    draw(table, a.out / "curve.png")
    print(f"wrote {a.out / 'curve.csv'} and {a.out / 'curve.png'}")


if __name__ == "__main__":
    main()
