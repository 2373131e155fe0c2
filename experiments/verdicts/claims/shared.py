"""What the claims' measures share: which settings a comparison takes (the base game, a count's
own tie-break, the twin that differs in one factor), how a scope is named, and how a number
and its interval read in a detail -- one wording for every claim's row.
"""
from __future__ import annotations

import math
from dataclasses import replace

from .. import decisions as D
from ..catalog import Catalog, Entry, Joint, spreads
from ..features import col, combo
from ..inference import ALPHA, FIXED, Estimate, Look, interval
from .record import Found

BASE = {"challenges": frozenset(), "squid": False, "squid_only": False}


# ------------------------------------------------------------------------------ selections
def default_tb(players: int) -> str:
    return "chain" if players >= 5 else "shared"


def scope_of(e: Entry) -> str:
    m = e.meta
    ch = ",".join(map(str, sorted(m["challenges"])))
    return (f"{m['players']} players, {m['allocation']} boats, "
            f"{'Challenge ' + ch if ch else 'base game'}, {m['tiebreak']} tie-break"
            + (", squid only" if m["squid_only"] else ", squid" if m["squid"] else ""))


def at_own_rule(cat: Catalog, entries, **want) -> list[Entry]:
    """The base-game entries matching ``want`` under their player count's own tie-break (one
    row per comparison, not one per tie-break twin)."""
    return [e for e in cat.find(entries, **BASE, **want) if e.own == default_tb(e.players)]


def twin(cat: Catalog, entries, e: Entry, **differ) -> Entry | None:
    """The entry equal to ``e`` in everything but ``differ``."""
    want = {**e.meta, **differ}
    want.pop("seed", None)
    found = [x for x in cat.find(entries, **want) if x is not e]
    same_seed = [x for x in found if x.meta["seed"] == e.meta["seed"]]
    return (same_seed or found or [None])[0]


def base_of(cat: Catalog, entries, e: Entry) -> Entry | None:
    """The base game (no challenge, no squid) of ``e``'s player count, boats and tie-break."""
    found = [b for b in cat.find(entries, players=e.players, **BASE) if b.own == e.own
             and b.meta["allocation"] == e.meta["allocation"]]
    return found[0] if found else None


def with_base(cat: Catalog, entries, found: list[Entry]) -> list[tuple[Entry, Entry]]:
    """Each of ``found`` with its base game, where the run holds one."""
    pairs = ((e, base_of(cat, entries, e)) for e in found)
    return [(e, base) for e, base in pairs if base is not None]


# ------------------------------------------------------------------------------ measures
MIN_SPREAD_INDICES = 100
"""A claim read from seat spreads (sums of squared gaps: S1c's ratio, S5b's slope) settles
nothing on fewer game indices: the interval is a delta method's for a quadratic in the means,
with their covariances estimated, which needs a sample to hold (at 4 games S1c was "supported"
and S5b "refuted" on intervals far too narrow). The calibration checks the rates at this size."""


def small_spread(dec: D.Decision, n: int) -> D.Decision:
    """``dec`` left inconclusive below ``MIN_SPREAD_INDICES``, its advice at least that."""
    if n >= MIN_SPREAD_INDICES or dec.verdict not in D.SETTLED:
        return dec
    return replace(dec, verdict=D.INCONCLUSIVE,
                   games_needed=max(dec.games_needed or 0, MIN_SPREAD_INDICES))


def spread_est(j: Joint, tables, weights, lo: float, hi: float) -> Estimate:
    """The seats' squared spread around 1/N (less its sampling noise), weighted over tables."""
    value, sd, constant = spreads(j, tables, weights)
    return Estimate(value, 0.0 if constant else sd, j.n, lo, hi, False, constant)


def rms(q: float, seats: int) -> float:
    """The root-mean-square distance of the seats from 1/N, from a squared spread."""
    return math.sqrt(max(q, 0.0) / seats)


def diff(j: Joint, name: str, lo: float, hi: float, a: int = 0, b: int = 1) -> Estimate:
    """Part ``a``'s feature ``name`` less part ``b``'s, paired over game indices."""
    return combo(j, [(col(j, name, a), 1.0), (col(j, name, b), -1.0)], lo, hi)


def equal_settings(cat: Catalog, a: Entry, b: Entry, tol: float = 0.01, alpha=ALPHA,
                   look: Look = FIXED) -> Found:
    """The A/A check: do two settings play the same game? The balance rule on every seat's
    paired win-share difference (b - a) over the game indices both hold: equal (supported)
    when every seat's interval lies inside ±tol, different (refuted) when one lies outside.
    Settings that differ only in their name, or a setting against itself through a resume,
    play the very same games: every difference is 0, and the zero-of-n bound judges them
    equal at any n."""
    j = cat.pair(b, a)
    dec = D.balance([(f"seat {s + 1}", j.diff(f"share_{b.own}_{s}", -1, 1))
                     for s in range(b.players)], tol, alpha, look)
    return Found(f"{b.label} against {a.label}", "", dec,
                 f"paired TOST of every seat's win share against ± {tol:g}")


# ------------------------------------------------------------------------------ wording
def pp(x: float) -> str:
    return f"{100 * x:+.2f}"


def iv(lo: float, hi: float) -> str:
    return f"[{pp(lo)}, {pp(hi)}]"


def said(est, alpha, look, k: float = 100, unit: str = " pp") -> str:
    """An estimate and its interval as text (signed: a difference)."""
    lo, hi = interval(est, alpha, look)
    return f"{k * est.value:+.2f}{unit} [{k * lo:+.2f}, {k * hi:+.2f}]"


def rate(est, alpha, look) -> str:
    """A rate and its interval, in per cent."""
    lo, hi = interval(est, alpha, look)
    return f"{100 * est.value:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"
