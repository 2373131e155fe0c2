"""The games of a results table as the statistics see them: players and their seats, each
player's keys (score, explorers rescued, their value, turns), the winners under either
tie-break, and one setting's games as arrays (``SettingData``).

A *run table* is the per-game table of the README ("The per-game table"), for one setting or
several concatenated with a ``setting`` column. Players and seats (B4.5): with 3 to 6 players
every player has one seat; with 2 players the four seats sit A,B,A,B and a player's result is
the sum of their two seats (``player_s`` says who owns seat ``s``). Winners follow a tie-break
rule (``simulator.scoring.decide``): under ``shared`` (B7.3) every player with the top score
wins; under ``chain`` (X1.6) only the ties the chain cannot break are shared.

Two ways in, one result: ``prepare`` reads a pandas table (a saved file, a test), and
``block_of`` reads the numeric columns of one chunk of a run (``experiments.verdicts.analysis``,
which reads a run chunk by chunk) given its setting's ``probe``. Pure numpy and pandas: no engine.
"""
from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace

import numpy as np
import pandas as pd

from simulator.scoring import STEPS, TIEBREAKS, decide
from simulator.state import SLOT_REMOVED, SLOT_VALUES

MAX_SEATS = 6
R10_MAX_TURNS = 400                    # the Settings default, for tables without the column
# the factors a pair of settings may differ in (Challenge 5 / dolphins is in ``challenges``)
FACTORS = ("boats", "challenges", "tiebreak", "strategies", "squid", "squid_only",
           "lagoon_is_sea", "creatures_must_move", "max_turns", "komi", "setup_order")
NAMED_ALLOCATIONS = ("rules", "flat", "reversed")
LOSS_CAUSES = ("serpent", "shark", "whale", "whirlpool", "squid", "stranded")
EXPLORER_VALUES = {10: 28, 8: 24, 7: 22}         # B1.2, X1.1, X1.2: a colour's values by count


# ------------------------------------------------------------------------------ the rules' bounds
def explorers_per_colour(players: int, challenges) -> tuple[int, int]:
    """``(count, value)`` of one colour's explorers in play (B1.2, X1.1, X1.2, X6.1): values
    1,1,1,2,2,3,3,4,5,6 (10 explorers, 28) with 2-4 players, 8 / 24 with 5, 7 / 22 with 6, all
    10 / 28 under Challenge 6. From ``simulator.state``'s slot tables."""
    keep = np.ones(len(SLOT_VALUES), bool) if 6 in challenges else SLOT_REMOVED[players] == 0
    return int(keep.sum()), int(SLOT_VALUES[keep].sum())


def score_bound(players: int, challenges) -> int:
    """The most a player can score: the value of their explorers in play, or their count under
    Challenge 3 (X2.3); doubled with 2 players (two colours each, B4.5)."""
    count, value = explorers_per_colour(players, challenges)
    return (2 if players == 2 else 1) * (count if 3 in challenges else value)


def explorer_value(count: np.ndarray) -> np.ndarray:
    """A colour's total explorer value from its explorer count (B1.2, X1.1, X1.2; at most 6
    each for any other count)."""
    out = 6 * count
    for n, v in EXPLORER_VALUES.items():
        out = np.where(count == n, v, out)
    return out


def parse_challenges(label) -> frozenset[int]:
    """``"2,3"`` -> {2, 3}; ``"none"`` -> {} (the table's ``challenges`` column)."""
    text = str(label)
    return frozenset() if text in ("none", "", "nan") else frozenset(
        int(c) for c in text.split(","))


# ------------------------------------------------------------------------------ table shape
def n_players(df: pd.DataFrame) -> int:
    """The player count of the table (all rows must share it)."""
    if not len(df):
        raise ValueError("the table has no games")
    values = pd.unique(df["players"].astype("int64"))
    if len(values) != 1:
        raise ValueError(f"the table mixes player counts {sorted(int(v) for v in values)}; "
                         f"summarise each player count separately")
    return int(values[0])


def n_seats(df: pd.DataFrame) -> int:
    if "seats" in df.columns and len(df):
        values = pd.unique(df["seats"].astype("int64"))
        if len(values) != 1:
            raise ValueError(f"the table mixes seat counts {sorted(int(v) for v in values)}")
        return int(values[0])
    players = n_players(df)
    return 4 if players == 2 else players


def seats_of_players(df: pd.DataFrame) -> dict[int, list[int]]:
    """``{player: [seats]}`` from the ``player_s`` columns (B4.5: 2 players -> A,B,A,B)."""
    players, seats = n_players(df), n_seats(df)
    out: dict[int, list[int]] = {p: [] for p in range(players)}
    for s in range(seats):
        col = f"player_{s}"
        if col in df.columns:
            owners = pd.unique(df[col].astype("int64"))
            if len(owners) != 1:
                raise ValueError(f"seat {s} belongs to different players in different rows")
            p = int(owners[0])
        else:
            p = s % players
        if p not in out:
            raise ValueError(f"seat {s} belongs to player {p}, but the table has {players} "
                             f"players (0-{players - 1})")
        out[p].append(s)
    return out


def seat_ints(cols: Mapping, name: str, s: int) -> np.ndarray:
    c = cols[f"{name}_{s}"]
    return (c.astype("int64").to_numpy() if isinstance(c, pd.Series)
            else np.asarray(c, dtype=np.int64))


def per_player(cols: Mapping, name: str, owners: dict[int, list[int]]) -> np.ndarray:
    """``(games, players)``: ``name_<s>`` summed over each player's seats."""
    return np.column_stack([sum(seat_ints(cols, name, s) for s in seats)
                            for seats in owners.values()])


def player_scores(df: pd.DataFrame) -> pd.DataFrame:
    """Per game (same index as ``df``) and per player ``p``: ``score_p``, ``rescued_p``,
    ``rescued_value_p``, ``turns_p`` and ``explorers_p`` (explorers in play = rescued + lost,
    stranded included). With 2 players each is the sum of the player's two seats."""
    owners = seats_of_players(df)
    out: dict[str, object] = {}
    for key in ("game", "seed"):
        if key in df.columns:
            out[key] = df[key].to_numpy()
    for name in ("score", "rescued", "rescued_value", "turns"):
        for p, seats in owners.items():
            out[f"{name}_{p}"] = sum(seat_ints(df, name, s) for s in seats)
    for p, seats in owners.items():
        out[f"explorers_{p}"] = sum(seat_ints(df, "rescued", s) + seat_ints(df, "lost", s)
                                    for s in seats)
    return pd.DataFrame(out, index=df.index)


def tiebreak_rule(df: pd.DataFrame, tiebreak: str | None = None) -> str:
    """The tie-break to apply: ``tiebreak`` if given, else the table's ``tiebreak`` column,
    else the rules' default for its player count (chain for 5-6, shared for 2-4)."""
    if tiebreak is not None:
        if tiebreak not in TIEBREAKS:
            raise ValueError(f"tiebreak must be one of {', '.join(TIEBREAKS)}, got {tiebreak!r}")
        return tiebreak
    if "tiebreak" in df.columns and len(df):
        values = pd.unique(df["tiebreak"].astype(str))
        if len(values) != 1:
            raise ValueError(f"the table mixes tie-break rules {sorted(values)}; pass one")
        return tiebreak_rule(df, str(values[0]))
    return "chain" if n_players(df) >= 5 else "shared"


def equal_rule(df: pd.DataFrame) -> np.ndarray:
    """Per game: Challenge 3 (Everyone is Equal) in force (X1.6 (b), X2.3)."""
    if "challenges" not in df.columns:
        return np.zeros(len(df), dtype=bool)
    return np.array(["3" in str(c).split(",") for c in df["challenges"]], dtype=bool)


def keys(df: pd.DataFrame, ps: pd.DataFrame | None = None) -> list[np.ndarray]:
    """The chain's keys per game and player: score, rescued, rescued value, turns."""
    ps = player_scores(df) if ps is None else ps
    players = n_players(df)
    return [np.column_stack([ps[f"{name}_{p}"].to_numpy() for p in range(players)])
            if len(ps) else np.zeros((0, players), np.int64)
            for name in ("score", "rescued", "rescued_value", "turns")]


def komi_rule(df: pd.DataFrame) -> np.ndarray | None:
    """Per game and player, the score bonus in half points (C1.1: the ``komi_<seat>``
    columns summed over a player's seats), or None for a table without them."""
    owners = seats_of_players(df)
    if not len(df) or not all(f"komi_{s}" in df.columns for seats in owners.values()
                              for s in seats):
        return None
    return np.column_stack([sum(np.rint(2 * df[f"komi_{s}"].astype("float64").to_numpy())
                                .astype(np.int64) for s in seats) for seats in owners.values()])


def winners(df: pd.DataFrame, tiebreak: str | None = None) -> pd.DataFrame:
    """Boolean, one row per game (``df``'s index) and one column per player: True for each
    winner under the tie-break rule (``tiebreak_rule``); a tie left standing is shared. A
    score bonus (C1, the ``komi_<seat>`` columns) counts before the rule."""
    win, _ = decide(*keys(df), rule=tiebreak_rule(df, tiebreak), equal=equal_rule(df),
                    komi=komi_rule(df))
    return pd.DataFrame(win, index=df.index, columns=range(win.shape[1]))


def decided_by(df: pd.DataFrame, tiebreak: str | None = None) -> pd.Series:
    """Per game, the step that decided it: ``score`` (a single top scorer), a step of the
    X1.6 chain (``rescued``, ``value``, ``turns``) or ``shared`` (the tie stood)."""
    _, step = decide(*keys(df), rule=tiebreak_rule(df, tiebreak), equal=equal_rule(df),
                     komi=komi_rule(df))
    return pd.Series(pd.Categorical.from_codes(step, categories=list(STEPS)), index=df.index,
                     name="decided_by")


def shared_top(df: pd.DataFrame) -> pd.Series:
    """True for the games whose top score (plus any bonus, C1) is held by two or more players
    (before any tie-break)."""
    return winners(df, "shared").sum(axis=1) > 1


# ------------------------------------------------------------------------------ one setting
@dataclass
class SettingData:
    """What the statistics need of one setting (or of one chunk of it): its games and the
    per-game, per-player arrays. ``owners`` maps each player to their seats."""
    label: str
    players: int
    seed: int | None
    factors: dict
    games: np.ndarray                    # game indices, unique
    own: str                             # the setting's tie-break rule
    challenges: frozenset
    max_turns: int
    score: np.ndarray                    # (n, players) per-player keys
    rescued: np.ndarray
    explorers: np.ndarray
    turns: np.ndarray
    win: dict = field(default_factory=dict)      # rule -> bool (n, players)
    step: dict = field(default_factory=dict)     # rule -> int (n,) into STEPS
    owners: dict | None = None
    cache: dict = field(default_factory=dict, repr=False, compare=False)
    # the value of each player's rescued explorers (the X1.6 chain's third key; under
    # Challenge 3 ``score`` is their count), and -- when the run's ``lost_<cause>_<seat>``
    # columns were read -- each player's losses by cause (``LOSS_CAUSES``); empty otherwise
    value: np.ndarray | None = None
    lost: dict = field(default_factory=dict)
    komi: tuple | None = None            # C1: each player's score bonus in half points

    @property
    def n(self) -> int:
        return len(self.games)

    @property
    def seats(self) -> int:
        return 4 if self.players == 2 else self.players

    def share(self, rule: str | None = None) -> np.ndarray:
        """Tie-split win shares (n, players): 1/k for each of a game's k winners."""
        w = self.win[rule or self.own].astype(float)
        return w / w.sum(axis=1, keepdims=True)

    def share60(self, rule: str | None = None) -> np.ndarray:
        """The tie-split shares times 60 (whole numbers: k winners of at most 6 get 60/k
        each), so that sums of shares are exact."""
        rule = rule or self.own
        if rule not in self.cache:
            w = self.win[rule]
            k = np.maximum(w.sum(axis=1, keepdims=True), 1).astype(np.int8)
            self.cache[rule] = w * (np.int8(60) // k)            # at most 60: 8 bits
        return self.cache[rule]

    def head(self, keep: np.ndarray) -> SettingData:
        """The games where ``keep`` is True."""
        out = replace(self, games=self.games[keep], score=self.score[keep],
                      rescued=self.rescued[keep], explorers=self.explorers[keep],
                      turns=self.turns[keep],
                      value=None if self.value is None else self.value[keep])
        out.win = {k: v[keep] for k, v in self.win.items()}
        out.lost = {k: v[keep] for k, v in self.lost.items()}
        out.step = {k: v[keep] for k, v in self.step.items()}
        out.cache = {}
        return out


def one_value(g: pd.DataFrame, col: str, label: str):
    values = pd.unique(g[col].astype(object))
    if len(values) != 1:
        raise ValueError(f"setting {label!r} mixes values of {col!r}: "
                         f"{sorted(map(str, values))}")
    v = values[0]
    return v.item() if hasattr(v, "item") else v


def _factors(get, has, seats: int) -> dict:
    """A setting's factors from ``get(column)`` (its one value) and ``has(column)``."""
    boats = tuple(int(get(f"boats_{s}")) for s in range(seats)) \
        if all(has(f"boats_{s}") for s in range(seats)) else None
    allocation = get("allocation") if has("allocation") else None
    out = {"boats": (str(allocation) if allocation in NAMED_ALLOCATIONS
                     else ("custom", boats) if allocation is not None else boats),
           "challenges": parse_challenges(get("challenges")) if has("challenges") else None,
           "tiebreak": str(get("tiebreak")) if has("tiebreak") else None,
           "strategies": tuple(str(get(f"strategy_{s}")) for s in range(seats)
                               if has(f"strategy_{s}"))}
    for col in FACTORS[4:9]:
        out[col] = get(col) if has(col) else None
    # C1, C2: the levers' columns exist only where a lever is set (the rules' tables keep
    # their bytes), so their absence is the rules' value, not unknown
    out["komi"] = tuple(float(get(f"komi_{s}")) for s in range(seats)) \
        if all(has(f"komi_{s}") for s in range(seats)) else ()
    out["setup_order"] = tuple(str(get(f"setup_order_{phase}")) if has(f"setup_order_{phase}")
                               else "forward" for phase in ("explorers", "boats"))
    return out


def komi_halves(komi: tuple, owners: dict) -> tuple[int, ...] | None:
    """C1.1: each player's score bonus in half points from the seats' bonuses in points (the
    table's ``komi_<seat>``), or None with no bonus."""
    if not komi or not any(komi):
        return None
    return tuple(sum(int(round(2 * komi[s])) for s in seats) for seats in owners.values())


def _meta(label: str, players: int, get, has, games: np.ndarray, owners: dict) -> SettingData:
    seats = 4 if players == 2 else players
    factors = _factors(get, has, seats)
    own = factors["tiebreak"] or ("chain" if players >= 5 else "shared")
    if own not in TIEBREAKS:
        raise ValueError(f"setting {label!r}: unknown tie-break {own!r}")
    none = np.zeros((0, players), np.int64)
    return SettingData(label=label, players=players,
                       seed=int(get("seed")) if has("seed") else None,
                       factors=factors, games=games, own=own,
                       challenges=factors["challenges"] or frozenset(),
                       max_turns=int(factors["max_turns"] or R10_MAX_TURNS),
                       score=none, rescued=none, explorers=none, turns=none, owners=owners,
                       komi=komi_halves(factors["komi"], owners))


def probe_of(label: str, row: Mapping) -> SettingData:
    """A setting's metadata, without games, from one row of its table (a dict of column ->
    value, as the first row of a chunk): what ``block_of`` needs to read its chunks."""
    players = int(row["players"])
    seats = 4 if players == 2 else players
    owners: dict[int, list[int]] = {p: [] for p in range(players)}
    for s in range(seats):
        p = int(row[f"player_{s}"]) if row.get(f"player_{s}") is not None else s % players
        if p not in owners:
            raise ValueError(f"setting {label!r}: seat {s} belongs to player {p}, but it has "
                             f"{players} players")
        owners[p].append(s)

    def get(col):
        v = row[col]
        return v.item() if hasattr(v, "item") else v
    return _meta(label, players, get, lambda c: c in row and row[c] is not None,
                 np.zeros(0, np.int64), owners)


def setting_groups(df: pd.DataFrame) -> list[tuple[str, pd.DataFrame]]:
    """``[(label, rows)]`` in order of first appearance of the ``setting`` column (one group
    ``run`` without it)."""
    if "setting" not in df.columns:
        return [("run", df)]
    labels = df["setting"].astype(str)
    return [(str(k), g) for k, g in df.groupby(labels.to_numpy(), sort=False)]


def _decide_both(d: SettingData, value: np.ndarray) -> SettingData:
    d.value = value
    chain_keys = (d.score, d.rescued, value, d.turns)
    for rule in TIEBREAKS:
        d.win[rule], d.step[rule] = decide(*chain_keys, rule=rule, equal=3 in d.challenges,
                                           komi=d.komi)
    return d


def prepare(label: str, g: pd.DataFrame) -> SettingData:
    """Validate one setting's rows and compute its per-player keys and winners under both
    rules (``decide`` on the players' sums, Challenge 3 from ``challenges``)."""
    players = n_players(g)
    games = g["game"].astype("int64").to_numpy() if "game" in g else np.arange(len(g))
    if len(np.unique(games)) != len(games):
        raise ValueError(f"setting {label!r} holds some game indices more than once")
    owners = seats_of_players(g)
    d = _meta(label, players, lambda col: one_value(g, col, label), lambda c: c in g.columns,
              games, owners)
    ps = player_scores(g)

    def key(name):
        return np.column_stack([ps[f"{name}_{p}"].to_numpy(np.int64) for p in range(players)]) \
            if len(g) else np.zeros((0, players), np.int64)

    d.score, d.rescued, d.explorers, d.turns = (key(k) for k in ("score", "rescued",
                                                                 "explorers", "turns"))
    d.lost = losses_by_cause(g, owners, d.seats)
    return _decide_both(d, key("rescued_value"))


def prepare_all(df: pd.DataFrame) -> list[SettingData]:
    return [prepare(label, g) for label, g in setting_groups(df)]


def block_columns(probe: SettingData) -> list[str]:
    """The per-game columns ``block_of`` reads for a setting like ``probe``."""
    seats = range(probe.seats)
    return ["game"] + [f"{k}_{s}" for k in ("score", "rescued", "rescued_value", "turns",
                                              "lost") for s in seats]


def cause_columns(probe: SettingData) -> list[str]:
    """The per-game columns of each seat's losses by cause (what ``SettingData.lost`` reads)."""
    return [f"lost_{c}_{s}" for c in LOSS_CAUSES for s in range(probe.seats)]


def losses_by_cause(cols: Mapping, owners: dict, seats: int) -> dict:
    """``{cause: (games, players)}`` of losses by cause, when every seat's column is there
    (a run read without them: ``{}``)."""
    if len(cols) == 0 or not all(f"lost_{c}_{s}" in cols for c in LOSS_CAUSES
                                 for s in range(seats)):
        return {}
    return {c: per_player(cols, f"lost_{c}", owners) for c in LOSS_CAUSES}


def block_of(probe: SettingData, cols: Mapping) -> SettingData:
    """One chunk of the setting ``probe`` describes, from its numeric columns (numpy arrays
    or a pandas table: ``block_columns``): the same arrays as ``prepare`` gives for those
    rows, without checking again what the setting's probe already checked."""
    owners = probe.owners
    games = np.array(cols["game"], dtype=np.int64)          # a copy: not a view of the file
    rescued = per_player(cols, "rescued", owners)
    lost = per_player(cols, "lost", owners)
    d = replace(probe, games=games, score=per_player(cols, "score", owners), rescued=rescued,
                explorers=rescued + lost, turns=per_player(cols, "turns", owners))
    d.win, d.step, d.cache = {}, {}, {}
    d.lost = losses_by_cause(cols, owners, probe.seats)
    return _decide_both(d, per_player(cols, "rescued_value", owners))


def pool(parts: list[SettingData], seating: tuple, label: str, stride: int,
         style: str) -> SettingData:
    """One setting from every rotation of a mixed seating: rotation r's game g becomes
    ``r * stride + g`` so that the unit stays the game index, and the strategies read
    ``style`` (``experiments.tables.rotations``)."""
    first = parts[0]
    cat = lambda name: np.concatenate([getattr(p, name) for p in parts])     # noqa: E731
    games = np.concatenate([p.games + r * stride for r, p in enumerate(parts)])
    d = SettingData(label=label, players=first.players, seed=first.seed,
                    factors={**first.factors, "strategies": (style,) * len(seating)},
                    games=games, own=first.own, challenges=first.challenges,
                    max_turns=first.max_turns, score=cat("score"), rescued=cat("rescued"),
                    explorers=cat("explorers"), turns=cat("turns"), owners=first.owners,
                    komi=first.komi)
    for rule in first.win:
        d.win[rule] = np.concatenate([p.win[rule] for p in parts])
        d.step[rule] = np.concatenate([p.step[rule] for p in parts])
    if all(p.value is not None for p in parts):
        d.value = cat("value")
    if all(p.lost for p in parts):
        d.lost = {c: np.concatenate([p.lost[c] for p in parts]) for c in first.lost}
    return d
