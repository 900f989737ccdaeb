"""Close-combat weapons of Warhammer 40,000 6th edition, as data.

A model line names its close-combat weapons (``melee = [...]`` in a unit
file); each is a :class:`MeleeWeapon`: a Strength modifier applied to the
wielder's Strength (``"user"``, ``"+1"``, ``"+2"``, ``"x2"`` or a number;
the result at most 10), an AP and special rules. :func:`strike_profile`
turns a model line, one of its weapons and the turn (charging, difficult
terrain) into the :class:`Blow` it strikes with. Everything here is O(1)
per weapon; the fight itself is :mod:`.fight`.

Multiplications before additions: a power fist (x2) with Furious Charge
(+1) strikes at 2 x S + 1.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import NamedTuple

from ...core import InputError
from ...core.checks import whole_number
from .traits import POISONED_DEFAULT, check_weapon_rules

MELEE_STRENGTHS = ("user", "+1", "+2", "x2")
"""Strength of a close-combat weapon, besides a plain number."""

MELEE_ONLY_RULES: dict[str, str] = {
    "unwieldy": "strikes at Initiative 1",
    "specialist-weapon": "no +1 Attack for two weapons unless both are Specialist Weapons",
    "concussive": "a model that takes an unsaved wound from it and survives strikes at Initiative 1 "
                  "until the end of the next fight round",
    "armourbane": "2D6 armour penetration against vehicles (a charged vehicle)",
}
"""Weapon rules that only close-combat weapons have."""

MELEE_SHARED_RULES = ("rending", "shred", "poisoned", "sniper")
"""Shooting weapon rules that also work in close combat."""

MELEE_WEAPON_RULES: tuple[str, ...] = (*MELEE_ONLY_RULES, *MELEE_SHARED_RULES)
"""Every rule a close-combat weapon may have."""

GRENADES = ("assault",)
"""Grenades a model line may carry (assault grenades: no Initiative 1 after
charging through difficult terrain)."""

HAMMER_OF_WRATH_INITIATIVE = 10
"""Hammer of Wrath hits are struck at Initiative 10."""


def check_strength(value: object, what: str) -> int | str:
    """A close-combat weapon's Strength: a number 1-10 or one of :data:`MELEE_STRENGTHS`."""
    if isinstance(value, str):
        text = value.strip().lower().replace("×", "x")
        if text in MELEE_STRENGTHS:
            return text
        raise InputError(f"{what} {value!r:.40} is not allowed: use user, +1, +2, x2 or a number from 1 to 10")
    whole_number(value, what, 1, 10)
    return value  # type: ignore[return-value]


def apply_strength(modifier: int | str, user: int) -> int:
    """The Strength a blow is struck at: the weapon's modifier on the wielder's
    ``user`` Strength (a number replaces it), at most 10. O(1)."""
    if isinstance(modifier, int):
        s = modifier
    elif modifier == "x2":
        s = 2 * user
    elif modifier == "user":
        s = user
    else:
        s = user + int(modifier)
    return min(10, s)


@dataclass(frozen=True)
class MeleeWeapon:
    """A named close-combat weapon: ``strength`` (see :func:`apply_strength`),
    ``ap`` (None: no AP), ``rules`` (:data:`MELEE_WEAPON_RULES`), ``poisoned``
    (X of Poisoned X+). ``charge_strength`` and ``charge_ap``, when given,
    replace them in the fight of the turn the wielder charged (a power lance:
    +1 and AP3 on the charge, user and AP4 otherwise)."""

    name: str
    strength: int | str = "user"
    ap: int | None = None
    rules: tuple[str, ...] = ()
    poisoned: int | None = None
    charge_strength: int | str | None = None
    charge_ap: int | None = None

    def __post_init__(self) -> None:
        if not isinstance(self.name, str):
            raise InputError(f"a close-combat weapon's name must be text, not {self.name!r:.40}")
        where = f"close-combat weapon {self.name}"
        object.__setattr__(self, "strength", check_strength(self.strength, f"{where}: strength"))
        if self.charge_strength is not None:
            object.__setattr__(self, "charge_strength",
                               check_strength(self.charge_strength, f"{where}: charge_strength"))
        for key, ap in (("ap", self.ap), ("charge_ap", self.charge_ap)):
            if ap is not None:
                whole_number(ap, f"{where}: {key}", 1, 6)
        if isinstance(self.rules, str) or not isinstance(self.rules, (list, tuple)):
            raise InputError(f"{where}: rules must be a list of rule names, not {self.rules!r:.60}")
        only = {r for r in self.rules if r in MELEE_ONLY_RULES}
        shared = [r for r in self.rules if r not in MELEE_ONLY_RULES]
        for r in shared:
            if r not in MELEE_SHARED_RULES:
                raise InputError(f"{where}: rule {r!r:.40} is not allowed in close combat; use "
                                 f"{', '.join(MELEE_WEAPON_RULES)}")
        rules = set(check_weapon_rules(shared, where)) | only
        if self.poisoned is not None:
            whole_number(self.poisoned, f"{where}: poisoned (X for X+)", 2, 6)
            rules.add("poisoned")
        elif "poisoned" in rules:
            object.__setattr__(self, "poisoned", POISONED_DEFAULT)
        object.__setattr__(self, "rules", tuple(sorted(rules)))

    def strength_on(self, user: int, charging: bool) -> int:
        """The Strength of a blow by a wielder of Strength ``user``. O(1)."""
        mod = self.charge_strength if charging and self.charge_strength is not None else self.strength
        return apply_strength(mod, user)

    def ap_on(self, charging: bool) -> int | None:
        """The AP of a blow. O(1)."""
        return self.charge_ap if charging and self.charge_ap is not None else self.ap

    @property
    def specialist(self) -> bool:
        """The weapon has the Specialist Weapon rule."""
        return "specialist-weapon" in self.rules


def two_weapon_bonus(weapons: list[MeleeWeapon], used: MeleeWeapon) -> int:
    """+1 Attack for a model with two or more close-combat weapons, unless the
    one it fights with is a Specialist Weapon and it has fewer than two
    Specialist Weapons. O(weapons)."""
    if len(weapons) < 2:
        return 0
    if used.specialist and sum(w.specialist for w in weapons) < 2:
        return 0
    return 1


class Blow(NamedTuple):
    """How one model line strikes in a fight round: its Initiative step,
    Strength, AP, the weapon rules of its to-wound roll (rending, shred,
    sniper, poisoned), Poisoned X, Attacks added (two weapons), and whether
    its unsaved wounds concuss."""

    initiative: int
    strength: int
    ap: int | None
    rules: tuple[str, ...] = ()
    poisoned: int | None = None
    extra_attacks: int = 0
    concussive: bool = False


def strike_profile(user_strength: int, initiative: int, weapons: list[MeleeWeapon], used: MeleeWeapon,
                   charging: bool, slowed: bool) -> Blow:
    """The :class:`Blow` of a model of Strength ``user_strength`` (Furious
    Charge already added) and ``initiative`` fighting with ``used`` among its
    ``weapons``; ``slowed``: it strikes at Initiative 1 this round (charged
    through difficult terrain without assault grenades). O(weapons)."""
    init = 1 if slowed or "unwieldy" in used.rules else initiative
    wound_rules = tuple(r for r in used.rules if r in MELEE_SHARED_RULES)
    return Blow(init, used.strength_on(user_strength, charging), used.ap_on(charging), wound_rules, used.poisoned,
                two_weapon_bonus(weapons, used), "concussive" in used.rules)


def expected_per_attack(p_hit: Fraction, p_wound: Fraction, p_rending: Fraction, p_unsaved: Fraction,
                        p_unsaved_ap2: Fraction) -> Fraction:
    """Expected unsaved wounds of one attack: a hit, then a wound (normal or
    rending, AP2) the save does not stop. O(1)."""
    return p_hit * (p_wound * p_unsaved + p_rending * p_unsaved_ap2)


def check_melee_names(names: object, what: str) -> tuple[str, ...]:
    """A model line's close-combat weapon names as a tuple of text (repeats allowed: a pair of claws)."""
    if isinstance(names, str) or not isinstance(names, (list, tuple)):
        raise InputError(f"{what} must be a list of close-combat weapon names, not {names!r:.60}")
    for n in names:
        if not isinstance(n, str):
            raise InputError(f"{what}: {n!r:.40} is not a weapon name (text)")
    return tuple(names)
