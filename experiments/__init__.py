"""Experiments built on ``play``: sweeps into run folders, their statistics, the claims and
their verdicts, tournaments and tuning. Nothing here imports the report layer above it.

Playing and storing:

* ``spec``: a study file (TOML) or a command-line grid -> the grid points to play.
* ``sweep``: play a sweep into a run folder, in chunks, resumable.
* ``plan``: ``sweep --plan``: the time a sweep should take and its precision.
* ``overhead``: what a sweep costs beyond its games (``bench --sweep``).
* ``settle``: ``study --until-settled``: play in rounds until every verdict is settled.
* ``runs``: a run folder: its chunks, manifest, lock and identity.
* ``atomic``: the one I/O module: files and folders that appear whole or not at all.
* ``outputs``: which existing files survive-sim may replace (its own, no others).
* ``state_files``: the state folders of commands that resume (tournament, tune).
* ``provenance``: which commit the running code came from.
* ``workers``: worker processes for work split by chunk, chart or sample game.
* ``watch``: what a long computation tells whoever watches it (phase, progress).

Reading a run:

* ``analysis``: one pass over a run folder, chunk by chunk, for statistics, charts, verdicts.
* ``games``: a results table's games as the statistics see them (``SettingData``).
* ``sums``: a run's counts as sums added chunk by chunk (``SettingSums``, ``PairSums``).
* ``moments``: the intervals every rate and mean is printed with, and their sums.
* ``stats``: balance statistics per setting and seat, and paired differences.
* ``stats_text``: ``stats``' tidy table as terminal text.
* ``summary``: summary statistics of a per-game results table (``simulate``, ``summary``).
* ``tables``: saved results tables checked, cut into settings, with their settings line.
* ``settings_table``: one row per setting of a run, with its factors.
* ``rotations``: the rotations of a mixed table, pooled into one setting.

Claims and verdicts:

* ``claims/``: the claims about the game's balance (docs/claims.md), each one record with
  its rule and its judge (the scopes it compares, the measure it takes), one module per
  subject: ``seats`` (seats and tie-breaks), ``boats_turns``, ``player_counts``,
  ``challenges`` (challenges and expansions), ``skill_leader``; ``shared`` the selections
  and wording their measures share.
* ``decisions``: the decision rules: an estimate and its interval -> a verdict.
* ``inference``: intervals, p-values and power, at one look or at any look.
* ``units``: what the verdicts measure, one value per game index, kept as moments.
* ``features``: more per-index feature sets (boats, turns, causes, strategies, variance).
* ``verdicts``: the verdict table of a study's claims, per style of play and across.
* ``exhibits``: the numbers behind the boat, turn, skill and leader claims, as tables.
* ``looks``: a run's looks (``_looks.json``) and ``judge_run``, a run judged at its next look.
* ``calibration``: how often each verdict is wrong, on synthetic data of known truth.
* ``calibration_cases``: every claim's calibration cases, keyed by claim id, on both sides
  of each edge; the long version.
* ``calibration_sequences``: the anytime-valid sequences at small samples.
* ``fairest``: the fairest boat allocation (B3, S1b), raced and confirmed per style of play.

Strategies:

* ``tournament``: every strategy in every seat, on common games, until the order is known.
* ``tune``: a strategy's parameters tuned by self-play against a ladder (CMA-ES).
* ``plugins/``: plug-in strategies shipped as files (``placement.py``: placement alone, K3).
"""
