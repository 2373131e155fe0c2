"""Strategies: the list of them, the contract a plug-in's are held to, their tournament and the
tuning of their parameters (``survive-sim strategies``, ``strategies --check``, ``tournament``,
``tune``). Part of the Python API (``survive_sim.api``, docs/python.md).

``tournament`` and ``tune`` take a ``watch`` (``experiments.store.watch``: the CLI's progress bar)
and a ``started`` hook, called with the validated input just before the first game (the CLI
loads or compiles the engine there, under its bar). With ``out`` both are resumable, and both
return what ``out`` already holds, complete, without playing (``played`` False).
"""
from __future__ import annotations

import contextlib
import json
import math
import os
from collections.abc import Callable, Sequence

import pandas as pd

from experiments import tournament as T     # module attributes: the fuzz harness patches play
from experiments import tune as TU          # ... and tune
from experiments.store.atomic import write_text
from experiments.store.outputs import unwritable
from experiments.store.watch import watching
from play import contract
from strategies.plugins import load_plugin, load_plugins
from strategies.registry import StrategyError, all_strategies, split_specs

from . import checks
from .games import parse_rules

STRATEGY_COLUMNS = ["strategy", "description", "plugin", "param", "default", "low", "high",
                    "doc"]


# ---------------------------------------------------------------------------- the list
def strategies(plugins: Sequence[str | os.PathLike] = ()) -> pd.DataFrame:
    """Every strategy there is, as ``survive-sim strategies`` lists them (built-ins, then those
    of the ``plugins`` files, loaded first; ``StrategyError`` for a bad one): one row per
    strategy and parameter, in the listing's order; a strategy without parameters has one row
    with ``param`` None. Columns: ``strategy``, ``description``, ``plugin`` (the plug-in's
    file; None for a built-in), ``param``, ``default``, ``low``, ``high`` (the range a value
    may take) and ``doc``. A seat's strategy is written ``name`` or ``name:key=value,...``."""
    plugins = checks.paths(plugins, "plugins", error=StrategyError)
    if plugins:
        load_plugins(plugins)
    rows = []
    for s in all_strategies().values():
        if not s.listed:
            continue
        base = {"strategy": s.name, "description": s.description,
                "plugin": str(s.source) if s.plugin else None}
        if not s.params:
            rows.append({**base, "param": None, "default": math.nan, "low": math.nan,
                         "high": math.nan, "doc": ""})
        for p in s.params:
            doc = p.doc or ""
            if p.choices:                        # a named choice: its value is a name's index
                doc += (f" (one of {', '.join(p.choices)}, written by name; default "
                        f"{p.spell(p.default)})")
            rows.append({**base, "param": p.name, "default": float(p.default),
                         "low": float(p.low), "high": float(p.high), "doc": doc})
    table = pd.DataFrame(rows, columns=STRATEGY_COLUMNS)
    for col in ("plugin", "param"):                 # None, not NaN, where there is none
        table[col] = table[col].astype(object).where(table[col].notna(), None)
    return table


# ---------------------------------------------------------------------------- the contract
def check_strategy(path: str | os.PathLike) -> contract.Report:
    """The strategy contract (RULES R11, ``play.contract``) run on every strategy of the
    plug-in file ``path``, as ``survive-sim strategies --check FILE`` runs it: legal answers in
    2-6 player games under every challenge and expansion (``legal_answers``), the same table
    for the same seed whatever the threads and chunks (``same_seed_same_table``), and the same
    decisions when hidden information is re-randomised (``ignores_hidden_information``).

    Returns the ``Report``: ``.checks`` (one ``Check`` per strategy and check: ``.strategy``,
    ``.name``, ``.ok``, ``.reason``, one line), ``.ok`` (every check passed), ``.failed``;
    ``str(report)`` is the command's lines. A strategy that breaks the contract is a result,
    not an exception. A bad ``path`` -- missing, not a ``.py`` file, a file the loader refuses
    (it does not import, ``choose`` is not compiled or writes into ``pub``, no strategy) --
    raises ``StrategyError`` (a ``ValueError``) with the loader's one line, before any game."""
    path = checks.path(path, "path", error=StrategyError)
    found = load_plugin(path)
    if not found:
        raise StrategyError(f"plug-in {path} defines no strategy (its STRATEGIES list is "
                            f"empty)")
    return contract.check([s.name for s in found], str(found[0].source))


# ---------------------------------------------------------------------------- tournament
def tournament(strategies: str | Sequence[str], games: int, *, players: int = 4,
               seed: int = 0, batch: int = 500, alpha: float = 0.05, beta: float = 0.05,
               delta: float = 0.05, stop: bool = True, threads: int | None = None,
               out: str | os.PathLike | None = None, force: bool = False,
               plugins: Sequence[str | os.PathLike] = (), watch=None,
               started: Callable[[T.Tournament], None] | None = None,
               **rules) -> T.Result | T.Saved:
    """Every strategy in every seat on the same games, stopped by an SPRT (docs/tournament.md),
    as ``survive-sim tournament`` plays it. ``strategies``: ``"random,greedy"`` or a list
    (parameters as ``greedy:risk=2``); ``rules``: the other ``Settings`` fields (``boats``,
    ``challenges``, ``tiebreak`` ...), the same for every line-up.

    Returns the ``Result``: ``.standings`` and ``.head_to_head`` (DataFrames with intervals
    and n), ``.ratings``, ``.statement()``, ``.games_played``. ``out``: also write the
    tournament's folder (standings.csv, head_to_head.csv, games.parquet, tournament.json,
    README.md), resumable: each batch is saved as it is played, and the same call after an
    interruption reads them back (``.resumed`` batches, ``.resumed_games``) and gives an equal
    result. When ``out`` already holds this very tournament, complete, nothing is played: the
    ``experiments.tournament.Saved`` read back from it is returned (the same ``.standings``,
    ``.head_to_head``, ``.statement()``, ``.games_played``; ``.played`` False). ``force``
    replaces an earlier tournament's folder, or discards another tournament's saved batches.

    ``watch`` (``experiments.store.watch``) sees the phases; ``started(tournament)`` is called with
    the validated ``Tournament`` just before the first game (not when nothing is played).
    Bad input, before anything is written or played, raises ``TournamentError`` (``.param``:
    the CLI's option) or ``SettingsError``: ``--plugin`` files inside ``out``, unknown or
    twice-named strategies, bad rules, a batch that cannot fit in memory, an ``out`` that is
    not a tournament's folder, a count, seed or rate out of its range."""
    E = T.TournamentError
    plugins = checks.paths(plugins, "plugins", error=E)
    if out is not None:
        out = checks.path(out, "out", error=E)
        T.check_inputs_outside(out, plugins)        # paths only: before the plug-ins load
    games = checks.whole(games, "games", error=E)
    seed, batch = checks.seed(seed, error=E), checks.whole(batch, "batch", error=E)
    alpha, beta = (checks.number(v, k, 0, 1, low_open=True, high_open=True, error=E)
                   for k, v in (("alpha", alpha), ("beta", beta)))
    delta = checks.number(delta, "delta", 0, 0.5, low_open=True, high_open=True, error=E)
    stop, force = checks.flag(stop, "stop", error=E), checks.flag(force, "force", error=E)
    threads = checks.threads(threads, error=E)
    checks.watch(watch, error=E)
    checks.callback(started, "started", error=E)
    if not isinstance(strategies, str):
        strategies = tuple(checks.names(strategies, "strategies", error=E) or ())
    T.load_plugins(plugins)                         # before the names: they may use them
    names = T.split_names(strategies) if isinstance(strategies, str) else tuple(strategies)
    t = T.Tournament(strategies=names, players=players, games=games, seed=seed, batch=batch,
                     alpha=alpha, beta=beta, delta=delta, stop=stop, rules=parse_rules(rules))
    T.check_memory(t)                               # before any game: one batch must fit
    if out is None:
        if started is not None:
            started(t)
        return T.play(t, threads, watch=watch)
    folder = T.Folder(out, force, T.identity(t, plugins), plugins)
    if folder.complete:                             # this very tournament is there: no games
        saved = folder.saved(t)
        folder.tidy()
        return saved
    with folder as f:
        if started is not None:
            started(t)
        result = T.play(t, threads, on_batch=f.write_games, watch=watch, store=f)
        watching(watch).begin(f"writing {out}")
        f.finish(result)                            # (sets result.resumed, resumed_games)
    result.resumed_from = folder.partial.name if folder.resumed else None
    return result


# ---------------------------------------------------------------------------- tune
def tune(strategy: str, against: str | Sequence[str], budget: int, *, players: int = 4,
         games: int = 200, popsize: int = 8, params: str | Sequence[str] = (),
         holdout: int = 2000, seed: int = 0, threads: int | None = None,
         out: str | os.PathLike | None = None, force_new: bool = False,
         plugins: Sequence[str | os.PathLike] = (), watch=None,
         started: Callable[[TU.Tuning, TU.TuneState | None], None] | None = None,
         **rules) -> TU.TuneResult:
    """Search ``strategy``'s parameters (its spec, ``name`` or ``name:key=value,...``, is the
    starting point) by self-play against ``against`` (the ladder filling the other seats)
    with CMA-ES, for at most ``budget`` games, ``games`` indices per candidate and ``popsize``
    candidates per generation; then play the best and the start on ``holdout`` held-out
    indices, paired (docs/strategies.md), as ``survive-sim tune`` does. ``params``: only these
    parameters (default all); ``rules``: other ``Settings`` fields.

    Returns the ``experiments.tune.TuneResult``: ``.best`` and ``.start`` (specs),
    ``.holdout`` (win shares, the paired gain with its 95% interval and p), ``.history`` (one
    row per candidate), ``.games_played``. ``out``: also write the result as JSON, resumable:
    each generation and hold-out chunk is saved as it ends in the hidden folder
    ``.NAME.partial`` beside it, and the same call after an interruption goes on from there
    with an equal result (``.resumed``: the generations read back); ``force_new`` discards an
    interrupted tuning with other options. When ``out`` already holds this very tuning,
    nothing is played: the result read back from it is returned (``.played`` False). ``out``
    replaces only an earlier tune result.

    ``watch`` (``experiments.store.watch``) sees the phases; ``started(tuning, state)`` is called
    with the validated ``Tuning`` and the entered ``TuneState`` (None without ``out``; its
    ``generations`` are those an interrupted run saved) just before the first game. Bad input
    raises ``TuneError`` (``.param``: the CLI's option) before anything is written: as the
    CLI, ``players`` 3 to 6, ``popsize`` 2 to 10,000, counts whole numbers >= 1."""
    E = TU.TuneError
    plugins = checks.paths(plugins, "plugins", error=E)
    if not isinstance(strategy, str):
        raise E(f"strategy must be a strategy's spec (a string such as greedy or "
                f"greedy:risk=2), got {strategy!r}", "STRATEGY")
    budget = checks.whole(budget, "budget", error=E)
    players = checks.whole(players, "players", 3, 6, error=E)
    games, holdout = (checks.whole(v, k, error=E) for k, v in (("games", games),
                                                               ("holdout", holdout)))
    popsize = checks.whole(popsize, "popsize", 2, 10_000, error=E)
    seed, threads = checks.seed(seed, error=E), checks.threads(threads, error=E)
    force_new = checks.flag(force_new, "force_new", error=E)
    checks.watch(watch, error=E)
    checks.callback(started, "started", error=E)
    if not isinstance(against, str):
        against = checks.names(against, "against", error=E) or []
    if out is not None:
        out = checks.path(out, "out", error=E)
    doc = _earlier(out, plugins) if out is not None else None   # paths only: before plug-ins
    try:
        load_plugins(plugins)
    except StrategyError as e:
        raise TU.TuneError(str(e), "--plugin") from None
    if isinstance(params, str):
        params = [p.strip() for p in params.split(",") if p.strip()]
    params = checks.names(params, "params", error=E) or []
    t = TU.Tuning(strategy=strategy, players=players, budget=budget, games=games,
                  against=tuple(split_specs(against) if isinstance(against, str) else against),
                  popsize=popsize, seed=seed, holdout=holdout, tune=tuple(params),
                  rules=parse_rules(rules))
    if out is None:
        if started is not None:
            started(t, None)
        return TU.tune(t, threads, watch=watch)
    ident = TU.identity(t, plugins)
    if doc is not None and doc.get("identity") == ident:     # complete: play nothing
        try:
            result = TU.result_from(t, doc)
            TU.summary(result)                      # every part it shows is there
        except (KeyError, TypeError, ValueError):
            raise TU.TuneError(f"{out} is a damaged tune result; remove it or choose another "
                               f"--out", "--out") from None
        _tidy(out, ident)
        return result
    state = TU.TuneState(out, ident, force_new)
    with state:
        if started is not None:
            started(t, state)
        resumed = len(state.generations)
        result = TU.tune(t, threads, watch=watch, state=state)
        write_text(out, json.dumps(TU.result_doc(result, ident), indent=1))
        state.remove()
    result.resumed = resumed
    return result


def _earlier(out, plugins: list[str]) -> dict | None:
    """The tune result at ``out`` (None: no file there); ``TuneError`` when ``out`` cannot be
    written, is a ``--plugin`` file, or holds anything but a tune result."""
    problem = unwritable(out)
    if problem is not None:
        raise TU.TuneError(problem, "--out")
    here = os.path.realpath(out)
    for p in plugins:
        if os.path.realpath(p) == here:
            raise TU.TuneError(f"--out {out} is the --plugin file {p}; choose another --out",
                               "--out")
    if not os.path.lexists(out):
        return None
    try:
        with open(out, encoding="utf-8") as f:
            doc = json.load(f)
    except (OSError, ValueError, UnicodeDecodeError):
        doc = None
    if not isinstance(doc, dict) or doc.get("format") != TU.FORMAT or os.path.islink(out):
        raise TU.TuneError(f"{out} exists and is not a tune result; tune replaces only its own "
                           f"earlier result: choose another --out", "--out")
    return doc


def _tidy(out, ident: dict) -> None:
    """``out`` is complete: remove its saved progress, left when a run stopped between writing
    the result and tidying up."""
    leftover = os.path.join(os.path.dirname(os.path.abspath(out)),
                            f".{os.path.basename(out)}.partial")
    if os.path.isdir(leftover):
        with contextlib.suppress(TU.TuneError, OSError), TU.TuneState(out, ident) as left:
            left.remove()
