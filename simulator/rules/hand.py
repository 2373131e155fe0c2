"""A seat's hand of red tiles (B5.6): kept hidden in the seat's private row (R11), its terrains
public; playing one takes the lowest terrain of that back (which of equal backs goes is
immaterial)."""
from simulator.jit import hot
from simulator.state import HAND_N, HAND_TERRAIN, N_TERRAIN, P_HAND, P_HAND_T, PRIV, PRIV_W


@hot
def hand_count(S, seat, back):
    return S[PRIV + seat * PRIV_W + P_HAND + back]


@hot
def add_to_hand(S, seat, back, terrain):
    """B5.6: a red back goes, hidden, into the seat's hand; its terrain stays public."""
    mine = PRIV + seat * PRIV_W
    S[mine + P_HAND + back] += 1
    S[mine + P_HAND_T + back * N_TERRAIN + terrain] += 1
    S[HAND_N + seat] += 1
    S[HAND_TERRAIN + seat * N_TERRAIN + terrain] += 1


@hot
def take_from_hand(S, seat, back):
    """Play (remove from the game) one tile of ``back`` from the hand; which of several equal
    backs goes is immaterial, so the lowest terrain is taken."""
    mine = PRIV + seat * PRIV_W
    terrain = 0
    while S[mine + P_HAND_T + back * N_TERRAIN + terrain] == 0:
        terrain += 1
    S[mine + P_HAND + back] -= 1
    S[mine + P_HAND_T + back * N_TERRAIN + terrain] -= 1
    S[HAND_N + seat] -= 1
    S[HAND_TERRAIN + seat * N_TERRAIN + terrain] -= 1
