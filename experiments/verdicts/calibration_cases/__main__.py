"""``python -m experiments.verdicts.calibration_cases``: the long version (``main``)."""
from . import main

main()
