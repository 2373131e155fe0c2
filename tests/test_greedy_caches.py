"""greedy keeps per-seat caches between decisions and skips options it can prove useless, to
save work; each cache must equal what a fresh computation gives, and each skip must be safe, at
every moment of real games (the tables are only as right as these shortcuts). The scores and
their bounds are ``strategies.scores``; the loop that skips is ``choice.whole_move``."""
import numpy as np
import pytest

import play.engine as E
import play.layout as LY
from simulator.board import N_HEX
from simulator.rules import W_SIZE, boat_moves, explorer_moves, move_rows, options_move_pieces
from play.settings import Settings
from play.simulate import engine_args
from simulator.state import (
    BOAT_N,
    EX_AT,
    EX_LOC,
    L_BOAT,
    L_LAND,
    L_SEA,
    MAX_EX,
    MAX_OPTS,
    MV_BOAT,
    MV_STOP,
    OPT_W,
    PRIV,
    PRIV_W,
    PUB_SIZE,
    STATE_SIZE,
)
from strategies import greedy
from strategies import queries as Q
from strategies import scores as S
from strategies.api import MEM_W
from strategies.choice import C_PLAN_ROW, tally

MAPS = slice(Q.Q_SWIM, Q.Q_SWIM + 2 * N_HEX)
DEFAULTS = tuple(p.default for p in greedy.PARAMS)     # risk, greed, malice, guard, swim
# the weights the rungs built on greedy's scores write (careful, racer): the bounds must hold
WEIGHTS = (DEFAULTS, (4.0, 2.0, 0.5, 8.0, 4.0), (0.25, 1.0, 0.5, 1.0, 2.0),
           (0.0, 1.0, 1.0, 3.0, 1.0))


def _mem(weights=DEFAULTS):
    mem = np.zeros(MEM_W, np.float64)
    S.set_weights(mem, *weights)
    return mem


def _snapshots(settings, seed, game):
    ev = np.zeros((6000, LY.EV_W), np.int32)
    snaps = np.zeros((6000, STATE_SIZE), np.int32)
    S = np.zeros(STATE_SIZE, np.int32)
    n, err, _, _ = E.replay_game(*engine_args(settings), np.int64(seed), np.int64(game),
                                  ev, snaps, S)
    assert err == 0
    return snaps[:n]


def test_danger_maps_kept_up_to_date_equal_fresh_maps():
    """The danger maps are updated only for creatures that moved since the last decision; after
    every event of greedy games (whales, sharks and serpents arriving, moving, leaving the game;
    with the dive dice and the squid too) they must equal maps made from scratch."""
    checked = 0
    for settings in (Settings(players=4, strategies=("greedy",)),
                     Settings(players=6, strategies=("greedy",), dolphins=True, squid=True)):
        for game in range(3):
            kept = np.zeros(MEM_W, np.float64)
            for snap in _snapshots(settings, 5, game):
                pub = np.ascontiguousarray(snap[:PUB_SIZE])
                Q.danger_maps(pub, kept)
                fresh = np.zeros(MEM_W, np.float64)
                Q.danger_maps(pub, fresh)
                np.testing.assert_array_equal(kept[MAPS], fresh[MAPS])
                checked += 1
    assert checked > 1000


def test_swimmer_victims_table_equals_the_sum_over_each_hexs_swimmers():
    """A serpent's or shark's attack on a hex is scored from a per-hex table made in one pass
    over the explorers per creature decision; it must equal, for every hex and seat, the sum
    over that hex's swimmers of what eating each is worth (``scores.value``), added in explorer
    order -- the per-option loop it replaced."""
    settings = Settings(players=6, strategies=("greedy",), dolphins=True)
    checked = gains = 0
    for snap in _snapshots(settings, 5, 0)[::7]:
        pub = np.ascontiguousarray(snap[:PUB_SIZE])
        for seat in (0, 3):
            mine = np.ascontiguousarray(snap[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W])
            mem = _mem()
            mem[Q.Q_DECISION] = 1.0          # as in a decision: the leaders get counted
            S.hex_losses(pub, mine, np.int64(seat), np.int64(L_SEA), 10.0,
                         np.int64(S.M_SWIMV), mem)
            want = np.zeros(N_HEX)
            for e in range(MAX_EX):
                if pub[EX_LOC + e] == L_SEA:
                    want[pub[EX_AT + e]] -= 10.0 * S.value(pub, mine, np.int64(seat),
                                                           np.int64(e), mem)
                    checked += 1
            np.testing.assert_array_equal(mem[S.M_SWIMV:S.M_SWIMV + N_HEX], want)
            gains += int((want > 0).sum())            # opponents' swimmers: eating them helps
    assert checked > 100 and gains > 0


def _movement_points(cases, seed, game, step, weights=DEFAULTS):
    """greedy's inputs to a movement-point decision ``(pub, mine, seat, mem, opts, n)`` for
    every seat after every ``step``-th event of greedy games: its per-decision tables made as
    ``choose`` makes them, and the engine's movable pieces in ``opts[:n]``."""
    opts = np.zeros((MAX_OPTS, OPT_W), np.int32)
    for settings in cases:
        for snap in _snapshots(settings, seed, game)[::step]:
            pub = np.ascontiguousarray(snap[:PUB_SIZE])
            for seat in range(settings.seats):
                mine = np.ascontiguousarray(snap[PRIV + seat * PRIV_W:PRIV + (seat + 1) * PRIV_W])
                mem = _mem(weights)
                mem[Q.Q_DECISION] = 1.0
                Q.danger_maps(pub, mem)
                Q.list_own_land(pub, seat, mem)
                yield pub, mine, seat, mem, opts, options_move_pieces(pub, seat, opts)


@pytest.mark.parametrize("weights", WEIGHTS)
def test_move_bounds_never_fall_below_a_rows_score(weights):
    """A movement point skips a piece whose upper bound on its scores falls short of the best
    so far (``choice.whole_move``). That leaves the choice and the tie draws unchanged
    only if no move of the piece ever scores above its bound: checked for every move of every
    piece of every seat after every event of greedy games -- swimmers, passengers, explorers on
    land, empty boats and boats with passengers, with dolphins protecting swimmers (X5.5) and
    the squid in play; under greedy's weights and the rungs' (danger and swimming priced
    otherwise)."""
    rows = np.zeros((MAX_OPTS, OPT_W), np.int32)
    work = np.zeros(W_SIZE, np.int32)
    checked = 0
    skippable = set()
    cases = (Settings(players=4, strategies=("greedy",)),
             Settings(players=6, strategies=("greedy",), dolphins=True, squid=True))
    for pub, mine, seat, mem, opts, n in _movement_points(cases, 5, 1, 3, weights):
        for j in range(1, n):
            i = int(opts[j, 1])
            if opts[j, 0] == MV_BOAT:
                worth, here, top = S.boat_piece(pub, mine, seat, i, mem, ())
                m = boat_moves(pub, seat, i, rows, 0)
                scores = [S.boat_gain(pub, mine, seat, mem, work, (), i, worth, here,
                                      rows[k, 2], rows[k, 3]) for k in range(m)]
                kind = "boat" if pub[BOAT_N + i] else "empty boat"
            else:
                worth, here, top = S.explorer_piece(pub, mine, seat, i, mem, ())
                m = explorer_moves(pub, i, rows, 0, True)
                scores = [S.explorer_gain(pub, mine, seat, mem, work, (), i, worth, here,
                                          rows[k, 2], rows[k, 3]) for k in range(m)]
                kind = int(pub[EX_LOC + i])
            assert max(scores) <= top, (kind, scores, top)
            if top < 1e17:
                skippable.add(kind)
            checked += 1
    assert checked > 2000
    assert skippable == {"boat", "empty boat", L_LAND, L_SEA, L_BOAT}


def test_skipping_pieces_changes_neither_the_move_nor_the_tie_draws():
    """``greedy.best_move`` (pieces skipped by their bounds) against scoring every row of
    ``rules.move_rows`` in order with the same scores and the same tie rule: the same move is
    kept for the destination decision and the seat's noise stream ends in the same state,
    for every seat after every event of greedy games."""
    rows = np.zeros((MAX_OPTS, OPT_W), np.int32)
    work = np.zeros(W_SIZE, np.int32)
    plan = slice(C_PLAN_ROW, C_PLAN_ROW + 4)
    decisions = drew = 0
    cases = (Settings(players=4, strategies=("greedy",)),
             Settings(players=6, strategies=("greedy",), dolphins=True))
    for pub, mine, seat, mem, opts, n in _movement_points(cases, 3, 2, 4):
        start = np.uint64(1000 * decisions + 7)
        rng = np.array([start], np.uint64)
        piece = greedy.best_move(pub, mine, seat, opts, n, rng, mem, work)
        every = np.array([start], np.uint64)
        best, chosen, ties = -1e18, 0, 0
        for k in range(move_rows(pub, seat, rows, 0)):
            what, i = int(rows[k, 0]), int(rows[k, 1])
            if what == MV_STOP:
                s = 0.0
            elif what == MV_BOAT:
                worth, here, _ = S.boat_piece(pub, mine, seat, i, mem, ())
                s = S.boat_gain(pub, mine, seat, mem, work, (), i, worth, here, rows[k, 2],
                                rows[k, 3])
            else:
                worth, here = S.explorer_here(pub, mine, i, mem)
                s = S.explorer_gain(pub, mine, seat, mem, work, (), i, worth, here, rows[k, 2],
                                    rows[k, 3])
            best, chosen, ties = tally(s, k, best, chosen, ties, every)
        assert tuple(mem[plan]) == tuple(rows[chosen])
        assert tuple(opts[piece, :2]) == tuple(rows[chosen, :2])
        assert rng[0] == every[0]
        decisions += 1
        drew += int(every[0] != start)
    assert decisions > 500 and drew > 100
