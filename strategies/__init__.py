"""Decision makers. Each strategy is one module with a compiled function
``choose(pub, mine, seat, kind, opts, n, rng, mem, work) -> int`` that picks one row of the
option table ``opts[:n]`` the rules core enumerated (see ``simulator.state`` for the decision
kinds and row layouts). It sees only ``pub`` (the table) and ``mine`` (its own secrets): RULES
R11. ``rng`` is the seat's own noise stream, ``mem`` a float scratch row it keeps for the whole
game, and ``work`` (with the rows of ``opts`` past ``n``) scratch for asking the rules about
other moves (``rules.move_rows``, ``rules.creature_moves``, ``rules.reach`` ...).

A movement point, a tile play and the die move are asked in two decisions: which piece (or
none), then where it goes. A strategy that weighs every whole move at once lists them itself at
the first half and remembers its choice for the second (``greedy`` does).

``STRATEGY_CODES`` maps the short names used on the command line to the integer the compiled
engine switches on (``strategies.dispatch``).
"""
STRATEGY_CODES = {"random": 0, "greedy": 1}
STRATEGY_NAMES = {v: k for k, v in STRATEGY_CODES.items()}
SCRIPTED_ID = 99   # internal: strategies/scripted.py, driven by tests (not a CLI choice)
