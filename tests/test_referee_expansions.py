"""The referee (replays/referee/) catches deliberately corrupted logs of the expansions:
Challenge 5 -- Dolphins & Dive Dice (X5.1-X5.9) -- the Giant Squid and its squid-only option
(X7.1-X7.8), and the last-tile ruling of Challenge 4 (R20).

Each test takes real engine logs (``game_log``), checks that the referee accepts them as they
are, finds an event of the kind the rule is about, corrupts one decision or one consequence,
and asserts that the referee reports that very event with the rule's id. The rule ids are in
the test names and docstrings.
"""
from __future__ import annotations

import copy
from functools import lru_cache

from replays import referee
from play.record import game_log
from play.settings import Settings

SEED = 11
GAMES = 40                     # how many games a search looks through (it stops at the first hit)

DOLPHINS = dict(players=4, dolphins=True)
SQUID = dict(players=4, squid=True)
SQUID_ONLY = dict(players=4, squid=True, squid_only=True)
BOTH = dict(players=4, dolphins=True, squid=True)
ATLANTIS_GONE = dict(players=4, challenges=(4,))


@lru_cache(maxsize=None)
def _log(key: tuple, game: int) -> dict:
    kw = dict(key)
    if "challenges" in kw:
        kw["challenges"] = tuple(kw["challenges"])
    seats = 4 if kw["players"] == 2 else kw["players"]
    strategies = ("greedy",) + ("random",) * (seats - 1) if game % 2 == 0 else ("random",) * seats
    log = game_log(Settings(strategies=strategies, **kw), SEED, game)
    found = referee.check(log)
    assert found is None, f"the untouched log of game {game} is refused: {found}"
    return log


def _find(settings: dict, pred):
    """The first (log, event, extra) with ``pred(log, event)`` truthy (returned as extra)."""
    key = tuple(sorted(settings.items()))
    for game in range(GAMES):
        log = _log(key, game)
        for ev in log["events"]:
            extra = pred(log, ev)
            if extra:
                return copy.deepcopy(log), ev["i"], extra
    raise AssertionError(f"no event of the wanted kind in {GAMES} games of {settings}")


def _before(log, i):
    return log["events"][i - 1]["after"]


def _expect(log, i, *rules):
    found = referee.check(log)
    assert found is not None, "the referee found nothing"
    assert found.event == i and found.rule in rules, str(found)
    return found


def _roll_of(log, i):
    """The roll event of the creature event i."""
    return next(ev for ev in reversed(log["events"][:i]) if ev["type"] == "roll")


def _sea_hexes(after):
    land = set(after["land"])
    return [h for h in range(133) if h not in land]


def _occupants(after):
    """hex -> what stands there (boats, swimmers, creatures of every kind)."""
    occ: dict[int, list[str]] = {}
    for b, (h, _) in enumerate(after["boats"]):
        if h >= 0:
            occ.setdefault(h, []).append(f"boat{b}")
    for e, loc, at in after["explorers"]:
        if loc == "sea":
            occ.setdefault(at, []).append(f"swimmer{e}")
    for kind, hexes in after["creatures"].items():
        for n, h in enumerate(hexes):
            if h >= 0:
                occ.setdefault(h, []).append(f"{kind}{n}")
    return occ


# ---------------------------------------------------------------------------------------------
# X5: Dolphins & Dive Dice
# ---------------------------------------------------------------------------------------------

def test_X5_4_dice_never_move_an_occupied_boat():
    """X5.4 (X5.3 'empty boat'): a boat-face creature move given to an occupied boat."""
    def pred(log, ev):
        if ev["type"] == "creature" and ev["kind"] == "boat":
            full = [b for b, (h, ps) in enumerate(_before(log, ev["i"])["boats"]) if h >= 0 and ps]
            return full or None
    log, i, full = _find(DOLPHINS, pred)
    log["events"][i]["piece"] = full[0]
    _expect(log, i, "X5.4")


def test_X5_4_R19_D_jump_onto_an_occupied_hex():
    """X5.4, R19: after a D the piece jumps to an unoccupied sea hex; a jump onto a boat's hex
    breaks X5.4, one onto a hex holding only a dolphin (or squid) breaks R19."""
    def pred(log, ev):
        if ev["type"] == "creature" and ev["path"] and _roll_of(log, ev["i"])["number"] == "D":
            occ = _occupants(_before(log, ev["i"]))
            boat = [h for h, xs in occ.items() if any(x.startswith("boat") for x in xs)]
            dol = [h for h, xs in occ.items() if all(x.startswith(("dolphin", "squid")) for x in xs)]
            return (boat, dol) if boat and dol else None
    log, i, (boat, dol) = _find(BOTH, pred)
    bad = copy.deepcopy(log)
    bad["events"][i]["path"] = [boat[0]]
    _expect(bad, i, "X5.4")
    bad = copy.deepcopy(log)
    bad["events"][i]["path"] = [dol[0]]
    _expect(bad, i, "R19")


def test_R21_X5_4_D_piece_must_move():
    """R21 / X5.4: on a D the piece must move -- a creature event that stays is refused."""
    def pred(log, ev):
        return (ev["type"] == "creature" and ev["path"] and ev["kind"] != "dolphin"
                and _roll_of(log, ev["i"])["number"] == "D")
    log, i, _ = _find(DOLPHINS, pred)
    log["events"][i]["path"] = []
    _expect(log, i, "R21")


def test_X5_3_dice_faces_and_numbers():
    """X5.3: the number die shows 1, 2, 3 or D (a 4 is refused); X5.1: without Challenge 5 the
    creature die has no number."""
    log, i, _ = _find(DOLPHINS, lambda log, ev: ev["type"] == "roll")
    log["events"][i]["number"] = 4
    _expect(log, i, "X5.3")
    log, i, _ = _find(SQUID, lambda log, ev: ev["type"] == "roll")
    log["events"][i]["number"] = 2
    _expect(log, i, "X5.1")


def test_X5_5_one_dolphin_protects_one_swimmer():
    """X5.5: a protect map in which one dolphin protects a second swimmer is refused."""
    def pred(log, ev):
        prot = ev["after"].get("protect") or {}
        if not prot:
            return None
        free = [e for e, loc, _ in ev["after"]["explorers"] if loc == "sea" and str(e) not in prot]
        return (next(iter(prot.values())), free[0]) if free else None
    log, i, (d, e) = _find(DOLPHINS, pred)
    log["events"][i]["after"]["protect"][str(e)] = d
    found = _expect(log, i, *[f"X5.{k}" for k in range(1, 10)])
    assert "protection" in found.message


def test_X5_5_dolphin_arriving_protects_an_unprotected_swimmer():
    """X5.5: a dice-moved dolphin ending by unprotected swimmers protects one of them -- a
    creature event naming no swimmer (or a swimmer elsewhere) is refused."""
    def pred(log, ev):
        return ev["type"] == "creature" and ev["kind"] == "dolphin" and ev["path"] \
            and ev.get("protect") is not None
    log, i, _ = _find(DOLPHINS, pred)
    bad = copy.deepcopy(log)
    del bad["events"][i]["protect"]
    _expect(bad, i, "X5.5")


def test_X5_6_dolphin_leaving_its_swimmer_by_a_predator_gets_it_eaten():
    """X5.6: a dolphin moved away from its protected swimmer while a shark or serpent shares
    the hex: the swimmer is eaten at once -- a snapshot keeping it alive is refused."""
    def pred(log, ev):
        if ev["type"] != "creature" or ev["kind"] != "dolphin" or not ev["path"]:
            return None
        before = _before(log, ev["i"])
        e = next((int(k) for k, d in (before.get("protect") or {}).items() if d == ev["piece"]), None)
        if e is not None and str(e) in ev["after"]["fates"] and str(e) not in before["fates"]:
            at = next(x[2] for x in before["explorers"] if x[0] == e)
            return e, at
    log, i, (e, at) = _find(DOLPHINS, pred)
    after = log["events"][i]["after"]
    del after["fates"][str(e)]
    row = next(x for x in after["explorers"] if x[0] == e)
    row[1], row[2] = "sea", at
    _expect(log, i, "X5.6")


def test_X5_7_with_dolphin_needs_a_protected_swimmer():
    """X5.7: only a protected swimmer takes its dolphin along (step 2) -- a with_dolphin swim
    of an unprotected swimmer is refused."""
    def pred(log, ev):
        return (ev["type"] == "move" and ev.get("mode") == "swim" and not ev.get("with_dolphin")
                and str(ev["id"]) not in (_before(log, ev["i"]).get("protect") or {}))
    log, i, _ = _find(DOLPHINS, pred)
    log["events"][i]["with_dolphin"] = True
    _expect(log, i, "X5.7")


def test_X5_7_with_dolphin_keeps_the_dolphin_beside_its_swimmer():
    """X5.7: the dolphin goes along with its swimmer -- a snapshot leaving it behind is refused."""
    log, i, _ = _find(DOLPHINS, lambda log, ev: ev["type"] == "move" and ev.get("with_dolphin"))
    ev = log["events"][i]
    d = _before(log, i)["protect"][str(ev["id"])]
    ev["after"]["creatures"]["dolphin"][d] = _before(log, i)["creatures"]["dolphin"][d]
    _expect(log, i, "X5.7")


def test_X5_9_switch_needs_two_swimmers():
    """X5.9 / X5.7: a protection switch (a dolphin event with no path) needs two or more
    swimmers in the dolphin's hex."""
    def pred(log, ev):
        if ev["type"] == "creature" and ev["kind"] == "dolphin" and ev["path"]:
            before = _before(log, ev["i"])
            h = before["creatures"]["dolphin"][ev["piece"]]
            here = [e for e, loc, at in before["explorers"] if loc == "sea" and at == h]
            other = [e for e, loc, at in before["explorers"] if loc == "sea" and at != h]
            return other[0] if len(here) < 2 and other else None
    log, i, e = _find(DOLPHINS, pred)
    log["events"][i]["path"] = []
    log["events"][i]["protect"] = e
    _expect(log, i, "X5.9")


def test_X5_2_dolphin_tile_is_immediate_not_kept():
    """X5.2: under Challenge 5 a dolphin tile is revealed and removed -- a snapshot putting it
    into the revealer's hand is refused."""
    def pred(log, ev):
        return ev["type"] == "sink" and ev["back"] == "dolphin"
    log, i, _ = _find(DOLPHINS, pred)
    ev = log["events"][i]
    ev["after"]["hands"][ev["seat"]][5] += 1          # backs: ... volcano, dolphin, ...
    _expect(log, i, "X5.2")


def test_X5_2_new_dolphin_protects_a_swimmer_of_the_tile():
    """X5.2 / X5.5: the new dolphin protects a swimmer from the tile -- naming somebody else is
    refused."""
    def pred(log, ev):
        if ev["type"] == "sink" and ev["back"] == "dolphin" and ev.get("protect") is not None:
            far = [e for e, loc, at in ev["after"]["explorers"] if loc == "sea" and at != ev["hex"]]
            return far or None
    log, i, far = _find(DOLPHINS, pred)
    log["events"][i]["protect"] = far[0]
    _expect(log, i, "X5.5")


def _capsize_into_dolphins(log):
    """(event, passengers, newly protected passengers) of a capsize into free dolphins."""
    for ev in log["events"][1:]:
        before, after = _before(log, ev["i"]), ev["after"]
        for b, (h, ps) in enumerate(before["boats"]):
            if ps and after["boats"][b][0] < 0:
                new = [int(k) for k in set(after["protect"]) - set(before["protect"])
                       if int(k) in ps]
                if new:
                    return ev["i"], ps, new
    raise AssertionError("no capsize into a free dolphin in this game")


def test_X5_9_capsized_passengers_get_the_free_dolphins():
    """X5.9: a whale capsizing a boat into a hex with enough free dolphins: every passenger is
    protected (these capsizes are rare: the games are picked) -- a snapshot without it is
    refused."""
    log = copy.deepcopy(_log((("dolphins", True), ("players", 4)), 279))
    i, _, new = _capsize_into_dolphins(log)
    for e in new:
        del log["events"][i]["after"]["protect"][str(e)]
    _expect(log, i, "X5.9")


def test_X5_9_too_few_free_dolphins_the_mover_chooses():
    """X5.9: with fewer free dolphins than capsized passengers the mover chooses whom they
    protect; the choice (read from after.protect) must give each free dolphin to one passenger
    -- one given to nobody, or to a swimmer who was not aboard, is refused."""
    log = _log((("dolphins", True), ("players", 6)), 170)
    i, ps, new = _capsize_into_dolphins(log)
    assert len(ps) > len(new)
    bad = copy.deepcopy(log)
    for e in new:
        del bad["events"][i]["after"]["protect"][str(e)]
    _expect(bad, i, "X5.9")
    bad = copy.deepcopy(log)
    after = bad["events"][i]["after"]
    d = after["protect"].pop(str(new[0]))
    stranger = [e for e, loc, _ in after["explorers"]
                if loc == "sea" and e not in ps and str(e) not in after["protect"]]
    if stranger:
        after["protect"][str(stranger[0])] = d
    _expect(bad, i, "X5.9")


# ---------------------------------------------------------------------------------------------
# X7: the Giant Squid
# ---------------------------------------------------------------------------------------------

def test_X7_1_squid_goes_next_to_land():
    """X7.1: a whale tile's squid goes on an unoccupied sea hex adjacent to a land tile."""
    def pred(log, ev):
        if ev["type"] == "squid" and ev["placed"]:
            before = _before(log, ev["i"])
            land, occ = set(before["land"]), _occupants(before)
            far = [h for h in _sea_hexes(before)
                   if h not in occ and not any(n in land for n in referee.BOARD.neighbours[h])]
            return far or None
    log, i, far = _find(SQUID, pred)
    log["events"][i]["hex"] = far[0]
    log["events"][i]["victim"] = None
    _expect(log, i, "X7.1")


def test_X7_1_X7_8_whale_tile_without_a_whale_brings_no_squid():
    """X7.1 / X7.8: a squid comes only with a whale tile -- a squid event after another tile,
    or two after one tile, is refused."""
    def pred(log, ev):
        return ev["type"] == "sink" and ev["back"] != "whale" and \
            log["events"][ev["i"] + 1]["type"] == "roll"
    log, i, _ = _find(SQUID, pred)
    placed = next(ev for ev in log["events"] if ev["type"] == "squid" and ev["placed"])
    extra = copy.deepcopy(placed)
    extra.update(i=i + 1, seat=log["events"][i]["seat"], turn=log["events"][i]["turn"],
                 after=copy.deepcopy(log["events"][i]["after"]))
    log["events"].insert(i + 1, extra)
    for k, ev in enumerate(log["events"]):
        ev["i"] = k
    _expect(log, i + 1, "X7.1")


def test_X7_4_squid_takes_exactly_one_explorer():
    """X7.4: after a squid move exactly one explorer is removed when one can be -- an attack
    taking none, or a snapshot losing a second one, is refused."""
    def pred(log, ev):
        if ev["type"] == "squid" and not ev["placed"] and ev["victim"] is not None:
            others = [e for e, loc, _ in ev["after"]["explorers"] if loc == "land"]
            return others or None
    log, i, others = _find(SQUID, pred)
    bad = copy.deepcopy(log)
    bad["events"][i]["victim"] = None
    _expect(bad, i, "X7.4")
    bad = copy.deepcopy(log)
    after = bad["events"][i]["after"]
    row = next(x for x in after["explorers"] if x[0] == others[0])
    row[1], row[2] = "lost", -1
    after["fates"][str(others[0])] = "squid"
    _expect(bad, i, "X7.4")


def test_X7_4_squid_removes_a_whale_in_its_hex():
    """X7.4: a squid's move removes every whale in its hex first -- a squid event that spares
    one is refused."""
    log, i, _ = _find(SQUID, lambda log, ev: ev["type"] == "squid" and ev["whales"])
    log["events"][i]["whales"] = []
    _expect(log, i, "X7.4")


def test_X7_3_squid_stops_next_to_explorers():
    """X7.3: a moving squid stops on entering a hex next to a land tile holding explorers (or
    with an occupied boat or a whale) -- a path going on from such a hex is refused."""
    def pred(log, ev):
        if ev["type"] != "creature" or ev["kind"] != "squid" or not ev["path"]:
            return None
        roll = _roll_of(log, ev["i"])
        reach = roll.get("number", 3)
        if reach == "D" or len(ev["path"]) >= reach:
            return None
        before = _before(log, ev["i"])
        land = set(before["land"])
        explorers_on = {at for _, loc, at in before["explorers"] if loc == "land"}
        end = ev["path"][-1]
        if not any(n in explorers_on for n in referee.BOARD.neighbours[end]):
            return None
        start = before["creatures"]["squid"][ev["piece"]]
        nxt = [n for n in referee.BOARD.neighbours[end]
               if n not in land and n not in ev["path"] and n != start]
        return nxt or None
    log, i, nxt = _find(BOTH, pred)
    log["events"][i]["path"].append(nxt[0])
    _expect(log, i, "X7.3")


def test_X7_5_whale_entering_a_squid_hex_removes_the_squid():
    """X7.5: a whale that enters a squid's hex ends its move there and the squid is removed --
    a snapshot keeping the squid is refused."""
    def pred(log, ev):
        if ev["type"] == "creature" and ev["kind"] == "whale" and ev["path"]:
            sq = _before(log, ev["i"])["creatures"]["squid"]
            k = [n for n, h in enumerate(sq) if h == ev["path"][-1]]
            return (k[0], ev["path"][-1]) if k else None
    for s in (SQUID, BOTH):
        try:
            log, i, (k, h) = _find(s, pred)
            break
        except AssertionError:
            continue
    else:
        raise AssertionError("no whale entered a squid's hex")
    log["events"][i]["after"]["creatures"]["squid"][k] = h
    _expect(log, i, "X7.5")


def test_X7_2_move_whale_tile_may_move_a_squid_followed_by_its_attack():
    """X7.2 / X7.4: the move-whale tile may move a squid; its squid event must follow -- a log
    that drops it is refused at the next event."""
    def pred(log, ev):
        return ev["type"] == "play_tile" and ev.get("kind") == "squid"
    log, i, _ = _find(SQUID, pred)
    assert log["events"][i + 1]["type"] == "squid"
    del log["events"][i + 1]
    for k, ev in enumerate(log["events"]):
        ev["i"] = k
    _expect(log, i + 1, "X7.4")


def test_X7_6_squid_only_whale_tile_places_no_whale():
    """X7.6: under squid-only no whales are used: a whale tile places a squid, never a whale --
    a snapshot with a whale on the board is refused."""
    log, i, _ = _find(SQUID_ONLY, lambda log, ev: ev["type"] == "sink" and ev["back"] == "whale")
    ev = log["events"][i]
    assert all(h == -2 for h in ev["after"]["creatures"]["whale"])
    ev["after"]["creatures"]["whale"][0] = ev["hex"]
    _expect(log, i, "X7.6")


def test_X7_6_squid_only_removes_the_whales_at_setup():
    """X7.6: the layout of a squid-only game has every whale removed from the game."""
    log, i, _ = _find(SQUID_ONLY, lambda log, ev: ev["type"] == "layout")
    log["events"][i]["after"]["creatures"]["whale"] = [-1] * 5
    _expect(log, i, "X7.6")


# ---------------------------------------------------------------------------------------------
# R20: the last tile under Challenge 4
# ---------------------------------------------------------------------------------------------

RED = ("dolphin", "wind", "move_serpent", "move_shark", "move_whale", "defend_shark",
       "defend_whale")
BACKS = ("whale", "shark", "boat", "whirlpool", "volcano", "dolphin", "wind",
         "move_serpent", "move_shark", "move_whale", "defend_shark", "defend_whale")


def test_R20_last_tile_back_is_not_resolved():
    """R20: under Atlantis is Gone the game ends when the last tile is removed, before its back
    is resolved -- a snapshot putting a red back into the hand is refused (the back still counts
    in the record)."""
    def pred(log, ev):
        return ev["type"] == "sink" and not ev["after"]["land"] and ev["back"] in RED
    log, i, _ = _find(ATLANTIS_GONE, pred)
    ev = log["events"][i]
    assert log["record"][f"back_{ev['back']}"] >= 1
    ev["after"]["hands"][ev["seat"]][BACKS.index(ev["back"])] += 1
    _expect(log, i, "R20")


def test_R20_last_tile_explorers_stay_stranded():
    """R20: explorers on the last tile become swimmers and stay (stranded), whatever the back --
    a snapshot where a green back acted on them (a shark eating them) is refused."""
    def pred(log, ev):
        if ev["type"] == "sink" and not ev["after"]["land"]:
            on = [e for e, loc, at in ev["after"]["explorers"] if loc == "sea" and at == ev["hex"]]
            return on or None
    log, i, on = _find(dict(players=5, challenges=(4,)), pred)
    after = log["events"][i]["after"]
    row = next(x for x in after["explorers"] if x[0] == on[0])
    row[1], row[2] = "lost", -1
    after["fates"][str(on[0])] = "shark"
    _expect(log, i, "R20")
