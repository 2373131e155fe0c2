"""Charts drawn and saved on every core: a report asks for its charts as ``Chart`` jobs (a
chart function of ``reports.charts``, its arguments, the file's name and caption), and
``render`` draws each one, saves it to PNG and SVG bytes and hands back a ``page.Figure`` whose
``figure`` writes those bytes (``Rendered``).

Drawing and saving a chart is matplotlib's work in Python (about a second for the report's
charts, most of it laying out and rendering the two files), and every chart is independent: so
with more than a few charts they are drawn by the command's worker processes
(``experiments.store.workers``), each sent the run's sums once. The files are the same either way
(the SVG's ids are salted by the chart's name).
"""
from __future__ import annotations

import functools
import io
from dataclasses import dataclass, field
from typing import Any

import matplotlib
from matplotlib.backends.backend_agg import FigureCanvasAgg

from experiments.store.workers import Pool, share, shared
from reports import charts, page

PNG_DPI = 150
TIGHT_PAD = 0.1                    # inches around the tight box (matplotlib's pad_inches)
PARALLEL_FROM = 6                  # fewer charts than this are drawn here (start-up costs more)


@dataclass
class Chart:
    """One chart to draw: ``function`` a name in ``reports.charts``, called as
    ``function(run, *args, **kwargs)``; ``optional`` charts that raise ``ValueError`` (nothing
    to draw) are left out."""
    name: str
    function: str
    caption: str
    args: tuple = ()
    kwargs: dict = field(default_factory=dict)
    optional: bool = False


class Rendered:
    """A chart already saved: ``savefig`` writes its PNG or SVG bytes (what ``page`` calls)."""

    def __init__(self, png: bytes, svg: bytes):
        self.png, self.svg = png, svg

    def savefig(self, target, format: str = "png", **_: Any) -> None:
        with open(target, "wb") as f:
            f.write(self.png if format == "png" else self.svg)


def draw(chart: Chart, run):
    """``(png bytes, svg bytes, table)``, or None for an optional chart with nothing to
    draw."""
    try:
        fig, table = getattr(charts, chart.function)(run, *chart.args, **chart.kwargs)
    except ValueError:
        if chart.optional:
            return None
        raise
    png, svg = io.BytesIO(), io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": chart.name}):     # stable ids in the SVG
        # lay the figure out once and crop both files to one tight box: the same pixels as
        # two ``bbox_inches="tight"`` saves, which lay it out four times
        canvas = FigureCanvasAgg(fig)
        fig.draw_without_rendering()
        fig.set_layout_engine("none")
        box = fig.get_tightbbox(canvas.get_renderer()).padded(TIGHT_PAD)
        fig.savefig(png, dpi=PNG_DPI, format="png", bbox_inches=box)
        fig.savefig(svg, format="svg", bbox_inches=box, metadata={"Date": None})
    return png.getvalue(), svg.getvalue(), table


def _draw_shared(packed, chart: Chart):
    return draw(chart, shared(packed))


def render(jobs: list[Chart], run, pool: Pool | None = None, done=None) -> list:
    """``page.Figure`` of every job that drew (in the jobs' order), drawn by ``pool``'s
    processes when it has several (the run's sums sent to each once), else here; ``done(k,
    n)`` after each chart."""
    if pool is not None and pool.n > 1 and len(jobs) >= PARALLEL_FROM:
        made = pool.ordered(functools.partial(_draw_shared, share(run)), jobs)
    else:
        made = (draw(job, run) for job in jobs)
    results = []
    for k, r in enumerate(made, start=1):
        results.append(r)
        if done:
            done(k, len(jobs))
    return [page.Figure(job.name, Rendered(r[0], r[1]), caption=job.caption, data=r[2])
            for job, r in zip(jobs, results) if r is not None]
