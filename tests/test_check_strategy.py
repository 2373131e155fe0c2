"""The strategy contract shipped in the package (``play.contract``), run on a plug-in file as a
user who pip-installed the tool runs it: ``survive_sim.check_strategy(path)`` and
``survive-sim strategies --check FILE``. The worked example passes every check; a bot that
breaks a rule the loader cannot see (noise outside ``rng``, a peek at hidden cells, a row out
of range) fails the named check, as a result (exit code 1), not an error; a file that does
not load is one line (exit code 2)."""
from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

import survive_sim as ss
from support.cli_harness import ROOT, assert_usage_error, invoke, run_process
from play import contract
from strategies.registry import StrategyError

EXAMPLE = ROOT / "examples" / "homing_bot.py"
CHECKS = ["legal_answers", "same_seed_same_table", "ignores_hidden_information"]


def _bot(folder: Path, name: str, body: str) -> Path:
    f = folder / f"{name}.py"
    f.write_text("from strategies.api import compiled\n"
                 f'NAME = "{name}"\nDESCRIPTION = "a broken test bot"\nPARAMS = ()\n'
                 f"MEM_W = 0\n" + textwrap.dedent(body))
    return f


# noise from numba's own np.random, not from rng: a game is no longer a function of its seed
NOISY = """
import numpy as np

@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return np.random.randint(0, n)
"""
# reads past the end of mine: the next seat's secrets (the last seat's: the hidden tiles)
PEEKS = """
from simulator.state import PRIV_W

@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return abs(mine[PRIV_W + 3]) % n
"""
# one past the last legal row
OVER = """
@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return n
"""


@pytest.fixture(scope="module")
def bots(tmp_path_factory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("contract_bots")
    return {"noisy": _bot(folder, "noisy_contract", NOISY),
            "peeks": _bot(folder, "peeks_contract", PEEKS),
            "over": _bot(folder, "over_contract", OVER)}


def _outcome(report) -> dict[str, bool]:
    return {c.name: c.ok for c in report.checks}


def test_the_example_passes_every_check():
    report = ss.check_strategy(EXAMPLE)
    assert isinstance(report, contract.Report) and report.ok and report.failed == ()
    assert [(c.strategy, c.name) for c in report.checks] == [("homing", n) for n in CHECKS]
    assert report.path == str(EXAMPLE.resolve())
    for c in report.checks:
        assert c.ok and c.reason and "\n" not in c.reason
    r = invoke("strategies", "--check", EXAMPLE)
    assert r.exit_code == 0, r.stderr
    lines = r.stdout.splitlines()
    assert lines == str(report).splitlines()
    assert [line.split(":")[:2] for line in lines[:3]] == [["PASS homing", f" {n}"]
                                                          for n in CHECKS]
    assert lines[-1] == "contract: OK (3 checks passed)"


def test_noise_outside_rng_fails_the_same_seed_check(bots):
    report = ss.check_strategy(bots["noisy"])
    assert not report.ok
    assert _outcome(report)["legal_answers"]            # every answer was legal
    (same,) = [c for c in report.failed if c.name == "same_seed_same_table"]
    assert "rng" in same.reason and "game" in same.reason
    r = invoke("strategies", "--check", bots["noisy"])
    assert r.exit_code == 1 and r.stderr == ""
    assert "FAIL noisy_contract: same_seed_same_table: game " in r.stdout
    assert r.stdout.splitlines()[-1].startswith("contract: FAILED (")


def test_a_peek_at_hidden_cells_fails_the_hidden_information_check(bots):
    report = ss.check_strategy(bots["peeks"])
    assert _outcome(report) == {"legal_answers": True, "same_seed_same_table": True,
                                "ignores_hidden_information": False}
    assert "re-randomised" in report.failed[0].reason
    r = invoke("strategies", "--check", bots["peeks"])
    assert r.exit_code == 1
    assert "FAIL peeks_contract: ignores_hidden_information: answered row" in r.stdout
    assert r.stdout.splitlines()[-1] == "contract: FAILED (1 of 3 checks)"


def test_a_row_out_of_range_fails_the_legal_answers_check(bots):
    report = ss.check_strategy(bots["over"])
    legal = report.checks[0]
    assert legal.name == "legal_answers" and not legal.ok
    assert "returned a row outside the legal options" in legal.reason
    assert "over_contract.py" in legal.reason and "players=2" in legal.reason


@pytest.mark.parametrize("what, needle", [
    ("missing", "is not a file"), ("text", "must be a .py file"),
    ("syntax", "failed to import: SyntaxError"), ("empty", "defines no strategy"),
    ("plain", "must be decorated with @strategies.api.compiled")])
def test_a_file_that_does_not_load_is_one_line(tmp_path, what, needle):
    files = {"missing": tmp_path / "nothing.py", "text": tmp_path / "bot.txt",
             "syntax": tmp_path / "syntax_bot.py", "empty": tmp_path / "empty_bot.py",
             "plain": tmp_path / "plain_bot.py"}
    files["text"].write_text("NAME = 'x'\n")
    files["syntax"].write_text("def (:\n")
    files["empty"].write_text("STRATEGIES = []\n")
    files["plain"].write_text("NAME = 'plain_contract'\ndef choose(*a):\n    return 0\n")
    with pytest.raises(ValueError, match=needle) as e:
        ss.check_strategy(files[what])
    assert isinstance(e.value, StrategyError) and "\n" not in str(e.value)
    r = invoke("strategies", "--check", files[what])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert " strategies: error: Invalid value for '--check': plug-in " in r.stderr
    assert r.stdout == ""


def test_the_command_says_a_missing_file_in_one_line(tmp_path):
    r = run_process("strategies", "--check", tmp_path / "my_bot.py")
    assert r.returncode == 2 and r.stdout == ""
    line = (f"survive-sim strategies: error: Invalid value for '--check': plug-in "
            f"{tmp_path / 'my_bot.py'} is not a file")
    assert r.stderr.splitlines() == [line]


def test_bad_arguments():
    with pytest.raises(ValueError, match="path must be a path"):
        ss.check_strategy(5)
    r = invoke("strategies", "--check", EXAMPLE, "--plugin", EXAMPLE)
    assert_usage_error(r.exit_code, r.stderr, r.stdout, "--check alone")
