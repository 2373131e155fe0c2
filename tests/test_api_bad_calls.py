"""Bad calls of the Python API, as a new user makes them (docs/python.md): each raises a
``ValueError`` subclass whose message is one line naming the argument and what is accepted,
at once, and writes nothing -- not in the working folder, not beside its inputs, not at the
root of the file system (``survive_sim.checks``, the checks at the API's boundary).

Each way such a call goes wrong unchecked is a case here: accepted silently (``sweep(...,
games=-1)`` would write a manifest of -1 games; ``seed=-1``, ``threads=0``, ``tune(budget=nan)``,
``study(until_settled="yes")``, ``Run("/nonexistent")``, ``stats(precision=0)``,
``table(["nope"])``), hanging (``simulate(10**30)``, any sweep of 2**63-1 games), or surfacing
an internal message ("No objects to concatenate", ``OverflowError``, ``KeyError 'events'``);
so is a missing or read-only parent of every output. The same checks seen from the command line
(``study --games 2**63-1``, the rates of a sweep's last line) are at the end.
"""
from __future__ import annotations

import json
import math
import os
import signal
import uuid
from pathlib import Path

import pytest

import survive_sim as ss
from support.cli_harness import invoke
from experiments.sweeps.sweep import Outcome
from survive_sim.cli.sweep import played_text

SPEC = {"name": "bad-calls", "description": "fixture", "seed": 3, "games": 20, "chunk": 10,
        "grid": [{"players": [4], "strategies": ["random"], "tiebreak": ["shared", "chain"]}],
        "claims": {"S1": {}}}
BIG = 2**63 - 1
ROOT_DIR = f"/survive-sim-bad-call-{uuid.uuid4().hex[:8]}"     # must never be made
READ_ONLY = "/proc"                                             # refuses a new entry, even root


class Fixtures:
    """A run folder, a replay log, a per-game table and a user's own files, made once."""

    def __init__(self, root: Path):
        self.root = root
        self.run = root / "run"
        ss.sweep(SPEC, self.run)
        self.log = root / "game.json"
        self.log.write_text(json.dumps(ss.replay(3, 1, players=4)))
        self.table = root / "table.parquet"
        ss.simulate(10, seed=3).to_parquet(self.table)
        self.notes = root / "notes.txt"                  # a user's file: never replaced
        self.notes.write_text("mine\n")
        self.picture = root / "notes.svg"
        self.picture.write_text("<svg>mine</svg>\n")

    def state(self) -> dict:
        return {str(p): (p.stat().st_size, p.stat().st_mtime_ns)
                for p in sorted(self.root.rglob("*"))}


@pytest.fixture(scope="module")
def fx(tmp_path_factory):
    return Fixtures(tmp_path_factory.mktemp("bad-calls"))


class Hung(BaseException):
    pass


def _hung(signum, frame):
    raise Hung("the call did not answer within its time")


# id -> (call(fx, tmp), words the one line must hold)
CASES = {
    # ------------------------------------------------------------------ settings
    "settings players 7": (lambda fx, t: ss.settings(7), ["players must be one of 2, 3, 4, 5, 6"]),
    "settings strategies an int": (lambda fx, t: ss.settings(4, 5),
                                   ["strategies must be a list, got 5"]),
    "settings challenges an int": (lambda fx, t: ss.settings(4, challenges=3),
                                   ["challenges must be a list, got 3"]),
    "settings a misspelt rule": (lambda fx, t: ss.settings(4, squidd=True),
                                 ["unknown setting 'squidd'", "accepted:", "squid_only"]),
    "settings a flag 'yes'": (lambda fx, t: ss.settings(4, squid="yes"),
                              ["squid must be true or false, got 'yes'"]),
    "settings plugins an int": (lambda fx, t: ss.settings(4, plugins=5),
                                ["plugins must be a file or a list of files", "got 5"]),
    "settings plugin missing": (lambda fx, t: ss.settings(4, plugins=t / "no_bot.py"),
                                ["no_bot.py is not a file"]),
    # ------------------------------------------------------------------ simulate
    "simulate 0 games": (lambda fx, t: ss.simulate(0),
                         ["games must be a whole number 1 to 2**63-1, got 0"]),
    "simulate -1 games": (lambda fx, t: ss.simulate(-1), ["games must be a whole number", "-1"]),
    "simulate 2.5 games": (lambda fx, t: ss.simulate(2.5), ["games must be a whole number",
                                                            "got 2.5"]),
    "simulate nan games": (lambda fx, t: ss.simulate(math.nan), ["games must be", "got nan"]),
    "simulate True games": (lambda fx, t: ss.simulate(True), ["games must be", "got True"]),
    "simulate '10' games": (lambda fx, t: ss.simulate("10"), ["games must be", "got '10'"]),
    "simulate 10**30 games": (lambda fx, t: ss.simulate(10**30),
                              ["games must be a whole number 1 to 2**63-1"]),
    "simulate more than memory": (lambda fx, t: ss.simulate(2**62),
                                  ["needs about", "is available", "the largest games that fits",
                                   "simulate_chunks"]),
    "simulate seed -1": (lambda fx, t: ss.simulate(5, seed=-1),
                         ["seed must be a whole number 0 to 2**63-1, got -1"]),
    "simulate seed 2**63": (lambda fx, t: ss.simulate(5, seed=2**63),
                            ["seed must be a whole number 0 to 2**63-1"]),
    "simulate seed 1.5": (lambda fx, t: ss.simulate(5, seed=1.5), ["seed must be", "got 1.5"]),
    "simulate first -1": (lambda fx, t: ss.simulate(5, first=-1),
                          ["first must be a whole number 0 to 2**63-1, got -1"]),
    "simulate first past the last index": (
        lambda fx, t: ss.simulate(10, first=2**63 - 5),
        ["first 9223372036854775803 + games 10 - 1", "past the last game index 2**63-1",
         "lower first or games"]),
    "simulate threads 0": (lambda fx, t: ss.simulate(5, threads=0),
                           ["threads must be a whole number >= 1, or None", "got 0"]),
    "simulate threads '2'": (lambda fx, t: ss.simulate(5, threads="2"),
                             ["threads must be", "got '2'"]),
    "simulate settings a dict": (lambda fx, t: ss.simulate(5, settings={"players": 4}),
                                 ["settings must be a Settings"]),
    "simulate settings and fields": (
        lambda fx, t: ss.simulate(5, settings=ss.settings(4), squid=True),
        ["give either settings= or the settings' fields"]),
    "simulate an unknown keyword": (lambda fx, t: ss.simulate(5, nope=1),
                                    ["unknown setting 'nope'; accepted:"]),
    "simulate_chunks chunk 0": (lambda fx, t: ss.simulate_chunks(5, chunk=0),
                                ["chunk must be a whole number 1 to 2**63-1, got 0"]),
    "simulate_chunks chunk -1": (lambda fx, t: ss.simulate_chunks(5, chunk=-1),
                                 ["chunk must be", "got -1"]),
    "simulate_chunks 0 games": (lambda fx, t: ss.simulate_chunks(0), ["games must be", "got 0"]),
    "simulate_chunks seed 2**63": (lambda fx, t: ss.simulate_chunks(5, seed=2**63),
                                   ["seed must be"]),
    # ------------------------------------------------------------------ replay
    "replay seed -1": (lambda fx, t: ss.replay(-1, 0), ["seed must be a whole number 0 to"]),
    "replay game 2**63": (lambda fx, t: ss.replay(0, 2**63),
                          ["game must be a whole number 0 to 2**63-1"]),
    "replay game 1.5": (lambda fx, t: ss.replay(0, 1.5), ["game must be", "got 1.5"]),
    "replay settings and fields": (lambda fx, t: ss.replay(0, 0, settings=ss.settings(4),
                                                           players=5),
                                   ["give either settings= or"]),
    "replay settings a string": (lambda fx, t: ss.replay(0, 0, settings="greedy"),
                                 ["settings must be a Settings"]),
    # ------------------------------------------------------------------ tables
    "read_table an int": (lambda fx, t: ss.read_table(5), ["path must be a path", "got 5"]),
    "read_table missing": (lambda fx, t: ss.read_table(t / "none.parquet"),
                           ["is not a readable results table"]),
    "summary an int": (lambda fx, t: ss.summary(5),
                       ["table must be a per-game table (a DataFrame) or the path"]),
    "summary tiebreak 'x'": (lambda fx, t: ss.summary(fx.table, tiebreak="x"),
                             ["tiebreak must be one of shared, chain or None"]),
    # ------------------------------------------------------------------ spec, sweep
    "spec an int": (lambda fx, t: ss.spec(5), ["source must be a shipped study's name"]),
    "spec dict games -1": (lambda fx, t: ss.spec(SPEC, games=-1),
                           ["games: must be a positive whole number (1 to 2**63-1), got -1"]),
    "spec dict unknown key": (lambda fx, t: ss.spec(SPEC, nope=1),
                              ["nope: unknown key; accepted:"]),
    "spec 2**63-1 games": (lambda fx, t: ss.spec("five-six", games=BIG),
                           ["chunk files", "more than a run folder takes", "at most"]),
    "sweep games -1": (lambda fx, t: ss.sweep(SPEC, t / "run", games=-1),
                       ["games: must be a positive whole number", "got -1"]),
    "sweep games 0": (lambda fx, t: ss.sweep(SPEC, t / "run", games=0), ["got 0"]),
    "sweep games 2.5": (lambda fx, t: ss.sweep(SPEC, t / "run", games=2.5), ["got 2.5"]),
    "sweep games 2**63-1": (lambda fx, t: ss.sweep(SPEC, t / "run", games=BIG),
                            ["chunk files", "at most 5,000,000 games per setting"]),
    "sweep Spec games -1": (lambda fx, t: ss.sweep(ss.spec(SPEC), t / "run", games=-1),
                            ["games must be a whole number 1 to 2**63-1, got -1"]),
    "sweep threads 0": (lambda fx, t: ss.sweep(SPEC, t / "run", threads=0),
                        ["threads must be a whole number >= 1"]),
    "sweep workers 0": (lambda fx, t: ss.sweep(SPEC, t / "run", workers=0),
                        ["workers must be a whole number >= 1"]),
    "sweep workers without scheduler": (lambda fx, t: ss.sweep(SPEC, t / "run", workers=2),
                                        ["workers needs scheduler='local'"]),
    "sweep force_new 'yes'": (lambda fx, t: ss.sweep(SPEC, t / "run", force_new="yes"),
                              ["force_new must be True or False, got 'yes'"]),
    "sweep a missing parent": (lambda fx, t: ss.sweep(SPEC, t / "missing" / "x" / "run"),
                               ["does not exist; create it", "parents=True"]),
    "sweep a missing parent at the root": (lambda fx, t: ss.sweep(SPEC, f"{ROOT_DIR}/x/run"),
                                           ["does not exist; create it"]),
    "sweep a read-only parent": (lambda fx, t: ss.sweep(SPEC, f"{READ_ONLY}/survive-sim-run"),
                                 ["is not writable", "choose a writable directory"]),
    "sweep out a file": (lambda fx, t: ss.sweep(SPEC, fx.notes),
                         ["is a file; --out needs a folder"]),
    "sweep out None": (lambda fx, t: ss.sweep(SPEC, None), ["out must be a path"]),
    "sweep an unknown keyword": (lambda fx, t: ss.sweep(SPEC, t / "run", nope=1),
                                 ["unknown keyword 'nope'; accepted:"]),
    "sweep a hook not a function": (lambda fx, t: ss.sweep(SPEC, t / "run", stop=5),
                                    ["stop must be a function or None"]),
    # ------------------------------------------------------------------ Run
    "Run a missing folder": (lambda fx, t: ss.Run(t / "nonexistent"),
                             ["is not a run folder (no such directory)"]),
    "Run a file": (lambda fx, t: ss.Run(fx.log), ["is not a run folder"]),
    "Run a folder that is not a run": (lambda fx, t: ss.Run(fx.root / ".."),
                            ["is not a run folder (no _manifest.json)"]),
    "Run an int": (lambda fx, t: ss.Run(5), ["path must be a path"]),
    "stats precision 0": (lambda fx, t: ss.Run(fx.run).stats(precision=0),
                          ["precision must be a finite number 0.0001 to 0.5, got 0"]),
    "stats precision nan": (lambda fx, t: ss.Run(fx.run).stats(precision=math.nan),
                            ["precision must be", "got nan"]),
    "stats precision 2": (lambda fx, t: ss.Run(fx.run).stats(precision=2), ["got 2"]),
    "stats games 0": (lambda fx, t: ss.Run(fx.run).stats(games=0), ["games must be", "got 0"]),
    "stats workers 0": (lambda fx, t: ss.Run(fx.run).stats(workers=0), ["workers must be"]),
    "table an unknown column": (lambda fx, t: ss.Run(fx.run).table(["nope"]),
                                ["unknown column 'nope'; the run's columns: setting"]),
    "table columns an int": (lambda fx, t: ss.Run(fx.run).table(5),
                             ["columns must be a name or a list of names"]),
    "table games -1": (lambda fx, t: ss.Run(fx.run).table(games=-1), ["games must be"]),
    "chunks games 0": (lambda fx, t: ss.Run(fx.run).chunks(games=0), ["games must be"]),
    "verdicts record 'yes'": (lambda fx, t: ss.Run(fx.run).verdicts(record="yes"),
                              ["record must be True or False"]),
    "chart 'pie'": (lambda fx, t: ss.Run(fx.run).chart("pie"),
                    ["unknown chart 'pie'; accepted: seat_win_share"]),
    "chart an int": (lambda fx, t: ss.Run(fx.run).chart(5), ["unknown chart 5; accepted:"]),
    "report a missing parent": (lambda fx, t: ss.Run(fx.run).report(t / "missing" / "rep"),
                                ["does not exist"]),
    "report out a file": (lambda fx, t: ss.Run(fx.run).report(fx.notes),
                          ["it is a file, not a folder"]),
    "report games -1": (lambda fx, t: ss.Run(fx.run).report(t / "rep", games=-1),
                        ["games must be"]),
    "analysis workers 0": (lambda fx, t: ss.Run(fx.run).analysis(workers=0),
                           ["workers must be"]),
    # ------------------------------------------------------------------ study
    "study unknown": (lambda fx, t: ss.study("nope"), ["unknown study 'nope'; shipped:"]),
    "study games -1": (lambda fx, t: ss.study("tiebreaks", -1, out=t / "s"),
                       ["games (line", "must be a positive whole number", "got -1"]),
    "study games 2**63-1": (lambda fx, t: ss.study("tiebreaks", BIG, out=t / "s"),
                            ["chunk files", "more than a run folder takes"]),
    "study until_settled 'yes'": (lambda fx, t: ss.study("tiebreaks", until_settled="yes",
                                                         out=t / "s"),
                                  ["until_settled must be True or False, got 'yes'"]),
    "study max_games 0": (lambda fx, t: ss.study("tiebreaks", until_settled=True, max_games=0,
                                                 out=t / "s"),
                          ["max_games must be a whole number 1 to 2**63-1, got 0"]),
    "study max_games without settling": (lambda fx, t: ss.study("tiebreaks", max_games=100,
                                                                out=t / "s"),
                                         ["max_games needs until_settled=True"]),
    "study first round above the cap": (
        lambda fx, t: ss.study("tiebreaks", 300, until_settled=True, max_games=200,
                               out=t / "s"),
        ["games 300 (the first round) is more than max_games 200"]),
    "study a cap of 2**63-1": (lambda fx, t: ss.study("bash-leader", until_settled=True,
                                                      max_games=BIG, out=t / "s"),
                               ["max_games:", "chunk files"]),
    "study threads 0": (lambda fx, t: ss.study("tiebreaks", 10, threads=0, out=t / "s"),
                        ["threads must be"]),
    "study a missing parent": (lambda fx, t: ss.study("tiebreaks", 10,
                                                      out=t / "missing" / "s"),
                               ["does not exist; create it"]),
    "study a missing parent at the root": (lambda fx, t: ss.study("tiebreaks", 10,
                                                                  out=f"{ROOT_DIR}/s"),
                                           ["does not exist; create it"]),
    "study into a run folder": (lambda fx, t: ss.study("tiebreaks", 10, out=fx.run),
                                ["is a sweep's run folder, not a study's"]),
    "study out a file": (lambda fx, t: ss.study("tiebreaks", 10, out=fx.notes),
                         ["is a file; out needs a folder"]),
    "study a search with games": (lambda fx, t: ss.study("fair-boats", 10),
                                  ["is a search of boat allocations"]),
    # ------------------------------------------------------------------ strategies
    "strategies plugins an int": (lambda fx, t: ss.strategies(plugins=5),
                                  ["plugins must be a file or a list of files"]),
    "strategies plugin missing": (lambda fx, t: ss.strategies(plugins=[t / "bot.py"]),
                                  ["is not a file"]),
    # ------------------------------------------------------------------ tournament
    "tournament games 0": (lambda fx, t: ss.tournament("random,greedy", 0),
                           ["games must be a whole number 1 to 2**63-1, got 0"]),
    "tournament games 2**63": (lambda fx, t: ss.tournament("random,greedy", 2**63),
                               ["games must be a whole number 1 to 2**63-1"]),
    "tournament games True": (lambda fx, t: ss.tournament("random,greedy", True),
                              ["got True"]),
    "tournament seed 2**63": (lambda fx, t: ss.tournament("random,greedy", 10, seed=2**63),
                              ["seed must be a whole number 0 to 2**63-1"]),
    "tournament batch 0": (lambda fx, t: ss.tournament("random,greedy", 10, batch=0),
                           ["batch must be a whole number"]),
    "tournament alpha nan": (lambda fx, t: ss.tournament("random,greedy", 10, alpha=math.nan),
                             ["alpha must be a finite number strictly between 0 and 1"]),
    "tournament alpha 'x'": (lambda fx, t: ss.tournament("random,greedy", 10, alpha="x"),
                             ["alpha must be a finite number", "got 'x'"]),
    "tournament delta 0.7": (lambda fx, t: ss.tournament("random,greedy", 10, delta=0.7),
                             ["strictly between 0 and 0.5"]),
    "tournament stop 'yes'": (lambda fx, t: ss.tournament("random,greedy", 10, stop="yes"),
                              ["stop must be True or False"]),
    "tournament threads 0": (lambda fx, t: ss.tournament("random,greedy", 10, threads=0),
                             ["threads must be"]),
    "tournament a missing parent": (lambda fx, t: ss.tournament("random,greedy", 10,
                                                                out=t / "missing" / "x"),
                                    ["does not exist"]),
    "tournament strategies an int": (lambda fx, t: ss.tournament(5, 10),
                                     ["strategies must be a name or a list of names"]),
    "tournament a misspelt rule": (lambda fx, t: ss.tournament("random,greedy", 10, squidd=1),
                                   ["unknown setting 'squidd'"]),
    "tournament watch an int": (lambda fx, t: ss.tournament("random,greedy", 10, watch=5),
                                ["watch must have begin(phase, total, done, unit)"]),
    # ------------------------------------------------------------------ tune
    "tune budget nan": (lambda fx, t: ss.tune("greedy", "random", math.nan),
                        ["budget must be a whole number 1 to 2**63-1, got nan"]),
    "tune budget inf": (lambda fx, t: ss.tune("greedy", "random", math.inf), ["got inf"]),
    "tune budget '100'": (lambda fx, t: ss.tune("greedy", "random", "100"), ["got '100'"]),
    "tune players 2": (lambda fx, t: ss.tune("greedy", "random", 10**5, players=2),
                       ["players must be a whole number 3 to 6, got 2"]),
    "tune popsize 1": (lambda fx, t: ss.tune("greedy", "random", 10**5, popsize=1),
                       ["popsize must be a whole number 2 to 10,000"]),
    "tune seed -1": (lambda fx, t: ss.tune("greedy", "random", 10**5, seed=-1),
                     ["seed must be a whole number 0 to 2**63-1"]),
    "tune threads 0": (lambda fx, t: ss.tune("greedy", "random", 10**5, threads=0),
                       ["threads must be"]),
    "tune force_new 'yes'": (lambda fx, t: ss.tune("greedy", "random", 10**5, force_new="yes",
                                                   out=t / "t.json"),
                             ["force_new must be True or False"]),
    "tune a missing parent": (lambda fx, t: ss.tune("greedy", "random", 10**5,
                                                    out=t / "missing" / "t.json"),
                              ["does not exist"]),
    "tune against not names": (lambda fx, t: ss.tune("greedy", ["random", 5], 10**5),
                               ["against must be a name or a list of names"]),
    # ------------------------------------------------------------------ bench
    "bench games 0": (lambda fx, t: ss.bench([4], ["random"], [1], games=0),
                      ["games must be a whole number 1 to"]),
    "bench games beyond memory": (lambda fx, t: ss.bench([4], ["random"], [1], games=2**62),
                                  ["needs about", "the largest games that fits"]),
    "bench seconds nan": (lambda fx, t: ss.bench([4], ["random"], [1], seconds=math.nan),
                          ["seconds must be a finite number 0.1 to 600"]),
    "bench seconds inf": (lambda fx, t: ss.bench([4], ["random"], [1], seconds=math.inf),
                          ["got inf"]),
    "bench repeat 10**6": (lambda fx, t: ss.bench([4], ["random"], [1], games=10,
                                                  repeat=10**6),
                           ["repeat must be a whole number 1 to 100"]),
    "bench seed -1": (lambda fx, t: ss.bench([4], ["random"], [1], games=10, seed=-1),
                      ["seed must be"]),
    "bench threads 0": (lambda fx, t: ss.bench([4], ["random"], [0], games=10),
                        ["a thread count must be a whole number >= 1 or None"]),
    "bench players 7": (lambda fx, t: ss.bench([7], ["random"], [1], games=10),
                        ["players must be one of 2, 3, 4, 5, 6"]),
    "bench max_games 0": (lambda fx, t: ss.bench([4], ["random"], [1], max_games=0),
                          ["max_games must be"]),
    "bench_search greedy": (lambda fx, t: ss.bench_search("greedy", [4], [4]),
                            ["times a strategy that re-enters the game (search)"]),
    "bench_search budget 0": (lambda fx, t: ss.bench_search("search", [0], [4]),
                              ["budget must be a whole number 1 to 100,000"]),
    "bench_search players 7": (lambda fx, t: ss.bench_search("search", [4], [7]),
                               ["players must be one of 2, 3, 4, 5, 6"]),
    "bench_search_games games 0": (lambda fx, t: ss.bench_search_games("search", [4], games=0),
                                   ["games must be a whole number 1 to 10,000"]),
    "bench_sweep games -1": (lambda fx, t: ss.bench_sweep(SPEC, games=-1), ["got -1"]),
    "bench_sweep repeat 0": (lambda fx, t: ss.bench_sweep(SPEC, games=10, repeat=0),
                             ["repeat must be a whole number 1 to 100"]),
    "bench_sweep workers 0": (lambda fx, t: ss.bench_sweep(SPEC, games=10, workers=0),
                              ["workers must be"]),
    "bench_sweep 2**63-1 games": (lambda fx, t: ss.bench_sweep(SPEC, games=BIG),
                                  ["chunk files"]),
    # ------------------------------------------------------------------ logs
    "check an int": (lambda fx, t: ss.check(5), ["is not a survive-sim log"]),
    "check a missing file": (lambda fx, t: ss.check(t / "none.json"), ["cannot read"]),
    "read_log an int": (lambda fx, t: ss.read_log(5), ["path must be a path"]),
    "read_log a folder": (lambda fx, t: ss.read_log(fx.root), ["is a directory"]),
    "draw a dict that is not a log": (lambda fx, t: ss.draw({"a": 1}),
                                      ["is not a survive-sim log (no \"format\" field)"]),
    "draw event -1": (lambda fx, t: ss.draw(fx.log, -1),
                      ["event -1 is outside the game: accepted 0.."]),
    "draw event 1.5": (lambda fx, t: ss.draw(fx.log, 1.5),
                       ["event 1.5 is not an event number: accepted 0.."]),
    "draw event True": (lambda fx, t: ss.draw(fx.log, True), ["is not an event number"]),
    "draw event 10**30": (lambda fx, t: ss.draw(fx.log, 10**30), ["is outside the game"]),
    "draw scale 0": (lambda fx, t: ss.draw(fx.log, scale=0),
                     ["scale must be a finite number 0.25 to 4, got 0"]),
    "draw scale nan": (lambda fx, t: ss.draw(fx.log, scale=math.nan, out=t / "b.png"),
                       ["got nan"]),
    "draw scale 100": (lambda fx, t: ss.draw(fx.log, scale=100, out=t / "b.png"),
                       ["got 100"]),
    "draw out .jpg": (lambda fx, t: ss.draw(fx.log, out=t / "b.jpg"),
                      ["unknown file extension '.jpg'", "accepted: .png, .svg"]),
    "draw out without extension": (lambda fx, t: ss.draw(fx.log, out=t / "board"),
                                   ["unknown file extension '(none)'"]),
    "draw a missing parent": (lambda fx, t: ss.draw(fx.log, out=t / "missing" / "b.svg"),
                              ["does not exist; create it"]),
    "draw a read-only parent": (lambda fx, t: ss.draw(fx.log, out=f"{READ_ONLY}/b.svg"),
                                ["is not writable"]),
    "draw over a user's file": (lambda fx, t: ss.draw(fx.log, out=fx.picture),
                                ["exists and was not written by survive-sim"]),
    "view a dict that is not a log": (lambda fx, t: ss.view({"a": 1}),
                                      ["is not a survive-sim log"]),
    "view over its own log": (lambda fx, t: ss.view(fx.log, out=fx.log),
                              ["is the input log", "writing it would destroy the input"]),
    "view over a user's file": (lambda fx, t: ss.view(fx.log, out=fx.notes),
                                ["exists and was not written by survive-sim"]),
    "view a missing parent": (lambda fx, t: ss.view(fx.log, out=t / "missing" / "v.html"),
                              ["does not exist"]),
    # ------------------------------------------------------------------ fairest
    "fair_spec an int": (lambda fx, t: ss.fair_spec(5), ["source must be a shipped search"]),
    "fair_spec an unknown value": (lambda fx, t: ss.fair_spec(nope=1),
                                   ["unknown value(s) nope; accepted: players"]),
    "fair_spec players 7": (lambda fx, t: ss.fair_spec(players=[7]),
                            ["different player counts 2-6"]),
    "fairest a missing parent": (lambda fx, t: ss.fairest(out=t / "missing" / "f",
                                                          players=[4]),
                                 ["does not exist; create it", "parents=True"]),
    "fairest out a file": (lambda fx, t: ss.fairest(out=fx.notes, players=[4]),
                           ["is a file; --out needs a folder"]),
    "fairest threads 0": (lambda fx, t: ss.fairest(out=t / "f", threads=0, players=[4]),
                          ["threads must be"]),
    "fairest force_new 'yes'": (lambda fx, t: ss.fairest(out=t / "f", force_new="yes"),
                                ["force_new must be True or False"]),
    "fairest_plan timed 'yes'": (lambda fx, t: ss.fairest_plan(timed="yes"),
                                 ["timed must be True or False"]),
    "fairest_plan threads 0": (lambda fx, t: ss.fairest_plan(threads=0), ["threads must be"]),
}


@pytest.mark.parametrize("case", list(CASES))
def test_a_bad_call_is_one_line_at_once_and_writes_nothing(case, fx, tmp_path, monkeypatch):
    call, words = CASES[case]
    if "read-only" in case and not os.path.isdir(READ_ONLY):
        pytest.skip(f"no {READ_ONLY} here")
    monkeypatch.chdir(tmp_path)
    before, root = fx.state(), set(os.listdir("/"))
    old = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(30)                               # a check answers at once; a hang is a bug
    try:
        with pytest.raises(ValueError) as caught:
            call(fx, tmp_path)
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    e = caught.value
    assert type(e) is not ValueError, f"a bare ValueError: {e}"       # the layer's, or ours
    message = str(e)
    assert message and "\n" not in message and message == " ".join(message.split()), message
    assert "Traceback" not in message and "object has no attribute" not in message
    for w in words:
        assert w in message, message
    assert os.listdir(tmp_path) == [], "written in the working folder"
    assert fx.state() == before, "a fixture changed"
    assert set(os.listdir("/")) == root and not os.path.exists(ROOT_DIR)


def test_the_good_calls_next_to_them_still_work(fx, tmp_path):
    """The checks refuse only the bad values: the neighbours of the cases above pass, with
    the same results (a generator is still lazy, numpy integers are whole numbers)."""
    import numpy as np
    import pandas as pd
    a = ss.simulate(np.int64(12), seed=np.int64(4), first=np.int64(3), threads=1)
    b = pd.concat(list(ss.simulate_chunks(12, seed=4, first=3, chunk=5)), ignore_index=True)
    pd.testing.assert_frame_equal(a, b)
    assert list(a["game"]) == list(range(3, 15))
    assert ss.settings(4, plugins=(), squid=np.bool_(True)).squid
    assert list(ss.Run(fx.run).table("score_0").columns) == ["setting", "game", "score_0"]
    assert len(ss.Run(fx.run).stats(precision=0.5))
    assert ss.draw(fx.log, event=np.int64(3)).startswith("<")
    st = ss.spec(SPEC, games=30)
    assert st.games == 30 and st == ss.spec({**SPEC, "games": 30})
    run = ss.sweep(SPEC, tmp_path / "new" / "run", parents=True)
    assert run.outcome.games_done == 2 * 20
    assert ss.Run(run.path).table(["score_0"]).equals(ss.Run(fx.run).table(["score_0"]))


# ---------------------------------------------------------------------------- the CLI's study
@pytest.mark.parametrize("args, words", [
    (["--until-settled", "--games", BIG], ["chunk files", "more than a run folder takes"]),
    (["--until-settled", "--games", BIG, "--max-games", BIG], ["chunk files"]),
    (["--until-settled", "--max-games", BIG], ["'--max-games'", "--max-games:", "chunk files"]),
    (["--games", BIG], ["chunk files", "at most"]),
])
def test_study_refuses_a_count_no_run_folder_can_hold_at_once(tmp_path, monkeypatch, args,
                                                             words):
    """``study bash-leader --until-settled --games 9223372036854775807`` printed nothing for
    over a minute (its sweep was listing 10**15 chunks) and left an empty folder behind."""
    monkeypatch.chdir(tmp_path)
    old = signal.signal(signal.SIGALRM, _hung)
    signal.alarm(60)
    try:
        r = invoke("study", "bash-leader", *args, "--no-progress")
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert r.exit_code == 2 and "Traceback" not in r.stderr, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for w in words:
        assert w in lines[0], lines[0]
    assert os.listdir(tmp_path) == []


def test_the_cli_and_the_api_refuse_max_games_without_settling_by_one_check(tmp_path,
                                                                           monkeypatch):
    """``survive-sim study`` re-implemented ``study()``, and the two copies worded
    one rule differently (``--max-games needs --until-settled``, ``max_games needs
    until_settled=True``). The API checks it (``checks.settling_problem``, through
    ``checks.refuse``); the command calls the API and words its refusal by asking the same
    check again with its options' names."""
    from survive_sim import checks
    from survive_sim.cli.study import CLI_NAMES
    calls = []
    real = checks.settling_problem

    def spy(*args):
        calls.append(args)
        return real(*args)
    monkeypatch.setattr(checks, "settling_problem", spy)
    monkeypatch.chdir(tmp_path)
    with pytest.raises(checks.ArgumentError) as api:
        ss.study("tiebreaks", max_games=100, out=tmp_path / "api")
    e = api.value
    assert (str(e), e.param) == ("max_games needs until_settled=True", "max_games")
    assert e.spell(CLI_NAMES) == ("--max-games needs --until-settled", "--max-games")
    checked = calls[0]
    calls.clear()
    r = invoke("study", "tiebreaks", "--max-games", 100, "--out", tmp_path / "cli",
               "--no-progress")
    assert r.exit_code == 2 and r.stderr.strip().endswith(       # ("main": click's runner)
        "study: error: Invalid value for '--max-games': --max-games needs --until-settled")
    assert calls == [checked, checked + (CLI_NAMES,)]      # the API's check, then its words
    assert os.listdir(tmp_path) == []


def test_a_sweeps_last_line_says_what_each_rate_counts():
    """The study's last line read "1,240,000 played now, 3,838 games/s" under a bar of 20,498
    games/s: the bar counts games per setting (a tie-break twin's games are recounted, not
    played), the line counted engine games over the whole call, compile included."""
    out = Outcome(games_played=620_000, games_written=1_240_000, games_done=1_240_000,
                  seconds_playing=60.5, seconds=161.5)
    text = played_text(out)
    assert text.startswith("620,000 played now, recounted as 1,240,000 games of the settings "
                           "that share them")
    assert "10,248 games/s in the engine" in text
    assert "3,839 games/s over the whole 2 min 42 s (loading the engine and checking the " \
           "folder included)" in text
    assert played_text(Outcome()) == "0 played now"


def test_the_sweep_command_says_what_its_bar_and_its_rates_count(tmp_path):
    """Tie-break twins: the note before the bar says that the bar counts games per setting and
    that the twins are recounted; the last line gives both rates (``study`` plays through the
    same ``play``)."""
    r = invoke("sweep", "--players", 4, "--tiebreak", "shared,chain", "--games", 20,
               "--chunk", 10, "--out", tmp_path / "run")
    assert r.exit_code == 0, r.stderr
    assert "1 of the settings play the same games as another" in r.stderr
    assert "recounted, not played again, and the bar counts games per setting" in r.stderr
    last = r.stdout.strip().splitlines()[-1]
    assert "40 games of 2 settings (20 played now, recounted as 40 games" in last, last
    assert "games/s in the engine" in last and "games/s over the whole" in last
