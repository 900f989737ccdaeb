"""``scenario``: a whole exchange from a scenario file — steps in sequence on
shared unit states, over turns (see :mod:`exactodds.profiles.scenario`)."""

from __future__ import annotations

from collections import namedtuple
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..answer import Answer, UnitFields, Units
from ..core import check_size
from ..rules.hd.volley import Volley
from ..rules.scenario import Scenario, World, p_destroyed
from ..rules.systems import get as get_system
from .kinds import Count, FileWithParts, Inches, ProfileRef, Text
from .params import ParamError, Params, literal, param
from .registry import define

DESTROYED, NOTHING = "destroyed", "-"
KEPT = ("swept", "wrecked", "explodes")
"""Statuses shown as they are even with nothing left (a unit swept away, a 40K vehicle's fate)."""


def outcome_type(names: list[str]) -> Any:
    """The named tuple of an end state: survivors and status of each unit."""
    fields = [f for n in names for f in (n, f"{n}_status")]
    return namedtuple("EndState", fields)


def end_state(names: list[str], vehicles: frozenset[int] = frozenset()) -> Any:
    """``World -> EndState``: each unit's survivors (a vehicle's Hull Points left,
    for the units at the positions ``vehicles``) and status (``destroyed``,
    ``swept``, ``falling back``, ``locked``, ``-``...)."""
    kind = outcome_type(names)
    memo: dict[World, Any] = {}  # the stages share most worlds: each labelled once

    def f(w: World) -> Any:
        got = memo.get(w)
        if got is None:
            got = memo[w] = label(w)
        return got

    def label(w: World) -> Any:
        values: list[Any] = []
        for i, (s, status) in enumerate(zip(w.units, w.statuses, strict=True)):
            alive = s.survivors()
            shown = status if status in KEPT else DESTROYED if not alive else status or NOTHING
            values += [sum(s.wounds) if i in vehicles else alive, "locked" if shown == "charging" else shown]
        return kind(*values)

    return f


def is_vehicle(unit: Any) -> bool:
    """Whether a scenario's unit is a vehicle (counted in Hull Points, not models)."""
    return bool(getattr(getattr(unit, "target", unit), "is_vehicle", False))


def scenario_units(sc: Scenario, with_turns: bool) -> Units:
    """The units of a scenario's answer: each unit's models left (a vehicle's Hull
    Points left) and status, and with ``with_turns`` the stage ending each turn."""
    start = sc.start_world().units
    fields = {}
    for i, (n, u) in enumerate(sc.units.items()):
        if is_vehicle(u):
            fields[n] = UnitFields(n, f"{n}_status", u.name, sum(start[i].wounds), what=f"{u.name}: Hull Points left")
        else:
            fields[n] = UnitFields(n, f"{n}_status", u.name, start[i].survivors())
    return Units(fields, tuple(sc.turn_ends()) if with_turns else ())


def check_scenario_size(sc: Scenario) -> None:
    """Refuse a scenario too large, before any work: its system's bound on the
    work (the ``work`` of :class:`~exactodds.rules.systems.RuleSystem`; e.g.
    :func:`exactodds.rules.wh40k6.system.scenario_work`,
    :func:`exactodds.rules.hh3.system.scenario_work`)."""
    work = get_system(sc.system).work
    if work is None:
        return
    what = f"a scenario of {_count(len(sc.units), 'unit')}, {_count(len(sc.steps), 'step')} and " \
           f"{_count(sc.turns, 'turn')}"
    check_size(work(sc), what)


def _count(n: int, noun: str) -> str:
    """``1 step``, ``2 steps``."""
    return f"{n} {noun}{'' if n == 1 else 's'}"


def scenario_answer(sc: Scenario, query: dict, stage: str | None = None) -> Answer:
    """Run ``sc`` and answer with its joint end state (or the stage ``stage``),
    each unit's P(destroyed) and mean survivors, and with several turns
    P(destroyed by the end of turn t)."""
    check_scenario_size(sc)
    pipeline = sc.pipeline()
    if stage is not None and stage not in ["start", *pipeline.names]:
        raise ParamError("{stage} " + literal(f"{stage!r} is not a stage; stages are: "
                                              f"{', '.join(['start', *pipeline.names])}"))
    run = pipeline.run(sc.start_world())
    names = sc.names
    label = end_state(names, frozenset(i for i, u in enumerate(sc.units.values()) if is_vehicle(u)))
    final = run[stage] if stage is not None else run.final
    extras: dict[str, Any] = {
        "p_destroyed": {n: p_destroyed(final, i) for i, n in enumerate(names)},
        "mean_survivors": {n: final.map(_survivors(i)).mean() for i, n in enumerate(names)},
    }
    more = get_system(sc.system).extras
    if more is not None:
        extras.update(more(final, names))
    if sc.turns > 1 and stage is None:
        ends = sc.turn_ends()
        extras["p_destroyed_by_turn"] = {n: {str(t): p_destroyed(run[e], i) for t, e in enumerate(ends, 1)}
                                         for i, n in enumerate(names)}
    stages = {name: d.map(label) for name, d in run.stages.items()}
    units = scenario_units(sc, sc.turns > 1 and stage is None)
    return Answer(final.map(label), {**query, "units": {n: u.name for n, u in sc.units.items()},
                                     "steps": pipeline.names if stage is None else [stage]},
                  extras, stages=stages, units=units)


def _survivors(i: int) -> Any:
    """``World -> int``: unit ``i``'s models in play."""
    return lambda w: w.units[i].survivors()


def volley_answer(v: Volley, query: dict, stage: str | None = None) -> Answer:
    """Hell Dorado shots into one melee: the joint total hits on every fighter,
    P(at least one friend hit), the mean hits on each; with ``wounds``,
    P(each fighter out), by turn with several turns."""
    pipeline = v.pipeline()
    if stage is not None and stage not in ["start", *pipeline.names]:
        raise ParamError("{stage} " + literal(f"{stage!r} is not a stage; stages are: "
                                              f"{', '.join(['start', *pipeline.names])}"))
    run = pipeline.run(tuple(0 for _ in v.names))
    kind = namedtuple("Hits", v.names, rename=True)  # type: ignore[misc]
    final = run[stage] if stage is not None else run.final
    extras: dict[str, Any] = {
        "p_friend_hit": v.p_friend_hit(final),
        "mean_hits": {n: final.map(_total(i)).mean() for i, n in enumerate(v.names)},
    }
    if v.wounds:
        extras["p_out"] = {n: v.p_out(final, n) for n in v.wounds}
        if v.turns > 1 and stage is None:
            extras["p_out_by_turn"] = {n: {str(t): v.p_out(run[e], n) for t, e in enumerate(v.turn_ends(), 1)}
                                       for n in v.wounds}
    stages = {name: d.map(lambda t: kind(*t)) for name, d in run.stages.items()}
    fields: tuple[str, ...] = kind._fields  # the names, made valid field names
    units = Units({n: UnitFields(f, what=f"hits on {n}", left=False, figures=(("out", f"p_out.{n}"),))
                   for n, f in zip(v.names, fields)},
                  tuple(v.turn_ends()) if v.turns > 1 and stage is None else (), ("mean_hits", "p_out"))
    return Answer(final.map(lambda t: kind(*t)), {**query, "system": v.system, "melee": list(v.names),
                                                 "steps": pipeline.names if stage is None else [stage]},
                  extras, stages=stages, units=units)


def _total(i: int) -> Any:
    return lambda totals: totals[i]


@dataclass(frozen=True, kw_only=True)
class ScenarioParams(Params):
    """A scenario file: units named once, steps in order, turns."""

    file: ProfileRef = param(FileWithParts(), "The scenario's TOML file (units, [[steps]], turns).", positional=True,
                             metavar="SCENARIO.toml")
    turns: int | None = param(Count(1, 20, "a number of turns"), "Repeat the steps this many turns (default: the "
                              "file's turns).", None)
    distance: Fraction | None = param(Inches(), "Charge distance of every assault step (default: each step's).",
                                      None)
    rounds: int | None = param(Count(1, 20, "a number of rounds"), "Rounds of every assault and fight step "
                               "(default: each step's).", None)
    stage: str | None = param(Text(), "Report one intermediate stage (as listed in the answer's steps).", None,
                              metavar="NAME")

    def check(self) -> None:
        if self.distance is not None and self.distance > 12:
            raise ParamError("{distance} " + literal(f"{self.distance} is over 12 inches: no charge roll reaches it"))
        self.scenario()  # the whole file read and checked now: a bad file is refused before any work

    def scenario(self) -> Scenario | Volley:
        """The scenario the file describes, with this question's overrides. O(the files'
        sizes): reading and checking, not running."""
        from ..profiles.scenario import load_scenario

        return load_scenario(self.file.path, self.turns, self.distance, self.rounds)


@define("scenario", None, ScenarioParams)
def scenario(p: ScenarioParams) -> Answer:
    """The joint end state of a scenario: survivors and status of every unit,
    each unit's P(destroyed) and mean survivors; with turns, P(destroyed by the
    end of each turn).

    Example: exactodds scenario examples/scenarios/assault_through_overwatch.toml
    """
    sc = p.scenario()
    query: dict[str, Any] = {"file": p.file.written, "turns": sc.turns}
    if isinstance(sc, Volley):
        return volley_answer(sc, query, p.stage)
    for k in ("distance", "rounds"):
        if getattr(p, k) is not None:
            query[k] = str(getattr(p, k))
    return scenario_answer(sc, query, p.stage)
