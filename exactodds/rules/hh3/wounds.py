"""Horus Heresy 3rd edition, step 7: wound rolls.

Each hit becomes a wound roll, the weapon's Strength against the target's
Toughness; a "-" in the chart means no wound is possible (original: "Chaque
touche est ensuite convertie en un jet de blessure, en croisant la force de
l'arme avec l'endurance de la cible [...]. Un « − » signifie que la blessure
est impossible."). The S vs T chart is shared with 40K 6th edition
(:data:`exactodds.rules.common.WOUND_CHART`). A Critical Hit wounds
automatically (no wound roll; it counts as a 6 for rules that look at the
wound roll) and has +1 Damage (the 3rd-edition rulebook's Critical Hit rule).
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ...core import Dist
from ...dice import successes
from ..common import majority, wound_target
from .hits import HitRoll
from .tables import MAX_CHARACTERISTIC


class WoundRoll(NamedTuple):
    """Wounds of a fire group: ``crit_wounds`` from Critical Hits (automatic,
    +1 Damage) and ``wounds`` from the other hits (rolled on the chart)."""

    crit_wounds: int
    wounds: int


def toughness_for_wounds(toughness: Sequence[int], shield: bool = False) -> int:
    """The Toughness the wound rolls use: the majority Toughness of the models
    in play (ties: the highest), +1 with the Shield reaction, capped at 10.

    The rules roll wounds before a target model is chosen (step 7 before step
    8), so they read one Toughness for the unit; for a unit of mixed
    Toughness we take the majority value, as in 6th edition. O(models).
    """
    value = majority(toughness)
    return min(value + 1, MAX_CHARACTERISTIC) if shield else value


def wound_chance(strength: int, toughness: int, reroll_failed: bool = False) -> Fraction:
    """P(one wound roll wounds): p on the chart, p + (1 - p) p when a failed
    roll is rerolled once (a "-" stays impossible). O(1)."""
    p = wound_target(strength, toughness).chance()
    return p + (1 - p) * p if reroll_failed else p


@lru_cache(maxsize=1024)
def wound_rolls_of(hits: int, strength: int, toughness: int, reroll_failed: bool = False) -> Dist:
    """Wounds among ``hits`` ordinary hits: Binomial(hits, P(wound)). O(hits), cached."""
    return successes(hits, wound_chance(strength, toughness, reroll_failed))


@lru_cache(maxsize=4096)
def wound_rolls(hit: HitRoll, strength: int, toughness: int, reroll_failed: bool = False) -> Dist:
    """(crit_wounds, wounds) for one fire group's (hits, crits): each Critical
    Hit wounds automatically, every other hit rolls on the S vs T chart
    (failed rolls rerolled once when ``reroll_failed``).
    O(hits) (a binomial), cached per (hits, crits, S, T, reroll)."""
    return wound_rolls_of(hit.hits - hit.crits, strength, toughness, reroll_failed).map(
        lambda w: WoundRoll(hit.crits, w))

