"""``survive_sim.env``: the game as a PettingZoo AEC environment (docs/env.md).

PettingZoo's own ``api_test`` and ``seed_test`` on 2 to 6 players with every expansion flag; a
game whose every answer is a built-in strategy's is that strategy's table row (the environment
plays the engine's own game, chance included); an observation never holds a hidden cell (R11);
what ``reset`` seeds; bad input refused in one line. ``max_cycles_test`` does not apply: it is
for parallel environments with a ``max_cycles`` argument, and this game's own cap is the turn
limit of R10 (``max_turns``).
"""
from __future__ import annotations

import dataclasses
import warnings

import numpy as np
import pytest

pytest.importorskip("pettingzoo")        # the ``env`` extra; CI installs it with ``test``

from pettingzoo.test import api_test, seed_test  # noqa: E402

from play.settings import Settings, SettingsError  # noqa: E402
from play.simulate import run_records  # noqa: E402
from simulator.scoring import decide  # noqa: E402
from simulator.state import PRIV, PRIV_W, PUB_SIZE  # noqa: E402
from strategies.registry import builtins  # noqa: E402
from survive_sim.environment import (  # noqa: E402
    OBS_COLOUR,
    OBS_KIND,
    OBS_N,
    OBS_OPTIONS,
    OBS_PRIVATE,
    OBS_PUBLIC,
    RandomAgent,
    StrategyAgent,
    env,
    raw_env,
)

# PettingZoo's advice to every environment that masks its actions in a Dict observation (its
# own chess and connect four are exempted by name); any other warning fails a test
ADVICE = ("Observation is not a NumPy array",
          "Observation space for each agent probably should be gymnasium.spaces.box")

# every expansion flag, on 2 to 6 players: the base game, all of Challenges 1-5 with the Giant
# Squid, the other rule flags and both levers, and Challenge 6 where it is allowed (5-6)
ALL_CHALLENGES = dict(challenges=(1, 2, 3, 4, 5), squid=True)
OTHER_FLAGS = dict(squid=True, squid_only=True, creatures_must_move=True, lagoon_is_sea=False,
                   setup_order=("reverse", "snake"))
CONFIGS = [(p, {}) for p in range(2, 7)] + [(p, ALL_CHALLENGES) for p in range(2, 7)] \
    + [(p, {**OTHER_FLAGS, "tiebreak": "chain" if p < 5 else "shared",
            "komi": (0.5,) + (0,) * (Settings(players=p).seats - 1)}) for p in range(2, 7)] \
    + [(p, dict(challenges=(6,), dolphins=True)) for p in (5, 6)]


def _label(config):
    players, fields = config
    return f"{players}p-" + ("-".join(sorted(fields)) or "base")


def _no_other_warnings(caught):
    other = [str(w.message) for w in caught if not str(w.message).startswith(ADVICE)]
    assert not other, other


@pytest.mark.parametrize("config", CONFIGS, ids=_label)
def test_pettingzoo_api_and_seed_tests_pass(config):
    players, fields = config
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        api_test(env(players=players, **fields), num_cycles=400)
        seed_test(lambda: env(players=players, **fields), num_cycles=400)
    _no_other_warnings(caught)


def _play(e, agents: dict, seed: int | None, game: int | None = None):
    """One game through the environment's own loop; returns the final rewards. With no seed,
    the next game of the same root (a bare ``reset()``)."""
    if seed is None:
        e.reset()
    else:
        e.reset(seed=seed, options=None if game is None else {"game": game})
    rewards = {}
    for agent in e.agent_iter():
        obs, reward, terminated, truncated, info = e.last()
        rewards[agent] = reward
        e.step(None if terminated or truncated else agents[agent](e))
    return rewards


HEURISTIC_RUNGS = sorted(n for n, s in builtins().items() if s.listed and not s.reenters)
REPLAYED = [(2, {}), (4, ALL_CHALLENGES), (5, {**OTHER_FLAGS, "komi": (1, 0, 0, 0.5, 0)}),
            (6, dict(challenges=(6, 3), dolphins=True))]


@pytest.mark.parametrize("rung", HEURISTIC_RUNGS)
def test_a_seat_answering_as_a_rung_replays_its_table_row_exactly(rung):
    """Issue 42's equality: every seat answers what the rung answers; the game is the rung's
    game of the same seed and index, byte for byte, and the rewards are its win shares."""
    for players, fields in REPLAYED:
        e = env(players=players, **fields)
        settings = Settings(players=players, strategies=(rung,), **fields)
        policy = StrategyAgent(rung)
        for game in (0, 3):
            rewards = _play(e, dict.fromkeys(e.possible_agents, policy), seed=42, game=game)
            row = run_records(settings, 42, game, 1)[0]
            assert np.array_equal(e.unwrapped.stepper.record, row), (rung, players, game)
            shares = _table_shares(settings, row)
            assert [rewards[a] for a in e.possible_agents] == pytest.approx(shares)


def _table_shares(settings: Settings, row) -> list[float]:
    from play.layout import R_SEAT0, REC_SEAT
    width = len(REC_SEAT)

    def key(name):
        i = REC_SEAT.index(name)
        return np.array([[sum(row[R_SEAT0 + s * width + i] for s in range(settings.seats)
                              if settings.player_of_seat[s] == p)
                          for p in range(settings.players)]])
    won, _ = decide(key("score"), key("rescued"), key("rescued_value"), key("turns"),
                    rule=settings.tiebreak, equal=3 in settings.challenges,
                    komi=settings.player_komi_halves)
    return list(won[0] / won[0].sum())


def test_a_loop_of_resets_walks_the_games_of_a_table():
    """``reset(seed=s)`` is game 0, each bare ``reset()`` the next game: the random rung's
    answers through the environment give the random rung's table, game for game."""
    e = env(players=3)
    policy = StrategyAgent("random")
    agents = dict.fromkeys(e.possible_agents, policy)
    table = run_records(Settings(players=3), 9, 0, 3)
    e.reset(seed=9)
    for game in range(3):
        if game:
            e.reset()
        assert e.unwrapped.game == game
        for agent in e.agent_iter():
            *_, terminated, truncated, _ = e.last()
            e.step(None if terminated or truncated else agents[agent](e))
        assert np.array_equal(e.unwrapped.stepper.record, table[game])


def test_the_observation_is_the_seats_honest_view():
    """R11: the public table and the agent's own colours' rows, nothing else. Scrambling every
    other cell of the state (tile backs, other hands, other explorers' values) leaves every
    observation unchanged; only the agent asked sees options and a mask."""
    for players in (2, 5):
        e = raw_env(players=players, challenges=(1, 2))
        e.reset(seed=3)
        rng = np.random.default_rng(0)
        policy = StrategyAgent("greedy")
        for step in range(60):
            st = e.stepper
            q = st.question
            for agent in e.possible_agents:
                colours = e._colours[agent]
                obs = e.observe(agent)
                o, mask = obs["observation"], obs["action_mask"]
                assert e.observation_space(agent).contains(obs)
                assert np.array_equal(o[OBS_PUBLIC:OBS_PUBLIC + PUB_SIZE], q.state[:PUB_SIZE])
                for i, c in enumerate(colours):
                    at = OBS_PRIVATE + i * PRIV_W
                    assert np.array_equal(o[at:at + PRIV_W],
                                          q.state[PRIV + c * PRIV_W:PRIV + (c + 1) * PRIV_W])
                asked = q.seat in colours
                assert mask.sum() == (q.n if asked else 0)
                assert o[OBS_KIND] == (q.kind if asked else -1)
                assert o[OBS_COLOUR] == (q.seat if asked else -1)
                if asked:
                    assert o[OBS_N] == q.n
                    assert np.array_equal(o[OBS_OPTIONS:OBS_OPTIONS + 4 * q.n].reshape(-1, 4),
                                          q.options)
                scrambled = q.state.copy()
                keep = np.zeros(scrambled.shape[0], bool)
                keep[:PUB_SIZE] = True
                for c in colours:
                    keep[PRIV + c * PRIV_W:PRIV + (c + 1) * PRIV_W] = True
                scrambled[~keep] = rng.integers(-50, 50, (~keep).sum())
                st.question = dataclasses.replace(q, state=scrambled)
                again = e.observe(agent)
                st.question = q
                assert np.array_equal(again["observation"], o)
            e.step(policy(e))


def test_the_final_rewards_and_infos():
    """Rewards only at the end: each player's tie-split win share, summing to 1; ``infos``
    holds the keys the tie-break reads (score, komi, rescued, value, turns) and the step that
    decided."""
    e = env(players=2, komi=(0, 0, 0, 0.5))
    rewards = _play(e, dict.fromkeys(e.possible_agents, StrategyAgent("careful")), seed=5)
    assert sum(rewards.values()) == pytest.approx(1.0)
    assert set(rewards) == {"seat_0", "seat_1"}
    u = e.unwrapped
    assert u.outcome["decided_by"] in ("score", "rescued", "value", "turns", "shared")
    assert not e.agents                              # every agent stepped out
    e2 = raw_env(players=2, komi=(0, 0, 0, 0.5))
    e2.reset(seed=5)
    policy = StrategyAgent("careful")
    while not e2.terminations[e2.agent_selection]:
        assert all(r == 0 for r in e2.rewards.values())
        e2.step(policy(e2))
    info = e2.infos["seat_1"]
    assert info["komi"] == 0.5 and set(info) >= {"score", "rescued", "rescued_value", "turns",
                                                 "won", "share", "decided_by"}
    assert e2.rewards["seat_1"] == info["share"]


def test_random_agent_plays_legal_games():
    e = env(players=4, challenges=(5,), squid=True)
    agent = RandomAgent(seed=1)
    rewards = _play(e, dict.fromkeys(e.possible_agents, agent), seed=8)
    assert sum(rewards.values()) == pytest.approx(1.0)


@pytest.mark.parametrize("fields, message", [
    (dict(players=7), "players must be one of"),
    (dict(players=4, strategies=("greedy",)), "unknown setting 'strategies'"),
    (dict(players=4, boats=(3, 3, 3, 3, 3)), "boats must be 4 numbers"),
    (dict(players=4, render_mode="human"), "render_mode must be one of"),
])
def test_bad_settings_are_refused_in_one_line(fields, message):
    with pytest.raises(SettingsError, match=message) as e:
        env(**fields)
    assert "\n" not in str(e.value)


def test_bad_actions_seeds_and_games_are_refused():
    e = env(players=4)
    with pytest.raises(Exception, match="reset"):     # PettingZoo's order enforcing
        e.step(0)
    e.reset(seed=1)
    n = int(e.observe(e.agent_selection)["observation"][OBS_N])
    for bad in (n, -1, None, 1.5, True):
        with pytest.raises(ValueError, match=r"option index 0 to"):
            e.step(bad)
    for seed in (-1, 2 ** 63, "7", True):
        with pytest.raises(SettingsError, match="seed must be"):
            e.reset(seed=seed)
    with pytest.raises(SettingsError, match="options\\['game'\\]"):
        e.reset(seed=1, options={"game": -2})
    e.reset(seed=1, options={"game": 4})
    assert e.unwrapped.game == 4


def test_render_says_who_is_asked_what():
    e = raw_env(players=3, render_mode="ansi")
    e.reset(seed=2)
    assert "to answer pick_explorer among" in e.render()
    assert e.state().shape == e.stepper.question.state.shape


def test_a_search_rung_cannot_answer_a_stepped_game():
    with pytest.raises(ValueError, match="re-entering"):
        StrategyAgent("search")


def test_the_api_builds_the_environment():
    import survive_sim as ss
    e = ss.env(players=5, challenges=(6,))
    e.reset(seed=0)
    assert e.possible_agents == [f"seat_{p}" for p in range(5)]


@pytest.mark.slow
def test_a_masked_random_agent_wins_as_the_random_rung_does():
    """The example agent of docs/env.md: uniform over the mask, so its win shares match the
    built-in ``random`` rung's (per seat, 400 games each, |z| < 3.5: a false alarm about one
    run in 2,000 per seat)."""
    games = 400
    e = env(players=4)
    agent = RandomAgent(seed=11)
    agents = dict.fromkeys(e.possible_agents, agent)
    won = np.zeros(4)
    for g in range(games):
        rewards = _play(e, agents, seed=123 if g == 0 else None)
        won += [rewards[a] for a in e.possible_agents]
    settings = Settings(players=4)
    rows = run_records(settings, 7, 0, games)
    table = np.array([_table_shares(settings, r) for r in rows]).sum(axis=0)
    p = (won + table) / (2 * games)
    z = (won - table) / games / np.sqrt(2 * p * (1 - p) / games)
    assert np.all(np.abs(z) < 3.5), (won / games, table / games, z)


def test_the_docs_example_runs(capsys):
    """docs/env.md's twenty-line loop, as written."""
    import re
    from pathlib import Path
    text = (Path(__file__).resolve().parents[1] / "docs" / "env.md").read_text()
    code = re.search(r"## A game in twenty lines\n\n```python\n(.*?)```", text, re.S).group(1)
    assert len(code.strip().splitlines()) <= 20
    exec(compile(code, "docs/env.md", "exec"), {})
    out = capsys.readouterr().out
    assert out.count("win share") == 5


def test_bench_env_prints_a_line_per_player_count():
    """``survive-sim bench --env``: the engine, the stepper and the environment on the same
    games; its refusals are one line with exit code 2."""
    from support.cli_harness import invoke
    r = invoke("bench", "--env", "--players", "2,5", "--games", 1, "--repeat", 1)
    assert r.exit_code == 0, r.output
    lines = r.stdout.splitlines()
    assert lines[0].startswith("machine: ") and "environment" in lines[2]
    assert [line.split()[0] for line in lines[3:]] == ["2", "5"]
    bad = invoke("bench", "--env", "--challenge", "1")
    assert bad.exit_code == 2 and "leave out --challenge" in bad.output
    assert "Traceback" not in bad.output
    import survive_sim as ss
    table = ss.bench_env([3], games=1, repeat=1)
    assert list(table["way"]) == ["engine", "stepper", "env"]
    assert (table["steps"] > 100).all() and (table["best"] >= table["slowest"]).all()
