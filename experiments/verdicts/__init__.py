"""The claims about the game's balance and their verdicts: what each claim measures, one value
per game index kept as moments, the intervals and decision rules, every claim's judge, the
verdict table, the looks of a growing run, and how often each verdict is wrong on data of known
truth. Above ``store`` and ``tables``; the sweeps above consult it.

* ``claims/``: the claims (docs/claims.md), each one record with its rule and its judge (the
  scopes it compares, the measure it takes), one module per subject: ``seats`` (seats and
  tie-breaks), ``boats_turns``, ``player_counts``, ``challenges`` (challenges and
  expansions), ``skill_leader``; ``record`` the record and the loop written once; ``shared``
  the selections and wording their measures share.
* ``features``: every per-index feature a verdict reads (the base of one setting or a pair,
  and the named sets), one interface: ``names(kind, e)``, ``rows(kind, parts, e)``.
* ``catalog``: a run's settings and the moments of their features (``Catalog``, ``Joint``).
* ``inference``: intervals, p-values and power, at one look or at any look.
* ``decisions``: the decision rules: an estimate and its interval -> a verdict.
* ``table``: the verdict table of a study's claims, per style of play and across.
* ``exhibits``: the numbers behind the boat, turn, skill and leader claims, as tables.
* ``analysis``: one pass over a run folder, chunk by chunk, for statistics, charts, verdicts.
* ``looks``: a run's looks (``_looks.json``) and ``judge_run``, a run judged at its next look.
* ``calibration``: how often each verdict is wrong, on synthetic data of known truth.
* ``calibration_cases``: every claim's calibration cases, keyed by claim id, on both sides
  of each edge, one module per subject as ``claims``; the long version.
* ``calibration_sequences``: the anytime-valid sequences at small samples.
"""
