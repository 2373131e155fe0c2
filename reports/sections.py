"""Which charts a report draws, and what each file is called: one ``render.Chart`` job per
chart (each draws from the run's sums and its tidy statistics, ``Analysis.tidy()``), for every
group of settings the run holds (seat balance per game variant, tie-break and style; ties; each
challenge against the base game; score distributions and paired differences; seat balance
against skill level where the study traces it). A file's name says what it shows --
``win_share_greedy_base_chain``, ``game_length_p6_greedy`` -- so that a figure copied out of
the report still makes sense.
"""
from __future__ import annotations

import re

import pandas as pd

from reports.charts.skill import level_name, skill_tables
from reports.render import Chart


def name_part(text) -> str:
    """A piece of a file name: lower case, words joined by ``-`` (``Challenge 3 Everyone is
    Equal`` -> ``challenge-3-everyone-is-equal``; a mixed style -> ``mixed-careful-greedy``)."""
    text = str(text).replace("mixed, every seat in turn:", "mixed")
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


def unique(jobs: list[Chart]) -> list[Chart]:
    """The jobs with each name made unique (a second ``x`` becomes ``x-2``)."""
    seen: dict[str, int] = {}
    for job in jobs:
        k = seen.get(job.name, 0) + 1
        seen[job.name] = k
        if k > 1:
            job.name = f"{job.name}-{k}"
    return jobs


def _groups(meta: pd.DataFrame, keys: tuple[str, ...]) -> list[list[str]]:
    """Settings grouped by ``keys`` (columns of the settings table), in grid order."""
    out: dict[tuple, list[str]] = {}
    for label, row in meta.iterrows():
        out.setdefault(tuple(str(row[k]) for k in keys), []).append(label)
    return list(out.values())


def styles(meta: pd.DataFrame) -> list[str]:
    """The styles of play the run holds (its ``strategies_text`` values), in grid order."""
    return list(dict.fromkeys(meta["strategies_text"]))


def _said(meta: pd.DataFrame, style: str) -> str:
    """A caption part naming the style, when the run holds more than one."""
    return f" ({style})" if len(styles(meta)) > 1 else ""


def _flags(row) -> str:
    return f"_{name_part(row['flags'])}" if row.get("flags") else ""


def seats(meta: pd.DataFrame) -> list[Chart]:
    """Win share (and score, rescued fraction) per seat for every group of settings that
    differ only in the player count and the boat allocation."""
    jobs = []
    keys = ("variant", "tiebreak", "strategies_text", "lagoon_is_sea", "creatures_must_move",
            "max_turns")
    for labels in _groups(meta, keys):
        row = meta.loc[labels[0]]
        what = f"{row['variant']}, {row['tiebreak']} tie-break, {row['strategies_text']}"
        jobs.append(Chart(f"win_share_{name_part(row['strategies_text'])}_"
                          f"{name_part(row['variant'])}_{row['tiebreak']}{_flags(row)}",
                          "seat_win_share", f"Win share per seat against the fair share: {what}.",
                          kwargs={"settings": labels}))
    for labels in _groups(meta, ("variant", "strategies_text")):
        labels = [lab for lab in labels if meta.at[lab, "tiebreak"] == meta.at[labels[0],
                                                                                "tiebreak"]]
        row = meta.loc[labels[0]]
        jobs.append(Chart(f"score_rescued_{name_part(row['strategies_text'])}_"
                          f"{name_part(row['variant'])}", "seat_score_rescued",
                          f"Mean score and rescued fraction per seat: {row['variant']}"
                          f"{_said(meta, row['strategies_text'])}.",
                          kwargs={"settings": labels}))
    return unique(jobs)


def ties(meta: pd.DataFrame) -> list[Chart]:
    """The tie rate and the chain's deciding steps; where the chain and the shared win were
    both counted, who the chain picks among the tied."""
    rules = [lab for lab in meta.index if meta.at[lab, "allocation"] in ("rules", "custom")]
    jobs = []
    for style in styles(meta):                  # one chart per style of play
        mine = [lab for lab in rules if meta.at[lab, "strategies_text"] == style]
        tag = f"_{name_part(style)}" if len(styles(meta)) > 1 else ""
        jobs.append(Chart(f"tie_rate_and_deciding_steps{tag}", "tie_decisions",
                          f"Top-score ties and the step of the chain that decided"
                          f"{_said(meta, style)}.", kwargs={"settings": mine}, optional=True))
    for lab in rules:
        m = meta.loc[lab]
        if m["tiebreak"] != "chain" or m["variant"] != "base":
            continue
        twin = [o for o in rules if o != lab and meta.at[o, "tiebreak"] == "shared"
                and all(meta.at[o, c] == m[c] for c in ("players", "variant", "boats_text",
                                                         "strategies_text"))]
        if twin:
            jobs.append(Chart(f"tie_transitions_p{m['players']}_"
                              f"{name_part(m['strategies_text'])}", "tiebreak_transitions",
                              f"Tied games at {m['players']} players"
                              f"{_said(meta, m['strategies_text'])}: who the chain picks.",
                              args=(twin[0], lab)))
    return unique(jobs)


def variants(meta: pd.DataFrame) -> list[Chart]:
    """Each challenge and expansion against the base game, per player count and style."""
    jobs = []
    for players, style in ((p, st) for p in sorted(set(meta["players"]))
                           for st in styles(meta)):
        labels = [lab for lab in meta.index if meta.at[lab, "players"] == players
                  and meta.at[lab, "allocation"] == "rules"
                  and meta.at[lab, "strategies_text"] == style]
        own = [lab for lab in labels
               if meta.at[lab, "tiebreak"] == ("chain" if players >= 5 else "shared")]
        plays = {(frozenset(meta.at[lab, "challenge_set"]) - {3}, meta.at[lab, "squid"],
                  meta.at[lab, "squid_only"]) for lab in own}
        if len(plays) < 2:                  # Challenge 3 changes the scoring, not the game
            continue
        for name, fn, what in (("game_length", "game_length", "game length"),
                               ("rescued_per_game", "rescued_per_game", "explorers rescued"),
                               ("losses_by_cause", "losses_by_cause",
                                "explorers lost by cause"),
                               ("end_reasons", "end_reasons", "how games end"),
                               ("turn_capped", "turn_capped", "turn-capped games")):
            jobs.append(Chart(f"{name}_p{players}_{name_part(style)}", fn,
                              f"{players} players{_said(meta, style)}, each variant against "
                              f"the base game: {what}.", kwargs={"settings": own}))
    return unique(jobs)


def details(meta: pd.DataFrame, tidy: pd.DataFrame) -> list[Chart]:
    """One setting's score distributions per player count, and the paired differences of
    every setting that shares its games with it."""
    jobs = []
    for players in sorted(set(meta["players"])):
        labels = [lab for lab in meta.index if meta.at[lab, "players"] == players]
        first = labels[0]
        jobs.append(Chart(f"score_distribution_{name_part(first)}", "score_distributions",
                          f"Score distributions per seat: {first}.", args=(first,)))
        pairs = tidy[tidy["setting"].astype(str).str.startswith(first + " vs ")
                     & (tidy["metric"] == "diff_win_share")]
        if len(pairs):
            jobs.append(Chart(f"paired_differences_vs_{name_part(first)}",
                              "paired_differences",
                              f"Paired differences against {first}, on the same games.",
                              kwargs={"reference": first}))
    return unique(jobs)


SKILL_STUDY = "skill-trace"
SKILL_CLAIMS = ("S5", "S5b")
SKILL_LEVELS = 3                    # as S5's scopes: a trend needs three levels


def _skill_tables(meta: pd.DataFrame, study: str | None, claims) -> dict:
    """The tables of a skill trace: at least ``SKILL_LEVELS`` self-play levels, in a run that
    says its list of strategies is a skill order (the skill-trace study, or one that names
    S5 or S5b); a list of styles (five-six's greedy, careful, racer) is not one."""
    if study != SKILL_STUDY and not set(SKILL_CLAIMS) & set(claims or ()):
        return {}
    return skill_tables(meta, min_levels=SKILL_LEVELS)


def skill(meta: pd.DataFrame, study: str | None = None, claims=()) -> list[Chart]:
    """Seat balance against skill: one trace per boat allocation (a panel per player count),
    then seat 1's excess against each level's measured strength."""
    tables = _skill_tables(meta, study, claims)
    labels = [lab for v in tables.values() for lab in v]
    jobs = []
    for alloc in dict.fromkeys(meta.at[lab, "allocation"] for lab in labels):
        mine = [lab for lab in labels if meta.at[lab, "allocation"] == alloc]
        counts = sorted({int(meta.at[lab, "players"]) for lab in mine})
        jobs.append(Chart(f"skill_trace_{name_part(alloc)}", "skill_trace",
                          f"Seat win share against skill level, self-play, {alloc} boats at "
                          f"{', '.join(map(str, counts))} players; seat 1's excess over 1/N "
                          f"below.", kwargs={"settings": mine}))
    if labels:
        jobs.append(Chart("skill_strength", "skill_strength",
                          "Seat 1's excess over 1/N against the level's measured strength "
                          "(head to head against expert).", kwargs={"settings": labels},
                          optional=True))
    return unique(jobs)


def skill_text(meta: pd.DataFrame, tidy: pd.DataFrame, study: str | None = None,
               claims=()) -> list[str]:
    """What the skill section's charts show, for whom, and on how many games."""
    tables = _skill_tables(meta, study, claims)
    labels = [lab for v in tables.values() for lab in v]
    levels = list(dict.fromkeys(level_name(meta.at[lab, "strategies_text"]) for lab in labels))
    n = tidy.loc[(tidy["metric"] == "win_share") & tidy["setting"].isin(labels), "n"]
    lo, hi = (int(n.min()), int(n.max())) if len(n) else (0, 0)
    games = f"{lo:,}" if lo == hi else f"{lo:,}\u2013{hi:,}"
    return [f"Does the first seat's edge grow as the bots get stronger? Self-play at each "
            f"skill level, in the order the study lists them, weakest first: "
            f"{', '.join(levels)} ('search B': the search rung at budget B). First each "
            f"seat's share of the wins (ties split under the table's own tie-break) with its "
            f"95% interval against the fair share 1/N, seat 1's excess over 1/N in bold "
            f"below; then that excess against the level's measured strength, the share of "
            f"games it finishes above expert head to head (experiments/skill_strength.csv, "
            f"made by examples/skill_strength.py; levels it lacks are left out and named). "
            f"n = {games} games per level and table, the same game indices at every level. "
            f"For these bots only: the levels are programs, and a trend over them says how "
            f"seat order rewards stronger play of this kind, not how it rewards people."]
