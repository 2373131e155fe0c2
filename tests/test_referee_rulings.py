"""Four rulings RULES.md states where the rulebook can be read two ways -- X1.3 under
Challenge 1, X6.2 with Challenge 1, X7.4 (a squid removes every whale in its hex) and X7.5 (a
whale entering removes every squid there), docs/rulings.md -- on example games where the other
reading would play differently.

Each example game is replayed by the engine, shows the ruling at the event named, and is
accepted by the referee; the same log changed to what the other reading does there is refused
at that event with the rule's id. The referee checks these places from RULES.md's text
(``Position._placement``, ``_walk``, ``_ev_squid`` in ``replays/referee/``), not from the
engine's code paths; the last test refuses a log of the format before these rulings.
"""
from __future__ import annotations

import copy
from functools import lru_cache

from replays import referee
from replays.text import format_log
from simulator import board as BD
from play.record import game_log
from play.settings import Settings

SIX = ("greedy",) + ("random",) * 5


@lru_cache(maxsize=None)
def _example(seed: int, game: int, players: int, strategies: tuple, challenges: tuple = (),
             dolphins: bool = False, squid: bool = False) -> dict:
    log = game_log(Settings(players=players, strategies=strategies, challenges=challenges,
                            dolphins=dolphins, squid=squid), seed, game)
    assert referee.check(log) is None, "the engine's own log is refused"
    return log


def _refused_at(log: dict, i: int, rule: str) -> None:
    found = referee.check(log)
    assert found is not None, "the referee accepted the earlier reading"
    assert (found.event, found.rule) == (i, rule), found


def _on_land(after: dict, h: int) -> list[int]:
    return [e for e, loc, at in after["explorers"] if loc == "land" and at == h]


def test_x1_3_under_challenge_1_last_explorer_joins_a_lone_explorer():
    """X1.3 with Challenge 1 (seed 20240, game 0, 6 players, event 41): seat 4's last explorer
    goes on an inland tile holding exactly one explorer of another colour; the earlier reading
    put it on the empty tile (9,5)."""
    log = _example(20240, 0, 6, SIX, (1,))
    ev = log["events"][41]
    assert (ev["type"], ev["seat"], ev["explorer"]) == ("place_explorer", 4, 46)
    before = log["events"][40]["after"]
    here = _on_land(before, ev["hex"])
    assert len(here) == 1 and here[0] // 10 != 4 and BD.DENSE_CAP[ev["hex"]] == 2
    old = BD.hex_index(9, 5)
    assert _on_land(before, old) == []
    bad = copy.deepcopy(log)
    bad["events"][41]["hex"] = old
    _refused_at(bad, 41, "X1.3")


def test_x6_2_with_challenge_1_never_onto_ones_own_colour_once_every_tile_is_occupied():
    """X6.2 with Challenges 1 and 6 (seed 20240, game 4, 6 players, Challenges 1,3,5,6 and the
    squid, event 57): every tile holds an explorer, so seat 2's explorer 24 joins a lone
    explorer of another colour; the earlier reading put it on (7,5) beside its own 26."""
    log = _example(20240, 4, 6, SIX, (1, 3, 5, 6), squid=True)
    ev = log["events"][57]
    assert (ev["type"], ev["seat"], ev["explorer"]) == ("place_explorer", 2, 24)
    before = log["events"][56]["after"]
    assert all(_on_land(before, h) for h in before["land"])          # every tile occupied
    here = _on_land(before, ev["hex"])
    assert len(here) == 1 and here[0] // 10 != 2
    old = BD.hex_index(7, 5)
    assert _on_land(before, old) == [26]
    bad = copy.deepcopy(log)
    bad["events"][57]["hex"] = old
    _refused_at(bad, 57, "X6.2")


def test_x7_4_a_squid_removes_every_whale_in_its_hex():
    """X7.4 (seed 99, game 88, 6 players, Challenge 6 and the squid, events 173-174): squid 2
    ends its move in (5,6) with whales 0 and 1 and removes both. A log removing only whale 0
    -- in the event, or in its snapshot -- is refused. (Also seed 5, game 49, 3 players,
    Challenge 2, event 1914: whales 2 and 4.)"""
    log = _example(99, 88, 6, SIX, (6,), squid=True)
    move, attack = log["events"][173], log["events"][174]
    assert (move["type"], move["kind"], move["piece"]) == ("creature", "squid", 2)
    assert (attack["type"], attack["piece"], attack["whales"]) == ("squid", 2, [0, 1])
    assert attack["hex"] == BD.hex_index(5, 6)
    assert attack["after"]["creatures"]["whale"][:2] == [-2, -2]
    bad = copy.deepcopy(log)
    bad["events"][174]["whales"] = [0]
    _refused_at(bad, 174, "X7.4")
    bad = copy.deepcopy(log)
    bad["events"][174]["after"]["creatures"]["whale"][1] = attack["hex"]
    _refused_at(bad, 174, "X7.4")
    other = _example(5, 49, 3, ("random",), (2,), squid=True)["events"][1914]
    assert (other["type"], other["whales"]) == ("squid", [2, 4])


def test_x7_5_a_whale_entering_a_squid_hex_removes_every_squid_there():
    """X7.5 (seed 99, game 66, 4 players, dolphins and the squid, event 285): whale 3 enters
    (9,3) holding squid 1 and squid 2 and removes both; a snapshot keeping squid 2 there (a
    whale and a squid resting in one hex) is refused."""
    log = _example(99, 66, 4, ("greedy",), dolphins=True, squid=True)
    ev = log["events"][285]
    assert (ev["type"], ev["kind"], ev["piece"], ev["path"][-1]) == \
        ("creature", "whale", 3, BD.hex_index(9, 3))
    h = ev["path"][-1]
    assert log["events"][284]["after"]["creatures"]["squid"][1:3] == [h, h]
    assert ev["after"]["creatures"]["squid"][1:3] == [-2, -2]
    bad = copy.deepcopy(log)
    bad["events"][285]["after"]["creatures"]["squid"][2] = h
    _refused_at(bad, 285, "X7.5")


def test_the_replay_text_names_every_piece_removed():
    """``survive-sim replay`` says which whales a squid removed and which squid a whale did."""
    text = format_log(_example(99, 66, 4, ("greedy",), dolphins=True, squid=True))
    assert "moves whale 3: (9,3); removes squid 1, 2" in text
    text = format_log(_example(99, 88, 6, SIX, (6,), squid=True))
    assert "squid 2 attacks from (5,6); whales 0, 1 removed" in text


def test_a_log_of_the_earlier_format_is_refused():
    """Format 1 logged one ``whale`` per squid event; the referee reads format 2 only."""
    log = copy.deepcopy(_example(99, 66, 4, ("greedy",), dolphins=True, squid=True))
    log["format"] = "survive-sim-log/1"
    found = referee.check(log)
    assert found is not None and found.rule == "format" and "survive-sim-log/2" in found.message
