"""Outcomes as sample files write them: their canonical text, and a composite
outcome's fields (one column each), so that a simulator's ``1``, ``01``, ``1.0``
and ``+1`` are all the outcome 1. Values are checked before they are converted:
a number of more than 30 digits or arrays nested too deeply are refused.
"""

from __future__ import annotations

import json
import re
from fractions import Fraction
from typing import Any

from ..core import Dist
from ..core.checks import (JSON_STRINGS, MAX_NESTING, MAX_NUMBER_DIGITS, bracket_depth, deep_nesting, long_number,
                           too_long_number)

INT_TEXT = re.compile(r"[+-]?\d+", re.ASCII)  # ASCII digits only: '²' or '٣' is not a number here
FLOAT_TEXT = re.compile(r"[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?", re.ASCII)


class TextTooLarge(ValueError):
    """A value read from a file is too long or too deep to convert (see the readers)."""


def check_text(text: str) -> None:
    """Refuse, before converting, a whole number of more than 30 digits or arrays nested
    too deeply (:mod:`exactodds.core.checks`). O(len) in C."""
    found = long_number(text)
    if found is not None:
        raise TextTooLarge(too_long_number(found[1]))
    if "[" in text or "{" in text:
        depth = bracket_depth(JSON_STRINGS.sub("", text))
        if depth > MAX_NESTING:
            raise TextTooLarge(deep_nesting(depth, "arrays and objects"))


def exact_integer(text: str) -> int | None:
    """The integer a decimal numeral such as ``2``, ``2.0`` or ``2e0`` is *exactly*, or None
    (``1e-400``, ``0.99999999999999999`` and ``1.0000000000000001`` are not integers,
    although they round to floats that are). Exact decimal arithmetic; the text has at most
    30 digits before its point (checked first), and a huge exponent is refused."""
    from decimal import Decimal

    sign, digits, exponent = Decimal(text).as_tuple()
    ds = "".join(map(str, digits))
    if exponent < 0:  # type: ignore[operator]
        cut = max(len(ds) + exponent, 0)  # type: ignore[operator]
        if ds[cut:].strip("0"):
            return None  # a nonzero digit after the point
        ds, exponent = ds[:cut], 0
    ds = ds.lstrip("0")
    if not ds:
        return 0
    if len(ds) + exponent > MAX_NUMBER_DIGITS:  # type: ignore[operator]
        raise TextTooLarge(too_long_number(len(ds) + exponent))  # type: ignore[operator]
    value = int(ds) * 10 ** exponent  # type: ignore[operator]
    return -value if sign else value


# ------------------------------------------------------------ outcome text
def canonical_text(text: str) -> str:
    """The normal form of one value read from a file (``"01"`` -> ``"1"``, ``"True"`` -> ``"true"``).

    Raises a ValueError for a number of more than 30 digits or arrays nested more than
    32 deep (the readers turn it into a one-line error naming the line)."""
    s = text.strip()
    if len(s) > MAX_NUMBER_DIGITS:  # shorter text can hold neither a long number nor deep nesting
        check_text(s)
    if INT_TEXT.fullmatch(s):
        return str(int(s))
    if FLOAT_TEXT.fullmatch(s):
        exact = exact_integer(s)
        if exact is not None:
            return str(exact)
        f = float(s)
        return s if f.is_integer() else repr(f)  # a non-integer that a float would round to one
    low = s.lower()
    if low in ("true", "false"):
        return low
    if s.startswith("[") and s.endswith("]"):
        try:
            return canonical_value(json.loads(s, parse_float=JsonFloat))
        except TextTooLarge:
            raise
        except ValueError:
            return s
    return s


class JsonFloat(float):
    """A JSON number with a point or an exponent, keeping its text: its value as an
    outcome or a count is decided exactly (:func:`exact_integer`), never by the float."""

    text: str

    def __new__(cls, text: str) -> JsonFloat:
        self = super().__new__(cls, text)
        self.text = text
        return self


def canonical_value(value: Any) -> str:
    """The normal form of one value of an outcome (from the exact distribution or a JSON line)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, JsonFloat):
        return canonical_text(value.text)
    if isinstance(value, float):
        return str(int(value)) if value.is_integer() else repr(value)
    if isinstance(value, Fraction):
        return str(value.numerator) if value.denominator == 1 else f"{value.numerator}/{value.denominator}"
    if value is None:
        return "null"
    if isinstance(value, (list, tuple)) and not hasattr(value, "_asdict"):
        return "[" + ",".join(canonical_value(v) for v in value) + "]"
    return canonical_text(str(value))


def written_value(value: Any) -> str:
    """How :func:`write_samples` writes one value of an outcome in a CSV cell."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Fraction):
        return canonical_value(value)
    if isinstance(value, (list, tuple)):
        return json.dumps([_json_value(v) for v in value])
    return str(value)


def _json_value(value: Any) -> Any:
    if isinstance(value, Fraction):
        return canonical_value(value)
    if isinstance(value, (list, tuple)):
        return [_json_value(v) for v in value]
    return value


def outcome_fields(dist: Dist) -> list[str] | None:
    """The field names of composite (named tuple) outcomes, or ``None`` for plain outcomes."""
    support = dist.support()
    first = support[0]
    if not hasattr(first, "_asdict"):
        return None
    fields = list(first._asdict())
    if all(hasattr(x, "_asdict") and list(x._asdict()) == fields for x in support):
        return fields
    return None


def outcome_cells(x: Any, fields: list[str] | None) -> tuple:
    """An outcome as the values of its columns (one per field, or one)."""
    return tuple(x._asdict().values()) if fields is not None else (x,)


def outcome_key(x: Any, fields: list[str] | None) -> tuple[str, ...]:
    """The normalised text of an outcome, used to match file rows to outcomes."""
    return tuple(canonical_value(v) for v in outcome_cells(x, fields))


def outcome_text(x: Any, fields: list[str] | None = None) -> str:
    """An outcome for people: ``3``, or ``recipient=target, hits=2``."""
    if fields is not None and hasattr(x, "_asdict"):
        return ", ".join(f"{k}={written_value(v)}" for k, v in x._asdict().items())
    return written_value(x)
