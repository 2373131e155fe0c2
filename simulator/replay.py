"""Replay one game with the event log on: the JSON log of ``docs/replay-log.md`` and a readable
turn-by-turn text. The game is re-played from (seed, game, settings), not stored, so the log is
exactly the game that produced the row in a results table."""
from __future__ import annotations

import numpy as np
import pandas as pd

from . import engine as E
from .board import HEX_RC, ISLAND_HEXES, ISLE0, N_HEX, TERRAIN_NAMES, loc_name
from .settings import Settings
from .simulate import engine_args, engine_error, records_frame
from .state import (
    BACK_NAMES,
    BOAT_HEX,
    BOAT_N,
    BOAT_P,
    CR_HEX,
    CR_SLOTS,
    END_NAMES,
    DOL_PROT,
    DOLPHIN,
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

FORMAT = "survive-sim-log/2"      # 2: a squid event lists every whale it removed (X7.4)
MAX_EVENTS = 6000


def play_logged(settings: Settings, seed: int, game: int):
    """Run the game with logging: (event rows, state after each event, final state)."""
    ev = np.zeros((MAX_EVENTS, E.EV_W), np.int32)
    snaps = np.zeros((MAX_EVENTS, STATE_SIZE), np.int32)
    S = np.zeros(STATE_SIZE, np.int32)
    n, err, kind, seat = E.replay_game(*engine_args(settings), np.int64(seed), np.int64(game),
                                       ev, snaps, S)
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
    boats = [[int(S[BOAT_HEX + b]), [int(x) for x in S[BOAT_P + 3 * b:BOAT_P + 3 * b + S[BOAT_N + b]]]]
             for b in range(N_BOATS)]
    creatures = {KIND_NAMES[k]: [int(x) for x in S[CR_HEX + k * CR_SLOTS:CR_HEX + k * CR_SLOTS + KIND_COUNT[k]]]
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
    kind = E.EV_NAMES[row[0]]
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
    row = np.empty((1, E.REC_W), np.int32)
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


# ---------------------------------------------------------------------------- text
def _ex(log_explorers: dict, e: int) -> str:
    x = log_explorers[e]
    return f"explorer {e // SLOTS}.{e % SLOTS} (value {x['value']})"


def format_log(log: dict) -> str:
    """A readable turn-by-turn account of a logged game."""
    values = {x["id"]: x for x in log["explorers"]}
    strategies = log["strategies"]
    s = log["settings"]
    lines = [f"Game {log['game']} of seed {log['seed']}: {s['players']} players, "
             f"{s['seats']} seats, strategies {', '.join(strategies)}; boats "
             f"{','.join(map(str, s.get('boats_per_seat', [])))}; challenges "
             f"{','.join(map(str, s.get('challenges') or [])) or 'none'}"
             f"{' (5 = dolphins & dive dice)' if 5 in (s.get('challenges') or []) else ''}"
             f"{'; squid only' if s.get('squid_only') else ('; squid' if s.get('squid') else '')}"
             f"; tie-break "
             f"{s.get('tiebreak', 'shared')}"]
    for ev in log["events"]:
        t, seat = ev["type"], ev["seat"]
        who = f"seat {seat}"
        if t == "layout":
            lines.append("Tiles laid, serpents on their starts.")
        elif t == "place_explorer":
            lines.append(f"  setup: {who} places {_ex(values, ev['explorer'])} on {loc_name(ev['hex'])}")
        elif t == "place_boat":
            lines.append(f"  setup: {who} places boat {ev['boat']} at {loc_name(ev['hex'])}")
        elif t == "turn_start":
            lines.append(f"Turn {ev['turn']} - {who} ({strategies[seat]})")
        elif t == "play_tile":
            path = " -> ".join(loc_name(x) for x in ev["path"])
            what = f"{ev['kind']} " if ev.get("kind") in ("squid",) else ""
            lines.append(f"  plays {ev['back']} on {what}piece {ev['piece']}: {path}")
        elif t in ("move", "bonus"):
            bonus = f"bonus move of seat {seat} (X6.3), " if t == "bonus" else ""
            if ev["what"] == "boat":
                lines.append(f"  {bonus}sails boat {ev['id']} to {loc_name(ev['to'])}")
            else:
                extra = f" (boat {ev['boat']})" if ev["boat"] is not None else ""
                extra += " with its dolphin" if ev.get("with_dolphin") else ""
                lines.append(f"  {bonus}{ev['mode']}: {_ex(values, ev['id'])} to "
                             f"{loc_name(ev['to'])}{extra}")
        elif t == "sink":
            extra = f", {len(ev['board'])} board it" if ev["back"] == "boat" else ""
            if ev.get("protect") is not None:
                extra += f", it protects {_ex(values, ev['protect'])}"
            lines.append(f"  sinks {loc_name(ev['hex'])}: {ev['back']}{extra}")
        elif t == "roll":
            number = f" and {ev['number']}" if "number" in ev else ""
            lines.append(f"  rolls {ev['face']}{number}")
        elif t == "creature":
            path = " -> ".join(loc_name(x) for x in ev["path"]) or "stays"
            if ev["kind"] == "dolphin" and not ev["path"] and ev.get("protect") is not None:
                path = "switches protection"
            extra = f"; seat {ev['defended_by']} plays {ev['defence']}" if ev["defended_by"] is not None else ""
            if ev.get("protect") is not None:
                extra += f"; protects {_ex(values, ev['protect'])}"
            if ev["kind"] == "whale" and ev["i"]:               # X7.5: every squid there goes
                was = log["events"][ev["i"] - 1]["after"]["creatures"]["squid"]
                gone = [k for k, (a, b) in enumerate(zip(was, ev["after"]["creatures"]["squid"]))
                        if a >= 0 and b == -2]
                if gone:
                    extra += f"; removes squid {', '.join(map(str, gone))}"
            lines.append(f"  moves {ev['kind']} {ev['piece']}: {path}{extra}")
        elif t == "squid":
            what = "placed at" if ev["placed"] else "attacks from"
            gone = ev["whales"]
            extra = (f"; whale{'s' * (len(gone) > 1)} {', '.join(map(str, gone))} removed"
                     if gone else "")
            extra += f"; takes {_ex(values, ev['victim'])}" if ev["victim"] is not None else ""
            lines.append(f"  squid {ev['piece']} {what} {loc_name(ev['hex'])}{extra}")
        elif t == "end":
            lines.append(f"Game over: {ev['reason']} (seat {seat})")
        lost = _new_losses(log, ev)
        for e, fate in lost:
            lines.append(f"    {_ex(values, e)} lost to the {fate}")
    rec = log["record"]
    lines.append("Scores: " + ", ".join(
        f"seat {x}: {rec[f'score_{x}']} ({rec[f'rescued_{x}']} rescued)" for x in range(s["seats"])))
    if "decided_by" in rec:
        lines.append(f"Winner decided by: {rec['decided_by']} ({rec['tiebreak']} tie-break)")
    return "\n".join(lines)


def _new_losses(log: dict, ev: dict) -> list[tuple[int, str]]:
    i = ev["i"]
    before = log["events"][i - 1]["after"]["fates"] if i else {}
    return [(int(e), f) for e, f in ev["after"]["fates"].items() if e not in before]
