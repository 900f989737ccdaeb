"""Rosters and points for the interfaces: importing a roster as unit files, and the
points of a question's attacking unit.

Not a question: the command line's ``exactodds import`` and ``compare
--per-points`` reach the profiles layer through here (interfaces import only
the commands layer).
"""

from __future__ import annotations

from ..core import InputError
from ..profiles import points
from ..profiles.rosters import UnitFile, import_roster
from ..tomlfiles import load_toml
from .query import Query

ATTACKER_PARAMETER: dict[tuple[str, str | None], str] = {
    ("40k6", "fight"): "attacker",
    ("40k6", "assault"): "attacker",
    ("40k6", "fire"): "attacker",
    ("hh3", "shoot"): "attacker",
    ("hh3", "exchange"): "attacker",
}
"""Questions with an attacking unit file -> the parameter naming it."""


def attacker_points(query: Query) -> tuple[str, int]:
    """(the attacking unit file, its ``points``) of a question, or an InputError saying
    why there are none (a question without an attacker file, a file without points)."""
    key = (query.system, query.command)
    name = ATTACKER_PARAMETER.get(key)
    if name is None:
        command = " ".join(k for k in key if k)
        if key == ("40k6", "shoot"):
            raise InputError("--per-points: 40k6 shoot has no attacker unit file (its firing models are "
                             "anonymous); ask 40k6 fire --attacker UNIT.toml instead")
        raise InputError(f"--per-points: {command} has no attacking unit file; it works with "
                         f"{', '.join(' '.join(k for k in c if k) for c in ATTACKER_PARAMETER)}")
    ref = getattr(query.typed, name, None)
    if ref is None:
        raise InputError(f"--per-points: {' '.join(k for k in key if k)} names no {name} file")
    value = points(load_toml(ref), str(ref))
    if value is None:
        raise InputError(f"--per-points: {ref} gives no points; add points = N to the unit file "
                         "(exactodds import writes it from a roster)")
    if value == 0:
        raise InputError(f"--per-points: {ref} gives points = 0; figures per 100 points need a positive cost")
    return str(ref), value


__all__ = ["ATTACKER_PARAMETER", "UnitFile", "attacker_points", "import_roster"]
