"""Numbers for people: exact fractions and their short decimals.

A decimal is text for a reader, computed from the exact value (never rounded
to 0 or 1 when it is not); the exact path never sees a float.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from ..core.limits import decimal_digits

LONG_FRACTION = 28
"""Fractions longer than this many characters are shortened in tables and
reprs (the exact value stays in the HTML cell's tooltip, in JSON and CSV, in
``to_fractions()``, and with ``exact=True`` / ``--exact``): so that no line of
a text table is longer than about 100 characters."""

SHORT_FRACTION = 16
"""The total of hidden rows is given as an exact fraction too when at most this long."""


def _scientific(p: Fraction, digits: int) -> tuple[Fraction, int]:
    """``(m, e)`` with ``p = m * 10**e`` and ``1 <= m < 10``, exactly (any size of p > 0).

    The exponent from the counts of digits (``10**(e - 1) < p < 10**(e + 1)`` for
    ``e`` their difference) and one comparison on integers; ``m`` one reduced
    fraction. O(digits) beyond one gcd: no number is written out.
    """
    n, d = p.numerator, p.denominator
    e = decimal_digits(n) - decimal_digits(d)
    if (n < d * 10**e) if e >= 0 else (n * 10**-e < d):
        e -= 1
    return (Fraction(n, d * 10**e) if e >= 0 else Fraction(n * 10**-e, d)), e


def decimal(p: Fraction | float) -> str:
    """A number for people: 4 significant digits (``0.1667``, ``2.412e-07``,
    ``12.50``), ``0`` and ``1`` (and every whole number) as they are.

    Never reads 0 for a non-zero value (tiny values go to scientific
    notation, computed exactly however small they are), and never reads 1 for
    a probability below 1: ``1 - 2.412e-07``.
    """
    if isinstance(p, float):
        if p == 0 or not math.isfinite(p):
            return "0" if p == 0 else str(p)
        p = Fraction(p)
    p = Fraction(p)
    if p.denominator == 1:
        return str(p.numerator)
    if p < 0:
        return "-" + decimal(-p)
    if Fraction(99995, 100000) <= p < 1:
        return "1 - " + decimal(1 - p)
    m, e = _scientific(p, 4)
    if -5 < e < 15:
        text = f"{float(p):#.4g}"
        if "e" not in text:
            return text
    mant = f"{float(m):.3f}"
    if mant == "10.000":
        mant, e = "1.000", e + 1
    return f"{mant}e{'-' if e < 0 else '+'}{abs(e):02d}"


def fraction_digits(p: Fraction) -> int:
    """The number of digits of a fraction's numerator and denominator together."""
    return decimal_digits(p.numerator) + (0 if p.denominator == 1 else decimal_digits(p.denominator))


def figure_parts(value: Any, exact: bool = False, hint: str = "--exact") -> tuple[str, str]:
    """``(exact part, approximate part)`` of :func:`figure_text`: ``("19/54", "≈ 0.3519")``,
    ``("7", "")``, ``("", "≈ 0.4677 (exact: 90 digits, --exact)")``."""
    if isinstance(value, bool) or not isinstance(value, (int, Fraction)):
        return str(value), ""
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator), ""
    text = f"{value.numerator}/{value.denominator}"
    if exact or len(text) <= LONG_FRACTION:
        return text, f"≈ {decimal(value)}"
    return "", f"≈ {decimal(value)} (exact: {fraction_digits(value)} digits, {hint})"


def figure_text(value: Any, exact: bool = False, hint: str = "--exact") -> str:
    """One figure for a person: ``7`` (whole numbers without ``/1``),
    ``19/54  ≈ 0.3519`` (a fraction and its decimal), or, for a fraction longer
    than :data:`LONG_FRACTION` characters, ``≈ 0.4677 (exact: 90 digits, --exact)``
    (``hint`` names the way to get it whole; ``exact=True`` prints it whole).
    Values that are not numbers print as they are."""
    return "  ".join(part for part in figure_parts(value, exact, hint) if part)


def probability_cell(p: Fraction, exact: bool = False) -> tuple[str, bool]:
    """``(text, shortened)`` for the probability column: the exact fraction
    (``1`` for one), or ``(89 digits)`` when longer than :data:`LONG_FRACTION`."""
    text = str(p)
    if exact or len(text) <= LONG_FRACTION:
        return text, False
    return f"({fraction_digits(p)} digits)", True


def fraction_text(p: Fraction) -> str:
    """The exact fraction, or ``~`` and a short decimal when it is longer than
    :data:`LONG_FRACTION` characters (for one-line reprs)."""
    text = str(p)
    return text if len(text) <= LONG_FRACTION else "~" + decimal(p)
