"""What the compiled game and Python share: the cells of the settings vector (``ST_*``), the
event log's rows and names (``EV_*``), the context cells and error codes (``C_*``, ``ERR_*``)
and the columns of the per-game record (``REC_*``). ``play.simulate`` builds the vector and
names the record, ``play.record`` reads the log."""
from simulator.state import MAX_SEATS, N_BACKS

# ---- settings vector handed to the compiled core (one int64 array: one signature) ---------
(ST_PLAYERS, ST_SEATS, ST_LAGOON_SEA, ST_MUST_MOVE, ST_MAX_TURNS) = range(5)
ST_BOATS = 5                      # 6 cells: boats per seat
ST_SIDS = ST_BOATS + MAX_SEATS    # 6 cells: strategy id per seat
ST_CHALLENGES = ST_SIDS + MAX_SEATS   # CH_* bits
ST_SQUID = ST_CHALLENGES + 1      # X7: 0 off, 1 the Giant Squid, 2 squid instead of whales
ST_JOURNAL = ST_SQUID + 1         # 1: keep the journal a search seat re-enters by (play.journal)
ST_CHAIN = ST_JOURNAL + 1         # 1: the X1.6 tie-break chain decides ties, 0: shared (B7.3)
ST_ORDER = ST_CHAIN + 1          # 2 cells, C2.1: the explorers' and the boats' ORDER_* codes
ST_KOMI = ST_ORDER + 2           # 6 cells, C1: each seat's score bonus in half points
ST_SIZE = ST_KOMI + MAX_SEATS

# ---- event log ---------------------------------------------------------------------------
(EV_LAYOUT, EV_PLACE_EXPLORER, EV_PLACE_BOAT, EV_TURN, EV_PLAY_TILE, EV_MOVE, EV_SINK,
 EV_ROLL, EV_CREATURE, EV_END, EV_BONUS, EV_SQUID) = range(12)
EV_NAMES = ("layout", "place_explorer", "place_boat", "turn_start", "play_tile", "move", "sink",
            "roll", "creature", "end", "bonus", "squid")
EV_W = 10                         # type, seat, turn, then up to 7 fields
# ctx cells (int64): events written, error code, logging on, and who gave a bad answer
C_NEV, C_ERR, C_LOG, C_BAD_KIND, C_BAD_SEAT = 0, 1, 2, 3, 4
CTX_W = 5
ERR_BAD_CHOICE, ERR_LOG_FULL, ERR_NO_OPTION, ERR_PLUGIN_CHOICE, ERR_PLUGIN_OPTS = 1, 2, 3, 4, 5

# ---- per-game record ------------------------------------------------------------------------
REC_GAME = ("players", "seats", "end_reason", "end_seat", "turns", "tiles_removed",
            "bonus_moves", "dolphins_placed", "squid_placed")
REC_SEAT = ("score", "rescued", "rescued_value", "lost", "turns", "lost_serpent", "lost_shark",
            "lost_whale", "lost_whirlpool", "lost_squid", "lost_stranded")
R_BACKS = len(REC_GAME)
R_SEAT0 = R_BACKS + N_BACKS
REC_W = R_SEAT0 + MAX_SEATS * len(REC_SEAT)
