"""Helpers of the command-line tests: the table's column contract, click's in-process runner,
a real ``python -m survive_sim.cli`` process, and the check of a one-line usage error."""
from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from survive_sim.cli import main

ROOT = Path(__file__).resolve().parents[2]      # the checkout (tests/support/ is two down)
SEAT_FIELDS = ("score", "rescued", "rescued_value", "lost", "turns", "lost_serpent",
               "lost_shark", "lost_whale", "lost_whirlpool", "lost_squid", "lost_stranded",
               "player", "boats", "strategy")
BACKS = ("whale", "shark", "boat", "whirlpool", "volcano", "dolphin", "wind", "move_serpent",
         "move_shark", "move_whale", "defend_shark", "defend_whale")
CONTRACT = (["game", "seed", "players", "seats", "end_reason", "end_seat", "turns",
             "tiles_removed", "bonus_moves", "dolphins_placed", "squid_placed"]
            + [f"back_{b}" for b in BACKS]
            + [f"{f}_{s}" for s in range(6) for f in SEAT_FIELDS]
            + ["tiebreak", "decided_by", "challenges", "dolphins", "squid", "squid_only",
               "lagoon_is_sea", "creatures_must_move", "max_turns"])


def runner() -> CliRunner:
    try:
        return CliRunner(mix_stderr=False)          # click < 8.2
    except TypeError:
        return CliRunner()                          # click >= 8.2: stderr is always separate


def invoke(*args):
    return runner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def run_process(*args, cwd=ROOT):
    """``python -m survive_sim.cli ARGS`` with this checkout first on the path."""
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    return subprocess.run([sys.executable, "-m", "survive_sim.cli", *map(str, args)], cwd=cwd,
                          env=env, capture_output=True, text=True, timeout=600)


def listing(path: Path) -> list[str]:
    return sorted(p.name for p in path.iterdir())


def assert_usage_error(r_code, stderr, stdout, needle):
    assert r_code == 2, (stdout, stderr)
    lines = stderr.strip().splitlines()
    assert len(lines) == 1, stderr
    assert "Traceback" not in stderr and "Traceback" not in stdout
    assert needle in lines[0], lines[0]
