"""Claims about the challenges and the expansions: each challenge against the base game on the
same game indices (C1-C4, C6), and Dolphins & Dive Dice and the Giant Squid against the game
without them (E1, E1d, E2). What the per-game table cannot say (when explorers are lost: it
records no times) is said in the detail, not guessed.
"""
from __future__ import annotations

from .. import decisions as D
from ..catalog import Entry
from ..decisions import AT_MOST_RULE, BOTH_RULE, DIRECTION_RULE, THRESHOLD_RULE
from ..inference import ALPHA, FIXED, Look, interval
from .record import Claim, Found, Param
from .shared import BASE, base_of, default_tb, diff, iv, pp, rate, said, scope_of, with_base

CLAIMS: list[Claim] = []


def challenge_alone(cat, entries, challenge: int) -> list[Entry]:
    """The settings of one challenge alone (no squid), at each count's own tie-break."""
    return [e for e in cat.find(entries, challenges=frozenset({challenge}), squid=False,
                                squid_only=False) if e.own == default_tb(e.players)]


# ------------------------------------------------------------------------------ challenges
def densely_populated(cat, entries, p) -> list[tuple[Entry, Entry]]:
    return with_base(cat, entries, challenge_alone(cat, entries, 1))


def losses_against_base_game(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                             look: Look = FIXED) -> Found:
    e, base = pair
    j = cat.pair(e, base)
    dec = D.direction(j.diff("losses", -10, 10), p["losses"], +1, alpha, look)
    return Found(f"{scope_of(e)} against the base game",
                 f"value fraction {said(j.diff('value', -1, 1), alpha, look)}; when the first "
                 f"explorers fall in is not in the per-game table (it records no times)", dec,
                 "paired t over game indices: explorers lost per player and game")


CLAIMS.append(Claim(
    "C1", "H", "Densely Populated (Challenge 1: two explorers on an inland tile) makes "
    "the game deadlier.",
    "Against the base game on the same game indices, are more explorers lost per player "
    "and game, by more than the tolerance? (When the first explorers fall in is not in "
    "the per-game table.)",
    "explorers lost per player and game, Challenge 1 minus base game; the value "
    "fraction's change in the detail",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"losses": Param(0.25, 0, 10, "explorers lost per player and game")}, "explorers",
    scopes=densely_populated, measure=losses_against_base_game, per_style=True))


def leave_no_one_behind(cat, entries, p) -> list[tuple[Entry, Entry]]:
    return with_base(cat, entries, challenge_alone(cat, entries, 2))


def length_and_value_against_base_game(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                                       look: Look = FIXED) -> Found:
    e, base = pair
    j = cat.joint([e, base], "game")
    rounds = diff(j, "rounds", -1000, 1000)
    value = diff(j, "value", -1, 1)
    dec = D.both([("rounds", rounds, p["rounds"], +1),
                  ("value fraction", value, p["value"], +1)], alpha, look)
    capped = j.est("capped", 0, 1, part=0)
    return Found(f"{scope_of(e)} against the base game",
                 f"value fraction {said(value, alpha, look)}; turn-capped games "
                 f"{rate(capped, alpha, look)}", dec,
                 "paired differences over game indices: rounds per game, value fraction")


CLAIMS.append(Claim(
    "C2", "H", "Leave No One Behind (Challenge 2: the game ends when no explorer is left) "
    "makes a longer game in which more is rescued.",
    "Against the base game on the same game indices, does the game last more rounds, "
    "and is a larger share of each player's value rescued, each by more than its "
    "tolerance?",
    "rounds per game, Challenge 2 minus base game; the value fraction's change and the "
    "share of turn-capped games in the detail",
    BOTH_RULE, "the two parts: intersection-union for support, Bonferroni against it",
    {"rounds": Param(1.0, 0, 100, "rounds per game"),
     "value": Param(0.05, 0, 1, "value fraction")}, "rounds",
    scopes=leave_no_one_behind, measure=length_and_value_against_base_game, per_style=True))


def everyone_is_equal(cat, entries, p) -> list[tuple[Entry, Entry | None]]:
    """Each Challenge 3 setting, with its base game when the run holds one (for the detail)."""
    return [(e, base_of(cat, entries, e)) for e in challenge_alone(cat, entries, 3)]


def value_scoring_winner_change(cat, pair: tuple[Entry, Entry | None], p, alpha=ALPHA,
                                look: Look = FIXED) -> Found:
    e, base = pair
    j = cat.joint([e], "game")
    tie = j.est("tie", 0, 1)
    more = ""
    if base is not None:
        more = f" (base game {rate(cat.joint([base], 'game').est('tie', 0, 1), alpha, look)})"
    return Found(scope_of(e), f"ties for the top score under Challenge 3 "
                 f"{rate(tie, alpha, look)}{more}",
                 D.threshold(j.est("valuewin", 0, 1), p["threshold"], alpha, look),
                 f"interval of the share of games whose winners differ from value scoring's, "
                 f"against {p['threshold']:g}")


CLAIMS.append(Claim(
    "C3", "H", "Everyone is Equal (Challenge 3: explorers count one each, values "
    "ignored) changes who wins.",
    "In games played under Challenge 3, would value scoring name other winners in more "
    "than the threshold's share of games?",
    "share of Challenge 3 games whose winners differ from value scoring's (%); the tie "
    "rate in the detail",
    THRESHOLD_RULE + "; Wilson interval at the first look", "none (one rate per scope)",
    {"threshold": Param(0.10, 0, 1, "share of games")}, "%",
    scopes=everyone_is_equal, measure=value_scoring_winner_change, per_style=True))


def atlantis_is_gone(cat, entries, p) -> list[tuple[Entry, Entry]]:
    return with_base(cat, entries, challenge_alone(cat, entries, 4))


def value_against_base_game(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                            look: Look = FIXED) -> Found:
    e, base = pair
    j = cat.pair(e, base)
    own = e.own
    fair = 1 / e.players
    first = [j.est(f"share_{own}_0", 0, 1, part=k).shifted(fair) for k in (0, 1)]
    moved = j.diff(f"share_{own}_0", -1, 1)
    return Found(f"{scope_of(e)} against the base game",
                 f"seat 1's win share - 1/N: {said(first[0], alpha, look)} under "
                 f"Challenge 4, {said(first[1], alpha, look)} in the base game, paired "
                 f"difference {said(moved, alpha, look)}",
                 D.direction(j.diff("value", -1, 1), p["value"], +1, alpha, look),
                 "paired t over game indices: value fraction")


CLAIMS.append(Claim(
    "C4", "H", "Atlantis is Gone (Challenge 4: the game ends when the last land tile "
    "goes) lets players rescue more.",
    "Against the base game on the same game indices, is a larger share of each player's "
    "value rescued, by more than the tolerance? (Seat 1's win share under both in the "
    "detail.)",
    "value fraction, Challenge 4 minus base game (pp)",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"value": Param(0.05, 0, 1, "value fraction")}, "pp",
    scopes=atlantis_is_gone, measure=value_against_base_game, per_style=True))


def overpopulated(cat, entries, p) -> list[tuple[Entry, Entry]]:
    """6 players under Overpopulated (Challenge 6), each with the standard 6-player rules
    at its tie-break."""
    out = []
    for o in cat.find(entries, players=6, challenges=frozenset({6}), squid=False,
                      squid_only=False):
        base = [b for b in cat.find(entries, players=6, allocation="rules", **BASE)
                if b.own == o.own]
        if base:
            out.append((o, base[0]))
    return out


def overpopulated_losses(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                         look: Look = FIXED) -> Found:
    o, base = pair
    j = cat.pair(o, base)
    lost = j.diff("losses", -10, 10)
    resc = j.diff("rescued", -1, 1)
    both = [D.direction(lost, p["losses"], +1, alpha, look),
            D.direction(resc, p["rescued"], -1, alpha, look)]
    half = [D.direction(lost, p["losses"], +1, alpha / 2, look),
            D.direction(resc, p["rescued"], -1, alpha / 2, look)]
    if all(d.verdict == D.SUPPORTED for d in both):
        verdict = D.SUPPORTED
    elif any(d.verdict == D.REFUTED for d in half):
        verdict = D.REFUTED
    elif any(d.verdict == D.NEGLIGIBLE for d in half):
        verdict = D.NEGLIGIBLE
    else:
        verdict = D.INCONCLUSIVE
    need = max((d.games_needed or 0 for d in both), default=0) or None
    dec = D.Decision(verdict, lost.value, both[0].low, both[0].high, lost.n,
                     max(d.p_value for d in both), need)
    return Found(f"{scope_of(o)} against the standard rules",
                 f"rescued fraction changes by {pp(resc.value)} pp "
                 f"{iv(both[1].low, both[1].high)}", dec,
                 "paired t over game indices: losses per player and rescued fraction")


CLAIMS.append(Claim(
    "C6", "D", "Overpopulated is \"the ultimate in crazy fun with lots of "
    "destruction\": players have far too many explorers to save them all.",
    "Against the standard 6-player rules on the same game indices, are more explorers "
    "lost per player and game, and is a smaller fraction rescued, each by more than "
    "its tolerance?",
    "explorers lost per player and game, Overpopulated minus standard; the rescued "
    "fraction's change in the detail",
    "both parts by the direction rule: supported when both are supported (95%, "
    "intersection-union); refuted when either part is refuted, negligible when either "
    "is negligible (each at Bonferroni alpha/2, 97.5%); else inconclusive",
    "the two parts: intersection-union for support, Bonferroni against it",
    {"losses": Param(1.0, 0, 10, "explorers lost per player and game"),
     "rescued": Param(0.05, 0, 1, "rescued fraction")},
    scopes=overpopulated, measure=overpopulated_losses))


# ------------------------------------------------------------------------------ expansions
def side_of_margin(est, margin: float, alpha, look, k: int) -> str:
    """Where an estimate lies against a non-inferiority margin (``margin`` > 0: the claim is
    "below it"; < 0: "above it"), as the rule reads it: within by the ``1 - alpha``
    interval, beyond by the ``1 - alpha / k`` one."""
    lo, hi = interval(est, alpha, look)
    blo, bhi = interval(est, alpha / k, look)
    inside = hi < margin if margin > 0 else lo > margin
    beyond = blo > margin if margin > 0 else bhi < margin
    return "within" if inside else "beyond" if beyond else "not yet shown within"


def dolphins_and_squid(cat, entries, p) -> list[tuple[Entry, Entry]]:
    found = cat.find(entries, challenges=frozenset({5}), squid=True, squid_only=False)
    return [(e, base) for e, base in with_base(cat, entries, found)
            if e.own == default_tb(e.players)]


def length_and_value_at_most(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                             look: Look = FIXED) -> Found:
    e, base = pair
    j = cat.joint([e, base], "game")
    rounds = diff(j, "rounds", -1000, 1000)
    value = diff(j, "value", -1, 1)
    dec = D.at_most([("rounds", rounds, p["rounds"], +1),
                     ("value fraction", value, p["value"], -1)], alpha, look)
    lost = diff(j, "losses", -10, 10)
    state = [side_of_margin(rounds, p["rounds"], alpha, look, 2),
             side_of_margin(value, -p["value"], alpha, look, 2)]
    return Found(f"{scope_of(e)} against the base game",
                 f"rounds {state[0]} their margin (+{p['rounds']:g}); value fraction "
                 f"{said(value, alpha, look)}, {state[1]} its margin "
                 f"(-{100 * p['value']:g} points); explorers lost per player and game "
                 f"{said(lost, alpha, look, 1, '')}", dec,
                 "paired differences over game indices, each against its margin "
                 "(non-inferiority)")


CLAIMS.append(Claim(
    "E1", "R", "With Dolphins & Dive Dice and the Giant Squid \"the game did not last "
    "longer\" and scores did not suffer.",
    "Against the base game on the same game indices, is the game at most the tolerance "
    "longer, and the value fraction at most its tolerance lower?",
    "rounds per game, expansions minus base game; the value fraction's change in the "
    "detail",
    AT_MOST_RULE, "the two parts: intersection-union for support, Bonferroni against it",
    {"rounds": Param(1.0, 0, 100, "rounds per game"),
     "value": Param(0.02, 0, 1, "value fraction")}, "rounds",
    scopes=dolphins_and_squid, measure=length_and_value_at_most, per_style=True))


def with_and_without_dolphins(cat, entries, p) -> list[tuple[Entry, Entry]]:
    """Each Dolphins & Dive Dice setting (Challenge 5) with the same game without them."""
    out = []
    for e in cat.find(entries, challenges=frozenset({5})):
        if e.own != default_tb(e.players):
            continue
        without = [b for b in cat.find(entries, players=e.players, challenges=frozenset(),
                                       squid=e.meta["squid"], squid_only=e.meta["squid_only"])
                   if b.own == e.own and b.meta["allocation"] == e.meta["allocation"]]
        if without:
            out.append((e, without[0]))
    return out


def dolphins_sea_losses(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA,
                        look: Look = FIXED) -> Found:
    e, without = pair
    j = cat.joint([e, without], "causes")
    sea = diff(j, "sea", -10, 10)
    parts = "; ".join(f"{c} {said(diff(j, c, -10, 10), alpha, look, 1, '')}"
                      for c in ("shark", "serpent", "whale", "squid", "whirlpool"))
    against = "the squid alone" if e.meta["squid"] else "the base game"
    return Found(f"{scope_of(e)} against {against}",
                 f"explorers lost per player and game by cause: {parts}",
                 D.direction(sea, p["losses"], -1, alpha, look),
                 "paired t over game indices: explorers lost to sharks and serpents per "
                 "player and game")


CLAIMS.append(Claim(
    "E1d", "R", "Dolphins are \"a powerful ally\".",
    "With Dolphins & Dive Dice (Challenge 5), are fewer explorers lost to sharks and "
    "serpents per player and game than without, on the same game indices, by more than "
    "the tolerance? (The dive dice move every creature too: the expansion is compared "
    "as played.)",
    "explorers lost to sharks and serpents per player and game, with minus without",
    DIRECTION_RULE + " (the claimed side: fewer)", "none (one comparison per scope)",
    {"losses": Param(0.25, 0, 10, "explorers lost per player and game")}, "explorers",
    scopes=with_and_without_dolphins, measure=dolphins_sea_losses, per_style=True))


def squid_without_challenges(cat, entries, p) -> list[tuple[Entry, Entry]]:
    return with_base(cat, entries, cat.find(entries, squid=True, challenges=frozenset()))


def squid_losses(cat, pair: tuple[Entry, Entry], p, alpha=ALPHA, look: Look = FIXED) -> Found:
    s, base = pair
    dec = D.direction(cat.pair(s, base).diff("losses", -10, 10), p["losses"], +1, alpha, look)
    return Found(f"{scope_of(s)} against the base game", "", dec,
                 "paired t over game indices: losses per player and game")


CLAIMS.append(Claim(
    "E2", "R", "The Giant Squid is \"particularly nasty\".",
    "Are more explorers lost per player and game with the squid (and with squid "
    "instead of whales) than in the base game, on the same game indices, by more than "
    "the tolerance?",
    "explorers lost per player and game, squid minus base game",
    DIRECTION_RULE, "none (one comparison per scope)",
    {"losses": Param(0.25, 0, 10, "explorers lost per player and game")},
    scopes=squid_without_challenges, measure=squid_losses))
