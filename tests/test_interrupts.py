"""Ctrl-C as a user meets it: a terminal sends SIGINT to the whole process group, the command
and its worker processes alike. Whatever the number of workers, the command says one line,
``survive-sim: interrupted``, exits 130, and leaves nothing: no temporary folder or file, no
lock, no half report, no process still running (docs/safety.md, "Interruptions").

The commands run as real processes in a session of their own (``start_new_session``), and the
test signals the group (``os.killpg``) once the phase it aims at has begun, read from the
command's progress lines. A Ctrl-C that some code swallows (a ``__del__`` that was running
when it came) must not end in a finished report and exit 0 either: that case is run in this
process, where the swallowing can be staged.
"""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from support.cli_harness import ROOT, invoke, run_process

pytestmark = pytest.mark.skipif(not hasattr(os, "killpg") or not Path("/proc/self/stat").exists(),
                                reason="needs process groups and /proc")

TINY_FAIREST = ["--players", "3", "--styles", "random,random+greedy", "--screen", "20",
                "--max-games", "40", "--confirm", "1", "--confirm-games", "30", "--seed", "4"]


# ---------------------------------------------------------------------------- helpers
class Command:
    """``python -m survive_sim.cli ARGS`` in a session of its own (its pid is its process
    group's id), its stderr read line by line as it comes."""

    def __init__(self, *args, cwd: Path):
        env = dict(os.environ,
                   PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
        # SIGINT back to its default in the child: a CI runner may start the tests with it
        # ignored, which the command (rightly) keeps
        self.p = subprocess.Popen(
            [sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=cwd, env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        self.lines: list[str] = []
        self.reader = threading.Thread(target=self._read, daemon=True)
        self.reader.start()

    def _read(self) -> None:
        for line in self.p.stderr:
            self.lines.append(line.rstrip("\n"))

    def wait_for(self, text: str, timeout: float = 300) -> None:
        deadline = time.monotonic() + timeout
        while not any(text in line for line in self.lines):
            assert self.p.poll() is None, ("ended before " + text, self.lines)
            assert time.monotonic() < deadline, ("no " + text, self.lines)
            time.sleep(0.02)

    def ctrl_c(self) -> float:
        """SIGINT to the whole group, as a terminal sends it; the seconds until it ended."""
        assert self.p.poll() is None, ("ended before the signal", self.lines)
        sent = time.monotonic()
        os.killpg(self.p.pid, signal.SIGINT)
        try:
            self.p.wait(timeout=60)
        finally:
            if self.p.poll() is None:
                os.killpg(self.p.pid, signal.SIGKILL)
        took = time.monotonic() - sent
        self.reader.join(timeout=30)
        return took

    def said(self, progress: str) -> list[str]:
        """What stderr holds besides the progress lines (``PROGRESS: ...``) and click's empty
        line before an interrupt."""
        return [x for x in self.lines if x.strip() and not x.startswith(progress + ":")
                and not x.startswith(progress + " ...")
                and not x.startswith("survive-sim: compil")]      # a cold numba cache


def _processes():
    """``(pid and name, state, ppid, session)`` of every process (``/proc/PID/stat``)."""
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            text = stat.read_text()
        except OSError:
            continue
        fields = text[text.rindex(")") + 2:].split()       # state ppid pgrp session ...
        yield text[:text.rindex(")") + 1], fields[0], int(fields[1]), int(fields[3])


def live_in_session(sid: int) -> list[str]:
    """Processes of the session ``sid`` still running (zombies waiting for init aside)."""
    return [name for name, state, _, session in _processes() if session == sid and state != "Z"]


def children(pid: int) -> list[str]:
    return [name for name, _, ppid, _ in _processes() if ppid == pid]


def hidden(folder: Path) -> list[str]:
    """Everything a writer leaves under a hidden name (temporaries, build folders, locks)."""
    return sorted(str(p.relative_to(folder)) for p in folder.rglob(".*"))


def ok(r):
    assert r.returncode == 0, (r.stdout, r.stderr)
    return r


# ---------------------------------------------------------------------------- fixtures
@pytest.fixture(scope="module")
def run2(tmp_path_factory) -> Path:
    """Four settings, 20 games each: ten charts (drawn by the workers: more than
    ``reports.render.PARALLEL_FROM``) and two sample games."""
    d = tmp_path_factory.mktemp("interrupts")
    ok(run_process("sweep", "--players", "5,6", "--tiebreak", "shared,chain", "--games", 20,
                   "--out", d / "RUN", "--no-progress", "--threads", 1, cwd=d))
    return d / "RUN"


# ---------------------------------------------------------------------------- 1: report
@pytest.mark.parametrize("workers", [1, 2])
def test_ctrl_c_while_the_report_draws_its_charts(run2, tmp_path, workers):
    """Each worker used to print a KeyboardInterrupt traceback of its own: now the workers
    ignore SIGINT, the command takes it, stops them and says one line."""
    c = Command("report", run2, "--out", tmp_path / "REP", "--workers", workers, cwd=tmp_path)
    c.wait_for("charts: 0/")                 # "report: drawing 10 charts: 0/10 charts ..."
    time.sleep(0.5)                          # the workers are starting or drawing
    took = c.ctrl_c()
    text = "\n".join(c.lines)
    assert c.p.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert c.said("report") == ["survive-sim: interrupted"], text
    assert took < 15, took
    assert not (tmp_path / "REP").exists()
    assert hidden(tmp_path) == []
    assert live_in_session(c.p.pid) == []


def test_ctrl_c_while_the_workers_start_says_exactly_one_line(run2, tmp_path):
    """Without progress lines stderr is exactly one line, also when the signal comes while
    the worker processes are still starting up (before they could set anything up)."""
    c = Command("report", run2, "--out", tmp_path / "REP", "--workers", 2, "--no-progress",
                cwd=tmp_path)
    deadline = time.monotonic() + 300
    while not children(c.p.pid):             # multiprocessing's helper, then the workers
        assert c.p.poll() is None and time.monotonic() < deadline, c.lines
        time.sleep(0.01)
    c.ctrl_c()
    assert c.p.returncode == 130, c.lines
    assert c.lines and [x for x in c.lines if x.strip()] == ["survive-sim: interrupted"], c.lines
    assert not (tmp_path / "REP").exists() and hidden(tmp_path) == []
    assert live_in_session(c.p.pid) == []


@pytest.mark.slow
def test_ctrl_c_while_stats_reads_chunks_on_workers(tmp_path):
    """``stats --workers 2`` reads the chunks on worker processes: the same one line."""
    ok(run_process("sweep", "--players", 4, "--games", 40, "--chunk", 2, "--out", "RUN",
                   "--no-progress", "--threads", 1, cwd=tmp_path))
    c = Command("stats", "RUN", "--workers", 2, "--out", "s.csv", cwd=tmp_path)
    c.wait_for("chunks (0%)")
    time.sleep(0.3)
    c.ctrl_c()
    text = "\n".join(c.lines)
    assert c.p.returncode == 130, text
    assert "Traceback" not in text and "KeyboardInterrupt" not in text, text
    assert c.said("stats") == ["survive-sim: interrupted"], text
    assert not (tmp_path / "s.csv").exists() and hidden(tmp_path) == []
    assert live_in_session(c.p.pid) == []


# ---------------------------------------------------------------------------- 2: fairest
def test_ctrl_c_while_fairest_writes_its_report(tmp_path):
    out = tmp_path / "search"
    c = Command("fairest", *TINY_FAIREST, "--out", out, cwd=tmp_path)
    c.wait_for("writing the report")
    time.sleep(0.3)                          # building or writing the report folder
    c.ctrl_c()
    text = "\n".join(c.lines)
    assert c.p.returncode == 130, text
    assert "Traceback" not in text, text
    assert c.said("fairest") == ["survive-sim: interrupted"], text
    assert not (out / "report").exists()
    assert hidden(out) == [] and hidden(tmp_path) == []   # no .report.tmp-*, no lock


def test_a_signal_while_the_build_folder_is_made_leaves_nothing(tmp_path, monkeypatch):
    """The signal that arrives just as the report's build folder has been made (before its
    name is known to the code that removes it) waits for that moment to pass
    (``atomic.interrupts_held``): the folder is removed all the same."""
    from experiments.store import atomic
    from reports.page import Report, Section, Table, write_report
    from survive_sim.cli.files import signals_unwind
    import pandas as pd
    real = atomic.build_folder

    def made_then_interrupted(final, tag=None):
        tmp = real(final, tag)
        signal.raise_signal(signal.SIGINT)      # as if Ctrl-C came right now
        return tmp

    monkeypatch.setattr(atomic, "build_folder", made_then_interrupted)
    report = Report("tiny", sections=[Section("s", tables=[Table("t", pd.DataFrame({"a": [1]}))])])
    with pytest.raises(KeyboardInterrupt), signals_unwind():
        write_report(report, tmp_path / "rep")
    assert sorted(p.name for p in tmp_path.iterdir()) == []


# ---------------------------------------------------------------------------- swallowed
# the staged "Exception ignored in __del__" is what the test is about, not a warning
SWALLOWED = pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")


class _SwallowsCtrlC:
    """An object whose ``__del__`` runs when Ctrl-C comes: Python prints the exception the
    handler raised there ("Exception ignored in ...") and drops it."""

    def __del__(self):
        signal.raise_signal(signal.SIGINT)


@pytest.mark.slow
@SWALLOWED
def test_a_swallowed_ctrl_c_still_interrupts_and_writes_nothing(run2, tmp_path, monkeypatch):
    """Once a report ignored Ctrl-C and exited 0 with the report written: the interrupt had
    been raised inside a finaliser, which drops it. Now it is recorded and raised again
    before anything is put in place."""
    import reports.report as R
    real = R.render

    def render(*args, **kwargs):
        _SwallowsCtrlC()                          # made and dropped: __del__ runs at once
        return real(*args, **kwargs)

    monkeypatch.setattr(R, "render", render)
    r = invoke("report", run2, "--out", tmp_path / "REP", "--workers", 1, "--no-progress")
    assert r.exit_code == 130, (r.stdout, r.stderr)
    lines = r.stderr.strip().splitlines()                 # not "Exception ignored in ..."
    assert len(lines) == 1 and lines[0].endswith(": interrupted"), r.stderr
    assert not (tmp_path / "REP").exists() and hidden(tmp_path) == []


@SWALLOWED
def test_a_swallowed_ctrl_c_keeps_a_single_file_from_appearing(tmp_path):
    """The same for a single file: ``atomic_file`` checks before its rename."""
    from experiments.store.atomic import write_text
    from survive_sim.cli.files import signals_unwind
    with pytest.raises(KeyboardInterrupt), signals_unwind():
        _SwallowsCtrlC()
        write_text(tmp_path / "out.txt", "finished")
    assert list(tmp_path.iterdir()) == []
