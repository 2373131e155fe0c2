"""Playing for the claims: a study file or a command-line grid into grid points, a sweep of them
into a run folder (resumable, on threads or Dask), its cost beforehand, and ``--until-settled``
rounds that play until every verdict is settled. Above the verdicts, which they consult.

* ``spec``: a study file (TOML) or a command-line grid -> the grid points to play.
* ``sweep``: play a sweep into a run folder, in chunks, resumable.
* ``plan``: ``sweep --plan``: the time a sweep should take and its precision.
* ``overhead``: what a sweep costs beyond its games (``bench --sweep``).
* ``settle``: ``study --until-settled``: play in rounds until every verdict is settled.
"""
