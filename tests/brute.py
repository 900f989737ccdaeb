"""An independent brute-force enumerator over raw rolls, for tests only.

It knows nothing of the engine: it walks every raw roll with itertools and
counts outcomes with Fractions. Use it only on small cases (it is 6^n).
"""

from __future__ import annotations

import itertools
from collections import Counter
from collections.abc import Callable
from fractions import Fraction
from typing import Any


def enumerate_rolls(n_dice: int, outcome: Callable[[tuple[int, ...]], Any], sides: int = 6) -> dict[Any, Fraction]:
    """Distribution of ``outcome(roll)`` over all ``sides**n_dice`` equally likely rolls."""
    counts: Counter = Counter()
    for roll in itertools.product(range(1, sides + 1), repeat=n_dice):
        counts[outcome(roll)] += 1
    total = sides**n_dice
    return {k: Fraction(v, total) for k, v in counts.items()}


def as_fractions(dist: Any) -> dict[Any, Fraction]:
    """A Dist as a plain dict of Fractions (to compare with the enumerator)."""
    return dict(dist.to_fractions())


# ---------------------------------------------------------------- 40K 6th edition: blows on a vehicle

_DAMAGE = {1: "crew shaken", 2: "crew shaken", 3: "crew shaken", 4: "crew stunned", 5: "weapon destroyed",
           6: "immobilised"}  # 7 and more: explodes


def _d6(then: Callable[[int], dict[Any, Fraction]]) -> dict[Any, Fraction]:
    """Mix ``then(face)`` over the six faces of one die."""
    out: dict[Any, Fraction] = {}
    for face in range(1, 7):
        for k, p in then(face).items():
            out[k] = out.get(k, Fraction(0)) + p / 6
    return out


def blows_on_vehicle(blows: list[tuple[int, int | None, bool, bool]], hit_on: int | None, armour: int,
                     hull_points: int, open_topped: bool = False) -> dict[tuple[int, str], Fraction]:
    """Each blow in turn, die by die: ``blows`` are (Strength, AP, armourbane,
    rending); a blow hits on ``hit_on``+ (None: automatically); it rolls D6 (2D6
    with armourbane) + S against ``armour``, a 6 with rending adding D3; equal
    glances (one Hull Point), higher penetrates (one Hull Point and a D6 on the
    damage table, AP1 +2, AP2 +1, open-topped +1, 7+ explodes). At 0 Hull Points
    the vehicle is wrecked. Distribution of (Hull Points left, "wrecked",
    "explodes" or the damage results held, sorted and joined by ", ")."""

    seen: dict[tuple, dict[Any, Fraction]] = {}

    def walk(i: int, hp: int, held: frozenset[str], fate: str) -> dict[Any, Fraction]:
        # the rolls still to come depend only on (blow, Hull Points, results held, fate): walked once each
        key = (i, hp, held, fate)
        if key not in seen:
            seen[key] = rolls(i, hp, held, fate)
        return seen[key]

    def rolls(i: int, hp: int, held: frozenset[str], fate: str) -> dict[Any, Fraction]:
        if fate or i == len(blows):
            return {(hp, fate or ", ".join(sorted(held))): Fraction(1)}
        s, ap, armourbane, rending = blows[i]

        def struck(total: int) -> dict[Any, Fraction]:
            if total < armour:
                return walk(i + 1, hp, held, fate)
            if total == armour:
                return walk(i + 1, hp - 1, held, "wrecked" if hp == 1 else "")
            bonus = {1: 2, 2: 1}.get(ap or 0, 0) + (1 if open_topped else 0)

            def damage(face: int) -> dict[Any, Fraction]:
                if face + bonus >= 7:
                    return walk(i + 1, 0, frozenset(), "explodes")
                if hp == 1:
                    return walk(i + 1, 0, frozenset(), "wrecked")
                return walk(i + 1, hp - 1, held | {_DAMAGE[face + bonus]}, "")
            return _d6(damage)

        def penetrate() -> dict[Any, Fraction]:
            if armourbane:
                return _d6(lambda a: _d6(lambda b: struck(a + b + s)))
            return _d6(lambda f: struck(f + s) if f < 6 or not rending else
                       {k: p for k, p in _mix([struck(6 + s + x) for x in (1, 2, 3)]).items()})

        if hit_on is None:
            return penetrate()
        return _d6(lambda f: penetrate() if f >= hit_on else walk(i + 1, hp, held, fate))

    return walk(0, hull_points, frozenset(), "")


def _mix(dists: list[dict[Any, Fraction]]) -> dict[Any, Fraction]:
    """The even mixture of ``dists`` (one equally likely face each)."""
    out: dict[Any, Fraction] = {}
    for d in dists:
        for k, p in d.items():
            out[k] = out.get(k, Fraction(0)) + p / len(dists)
    return out
