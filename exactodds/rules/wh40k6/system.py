"""The ``40k6`` rule system (Warhammer 40,000 6th edition): its commands, unit
files, scenario steps, start state and the bound on a scenario's work."""

from __future__ import annotations

import math
from typing import Any

from ..allocation import UnitState
from ..systems import RuleSystem, StepKind, register
from .casualties import start_state
from .firing import gets_hot_unit
from .phases import mark_phases
from .steps import SYSTEM as NAME, Assault, Fight, MoraleCheck, Regroup, Shoot
from .units import Unit
from .vehicle_assault import refuse_vehicle
from .vehicles import STATUSES, Vehicle


def start(unit: Unit | Vehicle) -> tuple[UnitState, str]:
    """A unit when a scenario starts: each model at its ``wounds_left`` (or full),
    no status; a vehicle: its Hull Points left as one model's wounds. O(models)."""
    if isinstance(unit, Vehicle):
        return UnitState((unit.hull_points if unit.hull_left is None else unit.hull_left,)), ""
    return start_state(unit), ""


def unit_states(unit: Unit | Vehicle) -> int:
    """A bound on one unit's distinct states in a scenario: its total wounds + 1
    (a vehicle: its Hull Points x its sets of damage results, + wrecked and explodes)."""
    if isinstance(unit, Vehicle):
        return unit.hull_points * 2 ** len(STATUSES) + 2
    return sum(m.wounds * m.count for m in unit.models) + 1


def check_vehicles(sc: Any) -> None:
    """Refuse a vehicle anywhere but as the defender of an assault step. O(steps)."""
    for step in sc.steps:
        for name in step.units_named():
            if not (isinstance(step, Assault) and name == step.defender):
                refuse_vehicle(sc.units[name], name)


def hurt_units(sc: Any) -> set[str]:
    """The units some step can take wounds from: the target of a shooting step
    (and its firer when its weapons get hot), both units of an assault or a
    fight; a morale test or a regroup takes none. A step of another kind counts
    every unit it names. O(steps)."""
    out: set[str] = set()
    for step in sc.steps:
        if isinstance(step, Shoot):
            out.add(step.target)
            if gets_hot_unit(sc.units[step.unit]):
                out.add(step.unit)
        elif not isinstance(step, (MoraleCheck, Regroup)):
            out.update(step.units_named())
    return out


def scenario_work(sc: Any) -> int:
    """A bound on a scenario's work: the joint states (the product of
    :func:`unit_states` over the units a step can wound, :func:`hurt_units`:
    a unit never wounded keeps its one state) x the sum of the steps'
    branching (their outcomes from one world) x the turns; plus, for each step
    whose work from one world is more than its outcomes (a shooting attack
    with weapons that get hot: ``work``), the worlds before it (at most the
    joint states, and the product of the earlier steps' branching) x that
    work. O(turns x steps)."""
    check_vehicles(sc)
    joint = 1
    hurt = hurt_units(sc)
    for name, u in sc.units.items():
        if name in hurt:
            joint *= unit_states(u)
    branching = [s.branching(sc.units) for s in sc.steps]
    each = [s.work(sc.units) if hasattr(s, "work") else 0 for s in sc.steps]
    extra, worlds, most = 0, 1, 1
    for u in sc.units.values():  # a unit whose weapons get hot: wounds per model, not in all
        most *= math.prod(math.comb(m.count + m.wounds, m.wounds) for m in u.models) \
            if not isinstance(u, Vehicle) and gets_hot_unit(u) else unit_states(u)
    for _ in range(sc.turns if any(each) else 0):
        for b, w in zip(branching, each):
            extra += worlds * w
            worlds = min(most, worlds * b)
    return joint * sum(branching) * sc.turns + extra


SYSTEM = register(RuleSystem(
    NAME, "Warhammer 40,000 6th edition", commands="wh40k6", profiles="wh40k6_scenario",
    steps={
        "shoot": StepKind("shoot", Shoot, "a unit fires its ranged weapons at another"),
        "assault": StepKind("assault", Assault, "Overwatch, the charge, rounds of combat"),
        "fight": StepKind("fight", Fight, "locked units fight rounds"),
        "morale": StepKind("morale", MoraleCheck, "a morale test; failed, the unit falls back"),
        "regroup": StepKind("regroup", Regroup, "a unit falling back tries to regroup"),
    },
    start=start, work=scenario_work, prepare=mark_phases,
))
