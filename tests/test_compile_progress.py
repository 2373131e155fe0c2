"""The compile note's progress: numba's compile events counted, a plain line at least every
``every`` seconds while a compile runs, one at its end, nothing for a compile that ends before
the first line, and nothing at all when quiet. Fed fake events and a fake clock: no timing."""
import io
from types import SimpleNamespace

import pytest

from survive_sim.cli.progress import COMPILE_TIME, CompileProgress, _compiled_what

pytestmark = pytest.mark.engine_free


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


def _event(name: str):
    fn = SimpleNamespace(__name__=name)
    return SimpleNamespace(data={"dispatcher": SimpleNamespace(py_func=fn)})


def _compile(p, clock, names, seconds_each):
    """One outermost compile of ``names[0]`` with the others nested inside it."""
    p.on_start(_event(names[0]))
    for name in names[1:]:
        p.on_start(_event(name))
        clock.now += seconds_each
        p.tick()
        p.on_end(_event(name))


def test_a_long_compile_reports_every_interval_and_at_its_end_in_plain_lines():
    clock, out = Clock(), io.StringIO()
    p = CompileProgress(every=15.0, clock=clock, stream=out)
    _compile(p, clock, ["play_games"] + [f"f{i}" for i in range(40)], 1.0)
    p.on_end(_event("play_games"))
    lines = out.getvalue().splitlines()
    assert lines[0] == "survive-sim: compiling the engine: 14 functions done, 15 s"
    assert lines[1] == "survive-sim: compiling the engine: 29 functions done, 30 s"
    assert lines[-1] == "survive-sim: compiled the engine: 41 functions in 40 s"
    assert len(lines) == 3 and "\r" not in out.getvalue()


def test_a_short_compile_or_a_cache_load_says_nothing():
    clock, out = Clock(), io.StringIO()
    p = CompileProgress(every=15.0, clock=clock, stream=out)
    _compile(p, clock, ["seat_greedy", "a", "b"], 2.0)
    p.on_end(_event("seat_greedy"))
    p.tick()
    assert out.getvalue() == ""


def test_a_strategys_first_game_is_named_and_a_quiet_command_prints_nothing():
    clock, out = Clock(), io.StringIO()
    p = CompileProgress(every=10.0, clock=clock, stream=out)
    _compile(p, clock, ["seat_lookahead"] + ["g"] * 12, 1.0)
    p.on_end(_event("seat_lookahead"))
    assert out.getvalue().splitlines()[0].startswith("survive-sim: compiling strategy lookahead:")
    quiet = CompileProgress(every=10.0, clock=clock, stream=io.StringIO())
    quiet.quiet = True
    _compile(quiet, clock, ["play_games"] + ["g"] * 30, 1.0)
    quiet.on_end(_event("play_games"))
    assert quiet.stream.getvalue() == ""


def test_the_outermost_compile_names_what_is_built():
    assert _compiled_what(_event("play_games").data) == "the engine"
    assert _compiled_what(_event("seat_careful").data) == "strategy careful"
    assert _compiled_what(None) == "numba code"
    assert "minute" in COMPILE_TIME and "2 cores" in COMPILE_TIME


def test_only_uncached_builtins_outside_the_switch_are_compiled_apart(tmp_path, monkeypatch):
    import simulator
    from survive_sim.cli import progress
    monkeypatch.setattr(simulator, "CACHE_DIR", str(tmp_path))
    names = progress._uncached_builtins(["random", "greedy:risk=2", "careful", "greedy",
                                         "no-such-strategy"])
    assert names == ["greedy", "careful"]          # random is in the switch; unknown: ignored
    (tmp_path / "x").mkdir()
    (tmp_path / "x" / "strategy_seats.seat_greedy-15.py311.nbi").write_text("")
    assert progress._uncached_builtins(["greedy", "careful"]) == ["careful"]
