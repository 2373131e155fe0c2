"""Where work is kept and how it is watched: files and folders that appear whole or not at all,
the run folders and state folders that resume, which files survive-sim may replace, the commit
of the running code, worker processes, the Dask cluster and the progress protocol. The bottom
of ``experiments``: it knows nothing of games or verdicts.

* ``atomic``: the one I/O module: files and folders that appear whole or not at all.
* ``outputs``: which existing files survive-sim may replace (its own, no others).
* ``runs``: a run folder: its chunks, manifest, lock and identity.
* ``state_files``: the state folders of commands that resume (tournament, tune).
* ``provenance``: which commit the running code came from.
* ``workers``: worker processes for work split by chunk, chart or sample game.
* ``cluster``: a Dask client for the same work on a cluster (``--scheduler``).
* ``watch``: what a long computation tells whoever watches it (phase, progress).
"""
