"""A replay log as a readable turn-by-turn account (what ``survive-sim replay`` prints).

It reads only the log: every position it mentions is in the events' ``after`` snapshots, so the
same text comes from a saved file as from a game just played.
"""
from __future__ import annotations

from .board import BOARD

SLOTS = 10                      # explorers per colour: explorer id = seat * 10 + slot (B1.2)
loc_name = BOARD.name           # "(r,c)" for a hex, "isle NW" for a safe isle


def _ex(log_explorers: dict, e: int) -> str:
    x = log_explorers[e]
    return f"explorer {e // SLOTS}.{e % SLOTS} (value {x['value']})"


def levers_line(s: dict) -> str:
    """``; komi 0,0,0.5,1,1.5; setup order snake`` (RULES.md C1, C2), or nothing when the log's
    settings play the rules' setup and scoring."""
    out = ""
    if s.get("komi"):
        out += "; komi " + ",".join(f"{k:g}" for k in s["komi"])
    order = s.get("setup_order") or ["forward", "forward"]
    if list(order) != ["forward", "forward"]:
        out += (f"; setup order {order[0]}" if order[0] == order[1] else
                f"; setup order: explorers {order[0]}, boats {order[1]}")
    return out


def format_log(log: dict) -> str:
    """A readable turn-by-turn account of a logged game."""
    values = {x["id"]: x for x in log["explorers"]}
    s = log["settings"]
    lines = [f"Game {log['game']} of seed {log['seed']}: {s['players']} players, "
             f"{s['seats']} seats, strategies {', '.join(log['strategies'])}; boats "
             f"{','.join(map(str, s.get('boats_per_seat', [])))}; challenges "
             f"{','.join(map(str, s.get('challenges') or [])) or 'none'}"
             f"{' (5 = dolphins & dive dice)' if 5 in (s.get('challenges') or []) else ''}"
             f"{'; squid only' if s.get('squid_only') else ('; squid' if s.get('squid') else '')}"
             f"; tie-break "
             f"{s.get('tiebreak', 'shared')}{levers_line(s)}"]
    for ev in log["events"]:
        lines.extend(event_lines(log, ev, values))
    rec = log["record"]
    komi = s.get("komi") or []
    lines.append("Scores: " + ", ".join(
        f"seat {x}: {rec[f'score_{x}']}{f' + {komi[x]:g} komi' if komi and komi[x] else ''} "
        f"({rec[f'rescued_{x}']} rescued)" for x in range(s["seats"])))
    if "decided_by" in rec:
        lines.append(f"Winner decided by: {rec['decided_by']} ({rec['tiebreak']} tie-break)")
    return "\n".join(lines)


def event_lines(log: dict, ev: dict, values: dict | None = None) -> list[str]:
    """The lines ``format_log`` prints for one event: the event's own line (indented as in the
    account) and one line per explorer it lost. ``values``: explorer id -> its log entry
    (built from the log when not given)."""
    if values is None:
        values = {x["id"]: x for x in log["explorers"]}
    strategies = log["strategies"]
    out: list[str] = []
    t, seat = ev["type"], ev["seat"]
    who = f"seat {seat}"
    if t == "layout":
        out.append("Tiles laid, serpents on their starts.")
    elif t == "place_explorer":
        out.append(f"  setup: {who} places {_ex(values, ev['explorer'])} on {loc_name(ev['hex'])}")
    elif t == "place_boat":
        out.append(f"  setup: {who} places boat {ev['boat']} at {loc_name(ev['hex'])}")
    elif t == "turn_start":
        out.append(f"Turn {ev['turn']} - {who} ({strategies[seat]})")
    elif t == "play_tile":
        path = " -> ".join(loc_name(x) for x in ev["path"])
        what = f"{ev['kind']} " if ev.get("kind") in ("squid",) else ""
        out.append(f"  plays {ev['back']} on {what}piece {ev['piece']}: {path}")
    elif t in ("move", "bonus"):
        bonus = f"bonus move of seat {seat} (X6.3), " if t == "bonus" else ""
        if ev["what"] == "boat":
            out.append(f"  {bonus}sails boat {ev['id']} to {loc_name(ev['to'])}")
        else:
            extra = f" (boat {ev['boat']})" if ev["boat"] is not None else ""
            extra += " with its dolphin" if ev.get("with_dolphin") else ""
            out.append(f"  {bonus}{ev['mode']}: {_ex(values, ev['id'])} to "
                       f"{loc_name(ev['to'])}{extra}")
    elif t == "sink":
        extra = f", {len(ev['board'])} board it" if ev["back"] == "boat" else ""
        if ev.get("protect") is not None:
            extra += f", it protects {_ex(values, ev['protect'])}"
        out.append(f"  sinks {loc_name(ev['hex'])}: {ev['back']}{extra}")
    elif t == "roll":
        number = f" and {ev['number']}" if "number" in ev else ""
        out.append(f"  rolls {ev['face']}{number}")
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
        out.append(f"  moves {ev['kind']} {ev['piece']}: {path}{extra}")
    elif t == "squid":
        what = "placed at" if ev["placed"] else "attacks from"
        gone = ev["whales"]
        extra = (f"; whale{'s' * (len(gone) > 1)} {', '.join(map(str, gone))} removed"
                 if gone else "")
        extra += f"; takes {_ex(values, ev['victim'])}" if ev["victim"] is not None else ""
        out.append(f"  squid {ev['piece']} {what} {loc_name(ev['hex'])}{extra}")
    elif t == "end":
        out.append(f"Game over: {ev['reason']} (seat {seat})")
    for e, fate in _new_losses(log, ev):
        out.append(f"    {_ex(values, e)} lost to the {fate}")
    return out


def event_text(log: dict, i: int) -> str:
    """One readable line for event ``i``: ``format_log``'s wording, its loss lines joined on."""
    lines = [x.strip() for x in event_lines(log, log["events"][i])]
    return "; ".join(lines)


def _new_losses(log: dict, ev: dict) -> list[tuple[int, str]]:
    i = ev["i"]
    before = log["events"][i - 1]["after"]["fates"] if i else {}
    return [(int(e), f) for e, f in ev["after"]["fates"].items() if e not in before]
