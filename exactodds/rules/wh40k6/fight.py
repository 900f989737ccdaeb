"""The fight sub-phase of Warhammer 40,000 6th edition, exact.

At each Initiative step the engaged models of both sides strike with their
Attacks; hits and wounds are rolled, wounds allocated, saves taken and
casualties removed before the next step; then the combat result, and the
loser tests morale. Original, "Sous-phase de combat": "Livrez le combat : Les figurines engagées
des deux camps réalisent une mise au contact lorsque vient leur rang
d'initiative, puis elles assènent autant de coups que leur nombre
d'Attaques. Effectuez les jets pour toucher et pour blesser à chaque rang
d'Initiative. Les blessures sont ensuite allouées, les sauvegardes
effectuées et les pertes retirées avant de résoudre le rang suivant.
3. Déterminez le résultat de combat. 4. Le perdant effectue ses tests de
moral."

The state is the pair of units (:class:`FightState`), each a
:class:`~exactodds.rules.allocation.UnitState` counting the unsaved wounds it
suffered. One pipeline step per Initiative step present (10 down to 1),
then ``"combat result"`` and ``"morale"``. Choices where the rules are
silent (all documented in docs/wh40k6.md):

- every model of both units is engaged (pile-in is geometry);
- models of both sides at the same Initiative strike simultaneously: both
  sides' attacks at a step are rolled from the state at the start of the
  step, and the casualties of the step are removed after both have struck;
- to hit uses the majority WS of the target unit's models in play, to wound
  its majority Toughness (highest on a tie), both taken at the start of the
  step; a side's model lines striking at the same step allocate their wounds
  in file order, each with its own Strength and AP;
- no cover saves in close combat; Look Out, Sir works as in shooting;
- +1 Attack for every model of the unit that charged;
- combat result: the side that inflicted more unsaved wounds wins; equal is
  a draw (no test); the loser tests on its highest Leadership among its
  models in play, minus the difference; nobody tests if either unit is
  destroyed. A failed test means the loser falls back.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache, partial
from math import gcd
from typing import NamedTuple

from ...core import Dist, InputError, Pipeline, Run, Step, check_size
from ...core.limits import charge, work_meter
from ..allocation import UnitState
from .blows import CHARGE_BONUS, COUNTER_ATTACK_BONUS, RAGE_BONUS, Choice, Striker
from .casualties import start_state
from .chain_tables import Table
from .morale import FAIL, test_against
from .units import Melee, Unit, require_type

__all__ = ["CHARGE_BONUS", "COUNTER_ATTACK_BONUS", "RAGE_BONUS"]



def _morale_rule(models: list, state: UnitState) -> str:
    """"fearless" or "stubborn" when a model in play has it (Fearless wins), else ""."""
    rules = {r for i in state.alive() for r in models[i].rules}
    return "fearless" if "fearless" in rules else "stubborn" if "stubborn" in rules else ""

ATTACKER, DEFENDER, NOBODY = "attacker", "defender", "none"


class FightState(NamedTuple):
    """Both units during the fight (each counts the unsaved wounds it suffered)."""

    attacker: UnitState
    defender: UnitState


class CombatResult(NamedTuple):
    """After the last Initiative step: survivors, unsaved wounds inflicted by
    each side, and the Leadership each unit tests on (its highest among the
    models in play; 0 when destroyed)."""

    attacker_survivors: int
    defender_survivors: int
    attacker_inflicted: int
    defender_inflicted: int
    attacker_leadership: int
    defender_leadership: int
    attacker_morale: str = ""
    defender_morale: str = ""
    """"fearless", "stubborn" or "": the morale rule each unit tests with."""


class FightEnd(NamedTuple):
    """After the morale test: survivors, and which unit falls back."""

    attacker_survivors: int
    defender_survivors: int
    falls_back: str


class Survivors(NamedTuple):
    """Models left in each unit at the end of the fight."""

    attacker_survivors: int
    defender_survivors: int


def _profiles(unit: Unit, role: str) -> list[Melee]:
    require_type(unit, Unit, f"the {role}")
    missing = [m.name for m in unit.models if m.melee is None]
    if missing:
        raise InputError(f"{role} {unit.name}: model line {missing[0]!r} has no close-combat profile "
                         "(ws, initiative, attacks, strength, leadership)")
    return [m.melee for m in unit.models]  # type: ignore[misc]


def _round_marks(state: UnitState) -> tuple[UnitState, frozenset[int]]:
    """A unit's state at the start of a round without its Concussive marks, and
    the models concussed in the previous round (they strike at Initiative 1)."""
    if not state.marked:
        return state, frozenset()
    n = len(state.wounds)
    return replace(state, marked=frozenset()), frozenset(i % n for i in state.marked if state.wounds[i % n])


def _settle_marks(state: UnitState, before: frozenset[int], struck: Callable[[int], bool]) -> UnitState:
    """Concussive marks after a step (``before``: the marks at its start): a model
    marked in this step that has struck this round (``struck(i)``) is marked
    i + models instead (concussed for the next round only); dead models lose
    their marks. O(models)."""
    if state.marked == before:
        return state
    n = len(state.wounds)
    marks = frozenset(i + n if i < n and i not in before and struck(i) else i
                      for i in state.marked if state.wounds[i % n])
    return state if marks == state.marked else replace(state, marked=marks)


class Blows:
    """The blows of a fight round between two units, Initiative step by step:
    both :class:`~.blows.Striker`, the weapons each line fights with (chosen
    from the units' states at the start of the round) and the Concussive marks.
    ``charged``: the attacker charged (``terrain``: through difficult terrain);
    ``kernels``: the attacker's and the defender's wound kernels, when shared
    with the Blows of another round of the same two units."""

    def __init__(self, attacker: Unit, defender: Unit, charged: bool, terrain: bool = False,
                 kernels: tuple[dict, dict] | None = None) -> None:
        _profiles(attacker, "attacker")
        _profiles(defender, "defender")
        require_type(charged, bool, "attacker_charged")
        require_type(terrain, bool, "difficult_terrain")
        a_kernels, d_kernels = kernels if kernels is not None else (None, None)
        self.a = Striker(attacker, defender, charged, False, terrain, a_kernels)
        self.d = Striker(defender, attacker, False, charged, kernels=d_kernels)
        self._steps: dict[tuple, tuple[Step, ...]] = {}
        self._inits: dict[tuple, list[int]] = {}
        self._runs: dict[tuple, list[tuple[tuple[int, ...], str]]] = {}

    def _plan(self, start: FightState) -> tuple[tuple, FightState]:
        """The key of a round from ``start`` (both choices, the models concussed
        in the previous round) and the state it starts from (marks taken off). O(models)."""
        a_state, a_slow = _round_marks(start.attacker)
        d_state, d_slow = _round_marks(start.defender)
        return (self.a.choose(d_state), self.d.choose(a_state), a_slow, d_slow), FightState(a_state, d_state)

    def _initiatives(self, key: tuple) -> list[int]:
        """The Initiative steps of a round with ``key`` (:meth:`_plan`), highest first. Memoised."""
        got = self._inits.get(key)
        if got is None:
            got = self._inits[key] = self._initiatives_of(key)
        return got

    def _initiatives_of(self, key: tuple) -> list[int]:
        a_choice, d_choice, a_slow, d_slow = key
        concussive = self.a.concussive or self.d.concussive
        inits = (self.a.initiatives(a_choice, bool(a_slow) or concussive)
                 | self.d.initiatives(d_choice, bool(d_slow) or concussive))
        return sorted(inits, reverse=True)

    def steps(self, start: FightState) -> tuple[tuple[Step, ...], FightState]:
        """The Initiative steps of a round from ``start`` and the state they start
        from (marks of the previous round taken off). Memoised per (choices, concussed)."""
        key, first = self._plan(start)
        got = self._steps.get(key)
        if got is None:
            concussive = self.a.concussive or self.d.concussive
            a_choice, d_choice, a_slow, d_slow = key
            got = self._steps[key] = tuple(self._step(i, a_choice, d_choice, a_slow, d_slow, concussive)
                                           for i in self._initiatives(key))
        return got, first

    def round_weights(self, start: FightState) -> tuple[dict[tuple[UnitState, UnitState], int], int]:
        """The blows of a whole round from ``start``: (attacker's state, defender's
        state) after the last Initiative step -> integer weight over the returned
        total, in the order :meth:`steps` would give them (weights not reduced).

        Cost: per Initiative step, O(states x outcomes) big-integer multiply-adds
        on plain dictionaries: each side's blows come from the memoised
        :meth:`~.blows.Striker.strike_table` (one table per (step, strikers,
        target state)), and no distribution is built between the steps. With
        Concussive weapons the steps run as kernels (:meth:`steps`), the marks
        settled after each."""
        if self.a.concussive or self.d.concussive:
            steps, first = self.steps(start)
            d = Dist.constant(first)
            for step in steps:
                d = step(d)
            return {(f.attacker, f.defender): w for f, w in d.weights().items()}, d.denominator
        parts, lcm, total = self.last_step(start)
        return _product(parts, lcm), total * lcm

    def _groups(self, key: tuple) -> list[tuple[tuple[int, ...], str]]:
        """The Initiative steps of a round with ``key`` (:meth:`_plan`) in runs:
        consecutive steps at which only one side strikes (``"a"`` or ``"d"``) are
        one run, each other step a run of its own (``""``). Between the steps of
        a run the striking side loses no model, so its blows over the run are
        one table (:meth:`~.blows.Striker.run_table`). Memoised per key; without
        Concussive weapons only (they change who strikes when)."""
        got = self._runs.get(key)
        if got is None:
            a_choice, d_choice, a_slow, d_slow = key
            a_steps = self.a.initiatives(a_choice, bool(a_slow))
            d_steps = self.d.initiatives(d_choice, bool(d_slow))
            got = []
            for i in self._initiatives(key):
                side = "a" if i not in d_steps else "d" if i not in a_steps else ""
                if side and got and got[-1][1] == side:
                    got[-1] = ((*got[-1][0], i), side)
                else:
                    got.append(((i,), side))
            self._runs[key] = got
        return got

    def last_step(self, start: FightState) -> tuple[list[Part], int, int]:
        """The round from ``start`` up to its last Initiative step, and that
        step's blows unmerged: one :data:`Part` per state before it, their
        common denominator and the weights' total before it (after the round:
        ``total x lcm``; the states after it, in order, are the products of
        each part's two tables, parts in order). Steps at which one side
        strikes alone, one after the other, are taken as one (:meth:`_groups`):
        the same states after them, in the same order, with fewer states in
        between. Without Concussive weapons (:meth:`round_weights`). Cost: the
        steps before the last merged as in :meth:`round_weights`, O(states x
        outcomes) multiply-adds each."""
        key, first = self._plan(start)
        a_choice, d_choice, a_slow, d_slow = key
        # the states before the next step and their weights, in order
        states: list[tuple[UnitState, UnitState]] = [(first.attacker, first.defender)]
        weights: list[int] = [1]
        total = 1
        runs = self._groups(key) if not (self.a.concussive or self.d.concussive) else [
            ((i,), "") for i in self._initiatives(key)]
        parts: list[Part] = [(1, 1, ((first.attacker, 1),), ((first.defender, 1),))]
        lcm = 1
        a_table, d_table = self.a.strike_table, self.d.strike_table
        a_runs, d_runs = self.a.run_tables, self.d.run_tables
        a_same, d_same = self.a.unchanged, self.d.unchanged
        for n, (steps, side) in enumerate(runs):
            parts, lcm, terms = [], 1, 0
            append = parts.append
            i = steps[0]
            # each state's blows: the attacker's states after them (the defender's blows)
            # and the defender's, in the order of the states
            on_as: Iterable[Table]
            on_ds: Iterable[Table]
            if side == "a":  # the defender strikes at none of these steps: it leaves the attacker as it is
                on_ds = a_runs(steps, states, a_choice, a_slow)
                on_as = map(d_same, [att for att, _ in states])
            elif side == "d":
                on_ds = map(a_same, [dfd for _, dfd in states])
                on_as = d_runs(steps, [(dfd, att) for att, dfd in states], d_choice, d_slow)
            else:
                on_ds = [a_table(i, att, dfd, a_choice, a_slow) for att, dfd in states]
                on_as = [d_table(i, dfd, att, d_choice, d_slow) for att, dfd in states]
            for w, (on_a, a_total), (on_d, d_total) in zip(weights, on_as, on_ds, strict=True):
                den = a_total * d_total
                append((w, den, on_a, on_d))
                if lcm % den:
                    lcm = lcm * den // gcd(lcm, den)
                terms += len(on_a) * len(on_d)
            charge(terms, total.bit_length() + lcm.bit_length())
            if n == len(runs) - 1:
                break
            states, weights = _product_lists(parts, lcm)
            total *= lcm
        return parts, lcm, total

    def _step(self, i: int, a_choice: Choice, d_choice: Choice, a_slow: frozenset[int], d_slow: frozenset[int],
              concussive: bool) -> Step:
        a, d = self.a, self.d

        def kernel(state: FightState) -> Dist:
            """Both sides' models of this Initiative strike at once; casualties removed after both."""
            new_defender = a.strike(i, state.attacker, state.defender, a_choice, a_slow)
            new_attacker = d.strike(i, state.defender, state.attacker, d_choice, d_slow)
            if concussive:
                new_defender = new_defender.map(partial(_settle_marks, before=state.defender.marked,
                                                        struck=d.struck(i, d_choice, d_slow)))
                new_attacker = new_attacker.map(partial(_settle_marks, before=state.attacker.marked,
                                                        struck=a.struck(i, a_choice, a_slow)))
            return new_attacker.combine(new_defender, FightState)

        return Step.kernel(f"initiative {i}", kernel)


Part = tuple[int, int, tuple[tuple[UnitState, int], ...], tuple[tuple[UnitState, int], ...]]
"""A state before an Initiative step and the step's blows from it: its weight,
the blows' denominator, the attacker's states after them and the defender's
(each with its integer weight over that denominator's factor)."""


def _product_lists(parts: list[Part], lcm: int) -> tuple[list[tuple[UnitState, UnitState]], list[int]]:
    """:func:`_product` as its states and their weights, in the same order. From
    one state before the step (a round's first) no two products meet: they are
    listed as they come, without a merge. O(terms) big-integer multiply-adds."""
    if len(parts) > 1:
        merged = _product(parts, lcm)
        return list(merged), list(merged.values())
    w, den, on_a, on_d = parts[0]
    scale = w * (lcm // den)
    return ([(att, dfd) for att, _ in on_a for dfd, _ in on_d],
            [sa * vd for sa in [scale * va for _, va in on_a] for _, vd in on_d])


def _product(parts: list[Part], lcm: int | None = None) -> dict[tuple[UnitState, UnitState], int]:
    """The states after an Initiative step from its :data:`Part` (both sides'
    blows at once, casualties after), merged, over ``lcm`` times the weights'
    total before it (``lcm``: the parts' common denominator). O(terms)
    big-integer multiply-adds."""
    if lcm is None:
        lcm = 1
        for _, den, _, _ in parts:
            lcm = lcm * den // gcd(lcm, den)
    out: dict[tuple[UnitState, UnitState], int] = {}
    get = out.get
    for w, den, on_a, on_d in parts:
        scale = w * (lcm // den)
        for att, va in on_a:
            sa = scale * va
            for dfd, vd in on_d:
                k = (att, dfd)
                out[k] = get(k, 0) + sa * vd
    return out


@dataclass(frozen=True)
class FightResult:
    """The exact outcome of one fight sub-phase; ``run.stages`` has one stage
    per Initiative step (``"initiative 4"``...), ``"combat result"`` and
    ``"morale"``."""

    run: Run

    @property
    def final(self) -> Dist:
        """Dist over :class:`FightEnd`."""
        return self.run.final

    def survivors(self) -> Dist:
        """The joint distribution of survivors on both sides (:class:`Survivors`)."""
        return self.final.map(lambda e: Survivors(e.attacker_survivors, e.defender_survivors))

    def p_falls_back(self, side: str | None = None) -> Fraction:
        """P(a unit falls back): ``side`` ``"attacker"``, ``"defender"`` or None (either)."""
        if side is not None:
            _check_side(side)
        return self.final.prob(lambda e: e.falls_back != NOBODY if side is None else e.falls_back == side)

    def p_wins(self, side: str) -> Fraction:
        """P(``side`` inflicted more unsaved wounds than the other)."""
        _check_side(side)
        res = self.run.stages["combat result"]
        if side == ATTACKER:
            return res.prob(lambda r: r.attacker_inflicted > r.defender_inflicted)
        return res.prob(lambda r: r.defender_inflicted > r.attacker_inflicted)


def _check_side(side: object) -> None:
    if side not in (ATTACKER, DEFENDER) or not isinstance(side, str):
        raise InputError(f"side {side!r:.40} is not allowed: use {ATTACKER!r} or {DEFENDER!r}")


def _leadership(models: list, state: UnitState) -> int:
    return max((models[i].melee.leadership for i in state.alive()), default=0)


class Standing(NamedTuple):
    """What the combat result needs of one unit: its models in play, its
    highest Leadership among them (0 when destroyed) and its morale rule."""

    survivors: int
    leadership: int
    morale: str


def standing_of(models: list, state: UnitState) -> Standing:
    """The :class:`Standing` of a unit (``models``: its :meth:`~.units.Unit.expanded`
    models) in ``state``. O(models)."""
    return Standing(state.survivors(), _leadership(models, state), _morale_rule(models, state))


def combat_result(attacker: Standing, defender: Standing, state: FightState) -> CombatResult:
    """The combat result from both units' standings and the unsaved wounds
    each suffered (counted in ``state`` since the fight began). O(1)."""
    return CombatResult(attacker.survivors, defender.survivors, state.defender.unsaved, state.attacker.unsaved,
                        attacker.leadership, defender.leadership, attacker.morale, defender.morale)


def combat_result_of(a_models: list, d_models: list, state: FightState) -> CombatResult:
    """The combat result of a fight state (``a_models``, ``d_models``: each unit's
    :meth:`~.units.Unit.expanded` models): survivors, the unsaved wounds each side
    inflicted (counted in the states since the fight began), each side's
    highest Leadership and morale rule among its models in play. O(models)."""
    return combat_result(standing_of(a_models, state.attacker), standing_of(d_models, state.defender), state)


_NOBODY_FALLS = Dist.constant(NOBODY)


def who_falls_back(res: CombatResult) -> Dist:
    """The loser's morale test: Dist over :data:`ATTACKER`, :data:`DEFENDER` (the
    side that failed and falls back) or :data:`NOBODY` (a draw, a destroyed
    unit, a passed or Fearless test). 2D6 <= Ld - difference (Stubborn: Ld), a
    double 1 passes. O(1), the test itself O(36) once per (loser, value)."""
    diff = res.attacker_inflicted - res.defender_inflicted
    if not (diff and res.attacker_survivors and res.defender_survivors):
        return _NOBODY_FALLS
    who, ld = (DEFENDER, res.defender_leadership) if diff > 0 else (ATTACKER, res.attacker_leadership)
    rule = res.attacker_morale if who == ATTACKER else res.defender_morale
    if rule == "fearless":  # passes automatically
        return _NOBODY_FALLS
    return _falls_back_on(who, ld if rule == "stubborn" else ld - abs(diff))


@lru_cache(maxsize=4096)
def _falls_back_on(who: str, value: int) -> Dist:
    """``who`` tests on 2D6 <= ``value`` (a double 1 passes); failed, it falls back. O(36)."""
    return test_against(value).map(lambda r: who if r == FAIL else NOBODY)


def fight_pipeline(attacker: Unit, defender: Unit, attacker_charged: bool = False,
                   difficult_terrain: bool = False) -> Pipeline:
    """The steps of one fight of fresh units: each Initiative step from 10 down
    to 1 where a model strikes, the combat result and the loser's morale test.

    States: at most (W_a + 1) x (W_d + 1) joint states without Instant Death
    or Look Out Sir (W = a unit's total wounds; a unit's state is then fixed
    by the wounds it lost), more with them (and with Concussive marks). Each
    step costs O(joint states x attacks x target states); the estimate is
    checked before starting.
    """
    a_melee, d_melee = _profiles(attacker, "attacker"), _profiles(defender, "defender")
    blows = Blows(attacker, defender, attacker_charged, difficult_terrain)
    w_a = sum(m.wounds * m.count for m in attacker.models)
    w_d = sum(m.wounds * m.count for m in defender.models)
    max_attacks = max(sum((p.most_attacks() + RAGE_BONUS + (len(m.melee_weapons) > 1)) * m.count for p, m in zip(ms, u.models, strict=True))
                      for ms, u in ((a_melee, attacker), (d_melee, defender)))
    check_size((w_a + 1) * (w_d + 1) * (max_attacks + 1), f"a fight of {attacker.size} against {defender.size} models")
    steps, _ = blows.steps(FightState(start_state(attacker), start_state(defender)))
    a_models, d_models = attacker.expanded(), defender.expanded()

    def combat_result(state: FightState) -> CombatResult:
        """Unsaved wounds inflicted by each side, survivors and their Leadership."""
        return combat_result_of(a_models, d_models, state)

    def morale(res: CombatResult) -> Dist:
        """The loser's morale test (2D6 <= Ld - difference, a double 1 passes); failed: it falls back."""
        return who_falls_back(res).map(lambda who: FightEnd(res.attacker_survivors, res.defender_survivors, who))

    return Pipeline(steps) >> Step.map("combat result", combat_result) >> Step.kernel("morale", morale)


def fight(attacker: Unit, defender: Unit, attacker_charged: bool = False,
          difficult_terrain: bool = False) -> FightResult:
    """Resolve one fight sub-phase between ``attacker`` and ``defender``
    (``difficult_terrain``: the attacker charged through it)."""
    if difficult_terrain and not attacker_charged:
        raise InputError("difficult terrain slows a charge: give it only with attacker_charged")
    pipeline = fight_pipeline(attacker, defender, attacker_charged, difficult_terrain)
    start = FightState(start_state(attacker), start_state(defender))
    # the joint states over the Initiative steps can outgrow the estimate (Look Out, Sir,
    # Instant Death and mixed lines split the wounds): the work is also metered as it runs
    with work_meter(f"a fight of {attacker.size} against {defender.size} models"):
        return FightResult(pipeline.run(start))
