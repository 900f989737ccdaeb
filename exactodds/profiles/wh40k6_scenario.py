"""What a Warhammer 40,000 6th edition scenario file holds: unit files (or units
written inline) and the steps ``shoot``, ``assault``, ``fight``, ``morale`` and ``regroup``
(see :mod:`.scenario` for the file's layout). Registers these readers for the
``40k6`` system."""

from __future__ import annotations

import re
from collections.abc import Mapping
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import InputError
from ..core.kinds import MAX_DIGITS, exact_decimal
from ..rules.wh40k6.exchange import MAX_ROUNDS, Assault, Fight, MoraleCheck, Shoot
from ..rules.wh40k6.steps import Regroup
from ..rules.wh40k6.system import SYSTEM
from ..rules.wh40k6.tables import VEHICLE_MOVED
from ..rules.wh40k6.traits import RANGES
from ..tomlfiles import between, optional, require
from . import choice
from .systems import ScenarioFiles, StepReader, register
from .wh40k6 import load_target, unit_from_doc

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
    if isinstance(value, int):
        return Fraction(value)
    inches = exact_decimal(value)  # digits bounded before any number is built; no zero denominator
    if inches is None:
        raise InputError(f"{path}: {where}.{key} = {value!r:.40}: expected inches, a number 0 or more with at "
                         f"most {MAX_DIGITS} digits and no zero denominator (e.g. 7, \"7.5\" or \"15/2\")")
    return inches


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
    if text not in {"2", "3", "4", "5", "6"}:  # ASCII digits only: "٣" or "²" is not a number here
        raise InputError(f"{path}: {where}.focus_fire = {value!r:.40}: expected a cover save 2 to 6 or \"none\"")
    return int(text)  # one ASCII digit, 2 to 6


def _name_and_rounds(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> tuple[str, int]:
    """The step's ``name`` and its ``rounds`` (the command's, else the step's)."""
    name = optional(s, "name", str, path, where, default="")
    rounds = overrides.get("rounds") or optional(s, "rounds", int, path, where, default=1,
                                                 check=between(1, MAX_ROUNDS))
    return name, rounds


def read_shoot(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> Shoot:
    """A ``shoot`` step."""
    name = optional(s, "name", str, path, where, default="")
    rng = choice(s, "range", RANGES, path, where)
    return Shoot(require(s, "unit", str, path, where), require(s, "target", str, path, where),
                 _order(s, path, where), _focus(s, path, where), optional(s, "snap", bool, path, where, default=False),
                 optional(s, "moved", bool, path, where, default=False), rng, _inches(s, "distance", path, where),
                 name, optional(s, "morale", bool, path, where))


def read_assault(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> Assault:
    """An ``assault`` step (``distance``: the command's, else the step's, required)."""
    name, rounds = _name_and_rounds(s, path, where, overrides)
    distance = overrides.get("distance")
    if distance is None:
        distance = _inches(s, "distance", path, where, required=True)
    assert distance is not None  # required above
    return Assault(require(s, "attacker", str, path, where), require(s, "defender", str, path, where),
                   distance, rounds, optional(s, "overwatch", bool, path, where, default=True),
                   _order(s, path, where), name,
                   difficult_terrain=optional(s, "difficult_terrain", bool, path, where, default=False),
                   vehicle_moved=choice(s, "vehicle_moved", tuple(VEHICLE_MOVED), path, where) or "none")


def read_fight(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> Fight:
    """A ``fight`` step."""
    name, rounds = _name_and_rounds(s, path, where, overrides)
    return Fight(require(s, "attacker", str, path, where), require(s, "defender", str, path, where),
                 optional(s, "charged", bool, path, where, default=False), rounds, name,
                 difficult_terrain=optional(s, "difficult_terrain", bool, path, where, default=False))


def read_regroup(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> Regroup:
    """A ``regroup`` step."""
    return Regroup(require(s, "unit", str, path, where), optional(s, "name", str, path, where, default=""))


def read_morale(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> MoraleCheck:
    """A ``morale`` step."""
    name = optional(s, "name", str, path, where, default="")
    return MoraleCheck(require(s, "unit", str, path, where),
                       optional(s, "modifier", int, path, where, default=0, check=between(-12, 12)), name)


FILES = register(ScenarioFiles(
    SYSTEM.name,
    steps={
        "shoot": StepReader(frozenset({"unit", "target", "range", "distance", "order", "focus_fire", "moved",
                                       "snap", "morale"}), read_shoot),
        "assault": StepReader(frozenset({"attacker", "defender", "distance", "rounds", "overwatch", "order",
                                          "difficult_terrain", "vehicle_moved"}),
                              read_assault),
        "fight": StepReader(frozenset({"attacker", "defender", "charged", "rounds", "difficult_terrain"}),
                            read_fight),
        "morale": StepReader(frozenset({"unit", "modifier"}), read_morale),
        "regroup": StepReader(frozenset({"unit"}), read_regroup),
    },
    load_unit=load_target,
    unit_from_doc=lambda table, path, name: unit_from_doc(table, path, default_name=name),
))
