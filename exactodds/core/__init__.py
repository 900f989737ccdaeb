"""The core engine: exact distributions, transforms and pipelines.

Nothing here knows about dice games; the dice layer and the rule systems
build on it. Pipelines are loaded on first use.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .dist import Dist, Kernel
from .errors import ExactOddsError, InputError, TooLargeError
from .lazy import lazy_exports
from .limits import check_size, max_states, state_limit

if TYPE_CHECKING:
    from .pipeline import Pipeline, Run, Step, chain, iterate, repeat

__getattr__, __dir__ = lazy_exports(__name__, dict.fromkeys(["Pipeline", "Run", "Step", "chain", "iterate",
                                                             "repeat"], ".pipeline"))

__all__ = [
    "Dist", "Kernel", "ExactOddsError", "InputError", "TooLargeError",
    "check_size", "max_states", "state_limit",
    "Pipeline", "Run", "Step", "chain", "iterate", "repeat",
]
