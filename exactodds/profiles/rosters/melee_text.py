"""40K close-combat weapon profiles (Strength, AP, Type ``"Melee, ..."``) and
pistols -> unit-file close-combat weapon tables (``type = "melee"``).

A profile whose Type begins with ``Melee`` is a close-combat weapon: its
Strength (``User``, ``+1``, ``+2``, ``x2`` or a number), its AP and the rules
after ``Melee`` (``Unwieldy``, ``Specialist Weapon``, ``Concussive``,
``Shred``, ``Rending``, ``Armourbane``, ``Poisoned (4+)``...). A pistol is a
close-combat weapon too (the model's Strength, no AP): it is written as
``"NAME (close combat)"`` beside its ranged table. The engine gives the +1
Attack of two weapons (and withholds it for a lone Specialist Weapon) from
the names a model line lists, so the Attacks value is written as the
profile gives it.

Cost: O(length of the Type text) per profile.
"""

from __future__ import annotations

import re

from ...rules.wh40k6.melee import MELEE_WEAPON_RULES
from .output import UnitFile
from .tree import Profile, Selection

MELEE_TYPE_RULES = {"unwieldy": "unwieldy", "specialist weapon": "specialist-weapon", "concussive": "concussive",
                    "shred": "shred", "rending": "rending", "armourbane": "armourbane", "sniper": "sniper",
                    "poisoned": "poisoned"}
"""Special rules of a close-combat weapon's Type text (lower case) -> unit-file rules."""

_NUMBER = re.compile(r"^\d+$")
_POISONED = re.compile(r"^poisoned\s*\(\s*([2-6])\s*\+\s*\)$", re.IGNORECASE)


def _type(p: Profile) -> str:
    return p.characteristics.get("Type", "").strip()


def _is_pistol(p: Profile) -> bool:
    return _type(p).casefold().startswith("pistol")


def melee_strength(text: str) -> int | str | None:
    """A close-combat Strength as a unit file writes it: ``"user"``, ``"+1"``,
    ``"+2"``, ``"x2"`` or a number from 1 to 10; None when it cannot be read."""
    t = text.strip().casefold().replace("×", "x").replace(" ", "")
    if t in ("user", "+1", "+2", "x2"):
        return t
    return int(t) if _NUMBER.match(t) and 1 <= int(t) <= 10 else None


def _table(p: Profile, unit: UnitFile, line: str) -> dict | None:
    strength = melee_strength(p.characteristics.get("Strength", ""))
    if strength is None:
        unit.note(f"{line}: {p.name}: Strength {p.characteristics.get('Strength')!r} cannot be read: "
                  "not imported")
        return None
    table: dict = {"type": "melee", "strength": strength}
    ap = p.characteristics.get("AP", "").strip()
    if _NUMBER.match(ap) and 1 <= int(ap) <= 6:
        table["ap"] = int(ap)
    rules: list[str] = []
    for token in _type(p).split(",")[1:]:
        t = token.strip()
        poisoned = _POISONED.match(t)
        if poisoned:
            table["poisoned"] = int(poisoned.group(1))
            t = "poisoned"
        rule = MELEE_TYPE_RULES.get(t.casefold())
        if rule in MELEE_WEAPON_RULES:
            rules.append(rule)
        elif t:
            unit.note(f"{line}: {p.name}: rule not modelled: {t}")
    if rules:
        table["rules"] = sorted(set(rules))
    return table


def melee_weapons(weapons: list[Selection], unit: UnitFile, line: str) -> list[tuple[str, dict]]:
    """The close-combat weapons of a model line's weapon selections, in roster
    order: (unit-file name, table) for each Melee profile and each pistol."""
    out: list[tuple[str, dict]] = []
    for s in weapons:
        for p in s.profiles:
            if p.type_name != "Weapon":
                continue
            if _is_pistol(p):
                out.append((f"{p.name.casefold()} (close combat)", {"type": "melee", "strength": "user"}))
            elif _type(p).casefold().startswith("melee"):
                table = _table(p, unit, line)
                if table is not None:
                    out.append((p.name.casefold(), table))
    return out


def is_plain(table: dict) -> bool:
    """A close combat weapon that strikes as the bare hands do (User Strength, no AP, no rules)."""
    return table == {"type": "melee", "strength": "user"}
