"""The skill-trace study's levels measured against ``expert``: one resumable tournament per
level and player count, and the head-to-head share of each (the games where the level finishes
above ``expert``, ties half, with its 95% interval over game indices) as the csv the study's
second chart reads, ``experiments/skill_strength.csv`` (docs/studies.md, "skill-trace").

    python examples/skill_strength.py --out runs/skill-strength \\
        --csv experiments/skill_strength.csv

Each tournament is ``survive-sim tournament --strategies expert,LEVEL --players P --seed 1
--no-stop`` in ``OUT/pP_LEVEL`` (``expert`` named first: at 5 players the level then sits in
2 of the 5 seats of every line-up, the cheaper way round for the search levels), under the
rules' boats and the count's own tie-break. The heuristic levels play ``--indices`` game
indices (cheap); the search levels (``search256:budget=B``, thousands of times dearer a game)
``--search-indices`` (one number, or one per player count: at 5 players each index is 5
line-ups' games, at 4 and 6 two), and their intervals are wide. The levels are the study's,
read from ``experiments/skill_trace.toml``; ``expert`` is the yardstick, 1/2 by definition (a
level cannot meet itself in a tournament). Run the same command again after an interruption and it
resumes; a finished tournament is read back, not played, whatever its count of indices (so
a second run with fewer ``--search-indices`` keeps what the first finished, and the csv says
how many each row has). ``--read`` only reads OUT.
"""
from __future__ import annotations

import argparse
import re
import time
import tomllib
from pathlib import Path

import pandas as pd

ROOT = Path(__file__).resolve().parents[1]
STUDY = ROOT / "experiments" / "skill_trace.toml"
REFERENCE = "expert"
SEED = 1
COLUMNS = ["players", "level", "strategy", "share", "low", "high", "games", "indices", "seed",
           "seconds", "source"]


def study_levels(path: Path = STUDY) -> tuple[list[int], list[str]]:
    """The player counts and the skill levels (strategies, weakest first) the study plays, read
    from its file as plain TOML (its claims need not be known here)."""
    grid = tomllib.loads(path.read_text(encoding="utf-8"))["grid"]
    players = sorted({int(p) for g in grid for p in g["players"]})
    levels = list(dict.fromkeys(s for g in grid for s in g["strategies"]))
    return players, levels


def level_name(strategy: str) -> str:
    """The level as the charts name it: ``search256:budget=16`` -> ``search 16``."""
    m = re.fullmatch(r"search\d*:budget=(\d+)", strategy)
    return f"search {m[1]}" if m else strategy


def is_search(strategy: str) -> bool:
    return strategy.startswith("search")


def folder_of(out: Path, players: int, strategy: str) -> Path:
    return out / f"p{players}_{re.sub(r'[^a-z0-9]+', '-', strategy.lower()).strip('-')}"


def play(out: Path, players: list[int], levels: list[str], indices: int,
         search_indices: dict[int, int], threads, batch: int, search_batch: int) -> None:
    """Every level below the yardstick against it, at every player count: the cheap ones
    first, so that an interrupted run has them."""
    import survive_sim as ss
    order = sorted(((p, s) for p in players for s in levels if s != REFERENCE),
                   key=lambda ps: (is_search(ps[1]), levels.index(ps[1]), ps[0]))
    for p, strategy in order:
        dear = is_search(strategy)
        n = search_indices[p] if dear else indices
        folder = folder_of(out, p, strategy)
        if (folder / "tournament.json").exists():       # finished, whatever its count
            print(f"{folder}: finished, read back", flush=True)
            continue
        print(f"{folder}: {REFERENCE},{strategy} at {p} players, {n} game indices",
              flush=True)
        t0 = time.perf_counter()
        r = ss.tournament([REFERENCE, strategy], n, players=p, seed=SEED,
                          batch=search_batch if dear else batch, stop=False, threads=threads,
                          out=folder)
        print(f"  {'played' if r.played else 'read back'} in "
              f"{time.perf_counter() - t0:.0f} s; {r.statement()}", flush=True)


def strength(out: Path, players: list[int], levels: list[str]) -> pd.DataFrame:
    """One row per level and player count: the level's head-to-head share against the
    yardstick with its interval and n, from each finished tournament's head_to_head.csv and
    tournament.json; the yardstick itself at 1/2 (its own rows, no games). Levels whose
    tournament is missing or unfinished are left out."""
    import json
    rows = []
    for p in players:
        for strategy in levels:
            base = {"players": p, "level": level_name(strategy), "strategy": strategy,
                    "seed": SEED}
            if strategy == REFERENCE:
                rows.append({**base, "share": 0.5, "low": 0.5, "high": 0.5, "games": 0,
                             "indices": 0, "seed": pd.NA, "seconds": 0.0,
                             "source": "the yardstick: 1/2 by definition"})
                continue
            folder = folder_of(out, p, strategy)
            if not (folder / "head_to_head.csv").exists():
                continue
            h2h = pd.read_csv(folder / "head_to_head.csv")
            me = h2h[(h2h.opponent == REFERENCE) & (h2h.strategy != REFERENCE)].iloc[0]
            meta = json.loads((folder / "tournament.json").read_text(encoding="utf-8"))
            rows.append({**base, **{k: round(float(me[k]), 6) for k in ("share", "low", "high")},
                         "games": int(me.games), "indices": int(me.indices),
                         "seconds": round(float(meta["timing"]["seconds"]), 1),
                         "source": f"survive-sim tournament --strategies {REFERENCE},"
                                   f"{strategy} --players {p} --seed {SEED} --no-stop "
                                   f"(survive-sim {meta['versions'].get('survive-sim')})"})
    return pd.DataFrame(rows, columns=COLUMNS)


class Parser(argparse.ArgumentParser):
    def error(self, message):
        """Bad input: one line and exit code 2 (no usage block)."""
        self.exit(2, f"{self.prog}: error: {message}\n")


def main():
    p = Parser(description=__doc__.split("\n\n")[0])
    p.add_argument("--out", type=Path, required=True, help="folder of the tournaments")
    p.add_argument("--csv", type=Path, default=None,
                   help="where to write the table (default OUT/skill_strength.csv)")
    p.add_argument("--players", default=None, help="e.g. 4,5,6 (default: the study's)")
    p.add_argument("--indices", type=int, default=1000, help="per heuristic level")
    p.add_argument("--search-indices", default="32",
                   help="per search level: one number, or one per player count (32,16,32)")
    p.add_argument("--threads", type=int, default=None)
    p.add_argument("--batch", type=int, default=250)
    p.add_argument("--search-batch", type=int, default=8)
    p.add_argument("--read", action="store_true", help="only read OUT and write the csv")
    a = p.parse_args()
    players, levels = study_levels()
    if a.players:
        try:
            players = [int(x) for x in a.players.split(",")]
        except ValueError:
            p.error(f"--players: whole numbers separated by commas, got {a.players!r}")
        if not all(2 <= x <= 6 for x in players):
            p.error(f"--players: each one of 2-6, got {a.players}")
    try:
        dear = [int(x) for x in a.search_indices.split(",")]
    except ValueError:
        dear = []
    if len(dear) == 1:
        dear *= len(players)
    if len(dear) != len(players):
        p.error("--search-indices: one whole number, or one per player count")
    if min(a.indices, a.batch, a.search_batch, *dear) < 1:
        p.error("--indices, --search-indices and the batches: at least 1")
    if not a.read:
        a.out.mkdir(parents=True, exist_ok=True)
        from experiments.tournament import TournamentError
        from play.settings import SettingsError
        try:
            play(a.out, players, levels, a.indices, dict(zip(players, dear)), a.threads,
                 a.batch, a.search_batch)
        except (TournamentError, SettingsError) as e:
            p.error(str(e))
    table = strength(a.out, players, levels) if a.out.is_dir() else pd.DataFrame()
    if len(table) <= len(players):
        p.error(f"--out: {a.out} holds no finished tournament of a level against {REFERENCE}")
    target = a.csv or a.out / "skill_strength.csv"
    table.to_csv(target, index=False)
    with pd.option_context("display.width", 160, "display.max_colwidth", 40):
        print(table.drop(columns=["source"]).to_string(index=False))
    print(f"wrote {target}")


if __name__ == "__main__":
    main()
