"""The report's first lines: what the run found, in plain words, above the verdict table.

Every number is read from the run's statistics (the tidy table) and every judgement from the
verdict table, so the words cannot drift from the tables below them. Seat balance comes first
(seat 1's win share under the rules' boats against the fair share, per player count and style,
and what the allocation does to the gap, from claims S1b and S1c); then one line per other
claim: its verdict across the styles of play, or for the one style the run holds.
"""
from __future__ import annotations

import pandas as pd

from experiments.verdicts.claims import CLAIMS

SHORT = {          # each claim as a reader would ask it
    "S1": "Is seat order an advantage under flat boats",
    "S1b": "Does the rules' boat allocation make the seats fair",
    "S1c": "Do the rules' boats narrow the seat gap of flat boats",
    "N3": "Is the rescue task at 5-6 players as at 4",
    "T1": "Does the tie-break chain shift wins toward late seats",
    "T2": "Are ties for first common at 2-4 players",
    "N1": "Is 4 players the closest, fairest and most decisive count",
    "C6": "Is Overpopulated more destructive",
    "E2": "Is the Giant Squid particularly nasty",
    "B2": "Is one starting boat worth more than 1 pp of its seat's win share",
    "B2r": "Is one boat worth more than a seat of turn order",
    "S2": "Does the first seat take more turns than the last",
    "S2v": "Does a turn more go with a higher score",
    "S3": "Does the first seat win more than its share at 2-4 players",
    "S4": "Does player A take more turns with 2 players",
    "T3": "Does the house rule (most explorers wins) change the winner often",
    "N4": "Are explorers lost faster at 6 players than at 4",
    "C1": "Is Densely Populated deadlier",
    "C2": "Is Leave No One Behind longer, with more rescued",
    "C3": "Does Everyone is Equal change the winner often",
    "C4": "Does Atlantis is Gone let players rescue more",
    "E1": "With dolphins and the squid, is the game no longer and no lower-scoring",
    "E1d": "Do the dolphins cut the losses to sharks and serpents",
    "K1": "Does a stronger rung win more than its share",
    "K2": "Is a player's score mostly luck",
    "K3": "Is placement alone worth a win share",
    "L1": "Does a leader-basher change who wins",
    "L2": "Does the low-profile style gain from a leader-basher",
}
WORDS = {"supported": "yes", "refuted": "no", "negligible": "real but too small to matter",
         "inconclusive": "not settled yet"}


def _pct(x: float) -> str:
    return f"{100 * x:.1f}%"


def _iv(lo: float, hi: float) -> str:
    return f"[{100 * lo:.1f}, {100 * hi:.1f}]"


def _gap_words(v: pd.DataFrame | None, play: str, players: int) -> str:
    """What the allocation does to the gap, from S1b (balanced?) and S1c (narrowed?)."""
    if v is None:
        return ""

    def verdict(claim: str) -> str | None:
        rows = v[(v["claim"] == claim) & (v["play"] == play)
                 & v["scope"].str.startswith(f"{players} players")]
        return str(rows["verdict"].iloc[0]) if len(rows) else None
    fair, narrows = verdict("S1b"), verdict("S1c")
    if fair == "supported":
        return "every seat is within the tolerance of a fair share"
    if fair == "refuted" and narrows == "supported":
        return "the allocation narrows the gap, it does not close it"
    if fair == "refuted" and narrows in ("refuted", "negligible"):
        return "the allocation neither closes the gap nor narrows it measurably"
    if fair == "refuted":
        return "the allocation does not close the gap (whether it narrows it is not settled)"
    if fair is not None:
        return "whether the seats are fair is not settled yet"
    return ""


def _play(style: str) -> str:
    return (style if style.startswith("mixed") else f"{style} self-play" if "," not in style
            else f"mixed: {style.replace(',', ', ')}")


def seat_lines(tidy: pd.DataFrame, meta: pd.DataFrame, v: pd.DataFrame | None) -> list[str]:
    """Per player count (5 and 6 first): seat 1's win share under the rules' boats (base game,
    the count's own tie-break) for each self-play style, against the fair share, with the
    verdicts' reading of the gap. (A mixed table's rows are per game, not per game index, so
    its interval would be too narrow here; the verdicts judge it by the index.)"""
    out = []
    if not len(meta):
        return out
    base = meta[(meta["allocation"] == "rules") & (meta["variant"] == "base")
                & ~meta["strategies_text"].str.startswith("mixed")]
    own = base[base["tiebreak"] == base["players"].map(lambda p: "chain" if p >= 5
                                                       else "shared")]
    shares = tidy[(tidy["metric"] == "win_share") & (tidy["seat"] == 0)].set_index("setting")
    for players in sorted(set(own["players"]) - {2}, key=lambda p: (p < 5, p)):
        parts, gaps, ns = [], [], set()
        for label in own.index[own["players"] == players]:
            if label not in shares.index:
                continue
            r = shares.loc[label]
            style = str(meta.at[label, "strategies_text"])
            parts.append(f"{_pct(r['value'])} {_iv(r['low'], r['high'])}"
                         + (f" ({style})" if own["strategies_text"].nunique() > 1 else ""))
            gaps.append(_gap_words(v, _play(style), players))
            ns.add(int(r["n"]))
        if not parts:
            continue
        texts = set(own.loc[own["players"] == players, "boats_text"])
        boats = f" ({texts.pop()} boats per seat)" if len(texts) == 1 else ""
        n = (f"n = {min(ns):,} games" + ("" if len(ns) == 1 else f" to {max(ns):,}")
             + (" each" if len(parts) > 1 else ""))
        said = [g for g in dict.fromkeys(gaps) if g]
        gap = ("; " + said[0]) if len(said) == 1 and len(set(gaps)) == 1 else \
            ("; " + "; ".join(f"{g} ({s.split(' (')[-1].rstrip(')')})" for g, s in
                              zip(gaps, parts) if g) if said else "")
        out.append(f"Under the rules' boats{boats} at {players} players seat 1 wins "
                   f"{', '.join(parts)} against a fair {_pct(1 / players)} ({n}){gap}.")
    return out


def _scope(scope: str) -> str:
    """A scope as a short tag: its player count(s) when it starts with them."""
    head = scope.split(",")[0]
    return head if "player" in head else scope


def claim_lines(v: pd.DataFrame | None) -> list[str]:
    """One line per claim: its verdict across the styles (or for the one style) per scope,
    scopes with the same answer together."""
    if v is None or not len(v):
        return []
    out = []
    for cid, g in v[v["n"] > 0].groupby("claim", sort=False):
        ask = SHORT.get(cid, CLAIMS[cid].question.rstrip("?"))
        by: dict[str, list[str]] = {}
        for scope, rows in g.groupby("scope", sort=False):
            across = [a for a in dict.fromkeys(rows["across_ladder"]) if a]
            if across and across != ["one bot style only"]:
                answer = across[0]
            else:
                answer = WORDS.get(str(rows["verdict"].iloc[0]), str(rows["verdict"].iloc[0]))
            by.setdefault(answer, []).append(_scope(scope))
        if len(by) == 1:
            text = next(iter(by))
        else:
            text = "; ".join(f"{a} ({', '.join(dict.fromkeys(s))})" for a, s in by.items())
        settle = g["games_needed"].dropna()
        more = (f" ({len(settle)} of {len(g)} open; the next look settles them at up to "
                f"{int(settle.max()):,} games per setting)" if len(settle) else "")
        out.append(f"**{cid}** — {ask}? {text[0].upper() + text[1:]}.{more}")
    return out


def summary(tidy: pd.DataFrame, meta: pd.DataFrame, v: pd.DataFrame | None) -> list[str]:
    """The report's opening lines."""
    return seat_lines(tidy, meta, v) + claim_lines(v)
