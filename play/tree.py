"""The search's tree and its simulated seats' question: single-observer information-set MCTS
(Cowling, Powley & Whitehouse 2012) with max^n backup, in one preallocated float64 arena.

A search iteration plays the engine's own game forward (``play.reentry``) with every seat
answered by ``tree_ask`` through a seat function (``play.search``):

1. **Prefix**: the rows the journal recorded since the last clean point, in order, which
   re-create the decision the search was asked about (``play.journal``).
2. **Root**: on reaching it, the table is checked against the real one (first iteration),
   every cell hidden from the observer is drawn afresh (``play.determinize``) and the random
   streams are re-seeded for this iteration: the die, the dive dice and the tiles to come are
   as likely as they are for the observer, and nothing the observer does not know leaks in.
3. **Tree**: at each decision, the options legal in this world are matched to the node's
   children by their rows (a child is an action, not a position: the same action from the
   same node shares its statistics across worlds); each matched child counts one more
   availability, and the seat to answer picks by UCB on its *own* reward
   (``mean + c * sqrt(ln(availability) / visits)``), or expands one of the options never
   tried. After an expansion the iteration leaves the tree; so does it past ``plies`` decisions
   below the root (``H_PLIES``: 0 keeps the root's options only).
   The option expanded is the rollout rung's own choice when that is untried, else a random
   untried one (``expand``). With progressive widening (``H_WIDEN`` = alpha > 0, Coulom 2007;
   Chaslot et al. 2008; Couetoux et al. 2011) a node visited N times grows a new child only
   while it has fewer than floor(N^alpha) tried ones legal here (at least one): a young node
   keeps to the rung's move, which is tried first, instead of spreading its visits over every
   option.
4. **Rollout**: ``tree_ask`` answers -1 and the seat function asks the rollout rung.

A benchmark's bare playouts (``H_BARE``: the rung's ``bare``) skip the tree: 1 plays from the
re-created real table (the engine's own game from the decision, the speed limit), 2 from a
drawn world.

The arena is the simulated seats' memory rows followed by ``A_HEAD`` header cells, the prefix,
the path of the current iteration, the nodes and an open-addressed table from (parent, row)
to child. Its size is fixed by the budget: one node per iteration at most, so memory per seat
is bounded and nothing is allocated while searching.
"""
import numpy as np

from simulator.jit import hot
from simulator.rng import randint, seed_streams
from simulator.rules.layout import J_MAX, W_JOURNAL
from simulator.state import DECISION_NAMES, OPT_W, PRIV, PRIV_W, PUB_SIZE, RNG_SETUP

from .determinize import determinize

# header cells
(H_SIZE, H_MODE, H_CURSOR, H_PREFIX_N, H_OBSERVER, H_ROOT_KIND, H_ROOT_N, H_ERR, H_NODE,
 H_PATH_N, H_NODES, H_CAP, H_TABLE, H_C, H_CHECK, H_CHECKED, H_SEED_LO, H_SEED_HI,
 H_ITER, H_PICK, H_PAIRED, H_BARE, H_PLIES, H_WORLD, H_ROOT_PICK, H_WIDEN) = range(26)
A_HEAD = 32
A_PREFIX = A_HEAD
PATH_MAX = 512
A_PATH = A_PREFIX + J_MAX
A_NODES = A_PATH + PATH_MAX
# node fields: the row it answers (kind + the option row), who answers, statistics
(N_PARENT, N_KIND, N_R0, N_R1, N_R2, N_R3, N_SEAT, N_VISITS, N_AVAIL, N_SUM) = range(10)
NODE_W = 10
MODE_PREFIX, MODE_TREE, MODE_ROLLOUT, MODE_STOP = 0, 1, 2, 3
EXPAND = -2                        # ``tree_ask``: ask the rollout rung, then ``expand``
ERR_MISMATCH, ERR_PATH = 1, 2
_MASK = (1 << 52) - 1


@hot
def arena_size(budget):
    """(cells, node capacity, table size) for a search of ``budget`` iterations: one node per
    iteration (and the root), a table at most half full."""
    cap = budget + 2
    table = 1
    while table < 2 * cap:
        table *= 2
    return A_NODES + cap * NODE_W + table, cap, table


@hot
def table_at(A):
    return A_NODES + np.int64(A[H_CAP]) * NODE_W


# the columns of an option row that name the action, per decision kind (``simulator.state``):
# the rest of a row is left from earlier questions and must not split one action in two
KEY_COLS = np.array([2, 1, 4, 4, 1, 1, 4, 1, 1, 1, 4, 4, 4, 4, 1, 1], np.int64)
assert KEY_COLS.shape[0] == len(DECISION_NAMES)


@hot
def _cell(kind, opts, i, c):
    return opts[i, c] if c < KEY_COLS[kind] else 0


@hot
def _hash(parent, kind, opts, i):
    x = np.uint64(parent + 1) * np.uint64(0x9E3779B97F4A7C15)
    x ^= np.uint64(kind + 7) * np.uint64(0xBF58476D1CE4E5B9)
    for c in range(OPT_W):
        x = (x ^ np.uint64(_cell(kind, opts, i, c) + 1000003)) * np.uint64(0x94D049BB133111EB)
        x ^= x >> np.uint64(29)
    return x


@hot
def _node(A, j):
    return A_NODES + j * NODE_W


@hot
def find(A, parent, kind, opts, i):
    """The child of ``parent`` that answers ``kind`` with row ``opts[i]``, or -1."""
    tsize = np.int64(A[H_TABLE])
    t0 = table_at(A)
    slot = np.int64(_hash(parent, kind, opts, i) & np.uint64(tsize - 1))
    while True:
        j = np.int64(A[t0 + slot]) - 1
        if j < 0:
            return -1
        b = _node(A, j)
        if (A[b + N_PARENT] == parent and A[b + N_KIND] == kind
                and A[b + N_R0] == _cell(kind, opts, i, 0)
                and A[b + N_R1] == _cell(kind, opts, i, 1)
                and A[b + N_R2] == _cell(kind, opts, i, 2)
                and A[b + N_R3] == _cell(kind, opts, i, 3)):
            return j
        slot = (slot + 1) & (tsize - 1)


@hot
def add(A, parent, kind, opts, i, seat):
    """A new child of ``parent`` for row ``opts[i]``; -1 when the arena is full."""
    j = np.int64(A[H_NODES])
    if j >= np.int64(A[H_CAP]):
        return -1
    A[H_NODES] = j + 1
    b = _node(A, j)
    A[b + N_PARENT] = parent
    A[b + N_KIND] = kind
    A[b + N_R0] = _cell(kind, opts, i, 0)
    A[b + N_R1] = _cell(kind, opts, i, 1)
    A[b + N_R2] = _cell(kind, opts, i, 2)
    A[b + N_R3] = _cell(kind, opts, i, 3)
    A[b + N_SEAT] = seat
    A[b + N_VISITS] = 0.0
    A[b + N_AVAIL] = 0.0
    A[b + N_SUM] = 0.0
    tsize = np.int64(A[H_TABLE])
    t0 = table_at(A)
    slot = np.int64(_hash(parent, kind, opts, i) & np.uint64(tsize - 1))
    while A[t0 + slot] != 0.0:
        slot = (slot + 1) & (tsize - 1)
    A[t0 + slot] = j + 1
    return j


@hot
def reset(A, budget_cap, table):
    """An empty tree: node 0 is the root (the decision asked about)."""
    A[H_CAP] = budget_cap
    A[H_TABLE] = table
    A[H_NODES] = 1
    A[H_CHECKED] = 0.0
    b = _node(A, 0)
    for c in range(NODE_W):
        A[b + c] = -1.0
    t0 = table_at(A)
    for i in range(table):
        A[t0 + i] = 0.0


@hot
def checksum(S, seat):
    """A hash of the public table and ``seat``'s own secrets (what the observer sees)."""
    x = np.uint64(0x632BE59BD9B4E019)
    for i in range(PUB_SIZE):
        x = (x ^ np.uint64(S[i] + 17)) * np.uint64(0x100000001B3)
    for i in range(PRIV + seat * PRIV_W, PRIV + (seat + 1) * PRIV_W):
        x = (x ^ np.uint64(S[i] + 17)) * np.uint64(0x100000001B3)
    return np.float64(x & np.uint64(_MASK))


@hot
def select(A, rng, k, seat, kind, opts, n):
    """The tree's answer at the current node (``H_NODE``): UCB over the children legal here,
    or, while any is untried, ``EXPAND`` (a random untried row drawn into ``H_PICK``)."""
    v = np.int64(A[H_NODE])
    if v != 0 and A[H_PATH_N] > A[H_PLIES]:     # below the tree's plies: the rollout rung
        A[H_MODE] = MODE_ROLLOUT
        return -1
    if v == 0 and A[H_PAIRED] != 0.0:            # the option the driver's round plays
        i = np.int64(A[H_ROOT_PICK])
        j = find(A, 0, kind, opts, i)
        if j < 0:
            j = add(A, 0, kind, opts, i, seat)
            if j < 0:
                A[H_MODE] = MODE_ROLLOUT
                return -1
        _push(A, j)
        A[H_NODE] = j
        return i
    c = A[H_C]
    untried = 0
    pick = -1
    best = -1
    best_val = -1e300
    for i in range(n):
        j = find(A, v, kind, opts, i)
        if j < 0:
            untried += 1
            if untried == 1 or _below(rng, k, untried):
                pick = i
            continue
        b = _node(A, j)
        A[b + N_AVAIL] += 1.0
        visits = A[b + N_VISITS]
        if visits <= 0.0:
            val = 1e300
        else:
            val = A[b + N_SUM] / visits + c * np.sqrt(np.log(A[b + N_AVAIL]) / visits)
        if val > best_val:
            best_val = val
            best = i
    if untried > 0 and A[H_NODES] < A[H_CAP] and _widens(A, v, n - untried):
        A[H_PICK] = pick
        return EXPAND
    if best < 0:                         # the arena is full and nothing here was tried
        A[H_MODE] = MODE_ROLLOUT
        return -1
    j = find(A, v, kind, opts, best)
    _push(A, j)
    A[H_NODE] = j
    return best


@hot
def _widens(A, v, tried):
    """Whether node ``v``, with ``tried`` children legal here, may grow one more: always
    without progressive widening, else while ``tried < floor(N^alpha)`` (N its visits so far;
    the root's are the iterations; the first child always)."""
    alpha = A[H_WIDEN]
    if alpha <= 0.0 or tried == 0:
        return True
    visits = A[H_ITER] if v == 0 else A[_node(A, v) + N_VISITS]
    return tried < np.floor(max(visits, 1.0) ** alpha)


@hot
def expand(A, seat, kind, opts, n, preferred):
    """After ``EXPAND``: a new child for the rollout rung's ``preferred`` row if it is untried
    here, else for the random untried row ``select`` drew; the iteration leaves the tree.
    Trying the rung's move first makes a node's first estimate that of the rung's play, not
    of a random move (which, in a move asked as piece then destination, made every piece
    look worse than stopping)."""
    v = np.int64(A[H_NODE])
    i = np.int64(A[H_PICK])
    if 0 <= preferred < n and find(A, v, kind, opts, preferred) < 0:
        i = preferred
    j = add(A, v, kind, opts, i, seat)
    if j >= 0:
        _push(A, j)
    A[H_MODE] = MODE_ROLLOUT
    return i


@hot
def _below(rng, k, m):
    """True with probability 1/m (reservoir sampling of the untried options)."""
    return randint(rng, k, m) == 0


@hot
def _push(A, j):
    p = np.int64(A[H_PATH_N])
    if p >= PATH_MAX:
        A[H_ERR] = ERR_PATH
        return
    A[A_PATH + p] = j
    A[H_PATH_N] = p + 1


@hot
def backup(A, reward):
    """max^n: every node on the path gains one visit and its answering seat's reward."""
    for p in range(np.int64(A[H_PATH_N])):
        b = _node(A, np.int64(A[A_PATH + p]))
        A[b + N_VISITS] += 1.0
        A[b + N_SUM] += reward[np.int64(A[b + N_SEAT])]


@hot
def halve(alive, m, preferred, s1, count):
    """Sequential halving (Karnin, Koren & Somekh 2013) of the paired root: the better half of
    ``alive[:m]`` by mean paired gain over ``preferred`` (which always stays) moved to the
    front; returns how many stay."""
    keep = (m + 1) // 2
    for a in range(keep):                        # selection sort of the first ``keep``
        best = a
        for b in range(a + 1, m):
            if _gain(s1, count, alive[b]) > _gain(s1, count, alive[best]):
                best = b
        t = alive[a]
        alive[a] = alive[best]
        alive[best] = t
    for a in range(keep):
        if alive[a] == preferred:
            return keep
    for b in range(keep, m):                     # the rung's move is the baseline: it stays
        if alive[b] == preferred:
            alive[b] = alive[keep - 1]
            alive[keep - 1] = preferred
    return keep


@hot
def _gain(s1, count, i):
    return s1[i] / count[i] if count[i] > 0 else 0.0


@hot
def paired_choice(alive, m, preferred, s1, s2, count, z):
    """Among the options still in ``alive[:m]``: the one whose mean gain over ``preferred``
    (the rollout rung's move), round by round on the same worlds, is largest among those whose
    gain is at least ``z`` standard errors above zero; ``preferred`` when none is. A best of
    many noisy means beats the rung's by chance alone (at a setup placement, one of 40): the
    paired test keeps a move the search cannot tell apart."""
    best = preferred
    gain = 0.0
    for a in range(m):
        i = alive[a]
        r = count[i]
        if i == preferred or r < 2:
            continue
        mean = s1[i] / r
        var = max(s2[i] / r - mean * mean, 0.0) * r / (r - 1)
        se = np.sqrt(var / r)
        if mean > gain and mean > z * se:
            gain = mean
            best = i
    return best


@hot
def mean_of(A, kind, opts, i):
    """The mean reward of the root's child for row ``opts[i]`` (-1 if never played)."""
    j = find(A, 0, kind, opts, i)
    if j < 0:
        return -1.0
    b = _node(A, j)
    return A[b + N_SUM] / A[b + N_VISITS] if A[b + N_VISITS] > 0.0 else -1.0


@hot
def most_visited(A, kind, opts, n):
    """The row of ``opts[:n]`` whose root child was visited most (ties: the higher mean
    reward, then the first), or -1."""
    best = -1
    most = 0.0
    mean = -1.0
    for i in range(n):
        j = find(A, 0, kind, opts, i)
        if j < 0:
            continue
        b = _node(A, j)
        visits = A[b + N_VISITS]
        if visits <= 0.0:
            continue
        m = A[b + N_SUM] / visits
        if visits > most or (visits == most and m > mean):
            most = visits
            mean = m
            best = i
    return best


@hot
def tree_ask(S, W, opts, rng, A, seat, kind, n):
    """A simulated seat's answer (the module's docstring): a row, or -1 for the rollout rung.
    The setup stream, which the engine no longer draws from once the tiles are laid, carries
    the determinization and the tree's random choices."""
    mode = np.int64(A[H_MODE])
    if mode == MODE_PREFIX:
        c = np.int64(A[H_CURSOR])
        if c < np.int64(A[H_PREFIX_N]):
            A[H_CURSOR] = c + 1
            k = np.int64(A[A_PREFIX + c])
            if k < n:
                return k
            A[H_ERR] = ERR_MISMATCH
            A[H_MODE] = MODE_STOP
            return 0
        if A[H_CHECKED] == 0.0:
            if (seat != np.int64(A[H_OBSERVER]) or kind != np.int64(A[H_ROOT_KIND])
                    or n != np.int64(A[H_ROOT_N]) or checksum(S, seat) != A[H_CHECK]):
                A[H_ERR] = ERR_MISMATCH
                A[H_MODE] = MODE_STOP
                return 0
            A[H_CHECKED] = 1.0
        seed = (np.uint64(A[H_SEED_HI]) << np.uint64(26)) ^ np.uint64(A[H_SEED_LO])
        world = np.int64(A[H_ITER])
        if A[H_PAIRED] != 0.0:                   # every option of a round: the same world
            world = np.int64(A[H_WORLD])
        seed_streams(rng, seed, world)
        bare = np.int64(A[H_BARE])
        if bare != 1:
            determinize(S, seat, rng, RNG_SETUP, W[W_JOURNAL:])
        if bare != 0:                            # a benchmark's playout: no tree
            A[H_MODE] = MODE_ROLLOUT
            return -1
        A[H_MODE] = MODE_TREE
        A[H_NODE] = 0
        mode = MODE_TREE
    if mode == MODE_TREE:
        return select(A, rng, RNG_SETUP, seat, kind, opts, n)
    if mode == MODE_STOP:
        return 0
    return -1
