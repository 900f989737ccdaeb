"""Importing BattleScribe / New Recruit rosters as unit files.

``import_roster(path, out)`` reads a ``.ros`` or ``.rosz`` roster
(:mod:`.source`), finds its units and their models (:mod:`.tree`,
:mod:`.lines`), maps each unit to the unit-file format of its game system
(:mod:`.wh40k` for Warhammer 40,000 6th and 7th edition data, :mod:`.hh3`
for Horus Heresy 3rd edition) and writes one file per unit, all or none
(:mod:`.output`), each read back by the system's own loader first. Every
file gets ``points`` from the roster's costs. What cannot be mapped is kept
as a comment in the file and returned as a warning.

Cost: O(roster size).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from ...core import InputError
from . import hh3, wh40k
from .output import UnitFile, file_stem, write_all
from .source import read_roster_xml
from .tree import Roster, Selection, roster_tree

SYSTEMS: dict[str, tuple[str, tuple[str, ...]]] = {
    "40k6": ("Warhammer 40,000 6th/7th edition", ("warhammer 40,000 6th", "warhammer 40,000 7th",
                                                  "warhammer 40k 6th", "warhammer 40k 7th")),
    "hh3": ("Horus Heresy 3rd edition", ("horus heresy 3rd", "horus heresy (3rd", "horus heresy - 3rd")),
}
"""Our system name -> (title, lower-case beginnings of the roster's gameSystemName)."""

_CONVERT: dict[str, Callable[[Selection, str, str], UnitFile]] = {"40k6": wh40k.convert, "hh3": hh3.convert}


def roster_system(roster: Roster, path: Path) -> str:
    """Our name of the roster's game system, or an InputError naming the ones read."""
    name = roster.system_name.casefold()
    for ours, (_, beginnings) in SYSTEMS.items():
        if name.startswith(beginnings):
            return ours
    raise InputError(f"{path}: game system {roster.system_name or roster.system_id!r:.80} is not one this "
                     f"reads; it reads {', '.join(title for title, _ in SYSTEMS.values())}")


def _points(unit: Selection, where: str) -> int:
    total = unit.total_points()
    if total.denominator != 1 or total < 0:
        raise InputError(f"{where}: {total} points is not a whole number of points")
    return int(total)


def _models(unit: Selection, system: str) -> bool:
    types = wh40k.MODEL_TYPES if system == "40k6" else hh3.MODEL_TYPES
    return any(p.type_name in types for s in unit.walk() for p in s.profiles)


def read_roster(path: str | Path) -> tuple[str, list[tuple[str, UnitFile]], list[str]]:
    """(system, [(file stem, unit file)], notes on top-level selections that are not units)."""
    p = Path(path)
    roster = roster_tree(read_roster_xml(p), p)
    system = roster_system(roster, p)
    title = roster.system_name
    taken: set[str] = set()
    files, skipped = [], []
    for unit in roster.units:
        if not _models(unit, system):
            skipped.append(f"{unit.name}: not a unit (no model profile): not imported")
            continue
        where = f"{p}: unit {unit.name!r}"
        converted = _CONVERT[system](unit, title, where)
        converted.top["points"] = _points(unit, where)
        files.append((file_stem(unit.name, taken), converted))
    if not files:
        raise InputError(f"{p}: the roster holds no unit (no selection with a model profile)")
    return system, files, skipped


def _checker(system: str) -> Callable[[Path, UnitFile], None]:
    """Read a written file back with the system's own loaders (the file must answer questions)."""
    def check(path: Path, unit: UnitFile) -> None:
        if system == "40k6":
            from ..wh40k6 import load_target

            load_target(path)
        else:
            from ..hh3 import load_attacker, load_target as load_hh3_target

            load_hh3_target(path)
            if unit.weapons:
                load_attacker(path)
    return check


def import_roster(path: str | Path, out: str | Path) -> tuple[list[tuple[Path, UnitFile]], list[str]]:
    """Write one unit file per unit of the roster into ``out``: ([(path, unit file)], warnings)."""
    system, files, skipped = read_roster(path)
    written = write_all(files, Path(out), _checker(system))
    warnings = [w for _, f in files for w in f.warnings] + skipped
    return list(zip(written, (f for _, f in files))), warnings


__all__ = ["SYSTEMS", "UnitFile", "import_roster", "read_roster", "roster_system"]
