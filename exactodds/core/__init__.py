"""The core engine: exact distributions, transforms and pipelines.

Nothing here knows about dice games; the dice layer and the rule systems
build on it.
"""

from .dist import Dist, Kernel
from .errors import ExactOddsError, InputError, TooLargeError
from .limits import check_size, max_states, state_limit
from .pipeline import Pipeline, Run, Step, chain, iterate, repeat

__all__ = [
    "Dist", "Kernel", "ExactOddsError", "InputError", "TooLargeError",
    "check_size", "max_states", "state_limit",
    "Pipeline", "Run", "Step", "chain", "iterate", "repeat",
]
