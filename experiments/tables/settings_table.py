"""One row per setting of a run, with the factors its columns record: the table the charts and
the report name and group settings by (``settings_table``).

Read from a run table (one or more rows per setting: the first row of each is enough) or, by
``experiments.verdicts.analysis``, from the first row of each setting's first chunk.
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .games import n_players, parse_challenges

CHALLENGE_NAMES = {1: "Densely Populated", 2: "Leave No One Behind", 3: "Everyone is Equal",
                   4: "Atlantis is Gone", 5: "Dolphins & Dive Dice", 6: "Overpopulated"}
MARK = "charts_settings"               # attrs flag of a settings table


def _scalar(v):
    if v is pd.NA or (isinstance(v, float) and np.isnan(v)):
        return None
    return v.item() if hasattr(v, "item") else v


def variant_name(challenges, dolphins: bool = False, squid: bool = False,
                 squid_only: bool = False) -> str:
    """The game played: ``base``, or the challenges and expansions joined by `` + ``
    (``Challenge 1 Densely Populated``, ``Dolphins & Dive Dice``, ``Giant Squid``,
    ``squid only``)."""
    chosen = set(parse_challenges(challenges) if not isinstance(challenges, (set, frozenset))
                 else challenges)
    if dolphins:
        chosen.add(5)
    parts = [CHALLENGE_NAMES[5] if c == 5 else f"Challenge {c} {CHALLENGE_NAMES[c]}"
             for c in sorted(chosen)]
    if squid_only:
        parts.append("squid only")
    elif squid:
        parts.append("Giant Squid")
    return " + ".join(parts) if parts else "base"


def _strategies_text(strategies: tuple) -> str:
    return strategies[0] if len(set(strategies)) == 1 else ",".join(strategies)


def _flags_text(row) -> str:
    flags = []
    if not row.get("lagoon_is_sea", True):         # the default (R1) is sea
        flags.append("lagoon is land (R1)")
    if row.get("creatures_must_move"):
        flags.append("creatures must move (R2)")
    if row.get("max_turns") not in (None, 400):
        flags.append(f"turn cap {row['max_turns']}")
    return ", ".join(flags)


def settings_table(df: pd.DataFrame) -> pd.DataFrame:
    """One row per setting (index: the label, in the order of the run table), with columns
    ``players, seats, games, allocation, boats (tuple), boats_text, challenges (str),
    challenge_set (frozenset), tiebreak, dolphins, squid, squid_only, strategies (tuple),
    strategies_text, lagoon_is_sea, creatures_must_move, max_turns, variant`` (the game's name,
    ``variant_name``). A table without a ``setting`` column is one setting ``run``. Given a
    settings table, returns it unchanged."""
    if df.attrs.get(MARK):
        return df
    if not len(df):
        raise ValueError("the table has no games")
    labels = df["setting"].astype(str) if "setting" in df.columns else \
        pd.Series("run", index=df.index)
    rows = []
    for label, g in df.groupby(labels.to_numpy(), sort=False):
        first = g.iloc[0]
        players = n_players(g)
        seats = int(first["seats"]) if "seats" in g else (4 if players == 2 else players)

        def get(col, default=None, first=first):
            return _scalar(first[col]) if col in first.index else default

        boats = tuple(int(first[f"boats_{s}"]) for s in range(seats)
                      if f"boats_{s}" in g.columns)
        strategies = tuple(str(first[f"strategy_{s}"]) for s in range(seats)
                           if f"strategy_{s}" in g.columns)
        challenges = str(get("challenges", "none"))
        row = {"setting": str(label), "players": players, "seats": seats, "games": len(g),
               "allocation": str(get("allocation", "custom")), "boats": boats,
               "boats_text": ",".join(map(str, boats)), "challenges": challenges,
               "challenge_set": parse_challenges(challenges),
               "tiebreak": str(get("tiebreak", "chain" if players >= 5 else "shared")),
               "dolphins": bool(get("dolphins", False)), "squid": bool(get("squid", False)),
               "squid_only": bool(get("squid_only", False)), "strategies": strategies,
               "strategies_text": _strategies_text(strategies) if strategies else "",
               "lagoon_is_sea": bool(get("lagoon_is_sea", True)),
               "creatures_must_move": bool(get("creatures_must_move", False)),
               "max_turns": int(get("max_turns", 400))}
        row["variant"] = variant_name(row["challenge_set"], row["dolphins"], row["squid"],
                                      row["squid_only"])
        row["flags"] = _flags_text(row)
        rows.append(row)
    out = pd.DataFrame(rows).set_index("setting")
    out.attrs[MARK] = True
    return out
