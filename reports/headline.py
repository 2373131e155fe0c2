"""The report's first lines: what the run found, in plain words, above the verdict table.

Every number is read from the run's statistics (the tidy table) and every judgement from the
verdict table, so the words cannot drift from the tables below them. Seat balance comes first
(seat 1's win share under the rules' boats against the fair share, per player count and style,
and what the allocation does to the gap, from claims S1b and S1c); then one line per other
claim: its verdict across the styles of play, or for the one style the run holds.
"""
from __future__ import annotations

import math

import pandas as pd

from experiments.claims import CLAIMS

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


def seat_lines(tidy: pd.DataFrame, meta: pd.DataFrame, v: pd.DataFrame | None) -> list[str]:
    """Seat 1 under the rules' boats, per player count and style (base game, the count's own
    tie-break), against the fair share, with the verdicts' reading of the gap."""
    out = []
    if not len(meta):
        return out
    base = meta[(meta["allocation"] == "rules") & (meta["variant"] == "base")]
    own = base[base["tiebreak"] == base["players"].map(lambda p: "chain" if p >= 5
                                                       else "shared")]
    shares = tidy[(tidy["metric"] == "win_share") & (tidy["seat"] == 0)].set_index("setting")
    for players in sorted(set(own["players"]), key=lambda p: (p < 5, p)):
        for label in own.index[own["players"] == players]:
            if label not in shares.index or players == 2:
                continue
            r = shares.loc[label]
            style = str(meta.at[label, "strategies_text"])
            play = (style if style.startswith("mixed") else f"{style} self-play"
                    if "," not in style else f"mixed: {style.replace(',', ', ')}")
            gap = _gap_words(v, play, players)
            out.append(f"Under the rules' boats at {players} players seat 1 "
                       f"{'still ' if r['value'] > 1 / players and gap else ''}wins "
                       f"{_pct(r['value'])} {_iv(r['low'], r['high'])} against a fair "
                       f"{_pct(1 / players)} ({play}, n = {int(r['n']):,} games)"
                       + (f"; {gap}." if gap else "."))
    return out


def claim_lines(v: pd.DataFrame | None) -> list[str]:
    """One line per claim and scope kind: its verdict across the styles, or for the one."""
    if v is None or not len(v):
        return []
    out = []
    for cid, g in v[v["n"] > 0].groupby("claim", sort=False):
        across = [a for a in dict.fromkeys(g["across_ladder"]) if a]
        ask = SHORT.get(cid, CLAIMS[cid].question.rstrip("?"))
        if across and across != ["one style of play only"]:
            answer = "; ".join(across) if len(across) <= 2 else \
                f"{len(across)} different answers by scope (see the table)"
        else:
            counts = g["verdict"].value_counts()
            answer = ", ".join(f"{WORDS.get(k, k)} in {n} of {len(g)}"
                               if len(counts) > 1 else WORDS.get(k, k)
                               for k, n in counts.items())
        settle = g["games_needed"].dropna()
        more = (f" ({len(settle)} open; up to {int(settle.max()):,} games per setting would "
                f"settle them)" if len(settle) and not math.isnan(float(settle.max())) else "")
        out.append(f"**{cid}** — {ask}? {answer[0].upper() + answer[1:]}.{more}")
    return out


def summary(tidy: pd.DataFrame, meta: pd.DataFrame, v: pd.DataFrame | None) -> list[str]:
    """The report's opening lines."""
    return seat_lines(tidy, meta, v) + claim_lines(v)
