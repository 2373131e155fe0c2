"""The ``replays`` package reads logs without the engine: importing it (the referee, the text of
a log, the board, the pictures) never loads numba, numpy, what plays (``play``, the engine), the
compiled rules or the strategies -- nor the ``simulator`` package itself: the board data file
and the rules text are ``replays``'s own package data (``replays.board.replays_data``), never
looked up by the name ``simulator`` -- and each of its modules stays short enough to read in one
sitting."""
from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

import simulator
import simulator.board
import replays
from replays.board import BOARD, BOARD_JSON, replays_data
from replays.viewer.rules import RULES_MD

pytestmark = pytest.mark.engine_free

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
    code = ("import sys\nsys.path.insert(0, 'tests')\nfrom support.draw_log import make_log\n"
            "from replays.draw import scene, svg, raster\nsc = scene(make_log(), 3)\n"
            "svg.document(sc); raster.png(sc, 0.3)\n"
            f"print(sorted(m for m in {list(ENGINE_MODULES)!r} if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                         env=ENV, check=True)
    assert out.stdout.strip() == "[]"


def test_the_board_and_the_rules_are_the_simulator_packages_data_files():
    """The files ``replays`` reads are its own package data, ``replays/data/board.json`` and
    ``RULES.md``, with the content of ``simulator``'s ``data/board.json`` (the file the engine's
    board is built from) and ``data/RULES.md``: in the repository they are links to them."""
    data = Path(simulator.__file__).parent / "data"
    own = Path(replays.__file__).parent / "data"
    assert BOARD_JSON == replays_data("board.json") == own / "board.json"
    assert RULES_MD == own / "RULES.md" and RULES_MD.is_file()
    assert BOARD_JSON.is_file()
    for name in ("board.json", "RULES.md"):
        assert (own / name).read_bytes() == (data / name).read_bytes()
        assert (own / name).resolve() == (data / name).resolve()     # one copy in the repository
    assert json.loads(BOARD_JSON.read_text(encoding="utf-8")) == simulator.board.BOARD_JSON
    assert BOARD.n_hex == simulator.board.N_HEX


def test_a_stray_simulator_package_is_not_read(tmp_path):
    """Another package named ``simulator``, first on the path with a ``data/board.json`` and
    ``data/RULES.md`` of its own, is neither read nor imported: ``replays`` finds its data
    through ``replays`` (the old ``importlib.util.find_spec("simulator")`` read this one)."""
    stray = tmp_path / "simulator"
    (stray / "data").mkdir(parents=True)
    (stray / "__init__.py").write_text("raise ImportError('the stray simulator was imported')\n")
    (stray / "data" / "board.json").write_text("{}")
    (stray / "data" / "RULES.md").write_text("not the rules\n")
    code = ("import json, sys\nfrom replays.board import BOARD, BOARD_JSON\n"
            "from replays.viewer.rules import RULES_MD, all_rules\n"
            "print(json.dumps([str(BOARD_JSON), str(RULES_MD), BOARD.n_hex, "
            "'B5.2' in all_rules(), 'simulator' in sys.modules]))")
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), str(ROOT)])}
    out = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True,
                         text=True, env=env, check=True)
    board, rules, n_hex, has_rule, imported = json.loads(out.stdout)
    own = Path(replays.__file__).parent / "data"
    assert (Path(board), Path(rules)) == (own / "board.json", own / "RULES.md")
    assert n_hex == simulator.board.N_HEX and has_rule and not imported


def test_every_module_of_replays_is_under_600_lines():
    files = sorted((ROOT / "replays").rglob("*.py"))
    assert files, "no modules found under replays/"
    long = {str(f.relative_to(ROOT)): n for f in files
            if (n := len(f.read_text(encoding="utf-8").splitlines())) >= 600}
    assert not long, long
