"""Dolphins (X5, Challenge 5): which free dolphin protects a swimmer, protecting and releasing
(X5.5-X5.7), the swimmers a dolphin meets (X5.9), and the choice a whale's capsize may leave
pending (X5.9, ``PROTECT_PENDING``)."""
import numpy as np

from simulator.board import N_HEX
from simulator.jit import hot
from simulator.state import (
    CR_HEX,
    CR_SLOTS,
    DOL_PROT,
    DOLPHIN,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_PROT,
    F_WHALE,
    HEX_NCR,
    KIND_COUNT,
    L_SEA,
    MAX_EX,
    PROTECT_PENDING,
)

from .layout import add_row


@hot
def free_dolphin(S, h):
    """Lowest-numbered dolphin in hex ``h`` protecting nobody, or -1 (X5.5)."""
    if h < 0 or h >= N_HEX or S[HEX_NCR + DOLPHIN * N_HEX + h] == 0:
        return -1
    for d in range(KIND_COUNT[DOLPHIN]):
        if S[CR_HEX + DOLPHIN * CR_SLOTS + d] == h and S[DOL_PROT + d] < 0:
            return d
    return -1


@hot
def protect(S, d, e):
    S[DOL_PROT + d] = e
    S[EX_PROT + e] = d


@hot
def release(S, d):
    """Dolphin ``d`` stops protecting its swimmer (it moved away or switched, X5.6, X5.7)."""
    e = S[DOL_PROT + d]
    if e >= 0:
        S[EX_PROT + e] = -1
    S[DOL_PROT + d] = -1


@hot
def arrive(S, e, h):
    """X5.9: a single swimmer comes into hex ``h``: a free dolphin there protects it."""
    d = free_dolphin(S, h)
    if d >= 0:
        protect(S, d, e)


@hot
def protect_capsized(S, h):
    """X5.9 for the passengers a whale just threw into hex ``h`` (marked ``F_WHALE`` while the
    hex resolves): with enough free dolphins each is protected; with fewer, the acting seat
    chooses -- the hex is left pending (``PROTECT_PENDING``) for the engine to ask. Returns
    True when pending."""
    free = 0
    for d in range(KIND_COUNT[DOLPHIN]):
        free += np.int64((S[CR_HEX + DOLPHIN * CR_SLOTS + d] == h) & (S[DOL_PROT + d] < 0))
    if free == 0:
        return False
    arrived = 0
    for e in range(MAX_EX):
        arrived += np.int64((S[EX_LOC + e] == L_SEA) & (S[EX_AT + e] == h)
                            & (S[EX_FATE + e] == F_WHALE) & (S[EX_PROT + e] < 0))
    if arrived > free:
        S[PROTECT_PENDING] = h
        return True
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_FATE + e] == F_WHALE:
            arrive(S, e, h)
    return False


@hot
def protect_candidates(S, h, capsized_only, d, opts):
    """Rows ``(e, d, -1, -1)``: the unprotected swimmers in ``h`` dolphin ``d`` may protect
    (only those a whale just threw in, with ``capsized_only``)."""
    n = 0
    for e in range(MAX_EX):
        if S[EX_LOC + e] == L_SEA and S[EX_AT + e] == h and S[EX_PROT + e] < 0 and \
                (not capsized_only or S[EX_FATE + e] == F_WHALE):
            n = add_row(opts, n, e, d, -1, -1)
    return n
