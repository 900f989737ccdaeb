"""exactodds: exact probabilities of tabletop wargame dice rules.

Every rule step is a transform of an exact discrete distribution
(:class:`Dist`); steps compose into pipelines (:class:`Pipeline`) whose
every stage can be inspected. Answers are exact fractions, never samples.

Layers, each importing only those below it: :mod:`exactodds.core`
(distributions, transforms, pipelines) -> :mod:`exactodds.dice` (dice,
pools, rerolls) -> :mod:`exactodds.rules` (one package per rule set) ->
:mod:`exactodds.render` (tables, HTML, LaTeX, plots, pandas) ->
:mod:`exactodds.commands` (every question as typed data: :func:`ask`,
:class:`Query`) -> interfaces (:mod:`exactodds.cli`, sweeps, validation,
:func:`compare`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .core import Dist, ExactOddsError, InputError, TooLargeError, max_states, state_limit
from .core.lazy import lazy_exports
from .core.present import set_loader


def _load_render() -> None:
    """Import the rendering layer, which installs how a ``Dist`` or a ``Run`` is shown."""
    from . import render  # noqa: F401


set_loader(_load_render)  # called on the first repr, table or plot, not at import

_WHERE = {
    **dict.fromkeys(["Pipeline", "Run", "Step", "chain"], ".core.pipeline"),
    **dict.fromkeys(["Target", "d", "d6", "explode", "keep_highest", "keep_lowest", "pool_counts",
                     "reroll_failed_chance", "reroll_once", "reroll_up_to", "successes",
                     "target_with_reroll"], ".dice"),
    **dict.fromkeys(["ask", "Query"], ".commands"),
    "compare": ".comparison",
}

if TYPE_CHECKING:
    from .commands import Query, ask
    from .comparison import compare
    from .core.pipeline import Pipeline, Run, Step, chain
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

_getattr, __dir__ = lazy_exports(__name__, _WHERE)


def __getattr__(name: str) -> object:
    """The names above, loaded on first use, and ``__version__`` (from the package metadata)."""
    if name == "__version__":
        from importlib.metadata import version

        return version("exactodds")
    return _getattr(name)


__all__ = [
    "Query", "ask", "compare",
    "Dist", "ExactOddsError", "InputError", "Pipeline", "Run", "Step", "TooLargeError", "chain",
    "max_states", "state_limit",
    "Target", "d", "d6", "explode", "keep_highest", "keep_lowest", "pool_counts",
    "reroll_failed_chance", "reroll_once", "reroll_up_to", "successes", "target_with_reroll",
]
