"""The referee (plain Python, written from RULES.md) agrees with the engine on hundreds of logged
games per player count, and catches a deliberately corrupted log."""
import copy

import pytest

from replays import referee
from play.record import game_log
from play.settings import Settings

pytestmark = pytest.mark.slow      # whole runs and games: docs/performance.md, "Test suite"

GAMES = 200
MIXES = [("greedy",), ("random",), ("greedy", "random"), ("random", "greedy")]


def _settings(players, i):
    mix = MIXES[i % len(MIXES)]
    seats = 4 if players == 2 else players
    strategies = tuple(mix[s % len(mix)] for s in range(seats))
    return Settings(players=players, strategies=strategies)


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_referee_agrees_with_engine(players):
    """Every decision legal and every consequence equal, B2-B8, R1-R21 and X1, on 200 games."""
    for game in range(GAMES):
        log = game_log(_settings(players, game), 2024, game)
        found = referee.check(log)
        assert found is None, f"game {game}: {found}"


def _corrupt_first(log, event_type, mutate):
    bad = copy.deepcopy(log)
    for ev in bad["events"]:
        if ev["type"] == event_type and mutate(ev):
            return bad, ev["i"]
    raise AssertionError(f"no {event_type} event to corrupt")


def test_referee_catches_corrupted_decision():
    """A creature die move made longer than the die allows (B6.9/B6.10, R12) is reported at
    that event with a rule id."""
    log = game_log(Settings(players=4, strategies=("greedy",)), 5, 1)

    def stretch(ev):
        if ev["kind"] == "serpent" and ev["path"]:
            ev["path"] = ev["path"] + ev["path"][:1]
            return True
        return False
    bad, i = _corrupt_first(log, "creature", stretch)
    found = referee.check(bad)
    assert found is not None and found.event == i and found.rule.startswith(("B6", "R12"))


def test_referee_catches_corrupted_consequence():
    """A snapshot claiming an explorer rescued who is really elsewhere is reported as the first
    discrepancy, at that event."""
    log = game_log(Settings(players=4, strategies=("greedy",)), 5, 2)

    def teleport(ev):
        row = next(x for x in ev["after"]["explorers"] if x[1] == "land")
        row[1], row[2] = "safe", 133
        return True
    bad, i = _corrupt_first(log, "turn_start", teleport)
    found = referee.check(bad)
    assert found is not None and found.event == i


def test_referee_catches_corrupted_record():
    """A record whose score disagrees with the final position is caught (B7.2)."""
    log = game_log(Settings(players=3, strategies=("greedy",)), 5, 3)
    bad = copy.deepcopy(log)
    bad["record"]["score_0"] = bad["record"]["score_0"] + 1
    found = referee.check(bad)
    assert found is not None and "score_0" in found.message


def test_referee_catches_x1_3_placement_on_an_empty_or_own_tile():
    """X1.3: a 6-player log whose fifth seat puts its last explorer anywhere but on a lone
    explorer of another colour is reported at that placement."""
    log = game_log(Settings(players=6, strategies=("random",)), 5, 4)
    places = [ev for ev in log["events"] if ev["type"] == "place_explorer"]
    last4 = [ev for ev in places if ev["seat"] == 4][-1]
    own = next(ev["hex"] for ev in places if ev["seat"] == 4 and ev is not last4)
    bad = copy.deepcopy(log)
    bad["events"][last4["i"]]["hex"] = own
    found = referee.check(bad)
    assert found is not None and found.rule == "X1.3" and found.event == last4["i"]


def test_referee_catches_x1_6_wrong_deciding_step():
    """X1.6: the record's deciding step is recomputed from the final position."""
    log = game_log(Settings(players=5, strategies=("greedy",)), 5, 0)
    bad = copy.deepcopy(log)
    bad["record"]["decided_by"] = "turns" if log["record"]["decided_by"] != "turns" else "score"
    found = referee.check(bad)
    assert found is not None and found.rule == "X1.6" and "decided_by" in found.message


def test_referee_checks_explorers_removed_with_5_players():
    """X1.1: a 5-player log listing a removed explorer (a seat's first 3) is refused."""
    log = game_log(Settings(players=5, strategies=("random",)), 5, 0)
    bad = copy.deepcopy(log)
    bad["explorers"].append({"id": 5, "seat": 0, "slot": 5, "value": 3})
    found = referee.check(bad)
    assert found is not None and found.rule == "X1.1"


# every player count under each of Challenges 1-4 and all four together; Challenge 6 (5-6
# players only) alone and with all the others
CHALLENGE_RUNS = ([(p, c) for c in [(1,), (2,), (3,), (4,), (1, 2, 3, 4)] for p in range(2, 7)]
                  + [(p, c) for c in [(6,), (1, 2, 3, 4, 6)] for p in (5, 6)])
CHALLENGE_IDS = [f"{p}p-c{''.join(map(str, c))}" for p, c in CHALLENGE_RUNS]

@pytest.mark.parametrize("players,challenges", CHALLENGE_RUNS, ids=CHALLENGE_IDS)
def test_referee_agrees_under_challenges(players, challenges):
    """X2.1-X2.5 on logged games of every player count (fewer games per setting than the
    base runs: the challenge code paths are few and each game exercises them)."""
    for game in range(8):
        s = _settings(players, game)
        s = Settings(players=players, strategies=s.strategies, challenges=challenges)
        found = referee.check(game_log(s, 31, game))
        assert found is None, f"game {game}: {found}"


def test_referee_catches_x2_violations():
    """X2.1 (a third explorer on a tile under Challenge 1), X2.3 (a record scoring values under
    Challenge 3) and X2.4 (a game said to end at the volcano under Challenge 4)."""
    log = game_log(Settings(players=4, strategies=("greedy",), challenges=(1,)), 6, 0)
    places = [ev for ev in log["events"] if ev["type"] == "place_explorer"]
    bad = copy.deepcopy(log)
    for ev in places[1:3]:                        # the next two go where the first went
        bad["events"][ev["i"]]["hex"] = places[0]["hex"]
    found = referee.check(bad)
    assert found is not None and found.rule in ("X2.1", "B4.3") and found.event <= places[2]["i"]

    log = game_log(Settings(players=4, strategies=("greedy",), challenges=(3,)), 6, 1)
    bad = copy.deepcopy(log)
    s = next(s for s in range(4) if log["record"][f"rescued_{s}"] > 0)
    bad["record"][f"score_{s}"] = log["record"][f"rescued_value_{s}"] + 1
    found = referee.check(bad)
    assert found is not None and f"score_{s}" in found.message

    log = game_log(Settings(players=4, strategies=("greedy",), challenges=(4,)), 6, 2)
    assert log["record"]["end_reason"] == "island_gone"
    bad = copy.deepcopy(log)
    bad["events"][-1]["reason"] = "volcano"
    found = referee.check(bad)
    assert found is not None and found.rule in ("X2.4", "B7.1")


def test_referee_catches_x6_bonus_violations():
    """X6.3 / X6.6: a bonus move of an explorer that was not on the sunk tile, or one asked out
    of turn order, is reported at that event."""
    log = game_log(Settings(players=5, strategies=("greedy",), challenges=(6,)), 78, 1)
    bonus = [ev for ev in log["events"] if ev["type"] == "bonus" and ev["what"] == "explorer"]
    assert bonus
    ev = bonus[0]
    sink = max(e["i"] for e in log["events"] if e["type"] == "sink" and e["i"] < ev["i"])
    bad = copy.deepcopy(log)
    on_tile = {x[0] for x in log["events"][sink - 1]["after"]["explorers"]
               if x[1] == "land" and x[2] == log["events"][sink]["hex"]}
    stranger = next(x[0] for x in log["events"][sink]["after"]["explorers"]
                    if x[0] // 10 == ev["seat"] and x[0] not in on_tile)
    bad["events"][ev["i"]]["id"] = stranger
    found = referee.check(bad)
    assert found is not None and found.event == ev["i"] and found.rule.startswith(("X6", "B6"))
    bad = copy.deepcopy(log)
    bad["events"].insert(ev["i"] + 1, copy.deepcopy(ev))         # the same seat asked twice
    for i, e in enumerate(bad["events"]):
        e["i"] = i
    found = referee.check(bad)
    assert found is not None and found.event == ev["i"] + 1 and found.rule == "X6.6"


# Challenge 5 (Dolphins & Dive Dice, X5), the Giant Squid (X7) and its squid-only option
# (X7.6), alone and with other challenges, and Challenge 4 alone for its last-tile ruling (R20).
EXPANSION_RUNS = {
    "4p-dolphins": dict(players=4, dolphins=True),
    "4p-squid": dict(players=4, squid=True),
    "4p-squid_only": dict(players=4, squid=True, squid_only=True),
    "3p-dolphins-squid": dict(players=3, dolphins=True, squid=True),
    "2p-dolphins-squid_only": dict(players=2, dolphins=True, squid=True, squid_only=True),
    "5p-c1234-dolphins-squid": dict(players=5, challenges=(1, 2, 3, 4), dolphins=True, squid=True),
    "6p-c36-dolphins-squid": dict(players=6, challenges=(3, 6), dolphins=True, squid=True),
    "4p-dolphins-squid-must_move": dict(players=4, dolphins=True, squid=True,
                                        creatures_must_move=True),
    "4p-c4": dict(players=4, challenges=(4,)),
}
EXPANSION_GAMES = 20            # per strategy mix: 40 games per setting


@pytest.mark.parametrize("mix", ["greedy-random", "random"])
@pytest.mark.parametrize("name", list(EXPANSION_RUNS))
def test_referee_agrees_under_expansions(name, mix):
    """X5.1-X5.9 (dive dice, dolphins and their protection), X7.1-X7.8 (squid placement, moves
    and attacks; squid instead of whales), R12/R19/R21 under the dice, and R20 (Challenge 4's
    last tile): the referee accepts every logged game of the setting (greedy in seat 0 and
    random elsewhere, or all random)."""
    kw = EXPANSION_RUNS[name]
    seats = 4 if kw["players"] == 2 else kw["players"]
    strategies = ("greedy",) + ("random",) * (seats - 1) if mix == "greedy-random" \
        else ("random",) * seats
    s = Settings(strategies=strategies, **kw)
    for game in range(EXPANSION_GAMES):
        found = referee.check(game_log(s, 41, game))
        assert found is None, f"game {game}: {found}"


# every player count with each expansion alone (X5, X7, X7.6): a few games each
PER_COUNT_RUNS = [(p, ex) for p in range(2, 7) for ex in ("d", "s", "so")]


@pytest.mark.parametrize("players,ex", PER_COUNT_RUNS,
                         ids=[f"{p}p-{ex}" for p, ex in PER_COUNT_RUNS])
def test_referee_agrees_with_each_expansion_at_every_player_count(players, ex):
    """X5 (d), X7 (s) and X7.6 (so) at 2-6 players: the referee accepts every logged game."""
    for game in range(6):
        s = _settings(players, game)
        s = Settings(players=players, strategies=s.strategies, dolphins="d" in ex,
                     squid="s" in ex, squid_only="o" in ex)
        found = referee.check(game_log(s, 43, game))
        assert found is None, f"game {game}: {found}"
