"""The ``replays`` package reads logs without the engine: importing it (the referee, the text of
a log, the board, the pictures) never loads numba, numpy, what plays (``play``, the engine), the
compiled rules or the strategies -- nor the ``simulator`` package itself, whose board data file
it finds through the installed package (``replays.board.simulator_data``) -- and each of its
modules stays short enough to read in one sitting."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import simulator
import simulator.board
from replays.board import BOARD, BOARD_JSON, simulator_data
from replays.viewer.rules import RULES_MD

ROOT = Path(__file__).resolve().parents[1]
ENGINE_MODULES = ("numba", "numpy", "simulator", "simulator.rules", "play", "play.engine",
                  "play.simulate", "strategies")
ENV = {**os.environ, "PYTHONPATH": str(ROOT)}


@pytest.mark.parametrize("module", ["replays", "replays.referee", "replays.text",
                                    "replays.board", "replays.draw", "replays.draw.scene",
                                    "replays.draw.svg", "replays.draw.raster",
                                    "replays.draw.animate", "replays.draw.logfile",
                                    "replays.viewer.page", "replays.viewer.rules"])
def test_importing_replays_leaves_the_engine_out(module):
    """A fresh interpreter that imports the module has none of the engine's modules loaded."""
    code = (f"import json, sys, {module}\n"
            f"print(json.dumps(sorted(m for m in {list(ENGINE_MODULES)!r} if m in sys.modules)))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=ENV, check=True)
    assert json.loads(out.stdout) == []


def test_the_referee_checks_a_log_without_the_engine(tmp_path):
    """``check_file`` runs in a fresh interpreter and still leaves the engine unloaded."""
    path = tmp_path / "not-a-log.json"
    path.write_text(json.dumps({"format": "survive-sim-log/1"}))
    code = ("import sys\nfrom replays.referee import check_file\n"
            f"print(check_file({str(path)!r}).rule, 'numba' in sys.modules, "
            "'play.engine' in sys.modules)")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=ENV, check=True)
    assert out.stdout.split() == ["format", "False", "False"]


def test_a_picture_is_drawn_without_the_engine(tmp_path):
    """A scene, its SVG and its PNG from a log, in a fresh interpreter: no engine loaded."""
    code = ("import sys\nsys.path.insert(0, 'tests')\nfrom draw_log import make_log\n"
            "from replays.draw import scene, svg, raster\nsc = scene(make_log(), 3)\n"
            "svg.document(sc); raster.png(sc, 0.3)\n"
            f"print(sorted(m for m in {list(ENGINE_MODULES)!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=ENV, check=True)
    assert out.stdout.strip() == "[]"


def test_the_board_and_the_rules_are_the_simulator_packages_data_files():
    """The files ``replays`` reads of another package: ``simulator``'s ``data/board.json`` (the
    same file the engine's board is built from) and ``data/RULES.md``, found without importing
    ``simulator``."""
    data = Path(simulator.__file__).parent / "data"
    assert BOARD_JSON == simulator_data("board.json") == data / "board.json"
    assert RULES_MD == data / "RULES.md" and RULES_MD.is_file()
    assert BOARD_JSON.is_file()
    assert json.loads(BOARD_JSON.read_text(encoding="utf-8")) == simulator.board.BOARD_JSON
    assert BOARD.n_hex == simulator.board.N_HEX


def test_every_module_of_replays_is_under_600_lines():
    files = sorted((ROOT / "replays").rglob("*.py"))
    assert files, "no modules found under replays/"
    long = {str(f.relative_to(ROOT)): n for f in files
            if (n := len(f.read_text(encoding="utf-8").splitlines())) >= 600}
    assert not long, long
