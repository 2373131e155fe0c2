"""The fairest boat allocation (claims B3, S1b): search the per-seat boat lists for the one that
leaves every seat nearest its fair share, with intervals, for every style of play.

For each player count and style a *race* plays every allocation of the space on the same game
indices (common random numbers), doubling the games each round, and drops those an
anytime-valid rule shows less fair than another (``race``: the rule and why the fairest
survives it with probability at least ``1 - alpha``); the best few are then *confirmed* on
fresh games, every seat judged against ``1/N +- tolerance`` (``results``). The modules, bottom
up: ``space`` (the allocations), ``race`` (exact tallies, measures, the rule), ``players`` (the
engine or a synthetic table), ``spec`` (``FairSpec``, from a study file), ``search`` (a race
and a confirmation, resumable), ``results`` (the tables and conclusions), ``folder`` (the
state on disk), ``run`` (the whole search) and ``plan`` (what it will cost).
"""
from ..sweeps.spec import is_search
from .folder import SearchError, SearchFolder
from .players import EnginePlayer, Style, SyntheticPlayer
from .race import RaceRule, Tally
from .results import Search
from .run import run_search
from .search import Race, confirm, race
from .space import candidates, named
from .spec import FairSpec, build, load, with_values

__all__ = ["EnginePlayer", "FairSpec", "Race", "RaceRule", "Search", "SearchError",
           "SearchFolder", "Style", "SyntheticPlayer", "Tally", "build", "candidates",
           "confirm", "is_search", "load", "named", "race", "run_search", "with_values"]
