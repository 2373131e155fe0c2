"""Bad numbers: hostile and impossible values for simulate, summary, bench and Settings.

Every refusal is checked as a user meets it: a real ``python -m survive_sim.cli`` process, exit
code 2, one line on stderr naming the problem (and the accepted values), no traceback, no file
left behind. The pure-Python rules (``Settings``, ``experiments.tables.summary.check_values``, the
interval of a mean, the chunk cap) are checked in-process.
"""
from __future__ import annotations

import math
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings as hsettings, strategies as st

from survive_sim.cli import main
from support.cli_harness import ROOT, assert_usage_error, invoke, listing, run_process, runner

INT32_MAX = 2**31 - 1
INDEX_MAX = 2**63 - 1


def refused(tmp: Path, needle: str, *args, files: list[str] | None = None):
    """A real process with ``args``: exit 2, one line naming ``needle``, no traceback, and
    ``tmp`` holding exactly ``files`` afterwards (no ``.tmp`` leftover, no partial output)."""
    before = listing(tmp) if files is None else sorted(files)
    p = run_process(*args, cwd=tmp)
    assert_usage_error(p.returncode, p.stderr, p.stdout, needle)
    assert p.stderr.startswith(f"survive-sim {args[0]}: error: "), p.stderr
    assert p.stdout == ""
    assert listing(tmp) == before, listing(tmp)
    return p.stderr.strip()


def refused_here(tmp: Path, needle: str, *args) -> str:
    """``refused`` through click's runner in this process (the same command, without the
    interpreter's start-up: for the many variations of a case one process already shows)."""
    before = listing(tmp)
    r = runner().invoke(main, [str(a) for a in args])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp) == before
    return r.stderr.strip()


# ---------------------------------------------------------------------------- tables
@pytest.fixture(scope="module")
def tables(tmp_path_factory):
    """Real tables: 5 players (8 explorers worth 24 each, X1.1) as CSV, 4 players as Parquet."""
    d = tmp_path_factory.mktemp("tables")
    five, four = d / "five.csv", d / "four.parquet"
    for players, out in ((5, five), (4, four)):
        r = invoke("simulate", "--players", players, "--games", 30, "--strategies", "greedy",
                   "--out", out, "--no-progress")
        assert r.exit_code == 0, r.output
    return pd.read_csv(five), pd.read_parquet(four)


def edited(df: pd.DataFrame, col: str, row: int, value) -> pd.DataFrame:
    out = df.copy()
    out[col] = out[col].astype(object)
    out.loc[row, col] = value
    return out


# the cases, as a user meets them (a real process); (column, row, value, needle)
SUMMARY_PROCESS_CASES = {
    "score a million": ("score_1", 4, 1_000_000,
                        "row 5 (game 4) has score_1 1000000; accepted: whole numbers 0-28"),
    "negative score": ("score_0", 2, -50, "row 3 (game 2) has score_0 -50; accepted: whole "
                                          "numbers 0-28"),
    "fraction of a score": ("score_2", 0, 2.5, "row 1 (game 0) has score_2 2.5; accepted"),
    "turn cap past int32": ("max_turns", 1, 2**31, "has max_turns 2147483648; accepted: whole "
                                                   "numbers 1-2147483647"),
    "negative game index": ("game", 7, -1, "has game -1; accepted: whole numbers 0-"
                                           "9223372036854775807"),
}
IN_A_PROCESS = ("score a million", "turn cap past int32")


@pytest.mark.parametrize("case", SUMMARY_PROCESS_CASES)
def test_summary_refuses_impossible_values(tables, tmp_path, case):
    col, row, value, needle = SUMMARY_PROCESS_CASES[case]
    path = tmp_path / "edited.csv"
    edited(tables[1], col, row, value).to_csv(path, index=False)
    line = (refused if case in IN_A_PROCESS else refused_here)(tmp_path, needle, "summary",
                                                                path if case not in IN_A_PROCESS
                                                                else path.name)
    assert col in line and "[" not in line            # the column named; no interval printed


# more cases, through the same command in-process (column, row, value, needle); 5 players
SUMMARY_CASES = {
    "score over 24 with 5 players": ("score_0", 3, 25, "has score_0 25; accepted: whole "
                                                      "numbers 0-24"),
    "score not the rescued value": ("score_0", 3, None, "B7.2: the value of the seat's rescued"),
    "NaN score": ("score_1", 3, np.nan, "row 4 (game 3) has no score_1"),
    "infinite score": ("score_1", 3, np.inf, "has score_1 inf; accepted"),
    "text score": ("score_1", 3, "abc", "has score_1 'abc'; accepted: whole numbers 0-24"),
    "rescued over 8": ("rescued_0", 3, 9, "has rescued_0 9; accepted: whole numbers 0-8"),
    "lost negative": ("lost_2", 3, -1, "has lost_2 -1; accepted: exactly"),
    "turns past the cap": ("turns", 3, 401, "has turns 401; accepted: whole numbers 0-400"),
    "seat turns past the game's": ("turns_4", 3, 10**6, "has turns_4 1000000; accepted"),
    "seat of another player": ("player_1", 3, 0, "has player_1 0; accepted: exactly 1"),
    "end seat past the table": ("end_seat", 3, 5, "has end_seat 5; accepted: whole numbers 0-4"),
    "four boats": ("boats_0", 3, 4, "has boats_0 4; accepted: whole numbers 0-3"),
    "game index past int64": ("game", 3, 2**64, "has game 18446744073709551616; accepted"),
    "fractional game index": ("game", 3, 1.5, "has game 1.5; accepted"),
    "duplicate game": ("game", 3, 4, "duplicate game(s)"),
    "negative seed": ("seed", 3, -2, "has seed -2; accepted"),
    "zero turn cap": ("max_turns", 3, 0, "has max_turns 0; accepted: whole numbers 1-"),
    "unknown end reason": ("end_reason", 3, "boom", "has end_reason 'boom'; accepted: none, "
                                                    "volcano, turn_cap"),
    "unknown challenge": ("challenges", 3, "7", "has challenges '7'; accepted: none, or "
                                                "challenges 1-6"),
    "dolphins without challenge 5": ("dolphins", 3, True, "has dolphins True; accepted: False"),
    "dolphins placed without challenge 5": ("dolphins_placed", 3, 1, "dolphins_placed 1; "
                                                                      "accepted: exactly 0"),
    "squid placed without the squid": ("squid_placed", 3, 2, "squid_placed 2; accepted: "
                                                             "exactly 0"),
    "bonus moves without challenge 6": ("bonus_moves", 3, 1, "bonus_moves 1; accepted: "
                                                             "exactly 0"),
    "squid losses without the squid": ("lost_squid_0", 3, 1, "lost_squid_0 1; accepted"),
    "flag neither true nor false": ("squid", 3, "maybe", "has squid 'maybe'; accepted: True or "
                                                         "False"),
    "seats for other players": ("seats", 3, 4, "has 4 seats for 5 players"),
}


@pytest.mark.parametrize("case", SUMMARY_CASES)
def test_summary_names_column_row_and_range(tables, tmp_path, case):
    col, row, value, needle = SUMMARY_CASES[case]
    five = tables[0]
    if value is None:                                  # a score that is not its explorers'
        value = int(five.loc[row, "rescued_value_0"]) + 1
        if value > 24:
            value -= 2
    path = tmp_path / "edited.csv"
    edited(five, col, row, value).to_csv(path, index=False)
    refused_here(tmp_path, needle, "summary", path)


def test_real_tables_pass_the_value_checks(tables):
    from experiments.tables.summary import check_values
    for df in tables:
        check_values(df)


def test_summary_of_files_that_are_not_tables(tables, tmp_path):
    """An empty file, a CSV of other columns, a non-table file, a Parquet of another shape, a
    table with a seat's column missing, a header only."""
    (tmp_path / "empty.csv").write_bytes(b"")
    (tmp_path / "other.csv").write_text("a,b\n1,2\n")
    (tmp_path / "binary.parquet").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(range(256)))
    pd.DataFrame({"players": [4], "end_reason": ["volcano"]}).to_parquet(tmp_path / "shape.parquet")
    tables[1].drop(columns="turns_2").to_csv(tmp_path / "missing.csv", index=False)
    tables[1].iloc[:0].to_csv(tmp_path / "header.csv", index=False)
    files = listing(tmp_path)
    for name, needle in (("empty.csv", "is not a readable results table"),
                         ("binary.parquet", "is not a readable results table"),
                         ("shape.parquet", "missing column 'turns'")):
        refused(tmp_path, needle, "summary", name, files=files)
    for name, needle in (("other.csv", "missing column 'players'"),
                         ("missing.csv", "missing column 'turns_2' for seat 2"),
                         ("header.csv", "the table has no games")):
        refused_here(tmp_path, needle, "summary", tmp_path / name)


# ---------------------------------------------------------------------------- intervals
def test_the_edited_million_no_longer_gives_a_mean_outside_its_interval(tables):
    """Why it printed 5009.21 [27.47, 28.00]: the score's range was [0, 28] while a value was
    1,000,000; the t interval did not fit the range, so the Wilson interval of the mean scaled
    to the range was taken, its count clipped to n: the top of [0, 28]. A value outside the
    range now widens the range, so the interval is of the values there are."""
    from experiments.tables.summary import summary_table
    t = summary_table(edited(tables[1], "score_0", 4, 1_000_000).astype({"score_0": "int64"}))
    r = t.iloc[0]
    assert r.score_lo <= r.mean_score <= r.score_hi and r.score_hi > 28


@hsettings(max_examples=200, deadline=None)
@given(st.lists(st.integers(-10**6, 10**6), min_size=1, max_size=30),
       st.integers(-5, 5), st.integers(1, 60))
def test_a_mean_is_inside_its_own_interval(values, lo, width):
    from experiments.tables.summary import Moments
    m = Moments(lo, lo + width)
    m.add(np.array(values, np.int64))
    mean, _, low, high = m.ci()
    assert low <= mean <= high
    assert mean == pytest.approx(np.mean(values))
    if all(lo <= v <= lo + width for v in values):          # clipped to the range only then
        assert lo <= low and high <= lo + width


# ---------------------------------------------------------------------------- memory
def test_effective_chunk_caps_what_is_held():
    from survive_sim.cli.simulate import GAME_BYTES, MAX_CHUNK, effective_chunk
    from play.layout import REC_W
    assert REC_W * 4 < GAME_BYTES                           # the raw records alone fit in it
    assert effective_chunk(10**8, 10**8, available=64 * 10**9) == MAX_CHUNK
    assert effective_chunk(10**8, 10**8, available=10**8) == 10**8 // 2 // GAME_BYTES
    assert effective_chunk(10**8, 10**8, available=1) == 1000        # 2 MB whatever it says
    assert effective_chunk(500, 10**8, available=1) == 500
    assert effective_chunk(10**8, 7, available=10**9) == 7


def _peak_rss(pid: int) -> int:
    with open(f"/proc/{pid}/status", encoding="ascii") as f:
        for line in f:
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) * 1024
    return 0


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="needs /proc")
def test_a_huge_chunk_plays_in_flat_memory_and_leaves_nothing(tmp_path):
    """`simulate --games 100000000 --chunk 100000000` used to fail with "Unable to allocate"
    (35 GB of records at once) after the engine had started. Now it plays chunks of at most
    MAX_CHUNK games: it is still playing after seconds, far below a GB, and SIGTERM leaves no
    temporary file."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    p = subprocess.Popen(
        [sys.executable, "-m", "survive_sim.cli", "simulate", "--games", str(10**8), "--chunk",
         str(10**8), "--out", "big.parquet", "--no-progress"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and p.poll() is None and not any(
                n.endswith(".tmp") for n in listing(tmp_path)):
            time.sleep(0.2)                                 # the writer opened its .tmp file
        time.sleep(3)                                       # playing the first chunk
        assert p.poll() is None, p.communicate()
        assert _peak_rss(p.pid) < 1_000_000_000
        p.send_signal(signal.SIGTERM)
        out, err = p.communicate(timeout=120)
    finally:
        if p.poll() is None:
            p.kill()
            p.communicate()
    assert p.returncode == 143, err
    assert "Traceback" not in err and "allocate" not in err
    assert listing(tmp_path) == []


def test_running_out_of_memory_anyway_is_one_line_and_leaves_nothing(tables, tmp_path):
    """Other processes may take the memory after the checks: one line, no table, no .tmp."""
    from unittest import mock

    import survive_sim.games as api                        # the CLI plays through the API

    def no_memory(*args, **kwargs):
        raise MemoryError("Unable to allocate 33.4 GiB")
        yield                                               # a generator, as iter_frames

    with mock.patch.object(api, "iter_frames", no_memory):
        r = runner().invoke(main, ["simulate", "--games", 5, "--no-progress", "--out",
                                   str(tmp_path / "t.csv")])
    assert r.exit_code == 1 and len(r.stderr.strip().splitlines()) == 1, r.stderr
    assert "out of memory after 0 games" in r.stderr and "lower --chunk" in r.stderr
    assert listing(tmp_path) == []


def test_bench_refuses_games_that_cannot_fit(tmp_path):
    line = refused(tmp_path, "of memory", "bench", "--games", 10**15)
    assert "is available" in line and "the largest --games that fits is" in line


@pytest.mark.parametrize("value", ["nan", "inf", "-inf", "1e400"])
def test_bench_seconds_must_be_finite(tmp_path, value):
    refused(tmp_path, "is not a finite number", "bench", "--seconds", value)


# ---------------------------------------------------------------------------- max_turns
@pytest.mark.parametrize("value", ["2147483648", "99999999999999999999",
                                   "9223372036854775807", "0", "-1", "nan", ""])
def test_simulate_max_turns_is_an_int32(tmp_path, value):
    refused(tmp_path, "--max-turns", "simulate", "--games", 1, "--max-turns", value)


@pytest.mark.parametrize("value", [2**31, 2**63, 0, -1, 1.5, 400.0, "400", True, None,
                                   math.nan, math.inf])
def test_settings_refuse_a_turn_cap_outside_int32(value):
    from play.settings import Settings, SettingsError
    with pytest.raises(SettingsError, match=r"max_turns .* 1 to 2147483647") as e:
        Settings(players=4, max_turns=value)
    assert e.value.param == "--max-turns" and "\n" not in str(e.value)
    with pytest.raises(SettingsError, match="1 to 2147483647"):
        Settings.from_dict({**Settings(players=3).to_dict(), "max_turns": value})


def test_settings_take_int32_turn_caps_of_any_integer_type():
    from play.settings import Settings
    assert Settings(players=4, max_turns=INT32_MAX).max_turns == INT32_MAX
    s = Settings(players=np.int64(3), max_turns=np.int32(50), boats=(np.int8(1),) * 3)
    assert (s.max_turns, s.players, s.boats) == (50, 3, (1, 1, 1))
    assert type(s.max_turns) is int and type(s.players) is int


@pytest.mark.parametrize("kwargs, param", [
    ({"players": 4.0}, "--players"), ({"boats": (1.5, 2, 2, 2)}, "--boats"),
    ({"challenges": (1.0,)}, "--challenge"), ({"challenges": 3}, "--challenge"),
    ({"squid": "no"}, "--squid"), ({"strategies": (3,)}, "--strategies"),
    ({"tiebreak": 3}, "--tiebreak")])
def test_settings_refuse_other_fields_of_the_wrong_type(kwargs, param):
    from play.settings import Settings, SettingsError
    with pytest.raises(SettingsError) as e:
        Settings(**{"players": 4, **kwargs})
    assert e.value.param == param


def test_setting_strings_refuse_non_ascii_digits():
    """int() reads '٢' as 2 and isdigit() holds for '²', which int() refuses (a traceback)."""
    from play.settings import SettingsError, parse_boats, parse_challenges
    for text in ("²", "٢", "1,²"):
        with pytest.raises(SettingsError, match="challenge"):
            parse_challenges(text)
    for text in ("٢,٢,٢,٢", "2,2,2,²", "1e400", "nan", "9" * 5000, ""):
        with pytest.raises(SettingsError, match="boats must be"):
            parse_boats(text)


# ---------------------------------------------------------------------------- simulate's input
SIMULATE_REFUSALS = {
    "superscript challenge": (["--challenge", "²"], "unknown challenge '²'"),
    "arabic-indic boats": (["--boats", "٢,٢,٢,٢"], "boats must be `rules` or"),
    "huge boats": (["--boats", "9" * 30 + ",2,2,2"], "boats must be"),
    "strategy parameter nan": (["--strategies", "greedy:risk=nan"], "risk=nan is outside"),
    "strategy parameter 1e400": (["--strategies", "greedy:risk=1e400"], "outside its range"),
    "strategy parameter text": (["--strategies", "random:x=abc"], "random has no parameter"),
    "zero threads": (["--threads", "0"], "--threads"),
    "last game past int64": (["--first", str(INDEX_MAX)], "past the last game index"),
    "first past int64": (["--first", str(2**63)], "--first"),
    "zero chunk": (["--chunk", "0"], "--chunk"),
    "out in /proc": (["--out", "/proc/x.csv"], "--out"),
    "out is a directory": (["--out", "."], "is a directory"),
    "out without a name": (["--out", ""], "unknown table extension"),
}


@pytest.mark.parametrize("case", SIMULATE_REFUSALS)
def test_simulate_refuses_hostile_values(tmp_path, case):
    args, needle = SIMULATE_REFUSALS[case]
    refused(tmp_path, needle, "simulate", "--games", 2, *args)


def test_simulate_out_may_not_be_a_plugin_nor_a_foreign_file(tmp_path):
    plugin = tmp_path / "bot.py"
    plugin.write_text((ROOT / "examples" / "homing_bot.py").read_text())
    (tmp_path / "bot.csv").symlink_to("bot.py")            # the same file by another name
    (tmp_path / "notes.csv").write_text("x,y\n1,2\n")       # not a survive-sim table
    files = listing(tmp_path)
    refused(tmp_path, "is the input --plugin", "simulate", "--games", 2, "--plugin", "bot.py",
            "--out", "bot.csv", files=files)
    refused(tmp_path, "notes.csv exists and was not written by survive-sim", "simulate",
            "--games", 2, "--out", "notes.csv", files=files)
    assert (tmp_path / "notes.csv").read_text() == "x,y\n1,2\n"
    assert plugin.read_text() == (ROOT / "examples" / "homing_bot.py").read_text()


def test_simulate_at_the_edges_of_its_ranges(tables, tmp_path):
    """The last int64 game, the int32 turn cap, more threads than CPUs, a chunk of 10**8:
    one game, played; the table replaces one survive-sim wrote, and reads back."""
    out = tmp_path / "edge.csv"
    tables[0].to_csv(out, index=False)                      # a table of ours: replaceable
    p = run_process("simulate", "--games", 1, "--first", INDEX_MAX, "--max-turns", INT32_MAX,
                    "--threads", 99999, "--chunk", 10**8, "--out", out.name, "--no-progress",
                    cwd=tmp_path)
    assert p.returncode == 0, p.stderr
    assert "Traceback" not in p.stderr
    assert listing(tmp_path) == ["edge.csv"]
    df = pd.read_csv(out)
    assert df["game"].tolist() == [INDEX_MAX] and df["max_turns"].tolist() == [INT32_MAX]
    s = invoke("summary", out)
    assert s.exit_code == 0, s.stderr
    assert f"games {INDEX_MAX}..{INDEX_MAX}; rules: max turns {INT32_MAX}" in s.stdout


def test_other_commands_refuse_empty_and_directory_paths(tmp_path):
    refused(tmp_path, "give an experiment file", "bench", "--sweep", " ")
    refused(tmp_path, "does not exist", "summary", "")
    refused(tmp_path, "is a directory", "summary", ".")
    refused(tmp_path, "is not a file", "strategies", "--plugin", ".")
