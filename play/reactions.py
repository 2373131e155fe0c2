"""What an action sets off before the turn goes on: the challenges' end checks (X2.2, X2.4,
X2.5), a dolphin's choice of swimmer (X5.5, X5.9), the Giant Squid's placing and attack
(X7.1, X7.4)."""
import numpy as np

from simulator.jit import hot
from simulator.rules import at_rest as AR
from simulator.rules import dolphins as DO
from simulator.rules import movement as MV
from simulator.rules import queries as QU
from simulator.rules import squid as SQ
from simulator.state import (
    CH_ATLANTIS_GONE,
    CH_LEAVE_NONE,
    CHALLENGES,
    CR_HEX,
    CR_SLOTS,
    CUR_SEAT,
    D_PLACE_SQUID,
    D_PROTECT,
    D_SQUID_VICTIM,
    E_ISLAND_GONE,
    E_NO_EXPLORERS,
    END_REASON,
    END_SEAT,
    EX_LOC,
    F_SQUID,
    L_BOAT,
    L_LAND,
    L_SEA,
    MAX_EX,
    OVER,
    PROTECT_PENDING,
    SQUID,
    SQUID_PLACED,
    TILES_LEFT,
    WHALE,
)

from .decisions import ask, log_event
from .layout import EV_SQUID


@hot
def end_game(S, reason, seat):
    S[OVER] = 1
    S[END_REASON] = reason
    S[END_SEAT] = seat


@hot
def challenge_end(S, seat):
    """X2.2, X2.4, X2.5: with Leave No One Behind the game ends once no explorer is on the
    board; with Atlantis is Gone, once the last land tile is removed. Checked after every
    action that can bring either about; returns True when the game is over."""
    if S[OVER] != 0:
        return True
    ch = S[CHALLENGES]
    if ch & CH_LEAVE_NONE:
        on_board = 0
        for e in range(MAX_EX):
            loc = S[EX_LOC + e]
            on_board += np.int64((loc == L_LAND) | (loc == L_BOAT) | (loc == L_SEA))
        if on_board == 0:
            end_game(S, E_NO_EXPLORERS, seat)
            return True
    if (ch & CH_ATLANTIS_GONE) and S[TILES_LEFT] == 0:
        end_game(S, E_ISLAND_GONE, seat)
        return True
    return False


@hot
def settle(S, st, rng, ctx, mem, W, fns, opts, seat):
    """X5.9: a whale threw more swimmers into a hex than it has free dolphins; ``seat``, whose
    action caused it, picks who each free dolphin protects, then the hex's resolution goes on
    (``rules.resolve_hex`` left it pending)."""
    while S[PROTECT_PENDING] >= 0:
        h = S[PROTECT_PENDING]
        d = DO.free_dolphin(S, h)
        while d >= 0:
            n = DO.protect_candidates(S, h, True, d, opts)
            if n == 0:
                break
            DO.protect(S, d, opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PROTECT, opts, n), 0])
            d = DO.free_dolphin(S, h)
        AR.resolve_hex(S, h)


@hot
def protect_one(S, st, rng, ctx, mem, W, fns, opts, seat, h, d):
    """X5.5 / X5.9: free dolphin ``d`` has come to hex ``h``: it protects one unprotected
    swimmer there, the one ``seat`` picks when there are several. Returns it, or -1."""
    n = DO.protect_candidates(S, h, False, d, opts)
    if n == 0:
        return -1
    e = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PROTECT, opts, n), 0]
    DO.protect(S, d, e)
    return e


@hot
def squid_attack(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat, k, placed):
    """X7.1 / X7.4: after a squid is placed or moved (staying counts), every whale in its hex
    is removed, then ``seat`` removes exactly one explorer: from a land tile next to it or from an
    occupied boat in its hex. Logged as a ``squid`` event."""
    h = S[CR_HEX + SQUID * CR_SLOTS + k]
    whales = QU.remove_all_at(S, WHALE, h)
    n = SQ.squid_victims(S, h, opts)
    victim = -1
    if n > 0:
        victim = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_SQUID_VICTIM, opts, n), 0]
        MV.kill(S, victim, F_SQUID)
    challenge_end(S, S[CUR_SEAT])
    log_event(S, ctx, ev, snaps, EV_SQUID, seat, k, h, whales, victim, placed, 0, 0)


@hot
def place_squid(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat):
    """X7.1: a whale tile that brought a whale into play (under squid-only: any whale tile)
    also brings a squid, placed by the revealer on an unoccupied sea hex next to land."""
    k = MV.supply_slot(S, SQUID)
    if k < 0:
        return
    n = SQ.options_place_squid(S, opts)
    if n == 0:
        return
    h = opts[ask(S, st, rng, ctx, mem, W, fns, seat, D_PLACE_SQUID, opts, n), 0]
    MV.put_creature(S, SQUID, k, h)
    S[SQUID_PLACED] += 1
    squid_attack(S, st, rng, ctx, mem, W, fns, opts, ev, snaps, seat, k, 1)
