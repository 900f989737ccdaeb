"""Whole exchanges in Warhammer 40,000 6th edition: a unit's state flows
from one step into the next.

- **Several weapons in one shooting attack** (:func:`fire`): the firing
  unit's models fire their ranged weapons one weapon group after another
  (a group: the models of one BS carrying one weapon); each group rolls to
  hit, to wound against the majority Toughness of the target's models still
  in play, and allocates closest first (Look Out, Sir, Focus Fire, saves) on
  the target as the previous groups left it. A target wiped out by an
  earlier group takes nothing more.
- **The whole assault** (:func:`assault_kernels`): Overwatch by the charged
  unit with its ranged weapons as snap shots, the charge roll with the
  slowest method among the charger's surviving models, fight rounds by
  Initiative (the charger with +1 Attack in the first), the combat result,
  the loser's morale test and the sweeping advance, then further rounds.

The state of one unit is a :class:`~exactodds.rules.allocation.UnitState`
(wounds left per model); the state of an exchange between two units is an
:class:`Engagement` (both units and how the assault stands). The steps are
Markov kernels on these states, memoised per distinct state, so the cost of
a step is (distinct states before it) x (the cost of one single-state step),
equal states merged after each step.

The pieces live in :mod:`.firing` (weapon groups, several weapons, Gets Hot),
:mod:`.engagement` (the assault's kernels) and :mod:`.steps` (the scenario
steps); this module gathers their public names.
"""

from .engagement import (
    CHARGE, MAX_ROUNDS, OVERWATCH, assault, assault_kernels, assault_steps, charge_kernel, check_assault, overwatch_kernel,
)
from .fight_rounds import (
    CHARGE_FAILED, FALLS_BACK, LOCKED, READY, SWEPT, Engagement, fight_round, p_caught, sweep_initiative, sweeping_advance,
)
from .firing import (
    Group, Sides, alive_per_line, attack_kernel, can_shoot, cleared, fire, fire_both, fire_both_pipeline,
    fire_pipeline, gets_hot_unit, group_attack, settled, weapon_groups, weapon_order,
)
from .steps import CHARGING, Assault, Fight, MoraleCheck, Shoot

__all__ = [
    "CHARGE", "CHARGE_FAILED", "FALLS_BACK", "LOCKED", "MAX_ROUNDS", "OVERWATCH", "READY", "SWEPT", "Engagement",
    "assault", "assault_kernels", "assault_steps", "charge_kernel", "check_assault", "fight_round",
    "overwatch_kernel", "p_caught", "sweep_initiative", "sweeping_advance",
    "Group", "Sides", "alive_per_line", "attack_kernel", "can_shoot", "cleared", "fire", "fire_both",
    "fire_both_pipeline", "fire_pipeline", "gets_hot_unit", "group_attack", "settled", "weapon_groups",
    "weapon_order",
    "CHARGING", "Assault", "Fight", "MoraleCheck", "Shoot",
]
