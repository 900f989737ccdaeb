"""Horus Heresy 3rd edition: the inputs of the single rule steps (hit rolls, wound
rolls, armour penetration tests), each one typed class whose fields carry their
kind, bounds, default and help, and whose :meth:`run` gives the step's exact
distribution. A whole shooting attack's input is
:class:`~exactodds.rules.hh3.units.Conditions` (with the two units).
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Dist
from ...core.kinds import Count, Flag
from ...core.params import Params, param
from .hits import hit_rolls
from .vehicles import penetration_rolls
from .wounds import wound_rolls_of

STRENGTH = Count(1, 10, "a Strength")


@dataclass(frozen=True, kw_only=True)
class HitRolls(Params):
    """A fire group's hit rolls (step 6)."""

    shots: int = param(Count(0, what="a number of shots"), "Hit rolls (sum of Firepower).")
    bs: int = param(Count(1, what="a Ballistic Skill"),
                    "Ballistic Skill 1 or more (10+ reads the last column: every shot a Critical Hit).")
    snap: bool = param(Flag(), "Snap shots (the snap-shot row: never Critical Hits).", False)
    reroll_failed: bool = param(Flag(), "Reroll every failed hit roll once (the second roll stands).", False)

    def run(self) -> Dist:
        """The exact (hits, crits): :func:`~exactodds.rules.hh3.hits.hit_rolls`, O(shots^2)."""
        return hit_rolls(self.shots, self.bs, self.snap, self.reroll_failed)


@dataclass(frozen=True, kw_only=True)
class WoundRolls(Params):
    """Wound rolls of ordinary hits (step 7)."""

    strength: int = param(STRENGTH, "Weapon Strength 1-10.")
    toughness: int = param(Count(1, 10, "a Toughness"), "Target Toughness 1-10.")
    hits: int = param(Count(0, what="a number of hits"),
                      "Ordinary hits rolling to wound (Critical Hits wound automatically).", 1)
    reroll_failed: bool = param(Flag(), "Reroll every failed wound roll once (the second roll stands).", False)

    def run(self) -> Dist:
        """The exact number of wounds: a binomial, O(hits)."""
        return wound_rolls_of(self.hits, self.strength, self.toughness, self.reroll_failed)


@dataclass(frozen=True, kw_only=True)
class PenetrationTests(Params):
    """Armour penetration tests (a vehicle target, step 7)."""

    strength: int = param(STRENGTH, "Weapon Strength 1-10.")
    armour: int = param(Count(1, 20, "an Armour Value"), "Armour Value of the facing hit.")
    hits: int = param(Count(0, what="a number of hits"), "Hits testing armour penetration.", 1)

    def run(self) -> Dist:
        """The exact (glancing, penetrating), O(hits^2)."""
        return penetration_rolls(self.hits, self.strength, self.armour)
