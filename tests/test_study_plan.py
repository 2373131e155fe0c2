"""``survive-sim study NAME --plan`` and ``survive_sim.runs.study_plan``: a study priced before
it starts, nothing played or written. The timing is replaced by a fake (``plan.play_timed``)
in all but the last two tests, so the numbers are exact and no engine loads: a search game
costs 0.1 s per unit of budget, a heuristic game 1 ms, on one thread (``--threads 1``). The
last two time real games of a small grid (greedy; greedy and a search at budget 2, slow)."""
from __future__ import annotations

import pytest
from support.cli_harness import assert_usage_error, invoke, listing

from experiments.sweeps import plan
from experiments.sweeps.spec import build
from survive_sim.checks import ArgumentError
from survive_sim.runs import study_plan

HEURISTIC = 0.001               # fake seconds per heuristic game
PER_BUDGET = 0.1                # fake seconds per game per unit of a search's budget
SEARCH_SETTINGS = 5             # per budget: 5 and 6 players x rules, flat boats; 4 x rules
BUDGETS = (16, 32, 64)


def _budget(settings) -> float:
    return max((b for _, b, _ in plan._budgets(settings)), default=0)


@pytest.fixture
def timed(monkeypatch):
    """The fake timing: every game a plan plays, as ``(players, strategies, count)``."""
    calls = []

    def fake(settings, seed, count):
        calls.append((settings.players, settings.strategies, count))
        budget = _budget(settings)
        return count * (PER_BUDGET * budget if budget else HEURISTIC)
    monkeypatch.setattr(plan, "play_timed", fake)
    return calls


def _search_seconds(games: int) -> float:
    return games * SEARCH_SETTINGS * sum(PER_BUDGET * b for b in BUDGETS)


@pytest.mark.engine_free
def test_the_plan_prints_the_cost_and_plays_nothing(timed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    r = invoke("study", "skill-trace", "--games", 2, "--plan", "--threads", 1, "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert listing(tmp_path) == []                  # no studies/ folder, no run
    text = r.stdout
    assert "40 settings, 40 distinct games" in text and "80 games in all" in text
    assert "2 games per setting" in text and "at most" not in text
    # 112 s of search (5 settings x 2 games x 1.6 + 3.2 + 6.4 s) and 50 ms of heuristics
    assert "estimated cost: 0.03 core-hours (1 min 52 s of one core)" in text
    assert "this machine (1 core): 1 min 52 s" in text
    for k, wall in ((1, "1 min 52 s"), (2, "56 s"), (8, "14 s"), (32, "4 s")):
        assert f" {k} core{'s' * (k != 1)}: {wall}" in text
    assert "work divided evenly over cores like this machine's" in text
    assert "one more doubling of the search budget: +0.04 core-hours" in text
    assert "search256:budget=64 -> search256:budget=128: 5 settings x 2 games" in text
    assert "linear in the budget" in text
    assert "ONE game, at its own budget on one engine thread, of each of the 9 searching" in text
    row = next(x for x in text.splitlines() if x.startswith("p6-boats_flat-base-tb_chain-search"
                                                            "256:budget=64 "))
    assert row.split()[-4:] == ["6.4", "0.00", "one", "game"]
    # a search setting is timed on exactly one game at its own budget (besides one at budget
    # 1 that compiles its seat function, untimed); the 9 kinds once each
    searched = [(p, s) for p, s, n in timed
                if any("budget=" in x and not x.endswith(":budget=1") for x in s)]
    assert len(searched) == len(set(searched)) == 9
    assert all(n == 1 for p, s, n in timed if any(x.startswith("search") for x in s))


@pytest.mark.engine_free
def test_study_plan_returns_the_numbers(timed, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    p = study_plan("skill-trace", games=2, threads=1)
    assert listing(tmp_path) == []
    assert (p.settings, len(p.rows), p.games, p.games_total, p.threads) == (40, 40, 2, 80, 1)
    assert not p.capped
    heuristic = 2 * 25 * HEURISTIC
    assert p.core_hours == pytest.approx((_search_seconds(2) + heuristic) / 3600)
    assert p.wall_hours() == pytest.approx(p.core_hours)
    assert p.wall_hours(8) == pytest.approx(p.core_hours / 8)
    assert {r.how for r in p.rows if "search" in r.strategies} == {"one game"}
    assert {r.how for r in p.rows if "search" not in r.strategies} == {"sample"}
    assert [(d.strategy, d.next, d.settings, d.games) for d in p.doubling] == \
        [("search256:budget=64", "search256:budget=128", 5, 2)]
    assert p.doubling_core_hours == pytest.approx(5 * 2 * 2 * PER_BUDGET * 64 / 3600)
    assert p.text().startswith("study skill-trace (")


@pytest.mark.engine_free
def test_until_settled_is_planned_at_the_cap(timed):
    p = study_plan("skill-trace", until_settled=True, max_games=4000, threads=1)
    assert p.capped and p.games == 4000 and p.games_total == 160_000
    assert p.core_hours == pytest.approx((_search_seconds(4000) + 4000 * 25 * HEURISTIC) / 3600)
    r = invoke("study", "skill-trace", "--until-settled", "--max-games", 4000, "--plan",
               "--threads", 1, "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "4,000 games per setting at most (the --until-settled cap" in r.stdout


@pytest.mark.engine_free
@pytest.mark.parametrize("args, needle", [
    (["nope", "--plan"], "unknown study 'nope'"),
    (["--plan"], "give a study name"),
    (["skill-trace", "--plan", "--max-games", 8], "--max-games needs --until-settled"),
    (["skill-trace", "--plan", "--scheduler", "local"], "--plan plays nothing: --scheduler"),
    (["skill-trace", "--plan", "--games", 0], "--games"),
    (["skill-trace", "--plan", "--threads", 0], "--threads"),
    (["fair-boats", "--plan", "--games", 2], "--games does not apply"),
])
def test_bad_input_is_one_line(timed, args, needle):
    r = invoke("study", *args, "--no-progress")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert not timed                                    # refused before any timing


@pytest.mark.engine_free
def test_the_api_refuses_in_one_line(timed):
    with pytest.raises(ArgumentError, match="fairest_plan"):
        study_plan("fair-boats")
    with pytest.raises(ArgumentError, match="unknown study"):
        study_plan("nope")
    with pytest.raises(ArgumentError, match="threads"):
        study_plan("skill-trace", threads=0)
    with pytest.raises(ValueError, match="max_games needs until_settled"):
        study_plan("skill-trace", max_games=10)
    assert not timed


@pytest.mark.engine_free
def test_a_search_study_prints_its_own_plan(monkeypatch):
    """``fair-boats`` is a search of boat allocations: ``fairest --plan``'s plan."""
    import survive_sim.fair
    monkeypatch.setattr(survive_sim.fair, "describe",
                        lambda spec, timed, threads: f"search plan of {spec.name}")
    r = invoke("study", "fair-boats", "--plan", "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.strip() == "search plan of fair-boats"


def test_heuristic_settings_are_timed_for_real_on_a_sample():
    """The engine for real, heuristics only (a second): one core's seconds per game."""
    spec = build({"name": "tiny", "seed": 3, "games": 10,
                  "grid": {"players": [4], "strategies": ["greedy"]}})
    p = plan.study_cost(spec, threads=1)
    assert [r.how for r in p.rows] == ["sample"] and 1e-5 < p.rows[0].seconds < 1
    assert p.doubling == [] and "none (no seat searches)" in p.text()


@pytest.mark.slow
def test_a_search_setting_is_timed_on_one_real_game(monkeypatch):
    """The engine for real: greedy and a search at budget 2 (under a second a game, but each
    process compiles the search's seat function when it first plays, 10-40 s: hence slow).
    The search setting is timed on one game, after one at budget 1 that compiles."""
    real, calls = plan.play_timed, []

    def spy(settings, seed, count):
        calls.append((set(settings.strategies), count))
        return real(settings, seed, count)
    monkeypatch.setattr(plan, "play_timed", spy)
    spec = build({"name": "tiny", "seed": 3, "games": 10,
                  "grid": {"players": [4], "strategies": ["greedy", "search256:budget=2"]}})
    p = plan.study_cost(spec, threads=1)
    assert [r.how for r in p.rows] == ["sample", "one game"]
    assert all(r.seconds > 0 for r in p.rows)
    assert p.rows[1].seconds > 10 * p.rows[0].seconds    # a search game is dearer
    assert [c for c in calls if c[0] == {"search256:budget=2"}] == [({"search256:budget=2"}, 1)]
    assert ({"search256:budget=1"}, 1) in calls
    assert [(d.strategy, d.next) for d in p.doubling] == \
        [("search256:budget=2", "search256:budget=4")]
    assert p.doubling_core_hours == pytest.approx(2 * p.rows[1].core_hours)
