"""Morale and Leadership tests in Warhammer 40,000 6th edition.

A morale (Leadership) test passes on 2D6 <= the value, with the modifiers the
rule says; the loser of a combat tests at its Leadership minus the
difference. As in the 6th-edition rulebook, a double 1 always passes.

A unit tests at the highest Leadership among its models in play
(:func:`leadership_in_play`); Fearless passes every test. Pinning
(:func:`p_pinned`) and the morale check after heavy shooting
(:func:`heavy_losses`) are tests of that kind.
"""

from __future__ import annotations

from fractions import Fraction
from typing import NamedTuple

from ...core import Dist, InputError
from ..allocation import UnitState
from ..common import two_d6
from .casualties import start_state
from ...core.checks import is_whole
from .units import Unit

PASS, FAIL = "pass", "fail"
DOUBLE_ONE = 2
"""The only 2D6 total made of two 1s; a morale test rolling it passes whatever the modifiers."""

FEARLESS = "fearless"
NO_FEAR = "and-they-shall-know-no-fear"
"""And They Shall Know No Fear: the unit regroups automatically."""

HEAVY_LOSSES = (1, 4)
"""A unit that loses this fraction (25%) or more of the models it had when a
shooting phase started tests morale at its end."""



def morale_test(leadership: int, modifier: int = 0) -> Dist:
    """A morale test: Dist over ``"pass"`` / ``"fail"``.

    Passed on 2D6 <= ``leadership + modifier`` (a negative ``modifier``,
    e.g. minus the combat result difference, makes it harder), and always on
    a double 1. O(36).
    """
    if not is_whole(leadership) or not 1 <= leadership <= 10:
        raise InputError(f"Leadership {leadership!r} is not allowed: use a whole number from 1 to 10")
    if not is_whole(modifier):
        raise InputError(f"modifier {modifier!r} is not allowed: use a whole number (negative makes it harder)")
    return test_against(leadership + modifier)


def test_against(value: int) -> Dist:
    """Passed on 2D6 <= ``value`` or on a double 1 (any ``value``, even below 2)."""
    return two_d6().map(lambda total: PASS if total <= value or total == DOUBLE_ONE else FAIL)


def p_pass(leadership: int, modifier: int = 0) -> Fraction:
    """P(the morale test is passed)."""
    return morale_test(leadership, modifier).pmf(PASS)


def rules_in_play(unit: Unit, state: UnitState) -> set[str]:
    """The model rules of the models of ``unit`` in play in ``state``. O(models)."""
    models = unit.expanded()
    return {r for i in state.alive() for r in models[i].rules}


def leadership_in_play(unit: Unit, state: UnitState, why: str = "a Leadership test") -> int:
    """The highest Leadership among the models of ``unit`` in play in ``state``
    (from their close-combat profiles); InputError when none has one. O(models)."""
    models = unit.expanded()
    values = [melee.leadership for i in state.alive() if (melee := models[i].melee) is not None]
    if not values:
        raise InputError(f"{unit.name}: {why} needs its models' leadership (the close-combat profile: ws, "
                         "initiative, attacks, strength, leadership)")
    return max(values)


def p_fails_test(unit: Unit, state: UnitState, why: str = "a Leadership test") -> Fraction:
    """P(the unit in ``state`` fails a Leadership test at its highest Leadership in
    play): 0 when destroyed or Fearless. O(models + 36)."""
    if not state.alive() or FEARLESS in rules_in_play(unit, state):
        return Fraction(0)
    return test_against(leadership_in_play(unit, state, why)).pmf(FAIL)


def p_pinned(unit: Unit, outcomes: Dist) -> Fraction:
    """P(pinned) from a Dist over (state after the attack, a pinning weapon
    inflicted an unsaved wound): the unit tests when it did and some model is
    in play, and is pinned on a failure. O(outcomes x models)."""
    total = Fraction(0)
    for (state, pinning_wound), p in outcomes.to_fractions().items():
        if pinning_wound:
            total += p * p_fails_test(unit, state, "a pinning test")
    return total


def heavy_losses(before: int, now: int) -> bool:
    """Whether a unit that had ``before`` models when the shooting phase began and
    has ``now`` lost 25% or more of them (and has some left). O(1)."""
    low, high = HEAVY_LOSSES
    return now > 0 and (before - now) * high >= before * low


FALLS_BACK, STEADY, DESTROYED = "falling back", "-", "destroyed"


class CasualtiesAndStatus(NamedTuple):
    """One shooting attack with the morale check after it: the target's casualties
    and its status (``"falling back"``, ``"-"`` or ``"destroyed"``)."""

    casualties: int
    status: str


def check_after_shooting(unit: Unit, states: Dist) -> Dist:
    """The morale check after one shooting attack, taken as the whole shooting phase:
    from a Dist over the target's states after it (``unit`` at its start state
    before), a Dist over :class:`CasualtiesAndStatus`. A unit with models left
    that lost 25% or more of those it had tests at its highest Leadership in
    play (a double 1 passes; Fearless passes) and falls back on a failure.
    O(states x (models + 36))."""
    start = start_state(unit)
    before = start.survivors()
    leadership_in_play(unit, start, "a morale test after shooting")  # refuse a unit with none

    def status(s: UnitState) -> Dist:
        lost = s.casualties()
        if not s.alive():
            return Dist.constant(CasualtiesAndStatus(lost, DESTROYED))
        flee = p_fails_test(unit, s, "a morale test after shooting") if heavy_losses(before, s.survivors()) else 0
        return Dist.bernoulli(flee, CasualtiesAndStatus(lost, FALLS_BACK), CasualtiesAndStatus(lost, STEADY))

    return states.then(status)
