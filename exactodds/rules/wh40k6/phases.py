"""Shooting phases in a Warhammer 40,000 6th edition scenario, and the morale
check at the end of each.

The rule: a unit that loses 25% or more of the models it had at the start of
a shooting phase takes a morale check at the end of that phase, and falls
back if it fails. A scenario has no players, so its shooting phases are read
from its steps (:func:`mark_phases`): a phase is a run of consecutive
``shoot`` steps in which no unit both fires and is shot at (one side's
shooting); any other step, a unit shot at earlier in the run firing, or a
unit that fired earlier in the run being shot at, starts a new phase, and so
does every turn.

The models a target had when the phase began are noted in the world's
``marks`` (:class:`~exactodds.rules.scenario.World`) by the first step aimed
at it, and the last step of the phase tests every target noted and clears the
marks (:func:`end_of_phase`), so worlds merge as before once the phase ends.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from fractions import Fraction
from typing import Any

from ...core import Dist
from ..scenario import World
from .fight_rounds import FALLS_BACK
from .morale import heavy_losses, p_fails_test
from .units import Unit

PINNED = "pinned"
TESTS_FROM = ("", PINNED)
"""The statuses a unit can take the check from (a unit falling back, locked or
swept does not test)."""


def can_test(unit: Any) -> bool:
    """Whether ``unit`` can take a morale check: a unit (not a vehicle) whose every
    model has a Leadership (a close-combat profile). O(model lines)."""
    return isinstance(unit, Unit) and all(m.melee is not None for m in unit.models)


def _phases(steps: Sequence[Any]) -> list[list[int]]:
    """The shooting phases of one turn's steps: lists of the positions of the
    ``shoot`` steps of each phase (see the module docstring). O(steps)."""
    phases: list[list[int]] = []
    run: list[int] = []
    for i, s in enumerate(steps):
        if getattr(s, "kind", None) != "shoot":
            run = []
            continue
        if run and (s.unit in {steps[j].target for j in run} or s.target in {steps[j].unit for j in run}):
            run = []
        if not run:
            phases.append(run)
        run.append(i)
    return phases


def mark_phases(steps: Sequence[Any]) -> list[Any]:
    """The steps with each ``shoot`` step told its place in its phase: ``ends_phase``
    on the phase's last step only, whose ``phase_tests`` names the targets that
    test (in the order first shot): those no step of the phase aimed at with
    ``morale = false``. O(steps)."""
    out = list(steps)
    for phase in _phases(steps):
        targets: list[str] = []
        for j in phase:
            if steps[j].target not in targets:
                targets.append(steps[j].target)
        off = {steps[j].target for j in phase if steps[j].morale is False}
        for j in phase:
            last = j == phase[-1]
            out[j] = replace(steps[j], phase_tests=tuple(t for t in targets if t not in off) if last else (),
                             ends_phase=last)
    return out


def note_start(w: World, i: int) -> World:
    """``w`` with unit ``i``'s models in play noted as its phase's start, unless
    already noted. O(units)."""
    if any(j == i for j, _ in w.marks):
        return w
    return w._replace(marks=(*w.marks, (i, w.units[i].survivors())))


def end_of_phase(tested: Mapping[int, Unit]) -> Callable[[World], Dist]:
    """``World -> Dist`` over worlds: each unit of ``tested`` (by position) noted
    in the marks, with no status or pinned, some model in play and 25% or more
    of its noted models lost, takes a morale check at its highest Leadership
    in play (a double 1 passes, Fearless passes) and falls back on a failure
    (over pinned); the marks cleared. O(tested x (models + 36)) per world."""
    def kernel(w: World) -> Dist:
        out = Dist.constant(w._replace(marks=()))
        for i, before in w.marks:
            unit, state, status = tested.get(i), w.units[i], w.statuses[i]
            if unit is None or status not in TESTS_FROM or not heavy_losses(before, state.survivors()):
                continue
            out = out.then(_check(i, p_fails_test(unit, state, "a morale test after shooting")))
        return out
    return kernel


def _check(i: int, flee: Fraction) -> Callable[[World], Dist]:
    """``World -> Dist``: unit ``i`` falls back with chance ``flee``. O(1)."""
    def kernel(w: World) -> Dist:
        return Dist.bernoulli(flee, w.put(i, w.units[i], FALLS_BACK), w)
    return kernel
