"""``survive-sim fairest`` and ``study fair-boats`` as a user meets them: a tiny search end to
end (tables, report, conclusions), the plan, one line for every bad input, and a search killed
with SIGKILL that resumes to the tables of an uninterrupted one. Real processes, few games."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time

import pandas as pd
import pytest
from support.cli_harness import ROOT, run_process

import survive_sim as ss

TINY = ["--players", "3", "--styles", "random,random+greedy", "--screen", "20",
        "--max-games", "40", "--confirm", "1", "--confirm-games", "30", "--seed", "4"]
TABLES = ("fairest.csv", "confirmation.csv", "conclusions.csv")


def one_line(r, *needles):
    assert r.returncode == 2, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for n in needles:
        assert n in lines[0], lines[0]


@pytest.fixture(scope="module")
def tiny(tmp_path_factory):
    out = tmp_path_factory.mktemp("fair") / "search"
    r = run_process("fairest", *TINY, "--out", out, "--no-progress")
    assert r.returncode == 0, r.stderr
    return out, r


def test_a_search_end_to_end(tiny):
    out, r = tiny
    for name in TABLES + ("_search.json",):
        assert (out / name).is_file(), name
    page = out / "report" / "index.html"
    assert page.is_file() and (out / "report" / "verdicts.csv").is_file()
    assert (out / "report" / "figures" / "measure-p3.png").is_file()
    assert (out / "report" / "figures" / "confirmation-p3.png").is_file()
    assert "conclusions" in r.stdout and "3 players, random self-play" in r.stdout
    table = pd.read_csv(out / "fairest.csv")
    assert set(table["style"]) == {"random self-play",
                                   "mixed, every seat in turn: random, greedy"}
    assert (table["n"] > 0).all() and table["measure_low"].le(table["measure"]).all()
    verdicts = pd.read_csv(out / "report" / "verdicts.csv")
    assert set(verdicts["claim"]) == {"B3"}
    assert set(verdicts["verdict"]) <= {"supported", "refuted", "inconclusive"}
    html = page.read_text()
    assert "The fairest boat allocation" in html and "Confirmation on fresh games" in html


def test_run_again_plays_nothing_and_the_api_agrees(tiny):
    out, _ = tiny
    before = {n: (out / n).read_text() for n in TABLES}
    r = run_process("fairest", *TINY, "--out", out, "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "0 games played" in r.stdout
    assert {n: (out / n).read_text() for n in TABLES} == before
    styles = ["random", {"rotate": ["random", "greedy"]}]
    result = ss.fairest(None, out, players=[3], styles=styles, screen=20, max_games=40,
                        confirm=1, confirm_games=30, seed=4)
    assert result.search.games_played == 0
    assert result.table.to_csv(index=False) == before["fairest.csv"]
    assert result.conclusions.to_csv(index=False) == before["conclusions.csv"]


def test_plan_plays_nothing(tmp_path):
    r = run_process("fairest", *TINY, "--plan", "--out", tmp_path / "p")
    assert r.returncode == 0, r.stderr
    assert "random self-play" in r.stdout and "games at least" in r.stdout
    assert not (tmp_path / "p").exists()


@pytest.mark.parametrize("args, needles", [
    (["--players", "7"], ["--players", "2, 3, 4, 5, 6"]),
    (["--styles", "nosuch"], ["nosuch"]),
    (["--space", "some"], ["monotone", "all"]),
    (["--tolerance", "0.7"], ["--tolerance"]),
    (["--screen", "40", "--max-games", "20"], ["at least screen"]),
    (["--budget", "3"], ["cannot screen"]),
    (["--settle", "10", "--confirm-games", "30"], ["at least confirm_games"]),
    (["--spec", "nosuch.toml"], ["nosuch.toml"]),
    (["--spec", "five-six"], ["a sweep", "not a search"]),
])
def test_bad_input_is_one_line(args, needles, tmp_path):
    r = run_process("fairest", *args, "--out", tmp_path / "x", "--no-progress")
    one_line(r, *needles)
    assert not (tmp_path / "x").exists()


@pytest.mark.slow
def test_bad_folders_are_one_line(tiny, tmp_path):
    out, _ = tiny
    r = run_process("fairest", *TINY, "--tolerance", "0.03", "--out", out, "--no-progress")
    one_line(r, "other tolerance", "--force-new")
    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "notes.txt").write_text("mine")
    r = run_process("fairest", *TINY, "--out", mine, "--no-progress")
    one_line(r, "not a search's")
    assert [p.name for p in mine.iterdir()] == ["notes.txt"]
    (tmp_path / "file").write_text("x")
    one_line(run_process("fairest", *TINY, "--out", tmp_path / "file"), "is a file")
    r = run_process("study", "fair-boats", "--games", "100", "--out", tmp_path / "s")
    one_line(r, "--games", "does not apply")


def test_study_list_names_the_search():
    r = run_process("study", "--list")
    assert r.returncode == 0
    line = [x for x in r.stdout.splitlines() if x.startswith("fair-boats")][0]
    assert "claim B3" in line and "expert self-play" in line


@pytest.mark.slow
def test_sigkill_then_resume_equals_an_uninterrupted_search(tmp_path):
    args = ["fairest", "--players", "3", "--styles", "greedy", "--screen", "200",
            "--max-games", "1600", "--confirm", "1", "--confirm-games", "600", "--seed", "9",
            "--no-progress"]
    whole = run_process(*args, "--out", tmp_path / "whole")
    assert whole.returncode == 0, whole.stderr
    cut = tmp_path / "cut"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen([sys.executable, "-m", "survive_sim.cli", *args, "--out", str(cut)],
                         cwd=ROOT, env=env, stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    state = cut / "state" / "race-p3-greedy.json"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline and p.poll() is None:
        try:
            doc = json.loads(state.read_text())
            if any(t["n"] for t in doc["tallies"].values()):
                break
        except (OSError, ValueError, KeyError):
            pass
        time.sleep(0.05)
    p.send_signal(signal.SIGKILL)
    p.wait()
    assert not (cut / "fairest.csv").exists(), "the search ended before the kill"
    again = run_process(*args, "--out", cut)
    assert again.returncode == 0, again.stderr
    assert "read back" in again.stdout
    for name in TABLES:
        assert (cut / name).read_text() == (tmp_path / "whole" / name).read_text(), name
