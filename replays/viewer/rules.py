"""The rules a viewer page cites, as short HTML, read from the project's rules specification.

The specification is ``RULES.md``, shipped as package data beside ``board.json``
(``simulator/data/RULES.md``; ``docs/RULES.md`` is a link to it), and read as ``replays``'s own
package data, found the way ``replays.board`` finds the board (``replays_data``:
``replays/data/RULES.md``, a link to the same file in the repository). Every rule is a table
row whose first cell is its id (``| B5.2 | 2 Move | Up to ... |``); the row's other cells,
under their column names, are the rule's text.
"""
from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from pathlib import Path

from ..board import replays_data

RULES_MD = replays_data("RULES.md")
RULE_ID = re.compile(r"^(?:[BX]\d+\.\d+|R\d+)$")
SECTION_ID = re.compile(r"^[BX]\d+$")
_CODE = re.compile(r"`([^`\n]+)`")
_SOURCE = re.compile(r"\s*\(`[^`]*\.txt`(?:, `[^`]*\.txt`)*\)")   # a heading's sources
TERRAINS = ("beach", "forest", "mountain")
_BOLD = re.compile(r"\*\*(?=\S)(.+?)(?<=\S)\*\*")


def _cells(line: str) -> list[str]:
    return [c.strip() for c in line.strip().strip("|").split("|")]


def inline(text: str) -> str:
    """Escaped Markdown text with its `code` and **bold** spans as HTML."""
    out, pos = [], 0
    for m in _CODE.finditer(text):
        out.append(_BOLD.sub(r"<b>\1</b>", escape(text[pos:m.start()], quote=False)))
        out.append(f"<code>{escape(m.group(1), quote=False)}</code>")
        pos = m.end()
    out.append(_BOLD.sub(r"<b>\1</b>", escape(text[pos:], quote=False)))
    return "".join(out)


def parse_rules(text: str) -> dict[str, dict]:
    """Every rule of a RULES.md text: ``id -> {"section": heading, "html": text}``. A section
    with an id of its own (``## B5 Turn``) is a rule too: its introduction and the list of its
    rules (the turn as a whole, ``B5``)."""
    rules: dict[str, dict] = {}
    section, header, sec_id = "", None, None
    intro: dict[str, list[str]] = {}
    members: dict[str, list[str]] = {}
    for line in text.splitlines():
        if line.startswith("## "):
            section, header = _SOURCE.sub("", line[3:]).strip(), None
            first = section.split()[0]
            sec_id = first if SECTION_ID.match(first) else None
            if sec_id:
                intro[sec_id], members[sec_id] = [], []
            continue
        if not line.startswith("|"):
            header = None
            if sec_id and line.strip() and not line.startswith("---"):
                intro[sec_id].append(line.strip())
            continue
        cells = _cells(line)
        if header is None:
            header = cells
            continue
        if not RULE_ID.match(cells[0]):
            continue
        named = list(zip(header[1:], cells[1:]))
        if sec_id:
            members[sec_id].append(f"{cells[0]} ({named[0][1]})" if len(named) > 1
                                   and len(named[0][1]) <= 24 else cells[0])
        terrain = [(k, v) for k, v in named if k in TERRAINS]
        if terrain:                          # B3's tile counts per terrain, as one cell
            named = [(k, v) for k, v in named if k not in TERRAINS]
            named.insert(len(named) - 1, ("tiles", ", ".join(f"{v} {k}" for k, v in terrain)))
        if len(named) == 1:
            html = inline(named[0][1])
        else:
            html = "; ".join(f'<span class="rk">{escape(k)}:</span> {inline(v)}'
                             for k, v in named if v not in ("", "—", "-"))
        rules[cells[0]] = {"section": section, "html": html}
    for sid, lines in intro.items():
        if sid in rules or not members[sid]:
            continue
        text = " ".join(lines)
        listed = f'<span class="rk">rules:</span> {inline(", ".join(members[sid]))}'
        html = f"{inline(text)} {listed}" if text else listed
        rules[sid] = {"section": next(r["section"] for r in rules.values()
                                      if r["section"].startswith(sid + " ")), "html": html}
    return rules


@lru_cache(maxsize=1)
def all_rules(path: str = str(RULES_MD)) -> dict[str, dict]:
    """The rules of the shipped specification (cached)."""
    return parse_rules(Path(path).read_text(encoding="utf-8"))


def rules_for(ids) -> dict[str, dict]:
    """The rules with these ids, in the specification's order; ids it does not define are
    left out (the page then shows the id without a text)."""
    wanted, rules = set(ids), all_rules()
    return {k: v for k, v in rules.items() if k in wanted}
