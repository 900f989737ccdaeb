"""Bounds on the work a single question may ask for.

The engine estimates the size of a state space before building it and
refuses, with the estimate, when it exceeds :func:`max_states`. The limit is
read from the ``EXACTODDS_MAX_STATES`` environment variable (default
``2_000_000``) and can be changed for a block of code with
:func:`state_limit`. The override lives in a :class:`contextvars.ContextVar`,
so it holds for the current thread or task only (a sweep's workers, a Dask
task and a notebook cell each see their own), and there is no process-global
mutable state to reset.

Where no cheap estimate is tight, :func:`work_meter` counts the work as it
grows (the terms of every kernel application and every product of two
distributions, weighted by their bits, :func:`charge`) and stops it with the
same :class:`TooLargeError` once it passes :data:`WORK_PER_STATE` units per
state of the limit. Pipelines run under a meter; so do the rules whose state
spaces outgrow their estimates (a 40K fight, a Horus Heresy attack).

An exact answer can be small in states yet huge in digits (the 10,001
probabilities of 10,000 dice at 4+ share a 3,011-digit denominator), and
writing exact fractions as text costs time quadratic in their digits. So
the interfaces also check the size of the *text* of an answer before
writing it (:func:`check_digits`): at most :func:`max_digits` digits in all
(``EXACTODDS_MAX_DIGITS``, default ``10_000_000``) and no single number
longer than Python's own limit for converting integers to text
(``sys.get_int_max_str_digits()``, 4,300 digits unless ``PYTHONINTMAXSTRDIGITS``
says otherwise).
"""

from __future__ import annotations

import gc
import math
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TYPE_CHECKING, Any

from .checks import is_whole
from .errors import InputError, TooLargeError

if TYPE_CHECKING:
    from fractions import Fraction

DEFAULT_MAX_STATES = 2_000_000
ENV_VAR = "EXACTODDS_MAX_STATES"
DEFAULT_MAX_DIGITS = 10_000_000
DIGITS_ENV_VAR = "EXACTODDS_MAX_DIGITS"

_override: ContextVar[int | None] = ContextVar("exactodds_max_states", default=None)


def max_states() -> int:
    """The current limit on the number of states (or terms) of one computation."""
    override = _override.get()
    if override is not None:
        return override
    return _env_limit(ENV_VAR, DEFAULT_MAX_STATES)


def max_digits() -> int:
    """The current limit on the total digits of an exact answer written as text."""
    return _env_limit(DIGITS_ENV_VAR, DEFAULT_MAX_DIGITS)


def _env_limit(name: str, default: int) -> int:
    raw = os.environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    text = raw.strip()
    # at most 30 digits: a longer "number" is a typo, and int() of thousands of digits is refused by Python
    if not (text.isascii() and text.isdigit() and len(text) <= 30):
        shown = raw if len(raw) <= 40 else raw[:20] + f"... ({len(raw):,} characters)"
        raise InputError(
            f"{name}={shown!r} is not a whole number; set it to a positive integer "
            f"(default {default:,})"
        )
    value = int(text)
    if value < 1:
        raise InputError(f"{name}={value} must be a positive integer (default {default:,})")
    return value


def _checked_limit(value: object) -> int:
    if not is_whole(value) or not isinstance(value, int) or value < 1:
        raise InputError(f"the state limit must be a positive integer, not {value!r}")
    return value


@contextmanager
def state_limit(value: int | None) -> Iterator[None]:
    """Set the state limit for the code inside the ``with`` block (``None``: the
    environment or default). The limit is context-local: it holds in this
    thread or task and is restored on leaving the block, even on an error::

        with state_limit(10_000):
            ...
    """
    token = _override.set(None if value is None else _checked_limit(value))
    try:
        yield
    finally:
        _override.reset(token)


WEIGHT_UNIT_BITS = 1024
"""A state whose exact weight is longer than this counts once more per further
1,024 bits (128 bytes): about what a state costs anyway (a dict entry and its
objects), so the state limit stays a bound on memory (2,000,000 = about 256 MB
of weights) even when the weights are huge integers (a pool of n dice has a
common denominator of 6^n)."""


def state_units(states: int, weight_bits: int) -> int:
    """The size to give :func:`check_size` for ``states`` states whose exact
    weights have up to ``weight_bits`` bits: ``states x ceil(bits / 1024)``
    (at least ``states``)."""
    return states * max(1, -(-weight_bits // WEIGHT_UNIT_BITS))


def weights_note(states: int, weight_bits: int) -> str:
    """`` (N outcomes of B-bit exact weights)`` when the weights count in the size, else ``""``."""
    if weight_bits <= WEIGHT_UNIT_BITS:
        return ""
    return f" ({states:,} outcomes of {weight_bits:,}-bit exact weights)"


def count_text(n: int) -> str:
    """``n`` as text with thousands separators, or ``about 10^E`` when it has more
    than 30 digits (Python refuses to write very long integers). O(digits)."""
    digits = decimal_digits(n)
    return f"{n:,}" if digits <= 30 else f"about 10^{digits - 1:,}"


def check_size(estimate: int, what: str) -> None:
    """Refuse, before doing it, work whose estimated size exceeds the limit."""
    limit = max_states()
    if estimate > limit:
        raise TooLargeError(
            f"{what} would need {'' if decimal_digits(estimate) > 30 else 'about '}{count_text(estimate)} states, over the limit of "
            f"{limit:,}; raise it with the environment variable {ENV_VAR} "
            f"(or --max-states) if you have the memory and time"
        )


WORK_PER_STATE = 2
"""How many units of work (multiply-adds of a kernel's terms, see :func:`charge`) one
state of the limit allows: a state is created, then combined with a handful of others by
each later step. Calibrated so that work refused by the meter is stopped within seconds."""

_meter: ContextVar[list[Any] | None] = ContextVar("exactodds_work_meter", default=None)


@contextmanager
def work_meter(what: str) -> Iterator[None]:
    """Count the work done inside the block (:func:`charge`), and stop it with a
    :class:`TooLargeError` naming ``what`` as soon as it exceeds
    :data:`WORK_PER_STATE` units per state of the limit. For computations whose size
    cannot be estimated tightly beforehand (a fight's states over its Initiative steps,
    allocation with Look Out, Sir...): the estimate refuses what is surely too big before
    the work, the meter stops the rest as it grows. A meter inside another one adds to the
    outer one (the whole question is bounded, not each part). Context-local, like
    :func:`state_limit`. O(1) per charge.

    The outermost meter also pauses Python's cyclic garbage collector for the
    block, and turns it back on after (if it was on): the work builds many
    short-lived tuples and dictionaries but no reference cycles, and each
    collection would walk every object the computation keeps (7 to 12% of an
    assault's time in a process that has run others). The collector's switch
    is the process's: a meter in another thread finds it off and leaves it to
    the meter that turned it off."""
    if _meter.get() is not None:
        yield
        return
    limit = max_states()
    token = _meter.set([0, limit, what, WORK_PER_STATE * limit])  # work done, limit, what, work allowed
    collecting = gc.isenabled()
    if collecting:
        gc.disable()
    try:
        yield
    finally:
        if collecting:
            gc.enable()
        _meter.reset(token)


def charge(terms: int, weight_bits: int = 0) -> None:
    """Count ``terms`` units of work (each a big-integer multiply-add of weights of
    ``weight_bits`` bits) against the current :func:`work_meter`, if any."""
    meter = _meter.get()
    if meter is None:
        return
    meter[0] += terms * (1 + (weight_bits - 1) // WEIGHT_UNIT_BITS if weight_bits > WEIGHT_UNIT_BITS else 1)
    if meter[0] > meter[3]:
        check_size(-(-meter[0] // WORK_PER_STATE), f"{meter[2]} (counted as it ran)")


MAX_COMPARED = 12
"""The most questions one comparison answers side by side (``compare``): each is bounded on
its own, and the whole comparison by their number, checked before any is answered."""


def check_compared(count: int) -> None:
    """Refuse, before answering any, a comparison of more than :data:`MAX_COMPARED` questions."""
    if count > MAX_COMPARED:
        raise TooLargeError(f"a comparison of {count:,} queries is too large: compare at most {MAX_COMPARED} "
                            "at once (each is a column of the table)")


def decimal_digits(n: int) -> int:
    """The number of decimal digits of ``abs(n)``, without converting it to text.

    Exact: ``floor(log10|n|) + 1`` from the bit length, corrected by one
    comparison with a power of ten. O(digits) for the power, not O(digits^2).
    """
    n = abs(n)
    if n < 10:
        return 1
    guess = int((n.bit_length() - 1) * math.log10(2)) + 1  # never more than the true count
    return guess + 1 if n >= 10**guess else guess


def check_digits(count: int, digits: int, what: str) -> None:
    """Refuse, before writing it, an exact answer of ``count`` numbers of up to
    ``digits`` digits each: over Python's own per-number limit for integers as
    text, or over :func:`max_digits` digits in all."""
    per_number = sys.get_int_max_str_digits()
    if per_number and digits > per_number:
        raise TooLargeError(
            f"{what} has exact fractions of about {digits:,} digits, over Python's limit of "
            f"{per_number:,} digits for writing an integer as text; ask a smaller question, or "
            f"raise it with the environment variable PYTHONINTMAXSTRDIGITS (0 = no limit)"
        )
    total = count * digits
    limit = max_digits()
    if total > limit:
        raise TooLargeError(
            f"{what} would need about {total:,} digits of exact fractions ({count:,} outcomes of "
            f"up to {digits:,} digits), over the limit of {limit:,}; raise it with the "
            f"environment variable {DIGITS_ENV_VAR} if you have the time"
        )


def fractions_in(value: object) -> list["Fraction"]:
    """The :class:`~fractions.Fraction` values inside ``value`` (itself, or nested in
    dicts, lists and tuples): an answer's extra figures. O(size of ``value``)."""
    from fractions import Fraction

    if isinstance(value, Fraction):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [f for v in value for f in fractions_in(v)]
    return []


def check_answer_digits(outcomes: int, denominator: int, figures: list["Fraction | None"],
                        what: str = "the answer") -> None:
    """Refuse, before writing it, an answer of ``outcomes`` probabilities over
    ``denominator`` and the Fractions (or None) ``figures`` (its mean, its extras:
    :func:`fractions_in`) whose exact fractions are too long as text
    (:func:`check_digits`). The command line and the forms refuse the same answers.

    Writing a fraction of d digits as text costs O(d^2); this check costs
    O(outcomes + d) and refuses, with the size, before any of that work."""
    digits = max([decimal_digits(denominator)]
                 + [decimal_digits(x) for f in figures if f is not None for x in (f.numerator, f.denominator)])
    check_digits(outcomes + len(figures), digits, what)
