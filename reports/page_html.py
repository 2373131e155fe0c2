"""``index.html`` of a report folder (``reports.page``): one page, no server, no network.

Every piece of text goes through ``html.escape``; paragraphs, notes and captions may carry
`` `code` `` and ``**bold**`` (``reports.page_views.inline_tokens``). The CSS is inline; images and
links are relative to the page.
"""
from __future__ import annotations

from html import escape

from reports.page_views import (
    EMPTY,
    FigureView,
    GameView,
    PageView,
    SectionView,
    TableView,
    inline_tokens,
    one_line,
    plain,
    verdict_class,
)

LONG = 20                  # more rows than this: the table scrolls in a box, its header stays
VERDICT_MARK = {"supported": "✓", "negligible": "≈", "refuted": "✗",
                "inconclusive": "○"}

# Colours: Okabe-Ito blue / orange / vermillion / grey for the verdicts (told apart without hue
# too: a mark and the word), text on tints with contrast above 7:1.
CSS = """
:root { --text: #1f2328; --muted: #57606a; --line: #d0d7de; --soft: #f6f8fa; --link: #0a58ca; }
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; text-size-adjust: 100%; }
body { margin: 0; background: #fff; color: var(--text);
  font: 16px/1.55 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial,
        "Noto Sans", "Liberation Sans", sans-serif; }
main { max-width: 1100px; margin: 0 auto; padding: 28px 32px 48px; }
h1 { font-size: 2rem; line-height: 1.2; margin: 0 0 6px; }
h2 { font-size: 1.45rem; line-height: 1.25; margin: 40px 0 12px; padding-bottom: 6px;
  border-bottom: 1px solid var(--line); }
h3 { font-size: 1.2rem; margin: 30px 0 10px; }
h4, h5, h6 { font-size: 1.05rem; margin: 24px 0 8px; }
h2, h3, h4, h5, h6 { scroll-margin-top: 12px; }
p { margin: 0 0 12px; max-width: 48rem; }
a { color: var(--link); }
a:hover { text-decoration-thickness: 2px; }
code { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace;
  font-size: 0.88em; background: #eef1f4; padding: 0.08em 0.35em; border-radius: 4px;
  overflow-wrap: anywhere; }
.subtitle { color: var(--muted); font-size: 1.1rem; margin: 0 0 14px; }
.notes { margin: 18px 0 8px; padding: 12px 16px 12px 14px; background: #fff4d6;
  border: 1px solid #e3b341; border-left: 6px solid #b35900; border-radius: 6px;
  color: #3b2300; }
.notes p { margin: 0; font-weight: 650; font-size: 1.05rem; max-width: none; }
.notes p + p { margin-top: 6px; }
.notes .mark { color: #b35900; margin-right: 6px; }
.summary p { font-size: 1.08rem; margin: 0 0 8px; }
.summary { padding: 2px 18px 10px; border-left: 6px solid #0072B2; background: #f3f8fc;
  border-radius: 6px; }
.summary h2 { border: 0; }
nav.toc { margin: 22px 0 8px; padding: 12px 18px; background: var(--soft);
  border: 1px solid var(--line); border-radius: 6px; }
nav.toc h2 { font-size: 1rem; margin: 0 0 4px; padding: 0; border: 0; text-transform: uppercase;
  letter-spacing: 0.04em; color: var(--muted); }
nav.toc ol { margin: 0; padding-left: 1.4em; }
nav.toc ol ol { padding-left: 1.2em; font-size: 0.95em; }
nav.toc li { margin: 2px 0; }
.top { float: right; font-size: 0.8rem; font-weight: 400; margin-top: 0.5em;
  text-decoration: none; color: var(--muted); }
figure { margin: 22px 0 28px; }
figure img { display: block; max-width: 100%; height: auto; background: #fff; }
figcaption, .caption { font-size: 0.93rem; color: #33393f; margin-top: 8px; max-width: 52rem; }
.caption { margin: 18px 0 6px; }
.label { font-weight: 650; color: var(--text); }
.files { display: block; margin-top: 2px; color: var(--muted); font-size: 0.86rem; }
.files a { color: var(--muted); }
.game-pictures { display: flex; flex-wrap: wrap; gap: 10px 14px; }
.game-pictures a { display: block; text-decoration: none; color: var(--text);
  border: 1px solid var(--line); border-radius: 6px; padding: 4px; background: #fff; }
.game-pictures a:hover { border-color: var(--link); }
.game-pictures img { display: block; max-width: 100%; height: auto; }
.game-label { display: block; font-size: 0.86rem; color: var(--muted); padding: 2px 4px 0; }
.table-block { margin: 14px 0 26px; }
.table-wrap { width: fit-content; max-width: 100%; overflow: auto; border: 1px solid var(--line);
  border-radius: 6px;
  -webkit-overflow-scrolling: touch; }
.table-wrap.long { max-height: min(80vh, 44rem); }
table { border-collapse: separate; border-spacing: 0; font-size: 0.9rem; line-height: 1.4; }
.verdicts .table-wrap, .verdicts table { width: 100%; }
th, td { padding: 6px 12px; text-align: left; vertical-align: top;
  border-bottom: 1px solid #e4e8ec; }
tbody tr:last-child td { border-bottom: 0; }
thead th { position: sticky; top: 0; z-index: 1; background: #e9edf1; font-weight: 650;
  border-bottom: 2px solid #c3ccd5; white-space: nowrap; }
tbody tr:nth-child(even) td { background: var(--soft); }
tbody tr:hover td { background: #eaf2fb; }
td { min-width: 4rem; }
td.text { min-width: 8rem; max-width: 36rem; }
td.word { white-space: nowrap; }
th.num, td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
td.empty { color: #8c959f; }
tbody td.verdict { font-weight: 700; white-space: nowrap; }
tbody td.verdict.v-supported { background: #d3e8f8; color: #063f6b;
  box-shadow: inset 5px 0 0 #0072b2; }
tbody td.verdict.v-negligible { background: #fdf0c4; color: #5c4300;
  box-shadow: inset 5px 0 0 #e69f00; }
tbody td.verdict.v-refuted { background: #fbdcc6; color: #7a2800;
  box-shadow: inset 5px 0 0 #d55e00; }
tbody td.verdict.v-inconclusive { background: #e8e8e8; color: #333;
  box-shadow: inset 5px 0 0 #8a8a8a; }
.vmark { display: inline-block; width: 1.1em; }
.table-meta { font-size: 0.86rem; color: var(--muted); margin: 6px 0 0; max-width: none; }
.data-only { font-size: 0.93rem; }
footer { margin-top: 48px; padding-top: 10px; border-top: 1px solid var(--line);
  color: var(--muted); font-size: 0.85rem; }
footer a { color: var(--muted); }
@media (max-width: 640px) {
  body { font-size: 15px; }
  main { padding: 14px 12px 32px; }
  h1 { font-size: 1.5rem; }
  h2 { font-size: 1.25rem; margin-top: 30px; }
  table { font-size: 0.82rem; }
  th, td { padding: 5px 7px; }
  td.text { min-width: 7rem; }
  .table-wrap.long { max-height: 26rem; }
  .notes p { font-size: 1rem; }
  /* the verdicts as cards: one block per claim, each value under its column's name */
  .verdicts .table-wrap { border: 0; overflow: visible; width: auto; }
  .verdicts table, .verdicts tbody, .verdicts tr, .verdicts td { display: block; width: auto; }
  .verdicts thead { position: absolute; width: 1px; height: 1px; overflow: hidden;
    clip-path: inset(50%); }
  .verdicts tr { border: 1px solid var(--line); border-radius: 6px; margin: 0 0 10px;
    overflow: hidden; }
  .verdicts tbody tr:last-child td, .verdicts td { border: 0; padding: 5px 10px;
    min-width: 0; max-width: none; white-space: normal; }
  .verdicts td::before { content: attr(data-label); display: block; font-size: 0.72rem;
    font-weight: 650; letter-spacing: 0.04em; text-transform: uppercase; color: var(--muted); }
  .verdicts td.verdict::before { color: inherit; opacity: 0.75; }
  .verdicts td.empty { display: none; }
}
@media print {
  body { font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  .table-wrap, .table-wrap.long { max-height: none; overflow: visible; border: 0; }
  thead th { position: static; }
  tbody tr:hover td { background: inherit; }
  figure { break-inside: avoid; }
  h2, h3, h4 { break-after: avoid; }
  a { color: inherit; text-decoration: none; }
  .top { display: none; }
  .notes, thead th, tbody td, nav.toc { -webkit-print-color-adjust: exact;
    print-color-adjust: exact; }
}
"""


def inline(text: str) -> str:
    """Escaped text with its `code` and **bold** spans."""
    out = []
    for kind, t in inline_tokens(one_line(text)):
        t = escape(t)
        out.append(t if kind == "text" else f"<code>{t}</code>" if kind == "code"
                   else f"<strong>{t}</strong>")
    return "".join(out)


def _link(path: str, text: str | None = None) -> str:
    return f'<a href="{escape(path)}">{escape(text or path)}</a>'


def render_html(page: PageView) -> str:
    title = plain(page.title)
    out = ["<!DOCTYPE html>", '<html lang="en">', "<head>", '<meta charset="utf-8">',
           '<meta name="viewport" content="width=device-width, initial-scale=1">',
           f"<title>{escape(title)}</title>",
           '<meta name="generator" content="survive-sim reports.page">',
           f"<style>{CSS}</style>", "</head>", "<body>", '<main id="top">', "<header>",
           f"<h1>{inline(page.title)}</h1>"]
    if page.subtitle:
        out.append(f'<p class="subtitle">{inline(page.subtitle)}</p>')
    if page.notes:
        out.append('<div class="notes" role="note">')
        out += [f'<p><span class="mark" aria-hidden="true">⚠</span>{inline(n)}</p>'
                for n in page.notes]
        out.append("</div>")
    out.append("</header>")
    out += _toc(page)
    if page.summary:
        out += ['<section class="summary">', f'<h2 id="summary">In short{_top()}</h2>',
                *[f"<p>{inline(p)}</p>" for p in page.summary], "</section>"]
    if page.verdicts is not None:
        out += ['<section class="verdicts">',
                f'<h2 id="verdicts">Verdicts{_top()}</h2>',
                *_table(page.verdicts),
                *[f"<p>{inline(p)}</p>" for p in page.verdict_notes], "</section>"]
    for s in page.sections:
        out += _section(s)
    files = [_link("index.md")] + ([_link("verdicts.csv")] if page.verdicts else [])
    out += ["<footer>", (f"<p>Written {escape(page.created)} by survive-sim "
                         f"(<code>reports.page</code>). Same content as Markdown: "
                         f"{', '.join(files)}; figures in <code>figures/</code> (PNG, SVG), "
                         "tables in <code>tables/</code> (CSV).</p>"),
            "</footer>", "</main>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _top() -> str:
    return '<a class="top" href="#contents">↑ contents</a>'


def _toc(page: PageView) -> list[str]:
    items = []
    if page.summary:
        items.append('<li><a href="#summary">In short</a></li>')
    if page.verdicts is not None:
        items.append('<li><a href="#verdicts">Verdicts</a></li>')
    items += _toc_items(page.sections)
    if not items:
        return []
    return ['<nav class="toc" id="contents" aria-label="Contents">', "<h2>Contents</h2>",
            "<ol>", *items, "</ol>", "</nav>"]


def _toc_items(sections: list[SectionView]) -> list[str]:
    out = []
    for s in sections:
        link = f'<a href="#{escape(s.anchor)}">{inline(s.heading)}</a>'
        if s.subsections:
            out += [f"<li>{link}", "<ol>", *_toc_items(s.subsections), "</ol>", "</li>"]
        else:
            out.append(f"<li>{link}</li>")
    return out


def _section(s: SectionView) -> list[str]:
    h = f"h{s.level}"
    top = _top() if s.level == 2 else ""
    out = ["<section>", f'<{h} id="{escape(s.anchor)}">{inline(s.heading)}{top}</{h}>']
    out += [f"<p>{inline(p)}</p>" for p in s.paragraphs]
    for f in s.figures:
        out += _figure(f)
    for g in s.games:
        out += _game(g)
    for t in s.tables:
        out += _table(t) if t.show else _data_only(t)
    for sub in s.subsections:
        out += _section(sub)
    out.append("</section>")
    return out


def _game(g: GameView) -> list[str]:
    """The pictures side by side, each a link to the viewer page at its moment."""
    out = [f'<figure class="game" id="{escape(g.anchor)}">', '<div class="game-pictures">']
    for p in g.pictures:
        out.append(f'<a href="{escape(p.link)}" title="open the viewer at this moment">'
                   f'<img src="{escape(p.svg)}" alt="the board {escape(plain(p.text))}" '
                   f'width="{p.width}" height="{p.height}" loading="lazy">'
                   f'<span class="game-label">{inline(p.text)}</span></a>')
    out += ["</div>", f"<figcaption>{inline(g.caption)}<span class=\"files\">"
                      f"{_link(g.page, 'step through the game')} (opens from disk)</span>"
                      f"</figcaption>", "</figure>"]
    return out


def _figure(f: FigureView) -> list[str]:
    files = [_link(f.svg, "SVG"), _link(f.png, "PNG")]
    if f.data:
        files.append("data: " + _link(f.data))
    caption = f'<span class="label">Figure {f.number}.</span> {inline(f.caption)}'
    return [f'<figure id="{escape(f.anchor)}">',
            (f'<a href="{escape(f.svg)}"><img src="{escape(f.png)}" alt="{escape(f.alt)}" '
             f'width="{f.width}" height="{f.height}"></a>'),
            f'<figcaption>{caption}<span class="files">{" · ".join(files)}</span></figcaption>',
            "</figure>"]


def _data_only(t: TableView) -> list[str]:
    what = f" {inline(t.caption)}" if t.caption else ""
    return [(f'<p class="data-only" id="{escape(t.anchor)}"><span class="label">Data:</span>'
             f"{what} — {_link(t.csv)} ({t.total:,} rows)</p>")]


def _table(t: TableView) -> list[str]:
    out = [f'<div class="table-block" id="{escape(t.anchor)}">'] if t.number else []
    if t.number:
        out.append(f'<p class="caption"><span class="label">Table {t.number}.</span> '
                   f"{inline(t.caption)}</p>")
    label = escape(plain(t.caption) or t.name)
    long = " long" if len(t.rows) > LONG else ""
    out += [f'<div class="table-wrap{long}" role="region" aria-label="{label}" tabindex="0">',
            "<table>", "<thead><tr>"]
    out += [f'<th scope="col"{_cls(t, j)}>{escape(c)}</th>' for j, c in enumerate(t.columns)]
    out += ["</tr></thead>", "<tbody>"]
    for row in t.rows:
        cells = []
        for j, v in enumerate(row):
            cells.append(_cell(t, j, v))
        out.append("<tr>" + "".join(cells) + "</tr>")
    out += ["</tbody>", "</table>", "</div>"]
    if t.truncated:
        meta = (f"showing {len(t.rows):,} of {t.total:,} rows — full table: {_link(t.csv)}")
    else:
        rows = f" ({t.total:,} rows)" if len(t.rows) > LONG else ""
        meta = f"data: {_link(t.csv)}{rows}"
    out.append(f'<p class="table-meta">{meta}</p>')
    if t.number:
        out.append("</div>")
    return out


def _cls(t: TableView, j: int) -> str:
    return ' class="num"' if t.numeric[j] else ""


def _cell(t: TableView, j: int, v: str) -> str:
    classes = []
    text = escape(v)
    if j == t.verdict_col:
        classes.append("verdict")
        kind = verdict_class(v)
        if kind:
            classes.append(f"v-{kind}")
            text = (f'<span class="vmark" aria-hidden="true">{VERDICT_MARK[kind]}</span>'
                    f"{text}")
    elif t.numeric[j]:
        classes.append("num")
    elif len(v) > 24 and any(c.isspace() for c in v):
        classes.append("text")
    elif 12 < len(v) <= 60 and not any(c.isspace() for c in v):
        classes.append("word")              # an identifier (a setting's label): never broken
    if v in (EMPTY, ""):
        classes.append("empty")
    attrs = f' class="{" ".join(classes)}"' if classes else ""
    if t.verdict_col is not None:
        attrs += f' data-label="{escape(t.columns[j])}"'
    return f"<td{attrs}>{text}</td>"
