"""``lookahead``'s reasoning on hand-built positions: expectimax over the creature die, each
candidate tried on a copy of the public table. Each position is one where a rung judging
danger from its static map (``greedy``) decides otherwise, so the test shows the lookahead at
work, not a style shared with the other rungs; each holds with ``fear`` and ``guard`` at 0.4
and 0.5 (defaults 0.5 and 1) too, so none is a knife-edge.

The decisions are asked of the compiled ``choose`` directly, as the engine asks them (the
contract test's way), with the legal rows the rules enumerate.

How the defaults were set (2026-12-01, 2-core VM): the candidate in seat k = 0..3 of 4-player
games, the other seats ``tuned, racer, greedy`` rotated, 1,000 games per seat on the same seeds
(1000 + k) for every setting; win share (ties split) paired with ``tuned`` in the same seats
(standard errors of the paired difference 0.004-0.009):

    tuned 0.303. With late=0: fear=1 -0.032, fear=2 -0.035, fear=1 risk=0 -0.090 (a first
    build, where one weight served movement, die moves and sinks), fear=0.5 -0.005, and at
    fear=0.5: risk=0.79 -0.029, guard=0 -0.012, doom=0 -0.004, share=1 -0.008, capsize=1
    -0.014; fear=0 (die moves and sinks only) +0.026. late=1 (fear 0.5) +0.068; late=1 fear=1
    -0.007. Then relative to late=1 fear=0.5: fear 0.25 -0.009, 0.35 +0.001, 0.45 -0.004, 0.7
    -0.042; risk 0.15 -0.011, 0.25 -0.004, 0.35 -0.007, 0.5 -0.053; guard 0.5 -0.005, 2
    -0.001; doom 2 -0.002; share 0.5 +0.001; capsize 0.25 +0.007 (SE 0.004: kept at 0.5).

Against ``careful, saboteur, tuned`` (600 games per seat): late=1 +0.082 (SE 0.013) over tuned.
"""
import numpy as np
import pytest
from support.harness import H, Table, i32, i64, rc

from simulator import board as BD
from simulator import rules as R
from simulator import state as ST
from strategies import lookahead as LA
from strategies import queries as Q
from strategies.api import SCRATCH_W
from strategies.choice import C_PLAN_ROW
from strategies.registry import builtins, param_row

SPECS = ("lookahead", "lookahead:fear=0.4,guard=0.5")


def _ask(t, spec, seat, kind, face=None):
    """The strategy's answer in the table's position: the option row, or for a decision
    taken whole at its first half (a movement point, the die move) the whole move it chose."""
    s = builtins()[spec.split(":")[0]]
    S = t.S
    opts = np.zeros((ST.MAX_OPTS, ST.OPT_W), np.int32)
    if kind == ST.D_MOVE_PIECE:
        n = R.options_move_pieces(S, i32(seat), opts)
    elif kind == ST.D_SINK:
        n = R.options_sink(S, opts)
    else:
        S[ST.ROLL_FACE] = face
        n = R.options_creature_pieces(S, R.face_kinds(S, i64(face)), False, opts)
    assert n > 1
    pub = S[:ST.PUB_SIZE]
    mine = S[ST.PRIV + seat * ST.PRIV_W:ST.PRIV + (seat + 1) * ST.PRIV_W]
    mem = np.zeros(SCRATCH_W, np.float64)
    work = np.zeros(R.W_SIZE, np.int32)
    rng = np.array([99 + seat], np.uint64)
    k = int(s.choose(pub, mine, i64(seat), i64(kind), opts, i64(n), rng, mem, work,
                     param_row(spec)))
    assert 0 <= k < n
    if kind == ST.D_SINK or (kind == ST.D_MOVE_PIECE and opts[k, 0] == ST.MV_STOP):
        return tuple(int(x) for x in opts[k])
    return tuple(int(x) for x in mem[C_PLAN_ROW:C_PLAN_ROW + 4])


def _shark_reaches(t, slot, target):
    """Shark ``slot`` can end its die move on ``target`` (the rules' own search)."""
    S = t.S
    W = np.zeros(R.W_SIZE, np.int32)
    m = R.reach(S, W, i64(ST.SHARK), i32(S[ST.CR_HEX + ST.SHARK * ST.CR_SLOTS + slot]), i64(2))
    return any(W[R.W_QUEUE + i] == target for i in range(1, m + 1))


def test_the_work_buffer_holds_a_copy_of_the_state_past_the_engines_cells():
    assert R.W_LOOK >= R.W_SUNK + ST.MAX_EX and R.W_JOURNAL == R.W_LOOK + ST.STATE_SIZE
    assert LA.MEM_W <= SCRATCH_W


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_a_movement_point_takes_the_valuable_swimmer_out_of_a_sharks_reach(spec):
    """Our 6 swims two hexes from a shark, on the turn's last movement point. greedy swims it
    one hex nearer safety, still where the shark ends a move on the next roll (its danger map
    sees the same danger either way); the lookahead swims it sideways, out of the shark's
    reach: the next opponent's roll (a shark face in three) would cost more than the hex of
    progress."""
    t = Table.empty(4)
    t.S[ST.MP_LEFT] = 1
    a = H(2, 3)
    t.explorer(0, 9, "sea", a)                     # seat 0's 6 (slot 9)
    t.creature("shark", 0, 3, 2)
    assert _shark_reaches(t, 0, a)
    g = _ask(t, "greedy", 0, ST.D_MOVE_PIECE)
    assert g[:2] == (ST.MV_EXPLORER, 9) and _shark_reaches(t, 0, g[2])
    assert BD.DIST_TO_ACCESS[g[2]] < BD.DIST_TO_ACCESS[a]
    look = _ask(t, spec, 0, ST.D_MOVE_PIECE)
    assert look[:2] == (ST.MV_EXPLORER, 9), look
    assert look[2] != a and not _shark_reaches(t, 0, look[2]), rc(look[2])


@pytest.mark.parametrize("spec", SPECS)
def test_its_die_move_takes_the_capture_worth_most_after_the_next_roll(spec):
    """A shark rolled: shark 0 can eat two of seat 1's swimmers but would end two hexes from
    our 6; shark 1 can eat one of seat 2's, far from anyone of ours. greedy takes the bigger
    capture; the lookahead takes the smaller one, since after the bigger one the next
    opponent's shark roll would take our 6 with a chance of one in three."""
    t = Table.empty(4)
    t.clear_island()
    ours = H(6, 5)
    t.explorer(0, 9, "sea", ours)
    x, y = H(6, 3), H(2, 8)
    t.explorer(1, 0, "sea", x)
    t.explorer(1, 1, "sea", x)
    t.explorer(2, 0, "sea", y)
    t.creature("shark", 0, 6, 1)
    t.creature("shark", 1, 2, 10)
    assert _shark_reaches(t, 0, x) and _shark_reaches(t, 1, y)
    assert BD.HEX_DIST[x, ours] == 2 and BD.HEX_DIST[y, ours] > 3
    g = _ask(t, "greedy", 0, ST.D_CREATURE_PIECE, ST.SHARK)
    assert g[:3] == (ST.SHARK, 0, x), g
    look = _ask(t, spec, 0, ST.D_CREATURE_PIECE, ST.SHARK)
    assert look[:3] == (ST.SHARK, 1, y), look


def _sink_table(sharks_shown, back):
    """Three beach tiles left (the rest forest): T1 (3,4) holds one of seat 1's explorers
    and touches our 6 swimming at (2,3); T2 (9,4) is empty; the third is inland. Every beach
    whale is out; ``sharks_shown`` sharks are on the table, far away. ``back`` is T1's real
    back, which the lookahead must not see."""
    t = Table.empty(4)
    t.fill_island("forest", "wind")
    t1 = t.land(3, 4, "beach", back)
    t2 = t.land(9, 4, "beach", "wind")
    t.land(5, 4, "beach", "wind")
    t.explorer(1, 0, "land", t1)
    t.explorer(0, 9, "sea", (2, 3))
    for k in range(ST.KIND_COUNT[ST.WHALE]):
        t.remove_creature("whale", k)
    for k in range(sharks_shown):
        t.creature("shark", k, 12, 2 + 2 * k)
    assert sorted(o[0] for o in t.options("sink")) == sorted((t1, t2))
    return t, t1, t2


@pytest.mark.parametrize("spec", SPECS)
@pytest.mark.parametrize("back", ["shark", "wind"])
def test_its_sink_weighs_the_odds_of_the_tiles_back(spec, back):
    """Sinking T1 drops seat 1's explorer in the water, which greedy always prefers. With two of
    the three beach sharks still unrevealed, T1 is a shark two times in three -- a shark then
    sits beside our 6 for the next opponent's roll -- so the lookahead sinks the empty T2;
    once all three beach sharks are on the table, no beach tile hides one and it sinks T1.
    T1's real back changes nothing (only public counts are used, R11)."""
    for shown, want in ((1, 0), (3, 1)):
        t, t1, t2 = _sink_table(shown, back)
        odds = Q.back_odds(t.S[:ST.PUB_SIZE], 0)
        assert odds[Q.SUNK_SHARK] == pytest.approx((3 - shown) / 3)
        assert sum(odds) == pytest.approx(1.0)
        assert _ask(t, "greedy", 0, ST.D_SINK)[0] == t1
        assert _ask(t, spec, 0, ST.D_SINK)[0] == (t2, t1)[want], (shown, back)


def test_back_odds_use_public_counts_only():
    """The odds of a forest tile's back early in a game: the terrain's counts, the red tiles
    seen going into hands taken out of the red share."""
    t = Table.empty(4)
    pub = t.S[:ST.PUB_SIZE]
    t.S[ST.TERRAIN_LEFT + 0] = 0                   # every beach tile gone, forest untouched
    odds = Q.back_odds(pub, 1)
    assert odds[Q.SUNK_SHARK] == pytest.approx(2 / 16)
    assert odds[Q.SUNK_WHALE] == pytest.approx(2 / 16)
    assert odds[Q.SUNK_BOAT] == pytest.approx(3 / 16)
    assert odds[Q.SUNK_WHIRL] == pytest.approx(2 / 16)
    for s in range(4):
        t.hand(s, "wind", "forest")
    fewer_red = Q.back_odds(pub, 1)
    assert fewer_red[Q.SUNK_NONE] < odds[Q.SUNK_NONE] and fewer_red[Q.SUNK_BOAT] > odds[Q.SUNK_BOAT]


def test_it_is_registered_as_the_ladders_top_rung_with_tunable_parameters():
    import ast

    from strategies.registry import canonical
    s = builtins()["lookahead"]
    assert s.code == 6 and s.listed and len(s.description) > 20 and s.mem_w == LA.MEM_W
    assert list(builtins())[-1] == "lookahead" or builtins()["scripted"].code > s.code
    doc = ast.get_docstring(ast.parse(s.source.read_text(encoding="utf-8")))
    assert "Why it plays differently" in doc
    for p in s.params:
        assert canonical(f"lookahead:{p.name}={p.high:g}") == f"lookahead:{p.name}={p.high:g}"
    assert canonical("lookahead") == "lookahead"


@pytest.mark.slow
def test_expert_is_lookahead_with_the_tuned_weights_on_top_of_the_ladder():
    """``expert`` is a preset: lookahead's code with CMA-ES's weights as its defaults (its
    games are lookahead's with those weights, move for move), still tunable by name."""
    from play.settings import Settings
    from play.simulate import simulate
    from strategies import expert
    from strategies.registry import canonical
    s = builtins()["expert"]
    assert s.code == 7 and s.listed and s.mem_w == LA.MEM_W
    assert [p.name for p in s.params] == [p.name for p in LA.PARAMS]
    assert {p.name: p.default for p in s.params if p.name in expert.TUNED} == expert.TUNED
    assert canonical("expert") == "expert"
    assert canonical("expert:fear=0.5") == "expert:fear=0.5"
    same = "lookahead:" + ",".join(f"{k}={v}" for k, v in expert.TUNED.items())
    a = simulate(Settings(players=4, strategies=("expert", "tuned", "racer", "greedy")), 12, 7,
                 threads=1)
    b = simulate(Settings(players=4, strategies=(same, "tuned", "racer", "greedy")), 12, 7,
                 threads=1)
    cols = [c for c in a.columns if not c.startswith("strategy")]
    assert a[cols].equals(b[cols])
    assert (a["strategy_0"] == "expert").all()
