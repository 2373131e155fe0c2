"""The recipes of docs/opening-a-run.md, taken from the page itself and run on a small real
sweep: they must agree with each other and with the tool (``finished_chunks``, ``load_run``,
``balance_stats``, which ``survive-sim stats`` prints), and the page's account of an
interrupted extension (a chunk the tool ignores, which a glob reads) must hold.

A code block runs when the line before its fence is ``<!-- run: NAME -->``; every ``python``
and ``sql`` block must say ``run`` or ``not run: why``, so the page cannot gain a block this
file does not try. DuckDB and polars come with the ``test`` extra: without them these tests
are skipped with the reason, except under ``CI=true``, where they fail.
"""
from __future__ import annotations

import importlib
import os
import re
from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from experiments.store import runs
from experiments.sweeps import spec, sweep
from experiments.tables.stats import balance_stats
from support.run_table import load_run

ROOT = Path(__file__).resolve().parents[1]
DOC = ROOT / "docs" / "opening-a-run.md"
IN_CI = os.environ.get("CI", "").lower() == "true"
RUN = Path("runs/five-six")                     # the folder the page's recipes open
LABEL = "p5-boats_rules-base-tb_chain-greedy"   # the setting the page's recipes filter on
# 2 players (seats summed per player), the chain and shared tie-breaks, Challenge 3 (the
# chain's value step): 8 settings, 4 distinct sets of games
GRID = {"players": [2, 5], "strategies": ["greedy"], "tiebreak": ["chain", "shared"],
        "challenges": [[], [3]]}
GAMES, CHUNK = 400, 100
FENCE = re.compile(r"^```(\w*)\n(.*?)^```$", re.S | re.M)
MARK = re.compile(r"<!-- (run|not run): *(.*?) -->")


def doc_blocks() -> tuple[dict[str, tuple[str, str]], list[str]]:
    """``{name: (language, code)}`` of the blocks marked to run, and the problems: python or
    sql blocks without a mark, names used twice."""
    text = DOC.read_text(encoding="utf-8")
    found, problems = {}, []
    for m in FENCE.finditer(text):
        lang, code = m.group(1), m.group(2)
        mark = MARK.fullmatch(text[:m.start()].rstrip("\n").rsplit("\n", 1)[-1])
        if mark is None:
            if lang in ("python", "sql"):
                problems.append(f"unmarked {lang} block: {code.splitlines()[0]!r}")
            continue
        if mark.group(1) == "run":
            if mark.group(2) in found:
                problems.append(f"two blocks named {mark.group(2)!r}")
            found[mark.group(2)] = (lang, code)
    return found, problems


BLOCKS, PROBLEMS = doc_blocks()


def need(module: str):
    try:
        return importlib.import_module(module)
    except ImportError:
        if IN_CI:
            pytest.fail(f"CI=true but {module} is not installed: the test extra brings it "
                        f"(pip install '.[test]')")
        pytest.skip(f"{module} is not installed (pip install '.[query]')")


def recipe(*names: str) -> dict:
    """Run the page's blocks ``names`` in order (in the current directory) in one namespace;
    a sql block's result, as a pandas table, is ``ns[name]``."""
    ns: dict = {}
    for name in names:
        lang, code = BLOCKS[name]
        if lang == "sql":
            ns[name] = need("duckdb").sql(code).df()
        else:
            exec(compile(code, f"{DOC.name}:{name}", "exec"), ns)
    return ns


def small(games: int, grid: dict, chunk: int = CHUNK) -> spec.Spec:
    return spec.build({"name": "recipes", "seed": 11, "games": games, "chunk": chunk,
                       "grid": grid})


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    """A folder holding ``runs/five-six``: a finished sweep of ``GRID``."""
    where = tmp_path_factory.mktemp("recipes")
    sweep.run_sweep(small(GAMES, GRID), where / RUN)
    return where


@pytest.fixture(scope="module")
def tool(base):
    """What the tool reads and says: the table, the account, ``stats``' tidy rows."""
    df, account = load_run(base / RUN)
    return df, account, balance_stats(df)


@pytest.fixture
def here(base, monkeypatch):
    monkeypatch.chdir(base)
    return base


def rows(stats: pd.DataFrame, metric: str) -> pd.DataFrame:
    out = stats[stats["metric"] == metric].copy()
    if out["seat"].notna().any():
        out["seat"] = out["seat"].astype(int)
        return out.set_index(["setting", "seat"]).sort_index()
    return out.set_index("setting").sort_index()


# ------------------------------------------------------------------------------ the page
def test_every_code_block_is_run_or_says_why_not():
    assert PROBLEMS == []
    assert set(BLOCKS) == {"files", "duckdb-games", "pandas", "pyarrow", "pyarrow-filter",
                           "duckdb-seats", "duckdb-files", "polars"}
    assert all(f"'{RUN.as_posix()}/*.parquet'" in code
               for lang, code in BLOCKS.values() if lang == "sql")


# ------------------------------------------------------------------------------ the recipes
def test_the_files_recipe_lists_what_the_tool_reads(here, tool):
    ns = recipe("files")
    files, account = runs.finished_chunks(RUN)
    assert ns["paths"] == [p for label in files for p in files[label]]
    assert ns["account"] == account == {label: (GAMES, GAMES) for label in tool[1]}
    assert ns["complete"] is True and ns["manifest"]["games"] == GAMES
    assert len(ns["paths"]) == len(account) * GAMES // CHUNK


def test_the_sql_check_counts_every_setting_complete(here, tool):
    games = recipe("duckdb-games")["duckdb-games"]
    assert list(games["setting"]) == sorted(tool[1])
    assert (games["games"] == GAMES).all() and (games["first"] == 0).all()
    assert (games["last"] == GAMES - 1).all()


def test_pandas_reads_one_setting_and_its_seat_means(here, tool):
    df, account, stats = tool
    ns = recipe("files", "pandas")
    assert set(ns["one"]["setting"].astype(str)) == {LABEL} and len(ns["one"]) == GAMES
    seats = ns["seat_scores"]
    assert list(seats.index) == [f"score_{s}" for s in range(5)]        # 5 players, 5 seats
    want = rows(stats, "mean_score").loc[LABEL]
    assert (seats["n"] == want["n"].to_numpy()).all()
    assert np.allclose(seats["mean"].astype(float), want["value"], rtol=0, atol=1e-12)
    mine = df[df["setting"] == LABEL]
    assert np.allclose(seats["se"].astype(float),
                       [mine[f"score_{s}"].astype(float).sem() for s in range(5)])


def test_pyarrow_streams_the_tie_rate_of_every_setting_as_stats_gives_it(here, tool):
    df, account, stats = tool
    ns = recipe("files", "pyarrow", "pyarrow-filter")
    got = ns["tie_rates"].set_index("setting").sort_index()
    want = rows(stats, "tie_rate")
    assert list(got.index) == list(want.index)
    assert (got["n"] == want["n"]).all()
    for a, b in (("tie_rate", "value"), ("low", "low"), ("high", "high")):
        assert np.allclose(got[a], want[b], rtol=0, atol=1e-12), a
    lengths = ns["lengths"]
    mine = df.loc[df["setting"] == LABEL, "turns"]
    assert lengths["count"] == GAMES and lengths["mean"] == pytest.approx(mine.mean())


def test_duckdb_gives_stats_win_share_and_mean_score_of_every_seat(here, tool):
    """The tie split under each setting's own rule: the chain with and without Challenge 3's
    value step, the shared win, and 2 players counted per player."""
    df, account, stats = tool
    got = recipe("duckdb-seats")["duckdb-seats"]
    got = got.assign(seat=got["seat"].astype(int)).set_index(["setting", "seat"]).sort_index()
    share, score = rows(stats, "win_share"), rows(stats, "mean_score")
    assert list(got.index) == list(share.index) == list(score.index)
    assert (got["n"] == share["n"]).all()
    for a, b in (("win_share", "value"), ("low", "low"), ("high", "high")):
        assert np.allclose(got[a], share[b], rtol=0, atol=1e-9), a
    assert np.allclose(got["mean_score"], score["value"], rtol=0, atol=1e-12)
    # the own rule matters here: Challenge 3's ties, split under shared, are broken by the chain
    ch3 = [("p2-boats_rules-ch3-tb_chain-greedy", 0), ("p2-boats_rules-ch3-tb_shared-greedy", 0)]
    assert got.loc[ch3[0], "win_share"] != got.loc[ch3[1], "win_share"]


def test_duckdb_reads_the_tools_list_of_files(here, tool):
    present = recipe("files", "duckdb-files")["present"]
    assert dict(zip(present["setting"], present["games"])) == \
        {label: have for label, (have, asked) in tool[1].items()}


def test_polars_lazy_query_agrees_with_stats(here, tool):
    need("polars")
    df, account, stats = tool
    got = recipe("files", "polars")["per_setting"].to_pandas()
    got["setting"] = got["setting"].astype(str)
    got = got.set_index("setting").sort_index()
    five = sorted(label for label in account if label.startswith("p5-"))
    assert list(got.index) == five and (got["games"] == GAMES).all()
    score = rows(stats, "mean_score")
    for label in five:
        assert np.allclose(got.loc[label, [f"score_{s}" for s in range(5)]].astype(float),
                           score.loc[label, "value"], rtol=0, atol=1e-12)
        assert got.loc[label, "score_5"] is None or pd.isna(got.loc[label, "score_5"])
        assert got.loc[label, "mean_turns"] == pytest.approx(
            df.loc[df["setting"] == label, "turns"].mean())


# ------------------------------------------------------------------------------ a partial run
def test_after_an_interrupted_extension_the_recipes_read_what_the_tool_reads(tmp_path,
                                                                            monkeypatch):
    """150 games in chunks of 100 leave a short last chunk; extending to 300 plays it again
    whole, and a stop after the first chunk leaves the other settings' short chunks in place:
    the tool ignores them, a glob reads them, and the page's checks say the run is partial."""
    grid = {"players": [4, 5], "strategies": ["random"]}
    sweep.run_sweep(small(150, grid), tmp_path / RUN)
    outcome = sweep.run_sweep(small(300, grid), tmp_path / RUN, stop=lambda: True)
    assert outcome.stopped
    monkeypatch.chdir(tmp_path)

    ns = recipe("files", "pyarrow")
    account = runs.finished_chunks(RUN)[1]
    assert ns["complete"] is False and ns["account"] == account
    assert dict(ns["games"]) == {label: have for label, (have, asked) in account.items()}
    globbed = pd.read_parquet(RUN, columns=["setting"])["setting"].astype(str).value_counts()
    stale = [label for label, (have, asked) in account.items() if globbed[label] != have]
    assert stale and all(globbed[label] == 150 and account[label][0] == 100 for label in stale)

    games = recipe("duckdb-games")["duckdb-games"].set_index("setting")
    assert (games["games"] < 300).all() and (games["last"] < 299).all()   # the check says short
    assert (games.loc[stale, "games"] == 150).all()
