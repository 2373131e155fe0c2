"""The rules a viewer page cites, as short HTML, read from the project's rules specification.

The specification is ``RULES.md``, shipped as package data beside ``board.json``
(``simulator/data/RULES.md``; ``docs/RULES.md`` is a link to it), and read as a file found next
to this package, the way ``replays.board`` reads the board: never ``import simulator``. Every
rule is a table row whose first cell is its id (``| B5.2 | 2 Move | Up to ... |``); the row's
other cells, under their column names, are the rule's text.
"""
from __future__ import annotations

import re
from functools import lru_cache
from html import escape
from pathlib import Path

RULES_MD = Path(__file__).resolve().parents[2] / "simulator" / "data" / "RULES.md"
RULE_ID = re.compile(r"^(?:[BX]\d+\.\d+|R\d+)$")
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
    """Every rule of a RULES.md text: ``id -> {"section": heading, "html": text}``."""
    rules: dict[str, dict] = {}
    section, header = "", None
    for line in text.splitlines():
        if line.startswith("## "):
            section, header = _SOURCE.sub("", line[3:]).strip(), None
            continue
        if not line.startswith("|"):
            header = None
            continue
        cells = _cells(line)
        if header is None:
            header = cells
            continue
        if not RULE_ID.match(cells[0]):
            continue
        named = list(zip(header[1:], cells[1:]))
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
