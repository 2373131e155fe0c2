"""The referee's position with every rule family: the class ``check()`` walks a log with.

Each event type is handled by one ``_ev_<type>`` method of the mixin of its rule family; this
module only puts the mixins together and names the handler of each event type.
"""
from __future__ import annotations

from .creatures import Creatures
from .dolphins import Dolphins
from .movement import Movement
from .records import Records
from .setup import Setup
from .snapshot import Snapshot
from .squid import Squid
from .state import PositionState
from .tiles import Tiles
from .turns import Turns


class Position(Turns, Setup, Tiles, Movement, Creatures, Dolphins, Squid, Snapshot, Records,
               PositionState):
    """The referee's own game position (:class:`PositionState`) with every rule applied:
    ``apply(event, i)`` checks and applies one event, ``compare(after, rule)`` checks the
    event's snapshot, ``finish()`` and ``expected_record()`` the end of the log."""

    # event type -> the method that checks and applies it (Turns.apply looks it up)
    _HANDLERS = {
        "layout": Setup._ev_layout, "place_explorer": Setup._ev_place_explorer,
        "place_boat": Setup._ev_place_boat, "turn_start": Turns._ev_turn_start,
        "play_tile": Tiles._ev_play_tile, "move": Movement._ev_move,
        "bonus": Movement._ev_bonus, "sink": Tiles._ev_sink, "roll": Creatures._ev_roll,
        "creature": Creatures._ev_creature, "end": Turns._ev_end, "squid": Squid._ev_squid,
    }
