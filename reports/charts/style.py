"""The look shared by every chart: the Okabe-Ito palette, font sizes, the caption under a
figure, and ``save``.

Figures are made with ``matplotlib.figure.Figure`` directly (no pyplot, no backend switch, no
global figure registry); the style is applied with ``matplotlib.rc_context`` only while a chart
is being built and saved, so nothing leaks into the caller's matplotlib settings.
"""
from __future__ import annotations

import functools
from contextlib import contextmanager
from pathlib import Path

import matplotlib
import numpy as np
from matplotlib.figure import Figure
from matplotlib.ticker import Formatter, MaxNLocator

# Okabe & Ito (2008), "Color Universal Design": distinguishable with every common form of
# colour-vision deficiency. Yellow is kept for fills next to dark colours only.
OKABE_ITO = {
    "black": "#000000", "orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73",
    "yellow": "#F0E442", "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7",
}
# the order series take their colours in (yellow last: weak on white)
SERIES = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#D55E00", "#56B4E9", "#000000",
          "#F0E442")
MARKERS = ("o", "s", "^", "D", "v", "P", "X", "*")
ALLOCATION_COLOURS = {"rules": "#0072B2", "flat": "#E69F00", "reversed": "#009E73",
                      "custom": "#CC79A7"}
SEQUENTIAL = "cividis"                 # heatmaps: perceptually uniform and colour-blind safe

TITLE_SIZE = 13
LABEL_SIZE = 11
TICK_SIZE = 10
LEGEND_SIZE = 10
CAPTION_SIZE = 9.5
ANNOTATION_SIZE = 9.5
DPI = 150

RC = {
    "font.size": TICK_SIZE,
    "axes.titlesize": LABEL_SIZE + 0.5,
    "axes.labelsize": LABEL_SIZE,
    "xtick.labelsize": TICK_SIZE,
    "ytick.labelsize": TICK_SIZE,
    "legend.fontsize": LEGEND_SIZE,
    "legend.title_fontsize": LEGEND_SIZE,
    "figure.titlesize": TITLE_SIZE,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "axes.grid": True,
    "axes.grid.axis": "y",
    "grid.color": "#d9d9d9",
    "grid.linewidth": 0.7,
    "axes.axisbelow": True,
    "axes.prop_cycle": matplotlib.cycler(color=list(SERIES)),
    "svg.fonttype": "none",            # text stays text in the SVG (searchable, smaller)
    "svg.hashsalt": "survive-sim",     # stable ids: the same chart gives the same file
}

CAPTION_GID = "caption"
TITLE_GID = "title"


@contextmanager
def styled():
    """The charts' rc settings, for the duration of the block only."""
    with matplotlib.rc_context(RC):
        yield


def chart(fn):
    """Decorator: build the chart inside ``styled()``."""
    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        with styled():
            return fn(*args, **kwargs)
    return wrapper


class Chart:
    """A chart's figure in three stacked subfigures: ``body`` (the panels), ``legend_area``
    (the legend, outside the data) and ``caption_area`` (the caption). ``finish`` sizes the
    legend and caption areas to their text, so nothing overlaps and nothing is clipped."""

    def __init__(self, width: float, body_height: float):
        self.width, self.body_height = float(width), float(body_height)
        self.fig = Figure(figsize=(width, body_height + 1.5), layout="constrained", dpi=DPI)
        self.body, self.legend_area, self.caption_area = self.fig.subfigures(
            3, 1, height_ratios=[body_height, 0.5, 1.0], hspace=0.0)

    def finish(self, title: str, caption: str, handles: dict | None = None,
               legend_title: str | None = None, ncols: int | None = None) -> Figure:
        """Title on top, then the panels, the legend (``{label: artist}``) and the caption,
        each wrapped to the figure's width. The caption's ``Text`` has gid ``caption``, the
        title's ``title``."""
        fig, width = self.fig, self.width
        title_text = wrap(title, width - 0.5, TITLE_SIZE, bold=True)
        t = fig.suptitle(title_text, fontsize=TITLE_SIZE, fontweight="bold")
        t.set_gid(TITLE_GID)
        title_h = (title_text.count("\n") + 1) * TITLE_SIZE * 1.35 / 72 + 0.15
        legend_h = 0.02
        if handles:
            labels = list(handles)
            per_col = max(text_width(x, LEGEND_SIZE) for x in labels) + 0.75
            ncols = ncols or max(1, min(len(labels), int((width - 0.5) / per_col)))
            rows = -(-len(labels) // ncols)
            # matplotlib fills a legend column by column: order it so it reads row by row
            order = [i * ncols + j for j in range(ncols) for i in range(rows)
                     if i * ncols + j < len(labels)]
            artists = list(handles.values())
            self.legend_area.legend([artists[k] for k in order], [labels[k] for k in order],
                                    loc="center", ncols=ncols, title=legend_title,
                                    frameon=False)
            rows += 1 if legend_title else 0
            legend_h = rows * LEGEND_SIZE * 1.9 / 72 + 0.12
        caption_text = wrap(caption, width - 0.4, CAPTION_SIZE)
        c = self.caption_area.text(0.012, 0.5, caption_text, fontsize=CAPTION_SIZE, ha="left",
                                   va="center", color="#333333", linespacing=1.3)
        c.set_gid(CAPTION_GID)
        caption_h = (caption_text.count("\n") + 1) * CAPTION_SIZE * 1.3 / 72 + 0.2
        gs = self.body._subplotspec.get_gridspec()
        gs.set_height_ratios([self.body_height, legend_h, caption_h])
        fig.set_size_inches(width, self.body_height + legend_h + caption_h + title_h)
        return fig


def text_width(text: str, size: float, bold: bool = False) -> float:
    """Width of one line of ``text`` in inches at font ``size`` (the default font, measured
    from its glyphs: no renderer needed)."""
    from matplotlib.font_manager import FontProperties
    from matplotlib.textpath import TextToPath
    prop = FontProperties(size=size, weight="bold" if bold else "normal")
    w, _, _ = TextToPath().get_text_width_height_descent(text, prop, ismath=False)
    return w / 72


@functools.lru_cache(maxsize=65536)
def _word_width(word: str, size: float, bold: bool) -> float:
    return text_width(word, size, bold)


def wrap(text: str, width_in: float, size: float, bold: bool = False) -> str:
    """``text`` wrapped, word by word, into lines no wider than ``width_in`` inches at font
    ``size``; paragraphs (``\n``) are kept. A line's width is the sum of its words' and
    spaces' widths, each measured once (measuring every trial line again cost a quarter of a
    chart's time; the two agree on every caption of the shipped reports)."""
    space = _word_width("a b", size, bold) - _word_width("ab", size, bold)
    out = []
    for para in text.split("\n"):
        line, used = "", 0.0
        for word in para.split(" "):
            w = _word_width(word, size, bold)
            if line and used + space + w > width_in:
                out.append(line)
                line, used = word, w
            elif line:
                line, used = f"{line} {word}", used + space + w
            else:
                line, used = word, w
        out.append(line)
    return "\n".join(out)


def title_of(fig: Figure) -> str:
    """The figure's title, unwrapped."""
    return fig._suptitle.get_text().replace("\n", " ") if fig._suptitle else ""


def _texts(fig):
    yield from fig.texts
    for sub in getattr(fig, "subfigs", []):
        yield from _texts(sub)


def caption_of(fig: Figure) -> str:
    """The figure's caption, unwrapped."""
    for t in _texts(fig):
        if t.get_gid() == CAPTION_GID:
            return t.get_text().replace("\n", " ")
    return ""


class _Percent(Formatter):
    """Proportions as per cent with as many decimals as the tick step needs (25%, 22.5%)."""

    ticks: tuple = ()

    def set_locs(self, locs):
        self.ticks = tuple(float(v) for v in locs)

    def __call__(self, x, pos=None):
        locs = [v for v in self.ticks if np.isfinite(v)] or [x]
        step = min(np.diff(sorted(locs))) if len(locs) > 1 else 0.1
        step = abs(step) * 100
        decimals = 0 if step <= 0 else max(0, int(np.ceil(-np.log10(step) - 1e-9)))
        while decimals < 4 and any(abs(round(v * 100, decimals) - v * 100) > 1e-6
                                   for v in locs):
            decimals += 1
        return f"{x * 100:.{decimals}f}%"


def percent_axis(axis) -> None:
    """Tick labels of a proportion axis as per cent, ticks at steps of 1, 2 or 5 (x 10^k)."""
    axis.set_major_locator(MaxNLocator(nbins="auto", steps=[1, 2, 5, 10]))
    axis.set_major_formatter(_Percent())


def err(value, low, high) -> np.ndarray:
    """The ``(2, n)`` error-bar lengths of an interval around ``value`` (rounding can leave a
    value a hair outside its interval: clipped at 0)."""
    v = np.asarray(value, dtype=float)
    return np.clip(np.vstack([v - np.asarray(low, dtype=float),
                              np.asarray(high, dtype=float) - v]), 0, None)


def text_colour(rgba) -> str:
    """Black or white, whichever reads better on ``rgba`` (relative luminance)."""
    r, g, b = rgba[:3]
    return "black" if 0.2126 * r + 0.7152 * g + 0.0722 * b > 0.45 else "white"


def save(figure: Figure, path_stem) -> tuple[Path, Path]:
    """Write ``path_stem.png`` (150 dpi) and ``path_stem.svg``; returns both paths. The
    folder is made if missing. The SVG carries no date, so the same chart gives the same
    file."""
    stem = Path(path_stem)
    if stem.suffix.lower() in (".png", ".svg"):
        stem = stem.with_suffix("")
    stem.parent.mkdir(parents=True, exist_ok=True)
    png, svg = stem.with_name(stem.name + ".png"), stem.with_name(stem.name + ".svg")
    with styled():
        figure.savefig(png, dpi=DPI, format="png", facecolor="white")
        figure.savefig(svg, format="svg", facecolor="white", metadata={"Date": None})
    return png, svg
