"""The integer switch the compiled engine calls for every decision (one signature, no
recompilation per strategy mix). Adding a strategy: one module with ``choose``, one line here,
one entry in ``strategies.STRATEGY_CODES``."""

from simulator.jit import hot
from strategies import SCRIPTED_ID

from . import greedy, random_play, scripted

MEM_W = 1024       # float64 scratch each seat's strategy keeps for the whole game
assert greedy.M_END <= MEM_W and scripted.K_ROW + 4 <= MEM_W


@hot
def choose(sid, pub, mine, seat, kind, opts, n, rng, mem, work):
    """``opts[:n]`` are the legal rows; rows past ``n`` and ``work`` (int32) are scratch for
    rules queries (``rules.move_rows``, ``rules.reach`` ...) on ``pub``."""
    if sid == 1:
        return greedy.choose(pub, mine, seat, kind, opts, n, rng, mem, work)
    if sid == SCRIPTED_ID:
        return scripted.choose(pub, mine, seat, kind, opts, n, rng, mem, work)
    return random_play.choose(pub, mine, seat, kind, opts, n, rng, mem, work)
