"""The options several commands share, and the turning of bad input into one-line usage errors.

What values are accepted is decided by ``play.settings`` alone (``Settings.from_options``
parses the strings); here ``SettingsError`` becomes click's usage error (exit code 2). Only
light modules are imported at start-up: ``play.settings`` pulls numpy, so it is imported
when a command runs.
"""
from __future__ import annotations

from typing import NoReturn

import click


INDEX_MAX = 2**63 - 1                 # seeds and game indices are int64
INT32_MAX = 2**31 - 1                 # the engine's int32 fields (the turn cap, counts)


class IntRange(click.IntRange):
    """click's ``IntRange`` with an upper bound always: ``max`` defaults to the largest int64
    (a count, a seed or an index reaches numpy as one), so ``99999999999999999999`` is one
    usage line, never an ``OverflowError`` deep in a command."""

    def __init__(self, min=None, max=None, min_open=False, max_open=False, clamp=False):
        super().__init__(min, INDEX_MAX if max is None else max, min_open, max_open, clamp)


class FloatRange(click.FloatRange):
    """click's ``FloatRange`` without NaN and infinities: ``nan`` passes every comparison, so
    click's own range check lets it through (``--scale nan``, ``--precision nan``)."""

    name = "finite float"

    def convert(self, value, param, ctx):
        import math
        number = click.FLOAT.convert(value, param, ctx)
        if not math.isfinite(number):
            self.fail(f"{value!r} is not a finite number; give a number "
                      f"{self._describe_range()}", param, ctx)
        return super().convert(number, param, ctx)


def one_line(text) -> str:
    return " ".join(str(text).split())


def bad(message: str, param: str | None = None) -> NoReturn:
    """Raise click's usage error (exit 2) for ``param`` (an option name) or the command."""
    if param:
        raise click.BadParameter(message, param_hint=f"'{param}'")
    raise click.UsageError(message)


def usage_error(e: ValueError, options: dict | None = None) -> NoReturn:
    """The API's one-line ``ValueError`` as the usage error (exit 2) for its ``param`` (the
    option it names: ``TournamentError``, ``TuneError``, ``SettingsError`` ...); a
    ``SettingsError`` whose message starts with its option names it once. ``options``: the
    command's options by the API's argument names (``{"max_games": "--max-games"}``): a
    refusal that can be spelled again (``survive_sim.checks.refuse``) is worded with them,
    any other names its option."""
    from play.settings import SettingsError
    message, param = str(e), getattr(e, "param", None)
    if options and getattr(e, "spell", None) is not None:
        message, param = e.spell(options)
    elif options and param in options:
        param = options[param]
    if isinstance(e, SettingsError) and param and message.startswith(param):
        param = None
    bad(message, param)


def checked(fn, *args, **kwargs):
    """``fn(*args, **kwargs)`` with ``SettingsError`` turned into a usage error."""
    from play.settings import SettingsError
    try:
        return fn(*args, **kwargs)
    except SettingsError as e:
        usage_error(e)


def load_plugins_option(paths) -> None:
    """Load ``--plugin`` files (``strategies.plugins``); a bad one is a usage error."""
    if not paths:
        return
    from strategies.plugins import load_plugins
    from strategies.registry import StrategyError
    try:
        load_plugins(paths)
    except StrategyError as e:
        bad(str(e), "--plugin")


def settings_from(players: int, strategies: str = "random", plugins=(), **rules):
    """Validated ``Settings`` from the command line's values (``rule_options``' names), after
    loading the ``--plugin`` files whose strategies the names may use."""
    from play.settings import Settings
    load_plugins_option(plugins)
    return checked(Settings.from_options, players, strategies, **rules)


def check_last_game(first: int, games: int) -> None:
    """Game indices are int64: the last one, ``first + games - 1``, must fit (the API's check,
    ``survive_sim.checks``, in the CLI's words)."""
    from survive_sim.checks import last_game_problem
    problem = last_game_problem(first, games, "--first", "--games")
    if problem:
        bad(problem, "--games")


players_option = click.option(
    "--players", type=IntRange(2, 6), default=4, show_default=True,
    help="Number of players (2-6). 2 players sit as 4 seats A,B,A,B.")
strategies_option = click.option(
    "--strategies", default="random", show_default=True, metavar="NAMES",
    help="One strategy for every seat, or a comma-separated name per seat; with 2 players "
         "also one name per player (A,B: seats A,B,A,B). A name may carry parameters: "
         "greedy:risk=2,greed=0.5. `survive-sim strategies` lists them.")
plugin_option = click.option(
    "--plugin", "plugins", multiple=True, metavar="FILE",
    help="A Python file of your own strategies (docs/writing-a-strategy.md); repeatable. Its "
         "names can then be used in --strategies.")
seed_option = click.option(
    "--seed", type=IntRange(0, INDEX_MAX), default=0, show_default=True,
    help="Root seed (0 to 2**63-1).")
tiebreak_option = click.option(
    "--tiebreak", type=click.Choice(["shared", "chain"]), default=None,
    help="How ties are counted (B7.3, X1.6): shared win, or the 5-6 player chain. "
         "[default: chain for 5-6 players, shared for 2-4]")


def expansion_options(f):
    """--challenge, --dolphins, --squid, --squid-only (simulate, replay, bench)."""
    f = click.option("--squid-only", is_flag=True,
                     help="X7.6 (with --squid): giant squid replace the whales.")(f)
    f = click.option("--squid", is_flag=True,
                     help="X7: the Giant Squid mini-expansion.")(f)
    f = click.option("--dolphins", is_flag=True,
                     help="X5: Dolphins & Dive Dice (the same as --challenge 5).")(f)
    f = click.option("--challenge", "challenges", default="", metavar="LIST",
                     help="Challenge rules in force, comma-separated (X2-X6): 1 Densely "
                          "Populated, 2 Leave No One Behind, 3 Everyone is Equal, 4 Atlantis "
                          "is Gone, 5 Dolphins & Dive Dice, 6 Overpopulated (5-6 players). "
                          "Default: none.")(f)
    return f


def rule_options(f):
    """The variant flags of RULES.md (X1.5, B7.3/X1.6, R1, R2/R21, R10, C1, C2) and the expansions,
    shared by simulate and replay; their names are ``Settings.from_options``' keywords."""
    f = tiebreak_option(f)
    f = expansion_options(f)
    f = click.option("--boats", default="rules", show_default=True, metavar="LIST",
                     help="Boats per seat (X1.5): `rules` (2 each for 2-4 players, 1,1,2,2,2 "
                          "for 5, 1,1,1,1,2,2 for 6) or one number 0-3 per seat, at most 12 "
                          "in all, e.g. 2,2,2,2,2.")(f)
    f = click.option("--setup-order", default="forward", show_default=True, metavar="ORDER",
                     help="C2: the order seats place explorers (B4.3) and boats (B4.4) in: "
                          "`forward` (the rules), `reverse` (the last seat first) or `snake` "
                          "(1..N, N..1, ...); or each phase on its own, e.g. "
                          "explorers=reverse,boats=snake.")(f)
    f = click.option("--komi", default="none", show_default=True, metavar="LIST",
                     help="C1: a score bonus per seat in points, whole or half, -30 to 30, "
                          "counted before the tie-break, e.g. 0,0,0.5,1,1.5.")(f)
    f = click.option("--max-turns", type=IntRange(1, INT32_MAX), default=400, show_default=True,
                     help="R10: turn cap (seat-turns); capped games end as `turn_cap`.")(f)
    f = click.option("--creatures-must-move", is_flag=True,
                     help="R2/R21: a die-moved creature may not stay put when it can move.")(f)
    f = click.option("--lagoon-is-sea/--lagoon-not-sea", default=True, show_default=True,
                     help="R1: whether the lagoon counts as sea when choosing the tile to sink.")(f)
    return f


def challenges_label(settings) -> str:
    return ",".join(map(str, settings.challenges)) or "none"


def expansions_label(settings) -> str:
    """', squid' / ', squid only' for a run's header (dolphins show as challenge 5)."""
    return ", squid only" if settings.squid_only else (", squid" if settings.squid else "")
