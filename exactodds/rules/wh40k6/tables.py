"""Warhammer 40,000 6th edition tables, as data.

The to-hit table of shooting (Ballistic Skill, BS), and the to-hit table of
close combat (Weapon Skill, WS). The to-wound chart and the choice of the
best save are shared with Horus Heresy and live in
:mod:`exactodds.rules.common`.
"""

from __future__ import annotations

from fractions import Fraction

from ...core import InputError
from ...dice import Target, target_with_reroll
from ...core.checks import is_whole

# The rules text, "Tirs au jugé" (snap shots) and "Capacité de tir de 6 ou
# mieux" (BS 6 or better), CT being the French for BS:
#   "CT1 6 ; CT2 5+ ; CT3 4+ ; CT4 3+ ; CT5 2+"
#   "CT6 2/6 ; CT7 2/5 ; CT8 2/4 ; CT9 2/3 ; CT10 2/2"
# ("le score requis est indiqué dans le tableau ci dessous après la barre
# oblique": the number after the slash is what a rerolled 1 needs.)
# In English, "To hit (shooting)":
#   | BS     | 1 | 2  | 3  | 4  | 5  | 6                  | 7       | 8       | 9       | 10      |
#   | hit on | 6 | 5+ | 4+ | 3+ | 2+ | 2+, reroll 1s at 6 | 2+ / 5+ | 2+ / 4+ | 2+ / 3+ | 2+ / 2+ |
BS_TABLE: dict[int, tuple[int, int | None]] = {
    1: (6, None), 2: (5, None), 3: (4, None), 4: (3, None), 5: (2, None),
    6: (2, 6), 7: (2, 5), 8: (2, 4), 9: (2, 3), 10: (2, 2),
}
"""BS -> (natural roll needed, roll needed when a 1 is rerolled, or None: no reroll)."""

SNAP_SHOT_BS = 1
"""A snap shot counts as BS 1. Original: "sa CT compte comme étant de 1 pour
la résolution de ce tir"."""


def check_bs(bs: int) -> int:
    """``bs`` if it is a Ballistic Skill of the table (1 to 10), else an InputError."""
    if not is_whole(bs) or bs not in BS_TABLE:
        raise InputError(f"BS {bs!r} is not allowed: Ballistic Skill is a whole number from 1 to 10")
    return bs


def bs_target(bs: int) -> Target:
    """The first to-hit roll's target at ``bs`` (the part before the slash)."""
    return Target.at_least(BS_TABLE[check_bs(bs)][0])


def bs_hit_chance(bs: int) -> Fraction:
    """P(one shot hits) with the BS table alone, its reroll of 1s included.

    BS 6-10: 31/36, 8/9, 11/12, 17/18, 35/36. O(1).
    """
    first, again = BS_TABLE[check_bs(bs)]
    if again is None:
        return Target.at_least(first).chance()
    return target_with_reroll(Target.at_least(first), {1}, Target.at_least(again))


# The 6th-edition rulebook's close combat to-hit table (not in the quoted rules
# text): attacker WS > target WS 3+; otherwise 4+; target WS more than twice the
# attacker's 5+. The three
# rows, in the order they are tried (the first that applies gives the roll):
WS_RULES: tuple[tuple[str, int], ...] = (
    ("target WS more than twice the attacker's", 5),
    ("attacker WS greater than target WS", 3),
    ("otherwise", 4),
)
"""(condition, natural roll needed), tried in order."""

WS_VALUES = range(1, 11)


def _ws_needed(attacker: int, target: int) -> int:
    conditions = (target > 2 * attacker, attacker > target, True)
    return next(needed for (_, needed), holds in zip(WS_RULES, conditions, strict=True) if holds)


WS_TABLE: dict[tuple[int, int], int] = {(a, t): _ws_needed(a, t) for a in WS_VALUES for t in WS_VALUES}
"""(attacker WS, target WS) -> natural roll needed to hit in close combat, for WS 1 to 10."""


def ws_target(attacker_ws: int, target_ws: int) -> Target:
    """The close-combat to-hit roll of ``attacker_ws`` against ``target_ws``."""
    for name, v in (("attacker WS", attacker_ws), ("target WS", target_ws)):
        if not is_whole(v) or v not in WS_VALUES:
            raise InputError(f"{name} {v!r} is not allowed: Weapon Skill is a whole number from 1 to 10")
    return Target.at_least(WS_TABLE[attacker_ws, target_ws])


# The 6th-edition Vehicle Damage table, rolled (D6 + modifiers) for each
# penetrating hit; glancing hits do not roll on it:
#   | D6 + modifiers | 1-3          | 4            | 5                | 6           | 7+        |
#   | result         | Crew Shaken  | Crew Stunned | Weapon Destroyed | Immobilised | Explodes! |
# Modifiers: AP1 weapon +2, AP2 weapon +1, open-topped vehicle +1.
VEHICLE_DAMAGE_TABLE: dict[int, str] = {1: "crew shaken", 2: "crew shaken", 3: "crew shaken", 4: "crew stunned",
                                        5: "weapon destroyed", 6: "immobilised", 7: "explodes"}
"""D6 + modifiers (7 and more read as 7) -> the result of one penetrating hit."""

VEHICLE_DAMAGE_AP: dict[int, int] = {1: 2, 2: 1}
"""Weapon AP -> modifier to the Vehicle Damage roll (other APs: none)."""

OPEN_TOPPED_DAMAGE = 1
"""Modifier to the Vehicle Damage roll against an open-topped vehicle."""

ARMOUR_VALUES = range(10, 15)
"""Armour Values 10 to 14."""

FACINGS = ("front", "side", "rear")
"""The armour facings a shot can hit."""

VEHICLE_MOVED: dict[str, str] = {
    "none": "did not move in its last turn: blows hit it automatically",
    "combat": "moved at combat speed: blows hit it on 4+",
    "flat-out": "moved flat out: blows hit it on 6+",
}
"""How a vehicle without Weapon Skill moved in its last turn, and what blows need to hit it."""
VEHICLE_HIT_ON: dict[str, int | None] = {"none": None, "combat": 4, "flat-out": 6}
"""The D6 a blow needs to hit a vehicle without Weapon Skill (None: it hits automatically)."""
