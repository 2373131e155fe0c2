"""Replay one game with the event log on: the JSON log of ``docs/replay-log.md``. The game is
re-played from (seed, game, settings), not stored, so the log is exactly the game that produced
the row in a results table. Reading a log (its text, the referee) needs no engine and lives in
the ``replays`` package."""
from __future__ import annotations

import numpy as np
import pandas as pd

from simulator.board import HEX_RC, ISLAND_HEXES, ISLE0, N_HEX, TERRAIN_NAMES
from simulator.state import (
    BACK_NAMES,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_HEX,
    CR_SLOTS,
    DOL_PROT,
    DOLPHIN,
    END_NAMES,
    EX_AT,
    EX_FATE,
    EX_LOC,
    EX_VALUE,
    FACE_NAMES,
    FATE_NAMES,
    HEX_TERRAIN,
    KIND_COUNT,
    KIND_NAMES,
    L_BOAT,
    L_LAND,
    L_LOST,
    L_OFF,
    LOC_NAMES,
    MAX_EX,
    MV_BOAT,
    N_BACKS,
    N_BOATS,
    N_KINDS,
    P_HAND,
    PRIV,
    PRIV_W,
    SLOTS,
    STATE_SIZE,
    SWIM_WITH_DOLPHIN,
    TILE_BACK,
    WHALE,
)

from . import engine as E
from .layout import EV_NAMES, EV_W, REC_W
from .settings import Settings
from .simulate import engine_args, engine_call, engine_error, records_frame

FORMAT = "survive-sim-log/2"      # 2: a squid event lists every whale it removed (X7.4)
MAX_EVENTS = 6000


def play_logged(settings: Settings, seed: int, game: int):
    """Run the game with logging: (event rows, state after each event, final state)."""
    ev = np.zeros((MAX_EVENTS, EV_W), np.int32)
    snaps = np.zeros((MAX_EVENTS, STATE_SIZE), np.int32)
    S = np.zeros(STATE_SIZE, np.int32)
    if settings.policy_seats:        # a Python policy: the game as the stepper played it
        # here: the stepper compiles its seat function only when a policy game is logged
        from .policy_games import scripted_engine_args
        from .stepper import SCRIPT_LOCK   # its buffers, as lazily
        with SCRIPT_LOCK:            # the script's buffers are one per process
            args = scripted_engine_args(settings, seed, game)
            return _replay(settings, args, seed, game, ev, snaps, S)
    return _replay(settings, engine_args(settings), seed, game, ev, snaps, S)


def _replay(settings: Settings, args: tuple, seed: int, game: int, ev, snaps, S):
    n, err, kind, seat = engine_call(settings, E.replay_game, *args,
                                     np.int64(seed), np.int64(game), ev, snaps, S,
                                     games=f"game {game}", seed=seed)
    if err:
        raise engine_error(settings, err, kind, seat, game, seed)
    return ev[:n], snaps[:n], S


def _position(S: np.ndarray, seats: int) -> dict:
    explorers, fates = [], {}
    for e in range(MAX_EX):
        loc = int(S[EX_LOC + e])
        if loc == L_OFF:
            continue
        explorers.append([e, LOC_NAMES[loc], int(S[EX_AT + e])])
        if loc == L_LOST:
            fates[str(e)] = FATE_NAMES[int(S[EX_FATE + e])]
    boats = [[int(S[BOAT_HEX + b]),
              [int(x) for x in S[BOAT_P + 3 * b:BOAT_P + 3 * b + S[BOAT_N + b]]]]
             for b in range(N_BOATS)]
    creatures = {KIND_NAMES[k]: [int(x) for x in
                                 S[CR_HEX + k * CR_SLOTS:CR_HEX + k * CR_SLOTS + KIND_COUNT[k]]]
                 for k in range(N_KINDS)}
    hands = [[int(x) for x in S[PRIV + s * PRIV_W + P_HAND:PRIV + s * PRIV_W + P_HAND + N_BACKS]]
             for s in range(seats)]
    land = [int(h) for h in np.flatnonzero(S[HEX_TERRAIN:HEX_TERRAIN + N_HEX] >= 0)]
    protect = {str(int(S[DOL_PROT + d])): d for d in range(KIND_COUNT[DOLPHIN])
               if S[DOL_PROT + d] >= 0}
    return {"explorers": explorers, "fates": fates, "boats": boats, "creatures": creatures,
            "hands": hands, "land": land, "protect": protect}


def _path(row, start: int) -> list[int]:
    return [int(x) for x in row[start:start + 3] if x >= 0]


def _event(i: int, row: np.ndarray, before: np.ndarray, after: np.ndarray, seats: int) -> dict:
    kind = EV_NAMES[row[0]]
    a, b, c, d, e, f, g = (int(x) for x in row[3:10])
    out = {"i": i, "type": kind, "seat": int(row[1]), "turn": int(row[2])}
    if kind == "place_explorer":
        out.update(explorer=a, hex=b)
    elif kind == "place_boat":
        out.update(boat=a, hex=b)
    elif kind == "play_tile":
        out.update(back=BACK_NAMES[a], piece=b, path=_path(row, 5))
        if BACK_NAMES[a].startswith("move_"):
            out.update(kind=KIND_NAMES[f])             # move_whale may move a squid (X7.2)
    elif kind in ("move", "bonus"):
        if a == MV_BOAT:
            out.update(what="boat", id=b, mode="sail", to=c, boat=None)
        elif d == SWIM_WITH_DOLPHIN:                   # X5.7
            out.update(what="explorer", id=b, mode="swim", to=c, boat=None, with_dolphin=True)
        else:
            loc = int(before[EX_LOC + b])
            if c >= ISLE0:
                mode = "land"
            elif d >= 0:
                mode = "board"
            elif before[HEX_TERRAIN + c] >= 0:
                mode = "walk"
            elif loc == L_BOAT:
                mode = "overboard"
            elif loc == L_LAND:
                mode = "dive"
            else:
                mode = "swim"
            out.update(what="explorer", id=b, mode=mode, to=c, boat=d if d >= 0 else None)
    elif kind == "sink":
        out.update(hex=a, back=BACK_NAMES[b], board=_path(row, 5),
                   take_boat=f if f >= 0 else None)
        if g >= 0:
            out.update(protect=g)                      # X5.2: the new dolphin's swimmer
    elif kind == "roll":
        out.update(face=FACE_NAMES[a])
        if c:                                          # the dive dice (X5.3)
            out.update(number=b if b > 0 else "D")
    elif kind == "creature":
        out.update(kind=FACE_NAMES[a], piece=b, path=_path(row, 5),
                   defended_by=f if f >= 0 else None,
                   defence=(("defend_shark" if a == 1 else "defend_whale") if f >= 0 else None))
        if g >= 0:
            out.update(protect=g)                      # X5.5, X5.7: the dolphin's swimmer now
    elif kind == "squid":
        out.update(piece=a, hex=b, whales=[k for k in range(KIND_COUNT[WHALE]) if c >> k & 1],
                   victim=d if d >= 0 else None, placed=bool(e))
    elif kind == "end":
        out.update(reason=END_NAMES[a])
    out["after"] = _position(after, seats)
    return out


def game_log(settings: Settings, seed: int, game: int) -> dict:
    """The complete JSON-ready log of game ``game`` of root seed ``seed``."""
    ev, snaps, S = play_logged(settings, seed, game)
    first = snaps[0]
    tiles = [{"hex": int(h), "rc": [int(x) for x in HEX_RC[h]],
              "terrain": TERRAIN_NAMES[first[HEX_TERRAIN + h]],
              "back": BACK_NAMES[first[TILE_BACK + h]]} for h in ISLAND_HEXES]
    explorers = [{"id": e, "seat": e // SLOTS, "slot": e % SLOTS, "value": int(first[EX_VALUE + e])}
                 for e in range(MAX_EX) if first[EX_LOC + e] != L_OFF]
    events = [_event(i, ev[i], snaps[i - 1] if i else first, snaps[i], settings.seats)
              for i in range(len(ev))]
    row = np.empty((1, REC_W), np.int32)
    E.write_record(S, row[0])
    record = {k: _plain(v) for k, v in records_frame(row, settings, seed, game).iloc[0].items()}
    return {"format": FORMAT, "seed": seed, "game": game, "settings": settings.as_dict(),
            "strategies": list(settings.strategies), "tiles": tiles, "explorers": explorers,
            "events": events, "record": record}


def _plain(v):
    """A JSON-ready Python scalar (NA -> None)."""
    if v is None or (not isinstance(v, str) and pd.isna(v)):
        return None
    return v.item() if hasattr(v, "item") else v

