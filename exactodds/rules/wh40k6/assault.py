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

from collections import Counter
from collections.abc import Iterable, Sequence
from fractions import Fraction
from itertools import combinations, product
from typing import NamedTuple

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


class FleetDecision(NamedTuple):
    """Fleet's choice for one first charge roll: the faces rolled (sorted), the
    faces rerolled (none when the roll reaches already), P(reaching the
    distance) after that choice, and the first roll's probability."""

    first_roll: tuple[int, ...]
    reroll: tuple[int, ...]
    p_reach: Fraction
    probability: Fraction


def _kept(method: str, faces: Sequence[int]) -> int:
    """The distance ``faces`` give with ``method``: all added (2D6), or the two highest or lowest of 3D6."""
    _, n, keep = CHARGE_ROLLS[method]
    ordered = sorted(faces)
    return sum(ordered[-keep:] if method.endswith("kh2") else ordered[:keep])


def _rerolled(method: str, kept: tuple[int, ...], k: int) -> dict[int, int]:
    """The distances (weights over 6^k) when ``k`` dice are rerolled beside ``kept``. O(6^k)."""
    out: dict[int, int] = {}
    for new in product(range(1, 7), repeat=k):
        total = _kept(method, kept + new)
        out[total] = out.get(total, 0) + 1
    return out


def fleet_choices(distance: int | Fraction, method: str = "2d6") -> list[tuple[FleetDecision, dict[int, int]]]:
    """Fleet's best choice for every first roll of ``method`` at ``distance``: each
    row a :class:`FleetDecision` and the distances it leads to (weights over
    6^n for n dice). A roll short of the distance rerolls the dice (one, both,
    any of three) that maximise P(reaching it), the new roll standing; among
    equal choices, the fewest dice, then the lowest faces. Cost: O(M x 2^n x
    6^n), M <= 56 sorted first rolls: at most about 100,000 dice for 3D6."""
    d = check_distance(distance)
    n = CHARGE_ROLLS[method][1]
    counts = Counter(tuple(sorted(r)) for r in product(range(1, 7), repeat=n))
    rows = []
    for faces in sorted(counts):
        prob = Fraction(counts[faces], 6 ** n)
        if _kept(method, faces) >= d:
            rows.append((FleetDecision(faces, (), Fraction(1), prob), {_kept(method, faces): 6 ** n}))
            continue
        best: tuple | None = None
        subsets = {tuple(faces[i] for i in idx) for k in range(n + 1) for idx in combinations(range(n), k)}
        for reroll in subsets:
            kept = list(faces)
            for f in reroll:
                kept.remove(f)
            dist = _rerolled(method, tuple(kept), len(reroll))
            reach = sum(w for t, w in dist.items() if t >= d) * 6 ** (n - len(reroll))
            key = (-reach, len(reroll), reroll)
            if best is None or key < best[0]:
                best = (key, reroll, {t: w * 6 ** (n - len(reroll)) for t, w in dist.items()})
        assert best is not None
        rows.append((FleetDecision(faces, best[1], Fraction(-best[0][0], 6 ** n), prob), best[2]))
    return rows


def fleet_decisions(distance: int | Fraction, methods: Iterable[str] = ("2d6",)) -> list[FleetDecision]:
    """Fleet's choice for every first roll of the unit's (slowest) method at
    ``distance`` (:func:`fleet_choices`)."""
    return [row for row, _ in fleet_choices(distance, slowest(methods))]


def fleet_charge_roll(distance: int | Fraction, methods: Iterable[str] = ("2d6",)) -> Dist:
    """The charge distance kept by a Fleet unit: a roll short of ``distance``
    rerolls the dice that maximise P(reaching it) (:func:`fleet_choices`), the
    new roll standing. Cost: :func:`fleet_choices`."""
    n = CHARGE_ROLLS[slowest(methods)][1]
    weights: dict[int, int] = {}
    for row, dist in fleet_choices(distance, slowest(methods)):
        first = row.probability * 6 ** n  # a whole number: the orderings of the first roll
        for t, w in dist.items():
            weights[t] = weights.get(t, 0) + int(first) * w
    return Dist.from_weights(weights)


def p_charge(distance: int | Fraction, methods: Iterable[str] = ("2d6",), fleet: bool = False) -> Fraction:
    """P(the charge reaches a target ``distance`` inches away): P(roll >= distance);
    with Fleet, the best dice of a roll that falls short rerolled once
    (:func:`fleet_charge_roll`)."""
    if not isinstance(fleet, bool):
        raise InputError(f"fleet must be true or false, not {fleet!r:.40}")
    d = check_distance(distance)
    if fleet:
        return fleet_charge_roll(d, methods).at_least(d)
    return unit_charge_roll(methods).at_least(d)
