"""Board pictures of any moment of a logged game, and animations of whole games.

Engine-free like the rest of ``replays``: it reads a log (docs/replay-log.md) and the board
(``replays.board``) and never imports numpy, numba or the simulator. Pillow is needed only for
raster output (``raster``, ``animate``), imported when used.

* ``scene``: ``scene(log, i)`` -> the shapes of the position after event ``i`` (the API the
  writers and the HTML viewer share), ``turn_start``, ``event_text``, ``rule_of``.
* ``layout``: pixel geometry (hex centres and corners, isles, slots for crowded hexes).
* ``shapes``, ``style``, ``pieces``, ``panel``: the primitives, the colours, the look of each
  piece, the header/scoreboard/legend around the board.
* ``svg``: ``document(scene)`` (standalone SVG) and ``layers(scene)`` (board + pieces).
* ``raster``: ``image(scene)`` / ``png(scene)`` with Pillow.
* ``animate``: a whole game as a GIF or (with ffmpeg) an MP4, a frame per event or per turn.
"""
from .scene import Scene, event_text, rule_of, scene, turn_start

__all__ = ["Scene", "event_text", "rule_of", "scene", "turn_start"]
