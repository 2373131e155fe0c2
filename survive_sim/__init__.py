"""survive-sim: the reference balance simulator for *Survive: Escape from Atlantis!*.

The public Python API (docs/python.md); the command line (``survive_sim.cli``) calls the same
layers. In a notebook::

    import survive_sim as ss

    games = ss.simulate(10_000, players=5, strategies="greedy", seed=1)   # a DataFrame
    run = ss.sweep("five-six", "runs/five-six", games=2_000, parents=True)  # a Run folder
    run.stats()                                  # tidy statistics with intervals and n
    fig, table = run.chart("seat_win_share", challenges="none", tiebreak="chain")
    study = ss.study("five-six", games=2_000)
    study.verdicts                               # the verdicts, a DataFrame
    study.report()                               # the report page
    log = ss.replay(seed=1, game=7, settings=ss.settings(5, "greedy"))
    svg = ss.draw(log, event=40)

* ``settings`` / ``Settings`` -- one table's players, strategies, boats and rules;
* ``simulate`` / ``simulate_chunks`` -- games as a per-game table; ``read_table``,
  ``summary`` -- a saved one, summarised per setting;
* ``spec``, ``sweep`` -> ``Run`` -- run folders: ``.table``, ``.chunks``, ``.stats``,
  ``.verdicts``, ``.chart``, ``.report``;
* ``studies``, ``study`` -> ``Study`` -- ``.verdicts``, ``.report``; ``study_plan`` (its cost);
* ``strategies`` -- the list of them; ``check_strategy`` -- the contract (legal, the same
  table for the same seed, blind to hidden information) run on a plug-in file;
  ``tournament`` -- strategies ranked, stopped by an SPRT; ``tune`` -- a strategy's
  parameters searched with CMA-ES;
* ``komi_confirm`` -- a score bonus played, beside the komi screen's reading of the same games;
* ``env`` -- the game as a PettingZoo AEC environment, for learning agents (docs/env.md);
* ``replay`` -> a log; ``read_log``, ``check`` (the referee), ``draw``, ``view`` (its page);
* ``bench``, ``bench_sweep``, ``bench_search``, ``bench_search_games``, ``bench_env`` --
  games per second, what a sweep costs beyond its games, the search rung's iterations per
  second and cost per game, the environment's steps per second;
* ``fairest`` -> ``Fairest``, ``fair_spec``, ``fairest_plan`` -- the fairest boat allocation,
  searched and confirmed for every style of play (``.table``, ``.confirmation``,
  ``.conclusions``, ``.verdicts``, ``.report``).

The names load on first use (``__getattr__``): the CLI imports this package on every call,
and ``survive-sim --help`` must not wait for pandas and the engine.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

__all__ = ["CHARTS", "Fairest", "Run", "Settings", "Study", "bench", "bench_search",
           "bench_env", "bench_search_games", "bench_sweep", "check",
           "check_strategy", "draw", "env", "fair_spec", "fairest", "fairest_plan",
           "komi_confirm",
           "read_log",
           "read_table", "replay", "settings", "simulate", "simulate_chunks", "spec",
           "strategies", "studies", "study", "study_plan", "summary", "sweep", "tournament",
           "tune", "view"]

if TYPE_CHECKING:                                   # for type checkers and editors
    from .api import (CHARTS, Fairest, Run, Settings, Study, bench, bench_search,
                      bench_env, bench_search_games, bench_sweep, check,
                      check_strategy, draw, env, fair_spec, fairest, fairest_plan, komi_confirm,
                      read_log,
                      read_table, replay, settings, simulate, simulate_chunks, spec, strategies,
                      studies, study, study_plan, summary, sweep, tournament, tune, view)


def __getattr__(name: str):
    if name in __all__:
        # start-up time: the API pulls in pandas, pyarrow and the compiled engine
        from . import api
        return getattr(api, name)
    raise AttributeError(f"module 'survive_sim' has no attribute {name!r}")


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))
