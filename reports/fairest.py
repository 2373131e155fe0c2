"""The report of a search for the fairest boat allocation (``experiments.fairest``): the
conclusions first, then per player count a chart of every allocation's measure against the
allocation, where the race left each one, where the named allocations stand, and the
confirmation on fresh games, seat by seat; the method last.

Every number shown carries its interval and n (game indices); the verdicts come from the
confirmation's stated rule (``experiments.fairest.results``), never typed in.
"""
from __future__ import annotations

import math
import os

import numpy as np
import pandas as pd

from experiments.fairest.results import FAIR, OPEN, UNFAIR, Search
from experiments.fairest.space import NAMED, SPACES, parse_space

from .charts import style
from .page import Figure, Report, Section, Table, write_report

VERDICT_OF = {FAIR: "supported", UNFAIR: "refuted", OPEN: "inconclusive"}
KEPT, DROPPED = style.SERIES[0], "#9a9a9a"
NAMED_COLOURS = {k: style.ALLOCATION_COLOURS[k] for k in NAMED}


def _a(noun: str) -> str:
    """``an allocation``, ``a rule``."""
    return ("an " if noun[0] in "aeiou" else "a ") + noun


def _pp(x: float) -> str:
    return "–" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.2f}"


def _iv(v, lo, hi) -> str:
    return f"{_pp(v)} [{_pp(lo)}, {_pp(hi)}]"


# ------------------------------------------------------------------ charts
@style.chart
def measure_chart(search: Search, players: int):
    """Every allocation's largest seat gap |win share - 1/N| with its 95% interval, one panel
    per style, allocations in order of the gap; kept allocations filled, dropped ones hollow
    and grey; the named allocations marked; the tolerance dashed. Returns ``(figure, table)``."""
    table = search.table()
    table = table[table["players"] == players]
    styles = list(dict.fromkeys(table["style"]))
    w = search.noun
    width = max(8.0, 2.2 + 0.16 * table.groupby("style").size().max())
    # a rule's label (boats, komi, setup order: issue 41) is longer than a boat list's: the
    # vertical tick labels get the room they need
    longest = int(table["allocation"].astype(str).str.len().max()) if len(table) else 0
    c = style.Chart(width, (2.3 + 0.065 * max(0, longest - 11)) * len(styles))
    axes = c.body.subplots(len(styles), 1, squeeze=False)[:, 0]
    tol = search.spec.tolerance
    handles = {}
    for ax, name in zip(axes, styles):
        part = table[table["style"] == name].sort_values(["measure", "allocation"])
        x = np.arange(len(part))
        kept = (part["status"] == "kept").to_numpy()
        e = style.err(part["measure"], part["measure_low"], part["measure_high"]) * 100
        y = part["measure"].to_numpy() * 100
        for mask, colour, fill, label in ((kept, KEPT, KEPT, "kept by the race"),
                                          (~kept, DROPPED, "white", "dropped by the race")):
            if mask.any():
                h = ax.errorbar(x[mask], y[mask], yerr=e[:, mask], fmt="o", ms=4.5, lw=1,
                                color=colour, mfc=fill, mec=colour, capsize=0)
                handles[label] = h
        for i, named in enumerate(part["named"].fillna("")):
            # one allocation may be several named ones (4 players: all 2,2,2,2): nested rings
            for j, n in enumerate([s.strip() for s in str(named).split(",") if s.strip()]):
                h = ax.plot(x[i], y[i], marker="D", ms=8 + 4 * j, mfc="none",
                            mec=NAMED_COLOURS[n], mew=2, ls="none")[0]
                handles[f"{n} boats"] = h
        handles[f"tolerance ±{100 * tol:g} pp"] = ax.axhline(100 * tol, ls="--", lw=1,
                                                             color="#555555")
        ax.set_xticks(x, part["allocation"], rotation=90, fontsize=7.5,
                      family="monospace")
        ax.set_xlim(-0.8, len(part) - 0.2)
        ax.set_ylim(bottom=0)
        ax.set_ylabel("largest seat gap (pp)")
        lo, hi = int(part["n"].min()), int(part["n"].max())
        ax.set_title(f"{name}: {int(kept.sum())} of {len(part)} kept; n = "
                     + (f"{lo:,}" if lo == hi else f"{lo:,}–{hi:,}")
                     + f" game indices per {w}", loc="left", fontsize=style.LABEL_SIZE)
    what = ("rule (its boats seat 1 first, then any komi and setup order)" if w == "rule"
            else "per-seat boat list (seat 1 first)")
    fig = c.finish(
        f"How fair each {'rule' if w == 'rule' else 'boat allocation'} is, {players} players",
        f"Points: the largest distance of a seat's win share (ties split) from the fair share "
        f"1/{players}, in percentage points, for each {what}. Bars: "
        f"its 95% interval (every seat's anytime-valid interval at 5%/{players}, over game "
        f"indices). {w.capitalize()}s are ordered by the point within each style; n is the "
        f"game indices {_a(w)} played before the race kept or dropped it (every {w} "
        f"on the same indices). Dashed line: the tolerance of the confirmation.",
        handles)
    return fig, table


@style.chart
def confirmation_chart(search: Search, players: int):
    """The confirmed allocations on fresh games: each seat's win share minus 1/N with its
    interval at the confirmation's level, one panel per allocation, seats along x, one colour
    per style; the tolerance band shaded. Returns ``(figure, table)``."""
    conf = search.confirm_table()
    conf = conf[conf["players"] == players]
    every = list(dict.fromkeys(conf["allocation"]))
    allocs = _panels(conf, every)
    w = search.noun
    styles = list(dict.fromkeys(conf["style"]))
    cols = min(3, len(allocs))
    rows = -(-len(allocs) // cols)
    # a rule's label is long: its title takes two lines, the label and the count
    two = any(len(a) > 24 for a in allocs)
    c = style.Chart(4.0 * cols + 0.5, (2.95 if two else 2.6) * rows)
    axes = c.body.subplots(rows, cols, squeeze=False, sharey=True).ravel()
    tol = 100 * search.spec.tolerance
    handles = {}
    width = 0.8 / max(len(styles), 1)
    for ax, alloc in zip(axes, allocs):
        part = conf[conf["allocation"] == alloc]
        ax.axhspan(-tol, tol, color="#e8f1e8", zorder=0)
        ax.axhline(0, color="#555555", lw=0.8)
        for k, name in enumerate(styles):
            s = part[part["style"] == name]
            x = np.arange(len(s)) + (k - (len(styles) - 1) / 2) * width
            h = ax.errorbar(x, s["excess"] * 100, yerr=style.err(s["excess"], s["low"],
                                                                 s["high"]) * 100,
                            fmt=style.MARKERS[k % len(style.MARKERS)], ms=4, lw=1,
                            color=style.SERIES[k % len(style.SERIES)], capsize=0)
            handles[name] = h
        seats = len(part["seat"].unique())
        ax.set_xticks(range(seats), [str(i + 1) for i in range(seats)])
        ax.set_xlabel("seat")
        verdicts = {r.style: r.verdict for r in part.itertuples()}
        fair = sum(v == FAIR for v in verdicts.values())
        named = part["named"].iloc[0]
        ax.set_title(f"{alloc}" + (f" ({named})" if named else "") +
                     ("\n" if two else ": ") + f"fair for {fair} of {len(verdicts)}",
                     loc="left", fontsize=style.TICK_SIZE + 0.5)
    for ax in axes[len(allocs):]:
        ax.set_visible(False)
    for ax in axes[::cols]:
        ax.set_ylabel("win share − 1/N (pp)")
    handles[f"tolerance ±{tol:g} pp"] = axes[0].patches[0] if axes[0].patches else None
    handles = {k: v for k, v in handles.items() if v is not None}
    lo_n, hi_n = (int(conf["n"].min()), int(conf["n"].max())) if len(conf) else (0, 0)
    n_text = f"{lo_n:,}" if lo_n == hi_n else f"{lo_n:,} to {hi_n:,}"
    levels = sorted(set(conf["level"].round(6))) if len(conf) else [0.95]
    level_text = (f"{100 * levels[0]:.2f}%" if len(levels) == 1 else
                  f"{100 * levels[0]:.2f}-{100 * levels[-1]:.2f}%")
    rounds = search.spec.settle is not None
    fig = c.finish(
        f"The confirmation on fresh games, {players} players",
        f"Points: each seat's win share (ties split) minus the fair share 1/{players}, on "
        f"{n_text} fresh game indices per {w} and style (n), none of them played in "
        f"the race" + (f", in doubling rounds until the {w} was settled" if rounds
                       else "") + f". Bars: {level_text} intervals"
        + (" (anytime-valid)" if rounds else "") + ": the 5% error shared among the "
        f"{w}s confirmed in each style (Bonferroni). Shaded: the tolerance. "
        f"{_a(w).capitalize()} is fair for a style when every seat's bar lies inside it; a "
        f"style absent "
        f"from a panel had already shown that {w} unfair in its race."
        + ("" if len(allocs) == len(every) else
           f" Shown: {len(allocs)} of the {len(every)} {w}s confirmed -- the {PANELS} "
           f"confirmed in the most styles and, among those, with the farthest seat nearest "
           f"1/N, and the rules' own; every one is in the table."), handles,
        "style")
    return fig, conf


PANELS = 24                     # the most confirmed candidates a confirmation chart draws


def _panels(conf: pd.DataFrame, every: list[str]) -> list[str]:
    """The candidates the confirmation chart draws: all of them up to ``PANELS``; past that the
    ``PANELS`` confirmed in the most styles (the others' races had shown them unfair) and,
    among those, whose worst style's ``fair_within`` is smallest; and the rules' own (a named
    one); in the table's order."""
    if len(every) <= PANELS:
        return every
    g = conf.groupby("allocation").agg(styles=("style", "nunique"),
                                       worst=("fair_within", "max"))
    keep = set(g.sort_values(["styles", "worst"], ascending=[False, True]).index[:PANELS])
    keep |= set(conf.loc[conf["named"].fillna("") != "", "allocation"])
    return [a for a in every if a in keep]


# ------------------------------------------------------------------ the page
def _kept_table(search: Search, players: int) -> pd.DataFrame:
    t = search.table()
    t = t[(t["players"] == players) & (t["status"] == "kept")]
    return pd.DataFrame({
        "style": t["style"], "allocation": t["allocation"], "named": t["named"],
        "largest seat gap, pp [95%]": [_iv(*v) for v in zip(t["measure"], t["measure_low"],
                                                             t["measure_high"])],
        "chi-square": t["chi2"].round(1), "Ludii balance": t["ludii"].round(4),
        "turns per game [95%]": [f"{v:.1f} [{lo:.1f}, {hi:.1f}]" for v, lo, hi in
                                 zip(t["length"], t["length_low"], t["length_high"])],
        "rescued, % [95%]": [_iv(*v) for v in zip(t["rescued"], t["rescued_low"],
                                                  t["rescued_high"])],
        "n": t["n"]})


def _named_table(search: Search, players: int) -> pd.DataFrame:
    t = search.table()
    t = t[(t["players"] == players) & (t["named"].fillna("") != "")]
    return pd.DataFrame({
        "style": t["style"], "named": t["named"], "allocation": t["allocation"],
        "rank": t["rank"], "race": [("kept" if s == "kept" else f"dropped at {d:,} games")
                                    for s, d in zip(t["status"], t["dropped_at"])],
        "largest seat gap, pp [95%]": [_iv(*v) for v in zip(t["measure"], t["measure_low"],
                                                             t["measure_high"])],
        "n": t["n"]})


def verdict_tables(search: Search) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The confirmation's verdicts, one row per player count, style and allocation: as the
    CSV keeps them, and as the page shows them."""
    conf = search.confirm_table()
    rows, shown = [], []
    for (players, style_name, alloc), part in conf.groupby(["players", "style", "allocation"],
                                                           sort=False):
        worst = part.loc[part["excess"].abs().idxmax()]
        verdict = part["verdict"].iloc[0]
        need = part["games_needed"].iloc[0]
        rows.append({"claim": search.spec.claim, "players": players, "style": style_name,
                     "allocation": alloc, "named": part["named"].iloc[0],
                     "verdict": VERDICT_OF[verdict], "fair": verdict,
                     "fair_within": worst["fair_within"],
                     "effect": worst["excess"], "low": worst["low"], "high": worst["high"],
                     "n": int(worst["n"]), "games_needed": need})
        shown.append({"players": players, "style": style_name,
                      "allocation": alloc + (f" ({part['named'].iloc[0]})"
                                             if part["named"].iloc[0] else ""),
                      "verdict": VERDICT_OF[verdict],
                      "farthest seat, pp [interval]": f"{worst['seat']}: "
                      + _iv(worst["excess"], worst["low"], worst["high"]),
                      "fair within, pp": _pp(worst["fair_within"]),
                      "n": f"{int(worst['n']):,}",
                      "fresh games to settle": "" if pd.isna(need) else f"{int(need):,}"})
    return pd.DataFrame(rows), pd.DataFrame(shown)


def _conclusions_shown(c: pd.DataFrame) -> pd.DataFrame:
    point = [("" if not f else f"{f}: {_iv(m, lo, hi)} (n = {int(n):,})")
             for f, m, lo, hi, n in zip(c["fairest"], c["fairest_measure"], c["fairest_low"],
                                        c["fairest_high"], c["fairest_n"])]
    return pd.DataFrame({"players": c["players"], "style": c["style"],
                         "conclusion": c["conclusion"], "kept by the race": c["kept"],
                         "searched": c["searched"],
                         "fairest point: largest seat gap, pp [95%]": point})


def verdict_table(search: Search) -> pd.DataFrame:
    """The B3 verdicts (B4 in a rule space) as ``verdicts.csv`` keeps them: one row per player
    count, style and confirmed candidate, with the farthest seat's excess and interval."""
    return verdict_tables(search)[0]


def build(search: Search) -> Report:
    spec = search.spec
    conclusions = search.conclusions()
    verdicts, shown = verdict_tables(search)
    w = search.noun
    sections = [Section("Conclusions", paragraphs=[
        f"**Fair** means every seat's win share within 1/N ± {100 * spec.tolerance:g} "
        f"percentage points on fresh games (the confirmation); `supported` below is fair, "
        f"`refuted` is shown unfair, `inconclusive` is neither yet. "
        f"{_a(w).capitalize()} is fair for "
        f"every style only when it is fair for each. **Fair within** is the smallest tolerance "
        f"at which the confirmation would call it fair: the farthest any seat's interval "
        f"reaches from 1/N."],
        tables=[Table("conclusions", _conclusions_shown(conclusions),
                      "One row per player count and style, and across the styles",
                      max_rows=None)])]
    for players in spec.players:
        fig, data = measure_chart(search, players)
        cfig, cdata = confirmation_chart(search, players)
        sections.append(Section(f"{players} players", subsections=[
            Section(f"Every {w}", figures=[Figure(f"measure-p{players}", fig,
                                                  "The largest seat gap of every "
                                                  f"{w}, by style", data=data)]),
            Section("Where the named allocations stand", tables=[
                Table(f"named-p{players}", _named_table(search, players),
                      f"The rules' boats, flat and reversed: rank among the {w}s "
                      "searched (1 = fairest point), and whether the race kept them",
                      max_rows=None)]),
            Section(f"The {w}s the race could not tell from the fairest", paragraphs=[
                f"Each with game length and rescued fraction, so that a fairer {w}'s "
                "cost to the game shows too."], tables=[
                Table(f"kept-p{players}", _kept_table(search, players),
                      "Kept by the race, fairest first within each style", max_rows=40)]),
            Section("Confirmation on fresh games", figures=[
                Figure(f"confirmation-p{players}", cfig, "Each seat of each confirmed "
                       f"{w} against the fair share, by style", data=cdata)])]))
    sections.append(Section("Method", paragraphs=_method(search)))
    every = conclusions[conclusions["style"] == "every style"]
    summary = [f"{r.players} players: {r.conclusion}." for r in every.itertuples()]
    return Report(f"The fairest {'rule' if w == 'rule' else 'boat allocation'}: {spec.name}",
                  subtitle=spec.description or "", summary=summary,
                  notes=_notes(search), verdicts=verdicts, verdicts_shown=shown,
                  sections=sections)


def _space_words(space: str) -> str:
    """The method's words for the space searched: a boat space, or a rule space's levers."""
    boats = {"all": "every list of 0–3 boats per seat with at most 12 in all (RULES.md X1.5)",
             "monotone": "every list of 0–3 boats per seat with at most 12 in all, no seat "
                         "fewer than the seat before it (RULES.md X1.5)"}
    if space in SPACES:
        return (f"**Space.** {space} allocations: {boats[space]}, plus the rules', flat and "
                f"reversed boats.")
    s = parse_space(space)
    parts = [("the rules' boats (X1.1, X1.2)" if s["boats"] == "rules" else
              boats[s["boats"]] + ", plus the rules', flat and reversed boats"),
             ("no score bonus" if not s["komi"] else
              f"no score bonus, or any bonus per seat (komi, RULES.md C1) of 0 to {s['komi']:g} "
              f"points in half points, seat 1 none, no seat less than the seat before it"),
             ("the rules' setup order" if s["order"] == "forward" else
              "any of the nine setup orders (explorers' and boats' each forward, reverse or "
              "snake: RULES.md C2)")]
    return (f"**Space** ({space}). Every rule that combines {parts[0]}; {parts[1]}; and "
            f"{parts[2]}. A rule's label is its boats (seat 1 first), then its komi and setup "
            f"order where they move. **The simplest first:** fair rules are listed by how "
            f"many levers they move from the rules' own setup (boats, komi, setup order), so "
            f"that one which needs a single change comes before one that needs two.")


def _notes(search: Search) -> list[str]:
    return [f"{r.stop}: race of {players} players, {st.label}"
            for (players, st), r in search.races.items() if r.stop.startswith("budget")]


def _method(search: Search) -> list[str]:
    spec = search.spec
    first = next(iter(search.races.values()))
    sizes = ", ".join(f"{n:,}" for n in spec.sizes())
    w = search.noun
    return [
        _space_words(spec.space),
        f"**Race.** Every {w} plays the same game indices (common random numbers), "
        f"{sizes} per {w} after each round (a style's own cap where it has one). After "
        f"each round the rule is: {first.rule.words(w)}.",
        f"**Confirmation.** The {spec.confirm} fairest of every style that the race kept, and "
        f"the rules' {'own setup' if w == 'rule' else 'boats'}, play "
        f"{spec.confirm_games:,} fresh game indices (a root seed of "
        f"their own) in every style. Each is judged once: fair when every seat's interval, "
        f"at 95% Bonferroni-corrected over the {w}s confirmed for the player count and "
        f"style, lies inside 1/N ± {100 * spec.tolerance:g} pp (TOST per seat, "
        f"intersection-union); unfair when one seat's interval (corrected again over the "
        f"seats) lies wholly outside; else inconclusive, with the fresh games that would settle "
        f"it with 80% power in a new run (never more games added to these).",
        f"**No {w} fair.** One style's \"no {w} of the space is fair\" needs "
        f"every {w} shown unfair, by the race or on fresh games; it errs only if a fair "
        f"{w} is wrongly shown unfair, at most α(1 + 1/F) (α = {spec.alpha:g} for the "
        f"race, α/F on fresh games, F the {w}s confirmed), which each conclusion "
        f"states. Across the styles, \"none is fair for every bot style we play\" is a union "
        f"over the styles: it is said only when one style alone shows every {w} "
        f"unfair, or when each is shown unfair in some style with every test read at α/S "
        f"(Bonferroni over the S styles). 'Fair within ±X' beside each {w} is the "
        f"smallest tolerance its interval passes. The styles are bots of this package: none "
        f"of it is a claim about people.",
        *[f"**A style that only confirms.** {st.label} plays no race (too slow to race the "
          f"space): it confirms each racing style's {spec.confirm} fairest and the rules' "
          f"{'own setup' if w == 'rule' else 'boats'} on at most "
          f"{spec.confirm_sizes(st)[-1]:,} fresh game indices each, judged as the others, and "
          f"its verdicts join the answer across the styles." for st in spec.styles
          if not st.race],
        "**Measures beside the gap.** Chi-square: Pearson's statistic of the tie-split wins "
        "against 1/N each (descriptive: ties and rotations make the games no multinomial "
        "sample). Ludii balance: 1 − (largest seat share − smallest).",
        f"**Games.** {search.games_played:,} games played in this call, "
        + (f"{search.games_reused:,} more counted under another bonus on games a komi-blind "
           f"style had played (its moves do not change with the bonus, RULES.md C1.3), "
           if search.games_reused else "")
        + f"{search.games_read_back:,} read back from an earlier one; seed {spec.seed}.",
    ]


def write(search: Search, out: str | os.PathLike) -> os.PathLike:
    """Write the search's report folder (``index.html``, ``index.md``, figures, tables,
    ``verdicts.csv``) into ``out``."""
    return write_report(build(search), out)
