"""``index.md`` of a report folder (``reports.page``): the page's content as GitHub-flavoured
Markdown, for GitHub and notebooks. Text is escaped (``&``, ``<``, ``>`` as entities; Markdown's
own punctuation and ``|`` with a backslash); `` `code` `` and ``**bold**`` stay markup. Each
heading is preceded by an ``<a id>`` with the HTML page's anchor, so the contents links work
wherever raw HTML anchors do (and GitHub's own heading anchors are the same slugs)."""
from __future__ import annotations

import re

from reports.page_views import (
    FigureView,
    GameView,
    PageView,
    SectionView,
    TableView,
    inline_tokens,
    one_line,
    verdict_class,
)

VERDICT_MARK = {"supported": "✓", "negligible": "≈", "refuted": "✗",
                "inconclusive": "○"}

# Markdown punctuation: `_` only where it can open or close emphasis (not inside a word such as
# a setting's label), `[` (a link opens there; `]` alone does nothing)
_PUNCT = re.compile(r"([\\`*\[|~]|(?<![A-Za-z0-9])_|_(?![A-Za-z0-9]))")
_LINE_START = re.compile(r"^(\s*)(?:([#>+\-=])|(\d+)([.)]))")    # a heading, quote, list


def md_text(text: str) -> str:
    """Plain text that Markdown shows as written."""
    s = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    return _PUNCT.sub(r"\\\1", s)


def md_inline(text: str, *, in_table: bool = False) -> str:
    out = []
    for kind, t in inline_tokens(one_line(text)):
        if kind == "code":
            fence = "``" if "`" in t else "`"
            t = t.replace("|", "\\|") if in_table else t
            out.append(f"{fence}{t}{fence}")
        elif kind == "bold":
            out.append(f"**{md_text(t)}**")
        else:
            out.append(md_text(t))
    s = "".join(out)
    return _LINE_START.sub(_escape_start, s, count=1)


def _escape_start(m: re.Match) -> str:
    if m.group(2):
        return f"{m.group(1)}\\{m.group(2)}"
    return f"{m.group(1)}{m.group(3)}\\{m.group(4)}"


def _link(path: str, text: str | None = None) -> str:
    return f"[{md_text(text or path)}]({path})"


def render_md(page: PageView) -> str:
    out = [f"# {md_inline(page.title)}", ""]
    if page.subtitle:
        out += [f"*{md_inline(page.subtitle)}*", ""]
    if page.notes:
        for i, n in enumerate(page.notes):
            out += (["> "] if i else []) + [f"> ⚠ **{md_inline(n)}**"]
        out.append("")
    toc = (["- [In short](#summary)"] if page.summary else [])
    toc += (["- [Verdicts](#verdicts)"] if page.verdicts is not None else [])
    toc += _toc(page.sections, 0)
    if toc:
        out += ['<a id="contents"></a>', "", "**Contents**", "", *toc, ""]
    if page.summary:
        out += ['<a id="summary"></a>', "", "## In short", ""]
        for p in page.summary:
            out += [md_inline(p), ""]
    if page.verdicts is not None:
        out += ['<a id="verdicts"></a>', "", "## Verdicts", "", *_table(page.verdicts), ""]
        for p in page.verdict_notes:
            out += [md_inline(p), ""]
    for s in page.sections:
        out += _section(s)
    files = ["[index.html](index.html)"] + (["[verdicts.csv](verdicts.csv)"]
                                            if page.verdicts is not None else [])
    out += ["---", "", (f"Written {md_text(page.created)} by survive-sim (`reports.page`); "
                        f"also {', '.join(files)}; figures in `figures/` (PNG, SVG), tables "
                        "in `tables/` (CSV)."), ""]
    return "\n".join(out)


def _toc(sections: list[SectionView], depth: int) -> list[str]:
    out = []
    for s in sections:
        out.append(f"{'  ' * depth}- [{md_inline(s.heading)}](#{s.anchor})")
        out += _toc(s.subsections, depth + 1)
    return out


def _section(s: SectionView) -> list[str]:
    out = [f'<a id="{s.anchor}"></a>', "", f"{'#' * s.level} {md_inline(s.heading)}", ""]
    for p in s.paragraphs:
        out += [md_inline(p), ""]
    for f in s.figures:
        out += _figure(f)
    for g in s.games:
        out += _game(g)
    for t in s.tables:
        out += _table(t) if t.show else _data_only(t)
    for sub in s.subsections:
        out += _section(sub)
    return out


def _game(g: GameView) -> list[str]:
    pictures = " ".join(f"[![{md_text(one_line(p.text))}]({p.svg})]({p.link})"
                        for p in g.pictures)
    return [f'<a id="{g.anchor}"></a>', "", pictures, "",
            f"{md_inline(g.caption)} ({_link(g.page, 'step through the game')})", ""]


def _figure(f: FigureView) -> list[str]:
    alt = md_text(one_line(f.alt)) or f"Figure {f.number}"
    files = [_link(f.svg, "SVG")] + ([f"data: {_link(f.data)}"] if f.data else [])
    return [f"![{alt}]({f.png})", "",
            f"**Figure {f.number}.** {md_inline(f.caption)} ({' · '.join(files)})", ""]


def _data_only(t: TableView) -> list[str]:
    what = f" {md_inline(t.caption)}" if t.caption else ""
    return [f"**Data:**{what} — {_link(t.csv)} ({t.total:,} rows)", ""]


def _table(t: TableView) -> list[str]:
    out = []
    if t.number:
        out += [f"**Table {t.number}.** {md_inline(t.caption)}", ""]
    header = [md_text(c) or " " for c in t.columns]
    out.append("| " + " | ".join(header) + " |")
    out.append("|" + "|".join("---:" if n else "---" for n in t.numeric) + "|")
    for row in t.rows:
        cells = []
        for j, v in enumerate(row):
            cell = md_text(one_line(v))
            kind = verdict_class(v) if j == t.verdict_col else None
            if kind:
                cell = f"{VERDICT_MARK[kind]} **{cell}**"
            elif j == t.verdict_col and cell:
                cell = f"**{cell}**"
            cells.append(cell)
        out.append("| " + " | ".join(cells) + " |")
    out.append("")
    if t.truncated:
        out.append(f"*showing {len(t.rows):,} of {t.total:,} rows — full table: "
                   f"{_link(t.csv)}*")
    else:
        out.append(f"data: {_link(t.csv)}")
    out.append("")
    return out
