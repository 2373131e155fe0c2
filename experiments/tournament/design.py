"""What a tournament plays: its strategies (each in one spelling), its line-ups, its options,
and whether a batch of it fits in memory (``Tournament``; the package's docstring says how it
is played)."""
from __future__ import annotations

import itertools
import os
from dataclasses import dataclass, field

import numpy as np

from play.settings import Settings
from strategies.plugins import load_plugins as _load_plugins
from strategies.registry import StrategyError, canonical, split_specs

from .stats import LINEUP_SEP


class TournamentError(ValueError):
    """Bad tournament input: one line naming the problem and what is accepted."""

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


def load_plugins(paths) -> None:
    """Load user strategy plug-ins (``--plugin FILE``) before the names are checked."""
    if not paths:
        return
    try:
        _load_plugins(paths)
    except StrategyError as e:
        raise TournamentError(str(e), "--plugin") from None


# ---------------------------------------------------------------------------- names, line-ups
def split_names(text: str) -> tuple[str, ...]:
    """``"random,greedy:risk=2.0,greed=0.5"`` -> ``("random", "greedy:risk=2.0,greed=0.5")``
    (``strategies.registry.split_specs``: a ``key=value`` part continues the previous name's
    parameters, so parameterised names need no quoting)."""
    return tuple(split_specs(text))


def lineups(strategies: tuple[str, ...], players: int) -> list[tuple[str, ...]]:
    """Every combination of ``players`` strategies (in the given order), each in all seat
    rotations; with fewer strategies than players the list repeated cyclically to fill the
    table, in all rotations. A line-up names one strategy per player; duplicates are dropped
    (A,B,A,B rotated twice is itself)."""
    if len(strategies) >= players:
        combos = list(itertools.combinations(strategies, players))
    else:
        combos = [tuple(strategies[i % len(strategies)] for i in range(players))]
    out: list[tuple[str, ...]] = []
    for combo in combos:
        for r in range(players):
            rotated = combo[r:] + combo[:r]
            if rotated not in out:
                out.append(rotated)
    return out


def lineup_label(lineup) -> str:
    return LINEUP_SEP.join(lineup)


def spelling(spec: str) -> str:
    """The one spelling of a strategy entry: the name, then the parameters that differ from
    their defaults, in declared order (``strategies.registry.canonical``), each value written
    so that it reads back as the same number (``greedy:greed=0.5,risk=1`` -> ``greedy:greed=0.5``
    when risk's default is 1). A name the registry does not know raises ``TournamentError``."""
    try:
        return canonical(spec)
    except StrategyError as e:
        raise TournamentError(str(e), "--strategies") from None


def _distinct(names: tuple[str, ...]) -> tuple[str, ...]:
    """Each entry in its one spelling; two entries naming the same strategy are refused, with
    both spellings."""
    seen: dict[str, str] = {}
    out = []
    for n in names:
        c = spelling(n)
        if c in seen:
            first = seen[c]
            if first.strip() == n.strip():
                raise TournamentError(f"strategy {n!r} is named twice; name each strategy "
                                      f"once (the line-ups seat it in every seat)",
                                      "--strategies")
            raise TournamentError(f"{first!r} and {n!r} are the same strategy {c!r} (named "
                                  f"twice; parameters at their defaults are dropped); name "
                                  f"each strategy once", "--strategies")
        seen[c] = n
        out.append(c)
    return tuple(out)


def available_memory() -> int | None:
    """Bytes the machine can still give (``MemAvailable`` of /proc/meminfo, else the free
    physical pages), or None when unknown."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return None


def _size(n: float) -> str:
    for unit in ("bytes", "KiB", "MiB", "GiB", "TiB"):
        if n < 1024 or unit == "TiB":
            return f"{n:,.0f} {unit}" if unit == "bytes" else f"{n:.1f} {unit}"
        n /= 1024
    return f"{n:.1f} TiB"


BATCH_BYTES_PER_GAME = 4096     # a batch's peak per game: records, frames, games table, Arrow


KEPT_BYTES_PER_GAME = 512       # every game's keys, kept for the standings at the end


def check_memory(t, available: int | None = None) -> None:
    """Refuse, before any game is played, a ``--batch`` whose games do not fit in memory: one
    batch (its first ``min(batch, games)`` indices x line-ups) is held at once. With
    ``stop=False`` every game is played, and the keys of all of them, kept for the standings,
    must fit too (with the stop rule the tournament may end much sooner: not checked)."""
    available = available_memory() if available is None else available
    if available is None:
        return
    indices = min(t.batch, t.games)
    per_index = BATCH_BYTES_PER_GAME * len(t.lineups)
    need = indices * per_index
    kept = KEPT_BYTES_PER_GAME * len(t.lineups)
    if not t.stop and need + t.games * kept > available:
        fits = max(0, (available - need) // kept)
        raise TournamentError(
            f"--no-stop plays all {t.games:,} game indices x {len(t.lineups)} line-ups, whose "
            f"results need about {_size(t.games * kept + need)} of memory, and "
            f"{_size(available)} is available; the largest --games that fits is {fits:,}",
            "--games")
    if need > available:
        fits = max(0, available // per_index)
        raise TournamentError(
            f"a batch of {indices:,} game indices x {len(t.lineups)} line-ups needs about "
            f"{_size(need)} of memory, and {_size(available)} is available; the largest "
            f"--batch that fits is {fits:,}" if fits >= 1 else
            f"one game index x {len(t.lineups)} line-ups needs about {_size(per_index)} "
            f"and only {_size(available)} is available", "--batch")


# ---------------------------------------------------------------------------- the tournament
@dataclass(frozen=True)
class Tournament:
    """What a tournament plays and how it stops. ``rules`` are further ``Settings`` fields
    (``boats``, ``tiebreak``, ``challenges`` ...), the same for every line-up."""
    strategies: tuple[str, ...]
    players: int = 4
    games: int = 10_000                 # game indices at most; each is played by every line-up
    seed: int = 0
    batch: int = 500                    # game indices per batch (one stop check per batch)
    alpha: float = 0.05                 # SPRT: chance of ordering an equal pair (both sides)
    beta: float = 0.05                  # SPRT: chance of missing a difference of delta
    delta: float = 0.05                 # SPRT: H1 is p(A above B) = 0.5 +- delta
    stop: bool = True                   # False: play all ``games`` indices (--no-stop)
    rules: dict = field(default_factory=dict)

    def __post_init__(self):
        names = tuple(self.strategies)
        if len(names) < 2:
            raise TournamentError(f"a tournament needs at least 2 strategies, got {len(names)}"
                                  f"{' (' + names[0] + ')' if names else ''}; give a "
                                  f"comma-separated list such as random,greedy", "--strategies")
        if any(not n for n in names):
            raise TournamentError("empty strategy name in the list; give a comma-separated "
                                  "list such as random,greedy", "--strategies")
        names = _distinct(names)
        object.__setattr__(self, "strategies", names)
        object.__setattr__(self, "rules", dict(self.rules))
        for name, value, lo in (("games", self.games, 1), ("batch", self.batch, 1),
                                ("seed", self.seed, 0)):
            if not isinstance(value, (int, np.integer)) or value < lo:
                raise TournamentError(f"{name} must be an integer >= {lo}, got {value!r}",
                                      f"--{name}")
        for name, value, hi in (("alpha", self.alpha, 1.0), ("beta", self.beta, 1.0),
                                ("delta", self.delta, 0.5)):
            if not 0.0 < float(value) < hi:
                raise TournamentError(f"{name} must lie strictly between 0 and {hi:g}, got "
                                      f"{value!r}", f"--{name}")
        _ = self.settings      # every line-up's Settings, validated now (SettingsError)

    @property
    def lineups(self) -> list[tuple[str, ...]]:
        return lineups(self.strategies, self.players)

    @property
    def settings(self) -> list[Settings]:
        """One ``Settings`` per line-up; an unknown name or bad rule raises ``SettingsError``
        with its own one-line message."""
        return [Settings(players=self.players, strategies=tuple(lu), **self.rules)
                for lu in self.lineups]

    def to_dict(self) -> dict:
        base = self.settings[0].to_dict()
        base.pop("strategies")
        return {"strategies": list(self.strategies), "players": self.players,
                "games": self.games, "seed": self.seed, "batch": self.batch,
                "alpha": self.alpha, "beta": self.beta, "delta": self.delta, "stop": self.stop,
                "lineups": [list(lu) for lu in self.lineups], "rules": base}
