"""What the referee returns (:class:`Discrepancy`) and how a failed check travels (:class:`Fail`).

Every check raises ``Fail(rule, message)`` where it fails; ``check()`` turns the first one into
the returned Discrepancy, so no rule module has to know where in the log it is.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Discrepancy:
    """The first point where a log disagrees with the rules (see the module docstring)."""
    event: int
    turn: int
    seat: int
    rule: str
    message: str

    def __str__(self) -> str:
        where = "record/header" if self.event < 0 else f"event {self.event}"
        return f"[{self.rule}] {where}, turn {self.turn}, seat {self.seat}: {self.message}"


class Fail(Exception):
    """Raised inside the referee when a check fails; turned into a Discrepancy by check()."""

    def __init__(self, rule: str, message: str, seat: int | None = None):
        super().__init__(f"[{rule}] {message}")
        self.rule = rule
        self.message = message
        self.seat = seat
