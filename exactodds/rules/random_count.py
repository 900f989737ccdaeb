"""Random counts written as dice: ``D3``, ``D6``, ``2D6``, ``D6+1``.

Some weapons fire a random number of shots (Assault D6), some models make a
random number of attacks, some blasts hit a random number of models. Such a
count is a small dice expression: N dice of 3 or 6 sides (a D3 is a D6 halved,
rounded up: 1-2 is 1, 3-4 is 2, 5-6 is 3), plus a constant. This module reads
the expression and gives its exact distribution; the rules then push that
distribution through their steps instead of a fixed number.

Cost: reading is O(length of the text); the distribution of one expression
has at most 6N + 1 outcomes, and the sum over M models is computed by
repeated squaring (O(log M) convolutions of at most 6NM + 1 outcomes).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..core import Dist, InputError

MAX_DICE = 10
"""Most dice in one expression (``10D6``)."""
MAX_PLUS = 10
"""Largest constant added (``D6+10``)."""
SIDES = (3, 6)

_EXPR = re.compile(r"([0-9]{1,3})?[dD]([0-9]{1,3})(?:\+([0-9]{1,3}))?")

ALLOWED = (f"use D3, D6, 2D6 or D6+1: N dice of 3 or 6 sides (N from 1 to {MAX_DICE}, "
           f"1 when left out), plus an optional +K (K from 0 to {MAX_PLUS})")


@dataclass(frozen=True, order=True)
class DiceCount:
    """``dice`` dice of ``sides`` sides plus ``plus``: a random whole number."""

    dice: int
    sides: int
    plus: int = 0

    def __post_init__(self) -> None:
        for name, value, low, high in (("dice", self.dice, 1, MAX_DICE), ("plus", self.plus, 0, MAX_PLUS)):
            if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
                raise InputError(f"{str(self)!r} is not a dice expression: {ALLOWED}")
        if self.sides not in SIDES:
            raise InputError(f"{str(self)!r} is not a dice expression: {ALLOWED}")

    @classmethod
    def parse(cls, text: object, what: str = "a dice expression") -> DiceCount:
        """Read ``D3``, ``D6``, ``2D6``, ``D6+1`` (case and spaces ignored); refuse anything else."""
        if isinstance(text, DiceCount):
            return text
        if not isinstance(text, str):
            raise InputError(f"{text!r:.60} is not {what}: {ALLOWED}")
        m = _EXPR.fullmatch(text.replace(" ", ""))
        if not m:
            raise InputError(f"{text!r:.60} is not {what}: {ALLOWED}")
        dice = int(m.group(1)) if m.group(1) is not None else 1
        sides, plus = int(m.group(2)), int(m.group(3) or 0)
        if not 1 <= dice <= MAX_DICE or sides not in SIDES or plus > MAX_PLUS:
            raise InputError(f"{text!r:.60} is not {what}: {ALLOWED}")
        return cls(dice, sides, plus)

    def __str__(self) -> str:
        n = "" if self.dice == 1 else str(self.dice)
        return f"{n}D{self.sides}" + (f"+{self.plus}" if self.plus else "")

    def die(self) -> Dist:
        """One die of the expression: a D6, or a D3 (a D6 halved, rounded up)."""
        return Dist.uniform(range(1, self.sides + 1))

    def dist(self) -> Dist:
        """The exact distribution of the expression. O(dice x 6) outcomes."""
        return self.die().sum_n(self.dice).map(lambda x: x + self.plus)

    def total(self, copies: int) -> Dist:
        """The sum of ``copies`` independent rolls (one per model). O(log copies) convolutions."""
        if isinstance(copies, bool) or not isinstance(copies, int) or copies < 0:
            raise InputError(f"the number of models rolling {self} must be a whole number 0 or more")
        if copies == 0:
            return Dist.constant(0)
        return self.dist().sum_n(copies)

    def maximum(self) -> int:
        """The largest value of one roll."""
        return self.dice * self.sides + self.plus
