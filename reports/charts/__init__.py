"""Charts of a run: every chart function takes the run's ``experiments.verdicts.analysis.Analysis``
(its sums and tidy statistics, read chunk by chunk) or a small run table in memory (and, where it
draws rows of the statistics, the tidy table, computed when not given), draws with
``matplotlib.figure.Figure`` (no pyplot, no global state) and returns ``(figure, table)``: the figure and a tidy DataFrame of exactly the numbers
drawn (one row per plotted value, with ``low``, ``high``, ``n`` and ``method`` where it has an
interval), for a report to save as CSV behind the chart. ``save(figure, stem)`` writes
``stem.png`` (150 dpi) and ``stem.svg``.

* ``seats``: ``seat_win_share`` (against the fair share 1/N), ``seat_score_rescued``.
* ``ties``: ``tie_decisions`` (tie rate and the chain's deciding step),
  ``tiebreak_transitions`` / ``transition_counts`` (shared winners -> the chain's pick).
* ``game``: ``game_length``, ``rescued_per_game``, ``losses_by_cause``, ``end_reasons``,
  ``turn_capped`` (per challenge and expansion).
* ``claims``: the tables shown beside the verdicts (``experiments.verdicts.exhibits``):
  ``boat_value``, ``turns_per_seat``, ``strategy_shares``, ``score_variance``, ``leader_basher``.
* ``distributions``: ``score_distributions`` (one setting, per seat), ``paired_differences``
  (forest plot of "A vs B" rows).
* ``skill``: ``skill_trace`` (seat shares against the skill level of self-play),
  ``skill_strength`` (seat 1's excess against the level's measured strength).
* ``komi``: ``komi_curves``, ``komi_panels`` (each seat's win share against its own score
  bonus, and its fair bonus; ``survive_sim.Run.komi``'s tables, a report's komi section).
* ``data``: ``settings_table``, ``describe_setting``, ``setting_titles``, ``setting_names``,
  ``select``, ``seat_label``.
* ``style``: the Okabe-Ito palette, fonts, ``save``.
"""
from reports.charts.claims import (
                                 boat_value,
                                 leader_basher,
                                 score_variance,
                                 strategy_shares,
                                 turns_per_seat,
)
from reports.charts.data import (
                                 describe_setting,
                                 seat_label,
                                 seat_labels,
                                 select,
                                 setting_names,
                                 setting_titles,
                                 settings_table,
)
from reports.charts.distributions import paired_differences, score_distributions
from reports.charts.game import (
                                 end_reasons,
                                 game_length,
                                 losses_by_cause,
                                 rescued_per_game,
                                 turn_capped,
)
from reports.charts.komi import komi_curves, komi_panels
from reports.charts.seats import seat_score_rescued, seat_win_share
from reports.charts.skill import skill_strength, skill_trace
from reports.charts.style import OKABE_ITO, caption_of, save, title_of
from reports.charts.ties import tie_decisions, tiebreak_transitions, transition_counts

__all__ = [
                                 "OKABE_ITO",
                                 "boat_value",
                                 "leader_basher",
                                 "score_variance",
                                 "strategy_shares",
                                 "turns_per_seat",
                                 "caption_of",
                                 "komi_curves",
                                 "komi_panels",
                                 "describe_setting",
                                 "end_reasons",
                                 "game_length",
                                 "losses_by_cause",
                                 "paired_differences",
                                 "rescued_per_game",
                                 "save",
                                 "score_distributions",
                                 "seat_label",
                                 "seat_labels",
                                 "seat_score_rescued",
                                 "seat_win_share",
                                 "select",
                                 "setting_names",
                                 "setting_titles",
                                 "settings_table",
                                 "skill_strength",
                                 "skill_trace",
                                 "tie_decisions",
                                 "tiebreak_transitions",
                                 "title_of",
                                 "transition_counts",
                                 "turn_capped",
]
