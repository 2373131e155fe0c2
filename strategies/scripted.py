"""``scripted``: plays the decisions it is given, in order. Used by the scenario tests to put a
hand-built position through exactly one action, and usable to re-enact recorded decisions.

The script lives in the seat's ``mem`` row: ``mem[0]`` = number of rows, ``mem[1]`` = next row,
then 4 numbers per row matched against the option table (``WILD`` matches anything). A row that
matches no legal option returns -1, which the engine reports as a bad choice; once the script is
used up the first option is taken (stop moving, play nothing, ...).

A movement point, a tile play and a die move are asked in two decisions (which piece, then
where), but are scripted as one whole row: the piece decision takes the next row, answers with
its first two numbers and keeps the row for the destination decision that follows in the same
turn. (The engine does not ask a decision with one option, so a kept row may go unused; the
next piece decision replaces it.)
"""

from simulator.jit import hot
from simulator.state import (
    D_CREATURE,
    D_CREATURE_PIECE,
    D_MOVE,
    D_MOVE_PIECE,
    D_PLAY_TILE,
    D_TILE_DEST,
    TURN,
)

NAME = "scripted"
INLINE = True           # in the switch: the scenario tests set its code as the seats' id
CODE = 99
DESCRIPTION = "plays the decisions a test scripted into its mem row (scenario tests only)"
PARAMS = ()
LISTED = False          # internal: driven by the scenario tests, not a command-line choice

WILD = -99.0
K_KIND = 500            # the kept row: destination decision kind + 1 (0 = none), its turn,
K_TURN = 501            # then the row's 4 numbers
K_ROW = 502
MEM_W = K_ROW + 4


@hot
def _match(opts, n, mem, base, cols):
    for k in range(n):
        ok = True
        for j in range(cols):
            want = mem[base + j]
            if want != WILD and opts[k, j] != want:
                ok = False
                break
        if ok:
            return k
    return -1


@hot
def _match_tile(opts, n, mem, base):
    """The tile-and-piece half of a tile play: columns 0, 1 and 3 (the move-whale tile's
    piece may be a whale or a squid, told apart by column 3; column 2 is filled later)."""
    for k in range(n):
        ok = True
        for j in (0, 1, 3):
            want = mem[base + j]
            if want != WILD and opts[k, j] != want:
                ok = False
        if ok:
            return k
    return -1


@hot
def _second_half(kind):
    """The destination decision that follows a piece decision, or -1."""
    if kind == D_MOVE_PIECE:
        return D_MOVE
    if kind == D_CREATURE_PIECE:
        return D_CREATURE
    if kind == D_PLAY_TILE:
        return D_TILE_DEST
    return -1


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    if mem[K_KIND] == kind + 1 and mem[K_TURN] == pub[TURN]:
        mem[K_KIND] = 0.0
        return _match(opts, n, mem, K_ROW, 4)
    count = int(mem[0])
    nxt = int(mem[1])
    if nxt >= count:
        return 0
    mem[1] = nxt + 1
    base = 2 + 4 * nxt
    then = _second_half(kind)
    if then >= 0:
        mem[K_KIND] = then + 1.0
        mem[K_TURN] = pub[TURN]
        for j in range(4):
            mem[K_ROW + j] = mem[base + j]
        if kind == D_PLAY_TILE:
            return _match_tile(opts, n, mem, base)
        return _match(opts, n, mem, base, 2)
    return _match(opts, n, mem, base, 4)
