"""The armour penetration die of 40K 6th edition and Horus Heresy 3rd edition.

Both rulebooks test a hit on a vehicle the same way: d6 + Strength against the
Armour Value of the facing hit; lower, nothing; equal, a glancing hit; higher,
a penetrating hit. What each result then does differs between the two games
(:mod:`exactodds.rules.wh40k6.vehicles`, :mod:`exactodds.rules.hh3.vehicles`).
"""

from __future__ import annotations

from ...core import Dist
from ...dice import d6


def penetration_die(strength: int, armour: int) -> Dist:
    """One armour penetration test, d6 + S against AV: ``"none"``,
    ``"glancing"`` (equal) or ``"penetrating"`` (higher). O(6)."""

    def result(face: int) -> str:
        total = face + strength
        return "none" if total < armour else "glancing" if total == armour else "penetrating"

    return d6.map(result)
