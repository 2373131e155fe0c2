"""Claims about boats and turns: what one starting boat is worth to the seat that gets it (B2),
and in seats of turn order (B2r); how many turns each seat takes (S2, S4) and what one turn
more goes with (S2v).

The boat claims compare the rules' boats with settings that give one seat one boat more or
fewer (``boat_sets``, ``Boats``), on their common game indices; the report's exhibits read the
same contrasts.
"""
from __future__ import annotations

import math

import numpy as np

from .. import decisions as D
from ..catalog import Catalog, Entry
from ..decisions import DIRECTION_RULE
from ..features import col, combo, cross, delta, slope, slope_weights
from ..inference import ALPHA, FIXED, Estimate, Look, fieller, games_for, interval, p_above
from .record import TOL_SEAT, Claim, Found, Param
from .shared import at_own_rule, iv, pp, scope_of, twin

CLAIMS: list[Claim] = []


# ------------------------------------------------------------------------------ boats
def boat_sets(cat: Catalog, entries, p=None) -> list[tuple[Entry, Entry | None, dict, dict]]:
    """Per player count and style: the rules' setting, flat boats' (or None), and the settings
    that give one seat one boat more (``plus[seat]``) or fewer (``minus[seat]``) than the
    rules, equal in everything else."""
    out = []
    for ref in at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 3):
        if ref.boats is None:
            continue
        rest = {k: v for k, v in ref.meta.items() if k != "allocation"}
        plus, minus = {}, {}
        for e in cat.find(entries, allocation="custom", players=ref.players):
            if {k: v for k, v in e.meta.items() if k != "allocation"} != rest or \
                    e.boats is None or len(e.boats) != len(ref.boats):
                continue
            diff = [a - b for a, b in zip(e.boats, ref.boats)]
            moved = [s for s, x in enumerate(diff) if x]
            if len(moved) == 1 and abs(diff[moved[0]]) == 1:
                (plus if diff[moved[0]] > 0 else minus)[moved[0]] = e
        if plus or minus:
            out.append((ref, twin(cat, entries, ref, allocation="flat"), plus, minus))
    return out


def boat_sets_with_flat(cat: Catalog, entries, p=None) -> list[tuple]:
    return [s for s in boat_sets(cat, entries) if s[1] is not None]


class Boats:
    """The joint of a boat set and the linear contrasts the claims and the report read."""

    def __init__(self, cat: Catalog, ref: Entry, flat: Entry | None, plus: dict, minus: dict):
        self.ref, self.flat, self.plus, self.minus = ref, flat, plus, minus
        order = [ref] + ([flat] if flat is not None else []) + \
            [plus[s] for s in sorted(plus)] + [minus[s] for s in sorted(minus)]
        self.part = {e.label: i for i, e in enumerate(order)}
        self.j = cat.joint(order, "seat")
        self.seats = sorted(set(plus) | set(minus))

    def _c(self, what: str, s: int, e: Entry) -> int:
        return col(self.j, f"{what}_{s}", self.part[e.label])

    def seat(self, s: int, what: str = "share", side: str = "both") -> list[tuple[int, float]]:
        """Seat ``s``'s own change per boat: +1 boat less the rules (``plus``), the rules less
        -1 boat (``minus``) or half the difference of the two (``both``; one side when only
        one is played)."""
        p, m = self.plus.get(s), self.minus.get(s)
        if side == "both" and p is not None and m is not None:
            return [(self._c(what, s, p), 0.5), (self._c(what, s, m), -0.5)]
        if side in ("both", "plus") and p is not None:
            return [(self._c(what, s, p), 1.0), (self._c(what, s, self.ref), -1.0)]
        if side in ("both", "minus") and m is not None:
            return [(self._c(what, s, self.ref), 1.0), (self._c(what, s, m), -1.0)]
        return []

    def average(self, what: str = "share", side: str = "both") -> list[tuple[int, float]]:
        """The seats' changes averaged (each seat that has the side)."""
        per = [t for t in (self.seat(s, what, side) for s in self.seats) if t]
        return [(c, w / len(per)) for terms in per for c, w in terms]

    def flat_slope(self) -> list[tuple[int, float]]:
        """The least-squares slope of win share over seats under flat boats."""
        w = slope_weights(self.ref.players)
        return [(self._c("share", s, self.flat), float(w[s])) for s in range(self.ref.players)]


def _scope(ref: Entry, what: str) -> str:
    return scope_of(ref).replace(", rules boats", "") + f", {what}"


def boat_value(cat, boat_set: tuple, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    b = Boats(cat, *boat_set)
    value = combo(b.j, b.average(), -1, 1)
    dec = D.direction(value, p["tolerance"], +1, alpha, look)
    words = []
    for side, what in (("plus", "a boat more"), ("minus", "a boat fewer costs")):
        terms = b.average("share", side)
        if terms:
            e = combo(b.j, terms, -1, 1)
            lo, hi = interval(e, alpha, look)
            words.append(f"{what} {pp(e.value)} pp {iv(lo, hi)}")
    sc = combo(b.j, b.average("score"), -100, 100)
    lo, hi = interval(sc, alpha, look)
    seats = ", ".join(f"{s + 1} {pp(combo(b.j, b.seat(s), -1, 1).value)}" for s in b.seats)
    return Found(_scope(b.ref, "each seat +1 and -1 boat against the rules' boats"),
                 "; ".join(words) + f"; score per boat {sc.value:+.2f} [{lo:+.2f}, "
                 f"{hi:+.2f}]; per seat (pp): {seats}", dec,
                 "paired contrast over game indices of the rules' boats and each seat's "
                 "+1 and -1 boat (t over game indices)")


CLAIMS.append(Claim(
    "B2", "P", "Boats are scarce and decisive: one starting boat more or fewer matters "
    "(players and reviews).",
    "Given one seat one boat more or one fewer than the rules' allocation (every seat in "
    "turn, 0-3 boats each, 12 at most, on the same games), does a boat change that seat's "
    "own win share by more than the tolerance, averaged over the seats?",
    "value of one boat: the seat's own win share with a boat more minus with a boat "
    "fewer, halved, averaged over the seats (pp); +1 and -1 boat and the score per boat "
    "in the detail",
    DIRECTION_RULE + "; one paired contrast over game indices of every setting at once "
    "(the rules' boats, each seat +1 and -1)",
    "none (one average per scope; the per-seat values in the report are descriptive)",
    {"tolerance": TOL_SEAT}, "pp",
    scopes=boat_sets, measure=boat_value, brings=("B2r",), per_style=True))


def boat_in_seats(cat, boat_set: tuple, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    tol = p["tolerance"]
    b = Boats(cat, *boat_set)
    num_t = b.average()
    den_t = [(c, -w) for c, w in b.flat_slope()]         # a seat later costs this much
    num, den = combo(b.j, num_t, -1, 1), combo(b.j, den_t, -1, 1)
    cov = (cross(b.j, num_t, num_t), cross(b.j, den_t, den_t), cross(b.j, num_t, den_t))
    m = b.j.n
    rho = fieller(num.value, den.value, cov, m, alpha, look)
    line = combo(b.j, num_t + [(c, -tol * w) for c, w in den_t], -30, 30)
    nxt = look if look.sequential else look.next(m)
    bounded = Estimate(den.value, den.sd, m, -1, 1)
    parts = [games_for(line, abs(line.value), alpha, nxt, 0.9),
             games_for(bounded, abs(den.value), alpha, nxt, 0.9)]
    need = None if None in parts else max(parts)
    rate = num.value / den.value if den.value else math.nan
    detail = f"a boat {pp(num.value)} pp; a seat later under flat boats {pp(-den.value)} pp"
    if rho is None:
        dec = D.Decision(D.INCONCLUSIVE, rate, math.nan, math.nan, m,
                         p_above(line, 0.0, look), need)
        detail += "; flat boats' slope is not yet shown below 0: no bounded interval"
    else:
        dec = D.Decision(D.direction_verdict(rho[0], rho[1], tol), rate, rho[0], rho[1], m,
                         p_above(line, 0.0, look), need)
    return Found(_scope(b.ref, "a boat in seats of turn order (flat boats' slope)"), detail,
                 dec, "ratio of two paired contrasts over game indices (Fieller's interval)")


CLAIMS.append(Claim(
    "B2r", "H", "A starting boat is worth more than one seat of turn order (the 5-6 "
    "player rules take a boat from the first seats to offset their earlier turns).",
    "How many seats of turn order is one boat worth: is the value of a boat divided by "
    "the win share a seat loses per seat later under flat boats above the tolerance?",
    "exchange rate: value of one boat / (minus the slope of win share over seats under "
    "flat boats), in seats of turn order",
    DIRECTION_RULE + "; the interval is Fieller's for the ratio (delta method over "
    "paired game indices), bounded once flat boats' slope is shown below 0",
    "none (one comparison per scope)",
    {"tolerance": Param(1.0, 0, 20, "seats of turn order")}, "seats",
    scopes=boat_sets_with_flat, measure=boat_in_seats, per_style=True))


# ------------------------------------------------------------------------------ turns
def turn_cap(e: Entry) -> float:
    return float(e.meta.get("max_turns") or 400)


def turns_rows(cat, e: Entry, alpha=ALPHA, look: Look = FIXED) -> list[tuple]:
    """``(seat, mean turns, low, high)`` of every player of a setting."""
    j = cat.joint([e], "seat")
    out = []
    for s in range(e.players):
        est = combo(j, [(col(j, f"turns_{s}"), 1.0)], 0, turn_cap(e))
        out.append((s, est.value, *interval(est, alpha, look)))
    return out


def turn_gap(cat, e: Entry, last: int) -> Estimate:
    """Seat 1's turns less seat ``last + 1``'s per game."""
    j = cat.joint([e], "seat")
    cap = turn_cap(e)
    return combo(j, [(col(j, "turns_0"), 1.0), (col(j, f"turns_{last}"), -1.0)], -cap, cap)


def rules_boats_from_three(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 3)


def first_to_last_turns(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    est = turn_gap(cat, e, e.players - 1)
    seats = ", ".join(f"{s + 1} {v:.2f} [{lo:.2f}, {hi:.2f}]"
                      for s, v, lo, hi in turns_rows(cat, e, alpha, look))
    return Found(scope_of(e), f"turns per seat: {seats}",
                 D.direction(est, p["tolerance"], +1, alpha, look),
                 "paired difference of seat 1's and the last seat's turns (t over game "
                 "indices)")


CLAIMS.append(Claim(
    "S2", "D", "Late seats have one turn fewer: the chain's \"fewer turns\" step exists "
    "because the seats after the volcano's revealer \"had less turns\".",
    "Under the rules, does the first seat take more turns per game than the last, by "
    "more than the tolerance (3 to 6 players; 2 players is S4)?",
    "turns of seat 1 minus turns of the last seat per game; every seat's turns in the "
    "detail",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"tolerance": Param(0.5, 0, 10, "turns per game")}, "turns",
    scopes=rules_boats_from_three, measure=first_to_last_turns, brings=("S2v",), per_style=True))


def rules_boats_at_two(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="rules", players=2)


def player_a_extra_turns(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    est = turn_gap(cat, e, 1)
    rows = turns_rows(cat, e, alpha, look)
    return Found(scope_of(e), "turns per player: " + ", ".join(
        f"{'AB'[s]} {v:.2f} [{lo:.2f}, {hi:.2f}]" for s, v, lo, hi in rows),
        D.direction(est, p["tolerance"], +1, alpha, look),
        "paired difference of player A's and player B's turns (t over game indices)")


CLAIMS.append(Claim(
    "S4", "H", "With 2 players (two colours each, seated A,B,A,B) player A gets more "
    "turns.",
    "Does player A take more turns per game than player B (both colours counted), by "
    "more than the tolerance?",
    "turns of player A minus player B per game",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"tolerance": Param(0.25, 0, 10, "turns per game")}, "turns",
    scopes=rules_boats_at_two, measure=player_a_extra_turns, per_style=True))


def turn_value(cat, e: Entry, y: str = "y", seat: int | None = None) -> Estimate:
    """The within-seat slope of score (``y``) or win share (``w``) on turns, the game's mean
    taken out of both, for one seat or averaged over the seats (delta method)."""
    j = cat.joint([e], "turn")
    seats = range(e.players) if seat is None else [seat]
    fs, cols = [], []
    for s in seats:
        c, f = slope(j, 0, s, y)
        fs.append((len(cols), f))
        cols += c

    def f(m):
        return float(np.mean([g(m[at:at + 4]) for at, g in fs]))
    return delta(j, f, cols)


def rules_boats_from_two(cat, entries, p) -> list[Entry]:
    return at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 2)


def points_per_turn(cat, e: Entry, p, alpha=ALPHA, look: Look = FIXED) -> Found:
    est = turn_value(cat, e)
    share = turn_value(cat, e, "w")
    lo, hi = interval(share, alpha, look)
    seats = ", ".join(f"{s + 1} {turn_value(cat, e, seat=s).value:+.2f}"
                      for s in range(e.players))
    return Found(scope_of(e), f"win share per extra turn {pp(share.value)} pp {iv(lo, hi)}; "
                 f"points per turn by seat: {seats}",
                 D.direction(est, p["tolerance"], +1, alpha, look),
                 "within-seat least-squares slope of score on turns, the game's mean taken "
                 "out (delta method over game indices)")


CLAIMS.append(Claim(
    "S2v", "D", "A turn is worth something: the chain gives a tie to whoever had fewer "
    "turns.",
    "Within a seat, do the games in which it took one turn more than the table's average "
    "go with a higher score, by more than the tolerance per turn? (The slope of score on "
    "turns, each less the game's mean over players; turns are not randomised, so this is "
    "an association.)",
    "points per extra turn: the within-seat least-squares slope of score on turns, both "
    "less the game's mean, averaged over seats; the win share's slope in the detail",
    DIRECTION_RULE + "; the slope's interval by the delta method over game indices",
    "none (one average per scope)",
    {"tolerance": Param(0.5, 0, 30, "points per turn")}, "points",
    scopes=rules_boats_from_two, measure=points_per_turn, per_style=True))
