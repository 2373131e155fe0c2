"""The Python API: what the command line does, as functions that return pandas tables.

For notebooks and scripts (docs/python.md). Every function here works with the same layers
the CLI calls -- ``play`` for games, ``experiments`` for run folders, statistics, verdicts,
tournaments and tuning, ``reports`` for charts and pages, ``replays`` for logs and pictures --
so the numbers are the CLI's (tests/test_api.py and tests/test_api_commands.py compare them);
the CLI's commands parse, call these functions and print. Nothing here prints, draws a
progress bar or exits: bad input raises the layer's own exception (``SettingsError``,
``SpecError``, ``RunError``, ``TournamentError``, ``TuneError``, ``StrategyError``,
``TableError``, ``LogError``), or ``ArgumentError`` for a plain argument mistake, all
``ValueError``, with the CLI's one-line message; every argument is checked at the call
(``survive_sim.checks``), before anything is played or written.

The functions live in modules by concern, all re-exported here (and lazily by
``survive_sim``):

* ``games``: ``settings``, ``simulate``, ``simulate_chunks``, ``replay``, ``komi_confirm``
  (a score bonus played, beside the komi screen's reading), ``env`` (the game as a PettingZoo
  environment);
* ``tables``: ``read_table``, ``summary`` of a saved per-game table;
* ``logs``: a saved replay log without the engine: ``read_log``, ``check`` (the referee),
  ``draw``, ``view`` (the viewer page);
* ``runs``: ``spec``, ``sweep`` -> ``Run``, ``studies``, ``study`` -> ``Study``, ``study_plan``;
* ``ranking``: ``strategies`` (the list), ``check_strategy`` (the contract on a plug-in
  file), ``tournament``, ``tune``;
* ``speed``: ``bench``, ``bench_sweep``, ``bench_search``, ``bench_search_games``,
  ``machine``;
* ``fair``: ``fair_spec``, ``fairest`` -> ``Fairest``, ``fairest_plan`` -- the fairest boat
  allocation (docs/fairest.md).

Game ``i`` of a seed is a pure function of (seed, i, settings): ``simulate``, ``sweep`` and
``replay`` of the same seed, index and settings play the very same game.
"""
from __future__ import annotations

from .checks import ArgumentError
from .fair import Fairest, fair_spec, fairest, fairest_plan
from .games import Settings, env, komi_confirm, replay, settings, simulate, simulate_chunks
from .logs import check, draw, read_log, view
from .ranking import check_strategy, strategies, tournament, tune
from .runs import (CHARTS, SETTLE_CAP, Run, Study, spec, studies, study, study_folder,
                   study_plan, sweep)
from .speed import bench, bench_env, bench_search, bench_search_games, bench_sweep, machine
from .tables import TableError, read_table, summary

__all__ = ["CHARTS", "SETTLE_CAP", "ArgumentError", "Fairest", "Run", "Settings", "Study",
           "TableError", "bench", "bench_env", "bench_search", "bench_search_games",
           "bench_sweep", "check",
           "check_strategy", "draw", "env", "fair_spec", "komi_confirm",
           "fairest", "fairest_plan", "machine", "read_log", "read_table", "replay", "settings",
           "simulate", "simulate_chunks", "spec", "strategies", "studies", "study",
           "study_folder", "study_plan", "summary", "sweep", "tournament", "tune", "view"]
