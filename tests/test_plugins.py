"""User strategies from their own files: loaded from outside the package, played from the
command line and in a sweep without recompiling the engine, and refused in one line when bad."""
from __future__ import annotations

import shutil
import textwrap
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from support.cli_harness import ROOT, assert_usage_error, invoke, run_process
from play.settings import Settings
from play.simulate import PluginChoiceError, run_records
from strategies.plugins import load_plugin
from strategies.registry import StrategyError, all_strategies

EXAMPLE = ROOT / "examples" / "homing_bot.py"
HEADER = "from strategies.api import Param, compiled\n"


@pytest.fixture(scope="module")
def outside(tmp_path_factory) -> Path:
    """The worked example copied to a folder outside the package."""
    folder = tmp_path_factory.mktemp("user_bots")
    shutil.copy(EXAMPLE, folder / "homing_bot.py")
    return folder / "homing_bot.py"


def _bot(tmp_path: Path, name: str, body: str, fields: str | None = None) -> Path:
    f = tmp_path / f"{name}.py"
    fields = fields if fields is not None else (
        f'NAME = "{name}"\nDESCRIPTION = "test bot"\nPARAMS = ()\nMEM_W = 0\n')
    f.write_text(HEADER + fields + textwrap.dedent(body))
    return f


def test_the_example_loads_from_outside_the_package_and_plays(outside):
    (s,) = load_plugin(outside)
    assert s.plugin and s.name == "homing" and s.source == outside.resolve()
    assert all_strategies()["homing"].plugin
    settings = Settings(players=4, strategies=("homing", "random", "homing:wander=1", "random"))
    assert settings.strategies[2] == "homing:wander=1"
    rows = run_records(settings, 3, 0, 200)
    again = run_records(settings, 3, 0, 200)
    np.testing.assert_array_equal(rows, again)
    # homing reaches safety more often than random in the same seats of the same games
    df = pd.DataFrame(rows)
    from play import layout as LY
    rescued = [df[LY.R_SEAT0 + s * len(LY.REC_SEAT) + 1].mean() for s in range(4)]
    assert rescued[0] > rescued[1]


UNIFORM = """
from simulator.rng import randint

@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return randint(rng, 0, n)
"""


def test_a_plugin_copy_of_random_plays_exactly_randoms_games(tmp_path):
    """The same code as a plug-in and built in: byte-identical tables (the plug-in path hands
    the strategy the same arguments and the same noise stream)."""
    load_plugin(_bot(tmp_path, "uniform", UNIFORM))
    for players, extra in ((4, {}), (6, {"dolphins": True, "squid": True}), (2, {})):
        mine = run_records(Settings(players=players, strategies=("uniform",), **extra), 9, 0, 80)
        theirs = run_records(Settings(players=players, strategies=("random",), **extra), 9, 0, 80)
        np.testing.assert_array_equal(mine, theirs)
    mixed = ("uniform", "greedy", "random", "greedy")
    np.testing.assert_array_equal(
        run_records(Settings(players=4, strategies=mixed), 2, 0, 40),
        run_records(Settings(players=4, strategies=("random", "greedy", "random", "greedy")),
                    2, 0, 40))


def test_plugin_tables_do_not_depend_on_chunks(outside):
    load_plugin(outside)
    settings = Settings(players=5, strategies=("homing:wander=0.3",))
    whole = run_records(settings, 9, 0, 64)
    parts = np.concatenate([run_records(settings, 9, 0, 20), run_records(settings, 9, 20, 44)])
    np.testing.assert_array_equal(whole, parts)


def test_simulate_with_a_plugin_from_the_command_line(outside, tmp_path):
    out = tmp_path / "t.parquet"
    r = invoke("simulate", "--plugin", outside, "--players", 4, "--games", 300,
               "--strategies", "homing:wander=0.2,greedy,greedy,greedy", "--out", out,
               "--no-progress")
    assert r.exit_code == 0, r.output
    df = pd.read_parquet(out)
    assert df["strategy_0"].astype(str).eq("homing:wander=0.2").all()
    assert df["strategy_1"].astype(str).eq("greedy").all()


def test_strategies_lists_builtins_and_plugins(outside):
    r = invoke("strategies", "--plugin", outside)
    assert r.exit_code == 0
    assert "greedy" in r.output and "random" in r.output and "homing" in r.output
    assert "wander = 0" in r.output and "[0, 1]" in r.output


def test_a_sweep_with_a_plugin_in_the_experiment_file(outside, tmp_path):
    spec = tmp_path / "mine.toml"
    spec.write_text(textwrap.dedent(f"""
        name = "mine"
        games = 120
        chunk = 60
        plugins = ["{outside.name}"]
        [grid]
        players = [4]
        strategies = [["homing", "random", "random", "random"], "random"]
    """))
    shutil.copy(outside, tmp_path / outside.name)
    r = invoke("sweep", spec, "--out", tmp_path / "run", "--no-progress")
    assert r.exit_code == 0, r.output
    df = pd.read_parquet(tmp_path / "run")
    assert set(df["strategy_0"].astype(str)) == {"homing", "random"}
    manifest = (tmp_path / "run" / "_manifest.json").read_text()
    assert "homing_bot.py" in manifest               # the plug-in's hash is in the identity


def test_a_plugin_that_answers_out_of_range_names_file_strategy_and_decision(tmp_path):
    f = _bot(tmp_path, "liar", """
        @compiled
        def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
            return n
    """)
    load_plugin(f)
    with pytest.raises(PluginChoiceError, match=r"liar\.py: strategy liar \(seat 1\) returned a "
                                                r"row outside the legal options at a \w+ "
                                                r"decision"):
        run_records(Settings(players=3, strategies=("random", "liar", "random")), 1, 0, 4)
    r = run_process("simulate", "--plugin", f, "--players", 3, "--games", 10,
                    "--strategies", "random,liar,random", "--no-progress")
    assert r.returncode != 0 and "Traceback" not in r.stderr
    assert "liar.py" in r.stderr and "decision" in r.stderr


@pytest.mark.parametrize("body, fields, needle", [
    ("", None, "defines neither NAME and choose nor STRATEGIES"),
    ("def choose(*a):\n    return 0\n", None, "must be decorated with @strategies.api.compiled"),
    ("raise RuntimeError('boom')\n", None, "failed to import: RuntimeError: boom"),
    ("", 'NAME = "greedy"\nDESCRIPTION = ""\n@compiled\ndef choose(pub, mine, seat, kind, opts, '
         'n, rng, mem, work, par):\n    return 0\n', "may not reuse the built-in name"),
])
def test_bad_plugin_files_are_one_line_errors(tmp_path, body, fields, needle):
    name = f"bad{abs(hash(needle)) % 10_000}"
    if fields is None:
        fields = "" if "neither" in needle else f'NAME = "{name}"\nDESCRIPTION = "x"\n'
    f = _bot(tmp_path, name, body, fields)
    with pytest.raises(StrategyError, match=needle.replace(".", r"\.").replace("(", r"\(")
                       .replace(")", r"\)")):
        load_plugin(f)
    r = run_process("strategies", "--plugin", f)
    assert_usage_error(r.returncode, r.stderr, r.stdout, needle)


def test_a_missing_plugin_file_and_an_unknown_name(tmp_path):
    r = run_process("simulate", "--plugin", tmp_path / "nope.py", "--games", 5)
    assert_usage_error(r.returncode, r.stderr, r.stdout, "is not a file")
    r = run_process("simulate", "--games", 5, "--strategies", "homing")
    assert_usage_error(r.returncode, r.stderr, r.stdout,
                       "unknown strategy 'homing'; accepted: random, greedy")
