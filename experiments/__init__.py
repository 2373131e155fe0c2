"""Experiments built on ``play``: sweeps into run folders, their statistics, the claims and
their verdicts, and the searches over strategies and boats. Nothing here imports the report
layer above it.

The package is its parts by concept, bottom to top; each imports only the parts below it
(``tests/test_layers.py`` checks it). Each part's ``__init__`` lists its modules.

* ``store/``: where work is kept and how it is watched: atomic files, run folders, state
  folders, outputs survive-sim may replace, provenance, worker processes, the Dask cluster,
  progress.
* ``capture``: a question of a real game, captured as a seat function receives it, and put to
  a seat function again (``survive-sim bench --search``, the search's tests).
* ``tables/``: a results table as the statistics see it: games per setting, exact sums and
  moments, rotations pooled, balance statistics and summaries.
* ``verdicts/``: the claims, each with its judge; per-index features and their moments;
  intervals and decision rules; the verdict table, looks and calibration; one pass over a run.
* ``sweeps/``: study files and grids into grid points, sweeps into run folders, plans, and
  ``--until-settled`` rounds.
* ``tune``: a strategy's parameters tuned by self-play against a ladder (CMA-ES).
* ``tournament/``: every strategy in every seat, on common games, until the order is known.
* ``fairest/``: the fairest boat allocation (B3, S1b), raced and confirmed per style of play.

Data: ``*.toml`` are the shipped studies (``sweeps.spec.studies``); ``verdict_changes.csv``
the verdicts that moved when a rule was corrected; ``plugins/`` plug-in strategies shipped as
files (``placement.py``: placement alone, K3), loaded from a study file, never imported.
"""
