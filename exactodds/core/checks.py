"""Checks of plain input values, shared by every layer.

Each check returns the value it accepted (normalised where that makes sense)
or raises an :class:`~exactodds.core.errors.InputError` whose one line names
what is wrong, where (``what``) and what is allowed. ``bool`` is never a
number here, although Python makes it a subclass of ``int``: ``True`` dice
is a mistake, not one die. Floats are never exact numbers.

All of them are O(1) (:func:`exact_number` parses a short string at most).
"""

from __future__ import annotations

import re
from fractions import Fraction
from itertools import accumulate
from numbers import Rational
from typing import Any

from .errors import InputError


def is_whole(value: object) -> bool:
    """Whether ``value`` is an ``int`` and not a ``bool``."""
    return value.__class__ is int or (isinstance(value, int) and not isinstance(value, bool))


def is_exact(value: object) -> bool:
    """Whether ``value`` is an exact number: an ``int`` or a ``Fraction`` (not a ``bool``)."""
    return isinstance(value, (int, Fraction)) and not isinstance(value, bool)


def whole_number(value: object, what: str, low: int | None = None, high: int | None = None) -> int:
    """``value`` if it is a whole number (not a bool) from ``low`` to ``high``
    (either may be None: no bound), else an InputError naming ``what``::

        what 7 is not allowed: use a whole number from 1 to 6
    """
    if not is_whole(value) or (low is not None and value < low) or (high is not None and value > high):  # type: ignore[operator]
        if low is not None and high is not None:
            allowed = f"from {low} to {high}"
        elif low is not None:
            allowed = f"{low} or more"
        elif high is not None:
            allowed = f"{high} or less"
        else:
            allowed = "(an int)"
        raise InputError(f"{what} {value!r:.60} is not allowed: use a whole number {allowed}")
    return value  # type: ignore[return-value]


def count(value: object, what: str) -> int:
    """A count: a whole number 0 or more, else an InputError (``{what} must be a
    whole number, not ...`` or ``{what} must be 0 or more, not ...``)."""
    if not is_whole(value):
        raise InputError(f"{what} must be a whole number, not {value!r}")
    if value < 0:  # type: ignore[operator]
        raise InputError(f"{what} must be 0 or more, not {value}")
    return value  # type: ignore[return-value]


def exact_number(value: Any, what: str) -> Fraction:
    """An exact number (int, Fraction or an ``'a/b'`` string) as a Fraction;
    floats are refused because they are not exact."""
    if isinstance(value, bool) or not isinstance(value, (int, Rational, str)):
        raise InputError(
            f"{what} must be an exact number (int, Fraction or 'a/b' string), "
            f"not {value!r}; floats are refused because they are not exact"
        )
    if isinstance(value, str) and len(value) > 200:  # Fraction() of a huge string is quadratic
        raise InputError(f"{what} {value[:40]!r}... ({len(value):,} characters) is not a valid fraction")
    try:
        return Fraction(value)
    except (ValueError, ZeroDivisionError):
        raise InputError(f"{what} {value!r} is not a valid fraction") from None


def probability(value: Any, what: str) -> Fraction:
    """An exact probability from 0 to 1 (see :func:`exact_number`)."""
    q = exact_number(value, what)
    if not 0 <= q <= 1:
        raise InputError(f"{what} must be a probability from 0 to 1, not {q}")
    return q


# ------------------------------------------------------------------ text read from files
MAX_NUMBER_DIGITS = 30
"""Longest whole number accepted in a file (TOML, CSV, JSON): far beyond any count of dice
or samples; a longer one is a typo or an attack (converting thousands of digits is refused
by Python, and costs time quadratic in the digits)."""

MAX_NESTING = 32
"""Deepest nesting of arrays, tables and dotted keys accepted in a file: the project's files
nest 3 deep; parsers recurse, so a deeper file could exhaust the stack or the memory."""

_LONG_NUMBER = re.compile(r"(?<![.\d])\d{%d,}" % (MAX_NUMBER_DIGITS + 1), re.ASCII)
JSON_STRINGS = re.compile(r'"(?:[^"\\]|\\.)*"')
"""A JSON string (to blank out before counting brackets or digits)."""
_NOT_BRACKET = re.compile(r"[^\[\]{}]+")
_STEP = {"[": 1, "{": 1, "]": -1, "}": -1}


def long_number(text: str) -> tuple[int, int] | None:
    """``(position, digits)`` of the first run of more than :data:`MAX_NUMBER_DIGITS`
    ASCII digits in ``text`` that is not a decimal fraction's tail, or None. One regex
    pass, O(len)."""
    m = _LONG_NUMBER.search(text)
    return (m.start(), len(m.group())) if m else None


def too_long_number(digits: int) -> str:
    """The message part for a number of ``digits`` digits."""
    return f"a number of {digits:,} digits is far too large (at most {MAX_NUMBER_DIGITS} digits)"


def bracket_depth(text: str) -> int:
    """The nesting of ``[`` and ``{`` in ``text``, counted up to :data:`MAX_NESTING` + 1
    (deeper is reported as that). Strings are not skipped: strip them first. O(len) in C,
    plus O(brackets) when there are more than :data:`MAX_NESTING` of them, stopping at
    the first too deep."""
    only = _NOT_BRACKET.sub("", text)
    opens = only.count("[") + only.count("{")
    if opens <= MAX_NESTING:
        return opens
    deepest = 0
    for depth in accumulate(map(_STEP.__getitem__, only)):
        if depth > deepest:
            deepest = depth
            if depth > MAX_NESTING:
                break
    return deepest


def deep_nesting(depth: int, of: str) -> str:
    """The message part for ``of`` (e.g. "arrays and tables") nested ``depth`` levels deep."""
    shown = f"more than {MAX_NESTING}" if depth > MAX_NESTING else f"{depth}"
    return f"{of} nested {shown} levels deep (at most {MAX_NESTING})"
