"""The contract every registered strategy must pass (RULES R11): the built-ins, the worked
example plug-in, and any plug-in named in ``SURVIVE_SIM_PLUGINS`` (paths separated by the
system's path separator). The checks are the package's own (``play.contract``), the ones a
user runs on a bot with ``survive-sim strategies --check my_bot.py`` or
``survive_sim.check_strategy("my_bot.py")`` (tests/test_check_strategy.py):

1. ``legal_answers``: legal answers at every decision of 2-6 player games under every
   challenge and expansion (the engine checks each answer and stops the run on a bad one).
2. ``same_seed_same_table``: identical tables for the same seed, whatever the threads and
   chunks.
3. ``ignores_hidden_information``: decisions unchanged when hidden information -- unrevealed
   tile backs, explorer values, other seats' hands and values -- is re-randomised.
"""
from __future__ import annotations

import os
from pathlib import Path

import pytest

from play import contract
from strategies.plugins import load_plugins
from strategies.registry import all_strategies

ROOT = Path(__file__).resolve().parents[1]
load_plugins([ROOT / "examples" / "homing_bot.py"]
             + [p for p in os.environ.get("SURVIVE_SIM_PLUGINS", "").split(os.pathsep) if p])
NAMES = [n for n, s in all_strategies().items() if s.listed]


def _passes(check: contract.Check) -> contract.Check:
    assert check.ok, str(check)
    return check


@pytest.mark.parametrize("name", NAMES)
def test_legal_answers_under_every_rule(name):
    assert _passes(contract.legal_answers(name)).tried == 192


@pytest.mark.parametrize("name", NAMES)
def test_same_seed_same_table(name):
    _passes(contract.same_seed_same_table(name))


@pytest.mark.parametrize("name", NAMES)
def test_decisions_ignore_hidden_information(name):
    assert _passes(contract.ignores_hidden_information(name)).tried > contract.HIDDEN_MIN


def test_the_checks_are_the_contract():
    assert [c.__name__ for c in contract.CHECKS] == [
        "legal_answers", "same_seed_same_table", "ignores_hidden_information"]
