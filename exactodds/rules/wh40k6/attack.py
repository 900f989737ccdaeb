"""One shooting attack from its rule input, whatever the path: hits alone, a
unit of models or a vehicle as the target, a weapon that Gets Hot or not,
Overwatch or not.

:func:`hit_attack` and :func:`shooting_attack` take the typed inputs of
:mod:`.inputs` and return an :class:`Attacked`: the named stages (counts),
the figures worth reporting beside them, and the final distribution. The
commands only choose what to show.

Cost: that of the path taken (:func:`~.shooting.shooting_pipeline`,
:func:`~.vehicles.vehicle_pipeline`, :func:`~.gets_hot.volley_removed` and
:func:`~.gets_hot.shoot_firers`).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any, NamedTuple

from ...core import Dist
from ...core.params import ParamError, literal
from .gets_hot import Firer, gets_hot, shoot_firers, volley_removed
from .inputs import Firing, OverwatchAttack, Shooting, ShootingAttack, Volley
from .shooting import HITS, WOUNDS, hits, overwatch_attack, shoot, stage_counts
from .units import Unit
from .vehicles import DAMAGE, EXPLODES, Vehicle, result_of, shoot_vehicle

FIRING_LOST, JOINT = "firing models lost", "casualties and firing models lost"


class CasualtiesAndLost(NamedTuple):
    """A shooting attack whose weapon Gets Hot: the target's casualties and the
    firing models removed."""

    casualties: int
    firing_models_lost: int


@dataclass(frozen=True)
class Attacked:
    """What one attack did: ``final`` (hits; casualties; a vehicle's
    :class:`~.vehicles.VehicleResult`), its named ``stages`` (none for plain
    hits) and ``extras``, the figures worth reporting (means, chances of the
    firing models' own losses...). ``vehicle`` is the target when it is one."""

    final: Dist
    stages: dict[str, Dist] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    vehicle: Vehicle | None = None


def firers(volley: Volley) -> list[Firer]:
    """The anonymous firing models of a volley whose weapon Gets Hot, one per model."""
    one = Firer(volley.firer_wounds or 1, volley.firer_save, volley.firer_invulnerable, volley.firer_feel_no_pain)
    return [one] * volley.firing_models()


def losses_extras(lost: Dist) -> dict[str, Any]:
    """The figures of the firing models' own losses: P(at least one removed), the
    distribution and mean of models removed."""
    return {"p_firing_model_lost": lost.at_least(1), "firing_models_lost": dict(lost.items()),
            "mean_firing_models_lost": lost.mean()}


def hit_attack(volley: Volley) -> Attacked:
    """The hits of one volley; with Gets Hot, the firing models removed too."""
    attack = volley.part(Firing)
    if not gets_hot(attack):
        return Attacked(hits(attack))
    joint = volley_removed(attack, firers(volley))
    got, lost = joint.map(lambda x: x[0]), joint.map(lambda x: x[1])
    return Attacked(got, {HITS: got, FIRING_LOST: lost}, losses_extras(lost))


def shooting_attack(a: ShootingAttack, target: Unit | Vehicle) -> Attacked:
    """One shooting attack (Overwatch for an :class:`~.inputs.OverwatchAttack`) at a
    unit of models or a vehicle. The stages of an attack at a unit are counts:
    hits, wounds, unsaved wounds, casualties; with Gets Hot, the firing models
    lost and the joint (casualties, firing models lost)."""
    overwatch = isinstance(a, OverwatchAttack)
    attack = a.part(Shooting)
    if isinstance(target, Vehicle):
        return _at_vehicle(a, attack, target)
    if a.facing is not None:
        raise ParamError("{facing} applies to vehicles; " + literal(f"{target.name!r} has no armour facings"))
    if gets_hot(attack):
        run, joint = shoot_firers(attack, target, firers(a), a.focus_fire, overwatch)
    else:
        run = shoot(overwatch_attack(attack) if overwatch else attack, target, a.focus_fire)
    stages = stage_counts(run)
    extras: dict[str, Any] = {"mean_hits": stages[HITS].mean(), "mean_wounds": stages[WOUNDS].mean()}
    if gets_hot(attack):
        lost = joint.map(lambda x: x[1])
        extras.update(losses_extras(lost))
        stages[FIRING_LOST] = lost
        stages[JOINT] = joint.map(lambda x: CasualtiesAndLost(*x))
    return Attacked(run.final, stages, extras)


def _at_vehicle(a: ShootingAttack, attack: Shooting, vehicle: Vehicle) -> Attacked:
    """A shooting attack at a vehicle (Overwatch: ``attack`` fires snap shots
    already): the joint (Hull Points left, status set); with Gets Hot, the firing
    models' losses, which do not depend on the target (their marginal)."""
    if a.focus_fire is not None:
        raise ParamError("{focus_fire} applies to units of models, not to a vehicle")
    if gets_hot(attack) and attack.weapon_type != "normal":
        raise ParamError("{rules} gets-hot with a " + literal(attack.weapon_type) + " weapon at a vehicle is not "
                         "modelled (a template or marker that gets hot is not fired): use a unit of models as "
                         "the target, or a weapon that rolls to hit")
    run = shoot_vehicle(attack, vehicle, a.facing_hit())
    final = run.final
    start = vehicle.hull_points if vehicle.hull_left is None else vehicle.hull_left
    extras: dict[str, Any] = {
        "p_wrecked_or_exploded": final.map(lambda s: s.destroyed()).pmf(True),
        "p_explodes": final.map(lambda s: s.fate == EXPLODES).pmf(True),
        "mean_hits": run[HITS].mean(),
        "mean_hull_points_lost": final.map(lambda s: start - s.hull_points).mean()}
    result = final.map(result_of)
    stages = {HITS: run[HITS], DAMAGE: result}
    if gets_hot(attack):
        lost = volley_removed(attack, firers(a)).map(lambda x: x[1])
        extras.update(losses_extras(lost))
        stages[FIRING_LOST] = lost
    return Attacked(result, stages, extras, vehicle)

