"""The ``hh3`` rule system (Horus Heresy 3rd edition): its commands, unit
files, scenario steps, start state, the bound on a scenario's work and the
statuses it reports."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...core import Dist
from ..systems import RuleSystem, StepKind, register
from .exchange import PINNED, ROUTED, SYSTEM as NAME, Exchange, Shoot, start_world_state, statuses_of
from .units import ShootingUnit


def unit_states(unit: Any) -> int:
    """A bound on one unit's distinct states in a scenario: its total wounds + 1,
    times its status sets (no test, passed panic, routed; x 2 with the Cool
    test; x 4 for a vehicle's statuses). 1 for what is not a Horus Heresy unit
    (the steps refuse it)."""
    if not isinstance(unit, ShootingUnit):
        return 1
    t = unit.target
    return (unit.total_wounds() + 1) * 3 * (2 if t.out_of_coherency or t.is_vehicle else 1) * \
        (4 if t.is_vehicle else 1)


def scenario_work(sc: Any) -> int:
    """A bound on a scenario's work, following the worlds step by step: each step
    costs (the worlds before it) x (its branching), and leaves at most that many
    worlds, never more than the joint states (the product of :func:`unit_states`)."""
    joint = 1
    for u in sc.units.values():
        joint *= unit_states(u)
    worlds, work = 1, 0
    for _ in range(sc.turns):
        for s in sc.steps:
            work += worlds * s.branching(sc.units)
            worlds = min(joint, worlds * s.branching(sc.units))
    return work


def status_extras(final: Dist, names: list[str]) -> dict[str, Any]:
    """Horus Heresy statuses: each unit's P(Routed), and P(Pinned) when some unit
    may be Pinned. O(worlds x units)."""

    def p(i: int, status: str) -> Fraction:
        return final.prob(lambda w: status in statuses_of(w.statuses[i]))

    out: dict[str, Any] = {"p_routed": {n: p(i, ROUTED) for i, n in enumerate(names)}}
    pinned = {n: p(i, PINNED) for i, n in enumerate(names)}
    if any(pinned.values()):
        out["p_pinned"] = pinned
    return out


SYSTEM = register(RuleSystem(
    NAME, "Horus Heresy 3rd edition", commands="hh3", profiles="hh3_scenario",
    steps={
        "exchange": StepKind("exchange", Exchange, "an attack and the target's return fire"),
        "shoot": StepKind("shoot", Shoot, "one attack, no return fire"),
    },
    start=start_world_state, work=scenario_work, extras=status_extras,
))
