"""Kinds of parameter values the rules add: random counts written as dice
(see :mod:`exactodds.core.kinds` for what a kind is)."""

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
