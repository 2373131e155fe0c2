"""Claims about the game's balance, each one record (``Claim``): what was said, the question it
becomes, its tolerance and decision rule in words, and its judge -- the scopes it compares and
the measure it takes. One module per subject, so a claim sits beside the claims it is read
with; this package gathers them into ``CLAIMS`` and checks a study file's ``[claims]`` table.

A study file names the claims its report judges (``[claims.S1b]``, with parameters such as a
tolerance). The verdict table and the styles of play are in ``experiments.verdicts.table``; the
looks in ``experiments.verdicts.looks``; the decision rules in ``experiments.verdicts.decisions``.
The claims in words, with their sources, are docs/claims.md.
"""
from __future__ import annotations

from . import boats_turns, challenges, player_counts, seats, skill, skill_leader
from .record import UNITS, Claim, Found, Param

__all__ = ["CLAIMS", "UNITS", "Claim", "Found", "Param", "check_claims", "win_share_params"]

CLAIMS: dict[str, Claim] = {c.id: c for module in (seats, boats_turns, player_counts,
                                                   challenges, skill_leader, skill)
                            for c in module.CLAIMS}


def win_share_params(cid: str) -> list[str]:
    """The parameters of a claim that are a tolerance in win share (what the report's
    sensitivity view varies: 0.5, 1, 2 and 3 pp)."""
    return [k for k, p in CLAIMS[cid].params.items()
            if not p.counts and p.words.startswith("win share")]


def check_claims(claims: dict) -> str | None:
    """The problem with a study file's ``[claims]`` table, in one line, or None."""
    for cid, params in claims.items():
        if cid not in CLAIMS:
            return f"unknown claim {cid!r}; known: {', '.join(CLAIMS)}"
        for key, value in params.items():
            if key not in CLAIMS[cid].params:
                return (f"claims.{cid}: unknown parameter {key!r}; accepted: "
                        f"{', '.join(CLAIMS[cid].params) or 'none'}")
            problem = CLAIMS[cid].params[key].problem(value)
            if problem:
                return f"claims.{cid}.{key}: {problem}"
    return None
