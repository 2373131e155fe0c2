"""``lookahead``: ``tuned``'s race home, with the choices the creature die decides looked ahead --
expectimax over the die, on a copy of the public table.

Why it plays differently: the other rungs judge danger from a static map (is a creature within
one die move of this hex?). ``lookahead`` plays each candidate on a copy of the public position
with the rules' own functions (``rules.apply_move``, ``resolve_hex``, ``whirlpool`` ...) and asks
what the die does next:

* **chance nodes** -- the roll: serpent, shark, whale 1/3 each (B1.6); with Challenge 5 the dive
  dice, 36 equally likely (face, number) pairs (X5.3: the starfish moves any kind, a D only to
  an unoccupied hex, which harms no one). At a sink, the tile's unknown back: its odds from
  public counts only (``queries.back_odds``);
* **decision nodes** -- the roller's move: for an opponent's roll, the creature move that costs
  us most (every reachable hex of every piece of the rolled kind, paths by ``rules.reach``);
  for our own roll, the one worth most to us (others' losses, the leader's first, less ours).

Where it looks ahead: every movement point (decided whole, as ``racer``): the position after
the move, less ``fear`` times the expected loss over the next opponent's roll (each explorer
lost costs its worth, value ** ``focus``, times what it still stood to gain), counted a third
at the turn's first point, two thirds at the second, whole at the last (``late``: an earlier
point's exposure can still be undone); our own die move (piece and destination decided whole):
its immediate captures plus ``guard`` times the drop in the next opponent's expected haul of
ours; the sink: for each tile, ``doom`` times the expectation over its back of what its effect
does (a shark eats the swimmers, a boat picks them up, a whirlpool clears the hexes around
...), then of our own roll's best capture, less ``guard`` times the next opponent's expected
haul of ours. Everything else is ``tuned``'s (``racer`` with the CMA-ES weights), and so are the
potentials it starts from, with danger in them weighed ``risk`` (less than tuned's 0.79: the
lookahead weighs the danger itself). The defaults were set by paired games against
``tuned,racer,greedy`` (same seeds for every setting; tests/test_lookahead.py names them).

Honesty (R11): it copies ``pub`` only -- the copy's secret cells stay a fixed zero, no function
it calls reads them -- and reads ``mine`` for its own values; the odds of a tile's back come from
``BACK_COUNTS`` less what the table shows was revealed.
"""
from simulator.board import DIST_TO_ACCESS, HEX_DIST, N_HEX
from simulator.jit import hot
from simulator.rules import (
    W_DIST,
    W_LOOK,
    W_MARK,
    W_SEARCH,
    apply_move,
    place_explorer,
    protect,
    put_boat,
    put_creature,
    reach,
    remove_all_at,
    resolve_hex,
    supply_boat,
    supply_slot,
    whirlpool,
)
from simulator.state import (
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CH_DIVE,
    CHALLENGES,
    CR_HEX,
    CR_SLOTS,
    D_CREATURE,
    D_CREATURE_PIECE,
    D_MOVE_PIECE,
    D_SINK,
    DOLPHIN,
    EX_AT,
    EX_LOC,
    EX_PROT,
    HEX_BOAT,
    HEX_NCR,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_LOST,
    L_SAFE,
    L_SEA,
    MAX_EX,
    MP_LEFT,
    MUST_MOVE,
    MV_BOAT,
    MV_EXPLORER,
    PUB_SIZE,
    SERPENT,
    SHARK,
    SLOTS,
    SQUID,
    STATE_SIZE,
    TERRAIN_LEFT,
    TILES_LEFT,
    WHALE,
)
from strategies.api import Param
from strategies.choice import remember, tally, whole_move
from strategies.greedy import rung
from strategies.queries import (
    Q_RISK,
    Q_SWIM,
    Q_SWIM_COST,
    SAFE_POT,
    SUNK_BOAT,
    SUNK_DOLPHIN,
    SUNK_NONE,
    SUNK_SHARK,
    SUNK_WHALE,
    SUNK_WHIRL,
    back_odds,
    creature_can_move,
    creature_moves,
    die_reach,
    piece_hex,
    potential,
)
from strategies.racer import boat_piece, explorer_piece, worth_of
from strategies.scores import (
    M_END,
    M_SINKV,
    boat_gain,
    explorer_gain,
    own_value,
    row_score,
    set_weights,
    value,
    victims,
)

NAME = "lookahead"
CODE = 6
DESCRIPTION = ("tuned's race home with expectimax over the creature die: tries each move, die "
               "move and sink on a copy of the table and weighs the roll that follows")
PARAMS = (
    Param("focus", 3.949, 0.0, 4.0, "an explorer's worth is its value to this power (tuned)"),
    Param("risk", 0.3, 0.0, 10.0, "weight of the static danger map in a potential (tuned: "
          "0.79; the lookahead weighs the next roll itself)"),
    Param("swim", 1.213, 1.0, 6.0, "movement points a hex swum counts (tuned)"),
    Param("fear", 0.5, 0.0, 5.0, "movement points: weight of the expected loss of ours to the "
          "next opponent's roll"),
    Param("guard", 1.0, 0.0, 5.0, "die moves and sinks: weight of the next opponent's expected "
          "haul of ours"),
    Param("doom", 1.0, 0.0, 5.0, "sinks: weight of the expectation over the tile's back"),
    Param("share", 0.0, 0.0, 1.0, "0: one roll takes the best haul (expectimax); 1: every "
          "explorer a rolled kind reaches counts (the several rolls before our next turn)"),
    Param("late", 1.0, 0.0, 1.5, "1: a movement point's expected loss counts as far as it is "
          "the turn's last (1/3, 2/3, all of it); 0: fully at every point"),
    Param("capsize", 0.5, 0.0, 1.0, "share of a passenger's worth a capsize costs (it swims "
          "on, exposed)"),
    Param("malice", 0.5, 0.0, 10.0, "die moves and sinks: weight of others' explorers taken, "
          "the leader's most (tuned's)"),
    Param("greed", 1.0, 0.0, 5.0, "die moves and sinks: weight of our own explorers taken "
          "(tuned's)"),
)
MAX_T = 22                 # hexes of explorers a roll is weighed against (the first found)
# mem layout: greedy's cells (the shared queries, plans, greedy's tables), then the targets of
# the roll being weighed: per hex, the worth of the swimmers and of the passengers there, and
# how far the nearest serpent, shark and whale must go to get there (9: out of reach)
L_N = M_END
L_HEX = L_N + 1
L_SW = L_HEX + MAX_T
L_BW = L_SW + MAX_T
L_DIST = L_BW + MAX_T      # L_DIST + kind * MAX_T + target
L_SHARE = L_DIST + 3 * MAX_T   # the ``share`` and ``capsize`` parameters, for ``_roll_value``
L_CAPSIZE = L_SHARE + 1
L_END = L_CAPSIZE + 1
MEM_W = L_END
M_MOVE, M_OURS, M_ALL = 0, 1, 2     # how ``_targets`` weighs the explorers


# ============================================================================ the copy
@hot
def _copy(pub, C):
    """The public table into the copy; its secret cells a fixed zero (never read)."""
    for i in range(PUB_SIZE):
        C[i] = pub[i]
    for i in range(PUB_SIZE, STATE_SIZE):
        C[i] = 0


@hot
def _pot_now(C, mem, e):
    """The potential of explorer ``e`` where it stands in the copy (0 once lost); a swimmer
    with a dolphin fears no serpent or shark (X5.5)."""
    loc = C[EX_LOC + e]
    at = C[EX_AT + e]
    if loc == L_SAFE:
        return SAFE_POT
    if loc == L_BOAT:
        return potential(C, mem, L_BOAT, C[BOAT_HEX + at])
    if loc == L_SEA:
        v = potential(C, mem, L_SEA, at)
        if C[EX_PROT + e] >= 0:
            v += mem[Q_SWIM + at] * mem[Q_RISK]
        return v
    if loc == L_LAND:
        return potential(C, mem, L_LAND, at)
    return 0.0


# ============================================================================ a roll's haul
@hot
def _targets(C, pub, mine, seat, mem, mode, focus):
    """List the hexes of the explorers a roll can take in position ``C`` (unprotected swimmers
    and passengers), with what losing them is worth to the roller: ``M_MOVE`` our own, each
    by its worth times its potential with danger left out; ``M_OURS`` our own, 10 per point of
    value; ``M_ALL`` everyone's, as greedy's ``scores.value`` weighs them for our own roll (others'
    positive, the leader's most; ours negative). Returns how many hexes."""
    n = 0
    lo = 0 if mode == M_ALL else seat * SLOTS
    hi = MAX_EX if mode == M_ALL else lo + SLOTS
    for e in range(lo, hi):
        loc = C[EX_LOC + e]
        if loc == L_SEA:
            if C[EX_PROT + e] >= 0:
                continue
            h = C[EX_AT + e]
            left = SAFE_POT - 10.0 * (mem[Q_SWIM_COST] * DIST_TO_ACCESS[h] + 1)
        elif loc == L_BOAT:
            h = C[BOAT_HEX + C[EX_AT + e]]
            left = SAFE_POT - 10.0 * (DIST_TO_ACCESS[h] + 1)
        else:
            continue
        if mode == M_MOVE:
            w = worth_of(pub, mine, seat, e, mem, focus) * max(left, 10.0)
        elif mode == M_OURS:
            w = 10.0 * own_value(pub, mine, e % SLOTS)
        else:
            w = -10.0 * value(pub, mine, seat, e, mem)
        j = 0
        while j < n and mem[L_HEX + j] != h:
            j += 1
        if j == n:
            if n == MAX_T:
                continue
            mem[L_HEX + j] = h
            mem[L_SW + j] = 0.0
            mem[L_BW + j] = 0.0
            n += 1
        if loc == L_SEA:
            mem[L_SW + j] += w
        else:
            mem[L_BW + j] += w
    mem[L_N] = n
    return n


@hot
def _gain(C, mem, kind, j):
    """What a creature of ``kind`` ending in target hex ``j`` takes (B6.8-B6.10): a serpent the
    swimmers and the boat's passengers, a shark the swimmers, a whale capsizes the boat (its
    passengers then swim: eaten at once beside a shark, else ``capsize`` of their worth)."""
    if kind == SERPENT:
        return mem[L_SW + j] + mem[L_BW + j]
    if kind == SHARK:
        return mem[L_SW + j]
    if C[HEX_NCR + SHARK * N_HEX + int(mem[L_HEX + j])] > 0:
        return mem[L_BW + j]
    return mem[L_CAPSIZE] * mem[L_BW + j]


@hot
def _face(C, mem, kind, d):
    """What a roll of ``kind`` moving up to ``d`` hexes is worth to the roller: the best haul
    among the targets a piece of that kind reaches (its decision), plus ``share`` of the others'
    (0 for one roll)."""
    top = 0.0
    total = 0.0
    for j in range(int(mem[L_N])):
        if mem[L_DIST + kind * MAX_T + j] <= d:
            g = _gain(C, mem, kind, j)
            if g > 0.0:
                total += g
                top = max(top, g)
    return top + mem[L_SHARE] * (total - top)


@hot
def _roll_value(C, W, mem, ok, os, oh):
    """Expectimax over one creature roll in position ``C``: for each face (chance), the best
    haul of the ``_targets`` list over every piece of the rolled kind and every hex it reaches
    (the roller's decision; staying, worth 0, is always there). Piece ``os`` of kind ``ok``
    is taken to stand on hex ``oh`` instead (a die move tried without a copy)."""
    n = int(mem[L_N])
    if n == 0:
        return 0.0
    for i in range(3 * MAX_T):
        mem[L_DIST + i] = 9.0
    dive = (C[CHALLENGES] & CH_DIVE) != 0
    for kind in range(WHALE + 1):
        maxd = 3 if dive else kind + 1
        for k in range(KIND_COUNT[kind]):
            c = oh if kind == ok and k == os else C[CR_HEX + kind * CR_SLOTS + k]
            if c < 0:
                continue
            near = False
            for j in range(n):
                if HEX_DIST[c, int(mem[L_HEX + j])] <= maxd and _gain(C, mem, kind, j) > 0.0:
                    near = True
                    break
            if not near:
                continue
            reach(C, W, kind, c, maxd)            # MT_SERPENT/SHARK/WHALE equal the kinds
            mark = W[W_SEARCH]
            for j in range(n):
                h = int(mem[L_HEX + j])
                if h == c or W[W_MARK + h] != mark:
                    continue
                i = L_DIST + kind * MAX_T + j
                mem[i] = min(mem[i], float(W[W_DIST + h]))
    if not dive:                                  # B1.6: each kind on 2 faces of 6
        return (_face(C, mem, SERPENT, 1) + _face(C, mem, SHARK, 2) + _face(C, mem, WHALE, 3)) / 3.0
    total = 0.0                                   # X5.3: numbers 1,1,2,2,3,D; a D harms none
    for r in range(5):
        d = 1 if r < 2 else (2 if r < 4 else 3)
        s = _face(C, mem, SERPENT, d)
        h = _face(C, mem, SHARK, d)
        w = _face(C, mem, WHALE, d)
        total += s + h + w + max(s, max(h, w))    # serpent, shark, whale faces; the starfish
    return total / 36.0


@hot
def _threat(C, pub, mine, seat, mem, W, mode, focus):
    """The next opponent's expected haul of our explorers in position ``C``."""
    _targets(C, pub, mine, seat, mem, mode, focus)
    return _roll_value(C, W, mem, -1, -1, -1)


# ============================================================================ movement points
@hot
def _move(pub, mine, seat, opts, n, rng, mem, work, focus, fear, late):
    """A movement point decided whole (``choice.whole_move``, as ``racer``): each move played
    on the copy, scored by the change in its explorers' potential less ``fear`` times the
    change in the next opponent's expected haul. With ``late`` the haul counts less at the
    turn's earlier points (a later one can still take the explorer out of reach)."""
    left = min(max(pub[MP_LEFT], 1), 3)             # movement points left, this one included
    fear = fear * max(1.0 - late * (left - 1) / 3.0, 0.0)
    t0 = _threat(pub, pub, mine, seat, mem, work, M_MOVE, focus)
    return whole_move(pub, mine, seat, opts, n, rng, mem, work, (focus, fear, t0), boat_piece,
                      _boat_score, _explorer_piece, _explorer_score)


# ``whole_move``'s scorers, ``ctx`` = (focus, fear, the haul where the pieces stand)
@hot
def _explorer_piece(pub, mine, seat, e, mem, ctx):
    """racer's, the bound raised by ``fear`` times the haul: a piece is skipped only when even
    losing all of it could not lift the piece to the best so far."""
    worth, here, top = explorer_piece(pub, mine, seat, e, mem, ctx)
    return worth, here, top + ctx[1] * ctx[2]


@hot
def _boat_score(pub, mine, seat, mem, work, ctx, b, worth, here, dest, via):
    """Boat ``b`` moved to ``dest`` on the copy: its passengers' gain in potential, less
    ``fear`` times the change in the haul (an empty boat drifts as greedy's)."""
    if pub[BOAT_N + b] == 0:
        return boat_gain(pub, mine, seat, mem, work, ctx, b, worth, here, dest, via)
    C = work[W_LOOK:W_LOOK + STATE_SIZE]
    _copy(pub, C)
    apply_move(C, seat, MV_BOAT, b, dest, -1)
    s = 0.0
    for q in range(pub[BOAT_N + b]):
        p = pub[BOAT_P + 3 * b + q]
        s += worth_of(pub, mine, seat, p, mem, ctx[0]) * (_pot_now(C, mem, p) - here)
    return s - ctx[1] * (_threat(C, pub, mine, seat, mem, work, M_MOVE, ctx[0]) - ctx[2])


@hot
def _explorer_score(pub, mine, seat, mem, work, ctx, e, worth, here, dest, via):
    """Our explorer ``e`` moved to ``dest`` on the copy, scored as a boat's move is; from land
    to land nothing is at stake (greedy's score)."""
    if pub[EX_LOC + e] == L_LAND and via < 0 and dest < N_HEX and pub[HEX_TERRAIN + dest] >= 0:
        return explorer_gain(pub, mine, seat, mem, work, ctx, e, worth, here, dest, via)
    C = work[W_LOOK:W_LOOK + STATE_SIZE]
    _copy(pub, C)
    apply_move(C, seat, MV_EXPLORER, e, dest, via)
    s = worth * (_pot_now(C, mem, e) - here)
    return s - ctx[1] * (_threat(C, pub, mine, seat, mem, work, M_MOVE, ctx[0]) - ctx[2])


# ============================================================================ our die move
@hot
def _near(mem, a, b):
    """A target hex lies within three hexes of ``a`` or ``b``."""
    for j in range(int(mem[L_N])):
        h = int(mem[L_HEX + j])
        if HEX_DIST[a, h] <= 3 or HEX_DIST[b, h] <= 3:
            return True
    return False


@hot
def _die_move(pub, mine, seat, opts, k, start, t0, nt, mem, work, guard):
    """Score of die move row ``k``: greedy's for dolphins, squid and empty boats; for a
    serpent, shark or whale its immediate captures (greedy's ``scores.victims``) plus ``guard``
    times how much it lowers the next opponent's expected haul of ours. Without anyone in the
    hex it enters, the haul is counted with the piece moved and no copy."""
    a = opts[k, 0]
    c = opts[k, 2]
    if a > WHALE:
        return row_score(pub, mine, seat, D_CREATURE, opts, k, mem)
    if c == start:
        return 0.0
    s = victims(pub, mine, seat, a, c, mem)
    if nt == 0 or not _near(mem, start, c):
        return s
    if pub[HEX_NSWIM + c] > 0 or pub[HEX_BOAT + c] >= 0:
        C = work[W_LOOK:W_LOOK + STATE_SIZE]
        _copy(pub, C)
        if a == WHALE:
            remove_all_at(C, SQUID, c)               # X7.5
        put_creature(C, a, opts[k, 1], c)
        resolve_hex(C, c)
        t = _threat(C, pub, mine, seat, mem, work, M_OURS, 0.0)
        _targets(pub, pub, mine, seat, mem, M_OURS, 0.0)    # the list of the real position
    else:
        t = _roll_value(pub, work, mem, a, opts[k, 1], c)
    return s + guard * (t0 - t)


@hot
def _creature(pub, mine, seat, kind, opts, n, rng, mem, work, guard):
    """The die move decided whole (as ``greedy.best_die_move``) with ``_die_move``'s scores;
    also the destination decision alone, when the roll left one piece to move."""
    nt = _targets(pub, pub, mine, seat, mem, M_OURS, 0.0)
    t0 = _roll_value(pub, work, mem, -1, -1, -1)
    best = -1e18
    pick = 0
    ties = 0
    if kind == D_CREATURE:
        start = piece_hex(pub, opts[0, 0], opts[0, 1])
        for k in range(n):
            s = _die_move(pub, mine, seat, opts, k, start, t0, nt, mem, work, guard)
            best, pick, ties = tally(s, k, best, pick, ties, rng)
        return pick
    for j in range(n):
        a = opts[j, 0]
        must = pub[MUST_MOVE] != 0 and creature_can_move(pub, a, opts[j, 1])
        m = creature_moves(pub, work, a, opts[j, 1], die_reach(pub, a), must, opts, n)
        start = piece_hex(pub, a, opts[j, 1])
        for k in range(n, m):
            s = _die_move(pub, mine, seat, opts, k, start, t0, nt, mem, work, guard)
            best, won, ties = tally(s, k, best, -1, ties, rng)
            if won == k:
                pick = j
                remember(pub, opts, k, D_CREATURE, mem)
    return pick


# ============================================================================ the sink
@hot
def _after_sink(pub, mine, seat, mem, work, h, effect, guard):
    """Sink the tile on ``h`` in the copy (never reading its back), play ``effect``, and score
    the outcome: explorers lost or picked up at once, our own roll's expected best capture,
    less ``guard`` times the next opponent's expected haul of ours."""
    C = work[W_LOOK:W_LOOK + STATE_SIZE]
    _copy(pub, C)
    for e in range(MAX_EX):                          # B5.6: its explorers swim
        if C[EX_LOC + e] == L_LAND and C[EX_AT + e] == h:
            place_explorer(C, e, L_SEA, h)
    C[TERRAIN_LEFT + C[HEX_TERRAIN + h]] -= 1
    C[HEX_TERRAIN + h] = -1
    C[TILES_LEFT] -= 1
    if effect == SUNK_SHARK or effect == SUNK_WHALE:       # B3.1, B3.2
        kind = SHARK if effect == SUNK_SHARK else WHALE
        slot = supply_slot(C, kind)
        if slot >= 0:
            put_creature(C, kind, slot, h)
            resolve_hex(C, h)
    elif effect == SUNK_BOAT:                           # B3.3: ours board first
        b = supply_boat(C)
        if b >= 0:
            put_boat(C, b, h)
            for pass_ in range(2):
                for e in range(MAX_EX):
                    ours = e // SLOTS == seat
                    if C[EX_LOC + e] == L_SEA and C[EX_AT + e] == h and C[BOAT_N + b] < 3 \
                            and ours == (pass_ == 0):
                        place_explorer(C, e, L_BOAT, b)
            resolve_hex(C, h)
    elif effect == SUNK_WHIRL:                          # B3.4
        whirlpool(C, h)
    elif effect == SUNK_DOLPHIN:                        # X5.2, X5.5: it protects ours first
        d = supply_slot(C, DOLPHIN)
        if d >= 0:
            put_creature(C, DOLPHIN, d, h)
            pick = -1
            for e in range(MAX_EX):
                if C[EX_LOC + e] == L_SEA and C[EX_AT + e] == h and (
                        pick < 0 or (e // SLOTS == seat and pick // SLOTS != seat)):
                    pick = e
            if pick >= 0:
                protect(C, d, pick)
    v = 0.0
    for e in range(MAX_EX):
        if C[EX_LOC + e] == L_LOST and pub[EX_LOC + e] != L_LOST:
            v -= 10.0 * value(pub, mine, seat, e, mem)
        elif C[EX_LOC + e] == L_BOAT and pub[EX_LOC + e] == L_LAND:
            v += 4.0 * value(pub, mine, seat, e, mem)
    _targets(C, pub, mine, seat, mem, M_ALL, 0.0)
    v += _roll_value(C, work, mem, -1, -1, -1)
    return v - guard * _threat(C, pub, mine, seat, mem, work, M_OURS, 0.0)


@hot
def _sink(pub, mine, seat, opts, n, rng, mem, work, guard, doom):
    """The tile to sink: greedy's score (explorers on it are worth less as swimmers, the
    leader's a gain) plus ``doom`` times the expectation over its back of ``_after_sink``."""
    odds = back_odds(pub, pub[HEX_TERRAIN + opts[0, 0]])
    best = -1e18
    pick = 0
    ties = 0
    for k in range(n):
        h = opts[k, 0]
        s = mem[M_SINKV + h]
        for effect in range(SUNK_NONE + 1):
            p = odds[effect]
            if p > 0.0:
                s += doom * p * _after_sink(pub, mine, seat, mem, work, h, effect, guard)
        best, pick, ties = tally(s, k, best, pick, ties, rng)
    return pick


# ============================================================================ the strategy
@hot
def _weigh(pub, seat, kind, mem, par):
    set_weights(mem, par[1], par[10], par[9], 1.0, par[2])   # tuned's weights by default
    mem[L_SHARE] = par[6]
    mem[L_CAPSIZE] = par[8]


@hot
def _own(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if kind == D_MOVE_PIECE:
        return _move(pub, mine, seat, opts, n, rng, mem, work, par[0], par[3], par[7])
    if kind == D_CREATURE_PIECE or (kind == D_CREATURE and opts[0, 0] <= WHALE):
        return _creature(pub, mine, seat, kind, opts, n, rng, mem, work, par[4])
    if kind == D_SINK:
        return _sink(pub, mine, seat, opts, n, rng, mem, work, par[4], par[5])
    return -1


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return rung(pub, mine, seat, kind, opts, n, rng, mem, work, par, _weigh, _own)
