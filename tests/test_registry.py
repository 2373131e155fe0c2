"""The strategy registry: specs with parameters, the derived switch, and the cache key."""
from pathlib import Path

import numpy as np
import pytest

from play.settings import Settings, SettingsError, parse_strategies
from simulator.sources import compiled_files
from strategies import dispatch
from strategies.api import PAR_W, SCRATCH_W, Param
from strategies.registry import (
    PLUGIN_CODE,
    StrategyError,
    builtins,
    canonical,
    listed_names,
    param_row,
    split_specs,
)


def test_builtins_are_found_by_reading_the_package():
    found = builtins()
    assert {"random", "greedy", "scripted"} <= set(found)
    assert "scripted" not in listed_names()
    assert len({s.code for s in found.values()}) == len(found)
    for s in found.values():
        assert s.description and 0 <= s.mem_w <= SCRATCH_W


def test_the_switch_and_the_seat_functions_are_generated_from_the_registry():
    from strategies.seat_call import seats_source
    text = dispatch.switch_source()
    inline = [s for s in builtins().values() if dispatch.in_switch(s)]
    seats = seats_source([s for s in builtins().values() if not dispatch.in_switch(s)])
    assert {"random", "scripted"} <= {s.name for s in inline}
    for s in builtins().values():
        if s in inline:
            assert f"choose_{s.name}" in text
            if s.code != min(x.code for x in inline):
                assert f"if sid == {s.code}:" in text
            assert dispatch.strategy_code(s.name) == s.code
        else:
            assert f"choose_{s.name}" not in text and f"def seat_{s.name}(" in seats
            assert dispatch.strategy_code(s.name) == PLUGIN_CODE
    assert "do not edit" in text and "do not edit" in seats


def test_specs_split_and_canonical_spelling():
    assert split_specs("greedy,random") == ["greedy", "random"]
    assert split_specs("random,homing:wander=0.5,x=1,random") == [
        "random", "homing:wander=0.5,x=1", "random"]
    assert canonical(" random ") == "random"
    assert parse_strategies("random,greedy") == ("random", "greedy")


def _with_params():
    return [s for s in builtins().values() if s.params and s.listed]


def test_parameters_are_data_with_defaults_and_ranges():
    for s in _with_params():
        p = s.params[0]
        inside = p.low if p.low != p.default else p.high
        spec = f"{s.name}:{p.name}={inside:g}"
        assert canonical(spec) == spec
        assert canonical(f"{s.name}:{p.name}={p.default:g}") == s.name    # defaults left out
        row = param_row(spec)
        assert row.shape == (PAR_W,) and row[0] == pytest.approx(inside)
        with pytest.raises(StrategyError, match=r"outside its range"):
            canonical(f"{s.name}:{p.name}={p.high + 1:g}")
    settings = Settings(players=3, strategies=("random",))
    assert settings.strategy_params.shape == (6, PAR_W)


@pytest.mark.parametrize("spec, message", [
    ("grey", r"unknown strategy 'grey'; accepted: random, greedy"),
    ("random:speed=2", r"random has no parameter 'speed'; accepted: none"),
    ("random:speed", r"needs key=value"),
])
def test_bad_specs_name_what_exists(spec, message):
    with pytest.raises(SettingsError, match=message):
        Settings(players=4, strategies=(spec,))


def test_a_number_that_is_not_one_is_refused():
    for s in _with_params():
        with pytest.raises(SettingsError, match="is not a number"):
            Settings(players=4, strategies=(f"{s.name}:{s.params[0].name}=fast",))


def test_param_declarations_are_checked():
    with pytest.raises(ValueError, match="must lie in"):
        Param("x", 5.0, 0.0, 1.0)
    with pytest.raises(ValueError, match="identifier"):
        Param("two words", 0.0, 0.0, 1.0)


def _package(tmp_path: Path, files: dict) -> Path:
    for name, text in files.items():
        f = tmp_path / name
        f.parent.mkdir(parents=True, exist_ok=True)
        f.write_text(text)
    return tmp_path


def test_cache_key_covers_compiled_modules_and_what_they_import(tmp_path):
    root = _package(tmp_path, {
        "simulator/__init__.py": "",
        "simulator/jit.py": "from numba import njit\ndef hot(f):\n    return njit(f)\n",
        "simulator/board.py": "N = 3\n",
        "simulator/rules.py": "from .jit import hot\nfrom .board import N\n@hot\ndef f():\n"
                              "    return N\n",
        "simulator/report.py": "import numba\nprint(numba.get_num_threads())\n",
        "strategies/__init__.py": "",
        "strategies/deep/__init__.py": "",
    })
    names = {f.relative_to(root).as_posix() for f in compiled_files(root)}
    assert {"simulator/jit.py", "simulator/board.py", "simulator/rules.py"} <= names
    assert "simulator/report.py" not in names       # uses numba, compiles nothing
    # a new compiled module in a new folder joins the key, and so does what it imports
    _package(root, {"strategies/deep/bot.py": "from simulator.jit import hot\n"
                                              "from . import helper\n@hot\ndef g():\n    return 1\n",
                    "strategies/deep/helper.py": "K = 2\n"})
    names2 = {f.relative_to(root).as_posix() for f in compiled_files(root)}
    new = {"strategies/deep/bot.py", "strategies/deep/helper.py"}
    assert new <= names2 - names <= new | {"strategies/deep/__init__.py"}


def test_the_real_key_covers_every_strategy_and_the_engine():
    root = Path(__file__).resolve().parent.parent
    names = {f.relative_to(root).as_posix() for f in compiled_files(root)}
    for s in builtins().values():
        assert s.source.relative_to(root).as_posix() in names
    rules = {f"simulator/rules/{f.name}" for f in (root / "simulator" / "rules").glob("*.py")}
    game = {f"play/{m}.py" for m in ("engine", "layout", "decisions", "setup", "reactions", "steps")}
    assert rules | game | {"simulator/state.py", "simulator/board.py",
                           "strategies/dispatch.py"} <= names
    assert "play/simulate.py" not in names and "reports/report.py" not in names
    assert np.all(np.isfinite(param_row("random")))
