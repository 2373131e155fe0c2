"""Charts drawn and saved on every core: a report asks for its charts as ``Chart`` jobs (a
chart function of ``reports.charts``, its arguments, the file's name and caption), and
``render`` draws each one, saves it to PNG and SVG bytes and hands back a ``page.Figure`` whose
``figure`` writes those bytes (``Rendered``).

Drawing and saving a chart is matplotlib's work in Python (about half a second to a second for
the report's charts, most of it text layout and the two files), and every chart is independent:
so with more than a few charts they are drawn by worker processes, each sent the run's sums
once. The files are the same either way (the SVG's ids are salted by the chart's name).
"""
from __future__ import annotations

import io
import os
from dataclasses import dataclass, field
from typing import Any

PNG_DPI = 150
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


_RUN = None                         # the run's sums, in a worker process


def _keep(run) -> None:
    global _RUN
    _RUN = run


def draw(chart: Chart, run=None):
    """``(png bytes, svg bytes, table)``, or None for an optional chart with nothing to
    draw."""
    import matplotlib

    from reports import charts
    run = _RUN if run is None else run
    try:
        fig, table = getattr(charts, chart.function)(run, *chart.args, **chart.kwargs)
    except ValueError:
        if chart.optional:
            return None
        raise
    png, svg = io.BytesIO(), io.BytesIO()
    with matplotlib.rc_context({"svg.hashsalt": chart.name}):     # stable ids in the SVG
        fig.savefig(png, dpi=PNG_DPI, format="png", bbox_inches="tight")
        fig.savefig(svg, format="svg", bbox_inches="tight", metadata={"Date": None})
    return png.getvalue(), svg.getvalue(), table


def render(jobs: list[Chart], run, workers: int | None = None, done=None) -> list:
    """``page.Figure`` of every job that drew (in the jobs' order). ``workers``: processes
    (default: one per core when there are ``PARALLEL_FROM`` charts or more); ``done(k, n)``
    after each chart."""
    from reports import page
    n = workers if workers is not None else (os.cpu_count() or 1)
    results = []
    if n <= 1 or len(jobs) < PARALLEL_FROM:
        for k, job in enumerate(jobs, start=1):
            results.append(draw(job, run))
            if done:
                done(k, len(jobs))
    else:
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor

        from experiments.analysis import single_threaded
        with single_threaded(), ProcessPoolExecutor(max_workers=min(n, len(jobs)),
                                                    mp_context=mp.get_context("spawn"),
                                                    initializer=_keep, initargs=(run,)) as pool:
            futures = [pool.submit(draw, job) for job in jobs]
            for k, fut in enumerate(futures, start=1):
                results.append(fut.result())
                if done:
                    done(k, len(jobs))
    return [page.Figure(job.name, Rendered(r[0], r[1]), caption=job.caption, data=r[2])
            for job, r in zip(jobs, results) if r is not None]
