"""Decision makers: every strategy is a compiled ``choose`` that picks one row of the legal
options the rules core enumerated (the signature and what each argument holds:
``strategies.api``). It sees only the public table and its own secrets (RULES R11).

* ``registry`` -- the one list: built-ins (every module here that assigns ``NAME``) and
  plug-ins, their parameters and descriptions; ``name:key=value,...`` specs;
* ``dispatch`` -- the compiled switch generated from the registry, and plug-in seats;
* ``plugins``  -- strategies from the user's own files;
* ``queries``  -- what heuristics ask about a position (reach, danger, room, free sea);
* ``choice``   -- how heuristics pick among scored rows (ties, whole moves remembered);
* ``random_play``, ``greedy``, ``careful``, ``racer``, ``saboteur`` -- the built-ins (the
  ladder, in ``CODE`` order), one short module each.

A movement point, a tile play and the die move are asked in two decisions: which piece (or
none), then where it goes. A strategy that weighs every whole move at once lists them itself at
the first half and remembers its choice for the second (``greedy`` does).
"""
