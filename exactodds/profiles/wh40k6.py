"""Warhammer 40,000 6th edition unit profiles in TOML.

A unit file::

    name = "Tactical Squad"          # optional
    points = 170                     # optional: what the unit costs (kept for points
                                     #   efficiency; no answer depends on it)

    [[models]]                       # closest to the enemy first
    name = "Sergeant"                # optional, default "models[i]"
    count = 1                        # optional, default 1
    toughness = 4                    # required, 1-10
    wounds = 1                       # required, 1-10
    save = 3                         # optional: armour save 3+ (2-6, or "3+")
    invulnerable = 4                 # optional (2-6 or "4+")
    cover = 5                        # optional (2-6 or "5+")
    character = true                 # optional, default false
    look_out_sir = true              # optional: true, or the name of the line taking the wound
    feel_no_pain = 5                 # optional: Feel No Pain 5+ (2-6, or "5+")
    eternal_warrior = true           # optional, default false: immune to Instant Death
    wounds_left = 1                  # optional: a model already wounded (1 to wounds)
    rules = ["furious-charge"]       # optional: furious-charge, rage, counter-attack, hatred,
                                     #   fearless, stubborn, relentless, and-they-shall-know-no-fear
    # close combat (required by `fight`; all or none of the first five):
    ws = 4
    initiative = 4
    attacks = 2                      # or random: "D3", "D6", "D3+1" (one roll per model)
    strength = 4
    leadership = 9
    ap = 3                           # optional: no AP when absent
    # ranged weapons (required by shooting from the unit file, Overwatch in an assault):
    bs = 4                           # Ballistic Skill 1-10 (required with weapons)
    weapon = "bolter"                # or weapons = ["bolt pistol", "plasma pistol"]
    charge_roll = "2d6"              # optional: 2d6 (default), 3d6kh2, 3d6kl2
    melee = "power sword"            # optional close-combat weapon(s): or ["chainsword", "bolt pistol"]
    melee_uses = "power sword"       # optional: the one it fights with (default: the best, see docs)
    grenades = ["assault"]           # optional: assault grenades (charging through difficult terrain)

    [weapons.bolter]                 # one table per weapon named by a model line
    range = 24                       # optional, inches (out of range: no fire; rapid-fire: half)
    shots = 1                        # per model (default 1); for template/blast: models hit;
                                     #   Salvo X/Y: "2/4" (2 shots each after moving, 4 stationary)
    strength = 4                     # required, 1-10
    ap = 5                           # optional (no AP when absent)
    type = "normal"                  # optional: normal, template, blast, artillery, no-bs
    rules = ["rapid-fire"]           # optional weapon rules (as `40k6 shoot --rules`)
    poisoned = 4                     # optional: Poisoned (X+)
    random_shots = "D6"              # optional: each model fires D6 shots instead

    [weapons."power sword"]          # a close-combat weapon
    type = "melee"
    strength = "user"                # user, "+1", "+2", "x2" or a number (at most 10)
    ap = 3                           # optional (no AP when absent)
    rules = []                       # unwieldy, specialist-weapon, concussive, armourbane,
                                     #   rending, shred, poisoned, sniper
    charge_strength = "+1"           # optional: Strength and AP in the turn it charges
    charge_ap = 3                    #   (a power lance)

Errors name the file, the key and the expected type; unknown keys are
refused so that a typo never silently changes an answer.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from ..core import InputError
from ..core.kinds import KindError
from ..rules.kinds import parse_shot_pair
from ..rules.wh40k6 import Melee, Model, Unit
from . import dice_count, points
from ..rules.wh40k6.traits import MODEL_RULES, WEAPON_RULES
from ..rules.wh40k6.melee import MeleeWeapon
from ..rules.wh40k6.units import WEAPON_TYPES, Weapon
from ..rules.wh40k6.vehicles import Vehicle
from ..tomlfiles import ProfileRef, between, load_toml, no_unknown_keys, optional, require

UNIT_KEYS = {"name", "points", "models", "weapons"}
WEAPON_KEYS = {"range", "shots", "strength", "ap", "type", "rules", "poisoned", "random_shots"}
MELEE_WEAPON_KEYS = {"strength", "ap", "type", "rules", "poisoned", "charge_strength", "charge_ap"}
MELEE_REQUIRED = ("ws", "initiative", "attacks", "strength", "leadership")
MODEL_KEYS = {"name", "count", "toughness", "wounds", "save", "invulnerable", "cover", "character",
              "look_out_sir", *MELEE_REQUIRED, "ap", "feel_no_pain", "eternal_warrior", "wounds_left",
              "rules", "bs", "weapon", "weapons", "charge_roll", "melee", "melee_uses", "grenades"}
_SAVE = re.compile(r"^\s*([2-6])\s*\+\s*$")


def _save(table: dict, key: str, path: Path, where: str, what: str = "a save") -> int | None:
    value = optional(table, key, (int, str), path, where)
    if value is None:
        return None
    if isinstance(value, str):
        m = _SAVE.match(value)
        if not m:
            raise InputError(f"{path}: {where}.{key} = {value!r}: expected {what} from 2 to 6 (or \"2+\" to \"6+\")")
        return int(m.group(1))
    if not 2 <= value <= 6:
        raise InputError(f"{path}: {where}.{key} = {value!r}: expected {what} from 2 to 6 (or \"2+\" to \"6+\")")
    return value


def _rules(m: dict, path: Path, where: str) -> tuple[str, ...]:
    rules = optional(m, "rules", list, path, where, default=[])
    for r in rules:
        if not isinstance(r, str) or r not in MODEL_RULES:
            raise InputError(f"{path}: {where}.rules: unknown rule {r!r:.60}; allowed: {', '.join(MODEL_RULES)}")
    return tuple(rules)


def _melee(m: dict, path: Path, where: str, needed: bool) -> Melee | None:
    present = [k for k in MELEE_REQUIRED if k in m]
    if not present and "ap" not in m and not needed:
        return None
    for k in MELEE_REQUIRED:
        if k not in m:
            why = "a fight needs the close-combat profile" if needed else \
                f"the close-combat profile is all of {', '.join(MELEE_REQUIRED)} (ap optional) or none of them"
            raise InputError(f"{path}: {where}.{k} is missing; expected a whole number ({why})")
    values: dict[str, Any] = {k: require(m, k, int, path, where, check=between(1, 10))
                              for k in MELEE_REQUIRED if k != "attacks"}
    attacks = require(m, "attacks", (int, str), path, where)
    if isinstance(attacks, int) and not 0 <= attacks <= 10:
        raise InputError(f"{path}: {where}.attacks = {attacks}: must be from 0 to 10 (or random: \"D3\", \"D6\"...)")
    if isinstance(attacks, str):
        attacks = dice_count(attacks, "an Attacks value", path, where, "attacks")
    values["attacks"] = attacks
    ap = optional(m, "ap", int, path, where, check=between(1, 6))
    return Melee(ap=ap, **values)


def _melee_weapon(name: str, w: dict, path: Path) -> MeleeWeapon:
    where = f"weapons.{name}"
    no_unknown_keys(w, MELEE_WEAPON_KEYS, path, where)
    try:
        return MeleeWeapon(name, require(w, "strength", (int, str), path, where),
                           optional(w, "ap", int, path, where, check=between(1, 6)),
                           tuple(optional(w, "rules", list, path, where, default=[])),
                           _save(w, "poisoned", path, where, "a Poisoned roll"),
                           optional(w, "charge_strength", (int, str), path, where),
                           optional(w, "charge_ap", int, path, where, check=between(1, 6)))
    except InputError as e:
        raise InputError(f"{path}: {where}: {str(e).removeprefix(f'close-combat weapon {name}: ')}") from None


def _weapon(name: str, w: object, path: Path) -> Weapon | MeleeWeapon:
    where = f"weapons.{name}"
    if not isinstance(w, dict):
        raise InputError(f"{path}: {where} must be a table ([weapons.\"{name}\"])")
    if w.get("type") == "melee":
        return _melee_weapon(name, w, path)
    if isinstance(w.get("strength"), str):
        raise InputError(f"{path}: {where}.strength = {w['strength']!r:.20}: a ranged weapon's Strength is a "
                         "number from 1 to 10 (user, +1, +2 and x2 are for close-combat weapons: type = \"melee\")")
    no_unknown_keys(w, WEAPON_KEYS, path, where)
    rules = optional(w, "rules", list, path, where, default=[])
    for r in rules:
        if not isinstance(r, str) or r not in WEAPON_RULES:
            raise InputError(f"{path}: {where}.rules: unknown rule {r!r:.60}; allowed: {', '.join(WEAPON_RULES)}")
    kind = optional(w, "type", str, path, where, default="normal")
    if kind not in WEAPON_TYPES:
        raise InputError(f"{path}: {where}.type = {kind!r:.40}: expected one of {', '.join(WEAPON_TYPES)}, melee")
    count = between(1, 100)
    shots = optional(w, "shots", (int, str), path, where, default=1,
                     check=lambda v: count(v) if isinstance(v, int) else None)
    salvo = None
    if isinstance(shots, str):
        try:
            salvo, shots = parse_shot_pair(shots, f"{where}.shots (Salvo X/Y)"), 1
        except KindError as e:
            raise InputError(f"{path}: {e}") from None
    try:
        return Weapon(name=name, strength=require(w, "strength", int, path, where, check=between(1, 10)),
                      shots=shots, salvo=salvo,
                      ap=optional(w, "ap", int, path, where, check=between(1, 6)), weapon_type=kind,
                      rules=tuple(rules), poisoned=_save(w, "poisoned", path, where, "a Poisoned roll"),
                      random_shots=optional(w, "random_shots", str, path, where),
                      range=optional(w, "range", int, path, where, check=between(1, 1000)))
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def _model_weapons(m: dict, path: Path, where: str) -> tuple[str, ...]:
    one = optional(m, "weapon", str, path, where)
    many = optional(m, "weapons", list, path, where, default=[])
    if one is not None and many:
        raise InputError(f"{path}: {where}: give weapon or weapons, not both")
    for w in many:
        if not isinstance(w, str):
            raise InputError(f"{path}: {where}.weapons: {w!r:.40} is not a weapon name (text)")
    return (one,) if one is not None else tuple(many)


def _melee_names(m: dict, path: Path, where: str) -> tuple[str, ...]:
    value = optional(m, "melee", (str, list), path, where, default=[])
    names = [value] if isinstance(value, str) else value
    for w in names:
        if not isinstance(w, str):
            raise InputError(f"{path}: {where}.melee: {w!r:.40} is not a weapon name (text)")
    return tuple(names)


def unit_from_doc(doc: dict, path: Path, melee: bool = False, default_name: str | None = None) -> Unit:
    """A unit from a parsed unit file (or an inline table of a scenario file)."""
    return _unit(doc, path, melee, default_name)


def load_unit(path: str | Path | ProfileRef, melee: bool = False) -> Unit:
    """Read a unit file; ``melee=True`` requires every model's close-combat profile."""
    if not isinstance(path, (str, Path, ProfileRef)):
        raise InputError(f"a unit file is given by its path (text), not {path!r:.60}")
    return _unit(load_toml(path), Path(path), melee)


def _unit(doc: dict, path: Path, melee: bool, default_name: str | None = None) -> Unit:
    no_unknown_keys(doc, UNIT_KEYS, path)
    points(doc, path)
    name = optional(doc, "name", str, path, default=default_name or path.stem)
    tables = optional(doc, "weapons", dict, path, default={})
    every = [_weapon(k, v, path) for k, v in tables.items()]
    weapons = tuple(w for w in every if isinstance(w, Weapon))
    melee_weapons = tuple(w for w in every if isinstance(w, MeleeWeapon))
    lines = require(doc, "models", list, path)
    if not lines:
        raise InputError(f"{path}: models is empty; expected at least one [[models]] table")
    models = []
    for i, m in enumerate(lines, 1):
        where = f"models[{i}]"
        if not isinstance(m, dict):
            raise InputError(f"{path}: {where} must be a table ([[models]])")
        no_unknown_keys(m, MODEL_KEYS, path, where)
        los: Any = optional(m, "look_out_sir", (bool, str), path, where, default=False)
        character = optional(m, "character", bool, path, where, default=False)
        if los is not False and not character:
            raise InputError(f"{path}: {where}.look_out_sir: only a character can attempt Look Out, Sir; "
                             "set character = true or remove look_out_sir")
        model_kwargs = dict(
            name=optional(m, "name", str, path, where, default=where),
            count=optional(m, "count", int, path, where, default=1, check=between(1, 1000)),
            toughness=require(m, "toughness", int, path, where, check=between(1, 10)),
            wounds=require(m, "wounds", int, path, where, check=between(1, 10)),
            save=_save(m, "save", path, where),
            invulnerable=_save(m, "invulnerable", path, where),
            cover=_save(m, "cover", path, where),
            character=character,
            look_out_sir=los,
            melee=_melee(m, path, where, melee),
            feel_no_pain=_save(m, "feel_no_pain", path, where, "a Feel No Pain roll"),
            eternal_warrior=optional(m, "eternal_warrior", bool, path, where, default=False),
            wounds_left=optional(m, "wounds_left", int, path, where, check=between(1, 10)),
            rules=_rules(m, path, where),
            bs=optional(m, "bs", int, path, where, check=between(1, 10)),
            weapons=_model_weapons(m, path, where),
            charge_roll=optional(m, "charge_roll", str, path, where, default="2d6"),
            melee_weapons=_melee_names(m, path, where),
            melee_uses=optional(m, "melee_uses", str, path, where),
            grenades=tuple(optional(m, "grenades", list, path, where, default=[])),
        )
        models.append(model_kwargs)
    try:
        return Unit(tuple(Model(**kw) for kw in models), name, weapons, melee_weapons)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


VEHICLE_KEYS = {"name", "count", "front", "side", "rear", "hull_points", "open_topped", "cover", "hull_left"}
"""Keys of a vehicle's [[models]] line (one vehicle; squadrons are not modelled)::

    [[models]]
    name = "Rhino"
    front = 11                       # required: Armour Values 10-14
    side = 11
    rear = 10
    hull_points = 3                  # required, 1-10
    open_topped = false              # optional
    cover = 5                        # optional cover save (2-6 or "5+")
    hull_left = 2                    # optional: a vehicle already damaged
"""


def load_target(path: str | Path | ProfileRef, melee: bool = False) -> Unit | Vehicle:
    """Read a unit file, or a vehicle file (a [[models]] line with armour values)."""
    if not isinstance(path, (str, Path, ProfileRef)):
        raise InputError(f"a unit file is given by its path (text), not {path!r:.60}")
    p = Path(path)
    doc = load_toml(path)
    lines = doc.get("models")
    if not (isinstance(lines, list) and any(isinstance(m, dict) and {"front", "side", "rear", "hull_points"} & set(m)
                                            for m in lines)):
        return _unit(doc, p, melee)  # the file read once
    no_unknown_keys(doc, UNIT_KEYS, p)
    points(doc, p)
    if melee:
        raise InputError(f"{p}: is a vehicle; a vehicle does not fight back (it can only be charged: 40k6 assault)")
    if len(lines) != 1:
        raise InputError(f"{p}: a vehicle file has one [[models]] line (squadrons are not modelled), not {len(lines)}")
    m, where = lines[0], "models[1]"
    if not isinstance(m, dict):
        raise InputError(f"{p}: {where} must be a table ([[models]])")
    no_unknown_keys(m, VEHICLE_KEYS, p, where)
    optional(m, "count", int, p, where, check=between(1, 1))
    armour = {k: require(m, k, int, p, where, check=between(10, 14)) for k in ("front", "side", "rear")}
    try:
        return Vehicle(**armour, hull_points=require(m, "hull_points", int, p, where, check=between(1, 10)),
                       name=optional(m, "name", str, p, where, default=optional(doc, "name", str, p, default=p.stem)),
                       open_topped=optional(m, "open_topped", bool, p, where, default=False),
                       cover=_save(m, "cover", p, where),
                       hull_left=optional(m, "hull_left", int, p, where, check=between(1, 10)))
    except InputError as e:
        raise InputError(f"{p}: {e}") from None
