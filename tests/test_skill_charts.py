"""The skill trace's charts (reports/charts/skill.py), its report section (reports/sections.py)
and its strength data (experiments/skill_strength.csv, examples/skill_strength.py).

The run is made by the real ``run_sweep`` with made-up records in place of the engine's (no
game is played, nothing compiles), seat 1 rescuing more the higher the level, so the charts
have a trend to draw: self-play at eight levels at 4 players (rules) and 5 (rules, flat).
"""
from __future__ import annotations

import importlib.util
import json
import tomllib
from importlib.resources import files
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

import play.layout as LY
import play.simulate as PS
from experiments.sweeps import spec as specs
from experiments.sweeps.sweep import run_sweep
from experiments.verdicts.analysis import analyse
from reports import charts, sections
from reports.charts import skill
from reports.render import render

pytestmark = pytest.mark.engine_free
ROOT = Path(__file__).resolve().parents[1]
LEVELS = ["greedy", "racer", "tuned", "lookahead", "expert", "search256:budget=16",
          "search256:budget=32", "search256:budget=64"]
NAMES = ["greedy", "racer", "tuned", "lookahead", "expert", "search 16", "search 32",
         "search 64"]
GAMES = 60


def _records(settings, seed, first, count):
    """Per game: every seat rescues 0-5 explorers, seat 1 one more with a chance that grows
    with the level (a made-up trend)."""
    rng = np.random.default_rng(1000 * LEVELS.index(settings.strategies[0]) + first
                                + 7 * settings.players)
    rows = np.zeros((count, LY.REC_W), np.int32)
    game = dict(zip(LY.REC_GAME, range(len(LY.REC_GAME))))
    rows[:, game["players"]] = settings.players
    rows[:, game["seats"]] = settings.seats
    rows[:, game["end_reason"]] = 1
    width = len(PS.SEAT_COLUMNS)
    values = np.cumsum([0, 1, 1, 1, 2, 2, 3, 3, 4, 5, 6])
    level = LEVELS.index(settings.strategies[0])
    for s in range(settings.seats):
        at = LY.R_SEAT0 + s * width
        rescued = rng.integers(0, 6, count) + (s == 0) * rng.binomial(1, 0.08 * level, count)
        for col, v in (("rescued", rescued), ("rescued_value", values[rescued]),
                       ("score", values[rescued]), ("lost", 10 - rescued),
                       ("lost_shark", 10 - rescued), ("turns", rng.integers(5, 30, count))):
            rows[:, at + PS.SEAT_COLUMNS.index(col)] = v
    turns = [LY.R_SEAT0 + s * width + PS.SEAT_COLUMNS.index("turns")
             for s in range(settings.seats)]
    rows[:, game["turns"]] = rows[:, turns].sum(axis=1)
    return rows


def fake_run(out: Path, levels=LEVELS, name: str = "skill-trace", games: int = GAMES) -> Path:
    grid = [{"players": [5], "strategies": list(levels), "boats": ["rules", "flat"],
             "challenges": [[]], "tiebreak": ["chain"]},
            {"players": [4], "strategies": list(levels), "boats": ["rules"],
             "challenges": [[]], "tiebreak": ["shared"]}]
    real = PS.run_records
    PS.run_records = _records
    try:
        run_sweep(specs.build({"name": name, "seed": 3, "games": games, "chunk": games // 2,
                               "grid": grid}), out)
    finally:
        PS.run_records = real
    return out


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    return analyse(fake_run(tmp_path_factory.mktemp("skill") / "run"), workers=1)


def strength_rows(levels=LEVELS, counts=(4, 5)) -> pd.DataFrame:
    rows = []
    for p in counts:
        for k, s in enumerate(levels):
            share = 0.5 if s == "expert" else 0.3 + 0.04 * k
            half = 0.0 if s == "expert" else 0.02
            rows.append({"players": p, "level": skill.level_name(s), "strategy": s,
                         "share": share, "low": share - half, "high": share + half,
                         "indices": 0 if s == "expert" else 100, "source": "test"})
    return pd.DataFrame(rows)


# ---------------------------------------------------------------------------- charts
def test_levels_are_named_for_people():
    assert [skill.level_name(s) for s in LEVELS] == NAMES
    assert skill.level_name("search64") == "search 64"
    assert skill.level_name("greedy:risk=2") == "greedy:risk=2"


def test_the_trace_draws_every_seat_and_seat_1s_excess_from_the_tidy_rows(run, tmp_path):
    fig, table = charts.skill_trace(run, allocation="rules")
    tidy = run.tidy()
    shares = table[table["metric"] == "win_share"]
    assert set(shares["players"]) == {4, 5}
    assert list(dict.fromkeys(shares["level"])) == NAMES             # the study's order
    merged = shares.merge(tidy[tidy["metric"] == "win_share"], on=["setting", "seat"],
                          suffixes=("", "_tidy"))
    assert len(merged) == len(shares) == 8 * (4 + 5)
    for c in ("value", "low", "high", "n"):
        np.testing.assert_allclose(merged[c].astype(float), merged[f"{c}_tidy"].astype(float))
    excess = table[table["metric"] == "seat1_excess"].set_index("setting")
    first = shares[shares["seat"] == 0].set_index("setting")
    for c in ("value", "low", "high"):
        np.testing.assert_allclose(excess[c], first[c] - 1 / first["players"])
    caption = charts.caption_of(fig)
    assert f"n = {GAMES} games per point" in caption and "For these bots only" in caption
    assert "interval" in caption
    png, _ = charts.save(fig, tmp_path / "trace")
    assert png.stat().st_size > 10_000


def test_the_strength_chart_puts_each_level_at_its_measured_strength(run, tmp_path):
    fig, table = charts.skill_strength(run, strength=strength_rows())
    assert len(table) == 8 * 3                             # 8 levels x (4 rules, 5 x 2)
    greedy = table[(table["strategy"] == "greedy") & (table["players"] == 5)]
    assert greedy["strength"].tolist() == [0.3, 0.3]
    assert greedy["strength_low"].iloc[0] == pytest.approx(0.28)
    assert "left out" not in charts.caption_of(fig)
    charts.save(fig, tmp_path / "strength")


def test_levels_missing_from_the_strength_table_are_left_out_and_named(run, tmp_path):
    partial = strength_rows()
    partial = partial[~((partial["strategy"] == "search256:budget=64")
                        & (partial["players"] == 5))]
    partial = partial[partial["players"] != 4]
    fig, table = charts.skill_strength(run, strength=partial)
    assert set(table["players"]) == {5}
    assert "search256:budget=64" not in set(table["strategy"])
    caption = charts.caption_of(fig)
    assert "left out: every level at 4 players; search 64 at 5 players" in caption
    with pytest.raises(ValueError, match="none of the run's levels"):
        charts.skill_strength(run, strength=strength_rows(counts=(6,)))
    with pytest.raises(ValueError, match="no column 'share'"):
        charts.skill_strength(run, strength=strength_rows().drop(columns="share"))


# ---------------------------------------------------------------------------- the section
def test_the_section_is_drawn_for_a_skill_trace_and_not_for_a_list_of_styles(run):
    meta = run.meta
    jobs = sections.skill(meta, "skill-trace")
    assert [j.name for j in jobs] == ["skill_trace_rules", "skill_trace_flat", "skill_strength"]
    assert [j.name for j in sections.skill(meta, "mine", {"S5": {}})] == \
        [j.name for j in jobs]
    assert sections.skill(meta, "five-six") == []          # styles, not a skill order
    text = " ".join(sections.skill_text(meta, run.tidy(), "skill-trace"))
    assert f"n = {GAMES} games per level" in text and "For these bots only" in text
    assert ", ".join(NAMES) in text
    drawn = render(jobs, run)
    assert [f.name for f in drawn] == [j.name for j in jobs]   # the packaged strength csv


def test_two_levels_are_no_trace(tmp_path):
    a = analyse(fake_run(tmp_path / "two", levels=["greedy", "racer"], games=20), workers=1)
    assert sections.skill(a.meta, "skill-trace") == []


@pytest.mark.slow
def test_the_report_of_a_skill_trace_has_the_section(tmp_path, monkeypatch):
    import reports.report as R
    monkeypatch.setattr(R, "_games_section", lambda *a, **k: None)    # no engine replays
    folder = fake_run(tmp_path / "run", levels=["greedy", "racer", "tuned"], games=20)
    R.build_report(folder, tmp_path / "report", workers=1)
    md = (tmp_path / "report" / "index.md").read_text(encoding="utf-8")
    assert "## Seat balance across skill levels" in md
    for name in ("skill_trace_rules", "skill_trace_flat", "skill_strength"):
        assert (tmp_path / "report" / "figures" / f"{name}.png").exists()
        assert f"tables/{name}.csv" in md


# ---------------------------------------------------------------------------- the data
def _study():
    grid = tomllib.loads((ROOT / "experiments" / "skill_trace.toml").read_text())["grid"]
    return (sorted({p for g in grid for p in g["players"]}),
            list(dict.fromkeys(s for g in grid for s in g["strategies"])))


def test_the_strength_csv_has_every_level_of_the_study():
    players, levels = _study()
    t = skill.strength_table()                 # the packaged file
    for p in players:
        mine = t[t["players"] == p]
        assert list(mine["strategy"]) == levels, p
        assert list(mine["level"]) == [skill.level_name(s) for s in levels]
    assert ((t["low"] <= t["share"]) & (t["share"] <= t["high"])).all()
    assert t["share"].between(0, 1).all()
    ref = t[t["strategy"] == "expert"]
    assert (ref["share"] == 0.5).all() and (ref["indices"] == 0).all()
    assert (t.loc[t["strategy"] != "expert", "indices"] >= 1).all()
    assert t["source"].notna().all()


def test_the_strength_csv_is_package_data():
    assert (files("experiments") / "skill_strength.csv").is_file()
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert "skill_strength.csv" in data["tool"]["setuptools"]["package-data"]["experiments"]


def _example():
    spec = importlib.util.spec_from_file_location("skill_strength",
                                                  ROOT / "examples" / "skill_strength.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_example_reads_finished_tournaments_into_the_csv(tmp_path):
    ex = _example()
    players, levels = ex.study_levels()
    assert (players, levels) == _study()
    folder = ex.folder_of(tmp_path, 4, "search256:budget=16")
    folder.mkdir()
    pd.DataFrame([{"strategy": "expert", "opponent": "search256:budget=16", "games": 8,
                   "above": 3, "tied": 0, "share": 0.4, "low": 0.2, "high": 0.6,
                   "indices": 4},
                  {"strategy": "search256:budget=16", "opponent": "expert", "games": 8,
                   "above": 5, "tied": 0, "share": 0.6, "low": 0.4, "high": 0.8,
                   "indices": 4}]).to_csv(folder / "head_to_head.csv", index=False)
    (folder / "tournament.json").write_text(json.dumps(
        {"timing": {"seconds": 12.5}, "versions": {"survive-sim": "0.1.0"}}))
    t = ex.strength(tmp_path, [4], ["greedy", "expert", "search256:budget=16"])
    assert list(t["level"]) == ["expert", "search 16"]      # greedy's is not there
    row = t.iloc[1]
    assert (row["share"], row["low"], row["high"], row["indices"]) == (0.6, 0.4, 0.8, 4)
    assert list(t.columns) == ex.COLUMNS
