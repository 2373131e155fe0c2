"""Sweeps (experiments/sweeps/spec.py, runs.py, sweep.py): experiment files, the run folder,
resuming, exactness against the raw engine, common random numbers, tie-break twins played once, and
the same table on 1 thread, 2 threads and a Dask LocalCluster.

Game counts are small: a sweep's correctness does not depend on how many games it holds.
"""
from __future__ import annotations

import json
import shutil
from pathlib import Path

import pandas as pd
import pytest
from support.run_table import load_run

from experiments.store import runs
from experiments.sweeps import spec, sweep
from play.settings import Settings
from play.simulate import simulate

ROOT = Path(__file__).resolve().parents[1]
GRID = {"players": [4, 5], "boats": ["rules", "flat"], "tiebreak": ["chain", "shared"],
        "strategies": ["random"]}
GAMES, CHUNK = 900, 300


def small(**over) -> spec.Spec:
    data = {"name": "t", "seed": 3, "games": GAMES, "chunk": CHUNK, "grid": dict(GRID)}
    data.update(over)
    return spec.build(data)


def table(path) -> pd.DataFrame:
    df, account = load_run(path)
    return df


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """One uninterrupted sweep of the small grid: its folder and table."""
    out = tmp_path_factory.mktemp("ref") / "run"
    outcome = sweep.run_sweep(small(), out)
    return out, table(out), outcome


# ------------------------------------------------------------------------------ experiment files
def test_the_five_six_study_loads_with_named_allocations():
    s = spec.load(ROOT / "experiments" / "five_six_balance.toml")
    # self-play: 3 player counts x 3 rungs x 3 allocations x 2 variants x 2 tie-breaks; mixed
    # tables: greedy, careful, racer round 4, 5, 6 seats in 4, 5, 3 rotations x 2 x 2
    assert len(s.points) == 3 * 3 * 3 * 2 * 2 + (4 + 5 + 3) * 2 * 2 and s.seed == 1
    assert s.games == 100_000
    assert len({p.label for p in s.points}) == len(s.points)
    by = {p.label: p for p in s.points}
    assert by["p5-boats_rules-base-tb_chain-greedy"].settings.boats == (1, 1, 2, 2, 2)
    assert by["p5-boats_flat-ch3-tb_shared-greedy"].settings.boats == (2, 2, 2, 2, 2)
    assert by["p6-boats_reversed-base-tb_chain-greedy"].settings.boats == (2, 2, 1, 1, 1, 1)
    assert by["p4-boats_reversed-base-tb_chain-greedy"].allocation == "reversed"
    # 4 players: rules, flat and reversed are all 2,2,2,2, and tie-breaks only recount
    assert len({p.game_key() for p in s.points}) == 3 * (2 + 3 * 2 * 2) + 4 + 2 * (5 + 3)
    selfplay = [p for p in s.points if len(set(p.settings.strategies)) == 1]
    assert {p.settings.strategies[0] for p in selfplay} == {"greedy", "careful", "racer"}
    mixed = by["p5-boats_flat-base-tb_chain-greedy+careful+racer+greedy+careful"]
    assert mixed.settings.boats == (2, 2, 2, 2, 2)


def test_labels_are_stable_and_name_non_default_flags():
    s = spec.build({"games": 1, "grid": {"players": [2], "strategies": [["greedy", "random"]],
                                         "boats": [[3, 0, 3, 0]], "challenges": [[1, 3]],
                                         "squid": [True], "squid_only": [True],
                                         "max_turns": [300]}})
    (p,) = s.points
    assert p.label == "p2-boats_3.0.3.0-ch13-tb_shared-greedy+random-squidonly-cap300"
    assert p.settings.strategies == ("greedy", "random", "greedy", "random")
    assert p.allocation == "custom"


def test_command_line_overrides_replace_the_files_values(tmp_path):
    f = tmp_path / "q.toml"
    f.write_text('games = 100\nseed = 4\n[grid]\nplayers = [3]\n')
    s = spec.load(f, games=7, seed=None, chunk=2)
    assert (s.games, s.seed, s.chunk, s.name) == (7, 4, 2, "q")
    assert s.chunks() == [(0, 0, 2), (1, 2, 2), (2, 4, 2), (3, 6, 1)]


BAD_FILES = {
    "syntax": ("games = 10\n[grid\nplayers = [4]\n", "not valid TOML", "line 2"),
    "unknown key": ("games = 10\ncolour = 1\n[grid]\nplayers = [4]\n", "colour", "accepted"),
    "unknown grid key": ("games = 10\n[grid]\nplayers = [4]\nboat = ['rules']\n",
                         "grid.boat (line 4)", "accepted"),
    "wrong type": ("games = 10\n[grid]\nplayers = '5'\n", "grid.players (line 3)",
                   "non-empty list"),
    "bad value": ("games = 10\n[grid]\nplayers = [7]\n", "grid.players", "2-6"),
    "empty grid": ("games = 10\n[grid]\n", "grid", "empty"),
    "empty list": ("games = 10\n[grid]\nplayers = []\n", "grid.players", "non-empty"),
    "zero games": ("games = 0\n[grid]\nplayers = [4]\n", "games (line 1)", "positive"),
    "negative chunk": ("games = 5\nchunk = -1\n[grid]\nplayers = [4]\n", "chunk", "positive"),
    "no games": ("[grid]\nplayers = [4]\n", "games", "missing"),
    "invalid combination": ("games = 5\n[grid]\nplayers = [4, 5]\nchallenges = [[6]]\n",
                            "challenge 6", "skip_invalid"),
    "wrong boat list": ("games = 5\n[grid]\nplayers = [4]\nboats = [[2, 2, 2]]\n",
                        "boats must be 4 numbers", "skip_invalid"),
    "twice": ("games = 5\n[grid]\nplayers = [4]\nstrategies = ['greedy', ['greedy', 'greedy',"
              " 'greedy', 'greedy']]\n", "twice", "p4-"),
    "bad strategy": ("games = 5\n[grid]\nplayers = [4]\nstrategies = ['clever']\n",
                     "clever", "accepted"),
}


@pytest.mark.parametrize("case", sorted(BAD_FILES))
def test_a_bad_experiment_file_is_one_line_naming_file_and_key(tmp_path, case):
    text, *needles = BAD_FILES[case]
    f = tmp_path / "bad.toml"
    f.write_text(text)
    with pytest.raises(spec.SpecError) as e:
        spec.load(f)
    msg = str(e.value)
    assert "\n" not in msg and msg.startswith(str(f))
    for needle in needles:
        assert needle in msg, msg


def test_skip_invalid_leaves_out_what_cannot_be_played_and_says_so(tmp_path):
    s = spec.build({"games": 5, "skip_invalid": True,
                    "grid": {"players": [4, 5], "challenges": [[], [6]]}})
    assert [p.label for p in s.points] == ["p4-boats_rules-base-tb_shared-random",
                                            "p5-boats_rules-base-tb_chain-random",
                                            "p5-boats_rules-ch6-tb_chain-random"]
    assert len(s.skipped) == 1 and "players=4" in s.skipped[0] and "5 or 6" in s.skipped[0]
    with pytest.raises(spec.SpecError, match="no combination"):
        spec.build({"games": 5, "skip_invalid": True,
                    "grid": {"players": [4], "challenges": [[6]]}})


def test_a_missing_file_is_one_line():
    with pytest.raises(spec.SpecError, match="no such experiment file"):
        spec.load("/nonexistent/x.toml")


# ------------------------------------------------------------------------------ the run folder
def test_the_folder_is_a_parquet_dataset_equal_to_the_raw_engine(reference):
    out, df, _ = reference
    direct = pd.read_parquet(out)                 # the manifest and temporaries are skipped
    assert len(direct) == len(df) == GAMES * 8
    for p in small().points:
        mine = df[df["setting"] == p.label].drop(columns=["setting", "allocation"])
        want = simulate(p.settings, GAMES, 3)
        pd.testing.assert_frame_equal(mine.reset_index(drop=True), want, check_dtype=True,
                                      check_categorical=False)
        assert set(df.loc[df["setting"] == p.label, "allocation"].astype(str)) == {p.allocation}
    names = sorted(x.name for x in Path(out).iterdir())
    assert names[0] == "_manifest.json" and all(n.endswith(".parquet") for n in names[1:])
    assert len(names) == 1 + 8 * GAMES // CHUNK


def test_the_manifest_records_spec_versions_and_engine(reference):
    out, _, _ = reference
    m = json.loads((Path(out) / "_manifest.json").read_text())
    import simulator
    assert m["engine"] == simulator.SOURCE_HASH and m["games"] == GAMES
    assert m["identity"]["seed"] == 3 and len(m["identity"]["points"]) == 8
    for key in ("survive-sim", "numba", "numpy", "pyarrow", "python", "git_commit"):
        assert key in m["versions"]
    p = m["identity"]["points"][0]
    assert Settings.from_dict(p["settings"]) == small().points[0].settings


def test_twins_and_equal_allocations_are_played_once(reference):
    """4 players: rules = flat = 2,2,2,2; chain and shared recount the same games. 8 settings,
    3 distinct games: 3 x 900 played, 8 x 900 written."""
    _, df, outcome = reference
    assert outcome.games_played == 3 * GAMES and outcome.games_written == 8 * GAMES
    game_cols = [c for c in df.columns if c not in ("setting", "allocation", "tiebreak",
                                                     "decided_by")]
    a = df[df["setting"] == "p5-boats_rules-base-tb_chain-random"][game_cols]
    b = df[df["setting"] == "p5-boats_rules-base-tb_shared-random"][game_cols]
    pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True))


def test_settings_share_seeds_game_by_game(reference):
    """Common random numbers: game i of every setting is seeded from (seed, i) alone, so the
    rules' and the flat allocation at 5 players lay the same tiles in game i (the replay log's
    layout), and the table's game indices pair them."""
    from play.record import game_log
    _, df, _ = reference
    pts = {p.label: p for p in small().points}
    a, b = pts["p5-boats_rules-base-tb_chain-random"], pts["p5-boats_flat-base-tb_chain-random"]
    for game in (0, 1, GAMES - 1):
        assert game_log(a.settings, 3, game)["tiles"] == game_log(b.settings, 3, game)["tiles"]
    ga = df.loc[df["setting"] == a.label, "game"].to_numpy()
    gb = df.loc[df["setting"] == b.label, "game"].to_numpy()
    assert (ga == gb).all() and list(ga) == list(range(GAMES))


def test_resume_plays_exactly_what_is_missing_or_damaged(reference, tmp_path):
    ref_out, ref, _ = reference
    out = tmp_path / "run"
    shutil.copytree(ref_out, out)
    chunks = sorted(out.glob("*.parquet"))
    chunks[0].unlink()                                            # lost
    data = chunks[1].read_bytes()
    chunks[1].write_bytes(data[: len(data) // 2])                 # truncated
    (out / ".p4-x.c000000.parquet.abc.tmp").write_bytes(b"junk")  # a kill -9's leftover
    bad_meta = chunks[2]                                          # rows of another chunk
    shutil.copy(chunks[3], bad_meta)
    outcome = sweep.run_sweep(small(), out)
    assert outcome.games_written == 3 * CHUNK
    assert not list(out.glob(".*.tmp"))
    pd.testing.assert_frame_equal(table(out), ref)
    again = sweep.run_sweep(small(), out)                       # nothing left to do
    assert again.games_played == 0 and again.games_done == 8 * GAMES


def test_a_stopped_sweep_resumes_to_the_same_table(reference, tmp_path):
    _, ref, _ = reference
    out = tmp_path / "run"
    calls = []
    first = sweep.run_sweep(small(), out, stop=lambda: calls.append(1) or len(calls) >= 2)
    assert first.stopped and 0 < first.games_done < 8 * GAMES
    part, account = load_run(out)
    assert sum(h for h, _ in account.values()) == first.games_done == len(part)
    # chunk-major order: the first chunk of every group came first
    assert set(part["setting"].astype(str)) >= {"p4-boats_rules-base-tb_chain-random"}
    sweep.run_sweep(small(), out)
    pd.testing.assert_frame_equal(table(out), ref)


def test_a_dear_chunk_is_counted_before_the_next_plays(reference, tmp_path, monkeypatch):
    """A search chunk plays for minutes: its games and its "done" must show when it ends, not
    once the next chunk has played too (cheap chunks are written while the next plays)."""
    _, ref, _ = reference
    events = []
    real = sweep.PS.run_records

    def recorded(settings, seed, first, count):
        events.append(("play", first))
        return real(settings, seed, first, count)

    monkeypatch.setattr(sweep.PS, "run_records", recorded)
    monkeypatch.setattr(sweep, "PROMPT_AFTER", 0.0)
    out = tmp_path / "run"
    sweep.run_sweep(small(), out, threads=1, progress=lambda n: events.append(("rows", n)),
                    setting_done=lambda label, n: events.append(("done", label)))
    plays = [i for i, e in enumerate(events) if e[0] == "play"]
    counted = [i for i, e in enumerate(events) if e[0] == "rows"]
    assert len(plays) == len({p.game_key() for p in small().points}) * (GAMES // CHUNK)
    assert all(any(a < c < b for c in counted) for a, b in zip(plays, plays[1:]))
    assert events[-1][0] == "done"
    pd.testing.assert_frame_equal(table(out), ref)


def test_extending_a_run_gives_the_longer_runs_table(reference, tmp_path):
    _, ref, _ = reference
    out = tmp_path / "run"
    sweep.run_sweep(small(games=GAMES - CHUNK + 100), out)       # a short last chunk
    sweep.run_sweep(small(), out)
    pd.testing.assert_frame_equal(table(out), ref)
    with pytest.raises(runs.RunError, match="already holds"):
        sweep.run_sweep(small(games=CHUNK), out)


def test_a_folder_of_another_spec_is_refused_and_force_new_replaces_it(reference, tmp_path):
    ref_out, _, _ = reference
    out = tmp_path / "run"
    shutil.copytree(ref_out, out)
    before = sorted(p.name for p in out.iterdir())
    for other in (small(seed=4), small(chunk=CHUNK + 1),
                  small(grid={**GRID, "players": [4]})):
        with pytest.raises(runs.RunError) as e:
            sweep.run_sweep(other, out)
        assert "--force-new" in str(e.value) and "\n" not in str(e.value)
        assert sorted(p.name for p in out.iterdir()) == before      # untouched
    sweep.run_sweep(small(seed=4, games=CHUNK), out, force_new=True)
    df = table(out)
    assert len(df) == 8 * CHUNK and set(df["seed"]) == {4}
    assert len(list(out.glob("*.parquet"))) == 8


def test_a_folder_of_other_engine_sources_is_refused(reference, tmp_path):
    ref_out, _, _ = reference
    out = tmp_path / "run"
    shutil.copytree(ref_out, out)
    m = json.loads((out / "_manifest.json").read_text())
    m["engine"], m["run"] = "0000000000000000", "ffffffffffffffff"
    (out / "_manifest.json").write_text(json.dumps(m))
    with pytest.raises(runs.RunError, match="other engine sources"):
        sweep.run_sweep(small(), out)


def test_output_paths_that_cannot_hold_a_run(tmp_path, monkeypatch):
    f = tmp_path / "file"
    f.write_text("x")
    with pytest.raises(runs.RunError, match="is a file"):
        sweep.run_sweep(small(), f)
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("mine")
    with pytest.raises(runs.RunError, match="not empty"):
        sweep.run_sweep(small(), tmp_path / "other")
    ro = tmp_path / "ro"
    ro.mkdir()
    import os
    real = os.access
    # tests may run as root, who may write anywhere: the folder says it is not writable
    monkeypatch.setattr(runs.os, "access", lambda p, mode: False if Path(p) == ro
                        else real(p, mode))
    with pytest.raises(runs.RunError, match="not writable"):
        sweep.run_sweep(small(), ro / "run")
    assert not (ro / "run").exists()


def test_the_same_table_on_one_and_two_threads(reference, tmp_path):
    _, ref, _ = reference
    for threads in (1, 2):
        out = tmp_path / f"t{threads}"
        sweep.run_sweep(small(), out, threads=threads)
        pd.testing.assert_frame_equal(table(out), ref)


def test_the_same_table_on_a_dask_local_cluster(reference, tmp_path):
    pytest.importorskip("dask.distributed")
    _, ref, _ = reference
    out = tmp_path / "dask"
    outcome = sweep.run_sweep(small(), out, scheduler="local", workers=2)
    assert outcome.games_played == 3 * GAMES
    pd.testing.assert_frame_equal(table(out), ref)


@pytest.mark.slow
def test_an_unreachable_scheduler_is_one_line(tmp_path):
    pytest.importorskip("dask.distributed")
    with pytest.raises(runs.RunError, match="cannot reach the Dask scheduler"):
        sweep.run_sweep(small(), tmp_path / "run", scheduler="tcp://127.0.0.1:9")
    assert not (tmp_path / "run").exists()


@pytest.mark.slow
def test_a_dask_worker_that_dies_mid_run_is_replaced_and_the_table_stays_exact(tmp_path):
    """A worker process killed while chunks are in flight: Dask runs its tasks again on a
    replacement, and the folder holds exactly the table of a local run."""
    import os
    import signal
    distributed = pytest.importorskip("dask.distributed")
    many = small(games=6000, chunk=200)
    sweep.run_sweep(many, tmp_path / "local")
    cluster = distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                                       dashboard_address=None)
    client = distributed.Client(cluster)
    pids = client.run(os.getpid)                 # {worker address: process id}
    killed = []

    def kill_one(n):                               # after the first chunk: kill -9 a worker
        if not killed:
            pid = pids[sorted(pids)[0]]
            os.kill(pid, signal.SIGKILL)
            killed.append(pid)
    try:
        sweep.run_sweep(many, tmp_path / "dask", scheduler=cluster.scheduler_address,
                        progress=kill_one)
        assert killed and killed[0] not in client.run(os.getpid).values()   # it did die
    finally:
        client.close()
        cluster.close()
    assert killed
    pd.testing.assert_frame_equal(table(tmp_path / "dask"), table(tmp_path / "local"))
