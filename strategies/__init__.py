"""Decision makers: every strategy is a compiled ``choose`` that picks one row of the legal
options the rules core enumerated (the signature and what each argument holds:
``strategies.api``). It sees only the public table and its own secrets (RULES R11).

What a strategy is, and how the engine reaches it:

* ``api``       -- the one signature, ``Param``, the seat rows' widths, ``preset``;
* ``registry``  -- the one list: built-ins (every module here that assigns ``NAME``) and
  plug-ins, their parameters and descriptions; ``name:key=value,...`` specs;
* ``dispatch``  -- the compiled switch generated from the registry, and the seats' functions;
* ``seat_call`` -- the trampoline through which the engine calls a plug-in, or a built-in
  compiled on its own;
* ``generated`` -- writes the generated modules (switch, trampolines) where numba caches them;
* ``plugins``   -- strategies from the user's own files.

What the heuristics share:

* ``queries``   -- what they ask about a position (potential, danger, room, leads, the odds
  of a sunk tile's back);
* ``choice``    -- how they pick among scored rows (ties, whole moves remembered, the one
  whole-move loop);
* ``scores``    -- greedy's score of every option, which the rungs reuse with their weights.

The built-ins, the ladder in ``CODE`` order, one short module each: ``random``, ``greedy``,
``careful``, ``racer``, ``saboteur``, ``tuned`` (a preset of racer), ``lookahead``,
``expert`` (a preset of lookahead); and ``scripted``, which plays the scenario tests' scripts.

A movement point, a tile play and the die move are asked in two decisions: which piece (or
none), then where it goes. A strategy that weighs every whole move at once lists them itself at
the first half and remembers its choice for the second (``greedy`` does).
"""
