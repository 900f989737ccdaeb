"""What a Horus Heresy 3rd edition scenario file holds: unit files with both
firing and target stats (or such units written inline) and the steps
``exchange`` and ``shoot`` (see :mod:`.scenario` for the file's layout).
Registers these readers for the ``hh3`` system."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from ..core import InputError
from ..rules.hh3.exchange import Exchange, Shoot
from ..rules.hh3.system import SYSTEM
from ..rules.hh3.tables import COVER_SAVES, FACINGS
from ..tomlfiles import optional, require
from . import choice
from .hh3 import load_unit, unit_from_doc
from .systems import ScenarioFiles, StepReader, register

_CONDITIONS = frozenset({"cover", "facing", "moved", "majority_bs", "crits_last"})


def _common(s: dict, path: Path, where: str) -> dict[str, Any]:
    """The conditions both kinds of step take, and the step's name."""
    return dict(cover=choice(s, "cover", tuple(COVER_SAVES), path, where),
                facing=choice(s, "facing", FACINGS, path, where) or "front",
                moved=optional(s, "moved", bool, path, where, default=False),
                majority_bs=optional(s, "majority_bs", bool, path, where, default=False),
                crits_first=not optional(s, "crits_last", bool, path, where, default=False),
                name=optional(s, "name", str, path, where, default=""))


def read_exchange(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> Exchange:
    """An ``exchange`` step."""
    common = _common(s, path, where)
    return Exchange(require(s, "attacker", str, path, where), require(s, "target", str, path, where),
                    return_cover=choice(s, "return_cover", tuple(COVER_SAVES), path, where),
                    return_facing=choice(s, "return_facing", FACINGS, path, where) or "front", **common)


def read_shoot(s: dict, path: Path, where: str, overrides: Mapping[str, Any]) -> Shoot:
    """A ``shoot`` step."""
    common = _common(s, path, where)
    return Shoot(require(s, "unit", str, path, where), require(s, "target", str, path, where), **common)


def check_overrides(path: Path, overrides: Mapping[str, Any]) -> None:
    """Refuse the command's ``distance`` and ``rounds``: no step of this system
    takes them."""
    for key, value in overrides.items():
        if value is not None:
            raise InputError(f"{path}: {key} applies to 40k6 assault and fight steps; this scenario is hh3")


FILES = register(ScenarioFiles(
    SYSTEM.name,
    steps={
        "exchange": StepReader(frozenset({"attacker", "target", "return_cover", "return_facing"}) | _CONDITIONS,
                               read_exchange),
        "shoot": StepReader(frozenset({"unit", "target"}) | _CONDITIONS, read_shoot),
    },
    load_unit=load_unit,
    unit_from_doc=unit_from_doc,
    check_overrides=check_overrides,
))
