"""Horus Heresy 3rd edition attacker and target profiles in TOML.

An attacker file::

    name = "Tactical Squad"          # optional, default: the file's name
    points = 100                     # optional: what the unit costs (no answer depends on it)
    rushed = false                   # optional flags (default false): Rushed,
    locked_in_combat = false         #   locked in combat, embarked (these two
    embarked = false                 #   cannot shoot), Pinned (snap shots),
    pinned = false                   #   moved (Heavy weapons fire snap shots)
    moved = false

    [[models]]                       # one line per kind of firing model
    name = "Legionary"               # optional
    count = 9                        # optional, default 1
    bs = 4                           # required, 1 or more (10+ reads the last column)
    weapon = "boltgun"               # required, a [weapons.NAME] below

    [weapons.boltgun]
    firepower = 2                    # required, 1 or more, or random per model:
                                     #   "D3", "D6", "2D6", "D6+1"
    strength = 4                     # required, 1-10
    ap = 5                           # required, 1-6, or "-" for none
    damage = 1                       # required, 1 or more
    traits = ["light"]               # optional; modelled: light, heavy,
                                     #   reroll-failed-hits, reroll-failed-wounds

A target file::

    name = "Tactical Squad"          # optional
    leadership = 7                   # required, 2D6 <= Ld passes
    traits = ["shield", "smoke"]     # optional: allow those reactions
    cool = 7                         # optional; required with out_of_coherency
    out_of_coherency = false         # optional: take the Cool test after the attack
    embarked = false                 # optional: an embarked, in-reserve or engaged
    in_reserve = false               #   unit cannot be chosen as a target
    engaged = false
    statuses = ["stunned"]           # optional: vehicle statuses already held

    [[models]]                       # allocation order: file order
    name = "Legionary"
    count = 10                       # optional, default 1
    toughness = 4                    # required (non-vehicles), 1-10
    wounds = 1                       # required (non-vehicles), 1 or more
    save = 3                         # optional, 2-6 or "3+"
    invulnerable = 5                 # optional, 2-6 or "5+"
    shrouded = 5                     # optional mitigation, 2-6 or "5+"
    feel_no_pain = 5                 # optional mitigation (non-vehicles)
    medic = false                    # optional (non-vehicles)
    wounds_left = 1                  # optional: each model of the line is already
                                     #   wounded, with this many Wounds left
    # a vehicle instead: armour = { front = 11, side = 11, rear = 10 }, hull_points = 3
    #   (and optionally hull_points_left = 2)

A unit file (a unit that both shoots and is shot at: an exchange, a
scenario step) is a target file whose model lines also carry ``bs`` and
``weapon``, with the ``[weapons.NAME]`` tables and the attacker flags::

    name = "Legion Tactical Squad"
    leadership = 7
    [[models]]
    name = "Legionary"
    count = 9
    bs = 4                           # firing stats: bs and weapon (both, or neither:
    weapon = "bolter"                #   a line without them carries no ranged weapon)
    toughness = 4                    # target stats, as in a target file
    wounds = 1
    save = 3
    [weapons.bolter]
    firepower = 2
    ...

A unit file also reads as an attacker file (its firing lines) and as a
target file: each loader lets the other role's keys through.

Errors name the file, the key and the expected type; unknown keys (of
neither role) are refused so that a typo never silently changes an answer.
"""

from __future__ import annotations

import re
from pathlib import Path

from ..core import InputError
from . import dice_count, points
from ..rules.hh3.tables import FACINGS, STATUSES
from ..rules.hh3.units import (
    UNIT_TRAITS,
    WEAPON_TRAITS,
    Armour,
    AttackingUnit,
    FiringModels,
    ShootingUnit,
    TargetModels,
    TargetUnit,
    Weapon,
)
from ..tomlfiles import ProfileRef, between, load_toml, no_unknown_keys, optional, require

ATTACKER_KEYS = {"name", "points", "rushed", "locked_in_combat", "embarked", "pinned", "moved", "models", "weapons"}
FIRING_MODEL_KEYS = {"name", "count", "bs", "weapon"}
WEAPON_KEYS = {"firepower", "strength", "ap", "damage", "traits"}
TARGET_KEYS = {"name", "points", "leadership", "traits", "cool", "out_of_coherency", "embarked", "in_reserve", "engaged",
               "statuses", "models"}
TARGET_MODEL_KEYS = {"name", "count", "toughness", "wounds", "save", "invulnerable", "shrouded", "feel_no_pain",
                     "medic", "armour", "hull_points", "wounds_left", "hull_points_left"}
_ROLL = re.compile(r"^\s*([2-6])\s*\+\s*$")


def _roll(table: dict, key: str, path: Path, where: str) -> int | None:
    """An optional X+ value: a whole number 2-6 or text "2+" to "6+"."""
    value = optional(table, key, (int, str), path, where)
    if value is None:
        return None
    m = _ROLL.match(value) if isinstance(value, str) else None
    number = int(m.group(1)) if m else value if isinstance(value, int) else None
    if number is None or not 2 <= number <= 6:
        raise InputError(f"{path}: {where + '.' if where else ''}{key} = {value!r}: "
                         "expected a roll from 2 to 6 (or \"2+\" to \"6+\")")
    return number


def _names(table: dict, key: str, allowed: tuple[str, ...], path: Path, where: str = "") -> frozenset[str]:
    values = optional(table, key, list, path, where, default=[])
    out = set()
    for v in values:
        if not isinstance(v, str) or v.lower() not in allowed:
            raise InputError(f"{path}: {where + '.' if where else ''}{key}: {v!r} is not allowed; "
                             f"expected a list of: {', '.join(allowed)}")
        out.add(v.lower())
    return frozenset(out)


def _below(full: int, what: str):  # type: ignore[no-untyped-def]
    """A check for a wounded model's Wounds (Hull Points) left: 1 to ``full`` - 1."""
    def check(v: int) -> str | None:
        if full < 2:
            return f"a model with 1 {what[:-1]} cannot be wounded and still in play: leave it out"
        return None if 1 <= v < full else f"must be from 1 to {full - 1} (fewer than the model's {full} {what})"
    return check


def _flag(table: dict, key: str, path: Path) -> bool:
    return optional(table, key, bool, path, default=False)


def _tables(doc: dict, path: Path) -> list[dict]:
    lines = require(doc, "models", list, path)
    if not lines:
        raise InputError(f"{path}: models is empty; expected at least one [[models]] table")
    for i, m in enumerate(lines, 1):
        if not isinstance(m, dict):
            raise InputError(f"{path}: models[{i}] must be a table ([[models]])")
    return lines


def _weapon(name: str, w: object, path: Path) -> Weapon:
    where = f"weapons.{name}"
    if not isinstance(w, dict):
        raise InputError(f"{path}: {where} must be a table ([weapons.\"{name}\"])")
    no_unknown_keys(w, WEAPON_KEYS, path, where)
    ap = require(w, "ap", (int, str), path, where)
    if isinstance(ap, str) and ap.strip() != "-" or isinstance(ap, int) and not 1 <= ap <= 6:
        raise InputError(f"{path}: {where}.ap = {ap!r}: expected a whole number from 1 to 6, or \"-\" for no AP")
    firepower = require(w, "firepower", (int, str), path, where)
    if isinstance(firepower, str):
        firepower = dice_count(firepower, "a random Firepower", path, where, "firepower")
    elif not 1 <= firepower <= 1000:
        raise InputError(f"{path}: {where}.firepower = {firepower!r}: expected a whole number from 1 to 1000, "
                         "or dice such as \"D6\"")
    return Weapon(
        name=name,
        firepower=firepower,
        strength=require(w, "strength", int, path, where, check=between(1, 10)),
        ap=None if isinstance(ap, str) else ap,
        damage=require(w, "damage", int, path, where, check=between(1, 100)),
        traits=_names(w, "traits", WEAPON_TRAITS, path, where),
    )


def load_attacker(path: str | Path | ProfileRef) -> AttackingUnit:
    """Read an attacker file (see the module docstring). A unit file that also
    carries target stats (see :func:`load_unit`) reads as its firing models."""
    return attacker_from_doc(load_toml(path), Path(path))


def _fires(m: dict) -> bool:
    """Whether a model line fires: it has ``bs`` or ``weapon``, or it has no
    target stat (an attacker file's line: ``bs`` and ``weapon`` then required)."""
    return "bs" in m or "weapon" in m or not (set(m) & (TARGET_MODEL_KEYS - FIRING_MODEL_KEYS))


def _weapons(doc: dict, path: Path) -> dict[str, Weapon]:
    return {name: _weapon(name, w, path) for name, w in require(doc, "weapons", dict, path).items()}


def _firing_model(m: dict, weapons: dict[str, Weapon], path: Path, where: str) -> FiringModels:
    weapon = require(m, "weapon", str, path, where)
    if weapon not in weapons:
        raise InputError(f"{path}: {where}.weapon = {weapon!r}: no [weapons.{weapon}] table; "
                         f"weapons are: {', '.join(map(repr, weapons)) or 'none'}")
    return FiringModels(
        name=optional(m, "name", str, path, where, default=where),
        count=optional(m, "count", int, path, where, default=1, check=between(1, 1000)),
        bs=require(m, "bs", int, path, where, check=between(1, 20)),
        weapon=weapons[weapon],
    )


def _attacker_flags(doc: dict, path: Path) -> dict[str, bool]:
    return {k: _flag(doc, k, path) for k in ("rushed", "locked_in_combat", "pinned", "moved")}


def attacker_from_doc(doc: dict, path: Path, default_name: str | None = None) -> AttackingUnit:
    """The firing unit of a parsed attacker (or unit) file. Keys of a target
    file are let through (a unit file carries both); any other key is refused."""
    no_unknown_keys(doc, ATTACKER_KEYS | TARGET_KEYS, path)
    points(doc, path)
    weapons = _weapons(doc, path)
    models = []
    for i, m in enumerate(_tables(doc, path), 1):
        where = f"models[{i}]"
        no_unknown_keys(m, FIRING_MODEL_KEYS | TARGET_MODEL_KEYS, path, where)
        if _fires(m):
            models.append(_firing_model(m, weapons, path, where))
    if not models:
        raise InputError(f"{path}: models: no model line fires; give a line bs and weapon = \"NAME\"")
    return AttackingUnit(
        name=optional(doc, "name", str, path, default=default_name or path.stem),
        models=tuple(models),
        embarked=_flag(doc, "embarked", path),
        **_attacker_flags(doc, path),
    )


def _armour(m: dict, path: Path, where: str) -> Armour | None:
    table = optional(m, "armour", dict, path, where)
    if table is None:
        return None
    inner = f"{where}.armour"
    no_unknown_keys(table, set(FACINGS), path, inner)
    return Armour(*(require(table, f, int, path, inner, check=between(1, 20)) for f in FACINGS))


def _target_model(m: dict, path: Path, where: str) -> TargetModels:
    no_unknown_keys(m, TARGET_MODEL_KEYS, path, where)
    armour = _armour(m, path, where)
    if armour is not None:
        for key in ("toughness", "wounds", "save", "feel_no_pain", "medic"):
            if key in m:
                raise InputError(f"{path}: {where}.{key}: a vehicle (with armour) has no {key}; "
                                 "vehicles take armour penetration and lose Hull Points")
        hull = require(m, "hull_points", int, path, where, check=between(1, 100))
        if "wounds_left" in m:
            raise InputError(f"{path}: {where}.wounds_left: a vehicle loses Hull Points; use hull_points_left")
        hull_left = optional(m, "hull_points_left", int, path, where, check=_below(hull, "Hull Points"))
        toughness = wounds = wounds_left = None
    else:
        for key in ("hull_points", "hull_points_left"):
            if key in m:
                raise InputError(f"{path}: {where}.{key} needs armour = {{ front, side, rear }} (a vehicle)")
        toughness = require(m, "toughness", int, path, where, check=between(1, 10))
        wounds = require(m, "wounds", int, path, where, check=between(1, 100))
        wounds_left = optional(m, "wounds_left", int, path, where, check=_below(wounds, "Wounds"))
        hull = hull_left = None
    return TargetModels(
        name=optional(m, "name", str, path, where, default=where),
        count=optional(m, "count", int, path, where, default=1, check=between(1, 1000)),
        toughness=toughness, wounds=wounds,
        save=_roll(m, "save", path, where),
        invulnerable=_roll(m, "invulnerable", path, where),
        shrouded=_roll(m, "shrouded", path, where),
        feel_no_pain=_roll(m, "feel_no_pain", path, where),
        medic=optional(m, "medic", bool, path, where, default=False),
        armour=armour, hull_points=hull, wounds_left=wounds_left, hull_points_left=hull_left,
    )


def load_target(path: str | Path | ProfileRef) -> TargetUnit:
    """Read a target file (see the module docstring). A unit file that also
    carries firing models (see :func:`load_unit`) reads as its target profile."""
    return target_from_doc(load_toml(path), Path(path))


def target_from_doc(doc: dict, path: Path, default_name: str | None = None, role: str = "") -> TargetUnit:
    """The target unit of a parsed target (or unit) file. Keys of an attacker
    file are let through (a unit file carries both); any other key is
    refused. ``role`` (e.g. "shot at in an exchange") is named when the
    target stats are missing."""
    no_unknown_keys(doc, TARGET_KEYS | ATTACKER_KEYS, path)
    points(doc, path)
    if role and "leadership" not in doc:
        raise InputError(f"{path}: leadership is missing: a unit {role} needs its target stats "
                         "(leadership, and toughness and wounds, or armour and hull_points, on each model line)")
    models = tuple(_target_model({k: v for k, v in m.items() if k not in ("bs", "weapon")}, path, f"models[{i}]")
                   for i, m in enumerate(_tables(doc, path), 1))
    if len({m.is_vehicle for m in models}) > 1:
        raise InputError(f"{path}: models: a unit mixes vehicles (armour) and non-vehicles; give one kind per file")
    out_of_coherency = _flag(doc, "out_of_coherency", path)
    cool = optional(doc, "cool", int, path, check=between(1, 12))
    if out_of_coherency and cool is None:
        raise InputError(f"{path}: cool is missing; expected a whole number (out_of_coherency needs the "
                         "unit's Cool for its Cool test)")
    fields = dict(  # read first: these errors already name the file
        name=optional(doc, "name", str, path, default=default_name or path.stem),
        leadership=require(doc, "leadership", int, path, check=between(1, 12)),
        models=models,
        traits=_names(doc, "traits", UNIT_TRAITS, path),
        embarked=_flag(doc, "embarked", path),
        in_reserve=_flag(doc, "in_reserve", path),
        engaged=_flag(doc, "engaged", path),
        out_of_coherency=out_of_coherency,
        cool=cool,
        statuses=_names(doc, "statuses", STATUSES, path),
    )
    try:
        return TargetUnit(**fields)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def load_unit(path: str | Path | ProfileRef, role: str = "that shoots and is shot at") -> ShootingUnit:
    """Read a unit file that both shoots and is shot at (see the module docstring)."""
    return unit_from_doc(load_toml(path), Path(path), role=role)


def unit_from_doc(doc: dict, path: Path, default_name: str | None = None,
                  role: str = "that shoots and is shot at") -> ShootingUnit:
    """A :class:`~exactodds.rules.hh3.units.ShootingUnit` from a parsed unit file
    (or an inline table of a scenario file): its target profile, and the
    firing profile of each model line that has ``bs`` and ``weapon``."""
    target = target_from_doc(doc, path, default_name, role)
    weapons = _weapons(doc, path) if "weapons" in doc else {}
    firing: list[FiringModels | None] = []
    for i, m in enumerate(_tables(doc, path), 1):
        where = f"models[{i}]"
        if "bs" in m or "weapon" in m:
            firing.append(_firing_model(m, weapons, path, where))
        else:
            firing.append(None)
    try:
        return ShootingUnit(target, tuple(firing), **_attacker_flags(doc, path))
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


__all__ = ["load_attacker", "load_target", "load_unit"]
