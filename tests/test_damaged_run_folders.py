"""Run folders and sweeps: every bad input or damaged folder is one line on stderr, exit code 2,
no traceback, and nothing the user wrote is touched or left half-written. Each case runs as a
user would, in a real ``python -m survive_sim.cli`` process; the games are tiny and the run they
start from is made once for the module."""
from __future__ import annotations

import json
import os
import shutil
import time
from pathlib import Path

import pandas as pd
import pytest
from support.cli_harness import listing, run_process

from experiments.store import runs

LABELS = ("p4-boats_rules-base-tb_shared-random", "p4-boats_rules-base-tb_chain-random")
GRID = ["--players", "4", "--strategies", "random", "--tiebreak", "shared,chain",
        "--games", "20", "--chunk", "10", "--no-progress"]
USER_FILES = {"my.cleaned.parquet": b"the user's own cleaned table",
              "notes.txt": b"my notes",
              "other.c000001.parquet": b"named like a chunk, but of no setting of the run"}


def one_line(r, *needles, code=2):
    """The process failed with exactly one line on stderr naming every needle."""
    assert r.returncode == code, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def tree(path: Path) -> dict[str, bytes]:
    """Every file under ``path`` (hidden ones too) with its bytes."""
    return {str(p.relative_to(path)): p.read_bytes() for p in sorted(path.rglob("*"))
            if p.is_file()}


def seeds_of(run: Path) -> set[int]:
    files, _ = runs.finished_chunks(run)
    return {int(s) for paths in files.values() for s in pd.read_parquet(paths)["seed"].unique()}


@pytest.fixture(scope="module")
def made(tmp_path_factory) -> Path:
    """A finished run of two settings (shared, chain: the help's `shared,chain`), 2 chunks
    each."""
    out = tmp_path_factory.mktemp("made") / "run"
    r = run_process("sweep", *GRID, "--seed", 1, "--out", out)
    assert r.returncode == 0, r.stderr
    assert sorted(n for n in listing(out) if n.endswith(".parquet")) == sorted(
        runs.chunk_name(label, k) for label in LABELS for k in (0, 1))
    return out


@pytest.fixture
def run(made, tmp_path) -> Path:
    out = tmp_path / "run"
    shutil.copytree(made, out)
    return out


def add_user_files(run: Path) -> None:
    for name, data in USER_FILES.items():
        (run / name).write_bytes(data)


def assert_user_files(run: Path) -> None:
    for name, data in USER_FILES.items():
        assert (run / name).read_bytes() == data, name


# ------------------------------------------------------------------------------ 1, 9
def test_force_new_removes_only_what_a_sweep_wrote(run):
    add_user_files(run)
    stale = run / f".{LABELS[0]}.c000000.parquet.k2j4h6g8.tmp"      # a kill -9's leftover
    stale.write_bytes(b"half a chunk")
    r = run_process("sweep", *GRID, "--seed", 2, "--force-new", "--out", run)
    assert r.returncode == 0, r.stderr
    assert_user_files(run)
    assert not stale.exists() and not (run / ".lock").exists()
    assert json.loads((run / "_manifest.json").read_text())["identity"]["seed"] == 2
    assert seeds_of(run) == {2}
    assert sorted(listing(run)) == sorted(
        ["_manifest.json", *USER_FILES, *(runs.chunk_name(label, k) for label in LABELS
                                          for k in (0, 1))])


# ------------------------------------------------------------------------------ 2
def test_force_new_starts_over_a_run_whose_manifest_is_damaged(run):
    add_user_files(run)
    (run / "_manifest.json").write_text("{not json")
    one_line(run_process("sweep", *GRID, "--seed", 1, "--out", run),
             "_manifest.json", "not valid JSON", "--force-new")
    r = run_process("sweep", *GRID, "--seed", 1, "--force-new", "--out", run)
    assert r.returncode == 0, r.stderr
    assert_user_files(run)
    assert runs.RunFolder(run).read_manifest()["identity"]["seed"] == 1
    assert sum(h for h, _ in runs.finished_chunks(run)[1].values()) == 40


# ------------------------------------------------------------------------------ 3
MANIFESTS = {
    "list": ("[1, 2]", "a JSON list, not an object"),
    "null": ("null", "a JSON null, not an object"),
    "no identity": ('{"format": "survive-sim-run/1", "run": "abc", "games": 20}',
                    "no 'identity'"),
    "no points": ('{"format": "survive-sim-run/1", "run": "abc", "games": 20, '
                  '"identity": {"seed": 1, "chunk": 10}}', "identity.points"),
}


@pytest.mark.parametrize("case", sorted(MANIFESTS))
def test_stats_of_a_run_whose_manifest_is_not_a_runs_is_one_line(run, case):
    text, problem = MANIFESTS[case]
    (run / "_manifest.json").write_text(text)
    one_line(run_process("stats", run, "--no-progress"),
             str(run / "_manifest.json"), problem)


@pytest.mark.parametrize("case", ["list", "no identity"])
def test_report_and_a_resumed_sweep_of_such_a_run_are_one_line(run, tmp_path, case):
    text, problem = MANIFESTS[case]
    (run / "_manifest.json").write_text(text)
    before = tree(run)
    one_line(run_process("report", run, "--out", tmp_path / "rep", "--no-progress"),
             str(run / "_manifest.json"), problem)
    assert not (tmp_path / "rep").exists()
    one_line(run_process("sweep", *GRID, "--seed", 1, "--out", run),
             str(run / "_manifest.json"), problem, "--force-new")
    assert tree(run) == before
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")]


# ------------------------------------------------------------------------------ 4
@pytest.mark.slow
def test_an_out_that_cannot_be_made_is_one_line(tmp_path):
    afile = tmp_path / "afile"
    afile.write_text("mine")
    cases = [("/proc/survive-sim-x", "cannot make the folder /proc/survive-sim-x"),
             ("/sys/survive-sim-x/run", "cannot make the folder /sys/survive-sim-x/run"),
             (afile / "run", "is a file")]
    for out, needle in cases:
        one_line(run_process("sweep", *GRID, "--out", out), needle, "--out")
        assert not os.path.lexists(out)
    assert afile.read_text() == "mine" and listing(tmp_path) == ["afile"]


# ------------------------------------------------------------------------------ 5
def test_the_plan_of_5000_settings_answers_without_playing(tmp_path):
    """(Its time is a benchmark in docs/performance.md, "Sweeps, studies and reports"; the
    harness's timeout catches a hang.)"""
    caps = ", ".join(str(100 + i) for i in range(1250))
    spec = tmp_path / "big.toml"
    spec.write_text(f'name = "big"\nseed = 1\ngames = 1000\n[grid]\nplayers = [4, 5]\n'
                    f'tiebreak = ["shared", "chain"]\nmax_turns = [{caps}]\n')
    r = run_process("sweep", spec, "--plan", "--out", tmp_path / "run", "--no-progress")
    assert r.returncode == 0, r.stderr
    assert "5000 settings, 2500 distinct games" in r.stdout
    assert "estimated time" in r.stdout and "p5-boats_rules-base-tb_chain-random-cap1349" in \
        r.stdout
    assert not (tmp_path / "run").exists()


# ------------------------------------------------------------------------------ 6, 7
def test_a_bad_item_of_a_list_option_is_the_one_quoted(tmp_path):
    line = one_line(run_process("sweep", "--players", "4,abc", "--games", 5, "--out",
                                tmp_path / "run"), "--players", "'abc'", "2-6")
    assert "'4'" not in line
    one_line(run_process("sweep", "--players", "4", "--max-turns", "400,2147483648",
                         "--games", 5, "--out", tmp_path / "run"),
             "grid.max_turns", "got 2147483648", "1 to 2147483647")
    one_line(run_process("sweep", "--players", "4", "--max-turns", "400,x4", "--games", 5,
                         "--out", tmp_path / "run"), "--max-turns", "'x4'")
    one_line(run_process("sweep", "--players", "4", "--challenge", "1,x", "--games", 5,
                         "--out", tmp_path / "run"), "--challenge", "'x' is not a challenge")
    assert not (tmp_path / "run").exists()


def test_the_tiebreak_help_offers_only_what_is_accepted(tmp_path):
    r = run_process("sweep", "--help")
    assert r.returncode == 0
    text = " ".join(r.stdout.split())
    assert "--tiebreak LIST Tie-breaks: shared, chain, or shared,chain for both." in text
    assert "or both." not in text.replace("or shared,chain for both.", "")
    one_line(run_process("sweep", "--players", "4", "--tiebreak", "both", "--games", 5,
                         "--out", tmp_path / "run"), "grid.tiebreak", "shared or chain",
             "'both'")
    assert not (tmp_path / "run").exists()


# ------------------------------------------------------------------------------ 8
@pytest.mark.slow
def test_a_stale_lock_is_taken_over_even_when_its_pid_is_alive(run):
    boot = Path("/proc/sys/kernel/random/boot_id").read_text().strip()
    start_of_1 = Path("/proc/1/stat").read_text().rsplit(")", 1)[1].split()[19]
    locks = [f"1 {int(start_of_1) + 7} {boot} 1700000000\n",    # pid 1 reused, not the owner
             f"1 {start_of_1} 0000-another-boot 1700000000\n"]  # the same pid, another boot
    if b"python" not in Path("/proc/1/cmdline").read_bytes():
        locks.append("1 1700000000\n")       # an older version's lock (pid, time): init's pid
    for text in locks:
        (run / ".lock").write_text(text)
        r = run_process("sweep", *GRID, "--seed", 1, "--out", run)
        assert r.returncode == 0, (text, r.stderr)
        assert "0 played now" in r.stdout and not (run / ".lock").exists()
    # a live owner (this test's process, as its lock would name it) still holds the folder
    held = runs.lock_text(os.getpid())
    (run / ".lock").write_text(held)
    one_line(run_process("sweep", *GRID, "--seed", 1, "--out", run),
             f"being written by process {os.getpid()}")
    assert (run / ".lock").read_text() == held


# ------------------------------------------------------------------------------ 9
def test_a_later_sweep_removes_dead_writers_temporaries_and_nothing_else(run):
    ours = [f".{LABELS[1]}.c000001.parquet.ab12cd34.tmp", "._manifest.json.x1y2z3q4.tmp",
            "._looks.json.k9k9k9k9.tmp"]
    for name in ours:
        (run / name).write_bytes(b"left by kill -9")
    hour_ago = time.time() - 3600
    os.utime(run / ours[2], (hour_ago, hour_ago))     # the looks' (written by report, unlocked)
    live = run / "._looks.json.r3p0rt00.tmp"          # ...a live report's: seconds old, kept
    live.write_bytes(b"being written")
    (run / ".mine.tmp").write_text("the user's")
    (run / ".drafts.tmp-keep").mkdir()
    (run / ".drafts.tmp-keep" / "a.txt").write_text("the user's")
    r = run_process("sweep", *GRID, "--seed", 1, "--out", run)
    assert r.returncode == 0, r.stderr
    assert not [n for n in ours if (run / n).exists()]
    assert live.read_bytes() == b"being written"
    assert (run / ".mine.tmp").read_text() == "the user's"
    assert (run / ".drafts.tmp-keep" / "a.txt").read_text() == "the user's"


# ------------------------------------------------------------------------------ 10
LIAR = """\
from strategies.api import Param, compiled
NAME = "liar25"
DESCRIPTION = "answers out of range"
PARAMS = ()
MEM_W = 0


@compiled
def choose(pub, mine, seat, kind, opts, n, rng, mem, work, par):
    return n
"""


@pytest.mark.slow
def test_a_failing_plugin_leaves_every_folder_as_it_was(made, tmp_path):
    liar = tmp_path / "liar25.py"
    liar.write_text(LIAR)
    play = ["--players", "4", "--strategies", "random,liar25,random,random", "--games", 20,
            "--chunk", 10, "--no-progress", "--plugin", liar]
    new = tmp_path / "new" / "deep"
    one_line(run_process("sweep", *play, "--out", new), "liar25.py", "liar25")
    assert not (tmp_path / "new").exists()
    empty = tmp_path / "empty"
    empty.mkdir()
    one_line(run_process("sweep", *play, "--out", empty), "liar25.py")
    assert listing(empty) == []
    old = tmp_path / "old"
    shutil.copytree(made, old)
    before = tree(old)
    one_line(run_process("sweep", *play, "--force-new", "--out", old), "liar25.py")
    assert tree(old) == before                         # the old run is still all there
    broken = tmp_path / "broken25.py"
    broken.write_text("raise RuntimeError('boom')\n")
    one_line(run_process("sweep", "--players", "4", "--games", 20, "--plugin", broken,
                         "--out", tmp_path / "b"), "broken25.py", "boom")
    assert sorted(set(listing(tmp_path)) - {"__pycache__"}) == ["broken25.py", "empty",
                                                                "liar25.py", "old"]


# ------------------------------------------------------------------------------ 11
def test_a_study_into_a_run_folder_is_refused(run, tmp_path):
    before = tree(run)
    one_line(run_process("study", "tiebreaks", "--games", 20, "--out", run, "--no-progress"),
             "--out", "run folder", "new folder or an earlier study's folder")
    assert tree(run) == before
    misc = tmp_path / "misc"
    misc.mkdir()
    (misc / "notes.txt").write_text("mine")
    one_line(run_process("study", "tiebreaks", "--games", 20, "--out", misc, "--no-progress"),
             "--out", "not a study's folder")
    assert listing(misc) == ["notes.txt"]


# ------------------------------------------------------------------------------ 12
SPEC_VALUES = {
    "turn cap past int32": ("[grid]\nmax_turns = [2147483648]", "grid.max_turns", "2147483647"),
    "turn cap nan": ("[grid]\nmax_turns = [nan]", "grid.max_turns", "got nan"),
    "turn cap a string": ("[grid]\nmax_turns = ['400']", "grid.max_turns", "2147483647"),
    "games past int64": ("games = 9223372036854775808", "games", "2**63-1"),
    "games nan": ("games = nan", "games", "got nan"),
    "seed inf": ("seed = inf", "seed", "0 to 2**63-1"),
    "chunk past int64": ("chunk = 9223372036854775808", "chunk", "2**63-1"),
}


@pytest.mark.parametrize("case", sorted(SPEC_VALUES))
def test_an_out_of_range_value_in_a_spec_file_is_one_line(tmp_path, case):
    line, *needles = SPEC_VALUES[case]
    top = "" if line.startswith("[grid]") else line + "\n"
    grid = line if line.startswith("[grid]") else "[grid]\nplayers = [4]"
    games = "" if line.startswith("games") else "games = 20\n"
    spec = tmp_path / "spec.toml"
    spec.write_text(games + top + grid + "\n")
    one_line(run_process("sweep", spec, "--out", tmp_path / "run"), "spec.toml", *needles)
    assert listing(tmp_path) == ["spec.toml"]


# ------------------------------------------------------------------------------ 13
def test_stats_precision_nan_is_refused(made):
    one_line(run_process("stats", made, "--precision", "nan"), "--precision", "finite")
