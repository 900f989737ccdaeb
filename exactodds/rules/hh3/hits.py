"""Horus Heresy 3rd edition, step 6: hit rolls, with Critical Hits.

"On additionne la caractéristique de puissance de feu de toutes les armes du
groupe : ce total donne le nombre de jets de touche à effectuer. [...] Chaque
succès est une touche." Each hit die falls in one of three categories (miss,
hit, Critical Hit), so N dice give a 3-category multinomial, computed in
closed form by :func:`exactodds.dice.pool_counts`.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core import Dist, InputError
from ...dice import d6, pool_counts
from .tables import HitEntry, hit_entry


class HitRoll(NamedTuple):
    """The hits of a fire group; ``crits`` of them are Critical Hits (crits <= hits)."""

    hits: int
    crits: int


def hit_die(entry: HitEntry, reroll_failed: bool = False) -> Dist:
    """One hit die classified: ``"miss"``, ``"hit"`` or ``"crit"``; with
    ``reroll_failed`` a missed die is rolled again once and the second roll
    stands (it may be a Critical Hit). "F" (automatic failure) rolls no die,
    so nothing is rerolled. O(36)."""

    def category(face: int) -> str:
        if entry.crit.succeeds(face):
            return "crit"
        return "hit" if entry.hit.succeeds(face) else "miss"

    first = d6.map(category)
    if not reroll_failed or entry.text == "F":
        return first
    return first.then(lambda c: d6.map(category) if c == "miss" else Dist.constant(c))


def hit_rolls(shots: int, bs: int, snap: bool = False, reroll_failed: bool = False) -> Dist:
    """The (hits, crits) of ``shots`` hit rolls at ``bs`` (snap shots when ``snap``;
    every failed roll rerolled once when ``reroll_failed``).

    "A" (BS 10+) needs no roll: every shot hits and is a Critical Hit; "F"
    (snap shots at BS 1) always misses; snap shots never score Critical Hits.
    Otherwise the multinomial closed form over (miss, hit, crit), one die's
    chances (after its reroll) from :func:`hit_die`:
    O(C(shots + 2, 2)) = O(shots^2) outcomes, each one big-integer product.
    """
    for name, flag in (("snap", snap), ("reroll_failed", reroll_failed)):
        if not isinstance(flag, bool):
            raise InputError(f"{name} must be true or false, not {flag!r:.60}")
    die = hit_die(hit_entry(bs, snap), reroll_failed)
    cats = die.support()
    if len(cats) == 1:  # "A" or "F": nothing is rolled, O(1) whatever the number of shots
        only = cats[0]
        return Dist.constant(HitRoll(shots if only != "miss" else 0, shots if only == "crit" else 0))
    counts = pool_counts(shots, die, cats)
    i_hit = cats.index("hit") if "hit" in cats else None
    i_crit = cats.index("crit") if "crit" in cats else None

    def to_roll(c: tuple[int, ...]) -> HitRoll:
        crits = c[i_crit] if i_crit is not None else 0
        return HitRoll((c[i_hit] if i_hit is not None else 0) + crits, crits)

    return counts.map(to_roll)
