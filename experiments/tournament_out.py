"""A tournament's folder and text: written whole or not at all.

The folder is built in a hidden sibling (``.NAME.tmp-XXXX``) while the games are played --
``games.parquet`` grows batch by batch there -- and renamed into place only when every file is
complete and synced. An existing folder is refused unless it is empty, or holds an earlier
tournament (its ``tournament.json``) and ``force`` is given; any other folder is never replaced.
Any error, Ctrl-C or SIGTERM removes the temporary folder and leaves the target as it was.
"""
from __future__ import annotations

import contextlib
import json
import math
import os
import secrets
import shutil
import tempfile
from pathlib import Path

import numpy as np

from .tournament import Result, TournamentError, lineup_label

FORMAT = "survive-sim-tournament/1"
MARKER = "tournament.json"
ROW_GROUP = 10_000


# ---------------------------------------------------------------------------- the target
def check_out(out, force: bool = False) -> tuple[Path, bool]:
    """``(absolute path, whether an existing folder is replaced)``; ``TournamentError`` (one
    line) when the folder cannot be written there. Call before playing anything."""
    path = Path(os.path.abspath(os.fspath(out)))
    parent = path.parent
    if not path.name or path == parent:
        raise TournamentError(f"cannot write a tournament to {path}: give a folder name", "--out")
    if not parent.is_dir():
        raise TournamentError(f"cannot write {path}: the folder {parent} does not exist; "
                              f"create it or choose another --out", "--out")
    if not os.access(parent, os.W_OK | os.X_OK):
        raise TournamentError(f"cannot write {path}: the folder {parent} is not writable; "
                              f"choose a writable --out", "--out")
    if path.is_symlink() or (path.exists() and not path.is_dir()):
        raise TournamentError(f"{path} exists and is not a folder; choose a new folder name",
                              "--out")
    if not path.exists():
        return path, False
    if not os.listdir(path):
        return path, True
    if not force:
        raise TournamentError(f"{path} exists and is not empty; choose a new folder, or pass "
                              f"--force to replace an earlier tournament there", "--out")
    if not _is_tournament(path):
        raise TournamentError(f"{path} holds something other than a tournament (no valid "
                              f"{MARKER}); --force replaces only an earlier tournament's folder",
                              "--out")
    return path, True


def _is_tournament(path: Path) -> bool:
    try:
        meta = json.loads((path / MARKER).read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return False
    return isinstance(meta, dict) and str(meta.get("format", "")).startswith("survive-sim-tournament/")


class Folder:
    """``with Folder(out, force) as f:`` -- ``f.write_games(frame)`` per batch, then
    ``f.finish(result)``; the folder appears at ``out`` when the block ends normally."""

    def __init__(self, out, force: bool = False):
        self.path, self.replace = check_out(out, force)
        self.tmp: Path | None = None
        self.writer = None
        self.schema = None
        self.pending: list = []
        self.rows = 0
        self.finished = False

    def __enter__(self) -> Folder:
        try:
            self.tmp = Path(tempfile.mkdtemp(prefix=f".{self.path.name}.tmp-",
                                             dir=self.path.parent))
        except OSError as e:
            raise TournamentError(f"cannot write in {self.path.parent}: {e.strerror or e}",
                                  "--out") from None
        mask = os.umask(0)
        os.umask(mask)
        os.chmod(self.tmp, 0o777 & ~mask)
        return self

    def write_games(self, frame) -> None:
        import pyarrow as pa
        import pyarrow.parquet as pq
        if self.schema is None:
            table = pa.Table.from_pandas(frame, preserve_index=False)
            self.schema = table.schema
            self.writer = pq.ParquetWriter(self.tmp / "games.parquet", self.schema)
        else:
            table = pa.Table.from_pandas(frame, schema=self.schema, preserve_index=False)
        self.pending.append(table)
        self.rows += len(frame)
        if self.rows >= ROW_GROUP:
            self._flush()

    def _flush(self) -> None:
        if self.pending:
            import pyarrow as pa
            self.writer.write_table(pa.concat_tables(self.pending))
            self.pending, self.rows = [], 0

    def finish(self, result: Result) -> None:
        self._flush()
        if self.writer is not None:
            self.writer.close()
            self.writer = None
        result.standings.to_csv(self.tmp / "standings.csv", index=False)
        result.head_to_head.to_csv(self.tmp / "head_to_head.csv", index=False)
        (self.tmp / "README.md").write_text(markdown(result), encoding="utf-8")
        (self.tmp / MARKER).write_text(json.dumps(manifest(result), indent=2, default=_plain)
                                       + "\n", encoding="utf-8")
        self.finished = True

    def __exit__(self, kind, exc, tb) -> bool:
        if kind is not None or not self.finished:
            self._abandon()
            if kind is None:
                raise TournamentError("the tournament folder was not finished")
            return False
        try:
            _sync_tree(self.tmp)
            if self.replace:
                old = self.path.parent / f".{self.path.name}.old-{secrets.token_hex(4)}"
                os.rename(self.path, old)
                try:
                    os.rename(self.tmp, self.path)
                except BaseException:
                    os.rename(old, self.path)
                    raise
                shutil.rmtree(old, ignore_errors=True)
            else:
                os.rename(self.tmp, self.path)
            _fsync(self.path.parent)
        except BaseException:
            self._abandon()
            raise
        return False

    def _abandon(self) -> None:
        """Remove the temporary folder (an error, Ctrl-C or SIGTERM)."""
        if self.writer is not None:
            with contextlib.suppress(Exception):
                self.writer.close()
            self.writer = None
        if self.tmp is not None:
            shutil.rmtree(self.tmp, ignore_errors=True)


def _sync_tree(root: Path) -> None:
    for dirpath, _dirs, files in os.walk(root):
        for name in files:
            _fsync(Path(dirpath) / name)
        _fsync(Path(dirpath))


def _fsync(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    except OSError:                      # some file systems cannot sync a directory
        pass
    finally:
        os.close(fd)


def _plain(v):
    if isinstance(v, np.generic):
        return v.item()
    if isinstance(v, (set, frozenset, tuple)):
        return list(v)
    raise TypeError(f"not JSON: {type(v).__name__}")


# ---------------------------------------------------------------------------- tournament.json
STOP_RULE = ("Wald SPRT after each batch on every pair adjacent in the rating order: per game "
             "index, the share of that index's games where the upper strategy finished above "
             "the lower (ties half); H0 p = 0.5 against p = 0.5 +- delta, two one-sided tests "
             "at alpha/2 each; settled when it accepts the order or equality within delta")


def manifest(result: Result) -> dict:
    from importlib.metadata import PackageNotFoundError, version

    import simulator

    from .runs import versions
    t = result.tournament
    v = versions()
    try:
        v["openskill"] = version("openskill")
    except PackageNotFoundError:
        v["openskill"] = None
    return {"format": FORMAT, "tournament": t.to_dict(), "seed": t.seed,
            "indices_played": result.indices_played, "games_played": result.games_played,
            "lineups": len(t.lineups), "batches": result.batches,
            "stop_rule": {"rule": STOP_RULE, "used_to_stop": t.stop, "alpha": t.alpha,
                          "beta": t.beta, "delta": t.delta, "unit": "game index"},
            "outcome": {"statement": result.statement(), **result.stop.to_dict()},
            "rating": {"model": "openskill.models.PlackettLuce", "parameters": "defaults, tau = 0 (fixed programs: no skill drift)",
                       "order": "game index, then line-up; rank = standing, ties equal"},
            "source_hash": simulator.SOURCE_HASH, "versions": v,
            "timing": {"seconds": result.seconds, "seconds_playing": result.seconds_playing,
                       "games_per_second": result.games_played / max(result.seconds, 1e-9)}}


# ---------------------------------------------------------------------------- text
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
    from .summary import align
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
