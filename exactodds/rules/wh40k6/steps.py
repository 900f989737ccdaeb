"""The steps of a Warhammer 40,000 6th edition scenario: shoot, assault, fight
and morale, as pipeline steps on worlds (:class:`~exactodds.rules.scenario.World`).

A step's cost is (distinct worlds before it) x (its cost from one world):
each step memoises its kernel per distinct state of the units it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import ClassVar

from ...core import Dist, InputError, Kernel, Pipeline, Step
from ..scenario import World
from .engagement import FALLS_BACK, LOCKED, SWEPT, Engagement, assault_kernels, check_assault, fight_round
from .firing import (
    alive_per_line, can_shoot, cleared, fire_both, fire_pipeline, gets_hot_unit, weapon_groups, weapon_order,
)
from .units import Unit

# --------------------------------------------------------------------------- steps of a scenario
# Each spec builds pipeline steps on worlds (:class:`~exactodds.rules.scenario.World`):
# one state and one status per unit. A world's unsaved-wound counters are 0
# between steps; statuses: "" (nothing), "locked", "charging" (locked, its
# charge just made: the first round gives +1 Attack), "charge failed" (until
# the end of the turn), "falling back", "swept".

SYSTEM = "40k6"
CHARGING = "charging"


def _engagement(w: World, a: int, d: int) -> Engagement:
    sa = w.statuses[a]
    return Engagement(w.units[a], w.units[d], LOCKED if sa == CHARGING else sa, w.statuses[d], sa == CHARGING)


def _write(w: World, a: int, d: int, e: Engagement) -> World:
    units, statuses = list(w.units), list(w.statuses)
    units[a], units[d] = cleared(e.attacker), cleared(e.defender)
    statuses[a], statuses[d] = CHARGING if e.just_charged else e.attacker_status, e.defender_status
    return World(tuple(units), tuple(statuses))


def _on_worlds(kernel: Kernel, a: int, d: int) -> Callable[[Dist], Dist]:
    """``kernel`` on engagements as a step on worlds (units ``a`` and ``d``):
    each world's engagement through the kernel, each outcome written back
    into that world. O(sum of the kernel's answers)."""
    return lambda dist: dist.then(lambda w: kernel(_engagement(w, a, d)), lambda w, e: _write(w, a, d, e))


def _unit(units: Mapping[str, Unit], name: str) -> Unit:
    return units[name]


def _attacks(u: Unit) -> int:
    """A bound on the blows a unit strikes in one round: (its models' most
    attacks + 2) per model. O(model lines)."""
    return sum(((m.melee.most_attacks() if m.melee else 0) + 2) * m.count for m in u.models)


class _Combat:
    """What an assault and a fight step share: two units and rounds of combat."""

    attacker: str
    defender: str
    rounds: int

    def units_named(self) -> list[str]:
        return [self.attacker, self.defender]

    def branching(self, units: Mapping[str, Unit]) -> int:
        """A bound on the step's outcomes from one world: rounds x (the most
        blows of either side + 1)."""
        return self.rounds * (max(_attacks(units[self.attacker]), _attacks(units[self.defender])) + 1)


@dataclass(frozen=True)
class Shoot:
    """``unit`` fires all its ranged weapons at ``target``, group by group.

    A unit locked in combat neither shoots nor is shot at; a unit falling back
    fires snap shots; a destroyed unit does nothing. Weapons that Get Hot cost
    their firing models wounds (:func:`fire_both_pipeline`)."""

    unit: str
    target: str
    order: tuple[str, ...] | None = None
    focus_fire: int | str | None = None
    snap: bool = False
    moved: bool = False
    range: str | None = None
    distance: Fraction | None = None
    name: str = ""
    kind: str = "shoot"
    system: ClassVar[str] = SYSTEM

    def units_named(self) -> list[str]:
        return [self.unit, self.target]

    def branching(self, units: Mapping[str, Unit]) -> int:
        """A bound on the step's outcomes from one world: the firer's most shots
        x 2 + 1."""
        return sum(g.weapon.shots * g.models * 2 for g in weapon_groups(units[self.unit])) + 1

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        firer, target = _unit(units, self.unit), _unit(units, self.target)
        if not can_shoot(firer):
            raise InputError(f"{self.unit} cannot shoot: none of its models has a ranged weapon")
        if self.unit == self.target:
            raise InputError(f"{self.unit} cannot shoot at itself")
        weapon_order(firer, self.order)
        f, t = index[self.unit], index[self.target]
        pipes: dict[tuple, Pipeline] = {}
        memo: dict[tuple, Dist] = {}
        hot = gets_hot_unit(firer)

        def kernel(w: World) -> Dist:
            if (not w.units[f].alive() or not w.units[t].alive()
                    or {w.statuses[f], w.statuses[t]} & {LOCKED, CHARGING}):
                return Dist.constant(w)
            snap = self.snap or w.statuses[f] == FALLS_BACK
            if hot:
                key: tuple = (w.units[f], snap, w.units[t])
                if key not in memo:
                    memo[key] = fire_both(firer, target, w.units[f], w.units[t], self.order, self.focus_fire, snap,
                                          self.moved, self.range, self.distance)
                return memo[key].map(lambda s: w.put(t, s.target).put(f, s.firer))
            alive = alive_per_line(firer, w.units[f])
            key = (alive, snap, w.units[t])
            if key not in memo:
                if (alive, snap) not in pipes:
                    pipes[alive, snap] = fire_pipeline(firer, target, alive, self.order, self.focus_fire, snap,
                                                       self.moved, self.range, self.distance)
                memo[key] = pipes[alive, snap](Dist.constant(w.units[t])).map(lambda s: replace(s, unsaved=0))
            return memo[key].map(lambda s: w.put(t, s))

        return [Step.kernel(self.kind, kernel, f"{self.unit} shoots {self.target}")]


@dataclass(frozen=True)
class Assault(_Combat):
    """``attacker`` charges ``defender`` from ``distance`` inches: Overwatch,
    the charge roll, up to ``rounds`` rounds of combat (see :func:`assault_steps`)."""

    attacker: str
    defender: str
    distance: Fraction | int = 6
    rounds: int = 1
    overwatch: bool = True
    order: tuple[str, ...] | None = None
    name: str = ""
    kind: str = "assault"
    system: ClassVar[str] = SYSTEM

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        if self.attacker == self.defender:
            raise InputError(f"{self.attacker} cannot charge itself")
        a, d = index[self.attacker], index[self.defender]
        kernels = assault_kernels(_unit(units, self.attacker), _unit(units, self.defender), self.distance,
                                  self.rounds, self.overwatch, self.order)
        return [Step(name, _on_worlds(kernel, a, d), doc or kernel.__doc__ or "") for name, kernel, doc in kernels]


@dataclass(frozen=True)
class Fight(_Combat):
    """``attacker`` and ``defender`` are locked in combat and fight ``rounds``
    rounds (``charged``: the attacker charged, +1 Attack in the first)."""

    attacker: str
    defender: str
    charged: bool = False
    rounds: int = 1
    name: str = ""
    kind: str = "fight"
    system: ClassVar[str] = SYSTEM

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        check_assault(0, self.rounds)
        if self.attacker == self.defender:
            raise InputError(f"{self.attacker} cannot fight itself")
        a, d = index[self.attacker], index[self.defender]
        ua, ud = _unit(units, self.attacker), _unit(units, self.defender)
        charging, continuing = fight_round(ua, ud, True), fight_round(ua, ud, False)

        def engage(w: World) -> World:
            if not (w.units[a].alive() and w.units[d].alive()):
                return w
            return w.put(a, w.units[a], CHARGING if self.charged else LOCKED).put(d, w.units[d], LOCKED)

        def round_kernel(e: Engagement) -> Dist:
            return (charging if e.just_charged else continuing)(e)

        steps = [Step.map("engage", engage, "both units locked in combat")]
        for r in range(1, self.rounds + 1):
            steps.append(Step(f"round {r}", _on_worlds(round_kernel, a, d),
                              "blows by Initiative, combat result, morale, sweeping advance"))
        return steps


@dataclass(frozen=True)
class MoraleCheck:
    """``unit`` takes a morale test (2D6 <= its highest Leadership in play +
    ``modifier``, a double 1 passes; Fearless passes, Stubborn ignores a
    negative modifier); failed, it falls back. A destroyed unit does not test."""

    unit: str
    modifier: int = 0
    name: str = ""
    kind: str = "morale"
    system: ClassVar[str] = SYSTEM

    def units_named(self) -> list[str]:
        return [self.unit]

    def branching(self, units: Mapping[str, Unit]) -> int:
        """One outcome per world counted (a test passed or failed keeps the states)."""
        return 1

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        from .morale import FAIL, test_against

        i, unit = index[self.unit], _unit(units, self.unit)
        models = unit.expanded()
        if any(m.melee is None for m in models):
            raise InputError(f"{self.unit}: a morale test needs each model's leadership (the close-combat profile)")

        def kernel(w: World) -> Dist:
            s = w.units[i]
            if not s.alive() or w.statuses[i] in (FALLS_BACK, SWEPT):
                return Dist.constant(w)
            rules = {r for j in s.alive() for r in models[j].rules}
            if "fearless" in rules:
                return Dist.constant(w)
            ld = max(models[j].melee.leadership for j in s.alive())  # type: ignore[union-attr]
            mod = max(0, self.modifier) if "stubborn" in rules else self.modifier
            return test_against(ld + mod).map(lambda r: w.put(i, s, FALLS_BACK) if r == FAIL else w)

        return [Step.kernel(self.kind, kernel, f"{self.unit} tests morale")]
