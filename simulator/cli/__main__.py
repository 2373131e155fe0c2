"""``python -m simulator.cli ...``: the same as ``survive-sim ...``."""
from . import main

main()
