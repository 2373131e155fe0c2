"""Readers of replay logs (docs/replay-log.md) that never run the engine.

Everything here works from a saved JSON log alone, in plain Python: no numba, no numpy, no
import of ``play.engine``, ``simulator.rules`` or ``strategies``, so a log can be checked
or read on a machine that never compiled the engine, and the checks stay independent of the
code that wrote the log. Writing a log (which plays the game) stays in ``play.record``.

* ``board``: the board geometry, read from ``data/board.json``, the package's own data (in the
  repository a link to ``simulator/data/board.json``, the engine's file: ``simulator`` is
  neither imported nor looked up).
* ``referee``: the independent referee, ``check(log)`` -> the first discrepancy or None.
* ``text``: a log as a readable turn-by-turn account.
* ``draw``: board pictures (SVG, PNG) of any moment of a log, and animations (GIF, MP4).
* ``viewer``: a log as one self-contained HTML page that steps through the game
  (``build_page(log)``), with the text of the rules its events cite.
"""
