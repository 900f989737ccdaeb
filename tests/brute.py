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
