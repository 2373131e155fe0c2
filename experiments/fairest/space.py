"""The boat allocations a search may try: per-seat lists of 0-3 boats within the 12-boat supply
(RULES.md X1.5, B1.5), and the three named ones every study compares (X1.1, X1.2).

Two spaces: ``all`` -- every list of 0-3 per seat with at most 12 boats in all (1,003 lists at
5 players, 3,676 at 6) -- and ``monotone`` -- the lists where no seat has fewer boats than a
seat before it (52 at 5 players, 68 at 6): the shape of the rules' own compensation, the
first seats giving up boats for the advantage of moving first. The named allocations join any
space, so that a search always says where ``rules``, ``flat`` and ``reversed`` stand.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

from play.settings import RULES_BOATS, SETUP_ORDERS, seats_for

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


# ------------------------------------------------------------------------------ rules (levers)
FORWARD = ("forward", "forward")
BOAT_SPACES = ("rules", "monotone", "all")
ORDER_SPACES = ("forward", "all")


@dataclass(frozen=True)
class Rule:
    """One candidate of a fair-rule search (issue 41): a boat list (X1.5), a score bonus per
    seat (komi, RULES.md C1; ``()`` none) and the setup order (C2; explorers', boats')."""
    boats: tuple[int, ...]
    komi: tuple[float, ...] = ()
    order: tuple[str, str] = FORWARD

    @property
    def label(self) -> str:
        """The boats' label alone for a rule that moves no other lever (so a boat search's
        tables and saved state keep their names), else ``1,1,2,2,2 komi 0,0,0.5,1,1 order
        snake`` (``order reverse/snake``: explorers', boats')."""
        text = label(self.boats)
        if self.komi:
            text += " komi " + self.komi_text
        if self.order != FORWARD:
            text += " order " + self.order_text
        return text

    @property
    def komi_text(self) -> str:
        """``0,0,0.5,1,1``, or ``none``."""
        return ",".join(f"{k:g}" for k in self.komi) or "none"

    @property
    def order_text(self) -> str:
        """``snake`` (both phases), or ``reverse/snake`` (explorers', boats')."""
        o = self.order
        return o[0] if o[0] == o[1] else f"{o[0]}/{o[1]}"

    def changes(self, players: int) -> int:
        """How many levers move away from the rules' own setup (boats, komi, setup order):
        the simplest fair rule changes the fewest."""
        return (int(tuple(self.boats) != tuple(named(players)["rules"])) + int(bool(self.komi))
                + int(tuple(self.order) != FORWARD))


def parse_space(text: str) -> dict:
    """A fair-rule space, ``boats=monotone,komi=2,order=all``: the boat lists (``rules``,
    ``monotone``, ``all``), the komi (``none``, or ``K``: every monotone vector of 0 to K
    points in halves with seat 1 at none, RULES.md C1) and the setup orders (``forward``, or
    ``all``: the nine pairs of C2.1). A lever left out stays as the rules have it; ``monotone``
    and ``all`` alone are the boat searches of old."""
    text = text.strip()
    if text in SPACES:
        return {"boats": text, "komi": 0.0, "order": "forward"}
    out = {"boats": "rules", "komi": 0.0, "order": "forward"}
    seen = set()
    for part in text.split(","):
        key, eq, value = (x.strip() for x in part.partition("="))
        ok = eq and key not in seen and (
            (key == "boats" and value in BOAT_SPACES)
            or (key == "order" and value in ORDER_SPACES)
            or (key == "komi" and (value == "none" or _half_points(value))))
        if not ok:
            raise ValueError(f"bad search space {text!r}; accepted: {', '.join(SPACES)}, or "
                             f"boats={'|'.join(BOAT_SPACES)}, komi=none|K (points, whole or "
                             f"half, 0.5 to 10), order={'|'.join(ORDER_SPACES)}, "
                             f"comma-separated")
        seen.add(key)
        out[key] = 0.0 if value == "none" else float(value) if key == "komi" else value
    return out


def _half_points(value: str) -> bool:
    try:
        k = float(value)
    except ValueError:
        return False
    return 0.5 <= k <= 10 and float(2 * k).is_integer()


def rule_candidates(players: int, space: str) -> list[Rule]:
    """Every rule of ``space`` (``parse_space``), in a fixed order: boat lists as
    ``candidates`` gives them (``rules``: the rules' list alone), then komi vectors (none
    first), then setup orders (forward first)."""
    s = parse_space(space)
    seats = seats_for(players)
    boats = [tuple(named(players)["rules"])] if s["boats"] == "rules" else \
        candidates(players, s["boats"])
    komis: list[tuple[float, ...]] = [()]
    if s["komi"]:
        steps = [k / 2 for k in range(int(2 * s["komi"]) + 1)]
        komis += [(0.0,) + v for v in product(steps, repeat=seats - 1)
                  if any(v) and all(a <= b for a, b in zip((0.0,) + v, v))]
    orders = [FORWARD] if s["order"] == "forward" else \
        [FORWARD] + [o for o in product(SETUP_ORDERS, repeat=2) if o != FORWARD]
    return [Rule(b, k, o) for b in boats for k in komis for o in orders]


def candidate_label(candidate) -> str:
    """The table name of a candidate: a boat list's label, or a ``Rule``'s."""
    return candidate.label if isinstance(candidate, Rule) else label(candidate)


def boats_of(candidate) -> tuple[int, ...]:
    """A candidate's boat list (a ``Rule``'s boats, or the list itself)."""
    return tuple(candidate.boats if isinstance(candidate, Rule) else candidate)


def named_as(players: int, candidate) -> str:
    """``names_of`` for a candidate: a rule that moves komi or the setup order is no named
    allocation, whatever its boats."""
    if isinstance(candidate, Rule) and (candidate.komi or candidate.order != FORWARD):
        return ""
    return names_of(players, boats_of(candidate))
