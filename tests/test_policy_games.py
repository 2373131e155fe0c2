"""A Python policy at the table (docs/env.md, "A policy in a table"): a plug-in's ``POLICY``
seated like any strategy, its games played through the stepper (``play.policy_games``).

The stepped path is the engine's game: a policy that always takes the first option makes the
table the engine makes for ``scripted`` (which does the same, compiled), beside built-ins; a
policy game's replay log is its table row; tables do not depend on chunking; a policy's bad
answer or exception is one line; tournaments, sweeps, reports and the contract take it.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import numpy as np
import pytest

from play.policy_games import PolicyError
from play.record import game_log, play_logged
from play.settings import Settings
from play.simulate import run_records
from simulator.scoring import decide
from strategies.plugins import load_plugin
from strategies.registry import StrategyError

ROOT = Path(__file__).resolve().parents[1]
EXAMPLE = ROOT / "examples" / "random_policy.py"


def _plugin(tmp_path, name: str, body: str) -> str:
    path = tmp_path / f"{name}.py"
    path.write_text(f'import numpy as np\nNAME = "{name}"\nDESCRIPTION = "a test policy"\n'
                    + body)
    load_plugin(path)
    return name


@pytest.fixture(scope="module")
def first_option(tmp_path_factory):
    return _plugin(tmp_path_factory.mktemp("first"), "first_option",
                   "def POLICY(observation, action_mask, rng):\n    return 0\n")


@pytest.mark.parametrize("players, fields", [(4, dict(challenges=(1, 5))),
                                             (2, {}), (6, dict(squid=True, komi=(0,) * 5 + (1,)))])
def test_a_first_option_policy_plays_the_engines_scripted_games(first_option, players, fields):
    """``scripted`` with nothing scripted takes the first option at every question, compiled;
    the policy does the same in Python through the stepper, beside compiled built-ins."""
    seats = Settings(players=players).seats
    others = ("greedy", "random", "careful", "racer", "expert")
    policy = tuple([first_option] + list(others[:seats - 1]))
    compiled = tuple(["scripted"] + list(others[:seats - 1]))
    got = run_records(Settings(players=players, strategies=policy, **fields), 5, 0, 3)
    want = run_records(Settings(players=players, strategies=compiled, **fields), 5, 0, 3)
    assert np.array_equal(got, want)


def test_policy_tables_are_reproducible_and_chunk_free():
    (s,) = load_plugin(EXAMPLE)
    settings = Settings(players=4, strategies=(s.name, "greedy", s.name, "random"))
    whole = run_records(settings, 8, 0, 6)
    parts = np.concatenate([run_records(settings, 8, 0, 2), run_records(settings, 8, 2, 4)])
    assert np.array_equal(whole, parts)
    assert np.array_equal(whole, run_records(settings, 8, 0, 6))


def test_a_policy_games_replay_log_is_its_table_row():
    (s,) = load_plugin(EXAMPLE)
    settings = Settings(players=3, strategies=(s.name, "greedy", "random"), dolphins=True)
    row = run_records(settings, 4, 2, 1)[0]
    log = game_log(settings, 4, 2)
    assert log["record"]["turns"] == row[4]
    assert [log["record"][f"score_{k}"] for k in range(3)] == \
        [row[R] for R in _score_columns(3)]


def test_policy_games_logged_from_threads_are_their_own_games():
    """``script_seat`` plays from buffers one per process: ``SCRIPT_LOCK`` keeps threads that
    log policy games at once from playing one another's rows."""
    (s,) = load_plugin(EXAMPLE)
    settings = Settings(players=3, strategies=(s.name, "greedy", "random"))
    alone = [play_logged(settings, 4, g)[2] for g in range(4)]
    with ThreadPoolExecutor(4) as pool:
        together = list(pool.map(lambda g: play_logged(settings, 4, g)[2], range(4)))
    assert all(np.array_equal(a, b) for a, b in zip(alone, together))


def _score_columns(seats):
    from play.layout import R_SEAT0, REC_SEAT
    return [R_SEAT0 + k * len(REC_SEAT) for k in range(seats)]


@pytest.mark.parametrize("body, message", [
    ("def POLICY(observation, action_mask, rng):\n    return int(action_mask.sum())\n",
     r"answered \d+; it must return a row 0 <= k < \d+"),
    ("def POLICY(observation, action_mask, rng):\n    return 0.0\n", "answered 0.0"),
    ("def POLICY(observation, action_mask, rng):\n    raise KeyError('oops')\n",
     "raised KeyError: 'oops'"),
])
def test_a_bad_policy_is_named_in_one_line(tmp_path, body, message):
    name = _plugin(tmp_path, f"bad_{abs(hash(body)) % 10**6}", body)
    with pytest.raises(PolicyError, match=message) as e:
        run_records(Settings(players=3, strategies=(name, "random", "random")), 1, 0, 1)
    text = str(e.value)
    assert "\n" not in text and f"policy {name} (seat 0)" in text and "game 0, seed 1" in text


@pytest.mark.parametrize("body, message", [
    ("POLICY = 3\n", "POLICY must be callable"),
    ("from strategies.api import Param\nPARAMS = (Param('x', 0.0, 0.0, 1.0),)\n"
     "def POLICY(o, m, r):\n    return 0\n", "takes no PARAMS"),
])
def test_bad_policy_plugins_are_refused(tmp_path, body, message):
    with pytest.raises(StrategyError, match=message):
        _plugin(tmp_path, f"refused_{abs(hash(body)) % 10**6}", body)


def test_a_search_rung_cannot_sit_beside_a_policy(first_option):
    with pytest.raises(PolicyError, match="re-entering"):
        run_records(Settings(players=3, strategies=(first_option, "search", "random")),
                    1, 0, 1)


def test_a_tournament_seats_a_policy(tmp_path):
    import survive_sim as ss
    t = ss.tournament(["masked_random", "greedy"], players=3, games=6, batch=6,
                      out=tmp_path / "t", plugins=[str(EXAMPLE)])
    assert set(t.standings["strategy"]) == {"masked_random", "greedy"}


def test_the_example_study_judges_a_policy(tmp_path):
    """examples/policy_study.toml: a shipped claim (K1) asked of the example policy."""
    import survive_sim as ss
    run = ss.sweep(ROOT / "examples" / "policy_study.toml", tmp_path / "run", games=8)
    v = run.verdicts()
    assert list(v["claim"].unique()) == ["K1"]
    assert "masked_random" in " ".join(map(str, v.iloc[0].values))


def test_the_contract_passes_the_example_policy():
    import survive_sim as ss
    report = ss.check_strategy(EXAMPLE)
    assert report.ok, str(report)


@pytest.mark.slow
def test_the_masked_random_policy_wins_as_the_random_rung_does():
    """The example of docs/env.md: alone against three random rungs, a masked random policy
    wins as often as a fourth random rung (per seat, |z| < 3.5 over 800 games each)."""
    (s,) = load_plugin(EXAMPLE)
    games = 800
    settings = Settings(players=4, strategies=(s.name, "random", "random", "random"))
    mine = _shares(settings, run_records(settings, 17, 0, games))
    theirs = _shares(Settings(players=4), run_records(Settings(players=4), 17, 0, games))
    p = (mine + theirs) / 2
    z = (mine - theirs) / np.sqrt(2 * p * (1 - p) / games)
    assert np.all(np.abs(z) < 3.5), (mine, theirs, z)


def _shares(settings, rows):
    from play.layout import R_SEAT0, REC_SEAT
    width = len(REC_SEAT)

    def key(name):
        i = REC_SEAT.index(name)
        return rows[:, [R_SEAT0 + s * width + i for s in range(settings.seats)]]
    won, _ = decide(key("score"), key("rescued"), key("rescued_value"), key("turns"),
                    rule=settings.tiebreak)
    return (won / won.sum(axis=1, keepdims=True)).mean(axis=0)
