"""Horus Heresy 3rd edition: the tables of the shooting attack, as data.

Every table is written here as the 3rd-edition rulebook prints it (the
rules text we quote names the tables without printing them; docs/hh3.md
shows them in full); the code that reads a table lives
beside the rule step that uses it (:mod:`.hits`, :mod:`.vehicles`,
:mod:`.attack`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from ...core import InputError
from ...dice import Target
from ...core.checks import is_whole

# The rulebook's ranged hit table (docs/hh3.md, "Hit rolls"):
#   | BS     | 1  | 2  | 3  | 4  | 5  | 6    | 7    | 8    | 9    | 10+ |
#   | normal | 6+ | 5+ | 4+ | 3+ | 2+ | Cr6+ | Cr5+ | Cr4+ | Cr3+ | A   |
#   | snap shots ("Au jugé") | F | 6+ | 6+ | 5+ | 5+ | 4+ | 4+ | 3+ | 3+ | 2+ |
# "CrX+: hits on 2+; a natural roll of X or more is a Critical Hit."
# "A: no roll; every shot hits as a natural 6 and is a Critical Hit."
# "F: automatic failure." "Snap shots never score Critical Hits."
HIT_TABLE: dict[int, str] = {1: "6+", 2: "5+", 3: "4+", 4: "3+", 5: "2+",
                             6: "Cr6+", 7: "Cr5+", 8: "Cr4+", 9: "Cr3+", 10: "A"}
"""Ballistic Skill (10 stands for 10+) -> the entry of the normal row."""

SNAP_TABLE: dict[int, str] = {1: "F", 2: "6+", 3: "6+", 4: "5+", 5: "5+",
                              6: "4+", 7: "4+", 8: "3+", 9: "3+", 10: "2+"}
"""Ballistic Skill (10 stands for 10+) -> the entry of the snap-shot row."""

MAX_BS_COLUMN = 10
"""The last column of the hit table, ``10+``: every higher BS reads it."""


@dataclass(frozen=True)
class HitEntry:
    """One cell of the hit table: the roll that hits and the roll that is a
    Critical Hit (``fail`` when none can be)."""

    text: str
    hit: Target
    crit: Target

    @classmethod
    def parse(cls, text: str) -> HitEntry:
        """Read a cell: ``X+``, ``CrX+`` (hit on 2+, critical on X+), ``A`` or ``F``."""
        if text == "A":
            return cls(text, Target.auto(), Target.auto())
        if text == "F":
            return cls(text, Target.fail(), Target.fail())
        if text.startswith("Cr"):
            return cls(text, Target.at_least(2), Target.parse(text[2:]))
        return cls(text, Target.parse(text), Target.fail())


def hit_entry(bs: int, snap: bool = False) -> HitEntry:
    """The hit table's cell for a Ballistic Skill (1 or more), normal or snap shots."""
    if not is_whole(bs) or bs < 1:
        raise InputError(f"ballistic skill must be a whole number 1 or more, not {bs!r}")
    column = min(bs, MAX_BS_COLUMN)
    return HitEntry.parse((SNAP_TABLE if snap else HIT_TABLE)[column])


# The rulebook's vehicle damage table, rolled for a glancing hit: 1-2 Stunned,
# 3-4 Pinned, 5-6 Suppressed.
VEHICLE_DAMAGE_TABLE: dict[int, str] = {1: "stunned", 2: "stunned", 3: "pinned", 4: "pinned",
                                        5: "suppressed", 6: "suppressed"}
"""Natural d6 -> the status a glancing hit inflicts."""

STATUSES: tuple[str, ...] = ("stunned", "pinned", "suppressed")
"""The vehicle statuses of the damage table, in table order."""

# Cover from area terrain, not affected by AP: light 6+, medium 5+, dense 4+
# (original: "léger : 6, moyen : 5, dense : 4").
COVER_SAVES: dict[str, int] = {"light": 6, "medium": 5, "dense": 4}
"""Area terrain -> the cover save X (an X+ save)."""

FACINGS: tuple[str, ...] = ("front", "side", "rear")
"""The armour facings of a vehicle."""

# The Smoke screen reaction gives Shrouded 5+ mitigation for the phase, against
# wounds, penetrating and glancing hits (original: "jet de mitigation de
# Dissimulation (5+) pendant la phase, contre les blessures, les touches
# pénétrantes et les touches superficielles").
SMOKE_SHROUDED = 5

# Panic: a unit that lost 25% or more of its models (of its size at the start
# of the attack) to this attack takes a Leadership test; failed -> Routed
# (original: "Si l'unité a perdu 25 % ou plus de ses figurines pendant cette
# attaque de tir, test de commandement ; en cas d'échec, elle devient En
# déroute").
PANIC_LOSSES = Fraction(1, 4)

MAX_CHARACTERISTIC = 10
"""Characteristics (here a Toughness raised by the Shield reaction) never exceed 10."""
