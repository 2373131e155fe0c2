"""The boat allocations a search may try: per-seat lists of 0-3 boats within the 12-boat supply
(RULES.md X1.5, B1.5), and the three named ones every study compares (X1.1, X1.2).

Two spaces: ``all`` -- every list of 0-3 per seat with at most 12 boats in all (1,003 lists at
5 players, 3,676 at 6) -- and ``monotone`` -- the lists where no seat has fewer boats than a
seat before it (52 at 5 players, 68 at 6): the shape of the rules' own compensation, the
first seats giving up boats for the advantage of moving first. The named allocations join any
space, so that a search always says where ``rules``, ``flat`` and ``reversed`` stand.
"""
from __future__ import annotations

from itertools import product

from play.settings import RULES_BOATS, seats_for

SPACES = ("monotone", "all")
SUPPLY = 12                      # B1.5: twelve boats in all
MOST_PER_SEAT = 3                # X1.5: 0-3 per seat
NAMED = ("rules", "flat", "reversed")


def named(players: int) -> dict[str, tuple[int, ...]]:
    """``rules`` (X1.1, X1.2, two each at 2-4), ``flat`` (two per seat while the supply lasts)
    and ``reversed`` (the rules' list backwards), as the studies resolve them
    (``experiments.sweeps.spec.resolve_boats``)."""
    seats = seats_for(players)
    rules = RULES_BOATS[players]
    return {"rules": rules,
            "flat": tuple(min(2, max(0, SUPPLY - 2 * s)) for s in range(seats)),
            "reversed": tuple(reversed(rules))}


def label(boats: tuple[int, ...]) -> str:
    """``(1, 1, 2, 2, 2)`` -> ``"1,1,2,2,2"``: the name of an allocation in every table."""
    return ",".join(map(str, boats))


def candidates(players: int, space: str = "monotone") -> list[tuple[int, ...]]:
    """Every allocation of ``space`` for ``players``, then any named one outside it, each once,
    in a fixed order (the lists in lexicographic order, then ``rules``, ``flat``,
    ``reversed``): the order fixes nothing but how tables are sorted before a result sorts
    them."""
    if space not in SPACES:
        raise ValueError(f"unknown search space {space!r}; accepted: {', '.join(SPACES)}")
    seats = seats_for(players)
    out = [b for b in product(range(MOST_PER_SEAT + 1), repeat=seats)
           if sum(b) <= SUPPLY and (space == "all" or all(x <= y for x, y in zip(b, b[1:])))]
    seen = set(out)
    for boats in named(players).values():
        if boats not in seen:
            out.append(boats)
            seen.add(boats)
    return out


def names_of(players: int, boats: tuple[int, ...]) -> str:
    """The named allocations ``boats`` is (``"rules"``, ``"flat, reversed"``), or ``""``."""
    return ", ".join(k for k, v in named(players).items() if v == boats)
