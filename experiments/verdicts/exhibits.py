"""The numbers behind the claims about boats, turns, skill and the leader, as tables a report
shows beside the verdicts: what a boat is worth seat by seat and in seats of turn order (B2),
each seat's turns and what a turn more goes with (S2), each strategy's win share at a mixed
table (K, L), the variance of a score split into its parts (K2) and the win shares with and
without a leader-basher (L).

Every row carries its 95% interval (fixed-sample, descriptive: the verdicts' own intervals,
which depend on the run's look, are in the verdict table) and n, the game indices. They come
from the same per-index moments as the verdicts (the same ``Catalog`` joints), read in the
same pass over the run: the dry run of ``experiments.verdicts.analysis`` runs ``tables`` too, so
that the joints it asks for are read. Nothing here is a verdict.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import pandas as pd

from .catalog import Catalog
from .claims.boats_turns import Boats, boat_sets, turn_cap, turn_value
from .claims.shared import at_own_rule, scope_of
from .claims.skill_leader import (
    BASHER,
    PLACEMENT,
    basher_changes,
    basher_pairs,
    line_up,
    pair_scope,
    variance_parts,
)
from .features import col, combo, count_of, cross
from .inference import FIXED, fieller, interval


@dataclass
class Exhibit:
    """One table for a report: its file name, caption, the claims it belongs to, and the chart
    (a function of ``reports.charts``) that draws it, if any."""
    name: str
    caption: str
    claims: tuple
    table: pd.DataFrame
    chart: str | None = None
    text: list[str] = field(default_factory=list)


def _row(est, **cols) -> dict:
    lo, hi = interval(est, 0.05, FIXED)
    return {**cols, "value": est.value, "low": lo, "high": hi, "n": est.n}


def boats(cat: Catalog) -> list[dict]:
    """Per style, player count and seat: the seat's own win share and score per boat (a boat
    more, a boat fewer, both), and the seats' average."""
    rows = []
    for style, entries in cat.styles().items():
        for ref, flat, plus, minus in boat_sets(cat, entries):
            b = Boats(cat, ref, flat, plus, minus)
            for s in [*b.seats, None]:
                for what, lo, hi in (("share", -1, 1), ("score", -100, 100)):
                    for side in ("plus", "minus", "both"):
                        terms = b.average(what, side) if s is None else b.seat(s, what, side)
                        if not terms:
                            continue
                        rows.append(_row(combo(b.j, terms, lo, hi), play=style,
                                         players=ref.players, seat="all" if s is None else s + 1,
                                         rules_boats=ref.boats[s] if s is not None else None,
                                         metric=f"{what}_{side}"))
    return rows


def exchange(cat: Catalog) -> list[dict]:
    """Per style and player count: a boat's value, a seat's cost under flat boats and their
    ratio (Fieller's 95% interval)."""
    rows = []
    for style, entries in cat.styles().items():
        for ref, flat, plus, minus in boat_sets(cat, entries):
            if flat is None:
                continue
            b = Boats(cat, ref, flat, plus, minus)
            num_t, den_t = b.average(), [(c, -w) for c, w in b.flat_slope()]
            num, den = combo(b.j, num_t, -1, 1), combo(b.j, den_t, -1, 1)
            cov = (cross(b.j, num_t, num_t), cross(b.j, den_t, den_t),
                   cross(b.j, num_t, den_t))
            rho = fieller(num.value, den.value, cov, b.j.n)
            rows.append({"play": style, "players": ref.players, "boat_pp": 100 * num.value,
                         "seat_pp": 100 * den.value,
                         "seats_per_boat": num.value / den.value if den.value else math.nan,
                         "low": rho[0] if rho else math.nan,
                         "high": rho[1] if rho else math.nan, "n": b.j.n})
    return rows


def turns(cat: Catalog) -> list[dict]:
    """Per style, player count and seat (rules' boats, base game, own tie-break): mean turns,
    and the within-seat slopes of score and win share on turns."""
    rows = []
    for style, entries in cat.styles().items():
        for e in at_own_rule(cat, entries, allocation="rules", players=lambda n: n >= 2):
            j = cat.joint([e], "seat")
            for s in range(e.players):
                rows.append(_row(combo(j, [(col(j, f"turns_{s}"), 1.0)], 0, turn_cap(e)),
                                 play=style, players=e.players, seat=s + 1, metric="turns"))
                rows.append(_row(turn_value(cat, e, "y", s), play=style,
                                 players=e.players, seat=s + 1, metric="points_per_turn"))
                rows.append(_row(turn_value(cat, e, "w", s), play=style,
                                 players=e.players, seat=s + 1, metric="win_share_per_turn"))
    return rows


def strategies(cat: Catalog) -> list[dict]:
    """Per pooled mixed table and strategy: seats held, win share, win share per seat and
    score per seat."""
    rows = []
    for e in cat.entries:
        if e.seating is None:
            continue
        j = cat.joint([e], "strategy")
        for t, c in sorted(count_of(e).items()):
            share = j.est(f"share_{t}", 0, 1)
            base = dict(table=f"{scope_of(e)}, {line_up(e)}", players=e.players,
                        strategy=t, seats=c, fair=c / e.players)
            rows.append(_row(share, **base, metric="win_share"))
            rows.append(_row(combo(j, [(col(j, f"share_{t}"), 1 / c)], 0, 1), **base,
                             metric="win_share_per_seat"))
            rows.append(_row(j.est(f"score_{t}", 0, 100), **base, metric="score_per_seat"))
    return rows


def variance(cat: Catalog) -> list[dict]:
    """Per pooled mixed table of built-in rungs: each component's share of the score
    variance (``claims.skill_leader.variance_parts``)."""
    rows = []
    for e in cat.entries:
        if e.seating is None or len(e.parts) < 2 or \
                frozenset(count_of(e)) in PLACEMENT:
            continue
        for comp, est in variance_parts(cat, e).items():
            rows.append(_row(est, table=f"{scope_of(e)}, {line_up(e)}",
                             component=comp))
    return rows


def basher(cat: Catalog) -> list[dict]:
    """Per pair of tables with and without the saboteur: each strategy's win share per seat
    with, without, and the paired change."""
    rows = []
    for b, a, common in basher_pairs(cat, cat.entries):
        j, est, own = basher_changes(cat, b, a, common)
        cb, ca = count_of(b), count_of(a)
        pair = pair_scope(b, a)
        rows.append(_row(own, pair=pair, strategy=BASHER, metric="with"))
        for t in common:
            rows.append(_row(combo(j, [(col(j, f"share_{t}", 0), 1 / cb[t])], 0, 1),
                             pair=pair, strategy=t, metric="with"))
            rows.append(_row(combo(j, [(col(j, f"share_{t}", 1), 1 / ca[t])], 0, 1),
                             pair=pair, strategy=t, metric="without"))
            rows.append(_row(est[t], pair=pair, strategy=t, metric="change"))
    return rows


def tables(cat: Catalog, claims: dict) -> list[Exhibit]:
    """The exhibits of the claims a study names (the seats' win shares have the report's own
    charts)."""
    named = set(claims or {})
    out = []

    def add(ids, name, caption, make, chart=None, text=()):
        if named & set(ids):
            frame = pd.DataFrame(make(cat))
            if len(frame):
                out.append(Exhibit(name, caption, tuple(sorted(named & set(ids))), frame,
                                   chart, list(text)))
    add(("B2", "B2r"), "boat_value", "What one boat is worth to the seat that gets it: its "
        "own win share (pp) and score with a boat more than the rules give, with one fewer, "
        "and half their difference, per seat and averaged over the seats; 95% intervals over "
        "game indices.", boats, "boat_value")
    add(("B2r",), "boat_exchange", "A boat in seats of turn order: a boat's value over the win "
        "share a seat loses per seat later under flat boats (Fieller's 95% interval).",
        exchange)
    add(("S2", "S2v", "S4"), "turns_per_seat", "Turns per seat under the rules' boats, and "
        "within each seat the slope of score (points per turn) and of win share on its turns, "
        "both less the game's mean over players (an association: turns are not randomised); "
        "95% intervals over game indices.", turns, "turns_per_seat")
    add(("K1", "K3", "L1", "L2"), "strategy_shares", "Each strategy's win share at each mixed "
        "table (every rotation pooled, so every seat held equally often): in all, per seat it "
        "holds, and its mean score per seat; 95% intervals over game indices.", strategies,
        "strategy_shares")
    add(("K2",), "score_variance", "The variance of a player's score split into what the "
        "strategy, the seat and the game's seed (tiles and dice, shared by the rotations of a "
        "game index) explain, and the rest; luck is seed + rest. Shares with their 95% "
        "intervals (delta method over game indices).", variance, "score_variance")
    add(("L1", "L2"), "leader_basher", "Each strategy's win share per seat with the "
        "saboteur at the table, without it (another strategy in its seats), and the paired "
        "change; 95% intervals over game indices.", basher, "leader_basher")
    return out
