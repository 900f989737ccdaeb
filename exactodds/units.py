"""Which parts of a composite answer belong to which unit.

An engagement's answer (a fight, an assault, an exchange of fire, a
scenario, shots into a melee) is a joint distribution over named tuples
holding every unit's figures side by side (``attacker_survivors``,
``defender_status``...). A :class:`Units` declaration, given to the
:class:`~exactodds.answer.Answer` by the command that builds it (one line),
names the units and says which field of the outcome counts each unit's models
(or hits), and which holds its status; from it the answer gives each unit's
own distribution (its marginal, :meth:`~exactodds.answer.Answer.marginal`),
the per-unit blocks of its table, its JSON ``marginals``, the command line's
``--unit NAME`` and one plot panel per unit.

Cost: a marginal is one pass over the joint distribution's outcomes, O(k),
merging equal values.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from .core import Dist, InputError


@dataclass(frozen=True)
class UnitFields:
    """One unit of a composite answer.

    - ``models``: the outcome's field counting the unit (``None``: the outcome
      itself, a number);
    - ``status``: the field holding its status (``"swept"``, ``"falling back"``...), if any;
    - ``name``: the unit's name for people (``"Ork Boyz"``);
    - ``size``: its models at the start, when known;
    - ``lost``: the field counts models lost, so models left are ``size`` minus it;
    - ``what``: what the count is, for axes and headings (default ``"<name> left"``);
    - ``left``: the count is what is left, so 0 means destroyed (``False`` for
      hits taken);
    - ``stage``: take the unit from this stage of the answer instead of its
      distribution (a marginal the command computed on its own);
    - ``figures``: ``(label, extra)`` pairs of the answer's extra figures that
      belong to the unit (``("falls back", "p_attacker_falls_back")``; a dotted
      ``"p_out.knight"`` reads into a mapping).
    """

    models: str | None = None
    status: str | None = None
    name: str = ""
    size: int | None = None
    lost: bool = False
    what: str = ""
    left: bool = True
    stage: str | None = None
    figures: tuple[tuple[str, str], ...] = ()

    @property
    def counts(self) -> str:
        """What the unit's marginal counts, e.g. ``"Ork Boyz left"``."""
        return self.what or f"{self.name or 'models'} left"


@dataclass(frozen=True)
class Units:
    """The units of a composite answer, by the name a person asks for them
    (``attacker``, a scenario's unit name), in display order, and the stages
    ending each turn (``turn_ends[t - 1]`` ends turn t) when there are turns."""

    fields: Mapping[str, UnitFields]
    turn_ends: tuple[str, ...] = field(default=())
    shown: tuple[str, ...] = ()
    """Extra figures of the answer that the unit blocks already show (left out of its
    default table; JSON and CSV keep them), besides :data:`COVERED`."""

    def __post_init__(self) -> None:
        object.__setattr__(self, "fields", dict(self.fields))

    def get(self, name: str) -> UnitFields:
        """The declaration of unit ``name``, or an InputError naming the units allowed."""
        if not isinstance(name, str) or name not in self.fields:
            raise InputError(f"unit {str(name)[:40]!r} is not in this answer; its units are "
                             f"{', '.join(self.fields)}")
        return self.fields[name]


def marginal(joint: Dist, stages: Mapping[str, Dist], unit: UnitFields) -> Dist:
    """The unit's own distribution (models left, or its count) from the joint
    distribution ``joint`` (or from the stage the unit names). O(k)."""
    source = stages[unit.stage] if unit.stage is not None else joint
    key = unit.models
    if unit.lost:
        size = unit.size or 0
        if key is None:
            return source.map(lambda x: size - x)
        return source.map(lambda x: size - getattr(x, key))
    if key is None:
        return source
    return source.map(lambda x: getattr(x, key))


def status(joint: Dist, stages: Mapping[str, Dist], unit: UnitFields) -> Dist | None:
    """The unit's status distribution, or None when it has no status field. O(k)."""
    if unit.status is None:
        return None
    key = unit.status
    source = stages[unit.stage] if unit.stage is not None else joint
    return source.map(lambda x: getattr(x, key))


def figures(unit: UnitFields, extras: Mapping[str, Any]) -> list[tuple[str, Fraction]]:
    """The unit's extra figures that the answer has: ``(label, value)``."""
    out = []
    for label, path in unit.figures:
        value: Any = extras
        for part in path.split("."):
            value = value.get(part) if isinstance(value, Mapping) else None
        if isinstance(value, (int, Fraction)) and not isinstance(value, bool):
            out.append((label, Fraction(value)))
    return out


def turn_stage(units: Units, turn: int) -> str:
    """The stage ending turn ``turn`` (1-based), or an InputError naming the turns there are."""
    n = len(units.turn_ends)
    if isinstance(turn, bool) or not isinstance(turn, int) or not 1 <= turn <= n:
        there = f"turns 1 to {n}" if n else "no turns to choose from"
        raise InputError(f"turn {turn!r:.20} is not allowed: this answer has {there}")
    return units.turn_ends[turn - 1]


COVERED = ("p_destroyed", "mean_survivors")
"""Extra figures the unit blocks show (each unit's P(destroyed) and mean), left
out of a composite answer's default table (JSON and CSV keep them)."""


def _source(answer: Any, turn: int | None) -> tuple[Dist, Mapping[str, Dist]]:
    """The joint distribution to read units from: the answer's, or the end of ``turn``."""
    if turn is None:
        return answer.dist, answer.stages
    return answer.stages[turn_stage(answer.units, turn)], answer.stages


def unit_answer_parts(answer: Any, name: str, turn: int | None = None) -> tuple[Dist, dict, dict, Units]:
    """``(marginal, query additions, extras, units)`` of unit ``name``'s own answer
    (see :meth:`~exactodds.answer.Answer.unit`). O(outcomes)."""
    unit = answer.units.get(name)
    joint, stages = _source(answer, turn)
    if turn is not None and unit.stage is not None:
        raise InputError(f"unit {name!r} is not counted turn by turn: leave out the turn")
    dist = marginal(joint, stages, unit)
    extras: dict[str, Any] = {}
    st = status(joint, stages, unit)
    if st is not None:
        extras["p_status"] = dict(st.items())
    for label, value in figures(unit, answer.extras):
        extras["p_" + label.replace(" ", "_")] = value
    query: dict[str, Any] = {"unit": name}
    if turn is not None:
        query["turn"] = turn
    alone = UnitFields(name=unit.name, size=unit.size, what=unit.what, left=unit.left)
    return dist, query, extras, Units({name: alone})


def marginals_json(answer: Any, frac: Callable[[Fraction], str]) -> dict[str, dict[str, Any]]:
    """An answer's JSON ``marginals``: per unit its ``outcomes`` (as the top-level
    ones: ``outcome``, ``p`` written by ``frac``, ``p_float``), its ``mean`` and, with a
    status, the chance of each ``status``. O(units x outcomes)."""
    out = {}
    for name, unit in answer.units.fields.items():
        left = marginal(answer.dist, answer.stages, unit)
        obj: dict[str, Any] = {"outcomes": [{"outcome": x, "p": frac(p), "p_float": float(p)} for x, p in left.items()],
                               "mean": frac(left.mean())}
        st = status(answer.dist, answer.stages, unit)
        if st is not None:
            obj["status"] = [{"status": str(x), "p": frac(p), "p_float": float(p)} for x, p in st.items()]
        out[name] = obj
    return out


def engagement_lines(answer: Any, exact: bool = False) -> tuple[list[str], set[str]]:
    """A composite answer's default table (after its query line): a block per
    unit, then its most probable joint outcomes; and the names of the extra
    figures the blocks already show. O(units x outcomes + outcomes log outcomes)."""
    from .render.engagement import UnitView, joint_text, unit_block

    lines: list[str] = []
    covered = set(COVERED) | set(answer.units.shown)
    for name, unit in answer.units.fields.items():
        view = UnitView(name, unit.counts + (f" (of {unit.size})" if unit.size else ""),
                        marginal(answer.dist, answer.stages, unit), status(answer.dist, answer.stages, unit),
                        figures(unit, answer.extras), unit.left)
        covered.update(path.split(".")[0] for _, path in unit.figures)
        lines += unit_block(view, unit.size, exact)
    lines.append("most probable outcomes:" if len(answer.dist) > 1 else "outcome:")
    lines.append(joint_text(answer.dist, exact=exact))
    return lines, covered


def plot_parts(answer: Any) -> tuple[list[tuple[str, Dist, int | None]], tuple[str, str, Dist] | None]:
    """What an engagement's chart draws: ``(what it counts, marginal, size)`` per unit,
    and for two units read from one source ``(x label, y label, joint of the two
    counts)``. O(units x outcomes)."""
    units = answer.units.fields
    panels = [(u.counts, marginal(answer.dist, answer.stages, u), u.size if u.left else None)
              for u in units.values()]
    pair = None
    if len(units) == 2:
        a, b = units.values()
        if a.stage == b.stage:
            source = answer.stages[a.stage] if a.stage is not None else answer.dist
            fa, fb = unit_count(a), unit_count(b)
            pair = (a.counts, b.counts, source.map(lambda x: (fa(x), fb(x))))
    return panels, pair


def unit_count(unit: UnitFields) -> Callable[[Any], Any]:
    """``outcome -> the unit's count`` (models left, or the field's value): the map
    :func:`marginal` applies, for reading a unit's count from one joint outcome."""
    key, size = unit.models, unit.size or 0
    if key is None:
        return (lambda x: size - x) if unit.lost else (lambda x: x)
    return (lambda x: size - getattr(x, key)) if unit.lost else (lambda x: getattr(x, key))


def counts_label(answer: Any) -> str | None:
    """What a one-unit answer counts (its x axis), or None."""
    if answer.units is None or len(answer.units.fields) != 1:
        return None
    return next(iter(answer.units.fields.values())).counts
