"""Looks (experiments.verdicts.looks, looks.judge_run) and playing until settled
(experiments.sweeps.settle, `study --until-settled`): a run's first judgment is fixed, judging the
same games again is the same look, an extended run is judged with anytime-valid intervals and keeps
what earlier looks settled, --force-new forgets the looks, and a run played until settled and killed
with kill -9 ends with the verdicts of an uninterrupted run."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from dataclasses import replace
from pathlib import Path

import pandas as pd
import pytest
from support.cli_harness import invoke

from experiments.verdicts import looks
from experiments.sweeps import settle, spec, sweep
from experiments.verdicts.looks import judge_run

SPEC = {"name": "tiny-looks", "seed": 5, "games": 200, "chunk": 100,
        "grid": {"players": [5], "boats": ["rules", "flat"], "tiebreak": ["chain"],
                 "strategies": ["greedy"]},
        "claims": {"S1": {"tolerance": 0.2}, "S1b": {"tolerance": 0.1}}}
KEYS = ["claim", "play", "scope"]


def _log(run) -> dict:
    return json.loads((Path(run) / looks.LOOKS).read_text())


def test_a_run_is_judged_fixed_then_anytime_valid_and_keeps_what_settled(tmp_path):
    run = tmp_path / "run"
    sp = spec.build(SPEC)
    sweep.run_sweep(sp, run)
    first = judge_run(run)
    assert set(first["interval"]) == {"95% fixed"} and set(first["looks"]) == {1}
    assert len(_log(run)["looks"]) == 1
    again = judge_run(run)                                   # the same games: the same look
    pd.testing.assert_frame_equal(first, again)
    assert len(_log(run)["looks"]) == 1
    sweep.run_sweep(replace(sp, games=600), run)            # extended: the next look
    later = judge_run(run)
    assert len(_log(run)["looks"]) == 2
    open_ = later[later["settled_at"].isna()]
    assert set(open_["interval"]) <= {"95% anytime-valid"} and set(open_["looks"]) <= {2}
    kept = first[first["verdict"] != "inconclusive"].merge(later, on=KEYS)
    assert len(kept) and (kept["verdict_x"] == kept["verdict_y"]).all()
    assert (kept["settled_at_y"] == 200).all() and (kept["looks_y"] == 1).all()
    # an anytime-valid interval is wider than a fixed one at the same games
    from experiments.verdicts.inference import FIXED, Look, radius
    assert radius(600, 0.05, Look(True, 800, 2)) > radius(600, 0.05, FIXED)
    sweep.run_sweep(replace(sp, games=600), run, force_new=True)    # a new run: no looks
    assert not (run / looks.LOOKS).exists()
    assert set(judge_run(run)["looks"]) == {1}


def test_round_sizes_double_from_the_first_to_the_cap():
    assert settle.sizes(10_000, 200_000, 10_000) == [10_000, 20_000, 40_000, 80_000, 160_000,
                                                      200_000]
    assert settle.sizes(15_000, 40_000, 10_000) == [20_000, 40_000]
    assert settle.sizes(100, 700, 10_000) == [100, 200, 400, 700]


def _play(out: str, cap: int) -> None:
    sp = spec.build(SPEC)
    settle.play_until_settled(replace(sp, games=100), out, cap, 100, say=lambda _: None)


CHILD = ("import sys; sys.path.insert(0, {tests!r}); from test_looks import _play; "
         "_play({out!r}, {cap})")


@pytest.mark.slow
def test_until_settled_resumes_after_kill_9_to_the_uninterrupted_verdicts(tmp_path):
    """Rounds of 100, 200, 400, 800, 1,600 games. One run is killed with SIGKILL once its
    first round is judged, then run again; its final verdicts equal an uninterrupted run's."""
    cap = 1600
    whole = tmp_path / "whole"
    _play(str(whole), cap)
    want = judge_run(whole, record=False)
    assert set(want["interval"]) == {"95% anytime-valid"}
    killed = tmp_path / "killed"
    code = CHILD.format(tests=str(Path(__file__).parent), out=str(killed), cap=cap)
    child = subprocess.Popen([sys.executable, "-c", code], start_new_session=True)
    try:
        deadline = time.time() + 300
        while time.time() < deadline and child.poll() is None:
            try:
                if len(_log(killed)["looks"]) >= 1:
                    break
            except (OSError, ValueError):
                pass
            time.sleep(0.05)
        if child.poll() is None:
            os.killpg(child.pid, signal.SIGKILL)
    finally:
        child.wait()
    _play(str(killed), cap)
    got = judge_run(killed, record=False)
    cols = ["claim", "play", "scope", "verdict", "effect", "low", "high", "n", "looks",
            "settled_at", "interval"]
    pd.testing.assert_frame_equal(got[cols], want[cols])


@pytest.mark.slow
def test_study_until_settled_plays_rounds_and_reports(tmp_path):
    out = tmp_path / "s"
    r = invoke("study", "tiebreaks", "--until-settled", "--games", 100, "--max-games", 200,
               "--out", out, "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert "until settled:" in r.stderr and "round 1 of at most 2" in r.stderr
    v = pd.read_csv(out / "report" / "verdicts.csv")
    assert set(v["interval"]) == {"95% anytime-valid"}
    md = (out / "report" / "index.md").read_text()
    assert "settled at" in md and "Played until settled" in md


@pytest.mark.parametrize("args, words", [
    (("--max-games", 100), "--max-games needs --until-settled"),
    (("--until-settled", "--games", 300, "--max-games", 200), "more than --max-games"),
])
def test_study_until_settled_bad_input_is_one_line(tmp_path, args, words):
    r = invoke("study", "tiebreaks", *args, "--out", tmp_path / "x", "--no-progress")
    assert r.exit_code == 2 and words in r.stderr and "Traceback" not in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1
    assert not (tmp_path / "x").exists()


def test_until_settled_interrupted_between_rounds_records_each_look_once(tmp_path):
    """Second audit: a study resumed after Ctrl-C between rounds recorded its first look twice
    (_looks.json held 200, 200, 400 games per setting). Rounds smaller than a chunk rewrite
    the chunk of the round before (its count grows); interrupted after the next round's first
    chunk, the resumed run judged round 1 again on what was left, as a new look. Round 1's
    games are still in the old chunks, which a reader of the first 200 games now accepts."""
    sp = replace(spec.build({**SPEC, "chunk": 500,
                             "grid": {**SPEC["grid"], "players": [4, 5]}}), games=200)
    whole = tmp_path / "whole"
    settle.play_until_settled(sp, str(whole), 400, 200, say=lambda _: None)
    want = judge_run(whole, record=False)
    cut = tmp_path / "cut"
    rounds = []

    def interrupted(at):
        rounds.append(at.games)
        sweep.run_sweep(at, str(cut), stop=lambda: len(rounds) > 1)    # Ctrl-C in round 2
        if len(rounds) > 1:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        settle.play_until_settled(sp, str(cut), 400, 200, interrupted, say=lambda _: None)
    assert [x["per_setting"] for x in _log(cut)["looks"]] == [200]
    from experiments.store.runs import finished_chunks
    assert 0 in [h for h, _ in finished_chunks(cut)[1].values()]     # round 2 only begun
    settle.play_until_settled(sp, str(cut), 400, 200, say=lambda _: None)
    assert [x["per_setting"] for x in _log(cut)["looks"]] == \
        [x["per_setting"] for x in _log(whole)["looks"]]
    got = judge_run(cut, record=False)
    cols = ["claim", "play", "scope", "verdict", "effect", "low", "high", "n", "looks",
            "settled_at", "interval"]
    pd.testing.assert_frame_equal(got[cols], want[cols])


def test_tolerances_are_recorded_first_and_another_tolerance_is_a_labelled_look(tmp_path):
    """Second review: no tolerance was written down before its study, and re-judging the same
    games at another tolerance was not logged. The first look records every claim's
    parameters; a re-judgement at others is a look of its own, labelled in the table, with no
    stated error rate, and leaves the primary looks as they were."""
    import survive_sim as ss
    from experiments.verdicts.table import stated_claims
    run = tmp_path / "run"
    sweep.run_sweep(spec.build(SPEC), run)
    first = judge_run(run)
    log = _log(run)
    assert log["looks"][0]["claims"] == stated_claims(SPEC["claims"])
    assert log["looks"][0]["claims"]["S1c"] == {"tolerance": 0.25}       # brought, stated
    settled = first["verdict"] != "inconclusive"
    assert (first.loc[settled, "wrong_at_most"] == 0.025).all()
    other = ss.Run(run).verdicts(claims={"S1b": {"tolerance": 0.2}}, record=True)
    row = other[other["claim"] == "S1b"].iloc[0]
    assert "stated first: tolerance 0.1; re-judged at another tolerance" in row["tolerance"]
    assert other["wrong_at_most"].isna().all()
    assert other[other["claim"] == "S1"].iloc[0]["tolerance"] == "tolerance 0.2"   # as stated
    modes = [x["mode"] for x in _log(run)["looks"]]
    assert modes == ["study", "another tolerance"]
    ss.Run(run).verdicts(claims={"S1b": {"tolerance": 0.2}}, record=True)      # same again
    assert len(_log(run)["looks"]) == 2
    pd.testing.assert_frame_equal(judge_run(run), first)        # the primary look is intact
    with pytest.raises(ValueError, match="claims.S1b.tolerance"):
        ss.Run(run).verdicts(claims={"S1b": {"tolerance": 5}})


@pytest.mark.slow
def test_a_look_at_a_prefix_is_anytime_valid_and_writes_nothing(tmp_path):
    """Second audit: `report RUN --games N` wrote a look into its input run's _looks.json. A
    look at the first N games of a larger run is an earlier point of the same sequence: it
    reads anytime-valid intervals and is not recorded."""
    run = tmp_path / "run"
    sweep.run_sweep(replace(spec.build(SPEC), games=400), run)
    part = judge_run(run, games=200)
    assert not (run / looks.LOOKS).exists()
    assert set(part["interval"]) == {"95% anytime-valid"} and set(part["n"]) <= {0, 200}
    whole = judge_run(run)                                      # the run's own first look
    assert set(whole["interval"]) == {"95% fixed"}
    judge_run(run, games=200)
    assert len(_log(run)["looks"]) == 1
    r = invoke("report", run, "--games", 100, "--out", tmp_path / "rep", "--workers", 1,
               "--no-progress")
    assert r.exit_code == 0, r.stderr
    assert len(_log(run)["looks"]) == 1


def test_the_sensitivity_view_rejudges_at_other_tolerances_as_one_labelled_look(tmp_path):
    from experiments.verdicts.analysis import analyse
    run = tmp_path / "run"
    sweep.run_sweep(spec.build(SPEC), run)
    judge_run(run)
    a = analyse(run, charts=False, claims=SPEC["claims"])
    view = looks.sensitivity(run, SPEC["claims"], a)
    assert sorted(set(view["tolerance_pp"])) == [0.5, 1.0, 2.0, 3.0]
    assert set(view["claim"]) == {"S1", "S1b"}               # win-share tolerances only
    looks.sensitivity(run, SPEC["claims"], a)
    assert [x["mode"] for x in _log(run)["looks"]] == ["study", "sensitivity"]


def test_a_setting_stops_once_every_verdict_it_takes_part_in_has_settled(tmp_path):
    """Per-setting stopping: S1 reads only 5 players' flat boats and settles at once at a wide
    tolerance; S3 reads only 4 players' rules' boats and stays open at a narrow one. The flat
    setting stops at the round its verdict settled (its limit, in the manifest and the
    account), the open one plays on to the cap, and a setting no verdict reads plays on too."""
    sp = spec.build({"name": "tiny-stops", "seed": 7, "games": 100, "chunk": 100,
                     "grid": {"players": [4, 5], "boats": ["rules", "flat"],
                              "strategies": ["greedy"]},
                     "claims": {"S1": {"tolerance": 0.5}, "S3": {"tolerance": 0.001}}})
    out = tmp_path / "run"
    done = settle.play_until_settled(sp, str(out), 400, 100, say=lambda _: None)
    flat5 = next(p.label for p in sp.points if p.settings.players == 5
                 and p.allocation == "flat")
    rules4 = next(p.label for p in sp.points if p.settings.players == 4
                  and p.allocation == "rules")
    table = judge_run(out, record=False)
    row = table[table["claim"] == "S1"].iloc[0]
    assert row["verdict"] in ("refuted", "negligible")
    stop = int(row["settled_at"])
    assert stop < 400 and done.limits == {flat5: stop}
    manifest = json.loads((out / "_manifest.json").read_text())
    assert manifest["games"] == 400 and manifest["limits"] == {flat5: stop}
    from experiments.store.runs import finished_chunks
    files, account = finished_chunks(out)
    assert account[flat5] == (stop, stop) and len(files[flat5]) == stop // 100
    assert not (out / f"{flat5}.c{stop // 100:06d}.parquet").exists()
    assert (out / f"{flat5}.c{stop // 100 - 1:06d}.parquet").exists()
    assert all(account[p.label] == (400, 400) for p in sp.points if p.label != flat5)
    assert account[rules4] == (400, 400)
    assert table[table["claim"] == "S3"].iloc[0]["n"] == 400


def test_stopping_reads_the_rows_settings():
    table = pd.DataFrame({"settings": [("a", "b"), ("b", "c"), ("d",), ()],
                          "verdict": ["supported", "inconclusive", "refuted", "inconclusive"],
                          "n": [100, 100, 100, 0]})
    assert settle.stopping(table, 200, 100) == {"a", "d"}
    assert settle.stopping(table, 150, 100) == set()        # not on a chunk boundary
