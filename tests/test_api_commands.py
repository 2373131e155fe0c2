"""The commands that parse, call the API and print -- ``tournament``, ``tune``, ``strategies``,
``summary``, ``referee``, ``view``, ``bench`` -- give the numbers and text of their API
functions (``survive_sim.tournament``, ``tune``, ``strategies``, ``summary``, ``check``,
``view``, ``bench``), and the API raises the layer's one-line errors the commands print.

Tiny games: a tournament of 20 game indices x 3 line-ups, a tuning of two generations of 60
games, a bench of 10 games per cell. Speeds are never compared."""
from __future__ import annotations

import json

import pandas as pd
import pytest

import survive_sim as ss
from support.cli_harness import ROOT, assert_usage_error, invoke, listing
from experiments.tables.summary import format_summary
from experiments.tournament import TournamentError
from experiments.tune import TuneError
from replays.draw.logfile import LogError
from survive_sim.speed import thread_counts
from survive_sim.tables import TableError

TOUR = dict(players=3, seed=3, batch=10, stop=False)
TOUR_ARGS = ("--strategies", "random,greedy", "--players", 3, "--seed", 3, "--batch", 10,
             "--no-stop", "--games", 20, "--no-progress")
TUNE = dict(players=3, games=10, popsize=2, holdout=20, seed=4)
TUNE_ARGS = ("greedy:risk=2", "--against", "random", "--budget", 120, "--players", 3,
             "--games", 10, "--popsize", 2, "--holdout", 20, "--seed", 4, "--no-progress")


def _csv(path) -> pd.DataFrame:
    return pd.read_csv(path)


# ---------------------------------------------------------------------------- tournament
@pytest.fixture(scope="module")
def cli_tournament(tmp_path_factory):
    out = tmp_path_factory.mktemp("tour") / "t"
    r = invoke("tournament", *TOUR_ARGS, "--out", out)
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return out, r


def test_tournament_standings_are_the_cli_folder(cli_tournament, tmp_path):
    out, r = cli_tournament
    phases, calls = [], []

    class Watch:
        phase = ""

        def begin(self, phase, total=None, done=0, unit=None):
            phases.append(phase)

        def update(self, n):
            pass

    result = ss.tournament("random,greedy", 20, out=tmp_path / "api", watch=Watch(),
                           started=calls.append, **TOUR)
    assert result.played and result.resumed == 0 and result.resumed_games == 0
    assert [c.strategies for c in calls] == [("random", "greedy")]      # once, validated
    assert phases[0] == "playing" and phases[-1] == f"writing {tmp_path / 'api'}"
    pd.testing.assert_frame_equal(_csv(out / "standings.csv"), result.standings,
                                  check_dtype=False)
    pd.testing.assert_frame_equal(_csv(out / "head_to_head.csv"), result.head_to_head,
                                  check_dtype=False)
    assert (out / "standings.csv").read_bytes() == (tmp_path / "api" / "standings.csv"
                                                    ).read_bytes()
    assert result.statement() in r.stdout
    # without a folder: the same tables
    alone = ss.tournament(["random", "greedy"], 20, **TOUR)
    pd.testing.assert_frame_equal(alone.standings, result.standings)


def test_a_complete_tournament_folder_is_read_back_not_played(cli_tournament):
    out, _ = cli_tournament
    before = (out / "tournament.json").read_bytes()
    started = []
    saved = ss.tournament("random,greedy", 20, out=out, started=started.append, **TOUR)
    assert not saved.played and started == []
    assert (out / "tournament.json").read_bytes() == before
    pd.testing.assert_frame_equal(saved.standings, _csv(out / "standings.csv"))
    pd.testing.assert_frame_equal(saved.head_to_head, _csv(out / "head_to_head.csv"))
    meta = json.loads(before)
    assert saved.statement() == meta["outcome"]["statement"]
    assert saved.games_played == meta["games_played"] == 60
    assert saved.indices_played == 20 and saved.resumed == 0
    # the command prints the same statement and plays nothing
    r = invoke("tournament", *TOUR_ARGS, "--out", out)
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == [
        f"{out} already holds this tournament, complete: {saved.statement()}",
        f"nothing played; its standings are in {out}/standings.csv (pass --force to play it "
        f"again)"]


def test_tournament_input_errors_are_the_cli_lines(tmp_path):
    with pytest.raises(TournamentError, match="unknown strategy 'nosuch'") as e:
        ss.tournament("random,nosuch", 5, out=tmp_path / "t", players=3)
    assert e.value.param == "--strategies"
    r = invoke("tournament", "--strategies", "random,nosuch", "--players", 3, "--games", 5,
               "--out", tmp_path / "t")
    assert_usage_error(r.exit_code, r.stderr, r.stdout, str(e.value))
    (tmp_path / "t").mkdir()
    (tmp_path / "t" / "bot.py").write_text("")
    with pytest.raises(TournamentError, match="is inside --out") as e:
        ss.tournament("random,greedy", 5, out=tmp_path / "t", plugins=[tmp_path / "t" / "bot.py"])
    assert e.value.param == "--out"
    with pytest.raises(TournamentError, match="the largest --batch that fits") as e:
        ss.tournament("random,greedy", 10**8, batch=10**8)
    assert e.value.param == "--batch"
    assert listing(tmp_path) == ["t"] and listing(tmp_path / "t") == ["bot.py"]


# ---------------------------------------------------------------------------- tune
def test_tune_is_the_cli_result_and_a_complete_file_is_read_back(tmp_path):
    r = invoke("tune", *TUNE_ARGS, "--out", tmp_path / "cli.json")
    assert r.exit_code == 0, (r.stdout, r.stderr)
    seen = []
    result = ss.tune("greedy:risk=2", "random", 120, out=tmp_path / "api.json",
                     started=lambda t, state: seen.append((t.strategy, state is not None)),
                     **TUNE)
    assert result.played and result.resumed == 0 and seen == [("greedy:risk=2", True)]
    cli, api = (json.loads((tmp_path / f).read_text()) for f in ("cli.json", "api.json"))
    cli.pop("seconds"), api.pop("seconds")
    assert cli == api
    assert r.stdout.splitlines()[1:-1] == ss_summary(result).splitlines()[1:]
    # complete: read back, nothing played, the same summary as the command prints again
    again = ss.tune("greedy:risk=2", ["random"], 120, out=tmp_path / "cli.json",
                    started=lambda *a: seen.append(a), **TUNE)
    assert not again.played and len(seen) == 1
    assert (again.best, again.holdout, again.history) == (result.best, result.holdout,
                                                          result.history)
    r2 = invoke("tune", *TUNE_ARGS, "--out", tmp_path / "cli.json")
    assert r2.exit_code == 0, r2.stderr
    assert r2.stdout.splitlines() == [*ss_summary(again).splitlines(),
                                      f"{tmp_path / 'cli.json'} already holds this tuning, "
                                      f"complete: nothing played"]
    # without a file: the same result
    alone = ss.tune("greedy:risk=2", "random", 120, **TUNE)
    assert (alone.best, alone.holdout) == (result.best, result.holdout)


def ss_summary(result) -> str:
    from experiments.tune import summary
    return summary(result)


def test_tune_input_errors_are_the_cli_lines(tmp_path):
    notes = tmp_path / "notes.txt"
    notes.write_text("mine")
    with pytest.raises(TuneError, match="is not a tune result") as e:
        ss.tune("greedy", "random", 10_000, out=notes)
    assert e.value.param == "--out" and notes.read_text() == "mine"
    with pytest.raises(TuneError, match="does not cover one generation") as e:
        ss.tune("greedy", "random", 10)
    r = invoke("tune", "greedy", "--against", "random", "--budget", 10)
    assert_usage_error(r.exit_code, r.stderr, r.stdout, str(e.value))
    with pytest.raises(TuneError, match="does not exist") as e:
        ss.tune("greedy", "random", 10_000, out=tmp_path / "no" / "t.json")
    assert listing(tmp_path) == ["notes.txt"]


# ---------------------------------------------------------------------------- strategies
def test_strategies_table_is_the_listing():
    plugin = ROOT / "examples" / "homing_bot.py"
    r = invoke("strategies", "--plugin", plugin)
    assert r.exit_code == 0, r.stderr
    table = ss.strategies([plugin])
    assert list(table.columns) == ["strategy", "description", "plugin", "param", "default",
                                   "low", "high", "doc"]
    lines = []
    for name, rows in table.groupby("strategy", sort=False):
        first = rows.iloc[0]
        lines.append(name + (f"  (plug-in {first.plugin})" if first.plugin else ""))
        lines.append(f"    {first.description}")
        lines += [f"    {p.param} = {p.default:g}  [{p.low:g}, {p.high:g}]"
                  + (f"  {p.doc}" if p.doc else "") for p in rows.itertuples() if p.param]
    assert r.stdout.splitlines() == lines
    assert table.loc[table.strategy == "random", "param"].tolist() == [None]
    assert table.loc[table.strategy == "homing", "plugin"].tolist() == [str(plugin)]
    assert {"random", "greedy", "homing"} <= set(table.strategy)


# ---------------------------------------------------------------------------- summary
def test_summary_is_the_cli_text(tmp_path):
    one, two = tmp_path / "a.parquet", tmp_path / "b.csv"
    assert invoke("simulate", "--players", 5, "--games", 40, "--seed", 2, "--strategies",
                  "greedy", "--out", one, "--no-progress").exit_code == 0
    both = pd.concat([ss.simulate(30, seed=1, players=3), pd.read_parquet(one)],
                     ignore_index=True)
    both.to_csv(two, index=False)
    for path, blocks in ((one, 1), (two, 2)):
        r = invoke("summary", path, "--tiebreak", "shared")
        assert r.exit_code == 0, r.stderr
        tables = ss.summary(path, tiebreak="shared")
        assert len(tables) == blocks
        text = "\n\n".join(f"{t.attrs['header']}\n{format_summary(t)}" for t in tables)
        assert r.stdout == text + "\n"
    frame = ss.summary(pd.read_parquet(one))[0]
    pd.testing.assert_frame_equal(frame, ss.summary(one)[0])
    assert frame["games"].tolist() == [40] * 5
    # a table that is not one: the command's line, from the API's error
    broken = tmp_path / "broken.csv"
    broken.write_text(two.read_text().splitlines()[0] + "\n")
    with pytest.raises(TableError) as e:
        ss.summary(broken)
    r = invoke("summary", broken)
    assert_usage_error(r.exit_code, r.stderr, r.stdout, str(e.value))
    with pytest.raises(TableError, match="unknown table extension"):
        ss.read_table(tmp_path / "a.json")


# ---------------------------------------------------------------------------- referee, view
@pytest.fixture(scope="module")
def saved_log(tmp_path_factory):
    d = tmp_path_factory.mktemp("log")
    log = ss.replay(11, 3, players=3, strategies="greedy,random,greedy")
    path = d / "g.json"
    path.write_text(json.dumps(log))
    return path, json.loads(path.read_text())


def test_the_referee_finding_is_the_cli_line(saved_log, tmp_path):
    path, log = saved_log
    assert ss.check(path) is None and ss.check(log) is None
    assert invoke("referee", path).stdout == "referee: OK\n"
    log["record"]["score_1"] += 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(log))
    found = ss.check(bad)
    assert found is not None and found.rule == "B7.2" and str(ss.check(log)) == str(found)
    r = invoke("referee", bad)
    assert r.exit_code == 1 and r.stdout == f"referee: DISCREPANCY {found}\n"
    garbage = tmp_path / "garbage.json"
    garbage.write_text("{not json")
    with pytest.raises(LogError) as e:
        ss.check(garbage)
    r = invoke("referee", garbage)
    assert_usage_error(r.exit_code, r.stderr, r.stdout, f"not a JSON replay log: {e.value}")


def test_the_view_page_is_the_cli_page(saved_log, tmp_path):
    path, log = saved_log
    out = tmp_path / "v.html"
    r = invoke("view", path, "--html", out)
    assert r.exit_code == 0, r.stderr
    page = ss.view(path)
    assert page == out.read_text(encoding="utf-8") == ss.view(log)
    assert ss.view(ss.read_log(path), out=tmp_path / "api.html") == page
    assert (tmp_path / "api.html").read_bytes() == out.read_bytes()
    with pytest.raises(LogError, match="the log is not a survive-sim log"):
        ss.view({"events": []})


# ---------------------------------------------------------------------------- bench
def test_bench_has_one_row_per_cell():
    rows, cells = [], []
    table = ss.bench([3, 4], ["random"], [1, 1, None], games=10, repeat=2,
                     on_row=rows.append, started=cells.append)
    counts = thread_counts([1, None])              # 1 and numba's threads, each once
    assert list(table.columns) == ["players", "strategy", "threads", "games", "best", "slowest"]
    assert len(table) == 2 * len(counts) == len(rows)
    assert table[["players", "strategy", "threads"]].values.tolist() == [
        [p, "random", n] for p in (3, 4) for n in counts]
    assert (table["games"] == 10).all() and (table["best"] >= table["slowest"]).all()
    assert [list(c) for c in cells] == [[(3, "random"), (4, "random")]]
    assert table.attrs["machine"].startswith("machine: ")
    sized = ss.bench("2", ["random"], [1], seconds=0.1, repeat=1, max_games=64)
    assert len(sized) == 1 and 32 <= sized["games"].iloc[0] <= 64
    with pytest.raises(ValueError, match="needs 5 or 6 players"):
        ss.bench([4], challenges="6")


def test_bench_sweep_returns_the_ratios():
    spec = {"name": "b", "description": "bench", "seed": 1, "games": 20, "chunk": 10,
            "grid": [{"players": [4], "strategies": ["random"], "boats": ["rules"],
                      "challenges": [[]], "tiebreak": ["chain", "shared"]}]}
    lines = []
    out = ss.bench_sweep(spec, repeat=1, report=lines.append)
    assert set(out) == {"times", "sweep_over_raw"} and len(out["times"]["raw"]) == 1
    assert len(lines) == 1 and lines[0].startswith("run 1: raw ")


def test_bench_search_times_the_tree_against_bare_playouts():
    rows, spec = [], "search:rollout=random,depth=2"
    table = ss.bench_search(spec, [3, 6], [4], decisions=2, repeat=1, on_row=rows.append)
    assert list(table.columns) == ["players", "budget", "way", "decisions", "iterations",
                                   "best", "slowest"]
    assert table[["budget", "way"]].values.tolist() == [
        [b, w] for b in (3, 6) for w in ("tree", "worlds", "playouts")]
    assert (table["iterations"] == 2 * table["budget"]).all() and len(rows) == 6
    assert (table["best"] >= table["slowest"]).all() and (table["slowest"] > 0).all()
    assert table.attrs["spec"] == "search:rollout=random,depth=2"
    games = ss.bench_search_games("search:budget=2,rollout=random,depth=2", [4], games=1)
    assert games[["players", "seats", "budget", "games"]].values.tolist() == [
        [4, "one", 2, 1], [4, "every", 2, 1]]
    assert (games["seconds"] > 0).all()
