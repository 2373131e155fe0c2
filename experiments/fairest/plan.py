"""``fairest --plan``: what a search will play and how long it should take, before it plays.

A race's cost depends on how fast its allocations are told apart, which only the games can
say, so the plan gives a range for each player count and style: **at least** the screening
round (every allocation ``screen`` games) and the smallest confirmation, **at most** every
allocation to ``max_games`` (or to the budget) and the largest confirmation (every style's
``confirm`` best and the rules' allocation, all different; with ``confirm_all`` every
allocation; with ``settle`` each to the cap). Times come from a short timed
sample of the style's games on this machine (about ``SAMPLE_SECONDS`` each).
"""
from __future__ import annotations

import time
from dataclasses import dataclass

from play.simulate import numba_threads

from .players import EnginePlayer
from .space import SPACES, named
from .spec import FairSpec

SAMPLE_SECONDS = 0.5
FAR = 10**15                    # timing games come from far past any search's indices


@dataclass
class Line:
    players: int
    style: str
    allocations: int
    rotations: int
    least: int                  # engine games, the race and the confirmation
    most: int
    rate: float | None          # engine games per second, measured


def lines(spec: FairSpec, timed: bool = True, threads: int | None = None) -> list[Line]:
    """One ``Line`` per player count and style."""
    out = []
    for players in spec.players:
        k = len(spec.candidates(players))
        listed = min(len(spec.racing) * spec.confirm + 1, k)
        for style in spec.styles:
            rot = len(style.seatings(players))
            # a komi-blind style plays each boat list and setup order once for its bonuses
            engine = spec.engine_games(players, style)
            if style.race:
                race_least = engine * spec.screen * rot
                race_most = engine * spec.sizes(style)[-1] * rot
                few = 1 if spec.confirm_all else min(spec.confirm, k)
                many = k if spec.confirm_all else listed
            else:                           # confirms the racing styles' list only
                race_least = race_most = 0
                few, many = min(spec.confirm, k), listed
            if spec.budget is not None and style.race:
                race_most = min(race_most, max(spec.budget, race_least))
            few, many = min(few, engine), min(many, engine)
            sizes = spec.confirm_sizes(style)
            conf = sizes[0] * rot
            conf_most = many * sizes[-1] * rot   # the most: every round to the cap
            rate = _rate(spec, players, style, threads) if timed else None
            out.append(Line(players, style.label + ("" if style.race else " (confirms only)"),
                            k, rot, race_least + few * conf,
                            race_most + conf_most, rate))
    return out


def _rate(spec: FairSpec, players: int, style, threads) -> float:
    """Engine games per second of ``style`` at ``players`` (the rules' boats), timed."""
    player = EnginePlayer(players, style, spec.seed, tiebreak=spec.tiebreak,
                          challenges=spec.challenges, threads=threads)
    boats = named(players)["rules"]
    with numba_threads(threads):
        player.play(boats, FAR, 4)                          # load (or compile) first
        n, spent = 8, 0.0
        while spent < SAMPLE_SECONDS / 4:
            t0 = time.perf_counter()
            player.play(boats, FAR, n)
            spent = time.perf_counter() - t0
            n *= 4
    return (n // 4) * player.rotations / max(spent, 1e-9)


def _time(games: int, rate: float | None) -> str:
    if not rate:
        return "?"
    s = games / rate
    return f"{s / 3600:.1f} h" if s >= 5400 else f"{s / 60:.0f} min" if s >= 90 else f"{s:.0f} s"


def _confirmation(spec: FairSpec) -> str:
    """The confirmation the spec asks for, in words."""
    w, setup = (("allocation", "boats") if spec.space in SPACES else ("rule", "own setup"))
    which = (f"every {w} each style's race has not shown unfair, and the rules' {setup}, in "
             "that style" if spec.confirm_all else
             f"each style's {spec.confirm} fairest and the rules' {setup} in every style")
    only = [s for s in spec.styles if not s.race]
    tail = "".join(f"; {s.label} only confirms each racing style's {spec.confirm} fairest and "
                   f"the rules' {setup}, on at most {s.max_games or spec.confirm_sizes()[-1]:,} "
                   f"fresh games each" for s in only)
    if spec.settle:
        return (f"confirmation of {which}, in doubling rounds of fresh games from "
                f"{spec.confirm_games:,} up to {spec.settle:,} until each is fair or "
                f"unfair{tail}")
    return f"confirmation of {which} on {spec.confirm_games:,} fresh games{tail}"


def describe(spec: FairSpec, timed: bool = True, threads: int | None = None) -> str:
    """The plan in words: one line per player count and style, and the totals."""
    ls = lines(spec, timed, threads)
    w = "allocation" if spec.space in SPACES else "rule"
    sizes = spec.sizes()
    space = (f"{spec.space} allocations (0-3 boats per seat, at most 12 in "
             f"all{'' if spec.space == 'all' else ', no seat fewer than the seat before'}; "
             f"plus rules, flat and reversed)" if spec.space in SPACES else
             f"the rules of {spec.space} (boats, komi and setup order; a komi-blind style "
             f"plays each boat list and order once for all its bonuses)")
    head = [f"search {spec.name}: {space}; rounds of {', '.join(f'{n:,}' for n in sizes)} "
            f"games per {w}; {_confirmation(spec)}; seed "
            f"{spec.seed}, tolerance ±{100 * spec.tolerance:g} pp, alpha {spec.alpha:g}"
            + (f"; budget {spec.budget:,} games per race" if spec.budget else ""),
            f"{'players':>7}  {'style':<50} {w + 's':>11} {'rotations':>9} "
            f"{'games at least':>15} {'at most':>14} {'games/s':>8} {'time':>16}"]
    for line in ls:
        rate = ("?" if not line.rate else f"{line.rate:,.0f}" if line.rate >= 10 else
                f"{line.rate:.2g}")
        head.append(f"{line.players:>7}  {line.style:<50} {line.allocations:>11,} "
                    f"{line.rotations:>9} {line.least:>15,} {line.most:>14,} {rate:>8} "
                    f"{_time(line.least, line.rate) + ' - ' + _time(line.most, line.rate):>16}")
    least = sum(x.least for x in ls)
    most = sum(x.most for x in ls)
    t_least = sum(x.least / x.rate for x in ls if x.rate)
    t_most = sum(x.most / x.rate for x in ls if x.rate)
    head.append(f"in all: {least:,} to {most:,} games"
                + (f", about {_time(t_least, 1)} to {_time(t_most, 1)} on this machine"
                   if timed else "")
                + "; how far the race runs between the two depends on how soon the games tell "
                  f"the {w}s apart"
                + (f"; the most assumes every {w} confirmed plays to the settling cap, "
                   "but each stops as soon as it is settled, the sooner the farther its seats "
                   "are from the tolerance" if spec.settle else ""))
    return "\n".join(head)
