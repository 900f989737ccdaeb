"""40K weapon profiles (Range, Strength, AP, Type) -> unit-file weapon tables.

The Type text holds the weapon's type, its shots and its special rules:
``"Rapid Fire"``, ``"Assault 2, Rending"``, ``"Heavy 1, Blast"``, ``"Salvo 2/4"``
(``shots = "2/4"``), ``"Assault D6"``, ``"Pistol"``; close-combat weapons
(``"Melee, ..."``) are :mod:`.melee_text`'s. A
selection with several profiles (a missile launcher's frag and krak missiles)
fires its strongest; the others are kept as a comment. Grenades are not
imported as every model's weapon (one model of a unit throws one).

Cost: O(length of the Type text) per profile.
"""

from __future__ import annotations

import re

from ...core import InputError
from ...rules.wh40k6.traits import WEAPON_RULES
from .output import UnitFile
from .tree import Profile, Selection

TYPE_RULES = {"twin-linked": "twin-linked", "rending": "rending", "sniper": "sniper", "shred": "shred",
              "ignores cover": "ignores-cover", "gets hot": "gets-hot", "gets hot!": "gets-hot",
              "preferred enemy": "preferred-enemy", "relentless": "relentless", "poisoned": "poisoned",
              "melta": "melta", "lance": "lance", "armourbane": "armourbane", "pinning": "pinning"}
"""Special rules of a weapon's Type text (lower case) -> unit-file weapon rules."""

FIRE_TYPES = {"rapid fire": "rapid-fire", "heavy": "heavy", "salvo": "salvo", "assault": "", "pistol": "",
              "ordnance": "heavy"}
_FIRE = re.compile(r"^(rapid fire|assault|heavy|salvo|pistol|ordnance)\s*(.*)$", re.IGNORECASE)
_RANDOM = re.compile(r"^\d*D[36](\+\d+)?$", re.IGNORECASE)
_SALVO = re.compile(r"^(\d+)\s*/\s*(\d+)$")
_POISONED = re.compile(r"^poisoned\s*\(\s*([2-6])\s*\+\s*\)$", re.IGNORECASE)
_MULTIPLY = re.compile(r"^[x×]\s*(\d+)$", re.IGNORECASE)


def _weapon_profiles(s: Selection) -> list[Profile]:
    return [p for p in s.profiles if p.type_name == "Weapon"]


def _is_melee(p: Profile) -> bool:
    return p.characteristics.get("Type", "").strip().casefold().startswith("melee")


def is_ranged(s: Selection) -> bool:
    """Whether the selection holds a ranged weapon profile (grenades excepted)."""
    return "grenade" not in s.name.casefold() and any(not _is_melee(p) for p in _weapon_profiles(s))


def _number(text: str, lo: int, hi: int) -> int | None:
    t = text.strip().rstrip('"').rstrip("”").strip()
    return int(t) if t.isdigit() and lo <= int(t) <= hi else None


def _strength(text: str, user: int | None) -> int | None:
    """A Strength: a number, or ``User``, ``+1``, ``x2`` of the model's (capped at 10)."""
    t = text.strip().casefold()
    if t == "user" and user is not None:
        return user
    if t.startswith("+") and t[1:].isdigit() and user is not None:
        return min(10, user + int(t[1:]))
    m = _MULTIPLY.match(t)
    if m and user is not None:
        return min(10, user * int(m.group(1)))
    return _number(t, 1, 10)


def _fire(first: str, table: dict, unit: UnitFile, name: str) -> None:
    m = _FIRE.match(first)
    if m is None:
        unit.note(f"weapon {name}: type {first!r} not modelled (fired as a normal weapon)")
        return
    kind, shots = m.group(1).casefold(), m.group(2).strip()
    if FIRE_TYPES[kind] and not (kind == "salvo" and _SALVO.match(shots)):
        table.setdefault("rules", []).append(FIRE_TYPES[kind])
    if kind == "ordnance":
        unit.note(f"weapon {name}: Ordnance fired as Heavy (its armour penetration is not modelled)")
    salvo = _SALVO.match(shots)
    if salvo and int(salvo.group(1)) <= int(salvo.group(2)):
        table["shots"] = f"{int(salvo.group(1))}/{int(salvo.group(2))}"
    elif salvo:
        unit.note(f"weapon {name}: Salvo {shots} not read (the lower number comes first): one shot")
    elif _RANDOM.match(shots):
        table["random_shots"] = shots.upper()
    elif shots.isdigit() and 1 <= int(shots) <= 100:
        table["shots"] = int(shots)
    elif shots:
        unit.note(f"weapon {name}: shots {shots!r} not read (one shot)")


def _special(token: str, table: dict, unit: UnitFile, name: str) -> None:
    t = token.strip().casefold()
    poisoned = _POISONED.match(token.strip())
    if t in ("blast", "large blast", "template"):
        table["type"] = "template" if t == "template" else "blast"
        if t == "large blast":
            unit.note(f"weapon {name}: Large Blast read as a blast (models hit: the shots)")
    elif poisoned:
        table.setdefault("rules", []).append("poisoned")
        table["poisoned"] = int(poisoned.group(1))
    elif TYPE_RULES.get(t) in WEAPON_RULES:
        table.setdefault("rules", []).append(TYPE_RULES[t])
    else:
        unit.note(f"weapon {name}: rule not modelled: {token.strip()}")


def ranged_weapon(s: Selection, unit: UnitFile, strength: int | None = None,
                  extra_rules: set[str] | None = None) -> tuple[str, dict | None]:
    """The unit-file name and table of the weapon selection's strongest ranged
    profile, or (name, None) with a note when it cannot be read."""
    profiles = [p for p in _weapon_profiles(s) if not _is_melee(p)]
    best = max(profiles, key=lambda p: _strength(p.characteristics.get("Strength", ""), strength) or 0)
    key = (s.name if len(profiles) > 1 else best.name).casefold()
    if len(profiles) > 1:
        unit.note(f"weapon {key}: fires its {best.name} profile (also: "
                  f"{', '.join(p.name for p in profiles if p is not best)})", warn=False)
    chars = best.characteristics
    for needed in ("Range", "Strength", "AP", "Type"):
        if needed not in chars:
            raise InputError(f"{unit.name}: weapon profile {best.name!r} has no {needed} characteristic")
    table: dict = {}
    rng = chars["Range"].strip()
    if rng.casefold() == "template":
        table["type"] = "template"
    elif _number(rng, 1, 1000) is not None:
        table["range"] = _number(rng, 1, 1000)
    value = _strength(chars["Strength"], strength)
    if value is None:
        unit.note(f"weapon {key}: Strength {chars['Strength']!r} cannot be read: not imported")
        return key, None
    table["strength"] = value
    ap = _number(chars["AP"], 1, 6)
    if ap is not None:
        table["ap"] = ap
    tokens = [t for t in chars["Type"].split(",") if t.strip()]
    _fire(tokens[0].strip() if tokens else "Assault 1", table, unit, key)
    for token in tokens[1:]:
        _special(token, table, unit, key)
    if key.startswith("twin-linked") and "twin-linked" not in table.get("rules", []):
        table.setdefault("rules", []).append("twin-linked")
    for r in sorted(extra_rules or ()):
        if r not in table.get("rules", []):
            table.setdefault("rules", []).append(r)
    if "rules" in table:
        table["rules"] = sorted(table.pop("rules"))
    return key, table
