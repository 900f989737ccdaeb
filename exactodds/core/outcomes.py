"""Checks and the display order of a distribution's outcomes (used by :mod:`~exactodds.core.dist`)."""

from __future__ import annotations

import math
from collections.abc import Hashable, Iterable
from fractions import Fraction
from itertools import islice
from typing import Any, TypeVar

from .checks import is_whole
from .errors import InputError

H = TypeVar("H", bound=Hashable)


def _reduce(weights: dict[H, int], total: int) -> tuple[dict[H, int], int]:
    """Divide all weights and the total by their gcd. O(k) for k outcomes, in C;
    O(1) when the first few weights already have gcd 1 with the total."""
    g = math.gcd(total, *islice(weights.values(), 4))
    if g > 1:
        g = math.gcd(g, *weights.values())
    if g > 1:
        weights = dict(zip(weights, map(g.__rfloordiv__, weights.values())))
        total //= g
    return weights, total


def _equally_spaced(weights: dict[Any, int]) -> bool:
    """Whether the outcomes are integers at equal steps (their sums then fill a range)."""
    xs = sorted(weights) if all(is_whole(x) for x in weights) else None
    if xs is None:
        return False
    return len({b - a for a, b in zip(xs, xs[1:])}) <= 1


def _hashable(x: H) -> H:
    """``x`` if it can be an outcome (hashable), else an InputError."""
    try:
        hash(x)
    except TypeError:
        raise InputError(f"an outcome must be hashable (a number, text, tuple...), not {x!r}") from None
    return x


def _iterable(xs: Any, what: str) -> Any:
    """``xs`` if it can be iterated (strings count), else an InputError."""
    try:
        iter(xs)
    except TypeError:
        raise InputError(f"{what} must be a collection, not {xs!r}") from None
    return xs


def _callable(f: object, what: str) -> None:
    if not callable(f):
        raise InputError(f"{what} needs a function, not {f!r}")


def _sort_key(x: object) -> tuple[Any, ...]:
    if isinstance(x, bool):
        return (0, int(x))
    if isinstance(x, (int, Fraction, float)):
        return (0, x)
    if isinstance(x, str):
        return (1, x)
    if isinstance(x, tuple):
        return (2, tuple(_sort_key(v) for v in x))
    return (3, repr(x))


def _sorted(xs: Iterable[H]) -> list[H]:
    """Outcomes in a stable order: numbers, then strings, then tuples, then the rest.

    Outcomes all plain ints (most answers) sort as themselves: the same order
    without a key call per outcome (one C pass over their types, then the sort).
    """
    if not isinstance(xs, (list, tuple, dict)):
        xs = list(xs)
    if set(map(type, xs)) == _INTS:
        return sorted(xs)
    return sorted(xs, key=_sort_key)


_INTS = {int}
