"""What plays: the game loop and what feeds it, above the rules core and the strategies.

* ``engine``   -- the compiled game loop; it calls the strategies' compiled switch and the
  plug-in seats' first-class functions, both handed to it from ``strategies.dispatch``;
* ``settings`` -- ``Settings``: one table's players, strategies, boats and rules;
* ``simulate`` -- games played in chunks and returned as a pandas table, one row per game;
* ``record``   -- one game played again with its event log, written as a replay log
  (docs/replay-log.md), which ``replays`` reads.

Imports ``strategies`` and ``simulator`` only (tests/test_layers.py).
"""
