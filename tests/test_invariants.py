"""Invariants over thousands of logged random and greedy games at 2 to 6 players, checked on
the state after every single event (placement, move, sink, creature move, ...).

The checks are plain numpy over the snapshot array, independent of the compiled rules: every
explorer is in exactly one place and the occupancy counts agree; no boat holds more than 3; no
hex holds two boats; the at-rest rule (B6.7) holds everywhere; tiles sink in terrain order
(B5.5); an explorer never returns to land (B6.3); the game ends exactly at the volcano (B5.7);
each colour plays 10 explorers, 8 with 5 players and 7 with 6 (X1.1, X1.2); a land tile holds one
explorer after the setup, with exactly two doubled tiles with 6 players (X1.3); with Challenge
1 the caps of X2.1 hold except where X1.3 stacks; with Challenge 6 no explorer joins its own
colour once every tile is occupied (X6.2); a whale and a squid never rest in one hex (X7.4,
X7.5), also in the example games where several whales or squid meet.
"""
import numpy as np
import pytest

from play import engine as E
from play import layout as LY
from simulator.board import DENSE_CAP, N_HEX
from play.settings import Settings
from play.simulate import engine_args
from simulator.state import (
    B_VOLCANO,
    CH_ATLANTIS_GONE,
    CH_DENSE,
    CH_DIVE,
    CH_LEAVE_NONE,
    CH_OVERPOP,
    CHALLENGES,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_HEX,
    CR_SLOTS,
    DOL_PROT,
    DOLPHIN,
    E_ISLAND_GONE,
    E_NO_EXPLORERS,
    E_TURN_CAP,
    E_VOLCANO,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_PROT,
    F_WHALE,
    HEX_BOAT,
    HEX_NCR,
    HEX_NLAND,
    HEX_NSWIM,
    HEX_TERRAIN,
    KIND_COUNT,
    L_BOAT,
    L_LAND,
    L_OFF,
    L_SEA,
    MAX_TURNS,
    MAX_EX,
    N_BOATS,
    N_PLAYERS,
    N_SEATS,
    N_KINDS,
    PROTECT_PENDING,
    SERPENT,
    SHARK,
    SQUID,
    SQUID_ON,
    SQUID_ONLY,
    STATE_SIZE,
    TERRAIN_LEFT,
    TURN,
    WHALE,
)

GAMES = 400          # per (player count, strategy mix): 2,400 games, every event checked
MIXES = {"random": ("random",), "greedy": ("greedy",)}


def _play(settings, seed, game, buffers):
    ev, snaps, S = buffers
    n, err, _, _ = E.replay_game(*engine_args(settings), np.int64(seed), np.int64(game),
                                  ev, snaps, S)
    assert err == 0
    return ev[:n], snaps[:n]


def check_snapshots(ev: np.ndarray, X: np.ndarray) -> None:
    """Every invariant of the module docstring, on one game's events ``ev`` and the snapshots
    ``X`` after each of them."""
    setup_end = _check_setup(ev, X)
    _check_places(X)
    _check_creatures(ev, X)
    _check_course(ev, X, setup_end)


def _check_setup(ev: np.ndarray, X: np.ndarray) -> int:
    """How many explorers each colour plays and where they are placed (X1.1-X1.3, X2.1, X6.1,
    X6.2, B4.3); returns the event that ends the explorers' placement."""
    loc = X[:, EX_LOC:EX_LOC + MAX_EX]
    at = X[:, EX_AT:EX_AT + MAX_EX]
    in_play = loc[0] != L_OFF
    players, seats = X[0, N_PLAYERS], X[0, N_SEATS]
    per_colour = {5: 8, 6: 7}.get(players, 10)                      # X1.1, X1.2
    if X[0, CHALLENGES] & CH_OVERPOP:
        per_colour = 10                                              # X6.1
    assert (in_play.reshape(-1, 10).sum(axis=1) == [per_colour] * seats + [0] * (6 - seats)).all()
    challenges = X[0, CHALLENGES]
    setup_end = np.flatnonzero(ev[:, 0] == LY.EV_PLACE_EXPLORER)[-1]  # at setup (explorers walk
    nland = X[setup_end, HEX_NLAND:HEX_NLAND + N_HEX]                   # together later, B6.2)
    places = np.flatnonzero(ev[:, 0] == LY.EV_PLACE_EXPLORER)
    if challenges & CH_OVERPOP:                                      # X6.2
        assert nland.max() <= 2
        island = X[0, HEX_TERRAIN:HEX_TERRAIN + N_HEX] >= 0
        for i in places:             # once every tile is occupied: a lone explorer, not one's own
            before = X[i - 1, HEX_NLAND:HEX_NLAND + N_HEX]
            if (before[island] > 0).all():
                e, h = ev[i, 3], ev[i, 4]
                there = np.flatnonzero((loc[i - 1] == L_LAND) & (at[i - 1] == h))
                assert len(there) == 1 and there[0] // 10 != e // 10, "X6.2 placement"
        if not challenges & CH_DENSE:        # (X2.1 lets one colour fill an inland tile)
            land = np.flatnonzero(loc[setup_end] == L_LAND)
            pairs = {(int(at[setup_end, e]), e // 10) for e in land}
            assert len(pairs) == len(land), "two explorers of one colour on a tile"
    elif challenges & CH_DENSE:                                      # X2.1, X1.3
        over = np.flatnonzero(nland > DENSE_CAP)
        if players == 6:             # the last explorers of seats 4 and 5 join a lone one
            lasts = [i for i in places if ev[i, 1] >= 4][-2:]
            assert [ev[i, 1] for i in lasts] == [4, 5]
            for i in lasts:
                e, h = ev[i, 3], ev[i, 4]
                there = np.flatnonzero((loc[i - 1] == L_LAND) & (at[i - 1] == h))
                assert len(there) == 1 and there[0] // 10 != e // 10, "X1.3 placement"
            assert set(over) <= {ev[i, 4] for i in lasts}
        else:
            assert len(over) == 0
    else:                                                            # B4.3, X1.3
        assert nland.max() <= (2 if players == 6 else 1)
        assert (nland == 2).sum() == (2 if players == 6 else 0)
    return setup_end


def _check_places(X: np.ndarray) -> None:
    """Every piece in exactly one place, and the occupancy tables agree with the pieces."""
    n = len(X)
    loc = X[:, EX_LOC:EX_LOC + MAX_EX]
    at = X[:, EX_AT:EX_AT + MAX_EX]
    # every explorer in exactly one place: recount the occupancy arrays from the explorers
    for kind, region in ((L_LAND, HEX_NLAND), (L_SEA, HEX_NSWIM)):
        counts = np.zeros((n, N_HEX), np.int64)
        rows, cols = np.nonzero(loc == kind)
        np.add.at(counts, (rows, at[rows, cols]), 1)
        assert (counts == X[:, region:region + N_HEX]).all(), f"occupancy of loc {kind} drifted"
    boat_n = X[:, BOAT_N:BOAT_N + N_BOATS]
    assert (boat_n <= 3).all() and (boat_n >= 0).all(), "a boat holds more than 3"
    passengers = X[:, BOAT_P:BOAT_P + 3 * N_BOATS].reshape(n, N_BOATS, 3)
    seated = np.arange(3)[None, None, :] < boat_n[:, :, None]     # packed to the front
    assert (passengers[seated] >= 0).all() and (passengers[~seated] == -1).all()
    rows, boats, _ = np.nonzero(seated)
    riders = passengers[seated]
    assert (at[rows, riders] == boats).all(), "a passenger's boat disagrees"
    times_listed = np.zeros((n, MAX_EX), np.int64)
    np.add.at(times_listed, (rows, riders), 1)
    assert (times_listed == (loc == L_BOAT)).all(), "boat passengers disagree"
    # no hex holds two boats, and the boat-by-hex table agrees
    bh = X[:, BOAT_HEX:BOAT_HEX + N_BOATS]
    rows, boats = np.nonzero(bh >= 0)
    hexes = bh[rows, boats]
    per_hex = np.zeros((n, N_HEX), np.int64)
    np.add.at(per_hex, (rows, hexes), 1)
    assert per_hex.max(initial=0) <= 1, "two boats in one hex"
    table = X[:, HEX_BOAT:HEX_BOAT + N_HEX]
    assert (table[rows, hexes] == boats).all()
    assert ((table >= 0).sum(axis=1) == (bh >= 0).sum(axis=1)).all()
    assert (X[rows, HEX_TERRAIN + hexes] < 0).all(), "a boat on land"
    # creatures: counts by hex agree with the pieces, only on sea
    for kind in range(N_KINDS):
        hexes = X[:, CR_HEX + kind * CR_SLOTS:CR_HEX + kind * CR_SLOTS + KIND_COUNT[kind]]
        counts = np.zeros((n, N_HEX), np.int64)
        rows, cols = np.nonzero(hexes >= 0)
        np.add.at(counts, (rows, hexes[rows, cols]), 1)
        assert (counts == X[:, HEX_NCR + kind * N_HEX:HEX_NCR + (kind + 1) * N_HEX]).all()
        terrain = X[:, HEX_TERRAIN:HEX_TERRAIN + N_HEX]
        assert (terrain[counts > 0] < 0).all(), "a creature on land"


def _check_creatures(ev: np.ndarray, X: np.ndarray) -> None:
    """Dolphins (X5.5), the squid (X7.4-X7.6) and the at-rest rule (B6.7)."""
    n = len(X)
    loc = X[:, EX_LOC:EX_LOC + MAX_EX]
    at = X[:, EX_AT:EX_AT + MAX_EX]
    challenges = X[0, CHALLENGES]
    bh = X[:, BOAT_HEX:BOAT_HEX + N_BOATS]
    boat_n = X[:, BOAT_N:BOAT_N + N_BOATS]
    # dolphins (X5.5): only under Challenge 5; protection is mutual, one swimmer per dolphin,
    # both in one hex; no choice is left pending between events
    ncr = X[:, HEX_NCR:HEX_NCR + N_KINDS * N_HEX].reshape(n, N_KINDS, N_HEX)
    if not challenges & CH_DIVE:
        assert (ncr[:, DOLPHIN] == 0).all()
    prot = X[:, EX_PROT:EX_PROT + MAX_EX]
    dprot = X[:, DOL_PROT:DOL_PROT + KIND_COUNT[DOLPHIN]]
    dhex = X[:, CR_HEX + DOLPHIN * CR_SLOTS:CR_HEX + DOLPHIN * CR_SLOTS + KIND_COUNT[DOLPHIN]]
    rows, es = np.nonzero(prot >= 0)
    ds = prot[rows, es]
    assert (dprot[rows, ds] == es).all(), "protection not mutual"
    assert (loc[rows, es] == L_SEA).all() and (dhex[rows, ds] == at[rows, es]).all(), \
        "a protected explorer away from its dolphin"
    assert (dprot >= 0).sum() == len(rows), "a dolphin protects a swimmer that is not protected"
    assert (X[:, PROTECT_PENDING] == -1).all()
    assert not ((loc == L_SEA) & (X[:, EX_FATE:EX_FATE + MAX_EX] == F_WHALE)).any()
    # squid (X7): never in play without the expansion; no whales with squid-only (X7.6); a
    # whale and a squid never rest in one hex (X7.4, X7.5)
    if not X[0, SQUID_ON]:
        assert (ncr[:, SQUID] == 0).all()
    if X[0, SQUID_ONLY]:
        assert (ncr[:, WHALE] == 0).all()
    settled = np.append(ev[1:, 0] != LY.EV_SQUID, True)   # the squid's attack is its own event
    both = (ncr[:, WHALE] > 0) & (ncr[:, SQUID] > 0)
    assert not both[settled].any(), "a whale beside a squid"
    # at-rest rule (B6.7): no unprotected swimmer with a serpent or shark; no occupied boat with
    # a serpent or whale
    swim = np.zeros((n, N_HEX), np.int64)
    rows, es = np.nonzero((loc == L_SEA) & (prot < 0))
    np.add.at(swim, (rows, at[rows, es]), 1)
    assert not ((swim > 0) & ((ncr[:, SERPENT] > 0) | (ncr[:, SHARK] > 0))).any(), "B6.7 swimmer"
    occupied = np.zeros((n, N_HEX), bool)
    rows, cols = np.nonzero((bh >= 0) & (boat_n > 0))
    occupied[rows, bh[rows, cols]] = True
    assert not (occupied & ((ncr[:, SERPENT] > 0) | (ncr[:, WHALE] > 0))).any(), "B6.7 boat"


def _check_course(ev: np.ndarray, X: np.ndarray, setup_end: int) -> None:
    """No return to land (B6.3), sinking in terrain order (B5.5), and the end: at the volcano
    (B5.7), or under X2.2, X2.4, X2.5 the moment an end rule is met."""
    n = len(X)
    loc = X[:, EX_LOC:EX_LOC + MAX_EX]
    in_play = loc[0] != L_OFF
    challenges = X[0, CHALLENGES]
    # an explorer that left land never returns (B6.3)
    on_land = loc == L_LAND
    left = np.maximum.accumulate(~on_land & (loc != 6), axis=0)   # 6 = unplaced
    assert not (left & on_land).any(), "an explorer returned to land"
    # tiles sink in terrain order (B5.5) and the game ends exactly at the volcano (B5.7)
    sinks = np.flatnonzero(ev[:, 0] == LY.EV_SINK)
    for i in sinks:
        before = X[i - 1]
        h = ev[i, 3]
        lowest = np.flatnonzero(before[TERRAIN_LEFT:TERRAIN_LEFT + 3] > 0)[0]
        assert before[HEX_TERRAIN + h] == lowest, "a tile sank out of terrain order"
    volcano = [i for i in sinks if ev[i, 4] == B_VOLCANO]
    assert ev[-1, 0] == LY.EV_END
    assert in_play.sum() == (loc[-1] != L_OFF).sum()
    if not challenges & (CH_LEAVE_NONE | CH_ATLANTIS_GONE):
        assert len(volcano) == 1 and volcano[0] == n - 2, "the game did not end at the volcano"
        assert ev[-1, 3] == E_VOLCANO
        return
    # X2.2, X2.4, X2.5: the volcano is a whirlpool; the game ends the moment an end rule is
    # met (or at the turn cap), and not before
    reason = ev[-1, 3]
    on_board = np.isin(loc, [L_LAND, L_BOAT, L_SEA]).sum(axis=1)
    tiles = X[:, HEX_TERRAIN:HEX_TERRAIN + N_HEX].__ge__(0).sum(axis=1)
    met = np.zeros(n, bool)
    if challenges & CH_LEAVE_NONE:
        met |= on_board == 0
    if challenges & CH_ATLANTIS_GONE:
        met |= tiles == 0
    met[:setup_end + 1] = False
    if reason == E_TURN_CAP:
        assert not met.any() and X[-1, TURN] == X[-1, MAX_TURNS]
    else:
        assert reason in (E_NO_EXPLORERS, E_ISLAND_GONE)
        first = int(np.flatnonzero(met)[0])
        assert first == n - 2, "the game did not end the moment its end rule was met"
        if reason == E_NO_EXPLORERS:
            assert on_board[-1] == 0
        else:
            assert tiles[-1] == 0
            assert on_board[-1] > 0 or not challenges & CH_LEAVE_NONE   # both: no_explorers


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
@pytest.mark.parametrize("mix", sorted(MIXES))
def test_invariants_after_every_step(players, mix):
    """B2-B7 invariants after every event of many complete games."""
    settings = Settings(players=players, strategies=MIXES[mix])
    buffers = (np.zeros((6000, LY.EV_W), np.int32), np.zeros((6000, STATE_SIZE), np.int32),
               np.zeros(STATE_SIZE, np.int32))
    for game in range(GAMES):
        ev, X = _play(settings, 11, game, buffers)
        check_snapshots(ev, X)


def _check_mixed_games(seed, players, **rules):
    """Check every event of GAMES // 10 games with greedy and random seats alternating."""
    seats = 4 if players == 2 else players
    settings = Settings(players=players, **rules,
                        strategies=tuple(("greedy", "random")[s % 2] for s in range(seats)))
    buffers = (np.zeros((6000, LY.EV_W), np.int32), np.zeros((6000, STATE_SIZE), np.int32),
               np.zeros(STATE_SIZE, np.int32))
    for game in range(GAMES // 10):
        ev, X = _play(settings, seed, game, buffers)
        check_snapshots(ev, X)


# every player count under each of Challenges 1-4 and all four together; Challenge 6 (5-6
# players only) alone and with all the others
CHALLENGE_RUNS = ([(p, c) for c in [(1,), (2,), (3,), (4,), (1, 2, 3, 4)] for p in range(2, 7)]
                  + [(p, c) for c in [(6,), (1, 2, 3, 4, 6)] for p in (5, 6)])
CHALLENGE_IDS = [f"{p}p-c{''.join(map(str, c))}" for p, c in CHALLENGE_RUNS]

@pytest.mark.parametrize("players,challenges", CHALLENGE_RUNS, ids=CHALLENGE_IDS)
def test_invariants_under_challenges(players, challenges):
    """The same invariants, and X2.1/X2.2/X2.4/X2.5, after every event of games under each
    challenge (random and greedy seats mixed; fewer games per setting than the base runs)."""
    _check_mixed_games(12, players=players, challenges=challenges)


# X5 and X7 at every player count: dolphins, squid, squid-only, and everything at once
EXPANSION_RUNS = ([(p, c, ex) for p in range(2, 7) for c, ex in
                   [((), "d"), ((), "s"), ((), "so"), ((1, 2, 3, 4), "ds")]]
                  + [(p, (3, 6), "ds") for p in (5, 6)] + [(6, (1, 2, 3, 4, 6), "dso")])
EXPANSION_IDS = [f"{p}p-c{''.join(map(str, c))}-{ex}" for p, c, ex in EXPANSION_RUNS]


@pytest.mark.parametrize("players,challenges,ex", EXPANSION_RUNS, ids=EXPANSION_IDS)
def test_invariants_with_dolphins_and_squid(players, challenges, ex):
    """The same invariants with X5 (d: dolphins & dive dice) and X7 (s: squid, o: squid only),
    plus X5.5 protection bookkeeping and X7.4-X7.6, after every event."""
    _check_mixed_games(13, players=players, challenges=challenges, dolphins="d" in ex,
                       squid="s" in ex, squid_only="o" in ex)


# the games where several whales or several squid met in one hex (the X7.4 and X7.5 rulings' examples)
MEETINGS = [dict(seed=99, game=88, players=6, challenges=(6,), squid=True,
                 strategies=("greedy",) + ("random",) * 5),
            dict(seed=5, game=49, players=3, challenges=(2,), squid=True, strategies=("random",)),
            dict(seed=99, game=66, players=4, dolphins=True, squid=True, strategies=("greedy",))]


@pytest.mark.parametrize("case", MEETINGS, ids=["2-whales-6p", "2-whales-3p", "2-squid-4p"])
def test_invariants_where_several_whales_or_squid_meet(case):
    """X7.4 / X7.5: every event of the games in which a squid ended in a hex with two whales,
    or a whale entered a hex with two squid, keeps every invariant -- no whale and squid at
    rest in one hex -- and the meeting does happen in them."""
    case = dict(case)
    seed, game = case.pop("seed"), case.pop("game")
    buffers = (np.zeros((6000, LY.EV_W), np.int32), np.zeros((6000, STATE_SIZE), np.int32),
               np.zeros(STATE_SIZE, np.int32))
    ev, X = _play(Settings(**case), seed, game, buffers)
    check_snapshots(ev, X)
    ncr = X[:, HEX_NCR:HEX_NCR + N_KINDS * N_HEX].reshape(len(X), N_KINDS, N_HEX)
    whales_met = ((ncr[:, WHALE] >= 2) & (ncr[:, SQUID] >= 1)).any()   # before the attack
    squid_met = False
    for i in np.flatnonzero((ev[:, 0] == LY.EV_CREATURE) & (ev[:, 3] == WHALE)):
        path = [h for h in ev[i, 5:8] if h >= 0]
        squid_met |= bool(path) and ncr[i - 1, SQUID, path[-1]] >= 2
    assert whales_met or squid_met, "no squid met two whales, no whale two squid"


@pytest.mark.parametrize("corruption", ["passenger", "two boats", "occupancy", "boat on land"])
def test_the_checker_catches_a_corrupted_snapshot(corruption):
    """The checks above are vectorised over snapshots; each must still fail on a single bad
    cell in a single snapshot."""
    settings = Settings(players=4, strategies=("greedy",))
    buffers = (np.zeros((6000, LY.EV_W), np.int32), np.zeros((6000, STATE_SIZE), np.int32),
               np.zeros(STATE_SIZE, np.int32))
    ev, X = _play(settings, 11, 0, buffers)
    X = X.copy()
    check_snapshots(ev, X)
    bh = X[:, BOAT_HEX:BOAT_HEX + N_BOATS]
    i = int(np.flatnonzero((X[:, BOAT_N:BOAT_N + N_BOATS] > 0).any(axis=1))[0])
    b = int(np.flatnonzero(X[i, BOAT_N:BOAT_N + N_BOATS] > 0)[0])
    if corruption == "passenger":
        X[i, BOAT_P + 3 * b] = (X[i, BOAT_P + 3 * b] + 1) % MAX_EX
    elif corruption == "two boats":
        other = int(np.flatnonzero(bh[i] >= 0)[-1 if b == 0 else 0])
        X[i, BOAT_HEX + other] = X[i, BOAT_HEX + b]
    elif corruption == "occupancy":
        X[i, HEX_NSWIM + int(bh[i, b])] += 1
    else:
        X[i, HEX_TERRAIN + int(bh[i, b])] = 0
    with pytest.raises(AssertionError):
        check_snapshots(ev, X)
