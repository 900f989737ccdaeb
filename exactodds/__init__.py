"""exactodds: exact probabilities of tabletop wargame dice rules.

Every rule step is a transform of an exact discrete distribution
(:class:`Dist`); steps compose into pipelines (:class:`Pipeline`) whose
every stage can be inspected. Answers are exact fractions, never samples.

Layers, each importing only those below it: :mod:`exactodds.core`
(distributions, transforms, pipelines) -> :mod:`exactodds.dice` (dice,
pools, rerolls) -> :mod:`exactodds.rules` (one package per rule set) ->
:mod:`exactodds.commands` (every question as typed data: :func:`ask`,
:class:`Query`) -> interfaces (:mod:`exactodds.cli`, sweeps, validation).
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


def __getattr__(name: str) -> object:
    """``ask`` and ``Query`` (the commands layer) and ``__version__``, loaded on first use."""
    if name in ("ask", "Query"):
        from . import commands

        return getattr(commands, name)
    if name == "__version__":
        from importlib.metadata import version

        return version("exactodds")
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Query", "ask",
    "Dist", "ExactOddsError", "InputError", "Pipeline", "Run", "Step", "TooLargeError", "chain",
    "max_states", "state_limit",
    "Target", "d", "d6", "explode", "keep_highest", "keep_lowest", "pool_counts",
    "reroll_failed_chance", "reroll_once", "reroll_up_to", "successes", "target_with_reroll",
]
