"""The calibration cases, keyed by claim id: each claim's decision rule run by the verdict code
itself (``experiments.verdicts.calibration``) on synthetic per-game data whose truth is known, with
the truth planted exactly at the edge where a label on either side would be wrong, just past it
(1.2 and 1.5 times the tolerance, where the claim is true by a little), and at nulls and large
effects for power. Many cases are stated in units of the studies' tolerances times ``scale``:
what matters is the tolerance over the standard error, so a short run at a wide tolerance
tells what a long one at a narrow tolerance would.

One module per subject, mirroring ``experiments.verdicts.claims``: ``seats`` (S1, S3, S1b, S1c,
T1, T2, T3, B3a), ``boats_turns`` (B2, B2r, S2, S4, S2v), ``player_counts`` (N1, N3, N4),
``challenges`` (C1-C4, C6, E1, E1d, E2), ``skill_leader`` (K1, K2, K3, L1, L2) and ``skill``
(S5, S5b: the skill trace's slopes over levels); ``shared``
holds the labels, the generators more than one subject uses and the rule shapes' case lists.

``python -m experiments.verdicts.calibration_cases --claims S1,S3,S1b,S1c --looks --scale 3 --reps
2000`` is the long version of the seat claims' cases at one look and at several looks of a growing
run; ``--claims B2,B2r,S2v,K2,N4,E1,L1,N1 --scale 1`` the other claims' at one look (both
tables are in docs/calibration.md, with the cases of the claims calibrated last).
``tests/test_calibration.py``, ``tests/test_calibration_claims.py`` and
``tests/test_calibration_more_claims.py`` run short versions.
"""
from __future__ import annotations

import argparse
from collections.abc import Callable

from ..calibration import Scenario, markdown, power, rows, se_of_pooled
from .boats_turns import (
    boat_in_seats,
    boat_value,
    boats,
    first_to_last_turns,
    player_a_turns,
    points_per_turn,
    turn_slope,
)
from .challenges import (
    atlantis_is_gone,
    densely_populated,
    dolphins_sea_losses,
    expansions,
    leave_no_one_behind,
    length_and_value_at_most,
    overpopulated_losses,
    squid_losses,
    value_scoring,
)
from .player_counts import (
    counts,
    four_players_best,
    losses_against_four_players,
    task_against_four_players,
    two_counts,
)
from .seats import (
    chain_shift,
    first_seat_at_two_to_four,
    first_seats_flat_boats,
    house_rule_changes,
    listed_balance,
    seat_balance,
    spread_removed,
    tie_rate,
)
from .shared import AGAINST, NEG, NOT_NULL, REF, SEAT_TOLERANCE, SUP
from .skill import first_seat_grows, spread_grows
from .skill_leader import (
    basher,
    careful_gains,
    greedy_placement,
    lone_stronger,
    luck_share,
    share_changes,
    variance_table,
    w_for,
)

__all__ = ["AGAINST", "CASES", "NEG", "NOT_NULL", "REF", "SEATS", "SEAT_TOLERANCE", "SUP",
           "basher", "boats", "counts", "expansions", "main", "scenarios", "turn_slope",
           "two_counts", "variance_table", "w_for"]

CASES: dict[str, Callable[[float], list[Scenario]]] = {
    "S1": first_seats_flat_boats, "S3": first_seat_at_two_to_four, "S1b": seat_balance,
    "S1c": spread_removed, "B2": boat_value, "B2r": boat_in_seats, "S2v": points_per_turn,
    "K2": luck_share, "N4": losses_against_four_players, "E1": length_and_value_at_most,
    "L1": share_changes, "N1": four_players_best,
    "T1": chain_shift, "T2": tie_rate, "T3": house_rule_changes,
    "S2": first_to_last_turns, "S4": player_a_turns, "N3": task_against_four_players,
    "C1": densely_populated, "C2": leave_no_one_behind, "C3": value_scoring,
    "C4": atlantis_is_gone, "C6": overpopulated_losses, "E1d": dolphins_sea_losses,
    "E2": squid_losses, "K1": lone_stronger, "K3": greedy_placement, "L2": careful_gains,
    "S5": first_seat_grows, "S5b": spread_grows, "B3a": listed_balance}
"""Each claim's cases, by claim id: a function of ``scale`` (the studies' tolerances times it)."""
SEATS = ("S1", "S3", "S1b", "S1c")
FIRST = ("B2", "B2r", "S2v", "K2", "N4", "E1", "L1", "N1")
"""The other claims calibrated first (tests/test_calibration_claims.py); the rest are
tests/test_calibration_more_claims.py's."""
GAMES = {"T1": 3000, "S4": 3000, "N3": 4000, "K3": 4000, "L2": 10000, "B3a": 4000}
"""Games per setting at which a claim's cases past the edge (1.2 and 1.5 x) have decent power
at ``scale`` 3 (1,000 for a claim not listed): ``--games 0`` runs each claim at its own."""


def scenarios(scale: float = 3.0, claims=None) -> list[Scenario]:
    """The cases of ``claims`` (every claim with cases when None), in ``CASES``' order."""
    return [sc for cid, cases in CASES.items() if claims is None or cid in claims
            for sc in cases(scale)]


# ------------------------------------------------------------------------------ the long version
POWER = ("S1 large: seat 1 +2 tolerances", "S1b inside: seat 1 +tolerance/2", "S1c much flatter",
         "S1 real slope, 60% of the tolerance")


def main(argv=None) -> None:
    ap = argparse.ArgumentParser(prog="python -m experiments.verdicts.calibration_cases",
                                 description=__doc__.split("\n")[0])
    ap.add_argument("--claims", default=",".join(CASES),
                    help="the claims whose cases run, comma-separated (default: every one)")
    ap.add_argument("--reps", type=int, default=1000)
    ap.add_argument("--games", type=int, default=4000,
                    help="games per setting (0: each claim's GAMES, 1,000 unless listed)")
    ap.add_argument("--scale", type=float, default=3.0,
                    help="the studies' tolerances times this (1: as shipped)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--looks", action="store_true",
                    help="also extended, following the advice and until settled; with the "
                    "advised games' power and the pooled standard errors")
    ap.add_argument("--out", default=None, help="a Markdown file for the table")
    args = ap.parse_args(argv)
    chosen = scenarios(args.scale, args.claims.split(","))

    def games(sc: Scenario) -> int:
        return args.games or GAMES.get(sc.claim, 1000)

    def sizes(n: int) -> list[int] | None:
        return [n, 2 * n, 4 * n, 8 * n, 16 * n] if args.looks else None
    lines = markdown([r for sc in chosen
                      for r in rows(sc, args.reps, games(sc), sizes(games(sc)), args.seed)])
    if args.looks:
        by = {sc.name: sc for sc in chosen}
        lines += ["", "| scenario | advised games | settled rightly |", "|---|---|---|"]
        for name in (x for x in POWER if x in by):
            need, right = power(by[name], games(by[name]), args.reps, seed=args.seed + 11)
            lines.append(f"| {name} | {need:,} | {100 * right:.1f}% |")
        lines += ["", "| rotations, layout effect | per game index (ours) | naive, k x n rows |",
                  "|---|---|---|"]
        for k, sd in ((5, 1.0), (5, 0.0), (3, 0.5)):
            ours, naive, _ = se_of_pooled(400, 400, k, sd, 1.0, seed=args.seed + 3)
            lines.append(f"| {k} rotations, layout sd {sd} | {ours:.2f} | {naive:.2f} |")
    text = "\n".join(lines)
    print(text)
    if args.out:
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")

