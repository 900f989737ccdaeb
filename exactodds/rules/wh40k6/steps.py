"""The steps of a Warhammer 40,000 6th edition scenario: shoot, assault, fight
and morale, as pipeline steps on worlds (:class:`~exactodds.rules.scenario.World`).

A step's cost is (distinct worlds before it) x (its cost from one world):
each step memoises its kernel per distinct state of the units it reads.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from operator import attrgetter, itemgetter
from typing import Any, ClassVar

from ...core import Dist, InputError, Kernel, Pipeline, Step
from ..allocation import UnitState
from ..scenario import World
from .assault_worlds import CHARGING, Worlds, on_worlds
from .engagement import assault_kernels, check_assault
from .fight_rounds import FALLS_BACK, LOCKED, SWEPT, Rounds
from .firing import (
    Pinning, Sides, alive_per_line, can_shoot, cleared, fire_both_pipeline, fire_pipeline,
    gets_hot_unit, hot_attack_work, pinning_labels, settled, track_pinning, weapon_groups, weapon_order,
)
from .morale import FAIL, NO_FEAR, leadership_in_play, p_fails_test, rules_in_play, test_against
from .phases import can_test, end_of_phase, note_start
from .shot_worlds import ShotWorlds
from .units import Unit
from .vehicle_assault import refuse_vehicle, vehicle_assault_kernels
from .vehicles import Vehicle

# --------------------------------------------------------------------------- steps of a scenario
# Each spec builds pipeline steps on worlds (:class:`~exactodds.rules.scenario.World`):
# one state and one status per unit. A world's unsaved-wound counters are 0
# between steps; statuses: "" (nothing), "locked", "charging" (locked, its
# charge just made: the first round gives +1 Attack), "charge failed" (until
# the end of the turn), "pinned" (gone to ground, until the end of the turn),
# "falling back", "swept".

SYSTEM = "40k6"
PINNED = "pinned"
"""Gone to ground after failing a pinning test: snap shots, no charge, +1 cover
save (6+ without cover) when shot at; cleared when the next turn starts."""


_STATUSES = attrgetter("statuses")


def _unless_pinned(apply: Callable[[Dist], Dist], a: int) -> Callable[[Dist], Dist]:
    """``apply`` on the worlds where unit ``a`` is not pinned (a pinned unit does
    not charge); the others unchanged. O(worlds), in C when none is pinned."""
    def pinned(w: World) -> bool:
        return w.statuses[a] == PINNED

    status = itemgetter(a)

    def step(dist: Dist) -> Dist:
        if PINNED not in map(status, map(_STATUSES, dist.weights())):
            return apply(dist)
        p = dist.prob(pinned)
        if p == 1:
            return dist
        return Dist.bernoulli(p, True, False).then(
            lambda held: dist.condition(pinned) if held else apply(dist.condition(lambda w: not pinned(w))))
    return step


def _apply(kernel: Kernel, dist: Dist) -> Dist:
    """``kernel`` applied to every world of ``dist``."""
    return dist.then(kernel)


def _unit(units: Mapping[str, Unit], name: str, vehicle: bool = False) -> Unit:
    """The unit ``name``; a vehicle only where ``vehicle`` (an assault's defender)."""
    if not vehicle:
        refuse_vehicle(units[name], name)
    return units[name]


def _attacks(u: Unit) -> int:
    """A bound on the blows a unit strikes in one round: (its models' most
    attacks + 2) per model. O(model lines)."""
    if isinstance(u, Vehicle):
        return 0  # a vehicle does not strike
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


def gone_to_ground(unit: Unit) -> Unit:
    """``unit`` gone to ground: each model's cover save 1 better (6+ without one,
    2+ at best). O(model lines)."""
    return replace(unit, models=tuple(replace(m, cover=6 if m.cover is None else max(2, m.cover - 1))
                                      for m in unit.models))


def _needs_leadership(unit: Unit, why: str) -> None:
    """Refuse a unit some of whose models have no Leadership (no close-combat profile)."""
    if any(m.melee is None for m in unit.models):
        raise InputError(f"{unit.name}: {why} needs each model's leadership (the close-combat profile)")


@dataclass(frozen=True)
class Shoot:
    """``unit`` fires all its ranged weapons at ``target``, group by group.

    A unit locked in combat neither shoots nor is shot at; a unit falling back
    or pinned fires snap shots; a destroyed unit does nothing; a pinned target
    has gone to ground (:func:`gone_to_ground`). Weapons that Get Hot cost
    their firing models wounds (:func:`fire_both_pipeline`). A target with no
    status that suffers an unsaved wound from a weapon with Pinning tests
    Leadership and is pinned on a failure. At the end of a shooting phase
    (:mod:`.phases`), a target that lost 25% or more of the models it had when
    the phase began takes a morale check and falls back on a failure:
    ``morale`` None (the default) tests a target that can (a unit with
    Leadership), True requires it, False turns it off for this step's target
    in its phase. ``phase_tests``: the targets tested at the end of this step
    (set by :func:`.phases.mark_phases`; None: the step is a phase of its own);
    ``ends_phase``: the step ends its phase (tests, and clears the world's marks)."""

    unit: str
    target: str
    order: tuple[str, ...] | None = None
    focus_fire: int | str | None = None
    snap: bool = False
    moved: bool = False
    range: str | None = None
    distance: Fraction | None = None
    name: str = ""
    morale: bool | None = None
    phase_tests: tuple[str, ...] | None = None
    ends_phase: bool = True
    kind: str = "shoot"
    system: ClassVar[str] = SYSTEM

    def units_named(self) -> list[str]:
        return [self.unit, self.target]

    def branching(self, units: Mapping[str, Unit]) -> int:
        """A bound on the step's outcomes from one world: the firer's most shots
        x 2 + 1 (twice with a pinning or morale test)."""
        tests = 2 if self.morale is not False or pinning_labels(units[self.unit]) else 1
        each = [(g.weapon.salvo[1] if g.weapon.salvo else g.weapon.shots, g.models)
                for g in weapon_groups(units[self.unit])]
        return tests * (sum(shots * models * 2 for shots, models in each) + 1)

    def work(self, units: Mapping[str, Unit]) -> int:
        """A bound on the work of the step from one world when the firing unit's weapons
        get hot (each world's attack follows its models' wounds: :func:`hot_attack_work`),
        else 0 (its outcomes bound it, :meth:`branching`)."""
        firer, target = units[self.unit], units[self.target]
        if not gets_hot_unit(firer) or self.unit == self.target or not can_shoot(firer):
            return 0
        tests = 2 if self.morale or pinning_labels(firer) else 1
        return tests * 2 * hot_attack_work(firer, target, self.order, self.snap, self.moved, self.range,
                                           self.distance)

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        firer, target = _unit(units, self.unit), _unit(units, self.target)
        if not can_shoot(firer):
            raise InputError(f"{self.unit} cannot shoot: none of its models has a ranged weapon")
        if self.unit == self.target:
            raise InputError(f"{self.unit} cannot shoot at itself")
        weapon_order(firer, self.order)
        if self.morale:
            _needs_leadership(target, "a morale test after shooting")
        if pinning_labels(firer):
            _needs_leadership(target, "a pinning test")
        f, t = index[self.unit], index[self.target]
        fired = self._fired(firer, target)
        tests = self.phase_tests if self.phase_tests is not None else (self.target,) * (self.morale is not False)
        tested = {index[n]: units[n] for n in tests if can_test(units[n])}
        ending = end_of_phase(tested)

        def moves(w: World) -> Dist | None:
            """(target state, firer state, target status) after the shot; None: nothing fired."""
            if (not w.units[f].alive() or not w.units[t].alive()
                    or {w.statuses[f], w.statuses[t]} & {LOCKED, CHARGING}):
                return None
            snap = self.snap or w.statuses[f] in (FALLS_BACK, PINNED)
            out = fired(w.units[f], w.units[t], snap, w.statuses[t] == PINNED)
            if not any(x[2] for x in out.weights()):  # no pinning test: the target's status stays, O(outcomes)
                return out.map(lambda x: (x[0], x[1], w.statuses[t]))
            return out.then(lambda x: self._tests(target, w.statuses[t], x[0], x[2])
                            .map(lambda status: (x[0], x[1], status)))

        def kernel(w: World) -> Dist:
            w = note_start(w, t)
            out = moves(w)
            out = Dist.constant(w) if out is None else out.map(lambda y: w.put(t, y[0], y[2]).put(f, y[1]))
            return out.then(ending) if self.ends_phase else out

        step = ShotWorlds(kernel, f, t, moves, tested, self.ends_phase)
        return [Step(self.kind, step, f"{self.unit} shoots {self.target}")]

    def _fired(self, firer: Unit, target: Unit) -> Callable[[UnitState, UnitState, bool, bool], Dist]:
        """``(firer state, target state, snap, target gone to ground) -> Dist`` over
        (target state, firer state, a pinning weapon inflicted an unsaved wound),
        memoised per argument; the weapons' pipelines built once per (firing
        models in play, snap, target gone to ground)."""
        hot = gets_hot_unit(firer)
        grounded = gone_to_ground(target)
        pipes: dict[tuple, Pipeline] = {}
        memo: dict[tuple, Dist] = {}
        turn = (self.order, self.focus_fire)

        def fired(fs: UnitState, ts: UnitState, snap: bool, down: bool) -> Dist:
            alive = alive_per_line(firer, fs)
            key = (fs if hot else alive, ts, snap, down)
            if key in memo:
                return memo[key]
            aim = grounded if down else target
            pins = pinning_labels(firer, alive)
            def end(s: Any) -> tuple[UnitState, UnitState]:
                """The (target, firer) states a final state leaves, counters cleared."""
                if hot:
                    both = settled(firer, s)
                    return both.target, both.firer
                return cleared(s), fs

            if hot:
                pipe = fire_both_pipeline(firer, aim, fs, *turn, snap, self.moved, self.range, self.distance)
                start: object = Sides(ts, fs)
            else:
                if (alive, snap, down) not in pipes:
                    pipes[alive, snap, down] = fire_pipeline(firer, aim, alive, *turn, snap, self.moved, self.range,
                                                             self.distance, counted=bool(pins))
                pipe, start = pipes[alive, snap, down], ts
            if pins:
                unsaved = (lambda s: s.target.unsaved) if hot else (lambda s: s.unsaved)
                out = track_pinning(pipe, pins, unsaved)(Dist.constant(Pinning(start))).map(
                    lambda p: (*end(p.state), p.wounded))
            else:
                out = pipe(Dist.constant(start)).map(lambda s: (*end(s), False))
            memo[key] = out
            return out

        return fired

    def _tests(self, target: Unit, status: str, after: UnitState, pinning_wound: bool) -> Dist:
        """The target's status after the step: a pinning test when a pinning weapon
        wounded it, it has no status and some model is in play (the morale check
        comes at the end of the phase)."""
        if not after.alive() or not pinning_wound or status != "":
            return Dist.constant(status)
        return Dist.bernoulli(p_fails_test(target, after, "a pinning test"), PINNED, status)


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
    difficult_terrain: bool = False
    """The charge goes through difficult terrain (3D6 charge roll, the highest
    discarded; chargers without assault grenades strike at Initiative 1)."""
    vehicle_moved: str = "none"
    """How a charged vehicle moved in its last turn (:mod:`.vehicle_assault`)."""
    system: ClassVar[str] = SYSTEM

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        if self.attacker == self.defender:
            raise InputError(f"{self.attacker} cannot charge itself")
        a, d = index[self.attacker], index[self.defender]
        target = _unit(units, self.defender, vehicle=True)
        if isinstance(target, Vehicle):
            kernels = vehicle_assault_kernels(_unit(units, self.attacker), target, self.distance, a, d,
                                              self.vehicle_moved, self.difficult_terrain)
            return [Step(name, _unless_pinned(partial(_apply, kernel), a), doc) for name, kernel, doc in kernels]
        if self.vehicle_moved != "none":
            raise InputError(f"vehicle_moved = {self.vehicle_moved!r} describes a charged vehicle, but "
                             f"{self.defender} is not a vehicle: leave it out")
        kernels = assault_kernels(_unit(units, self.attacker), _unit(units, self.defender), self.distance,
                                  self.rounds, self.overwatch, self.order, self.difficult_terrain)
        worlds = Worlds(a, d)
        return [Step(name, _unless_pinned(on_worlds(kernel, worlds), a), doc or kernel.__doc__ or "")
                for name, kernel, doc in kernels]


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
    difficult_terrain: bool = False
    """The attacker charged through difficult terrain (only with ``charged``)."""
    system: ClassVar[str] = SYSTEM

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        check_assault(0, self.rounds)
        if self.difficult_terrain and not self.charged:
            raise InputError("difficult terrain slows a charge: give difficult_terrain only with charged = true")
        if self.attacker == self.defender:
            raise InputError(f"{self.attacker} cannot fight itself")
        a, d = index[self.attacker], index[self.defender]
        ua, ud = _unit(units, self.attacker), _unit(units, self.defender)
        round_kernel = Rounds(ua, ud, self.difficult_terrain)

        def engage(w: World) -> World:
            if not (w.units[a].alive() and w.units[d].alive()):
                return w
            return w.put(a, w.units[a], CHARGING if self.charged else LOCKED).put(d, w.units[d], LOCKED)

        steps = [Step.map("engage", engage, "both units locked in combat")]
        worlds = Worlds(a, d)
        for r in range(1, self.rounds + 1):
            steps.append(Step(f"round {r}", on_worlds(round_kernel, worlds),
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


@dataclass(frozen=True)
class Regroup:
    """``unit``, falling back, tries to regroup (put the step where its turn
    starts): with And They Shall Know No Fear it regroups automatically;
    below 25% of its models it cannot (it keeps falling back); else it
    regroups on 2D6 <= its highest Leadership in play (a double 1 passes).
    Any other unit is unchanged."""

    unit: str
    name: str = ""
    kind: str = "regroup"
    system: ClassVar[str] = SYSTEM

    def units_named(self) -> list[str]:
        return [self.unit]

    def branching(self, units: Mapping[str, Unit]) -> int:
        """Two outcomes per world (regrouped or not)."""
        return 2

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        i, unit = index[self.unit], _unit(units, self.unit)
        _needs_leadership(unit, "a regroup test")

        def kernel(w: World) -> Dist:
            s = w.units[i]
            if not s.alive() or w.statuses[i] != FALLS_BACK:
                return Dist.constant(w)
            if NO_FEAR in rules_in_play(unit, s) or "fearless" in rules_in_play(unit, s):
                return Dist.constant(w.put(i, s, ""))
            if s.survivors() * 4 < unit.size:
                return Dist.constant(w)
            return test_against(leadership_in_play(unit, s)).map(lambda r: w if r == FAIL else w.put(i, s, ""))

        return [Step.kernel(self.kind, kernel, f"{self.unit} tries to regroup")]
