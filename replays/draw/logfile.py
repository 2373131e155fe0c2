"""Reading a saved replay log for drawing, with one-line reasons when the file is not one.

A picture of a broken file would be worse than an error: a file that is not JSON, is cut short,
is some other JSON, or lacks the parts a picture needs is refused here with a sentence naming
the problem and what is accepted, before anything is drawn.
"""
from __future__ import annotations

import contextlib
import json

FORMATS = ("survive-sim-log/1", "survive-sim-log/2")
NEEDED = ("settings", "strategies", "tiles", "explorers", "events")
HOW = "expected a log written by `survive-sim replay --json FILE`"


class LogError(ValueError):
    """The file is not a drawable survive-sim log; the message is one line."""


def _is_int(x) -> bool:
    return isinstance(x, int) and not isinstance(x, bool)


def _int_list(x) -> bool:
    return isinstance(x, list) and all(_is_int(v) for v in x)


def _type(x) -> str:
    return {type(None): "null", dict: "an object", list: "a list", str: "a string",
            bool: "a boolean", int: "a number", float: "a number"}.get(type(x), type(x).__name__)


# the settings fields a picture reads, and their JSON types
SETTINGS = {"players": "int", "seats": "int", "player_of_seat": "ints",
            "challenges": "ints", "dolphins": "bool", "squid": "bool", "squid_only": "bool"}


def _check_settings(s, bad) -> None:
    if not isinstance(s, dict):
        bad(f"its \"settings\" is {_type(s)}, not an object")
    for key, kind in SETTINGS.items():
        if key not in s:
            if key in ("players", "seats", "player_of_seat"):
                bad(f"its settings have no \"{key}\"")
            continue
        v = s[key]
        ok = {"int": _is_int, "ints": _int_list, "bool": lambda x: isinstance(x, bool)}[kind](v)
        if not ok:
            want = {"int": "a whole number", "ints": "a list of whole numbers",
                    "bool": "true or false"}[kind]
            bad(f"its settings' \"{key}\" is {_type(v)}, not {want}")
    if not 2 <= s["players"] <= 6:
        bad(f"its settings' \"players\" is {s['players']}, not 2-6")
    if not 1 <= s["seats"] <= 6 or len(s["player_of_seat"]) != s["seats"]:
        bad("its settings' \"seats\" and \"player_of_seat\" do not agree")


def _check_after(after, k: int, bad) -> None:
    where = f"event {k}'s \"after\""
    if not isinstance(after, dict):
        bad(f"{where} is {_type(after)}, not an object")
    shapes = {"explorers": list, "fates": dict, "boats": list, "creatures": dict,
              "hands": list, "land": list}
    for key, kind in shapes.items():
        if key not in after:
            bad(f"{where} has no \"{key}\"")
        if not isinstance(after[key], kind):
            bad(f"{where}'s \"{key}\" is {_type(after[key])}, not "
                f"{'a list' if kind is list else 'an object'}")
    if not all(isinstance(x, list) and len(x) == 3 and _is_int(x[0]) and isinstance(x[1], str)
               and _is_int(x[2]) for x in after["explorers"]):
        bad(f"{where}'s \"explorers\" are not [id, \"loc\", at] triples")
    if not all(isinstance(b, list) and len(b) == 2 and _is_int(b[0]) and _int_list(b[1])
               for b in after["boats"]):
        bad(f"{where}'s \"boats\" are not [hex, [passengers]] pairs")
    if not all(isinstance(n, str) and _int_list(v) for n, v in after["creatures"].items()):
        bad(f"{where}'s \"creatures\" are not lists of hexes per kind")
    if not all(_int_list(h) for h in after["hands"]) or not _int_list(after["land"]):
        bad(f"{where}'s \"hands\" or \"land\" are not lists of whole numbers")
    if not all(isinstance(v, str) for v in after["fates"].values()):
        bad(f"{where}'s \"fates\" are not causes (strings)")


def check_log(log, name: str = "the log") -> dict:
    """``log`` itself when it is a drawable survive-sim log, else ``LogError`` naming the first
    part of the wrong type or missing: the settings a picture reads, the strategies, the
    tiles, the explorers and every event's ``i``, ``type``, ``seat``, ``turn`` and ``after``
    (docs/replay-log.md)."""
    def bad(problem: str):
        raise LogError(f"{name} is not a valid survive-sim log: {problem}; {HOW}")

    if not isinstance(log, dict):
        raise LogError(f"{name} is not a survive-sim log (it holds {_type(log)}, not a JSON "
                       f"object); {HOW}")
    if "format" not in log:
        raise LogError(f"{name} is not a survive-sim log (no \"format\" field); {HOW}")
    fmt = log["format"]
    if fmt not in FORMATS:
        raise LogError(f"{name} is not a survive-sim log (format {fmt!r}); accepted formats: "
                       f"{', '.join(FORMATS)}")
    missing = [k for k in NEEDED if k not in log]
    if missing:
        raise LogError(f"{name} is an incomplete survive-sim log (no {', '.join(missing)}); {HOW}")
    _check_settings(log["settings"], bad)
    seats = log["settings"]["seats"]
    strategies = log["strategies"]
    if not (isinstance(strategies, list) and len(strategies) == seats
            and all(isinstance(x, str) for x in strategies)):
        bad(f"its \"strategies\" are not {seats} names, one per seat")
    for key in ("seed", "game"):
        if key in log and not _is_int(log[key]):
            bad(f"its \"{key}\" is {_type(log[key])}, not a whole number")
    tiles = log["tiles"]
    if not isinstance(tiles, list) or not all(
            isinstance(t, dict) and _is_int(t.get("hex")) and isinstance(t.get("terrain"), str)
            for t in tiles):
        bad("its \"tiles\" are not a list of {\"hex\", \"terrain\", ...} objects")
    explorers = log["explorers"]
    if not isinstance(explorers, list) or not all(
            isinstance(x, dict) and _is_int(x.get("id")) and _is_int(x.get("value"))
            for x in explorers):
        bad("its \"explorers\" are not a list of {\"id\", \"value\", ...} objects")
    if "record" in log and not isinstance(log["record"], (dict, type(None))):
        bad(f"its \"record\" is {_type(log['record'])}, not an object")
    events = log["events"]
    if not isinstance(events, list) or not events or not all(
            isinstance(ev, dict) and "after" in ev and ev.get("i") == k
            for k, ev in enumerate(events)):
        raise LogError(f"{name} is an incomplete survive-sim log (its events are not the "
                       f"numbered list of positions docs/replay-log.md describes); {HOW}")
    for k, ev in enumerate(events):
        if not isinstance(ev.get("type"), str):
            bad(f"event {k}'s \"type\" is {_type(ev.get('type'))}, not a string")
        for key in ("seat", "turn"):
            if not _is_int(ev.get(key)):
                bad(f"event {k}'s \"{key}\" is {_type(ev.get(key))}, not a whole number")
        _check_after(ev["after"], k, bad)
    return log


@contextlib.contextmanager
def drawing(name: str):
    """Drawing (or paging) a checked log: what ``check_log`` cannot see (a hex past the board,
    an explorer id no explorer has) surfaces as an exception of the drawing code; it becomes a
    one-line ``LogError`` naming the file."""
    try:
        yield
    except LogError:
        raise
    except (KeyError, IndexError, TypeError, ValueError, AttributeError, ZeroDivisionError,
            OverflowError) as e:
        what = f"{type(e).__name__}: {' '.join(str(e).split())}"[:200]
        raise LogError(f"{name} is not a consistent survive-sim log ({what}); {HOW}") from None


def read_log(path: str) -> dict:
    """The log in the JSON file ``path``, checked (``LogError`` otherwise)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except IsADirectoryError:
        raise LogError(f"{path} is a directory, not a log file; {HOW}") from None
    except UnicodeDecodeError:
        raise LogError(f"{path} is not a text file; {HOW}") from None
    except OSError as e:
        raise LogError(f"cannot read {path}: {e.strerror or e}") from None
    if not text.strip():
        raise LogError(f"{path} is empty; {HOW}")
    if "\0" in text:
        raise LogError(f"{path} is not a text file (it holds NUL bytes); {HOW}")
    try:
        log = json.loads(text)
    except RecursionError:
        raise LogError(f"{path} is not a survive-sim log (JSON nested too deeply); {HOW}") from None
    except json.JSONDecodeError as e:
        raise LogError(f"{path} is not valid JSON ({e.msg}: line {e.lineno} column {e.colno}; "
                       f"a truncated file?); {HOW}") from None
    return check_log(log, path)
