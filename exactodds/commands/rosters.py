"""Rosters and points for the interfaces: importing a roster as unit files, and the
points of a question's attacking unit.

Not a question: the command line's ``exactodds import`` and ``compare
--per-points`` reach the profiles layer through here (interfaces import only
the commands layer).
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

from ..answer import Answer
from ..core import Dist, InputError
from ..profiles import points
from ..profiles.rosters import SYSTEMS as ROSTER_SYSTEMS, UnitFile, import_roster
from ..profiles.rosters.source import MAX_ROSTER_BYTES
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




def _models(ref: object) -> int:
    from ..profiles.wh40k6 import load_unit

    unit = load_unit(ref)  # type: ignore[arg-type]
    return sum(m.count for m in unit.models)


def _p(dist: Dist, test: Callable[[Any], bool]) -> Fraction:
    return sum((p for x, p in dist.items() if test(x)), Fraction(0))


def _hh3_shoot(query: Query, answer: Answer) -> dict[str, Fraction]:
    from ..profiles.hh3 import load_target

    show = getattr(query.typed, "show", "casualties")
    vehicle = load_target(query.typed.target).is_vehicle  # type: ignore[attr-defined]
    out: dict[str, Fraction] = {}
    if show == "casualties" and answer.mean is not None:
        out["mean vehicles destroyed" if vehicle else "mean casualties"] = answer.mean
    elif show == "wounds-lost" and answer.mean is not None:
        out["mean hull points removed" if vehicle else "mean wounds lost"] = answer.mean
    out["P(destroy)"] = Fraction(answer.extras["destroyed"])
    return out


def efficiency_figures(query: Query, answer: Answer) -> dict[str, Fraction]:
    """The figures of a question that ``compare --per-points`` divides by the attacker's
    points: mean casualties (or mean Hull Points removed, for a vehicle target) and
    P(destroy), exact. O(outcomes of the answer)."""
    key = (query.system, query.command)
    if key == ("40k6", "fire"):
        assert answer.mean is not None
        return {"mean casualties": answer.mean, "P(destroy)": Fraction(answer.extras["p_unit_destroyed"])}
    if key == ("40k6", "fight"):
        start = _models(query.typed.defender)  # type: ignore[attr-defined]
        left = answer.dist.map(lambda s: s.defender_survivors)
        return {"mean casualties": start - left.mean(), "P(destroy)": _p(left, lambda n: n == 0)}
    if key == ("40k6", "assault"):
        start = _models(query.typed.defender)  # type: ignore[attr-defined]
        left = answer.dist.map(lambda s: s.defender)
        return {"mean casualties": start - left.mean(), "P(destroy)": _p(left, lambda n: n == 0)}
    if key == ("hh3", "exchange"):
        return _hh3_exchange(query, answer)
    return _hh3_shoot(query, answer)


def _hh3_exchange(query: Query, answer: Answer) -> dict[str, Fraction]:
    """The attacker's figures in an exchange of fire: the target's mean models lost
    (vehicles destroyed, for a vehicle) and P(destroy), from the target's marginal. O(outcomes)."""
    from ..profiles.hh3 import load_target

    assert answer.units is not None
    start = answer.units.get("target").size or 0
    left = answer.marginal("target")
    vehicle = load_target(query.typed.target).is_vehicle  # type: ignore[attr-defined]
    return {"mean vehicles destroyed" if vehicle else "mean casualties": start - left.mean(),
            "P(destroy)": left.pmf(0)}


def unit_system(unit: UnitFile) -> str:
    """Our name of the system an imported unit file is written for (``40k6``, ``hh3``)."""
    title = unit.system.casefold()
    return next((ours for ours, (_, starts) in ROSTER_SYSTEMS.items() if title.startswith(starts)), "")


__all__ = ["ATTACKER_PARAMETER", "MAX_ROSTER_BYTES", "UnitFile", "attacker_points", "efficiency_figures", "import_roster", "unit_system"]
