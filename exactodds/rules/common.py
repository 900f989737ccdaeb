"""What Warhammer 40,000 6th edition and Horus Heresy 3rd edition share.

Only what is truly the same in both lives here: the Strength vs Toughness
wound chart, the choice of the best save, and 2D6 characteristic tests.
Allocation orders, hit tables, criticals and the like differ, and live in
each system's own package.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from ..core import Dist, InputError
from ..dice import Target, d6
from ..core.checks import is_whole, whole_number


def save_value(value: object, what: str) -> int | None:
    """An X+ save characteristic: None (no such save) or X from 2 to 6."""
    return None if value is None else whole_number(value, what, 2, 6)


def majority(values: Sequence[int]) -> int:
    """The most common value; on a tie, the highest of the tied values.

    Both editions roll against the majority Toughness (or WS) of a unit with
    mixed values; a tie is broken by taking the highest. O(n).
    """
    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple)):
        raise InputError(f"the values must be a list of whole numbers, not {values!r:.60}")
    for v in values:
        whole_number(v, "a characteristic", 0)
    if not values:
        raise InputError("no model left to take the majority of")
    counts = Counter(values)
    top = max(counts.values())
    return max(v for v, c in counts.items() if c == top)

# The 6th-edition "To wound" chart (S vs T), as data: S - T -> roll needed.
#   | S - T    | >= +2 | +1 | 0  | -1 | -2 or -3 | <= -4     |
#   | wound on | 2+    | 3+ | 4+ | 5+ | 6+       | impossible |
WOUND_CHART: dict[int, int | None] = {2: 2, 1: 3, 0: 4, -1: 5, -2: 6, -3: 6}
"""S - T (clamped to +2 above) -> the natural roll needed; below -3, ``None`` (impossible)."""


def wound_target(strength: int, toughness: int) -> Target:
    """The to-wound roll of Strength against Toughness (``fail`` when impossible)."""
    for name, v in (("strength", strength), ("toughness", toughness)):
        whole_number(v, name, 1, 10)
    diff = min(strength - toughness, 2)
    needed = WOUND_CHART.get(diff)
    return Target.fail() if needed is None else Target.at_least(needed)


def best_save(armour: int | None = None, ap: int | None = None, cover: int | None = None,
              invulnerable: int | None = None) -> Target:
    """The best single save: armour (ignored when ``ap <= armour``), cover or
    invulnerable (neither affected by AP). Values are X for an X+ save;
    ``None`` means none. No save at all is ``fail``.
    """
    for name, v in (("armour", armour), ("ap", ap), ("cover", cover), ("invulnerable", invulnerable)):
        if v is not None and (not is_whole(v) or not 1 <= v <= 7):
            raise InputError(f"{name} must be None or a whole number from 1 to 7 (X for an X+ save), not {v!r}")
    options = []
    if armour is not None and not (ap is not None and ap <= armour):
        options.append(armour)
    options += [v for v in (cover, invulnerable) if v is not None]
    return Target.clamped(min(options)) if options else Target.fail()


def two_d6() -> Dist:
    """The total of 2D6."""
    return _TWO_D6


_TWO_D6 = d6 + d6


def two_d6_test(value: int) -> Dist:
    """A characteristic test passed on 2D6 <= ``value``: Dist over True (pass) / False."""
    if not is_whole(value):
        raise InputError(f"a 2D6 test needs a whole-number value, not {value!r}")
    return _TWO_D6.map(lambda total: total <= value)
