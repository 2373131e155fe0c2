"""Shared pytest fixtures.

``warm_engine`` compiles (or loads from numba's on-disk cache) the engine once per test session,
before the first test runs, so that no single test pays the 1-2 minute cold compile inside its
own timing. Test modules that never touch the engine (the stand-alone referee tests) do not
trigger it when they run alone.
"""
from __future__ import annotations

import time
from pathlib import Path

import pytest

# test files that never import the compiled engine
ENGINE_FREE = {"test_referee_unit.py", "test_replays_package.py", "test_summary.py", "test_draw.py",
               "test_no_negative_index.py", "test_settings.py", "test_page.py",
               "test_inference.py", "test_calibration.py", "test_provenance.py",
               "test_compile_progress.py", "test_calibration_claims.py",
               "test_calibration_sequences.py"}


@pytest.fixture(scope="session", autouse=True)
def warm_engine(request):
    """One logged replay (``engine.replay_game``) and one batch run (``simulate.run_records``)
    compile every entry point of the engine before the tests start."""
    items = getattr(request.session, "items", [])
    if items and all(Path(str(item.fspath)).name in ENGINE_FREE for item in items):
        yield None
        return
    from play.record import play_logged
    from play.settings import Settings
    from play.simulate import run_records

    t0 = time.perf_counter()
    play_logged(Settings(players=4), seed=1, game=0)
    run_records(Settings(players=3), seed=1, first=0, count=2)
    yield time.perf_counter() - t0
