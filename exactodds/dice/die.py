"""Dice and target numbers.

A die is just a :class:`~exactodds.core.Dist` over its faces; :func:`d`
builds the fair dN. A :class:`Target` is a success rule on one die: ``X+``
(a natural X or more), ``auto`` (automatic success, no roll) or ``fail``
(automatic failure).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..core import Dist, InputError
from ..core.checks import is_whole

MAX_SIDES = 1000


def d(sides: int = 6) -> Dist[int]:
    """The fair die with faces ``1..sides``."""
    if not is_whole(sides) or not 1 <= sides <= MAX_SIDES:
        raise InputError(f"a die has 1 to {MAX_SIDES} sides, not {sides!r}")
    return _die_cache.get(sides) or _die_cache.setdefault(sides, Dist.uniform(range(1, sides + 1)))


_die_cache: dict[int, Dist[int]] = {}
d6 = d(6)

_TARGET_RE = re.compile(r"^\s*([0-9]{1,9})\s*\+\s*$")  # ASCII digits; 10+ digits is no target
AUTO_SPELLINGS = ("auto", "a")
FAIL_SPELLINGS = ("fail", "f")


@dataclass(frozen=True)
class Target:
    """A success rule for one die.

    ``kind`` is ``"at_least"`` (succeeds on a natural ``value`` or more),
    ``"auto"`` (always succeeds, nothing rolled) or ``"fail"`` (always fails).
    Build with :meth:`parse` (user text), :meth:`at_least` (checked) or
    :meth:`clamped` (a computed threshold, saturating at auto/fail).
    """

    kind: str
    value: int = 0
    sides: int = 6

    def __post_init__(self) -> None:
        _check_sides(self.sides)
        if self.kind not in ("at_least", "auto", "fail"):
            raise InputError(f"a target's kind is 'at_least', 'auto' or 'fail', not {self.kind!r}")
        if self.kind == "at_least" and (not is_whole(self.value)
                                        or not 2 <= self.value <= self.sides):
            raise InputError(f"target {self.value!r}+ is not allowed on a d{self.sides}: use 2+ to {self.sides}+")

    @classmethod
    def at_least(cls, value: int, sides: int = 6) -> Target:
        """``value+`` on a die of ``sides``: 2 <= value <= sides, else an error."""
        _check_sides(sides)
        if not is_whole(value) or not 2 <= value <= sides:
            raise InputError(
                f"target {value!r}+ is not allowed on a d{sides}: use 2+ to {sides}+, "
                f"'auto' for an automatic success or 'fail' for an automatic failure"
            )
        return cls("at_least", value, sides)

    @classmethod
    def auto(cls, sides: int = 6) -> Target:
        """Automatic success."""
        return cls("auto", 0, sides)

    @classmethod
    def fail(cls, sides: int = 6) -> Target:
        """Automatic failure."""
        return cls("fail", 0, sides)

    @classmethod
    def clamped(cls, value: int, sides: int = 6) -> Target:
        """A computed threshold: ``value <= 1`` is auto, ``value > sides`` is fail."""
        _check_sides(sides)
        if not is_whole(value):
            raise InputError(f"a target threshold must be a whole number, not {value!r}")
        if value <= 1:
            return cls.auto(sides)
        if value > sides:
            return cls.fail(sides)
        return cls("at_least", value, sides)

    @classmethod
    def parse(cls, text: str | int | Target, sides: int = 6, what: str = "target") -> Target:
        """Read ``"4+"``, ``"auto"`` (or ``"A"``) or ``"fail"`` (or ``"F"``)."""
        if isinstance(text, Target):
            return text
        _check_sides(sides)
        if is_whole(text):
            text = f"{text}+"
        if not isinstance(text, str):
            raise InputError(f"{what} must be text like '4+', not {text!r}")
        low = text.strip().lower()
        if low in AUTO_SPELLINGS:
            return cls.auto(sides)
        if low in FAIL_SPELLINGS:
            return cls.fail(sides)
        m = _TARGET_RE.match(text)
        if not m or not 2 <= int(m.group(1)) <= sides:
            raise InputError(
                f"{what} {text!r} is not allowed: use 2+ to {sides}+ on a d{sides}, "
                f"'auto' for an automatic success or 'fail' for an automatic failure"
            )
        return cls("at_least", int(m.group(1)), sides)

    def succeeds(self, face: int) -> bool:
        """Whether a natural ``face`` succeeds."""
        if self.kind == "auto":
            return True
        if self.kind == "fail":
            return False
        return face >= self.value

    def chance(self) -> Fraction:
        """P(success) on one fair roll."""
        if self.kind == "auto":
            return Fraction(1)
        if self.kind == "fail":
            return Fraction(0)
        return Fraction(self.sides - self.value + 1, self.sides)

    def __str__(self) -> str:
        return f"{self.value}+" if self.kind == "at_least" else self.kind


def classify(die: Dist[Any], category: Callable[[Any], Hashable]) -> Dist[Any]:
    """The die's distribution over categories (e.g. hit/miss x even/odd). O(faces)."""
    return check_die(die).map(category)


def success(die: Dist[Any], target: Target) -> Dist[Any]:
    """1 if the die meets ``target``, else 0."""
    check_target(target)
    return check_die(die).map(lambda f: int(target.succeeds(f)))


def _check_sides(sides: Any) -> int:
    if not is_whole(sides) or not 1 <= sides <= MAX_SIDES:
        raise InputError(f"a die has 1 to {MAX_SIDES} sides, not {sides!r}")
    return int(sides)


def check_die(die: Any, what: str = "die") -> Dist[Any]:
    """``die`` if it is a :class:`~exactodds.core.Dist`, else an InputError."""
    if not isinstance(die, Dist):
        raise InputError(f"{what} must be a Dist (e.g. d6 or d(8)), not {die!r}")
    return die


def check_target(target: Any, what: str = "target") -> Target:
    """``target`` if it is a :class:`Target`, else an InputError (use ``Target.parse('4+')``)."""
    if not isinstance(target, Target):
        raise InputError(f"{what} must be a Target (e.g. Target.parse('4+')), not {target!r}")
    return target
