"""The board (RULES.md B2) in plain Python, for everything that reads a replay log.

The referee must not share the engine's geometry (a mistake there would then hide in both), and
nothing in ``replays`` may import the engine: ``simulator/board.py`` builds numpy tables for
numba. So this module reads the same data file as the engine, ``board.json``, and builds its own
neighbours from the file's coordinate note. The data files ``replays`` reads (this one, and the
rules text ``replays.viewer.rules`` reads) are its own package data, ``replays/data/``, found with
``importlib.resources`` through ``replays`` itself (``replays_data``): never through the name
``simulator``, which another installed package could also bear, and never by importing
``simulator`` (that sets up numba's cache). In the repository ``replays/data/board.json`` and
``RULES.md`` are symbolic links to ``simulator/data/``, so there is one copy of each; a wheel
holds them as files. Location codes are the log's: ``0..132`` hexes in the file's order,
``133..136`` the safe isles NW, NE, SW, SE.
"""
from __future__ import annotations

import json
from importlib import resources
from pathlib import Path


def replays_data(name: str) -> Path:
    """The data file ``replays/data/NAME`` (package data of ``replays``, imported already:
    nothing else is looked up or imported); a ``Path``, as the package is installed as files."""
    return resources.files("replays") / "data" / name


BOARD_JSON = replays_data("board.json")


def load_board_json(path=BOARD_JSON) -> dict:
    """The board data file as a dict."""
    with open(path, encoding="utf-8") as f:
        return json.load(f)


class Board:
    """B2: hexes (offset even-r), neighbours, island, lagoon, serpent starts, safe isles."""

    ISLE_NAMES = ("NW", "NE", "SW", "SE")

    def __init__(self, data: dict):
        self.rc = [tuple(rc) for rc in data["hexes"]]
        self.n_hex = len(self.rc)
        index = {rc: i for i, rc in enumerate(self.rc)}
        self.index = index

        def around(r: int, c: int):
            # board.json "coordinates": even rows are shifted half a hex right
            if r % 2 == 0:
                cand = ((r, c - 1), (r, c + 1), (r - 1, c), (r - 1, c + 1), (r + 1, c), (r + 1, c + 1))
            else:
                cand = ((r, c - 1), (r, c + 1), (r - 1, c - 1), (r - 1, c), (r + 1, c - 1), (r + 1, c))
            return tuple(index[x] for x in cand if x in index)

        self.neighbours = [around(r, c) for r, c in self.rc]
        self.adjacent = [frozenset(n) for n in self.neighbours]
        self.island = frozenset(index[tuple(rc)] for rc in data["island"])
        self.lagoon = index[tuple(data["lagoon"])]
        self.serpent_starts = [index[tuple(rc)] for rc in data["serpent_starts"]]
        self.isle0 = self.n_hex                 # location codes 133..136 are the safe isles
        self.isle_access: dict[int, tuple[int, ...]] = {}
        self.access: dict[int, int] = {}        # access hex -> isle code (B2.2)
        for k, name in enumerate(self.ISLE_NAMES):
            code = self.isle0 + k
            hexes = tuple(index[tuple(rc)] for rc in data["safe_isles"][name])
            self.isle_access[code] = hexes
            for h in hexes:
                self.access[h] = code
        assert self.n_hex == data["counts"]["hexes"] and len(self.island) == data["counts"]["island"]
        for h in range(self.n_hex):             # the neighbour rule must be symmetric
            assert all(h in self.adjacent[n] for n in self.neighbours[h])

    def is_hex(self, loc) -> bool:
        return type(loc) is int and 0 <= loc < self.n_hex

    def is_isle(self, loc) -> bool:
        return type(loc) is int and self.isle0 <= loc < self.isle0 + len(self.ISLE_NAMES)

    def name(self, loc) -> str:
        """Readable name of a location code: ``(r,c)`` for a hex, ``isle NW`` for an isle."""
        if self.is_hex(loc):
            r, c = self.rc[loc]
            return f"({r},{c})"
        if self.is_isle(loc):
            return f"isle {self.ISLE_NAMES[loc - self.isle0]}"
        return repr(loc)


BOARD = Board(load_board_json())
