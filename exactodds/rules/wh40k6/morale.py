"""Morale and Leadership tests in Warhammer 40,000 6th edition.

A morale (Leadership) test passes on 2D6 <= the value, with the modifiers the
rule says; the loser of a combat tests at its Leadership minus the
difference. As in the 6th-edition rulebook, a double 1 always passes.
"""

from __future__ import annotations

from fractions import Fraction

from ...core import Dist, InputError
from ..common import two_d6
from ...core.checks import is_whole

PASS, FAIL = "pass", "fail"
DOUBLE_ONE = 2
"""The only 2D6 total made of two 1s; a morale test rolling it passes whatever the modifiers."""



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
