"""The player counts' cases (``experiments.verdicts.claims.player_counts``): a player's task at
5-6 players against 4 (N3), 6 players' losses against 4 (N4) and whether 4 players is the best
count (N1)."""
from __future__ import annotations

import numpy as np

from ..calibration import Scenario, scored
from .shared import AGAINST, REF, SEAT_TOLERANCE, SUP


# ------------------------------------------------------------------------------ N4
def two_counts(lost_gap: float, rounds6: float):
    """6 players against 4: each player's explorers lost with chances 0.75 (4 players) and
    0.75 + ``lost_gap`` (6); 9 rounds at 4 players, ``rounds6`` at 6 (so the losses per
    player and round differ by a known, large amount when ``rounds6`` is small)."""
    def make(rng, n):
        out = []
        for players, p_lost, rounds in ((4, .75, 9), (6, .75 + lost_gap, rounds6)):
            k = 10 if players == 4 else 7
            res = rng.binomial(k, 1 - p_lost, (n, players))
            turns = np.full((n, players), int(rounds), np.int64) + \
                (rng.random((n, players)) < rounds % 1)
            out.append(scored(f"p{players}-rules", players, res * 3.0, rng=rng,
                                seating=("s",) * players, rescued=res, turns=turns,
                                explorers=k))
        return out
    return make



# ------------------------------------------------------------------------------ N1
def counts(gap_edge: float, tie_edge: float, gap: float = 0.15, ties: float = 0.10):
    """4, 5 and 6 players, every seat equally likely to win (fairness equal): 4 players' mean
    winning gap (top two scores over a player's value) ``gap_edge`` below the others' ``gap``,
    and its share of shared tops ``tie_edge`` below their ``ties``. 4 players is then better
    than each other count on closeness and decisiveness by exactly those margins."""
    def make(rng, n):
        out = []
        for players in (4, 5, 6):
            t = ties - (tie_edge if players == 4 else 0.0)
            g = gap - (gap_edge if players == 4 else 0.0)
            value = {4: 28, 5: 24, 6: 22}[players]
            winner = rng.integers(0, players, n)
            second = (winner + rng.integers(1, players, n)) % players
            tied = rng.random(n) < t
            margin = np.where(tied, 0.0, rng.exponential(g / (1 - t), n))
            score = rng.uniform(0, 10, (n, players))
            rows = np.arange(n)
            score[rows, second] = 12.0
            score[rows, winner] = 12.0 + margin * value
            out.append(scored(f"p{players}-rules", players, score, rng=rng,
                                seating=("s",) * players))
        return out
    return make




def losses_against_four_players(scale: float) -> list[Scenario]:
    par = {"lost": 0.05, "per_round": 0.1}
    out = [Scenario("N4 share lost exactly at its tolerance, per round far above", "N4",
                    "one part at the edge", two_counts(0.05, 5.0), SUP, frozenset(), par,
                    AGAINST)]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N4 share lost at {k} x its tolerance, per round far above",
                            "N4", "both parts above (claim true)", two_counts(0.05 * k, 5.0),
                            AGAINST, SUP, par))
    return out + [Scenario("N4 both far above", "N4", "both parts large",
                           two_counts(0.15, 5.0), AGAINST, SUP, par)]



def four_players_best(scale: float) -> list[Scenario]:
    t = SEAT_TOLERANCE * scale
    par = {"gap": t, "ties": t, "fairness": 0.0025 * scale}
    out = [
        Scenario("N1 every count alike", "N1", "4 players no better", counts(0.0, 0.0),
                 SUP, REF, par),
        Scenario("N1 4 players better by exactly the tolerances", "N1",
                 "closeness and decisiveness at the edge", counts(t, t), SUP, frozenset(),
                 par, REF),
    ]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N1 4 players better by {k} x the tolerances", "N1",
                            f"closeness and decisiveness {k} x (claim true)",
                            counts(k * t, k * t), REF, SUP, par))
    return out



# ------------------------------------------------------------------------------ N3
def task_gap(rescued_gap: float, value_gap: float, players: int = 5):
    """4 players against ``players`` (each its own tie-break, one strategy): each player's
    explorers rescued Binomial with chance 0.5 at 4 players and 0.5 + ``rescued_gap`` at the
    other count, its score Binomial over its value with chance 0.3 and 0.3 + ``value_gap``:
    the rescued and value fractions differ by exactly those gaps."""
    def make(rng, n):
        out = []
        for p, dr, dv in ((4, 0.0, 0.0), (players, rescued_gap, value_gap)):
            k = 8 if p == 5 else 7 if p == 6 else 10
            value = 24 if p == 5 else 22 if p == 6 else 28
            res = rng.binomial(k, .5 + dr, (n, p))
            score = rng.binomial(value, .3 + dv, (n, p)).astype(float)
            out.append(scored(f"p{p}-rules", p, score, rng=rng, seating=("s",) * p,
                              rescued=res, explorers=k))
        return out
    return make


def task_against_four_players(scale: float) -> list[Scenario]:
    """N3, the balance rule over the two fractions (as S1b: at the margin "supported" is wrong
    and so is "refuted"; outside it "supported" is wrong, inside it "refuted")."""
    t = 0.02
    par = {"tolerance": t}
    out = [Scenario("N3 the same task", "N3", "both fractions equal", task_gap(0.0, 0.0),
                    REF, SUP, par),
           Scenario("N3 inside: both fractions tolerance/2 apart", "N3",
                    "equivalent within tolerance", task_gap(t / 2, -t / 2), REF, SUP, par),
           Scenario("N3 rescued fraction exactly at the tolerance", "N3", "at the margin",
                    task_gap(t, 0.0), SUP, frozenset(), par, REF),
           Scenario("N3 value fraction exactly at the tolerance, 6 players", "N3",
                    "at the margin", task_gap(0.0, -t, 6), SUP, frozenset(), par, REF)]
    for k in (1.2, 1.5):
        out.append(Scenario(f"N3 rescued fraction at {k} x the tolerance", "N3",
                            f"{k} x the margin (not the same task)", task_gap(k * t, 0.0),
                            SUP, REF, par))
    return out
