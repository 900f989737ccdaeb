"""Kinds of parameter values: what a parameter accepts, and its canonical form.

A :class:`Kind` converts a value spelled any way an interface spells it (a
command-line word, a TOML value, a Python object) to one typed value, or
raises :class:`KindError` with a message saying what is allowed (the caller
adds the parameter's name in its own vocabulary). Conversion is idempotent:
a typed value converts to itself. :meth:`Kind.key` gives the value's
canonical, hashable form and :meth:`Kind.plain` a TOML-friendly one.

This module holds the kinds that know nothing of dice games (numbers, flags,
words, text, lists, distances); :mod:`exactodds.dice.kinds` adds target
numbers, faces and saves, :mod:`exactodds.rules.kinds` dice expressions, and
:mod:`exactodds.commands.kinds` profile files. Kinds hold no interface code:
the command line, query files, sweeps and forms are all generated from them.

Numbers are read from ASCII digits only, and a number written with more than
:data:`MAX_DIGITS` digits is refused before it is converted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from .checks import MAX_NUMBER_DIGITS
from .limits import decimal_digits

MAX_DIGITS = MAX_NUMBER_DIGITS
"""Most digits a number may be written with (a longer one is a typo, and
converting thousands of digits is slow, or refused by Python itself)."""

_INTEGER = re.compile(r"[+-]?[0-9]+")


class KindError(ValueError):
    """A value a kind does not accept; the message says what is allowed."""


class Kind:
    """What one parameter accepts (see the module docstring). Subclasses override
    :meth:`convert`, and :meth:`key`/:meth:`plain` where the value is not plain."""

    metavar: str | None = None
    """How help texts show a value (``N``, ``X+``)."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> Any:
        """The typed value of ``value`` (``done``: the parameters converted before this one)."""
        raise NotImplementedError

    def key(self, value: Any) -> Any:
        """The value's canonical, hashable form."""
        return value

    def plain(self, value: Any) -> Any:
        """The value as TOML data (numbers, text, booleans, lists)."""
        return value

    def with_base(self, value: Any, base: Path) -> Any:
        """``value`` with relative file paths read from ``base`` (only files care)."""
        return value


def whole_number(value: Any, what: str, low: int | None, high: int | None) -> int:
    """``value`` as a whole number within ``[low, high]`` (None: unbounded), or a KindError.

    Accepts an int (not a bool) or text of ASCII digits with an optional sign,
    at most :data:`MAX_DIGITS` digits (refused before converting, or, for an int, before
    anything writes it as text).
    """
    if isinstance(value, bool):
        raise KindError(f"{value!r} is not {what}: {_allowed(low, high)}")
    if isinstance(value, int):
        if value.bit_length() > 3.33 * MAX_DIGITS and decimal_digits(value) > MAX_DIGITS:  # before any str()
            raise KindError(f"a number of {decimal_digits(value):,} digits is far too large: {_allowed(low, high)}")
        n = value
    else:
        text = value.strip() if isinstance(value, str) else None
        if text is None or not _INTEGER.fullmatch(text):
            raise KindError(f"{quoted(value)} is not {what}: {_allowed(low, high)}")
        if len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise KindError(f"{quoted(text)} is far too large ({len(text):,} digits): {_allowed(low, high)}")
        n = int(text)
    if (low is not None and n < low) or (high is not None and n > high):
        raise KindError(f"{_bounded(n)} is out of range: {_allowed(low, high)}")
    return n


def _bounded(n: int) -> str:
    digits = len(str(abs(n))) if n.bit_length() < 200 else None
    return str(n) if digits is not None else f"a {n.bit_length():,}-bit number"


def quoted(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + f"...({len(text):,} characters)"


def _allowed(low: int | None, high: int | None) -> str:
    if low is None and high is None:
        return "use a whole number"
    if high is None:
        return f"use a whole number {low} or more"
    return f"use a whole number from {low} to {high}"


class Count(Kind):
    """A whole number within ``[low, high]`` (``high`` None: unbounded)."""

    metavar = "N"

    def __init__(self, low: int | None = 0, high: int | None = None, what: str = "a count") -> None:
        self.low, self.high, self.what = low, high, what


    def convert(self, value: Any, done: Mapping[str, Any]) -> int:
        return whole_number(value, self.what, self.low, self.high)


class Flag(Kind):
    """On or off: ``true``/``false`` (a flag on the command line)."""


    def convert(self, value: Any, done: Mapping[str, Any]) -> bool:
        if not isinstance(value, bool):
            raise KindError(f"{quoted(value)} is not true or false (it is a flag)")
        return value


class Choice(Kind):
    """One of a fixed set of words."""

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = tuple(choices)


    def convert(self, value: Any, done: Mapping[str, Any]) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise KindError(f"{quoted(value)} is not one of {', '.join(map(repr, self.choices))}")
        return value


class Text(Kind):
    """Free text (a name), at most ``longest`` characters."""

    metavar = "TEXT"

    def __init__(self, longest: int = 200) -> None:
        self.longest = longest


    def convert(self, value: Any, done: Mapping[str, Any]) -> str:
        if not isinstance(value, str):
            raise KindError(f"{quoted(value)} is not text")
        if len(value) > self.longest:
            raise KindError(f"{quoted(value)} is longer than {self.longest} characters")
        return value


MAX_ITEMS = 1000
"""The most values a list parameter takes unless it says fewer (:class:`Many`)."""


class Many(Kind):
    """Several values of one kind (a repeated option; a list in TOML), at most ``most``
    of them: a longer list is refused from its length, before any value is converted."""

    def __init__(self, item: Kind, most: int = MAX_ITEMS) -> None:
        self.item = item
        self.most = most


    @property
    def metavar(self) -> str | None:  # type: ignore[override]
        return self.item.metavar

    def convert(self, value: Any, done: Mapping[str, Any]) -> tuple[Any, ...]:
        values = value if isinstance(value, (list, tuple)) else [value]
        if len(values) > self.most:
            raise KindError(f"{len(values):,} values is too many: at most {self.most:,} are allowed")
        return tuple(self.item.convert(v, done) for v in values)

    def key(self, value: tuple[Any, ...]) -> Any:
        return tuple(self.item.key(v) for v in value)

    def plain(self, value: tuple[Any, ...]) -> Any:
        return [self.item.plain(v) for v in value]

    def with_base(self, value: Any, base: Path) -> Any:
        if isinstance(value, (list, tuple)):
            return [self.item.with_base(v, base) for v in value]
        return self.item.with_base(value, base)



_DECIMAL = re.compile(r"(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?:[eE](?P<exp>[+-]?[0-9]+))?")
_RATIO = re.compile(r"(?P<num>[0-9]+)\s*/\s*(?P<den>[0-9]+)")


def exact_decimal(text: str) -> Fraction | None:
    """A non-negative decimal (``7.5``, ``1e2``) or ratio (``15/2``) read exactly, or None.

    The digits and the exponent are bounded (:data:`MAX_DIGITS`) before any
    number is built, so ``1e1000000000`` costs nothing.
    """
    text = text.strip()
    m = _RATIO.fullmatch(text)
    if m:
        if max(len(m["num"]), len(m["den"])) > MAX_DIGITS or int(m["den"]) == 0:
            return None
        return Fraction(int(m["num"]), int(m["den"]))
    m = _DECIMAL.fullmatch(text)
    if not m or not (m["int"] or m["frac"]):
        return None
    digits = (m["int"] or "") + (m["frac"] or "")
    exp = m["exp"]
    if len(digits.lstrip("0")) > MAX_DIGITS or (exp is not None and len(exp.lstrip("+-").lstrip("0")) > 3):
        return None
    power = (int(exp) if exp else 0) - len(m["frac"] or "")
    value = Fraction(int(digits or "0"))
    if value and abs(power) + len(digits.lstrip("0")) > 2 * MAX_DIGITS:
        return None
    return value * Fraction(10) ** power


class Inches(Kind):
    """A distance in inches, 0 or more, read exactly: ``8``, ``7.5`` or ``15/2``."""

    metavar = "INCHES"


    def convert(self, value: Any, done: Mapping[str, Any]) -> Fraction:
        if isinstance(value, Fraction):
            d: Fraction | None = value
        elif isinstance(value, bool):
            d = None
        elif isinstance(value, (int, float, str)):
            text = repr(value) if isinstance(value, float) else str(value)
            negative = text.strip().startswith("-")
            d = exact_decimal(text.strip().lstrip("-"))
            if d is not None and negative and d:
                raise KindError(f"{text.strip()} is negative: a charge distance is 0 inches or more")
        else:
            d = None
        if d is None:
            raise KindError(f"{quoted(value)} is not a distance: use inches as a number 0 or more "
                            "(e.g. 8, 7.5 or 15/2)")
        if d < 0:
            raise KindError(f"{value} is negative: a charge distance is 0 inches or more")
        return d

    def key(self, value: Fraction) -> Any:
        return (value.numerator, value.denominator)

    def plain(self, value: Fraction) -> Any:
        return str(value)


