"""Shared pytest fixtures.

``warm_engine`` compiles (or loads from numba's on-disk cache) the engine once per test session,
before the first test runs, so that no single test pays the 1-2 minute cold compile inside its
own timing. Test modules that never touch the engine (the stand-alone referee tests, the
calibration ...) say so with ``pytestmark = pytest.mark.engine_free``; a session that collects
only such tests skips the warm-up. The markers are registered in pyproject.toml.
"""
from __future__ import annotations

import time

import pytest


@pytest.fixture(scope="session", autouse=True)
def warm_engine(request):
    """One logged replay (``engine.replay_game``) and one batch run (``simulate.run_records``)
    compile every entry point of the engine before the tests start."""
    items = getattr(request.session, "items", [])
    if items and all(item.get_closest_marker("engine_free") for item in items):
        yield None
        return
    from play.record import play_logged
    from play.settings import Settings
    from play.simulate import run_records

    t0 = time.perf_counter()
    play_logged(Settings(players=4), seed=1, game=0)
    run_records(Settings(players=3), seed=1, first=0, count=2)
    yield time.perf_counter() - t0
