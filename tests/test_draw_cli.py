"""``survive-sim draw`` and ``replay --gif/--mp4``: pictures from a seed or a saved log, the
--log path without the engine, and bad input (an index outside the game, a file that is not a
log, an unknown extension, an unwritable output) as one line, exit 2 and no file left."""
from __future__ import annotations

import json
import os
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from support.cli_harness import ROOT, assert_usage_error, invoke, listing, runner
from PIL import Image

from survive_sim.cli import main
from play.record import game_log
from play.settings import Settings

GAME = ["--seed", 1, "--game", 42, "--players", 4, "--strategies", "greedy"]


@pytest.fixture(scope="module")
def saved(tmp_path_factory):
    """A real game's log saved as `replay --json` writes it."""
    d = tmp_path_factory.mktemp("draw")
    log = game_log(Settings(players=4, strategies=("greedy",)), 1, 42)
    path = d / "game.json"
    path.write_text(json.dumps(log))
    return path, log


def _unwritable_dir(tmp_path: Path) -> Path:
    d = tmp_path / "readonly"
    d.mkdir()
    d.chmod(0o555)
    if os.access(d, os.W_OK):                     # root ignores permissions
        if not Path("/proc").is_dir():
            pytest.skip("no directory that root cannot write to")
        return Path("/proc")
    return d


def test_draw_from_a_seed_to_png_and_svg(tmp_path, saved):
    _, log = saved
    r = invoke("draw", *GAME, "--event", 120, "--out", tmp_path / "b.png")
    assert r.exit_code == 0, r.output
    assert r.stdout.startswith(f"wrote {tmp_path / 'b.png'}: event 120 of {len(log['events']) - 1}")
    assert Image.open(tmp_path / "b.png").size[0] > 1000
    r = invoke("draw", *GAME, "--turn", 3, "--out", tmp_path / "b.svg")
    assert r.exit_code == 0, r.output
    root = ET.parse(tmp_path / "b.svg").getroot()
    texts = [el.text for el in root.iter() if el.text]
    assert "Turn 3 - seat 2 (greedy)" in texts
    assert listing(tmp_path) == ["b.png", "b.svg"]


def test_draw_from_a_saved_log(tmp_path, saved):
    path, log = saved
    n = len(log["events"])
    r = invoke("draw", "--log", path, "--out", tmp_path / "end.svg")   # default: the end
    assert r.exit_code == 0, r.output
    root = ET.parse(tmp_path / "end.svg").getroot()
    assert any(el.text and el.text.startswith(f"event {n - 1} of {n - 1}") for el in root.iter())
    r = invoke("draw", "--log", path, "--event", 0, "--out", tmp_path / "start.png",
               "--scale", 0.5)
    assert r.exit_code == 0, r.output
    assert Image.open(tmp_path / "start.png").size[0] < 800


def test_the_log_path_never_loads_the_engine(tmp_path, saved):
    path, _ = saved
    out = tmp_path / "b.png"
    code = ("import sys\nfrom survive_sim.cli import main\n"
            f"main(['draw', '--log', {str(path)!r}, '--event', '5', '--out', {str(out)!r}], "
            "standalone_mode=False)\n"
            "print(sorted(m for m in ('numba', 'numpy', 'pandas', 'play.engine', "
            "'play.settings', 'strategies') if m in sys.modules))")
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    p = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                       env=env, check=True)
    assert p.stdout.strip().splitlines()[-1] == "[]"
    assert out.exists()


BAD = {
    "event past the end": (["--log", "{log}", "--event", 100000], "--event 100000 is outside the game: accepted 0..{last}"),
    "negative event": (["--log", "{log}", "--event", -1], "accepted 0..{last}"),
    "turn 0": (["--log", "{log}", "--turn", 0], "--turn 0 is outside the game: accepted 1..{turns}"),
    "turn past the end": (["--log", "{log}", "--turn", 999], "accepted 1..{turns}"),
    "event and turn": (["--log", "{log}", "--event", 1, "--turn", 1], "not both"),
    "seed event past the end": ([*GAME, "--event", 100000], "accepted 0..{last}"),
    "not json": (["--log", "{tmp}/garbage.json"], "is not valid JSON"),
    "truncated log": (["--log", "{tmp}/cut.json"], "a truncated file?"),
    "other json": (["--log", "{tmp}/other.json"], "is not a survive-sim log"),
    "wrong format": (["--log", "{tmp}/format.json"], "accepted formats: survive-sim-log/1"),
    "no events": (["--log", "{tmp}/empty.json"], "incomplete survive-sim log"),
    "missing log": (["--log", "{tmp}/nothing.json"], "cannot read"),
    "log and seed": (["--log", "{log}", "--seed", 3], "do not apply"),
    "no game": ([], "give --game"),
    "unknown extension": (["--log", "{log}", "--out", "{tmp}/b.jpg"], "accepted: .png, .svg"),
    "no extension": (["--log", "{log}", "--out", "{tmp}/b"], "accepted: .png, .svg"),
    "missing directory": (["--log", "{log}", "--out", "{tmp}/no/b.png"], "does not exist"),
    "unwritable directory": (["--log", "{log}", "--out", "{ro}/b.png"], "not writable"),
    "directory as out": (["--log", "{log}", "--out", "{tmp}/adir.png"], "is a directory"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_draw_bad_input(case, tmp_path, saved):
    path, log = saved
    text = path.read_text()
    (tmp_path / "garbage.json").write_text("{not json")
    (tmp_path / "cut.json").write_text(text[:len(text) // 2])
    (tmp_path / "other.json").write_text('{"a": 1}')
    (tmp_path / "format.json").write_text('{"format": "something-else/1"}')
    (tmp_path / "empty.json").write_text(json.dumps({**log, "events": []}))
    (tmp_path / "adir.png").mkdir()
    args, needle = BAD[case]
    ro = _unwritable_dir(tmp_path) if "{ro}" in " ".join(map(str, args)) else tmp_path
    last = len(log["events"]) - 1
    turns = max(ev["turn"] for ev in log["events"])
    fill = {"tmp": tmp_path, "log": path, "ro": ro, "last": last, "turns": turns}
    args = [str(a).format(**fill) for a in args]
    if "--out" not in args:
        args += ["--out", str(tmp_path / "b.png")]
    before = listing(tmp_path)
    r = runner().invoke(main, ["draw", *args])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle.format(**fill))
    assert listing(tmp_path) == before


# ---------------------------------------------------------------------------- replay animations
def test_replay_writes_a_gif_per_turn(tmp_path, saved):
    _, log = saved
    turns = max(ev["turn"] for ev in log["events"])
    r = invoke("replay", *GAME, "--gif", tmp_path / "g.gif", "--frames", "turns")
    assert r.exit_code == 0, r.output
    assert f"wrote {tmp_path / 'g.gif'} ({turns + 1} frames, one per turn" in r.stdout
    assert Image.open(tmp_path / "g.gif").n_frames == turns + 1
    assert listing(tmp_path) == ["g.gif"]


def test_replay_mp4_through_ffmpeg(tmp_path, monkeypatch):
    """With an ffmpeg on PATH (a stand-in that counts the bytes it is piped) the MP4 is written
    by renaming ffmpeg's output into place."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    exe = bin_dir / "ffmpeg"
    exe.write_text(f"#!{sys.executable}\nimport sys\n"
                   "if '-encoders' in sys.argv:\n    sys.exit(0)\n"
                   "n = len(sys.stdin.buffer.read())\nopen(sys.argv[-1], 'w').write(str(n))\n")
    exe.chmod(0o755)
    monkeypatch.setenv("PATH", f"{bin_dir}{os.pathsep}{os.environ['PATH']}")
    out = tmp_path / "out"
    out.mkdir()
    r = invoke("replay", *GAME, "--mp4", out / "g.mp4", "--frames", "turns")
    assert r.exit_code == 0, r.output
    assert listing(out) == ["g.mp4"] and int((out / "g.mp4").read_text()) > 0


BAD_REPLAY = {
    "gif extension": (["--gif", "{tmp}/g.png"], "accepted: .gif"),
    "gif missing directory": (["--gif", "{tmp}/no/g.gif"], "does not exist"),
    "mp4 extension": (["--mp4", "{tmp}/g.gif"], "accepted: .mp4"),
    "mp4 without ffmpeg": (["--mp4", "{tmp}/g.mp4"], "ffmpeg is not on PATH"),
    "unknown frames": (["--gif", "{tmp}/g.gif", "--frames", "moves"], "events"),
}


@pytest.mark.parametrize("case", sorted(BAD_REPLAY))
def test_replay_animation_bad_input(case, tmp_path, monkeypatch):
    from replays.draw import animate
    monkeypatch.setattr(animate, "ffmpeg", lambda: None)
    args, needle = BAD_REPLAY[case]
    before = listing(tmp_path)
    r = runner().invoke(main, ["replay", *map(str, GAME),
                               *[str(a).format(tmp=tmp_path) for a in args]])
    assert_usage_error(r.exit_code, r.stderr, r.stdout, needle)
    assert listing(tmp_path) == before
    assert r.stdout == ""
