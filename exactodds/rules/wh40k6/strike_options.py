"""The ways each model line of a unit may strike in close combat, Warhammer
40,000 6th edition: the :class:`~.melee.Blow` of each close-combat weapon it
may fight with (or its own Strength and AP when it names none), and the
chances a blow wounds a target of a given Toughness.
"""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from ..common import wound_target
from .melee import Blow, MeleeWeapon, strike_profile
from .traits import RENDING, WOUND, wound_die, wound_roll_needed
from .units import Melee, Model, Unit


def weapon_blows(unit: Unit, m: Model, charging: bool, slowed: bool) -> list[tuple[MeleeWeapon | None, Blow]]:
    """The ways model line ``m`` of ``unit`` may strike: (weapon, its :class:`Blow`)
    for each close-combat weapon it may fight with (``melee_uses`` alone when
    given), or (None, its own Strength and AP) when it names no weapon. Furious
    Charge's +1 is added after the weapon's modifier (multiplications before
    additions); a weapon of fixed Strength ignores it. O(weapons)."""
    p: Melee = m.melee  # type: ignore[assignment]
    furious = 1 if charging and "furious-charge" in m.rules else 0
    if not m.melee_weapons:
        return [(None, Blow(1 if slowed else p.initiative, min(10, p.strength + furious), p.ap))]
    weapons = [unit.melee_weapon(n) for n in m.melee_weapons]
    names = [m.melee_uses] if m.melee_uses is not None else list(dict.fromkeys(m.melee_weapons))
    out: list[tuple[MeleeWeapon | None, Blow]] = []
    for n in names:
        w = unit.melee_weapon(n)
        b = strike_profile(p.strength, p.initiative, weapons, w, charging, slowed)
        modifier = w.charge_strength if charging and w.charge_strength is not None else w.strength
        if isinstance(modifier, str):  # a weapon of fixed Strength ignores Furious Charge
            b = b._replace(strength=min(10, b.strength + furious))
        out.append((w, b))
    return out


def line_options(unit: Unit, charging: bool, slowed_lines: Sequence[bool]) -> list[list[Blow]]:
    """Per model line, the :class:`Blow` of each way it may strike
    (:func:`weapon_blows`), weapons that strike alike counted once. O(weapons)."""
    out = []
    for m, slowed in zip(unit.models, slowed_lines, strict=True):
        blows: list[Blow] = []
        for _, b in weapon_blows(unit, m, charging, slowed):
            if b not in blows:  # weapons that strike alike are one choice
                blows.append(b)
        out.append(blows)
    return out


def wound_chances(blow: Blow, toughness: int) -> tuple[Fraction, Fraction]:
    """P(a hit wounds with the blow's own AP), P(it makes a rending wound, AP2).
    Poisoned in close combat also rerolls failed to-wound rolls when the
    blow's Strength is higher than the Toughness. O(1)."""
    rules = blow.rules
    if "poisoned" in rules and blow.strength > toughness and "shred" not in rules:
        rules = (*rules, "shred")
    if not rules:
        return wound_target(blow.strength, toughness).chance(), Fraction(0)
    die = wound_die(wound_roll_needed(blow.strength, toughness, rules, blow.poisoned), rules, blow.ap)
    return die.pmf(WOUND), die.pmf(RENDING)
