"""Outputs that cannot be written, as a user meets them (docs/safety.md): a full disk, a
read-only folder, and two reports written to one folder at once. Real processes; each case is
one line on stderr naming the output, no traceback, and nothing left behind.

A full disk is a small tmpfs filled up (where this user may mount one: root in a container);
elsewhere ``RLIMIT_FSIZE`` in the child, which fails a write with "File too large" by the same
path. A read-only folder is a read-only tmpfs (root, whom the mode bits do not stop) or a
folder of mode 0o555.
"""
from __future__ import annotations

import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from support.cli_harness import ROOT, run_process

resource = pytest.importorskip("resource")          # RLIMIT_FSIZE: POSIX

LOG_GAME = ("--game", 1, "--max-turns", 12)


def _env() -> dict:
    return dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))


def cli(cwd: Path, *args, preexec=None, timeout: float = 600):
    return subprocess.run([sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=cwd,
                          env=_env(), capture_output=True, text=True, timeout=timeout,
                          preexec_fn=preexec)


def one_line(r, codes=(2,), *needles) -> str:
    assert r.returncode in codes, (r.returncode, r.stdout, r.stderr)
    assert "Traceback" not in r.stderr + r.stdout, r.stderr
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    for needle in needles:
        assert needle in lines[0], lines[0]
    return lines[0]


def ok(r):
    assert r.returncode == 0, (r.stdout, r.stderr)
    return r


def _mount(target: Path, options: str) -> bool:
    if not hasattr(os, "geteuid") or os.geteuid() != 0:
        return False
    r = subprocess.run(["mount", "-t", "tmpfs", "-o", options, "tmpfs", str(target)],
                       capture_output=True)
    return r.returncode == 0


def _umount(target: Path) -> None:
    subprocess.run(["umount", "-l", str(target)], capture_output=True)


@pytest.fixture(scope="module")
def runs(tmp_path_factory) -> Path:
    """A run (20 games, 4 players) and a replay log, made once."""
    d = tmp_path_factory.mktemp("io")
    ok(run_process("sweep", "--players", 4, "--games", 20, "--out", d / "RUN", "--no-progress",
                   "--threads", 1, cwd=d))
    ok(run_process("replay", *LOG_GAME, "--json", d / "game.json", cwd=d))
    return d


# ---------------------------------------------------------------------------- 3: full disk
@pytest.fixture
def full(tmp_path):
    """``(folder, preexec, reason)``: a folder whose disk is full for the command run with
    ``preexec``, and the words the failure names."""
    folder = tmp_path / "full"
    folder.mkdir()
    if _mount(folder, "size=64k"):
        try:
            with open(folder / "ballast", "wb", buffering=0) as f, \
                    contextlib.suppress(OSError):
                while True:
                    f.write(b"x" * 4096)
            yield folder, None, "No space left on device"
        finally:
            _umount(folder)
        return

    def limit():                       # every write past 512 bytes fails: EFBIG
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (512, 512))
    yield folder, limit, "File too large"


FULL_CASES = {
    "report": (["report", "{run}", "--out", "{full}/REP", "--workers", 1, "--no-progress"],
               "{full}/REP"),
    "report --workers 2": (["report", "{run}", "--out", "{full}/REP", "--workers", 2,
                            "--no-progress"], "{full}/REP"),
    "stats --out": (["stats", "{run}", "--out", "{full}/s.csv", "--no-progress"],
                    "{full}/s.csv"),
    "simulate --out csv": (["simulate", "--players", 4, "--games", 20, "--no-progress",
                            "--out", "{full}/t.csv"], "{full}/t.csv"),
    "simulate --out parquet": (["simulate", "--players", 4, "--games", 20, "--no-progress",
                                "--out", "{full}/t.parquet"], "{full}/t.parquet"),
    "replay --html": (["replay", *LOG_GAME, "--html", "{full}/g.html"], "{full}/g.html"),
    "draw --out": (["draw", "--log", "{log}", "--out", "{full}/b.png"], "{full}/b.png"),
    "sweep": (["sweep", "--players", 4, "--games", 20, "--out", "{full}/S", "--no-progress",
               "--threads", 1], "{full}/S"),
    "tournament": (["tournament", "--players", 4, "--strategies", "random,greedy", "--games",
                    10, "--out", "{full}/T", "--no-progress"], "{full}"),
    "tune --out": (["tune", "greedy", "--against", "random", "--players", 4, "--budget", 6400,
                    "--out", "{full}/t.json", "--no-progress"], "{full}/"),  # its state or it
    "fairest --out": (["fairest", "--players", 3, "--styles", "random", "--screen", 20,
                       "--max-games", 40, "--confirm", 1, "--confirm-games", 20, "--out",
                       "{full}/F", "--no-progress"], "{full}/F"),
}


@pytest.mark.parametrize("case", list(FULL_CASES))
def test_a_full_disk_is_one_line_and_leaves_nothing(runs, full, case):
    """No ``OSError`` traceback: ``could not write PATH: No space left on device`` (exit 1,
    as every command's ``could not write``; tournament and tune name it as their bad
    ``--out``, exit 2), and the folder holds what it held."""
    folder, preexec, reason = full
    before = sorted(p.name for p in folder.iterdir())
    args, target = FULL_CASES[case]
    fill = {"run": runs / "RUN", "log": runs / "game.json", "full": folder}
    args = [a.format(**fill) if isinstance(a, str) else a for a in args]
    r = cli(runs, *args, preexec=preexec)
    line = one_line(r, (1, 2), reason)
    assert target.format(**fill) in line, line
    assert sorted(p.name for p in folder.iterdir()) == before      # nothing, not even hidden


# ---------------------------------------------------------------------------- 4: two at once
@pytest.mark.slow
def test_two_reports_into_one_folder_at_once(runs, tmp_path):
    """The second is refused in one line naming the first's pid (exit 2) while the first
    writes; the first finishes whole; nothing else is left."""
    first = subprocess.Popen([sys.executable, "-m", "survive_sim.cli", "report",
                              str(runs / "RUN"), "--out", "REP", "--workers", "1",
                              "--no-progress"], cwd=tmp_path, env=_env(),
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    lock = tmp_path / ".REP.lock"
    deadline = time.monotonic() + 300
    while not lock.exists():
        assert first.poll() is None, first.communicate()
        assert time.monotonic() < deadline
        time.sleep(0.01)
    second = cli(tmp_path, "report", runs / "RUN", "--out", "REP", "--workers", 1,
                 "--no-progress")
    out, err = first.communicate(timeout=600)
    assert first.returncode == 0, err
    one_line(second, (2,), "is being written by another survive-sim", f"(pid {first.pid})")
    marker = json.loads((tmp_path / "REP" / "_report.json").read_text())
    assert all((tmp_path / "REP" / f).is_file() for f in marker["files"])
    assert sorted(p.name for p in tmp_path.iterdir()) == ["REP"]    # no lock, no build


def test_the_report_lock_is_taken_over_from_a_dead_writer_and_held_once(tmp_path):
    from experiments.store.outputs import folder_lock
    from experiments.store.runs import lock_text
    out = tmp_path / "rep"
    lock = tmp_path / ".rep.lock"
    lock.write_text("999999999 1 - 0\n")                      # a writer that is gone
    with folder_lock(out) as held:
        assert held == lock and str(os.getpid()) == lock.read_text().split()[0]
        with folder_lock(out):                                # the holder again: no-op
            pass
        assert lock.exists()
    assert not lock.exists()
    live = lock_text(os.getppid())                            # a live writer (pytest's parent)
    lock.write_text(live)
    with pytest.raises(ValueError, match=f"being written by another survive-sim \\(pid "
                                         f"{os.getppid()}\\)"):
        with folder_lock(out):
            pass
    assert lock.read_text() == live                           # left as it was


# ---------------------------------------------------------------------------- 5: read-only
@pytest.fixture
def readonly(tmp_path):
    """A folder nothing can be written in, by this user."""
    folder = tmp_path / "ro"
    folder.mkdir()
    if _mount(folder, "ro,size=64k"):
        try:
            yield folder
        finally:
            _umount(folder)
        return
    folder.chmod(0o555)
    if os.access(folder, os.W_OK):
        pytest.skip("root without mount: no folder it cannot write to")
    try:
        yield folder
    finally:
        folder.chmod(0o755)


READONLY = {
    "fairest": ["fairest", "--players", 3, "--styles", "random", "--screen", 20, "--max-games",
                40, "--confirm", 1, "--confirm-games", 30, "--out", "{ro}/F"],
    "study fair-boats": ["study", "fair-boats", "--out", "{ro}/FB"],
    "fairest into an existing folder": ["fairest", "--players", 3, "--styles", "random",
                                        "--out", "{ro}"],
    "report": ["report", "{run}", "--out", "{ro}/REP"],
    "sweep": ["sweep", "--players", 4, "--games", 5, "--out", "{ro}/S"],
    "study": ["study", "five-six", "--games", 5, "--out", "{ro}/ST"],
    "tournament": ["tournament", "--players", 4, "--strategies", "random,greedy", "--games",
                   10, "--out", "{ro}/T"],
    "tune --out": ["tune", "greedy", "--against", "random", "--players", 4, "--budget", 6400,
                   "--out", "{ro}/t.json"],
    "stats --out": ["stats", "{run}", "--out", "{ro}/s.csv"],
    "simulate --out": ["simulate", "--players", 4, "--games", 5, "--out", "{ro}/t.csv"],
}


@pytest.mark.parametrize("case", list(READONLY))
def test_an_unwritable_output_is_refused_before_any_work(runs, readonly, case):
    """Refused up front: one line, exit 2, before the engine loads or a game is played --
    progress is on, and not one progress line was printed (fairest used to load the engine,
    and study fair-boats to compile four strategies, before finding it out)."""
    args = [a.format(run=runs / "RUN", ro=readonly) if isinstance(a, str) else a
            for a in READONLY[case]]
    t0 = time.monotonic()
    r = cli(runs, *args, timeout=120)
    one_line(r, (2,), "writable")
    assert time.monotonic() - t0 < 60
    assert list(readonly.iterdir()) == []
