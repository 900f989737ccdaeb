"""Errors raised by exactodds.

Every error a user can provoke is an :class:`ExactOddsError`; the CLI turns
it into one line on standard error and exit status 2. Nothing else should
escape to the user as a traceback.
"""

from __future__ import annotations


class ExactOddsError(ValueError):
    """Base class of every error caused by the caller's input."""


class InputError(ExactOddsError):
    """An argument, profile key or file is not one of the allowed values.

    The message names what was wrong, where, and what is allowed.
    """


class TooLargeError(ExactOddsError):
    """The question would need more work than the configured limit.

    Raised *before* the work starts, with the estimated size in the message.
    """
