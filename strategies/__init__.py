"""Decision makers. Each strategy is one module with an ``@njit`` function ``choose`` of the
signature ``choose(pub, mine, seat, kind, opts, n, rng) -> int`` that picks one row of the
option table ``opts[:n]`` the rules core enumerated (see ``simulator.state`` for the decision
kinds and row layouts). It sees only ``pub`` (the table) and ``mine`` (its own secrets): RULES R11.

``STRATEGY_CODES`` maps the short names used on the command line to the integer the compiled
engine switches on (``strategies.dispatch``).
"""
STRATEGY_CODES = {"random": 0, "greedy": 1}
STRATEGY_NAMES = {v: k for k, v in STRATEGY_CODES.items()}
SCRIPTED_ID = 99   # internal: strategies/scripted.py, driven by tests (not a CLI choice)
