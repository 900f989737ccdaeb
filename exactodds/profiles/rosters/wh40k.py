"""Warhammer 40,000 (6th and 7th edition data) roster units -> 40K 6th edition unit files.

Profiles as the BSData game systems name them: ``Unit`` (WS, BS, S, T, W, I,
A, Ld, Save), ``Vehicle`` (BS, Front, Side, Rear, HP, Type), ``Walker`` (the
same with WS, S, I, A) and ``Weapon`` (Range, Strength, AP, Type), the
weapon's special rules read from its Type text (:mod:`.weapon_text`). A model
line takes its model's profile, one ranged weapon (a model fires one: the
first that is not a pistol), its close-combat weapons (``melee = [...]``,
pistols included: :mod:`.melee_text`) and its assault grenades;
invulnerable saves come from the descriptions of rules and wargear (the data
has no characteristic for them), model rules from the rules' names. Whatever cannot be mapped is kept as a comment and a
warning (:meth:`UnitFile.note`).

Cost: O(selections of the unit).
"""

from __future__ import annotations

import re

from ...core import InputError
from ...rules.wh40k6.traits import MODEL_RULES, WEAPON_RULES
from .lines import Line, model_lines
from .output import UnitFile
from .tree import Selection
from .melee_text import is_plain, melee_weapons
from .weapon_text import is_ranged, ranged_weapon

MODEL_TYPES = ("Unit", "Walker", "Vehicle")
WEAPON_TYPES = ("Weapon",)
UNIT_STATS = ("WS", "BS", "S", "T", "W", "I", "A", "Ld", "Save")
VEHICLE_STATS = ("Front", "Side", "Rear", "HP", "Type")

RULE_NAMES: dict[str, tuple[str, str]] = {
    "feel no pain": ("feel_no_pain", ""),
    "eternal warrior": ("eternal_warrior", ""),
    "independent character": ("character", ""),
    "furious charge": ("rules", "furious-charge"),
    "rage": ("rules", "rage"),
    "counter-attack": ("rules", "counter-attack"),
    "hatred": ("rules", "hatred"),
    "fearless": ("rules", "fearless"),
    "stubborn": ("rules", "stubborn"),
    "and they shall know no fear": ("rules", "and-they-shall-know-no-fear"),
    "hammer of wrath": ("rules", "hammer-of-wrath"),
    "relentless": ("rules", "relentless"),
    "preferred enemy": ("weapon", "preferred-enemy"),
    "fleet": ("note", "Fleet: ask the charge with --fleet (a property of the charge roll)"),
}
"""Rule names (lower case, without a bracketed value) -> what they become in a unit file."""

ASSAULT_GRENADES = ("frag grenade", "plasma grenade", "assault grenade")
"""Grenades (lower-case name beginnings) that are assault grenades: no Initiative 1 after
charging through difficult terrain."""

_BRACKET = re.compile(r"^(.*?)\s*\(\s*([^)]*)\)\s*$")
_ROLL = re.compile(r"^([2-6])\s*\+?$")
_INVULNERABLE = re.compile(r"([2-6])\s*\+\s*invulnerable", re.IGNORECASE)
_NAMED_INVULNERABLE = re.compile(r"invulnerable save\s*\(?\s*([2-6])\s*\+", re.IGNORECASE)


def stat(profile_chars: dict[str, str], key: str, where: str, lo: int = 1, hi: int = 10) -> int | None:
    """A numeric characteristic (``"4"``, ``"3+"``), None for ``"-"``; an InputError when
    missing or unreadable."""
    if key not in profile_chars:
        raise InputError(f"{where}: the profile has no {key} characteristic")
    text = profile_chars[key].strip().rstrip("+").strip()
    if text in ("-", "*", ""):
        return None
    if not text.isdigit() or not lo <= int(text) <= hi:
        raise InputError(f"{where}: {key} = {profile_chars[key]!r:.20} is not a number from {lo} to {hi}")
    return int(text)


def _apply_rule(line_doc: dict, unit: UnitFile, name: str, weapon_rules: set[str]) -> None:
    m = _BRACKET.match(name)
    base, value = (m.group(1), m.group(2)) if m else (name, "")
    if _NAMED_INVULNERABLE.search(name):
        return  # read by _invulnerable
    known = RULE_NAMES.get(base.strip().casefold())
    if known is None:
        unit.note(f"rule not modelled: {name}")
        return
    key, what = known
    if key == "feel_no_pain":
        roll = _ROLL.match(value.strip())
        line_doc["feel_no_pain"] = int(roll.group(1)) if roll else 5
    elif key in ("eternal_warrior", "character"):
        line_doc[key] = True
    elif key == "weapon" and what in WEAPON_RULES:
        weapon_rules.add(what)
    elif key == "rules" and what in MODEL_RULES:
        if what not in line_doc.setdefault("rules", []):
            line_doc["rules"].append(what)
    elif key == "note":
        unit.note(what, warn=False)
    else:
        unit.note(f"rule not modelled: {name}")


def _invulnerable(line: Line) -> int | None:
    texts = [r.description for r in line.rules] + [r.name for r in line.rules]
    texts += [v for p in line.others for v in p.characteristics.values()]
    found = [int(m.group(1)) for t in texts for m in (_INVULNERABLE.search(t), _NAMED_INVULNERABLE.search(t)) if m]
    return min(found) if found else None


def _model(line: Line, unit: UnitFile, where: str) -> dict:
    chars = line.profile.characteristics
    for key in UNIT_STATS:
        if key not in chars:
            raise InputError(f"{where}: the Unit profile {line.profile.name!r} has no {key} characteristic")
    doc: dict = {"name": line.name}
    if line.count != 1:
        doc["count"] = line.count
    for key, field_name in (("T", "toughness"), ("W", "wounds")):
        value = stat(chars, key, where)
        if value is None:
            raise InputError(f"{where}: {line.profile.name}: {key} = {chars[key]!r:.20} cannot be read as a {field_name}")
        doc[field_name] = value
    save = stat(chars, "Save", where, 2, 7)
    if save is not None and save <= 6:
        doc["save"] = save
    invulnerable = _invulnerable(line)
    if invulnerable is not None:
        doc["invulnerable"] = invulnerable
    if "character" in chars.get("Unit Type", "").casefold():
        doc["character"] = True
    weapon_rules: set[str] = set()
    for rule in dict.fromkeys(r.name for r in line.rules):
        _apply_rule(doc, unit, rule, weapon_rules)
    if doc.get("character"):
        doc["look_out_sir"] = True
    fights_with = _melee(doc, line, unit, where)
    _ranged(doc, line, unit, weapon_rules, where)
    names = [_add_weapon(unit, key, table, line.name) for key, table in fights_with]
    if names:
        doc["melee"] = names[0] if len(names) == 1 else names
    return doc


def _melee(doc: dict, line: Line, unit: UnitFile, where: str) -> list[tuple[str, dict]]:
    """The close-combat profile into ``doc``; the close-combat weapons to name (none
    when the model has one plain close combat weapon: it strikes as its profile does)."""
    chars = line.profile.characteristics
    values = {k: stat(chars, k, where) for k in ("WS", "I", "S", "Ld")}
    attacks = chars["A"].strip()
    if any(v is None for v in values.values()) or attacks in ("-", ""):
        unit.note(f"{line.name}: no close-combat profile (a '-' among WS, I, A, S, Ld)")
        return []
    doc.update(ws=values["WS"], initiative=values["I"], attacks=int(attacks) if attacks.isdigit() else attacks,
               strength=values["S"], leadership=values["Ld"])
    found = melee_weapons(line.weapons, unit, line.name)
    return [] if len(found) == 1 and is_plain(found[0][1]) else found


def _add_weapon(unit: UnitFile, key: str, table: dict, line_name: str) -> str:
    """Put a weapon table in the unit file under ``key`` (or, when another line's
    weapon of that name differs, ``key (line name)``); the name used."""
    if key in unit.weapons and unit.weapons[key] != table:
        key = f"{key} ({line_name.casefold()})"
    unit.weapons[key] = table
    return key


def _ranged(doc: dict, line: Line, unit: UnitFile, weapon_rules: set[str], where: str) -> None:
    shooting = [w for w in line.weapons if is_ranged(w)]
    grenades = [w.name for w in line.weapons if "grenade" in w.name.casefold()]
    if any(w.casefold().startswith(ASSAULT_GRENADES) for w in grenades):
        doc["grenades"] = ["assault"]
    thrown = [w for w in grenades if not w.casefold().startswith(ASSAULT_GRENADES)]
    if thrown:
        unit.note(f"{line.name}: grenades not imported: {', '.join(thrown)}", warn=False)
    if not shooting:
        return
    chosen = next((w for w in shooting if "pistol" not in _types(w)), shooting[0])
    others = [w.name for w in shooting if w is not chosen]
    if others:
        unit.note(f"{line.name}: also carries {', '.join(others)} (a model fires one weapon: {chosen.name})",
                  warn=False)
    bs = stat(line.profile.characteristics, "BS", where)
    if bs is None:
        unit.note(f"{line.name}: BS '-': its weapons are not imported")
        return
    key, table = ranged_weapon(chosen, unit, strength=doc.get("strength"), extra_rules=weapon_rules)
    if table is None:
        return
    doc["bs"] = bs
    doc["weapon"] = _add_weapon(unit, key, table, line.name)


def _types(w: Selection) -> str:
    return " ".join(p.characteristics.get("Type", "") for p in w.profiles).casefold()


def _vehicle(unit_sel: Selection, lines: list[Line], unit: UnitFile, where: str) -> None:
    line = lines[0]
    chars = line.profile.characteristics
    for key in ("Front", "Side", "Rear", "HP"):
        if key not in chars:
            raise InputError(f"{where}: the {line.profile.type_name} profile {line.profile.name!r} has no "
                             f"{key} characteristic")
    doc: dict = {"name": line.name}
    for key, field_name in (("Front", "front"), ("Side", "side"), ("Rear", "rear")):
        doc[field_name] = stat(chars, key, where, 10, 14)
    doc["hull_points"] = stat(chars, "HP", where)
    if any(v is None for v in doc.values()):
        raise InputError(f"{where}: {line.profile.name}: an armour value or HP of '-' cannot be read")
    if "open-topped" in chars.get("Type", "").casefold():
        doc["open_topped"] = True
    if len(lines) > 1 or line.count > 1:
        unit.note(f"a squadron of {sum(x.count for x in lines)} vehicles: one {line.name} is written "
                  "(squadrons are not modelled)")
    weapons = sorted({w.name for x in lines for w in x.weapons})
    if weapons:
        unit.note(f"vehicle weapons not imported (a firing vehicle is not modelled): {', '.join(weapons)}")
    for rule in dict.fromkeys(r.name for r in line.rules):
        unit.note(f"rule not modelled: {rule}")
    unit.models.append(doc)


def convert(unit_sel: Selection, system: str, where: str) -> UnitFile:
    """One roster unit as a 40K 6th edition unit (or vehicle) file."""
    unit = UnitFile(unit_sel.name, system)
    lines, unplaced = model_lines(unit_sel, MODEL_TYPES, WEAPON_TYPES, where)
    unit.top["name"] = unit_sel.name
    vehicles = [x for x in lines if x.profile.type_name in ("Vehicle", "Walker")]
    if vehicles:
        if len(vehicles) != len(lines):
            unit.note("models other than the vehicle are not imported (a vehicle file holds one vehicle)")
        _vehicle(unit_sel, vehicles, unit, where)
    else:
        unit.models.extend(_model(line, unit, where) for line in lines)
    for w in unplaced:
        unit.note(f"weapon not imported (more special weapons than models): {w.name}")
    return unit
