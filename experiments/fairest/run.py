"""Run a whole search: for each player count, a race per style, then the confirmation of the
union of every style's best few (and the rules' allocation) for every style, on fresh games --
or, with ``confirm_all``, of every allocation each style's race has not shown unfair.

Confirming one list for every style is what lets a verdict say "fair for every style": each
allocation is judged in each style on the same fresh games. Everything is resumable through
``folder.SearchFolder``: run again after an interruption, the search replays nothing it had
counted and ends with the same tables.
"""
from __future__ import annotations

import time
from collections.abc import Callable

from ..store.watch import under, watching
from .folder import SearchFolder
from .players import EnginePlayer, Style
from .results import Search, best_of
from .search import confirm, race, settles
from .space import SPACES, Rule, candidate_label, label, named
from .spec import FairSpec


def engine_players(spec: FairSpec, threads: int | None = None) -> Callable:
    """``make(players, style, seed)`` -> the engine's player for the spec's rules."""
    def make(players: int, style: Style, seed: int):
        return EnginePlayer(players, style, seed, tiebreak=spec.tiebreak,
                            challenges=spec.challenges, threads=threads)
    return make


def confirm_list(spec: FairSpec, players: int, races: dict,
                 style: Style | None = None) -> list[tuple[int, ...]]:
    """The allocations to confirm for ``players`` in ``style``, then the rules' allocation,
    each once, in the order first met: every racing style's ``spec.confirm`` fairest that its
    race kept (the same list for every style, so that each is judged in each); or, with
    ``confirm_all``, every allocation ``style``'s race has not shown unfair. A style that does
    not race (``Style.race``) confirms the first list whatever ``confirm_all`` says."""
    out: list[tuple[int, ...]] = []
    if spec.confirm_all and style is not None and style.race:
        r = races[players, style]
        for c in r.ranked():
            if r.tallies[c].interval(spec.alpha, r.look)[0] <= spec.tolerance:
                out.append(r.boats[c])
    else:
        for st in spec.racing:
            r = races[players, st]
            for c in best_of(r, spec.confirm):
                if c not in {candidate_label(x) for x in out}:
                    out.append(r.boats[c])
    rules = named(players)["rules"]
    if label(rules) not in {candidate_label(c) for c in out}:
        # a rule space's candidates are Rules: the rules' own setup joins as one too
        out.append(Rule(rules) if spec.space not in SPACES else rules)
    return out


def run_search(spec: FairSpec, out, *, threads: int | None = None, force_new: bool = False,
               watch=None, make_player: Callable | None = None) -> Search:
    """Play the search ``spec`` into the folder ``out`` (resumable) and return what it found;
    write ``fairest.csv``, ``confirmation.csv`` and ``conclusions.csv`` there.
    ``make_player(players, style, seed)``: what plays the games (default: the engine)."""
    started = time.perf_counter()
    make = make_player or engine_players(spec, threads)
    w = watching(watch)
    races, confs = {}, {}
    played = counted = 0
    with SearchFolder(out, spec, force_new) as f:
        for players in spec.players:
            allocations = spec.candidates(players)
            for style in spec.racing:
                player = make(players, style, spec.seed)
                r = race(allocations, player, spec.sizes(style), alpha=spec.alpha,
                         chunk=spec.chunk, budget=spec.budget,
                         state=f.state("race", players, style.key),
                         save=f.saver("race", players, style.key),
                         watch=under(w, f"{players} players, {style.label}"))
                races[players, style] = r
                played += r.games_played
                counted += r.games_counted
            for style in spec.styles:
                player = make(players, style, spec.confirm_seed())
                c = confirm(confirm_list(spec, players, races, style), player,
                            spec.confirm_sizes(style), chunk=spec.chunk,
                            settled=settles(spec.tolerance, spec.alpha),
                            state=f.state("confirm", players, style.key),
                            save=f.saver("confirm", players, style.key),
                            watch=under(w, f"{players} players, {style.label}"))
                confs[players, style] = c
                played += c.games_played
                counted += c.games_counted
        total = sum(t.n * t.rotations for x in (*races.values(), *confs.values())
                    for t in x.tallies.values())
        search = Search(spec, races, confs, played, total - counted,
                        time.perf_counter() - started, counted - played)
        f.write_tables({"fairest.csv": search.table(),
                        "confirmation.csv": search.confirm_table(),
                        "conclusions.csv": search.conclusions()})
    return search

