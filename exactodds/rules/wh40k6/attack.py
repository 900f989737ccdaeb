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

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from ...core import Dist, Pipeline, Run
from ...core.params import ParamError, literal
from ..allocation import UnitState
from .gets_hot import Firer, gets_hot, shoot_firers, volley_removed
from .casualties import start_state
from .firing import (
    PINNING, Pinning, Sides, fire_both_pipeline, fire_pipeline, gets_hot_unit, pinning_labels, track_pinning,
)
from .morale import check_after_shooting, leadership_in_play, p_pinned
from .inputs import Firing, OverwatchAttack, Shooting, ShootingAttack, UnitFire, Volley
from .shooting import HITS, UNSAVED, WOUNDS, hits, overwatch_attack, shoot, stage_counts
from .units import Unit
from .vehicles import DAMAGE, EXPLODES, Vehicle, result_of, shoot_vehicle

FIRING_LOST, JOINT = "firing models lost", "casualties and firing models lost"
MORALE = "casualties and status"
"""The stage of an attack with the morale check after it (``morale``): the target's
casualties and status (:class:`~.morale.CasualtiesAndStatus`)."""


class CasualtiesAndLost(NamedTuple):
    """A shooting attack whose weapon Gets Hot: the target's casualties and the
    firing models removed."""

    casualties: int
    firing_models_lost: int


class FireEnd(NamedTuple):
    """A unit's shooting attack whose weapons Get Hot: the target's casualties and
    the firing unit's models removed."""

    casualties: int
    attacker_lost: int


@dataclass(frozen=True)
class Attacked:
    """What one attack did: ``final`` (hits; casualties; a vehicle's
    :class:`~.vehicles.VehicleResult`; a unit's :class:`FireEnd`), its named
    ``stages`` (none for plain hits) and ``extras``, the figures worth reporting
    (means, chances of the firing models' own losses...). ``vehicle`` is the
    target when it is one; ``facts`` what the rules decided that a record of the
    question shows (the facing hit and its armour, the weapon groups fired);
    ``mean`` the mean to report when ``final`` is not a number."""

    final: Dist
    stages: dict[str, Dist] = field(default_factory=dict)
    extras: dict[str, Any] = field(default_factory=dict)
    vehicle: Vehicle | None = None
    facts: dict[str, Any] = field(default_factory=dict)
    mean: Fraction | None = None


def firers(volley: Volley) -> list[Firer]:
    """The anonymous firing models of a volley whose weapon Gets Hot, one per model."""
    one = Firer(volley.wounds_each(), volley.firer_save, volley.firer_invulnerable, volley.firer_feel_no_pain)
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
    if a.morale and (isinstance(target, Vehicle) or gets_hot(attack)):
        raise ParamError("{morale} " + literal("applies to units of models: a vehicle takes no morale check"
                                               if isinstance(target, Vehicle) else
                                               "with gets-hot is not modelled: ask without one of them"))
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
    if PINNING in attack.rules and not overwatch:  # Overwatch causes no pinning test
        leadership_in_play(target, start_state(target), "a pinning test")  # refuse a unit with no Leadership
        extras["p_pinned"] = p_pinned(target, run[UNSAVED].map(lambda s: (s, s.unsaved > 0)))
    if gets_hot(attack):
        lost = joint.map(lambda x: x[1])
        extras.update(losses_extras(lost))
        stages[FIRING_LOST] = lost
        stages[JOINT] = joint.map(lambda x: CasualtiesAndLost(*x))
    if a.morale:
        _morale(target, run[UNSAVED], stages, extras)
    return Attacked(run.final, stages, extras)


def _morale(target: Unit, states: Dist, stages: dict[str, Dist], extras: dict[str, Any]) -> None:
    """Add the morale check after the attack (from the target's ``states`` after it):
    the stage :data:`MORALE` and P(falls back). O(states x (models + 36))."""
    stages[MORALE] = joint = check_after_shooting(target, states)
    extras["p_falls_back"] = joint.prob(lambda x: x.status == "falling back")


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
    facing = a.facing_hit()
    run = shoot_vehicle(attack, vehicle, facing)
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
    return Attacked(result, stages, extras, vehicle, {"facing": facing, "armour": vehicle.armour(facing)})


def unit_fire(f: UnitFire, attacker: Unit, target: Unit) -> Attacked:
    """Every ranged weapon of ``attacker`` at ``target``, group by group, each on the
    target as the previous groups left it; with weapons that Get Hot, the joint
    (casualties, firing models removed) (:class:`FireEnd`). Its facts: the weapon
    ``groups`` in the order fired. Cost: :func:`~.firing.fire_pipeline` (or
    :func:`~.firing.fire_both_pipeline`)."""
    turn = (f.order, f.focus_fire, f.snap, f.moved, f.range, f.distance)
    pins = pinning_labels(attacker)
    if f.morale and gets_hot_unit(attacker):
        raise ParamError("{morale} " + literal("with weapons that get hot is not modelled: ask without it"))
    if gets_hot_unit(attacker):
        a0, t0 = start_state(attacker), start_state(target)
        pipe = fire_both_pipeline(attacker, target, a0, *turn, casualties_only=True)
        run, pinned = _run_pinning(pipe, Sides(t0, a0), target, pins, lambda s: s.target)
        ends = {name: d.map(lambda s: FireEnd(s.target.casualties(), s.firer.casualties() - a0.casualties()))
                for name, d in run.stages.items()}
        end = ends[pipe.names[-1]] if pipe.names else Dist.constant(FireEnd(0, 0))
        target_lost = end.map(lambda x: x.casualties)
        hot: dict[str, Any] = {"p_unit_destroyed": target_lost.pmf(target.size),
                               "mean_casualties_after": {name: ends[name].map(lambda x: x.casualties).mean()
                                                         for name in pipe.names},
                               "p_attacker_lost": end.prob(lambda x: x.attacker_lost > 0),
                               "mean_attacker_lost": end.map(lambda x: x.attacker_lost).mean()}
        if pinned is not None:
            hot["p_pinned"] = pinned
        return Attacked(end, ends, hot, facts={"groups": pipe.names}, mean=target_lost.mean())
    pipe = fire_pipeline(attacker, target, None, *turn)
    run, pinned = _run_pinning(pipe, start_state(target), target, pins, lambda s: s)
    stages = {name: d.map(lambda s: s.casualties()) for name, d in run.stages.items()}
    casualties = stages[pipe.names[-1]] if pipe.names else Dist.constant(0)
    extras: dict[str, Any] = {"p_unit_destroyed": casualties.pmf(target.size),
                              "mean_casualties_after": {name: stages[name].mean() for name in pipe.names}}
    if pinned is not None:
        extras["p_pinned"] = pinned
    if f.morale:
        _morale(target, run.final, stages, extras)
    return Attacked(casualties, stages, extras, facts={"groups": pipe.names})



def _run_pinning(pipe: Pipeline, start: Any, target: Unit, pins: set[str],
                 target_of: Callable[[Any], UnitState]) -> tuple[Run, Fraction | None]:
    """Run ``pipe`` from ``start``; with weapon groups that have Pinning (``pins``,
    their labels), also P(the target is pinned) (None without them). Cost:
    :func:`~.firing.track_pinning`."""
    if not pins:
        return pipe.run(start), None
    leadership_in_play(target, start_state(target), "a pinning test")  # refuse a unit with no Leadership
    tracked = track_pinning(pipe, pins, lambda s: target_of(s).unsaved).run(Pinning(start))
    run = Run(tracked.final.map(lambda p: p.state), {name: d.map(lambda p: p.state) for name, d in
                                                      tracked.stages.items()})
    pinned = p_pinned(target, tracked.final.map(lambda p: (target_of(p.state), p.wounded)))
    return run, pinned
