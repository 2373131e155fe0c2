"""Terminal text of ``experiments.tables.stats``' tidy table: one block per setting, then the paired
differences. Pure pandas formatting (no statistics is computed here)."""
from __future__ import annotations

import math

import pandas as pd

PAIR_METRICS = ("paired_games", "diff_win_share", "diff_score")
SCALED = "†"          # an interval from the conservative fallback (wilson-scaled, newcomb)
SIGNIFICANT = "*"


def _pct(x) -> str:
    """Percent with 2 decimals; two significant digits below 0.01% (and above 99.99%), so that
    an interval that keeps its width never prints as [0.00, 0.00]."""
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "nan"
    v = 100 * x
    if 0 < v < 0.01:
        return f"{v:.2g}"
    if 99.99 < v < 100:
        return f"{100 - float(f'{100 - v:.2g}'):.10g}"
    return f"{v:.2f}"


def _rate(r, unit: str = "") -> str:
    return f"{_pct(r.value)}{unit} [{_pct(r.low)}{unit}, {_pct(r.high)}{unit}]"


def _num(x, sign: bool = False) -> str:
    if x is None or math.isnan(x):
        return "nan"
    x = 0.0 if abs(x) < 0.005 else x
    return f"{x:+.2f}" if sign else f"{x:.2f}"


def _mean(r, sign: bool = False, scale: float = 1.0) -> str:
    mark = SCALED if r.method in ("wilson-scaled", "newcomb") else ""
    return (f"{_num(scale * r.value, sign)} [{_num(scale * r.low, sign)}, "
            f"{_num(scale * r.high, sign)}]{mark}")


def _p(x) -> str:
    if x is None or math.isnan(x):
        return "nan"
    return f"{x:.4f}" if x >= 1e-4 else f"{x:.1e}"


def _widths(rows: list[list[str]]) -> list[int]:
    return [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]


def _line(cells: list[str], widths: list[int], indent: str = "  ") -> str:
    return (indent + "  ".join(c.ljust(w) for c, w in zip(cells, widths))).rstrip()


def _index(tidy: pd.DataFrame) -> dict:
    """{setting: {(seat or None, metric): row}} in order of appearance."""
    out: dict[str, dict] = {}
    for r in tidy.itertuples(index=False):
        seat = None if pd.isna(r.seat) else int(r.seat)
        out.setdefault(str(r.setting), {})[(seat, str(r.metric))] = r
    return out


def _setting_block(label: str, rows: dict, n_settings: int, widths: list[int],
                   table: list[list[str]]) -> list[str]:
    games = int(rows[(None, "games")].value)
    players = int(rows[(None, "players")].value)
    own = str(rows[(None, "own_tiebreak")].method)
    alpha = rows[(None, "alpha")].value
    precision = rows[(None, "precision")].value
    out = [f"{label}  (n={games} games, {players} players, own tie-break: {own})"]
    out += [_line(cells, widths) for cells in table]
    tie = rows[(None, "tie_rate")]
    out.append(f"  top-score ties: {_rate(tie, '%')} of n={games}")
    steps = []
    for step in ("score", "rescued", "value", "turns", "shared"):
        r = rows.get((None, f"decided_{step}_chain"))
        if r is not None and (r.value > 0 or step != "value"):   # (b) acts only with Ch. 3
            steps.append(f"{step} {_rate(r, '%')}")
    where = "own rule" if own == "chain" else "recounted on the same games"
    out.append(f"  decided by, chain ({where}): " + ", ".join(steps))
    chi, p, q = (rows[(None, m)].value for m in ("chi2_stat", "chi2_p", "chi2_p_holm"))
    mark = f" {SIGNIFICANT}" if q < alpha else ""
    out.append(f"  seat uniformity (chi-square on tie-split wins, {own}, df {players - 1}): "
               f"chi2 = {_num(chi)}, p = {_p(p)}, Holm p = {_p(q)} over {n_settings} "
               f"setting{'s' if n_settings != 1 else ''}{mark}")
    half = [(rows[(s, "win_share")].high - rows[(s, "win_share")].low) / 2
            for s in range(players)]
    if games and max(half) > precision:
        need = [int(rows[(s, "games_for_precision")].value) for s in range(players)]
        who = "player" if players == 2 else "seat"
        out.append(f"  games for win shares ±{_pct(precision)} pp: {max(need):,} "
                   f"({', '.join(f'{who} {s} {g:,}' for s, g in enumerate(need))}; normal "
                   f"approx. at the observed {own} shares); now up to ±{_pct(max(half))} pp "
                   f"at n={games}")
    return out


def _seat_table(rows: dict) -> list[list[str]]:
    players = int(rows[(None, "players")].value)
    own = str(rows[(None, "own_tiebreak")].method)
    other = "chain" if own == "shared" else "shared"
    out = []
    for s in range(players):
        r = {m: v for (seat, m), v in rows.items() if seat == s}
        out.append([str(s), _rate(r[f"win_share_{own}"]), _rate(r[f"win_share_{other}"]),
                    _rate(r[f"outright_{own}"]), _rate(r["top_tie"]), _mean(r["mean_score"]),
                    _mean(r["rescued_fraction"], scale=100), _mean(r["mean_turns"])])
    return out


def _header(players: int, own: str) -> list[str]:
    other = "chain" if own == "shared" else "shared"
    return ["player" if players == 2 else "seat", f"win share % {own} (own)",
            f"win share % {other}", f"outright % {own}", "top-score tie %", "mean score",
            "rescued %", "turns taken"]


def _pair_blocks(index: dict, alpha: float) -> list[str]:
    pairs = [(k, v) for k, v in index.items() if (None, "paired_games") in v]
    if not pairs:
        return []
    n_tests = sum(1 for v in index.values() for (s, m), r in v.items()
                  if m in ("diff_win_share_p", "diff_score_p") and r.method != "identical")
    header = ["seat", "diff win share pp [95% CI]", "p", "Holm p", "", "diff score [95% CI]",
              "p", "Holm p", ""]
    table: list[tuple[str, list[list[str]]]] = []
    for label, rows in pairs:
        seats = sorted({s for (s, m) in rows if s is not None})
        body = []
        for s in seats:
            cells = [str(s)]
            for name, scale in (("win_share", 100.0), ("score", 1.0)):
                r = rows.get((s, f"diff_{name}"))
                if r is None:
                    cells += ["identical games (tie-break only)", "", "", ""]
                    continue
                if r.method == "identical":
                    cells += ["0 (identical games)", "", "", ""]
                    continue
                q = rows[(s, f"diff_{name}_p_holm")].value
                cells += [_mean(r, sign=True, scale=scale), _p(rows[(s, f"diff_{name}_p")].value),
                          _p(q), SIGNIFICANT if q < alpha else ""]
            body.append(cells)
        table.append((label, body))
    widths = _widths([header] + [c for _, body in table for c in body])
    out = ["", (f"paired differences, A - B on the games both played ({100 * (1 - alpha):g}% "
                f"CI; p: paired t test, Holm-adjusted within each factor and metric "
                f"({n_tests} paired tests); "
                f"{SIGNIFICANT} Holm p < {alpha:g}; {SCALED} Newcombe interval, no per-game "
                f"variation)")]
    for label, body in table:
        pg = index[label][(None, "paired_games")]
        out.append(f"{label}  [{pg.method} differs; n={int(pg.value)} matched games]")
        out.append(_line(header, widths))
        out += [_line(c, widths) for c in body]
    return out


def format_stats(tidy: pd.DataFrame) -> str:
    """The tidy table of ``experiments.tables.stats.balance_stats`` as terminal text: one block per
    setting (a line per seat: win share under the own and the other rule, outright wins under
    the own rule, top-score ties, mean score, rescued fraction, turns, each with its interval;
    then n, the tie rate, the chain's deciding steps, the chi-square test with its Holm
    adjustment, and the games a ``precision`` half-width would need when the run is short of
    it), then the paired differences, every one listed, the Holm-significant ones marked
    ``*``. Columns are aligned across all settings."""
    index = _index(tidy)
    settings = [(k, v) for k, v in index.items() if (None, "games") in v]
    if not settings:
        return "no settings"
    alpha = float(settings[0][1][(None, "alpha")].value)
    tables = {k: _seat_table(v) for k, v in settings}
    headers = {k: _header(int(v[(None, "players")].value), str(v[(None, "own_tiebreak")].method))
               for k, v in settings}
    widths = _widths([h for h in headers.values()] + [c for t in tables.values() for c in t])
    level = f"{100 * (1 - alpha):g}%"
    out = [(f"{len(settings)} setting{'s' if len(settings) != 1 else ''}; every interval "
            f"{level}: Wilson for rates (tie-split counts for win shares), t for means, {SCALED} "
            f"= Wilson on the mean scaled to its bounds (t would leave them or the games do not "
            f"vary)")]
    for label, rows in settings:
        out.append("")
        out += _setting_block(label, rows, len(settings), widths,
                              [headers[label]] + tables[label])
    out += _pair_blocks(index, alpha)
    return "\n".join(out)
