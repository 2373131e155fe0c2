"""A sweep spec: an experiment file (TOML) or a command-line grid -> the grid points to play.

One file per question, checked in under ``experiments/``::

    name = "five-six-balance"
    seed = 1                 # root seed, shared by every setting (common random numbers)
    games = 200000           # per setting
    chunk = 10000            # games per chunk (optional)
    skip_invalid = false     # true: leave out combinations that cannot be played, saying so
    [grid]                   # every key a list; the sweep is their cross product
    players = [5, 6]
    strategies = ["greedy"]  # one name for all seats, or a per-seat list (2 names = 2 players),
                             # or {rotate = ["greedy", "racer"]}: a mixed table in every rotation
    boats = ["rules", "flat", "reversed", [2, 2, 1, 1, 2]]
    challenges = [[], [3]]
    tiebreak = ["chain", "shared"]

A ``{rotate = [...]}`` line-up is repeated round the table and played in every distinct rotation
(``experiments.tables.rotations``), so that a mixed table's seat effects are judged with each
strategy in each seat equally often. Grid keys besides those: ``dolphins``, ``squid``,
``squid_only`` (X5, X7, X7.6), the rule flags ``lagoon_is_sea`` (R1), ``creatures_must_move``
(R2/R21), ``max_turns`` (R10), and the compensation levers ``komi`` (C1: ``"none"`` or a
per-seat list such as ``[0, 0, 0.5, 1, 1.5]``) and ``setup_order`` (C2: ``"snake"``,
``"explorers=reverse,boats=snake"``). A key left out takes the rules' default. Several
``[[grid]]`` tables give the union of their cross products (one factor at a time against a
common base: the base point appears once). A ``[claims]`` table names the claims a study's
report gives verdicts on, with their tolerances (``experiments.verdicts.claims``). Every
problem is a ``SpecError`` with one line naming the file, the key (and its line) and what is
accepted; nothing is played before the whole spec is valid.
"""
from __future__ import annotations

import itertools
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from play.settings import (
    RULES_BOATS,
    Settings,
    SettingsError,
    is_bonus,
    parse_komi,
    parse_setup_order,
    seats_for,
)
from strategies.plugins import load_plugins, source_hash
from strategies.registry import StrategyError

from ..verdicts.claims import check_claims

# the shipped study files sit in the experiments package folder, above this sub-package
STUDIES = Path(__file__).resolve().parents[1]
ALLOCATIONS = ("rules", "flat", "reversed")          # named boat allocations (X1.1, X1.2, X1.5)
DEFAULT_CHUNK = 10_000
MAX_INDEX = 2**63 - 1                                 # game indices and seeds are 63-bit
MAX_TURNS = 2**31 - 1                                 # the engine's turn cap is an int32
MAX_CHUNKS = 1_000_000                                # chunk files a run folder takes, in all
TOP_KEYS = ("name", "description", "seed", "games", "chunk", "skip_invalid", "plugins", "grid",
            "claims")
# grid key -> (default values, what one value must be, checker of one value)
GRID_ORDER = ("players", "strategies", "boats", "challenges", "tiebreak", "dolphins", "squid",
              "squid_only", "lagoon_is_sea", "creatures_must_move", "max_turns", "komi",
              "setup_order")


class SpecError(ValueError):
    """Bad experiment file or grid: the message is one line."""


def _is_int(v) -> bool:
    return isinstance(v, int) and not isinstance(v, bool)


def chunk_files_problem(games: int, chunk: int, settings: int = 1) -> str | None:
    """Why ``games`` per setting of ``settings`` settings in chunks of ``chunk`` are more chunk
    files than a run folder takes (``MAX_CHUNKS`` in all: every one is planned, listed and
    checked before the first game, so a count such as 2**63-1 would hang there), or None."""
    files = -(-games // chunk) * settings
    if files <= MAX_CHUNKS:
        return None
    return (f"{games:,} games per setting in chunks of {chunk:,} are {files:,} chunk files for "
            f"{settings:,} setting{'s' * (settings != 1)}, more than a run folder takes "
            f"({MAX_CHUNKS:,}); at most {MAX_CHUNKS // settings * chunk:,} games per setting "
            f"with this chunk (a larger chunk allows more)")


def _check_players(v):
    return _is_int(v) and 2 <= v <= 6


def _check_strategies(v):
    if isinstance(v, dict):                 # {rotate = [...]}: experiments.tables.rotations
        return list(v) == ["rotate"] and isinstance(v["rotate"], list) and len(v["rotate"]) >= 2 \
            and all(isinstance(x, str) and x for x in v["rotate"])
    return (isinstance(v, str) and v != "") or (
        isinstance(v, list) and v and all(isinstance(x, str) and x for x in v))


def _check_boats(v):
    return v in ALLOCATIONS or (isinstance(v, list) and v and all(_is_int(x) for x in v))


def _check_challenges(v):
    return isinstance(v, list) and all(_is_int(x) for x in v)


def _check_komi(v):
    if isinstance(v, str):                      # "none", or the CLI's "0,0,0.5,1,1.5"
        try:
            parse_komi(v)
            return True
        except SettingsError:
            return False
    return isinstance(v, list) and bool(v) and all(is_bonus(k) for k in v)


def _check_setup_order(v):
    try:
        return isinstance(v, str) and bool(parse_setup_order(v))
    except SettingsError:
        return False


GRID = {
    "players": ((4,), "a player count 2-6", _check_players),
    "strategies": (("random",), "a strategy name, a per-seat list of names, or {rotate = [names]} "
                   "(every name in every seat in turn)", _check_strategies),
    "boats": (("rules",), f"one of {', '.join(ALLOCATIONS)} or a per-seat list of numbers 0-3",
              _check_boats),
    "challenges": (([],), "a list of challenge numbers 1-6 ([] = the base game)",
                   _check_challenges),
    "tiebreak": (("",), "shared or chain", lambda v: v in ("shared", "chain")),
    "dolphins": ((False,), "true or false", lambda v: isinstance(v, bool)),
    "squid": ((False,), "true or false", lambda v: isinstance(v, bool)),
    "squid_only": ((False,), "true or false", lambda v: isinstance(v, bool)),
    "lagoon_is_sea": ((True,), "true or false", lambda v: isinstance(v, bool)),
    "creatures_must_move": ((False,), "true or false", lambda v: isinstance(v, bool)),
    "max_turns": ((400,), f"a whole number of seat-turns 1 to {MAX_TURNS} (2**31-1, the "
                  f"engine's int32)", lambda v: _is_int(v) and 1 <= v <= MAX_TURNS),
    "komi": (("none",), "none or a per-seat list of bonuses in points, whole or half, -30 to 30 "
             "(C1; also as text, \"0,0,0.5,1,1.5\")", _check_komi),
    "setup_order": (("forward",), "forward, reverse, snake, or explorers=ORDER,boats=ORDER "
                    "(C2)", _check_setup_order),
}
assert tuple(GRID) == GRID_ORDER


@dataclass(frozen=True)
class Point:
    """One grid point: its label, the game settings it plays, and how its boats were named."""
    label: str
    settings: Settings
    allocation: str                 # rules, flat, reversed or custom

    def game_key(self) -> tuple:
        """Points with the same key play byte-identical games: the tie-break only recounts
        them, and named allocations can resolve to the same boats (4 players: all 2,2,2,2)."""
        d = self.settings.to_dict()
        d.pop("tiebreak")
        return tuple(sorted((k, tuple(v) if isinstance(v, list) else v) for k, v in d.items()))


@dataclass(frozen=True)
class Spec:
    """A validated sweep: the points in grid order, and what the file asked for."""
    name: str
    seed: int
    games: int
    chunk: int
    points: tuple[Point, ...]
    grid: list = field(compare=False)       # the grid tables, each with every key filled in
    skipped: tuple[str, ...] = ()       # "label: reason" of combinations left out
    description: str = ""
    source: str = ""                    # the file it came from, or "command line"
    claims: dict = field(default_factory=dict, compare=False)   # claim id -> its parameters
    plugins: tuple[str, ...] = ()       # strategy files (absolute paths) the grid's names use
    # games per point where fewer than ``games`` (``study --until-settled``: a setting whose
    # verdicts have all settled stops at the round where they did); not part of the identity,
    # like ``games``: the same games, fewer of them
    limits: dict = field(default_factory=dict, compare=False)

    def games_of(self, label: str) -> int:
        """The games the point ``label`` plays: ``games``, or its limit when lower."""
        return min(self.games, self.limits.get(label, self.games))

    def identity(self) -> dict:
        """What decides the games a run folder holds: the seed, the chunking and every point's
        settings. (The name, description and game count do not: a run can be renamed and
        extended.)"""
        out = {"seed": self.seed, "chunk": self.chunk,
               "points": [{"label": p.label, "allocation": p.allocation,
                           "settings": p.settings.to_dict()} for p in self.points]}
        if self.plugins:        # an edited plug-in plays other games: never mixed with these
            out["plugins"] = {Path(p).name: source_hash(Path(p)) for p in self.plugins}
        return out

    def chunks(self, games: int | None = None) -> list[tuple[int, int, int]]:
        """``(index, first game, count)`` of every chunk of one setting."""
        games = self.games if games is None else games
        return [(k, first, min(self.chunk, games - first))
                for k, first in enumerate(range(0, games, self.chunk))]


# ------------------------------------------------------------------------------ labels
def boats_label(value) -> str:
    return value if isinstance(value, str) else ".".join(map(str, value))


def label(s: Settings, boats) -> str:
    """A short, stable, readable name of a grid point, e.g. ``p5-boats_rules-ch3-tb_chain-greedy``;
    rule flags appear only when they are not the default."""
    names = list(s.strategies)
    if s.players == 2 and names[:2] == names[2:]:
        names = names[:2]                                   # A,B,A,B: name the two players
    strategy = names[0] if len(set(names)) == 1 else "+".join(names)
    parts = [f"p{s.players}", f"boats_{boats_label(boats)}",
             "ch" + "".join(map(str, s.challenges)) if s.challenges else "base",
             f"tb_{s.tiebreak}", strategy]
    if s.squid:
        parts.append("squidonly" if s.squid_only else "squid")
    if not s.lagoon_is_sea:
        parts.append("lagoonland")
    if s.creatures_must_move:
        parts.append("mustmove")
    if s.max_turns != 400:
        parts.append(f"cap{s.max_turns}")
    if s.komi:                                                           # C1
        parts.append("komi_" + "_".join(f"{k:g}" for k in s.komi))
    if s.setup_order != ("forward", "forward"):                          # C2
        explorers, boats = s.setup_order
        parts.append(f"order_{explorers}" if explorers == boats else
                     f"order_{explorers}.{boats}")
    return "-".join(parts)


def resolve_boats(value, players: int, challenges: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    """A grid ``boats`` value -> (per-seat boats, allocation name). ``rules`` is X1.1/X1.2 (and
    X6.1's two each under Challenge 6), ``flat`` two per seat while the 12-boat supply lasts,
    ``reversed`` the rules' list backwards."""
    seats = seats_for(players)
    rules = (2,) * seats if 6 in challenges else RULES_BOATS[players]
    if value == "rules":
        return rules, "rules"
    if value == "flat":
        return tuple(min(2, max(0, 12 - 2 * s)) for s in range(seats)), "flat"
    if value == "reversed":
        return tuple(reversed(rules)), "reversed"
    return tuple(value), "custom"


# ------------------------------------------------------------------------------ parsing
def _line_of(text: str, key: str) -> str:
    """`` (line N)`` of the first assignment to ``key`` in the TOML text, if found."""
    m = re.search(rf"^\s*({re.escape(key)}\s*=|\[{re.escape(key)}\])", text, re.MULTILINE)
    return f" (line {text.count(chr(10), 0, m.start()) + 1})" if m else ""


def studies() -> list[str]:
    """The experiment files that ship with the package (``experiments/*.toml``)."""
    return sorted(p.stem for p in STUDIES.glob("*.toml"))


def shipped() -> dict[str, Path]:
    """The shipped studies by their ``name`` (``five-six``, ``tiebreaks``, ...) -> file: the
    sweeps, and the searches (``kind = "fairest"``: ``is_search``)."""
    out = {}
    for path in sorted(STUDIES.glob("*.toml")):
        try:
            name = tomllib.loads(path.read_text(encoding="utf-8")).get("name", path.stem)
        except (OSError, tomllib.TOMLDecodeError):
            continue
        out[str(name)] = path
    return out


def find(name: str | Path) -> Path:
    """A path as given, or the name of a study that ships with the package
    (``five_six_balance`` or ``five_six_balance.toml``), so that an installed package runs its
    studies from any folder."""
    path = Path(name)
    if path.exists() or path.parent != Path("."):
        return path
    shipped = STUDIES / (path.name if path.suffix == ".toml" else f"{path}.toml")
    return shipped if shipped.exists() else path


def load(path: str | Path, **overrides) -> Spec:
    """Read and validate an experiment file (a path, or a shipped study's name: ``find``);
    ``overrides`` (``games``, ``seed``, ``chunk``: the command line's) replace the file's
    values where not None."""
    path = find(path)
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise SpecError(f"{path}: no such experiment file (studies that ship with "
                        f"survive-sim: {', '.join(studies()) or 'none'})") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(f"{path}: cannot be read ({getattr(e, 'strerror', None) or e})") from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: not valid TOML: {e}") from None
    data.update({k: v for k, v in overrides.items() if v is not None})
    return build(data, source=str(path), text=text)


def head(data: dict, bad, keys: tuple[str, ...], default_name: str) -> tuple[str, str, int]:
    """The top of a study file, checked: only ``keys``, and its ``name``, ``description`` and
    ``seed`` (``bad(key, problem)`` raises the one-line error)."""
    for key in data:
        if key not in keys:
            bad(key, f"unknown key; accepted: {', '.join(keys)}")
    name = data.get("name", default_name)
    if not isinstance(name, str) or not name.strip():
        bad("name", "must be a non-empty string")
    description = data.get("description", "")
    if not isinstance(description, str):
        bad("description", "must be a string")
    seed = data.get("seed", 0)
    if not _is_int(seed) or not 0 <= seed <= MAX_INDEX:
        bad("seed", f"must be a whole number 0 to 2**63-1, got {seed!r}")
    return name.strip(), description, seed


def build(data: dict, source: str = "command line", text: str = "") -> Spec:
    """Validate a spec given as a dict (a parsed TOML file, or the command line's grid)."""
    def bad(key: str, problem: str):
        raise SpecError(f"{source}: {key}{_line_of(text, key.split('.')[-1])}: {problem}")

    if data.get("kind") == "fairest":
        raise SpecError(f"{source}: a search of boat allocations (kind = \"fairest\"), not a "
                        f"sweep: run it with `survive-sim study NAME` or `survive-sim fairest "
                        f"--spec FILE`")
    name, description, seed = head(data, bad, TOP_KEYS, Path(source).stem
                                   if source != "command line" else "sweep")
    if "games" not in data:
        bad("games", "missing: give the number of games per setting")
    games, chunk = data["games"], data.get("chunk", DEFAULT_CHUNK)
    for key, v in (("games", games), ("chunk", chunk)):
        if not _is_int(v) or not 1 <= v <= MAX_INDEX:
            bad(key, f"must be a positive whole number (1 to 2**63-1), got {v!r}")
    skip = data.get("skip_invalid", False)
    if not isinstance(skip, bool):
        bad("skip_invalid", f"must be true or false, got {skip!r}")
    plugins = _load_plugins(data.get("plugins", []), source, bad)
    grid = data.get("grid")
    grids = grid if isinstance(grid, list) else [grid]
    if not grids or not all(isinstance(g, dict) and g for g in grids):
        bad("grid", "missing or empty: give a [grid] table (or several [[grid]] tables) with "
                    "at least one key, e.g. players = [4]")
    points, skipped, values = [], [], []
    for g in grids:
        v = _grid_values(g, bad)
        more, left_out = _expand(v, skip, bad)
        labels = {p.label for p in points}
        points += [p for p in more if p.label not in labels]   # grids may overlap
        skipped += left_out
        values.append(v)
    if not points:
        bad("grid", "no combination of the grid can be played: " + "; ".join(skipped))
    claims = data.get("claims", {})
    if not isinstance(claims, dict) or not all(isinstance(v, dict) for v in claims.values()):
        bad("claims", "must be a table of [claims.ID] tables, e.g. [claims.S1b] with "
                      "tolerance = 0.01")
    problem = check_claims(claims)
    if problem:
        bad("claims", problem)
    problem = chunk_files_problem(games, chunk, len(points))
    if problem:
        bad("games", problem)
    return Spec(name=name, seed=seed, games=games, chunk=chunk, points=tuple(points),
                grid=values, skipped=tuple(skipped), description=description, source=source,
                claims=claims, plugins=plugins)


def _load_plugins(paths, source: str, bad) -> tuple[str, ...]:
    """``plugins = ["my_bot.py"]``: files relative to the experiment file's folder, loaded
    before the grid is checked so that their strategy names are known."""
    if not isinstance(paths, list) or not all(isinstance(p, str) and p for p in paths):
        bad("plugins", "must be a list of strategy files, e.g. plugins = [\"my_bot.py\"]")
    base = Path(source).parent if source != "command line" else Path.cwd()
    resolved = tuple(str((base / p).expanduser().resolve()) for p in paths)
    try:
        load_plugins(resolved)
    except StrategyError as e:
        bad("plugins", str(e))
    return resolved


def _grid_values(grid: dict, bad) -> dict:
    """One ``[grid]`` table checked: every key known, every value a non-empty list of what the
    key accepts; keys left out take the rules' default."""
    values = {}
    for key in grid:
        if key not in GRID:
            bad(f"grid.{key}", f"unknown key; accepted: {', '.join(GRID_ORDER)}")
    for key in GRID_ORDER:
        default, what, ok = GRID[key]
        if key not in grid:
            values[key] = list(default)             # the rules' default
            continue
        vals = grid[key]
        if not isinstance(vals, list) or not vals:
            bad(f"grid.{key}", f"must be a non-empty list, each {what}, got {vals!r}")
        for v in vals:
            if not ok(v):
                bad(f"grid.{key}", f"each value must be {what}, got {v!r}")
        values[key] = vals
    return values


def _expand(values: dict, skip: bool, bad) -> tuple[list[Point], list[str]]:
    """The cross product in grid order; invalid combinations rejected or, with skip, listed."""
    points, skipped, seen = [], [], {}
    for combo in itertools.product(*(values[k] for k in GRID_ORDER)):
        v = dict(zip(GRID_ORDER, combo))
        for strategies in _lineups(v["strategies"], v["players"], bad):
            _add_point(v, strategies, skip, bad, points, skipped, seen)
    return points, skipped


def _lineups(value, players: int, bad) -> list[tuple[str, ...]]:
    """A grid ``strategies`` value -> the per-seat tuples it plays: one, or every distinct
    rotation of a ``{rotate = [...]}`` line-up repeated round the table
    (``experiments.tables.rotations``)."""
    if isinstance(value, str):
        return [(value,)]
    if isinstance(value, list):
        return [tuple(value)]
    # pandas (+0.4 s measured) only for a rotate line-up: a study loads before any check
    from ..tables.rotations import base_seating, rotation_problem, rotations
    lineup, seats = tuple(value["rotate"]), seats_for(players)
    problem = rotation_problem(lineup, players, seats)
    if problem:
        bad("grid.strategies", f"{{rotate = {list(lineup)!r}}} at {players} players: {problem}")
    return rotations(base_seating(lineup, seats))


def _add_point(v: dict, strategies: tuple, skip: bool, bad, points, skipped, seen) -> None:
    """One grid combination checked and appended to ``points`` (or to ``skipped``)."""
    what = (f"players={v['players']}, strategies={v['strategies']!r}, boats={v['boats']!r}, "
            f"challenges={v['challenges']!r}")
    try:
        challenges = tuple(sorted(set(v["challenges"]) | ({5} if v["dolphins"] else set())))
        boats, allocation = resolve_boats(v["boats"], v["players"], challenges)
        s = Settings(players=v["players"], strategies=strategies, boats=boats,
                     tiebreak=v["tiebreak"], challenges=tuple(v["challenges"]),
                     dolphins=v["dolphins"], squid=v["squid"], squid_only=v["squid_only"],
                     lagoon_is_sea=v["lagoon_is_sea"],
                     creatures_must_move=v["creatures_must_move"], max_turns=v["max_turns"],
                     komi=parse_komi(v["komi"]) if isinstance(v["komi"], str)
                     else tuple(v["komi"]),
                     setup_order=parse_setup_order(v["setup_order"]))
    except SettingsError as e:
        reason = str(e)
        if not skip:
            bad("grid", f"cannot play {what}: {reason} (set skip_invalid = true to leave "
                        f"such combinations out)")
        skipped.append(f"{what}: {reason}")
        return
    name = label(s, v["boats"])
    if name in seen:
        if seen[name] == s:
            bad("grid", f"the grid gives the setting {name} twice")
        bad("grid", f"two settings share the label {name}")   # cannot happen: a guard
    seen[name] = s
    points.append(Point(name, s, allocation))


def is_search(path: str | Path) -> bool:
    """Whether a study file is a search of boat allocations (``kind = "fairest"``,
    ``experiments.fairest``) rather than a sweep."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8")).get("kind") == "fairest"
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return False
