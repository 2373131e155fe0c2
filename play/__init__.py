"""What plays: the game loop and what feeds it, above the rules core and the strategies.

* ``engine``   -- the compiled game loop and its entry points; it calls the strategies'
  compiled switch and the plug-in seats' first-class functions, both handed to it from
  ``strategies.dispatch``. Under it, compiled with it: ``layout`` (the settings vector, event
  log and record the engine shares with Python), ``decisions`` (asking a seat, logging an
  event), ``setup`` (B4), ``reactions`` (what an action sets off), ``steps`` (the turn, B5);
* ``settings`` -- ``Settings``: one table's players, strategies, boats and rules;
* ``simulate`` -- games played in chunks and returned as a pandas table, one row per game;
* ``record``   -- one game played again with its event log, written as a replay log
  (docs/replay-log.md), which ``replays`` reads;
* ``contract`` -- the checks every strategy must pass (RULES R11): legal answers, the same table
  for the same seed, decisions blind to hidden information (``survive-sim strategies --check``).

Imports ``strategies`` and ``simulator`` only (tests/test_layers.py).
"""
