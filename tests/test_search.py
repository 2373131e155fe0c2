"""The search rung and the re-entrant game it stands on (``play.journal``, ``play.reentry``,
``play.determinize``, ``play.outcome``, ``play.tree``, ``play.search``).

* **Re-entry is exact**: at decisions of real games under every expansion (the contract's
  cases), a search re-creates the decision from the journal, checks the table it reaches
  against the real one, and never falls back.
* **Blind to hidden information** (RULES R11): the answer does not move when every hidden cell
  of the state, and every cell of the journal still hidden at the decision, is noise; the
  determinization reads nothing hidden and deals a consistent world.
* **Rewards** agree with ``simulator.scoring`` on finished games.
* **Reproducible**: the same answers and tables for any thread count (the contract's
  ``same_seed_same_table`` plays it too, tests/test_strategy_contract.py).
* **No change elsewhere**: the journal is written only when a seat re-enters; the other
  strategies' tables are the golden ones (tests/test_determinism.py).
"""
from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from play import contract
from experiments.capture import ask_seat, capture
from play.determinize import TMP_W, determinize
from play.journal import PHASE_SETUP
from play.outcome import estimate, shares
from play.record import play_logged
from play.search import M_DECISIONS, M_FALLBACKS, M_ITERATIONS, M_NODES, seat_function
from play.settings import Settings
from play.simulate import run_records, simulate
from simulator.board import ISLAND_HEXES, N_HEX
from simulator.rules.layout import J_PHASE, J_STATE, W_JOURNAL
from simulator.scoring import decide
from simulator.state import (
    BACK_COUNTS,
    EX_LOC,
    EX_VALUE,
    HAND_TERRAIN,
    HEX_TERRAIN,
    L_OFF,
    MAX_SEATS,
    N_BACKS,
    N_TERRAIN,
    P_HAND,
    P_HAND_T,
    P_VALUE,
    PRIV,
    PRIV_W,
    PUB_SIZE,
    SLOT_VALUES,
    SLOTS,
    TILE_BACK,
)
from strategies.queries import Q_END, Q_SWIM
from strategies.registry import canonical, parse_spec

SPEC = "search:budget=12,depth=3"


@pytest.fixture(scope="module")
def search_fn():
    return seat_function(SPEC)


def _decisions(case, calls=(3, 25, 60)):
    settings = Settings(strategies=("greedy",), **case)
    for call in calls:
        d = capture(settings, 7, 1, 0, call)
        if d is not None:
            yield d


# ------------------------------------------------------------------------------ re-entry
@pytest.mark.parametrize("case", contract.CASES, ids=lambda c: ",".join(
    f"{k}={v}" for k, v in c.items()))
def test_the_search_re_enters_every_decision_exactly(search_fn, case):
    asked = 0
    for d in _decisions(case):
        k, row = ask_seat(search_fn, SPEC, d)
        assert 0 <= k < d.n
        assert row[M_DECISIONS] == 1 and row[M_FALLBACKS] == 0, (case, d.kind)
        assert row[M_ITERATIONS] == 12
        asked += 1
    assert asked >= 2


def test_without_a_journal_it_answers_as_its_rollout_rung(search_fn):
    d = next(_decisions(dict(players=4), calls=(25,)))
    W = d.W.copy()
    W[W_JOURNAL:] = 0                              # no clean point kept
    k, row = ask_seat(search_fn, SPEC, d, W=W)
    assert 0 <= k < d.n and row[M_FALLBACKS] == 1 and row[M_ITERATIONS] == 0


# ------------------------------------------------------------------------------ R11
def _still_hidden(d, seat, noise):
    """The journal's cells still hidden from ``seat`` at the decision, and not needed to
    re-create it, replaced by noise: the backs of tiles still on the island; after setup,
    other colours' values. (During setup the values of others' unplaced explorers decide
    which rows their placing offered, and hands at the clean point decide which defences
    could be played since: those re-create the decision, and are replaced before the search
    looks ahead.)"""
    W = d.W.copy()
    J = W_JOURNAL + J_STATE
    for h in ISLAND_HEXES:
        if d.S[HEX_TERRAIN + h] >= 0:
            W[J + TILE_BACK + h] = noise.integers(0, N_BACKS)
    if W[W_JOURNAL + J_PHASE] == PHASE_SETUP:
        return W
    for s in range(MAX_SEATS):
        if s == seat:
            continue
        for slot in range(SLOTS):
            v = noise.integers(1, 7)
            W[J + EX_VALUE + s * SLOTS + slot] = v
            W[J + PRIV + s * PRIV_W + P_VALUE + slot] = v
    return W


@pytest.mark.parametrize("case", [dict(players=4), dict(players=6, dolphins=True, squid=True)])
def test_its_answers_ignore_hidden_information(search_fn, case):
    noise = np.random.default_rng(3)
    asked = 0
    for d in _decisions(case, calls=(5, 30, 45, 70)):
        want, _ = ask_seat(search_fn, SPEC, d)
        for _ in range(2):
            S = contract.rerandomised(d.S, d.seat, noise)
            got, row = ask_seat(search_fn, SPEC, d, S=S, W=_still_hidden(d, d.seat, noise))
            assert (got, row[M_FALLBACKS]) == (want, 0)
        asked += 1
    assert asked >= 3


def _snaps(case, every=7):
    settings = Settings(strategies=("greedy",), **case)
    _, snaps, _ = play_logged(settings, 3, 2)
    return [np.ascontiguousarray(s) for s in snaps[::every]]


@pytest.mark.parametrize("case", [dict(players=4), dict(players=5, dolphins=True),
                                  dict(players=2, squid=True, squid_only=True)])
def test_determinizing_reads_nothing_hidden_and_deals_a_consistent_world(case):
    noise = np.random.default_rng(5)
    tmp = np.zeros(TMP_W, np.int32)
    for S in _snaps(case):
        seat = 1
        worlds = []
        for source in (S, contract.rerandomised(S, seat, noise)):
            T = source.copy()
            rng = np.array([11, 12], np.uint64)
            determinize(T, np.int64(seat), rng, np.int64(0), tmp)
            worlds.append(T)
        a, b = worlds
        assert np.array_equal(a, b)                # the hidden input made no difference
        assert np.array_equal(a[:PUB_SIZE], S[:PUB_SIZE])
        own = slice(PRIV + seat * PRIV_W, PRIV + (seat + 1) * PRIV_W)
        assert np.array_equal(a[own], S[own])
        _consistent(a, S, seat)


def _consistent(T, S, seat):
    seats = int(S[0])
    for s in range(seats):
        slots = [x for x in range(SLOTS) if S[EX_LOC + s * SLOTS + x] != L_OFF]
        vals = sorted(int(T[EX_VALUE + s * SLOTS + x]) for x in slots)
        assert vals == sorted(int(SLOT_VALUES[x]) for x in slots)
        for x in slots:
            assert T[PRIV + s * PRIV_W + P_VALUE + x] == T[EX_VALUE + s * SLOTS + x]
        if s != seat:
            hand_t = T[PRIV + s * PRIV_W + P_HAND_T:PRIV + s * PRIV_W + P_HAND_T
                       + N_BACKS * N_TERRAIN].reshape(N_BACKS, N_TERRAIN)
            assert np.array_equal(hand_t.sum(axis=0),
                                  S[HAND_TERRAIN + s * N_TERRAIN:HAND_TERRAIN
                                    + (s + 1) * N_TERRAIN])
            assert np.array_equal(hand_t.sum(axis=1),
                                  T[PRIV + s * PRIV_W + P_HAND:PRIV + s * PRIV_W + P_HAND
                                    + N_BACKS])
    for t in range(N_TERRAIN):
        on_island = [int(T[TILE_BACK + h]) for h in ISLAND_HEXES if S[HEX_TERRAIN + h] == t]
        counts = np.bincount(on_island, minlength=N_BACKS)
        assert (counts <= BACK_COUNTS[:, t]).all()


# ------------------------------------------------------------------------------ rewards
@pytest.mark.parametrize("case", [dict(players=4), dict(players=5, challenges=(3,)),
                                  dict(players=2), dict(players=6, tiebreak="shared")])
def test_win_shares_agree_with_the_scoring_of_tables(case):
    settings = Settings(strategies=("greedy",), **case)
    chain = settings.tiebreak == "chain"
    keys = np.zeros((MAX_SEATS, 4), np.int64)
    out = np.zeros(3 * MAX_SEATS)
    for game in range(6):
        _, _, S = play_logged(settings, 9, game)
        S = np.ascontiguousarray(S)
        shares(S, chain, keys, out)
        rec = simulate(settings, games=1, seed=9, first=game)
        p = settings.players
        cols = lambda m: np.array([[sum(rec[f"{m}_{s}"].iloc[0] for s in range(settings.seats)
                                        if s % p == q) for q in range(p)]])
        won, _ = decide(cols("score"), cols("rescued"), cols("rescued_value"), cols("turns"),
                        settings.tiebreak, equal=3 in settings.challenges)
        want = won[0] / won[0].sum()
        got = [out[s] for s in range(p)]
        assert np.allclose(got, want), (game, got, want)


def test_the_estimate_is_a_share_that_favours_the_leader():
    S = _snaps(dict(players=4), every=40)[-1]
    keys = np.zeros((MAX_SEATS, 4), np.int64)
    out = np.zeros(3 * MAX_SEATS)
    danger = np.zeros(Q_END)
    estimate(S, 3.0, keys, out, danger, 0.0)
    assert np.isclose(out[:4].sum(), 1.0) and (out[:4] > 0).all()
    points = out[2 * MAX_SEATS:2 * MAX_SEATS + 4].copy()
    estimate(S, 3.0, keys, out, danger, 0.5)            # danger only lowers the estimate
    assert np.isclose(out[:4].sum(), 1.0)
    assert (out[2 * MAX_SEATS:2 * MAX_SEATS + 4] <= points + 1e-12).all()
    assert danger[Q_SWIM:Q_SWIM + N_HEX].max() > 0      # the creatures' danger was marked


# ------------------------------------------------------------------------------ the rung
def test_search_is_listed_with_its_parameters():
    s, values = parse_spec("search:budget=64,c=0.5,rollout=random,depth=8")
    assert s.reenters and values["rollout"] == 0.0
    assert canonical("search:rollout=greedy,budget=256") == "search"
    assert canonical("search:rollout=expert") == "search:rollout=expert"
    with pytest.raises(ValueError, match="rollout='nobody' is not one of random, greedy"):
        parse_spec("search:rollout=nobody")


@pytest.mark.parametrize("spec", [SPEC, pytest.param("search64:budget=6,depth=1",
                                                      marks=pytest.mark.slow)])
def test_its_tables_are_the_same_for_any_thread_count(spec):
    """More games than one parallel work item (``engine.RUN_BLOCK``), so two threads share
    them; and cut into chunks at another place."""
    settings = Settings(players=4, strategies=(spec, "greedy", "random", spec))
    from play.engine import RUN_BLOCK
    from play.simulate import numba_threads
    games = RUN_BLOCK + 8
    with numba_threads(1):
        one = run_records(settings, 5, 0, games)
    with numba_threads(2):
        two = np.concatenate([run_records(settings, 5, 0, games - 3),
                              run_records(settings, 5, games - 3, 3)])
    assert np.array_equal(one, two)


def test_a_paired_gain_must_clear_z_standard_errors_to_leave_the_rungs_move():
    from play import tree as TR
    n, rounds = 3, 6
    base = np.array([0.2, 0.5, 0.1, 0.9, 0.3, 0.4])
    rewards = np.zeros((rounds, n))
    rewards[:, 0] = base                                   # the rung's move
    rewards[:, 1] = base + 0.05 + 0.001 * np.arange(rounds)   # better in every world
    rewards[:, 2] = base + np.where(np.arange(rounds) % 2, 0.3, -0.28)   # better, noisy

    def sums(r):
        d = r - r[:, :1]
        return d.sum(axis=0), (d * d).sum(axis=0), np.full(n, float(len(r)))

    alive = np.arange(n)
    assert TR.paired_choice(alive, n, 0, *sums(rewards), 3.0) == 1
    rewards[:, 1] = base                                   # no better anywhere: the rung's
    assert TR.paired_choice(alive, n, 0, *sums(rewards), 3.0) == 0
    assert TR.paired_choice(alive, n, 0, *sums(rewards[:1]), 0.0) == 0   # one round: no test


def test_halving_keeps_the_better_half_and_the_rungs_move():
    from play import tree as TR
    gains = np.array([0.0, -0.3, 0.2, 0.1, -0.1, 0.4, -0.2])
    count = np.ones(7)
    alive = np.arange(7)
    m = TR.halve(alive, 7, 0, gains, count)
    assert m == 4 and sorted(alive[:4]) == [0, 2, 3, 5]
    alive = np.arange(7)
    m = TR.halve(alive, 7, 1, gains, count)            # the worst is the rung's: it stays
    assert m == 4 and sorted(alive[:4]) == [1, 2, 3, 5] and sorted(alive) == list(range(7))


def test_the_listing_names_the_rollout_choices():
    from survive_sim.cli import main
    from tests.support.cli_harness import runner
    r = runner().invoke(main, ["strategies"])
    assert r.exit_code == 0
    assert "rollout = 1  [0, 7]  the rung every seat plays after the tree (one of random, " \
           "greedy, careful, racer, saboteur, tuned, lookahead, expert, written by name; " \
           "default greedy)" in r.output


# ------------------------------------------------------------------------------ plies, bare
def test_a_tree_of_no_plies_holds_the_roots_options_only(search_fn):
    asked = 0
    for d in _decisions(dict(players=4), calls=(25, 60)):
        deep = ask_seat(search_fn, SPEC + ",budget=48,paired=0", d)[1]
        flat = ask_seat(search_fn, SPEC + ",budget=48,paired=0,plies=0", d)[1]
        assert flat[M_ITERATIONS] == deep[M_ITERATIONS] == 48
        assert flat[M_NODES] <= 1 + d.n < deep[M_NODES]
        asked += 1
    assert asked == 2


@pytest.mark.parametrize("alpha, grows", [
    (0.5, [True, False, False, False, True, False, False, False, False, True]),   # floor(N^0.5)
    (0.0, [True] * 8 + [False, False])])          # off: every option as it is reached (8 here)
def test_progressive_widening_grows_a_node_to_floor_visits_to_the_alpha(alpha, grows):
    from play import tree as TR
    from simulator.rng import seed_streams
    from simulator.state import N_STREAMS, OPT_W, RNG_SETUP
    size, cap, table = TR.arena_size(64)
    A = np.zeros(size)
    TR.reset(A, cap, table)
    A[TR.H_C], A[TR.H_PLIES], A[TR.H_WIDEN] = 0.7, 1000, alpha
    kind, n = 2, 8
    opts = np.zeros((n, OPT_W), np.int32)
    opts[:, 0] = np.arange(n) + 1
    rng = np.zeros(N_STREAMS, np.uint64)
    seed_streams(rng, np.uint64(5), 0)
    preferred = 3
    for visits, grow in enumerate(grows):          # the root's visits are the iterations
        A[TR.H_ITER], A[TR.H_NODE], A[TR.H_PATH_N] = visits, 0, 0
        k = TR.select(A, rng, RNG_SETUP, 0, kind, opts, n)
        assert (k == TR.EXPAND) == grow, visits
        if grow:
            first = TR.expand(A, 0, kind, opts, n, preferred)
            assert visits > 0 or first == preferred          # the rung's move is the first child
        else:
            assert 0 <= k < n and TR.find(A, 0, kind, opts, k) >= 0   # UCB among the tried
    assert A[TR.H_NODES] - 1 == sum(grows)


def test_widening_is_a_parameter_of_the_search():
    assert canonical("search:widen=0") == "search"
    assert parse_spec("search:widen=0.5")[1] == {"widen": 0.5}


@pytest.mark.parametrize("bare", [1, 2])
def test_bare_playouts_answer_as_the_rollout_rung(search_fn, bare):
    greedy_fn = seat_function("search:budget=1")          # budget 1: the rung's own move
    for d in _decisions(dict(players=5, challenges=(1,)), calls=(25, 60)):
        k, row = ask_seat(search_fn, SPEC + f",bare={bare}", d)
        want, _ = ask_seat(greedy_fn, "search:budget=1", d)
        assert k == want
        assert row[M_ITERATIONS] == 12 and row[M_NODES] == 1 and row[M_FALLBACKS] == 0


# ------------------------------------------------------------------------------ the curve
@pytest.mark.slow
def test_the_strength_curve_example_plays_resumes_and_draws(tmp_path):
    """examples/strength_curve.py (docs/search.md's curve) on two tiny budgets: one tournament
    per budget, read back rather than played the second time, then the table and the chart."""
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    cmd = [sys.executable, str(root / "examples" / "strength_curve.py"), "--out",
           str(tmp_path), "--players", "4", "--budgets", "1,2", "--indices", "2",
           "--threads", "1"]
    first = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert first.returncode == 0, first.stderr[-2000:]
    table = pd.read_csv(tmp_path / "curve.csv")
    assert table.budget.tolist() == [1, 2] and set(table.indices) == {2}
    assert ((table.low <= table.share) & (table.share <= table.high)).all()
    assert (tmp_path / "curve.png").stat().st_size > 10_000
    steps = pd.read_csv(tmp_path / "gains.csv")                     # paired on common indices
    assert steps[["players", "from", "to", "indices"]].values.tolist() == [[4, 1, 2, 2]]
    assert (steps.low <= steps.gain).all() and (steps.gain <= steps.high).all()
    import importlib.util
    spec = importlib.util.spec_from_file_location("strength_curve",
                                                  root / "examples" / "strength_curve.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    for budget, share in zip(table.budget, table.share):            # the tournament's own
        assert example.per_index(tmp_path / f"p4_b{budget}").mean() == pytest.approx(share)
    assert steps.gain[0] == pytest.approx(table.share[1] - table.share[0])
    played = {f: f.stat().st_mtime_ns for f in tmp_path.glob("p4_b*/games.parquet")}
    assert len(played) == 2
    again = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
    assert again.returncode == 0 and pd.read_csv(tmp_path / "curve.csv").equals(table)
    assert {f: f.stat().st_mtime_ns for f in played} == played      # read back, not replayed


@pytest.mark.parametrize("args, words", [
    (["--budgets", "16,x"], "--budgets: give positive whole numbers"),
    (["--budgets", "16,32", "--indices", "4,4,4"], "--indices: give one number, or one per"),
    (["--players", "9"], "--players: one of 2, 3, 4, 5, 6, got 9"),
    (["--draw"], "holds no finished tournament folder")])
def test_the_strength_curve_example_refuses_bad_input_in_one_line(tmp_path, args, words):
    import subprocess
    import sys
    from pathlib import Path
    root = Path(__file__).resolve().parents[1]
    out = tmp_path / "curve"
    r = subprocess.run([sys.executable, str(root / "examples" / "strength_curve.py"), "--out",
                        str(out), *args], capture_output=True, text=True, timeout=120)
    assert r.returncode == 2 and words in r.stderr and len(r.stderr.splitlines()) == 1
    assert not out.exists()                                           # nothing written
