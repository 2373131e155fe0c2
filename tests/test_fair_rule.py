"""``study fair-rule`` (issue 41, claim B4): the shipped search of rules from boats, komi and
setup order at 5 and 6 players, for every style and the search rung; and the same file played
small end to end, through the API, with a style that only confirms."""
from __future__ import annotations

import pandas as pd

import survive_sim as ss
from experiments.fairest.results import best_of
from experiments.fairest.space import Rule


def test_the_shipped_study_searches_rules_for_every_style_and_the_search_rung():
    spec = ss.fair_spec("fair-rule")
    assert spec.players == (5, 6) and spec.claim == "B4" and spec.confirm_all
    assert [s.race for s in spec.styles] == [True] * 5 + [False]
    slow = spec.styles[-1]
    assert slow.lineup == ("search256:budget=16",) and slow.max_games == 500
    assert spec.confirm_sizes(slow) == [500]
    rules = spec.candidates(5)
    assert len(rules) == 35 * 9 and all(isinstance(r, Rule) for r in rules)
    assert len(spec.candidates(6)) == 56 * 9
    assert {r.changes(5) for r in rules} == {0, 1, 2}          # boats stay the rules'
    greedy = spec.styles[0]
    assert spec.engine_games(5, greedy) == 9 and spec.engine_games(5, slow) == 315


def test_the_study_plays_small_end_to_end_with_a_style_that_only_confirms(tmp_path):
    """The shipped file with its players, styles, space and games made small: the race, the
    confirmation (the search rung confirming the racing style's fairest and the rules' own
    setup on its own few games), the B4 verdicts, the conclusions and the report."""
    result = ss.fairest("fair-rule", tmp_path / "fr", threads=1, players=[3], space="komi=0.5",
                        styles=["random", {"strategy": "search256:budget=2", "race": False,
                                           "max_games": 3}],
                        screen=10, max_games=10, confirm=1, confirm_games=10, settle=20,
                        chunk=10)
    s = result.search
    search_style = s.spec.styles[1]
    assert (3, search_style) not in s.races
    conf = s.confirmations[3, search_style]
    best = best_of(s.races[3, s.spec.styles[0]], 1)[0]          # the racing style's fairest
    assert list(conf.boats) == list(dict.fromkeys([best, "2,2,2"]))   # and the rules' setup
    assert {t.n for t in conf.tallies.values()} == {3}
    assert set(result.verdicts["claim"]) == {"B4"}
    assert set(result.verdicts["style"]) == {"random self-play", "search256:budget=2 self-play"}
    c = result.conclusions
    assert list(c["style"]) == ["random self-play", "search256:budget=2 self-play",
                                "every style"]
    table = pd.read_csv(tmp_path / "fr" / "fairest.csv")
    assert {"boats", "komi", "order", "changes"} <= set(table.columns)
    assert s.games_reused > 0                   # random is komi-blind: bonuses on shared games
    page = result.report().read_text()
    assert "The fairest rule" in page and "Every rule" in page
    assert "A style that only confirms" in page and "allocation" not in page.split("Method")[-1]
