"""exactodds: exact probabilities of tabletop wargame dice rules.

Every rule step is a transform of an exact discrete distribution
(:class:`Dist`); steps compose into pipelines (:class:`Pipeline`) whose
every stage can be inspected. Answers are exact fractions, never samples.

Layers, each importing only those below it: :mod:`exactodds.core`
(distributions, transforms, pipelines) -> :mod:`exactodds.dice` (dice,
pools, rerolls) -> :mod:`exactodds.rules` (one package per rule set) ->
interfaces (:mod:`exactodds.cli`, display, validation).
"""

from .core import (
    Dist,
    ExactOddsError,
    InputError,
    Pipeline,
    Run,
    Step,
    TooLargeError,
    chain,
    max_states,
   
    state_limit,
)
from .dice import (
    Target,
    d,
    d6,
    explode,
    keep_highest,
    keep_lowest,
    pool_counts,
    reroll_failed_chance,
    reroll_once,
    reroll_up_to,
    successes,
    target_with_reroll,
)

__version__ = "0.1.0"

__all__ = [
    "Dist", "ExactOddsError", "InputError", "Pipeline", "Run", "Step", "TooLargeError", "chain",
    "max_states", "state_limit",
    "Target", "d", "d6", "explode", "keep_highest", "keep_lowest", "pool_counts",
    "reroll_failed_chance", "reroll_once", "reroll_up_to", "successes", "target_with_reroll",
]
