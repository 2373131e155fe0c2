"""The claim record: what was said and how it is judged, in one place, so that adding a claim is
one declaration (its words, parameters, scopes and measure) and the judge loop is written once.

A claim names the **scopes** it judges -- whatever its measure compares: a setting, a pair of
settings, a set of boat settings -- and the **measure** that turns one scope into a ``Found``.
Which settings the scopes hold depends only on what they are, never on their games, so the dry
run of ``experiments.verdicts.catalog`` (``Catalog.planning``) learns the joints a measure reads
before a run is read.
"""
from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import KW_ONLY, dataclass, field

from .. import decisions as D
from ..catalog import Catalog, Entry
from ..inference import ALPHA, FIXED, Look


@dataclass
class Found:
    """One judged scope: a stable description of its settings (``scope``, the key under which
    looks are compared), what the data showed in words (``detail``), the decision and the test."""
    scope: str
    detail: str
    decision: D.Decision
    test: str
    settings: tuple[str, ...] = ()      # the run's settings it read (filled in by ``judge``)


@dataclass(frozen=True)
class Param:
    """A claim's parameter: its default and the values accepted."""
    default: object
    low: float = 0.0            # numbers: low < value < high
    high: float = 1.0
    words: str = ""
    counts: bool = False        # a list of player counts (2-6) instead of a number

    def problem(self, value) -> str | None:
        if self.counts:
            if not (isinstance(value, list) and value and all(
                    isinstance(v, int) and not isinstance(v, bool) and 2 <= v <= 6
                    for v in value)):
                return "must be a list of player counts from 2 to 6, e.g. [5, 6]"
            return None
        if not isinstance(value, (int, float)) or isinstance(value, bool) \
                or not self.low < value < self.high:
            return f"must be a number between {self.low:g} and {self.high:g}"
        return None


Scopes = Callable[[Catalog, list[Entry], dict], Iterable]
Measure = Callable[..., "Found | None"]


@dataclass(frozen=True)
class Claim:
    """A claim in words (shown in reports and ``verdicts.csv``) and its judge: ``scopes(cat,
    entries, params)`` lists what it compares within one style of play, ``measure(cat, scope,
    params, alpha, look)`` decides one of them (None: nothing to say for that scope).
    ``brings``: claims judged with it; ``per_style``: its settings belong to one style of play
    each, so a style holding none of them gets no row of its own; ``why_none``: why a style
    that has no scope was not judged, when there is more to say than that the settings are
    missing; ``across``: its scopes compare styles (the skill trace's levels), so it is judged
    once on every entry of the run, not within each style."""
    id: str
    source: str                     # D designer, R review, P players, H hypothesis
    said: str                       # the claim as made
    question: str
    measures: str                   # what the effect column holds
    rule: str                       # the verdict rule in words
    family: str                     # what a correction covers, within one scope
    params: dict = field(default_factory=dict)      # name -> Param
    unit: str = ""                  # how the effect reads (``UNITS``); "": as the report shows it
    _: KW_ONLY
    scopes: Scopes
    measure: Measure
    brings: tuple[str, ...] = ()
    per_style: bool = False
    across: bool = False            # judged once over every style (skill levels), not per style
    why_none: Callable[[Catalog, list[Entry]], str | None] | None = None

    def defaults(self) -> dict:
        return {k: p.default for k, p in self.params.items()}

    def judge(self, cat: Catalog, entries: list[Entry], params: dict, alpha: float = ALPHA,
              look: Look = FIXED) -> list[Found]:
        """Every scope of one style of play, measured and decided."""
        out = []
        for scope in self.scopes(cat, entries, params):
            f = self.measure(cat, scope, params, alpha, look)
            if f is not None:
                f.settings = tuple(dict.fromkeys(settings_of(scope)))
                out.append(f)
        return out


def settings_of(scope) -> list[str]:
    """The labels of the run's settings a scope holds, however the claim shaped it (an entry,
    a pair, a tuple with other things in it): what ``study --until-settled`` reads to let a
    setting stop once every verdict it takes part in has settled."""
    if isinstance(scope, Entry):
        return list(scope.parts) or [scope.label]
    if isinstance(scope, (tuple, list)):
        return [label for x in scope for label in settings_of(x)]
    return []


TOL_SEAT = Param(0.01, 0, 1, "win share per seat, absolute (0.01 = one percentage point)")
# how an effect is shown: (factor, suffix, signed)
UNITS = {"pp": (100, " pp", True), "%": (100, "%", False), "explorers": (1, " explorers", True),
         "turns": (1, " turns", True), "points": (1, " points per turn", True),
         "rounds": (1, " rounds", True), "seats": (1, " seats", False),
         "share": (100, "% of the variance", False)}
