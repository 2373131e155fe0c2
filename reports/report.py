"""A run folder -> its report: statistics, verdicts, charts and one page (``survive-sim report``).

The run is read once, chunk by chunk, by ``experiments.verdicts.analysis`` (its memory does not grow
with the games): the tidy statistics (``experiments.tables.stats``), the verdicts of the claims the
study names (``experiments.verdicts.table``) and every chart's numbers come from those sums. Here
the report only decides what to show: which charts (``reports.sections``; drawn on every core by
``reports.render``), the summary in words (``reports.headline``), the tables, and the page
(``reports.page``, written atomically). Which charts appear depends on what the run holds:
seat balance for every group of settings that differ only in the player count and the boats;
ties and the tie-break where both rules were counted; challenges and expansions where a player
count has variants of the base game.
"""
from __future__ import annotations

import json
import os
import re
import time
from dataclasses import dataclass
from importlib.resources import files
from pathlib import Path

import pandas as pd

from experiments.store import outputs
from experiments.verdicts.analysis import analyse
from experiments.verdicts.claims import CLAIMS, UNITS
from experiments.verdicts.exhibits import tables as exhibit_tables
from experiments.verdicts.looks import judge_run, sensitivity
from experiments.store.provenance import commit_text
from experiments.tables.rotations import pooled_label, rotation_of, rotations
from experiments.store.runs import RunError, RunFolder
from experiments.store.runs import versions as run_versions
from experiments.verdicts.table import LADDER_RULE, STRONG_RULE, expected_false, public
from experiments.store.watch import watching
from experiments.store.workers import Pool, cores
from play.settings import Settings, SettingsError
from replays.draw.scene import scene
from replays.draw.style import SEAT_NAMES
from replays.viewer.page import board_picture, build_page
from reports import exhibits as exhibits_
from reports import headline, komi_section, page
from reports import sections as sections_
from reports import verdict_notes
from reports.render import render


@dataclass
class Result:
    path: Path                       # index.html
    figures: int
    tables: int
    partial: bool
    verdicts: pd.DataFrame | None


def _say(log, text):
    if log:
        log(text)


# ------------------------------------------------------------------------------ verdicts
SHARE_CLAIMS = ("S1", "S1b", "S1c", "N3", "T1")


def _effect(r) -> str:
    """A verdict row's effect and interval as people read them."""
    if pd.isna(r.effect):
        return "–"
    unit = CLAIMS[r.claim].unit if r.claim in CLAIMS else ""
    if unit:                                    # a claim that states its unit
        k, suffix, signed = UNITS[unit]
        f = "+.2f" if signed else ".2f"
        if pd.isna(r.low):
            return f"{k * r.effect:{f}}{suffix}"
        return f"{k * r.effect:{f}}{suffix} [{k * r.low:{f}}, {k * r.high:{f}}]"
    if r.claim == "N1":
        return f"{int(r.effect)} of 3 measures"
    if r.claim == "S1c":                        # a share of the spread removed
        if pd.isna(r.low):
            return f"{100 * r.effect:.0f}% removed"
        return f"{100 * r.effect:.0f}% [{100 * r.low:.0f}, {100 * r.high:.0f}] removed"
    k, unit, sign = (100, " pp", "+") if r.claim in SHARE_CLAIMS else \
        (100, "%", "") if r.claim == "T2" else (1, " explorers", "+")
    if pd.isna(r.low):
        return f"{k * r.effect:{sign}.2f}{unit}"
    return f"{k * r.effect:{sign}.2f}{unit} [{k * r.low:{sign}.2f}, {k * r.high:{sign}.2f}]"


def verdict_view(v: pd.DataFrame) -> pd.DataFrame:
    """The verdict table as people read it: effect and interval in percentage points where the
    metric is a share, the look (and whether its interval is anytime-valid), the games at which
    a settled row settled and the games that would settle an open one."""
    ladder = "play" in v.columns and v["play"].nunique() > 1
    extra = {"play": v["play"], "across the ladder": v["across_ladder"]} if ladder else {}
    if ladder and "strong_play" in v.columns and v["strong_play"].astype(bool).any():
        extra["for strong play"] = v["strong_play"]
    look = [f"{n} ({'anytime-valid' if 'anytime' in str(kind) else 'fixed'})"
            for n, kind in zip(v["looks"], v["interval"])]
    within = {}
    if "fair_within" in v.columns and v["fair_within"].notna().any():
        within = {"fair within": [f"±{100 * w:.2f} pp" if pd.notna(w) else ""
                                  for w in v["fair_within"]]}
    return pd.DataFrame({
        "claim": v["claim"], **extra, "scope": v["scope"], "verdict": v["verdict"],
        "effect [95% CI]": [_effect(r) for r in v.itertuples()], **within,
        "n": v["n"].map(lambda n: f"{n:,}"), "look": look,
        "settled at": v["settled_at"].map(lambda g: "" if pd.isna(g) else f"{g:,}"),
        "games to settle": v["games_needed"].map(lambda g: "" if pd.isna(g) else f"{g:,}")})


def verdict_text(v: pd.DataFrame) -> str:
    """The verdict table for the terminal: one line per claim and scope."""
    shown = verdict_view(v)
    kinds = sorted(set(v["interval"]))
    lines = [f"verdicts (rules in the report; intervals {' and '.join(kinds)}; "
             f"look {int(v['looks'].max())}):"]
    for r in shown.to_dict("records"):
        settle = r["games to settle"]
        more = f"; {settle} games would settle it" if settle else ""
        play = f"{r['play']}: " if "play" in r else ""
        fair = f"; fair within {r['fair within']}" if r.get("fair within") else ""
        lines.append(f"  {r['claim']:<4} {r['verdict']:<12} {r['effect [95% CI]']:<30} "
                     f"n={r['n']:<9} {play}{r['scope']}{fair}{more}")
    if "wrong_at_most" in v.columns:
        found, expected = expected_false(v)
        lines.append(f"  {found} of {len(v)} rows are findings; at their stated rates at most "
                     f"{expected:.2f} are expected to be false (every verdict is about the bot "
                     f"styles played, not people)")
    for column, heading in (("across the ladder", "across the ladder:"),
                            ("for strong play",
                             "for strong play (the search rung at every budget played):")):
        if column not in shown.columns:
            continue
        lines.append(heading)
        width = max(len(str(x)) for x in shown[column]) + 1
        seen = set()
        for r in shown.to_dict("records"):
            if (r["claim"], r["scope"]) in seen or not r[column]:
                continue
            seen.add((r["claim"], r["scope"]))
            lines.append(f"  {r['claim']:<4} {r[column]:<{width}} {r['scope']}")
    return "\n".join(lines)


# ------------------------------------------------------------------------------ tables
def _seat_table(tidy: pd.DataFrame) -> pd.DataFrame:
    """Per setting and seat: the own-rule win share and the other counts, as text."""
    t = tidy[tidy["seat"].notna()]
    wide = {}
    for metric in ("win_share", "outright", "top_tie", "mean_score", "rescued_fraction"):
        rows = t[t["metric"] == metric]
        pct = metric != "mean_score"
        k = 100 if pct else 1
        wide[metric] = {(r.setting, int(r.seat)): f"{k * r.value:.2f} [{k * r.low:.2f}, "
                        f"{k * r.high:.2f}]" for r in rows.itertuples()}
        wide.setdefault("n", {}).update({(r.setting, int(r.seat)): f"{int(r.n):,}"
                                         for r in rows.itertuples()})
    keys = list(wide["win_share"])
    return pd.DataFrame({"setting": [k[0] for k in keys], "seat": [k[1] + 1 for k in keys],
                         "win share % (own rule)": [wide["win_share"][k] for k in keys],
                         "outright wins %": [wide["outright"].get(k, "") for k in keys],
                         "shared top %": [wide["top_tie"].get(k, "") for k in keys],
                         "mean score": [wide["mean_score"].get(k, "") for k in keys],
                         "rescued %": [wide["rescued_fraction"].get(k, "") for k in keys],
                         "n": [wide["n"][k] for k in keys]})


SOURCES = {"D": "the rulebook", "R": "a published review", "P": "players",
           "H": "a hypothesis"}
METHOD = [
    "Every game is a pure function of (seed, game index, settings); the settings of one sweep "
    "share the seed game by game (common random numbers), so their differences are paired.",
    "Intervals are 95%. Proportions (outright wins, ties, deciding steps): Wilson score "
    "intervals. Win shares with ties split 1/k: Wilson on the tie-split count. Means of bounded "
    "per-game quantities (score, rescued fraction, turns): the t interval while the games vary "
    "and it stays inside the range, else the Wilson interval of the mean scaled to its range. "
    "Paired differences: paired t over the games both settings played.",
    "Seat uniformity: the chi-square goodness-of-fit test of the tie-split win counts (scipy), "
    "conservative because split counts vary less than the multinomial it assumes, with p-values "
    "adjusted across the grid by Holm (statsmodels).",
    "A verdict is computed from the games by the claim's stated rule (the `rule` column of "
    "`verdicts.csv`; docs/verdicts.md), reading the 95% interval printed beside it, with the "
    "game index as the unit (a mixed table's rotations averaged within the index first): a "
    "direction is supported only when its interval lies beyond the claim's tolerance, the "
    "smallest effect that matters, and is negligible when it is real but inside it; a claim of "
    "balance is supported only by an equivalence test (TOST on every part) against the "
    "tolerance, never by a test that failed to find a difference; an inconclusive verdict gives "
    "the games at which the next look settles it with 80% power at the effect observed.",
    "Looks: the run's first judgment reads fixed-sample intervals; every later judgment of "
    "the same run at more games (and every round of `study --until-settled`) reads "
    "anytime-valid confidence sequences, and keeps each verdict an earlier look settled, so "
    "each kind of wrong conclusion stays under 5% however often the run is extended.",
    "A mixed table is played in every rotation of its seating on the same games (each seat "
    "holds each strategy equally often) and its rotations are pooled into one setting, so a "
    "seat's numbers are the seat's, not the strategy's that sat there.",
    "A run played by several styles (a strategy axis) is judged once per style, each on its own "
    "settings; then " + LADDER_RULE + "; and " + STRONG_RULE + ".",
]


# ------------------------------------------------------------------------------ sample games
SAMPLE_GAME = 0                      # the game of each setting the report shows


def _sample_key(settings: dict) -> str:
    """Settings that differ only in the tie-break play byte-identical games
    (``experiments.sweeps.spec.Point.game_key``), and the rotations of a mixed table are pooled into
    one setting (``experiments.tables.rotations``): one sample game serves each such group."""
    d = {k: v for k, v in settings.items() if k != "tiebreak"}
    names = tuple(d.pop("strategies", ()))
    rotated = rotation_of(names)
    d["strategies"] = list(rotated[0] if rotated else names)
    return json.dumps(d, sort_keys=True)


def _shown_names(points: list[dict]) -> dict[str, str]:
    """Each setting's name as the report shows it: a complete set of rotations of one mixed
    table is one setting, ``<rotation 0's label> (all k rotations)``
    (``experiments.tables.rotations.pool_table``)."""
    sets: dict[tuple, dict[int, str]] = {}
    for p in points:
        rot = rotation_of(tuple(p["settings"]["strategies"]))
        if rot:
            rest = json.dumps({k: v for k, v in p["settings"].items() if k != "strategies"},
                              sort_keys=True)
            sets.setdefault((rest, rot[0]), {})[rot[1]] = p["label"]
    out = {p["label"]: p["label"] for p in points}
    for (_, canonical), by_r in sets.items():
        if sorted(by_r) == list(range(len(rotations(canonical)))):
            out.update({label: pooled_label(by_r[0], len(by_r)) for label in by_r.values()})
    return out


def _sample_game(job: tuple) -> page.Game | None:
    """One sample game replayed and drawn: ``(point, labels, rotated, seed)``; None when it
    cannot be replayed here (e.g. a plug-in strategy not loaded in this process)."""
    # the engine (numba, +0.6 s measured) only in the process that replays a sample game
    from play.record import game_log

    point, labels, rotated, seed = job
    try:
        game = game_log(Settings.from_dict(point["settings"]), seed, SAMPLE_GAME)
    except (SettingsError, RuntimeError, KeyError, ValueError):
        return None
    events = game["events"]
    setup = next((e["i"] for e in events if e["type"] == "turn_start"), len(events)) - 1
    end, record = len(events) - 1, game["record"]
    seats = game["settings"]["seats"]
    scores = ", ".join(f"{SEAT_NAMES[k]} {record.get(f'score_{k}')}" for k in range(seats))
    also = (f" (the same game as {', '.join(f'`{x}`' for x in labels[1:])}: the same "
            f"boats, differing only in the tie-break or the allocation's name)"
            if len(labels) > 1 else "")
    if rotated:
        also += (f"; the game of its first rotation, seats from 0: "
                 f"{', '.join(point['settings']['strategies'])}")
    caption = (f"**{labels[0]}**{also}: game {SAMPLE_GAME} of seed {seed}, {end} events, "
               f"{events[-1]['turn']} turns, ended by {record.get('end_reason')}; scores by "
               f"colour (seat order): {scores}. Click a board to step through the game "
               f"from there.")
    return page.Game(
        re.sub(r"[^a-z0-9_-]+", "-", point["label"].lower()).strip("-") or "game",
        build_page(game),
        [page.Picture("setup", board_picture(scene(game, setup)), setup,
                      f"after setup (event {setup})"),
         page.Picture("end", board_picture(scene(game, end)), end,
                      f"at the end (event {end}, turn {events[-1]['turn']})")], caption)


def _games_section(manifest, log=None, watch=None, pool: Pool | None = None,
                   played: set | None = None):
    """Game ``SAMPLE_GAME`` of every setting, replayed: the board after the last setup event
    and after the last event (``replays.draw``), each picture a link to the game's viewer page
    (``replays.viewer``) at that moment; replayed by ``pool``'s processes when it has several.
    A partial run's settings with no game finished (not in ``played``, labels) are named, not
    shown: the run has not played their game. ``None`` when no setting can be replayed here."""
    t0 = time.perf_counter()
    seed = manifest["identity"]["seed"]
    everything = manifest["identity"]["points"]
    shown = _shown_names(everything)
    shared: dict[str, list[dict]] = {}
    for point in everything:
        shared.setdefault(_sample_key(point["settings"]), []).append(point)
    jobs, names_of, unplayed = [], [], []
    for group in shared.values():
        names = list(dict.fromkeys(shown[p["label"]] for p in group))
        if played is not None and not any(p["label"] in played for p in group):
            unplayed += names
            continue
        rotated = names[0] != group[0]["label"] and names[0].endswith(" rotations)")
        # a pooled table's sample is its rotation 0 (the label its name starts with)
        point = next((p for p in group if rotated and names[0].startswith(p["label"] + " ")),
                     group[0])
        jobs.append((point, [shown[point["label"]]] + names[1:], rotated, seed))
        names_of.append(names)
    w = watching(watch)
    w.begin(f"replaying and drawing {len(jobs)} sample games", total=len(jobs), unit="game")
    made = (pool.ordered(_sample_game, jobs) if pool is not None and pool.n > 1
            and len(jobs) > 1 else (_sample_game(j) for j in jobs))
    games, missing = [], []
    for game, names in zip(made, names_of):
        w.update(1)
        if game is None:
            missing += names                    # e.g. a plug-in strategy not loaded here
        else:
            games.append(game)
    if not games:
        return None
    _say(log, f"report: {len(games)} sample games replayed and drawn "
              f"({time.perf_counter() - t0:.1f} s)")
    text = [f"Game {SAMPLE_GAME} of each setting, replayed from the run's seed: the board once "
            "every explorer and boat is placed, and at the end. Each picture links to the "
            "game's viewer page (`games/`), which steps through every event with the buttons, "
            "the arrow keys or the slider, beside the event's text, the scores and the rule it "
            "applies."]
    if missing:
        text.append(f"Not replayed here (their strategies are not loaded in this process): "
                    f"{', '.join(f'`{x}`' for x in missing)}.")
    if unplayed:
        text.append(f"Not shown: {len(unplayed)} settings with no game finished yet in this "
                    f"partial run ({', '.join(f'`{x}`' for x in unplayed[:6])}"
                    f"{', ...' if len(unplayed) > 6 else ''}).")
    return page.Section("Sample games", text, games=games)


def _needed(v: pd.DataFrame) -> str:
    """The games each claim needed, for a run judged at anytime-valid looks only (played
    until settled)."""
    parts = []
    for cid, g in v[v["n"] > 0].groupby("claim", sort=False):
        done = g["settled_at"].dropna().astype(int)
        span = "" if done.empty else (f"{done.min():,}" if done.min() == done.max()
                                      else f"{done.min():,}-{done.max():,}")
        still = int(g["settled_at"].isna().sum())
        parts.append(f"{cid} {span or 'none settled'}"
                     + (f" ({still} open at {int(g['n'].max()):,})" if still else ""))
    return ("Played until settled (anytime-valid looks): games per setting each claim's "
            "verdicts needed -- " + "; ".join(parts) + ".")


def _changes(study: str | None) -> pd.DataFrame | None:
    """The verdicts of a shipped study that moved when the rules changed (packaged data)."""
    table = pd.read_csv(files("experiments") / "verdict_changes.csv")
    mine = table[table["study"] == study].drop(columns=["study"])
    return mine.reset_index(drop=True) if len(mine) else None


# ------------------------------------------------------------------------------ the report
def check_apart(run, out) -> None:
    """``ValueError`` (one line) when the report folder ``out`` is the run folder, is inside
    it (the run's reader would take it for part of the run) or holds it (the swap would
    carry the run away)."""
    name = os.path.basename(os.path.realpath(os.fspath(run)))
    outputs.check_apart(run, out, "run folder", "report folder", f"{name}-report beside it")


def build_report(run, out, log=None, games: int | None = None, *, scheduler=None,
                 workers: int | None = None, watch=None) -> Result:
    """Write the report of the run folder ``run`` into ``out`` (atomically: a temporary folder
    renamed into place). The run is read once, chunk by chunk (``experiments.verdicts.analysis``:
    memory does not grow with the games; ``scheduler``/``workers`` as there), for the
    statistics, the charts and the verdicts; the run is read, the charts drawn and the sample
    games replayed by ``workers`` processes (``experiments.store.workers``; default one per core).
    ``games``: only the first ``games`` games of each setting. ``watch``
    (``experiments.store.watch``) sees each phase and its progress; ``log`` gets a line as each
    ends. ``RunError`` / ``ValueError`` (one line) for a folder that is not a run, an empty
    run, or an output that cannot be written -- or that another process is writing (its lock,
    ``experiments.store.outputs.folder_lock``, taken before any work and held to the end)."""
    t0 = time.perf_counter()
    check_apart(run, out)
    page.check_target(out)                      # before any work: where the page goes
    manifest = RunFolder(Path(run)).read_manifest()
    if manifest is None:
        raise RunError(f"{run} is not a run folder")
    claims = manifest.get("claims") or {}
    with outputs.folder_lock(out, "report"), Pool(cores(workers)) as pool:
        return _build(run, out, log, games, scheduler, workers, watching(watch), pool,
                      manifest, claims, t0)


def _build(run, out, log, games, scheduler, workers, w, pool, manifest, claims, t0) -> Result:
    result = analyse(run, games=games, claims=claims or None, scheduler=scheduler,
                     workers=workers, watch=w, pool=None if scheduler else pool,
                     charts=lambda meta: {lab for job in sections_.variants(meta)
                                          for lab in job.kwargs["settings"]})
    account = result.account
    have, want = (sum(h for h, _ in account.values()),
                  sum(asked for _, asked in account.values()))
    _say(log, f"report: {have:,} games of {len(account)} settings read "
              f"({time.perf_counter() - t0:.1f} s)")
    w.begin("statistics and verdicts")
    t_stats = time.perf_counter()
    tidy = result.tidy()
    v = judge_run(run, claims, games=games, log=log, analysis=result) if claims else None
    sens = sensitivity(run, claims, result, games=games, log=log) if claims else None
    _say(log, f"report: statistics and {0 if v is None else len(v)} verdicts "
              f"({time.perf_counter() - t_stats:.1f} s)")
    run_path, run = run, result
    meta = result.meta
    notes = []
    if have < want:
        short = [f"{lab} {h:,}/{w:,}" for lab, (h, w) in account.items() if h < w]
        notes.append(f"PARTIAL RUN: {have:,} of {want:,} games finished (the sweep is still "
                     f"going or was interrupted); every number below is of the games finished. "
                     f"Short: {', '.join(short[:6])}{' ...' if len(short) > 6 else ''}")
    if v is not None and (v["interval"] == "95% anytime-valid").all():
        notes.append(_needed(v))
    if games is not None and games < manifest["games"]:
        notes.append(f"Every number below is of the first {games:,} games of each setting "
                     f"(the run holds up to {manifest['games']:,}).")
    played, now = manifest.get("versions", {}), run_versions()
    made = (f"survive-sim {played.get('survive-sim')}, {commit_text(played)}")
    mine = f"survive-sim {now.get('survive-sim')}, {commit_text(now)}"
    subtitle = (f"{manifest.get('description') or manifest.get('name')}: "
                f"{len(account)} settings, {manifest['games']:,} games each (seed "
                f"{manifest['identity']['seed']}); played by {made}, engine "
                f"{manifest.get('engine')}"
                + ("" if mine == made else f"; this report by {mine}"))
    sections = []
    if v is not None:
        tests = v.groupby("claim", sort=False)["test"].first()
        sections.append(page.Section("The claims", [
            f"**{c}** ({SOURCES[CLAIMS[c].source]}): {CLAIMS[c].said} **Question:** "
            f"{CLAIMS[c].question} **Measure:** {CLAIMS[c].measures}. **Test:** {tests[c]}. "
            f"**Rule:** {CLAIMS[c].rule}. **Multiplicity:** {CLAIMS[c].family}."
            for c in dict.fromkeys(v["claim"])]))
    claims_section, claim_jobs = exhibits_.section(exhibit_tables(result.catalog, claims)
                                          if v is not None else [])
    study = manifest.get("name")
    jobs = {"seats": sections_.seats(meta), "skill": sections_.skill(meta, study, claims),
            "ties": sections_.ties(meta),
            "variants": sections_.variants(meta), "details": sections_.details(meta, tidy),
            "claims": claim_jobs}
    t1 = time.perf_counter()
    every = [j for part in jobs.values() for j in part]
    w.begin(f"drawing {len(every)} charts", total=len(every), unit="chart")
    drawn = {f.name: f for f in render(every, run, pool,
                                       done=lambda k, n: w.update(1))}
    figures = {k: [drawn[j.name] for j in part if j.name in drawn] for k, part in jobs.items()}
    _say(log, f"report: {len(drawn)} charts drawn in {time.perf_counter() - t1:.1f} s "
              f"({(time.perf_counter() - t1) / max(len(drawn), 1):.2f} s each)")
    if claims_section is not None:
        claims_section.figures = figures["claims"]
        sections.append(claims_section)
    sections.append(page.Section("Seat balance", [
        "Each seat's share of the wins, a tie split 1/k among its k winners, with its 95% "
        "interval, against the fair share 1/N; then each seat's mean score and the fraction "
        "of its explorers rescued."], figures=figures["seats"]))
    if figures["skill"]:
        sections.append(page.Section("Seat balance across skill levels", sections_.skill_text(
            meta, tidy, study, claims), figures=figures["skill"]))
    komi = komi_section.section(run_path, meta, games, pool, lambda t: _say(log, t), w)
    if komi is not None:
        sections.append(komi)
    ties = figures["ties"]
    if ties:
        sections.append(page.Section("Ties and tie-breaks", [
            "How often the top score is shared, which step of the 5-6 player chain (most "
            "explorers rescued, then with Challenge 3 the value rescued, then fewest turns) "
            "decides, and where the wins of tied games go when the chain counts them."],
            figures=ties))
    variants = figures["variants"]
    if variants:
        sections.append(page.Section("Challenges and expansions", [
            "Each challenge and expansion against the base game at the same player count: "
            "game length, explorers rescued and lost by cause, how games end."],
            figures=variants))
    sections.append(page.Section("Distributions and paired differences", [
        "Score distributions of one setting per player count, and the paired differences of "
        "win share and score against it on the same games."],
        figures=figures["details"]))
    sample = _games_section(manifest, log, w, pool,
                            played={lab for lab, (h, _) in account.items() if h > 0})
    if sample is not None:
        sections.append(sample)
    sections.append(page.Section("Statistics", [
        "Per setting and seat (seat 1 moves first). The full tidy table (`setting, seat, "
        "metric, value, low, high, n, method`) is `tables/stats.csv`, as `survive-sim stats "
        "--out` writes it."],
        tables=[page.Table("seats", _seat_table(tidy), "Seat statistics, 95% intervals.",
                           max_rows=60),
                page.Table("stats", tidy, "All statistics (tidy).", show=False)]))
    changes = _changes(manifest.get("name"))
    if changes is not None:
        sections.append(page.Section("What changed in the verdicts", [
            "On 2026-12-02 the verdict rules changed (docs/verdicts.md): a direction is "
            "supported only beyond its tolerance (a real effect inside it is `negligible`); "
            "the game index is the unit everywhere, so a mixed table's rotations are averaged "
            "within the index and its n is the indices; S1 also asks whether seat 1 wins more "
            "than 1/N; S1c measures the share of flat boats' squared seat spread the rules' "
            "boats remove; N1's fairness is the spread of every seat; N3 is paired and leaves "
            "out mixed tables whose mix changes; T1 is judged where the chain is the rule; "
            "corrections state their family; a run judged again after it grew reads "
            "anytime-valid intervals. On the shipped study's games at 20,000 per setting, "
            "these verdicts moved (every other one is as before):"],
            tables=[page.Table("verdict_changes", changes, "Verdicts that moved: old rule, "
                               "new rule, and why.")]))
    shown_sens = verdict_notes.sensitivity_view(sens)
    if shown_sens is not None:
        sections.append(page.Section("How the verdicts depend on the tolerance", [
            "The claims whose tolerance is a win share, judged again on the same games and "
            "look at ±0.5, 1, 2 and 3 percentage points: how much each verdict owes to the "
            "tolerance the study states. This is a view, not the verdicts: the verdict table "
            "above is judged at the tolerances stated before the run (its `tolerance` "
            "column), and this view is recorded in the run's look log as one look of its "
            "own. 'Fair within' is the smallest tolerance a balance claim's seats pass at "
            "once (an upper confidence bound on the farthest seat's distance)."],
            tables=[page.Table("verdicts_sensitivity", shown_sens,
                               "Verdicts at other tolerances (a view; the stated verdicts "
                               "are above).", max_rows=80)]))
    method = list(METHOD)
    apart = None
    if v is not None:
        method.insert(0, verdict_notes.bots_note(v))
        apart = verdict_notes.styles_apart(v)
    sections.append(page.Section("How the numbers are made", method, tables=[] if apart is None
                                 else [page.Table("styles_apart", apart.drop(columns="_span"),
                                                  "How far apart the bot styles are: each "
                                                  "claim's lowest and highest effect across "
                                                  "the styles played.", max_rows=60)]))
    title = f"survive-sim report: {manifest.get('name', result.run.name)}"
    report = page.Report(title, subtitle, notes, verdicts=None if v is None else public(v),
                         sections=sections,
                         verdicts_shown=None if v is None else verdict_view(v),
                         summary=headline.summary(tidy, meta, v),
                         verdict_notes=[] if v is None else
                         [verdict_notes.findings_note(v), verdict_notes.bots_note(v)])
    nfig = sum(len(s.figures) for s in sections)
    w.begin(f"writing {out}")
    path = page.write_report(report, out)
    ntab = nfig + sum(len(s.tables) for s in sections)
    _say(log, f"report: written in {time.perf_counter() - t0:.1f} s")
    return Result(Path(path), nfig, ntab, have < want, v)
