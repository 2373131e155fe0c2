"""What a search for the fairest boat allocation plays: the player counts, the styles, the
space, the tolerance and error rate, and the games of each phase (``FairSpec``), from a study
file (``kind = "fairest"``, a ``[fairest]`` table), a dict or the command line.

Every value is checked before anything is played; a bad one is a ``SpecError`` of one line
naming the key and what it accepts.
"""
from __future__ import annotations

import hashlib
import json
import tomllib
from dataclasses import asdict, dataclass, field, replace
from pathlib import Path

from play.settings import SettingsError, canonical_strategy

from ..sweeps.spec import MAX_INDEX, SpecError, _is_int, _line_of, find, head, shipped
from .players import Style
from .space import SPACES, candidates, parse_space, rule_candidates

KIND = "fairest"
TOP_KEYS = ("name", "kind", "description", "seed", "fairest")
KEYS = ("players", "styles", "space", "tolerance", "alpha", "screen", "max_games", "budget",
        "confirm", "confirm_games", "chunk", "tiebreak", "challenges", "confirm_all", "settle")
# what only the confirmation reads: a search that differs in these alone keeps its races (not
# the tolerance: another tolerance is another question, asked before the games are seen)
CONFIRM_KEYS = ("confirm", "confirm_games", "confirm_all", "settle")
# keys a search's identity leaves out at their default, so folders made before they existed
# still resume
LATER_KEYS = {"confirm_all": False, "settle": None}
CONFIRM_SALT = 0x5EED_C0F1_4A11         # mixes the confirmation's root seed from the search's


@dataclass(frozen=True)
class FairSpec:
    """A search: for each player count and style, race the allocations of ``space`` (``screen``
    games each, doubling per round up to ``max_games``; at most ``budget`` engine games per
    count and style when given), then play the ``confirm`` best of every style, and
    ``rules``, on ``confirm_games`` fresh game indices for every style, each seat judged
    against 1/N +- ``tolerance``. ``confirm_all``: confirm instead, in each style, every
    allocation its race has not shown unfair. ``settle``: play the confirmation in rounds,
    doubling from ``confirm_games`` up to ``settle`` games, judged with anytime-valid
    intervals, until every allocation confirmed is fair or unfair."""
    name: str = "fairest"
    description: str = ""
    seed: int = 0
    players: tuple[int, ...] = (5, 6)
    styles: tuple[Style, ...] = (Style(("greedy",)),)
    space: str = "monotone"
    tolerance: float = 0.01
    alpha: float = 0.05
    screen: int = 1000
    max_games: int = 32000
    budget: int | None = None
    confirm: int = 3
    confirm_games: int = 20000
    chunk: int = 1000
    tiebreak: str = ""
    challenges: tuple[int, ...] = ()
    confirm_all: bool = False
    settle: int | None = None
    source: str = field(default="command line", compare=False)

    def sizes(self, style: Style | None = None) -> list[int]:
        """Game indices per candidate after each round: ``screen``, doubled, up to the cap
        (the style's own, when it has one)."""
        cap = (style.max_games if style is not None and style.max_games else self.max_games)
        out, n = [], self.screen
        while n < cap:
            out.append(n)
            n *= 2
        return out + [cap]

    def confirm_seed(self) -> int:
        """The confirmation's root seed: fresh games, a function of the seed, of the number of
        confirmation games and of whether it settles in rounds (a larger one-round
        confirmation, or a settling one after a one-round one, is a new, independent run, not
        a second look at the same games; a settling one whose cap grows goes on with its own
        games, read anytime-valid)."""
        blob = (f"{self.seed}:{self.confirm_games}:{CONFIRM_SALT}"
                + (":settle" if self.settle else "")).encode()
        return int.from_bytes(hashlib.sha256(blob).digest()[:8], "little") & MAX_INDEX

    def identity(self) -> dict:
        """Everything that decides the games and the decisions (not the name or the text)."""
        d = asdict(self)
        for k in ("name", "description", "source"):
            d.pop(k)
        d["styles"] = [list(s.lineup) + ([s.max_games] if s.max_games else [])
                       + ([] if s.race else ["confirm only"]) for s in self.styles]
        for k, default in LATER_KEYS.items():
            if d[k] == default:
                d.pop(k)
        return json.loads(json.dumps(d))

    def confirm_sizes(self, style: Style | None = None) -> list[int]:
        """Fresh games per allocation after each round of the confirmation: one round of
        ``confirm_games``, or doubling from there up to ``settle``; a confirm-only style's
        rounds stop at its ``max_games`` (the same fresh indices, fewer of them)."""
        if not self.settle:
            out = [self.confirm_games]
        else:
            out, n = [], self.confirm_games
            while n < self.settle:
                out.append(n)
                n *= 2
            out.append(self.settle)
        cap = style.max_games if style is not None and not style.race else None
        if cap:
            out = [n for n in out if n < cap] + [cap]
        return out

    def engine_games(self, players: int, style: Style) -> int:
        """How many of the candidates' games the engine plays per game index and seating:
        every candidate, or for a komi-blind style in a rule space, each boat list and setup
        order once (its bonuses are counted on those games)."""
        cands = self.candidates(players)
        if self.space in SPACES or not style.komi_blind:
            return len(cands)
        return len({(c.boats, c.order) for c in cands})

    @property
    def claim(self) -> str:
        """The claim the search judges (docs/claims.md): B3, a fairer boat allocation exists;
        B4, a fair rule exists among boats, komi and setup order."""
        return "B3" if self.space in SPACES else "B4"

    @property
    def what(self) -> str:
        """The space in words: ``monotone boat allocations``, ``rules of boats=...``."""
        return (f"{self.space} boat allocations" if self.space in SPACES else
                f"rules of {self.space}")

    @property
    def racing(self) -> tuple[Style, ...]:
        """The styles that race the space (the others only confirm)."""
        return tuple(s for s in self.styles if s.race)

    def candidates(self, players: int) -> list:
        """The boat lists of a boat space (``monotone``, ``all``), or the ``Rule``s of a
        rule space (``boats=...,komi=...,order=...``: ``space.parse_space``)."""
        if self.space in SPACES:
            return candidates(players, self.space)
        return rule_candidates(players, self.space)


STYLE_WORDS = ("each style is a strategy name (self-play), {strategy = NAME} or {rotate = "
               "[NAMES]} (a mixed table in every rotation), the last two optionally with "
               "max_games = N (that style's own cap) and race = false (it only confirms "
               "what the racing styles found)")


def _style(v, bad) -> Style:
    cap = None
    if isinstance(v, str) and v:
        lineup = (v,)
    elif isinstance(v, dict) and set(v) <= {"strategy", "rotate", "max_games", "race"} and \
            len(set(v) & {"strategy", "rotate"}) == 1:
        if "strategy" in v and isinstance(v["strategy"], str) and v["strategy"]:
            lineup = (v["strategy"],)
        elif "rotate" in v and isinstance(v["rotate"], list) and len(v["rotate"]) >= 2 and \
                all(isinstance(x, str) and x for x in v["rotate"]):
            lineup = tuple(v["rotate"])
        else:
            bad("styles", f"{STYLE_WORDS}, got {v!r}")
        cap = v.get("max_games")
        if cap is not None and (not _is_int(cap) or not 2 <= cap <= MAX_INDEX):
            bad("styles", f"max_games must be a whole number 2 or more, got {cap!r}")
        races = v.get("race", True)
        if not isinstance(races, bool):
            bad("styles", f"race must be true or false, got {races!r}")
    else:
        bad("styles", f"{STYLE_WORDS}, got {v!r}")
    try:
        return Style(tuple(canonical_strategy(x) for x in lineup), cap,
                     v.get("race", True) if isinstance(v, dict) else True)
    except SettingsError as e:
        bad("styles", str(e))


def build(data: dict, source: str = "command line", text: str = "") -> FairSpec:
    """Validate a search given as a dict: the top keys and the ``fairest`` table."""
    def bad(key: str, problem: str):
        raise SpecError(f"{source}: {key}{_line_of(text, key.split('.')[-1])}: {problem}")

    if "kind" not in data and "grid" in data:
        raise SpecError(f"{source}: a sweep (it has a grid), not a search of boat allocations "
                        f"(whose file says kind = \"fairest\"): run it with `survive-sim "
                        f"sweep` or `survive-sim study`")
    name, description, seed = head(data, bad, TOP_KEYS, "fairest")
    if data.get("kind", KIND) != KIND:
        bad("kind", f"must be {KIND!r} for a search of boat allocations")
    table = data.get("fairest", {})
    if not isinstance(table, dict):
        bad("fairest", "must be a table of the search's settings")
    for key in table:
        if key not in KEYS:
            bad(f"fairest.{key}", f"unknown key; accepted: {', '.join(KEYS)}")
    d = FairSpec()
    v = {k: table.get(k, getattr(d, k)) for k in KEYS}

    def whole(key, low, high=MAX_INDEX):
        x = v[key]
        if not _is_int(x) or not low <= x <= high:
            bad(f"fairest.{key}", f"must be a whole number {low:,} to {high:,}, got {x!r}")

    players = v["players"]
    players = list(players) if isinstance(players, (list, tuple)) else players
    if not (isinstance(players, list) and players and all(_is_int(p) and 2 <= p <= 6
                                                          for p in players)) \
            or len(set(players)) != len(players):
        bad("fairest.players", f"must be a list of different player counts 2-6, got {players!r}")
    styles = v["styles"]
    styles = list(styles) if isinstance(styles, (list, tuple)) else styles
    if not isinstance(styles, list) or not styles:
        bad("fairest.styles", "must be a non-empty list of styles, e.g. [\"greedy\", "
                              "{rotate = [\"greedy\", \"careful\", \"racer\"]}]")
    styles = tuple(s if isinstance(s, Style) else _style(s, bad) for s in styles)
    if len({s.lineup for s in styles}) != len(styles):
        bad("fairest.styles", "names one style twice")
    if not any(s.race for s in styles):
        bad("fairest.styles", "needs at least one style that races (race = false only "
                              "confirms what the racing styles found)")
    try:
        parse_space(str(v["space"])) if isinstance(v["space"], str) else parse_space("")
    except ValueError as e:
        bad("fairest.space", str(e))
    for key in ("tolerance", "alpha"):
        x = v[key]
        if not isinstance(x, (int, float)) or isinstance(x, bool) or not 0 < x < 0.5:
            bad(f"fairest.{key}", f"must be a number between 0 and 0.5 (exclusive), got {x!r}")
    whole("screen", 2)
    whole("max_games", 2)
    whole("confirm", 1, 1000)
    whole("confirm_games", 2)
    whole("chunk", 1, 10_000_000)
    for cap in [v["max_games"]] + [s.max_games for s in styles if s.max_games and s.race]:
        if cap < v["screen"]:
            bad("fairest.max_games", f"must be at least screen ({v['screen']:,}), got "
                                     f"{cap:,}")
    if v["budget"] is not None:
        whole("budget", 1)
    if v["settle"] is not None:
        whole("settle", 2)
        if v["settle"] < v["confirm_games"]:
            bad("fairest.settle", f"must be at least confirm_games ({v['confirm_games']:,}), "
                                  f"got {v['settle']:,}")
    if not isinstance(v["confirm_all"], bool):
        bad("fairest.confirm_all", f"must be true or false, got {v['confirm_all']!r}")
    if v["tiebreak"] not in ("", "shared", "chain"):
        bad("fairest.tiebreak", f"must be shared or chain (or left out: each player count's "
                                f"own rule), got {v['tiebreak']!r}")
    ch = v["challenges"]
    if not (isinstance(ch, (list, tuple)) and all(_is_int(c) and 1 <= c <= 5 for c in ch)):
        bad("fairest.challenges", f"must be a list of challenges 1-5 (6 fixes the boats: "
                                  f"X6.1), got {ch!r}")
    spec = FairSpec(name=name, description=description, seed=seed,
                    players=tuple(players), styles=styles, space=v["space"],
                    tolerance=float(v["tolerance"]), alpha=float(v["alpha"]),
                    screen=v["screen"], max_games=v["max_games"], budget=v["budget"],
                    confirm=v["confirm"], confirm_games=v["confirm_games"], chunk=v["chunk"],
                    tiebreak=v["tiebreak"], challenges=tuple(sorted(set(ch))),
                    confirm_all=v["confirm_all"], settle=v["settle"], source=source)
    if spec.budget is not None:
        for n in spec.players:
            for style in spec.racing:
                screen = spec.engine_games(n, style) * spec.screen * len(style.seatings(n))
                if spec.budget < screen:
                    bad("fairest.budget", f"{spec.budget:,} games cannot screen the "
                                          f"{len(spec.candidates(n)):,} allocations of {n} "
                                          f"players for {style.label} ({screen:,} games at "
                                          f"least)")
    return spec


def load(path: str | Path, **overrides) -> FairSpec:
    """A search's study file (or a shipped study's name); ``overrides`` replace the
    ``fairest`` table's values where not None."""
    studies = shipped()
    path = studies[path] if isinstance(path, str) and path in studies else find(path)
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except FileNotFoundError:
        raise SpecError(f"{path}: no such study file") from None
    except (OSError, UnicodeDecodeError) as e:
        raise SpecError(f"{path}: cannot be read ({getattr(e, 'strerror', None) or e})") from None
    except tomllib.TOMLDecodeError as e:
        raise SpecError(f"{path}: not valid TOML: {e}") from None
    seed = overrides.pop("seed", None)
    if seed is not None:
        data["seed"] = seed
    table = dict(data.get("fairest", {})) if isinstance(data.get("fairest", {}), dict) else \
        data.get("fairest")
    if isinstance(table, dict):
        table.update({k: v for k, v in overrides.items() if v is not None})
        data["fairest"] = table
    return build(data, source=str(path), text=text)


def with_values(spec: FairSpec, **values) -> FairSpec:
    """``spec`` with some values replaced (the command line's), checked again."""
    values = {k: v for k, v in values.items() if v is not None}
    if not values:
        return spec
    data = {"name": spec.name, "description": spec.description, "seed": spec.seed,
            "fairest": {k: getattr(spec, k) for k in KEYS}}
    data["fairest"]["styles"] = [_style_value(s) for s in spec.styles]
    data["fairest"]["players"] = list(spec.players)
    data["fairest"]["challenges"] = list(spec.challenges)
    if "seed" in values:
        data["seed"] = values.pop("seed")
    data["fairest"].update(values)
    return replace(build(data, source=spec.source), source=spec.source)


def _style_value(s: Style):
    """A ``Style`` as a study file writes it."""
    v = {"strategy": s.lineup[0]} if not s.mixed else {"rotate": list(s.lineup)}
    if s.max_games:
        v["max_games"] = s.max_games
    if not s.race:
        v["race"] = False
    return v if s.max_games or s.mixed or not s.race else s.lineup[0]
