"""play.settings: the command line's strings parsed and checked in one place, 2 players
named as players, and the plain-dict round trip (``to_dict`` / ``from_dict``) a sweep's manifest
relies on. No engine: these run in a fraction of a second."""
from __future__ import annotations

import itertools
import json

import pytest

from play.settings import (CHALLENGES, Settings, SettingsError, parse_boats,
                                parse_challenges, parse_player_counts, parse_strategies)

pytestmark = pytest.mark.engine_free


@pytest.mark.parametrize("text, expected", [("greedy", ("greedy",)),
                                            (" greedy , random ", ("greedy", "random"))])
def test_parse_strategies(text, expected):
    assert parse_strategies(text) == expected


@pytest.mark.parametrize("fn, text, needle, param", [
    (parse_strategies, "", "no strategy given; accepted: random, greedy", "--strategies"),
    (parse_strategies, " ", "no strategy given", "--strategies"),
    (parse_strategies, "greedy,,random", "unknown strategy ''; accepted: random, greedy",
     "--strategies"),
    (parse_strategies, "smart", "unknown strategy 'smart'", "--strategies"),
    (parse_boats, "two", "`rules` or comma-separated numbers 0-3", "--boats"),
    (parse_boats, "2,,2", "`rules` or comma-separated numbers 0-3", "--boats"),
    (parse_challenges, "1,9", "unknown challenge '9'; accepted: 1, 2, 3, 4, 5, 6", "--challenge"),
    (parse_challenges, "x", "unknown challenge 'x'", "--challenge"),
    (parse_player_counts, "2,7", "2, 3, 4, 5, 6; got '7'", "--players"),
])
def test_parse_errors_are_one_line_with_the_option(fn, text, needle, param):
    with pytest.raises(SettingsError) as e:
        fn(text)
    assert needle in str(e.value) and "\n" not in str(e.value)
    assert e.value.param == param


def test_parse_values():
    assert parse_boats("rules") == () and parse_boats("2, 2,1") == (2, 2, 1)
    assert parse_challenges("") == () and parse_challenges("3, 1") == (3, 1)
    assert parse_player_counts("2, 6") == (2, 6)


def test_from_options_is_the_cli_path():
    s = Settings.from_options(5, "greedy", boats="2,2,2,2,2", challenges="3", tiebreak=None,
                              max_turns=50)
    assert s == Settings(players=5, strategies=("greedy",) * 5, boats=(2,) * 5, challenges=(3,),
                         max_turns=50)
    assert s.tiebreak == "chain"
    with pytest.raises(SettingsError, match="boats must be 5 numbers"):
        Settings.from_options(5, boats="2,2")


def test_two_players_named_as_players():
    """B4.5: seats A,B,A,B; two names are the two players."""
    s = Settings(players=2, strategies=("greedy", "random"))
    assert s.strategies == ("greedy", "random", "greedy", "random")
    assert s == Settings(players=2, strategies=("greedy", "random", "greedy", "random"))
    assert Settings(players=2, strategies=("greedy",)).strategies == ("greedy",) * 4
    with pytest.raises(SettingsError, match="needs 1, 2 or 4 comma-separated names"):
        Settings(players=2, strategies=("greedy",) * 3)
    with pytest.raises(SettingsError, match="needs 1 or 3 comma-separated names"):
        Settings(players=3, strategies=("greedy", "random"))


def test_a_bad_name_is_named_before_the_count():
    with pytest.raises(SettingsError, match="unknown strategy 'bogus'"):
        Settings(players=4, strategies=("greedy", "bogus"))


def _every_setting():
    """Valid settings over every field: player counts, strategy lists, boats, every subset of
    challenges and the expansions, with the tie-breaks and rule flags taken in turn (invalid
    combinations skipped)."""
    subsets = [c for r in range(len(CHALLENGES) + 1) for c in itertools.combinations(CHALLENGES, r)]
    rules = itertools.cycle(itertools.product(["", "shared", "chain"],
                                              [(True, False, 400), (False, True, 7)]))
    for players in (2, 3, 4, 5, 6):
        n = 4 if players == 2 else players
        lists = [(), ("greedy",), ("random", "greedy") * (n // 2) + ("random",) * (n % 2)]
        if players == 2:
            lists.append(("greedy", "random"))
        for strategies, boats, challenges, (squid, only) in itertools.product(
                lists, [(), (3,) + (1,) * (n - 1)], subsets,
                [(False, False), (True, False), (True, True)]):
            tiebreak, flags = next(rules)
            try:
                yield Settings(players=players, strategies=strategies, boats=boats,
                               challenges=challenges, squid=squid, squid_only=only,
                               tiebreak=tiebreak, lagoon_is_sea=flags[0],
                               creatures_must_move=flags[1], max_turns=flags[2])
            except SettingsError:
                continue


def test_from_dict_rebuilds_every_setting():
    count = 0
    for s in _every_setting():
        d = s.to_dict()
        assert Settings.from_dict(d) == s
        assert Settings.from_dict(json.loads(json.dumps(d))) == s          # a JSON manifest
        assert Settings.from_dict(s.as_dict(), strategies=s.strategies) == s
        assert {k: v for k, v in d.items() if k != "strategies"} == s.as_dict()
        count += 1
    assert count > 1000


def test_as_dict_keys_are_the_log_format():
    """The replay log's `settings` (docs/replay-log.md): these keys, unchanged."""
    assert list(Settings(players=3).as_dict()) == [
        "players", "seats", "player_of_seat", "boats_per_seat", "lagoon_is_sea",
        "creatures_must_move", "max_turns", "tiebreak", "challenges", "dolphins", "squid",
        "squid_only"]
    assert Settings(players=3).to_dict()["strategies"] == ["random"] * 3


def test_from_dict_refuses_what_it_cannot_mean():
    d = Settings(players=4).to_dict()
    with pytest.raises(SettingsError, match="unknown settings key 'boat'"):
        Settings.from_dict({**d, "boat": [2, 2, 2, 2]})
    with pytest.raises(SettingsError, match="seats"):
        Settings.from_dict({**d, "seats": 5})
    with pytest.raises(SettingsError, match="needs --squid"):
        Settings.from_dict({**d, "squid_only": True})
    with pytest.raises(SettingsError, match="need `players`"):
        Settings.from_dict({"max_turns": 9})
