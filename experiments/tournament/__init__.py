"""A strategy tournament: every strategy in every seat, on common games, until the order is known.

Line-ups (TAG's round-robin design): with K strategies and P players, every combination of P
strategies (K >= P) or the list repeated cyclically to fill the table (K < P: A,B -> A,B,A,B),
each in all P seat rotations, identical line-ups once. Game index ``g`` of the tournament is
engine game ``g`` (seed ``seed``) in every line-up, so the line-ups of one index share their tile
layout and dice streams (common random numbers): seat and layout luck cancel across rotations.

Games are played in batches of ``batch`` game indices (each index played by every line-up).
After each batch a Wald SPRT on every pair adjacent in the current rating order decides whether
that order is settled (``stats.sprt``); the tournament stops when every adjacent
pair is settled, or at ``games`` indices (or plays all of them with ``stop=False``). Everything
is a pure function of (seed, game indices, line-ups, rules): thread count and batch size change
nothing but where the stop check falls.

2 players are played as the rules seat them, A,B,A,B (B4.5): a strategy is a *player's*, its two
seats play it, and standings use the player's summed keys. Each entry is written in its one
spelling (``spelling``: parameters at their defaults dropped, the rest in declared order), so
``greedy`` and ``greedy:risk=1`` are one strategy and naming both is refused; results are
labelled by that spelling.

Resumable (``play(..., store=...)``, ``folder.Folder``): each batch's engine records are
saved as it is played, and a later run of the same tournament reads them back instead of
playing them; everything after the engine is recomputed from them, so the result is equal.

The package: ``design`` (the strategies' spellings, the line-ups, ``Tournament`` and its
memory check), ``run`` (``play`` and its ``Result``), ``stats`` (standings, head to head,
ratings, the SPRT), ``text`` (the printed tables and README.md), ``folder`` (the folder on
disk, its resumable state, ``tournament.json``, and ``Saved``: a complete folder read back).
The submodules import each other, never this file.
"""
from .design import (
    Tournament,
    TournamentError,
    check_memory,
    lineup_label,
    lineups,
    load_plugins,
    spelling,
    split_names,
)
from .folder import Folder, Saved, check_inputs_outside, check_out, identity, manifest
from .run import Result, play
from .text import markdown, text

__all__ = ["Folder", "Result", "Saved", "Tournament", "TournamentError", "check_inputs_outside",
           "check_memory", "check_out", "identity", "lineup_label", "lineups", "load_plugins",
           "manifest", "markdown", "play", "spelling", "split_names", "text"]
