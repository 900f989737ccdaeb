"""Dice, pools and rerolls, built on the core engine.

Names are loaded on first use: ``from exactodds.dice import Target`` imports
only the module that defines it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from ..core.lazy import lazy_exports

_WHERE = {
    **dict.fromkeys(["FaceClasses", "attribute_count_split", "attribute_count_table", "attribute_counts"],
                    ".attributes"),
    **dict.fromkeys(["BudgetState", "RerollChoice", "ThresholdPayoff", "budget_split", "optimal_policy",
                     "priority_policy"], ".budget"),
    **dict.fromkeys(["Target", "classify", "d", "d6", "success"], ".die"),
    **dict.fromkeys(["compositions_count", "keep_highest", "keep_lowest", "multiset", "pool_counts",
                     "successes"], ".pool"),
    **dict.fromkeys(["Roll", "explode", "reroll_failed_chance", "reroll_once", "reroll_up_to",
                     "target_with_reroll"], ".reroll"),
}

if TYPE_CHECKING:
    from .attributes import FaceClasses, attribute_count_split, attribute_count_table, attribute_counts
    from .budget import BudgetState, RerollChoice, ThresholdPayoff, budget_split, optimal_policy, priority_policy
    from .die import Target, classify, d, d6, success
    from .pool import compositions_count, keep_highest, keep_lowest, multiset, pool_counts, successes
    from .reroll import Roll, explode, reroll_failed_chance, reroll_once, reroll_up_to, target_with_reroll

__getattr__, __dir__ = lazy_exports(__name__, _WHERE)

__all__ = [
    "Target", "classify", "d", "d6", "success",
    "compositions_count", "keep_highest", "keep_lowest", "multiset", "pool_counts", "successes",
    "Roll", "explode", "reroll_failed_chance", "reroll_once", "reroll_up_to", "target_with_reroll",
    "FaceClasses", "attribute_count_split", "attribute_count_table", "attribute_counts",
    "BudgetState", "RerollChoice", "ThresholdPayoff", "budget_split", "optimal_policy", "priority_policy",
]
