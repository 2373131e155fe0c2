"""``scripted``: plays the decisions it is given, in order. Used by the scenario tests to put a
hand-built position through exactly one action, and usable to re-enact recorded decisions.

The script lives in the seat's ``mem`` row: ``mem[0]`` = number of rows, ``mem[1]`` = next row,
then 4 numbers per row matched against the option table (``WILD`` matches anything). A row that
matches no legal option returns -1, which the engine reports as a bad choice; once the script is
used up the first option is taken (stop moving, play nothing, ...).
"""

from simulator.jit import hot

WILD = -99.0


@hot
def choose(pub, mine, seat, kind, opts, n, rng, mem):
    count = int(mem[0])
    nxt = int(mem[1])
    if nxt >= count:
        return 0
    mem[1] = nxt + 1
    base = 2 + 4 * nxt
    for k in range(n):
        ok = True
        for j in range(4):
            want = mem[base + j]
            if want != WILD and opts[k, j] != want:
                ok = False
                break
        if ok:
            return k
    return -1
