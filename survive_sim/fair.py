"""The fairest boat allocation: ``fairest`` searches the per-seat boat lists for the ones that
leave every seat nearest its fair share, with intervals, for every style of play
(``experiments.fairest``; docs/fairest.md) -- ``survive-sim fairest`` and the shipped study
``fair-boats``. Part of the Python API (``survive_sim.api``, docs/python.md).
"""
from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from experiments import fairest as F
from experiments.fairest.folder import SearchError
from experiments.fairest.plan import describe
from experiments.sweeps.spec import SpecError
from reports import fairest as page

from . import checks

# the values ``fairest`` takes besides the spec's name, each a key of a study file's table
VALUES = ("players", "styles", "space", "tolerance", "alpha", "screen", "max_games", "budget",
          "confirm", "confirm_games", "chunk", "tiebreak", "challenges", "confirm_all", "settle",
          "seed")


@dataclass
class Fairest:
    """A search played into ``folder``: its tables (``table``: every allocation searched;
    ``confirmation``: the confirmed ones seat by seat; ``conclusions``), its ``verdicts`` (one
    B3 row -- B4 in a rule space -- per player count, style and confirmed candidate, as the
    report's verdicts.csv) and ``report(out)``. ``search``: the ``experiments.fairest.Search``
    behind them."""
    folder: Path
    search: F.Search
    _tables: dict = field(default_factory=dict, repr=False)

    def _get(self, key: str, make: Callable[[], pd.DataFrame]) -> pd.DataFrame:
        if key not in self._tables:
            self._tables[key] = make()
        return self._tables[key]

    @property
    def spec(self) -> F.FairSpec:
        return self.search.spec

    @property
    def table(self) -> pd.DataFrame:
        return self._get("table", self.search.table)

    @property
    def confirmation(self) -> pd.DataFrame:
        return self._get("confirmation", self.search.confirm_table)

    @property
    def conclusions(self) -> pd.DataFrame:
        return self._get("conclusions", self.search.conclusions)

    @property
    def verdicts(self) -> pd.DataFrame:
        return self._get("verdicts", lambda: page.verdict_table(self.search))

    def report(self, out: str | os.PathLike | None = None) -> Path:
        """Write the report (index.html, index.md, figures/, tables/, verdicts.csv) into
        ``out`` (default ``folder/report``) and return the page's path."""
        out = checks.report_folder(out if out is not None else self.folder / "report")
        return Path(page.write(self.search, out))


def fair_spec(source: str | os.PathLike | dict | F.FairSpec | None = None,
              **values) -> F.FairSpec:
    """A search's ``FairSpec``: a shipped study's name (``"fair-boats"``), a study file
    (``kind = "fairest"``), a dict of the file's keys, a ``FairSpec``, or None (the
    defaults: 5 and 6 players, greedy self-play); ``values`` (the keys of the file's
    ``[fairest]`` table, and ``seed``) replace the source's, checked again. A bad value raises
    ``SpecError`` with one line naming it."""
    if source is None:
        spec = F.FairSpec()
    elif isinstance(source, F.FairSpec):
        spec = source
    elif isinstance(source, dict):
        spec = F.build(source, source="a dict")
    elif isinstance(source, (str, os.PathLike)):
        spec = F.load(source)
    else:
        raise SpecError(f"source must be a shipped search's name, a study file, a dict, a "
                        f"FairSpec or None, got {source!r}")
    unknown = set(values) - set(VALUES)
    if unknown:
        raise SpecError(f"unknown value(s) {', '.join(sorted(unknown))}; accepted: "
                        f"{', '.join(VALUES)}")
    if isinstance(values.get("styles"), str):
        values["styles"] = [s.strip() for s in values["styles"].split(",") if s.strip()]
    return F.with_values(spec, **values)


def fairest(source: str | os.PathLike | dict | F.FairSpec | None = None,
            out: str | os.PathLike | None = None, *, threads: int | None = None,
            force_new: bool = False, watch=None,
            started: Callable[[F.FairSpec], None] | None = None, parents: bool = False,
            **values) -> Fairest:
    """Search the boat allocations (``fair_spec(source, **values)``) into the folder ``out``
    (default ``studies/NAME``): a race per player count and style on common games, then the
    best few confirmed on fresh games against ``1/N +- tolerance`` (docs/fairest.md).
    Resumable: the same call after an interruption plays only what is missing; a folder of
    another search or engine is refused (``SearchError``) unless ``force_new``. ``watch``
    (``experiments.store.watch``) sees the rounds; ``started(spec)`` runs before the first game
    (the CLI loads the engine there). Writes ``fairest.csv``, ``confirmation.csv`` and
    ``conclusions.csv``; call ``.report()`` for the page. ``out``'s parent must exist
    (``parents=True``: missing parents are made, as the default ``studies/NAME`` is)."""
    threads = checks.threads(threads)
    force_new = checks.flag(force_new, "force_new")
    checks.watch(watch)
    checks.callback(started, "started")
    spec = fair_spec(source, **values)
    if out is not None:
        out = checks.output_folder(out, "out", parents=checks.flag(parents, "parents"),
                                   error=SearchError)
        if os.path.lexists(out) and not os.path.isdir(out):
            raise SearchError(f"{out} is a file; --out needs a folder")
    folder = Path(out) if out is not None else Path("studies") / spec.name
    if started is not None:
        started(spec)
    search = F.run_search(spec, folder, threads=threads, force_new=force_new, watch=watch)
    return Fairest(folder, search)


def fairest_plan(source: str | os.PathLike | dict | F.FairSpec | None = None, *,
                 timed: bool = True, threads: int | None = None, **values) -> str:
    """What ``fairest`` would play and how long it should take on this machine (a short
    timed sample of each style; ``timed=False``: games only), nothing of it played."""
    timed, threads = checks.flag(timed, "timed"), checks.threads(threads)
    return describe(fair_spec(source, **values), timed, threads)


def search_names(styles: Sequence[F.Style]) -> list[str]:
    """Every strategy the styles play (the engine compiles each once)."""
    return sorted({name for s in styles for name in s.lineup})
