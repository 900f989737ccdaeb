"""Kinds of parameter values the rules add: random counts written as dice,
pairs of shot counts (see :mod:`exactodds.core.kinds` for what a kind is)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from ..core import ExactOddsError
from ..core.kinds import Kind, KindError


class DiceExpr(Kind):
    """A random count written as dice: ``D3``, ``D6``, ``2D6``, ``D6+1``
    (:class:`~exactodds.rules.random_count.DiceCount`)."""

    metavar = "DICE"

    def __init__(self, what: str = "a dice expression") -> None:
        self.what = what

    def convert(self, value: Any, done: Mapping[str, Any]) -> Any:
        from .random_count import DiceCount

        try:
            return DiceCount.parse(value, self.what)
        except ExactOddsError as e:
            raise KindError(str(e)) from None

    def key(self, value: Any) -> Any:
        return (value.dice, value.sides, value.plus)

    def plain(self, value: Any) -> Any:
        return str(value)


class ShotPair(Kind):
    """Two numbers of shots, ``X/Y`` (text ``"2/4"`` or a list ``[2, 4]``): the
    lower after moving, the higher when stationary (a Salvo weapon). The value
    is the tuple ``(X, Y)``; each from 1 to 100, X at most Y."""

    metavar = "X/Y"

    def __init__(self, what: str = "a pair of shot counts") -> None:
        self.what = what

    def convert(self, value: Any, done: Mapping[str, Any]) -> tuple[int, int]:
        return parse_shot_pair(value, self.what)

    def plain(self, value: tuple[int, int]) -> Any:
        return f"{value[0]}/{value[1]}"


def parse_shot_pair(value: Any, what: str) -> tuple[int, int]:
    """``(X, Y)`` from ``"X/Y"`` or ``[X, Y]``; KindError naming ``what`` and the form allowed. O(1)."""
    parts: list[Any] = []
    if isinstance(value, str):
        parts = [p.strip() for p in value.split("/")]
        parts = [int(p) if p.isdigit() else p for p in parts]
    elif isinstance(value, (list, tuple)):
        parts = list(value)
    ok = len(parts) == 2 and all(isinstance(p, int) and not isinstance(p, bool) and 1 <= p <= 100 for p in parts)
    if not ok or parts[0] > parts[1]:
        raise KindError(f"{what} {value!r:.40} is not allowed: write X/Y (e.g. 2/4), two numbers of shots from "
                        "1 to 100, the lower (after moving) first")
    return (parts[0], parts[1])
