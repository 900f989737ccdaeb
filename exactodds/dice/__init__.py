"""Dice, pools and rerolls, built on the core engine."""

from .attributes import FaceClasses, attribute_count_split, attribute_count_table, attribute_counts
from .budget import BudgetState, RerollChoice, ThresholdPayoff, budget_split, optimal_policy, priority_policy
from .die import Target, classify, d, d6, success
from .pool import compositions_count, keep_highest, keep_lowest, multiset, pool_counts, successes
from .reroll import (
    Roll,
    explode,
    reroll_failed_chance,
    reroll_once,
    reroll_up_to,
    target_with_reroll,
)

__all__ = [
    "Target", "classify", "d", "d6", "success",
    "compositions_count", "keep_highest", "keep_lowest", "multiset", "pool_counts", "successes",
    "Roll", "explode", "reroll_failed_chance", "reroll_once", "reroll_up_to", "target_with_reroll",
    "FaceClasses", "attribute_count_split", "attribute_count_table", "attribute_counts",
    "BudgetState", "RerollChoice", "ThresholdPayoff", "budget_split", "optimal_policy", "priority_policy",
]
