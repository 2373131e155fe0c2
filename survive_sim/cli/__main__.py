"""``python -m survive_sim.cli ...``: the same as ``survive-sim ...``."""
from . import main

main()
