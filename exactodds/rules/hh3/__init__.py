"""Horus Heresy 3rd edition: the whole shooting attack, from fire groups to panic.

- :mod:`.tables`: the ranged hit table (normal and snap-shot rows), the
  vehicle damage table, cover saves, as data.
- :mod:`.hits`: hit rolls with Critical Hits (a 3-category multinomial).
- :mod:`.wounds`: wound rolls (the S vs T chart shared with 40K 6th edition).
- :mod:`.vehicles`: armour penetration, glancing statuses, Hull Points.
- :mod:`.reactions`: Shield, Smoke screen, Medic.
- :mod:`.after`: panic, Routed, the Cool test.
- :mod:`.attack`: eligibility, fire groups, saves and mitigation, the pipeline.
- :mod:`.inputs`: the typed inputs of the hit, wound and penetration steps.
- :mod:`.units`: the data classes of units, weapons and conditions.
- :mod:`.exchange`: return fire (an attack and the target's answer with
  every model it had at the start) and attacks in sequence, as scenario steps;
  the typed input of an exchange (:class:`.exchange.ExchangeOfFire`).

Quick use::

    from exactodds.rules.hh3 import shoot
    result = shoot(attacker, target)        # an AttackRun
    result.casualties(), result.panic(), result.routed()
    result.group("lascannon")["hits"]       # one fire group's stage
"""

from .after import Aftermath
from .attack import AttackRun, ShootingAttack, TargetState, fire_groups, shoot
from .exchange import ExchangeOfFire
from .hits import HitRoll, hit_rolls
from .inputs import HitRolls, PenetrationTests, WoundRolls
from .units import (
    Armour,
    AttackingUnit,
    Conditions,
    FireGroup,
    FiringModels,
    ShootingUnit,
    TargetModels,
    TargetUnit,
    Weapon,
)
from .vehicles import Penetration, VehicleHits, penetration_rolls
from .wounds import WoundRoll, wound_rolls

__all__ = [
    "Aftermath", "AttackRun", "ShootingAttack", "TargetState", "fire_groups", "shoot",
    "HitRoll", "hit_rolls", "Armour", "AttackingUnit", "Conditions", "FireGroup", "FiringModels",
    "ShootingUnit", "TargetModels", "TargetUnit", "Weapon", "Penetration", "VehicleHits", "penetration_rolls",
    "WoundRoll", "wound_rolls", "HitRolls", "PenetrationTests", "WoundRolls", "ExchangeOfFire",
]
