"""Scenarios: several steps in sequence on shared unit states, over turns.

A scenario names its units once and lists its steps in order (shooting
attacks, assaults, fights, morale tests...); the state of the whole battle
is a :class:`World`: one state per unit (wounds left per model, a
:class:`~exactodds.rules.allocation.UnitState`) and one status per unit
(``"locked"``, ``"falling back"``...). Each step is a Markov kernel on
worlds, so a unit's state after one step is where the next step starts,
and ``turns`` repeats the whole list with the state carried over.

The steps themselves belong to the rule systems (e.g.
:mod:`exactodds.rules.wh40k6.steps`, :mod:`exactodds.rules.hh3.exchange`):
a step spec has a ``kind``, a ``name``, the ``system`` it belongs to and
``build(index, units)`` giving its pipeline steps on worlds (``index``: unit
name -> position in the world); the steps of one scenario are of one system,
and the registry of systems (:mod:`exactodds.rules.systems`) gives the
system's start state.

Cost: the sum over the steps of (distinct worlds before the step) x (the
step's cost from one world); equal worlds are merged after every step.
"""

from __future__ import annotations

import keyword
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple, Protocol

from ..core import Dist, InputError, Pipeline, Run, Step
from .allocation import UnitState
from .systems import get as get_system

MAX_TURNS = 20


class World(NamedTuple):
    """Every unit's state and status, in the scenario's unit order, and
    ``marks``: what a rule system notes for the rest of a phase, as
    (unit position, number) pairs (e.g. the models a unit had when a shooting
    phase began); empty between phases, so worlds merge as before."""

    units: tuple[UnitState, ...]
    statuses: tuple[str, ...]
    marks: tuple[tuple[int, int], ...] = ()

    def put(self, i: int, state: UnitState, status: str | None = None) -> World:
        """This world with unit ``i``'s state (and status) replaced."""
        units = self.units[:i] + (state,) + self.units[i + 1:]
        if status is None:
            return self._replace(units=units)
        return self._replace(units=units, statuses=self.statuses[:i] + (status,) + self.statuses[i + 1:])


class StepSpec(Protocol):
    """One step of a scenario (see the module docstring)."""

    kind: str
    name: str
    system: str

    def build(self, index: Mapping[str, int], units: Mapping[str, Any]) -> list[Step]:  # pragma: no cover
        ...

    def units_named(self) -> list[str]:  # pragma: no cover
        ...


def check_turns(turns: object) -> None:
    """Refuse ``turns`` unless a whole number from 1 to :data:`MAX_TURNS`."""
    if not isinstance(turns, int) or isinstance(turns, bool) or not 1 <= turns <= MAX_TURNS:
        raise InputError(f"turns {turns!r:.20} is not allowed: use a whole number from 1 to {MAX_TURNS}")


TURN_CLEARED = ("charge failed", "pinned")
"""Statuses that last until the end of the turn only."""


UNIT_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_]*")
"""A unit's name: letters, digits and ``_``, starting with a letter (each unit gives the
answer two fields, ``NAME`` and ``NAME_status``)."""


def unit_name_problem(name: object, names: Sequence[str] = ()) -> str | None:
    """Why ``name`` cannot name a unit among ``names`` (None if it can): not of
    :data:`UNIT_NAME`, a Python keyword, or clashing with another unit's ``_status``
    field. O(len(names))."""
    if not isinstance(name, str) or not UNIT_NAME.fullmatch(name):
        return "a unit's name is letters, digits and _, starting with a letter"
    if keyword.iskeyword(name):
        return f"{name!r} is a Python keyword; name the unit otherwise"
    for other in names:
        if name == f"{other}_status":
            return f"{name!r} is the status field of the unit {other!r}; name the unit otherwise"
    return None


def check_unit_names(names: Sequence[str]) -> None:
    """Refuse unit names the answer cannot carry (see :func:`unit_name_problem`). O(units^2)."""
    for name in names:
        problem = unit_name_problem(name, names)
        if problem:
            raise InputError(f"units.{name!s:.40}: {problem}")


@dataclass(frozen=True)
class Scenario:
    """Units by name (in order), steps in order, and the number of turns.

    ``start`` gives each unit's starting state (default: every model at its
    ``wounds_left`` or full wounds)."""

    units: Mapping[str, Any]
    steps: Sequence[Any]
    turns: int = 1
    start: Mapping[str, UnitState] = field(default_factory=dict)

    def __post_init__(self) -> None:
        object.__setattr__(self, "units", dict(self.units))
        object.__setattr__(self, "steps", tuple(self.steps))
        if not self.units:
            raise InputError("a scenario needs at least one unit")
        if not self.steps:
            raise InputError("a scenario needs at least one step")
        check_turns(self.turns)
        check_unit_names(list(self.units))
        systems = [system_of(step) for step in self.steps]
        for i, system in enumerate(systems, 1):
            if system != systems[0]:
                raise InputError(f"steps[{i}] ({self.steps[i - 1].kind}) is a {system} step but steps[1] "
                                 f"({self.steps[0].kind}) is a {systems[0]} step: a scenario does not mix systems")
        for i, step in enumerate(self.steps, 1):
            for name in step.units_named():
                if name not in self.units:
                    raise InputError(f"steps[{i}] ({step.kind}) names the unit {name!r:.40}, which is not a unit "
                                     f"of the scenario (units: {', '.join(self.units)})")

    @property
    def names(self) -> list[str]:
        """The unit names, in order."""
        return list(self.units)

    @property
    def system(self) -> str:
        """The rule system of the steps (a name of :mod:`exactodds.rules.systems`)."""
        return system_of(self.steps[0])

    def start_world(self) -> World:
        """Every unit at its starting state (``start``, else its file's), with the
        statuses its file gives (a Horus Heresy vehicle's), else none."""
        starting = get_system(self.system).start
        if starting is None:
            raise InputError(f"{self.system} steps do not run on unit states")
        pairs = [starting(u) for u in self.units.values()]
        states = tuple(self.start.get(n) or s for n, (s, _) in zip(self.units, pairs, strict=True))
        return World(states, tuple(status for _, status in pairs))

    def step_names(self) -> list[str]:
        """Each step's own name (``name``, or ``"KIND N"``), made unique."""
        out: list[str] = []
        for i, s in enumerate(self.steps, 1):
            base = s.name or f"{s.kind} {i}"
            out.append(base if base not in out else f"{base} ({i})")
        return out

    def pipeline(self) -> Pipeline:
        """Every step of every turn, named ``"STEP"`` (one turn) or
        ``"turn T: STEP"``, sub-steps as ``"STEP: SUB"``; a turn after the
        first starts by clearing the statuses of :data:`TURN_CLEARED`."""
        index = {n: i for i, n in enumerate(self.units)}
        prepare = get_system(self.system).prepare
        specs = prepare(self.steps) if prepare is not None else self.steps
        built = [(name, spec.build(index, self.units)) for name, spec in zip(self.step_names(), specs, strict=True)]
        steps: list[Step] = []
        for t in range(1, self.turns + 1):
            prefix = f"turn {t}: " if self.turns > 1 else ""
            if t > 1:
                steps.append(Step.map(f"turn {t}: start", _new_turn, "statuses that last a turn are cleared"))
            for name, subs in built:
                if len(subs) == 1:
                    steps.append(Step(prefix + name, subs[0].apply, subs[0].doc))
                else:
                    steps.extend(Step(f"{prefix}{name}: {s.name}", s.apply, s.doc) for s in subs)
        return Pipeline(tuple(steps))

    def turn_ends(self) -> list[str]:
        """The stage name at the end of each turn."""
        names = self.pipeline().names
        ends = []
        for t in range(1, self.turns + 1):
            prefix = f"turn {t}: " if self.turns > 1 else ""
            ends.append([n for n in names if n.startswith(prefix)][-1])
        return ends

    def run(self) -> Run:
        """Run every step from the start world; ``run.stages`` holds each one."""
        return self.pipeline().run(self.start_world())


def system_of(step: Any) -> str:
    """The rule system of a step spec (its ``system``), or an InputError."""
    system = getattr(step, "system", None)
    if not isinstance(system, str):
        raise InputError(f"{type(step).__name__} is not a scenario step: it names no rule system")
    return system


def _new_turn(w: World) -> World:
    return w._replace(statuses=tuple("" if s in TURN_CLEARED else s for s in w.statuses))


def p_destroyed(dist: Dist, i: int) -> Fraction:
    """P(unit ``i`` has no model left) in a Dist over worlds."""
    return dist.prob(lambda w: not w.units[i].alive())


def lift(i: int, kernel: Any) -> Any:
    """A kernel on one unit's state as a kernel on worlds (unit ``i``)."""
    def k(w: World) -> Dist:
        return kernel(w.units[i]).map(lambda s: w.put(i, s))
    return k
