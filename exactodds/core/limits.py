"""Bounds on the work a single question may ask for.

The engine estimates the size of a state space before building it and
refuses, with the estimate, when it exceeds :func:`max_states`. The limit is
read from the ``EXACTODDS_MAX_STATES`` environment variable (default
``2_000_000``) and can be changed in-process with :func:`set_max_states` or
temporarily with :func:`state_limit`.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import contextmanager

from .errors import InputError, TooLargeError

DEFAULT_MAX_STATES = 2_000_000
ENV_VAR = "EXACTODDS_MAX_STATES"

_override: int | None = None


def max_states() -> int:
    """The current limit on the number of states (or terms) of one computation."""
    if _override is not None:
        return _override
    raw = os.environ.get(ENV_VAR)
    if raw is None or raw.strip() == "":
        return DEFAULT_MAX_STATES
    try:
        value = int(raw)
    except ValueError:
        raise InputError(
            f"{ENV_VAR}={raw!r} is not a whole number; set it to a positive integer "
            f"(default {DEFAULT_MAX_STATES})"
        ) from None
    if value < 1:
        raise InputError(f"{ENV_VAR}={value} must be a positive integer")
    return value


def set_max_states(value: int | None) -> None:
    """Set the limit for this process (``None`` restores the environment/default)."""
    global _override
    if value is not None and (not isinstance(value, int) or value < 1):
        raise InputError(f"the state limit must be a positive integer, not {value!r}")
    _override = value


@contextmanager
def state_limit(value: int) -> Iterator[None]:
    """Temporarily set the state limit (a context manager)."""
    global _override
    old = _override
    set_max_states(value)
    try:
        yield
    finally:
        _override = old


def check_size(estimate: int, what: str) -> None:
    """Refuse, before doing it, work whose estimated size exceeds the limit."""
    limit = max_states()
    if estimate > limit:
        raise TooLargeError(
            f"{what} would need about {estimate:,} states, over the limit of "
            f"{limit:,}; raise it with the environment variable {ENV_VAR} "
            f"(or --max-states) if you have the memory and time"
        )
