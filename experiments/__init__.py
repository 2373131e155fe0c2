"""Experiments built on ``simulator.simulate``: sweeps over player counts, boat allocations, challenge rules and strategies (later issues)."""
