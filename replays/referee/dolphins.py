"""Dolphins (Challenge 5, X5.2, X5.5-X5.9): which swimmer a dolphin protects, the dolphin tile,
and a dolphin's arrival, departure and switch of protection.

Where RULES.md is silent the referee follows the simulator's published rulings
(docs/replay-log.md): protection is bookkept as swimmer -> dolphin (``after.protect``) and
assigned only when a swimmer and a free dolphin come together (X5.9); a dolphin leaving its
swimmer, or switching away from it, resolves the old hex at once (X5.6). In the base game no
dolphin is ever on the board and every query here answers "nobody".
"""
from __future__ import annotations

from .components import SUPPLY
from .failure import Fail
from .state import PositionState


class Dolphins(PositionState):
    """Dolphin protection and the X5 dolphin moves (mixin of ``Position``)."""

    def protected(self, e: int) -> bool:
        """X5.5: a swimmer protected by a dolphin in its hex (never in the base game)."""
        return e in self.prot

    def free_dolphins(self, h: int) -> list[int]:
        """X5.9: the dolphins in hex h protecting nobody, lowest-numbered first."""
        busy = set(self.prot.values())
        return [d for d, x in enumerate(self.creatures["dolphin"]) if x == h and d not in busy]

    def swimmer_of(self, d: int):
        """The swimmer dolphin d protects, or None."""
        return next((e for e, x in self.prot.items() if x == d), None)

    def set_prot(self, e: int, d: int | None, rule: str):
        if d is None:
            self.prot.pop(e, None)
        else:
            self.prot[e] = d
        self.tags[("prot", e)] = rule

    def _capsize_protect(self, h: int, passengers: list[int]):
        """X5.9: capsized passengers come together with the free dolphins of the hex. With enough
        of them, passengers in boarding order get the lowest-numbered free dolphins; with fewer,
        the acting seat chooses which passengers (the choice is read from ``after.protect``)."""
        free = self.free_dolphins(h)
        if not free:
            return
        if len(free) >= len(passengers):
            for e, d in zip(passengers, free):
                self.set_prot(e, d, "X5.9")
            return
        shown = self.after_hint.get("protect") if isinstance(self.after_hint, dict) else None
        shown = shown if isinstance(shown, dict) else {}
        chosen = {e: shown.get(str(e)) for e in passengers if shown.get(str(e)) in free}
        if len(chosen) != len(free) or sorted(chosen.values()) != free:
            raise Fail("X5.9", f"a boat capsized at {self.name(h)} into {len(free)} free "
                               f"dolphin(s) {free}: each must protect one of the passengers "
                               f"{passengers} (the mover's choice), after.protect shows "
                               f"{ {e: d for e, d in chosen.items()} }")
        for e, d in chosen.items():
            self.set_prot(e, d, "X5.9")

    def _arrive(self, e: int, h: int):
        """X5.9: a swimmer entering a hex with a free dolphin is protected by the lowest-numbered
        one, before the hex is resolved (B6.7)."""
        if e not in self.prot:
            free = self.free_dolphins(h)
            if free:
                self.set_prot(e, free[0], "X5.9")

    def _x5_dolphin_tile(self, h, protect):
        """X5.2: the dolphin tile is immediate: a dolphin from the supply (the lowest-numbered;
        none left -> nothing) goes on the hex and protects one of the tile's swimmers (X5.5, the
        revealer's choice); the tile is removed from the game, not kept."""
        self.tags[("hand", self.seat)] = "X5.2"
        free = [d for d, x in enumerate(self.creatures["dolphin"]) if x == SUPPLY]
        if not free:
            if protect is not None:
                raise Fail("X5.2", f"no dolphin left in the supply, yet protect={protect!r}")
            return
        d = free[0]
        self.put_creature("dolphin", d, h, "X5.2")
        self.dolphins_placed += 1
        self._take_up(d, h, self.swimmers_at(h), protect, "X5.2")
        self._resolve_hex(h, "X5.2")

    def _dolphin_arrives(self, d, h, protect):
        """X5.5, X5.9: a dolphin moved by the dice into a hex with unprotected swimmers protects
        one of them (the mover's choice)."""
        if self.creatures["dolphin"][d] != h:
            return
        self._take_up(d, h, [e for e in self.swimmers_at(h) if e not in self.prot], protect,
                      "X5.5")

    def _take_up(self, d, h, candidates, protect, rule):
        """X5.5 / X5.9: free dolphin ``d`` has come to ``candidates`` (unprotected swimmers in
        ``h``): it protects ``protect``, which must be one of them (null when there is none)."""
        if not candidates:
            if protect is not None:
                raise Fail("X5.5", f"dolphin {d} at {self.name(h)} protects {protect!r}, but no "
                                   f"unprotected swimmer is there")
            return
        if protect not in candidates:
            raise Fail("X5.5", f"dolphin {d} came to {self.name(h)}: it must protect one of the "
                               f"unprotected swimmers {candidates}, found protect={protect!r}")
        self.set_prot(protect, d, rule)

    def _dolphin_switch(self, d, h, target):
        """X5.7, X5.9: instead of moving, a dolphin sharing its hex with two or more swimmers
        protects another one, that no dolphin protects; its former swimmer is unprotected and the
        hex resolved at once (X5.6)."""
        swimmers = self.swimmers_at(h)
        if len(swimmers) < 2:
            raise Fail("X5.9", f"dolphin {d} at {self.name(h)} switches protection, but a switch "
                               f"needs two or more swimmers in its hex ({swimmers})")
        if target not in swimmers:
            raise Fail("X5.7", f"dolphin {d} switches to {target!r}, who is not swimming at "
                               f"{self.name(h)} ({swimmers})")
        if target in self.prot:
            raise Fail("X5.5", f"swimmer {target} is already protected by dolphin "
                               f"{self.prot[target]} (one dolphin per swimmer)")
        old = self.swimmer_of(d)
        if old is not None:
            self.set_prot(old, None, "X5.6")
        self.set_prot(target, d, "X5.7")
        self._resolve_hex(h, "X5.6")
