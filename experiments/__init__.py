"""Experiments built on ``play.simulate``: sweeps over player counts, boat allocations, challenge rules and strategies (later issues)."""
