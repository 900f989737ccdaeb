"""Scenario files in TOML: units named once, steps in order, turns.

A scenario file::

    system = "40k6"                  # optional: 40k6 (the default), hh3 or hd
    turns = 1                        # optional, 1-20: the steps repeated, state carried over

    [units.marines]                  # a unit by name (letters, digits, _; not starting with a digit)
    file = "units/tactical_squad.toml"   # a unit file, relative to this file

    [units.orks]                     # or the unit inline, as in a unit file
    name = "Ork Boyz"
    [[units.orks.models]]
    toughness = 4
    wounds = 1
    ...

    [[steps]]                        # in order
    kind = "shoot"                   # shoot, assault, fight or morale
    unit = "marines"                 # shoot: the firing unit
    target = "orks"                  #        the target unit
    range = "half"                   #        optional: half or full (rapid-fire), or
    distance = 10                    #        optional: inches (each weapon's range decides)
    order = ["plasma gun"]           #        optional: weapons fired first (then file order)
    focus_fire = 5                   #        optional: Focus Fire (2-6, or "none")
    moved = false                    #        optional: the firing unit moved
    snap = false                     #        optional: snap shots

    [[steps]]
    kind = "assault"                 # assault: Overwatch, charge, rounds, morale, sweeping advance
    attacker = "orks"
    defender = "marines"
    distance = 7                     # required, 0-12 inches
    rounds = 3                       # optional, default 1
    overwatch = true                 # optional, default true

    [[steps]]
    kind = "fight"                   # fight: locked units fight rounds (no charge roll)
    attacker = "orks"
    defender = "marines"
    charged = false                  # optional: +1 Attack in the first round
    rounds = 1                       # optional

    [[steps]]
    kind = "morale"                  # morale: a morale test; failed, the unit falls back
    unit = "orks"
    modifier = 0                     # optional

Every step takes an optional ``name`` (its stage's name). Errors name the
file, the key and what is allowed; unknown keys are refused.

A Horus Heresy scenario (``system = "hh3"``) names unit files that carry
both firing and target stats (see :func:`exactodds.profiles.hh3.load_unit`)
and has two step kinds::

    [[steps]]
    kind = "exchange"                # the attacker shoots; the target returns fire
    attacker = "tacticals"           #   with every model it had when the attack began
    target = "heavies"
    cover = "medium"                 # optional: the target's cover (light, medium, dense)
    return_cover = "light"           # optional: the attacker's cover under the return fire
    facing = "front"                 # optional: the target's facing hit (vehicles)
    return_facing = "front"          # optional: the attacker's facing hit (vehicles)
    moved = false                    # optional: the attacker moved (Heavy weapons: snap shots)
    majority_bs = false              # optional: the majority-BS reading, both attacks
    crits_last = false               # optional: wounds from Critical Hits resolved last

    [[steps]]
    kind = "shoot"                   # one attack, no return fire
    unit = "heavies"
    target = "tacticals"             # and cover, facing, moved, majority_bs, crits_last

A scenario is of one system: a step of another system is refused.
"""

from __future__ import annotations

import re
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import InputError
from ..rules.hd_volley import Volley
from ..rules.hell_dorado import make_shot
from ..rules.scenario import MAX_TURNS, Scenario
from ..rules.wh40k6.exchange import MAX_ROUNDS, Assault, Fight, MoraleCheck, Shoot
from ..rules.wh40k6.traits import RANGES
from ..tomlfiles import between, load_toml, no_unknown_keys, optional, require
from .hh3 import load_unit as load_hh3_unit, unit_from_doc as hh3_unit
from .wh40k6 import load_unit, unit_from_doc

SCENARIO_KEYS = {"system", "turns", "units", "steps", "description"}
HD_KEYS = {"system", "turns", "melee", "steps", "description"}
MELEE_KEYS = {"target", "target_def", "engaged", "behind", "wounds"}
FIGHTER_KEYS = {"name", "def", "enemy"}
SHOT_KEYS = {"kind", "name", "dice", "range_difficulty", "reroll", "repeat", "elevated"}
SYSTEMS = ("40k6", "hh3", "hd")
STEP_KEYS: dict[str, set[str]] = {
    "shoot": {"unit", "target", "range", "distance", "order", "focus_fire", "moved", "snap"},
    "assault": {"attacker", "defender", "distance", "rounds", "overwatch", "order"},
    "fight": {"attacker", "defender", "charged", "rounds"},
    "morale": {"unit", "modifier"},
}
"""Step kind -> its keys (besides ``kind`` and ``name``)."""
_HH3_CONDITIONS = {"cover", "facing", "moved", "majority_bs", "crits_last"}
HH3_STEP_KEYS: dict[str, set[str]] = {
    "exchange": {"attacker", "target", "return_cover", "return_facing"} | _HH3_CONDITIONS,
    "shoot": {"unit", "target"} | _HH3_CONDITIONS,
}
"""Horus Heresy step kind -> its keys (besides ``kind`` and ``name``)."""
STEP_SYSTEMS = {"40k6": STEP_KEYS, "hh3": HH3_STEP_KEYS}
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?|[0-9]+/[0-9]+")


def _inches(table: dict, key: str, path: Path, where: str, required: bool = False) -> Fraction | None:
    value = require(table, key, (int, str), path, where) if required else optional(table, key, (int, str), path,
                                                                                      where)
    if value is None:
        return None
    if isinstance(value, bool) or (isinstance(value, str) and not _NUMBER.fullmatch(value.strip())):
        raise InputError(f"{path}: {where}.{key} = {value!r:.40}: expected inches, a number 0 or more "
                         "(e.g. 7, \"7.5\" or \"15/2\")")
    if isinstance(value, int) and value < 0:
        raise InputError(f"{path}: {where}.{key} = {value}: a distance is 0 inches or more")
    return Fraction(value.strip()) if isinstance(value, str) else Fraction(value)


def _order(table: dict, path: Path, where: str) -> tuple[str, ...] | None:
    order = optional(table, "order", list, path, where)
    if order is None:
        return None
    if not all(isinstance(x, str) for x in order):
        raise InputError(f"{path}: {where}.order: expected a list of weapon names")
    return tuple(order)


def _focus(table: dict, path: Path, where: str) -> int | str | None:
    value = optional(table, "focus_fire", (int, str), path, where)
    if value is None or value == "none":
        return value
    text = str(value).strip().removesuffix("+")
    if not (text.isdigit() and 2 <= int(text) <= 6):
        raise InputError(f"{path}: {where}.focus_fire = {value!r:.40}: expected a cover save 2 to 6 or \"none\"")
    return int(text)


def _step(s: object, i: int, path: Path, overrides: dict[str, Any]) -> Any:
    where = f"steps[{i}]"
    if not isinstance(s, dict):
        raise InputError(f"{path}: {where} must be a table ([[steps]])")
    kind = _kind(s, path, where, "40k6")
    no_unknown_keys(s, STEP_KEYS[kind] | {"kind", "name"}, path, where)
    name = optional(s, "name", str, path, where, default="")
    rounds = overrides.get("rounds") or optional(s, "rounds", int, path, where, default=1,
                                                 check=between(1, MAX_ROUNDS))
    if kind == "shoot":
        rng = _choice(s, "range", RANGES, path, where)
        return Shoot(require(s, "unit", str, path, where), require(s, "target", str, path, where),
                     _order(s, path, where), _focus(s, path, where), optional(s, "snap", bool, path, where, default=False),
                     optional(s, "moved", bool, path, where, default=False), rng, _inches(s, "distance", path, where),
                     name)
    if kind == "assault":
        distance = overrides.get("distance")
        if distance is None:
            distance = _inches(s, "distance", path, where, required=True)
        assert distance is not None  # required above
        return Assault(require(s, "attacker", str, path, where), require(s, "defender", str, path, where),
                       distance, rounds, optional(s, "overwatch", bool, path, where, default=True),
                       _order(s, path, where), name)
    if kind == "fight":
        return Fight(require(s, "attacker", str, path, where), require(s, "defender", str, path, where),
                     optional(s, "charged", bool, path, where, default=False), rounds, name)
    return MoraleCheck(require(s, "unit", str, path, where),
                       optional(s, "modifier", int, path, where, default=0, check=between(-12, 12)), name)


def _kind(s: dict, path: Path, where: str, system: str) -> str:
    """The step's kind, one of ``system``'s; a kind of another system only is
    refused as mixing systems."""
    kind = require(s, "kind", str, path, where)
    allowed = STEP_SYSTEMS[system]
    if kind not in allowed:
        others = [name for name, kinds in STEP_SYSTEMS.items() if name != system and kind in kinds]
        if others:
            raise InputError(f"{path}: {where}.kind = {kind!r:.40} is a step of {others[0]} scenarios, and this "
                             f"scenario is {system} (system = \"{system}\"): a scenario does not mix systems; "
                             f"allowed kinds are {', '.join(allowed)}")
        raise InputError(f"{path}: {where}.kind = {kind!r:.40}: not a step of {system} scenarios; allowed kinds are "
                         f"{', '.join(allowed)}")
    return kind


def _choice(table: dict, key: str, allowed: tuple[str, ...], path: Path, where: str) -> str | None:
    value = optional(table, key, str, path, where)
    if value is not None and value not in allowed:
        raise InputError(f"{path}: {where}.{key} = {value!r:.40}: expected one of {', '.join(allowed)}")
    return value


def _hh3_step(s: object, i: int, path: Path) -> Any:
    """One Horus Heresy step (see the module docstring)."""
    from ..rules.hh3.exchange import Exchange, Shoot as HH3Shoot
    from ..rules.hh3.tables import COVER_SAVES, FACINGS

    where = f"steps[{i}]"
    if not isinstance(s, dict):
        raise InputError(f"{path}: {where} must be a table ([[steps]])")
    kind = _kind(s, path, where, "hh3")
    no_unknown_keys(s, HH3_STEP_KEYS[kind] | {"kind", "name"}, path, where)
    common = dict(cover=_choice(s, "cover", tuple(COVER_SAVES), path, where),
                  facing=_choice(s, "facing", FACINGS, path, where) or "front",
                  moved=optional(s, "moved", bool, path, where, default=False),
                  majority_bs=optional(s, "majority_bs", bool, path, where, default=False),
                  crits_first=not optional(s, "crits_last", bool, path, where, default=False),
                  name=optional(s, "name", str, path, where, default=""))
    if kind == "exchange":
        return Exchange(require(s, "attacker", str, path, where), require(s, "target", str, path, where),
                        return_cover=_choice(s, "return_cover", tuple(COVER_SAVES), path, where),
                        return_facing=_choice(s, "return_facing", FACINGS, path, where) or "front", **common)
    return HH3Shoot(require(s, "unit", str, path, where), require(s, "target", str, path, where), **common)


def load_volley(doc: dict, path: Path, turns: int | None = None) -> Volley:
    """A Hell Dorado scenario: shots into one melee (see the module docstring of
    :mod:`exactodds.rules.hd_volley`)::

        system = "hd"
        turns = 1                        # optional
        [melee]
        target = "ogre"                  # the target's name
        target_def = 4
        behind = false                   # optional: the target stands behind the melee
        wounds = { ogre = 3 }            # optional: hits that take a fighter out
        [[melee.engaged]]                # the fighters the target engages (or candidates)
        name = "knight"
        def = 3
        enemy = false                    # optional: not on the shooters' side
        [[steps]]
        kind = "shot"
        name = "crossbow"                # optional
        dice = 3
        range_difficulty = 4             # optional
        reroll = "failed"                # optional: none or failed
        repeat = 2                       # optional: several shots of this shooter
        elevated = false                 # optional
    """
    no_unknown_keys(doc, HD_KEYS, path)
    n_turns = turns or optional(doc, "turns", int, path, default=1, check=between(1, MAX_TURNS))
    melee = require(doc, "melee", dict, path)
    no_unknown_keys(melee, MELEE_KEYS, path, "melee")
    fighters = optional(melee, "engaged", list, path, "melee", default=[])
    names, defs, enemies = [], [], []
    for i, f in enumerate(fighters, 1):
        where = f"melee.engaged[{i}]"
        if not isinstance(f, dict):
            raise InputError(f"{path}: {where} must be a table ([[melee.engaged]])")
        no_unknown_keys(f, FIGHTER_KEYS, path, where)
        names.append(require(f, "name", str, path, where))
        defs.append(require(f, "def", int, path, where, check=between(1, 10)))
        if optional(f, "enemy", bool, path, where, default=False):
            enemies.append(i)
    target = require(melee, "target", str, path, "melee")
    target_def = require(melee, "target_def", int, path, "melee", check=between(1, 10))
    behind = optional(melee, "behind", bool, path, "melee", default=False)
    wounds = optional(melee, "wounds", dict, path, "melee", default={})
    steps = require(doc, "steps", list, path)
    shots = []
    for i, st in enumerate(steps, 1):
        where = f"steps[{i}]"
        if not isinstance(st, dict):
            raise InputError(f"{path}: {where} must be a table ([[steps]])")
        kind = require(st, "kind", str, path, where)
        if kind != "shot":
            raise InputError(f"{path}: {where}.kind = {kind!r:.40}: not a step of hd scenarios; allowed kinds are shot")
        no_unknown_keys(st, SHOT_KEYS, path, where)
        reroll = optional(st, "reroll", str, path, where, default="none")
        if reroll not in ("none", "failed"):
            raise InputError(f"{path}: {where}.reroll = {reroll!r:.40}: expected none or failed")
        name = optional(st, "name", str, path, where, default=f"shot {i}")
        repeat = optional(st, "repeat", int, path, where, default=1, check=between(1, 20))
        try:
            shot = make_shot(require(st, "dice", int, path, where, check=between(1, 50)), target_def,
                             [] if behind else defs, optional(st, "range_difficulty", int, path, where),
                             names=[target, *names], enemies=enemies, behind=behind,
                             candidate_defs=defs if behind else [], reroll=reroll,
                             elevated=optional(st, "elevated", bool, path, where, default=False))
        except InputError as e:
            raise InputError(f"{path}: {where}: {e}") from None
        shots += [(name if repeat == 1 else f"{name} ({k})", shot) for k in range(1, repeat + 1)]
    try:
        return Volley(shots, n_turns, wounds)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


def load_scenario(path: str | Path, turns: int | None = None, distance: Fraction | None = None,
                  rounds: int | None = None) -> Scenario | Volley:
    """Read a scenario file (see the module docstring). ``turns``, ``distance``
    (every assault's) and ``rounds`` (every assault's and fight's) override
    the file's values when given."""
    path = Path(path)
    doc = load_toml(path)
    system = optional(doc, "system", str, path, default="40k6")
    if system not in SYSTEMS:
        raise InputError(f"{path}: system = {system!r:.40}: scenarios are for {', '.join(SYSTEMS)}")
    if system == "hd":
        return load_volley(doc, path, turns)
    no_unknown_keys(doc, SCENARIO_KEYS, path)
    n_turns = turns or optional(doc, "turns", int, path, default=1, check=between(1, MAX_TURNS))
    # the steps first: a step of another system is named before any unit file is read
    steps = require(doc, "steps", list, path)
    overrides = {"distance": distance, "rounds": rounds}
    if system == "hh3":
        for key, value in overrides.items():
            if value is not None:
                raise InputError(f"{path}: {key} applies to 40k6 assault and fight steps; this scenario is hh3")
        built = [_hh3_step(s, i, path) for i, s in enumerate(steps, 1)]
    else:
        built = [_step(s, i, path, overrides) for i, s in enumerate(steps, 1)]
    tables = require(doc, "units", dict, path)
    units: dict[str, Any] = {}
    for name, u in tables.items():
        where = f"units.{name}"
        if not _NAME.fullmatch(name):
            raise InputError(f"{path}: {where}: a unit's name is letters, digits and _ (not starting with a digit)")
        if not isinstance(u, dict):
            raise InputError(f"{path}: {where} must be a table ([units.{name}])")
        if "file" in u:
            no_unknown_keys(u, {"file"}, path, where)
            file = require(u, "file", str, path, where)
            unit_path = path.parent / file if not Path(file).is_absolute() else Path(file)
            units[name] = load_hh3_unit(unit_path) if system == "hh3" else load_unit(unit_path)
        else:
            units[name] = hh3_unit(u, path, name) if system == "hh3" else unit_from_doc(u, path, default_name=name)
    try:
        sc = Scenario(units, built, n_turns)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    index = {n: i for i, n in enumerate(units)}
    for i, step in enumerate(built, 1):  # each step's own checks, named by the file and the step
        try:
            step.build(index, units)
        except InputError as e:
            raise InputError(f"{path}: steps[{i}] ({step.kind}): {e}") from None
    return sc
