"""What the rules share with the engine and the strategies: the cells of the work array ``W``
(search scratch below ``W_ENGINE``, the engine's cells above it, then a strategy's own room)
and the writing of one row of the option table (``add_row``). No rule of its own."""
from simulator.board import N_LOC
from simulator.jit import hot
from simulator.state import MAX_EX, N_STREAMS, STATE_SIZE

# scratch layout of the work array W (int32): BFS distance, parent and queue
W_DIST = 0
W_PARENT = N_LOC
W_QUEUE = 2 * N_LOC
W_MARK = 3 * N_LOC            # search id that last reached each location (no per-search reset)
W_SEARCH = 4 * N_LOC          # id of the current search
# cells below W_ENGINE are search scratch that strategies may also use (through rules queries
# such as ``reach``); the engine's own cells above it survive a question to a strategy
W_ENGINE = W_SEARCH + 1
W_PATH = W_ENGINE             # 3 cells: the path of the current multi-hex move
W_SWIM = W_PATH + 3           # MAX_EX cells: the swimmers a boat tile may take aboard
W_SUNK_N = W_SWIM + MAX_EX    # X6.3: how many explorers stood on the tile that sank ...
W_SUNK = W_SUNK_N + 1         # ... and which (MAX_EX cells)
# a strategy's own room, never read or written by the engine: a whole state's worth of cells
# where a lookahead copies the public table and tries moves with the rules' functions
# (``strategies.lookahead``)
W_LOOK = W_SUNK + MAX_EX
# the game's journal since its last clean point (``play.journal``): written by the engine only
# when a seat needs to re-enter the game (a search seat), read by that seat, never by the rules
W_JOURNAL = W_LOOK + STATE_SIZE
J_PHASE, J_N, J_TIEBREAK = 0, 1, 2        # header: clean point's phase, choices, chain rule
J_RNG = 3                                 # N_STREAMS uint64 streams as (low, high) int32 pairs
J_STATE = J_RNG + 2 * N_STREAMS           # the whole state at the clean point
J_CHOICES = J_STATE + STATE_SIZE          # the rows answered since, in order
J_MAX = 1024                              # more choices than a setup or a turn ever asks
W_SIZE = W_JOURNAL + J_CHOICES + J_MAX


@hot
def add_row(opts, n, a, b, c, d):
    """Write the option row ``(a, b, c, d)`` at row ``n``; return the row count."""
    opts[n, 0] = a
    opts[n, 1] = b
    opts[n, 2] = c
    opts[n, 3] = d
    return n + 1
