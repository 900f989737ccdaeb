"""Special rules of Warhammer 40,000 6th edition weapons and models, as data
and small functions of one die.

Weapon rules change one die's chances (to hit, to wound) or the kind of
wound it makes (Rending); model rules (Feel No Pain, Eternal Warrior) change
what an unsaved wound does. Every function here looks at one die at a time
(six faces, six more when rerolled), so its cost is O(1); the pools of dice
are summed by :mod:`exactodds.dice` (binomial or multinomial closed forms).
The rules are written in our own words in docs/wh40k6.md.
"""

from __future__ import annotations

from fractions import Fraction

from ...core import Dist, InputError
from ..common import WOUND_CHART

WEAPON_RULES: dict[str, str] = {
    "twin-linked": "reroll failed to-hit rolls (replaces the BS 6+ reroll of 1s)",
    "preferred-enemy": "reroll to-hit and to-wound rolls of 1",
    "shred": "reroll failed to-wound rolls",
    "poisoned": "wounds on a fixed roll (4+ unless given) unless the chart needs less",
    "rending": "a to-wound roll of 6 always wounds, at AP2",
    "sniper": "wounds on 4+ whatever the Toughness, with Rending",
    "ignores-cover": "no cover saves against this weapon",
    "rapid-fire": "two shots within half range, one beyond (a range is required)",
    "heavy": "snap shots if the unit moved",
    "salvo": "half the shots if the unit moved (Salvo X/Y: give salvo X/Y instead)",
    "relentless": "ignores Heavy and Salvo",
    "gets-hot": "each final to-hit roll of 1 costs the firing model a wound (armour or invulnerable save)",
    "melta": "within half range (range half), armour penetration rolls 2D6 + S",
    "armourbane": "armour penetration rolls 2D6 + S at any range",
    "lance": "armour values above 12 count as 12",
    "pinning": "a unit it wounds (unsaved) tests Leadership or goes to ground",
}
"""The weapon rules a shooting attack may have, and what each does."""

MODEL_RULES: dict[str, str] = {
    "furious-charge": "+1 Strength in the fight of the turn it charges",
    "rage": "+2 Attacks instead of +1 when charging",
    "counter-attack": "+1 Attack when charged",
    "hatred": "reroll failed to-hit rolls in the first fight round (the fight of a charge)",
    "fearless": "passes morale tests automatically, so never falls back from a fight",
    "stubborn": "takes morale tests without negative modifiers",
    "hammer-of-wrath": "on the charge, one automatic hit at its unmodified Strength, no AP, at Initiative 10",
    "and-they-shall-know-no-fear": "regroups automatically; caught by a sweeping advance, its unit is not "
                                   "destroyed and fights on",
    "relentless": "fires Heavy and Salvo weapons as if stationary",
}
"""The close-combat and morale rules a model line of a unit file may have
(``rules = [...]``); Fleet is a property of the charge roll (the charge command)."""

FIRE_MODES = ("rapid-fire", "heavy", "salvo")
"""Weapon types of shots: at most one of them per weapon."""

RANGES = ("half", "full")
"""How far the target is: within half the weapon's range, or beyond it."""

FEEL_NO_PAIN_VALUES = range(2, 7)
"""Feel No Pain X+ rolls a D6 and needs X: from 2+ to 6+."""

RENDING_AP = 2
"""A rending wound is resolved at AP2."""

SNIPER_WOUNDS_ON = 4
"""A sniper weapon wounds on 4+ whatever the Toughness."""

POISONED_DEFAULT = 4
"""Poisoned with no number given is Poisoned (4+)."""

LANCE_ARMOUR = 12
"""Lance: an Armour Value above 12 counts as 12."""


def penetration_dice(rules: tuple[str, ...], range: str | None) -> int:
    """The D6s an armour penetration roll adds to Strength: 2 with Armourbane, or
    Melta within half range; else 1. O(1)."""
    return 2 if "armourbane" in rules or ("melta" in rules and range == "half") else 1


def armour_against(rules: tuple[str, ...], armour: int) -> int:
    """The Armour Value a weapon penetrates against: above 12 counts as 12 with Lance. O(1)."""
    return min(armour, LANCE_ARMOUR) if "lance" in rules else armour

WOUND, RENDING, FAIL = "wound", "rending", "fail"


def check_weapon_rules(rules: object, what: str = "a weapon") -> tuple[str, ...]:
    """The weapon ``rules`` of a unit file's weapon as a sorted tuple of names, refusing
    unknown names and combinations that cannot be (two fire modes)."""
    if isinstance(rules, str) or not isinstance(rules, (list, tuple, set, frozenset)):
        raise InputError(f"{what}'s rules must be a list of rule names, not {rules!r:.60}")
    out = set()
    for r in rules:
        if not isinstance(r, str) or r not in WEAPON_RULES:
            raise InputError(f"unknown weapon rule {r!r:.60} on {what}: use {', '.join(WEAPON_RULES)}")
        out.add(r)
    modes = [m for m in FIRE_MODES if m in out]
    if len(modes) > 1:
        raise InputError(f"{what} is both {' and '.join(modes)}: a weapon has one type (rapid-fire, heavy or salvo)")
    return tuple(sorted(out))


def check_feel_no_pain(value: object, what: str = "feel no pain") -> int | None:
    """None or a Feel No Pain roll X (for X+) from 2 to 6."""
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or value not in FEEL_NO_PAIN_VALUES:
        raise InputError(f"{what} {value!r:.60} is not allowed: Feel No Pain is a D6 roll from 2+ to 6+")
    return value


def hit_chance_with_rerolls(p_first: Fraction, again: Fraction | None, reroll_failed: bool,
                            reroll_ones: bool) -> Fraction:
    """P(one shot hits) from the first roll's chance ``p_first`` (whose target is 2+ or
    more, so a 1 always misses) and the BS 6+ table's chance ``again`` for a rerolled 1
    (None below BS 6). A die is rerolled at most once:

    - every failed roll rerolled at the first roll's score (twin-linked): p + (1 - p) p;
    - 1s rerolled at the first roll's score (Preferred Enemy): p + p/6; at BS 6+ this is
      never worse than the table's own reroll of 1s (the first score is 2+), so it
      replaces it;
    - else the table: p + again/6 at BS 6+, p below. O(1).
    """
    if reroll_failed:
        return p_first + (1 - p_first) * p_first
    if reroll_ones:
        return p_first + Fraction(1, 6) * p_first
    if again is not None:
        return p_first + Fraction(1, 6) * again
    return p_first


def wound_roll_needed(strength: int, toughness: int, rules: tuple[str, ...], poisoned: int | None) -> int | None:
    """The natural roll a to-wound die needs (None: no roll wounds, save Rending's 6s).

    The S vs T chart; Poisoned (X+): X unless the chart needs less; Sniper: 4+
    whatever the Toughness (with Poisoned too, the better of the two). O(1).
    """
    diff = min(strength - toughness, 2)
    needed = WOUND_CHART.get(diff)
    if "sniper" in rules:
        needed = SNIPER_WOUNDS_ON
    if poisoned is not None:
        needed = poisoned if needed is None else min(needed, poisoned)
    return needed


def rending_applies(rules: tuple[str, ...]) -> bool:
    """Whether a to-wound 6 always wounds (Rending, or Sniper which has Rending)."""
    return "rending" in rules or "sniper" in rules


def rending_changes_ap(rules: tuple[str, ...], ap: int | None) -> bool:
    """Whether a rending wound differs from a normal one: it does when the weapon's
    own AP is worse than AP2."""
    return rending_applies(rules) and (ap is None or ap > RENDING_AP)


def wound_die(needed: int | None, rules: tuple[str, ...], ap: int | None) -> Dist:
    """One to-wound die after its reroll, as a category: ``"wound"``, ``"rending"``
    (a natural 6 of a rending weapon whose AP2 beats the weapon's own AP) or
    ``"fail"``.

    A natural 6 always wounds with Rending. Shred rerolls a failed roll, Preferred
    Enemy a roll of 1 (Shred covers it); the reroll is classified the same way and is
    final. Enumerates 6 faces and 6 reroll faces: O(1).
    """
    auto_six = rending_applies(rules)
    separate = rending_changes_ap(rules, ap)

    def category(face: int) -> str:
        if auto_six and face == 6:
            return RENDING if separate else WOUND
        return WOUND if needed is not None and face >= needed else FAIL

    def rerolled(face: int) -> bool:
        return "shred" in rules or ("preferred-enemy" in rules and face == 1)

    weights: dict[str, int] = {}
    for face in range(1, 7):
        first = category(face)
        if first == FAIL and rerolled(face):
            for again in range(1, 7):
                c = category(again)
                weights[c] = weights.get(c, 0) + 1
        else:
            weights[first] = weights.get(first, 0) + 6
    return Dist.from_weights({k: w for k, w in weights.items() if w})


def check_model_rules(rules: object, what: str = "a model") -> tuple[str, ...]:
    """The model ``rules`` as a sorted tuple, refusing unknown names."""
    if isinstance(rules, str) or not isinstance(rules, (list, tuple, set, frozenset)):
        raise InputError(f"{what}'s rules must be a list of rule names, not {rules!r:.60}")
    for r in rules:
        if not isinstance(r, str) or r not in MODEL_RULES:
            raise InputError(f"unknown rule {r!r:.60} on {what}: use {', '.join(MODEL_RULES)}")
    return tuple(sorted(set(rules)))
