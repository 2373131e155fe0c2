"""A small test harness: hand-build a position on the real state array, run one real action.

Every action calls the compiled engine or rules function itself (``steps.step_sink``,
``rules.apply_move`` ...); every position is built with the rules' own put/place functions, so
the occupancy tables (``HEX_*``) stay consistent. Hexes are written as ``(row, col)`` tuples of
``board.json`` (offset even-r coordinates), safe isles by name (``"NW"``, ``"NE"``, ``"SW"``,
``"SE"``).

    t = Table.empty(players=4)
    t.land(4, 5, "beach", "shark")
    e = t.explorer(0, 9, "land", (4, 5))          # seat 0's "6"
    t.sink(1, (4, 5))                              # seat 1 sinks it: a shark eats the swimmer
    assert t.fate(e) == "shark"

Decisions the engine asks for during an action (which swimmers board, whether to defend ...)
are played by the scripted strategy (``strategies/scripted.py``): every seat of a ``Table`` is
scripted unless told otherwise, and ``script(seat, rows)`` loads its next decisions. An
exhausted script takes the first option (play nothing, stop moving, hold the defence tile).

Integer arguments are passed with the numpy types the engine itself uses (``np.int32`` for
seats, hexes, pieces), so that the on-disk numba cache of the engine's own compilations is
reused instead of compiling new specialisations.
"""
from __future__ import annotations

import numpy as np

from simulator import board as BD
from play import engine as E
from play import layout as LY
from play import setup as SU
from play import steps as TS
from simulator import rules as R
from simulator import state as ST
from simulator.rng import seed_streams
from play.settings import Settings
from play.simulate import records_frame, settings_vector
from strategies.registry import builtins
from strategies.dispatch import MEM_W, seat_functions, strategy_code
from strategies.scripted import K_KIND, WILD

i32 = np.int32
i64 = np.int64

# ---- names -------------------------------------------------------------------------------
KINDS = {name: k for k, name in enumerate(ST.FACE_NAMES)}   # serpent ... squid, boat, starfish
BACKS = {name: b for b, name in enumerate(ST.BACK_NAMES)}          # whale, shark, boat, ...
TERRAINS = {name: t for t, name in enumerate(BD.TERRAIN_NAMES)}    # beach, forest, mountain
ISLES = {name: BD.ISLE0 + k for k, name in enumerate(BD.ISLE_NAMES)}
LOCS = {"land": ST.L_LAND, "sea": ST.L_SEA, "boat": ST.L_BOAT, "safe": ST.L_SAFE}
DECISIONS = {name: d for d, name in enumerate(ST.DECISION_NAMES)}
SAFE_ISLE_OF = {name: [tuple(rc) for rc in BD.BOARD_JSON["safe_isles"][name]]
                for name in BD.ISLE_NAMES}


def _kind(k) -> int:
    return KINDS[k] if isinstance(k, str) else int(k)


def _back(b) -> int:
    return BACKS[b] if isinstance(b, str) else int(b)


def _terrain(t) -> int:
    return TERRAINS[t] if isinstance(t, str) else int(t)


def H(r: int, c: int | None = None) -> int:
    """Location code of a hex ``(r, c)`` (also accepts a tuple, an isle name or a code)."""
    if c is not None:
        return BD.hex_index(r, c)
    return loc(r)


def loc(x) -> int:
    """Location code of ``(r, c)``, an isle name ("NW"...), or a code (returned as is)."""
    if isinstance(x, str):
        return ISLES[x]
    if isinstance(x, tuple):
        return BD.hex_index(*x)
    return int(x)


def rc(code: int):
    """``(r, c)`` of a hex code, the isle name of an isle code."""
    code = int(code)
    if code >= BD.ISLE0:
        return BD.ISLE_NAMES[code - BD.ISLE0]
    r, c = BD.HEX_RC[code]
    return (int(r), int(c))


def nbrs(r: int, c: int) -> list[tuple[int, int]]:
    """The hexes adjacent to ``(r, c)``."""
    h = BD.hex_index(r, c)
    return [rc(BD.NEIGHBOURS[h, i]) for i in range(BD.N_NEIGHBOURS[h])]


# ---- option rows, written readably --------------------------------------------------------
STOP = (ST.MV_STOP, -1, -1, -1)


def mv(e: int, dest, boat: int = -1) -> tuple:
    """D_MOVE row for explorer ``e`` to ``dest`` (a hex, an isle name); ``boat`` >= 0 = into
    that boat (``dest`` is then the boat's hex)."""
    return (ST.MV_EXPLORER, int(e), loc(dest), int(boat))


def sail(b: int, dest) -> tuple:
    """D_MOVE row moving boat ``b`` one hex to ``dest``."""
    return (ST.MV_BOAT, int(b), loc(dest), -1)


def tile(back, piece: int, dest, kind=None) -> tuple:
    """D_PLAY_TILE row: play ``back`` on ``piece`` (explorer, boat or creature slot) to
    ``dest``. Move tiles carry the creature's kind in the last column (default: the tile's
    own kind; ``kind='squid'`` moves a squid with the move-whale tile, X7.2)."""
    b = _back(back)
    if kind is None:
        kind = b - ST.B_MOVE_SERPENT if b >= ST.B_MOVE_SERPENT else 0
    return (b, int(piece), loc(dest), _kind(kind))


NO_TILE = (-1, -1, -1, 0)


# ---- splitmix64, to read and set the creature die (simulator/rng.py) ----------------------
_MASK = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15


def _mix64(z: int) -> int:
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return z ^ (z >> 31)


def _draw6(state: int, k: int) -> int:
    """The ``k``-th (1-based) ``randint(6)`` from a stream in ``state``."""
    u = _mix64((int(state) + k * _GOLDEN) & _MASK)
    return ((u >> 11) * 6) >> 53


def die_face(state: int) -> int:
    """The creature kind the next roll from a dice stream in ``state`` gives (B1.6)."""
    u = _mix64((int(state) + _GOLDEN) & _MASK)
    return (((u >> 11) * 6) >> 53) // 2


class EngineError(AssertionError):
    pass


class Table:
    """One game state ``S`` plus the buffers the compiled engine needs."""

    def __init__(self, players: int = 4, *, lagoon_is_sea: bool = True,
                 creatures_must_move: bool = False, max_turns: int = 400, seed: int = 1,
                 game: int = 0, strategy: str = "scripted", boats: tuple[int, ...] = (),
                 tiebreak: str = "", challenges: tuple[int, ...] = (), dolphins: bool = False,
                 squid: bool = False, squid_only: bool = False, komi: tuple = (),
                 setup_order: tuple[str, str] = ("forward", "forward")):
        self.settings = Settings(players=players, lagoon_is_sea=lagoon_is_sea,
                                 creatures_must_move=creatures_must_move, max_turns=max_turns,
                                 boats=boats, tiebreak=tiebreak, challenges=challenges,
                                 dolphins=dolphins, squid=squid, squid_only=squid_only,
                                 komi=komi, setup_order=setup_order)
        self.seats = self.settings.seats
        self.st = settings_vector(self.settings)
        self.st[LY.ST_SIDS:LY.ST_SIDS + self.seats] = strategy_code(strategy)
        self.S = np.zeros(ST.STATE_SIZE, np.int32)
        self.W = np.zeros(R.W_SIZE, np.int32)
        self.path = self.W[R.W_PATH:R.W_PATH + 3]
        self.opts = np.zeros((ST.MAX_OPTS, ST.OPT_W), np.int32)
        self.rng = np.zeros(ST.N_STREAMS, np.uint64)
        self.ctx = np.zeros(LY.CTX_W, np.int64)
        self.mem = np.zeros((ST.MAX_SEATS, MEM_W), np.float64)
        self.fns = seat_functions([strategy] * self.seats)
        self.ev = np.zeros((1, LY.EV_W), np.int32)
        self.snaps = np.zeros((1, 1), np.int32)
        self.seed, self.game = seed, game
        seed_streams(self.rng, i64(seed), i64(game))
        SU.new_game(self.S, self.st, self.rng)

    # ================================================================ building a position
    @classmethod
    def empty(cls, players: int = 4, **kw) -> "Table":
        """The state after ``setup.new_game`` (random tile layout of ``seed``) with every
        piece removed: serpents out of the game, explorers out of play, boats in the supply,
        sharks and whales in the supply."""
        t = cls(players, **kw)
        S = t.S
        for k in range(ST.KIND_COUNT[ST.SERPENT]):
            R.put_creature(S, ST.SERPENT, i32(k), i32(ST.CR_GONE))
        for e in range(ST.MAX_EX):
            if S[ST.EX_LOC + e] == ST.L_UNPLACED:
                S[ST.EX_LOC + e] = ST.L_OFF
        return t

    def log_on(self, events: int = 600) -> "Table":
        """Write the engine's event log (``self.events()``) for the following actions."""
        self.ev = np.zeros((events, LY.EV_W), np.int32)
        self.snaps = np.zeros((events, ST.STATE_SIZE), np.int32)
        self.ctx[LY.C_LOG] = 1
        self.ctx[LY.C_NEV] = 0
        return self

    def events(self) -> list[dict]:
        """The event rows written so far, as dicts (type name, seat, turn, fields a..g)."""
        out = []
        for row in self.ev[:self.ctx[LY.C_NEV]]:
            out.append({"type": LY.EV_NAMES[row[0]], "seat": int(row[1]), "turn": int(row[2]),
                        "f": [int(x) for x in row[3:]]})
        return out

    def _recount(self):
        S = self.S
        terr = S[ST.HEX_TERRAIN:ST.HEX_TERRAIN + BD.N_HEX]
        S[ST.TILES_LEFT] = int((terr >= 0).sum())
        for t in range(ST.N_TERRAIN):
            S[ST.TERRAIN_LEFT + t] = int((terr == t).sum())

    def land(self, r: int, c: int, terrain="beach", back="wind") -> int:
        """Put (or re-face) a land tile on island hex ``(r, c)``."""
        h = BD.hex_index(r, c)
        assert BD.ISLAND[h], f"({r},{c}) is not an island hex"
        assert self.S[ST.HEX_BOAT + h] < 0 and self.S[ST.HEX_NSWIM + h] == 0
        self.S[ST.HEX_TERRAIN + h] = _terrain(terrain)
        self.S[ST.TILE_BACK + h] = _back(back)
        self._recount()
        return h

    def sea(self, r: int, c: int) -> int:
        """Take the land tile off ``(r, c)`` (an empty tile: it becomes sea, B2.3)."""
        h = BD.hex_index(r, c)
        assert self.S[ST.HEX_NLAND + h] == 0, "explorers on the tile"
        self.S[ST.HEX_TERRAIN + h] = -1
        self.S[ST.TILE_BACK + h] = -1
        self._recount()
        return h

    def clear_island(self):
        """No land tiles at all (an all-sea board)."""
        for h in BD.ISLAND_HEXES:
            self.sea(*rc(h))

    def fill_island(self, terrain="forest", back="wind"):
        """Every island hex a land tile of ``terrain`` / ``back``."""
        for h in BD.ISLAND_HEXES:
            self.land(*rc(h), terrain, back)

    def explorer(self, seat: int, slot: int, where: str, at) -> int:
        """Put explorer ``seat*10+slot`` on ``'land'`` / ``'sea'`` ``(r, c)``, in ``'boat'`` b,
        or on ``'safe'`` isle ``'NW'``...; returns its id."""
        e = seat * ST.SLOTS + slot
        assert seat < self.seats
        code = int(at) if where == "boat" else loc(at)
        if where == "land":
            assert self.S[ST.HEX_TERRAIN + code] >= 0, f"{at} is not land"
        elif where == "sea":
            assert self.S[ST.HEX_TERRAIN + code] < 0, f"{at} is not sea"
        elif where == "boat":
            assert self.S[ST.BOAT_HEX + code] >= 0, f"boat {code} is not on the board"
            assert self.S[ST.BOAT_N + code] < 3, f"boat {code} is full"
        elif where == "safe":
            assert code >= BD.ISLE0
        R.place_explorer(self.S, e, LOCS[where], code)
        return e

    def remove_explorer(self, e: int):
        """Take an explorer out of play (location 'off')."""
        R.place_explorer(self.S, e, ST.L_OFF, -1)

    def boat(self, b: int, r: int, c: int) -> int:
        """Put boat ``b`` (empty) on sea hex ``(r, c)``."""
        h = BD.hex_index(r, c)
        assert self.S[ST.HEX_TERRAIN + h] < 0 and self.S[ST.HEX_BOAT + h] < 0
        assert self.S[ST.BOAT_N + b] == 0
        R.put_boat(self.S, b, i32(h))
        return b

    def creature(self, kind, slot: int, r: int | None = None, c: int | None = None):
        """Put creature ``slot`` of ``kind`` on sea hex ``(r, c)``; no hex = back in the
        supply. No resolution (build positions that are at rest)."""
        k = _kind(kind)
        if r is None:
            h = ST.CR_SUPPLY
        else:
            h = BD.hex_index(r, c)
            assert self.S[ST.HEX_TERRAIN + h] < 0
        R.put_creature(self.S, k, i32(slot), i32(h))

    def remove_creature(self, kind, slot: int):
        """Creature out of the game (not in the supply)."""
        R.put_creature(self.S, _kind(kind), i32(slot), i32(ST.CR_GONE))

    def hand(self, seat: int, back, terrain="beach"):
        """One red tile of ``back`` into ``seat``'s hidden hand."""
        R.add_to_hand(self.S, i32(seat), i32(_back(back)), i32(_terrain(terrain)))

    def script(self, seat: int, rows) -> "Table":
        """The scripted strategy of ``seat`` will answer with these rows, in order (each row
        up to 4 numbers matched against the option row; ``None`` or missing = anything)."""
        m = self.mem[seat]
        assert 2 + 4 * len(rows) <= K_KIND, "script too long"
        m[:] = 0.0
        m[0] = len(rows)
        m[1] = 0
        for i, row in enumerate(rows):
            row = tuple(row) + (None,) * (4 - len(row))
            for j in range(4):
                m[2 + 4 * i + j] = WILD if row[j] is None else float(row[j])
        return self

    def script_used(self, seat: int) -> int:
        """How many scripted decisions ``seat`` has been asked so far."""
        return int(self.mem[seat][1])

    def set_die(self, kind) -> "Table":
        """Make the next creature-die roll show ``kind`` (B1.6)."""
        want = _kind(kind)
        for cand in range(1, 10_000):
            if die_face(cand) == want:
                self.rng[ST.RNG_DICE] = np.uint64(cand)
                return self
        raise RuntimeError("no die state found")

    def set_dive(self, face, number) -> "Table":
        """Make the next dive-dice roll show ``face`` (a kind name, 'boat' or 'starfish') and
        ``number`` (1, 2, 3 or 'D'), X5.3: the two dice are two draws of the dice stream."""
        want_face = list(ST.DIVE_FACES).index(_kind(face))
        numbers = [1, 1, 2, 2, 3, "D"]
        for cand in range(1, 200_000):
            if _draw6(cand, 1) == want_face and numbers[_draw6(cand, 2)] == number:
                self.rng[ST.RNG_DICE] = np.uint64(cand)
                return self
        raise RuntimeError("no dice state found")

    def protect(self, d: int, e: int) -> "Table":
        """Dolphin ``d`` protects swimmer ``e`` (X5.5); both must share a hex."""
        assert self.S[ST.CR_HEX + ST.DOLPHIN * ST.CR_SLOTS + d] == self.S[ST.EX_AT + e]
        R.protect(self.S, i32(d), i32(e))
        return self

    def protector(self, e: int) -> int:
        """The dolphin protecting explorer ``e``, or -1."""
        return int(self.S[ST.EX_PROT + e])

    def next_die(self) -> str:
        return ST.KIND_NAMES[die_face(int(self.rng[ST.RNG_DICE]))]

    def set(self, cell: int, value: int) -> "Table":
        self.S[cell] = value
        return self

    # ================================================================ actions
    def _run(self, fn, *args):
        self.ctx[LY.C_ERR] = 0
        out = fn(*args)
        if self.ctx[LY.C_ERR] != 0:
            raise EngineError(f"engine error {int(self.ctx[LY.C_ERR])} (a scripted row matched "
                              f"no legal option?)")
        return out

    def _engine(self):
        return (self.S, self.st, self.rng, self.ctx, self.mem, self.W, self.fns, self.opts,
                self.path,
                self.ev, self.snaps)

    def options(self, kind, seat: int = 0, creature=None) -> list[tuple]:
        """The legal rows of a decision, as tuples: ``'move'`` (4 columns), ``'sink'``
        ``(hex,)``, ``'play_tile'`` (4), ``'creature'`` ``(kind, slot, dest)`` for the die's
        ``creature`` kind (must-move as set), ``'place_boat'`` ``(hex,)``,
        ``'pick_explorer'`` ``(slot,)`` (one per distinct value), ``'place_explorer'``
        ``(slot, hex)`` (the tiles the rule in force opens to the seat's next explorer, shown
        for slot 0: ``rules.options_placement``)."""
        kind = DECISIONS.get(kind, kind)
        S, o = self.S, self.opts
        if kind == ST.D_MOVE:
            n, w = R.options_move(S, i32(seat), o), 4
        elif kind == ST.D_SINK:
            n, w = R.options_sink(S, o), 1
        elif kind == ST.D_PLAY_TILE:
            n, w = R.options_play_tile(S, self.W, i32(seat), S[ST.PRIV + seat * ST.PRIV_W:], o), 4
        elif kind == ST.D_CREATURE:
            k = _kind(creature)
            if k <= ST.WHALE and not S[ST.CHALLENGES] & ST.CH_DIVE:
                n, w = R.options_creature(S, self.W, k, k + 1, bool(S[ST.MUST_MOVE]), o, 0), 3
            else:                       # any piece kind, as far as the current roll allows
                n, w = 0, 4
                count = ST.N_BOATS if k == ST.PK_BOAT else ST.KIND_COUNT[k]
                for slot in range(count):
                    n = R.creature_moves(S, self.W, i64(k), i32(slot), R.die_reach(S, i64(k)),
                                         bool(S[ST.MUST_MOVE]), o, n)
        elif kind == ST.D_CREATURE_PIECE:
            n, w = R.options_creature_pieces(S, R.face_kinds(S, creature), False, o), 2
        elif kind == ST.D_TILE_DEST:
            back, piece = creature[:2]
            k = _kind(creature[2]) if len(creature) > 2 else _back(back) - ST.B_MOVE_SERPENT
            n, w = R.options_tile_dest(S, i32(_back(back)), i32(piece), i32(k), o), 4
        elif kind == ST.D_PLACE_SQUID:
            n, w = R.options_place_squid(S, o), 1
        elif kind == ST.D_SQUID_VICTIM:
            n, w = R.squid_victims(S, i32(loc(creature)), o), 1
        elif kind == ST.D_PLACE_BOAT:
            n, w = R.options_place_boat(S, o), 1
        elif kind == ST.D_PICK_EXPLORER:
            n, w = R.options_pick_explorer(S, i32(seat), o), 1
        elif kind == ST.D_PLACE_EXPLORER:
            n, w = R.options_placement(S, i32(seat), i32(0), o), 2
        else:
            raise ValueError(kind)
        return [tuple(int(x) for x in o[i, :w]) for i in range(n)]

    def move_dests(self, seat: int, e: int) -> set:
        """Readable destinations of explorer ``e`` in ``options('move')``: ``(r, c)`` as a
        swimmer or on land, ``('boat', b)`` into a boat, an isle name."""
        out = set()
        for what, i, dest, b in self.options("move", seat):
            if what == ST.MV_EXPLORER and i == e:
                out.add(("boat", b) if b >= 0 else rc(dest))
        return out

    def boat_dests(self, seat: int, b: int) -> set:
        return {rc(d) for what, i, d, _ in self.options("move", seat)
                if what == ST.MV_BOAT and i == b}

    def creature_dests(self, kind, slot: int) -> set:
        k = _kind(kind)
        return {rc(d) for kk, s, d in self.options("creature", creature=k) if s == slot}

    def move(self, seat: int, row, check: bool = True):
        """Carry out one movement point (``rules.apply_move``); the row must be legal."""
        row = tuple(int(x) for x in row)
        if check:
            assert row in self.options("move", seat), f"illegal move {row}"
        R.apply_move(self.S, i32(seat), i32(row[0]), i32(row[1]), i32(row[2]), i32(row[3]))

    def step_move(self, seat: int, rows=None):
        """Step 2 (``steps.step_move``) with scripted movement points (``rows`` None: the
        seat's own strategy decides, e.g. a table built with ``strategy='greedy'``)."""
        if rows is not None:
            self.script(seat, rows)
        self._run(TS.step_move, self.S, self.st, self.rng, self.ctx, self.mem, self.W, self.fns,
                  self.opts, self.ev, self.snaps, i32(seat))

    def play_tile(self, seat: int, row, *more):
        """Step 1 (``steps.step_play_tile``) choosing ``row`` (None = play nothing); ``more``
        rows stay in the script. The engine asks the tile and piece, then the destination; the
        scripted strategy answers both from the one row."""
        self.script(seat, ([] if row is None else [row]) + list(more))
        self._run(TS.step_play_tile, *self._engine(), i32(seat))

    def sink(self, seat: int, hex_=None, choices=()) -> int:
        """Step 3 (``steps.step_sink``): ``seat`` sinks the tile on ``hex_`` (None: the first
        eligible tile, as an exhausted script does); ``choices``: further scripted answers
        (swimmers boarding, the boat taken). Returns the back."""
        h = self.options("sink")[0][0] if hex_ is None else loc(hex_)
        back = int(self.S[ST.TILE_BACK + h])
        asked = hex_ is not None and len(self.options("sink")) > 1     # one option: not asked
        self.script(seat, ([(h,)] if asked else [])
                    + [tuple(x) if isinstance(x, tuple) else (x,) for x in choices])
        self._run(TS.step_sink, *self._engine(), i32(seat))
        return back

    def creature_move(self, seat: int, kind, slot: int, dest, defend: dict | None = None,
                      check: bool = True, via: int = -1, choices=()):
        """A die move (``steps.move_creature``) of ``slot`` of ``kind`` to ``dest`` by
        ``seat``; ``defend`` = {seat: 1 play / 0 hold} answers to defence windows; ``via``:
        ``ST.VIA_JUMP`` for a dive-dice D, ``ST.VIA_SWITCH + e`` for a dolphin's switch, -1 a
        path found here; ``choices``: the mover's further scripted answers (protection, squid
        victim)."""
        k = _kind(kind)
        d = loc(dest)
        if check:
            rows = self.options("creature", creature=k)
            assert any(x[1] == slot and x[2] == d and (via < ST.VIA_JUMP or x[3] == via)
                       for x in rows), f"illegal creature move to {dest}"
        for s in range(self.seats):
            self.script(s, [])
        for s, play in (defend or {}).items():
            self.script(s, [(play,)])
        if choices:
            self.script(seat, [tuple(x) if isinstance(x, tuple) else (x,) for x in choices])
        self._run(TS.move_creature, *self._engine(), i32(seat), i64(k), i32(slot), i32(d),
                  i32(via))

    def roll_step(self, seat: int, kind=None, choice=None):
        """Step 4 (``steps.step_creature``): roll (forced to ``kind`` if given) and move the
        creature picked by ``choice`` (a (kind, slot, dest) row, None = first option).
        Returns the kind rolled."""
        if kind is not None:
            self.set_die(kind)
        rolled = self.next_die()
        for s in range(self.seats):
            self.script(s, [])
        if choice is not None:
            k, slot, dest = choice
            self.script(seat, [(_kind(k), slot, loc(dest))])
        self._run(TS.step_creature, *self._engine(), i32(seat))
        return rolled

    def play_turn(self, scripts: dict | None = None):
        """One whole turn of the current seat (``steps.play_turn``)."""
        for s, rows in (scripts or {}).items():
            self.script(s, rows)
        self._run(TS.play_turn, *self._engine())

    def place(self, seat: int, slot: int, hex_) -> None:
        """One placement of B4.3 (``setup.place_next_explorer``): ``seat`` puts its unplaced
        explorer ``slot`` on ``hex_``; a tile the rule in force does not allow raises
        ``EngineError``."""
        rows = [(slot, loc(hex_))]
        if R.options_pick_explorer(self.S, i32(seat), self.opts) > 1:     # else not asked
            rows.insert(0, (slot,))
        self.script(seat, rows)
        self._run(SU.place_next_explorer, self.S, self.st, self.rng, self.ctx, self.mem,
                  self.W, self.fns, self.opts, self.ev, self.snaps, i32(seat))

    def setup(self):
        """B4.3 / B4.4: ``setup.place_pieces`` with the table's strategies."""
        self._run(SU.place_pieces, self.S, self.st, self.rng, self.ctx, self.mem, self.W, self.fns,
                  self.opts, self.ev, self.snaps)

    def play_game(self):
        """A whole game from the seeds (``engine.play_game``)."""
        self._run(E.play_game, self.S, self.st, self.rng, self.ctx, self.mem, self.W, self.fns,
                  self.opts, self.ev, self.snaps, i64(self.seed), i64(self.game))

    def resolve(self, hex_) -> int:
        return int(R.resolve_hex(self.S, i32(loc(hex_))))

    # ================================================================ queries
    def where(self, e: int):
        """``('land'|'sea', (r, c))``, ``('boat', b)``, ``('safe', 'NW')``, ``('lost', None)``,
        ``('off', None)``, ``('unplaced', None)``."""
        lc = int(self.S[ST.EX_LOC + e])
        at = int(self.S[ST.EX_AT + e])
        name = ST.LOC_NAMES[lc]
        if lc in (ST.L_LAND, ST.L_SEA, ST.L_SAFE):
            return (name, rc(at))
        if lc == ST.L_BOAT:
            return (name, at)
        return (name, None)

    def fate(self, e: int) -> str:
        return ST.FATE_NAMES[int(self.S[ST.EX_FATE + e])]

    def swam(self, e: int) -> bool:
        return bool(self.S[ST.EX_SWAM + e])

    def boat_at(self, r, c=None):
        """The boat on a hex, or None."""
        b = int(self.S[ST.HEX_BOAT + H(r, c)])
        return None if b < 0 else b

    def boat_hex(self, b: int):
        """``(r, c)`` of boat ``b``, or ``'supply'``."""
        h = int(self.S[ST.BOAT_HEX + b])
        return "supply" if h < 0 else rc(h)

    def passengers(self, b: int) -> list[int]:
        n = int(self.S[ST.BOAT_N + b])
        return [int(x) for x in self.S[ST.BOAT_P + 3 * b:ST.BOAT_P + 3 * b + n]]

    def creature_at(self, kind, slot: int):
        """``(r, c)``, ``'supply'`` or ``'gone'``."""
        h = int(self.S[ST.CR_HEX + _kind(kind) * ST.CR_SLOTS + slot])
        return "supply" if h == ST.CR_SUPPLY else ("gone" if h == ST.CR_GONE else rc(h))

    def creatures(self, kind) -> list:
        """Hexes of the creatures of ``kind`` on the board, sorted."""
        k = _kind(kind)
        return sorted(rc(h) for h in self.S[ST.CR_HEX + k * ST.CR_SLOTS:
                                            ST.CR_HEX + k * ST.CR_SLOTS + ST.KIND_COUNT[k]]
                      if h >= 0)

    def hand_of(self, seat: int) -> dict:
        """Tiles in the seat's hand by back name (non-zero counts only)."""
        base = ST.PRIV + seat * ST.PRIV_W + ST.P_HAND
        return {ST.BACK_NAMES[b]: int(self.S[base + b]) for b in range(ST.N_BACKS)
                if self.S[base + b]}

    def terrain(self, r, c=None):
        t = int(self.S[ST.HEX_TERRAIN + H(r, c)])
        return None if t < 0 else BD.TERRAIN_NAMES[t]

    def swimmers(self, r, c=None) -> list[int]:
        h = H(r, c)
        return [e for e in range(ST.MAX_EX)
                if self.S[ST.EX_LOC + e] == ST.L_SEA and self.S[ST.EX_AT + e] == h]

    def controls(self, seat: int, b: int) -> bool:
        return bool(R.controls(self.S, seat, b))

    def may_defend(self, seat: int, mover: int, kind, r, c=None) -> bool:
        return bool(R.may_defend(self.S, i64(seat), i32(mover), i64(_kind(kind)), i32(H(r, c))))

    @property
    def over(self) -> bool:
        return bool(self.S[ST.OVER])

    @property
    def end_reason(self) -> str:
        return ST.END_NAMES[int(self.S[ST.END_REASON])]

    def record(self) -> dict:
        """``engine.write_record`` as a dict: game columns, ``back_<name>`` and per seat
        ``<column>_<seat>``."""
        row = np.zeros(LY.REC_W, np.int32)
        E.write_record(self.S, row)
        out = {name: int(row[i]) for i, name in enumerate(LY.REC_GAME)}
        for b, name in enumerate(ST.BACK_NAMES):
            out[f"back_{name}"] = int(row[LY.R_BACKS + b])
        w = len(LY.REC_SEAT)
        for s in range(self.seats):
            for i, name in enumerate(LY.REC_SEAT):
                out[f"{name}_{s}"] = int(row[LY.R_SEAT0 + s * w + i])
        out["_row"] = row
        return out

    def record_frame(self):
        """The record as the one-row pandas table ``simulate`` produces."""
        return records_frame(self.record()["_row"][None, :], self.settings, self.seed,
                             self.game)

    def pub(self) -> np.ndarray:
        """What every strategy is handed as ``pub`` (``decisions.ask``)."""
        return self.S[:ST.PUB_SIZE]

    def mine(self, seat: int) -> np.ndarray:
        """What ``seat``'s strategy is handed as ``mine`` (``decisions.ask``)."""
        return self.S[ST.PRIV + seat * ST.PRIV_W:ST.PRIV + (seat + 1) * ST.PRIV_W]
