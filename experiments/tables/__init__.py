"""A results table as the statistics see it: its games per setting, exact sums and moments
added chunk by chunk, the rotations of a mixed table pooled, and the balance statistics and
summaries printed from them. Above ``store``; below the verdicts.

* ``games``: a results table's games as the statistics see them (``SettingData``).
* ``results``: saved results tables checked, cut into settings, with their settings line.
* ``sums``: a run's counts as sums added chunk by chunk (``SettingSums``, ``PairSums``).
* ``moments``: the intervals every rate and mean is printed with, and their sums.
* ``rotations``: the rotations of a mixed table, pooled into one setting.
* ``stats``: balance statistics per setting and seat, and paired differences.
* ``stats_text``: ``stats``' tidy table as terminal text.
* ``summary``: summary statistics of a per-game results table (``simulate``, ``summary``).
* ``settings_table``: one row per setting of a run, with its factors.
"""
