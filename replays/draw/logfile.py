"""Reading a saved replay log for drawing, with one-line reasons when the file is not one.

A picture of a broken file would be worse than an error: a file that is not JSON, is cut short,
is some other JSON, or lacks the parts a picture needs is refused here with a sentence naming
the problem and what is accepted, before anything is drawn.
"""
from __future__ import annotations

import json

FORMATS = ("survive-sim-log/1", "survive-sim-log/2")
NEEDED = ("settings", "strategies", "tiles", "explorers", "events")
HOW = "expected a log written by `survive-sim replay --json FILE`"


class LogError(ValueError):
    """The file is not a drawable survive-sim log; the message is one line."""


def check_log(log, name: str = "the log") -> dict:
    """``log`` itself when it is a drawable survive-sim log, else ``LogError``."""
    if not isinstance(log, dict) or "format" not in log:
        raise LogError(f"{name} is not a survive-sim log (no \"format\" field); {HOW}")
    fmt = log["format"]
    if fmt not in FORMATS:
        raise LogError(f"{name} is not a survive-sim log (format {fmt!r}); accepted formats: "
                       f"{', '.join(FORMATS)}")
    missing = [k for k in NEEDED if k not in log]
    if missing:
        raise LogError(f"{name} is an incomplete survive-sim log (no {', '.join(missing)}); {HOW}")
    events = log["events"]
    if not isinstance(events, list) or not events or not all(
            isinstance(ev, dict) and "after" in ev and ev.get("i") == k
            for k, ev in enumerate(events)):
        raise LogError(f"{name} is an incomplete survive-sim log (its events are not the "
                       f"numbered list of positions docs/replay-log.md describes); {HOW}")
    return log


def read_log(path: str) -> dict:
    """The log in the JSON file ``path``, checked (``LogError`` otherwise)."""
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except UnicodeDecodeError:
        raise LogError(f"{path} is not a text file; {HOW}") from None
    except OSError as e:
        raise LogError(f"cannot read {path}: {e.strerror or e}") from None
    try:
        log = json.loads(text)
    except json.JSONDecodeError as e:
        raise LogError(f"{path} is not valid JSON ({e.msg}: line {e.lineno} column {e.colno}; "
                       f"a truncated file?); {HOW}") from None
    return check_log(log, path)
