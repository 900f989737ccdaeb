"""The charge in Warhammer 40,000 6th edition: the charge distance roll.

The charge distance is 2D6 inches; a unit whose models determine it
differently charges at the rate of the slowest. Original, "Déterminez la
distance de charge": "Pour déterminer la distance
de charge, jetez 2D6 : le résultat indique le nombre de ps que votre unité
peut parcourir pour accomplir sa charge. [...] Si une unité comprend des
figurines qui déterminent différemment leur distance de charge, toute
l'unité chargera au rythme de la figurine la plus lente."

If the first charger cannot reach its target, the charge fails (original,
"Mouvement de Charge : Commencez par le premier assaillant. [...] dans le
cas où la distance de charge est insuffisante pour le premier assaillant, la
charge échoue."). The distance asked about is therefore the first charger's
distance to the enemy; the charge succeeds when the roll is at least it.
"""

from __future__ import annotations

from collections.abc import Iterable
from fractions import Fraction

from ...core import Dist, InputError
from ...dice import d6, keep_highest, keep_lowest
from ..common import two_d6
from ...core.checks import is_exact

CHARGE_ROLLS: dict[str, tuple[str, int, int]] = {
    "2d6": ("sum of 2D6", 2, 2),
    "3d6kh2": ("3D6, the two highest added", 3, 2),
    "3d6kl2": ("3D6, the two lowest added", 3, 2),
}
"""Method -> (description, dice rolled, dice kept)."""


def charge_roll(method: str = "2d6") -> Dist:
    """The distance (inches) rolled by one charge method. O(1) (at most 56 multisets)."""
    if not isinstance(method, str) or method not in CHARGE_ROLLS:
        raise InputError(f"unknown charge roll {method!r}: use one of {', '.join(CHARGE_ROLLS)}")
    if method == "2d6":
        return two_d6()
    _, n, keep = CHARGE_ROLLS[method]
    return keep_highest(n, d6, keep) if method.endswith("kh2") else keep_lowest(n, d6, keep)


def slowest(methods: Iterable[str]) -> str:
    """The method a unit mixing ``methods`` charges with: the slowest.

    "Slowest" = the stochastically smallest roll. The three methods are
    totally ordered by first-order stochastic dominance (3D6 keep lowest
    two <= 2D6 <= 3D6 keep highest two at every distance, checked in the
    tests), so the slowest is also the one with the lowest mean and it does
    not depend on the distance. The unit makes one roll with that method.
    """
    if isinstance(methods, str):
        methods = [methods]
    if not isinstance(methods, (list, tuple, set, frozenset)):
        raise InputError(f"charge rolls must be a list of methods ({', '.join(CHARGE_ROLLS)}), not {methods!r:.60}")
    rolls = {m: charge_roll(m) for m in methods} or {"2d6": charge_roll("2d6")}
    return min(rolls, key=lambda m: rolls[m].mean())


def unit_charge_roll(methods: Iterable[str] = ("2d6",)) -> Dist:
    """The charge distance of a unit whose models roll by ``methods``."""
    return charge_roll(slowest(methods))


def check_distance(distance: int | Fraction) -> Fraction:
    """``distance`` as an exact Fraction of inches, 0 or more (floats refused)."""
    if not is_exact(distance):
        raise InputError(f"charge distance {distance!r} must be an exact number of inches (e.g. 8 or 15/2)")
    if distance < 0:
        raise InputError(f"charge distance {distance} is negative: use a distance of 0 inches or more")
    return Fraction(distance)


def p_charge(distance: int | Fraction, methods: Iterable[str] = ("2d6",), fleet: bool = False) -> Fraction:
    """P(the charge reaches a target ``distance`` inches away): P(roll >= distance);
    with Fleet, a roll that falls short is rerolled once: p + (1 - p) p."""
    if not isinstance(fleet, bool):
        raise InputError(f"fleet must be true or false, not {fleet!r:.40}")
    p = unit_charge_roll(methods).at_least(check_distance(distance))
    return p + (1 - p) * p if fleet else p


def fleet_charge_roll(distance: int | Fraction, methods: Iterable[str] = ("2d6",)) -> Dist:
    """The charge distance kept by a Fleet unit that rerolls a roll short of
    ``distance`` (once; the second roll stands). O(outcomes^2)."""
    d = check_distance(distance)
    roll = unit_charge_roll(methods)
    return roll.then(lambda x: Dist.constant(x) if x >= d else roll)
