"""The rules of the game as compiled functions over the flat state array ``S``, one module per
rule family (RULES.md ids in each module's docstring). All are ``@hot`` (compiled, cached, no
reference counting) and allocation-free; three kinds of function:

* *queries*  -- who controls a boat, which hexes a piece may reach (R12), which tiles may sink;
* *options*  -- fill the option table ``opts`` with every legal choice of a decision kind and
  return how many there are (the engine asks a strategy to pick one row);
* *effects*  -- apply one step and resolve its consequences (the at-rest rule B6.7 / R15).

Modules, each importing only the ones above it:

* ``layout``            -- the work array ``W``'s cells; one option row (``add_row``);
* ``movement``          -- the only functions that move pieces (B3 supply, R5);
* ``queries``           -- one hex or one boat: control (B6.1), free sea (R19), neighbours;
* ``dolphins``          -- protection (X5.5-X5.9);
* ``squid``             -- placing the Giant Squid and its victims (X7.1, X7.4);
* ``at_rest``           -- the at-rest rule (B6.7, R15) and the whirlpool (B3.4);
* ``paths``             -- reach (R12) and the path found;
* ``hand``              -- a seat's red tiles (B5.6, R11);
* ``options_setup``     -- placing explorers and boats (B4.3, B4.4, X1.3, X2.1, X6.2);
* ``options_moves``     -- movement points (B5.2, B6.1-B6.6, X5.7, X6.3);
* ``options_tiles``     -- sinking a tile (B5.5) and playing one (B5.1, B3.6-B3.10);
* ``options_creatures`` -- the die move (B5.4, B6.8-B6.11, X5.3, X7.2) and defence (B6.12);
* ``effects``           -- a movement point carried out (B6.2-B6.7), a tile sunk (B5.6).

Occupancy arrays (``HEX_*``) are updated incrementally by the few functions that move pieces
(``movement``), so the frequent questions (a boat here? swimmers? a creature of this kind?) are
single lookups rather than scans.

This package re-exports every public name of its modules (``from simulator.rules import reach``);
the modules import each other directly, never through here, so there is no cycle.
"""
from .at_rest import resolve_hex, whirlpool
from .dolphins import arrive, free_dolphin, protect, protect_candidates, protect_capsized, release
from .effects import apply_move, sink, swimmers_in
from .hand import add_to_hand, hand_count, take_from_hand
from .layout import (
    W_DIST,
    W_ENGINE,
    W_JOURNAL,
    W_LOOK,
    W_MARK,
    W_PARENT,
    W_PATH,
    W_QUEUE,
    W_SEARCH,
    W_SIZE,
    W_SUNK,
    W_SUNK_N,
    W_SWIM,
    add_row,
)
from .movement import kill, place_explorer, put_boat, put_creature, supply_boat, supply_slot
from .options_creatures import (
    attack_pending,
    creature_can_move,
    creature_moves,
    defence_back,
    die_reach,
    face_kinds,
    may_defend,
    mover_type,
    options_creature,
    options_creature_pieces,
    piece_hex,
    seat_swimmer_in,
    via_path,
)
from .options_moves import (
    boat_can_move,
    boat_moves,
    explorer_moves,
    move_rows,
    options_bonus_pieces,
    options_move,
    options_move_pieces,
    piece_moves,
    swimmer_can_move,
)
from .options_setup import (
    options_pick_explorer,
    options_place_boat,
    options_place_explorer,
    options_place_stacked,
    options_placement,
    some_tile_empty,
    unplaced,
)
from .options_tiles import (
    move_tile_rows,
    options_play_tile,
    options_sink,
    options_tile_dest,
    options_tile_pieces,
    options_tile_reach,
    tile_reach_rows,
    tile_rows,
)
from .paths import (
    MT_BOAT,
    MT_DOLPHIN,
    MT_EMPTY_BOAT,
    MT_SERPENT,
    MT_SHARK,
    MT_SQUID,
    MT_SWIMMER,
    MT_WHALE,
    path_to,
    reach,
    reset_work,
)
from .queries import (
    boat_occupied,
    controls,
    first_at,
    land_explorers_next_to,
    land_next_to,
    remove_all_at,
    same_player,
    sea_next_to,
    unoccupied_sea,
    unprotected_swimmers,
)
from .squid import options_place_squid, squid_victims

__all__ = [
    "add_row", "add_to_hand", "apply_move", "arrive", "attack_pending", "boat_can_move",
    "boat_moves", "boat_occupied", "controls", "creature_can_move", "creature_moves",
    "defence_back", "die_reach", "explorer_moves", "face_kinds", "first_at", "free_dolphin",
    "hand_count", "kill", "land_explorers_next_to", "land_next_to", "may_defend", "move_rows",
    "move_tile_rows", "mover_type", "MT_BOAT", "MT_DOLPHIN", "MT_EMPTY_BOAT", "MT_SERPENT",
    "MT_SHARK", "MT_SQUID", "MT_SWIMMER", "MT_WHALE", "options_bonus_pieces", "options_creature",
    "options_creature_pieces", "options_move", "options_move_pieces", "options_pick_explorer",
    "options_place_boat", "options_place_explorer", "options_place_squid", "options_place_stacked",
    "options_placement", "options_play_tile", "options_sink", "options_tile_dest",
    "options_tile_pieces", "options_tile_reach", "path_to", "piece_hex", "piece_moves",
    "place_explorer", "protect", "protect_candidates", "protect_capsized", "put_boat",
    "put_creature", "reach", "release", "remove_all_at", "reset_work", "resolve_hex",
    "same_player", "sea_next_to", "seat_swimmer_in", "sink", "some_tile_empty", "squid_victims",
    "supply_boat", "supply_slot", "swimmer_can_move", "swimmers_in", "take_from_hand",
    "tile_reach_rows", "tile_rows", "unoccupied_sea", "unplaced", "unprotected_swimmers",
    "via_path", "W_DIST", "W_ENGINE", "W_JOURNAL", "W_LOOK", "W_MARK", "W_PARENT", "W_PATH", "W_QUEUE",
    "W_SEARCH", "W_SIZE", "W_SUNK", "W_SUNK_N", "W_SWIM", "whirlpool",
]
