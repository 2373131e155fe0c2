"""A whole logged game as an animation: a GIF (Pillow) or an MP4 (ffmpeg, when installed).

One frame per event, or one per seat-turn (the position at the end of the turn, after a first
frame with the end of the setup). The static board is drawn once and each frame draws only
the pieces and the page's text on a copy of it (``raster``); the GIF is written frame by frame
with one shared palette (``gifwriter``), so a long game neither sits in memory nor takes long.
The last frame is held a little longer than the others so that the end can be read.
"""
from __future__ import annotations

import shutil
import subprocess

import replays.draw.raster as raster
import replays.draw.style as style

from .gifwriter import GifStream
from .scene import scene

FRAMES = ("events", "turns")
FRAME_MS = {"events": 300, "turns": 900}
HOLD_MS = 3000                       # how long the last frame stays
GIF_SCALE = 0.75                     # GIF frames are drawn at this scale (file size)


def frame_events(log: dict, frames: str = "events") -> list[int]:
    """The event index drawn in each frame: every event, or the end of the setup and the last
    event of each seat-turn."""
    n = len(log["events"])
    if frames == "events":
        return list(range(n))
    if frames != "turns":
        raise ValueError(f"frames must be one of {', '.join(FRAMES)}, not {frames!r}")
    starts = [ev["i"] for ev in log["events"] if ev["type"] == "turn_start"]
    return [s - 1 for s in starts if s > 0] + [n - 1]


def _images(log: dict, frames: str, scale: float, progress=None):
    idx = frame_events(log, frames)
    for k, i in enumerate(idx):
        yield i, raster.image(scene(log, i), scale)
        if progress:
            progress(k + 1, len(idx))


def gif(log: dict, fp, frames: str = "events", scale: float = GIF_SCALE, progress=None) -> int:
    """Write the game as an animated GIF to the binary file ``fp``; returns the frame count."""
    idx = frame_events(log, frames)
    out = GifStream(fp, exact=[style.rgb(c) for c in style.all_colours()])
    for k, (_, im) in enumerate(_images(log, frames, scale, progress)):
        out.add(im, HOLD_MS if k == len(idx) - 1 else FRAME_MS[frames])
    out.close()
    return out.frames


def ffmpeg() -> str | None:
    """The ffmpeg executable on PATH, or None."""
    return shutil.which("ffmpeg")


def _codec(exe: str) -> list[str]:
    """H.264 when this ffmpeg has it (most builds), else its built-in MPEG-4 encoder."""
    try:
        out = subprocess.run([exe, "-hide_banner", "-encoders"], stdin=subprocess.DEVNULL,
                             capture_output=True, text=True, timeout=30).stdout
    except (OSError, subprocess.SubprocessError):
        out = ""
    return ["-c:v", "libx264"] if "libx264" in out else ["-c:v", "mpeg4", "-q:v", "3"]


def mp4(log: dict, path: str, frames: str = "events", scale: float = 1.0, progress=None,
        executable: str | None = None, comment: str | None = None) -> int:
    """Write the game as an MP4 (H.264) to ``path`` by piping frames to ffmpeg; returns the
    frame count (the held last frame counted once). ``RuntimeError`` with ffmpeg's last line
    if it fails; ``FileNotFoundError`` when there is no ffmpeg. ``comment`` goes into the
    file's metadata (the command line signs its files with it, so that a later run knows the
    file for one of its own and may replace it)."""
    exe = executable or ffmpeg()
    if exe is None:
        raise FileNotFoundError("ffmpeg is not on PATH; --mp4 needs ffmpeg (or write a --gif)")
    fps = 1000 / FRAME_MS[frames]
    hold = max(1, round(HOLD_MS / FRAME_MS[frames]))
    codec = _codec(exe)
    proc = None
    count = 0
    try:
        for i, im in _images(log, frames, scale, progress):
            if proc is None:
                w, h = im.size
                cmd = [exe, "-y", "-loglevel", "error", "-f", "rawvideo", "-pix_fmt", "rgb24",
                       "-s", f"{w}x{h}", "-r", f"{fps:g}", "-i", "-",
                       "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2:color=white",
                       *codec, "-pix_fmt", "yuv420p", "-movflags", "+faststart",
                       *(["-metadata", f"comment={comment}"] if comment else []),
                       "-f", "mp4", path]
                proc = subprocess.Popen(cmd, stdin=subprocess.PIPE, stderr=subprocess.PIPE)
            data = im.tobytes()
            proc.stdin.write(data)
            count += 1
        for _ in range(hold - 1):
            proc.stdin.write(data)
        proc.stdin.close()
        err = proc.stderr.read().decode(errors="replace")
        if proc.wait() != 0:
            last = (err.strip().splitlines() or ["(no message)"])[-1]
            raise RuntimeError(f"ffmpeg failed (exit {proc.returncode}): {last}")
    except BrokenPipeError:
        err = proc.stderr.read().decode(errors="replace") if proc else ""
        proc.wait()
        last = (err.strip().splitlines() or ["(no message)"])[-1]
        raise RuntimeError(f"ffmpeg stopped reading frames: {last}") from None
    finally:
        if proc is not None and proc.poll() is None:
            proc.kill()
            proc.wait()
    return count
