"""What a search found, as tables: every allocation's measure with its interval and where the
race left it (``fairest.csv``), the confirmation seat by seat with its verdict
(``confirmation.csv``), and one conclusion per player count and style, and across the styles
(``conclusions``). Every number carries its interval and its n (game indices).

The verdict of a confirmed allocation is the balance rule of ``experiments.verdicts.decisions``:
fair (``supported``) when every seat's 95% interval -- at ``alpha / k`` for the ``k`` allocations
confirmed for that player count and style (Bonferroni) -- lies inside ``1/N +- tolerance``;
unfair (``refuted``) when one seat's interval, corrected again over the seats, lies wholly
outside; else inconclusive, with the fresh games that would settle it with 80% power. An
allocation is fair for every style only when it is fair for each (intersection-union: no
further correction).
"""
from __future__ import annotations

import math
from dataclasses import dataclass

import pandas as pd

from ..verdicts import decisions as D
from ..verdicts.decisions import fair_within
from ..verdicts.inference import ALPHA, interval
from .players import Style
from .search import Confirmation, Race, judged
from .space import SPACES, Rule, boats_of, label, named, named_as
from .spec import FairSpec

FAIR, UNFAIR, OPEN = "fair", "unfair", "inconclusive"
WORDS = {D.SUPPORTED: FAIR, D.REFUTED: UNFAIR, D.INCONCLUSIVE: OPEN, D.NEGLIGIBLE: OPEN}


def _lever_cols(players: int, candidate) -> dict:
    """A rule's levers (issue 41): its ``boats``, ``komi`` and setup ``order``, and how many
    move away from the rules (``changes``); nothing for a boat list, so a boat search's tables
    keep their columns."""
    if not isinstance(candidate, Rule):
        return {}
    return {"boats": label(candidate.boats), "komi": candidate.komi_text,
            "order": candidate.order_text, "changes": candidate.changes(players)}


@dataclass
class Search:
    """A finished (or budget-ended) search: the races and confirmations by (players, style)."""
    spec: FairSpec
    races: dict[tuple[int, Style], Race]
    confirmations: dict[tuple[int, Style], Confirmation]
    games_played: int = 0
    games_read_back: int = 0
    seconds: float = 0.0
    games_reused: int = 0       # bonuses counted on games a komi-blind style played once

    @property
    def noun(self) -> str:
        """What the search's candidates are called: ``allocation`` (a boat space) or ``rule``
        (boats, komi and setup order: issue 41)."""
        return "allocation" if self.spec.space in SPACES else "rule"

    def space(self, players: int) -> dict:
        """Every candidate searched for ``players``, by label (every race has them all)."""
        return next((r.boats for (n, _), r in self.races.items() if n == players), {})

    def styles_of(self, players: int) -> list[Style]:
        """The styles that played ``players``: racing or confirming only."""
        return [st for st in self.spec.styles
                if (players, st) in self.races or (players, st) in self.confirmations]

    def simplest_first(self, players: int, labels) -> list[str]:
        """``labels`` (candidates of ``players``) with the simplest rule first: the fewest
        levers moved from the rules' own setup (``Rule.changes``), then by label; a boat
        space's allocations by label."""
        cands = self.space(players)

        def key(c):
            rule = cands.get(c)
            return (rule.changes(players) if isinstance(rule, Rule) else 0, c)
        return sorted(labels, key=key)

    def fair_words(self, players: int, fair) -> str:
        """The fair candidates in words, simplest first; in a rule space, those that move one
        lever only named too (a designer's cheapest change)."""
        order = self.simplest_first(players, fair)
        text = ", ".join(order)
        if self.noun == "rule":
            cands = self.space(players)
            one = [c for c in order if isinstance(cands.get(c), Rule)
                   and cands[c].changes(players) <= 1]
            text += (f" (simplest first; one lever only: {', '.join(one)})" if one else
                     " (simplest first; none of them moves one lever only)")
        return text

    # ------------------------------------------------------------------ the search
    def table(self) -> pd.DataFrame:
        """``fairest.csv``: one row per player count, style and allocation searched (a rule
        space's rows also name its levers: ``_lever_cols``)."""
        rows = []
        for (players, style), r in self.races.items():
            look = r.look
            rank = {c: i + 1 for i, c in enumerate(r.ranked())}
            for c in r.ranked():
                t = r.tallies[c]
                lo, hi = t.interval(ALPHA, look)
                row = {"players": players, "style": style.label, "allocation": c,
                       "named": named_as(players, r.boats[c]),
                       "boats_total": sum(boats_of(r.boats[c])), "rank": rank[c],
                       "status": "dropped" if c in r.dropped else "kept",
                       "dropped_at": r.dropped.get(c, pd.NA), "n": t.n,
                       "measure": t.measure(), "measure_low": lo, "measure_high": hi,
                       "fair_within": hi,
                       "chi2": t.chi2(), "ludii": t.ludii()}
                for p, s in enumerate(t.shares()):
                    row[f"share_{p + 1}"] = s
                row.update(_mean_cols("length", t.mean_length(), look))
                row.update(_mean_cols("rescued", t.rescued_fraction(), look))
                row.update(_lever_cols(players, r.boats[c]))
                rows.append(row)
        return pd.DataFrame(rows)

    def _every_style(self, players: int, every: set, open_everywhere: set, tol_text: str
                     ) -> str:
        """The conclusion across the bot styles played. "Fair for every style" is an
        intersection-union statement (no correction). "None is fair for every style" is a
        union over the S styles -- each allocation shown unfair in *some* style -- so it is said
        only when one style alone shows every allocation unfair (that style's own
        conclusion), or when each allocation is shown unfair in some style with every test
        read at ``alpha / S`` (Bonferroni over the styles)."""
        styles = self.styles_of(players)
        noun = self.noun
        if every:
            return f"fair for every bot style we play: {self.fair_words(players, every)}"
        space = set(self.space(players))
        alone = [st for st in styles if self.shown_unfair(players, st) >= space]
        if alone:
            st = alone[0]
            return (f"no {noun} of the space is fair for every bot style we play: for "
                    f"{st.label} alone each is shown farther than {tol_text} from 1/N (that "
                    f"style's own conclusion, which errs at most "
                    f"{100 * self.none_fair_bound(players, st):.2g}%)")
        k = len(styles)
        strict = set().union(*(self.shown_unfair(players, st, self.spec.alpha / k)
                               for st in styles)) if styles else set()
        if not open_everywhere and strict >= space:
            bound = max(self.none_fair_bound(players, st) for st in styles)
            return (f"no {noun} of the space is fair for every bot style we play: each "
                    f"is shown farther than {tol_text} from 1/N in at least one style, every "
                    f"test read at alpha/{k} (Bonferroni over the {k} styles; errs at most "
                    f"{100 * bound:.2g}%)")
        if not open_everywhere:
            return (f"not concluded: each {noun} is shown unfair in some style, but not "
                    f"with the tests read at alpha/{k} that a statement about every style "
                    f"needs (Bonferroni over the {k} styles); "
                    f"{len(space - strict)} not shown unfair at that level")
        return (f"no {noun} was confirmed fair for every bot style we play; "
                f"{len(open_everywhere)} not yet shown unfair in any style")

    # ------------------------------------------------------------------ confirmation
    def verdict(self, players: int, style: Style, c: str) -> D.Decision:
        conf = self.confirmations[players, style]
        return judged(conf.tallies[c], self.spec.tolerance, self.spec.alpha / conf.family,
                      conf.look(), not conf.sequential)

    def unfair_by_race(self, players: int, style: Style, alpha: float | None = None
                       ) -> list[str]:
        """The allocations the race itself shows farther than the tolerance from 1/N: a seat's
        anytime-valid interval (at ``alpha`` shared among the seats; the spec's by default)
        wholly outside it."""
        if (players, style) not in self.races:
            return []                                 # a style that only confirms
        r, tol = self.races[players, style], self.spec.tolerance
        a = self.spec.alpha if alpha is None else alpha
        return [c for c in r.boats if r.tallies[c].interval(a, r.look)[0] > tol]

    def shown_unfair(self, players: int, style: Style, alpha: float | None = None
                     ) -> set[str]:
        """Every allocation shown unfair for one style, by its race or on fresh games, with
        every test read at ``alpha`` (the spec's by default) instead of the spec's level."""
        a = self.spec.alpha if alpha is None else alpha
        out = set(self.unfair_by_race(players, style, a))
        conf = self.confirmations.get((players, style))
        if conf is not None:
            out |= {c for c in conf.tallies if judged(conf.tallies[c], self.spec.tolerance,
                                                      a / conf.family, conf.look(),
                                                      not conf.sequential).verdict
                    == D.REFUTED}
        return out

    def none_fair_bound(self, players: int, style: Style) -> float:
        """What "no allocation of the space is fair" for one style errs at most: the one fair
        allocation there may be is shown unfair by the race (its players' intervals at
        ``alpha / P`` each: at most ``alpha``) or on fresh games (its seats at ``alpha / (F
        N)`` each, ``F`` allocations confirmed: at most ``alpha / F``), so ``alpha (1 +
        1/F)``."""
        conf = self.confirmations.get((players, style))
        family = conf.family if conf is not None else 0
        return self.spec.alpha * (1 + (1 / family if family else 0))

    def confirm_table(self) -> pd.DataFrame:
        """``confirmation.csv``: one row per player count, style, allocation and seat, and the
        allocation's verdict."""
        rows = []
        for (players, style), conf in self.confirmations.items():
            for c, t in conf.tallies.items():
                dec = self.verdict(players, style, c)
                within = fair_within(dec)
                for name, effect, lo, hi in dec.parts:
                    rows.append({"players": players, "style": style.label, "allocation": c,
                                 "named": named_as(players, conf.boats[c]), "seat": name,
                                 "share": effect + t.fair, "excess": effect, "low": lo,
                                 "high": hi, "n": t.n, "level": 1 - self.spec.alpha /
                                 conf.family, "verdict": WORDS[dec.verdict],
                                 "fair_within": within,
                                 "games_needed": dec.games_needed
                                 if dec.verdict == D.INCONCLUSIVE else pd.NA})
        return pd.DataFrame(rows)

    def confirmed(self, players: int) -> list[str]:
        """The allocations confirmed for ``players`` (the same for every style)."""
        for (n, _), conf in self.confirmations.items():
            if n == players:
                return list(conf.boats)
        return []

    def conclusions(self) -> pd.DataFrame:
        """One row per player count and style, and one per player count across the styles:
        the allocations confirmed fair, and what the race says."""
        rows = []
        for players in self.spec.players:
            every, worst, styles_of, open_everywhere = None, {}, {}, None
            for style in self.spec.styles:
                r = self.races.get((players, style))
                conf = self.confirmations.get((players, style))
                if r is None and conf is None:
                    continue
                verdicts = {c: self.verdict(players, style, c) for c in conf.boats} if conf \
                    else {}
                fair = self.simplest_first(
                    players, [c for c, d in verdicts.items() if d.verdict == D.SUPPORTED])
                every = set(fair) if every is None else every & set(fair)
                best = r.ranked(r.alive) if r else []
                open_ = {c: d.games_needed for c, d in verdicts.items()
                         if d.verdict == D.INCONCLUSIVE}
                within = {c: fair_within(d) for c, d in verdicts.items()}
                for c, w in within.items():
                    worst[c] = max(worst.get(c, 0.0), w)
                    styles_of[c] = styles_of.get(c, 0) + 1
                shown = {"race": set(self.unfair_by_race(players, style)),
                         "fresh": {c for c, d in verdicts.items() if d.verdict == D.REFUTED}}
                # the closest on fresh games, not counting the rules' boats where they were
                # confirmed only to be compared (the race had shown them unfair)
                rules = label(named(players)["rules"])
                near = {c: w for c, w in within.items()
                        if not (c == rules and c in shown["race"] and self.spec.confirm_all)}
                close = min(near, key=lambda c: (near[c], c)) if near else ""
                top = r.tallies[best[0]] if best else None
                lo, hi = top.interval(ALPHA, r.look) if top else (math.nan, math.nan)
                unknown = [c for c in self.space(players)
                           if c not in shown["race"] | shown["fresh"]]
                open_everywhere = (set(unknown) if open_everywhere is None
                                   else open_everywhere & set(unknown))
                rows.append({"players": players, "style": style.label,
                             "fair": " | ".join(fair),
                             "conclusion": _conclusion(fair, self.spec.tolerance, open_,
                                                       close, within.get(close), shown,
                                                       unknown, len(self.space(players)),
                                                       self.none_fair_bound(players, style),
                                                       self.noun,
                                                       self.fair_words(players, fair)),
                             "unfair_by_race": len(shown["race"]),
                             "unfair_on_fresh_games": len(shown["fresh"] - shown["race"]),
                             "not_shown_unfair": len(unknown),
                             "closest": close, "fair_within": within.get(close, math.nan),
                             "kept": len(r.alive) if r else pd.NA,
                             "searched": len(self.space(players)),
                             "fairest": best[0] if best else "",
                             "fairest_measure": top.measure() if top else math.nan,
                             "fairest_low": lo, "fairest_high": hi,
                             "fairest_n": top.n if top else 0,
                             "race_end": r.stop if r else "no race: confirms what the "
                             "racing styles found",
                             "rule": r.rule.words(self.noun) if r else ""})
            if every is not None:
                n_styles = len(self.styles_of(players))
                worst = {c: w for c, w in worst.items() if styles_of[c] == n_styles}
                close = min(worst, key=lambda c: (worst[c], c)) if worst else ""
                tol_text = f"±{100 * self.spec.tolerance:g} pp"
                text = self._every_style(players, every, open_everywhere, tol_text)
                rules = label(named(players)["rules"])
                if close and close != rules:
                    text += (f"; closest of those confirmed in every style: {close}, every "
                             f"seat within ±{100 * worst[close]:.2f} pp of 1/N in each")
                if rules in worst:
                    text += (f"; the rules' {'setup' if self.noun == 'rule' else 'boats'} "
                             f"({rules}): every seat within "
                             f"±{100 * worst[rules]:.2f} pp in each style")
                rows.append({"players": players, "style": "every style",
                             "fair": " | ".join(self.simplest_first(players, every)),
                             "conclusion": text,
                             "unfair_by_race": pd.NA, "unfair_on_fresh_games": pd.NA,
                             "not_shown_unfair": pd.NA,
                             "closest": close, "fair_within": worst.get(close, math.nan),
                             "kept": pd.NA, "searched": pd.NA, "fairest": "",
                             "fairest_measure": math.nan, "fairest_low": math.nan,
                             "fairest_high": math.nan, "fairest_n": pd.NA,
                             "race_end": "", "rule": "fair for every style: intersection-union over "
                             "the styles; none fair for every style: one style alone, or "
                             "Bonferroni over the styles"})
        return pd.DataFrame(rows)


def _mean_cols(name: str, est, look) -> dict:
    lo, hi = interval(est, ALPHA, look) if est.n else (math.nan, math.nan)
    return {name: est.value, f"{name}_low": lo, f"{name}_high": hi}


def _conclusion(fair: list[str], tol: float, open_: dict, close: str, within: float | None,
                shown: dict, unknown: list[str], searched: int, bound: float,
                noun: str = "allocation", fair_text: str = "") -> str:
    """The conclusion of one player count and style in words. "No allocation of the space is
    fair" needs every allocation shown unfair, by the race or on fresh games: wrong only if a
    fair allocation there was is wrongly shown unfair, at most ``bound`` (``alpha (1 + 1/F)``:
    ``Search.none_fair_bound``)."""
    closest = (f"; closest on fresh games: {close}, every seat within ±{100 * within:.2f} pp "
               f"of 1/N" if close and within is not None else "")
    tol_text = f"±{100 * tol:g} pp"
    if fair:
        return f"confirmed fair within {tol_text}: {fair_text or ', '.join(fair)}{closest}"
    fresh = len(shown["fresh"] - shown["race"])
    if not unknown:
        return (f"no {noun} of the space is fair within {tol_text}: each of the "
                f"{searched} has a seat shown farther from 1/N ({len(shown['race'])} by the "
                f"race, {fresh} on fresh games; errs at most {100 * bound:.2g}%){closest}")
    left = (f"; {len(unknown)} of the {searched} {noun}s not yet shown unfair"
            + (" (not confirmed)" if not set(unknown) & set(open_) else ""))
    if open_:
        need = min(v for v in open_.values() if v) if any(open_.values()) else None
        return ("none confirmed fair yet; inconclusive" +
                (f": {need:,} fresh games would settle the closest with 80% power"
                 if need else "") + left + closest)
    return f"none of the confirmed {noun}s is fair" + left + closest


def best_of(race: Race, k: int) -> list[str]:
    """The ``k`` fairest allocations the race kept, by their measure."""
    return race.ranked(race.alive)[:k]

