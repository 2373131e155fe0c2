"""Games: one table's settings, games as a per-game table, and one game played again as its
replay log (``survive-sim simulate``, ``replay``). Part of the Python API (``survive_sim.api``,
docs/python.md).

Game ``i`` of a seed is a pure function of (seed, i, settings): ``simulate``, ``sweep`` and
``replay`` of the same seed, index and settings play the very same game.
"""
from __future__ import annotations

import os
from collections.abc import Iterator, Sequence

import pandas as pd

from play.record import game_log
from play.settings import (Settings, SettingsError, parse_boats, parse_challenges, parse_komi,
                           parse_setup_order, parse_strategies)
from experiments.komi.confirm import confirm as confirm_by_play
from play.simulate import iter_frames, numba_threads
from strategies.plugins import load_plugins

from . import checks

# the ``Settings`` fields besides players, strategies, boats and challenges
RULES = ("tiebreak", "lagoon_is_sea", "creatures_must_move", "max_turns", "dolphins", "squid",
         "squid_only", "komi", "setup_order")
# the CLI's spellings the API reads too (the compensation levers, RULES.md C1, C2)
_SPELLED = {"komi": parse_komi, "setup_order": parse_setup_order}


# ---------------------------------------------------------------------------- settings
def settings(players: int = 4, strategies: str | Sequence[str] = "random",
             boats: str | Sequence[int] = "rules", challenges: str | Sequence[int] = (),
             *, plugins: Sequence[str | os.PathLike] = (), **rules) -> Settings:
    """One table's ``Settings``, from the CLI's spellings or Python values: ``strategies``
    ``"greedy,careful"`` or ``["greedy", "careful"]``; ``boats`` ``"rules"``, ``"flat"``,
    ``"2,2,1,1,1"`` or a list; ``challenges`` ``"1,3"`` or ``[1, 3]``; ``rules``: the other
    ``Settings`` fields (``tiebreak``, ``squid``, ``max_turns``, ``komi`` ``"0,0,0.5,1,1.5"``
    or a list, ``setup_order`` ``"snake"`` or a pair ...). ``plugins``: files of your own
    strategies (docs/writing-a-strategy.md), loaded first."""
    _known(rules, RULES)
    rules = {k: _SPELLED[k](v) if k in _SPELLED and isinstance(v, str) else v
             for k, v in rules.items()}
    plugins = checks.paths(plugins, "plugins", error=SettingsError)
    if plugins:
        load_plugins(plugins)
    if isinstance(strategies, str):
        strategies = parse_strategies(strategies)
    if isinstance(boats, str):
        boats = parse_boats(boats)
    if isinstance(challenges, str):
        challenges = parse_challenges(challenges)
    return Settings(players=players, strategies=strategies, boats=boats,    # it checks them
                    challenges=challenges, **rules)


def _known(rules: dict, accepted: tuple[str, ...]) -> None:
    """Refuse a keyword that is not a ``Settings`` field (a misspelt rule must not pass for
    the default) with one line."""
    for key in rules:
        if key not in accepted:
            raise SettingsError(f"unknown setting {key!r}; accepted: {', '.join(accepted)}")


def parse_rules(rules: dict) -> dict:
    """``Settings`` fields with the CLI's spellings parsed: ``boats`` (``"rules"``, ``"flat"``,
    ``"2,2,1,1,1"``), then ``challenges`` (``"1,3"``); other values as given. A key that is
    not a field raises ``SettingsError``."""
    _known(rules, ("boats", "challenges") + RULES)
    rules = dict(rules)
    for key, parse in (("boats", parse_boats), ("challenges", parse_challenges),
                       *_SPELLED.items()):
        if isinstance(rules.get(key), str):
            rules[key] = parse(rules[key])
    return rules


def _settings(given: Settings | None, players, strategies, boats, challenges, plugins,
              rules) -> Settings:
    if given is not None:
        if not isinstance(given, Settings):
            raise SettingsError(f"settings must be a Settings (from settings(...)), got "
                                f"{given!r}")
        if rules or plugins:
            raise SettingsError("give either settings= or the settings' fields, not both")
        return given
    return settings(players, strategies, boats, challenges, plugins=plugins, **rules)


def _run(games, seed, first, threads, chunk) -> tuple[int, int, int, int | None, int]:
    """The checked counts of a run of games ``first .. first + games - 1`` of ``seed``."""
    first = checks.seed(first, "first")
    return (checks.games(games, first), checks.seed(seed), first, checks.threads(threads),
            checks.whole(chunk, "chunk"))


# ---------------------------------------------------------------------------- many games
def simulate(games: int, *, seed: int = 0, players: int = 4,
             strategies: str | Sequence[str] = "random", boats: str | Sequence[int] = "rules",
             challenges: str | Sequence[int] = (), first: int = 0, threads: int | None = None,
             plugins: Sequence[str | os.PathLike] = (), settings: Settings | None = None,
             **rules) -> pd.DataFrame:
    """Play games ``first .. first + games - 1`` of root seed ``seed`` and return the per-game
    table (one row per game; columns in docs/per-game-table.md), as ``survive-sim simulate
    --out`` writes it. The whole table is held in memory: for millions of games use
    ``simulate_chunks`` or ``sweep``. ``threads`` never changes a result. A count whose table
    cannot fit in the memory available is refused before any game is played."""
    st = _settings(settings, players, strategies, boats, challenges, plugins, rules)
    games, seed, first, threads, chunk = _run(games, seed, first, threads, 10_000)
    problem = checks.memory_problem(games, checks.TABLE_BYTES, "games",
                                    "simulate holds the whole table")
    if problem:
        raise checks.ArgumentError(f"{problem}; for more use simulate_chunks or sweep",
                                   "games")
    return pd.concat(list(_chunks(st, games, seed, first, threads, chunk)), ignore_index=True)


def simulate_chunks(games: int, *, seed: int = 0, players: int = 4,
                    strategies: str | Sequence[str] = "random",
                    boats: str | Sequence[int] = "rules", challenges: str | Sequence[int] = (),
                    first: int = 0, threads: int | None = None, chunk: int = 10_000,
                    plugins: Sequence[str | os.PathLike] = (),
                    settings: Settings | None = None, **rules) -> Iterator[pd.DataFrame]:
    """``simulate``, a table of at most ``chunk`` games at a time: memory stays flat whatever
    ``games`` is, and the rows are the same as ``simulate``'s. The arguments are checked at
    the call, before the first table is asked for."""
    st = _settings(settings, players, strategies, boats, challenges, plugins, rules)
    return _chunks(st, *_run(games, seed, first, threads, chunk))


def _chunks(st: Settings, games: int, seed: int, first: int, threads: int | None,
            chunk: int) -> Iterator[pd.DataFrame]:
    with numba_threads(threads):
        yield from iter_frames(st, games, seed, first=first, threads=threads, chunk=chunk)


def komi_confirm(games: int, *, seed: int = 0, players: int = 4,
                 strategies: str | Sequence[str] = "random",
                 boats: str | Sequence[int] = "rules", challenges: str | Sequence[int] = (),
                 first: int = 0, threads: int | None = None,
                 plugins: Sequence[str | os.PathLike] = (), settings: Settings | None = None,
                 **rules) -> pd.DataFrame:
    """A score bonus (``komi=``, RULES.md C1) confirmed by play: games ``first .. first +
    games - 1`` of ``seed`` played *with* the bonus and again without it, on the same indices.
    One row per player: ``played`` (the share when the strategies see the bonus), ``screened``
    (the komi screen's: the bonus-free games counted with it) with their intervals, and
    ``difference`` = played - screened with its paired interval, and ``n``. Exactly zero for a
    komi-blind strategy (every heuristic rung); the search rung may react to the bonus.
    Chunk by chunk: memory is flat in ``games``."""
    st = _settings(settings, players, strategies, boats, challenges, plugins, rules)
    if not st.komi:
        raise checks.ArgumentError("komi_confirm needs a score bonus: give komi=\"0,0,0.5,1\" "
                                   "(or settings with one)", "komi")
    games, seed, first, threads, _ = _run(games, seed, first, threads, 1)
    return confirm_by_play(st, games, seed, first=first, threads=threads)


# ---------------------------------------------------------------------------- one game
def replay(seed: int, game: int, settings: Settings | None = None, **fields) -> dict:
    """The replay log of game ``game`` of seed ``seed`` (docs/replay-log.md): every event with
    its rule and the position after it, JSON-ready. ``settings``: the run's (or its fields,
    as for ``settings()``); the game is played again, move for move."""
    seed, game = checks.seed(seed), checks.seed(game, "game")
    if settings is None:
        st = globals()["settings"](**fields)
    else:
        st = _settings(settings, 4, "random", "rules", (), (), fields)
    return game_log(st, seed, game)


def env(**fields):
    """The game as a PettingZoo AEC environment (docs/env.md): ``players`` and the settings'
    other fields (``boats``, ``challenges``, ``komi``, ``setup_order``, ...; every seat is an
    agent), order enforced. Needs the ``env`` extra (``pip install ".[env]"``)."""
    try:
        from .environment import env as make    # PettingZoo, an optional extra: when asked
    except ModuleNotFoundError as e:
        if e.name and e.name.split(".")[0] in ("pettingzoo", "gymnasium"):
            raise ImportError('survive_sim.env needs PettingZoo: pip install ".[env]"') from None
        raise
    return make(**fields)
