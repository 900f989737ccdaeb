"""Horus Heresy 3rd edition roster units -> Horus Heresy unit files (firing and target keys).

Profiles as the BSData Horus Heresy 3rd edition system names them:
``Profile`` (M, WS, BS, S, T, W, I, A, LD, CL, WP, IN, SAV, INV), ``Vehicle``
(BS, Front Armour, Side Armour, Rear Armour, HP), ``Ranged Weapon`` (R, FP, RS,
AP, D, Special Rules, Traits) and ``Melee Weapon``. A model line fires one
ranged weapon (the first that is not a pistol); the unit's Leadership and
Cool are its best. Traits and special rules the engine does not model, melee
weapons and the others are kept as comments and warnings.

Cost: O(selections of the unit).
"""

from __future__ import annotations

import re

from ...core import InputError
from ...rules.hh3.units import WEAPON_TRAITS
from .lines import Line, model_lines
from .output import UnitFile
from .tree import Selection
from .wh40k import stat

MODEL_TYPES = ("Profile", "Vehicle")
WEAPON_TYPES = ("Ranged Weapon", "Melee Weapon")
PROFILE_STATS = ("BS", "T", "W", "LD", "SAV", "INV")
_RANDOM = re.compile(r"^\d*D[36](\+\d+)?$", re.IGNORECASE)
_IGNORED_TRAITS = {"-", ""}


def _armour(chars: dict[str, str], side: str, where: str) -> int:
    key = f"{side} Armour" if f"{side} Armour" in chars else side
    value = stat(chars, key, where, 10, 14)
    if value is None:
        raise InputError(f"{where}: {key} = '-' cannot be read as an Armour Value")
    return value


def _weapon(sel: Selection, unit: UnitFile, where: str) -> tuple[str, dict]:
    p = next(p for p in sel.profiles if p.type_name == "Ranged Weapon")
    chars = p.characteristics
    for key in ("FP", "RS", "AP", "D"):
        if key not in chars:
            raise InputError(f"{where}: Ranged Weapon profile {p.name!r} has no {key} characteristic")
    fp = chars["FP"].strip()
    table: dict = {"firepower": int(fp) if fp.isdigit() else fp.upper() if _RANDOM.match(fp) else None}
    if table["firepower"] is None:
        raise InputError(f"{where}: {p.name}: FP = {fp!r:.20} is not a number or a roll (D3, D6...)")
    strength = stat(chars, "RS", where)
    damage = stat(chars, "D", where, 1, 100)
    if strength is None or damage is None:
        raise InputError(f"{where}: {p.name}: RS and D must be numbers")
    ap = stat(chars, "AP", where, 1, 6)
    table.update(strength=strength, ap="-" if ap is None else ap, damage=damage)
    traits, unknown = [], []
    for text in (chars.get("Traits", ""), chars.get("Special Rules", "")):
        for token in (t.strip() for t in text.split(",")):
            name = token.casefold().replace(" ", "-")
            if name in WEAPON_TRAITS:
                traits.append(name)
            elif token not in _IGNORED_TRAITS:
                unknown.append(token)
    if unknown:
        unit.note(f"weapon {p.name.casefold()}: traits and rules not modelled: {', '.join(unknown)}")
    if traits:
        table["traits"] = sorted(set(traits))
    return p.name.casefold(), table


def _fires(line: Line, doc: dict, unit: UnitFile, where: str) -> None:
    ranged = [w for w in line.weapons if any(p.type_name == "Ranged Weapon" for p in w.profiles)]
    melee = sorted({w.name for w in line.weapons if w not in ranged})
    if melee:
        unit.note(f"{line.name}: melee weapons not imported (close combat is not modelled here): "
                  f"{', '.join(melee)}")
    if not ranged:
        return
    pistol = [w for w in ranged if "pistol" in " ".join(p.characteristics.get("Traits", "") + " " + p.name
                                                        for p in w.profiles).casefold()]
    chosen = next((w for w in ranged if w not in pistol), ranged[0])
    if len(ranged) > 1:
        unit.note(f"{line.name}: fires {chosen.name} (a model line fires one weapon; also carries "
                  f"{', '.join(w.name for w in ranged if w is not chosen)})")
    bs = stat(line.profile.characteristics, "BS", where)
    if bs is None:
        unit.note(f"{line.name}: BS '-': its weapons are not imported")
        return
    key, table = _weapon(chosen, unit, where)
    if key in unit.weapons and unit.weapons[key] != table:
        key = f"{key} ({line.name.casefold()})"
    unit.weapons[key] = table
    doc["bs"], doc["weapon"] = bs, key


def _model(line: Line, unit: UnitFile, where: str) -> dict:
    chars = line.profile.characteristics
    doc: dict = {"name": line.name}
    if line.count != 1:
        doc["count"] = line.count
    if line.profile.type_name == "Vehicle":
        doc["armour"] = {side.casefold(): _armour(chars, side, where) for side in ("Front", "Side", "Rear")}
        hp = stat(chars, "HP", where, 1, 100)
        if hp is None:
            raise InputError(f"{where}: {line.profile.name}: HP = '-' cannot be read")
        doc["hull_points"] = hp
    else:
        for key in PROFILE_STATS:
            if key not in chars:
                raise InputError(f"{where}: the Profile {line.profile.name!r} has no {key} characteristic")
        toughness, wounds = stat(chars, "T", where), stat(chars, "W", where, 1, 100)
        if toughness is None or wounds is None:
            raise InputError(f"{where}: {line.profile.name}: T and W must be numbers")
        doc.update(toughness=toughness, wounds=wounds)
        for key, field_name in (("SAV", "save"), ("INV", "invulnerable")):
            value = stat(chars, key, where, 2, 7)
            if value is not None and value <= 6:
                doc[field_name] = value
    _fires(line, doc, unit, where)
    for rule in dict.fromkeys(r.name for r in line.rules):
        unit.note(f"rule not modelled: {rule}")
    return doc


def convert(unit_sel: Selection, system: str, where: str) -> UnitFile:
    """One roster unit as a Horus Heresy unit file."""
    unit = UnitFile(unit_sel.name, system)
    lines, unplaced = model_lines(unit_sel, MODEL_TYPES, WEAPON_TYPES, where)
    unit.top["name"] = unit_sel.name
    people = [x.profile.characteristics for x in lines if x.profile.type_name == "Profile"]
    for key, field_name in (("LD", "leadership"), ("CL", "cool")):
        values = [v for c in people if (v := stat(c, key, where, 2, 12)) is not None] if people else []
        if values:
            unit.top[field_name] = max(values)
    if not people:
        unit.top["leadership"] = 7
        unit.note("a vehicle unit: leadership 7 written (the target format needs one; vehicles take no "
                  "morale checks)", warn=False)
    unit.models.extend(_model(line, unit, where) for line in lines)
    for w in unplaced:
        unit.note(f"weapon not imported (more special weapons than models): {w.name}")
    return unit
