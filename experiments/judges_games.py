"""The judges of the claims about whole games (docs/claims.md T3, N4, C1-C4, E1): the house
rule "most explorers wins" (T3), 6 players against 4 (N4), Challenges 1-4 against the base
game (C1-C4), and Dolphins & Dive Dice with the Giant Squid (E1, E1d).

Each compares settings on their common game indices (the base features of
``experiments.units``' pairs, or the ``game`` and ``causes`` sets of
``experiments.features``) and decides by a rule of ``experiments.decisions``. What the
per-game table cannot say (when explorers are lost: it records no times) is said in the
detail, not guessed.
"""
from __future__ import annotations

from . import decisions as D
from .features import col, combo
from .inference import ALPHA, FIXED, Look, interval
from .judges import BASE, Found, default_tb, scope_of
from .units import Catalog, Entry

NO_TIMES = "how early explorers go is not in the per-game table (it records no times)"


def _base_of(cat: Catalog, entries, e: Entry) -> Entry | None:
    """The base game (no challenge, no squid) of ``e``'s player count, boats and tie-break."""
    found = [b for b in cat.find(entries, players=e.players, **BASE) if b.own == e.own
             and b.meta["allocation"] == e.meta["allocation"]]
    return found[0] if found else None


def _variants(cat: Catalog, entries, challenge: int) -> list[Entry]:
    """The settings of one challenge alone (no squid), at each count's own tie-break."""
    return [e for e in cat.find(entries, challenges=frozenset({challenge}), squid=False,
                                squid_only=False) if e.own == default_tb(e.players)]


def _diff(j, name: str, lo: float, hi: float, a: int = 0, b: int = 1):
    return combo(j, [(col(j, name, a), 1.0), (col(j, name, b), -1.0)], lo, hi)


def _said(est, alpha, look, k: float = 100, unit: str = " pp") -> str:
    """An estimate and its interval as text (signed: a difference)."""
    lo, hi = interval(est, alpha, look)
    return f"{k * est.value:+.2f}{unit} [{k * lo:+.2f}, {k * hi:+.2f}]"


def _rate(est, alpha, look) -> str:
    """A rate and its interval, in per cent."""
    lo, hi = interval(est, alpha, look)
    return f"{100 * est.value:.2f}% [{100 * lo:.2f}, {100 * hi:.2f}]"


# ------------------------------------------------------------------------------ tie-breaks
def t3(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in cat.find(entries, allocation="rules", **BASE):
        if e.own != default_tb(e.players):
            continue
        j = cat.joint([e], "game")
        est = j.est("house", 0, 1)
        tie = j.est("tie", 0, 1)
        out.append(Found(scope_of(e), f"ties for the top score {_rate(tie, alpha, look)}",
                         D.threshold(est, p["threshold"], alpha, look),
                         f"interval of the share of games whose winners differ, against "
                         f"{p['threshold']:g}"))
    return out


def n4(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    fours = [e for e in cat.find(entries, players=4, allocation="rules", **BASE)
             if e.own == default_tb(4)]
    if not fours:
        return out
    for e in cat.find(entries, players=6, allocation="rules", **BASE):
        if e.own != default_tb(6) or e.mix() is None or e.mix() != fours[0].mix():
            continue
        j = cat.joint([e, fours[0]], "game")
        lost = combo(j, [(col(j, "rescued", 1), 1.0), (col(j, "rescued", 0), -1.0)], -1, 1)
        rate = _diff(j, "lost_round", -20, 20)
        dec = D.both([("share lost", lost, p["lost"], +1),
                      ("lost per player and round", rate, p["per_round"], +1)], alpha, look)
        out.append(Found(f"{scope_of(e)} against 4 players",
                         f"explorers lost per player and round "
                         f"{_said(rate, alpha, look, 1, '')}; {NO_TIMES}", dec,
                         "paired differences over game indices: share of explorers lost, "
                         "explorers lost per player and round"))
    return out


# ------------------------------------------------------------------------------ challenges
def c1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _variants(cat, entries, 1):
        base = _base_of(cat, entries, e)
        if base is None:
            continue
        j = cat.pair(e, base)
        dec = D.direction(j.diff("losses", -10, 10), p["losses"], +1, alpha, look)
        out.append(Found(f"{scope_of(e)} against the base game",
                         f"value fraction {_said(j.diff('value', -1, 1), alpha, look)}; "
                         f"when the first explorers fall in is not in the per-game table (it "
                         f"records no times)", dec,
                         "paired t over game indices: explorers lost per player and game"))
    return out


def c2(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _variants(cat, entries, 2):
        base = _base_of(cat, entries, e)
        if base is None:
            continue
        j = cat.joint([e, base], "game")
        rounds = _diff(j, "rounds", -1000, 1000)
        value = _diff(j, "value", -1, 1)
        dec = D.both([("rounds", rounds, p["rounds"], +1),
                      ("value fraction", value, p["value"], +1)], alpha, look)
        capped = j.est("capped", 0, 1, part=0)
        out.append(Found(f"{scope_of(e)} against the base game",
                         f"value fraction {_said(value, alpha, look)}; turn-capped games "
                         f"{_rate(capped, alpha, look)}", dec,
                         "paired differences over game indices: rounds per game, value "
                         "fraction"))
    return out


def c3(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _variants(cat, entries, 3):
        j = cat.joint([e], "game")
        tie = j.est("tie", 0, 1)
        base = _base_of(cat, entries, e)
        more = ""
        if base is not None:
            more = f" (base game {_rate(cat.joint([base], 'game').est('tie', 0, 1), alpha, look)})"
        out.append(Found(scope_of(e), f"ties for the top score under Challenge 3 "
                         f"{_rate(tie, alpha, look)}{more}",
                         D.threshold(j.est("valuewin", 0, 1), p["threshold"], alpha, look),
                         f"interval of the share of games whose winners differ from value "
                         f"scoring's, against {p['threshold']:g}"))
    return out


def c4(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in _variants(cat, entries, 4):
        base = _base_of(cat, entries, e)
        if base is None:
            continue
        j = cat.pair(e, base)
        own = e.own
        fair = 1 / e.players
        first = [j.est(f"share_{own}_0", 0, 1, part=k).shifted(fair) for k in (0, 1)]
        moved = j.diff(f"share_{own}_0", -1, 1)
        out.append(Found(f"{scope_of(e)} against the base game",
                         f"seat 1's win share - 1/N: {_said(first[0], alpha, look)} under "
                         f"Challenge 4, {_said(first[1], alpha, look)} in the base game, paired "
                         f"difference {_said(moved, alpha, look)}",
                         D.direction(j.diff("value", -1, 1), p["value"], +1, alpha, look),
                         "paired t over game indices: value fraction"))
    return out


# ------------------------------------------------------------------------------ expansions
def _side(est, margin: float, alpha, look, k: int) -> str:
    """Where an estimate lies against a non-inferiority margin (``margin`` > 0: the claim is
    "below it"; < 0: "above it"), as the rule reads it: within by the ``1 - alpha``
    interval, beyond by the ``1 - alpha / k`` one."""
    lo, hi = interval(est, alpha, look)
    blo, bhi = interval(est, alpha / k, look)
    inside = hi < margin if margin > 0 else lo > margin
    beyond = blo > margin if margin > 0 else bhi < margin
    return "within" if inside else "beyond" if beyond else "not yet shown within"

def e1(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in cat.find(entries, challenges=frozenset({5}), squid=True, squid_only=False):
        base = _base_of(cat, entries, e)
        if base is None or e.own != default_tb(e.players):
            continue
        j = cat.joint([e, base], "game")
        rounds = _diff(j, "rounds", -1000, 1000)
        value = _diff(j, "value", -1, 1)
        dec = D.at_most([("rounds", rounds, p["rounds"], +1),
                         ("value fraction", value, p["value"], -1)], alpha, look)
        lost = _diff(j, "losses", -10, 10)
        state = [_side(rounds, p["rounds"], alpha, look, 2),
                 _side(value, -p["value"], alpha, look, 2)]
        out.append(Found(f"{scope_of(e)} against the base game",
                         f"rounds {state[0]} their margin (+{p['rounds']:g}); value fraction "
                         f"{_said(value, alpha, look)}, {state[1]} its margin "
                         f"(-{100 * p['value']:g} points); explorers lost per player and game "
                         f"{_said(lost, alpha, look, 1, '')}", dec,
                         "paired differences over game indices, each against its margin "
                         "(non-inferiority)"))
    return out


def e1d(cat, entries, p, alpha=ALPHA, look: Look = FIXED):
    out = []
    for e in cat.find(entries, challenges=frozenset({5})):
        if e.own != default_tb(e.players):
            continue
        without = [b for b in cat.find(entries, players=e.players, challenges=frozenset(),
                                       squid=e.meta["squid"], squid_only=e.meta["squid_only"])
                   if b.own == e.own and b.meta["allocation"] == e.meta["allocation"]]
        if not without:
            continue
        j = cat.joint([e, without[0]], "causes")
        sea = _diff(j, "sea", -10, 10)
        parts = "; ".join(f"{c} {_said(_diff(j, c, -10, 10), alpha, look, 1, '')}"
                          for c in ("shark", "serpent", "whale", "squid", "whirlpool"))
        against = "the squid alone" if e.meta["squid"] else "the base game"
        out.append(Found(f"{scope_of(e)} against {against}",
                         f"explorers lost per player and game by cause: {parts}",
                         D.direction(sea, p["losses"], -1, alpha, look),
                         "paired t over game indices: explorers lost to sharks and serpents "
                         "per player and game"))
    return out


JUDGES = {"T3": t3, "N4": n4, "C1": c1, "C2": c2, "C3": c3, "C4": c4, "E1": e1, "E1d": e1d}
