"""The contract every strategy must pass (RULES R11), as checks a user can run on a plug-in file
(``survive_sim.check_strategy``, ``survive-sim strategies --check FILE``) and the tests run on
every registered strategy (``tests/test_strategy_contract.py``): one copy of the contract.

* ``legal_answers``: a legal answer at every decision of 2-6 player games under every challenge
  and expansion, alone at the table and beside ``random`` (the engine checks each answer and
  stops the run on a bad one, or on a ``choose`` that raised).
* ``same_seed_same_table``: identical tables for the same seed, on one thread in one chunk and
  on two threads in two chunks (a game is a pure function of seed, game and settings: a
  strategy draws its noise from ``rng`` only).
* ``ignores_hidden_information``: the same answer when hidden information -- unrevealed tile
  backs, explorer values, other seats' hands and values -- is re-randomised: the position's
  public part and the seat's own secrets are all a strategy may use, and every other cell of
  the state is filled with noise (so even a read past the end of ``pub`` or ``mine`` is caught);
  and the same answer to the same question asked twice (no noise of its own).

Each check plays a few hundred games at most (about a second once compiled) and returns a
``Check``: its name, pass or fail and one line saying why. A failure of the strategy is a
result, not an exception; only an interruption (a ``BaseException``) goes through. Plain
Python over the engine's entry points: nothing here is compiled.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import SimpleNamespace

import numpy as np

from simulator import rules as R
from simulator.errors import PluginError
from simulator.state import (
    BACK_NAMES,
    D_MOVE,
    D_MOVE_PIECE,
    D_PLAY_TILE,
    D_SINK,
    DECISION_NAMES,
    MAX_OPTS,
    N_PLAYERS,
    N_SEATS,
    OPT_W,
    PRIV,
    PRIV_W,
    PUB_SIZE,
    STATE_SIZE,
)
from strategies.api import SCRATCH_W
from strategies.registry import all_strategies, param_row

from .layout import R_BACKS, R_SEAT0, REC_GAME, REC_SEAT
from .observation import colours_of, observe
from .record import play_logged
from .settings import Settings
from .simulate import numba_threads, run_records

# every challenge and expansion at least once, at every player count
CASES = (
    dict(players=2), dict(players=3, challenges=(1, 2)), dict(players=4, challenges=(3, 4)),
    dict(players=4, dolphins=True, squid=True), dict(players=5, challenges=(1, 6)),
    dict(players=5, squid=True, squid_only=True, creatures_must_move=True),
    dict(players=6, challenges=(2, 3, 4, 6), dolphins=True),
    dict(players=6, challenges=(1,), squid=True, lagoon_is_sea=False),
)
LEGAL_GAMES = 12                # per case and line-up: 8 cases x 2 line-ups x 12 = 192 games
SAME_SEED_GAMES = 40            # one chunk of 40 against chunks of 17 and 23
SAME_SEED_CUT = 17
HIDDEN_GAMES = (dict(players=4), dict(players=6, dolphins=True, squid=True))
HIDDEN_EVERY = 9                # every 9th position of each game is asked
HIDDEN_DRAWS = 2                # re-randomisations per decision
HIDDEN_MIN = 200                # decisions it asks at least, whatever the strategy (tested)


@dataclass(frozen=True)
class Check:
    """One check of one strategy: ``name`` (``legal_answers`` ...), ``ok`` and ``reason`` (one
    line: what was played, or what went wrong); ``tried``: the games played or, for
    ``ignores_hidden_information``, the decisions asked."""
    strategy: str
    name: str
    ok: bool
    reason: str
    tried: int = 0

    def __str__(self) -> str:
        return f"{'PASS' if self.ok else 'FAIL'} {self.strategy}: {self.name}: {self.reason}"


@dataclass(frozen=True)
class Report:
    """The contract's checks of a plug-in file (every strategy it defines); ``ok`` when every
    check passed. ``str(report)`` is the lines ``survive-sim strategies --check`` prints."""
    path: str
    checks: tuple[Check, ...]

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.checks)

    @property
    def failed(self) -> tuple[Check, ...]:
        return tuple(c for c in self.checks if not c.ok)

    def verdict(self) -> str:
        """``contract: OK (N checks passed)`` or ``contract: FAILED (K of N checks)``."""
        n = len(self.checks)
        if self.ok:
            return f"contract: OK ({n} checks passed)"
        return f"contract: FAILED ({len(self.failed)} of {n} checks)"

    def __str__(self) -> str:
        return "\n".join([str(c) for c in self.checks] + [self.verdict()])


def _one_line(e: BaseException) -> str:
    """The error in one line; the engine's own lines about a plug-in (``PluginError``) already
    say what happened, anything else is named by its type."""
    text = " ".join(str(e).split())
    if isinstance(e, PluginError) and text:
        return text
    return f"{type(e).__name__}: {text}" if text else type(e).__name__


def _case_text(case: dict) -> str:
    return ", ".join(f"{k}={v}" for k, v in case.items())


# ------------------------------------------------------------------------------ legal answers
def played_as(name: str) -> str:
    """The spec the games of the checks seat: the strategy's ``CONTRACT`` spec where it
    declares one (``search`` at a budget that makes 192 games affordable: legality and
    seeding do not depend on how long it thinks), else its name."""
    return all_strategies()[name].contract or name


def legal_answers(name: str) -> Check:
    """Games of every case in ``CASES``, the strategy alone and alternating with ``random``."""
    played = 0
    for case in CASES:
        for mix in ((played_as(name),), (played_as(name), "random")):
            seats = 4 if case["players"] == 2 else case["players"]
            strategies = mix if len(mix) == 1 else tuple(mix[s % 2] for s in range(seats))
            try:
                run_records(Settings(strategies=strategies, **case), 11, 0, LEGAL_GAMES)
            except Exception as e:                  # the engine's one line: the seat, the kind
                seats = f"every seat {name}" if len(mix) == 1 else \
                    f"seats {','.join(strategies)}"
                return Check(name, "legal_answers", False,
                             f"{_case_text(case)}, {seats}: {_one_line(e)}", played)
            played += LEGAL_GAMES
    return Check(name, "legal_answers", True,
                 f"a legal answer at every decision of {played} games: 2-6 players, every "
                 f"challenge and expansion, alone and beside random", played)


# ------------------------------------------------------------------------------ same seed
def _column(i: int) -> str:
    """The record's column ``i`` by name."""
    if i < R_BACKS:
        return REC_GAME[i]
    if i < R_SEAT0:
        return f"back_{BACK_NAMES[i - R_BACKS]}"
    seat, k = divmod(i - R_SEAT0, len(REC_SEAT))
    return f"{REC_SEAT[k]} of seat {seat}"


def same_seed_same_table(name: str) -> Check:
    """The same games on one thread in one chunk and on two threads in two chunks."""
    spec = played_as(name)
    settings = Settings(players=4, strategies=(spec, "greedy", spec, "random"), dolphins=True)
    try:
        with numba_threads(1):
            one = run_records(settings, 5, 0, SAME_SEED_GAMES)
        with numba_threads(2):
            cut = SAME_SEED_CUT
            two = np.concatenate([run_records(settings, 5, 0, cut),
                                  run_records(settings, 5, cut, SAME_SEED_GAMES - cut)])
    except Exception as e:
        return Check(name, "same_seed_same_table", False, _one_line(e))
    differ = np.argwhere(one != two)
    if len(differ):
        game, col = (int(x) for x in differ[0])
        return Check(name, "same_seed_same_table", False,
                     f"game {game} of seed 5 ({name},greedy,{name},random) came out twice with "
                     f"different {_column(col)} ({one[game, col]} and {two[game, col]}); a game "
                     f"must depend only on seed, game and settings: draw noise from rng only",
                     2 * SAME_SEED_GAMES)
    return Check(name, "same_seed_same_table", True,
                 f"{SAME_SEED_GAMES} games alike on 1 thread in one chunk and on 2 threads in "
                 f"two", 2 * SAME_SEED_GAMES)


# ------------------------------------------------------------------------------ hidden information
def decisions(S: np.ndarray, seat: int) -> list[tuple[int, np.ndarray, int]]:
    """Decisions of several kinds in the position ``S`` as the engine would ask them:
    ``(kind, options, n)``."""
    opts = np.zeros((MAX_OPTS, OPT_W), np.int32)
    W = np.zeros(R.W_SIZE, np.int32)
    mine = np.ascontiguousarray(S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W])
    out = []
    n = R.options_move_pieces(S, np.int32(seat), opts)
    if n > 1:
        out.append((D_MOVE_PIECE, opts[:].copy(), n))
        what, i = int(opts[1, 0]), int(opts[1, 1])
        m = R.piece_moves(S, np.int32(seat), np.int32(what), np.int32(i), opts)
        if m > 1:
            out.append((D_MOVE, opts[:].copy(), m))
    n = R.options_sink(S, opts)
    if n > 1:
        out.append((D_SINK, opts[:].copy(), n))
    n = R.options_play_tile(S, W, np.int32(seat), mine, opts)
    if n > 1:
        out.append((D_PLAY_TILE, opts[:].copy(), n))
    return out


def answer(name: str, S: np.ndarray, seat: int, kind: int, opts: np.ndarray, n: int) -> int:
    """Strategy ``name``'s answer in the position ``S``, called as the engine calls it (a
    Python policy as the stepper calls it: with its player's observation)."""
    s = all_strategies()[name]
    if s.policy is not None:
        players, seats = int(S[N_PLAYERS]), int(S[N_SEATS])
        player = seat % players
        asked = SimpleNamespace(seat=seat, kind=kind, n=n, options=opts[:n])
        obs, mask = observe(S, player, colours_of(player, players, seats), asked)
        return int(s.policy(obs, mask, np.random.default_rng(12345 + seat)))
    pub = S[:PUB_SIZE]                 # views into S: what lies past them is S's hidden part
    mine = S[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W]
    rng = np.array([12345 + seat], np.uint64)
    mem = np.zeros(SCRATCH_W, np.float64)
    work = np.zeros(R.W_SIZE, np.int32)
    return int(s.choose(pub, mine, np.int64(seat), np.int64(kind), opts.copy(), np.int64(n),
                        rng, mem, work, param_row(name)))


def rerandomised(S: np.ndarray, seat: int, noise: np.random.Generator) -> np.ndarray:
    """The same public table and own secrets; everything else replaced by noise."""
    T = noise.integers(-5, 60, STATE_SIZE).astype(np.int32)
    T[:PUB_SIZE] = S[:PUB_SIZE]
    own = slice(PRIV + seat * PRIV_W, PRIV + (seat + 1) * PRIV_W)
    T[own] = S[own]
    return T


def ignores_hidden_information(name: str) -> Check:
    """Positions of ``greedy``'s games; at each, every seat's decisions asked twice with the
    state as it is (the same answer: no noise outside ``rng``) and twice with its hidden cells
    replaced by noise (the same answer again)."""
    noise = np.random.default_rng(7)
    asked = 0
    try:
        for case in HIDDEN_GAMES:
            settings = Settings(strategies=("greedy",), **case)
            _, snaps, _ = play_logged(settings, 3, 1)
            for snap in snaps[::HIDDEN_EVERY]:
                S = np.ascontiguousarray(snap)
                for seat in range(settings.seats):
                    for kind, opts, n in decisions(S, seat):
                        what = f"{DECISION_NAMES[kind]} decision (seat {seat}, " \
                               f"{settings.players} players)"
                        want = answer(name, S, seat, kind, opts, n)
                        if not 0 <= want < n:
                            return Check(name, "ignores_hidden_information", False,
                                         f"answered row {want} at a {what} with {n} legal "
                                         f"options; choose must return 0 <= k < n", asked)
                        again = answer(name, S, seat, kind, opts, n)
                        if again != want:           # not the hidden cells: noise of its own
                            return Check(
                                name, "ignores_hidden_information", False,
                                f"answered rows {want} and {again} at the same {what} asked "
                                f"twice; choose must depend only on its arguments: draw noise "
                                f"from rng only", asked)
                        for _ in range(HIDDEN_DRAWS):
                            got = answer(name, rerandomised(S, seat, noise), seat, kind, opts,
                                         n)
                            if got != want:
                                return Check(
                                    name, "ignores_hidden_information", False,
                                    f"answered row {got}, not {want}, at a {what} when hidden "
                                    f"information (tile backs, other seats' values and hands) "
                                    f"was re-randomised; choose may read only pub and its own "
                                    f"mine", asked)
                        asked += 1
    except Exception as e:
        return Check(name, "ignores_hidden_information", False, _one_line(e), asked)
    return Check(name, "ignores_hidden_information", True,
                 f"the same answer at {asked} decisions with the hidden cells re-randomised "
                 f"{HIDDEN_DRAWS} times", asked)


CHECKS: tuple[Callable[[str], Check], ...] = (legal_answers, same_seed_same_table,
                                              ignores_hidden_information)


def check(names, path: str = "") -> Report:
    """Every check of every strategy in ``names`` (registered names: a plug-in's are
    registered when its file loads), in order."""
    return Report(str(path), tuple(c(n) for n in names for c in CHECKS))
