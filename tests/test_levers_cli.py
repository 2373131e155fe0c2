"""The compensation levers (RULES.md C1 komi, C2 setup order) from the outside: the command
line, a sweep's grid and run identity, the Python API, and a run folder read back with the
bonus counted."""
from __future__ import annotations

import pytest
from support.cli_harness import assert_usage_error, invoke

import survive_sim as ss
from experiments.sweeps import spec
from play.settings import Settings, SettingsError

KOMI5 = "0,0,0.5,1,1.5"


def test_simulate_prints_the_levers_in_its_header_and_counts_the_bonus():
    r = invoke("simulate", "--players", 5, "--strategies", "greedy", "--games", 60, "--komi",
               KOMI5, "--setup-order", "explorers=snake")
    assert r.exit_code == 0, r.output
    assert ("boats 1,1,2,2,2, komi 0,0,0.5,1,1.5, setup order explorers snake, boats forward, "
            "challenges none") in r.output
    plain = invoke("simulate", "--players", 5, "--strategies", "greedy", "--games", 60)
    assert "komi" not in plain.output and "setup order" not in plain.output


@pytest.mark.parametrize("args,needle", [
    (("--komi", "0,1"), "komi must be 4 bonuses"),
    (("--komi", "0,0,0,0.3"), "whole or half"),
    (("--setup-order", "sideways"), "accepted: forward, reverse, snake"),
    (("--setup-order", "explorers=snake,explorers=reverse"), "accepted: forward, reverse"),
])
def test_bad_lever_options_are_one_line_and_exit_2(args, needle):
    r = invoke("simulate", "--players", 4, "--games", 2, *args)
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)


def test_sweep_grid_options_are_checked_by_the_spec(tmp_path):
    r = invoke("sweep", "--out", tmp_path / "run", "--players", 4, "--games", 2, "--komi",
               "0,0,0.25,1")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, "grid.komi: each value must be")
    assert not (tmp_path / "run").exists()
    r = invoke("sweep", "--out", tmp_path / "run", "--players", 4, "--games", 2,
               "--setup-order", "up")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, "grid.setup_order: each value must be")


def test_a_grid_of_levers_labels_its_points_and_keeps_the_rules_identity():
    base = spec.build({"name": "x", "seed": 1, "games": 10, "grid": {"players": [5]}})
    grid = spec.build({"name": "x", "seed": 1, "games": 10,
                       "grid": {"players": [5], "komi": ["none", [0, 0, 0.5, 1, 1.5]],
                                "setup_order": ["forward", "explorers=reverse,boats=snake"]}})
    assert [p.label for p in grid.points] == [
        "p5-boats_rules-base-tb_chain-random",
        "p5-boats_rules-base-tb_chain-random-order_reverse.snake",
        "p5-boats_rules-base-tb_chain-random-komi_0_0_0.5_1_1.5",
        "p5-boats_rules-base-tb_chain-random-komi_0_0_0.5_1_1.5-order_reverse.snake"]
    # the rules' point is the same point, with the same identity, as before the levers
    assert grid.identity()["points"][0] == base.identity()["points"][0]
    assert "komi" not in base.identity()["points"][0]["settings"]
    assert grid.points[3].settings.komi == (0, 0, 0.5, 1, 1.5)
    assert grid.points[3].settings.setup_order == ("reverse", "snake")
    with pytest.raises(spec.SpecError, match=r"grid: cannot play .*komi must be 5 bonuses"):
        spec.build({"name": "x", "seed": 1, "games": 10,
                    "grid": {"players": [5], "komi": [[0, 0, 0.5]]}, "skip_invalid": False})


def test_the_api_reads_the_levers_in_the_cli_spelling():
    s = ss.settings(5, "greedy", komi=KOMI5, setup_order="boats=snake")
    assert s == Settings(players=5, strategies=("greedy",), komi=(0, 0, 0.5, 1, 1.5),
                         setup_order=("forward", "snake"))
    with pytest.raises(SettingsError, match="whole or half"):
        ss.settings(5, komi="0,0,0,0,0.2")


def test_a_run_folder_counts_the_bonus_and_pairs_it_with_the_rules(tmp_path):
    """A sweep over komi: the stats read the bonus from the chunk files; a komi-blind
    strategy plays the very same games, so the pair differs in the winners only."""
    out = tmp_path / "run"
    r = invoke("sweep", "--out", out, "--players", 5, "--strategies", "greedy", "--games", 150,
               "--komi", "none", "--komi", KOMI5, "--no-progress")
    assert r.exit_code == 0, r.output
    r = invoke("stats", out)
    assert r.exit_code == 0, r.output
    text = r.output
    assert "[komi differs; n=150 matched games]" in text
    assert "(identical games)" not in text


def test_a_tournament_plays_and_records_the_levers(tmp_path):
    import json
    out = tmp_path / "t"
    r = invoke("tournament", "--strategies", "greedy,careful", "--players", 4, "--games", 100,
               "--batch", 100, "--komi", "0,0,0,1.5", "--setup-order", "snake", "--out", out,
               "--no-progress")
    assert r.exit_code == 0, r.output
    rules = json.loads((out / "tournament.json").read_text())["tournament"]["rules"]
    assert rules["komi"] == [0, 0, 0, 1.5] and rules["setup_order"] == ["snake", "snake"]
