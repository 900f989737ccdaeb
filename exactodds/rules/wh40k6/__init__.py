"""Warhammer 40,000 6th edition: shooting, casualties (closest
first, Look Out Sir, Focus Fire), Overwatch, charge, fight and morale.

Modules by concept: :mod:`.inputs` (each rule step's typed input),
:mod:`.attack` (one shooting attack from its input, whatever the path),
:mod:`.tables` (BS and WS tables as data),
:mod:`.units` (models, units, attacks), :mod:`.shooting` (hits, wounds,
saves, the shooting pipeline, Overwatch), :mod:`.casualties` (who takes each
wound), :mod:`.assault` (the charge roll), :mod:`.melee` (close-combat
weapons), :mod:`.strike_options` (the ways each model line may strike),
:mod:`.blows` (one side's blows in a fight round: weapon choice,
Hammer of Wrath, Concussive), :mod:`.chain_tables` (blows along a chain of
target states as integer tables), :mod:`.fight` (the fight sub-phase),
:mod:`.fight_rounds` (rounds of an engagement: blows, combat result, morale,
sweeping advance), :mod:`.engagement` (the whole assault: Overwatch, the
charge, the rounds), :mod:`.morale` (morale tests), :mod:`.vehicle_assault`
(a charged vehicle).
"""

from .attack import Attacked, hit_attack, shooting_attack, unit_fire
from .assault import CHARGE_ROLLS, charge_roll, p_charge, slowest, unit_charge_roll
from .casualties import alloc_models, instant_death_damage, majority_toughness, majority_ws, recipient
from .fight import CombatResult, FightEnd, FightResult, FightState, Survivors, fight, fight_pipeline
from .morale import morale_test, p_pass
from .shooting import STAGES, hit_chance, hits, overwatch, shoot, shooting_pipeline, stage_counts
from .tables import BS_TABLE, WS_TABLE, bs_hit_chance, ws_target
from ..common import majority
from .inputs import (WEAPON_TYPES, Assaulting, Charging, Fighting, Firing, MoraleTest, OverwatchAttack, Shooting,
                     ShootingAttack, UnitFire, Volley, Wounding)
from .units import Melee, Model, Unit

__all__ = [
    "CHARGE_ROLLS", "charge_roll", "p_charge", "slowest", "unit_charge_roll",
    "alloc_models", "instant_death_damage", "majority_toughness", "majority_ws", "recipient",
    "CombatResult", "FightEnd", "FightResult", "FightState", "Survivors", "fight", "fight_pipeline",
    "morale_test", "p_pass",
    "STAGES", "hit_chance", "hits", "overwatch", "shoot", "shooting_pipeline", "stage_counts",
    "BS_TABLE", "WS_TABLE", "bs_hit_chance", "ws_target",
    "WEAPON_TYPES", "Melee", "Model", "Shooting", "Unit", "majority",
    "Assaulting", "Charging", "Fighting", "Firing", "MoraleTest", "OverwatchAttack", "ShootingAttack", "UnitFire",
    "Volley", "Wounding", "Attacked", "hit_attack", "shooting_attack", "unit_fire",
]
