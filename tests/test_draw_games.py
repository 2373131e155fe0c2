"""Every event of logged games of 2 to 6 players, with every expansion (Challenges 1-6,
dolphins, squid, squid only), draws without error as SVG and as a raster, and every piece on
the board has its group in the picture."""
from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

from replays.draw import raster, scene, svg
from play.record import game_log
from play.settings import Settings

GAMES = {
    "2p-c1": (Settings(players=2, strategies=("greedy", "random"), challenges=(1,)), 3, 1),
    "3p-c3-c4-squid": (Settings(players=3, strategies=("greedy",), challenges=(3, 4),
                                squid=True), 5, 2),
    "4p-c2-dolphins-squid": (Settings(players=4, strategies=("greedy",), challenges=(2, 5),
                                      squid=True), 1, 4),
    "5p-c6-squid-only": (Settings(players=5, strategies=("greedy",), challenges=(6,),
                                  squid=True, squid_only=True), 2, 0),
    "6p-c1-c2-c5-c6-squid": (Settings(players=6, strategies=("greedy",),
                                      challenges=(1, 2, 5, 6), squid=True), 1, 7),
    "4p-turn-cap": (Settings(players=4, strategies=("random",), max_turns=12), 1, 0),
}


@pytest.fixture(scope="module", params=sorted(GAMES))
def log(request):
    settings, seed, game = GAMES[request.param]
    return game_log(settings, seed, game)


def _expected_groups(after: dict) -> set[str]:
    want = {f"tile-{h}" for h in after["land"]}
    want |= {f"ex-{e}" for e, loc, _ in after["explorers"] if loc in ("land", "sea", "boat")}
    want |= {f"boat-{b}" for b, (h, _) in enumerate(after["boats"]) if h >= 0}
    want |= {f"{kind}-{k}" for kind, hexes in after["creatures"].items()
             for k, h in enumerate(hexes) if h >= 0}
    return want


def test_every_event_draws(log):
    kinds = set()
    for i, ev in enumerate(log["events"]):
        sc = scene(log, i)
        pieces = svg.layers(sc)["pieces"]
        missing = _expected_groups(ev["after"]) - set(pieces)
        assert not missing, (i, ev["type"], missing)
        doc = svg.document(sc)
        if i % 25 == 0 or i == len(log["events"]) - 1:
            ET.fromstring(doc.split("\n", 1)[1])
        raster.image(sc, 0.2)
        kinds.add(ev["type"])
    assert {"layout", "place_explorer", "place_boat", "turn_start", "sink", "end"} <= kinds
