"""Horus Heresy 3rd edition: the exchange of fire, and attacks in sequence.

Return fire. "L'unité ciblée riposte en tirant à son tour, même avec les
figurines qui vont mourir dans l'échange." (the original). In our words:
the targeted unit returns fire in turn, even with the models that will die
in the exchange. An exchange is the attacker's whole shooting attack at the
target (:mod:`.attack`), then the target's whole shooting attack at the
attacker with every model it had when the first attack began.

Independence. The return fire is made by the models the target had at the
start, at the attacker as it was at the start (nothing hits the attacker
in between), so its result does not depend on the first attack's: given
the start state the two attacks are independent, and the joint end state
is the product of the two attacks' distributions (:func:`exchange_kernel`).
Cost: one attack pipeline each way (see :mod:`.attack`) plus the product,
O(outcomes of the first x outcomes of the second), instead of one return
fire per outcome of the first attack. A scenario's step runs on its whole
distribution of worlds at once (:class:`Volley`): each product is one
integer multiply-add under a key of small integers, and a world is built
once per distinct outcome, not once per product.

After each attack, the unit it hit tests as after any shooting attack
(:mod:`.after`): "Si l'unité a perdu 25 % ou plus de ses figurines pendant
cette attaque de tir, test de commandement" (the original): a panic test
when it lost 25% or more of the models it had when that attack began, the
Cool test when its file says it is out of coherency. In an exchange each
side counts only the losses of the attack it suffered.

State of a unit between steps (a scenario's
:class:`~exactodds.rules.scenario.World`): the Wounds (Hull Points) left
per model, a :class:`~exactodds.rules.allocation.UnitState`, and its
statuses as one text (:func:`status_text`): ``passed panic`` (took a panic test and
passed), ``routed``, ``pinned``, and a vehicle's ``stunned`` /
``suppressed``. Our reading, as the text does not say: the statuses are
reported and last to the end of the scenario, but do not change later
attacks (a Routed or Pinned unit still fires as usual), except a vehicle's
statuses, which the glancing rule reads (a repeated status costs a Hull
Point). A destroyed unit neither shoots nor is shot at. Reactions are not
offered in these steps.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

from ...core import Dist, InputError, Kernel, Pipeline, Step
from ...core.kinds import Choice, Count, Flag
from ...core.params import ParamError, Params, literal, param
from ..allocation import UnitState
from ..common import two_d6_test
from ..scenario import Scenario, World
from .after import panic_triggered
from .attack import AFTER, ShootingAttack, TargetState
from .tables import COVER_SAVES, FACINGS, STATUSES
from .status import PANIC_TEST, PINNED, ROUTED, Hit, landed_text, status_text, statuses_of
from .units import Conditions, ShootingUnit
from .volley import Volley

SYSTEM = "hh3"
def start_world_state(unit: ShootingUnit) -> tuple[UnitState, str]:
    """A unit before any step: each model at its ``wounds_left`` (or full), the
    vehicle statuses of its file. O(models)."""
    left = tuple(m.left_at_start for m in unit.target.expanded())
    return UnitState(left), status_text(set(unit.target.statuses), left)


class After:
    """After one attack on ``unit``: "Si l'unité a perdu 25 % ou plus de ses
    figurines pendant cette attaque de tir, test de commandement ; en cas
    d'échec, elle devient En déroute" and "Hors de cohésion. Test de
    sang-froid ; en cas d'échec, l'unité devient Neutralisée" (the original).
    The statuses gained depend only on the models in play before and after
    the attack: one Dist of them per (before, after), kept. O(4) outcomes."""

    def __init__(self, unit: ShootingUnit) -> None:
        target = unit.target
        self.leadership = two_d6_test(target.leadership)
        self.cool = two_d6_test(target.cool) if target.out_of_coherency and target.cool is not None else None
        self._gained: dict[tuple[int, int], Dist] = {}

    def gained(self, before: int, alive: int) -> Dist:
        """The statuses gained (a frozenset) when ``alive`` of the ``before``
        models in play when the attack began are left."""
        key = (before, alive)
        got = self._gained.get(key)
        if got is None:
            panic = panic_triggered(before - alive, before)
            test = self.leadership.map(lambda ok: PANIC_TEST if ok else ROUTED) if panic else Dist.constant(None)
            cool = self.cool
            pinned: Dist = (cool.map(lambda ok: None if ok else PINNED) if cool is not None and alive
                            else Dist.constant(None))
            got = self._gained[key] = test.combine(pinned, lambda a, b: frozenset(x for x in (a, b) if x))
        return got

    def __call__(self, dist: Dist, before: int) -> Dist:
        """TargetState -> :class:`Hit` on a whole Dist, ``before``: the models in
        play when the attack began. O(4) outcomes per state."""
        return dist.then(lambda s: self.gained(before, sum(1 for w in s.left if w > 0)),
                         lambda s, g: Hit(s.left, frozenset(s.statuses) | g))


class Fire:
    """Shooting attacks of ``firer`` at ``target`` from any states of the two
    units: the firer's models in play fire (the models of each line in play,
    :meth:`ShootingUnit.attacker`), at the target as it stands.

    Memoised per (firer's models in play per line, target's Wounds left,
    target's vehicle statuses): each distinct key costs one attack pipeline
    (:class:`~.attack.ShootingAttack`, without its own aftermath: the panic
    test here counts the models in play when the attack began)."""

    def __init__(self, firer: ShootingUnit, target: ShootingUnit, conditions: Conditions) -> None:
        self.firer, self.target, self.conditions = firer, target, conditions
        self._pipes: dict[tuple[int, ...], Pipeline | None] = {}
        self._after = After(target)
        self._memo: dict[tuple, Dist] = {}
        whole = firer.attacker()
        if whole is None:
            raise InputError(f"{firer.name!r} cannot shoot: none of its models has a ranged weapon "
                             "(give a model line bs and weapon = \"NAME\", and a [weapons.NAME] table)")
        ShootingAttack(whole, target.target, conditions)  # checks eligibility, fire groups and size now

    def _pipeline(self, alive: tuple[int, ...]) -> Pipeline | None:
        if alive not in self._pipes:
            firing = self.firer.attacker(alive)
            if firing is None:
                self._pipes[alive] = None
            else:
                steps = ShootingAttack(firing, self.target.target, self.conditions).pipeline(rolls_merged=True).steps
                self._pipes[alive] = Pipeline(tuple(s for s in steps if s.name != AFTER))
        return self._pipes[alive]

    def __call__(self, firer: UnitState, target: UnitState, statuses: frozenset[str]) -> Dist:
        """Dist of :class:`Hit` on the target. A firer with no armed model in play
        leaves the target as it is (no attack, no test)."""
        alive = self.firer.alive_per_line(firer.wounds)
        held = tuple(sorted(statuses & set(STATUSES))) if self.target.target.is_vehicle else ()
        key = (alive, target.wounds, held)
        if key not in self._memo:
            pipe = self._pipeline(alive)
            if pipe is None:
                self._memo[key] = Dist.constant(Hit(target.wounds, frozenset(held)))
            else:
                before = sum(1 for w in target.wounds if w > 0)
                self._memo[key] = self._after(pipe(TargetState(target.wounds, held)), before)
        return self._memo[key]


def _land(w: World, i: int, hit: Hit) -> World:
    """World ``w`` with unit ``i`` hit: its Wounds left, its statuses joined."""
    return w.put(i, UnitState(hit.left), status_text(statuses_of(w.statuses[i]) | hit.gained, hit.left))


def shoot_kernel(fire: Fire, f: int, t: int) -> Kernel:
    """One attack of unit ``f`` at unit ``t`` as a kernel on worlds; nothing
    happens if either is destroyed. O(one :class:`Fire`) per distinct world.
    The step :class:`Shoot` gives the same Dist with :class:`Volley`."""
    def kernel(w: World) -> Dist:
        if not (any(w.units[f].wounds) and any(w.units[t].wounds)):
            return Dist.constant(w)
        return fire(w.units[f], w.units[t], statuses_of(w.statuses[t])).map(lambda h: _land(w, t, h))
    return kernel


def exchange_kernel(out: Fire, back: Fire, a: int, t: int) -> Kernel:
    """The exchange of unit ``a`` (attacker) and unit ``t`` as a kernel on
    worlds: "L'unité ciblée riposte en tirant à son tour, même avec les
    figurines qui vont mourir dans l'échange" (the original; the targeted
    unit returns fire in turn, even with the models that will die in the
    exchange). ``out`` (a at t) and ``back`` (t at a, every model t had at
    the start, at a as it was at the start) from the same start are
    independent, so the joint end is their product: O(|out| x |back|) per
    distinct world, each attack memoised (:class:`Fire`). The step
    :class:`Exchange` gives the same Dist with :class:`Volley`."""
    made: dict[tuple[int, ...], UnitState] = {}

    def kernel(w: World) -> Dist:
        sa, st = w.units[a], w.units[t]
        if not (any(sa.wounds) and any(st.wounds)):
            return Dist.constant(w)
        first = out(sa, st, statuses_of(w.statuses[t]))
        second = back(st, sa, statuses_of(w.statuses[a]))
        # each attack's results landed once (|out| + |back| state and status texts),
        # then only the worlds are built for the |out| x |back| products
        on_t, on_a = _landed(w, t, first, made), _landed(w, a, second, made)
        units, statuses = list(w.units), list(w.statuses)

        def both(h1: Hit, h2: Hit) -> World:
            units[t], statuses[t] = on_t[h1]
            units[a], statuses[a] = on_a[h2]
            return World(tuple(units), tuple(statuses))

        return first.combine(second, both)
    return kernel


def _landed(w: World, i: int, hits: Dist, made: dict[tuple[int, ...], UnitState]
            ) -> dict[Hit, tuple[UnitState, str]]:
    """Unit ``i``'s state and status text after each :class:`Hit` of ``hits``
    (as :func:`_land` writes them into ``w``); ``made``: the states made so far,
    by Wounds left, so that equal states are one object (a merge then compares
    them by identity). O(outcomes x statuses)."""
    return landed_text(w.statuses[i], hits, made)


def _unit(units: Mapping[str, Any], name: str) -> ShootingUnit:
    u = units[name]
    if not isinstance(u, ShootingUnit):
        raise InputError(f"{name} is not a Horus Heresy unit (a unit file with firing and target stats)")
    return u


def _outcomes(firer: ShootingUnit, target: ShootingUnit) -> int:
    """A bound on one attack's outcomes from one state: the firer's most shots
    + 1, at most the target's total Wounds + 1 (the status sets are counted
    in the states of the world)."""
    whole = firer.attacker()
    shots = 0 if whole is None else sum(f.weapon.most_shots(f.count) for f in whole.models)
    return min(shots, target.total_wounds()) + 1


@dataclass(frozen=True)
class Shoot:
    """``unit`` makes one shooting attack at ``target`` (no return fire), with
    its models in play, at the target as it stands. ``cover``, ``facing``,
    ``moved``, ``majority_bs``, ``crits_first``: as :class:`~.units.Conditions`."""

    unit: str
    target: str
    cover: str | None = None
    facing: str = "front"
    moved: bool = False
    majority_bs: bool = False
    crits_first: bool = True
    name: str = ""
    kind: str = "shoot"
    system: ClassVar[str] = SYSTEM

    def units_named(self) -> list[str]:
        return [self.unit, self.target]

    def conditions(self) -> Conditions:
        return Conditions(cover=self.cover, facing=self.facing, moved=self.moved, majority_bs=self.majority_bs,
                          crits_first=self.crits_first)

    def branching(self, units: Mapping[str, Any]) -> int:
        """Outcomes of the step from one world, at most (:func:`_outcomes`)."""
        return _outcomes(_unit(units, self.unit), _unit(units, self.target))

    def build(self, index: Mapping[str, int], units: Mapping[str, Any]) -> list[Step]:
        firer, target = _unit(units, self.unit), _unit(units, self.target)
        if self.unit == self.target:
            raise InputError(f"{self.unit} cannot shoot at itself")
        fire = Fire(firer, target, self.conditions())
        return [Step.whole(self.kind, Volley([(fire, index[self.unit], index[self.target])]),
                           f"{self.unit} shoots {self.target}")]


@dataclass(frozen=True)
class Exchange:
    """``attacker`` shoots ``target``, which returns fire with every model it had
    when the attack began. ``cover``/``facing``: the target's, ``return_cover``/
    ``return_facing``: the attacker's under the return fire; ``moved``: the
    attacker moved (the target's own file says whether it did);
    ``majority_bs`` and ``crits_first`` apply to both attacks."""

    attacker: str
    target: str
    cover: str | None = None
    return_cover: str | None = None
    facing: str = "front"
    return_facing: str = "front"
    moved: bool = False
    majority_bs: bool = False
    crits_first: bool = True
    name: str = ""
    kind: str = "exchange"
    system: ClassVar[str] = SYSTEM

    def units_named(self) -> list[str]:
        return [self.attacker, self.target]

    def conditions(self) -> tuple[Conditions, Conditions]:
        """The conditions of the attack and of the return fire."""
        return (Conditions(cover=self.cover, facing=self.facing, moved=self.moved, majority_bs=self.majority_bs,
                           crits_first=self.crits_first),
                Conditions(cover=self.return_cover, facing=self.return_facing, majority_bs=self.majority_bs,
                           crits_first=self.crits_first))

    def branching(self, units: Mapping[str, Any]) -> int:
        """Outcomes of the step from one world, at most: those of each attack
        (:func:`_outcomes`), multiplied."""
        a, t = _unit(units, self.attacker), _unit(units, self.target)
        return _outcomes(a, t) * _outcomes(t, a)

    def build(self, index: Mapping[str, int], units: Mapping[str, Any]) -> list[Step]:
        attacker, target = _unit(units, self.attacker), _unit(units, self.target)
        if self.attacker == self.target:
            raise InputError(f"{self.attacker} cannot exchange fire with itself")
        for name, u in ((self.attacker, attacker), (self.target, target)):
            if not u.can_shoot():
                raise InputError(f"{name} cannot shoot: none of its models has a ranged weapon, and in an "
                                 "exchange both units shoot (give a model line bs and weapon = \"NAME\")")
        going, coming = self.conditions()
        out, back = Fire(attacker, target, going), Fire(target, attacker, coming)
        a, t = index[self.attacker], index[self.target]
        return [Step.whole(self.kind, Volley([(out, a, t), (back, t, a)]),
                           f"{self.attacker} shoots {self.target}, which returns fire")]


@dataclass(frozen=True, kw_only=True)
class ExchangeOfFire(Params):
    """The input of an exchange of fire (the step :class:`Exchange`, repeated
    ``turns`` times, the state carried over): one typed field each, with its
    kind, bounds, default and help. No combination of these fields is refused
    on its own; :meth:`check_units` refuses those the two units do not allow."""

    cover: str | None = param(Choice(tuple(COVER_SAVES)), "The target's area terrain cover: light 6+, medium 5+, "
                              "dense 4+.", None)
    return_cover: str | None = param(Choice(tuple(COVER_SAVES)), "The attacker's cover against the return fire.",
                                     None)
    facing: str | None = param(Choice(FACINGS), "Armour facing of the target hit, for vehicles (default front).",
                               None)
    return_facing: str | None = param(Choice(FACINGS), "Armour facing of the attacker hit by the return fire, for "
                                      "vehicles (default front).", None)
    moved: bool = param(Flag(), "The attacking unit moved: its Heavy weapons fire snap shots (the target's own "
                        "file says whether it moved).", False)
    majority_bs: bool = param(Flag(), "Read the hit table at each unit's majority Ballistic Skill (both attacks).",
                              False)
    crits_last: bool = param(Flag(), "Resolve the wounds from Critical Hits after the others (both attacks).",
                             False)
    turns: int = param(Count(1, 20, "a number of turns"), "Repeat the exchange this many turns, the state carried "
                       "over.", 1)

    def check_units(self, attacker: ShootingUnit, target: ShootingUnit,
                    called: tuple[str, str] | None = None) -> None:
        """Refuse a facing for a unit without armour facings, and a unit that cannot
        shoot (in an exchange both units shoot). ``called``: how messages name the
        attacker and the target (default: their names). O(model lines)."""
        for key, unit in (("facing", target), ("return_facing", attacker)):
            if getattr(self, key) is not None and not unit.target.is_vehicle:
                raise ParamError("{" + key + "} applies to vehicles; "
                                 + literal(f"{unit.name!r} has no armour facings"))
        names = called or (attacker.name, target.name)
        for role, unit, name in zip(("attacker", "target"), (attacker, target), names, strict=True):
            if not unit.can_shoot():
                raise ParamError("{" + role + "} " + literal(
                    f"{name}: no model line fires (bs and weapon = \"NAME\"); in an exchange both units shoot"))

    def step(self, attacker: str = "attacker", target: str = "target", name: str = "exchange") -> Exchange:
        """The scenario step of one exchange between the units named ``attacker`` and ``target``."""
        return Exchange(attacker, target, cover=self.cover, return_cover=self.return_cover,
                        facing=self.facing or "front", return_facing=self.return_facing or "front", moved=self.moved,
                        majority_bs=self.majority_bs, crits_first=not self.crits_last, name=name)

    def scenario(self, attacker: ShootingUnit, target: ShootingUnit,
                 called: tuple[str, str] | None = None) -> Scenario:
        """The scenario of ``turns`` exchanges of two units (named ``attacker`` and
        ``target``), checked before it runs (:meth:`check_units`, ``called`` as
        there; then the step's own checks of eligibility, fire groups and size:
        one attack pipeline each way)."""
        self.check_units(attacker, target, called)
        step = self.step()
        sc = Scenario({"attacker": attacker, "target": target}, [step], self.turns)
        step.build({"attacker": 0, "target": 1}, sc.units)
        return sc


def exchange(attacker: ShootingUnit, target: ShootingUnit, **conditions: Any) -> Dist:
    """The joint end state of one exchange of two fresh units: a Dist of
    worlds (``units[0]``: the attacker, ``units[1]``: the target).
    ``conditions``: the keys of :class:`Exchange` (cover, facing...)."""
    sc = Scenario({"attacker": attacker, "target": target}, [Exchange("attacker", "target", **conditions)])
    return sc.run().final
