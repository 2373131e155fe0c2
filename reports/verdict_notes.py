"""What the report says beside its verdict table: what the verdicts are about (bots, and how far
apart their styles are), how many of the findings are expected to be false at the stated
per-row rates, and how the verdicts depend on the tolerance (the sensitivity view).

Every verdict holds for the bot styles the study plays -- strategies of this package, not
people -- so the page says so plainly, and shows how much the same claim's effect moves from
one style to another: the spread across the styles is often larger than the tolerance."""
from __future__ import annotations

import math

import pandas as pd

from experiments.verdicts.claims import CLAIMS, UNITS
from experiments.verdicts.table import expected_false


def _scaled(cid: str) -> tuple[float, str]:
    """How a claim's effect reads: (factor, unit)."""
    unit = CLAIMS[cid].unit if cid in CLAIMS else ""
    if unit:
        k, suffix, _ = UNITS[unit]
        return k, suffix
    if cid in ("S1", "S1b", "N3", "T1"):
        return 100, " pp"
    if cid in ("S1c", "T2"):
        return 100, "%"
    return 1, ""


def styles_played(v: pd.DataFrame) -> list[str]:
    """The bot styles the verdict table judges, in order."""
    return list(dict.fromkeys(v.loc[v["n"] > 0, "play"])) if "play" in v.columns else []


def findings_note(v: pd.DataFrame) -> str:
    """The expected number of false findings across the table's rows."""
    found, expected = expected_false(v)
    rates = sorted({float(x) for x in pd.to_numeric(v["wrong_at_most"], errors="coerce")
                    .dropna()})
    each = " or ".join(f"{100 * r:g}%" for r in rates) or "2.5%"
    rejudged = v["tolerance"].astype(str).str.contains("re-judged").any()
    return (f"Of these {len(v)} rows, {found} are findings (supported, negligible or refuted). "
            f"Each is wrong at most {each} of the time by its rule, so at most "
            f"{expected:.2f} false findings are expected among them (the sum of the per-row "
            f"rates, if every effect lay at the edge of its tolerance; fewer when effects lie "
            f"farther from it). No correction is made across the rows: each row's rate is "
            f"its own (a claim's family is in its `family` column)."
            + (" Rows re-judged at a tolerance other than the one stated first have no "
               "stated rate and are not counted." if rejudged else ""))


def bots_note(v: pd.DataFrame) -> str:
    """What the verdicts are about."""
    styles = styles_played(v)
    names = "; ".join(s.replace(" self-play", "") for s in styles) or "none"
    spread = styles_apart(v)
    far = ""
    shares = None if spread is None else spread[spread["range"].str.endswith(" pp")]
    if shares is not None and len(shares):
        top = shares.loc[shares["_span"].idxmax()]
        far = (f" The styles are far apart: the same claim's effect differs by up to "
               f"{top['range']} of win share across them ({top['claim']}, {top['scope']}: "
               f"{top['lowest']} to {top['highest']}); the table below the method lists "
               f"every claim's spread.")
    return (f"Every verdict is about the bot styles this study plays ({len(styles)}: {names}): "
            f"strategies of this package, not people. 'For every style' reads 'for every bot "
            f"style we play'; none of it is a claim about human play.{far}")


def styles_apart(v: pd.DataFrame) -> pd.DataFrame | None:
    """Per claim and scope judged on two bot styles or more: the lowest and the highest
    effect across the styles and its range (``_span``: the range as a number). None when one
    style only."""
    if "play" not in v.columns or v.loc[v["n"] > 0, "play"].nunique() < 2:
        return None
    rows = []
    for (cid, scope), g in v[v["n"] > 0].groupby(["claim", "scope"], sort=False):
        g = g[g["effect"].notna()]
        if len(g) < 2 or cid in ("N1",):
            continue
        k, unit = _scaled(cid)
        lo, hi = g.loc[g["effect"].idxmin()], g.loc[g["effect"].idxmax()]
        span = k * (hi["effect"] - lo["effect"])
        rows.append({"claim": cid, "scope": scope, "styles": len(g),
                     "lowest": f"{k * lo['effect']:+.2f}{unit} ({lo['play']})",
                     "highest": f"{k * hi['effect']:+.2f}{unit} ({hi['play']})",
                     "range": f"{span:.2f}{unit}", "_span": span})
    return pd.DataFrame(rows) if rows else None


def sensitivity_view(table: pd.DataFrame | None) -> pd.DataFrame | None:
    """The sensitivity table as people read it: one row per claim, style and scope, one
    column per tolerance (its verdict; "fair within" beside a balance claim's)."""
    if table is None or not len(table):
        return None
    t = table[table["n"] > 0]
    if not len(t):
        return None
    keys = ["claim", "play", "scope"]
    wide = t.pivot_table(index=keys, columns="tolerance_pp", values="verdict",
                         aggfunc="first", sort=False)
    wide.columns = [f"at ±{c:g} pp" for c in wide.columns]
    within = t.groupby(keys, sort=False)["fair_within"].first()
    wide["fair within"] = [f"±{100 * w:.2f} pp" if not (w is None or math.isnan(w)) else ""
                           for w in within.reindex(wide.index)]
    return wide.reset_index()
