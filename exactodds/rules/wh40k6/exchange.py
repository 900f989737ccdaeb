"""Whole exchanges in Warhammer 40,000 6th edition: a unit's state flows
from one step into the next.

- **Several weapons in one shooting attack** (:func:`fire`): the firing
  unit's models fire their ranged weapons one weapon group after another
  (a group: the models of one BS carrying one weapon); each group rolls to
  hit, to wound against the majority Toughness of the target's models still
  in play, and allocates closest first (Look Out, Sir, Focus Fire, saves) on
  the target as the previous groups left it. A target wiped out by an
  earlier group takes nothing more.
- **The whole assault** (:func:`assault_kernels`): Overwatch by the charged
  unit with its ranged weapons as snap shots, the charge roll with the
  slowest method among the charger's surviving models, fight rounds by
  Initiative (the charger with +1 Attack in the first), the combat result,
  the loser's morale test and the sweeping advance, then further rounds.

The state of one unit is a :class:`~exactodds.rules.allocation.UnitState`
(wounds left per model); the state of an exchange between two units is an
:class:`Engagement` (both units and how the assault stands). The steps are
Markov kernels on these states, memoised per distinct state, so the cost of
a step is (distinct states before it) x (the cost of one single-state step),
equal states merged after each step.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from ...core import Dist, InputError, Kernel, Pipeline, Run, Step, check_size
from ...dice import d6
from ..allocation import UnitState, alive_per_line as count_alive
from ..scenario import World
from .assault import check_distance, unit_charge_roll
from .casualties import start_state
from .fight import DEFENDER, NOBODY, FightState, Standing, combat_result, fight_pipeline, standing_of, who_falls_back
from .gets_hot import Firer, apply_losses, gets_hot, removed_last, volley
from .shooting import UNSAVED, shooting_pipeline
from .units import CANNOT_SNAP, Shooting, Unit, Weapon, require_type

# --------------------------------------------------------------------------- weapon groups


@dataclass(frozen=True)
class Group:
    """One weapon group of a shooting attack: ``models`` models of one ``bs``
    firing ``weapon``."""

    weapon: Weapon
    bs: int
    models: int

    @property
    def label(self) -> str:
        """``bolter x8 (BS 4)``."""
        return f"{self.weapon.name} x{self.models} (BS {self.bs})"


def alive_per_line(unit: Unit, state: UnitState) -> tuple[int, ...]:
    """How many models of each line of ``unit`` are in play in ``state``. O(models)."""
    return count_alive(unit.line_of(), len(unit.models), state.wounds)


def weapon_order(unit: Unit, order: Sequence[str] | None = None) -> list[str]:
    """The weapon names in firing order: ``order`` first (each must be a weapon
    of the unit), then the others in the unit file's order."""
    names = [w.name for w in unit.weapons]
    chosen = list(order or ())
    for name in chosen:
        if name not in names:
            raise InputError(f"order names {name!r:.40}, which is not a weapon of {unit.name} "
                             f"(weapons: {', '.join(names) or 'none'})")
    return chosen + [n for n in names if n not in chosen]


def weapon_groups(unit: Unit, alive: Sequence[int] | None = None, order: Sequence[str] | None = None
                  ) -> list[Group]:
    """The weapon groups of ``unit`` with ``alive`` models per line (default:
    all), in firing order: one group per (weapon, BS), lines merged."""
    alive = [m.count for m in unit.models] if alive is None else list(alive)
    groups: list[Group] = []
    for name in weapon_order(unit, order):
        by_bs: dict[int, int] = {}
        for m, n in zip(unit.models, alive, strict=True):
            if name in m.weapons and n and m.bs is not None:
                by_bs[m.bs] = by_bs.get(m.bs, 0) + n
        groups.extend(Group(unit.weapon(name), bs, n) for bs, n in by_bs.items())
    return groups


def can_shoot(unit: Unit) -> bool:
    """Whether some model of ``unit`` carries a ranged weapon."""
    return any(m.weapons for m in unit.models)


def group_attack(group: Group, snap: bool = False, moved: bool = False, range: str | None = None,
                 distance: Fraction | None = None) -> Shooting | None:
    """The :class:`~.units.Shooting` of one group, or None when it cannot fire:
    a weapon that cannot snap fire when the shots are snap shots (asked for, or
    a Heavy weapon after moving), or a target beyond the weapon's range."""
    w = group.weapon
    if distance is not None and w.range is not None and distance > w.range:
        return None
    rng = range
    if distance is not None and w.range is not None:
        rng = "half" if 2 * distance <= w.range else "full"
    heavy_snap = moved and "heavy" in w.rules and "relentless" not in w.rules
    if (snap or heavy_snap) and w.weapon_type in CANNOT_SNAP:
        return None
    return w.attack(group.models, group.bs, snap=snap, moved=moved, range=rng)


def attack_kernel(attack: Shooting, target: Unit, focus_fire: int | str | None = None) -> Kernel:
    """One group's attack as a kernel on the target's state: the state after
    hits, wounds (against the majority Toughness of the models in play),
    allocation and saves; a target with no model left is unchanged. Memoised
    per state: each distinct state costs one shooting pipeline (see
    :func:`~.shooting.shooting_pipeline`)."""
    memo: dict[UnitState, Dist] = {}
    shots = attack.shot_counts()

    def kernel(state: UnitState) -> Dist:
        got = memo.get(state)
        if got is None:
            if not state.alive():
                got = Dist.constant(state)
            else:
                got = shooting_pipeline(attack, target, focus_fire, state).run(shots)[UNSAVED]
            memo[state] = got
        return got

    return kernel


def _firing(firer: Unit, target: Unit, alive: Sequence[int] | None, order: Sequence[str] | None, snap: bool,
            moved: bool, range: str | None, distance: Fraction | None) -> Iterator[tuple[Group, Shooting]]:
    """The weapon groups of ``firer`` that fire at ``target``, each with its
    attack, in firing order; each group's work is checked against the state
    limit before it is built."""
    require_type(firer, Unit, "the firing unit")
    require_type(target, Unit, "the target unit")
    if not can_shoot(firer):
        raise InputError(f"{firer.name} cannot shoot: none of its models has a ranged weapon "
                         "(give a model line weapon = \"NAME\" and a [weapons.NAME] table)")
    total = sum(m.wounds * m.count for m in target.models)
    for group in weapon_groups(firer, alive, order):
        attack = group_attack(group, snap, moved, range, distance)
        if attack is None:
            continue
        check_size((total + 1) * (attack.most_shots() + 1) * (target.size + 1),
                   f"{group.label} at a unit of {target.size} models")
        yield group, attack


def fire_pipeline(firer: Unit, target: Unit, alive: Sequence[int] | None = None, order: Sequence[str] | None = None,
                  focus_fire: int | str | None = None, snap: bool = False, moved: bool = False,
                  range: str | None = None, distance: Fraction | None = None) -> Pipeline:
    """One shooting attack of ``firer``'s weapons at ``target``, one step per
    weapon group (named after it, e.g. ``"bolter x8 (BS 4)"``), in firing order.

    Cost: the sum over the groups of (distinct target states before the group)
    x (one shooting pipeline from that state); the distinct states are at most
    the target's total wounds + 1 without Look Out, Sir or Instant Death.
    """
    steps = []
    for group, attack in _firing(firer, target, alive, order, snap, moved, range, distance):
        steps.append(Step.kernel(group.label, attack_kernel(attack, target, focus_fire),
                                 f"{group.label} fires at {target.name}"))
    return Pipeline(tuple(steps))


class Sides(NamedTuple):
    """Both units of a shooting attack whose weapons may Get Hot: the target's
    state and the firing unit's."""

    target: UnitState
    firer: UnitState


def gets_hot_unit(unit: Unit) -> bool:
    """Whether some model of ``unit`` carries a weapon that Gets Hot."""
    carried = {w for m in unit.models for w in m.weapons}
    return any("gets-hot" in w.rules for w in unit.weapons if w.name in carried)


def _hot_kernel(attack: Shooting, firer: Unit, target: Unit, indices: list[int], start: UnitState,
                focus_fire: int | str | None) -> Kernel:
    """One Gets Hot group's attack as a kernel on :class:`Sides`: the volley's
    (hits, wounds lost per firing model) (:func:`~.gets_hot.volley`), the hits
    resolved on the target as in one shooting attack, the losses taken from the
    firing models. A group still rolls to hit (and may get hot) at a target
    already destroyed by an earlier group. Memoised per (target state, hits)."""
    models = firer.expanded()
    v = volley(attack, [Firer.of(models[i]) for i in indices], [start.wounds[i] for i in indices])
    tails: dict[UnitState, Pipeline] = {}
    after: dict[tuple[UnitState, int], Dist] = {}

    def on_target(state: UnitState, h: int) -> Dist:
        if not state.alive():
            return Dist.constant(state)
        got = after.get((state, h))
        if got is None:
            if state not in tails:
                tails[state] = Pipeline(shooting_pipeline(attack, target, focus_fire, state).steps[1:3])
            got = after[state, h] = tails[state](Dist.constant(h))
        return got

    def kernel(s: Sides) -> Dist:
        return v.then(lambda x: on_target(s.target, x[0]).map(
            lambda t: Sides(t, apply_losses(s.firer, indices, x[1]))))

    return kernel


def fire_both_pipeline(firer: Unit, target: Unit, start: UnitState, order: Sequence[str] | None = None,
                       focus_fire: int | str | None = None, snap: bool = False, moved: bool = False,
                       range: str | None = None, distance: Fraction | None = None) -> Pipeline:
    """:func:`fire_pipeline` on :class:`Sides`: the firing unit's state changes
    too, its weapons that Get Hot costing their firing models wounds.

    Every group fires with the models in play in ``start`` (the firing unit's
    state at the start of the attack: all its weapons fire in one shooting
    attack); the wounds a model loses to Gets Hot are taken as its group
    resolves, so a model removed by one weapon has still fired its others.
    Cost: as :func:`fire_pipeline`, each Gets Hot group's steps run once per
    (target state, hit total), times the firing unit's distinct states (see
    :func:`~.gets_hot.volley`).
    """
    require_type(start, UnitState, "the firing unit's state")
    models = firer.expanded()
    steps = []
    for group, attack in _firing(firer, target, alive_per_line(firer, start), order, snap, moved, range, distance):
        if gets_hot(attack):
            indices = [i for i in start.alive() if group.weapon.name in models[i].weapons and models[i].bs == group.bs]
            kernel = _hot_kernel(attack, firer, target, indices, start, focus_fire)
        else:
            kernel = _on_target(attack_kernel(attack, target, focus_fire))
        steps.append(Step.kernel(group.label, kernel, f"{group.label} fires at {target.name}"))
    return Pipeline(tuple(steps))


def _on_target(kernel: Kernel) -> Kernel:
    """A kernel on the target's state as a kernel on :class:`Sides` (the firer unchanged)."""
    return lambda s: kernel(s.target).map(lambda t: Sides(t, s.firer))


def settled(firer: Unit, s: Sides) -> Sides:
    """Both states with their unsaved counters cleared, the firing unit's
    removed models after its models in play (:func:`~.gets_hot.removed_last`)."""
    return Sides(_cleared(s.target), removed_last(firer, _cleared(s.firer)))


def fire_both(firer: Unit, target: Unit, firer_state: UnitState, target_state: UnitState,
              order: Sequence[str] | None = None, focus_fire: int | str | None = None, snap: bool = False,
              moved: bool = False, range: str | None = None, distance: Fraction | None = None) -> Dist:
    """One shooting attack of ``firer`` (from ``firer_state``) at ``target`` (from
    ``target_state``), weapons that Get Hot included: Dist over the :class:`Sides`
    after it, :func:`settled`. Cost: :func:`fire_both_pipeline`."""
    pipe = fire_both_pipeline(firer, target, firer_state, order, focus_fire, snap, moved, range, distance)
    return pipe(Dist.constant(Sides(target_state, firer_state))).map(lambda s: settled(firer, s))


def fire(firer: Unit, target: Unit, focus_fire: int | str | None = None, order: Sequence[str] | None = None,
         snap: bool = False, moved: bool = False, range: str | None = None) -> Run:
    """Run one shooting attack of every weapon of ``firer`` at a fresh
    ``target``; each stage is the target's state after one weapon group."""
    return fire_pipeline(firer, target, None, order, focus_fire, snap, moved, range).run(start_state(target))


# --------------------------------------------------------------------------- the assault

LOCKED, CHARGE_FAILED, FALLS_BACK, SWEPT, READY = "locked", "charge failed", "falling back", "swept", ""
"""How an assault stands for a unit (the empty text: nothing)."""


class Engagement(NamedTuple):
    """Two units in an assault: the charger's and the charged unit's states
    (wounds left per model; the unsaved wounds each suffered in the current
    fight round) and how the assault stands for each (:data:`LOCKED`,
    :data:`CHARGE_FAILED`, :data:`FALLS_BACK`, :data:`SWEPT` or :data:`READY`)."""

    attacker: UnitState
    defender: UnitState
    attacker_status: str = READY
    defender_status: str = READY
    just_charged: bool = False

    def locked(self) -> bool:
        """Both units in play and locked in combat."""
        return (self.attacker_status == LOCKED and self.defender_status == LOCKED
                and bool(self.attacker.alive()) and bool(self.defender.alive()))


def sweep_initiative(unit: Unit, state: UnitState) -> int:
    """The Initiative a unit rolls with in a sweeping advance: the lowest among
    its models in play (the rules do not say for a mixed unit; a unit moves at
    the pace of its slowest model, as in the charge). 0 when none is left. O(models)."""
    models = unit.expanded()
    return min((models[i].melee.initiative for i in state.alive()  # type: ignore[union-attr]
                if models[i].melee is not None), default=0)


@lru_cache(maxsize=None)
def p_caught(winner_initiative: int, loser_initiative: int) -> Fraction:
    """P(D6 + the winner's Initiative >= D6 + the loser's): the loser is caught. O(36)."""
    return (d6.combine(d6, lambda a, b: a + winner_initiative >= b + loser_initiative)).pmf(True)


def _cleared(state: UnitState) -> UnitState:
    """``state`` with its unsaved-wound counter at 0 (the same object when it is already)."""
    return state if not state.unsaved else UnitState(state.wounds, 0, state.marked)


def _wiped(state: UnitState) -> UnitState:
    """``state`` with every model removed and its unsaved-wound counter at 0."""
    return UnitState(tuple(0 for _ in state.wounds), 0, state.marked)


def sweeping_advance(who: str, winner_initiative: int, loser_initiative: int) -> Dist:
    """The loser ``who`` falls back; the winner's sweeping advance may catch it:
    Dist over the pair of statuses (attacker's, defender's) after the round,
    both :data:`LOCKED` when nobody falls back (the combat goes on). O(1)."""
    if who == NOBODY:
        return Dist.constant((LOCKED, LOCKED))
    caught = p_caught(winner_initiative, loser_initiative)
    if who == DEFENDER:
        return Dist.bernoulli(caught, success=(READY, SWEPT), failure=(READY, FALLS_BACK))
    return Dist.bernoulli(caught, success=(SWEPT, READY), failure=(FALLS_BACK, READY))


class _Side(NamedTuple):
    """One unit after the blows of a round, as the rest of the round needs it."""

    state: UnitState
    """Its state, the unsaved-wound counter at 0."""
    swept: UnitState
    """Its state when caught by a sweeping advance: every model removed."""
    standing: Standing
    """Models in play, highest Leadership, morale rule (the combat result)."""
    initiative: int
    """The Initiative it rolls with in a sweeping advance."""


def fight_round(attacker: Unit, defender: Unit, charged: bool) -> Kernel:
    """One round of combat between locked units, as a kernel on
    :class:`Engagement`: the Initiative steps (as in
    :func:`~.fight.fight_pipeline`; ``charged``: the attacker charged this
    turn, +1 Attack), then the combat result, the loser's morale test and the
    sweeping advance. A unit destroyed ends the combat.

    Engagements not locked pass through unchanged. Memoised per engagement;
    cost (distinct engagements) x (one fight's Initiative steps), then per
    distinct state after the blows O(1) (each unit's standing computed once
    per distinct unit state, O(models); each morale test and sweeping advance
    once per (result, Initiatives), O(36))."""
    blows = fight_pipeline(attacker, defender, charged).steps[:-2]
    a_models, d_models = attacker.expanded(), defender.expanded()

    def sides(unit: Unit, models: list) -> Callable[[UnitState], _Side]:
        memo: dict[UnitState, _Side] = {}

        def side(state: UnitState) -> _Side:
            got = memo.get(state)
            if got is None:
                # states differing only in their unsaved counters share one record, so equal
                # states after the round are one object (the merges compare them by identity)
                clear = _cleared(state)
                got = memo.get(clear)
                if got is None:
                    got = memo[clear] = _Side(clear, _wiped(clear), standing_of(models, clear),
                                              sweep_initiative(unit, clear))
                memo[state] = got
            return got

        return side

    a_side, d_side = sides(attacker, a_models), sides(defender, d_models)
    endings: dict[tuple, Dist] = {}

    def ending(falls: Dist, a: _Side, d: _Side) -> Dist:
        """The statuses after the loser's morale test (``falls``) and the sweeping advance."""
        key = (falls, a.initiative, d.initiative)
        got = endings.get(key)
        if got is None:
            got = endings[key] = falls.then(lambda who: sweeping_advance(
                who, *((a.initiative, d.initiative) if who == DEFENDER else (d.initiative, a.initiative))))
        return got

    def after_blows(f: FightState) -> Dist:
        """The combat result, the loser's morale test and the sweeping advance
        after the blows: Dist over the statuses (attacker's, defender's)."""
        a, d = a_side(f.attacker), d_side(f.defender)
        return ending(who_falls_back(combat_result(a.standing, d.standing, f)), a, d)

    def end_of_round(f: FightState, statuses: tuple[str, str]) -> Engagement:
        """The engagement after the round; a unit destroyed ends the combat."""
        a, d = a_side(f.attacker), d_side(f.defender)
        sa, sd = statuses
        att, dfd = a.swept if sa == SWEPT else a.state, d.swept if sd == SWEPT else d.state
        if sa == LOCKED and not (any(att.wounds) and any(dfd.wounds)):
            return Engagement(att, dfd, READY, READY, False)
        return Engagement(att, dfd, sa, sd, False)

    memo: dict[Engagement, Dist] = {}

    def kernel(e: Engagement) -> Dist:
        if not e.locked():
            return Dist.constant(e)
        got = memo.get(e)
        if got is None:
            d = Dist.constant(FightState(_cleared(e.attacker), _cleared(e.defender)))
            for step in blows:
                d = step(d)
            got = memo[e] = d.then(after_blows, end_of_round)
        return got

    return kernel


def overwatch_kernel(charger: Unit, charged: Unit, order: Sequence[str] | None = None,
                     distance: Fraction | None = None) -> Kernel:
    """Overwatch: the charged unit's models in play fire their ranged weapons
    as snap shots at the charger, group by group, casualties closest first;
    weapons that cannot snap fire do not fire; at the charge ``distance``,
    weapons with a range fire if in range (Rapid Fire: twice within half of
    it). Weapons that Get Hot cost their firing models wounds (the charged
    unit's state changes too, :func:`fire_both_pipeline`). Engagements not
    about to charge pass through. Memoised per (firing models, charger state)."""
    memo: dict[tuple, Dist] = {}
    shoots = can_shoot(charged)
    hot = gets_hot_unit(charged)

    def kernel(e: Engagement) -> Dist:
        if not shoots or e.attacker_status != READY or not e.attacker.alive() or not e.defender.alive():
            return Dist.constant(e)
        if hot:
            key: tuple = (e.defender, e.attacker)
            if key not in memo:
                memo[key] = fire_both(charged, charger, e.defender, e.attacker, order, snap=True, distance=distance)
            return memo[key].map(lambda s: e._replace(attacker=s.target, defender=s.firer))
        alive = alive_per_line(charged, e.defender)
        key = (alive, e.attacker)
        if key not in memo:
            pipe = fire_pipeline(charged, charger, alive, order, snap=True, distance=distance)
            memo[key] = pipe(Dist.constant(e.attacker)).map(lambda s: replace(s, unsaved=0))
        return memo[key].map(lambda s: e._replace(attacker=s))

    return kernel


def charge_kernel(charger: Unit, distance: Fraction) -> Kernel:
    """The charge roll with the slowest method among the charger's models in
    play: reaching ``distance`` locks both units, else the charge fails. A
    charger wiped out by Overwatch does not charge. O(36) per distinct state."""
    models = charger.expanded()

    def kernel(e: Engagement) -> Dist:
        if e.attacker_status != READY or not e.attacker.alive() or not e.defender.alive():
            return Dist.constant(e)
        methods = {models[i].charge_roll for i in e.attacker.alive()}
        p = unit_charge_roll(sorted(methods)).at_least(distance)
        return Dist.bernoulli(p, success=e._replace(attacker_status=LOCKED, defender_status=LOCKED,
                                                    just_charged=True),
                              failure=e._replace(attacker_status=CHARGE_FAILED))

    return kernel


OVERWATCH, CHARGE = "overwatch", "charge"
MAX_ROUNDS = 20


def check_assault(distance: int | Fraction, rounds: int) -> Fraction:
    """The charge distance as a Fraction (0 to 12 inches: 2D6 reaches no
    further), after checking ``rounds`` (1 to :data:`MAX_ROUNDS`)."""
    d = check_distance(distance)
    if d > 12:
        raise InputError(f"charge distance {d} is over 12 inches: no charge roll reaches it (2D6 at most 12)")
    if not isinstance(rounds, int) or isinstance(rounds, bool) or not 1 <= rounds <= MAX_ROUNDS:
        raise InputError(f"rounds {rounds!r:.20} is not allowed: use a whole number from 1 to {MAX_ROUNDS}")
    return d


def assault_kernels(attacker: Unit, defender: Unit, distance: int | Fraction, rounds: int = 1,
                    overwatch: bool = True, order: Sequence[str] | None = None) -> list[tuple[str, Kernel, str]]:
    """The assault sequence as (name, kernel on :class:`Engagement`, doc):
    ``"overwatch"``, ``"charge"``, then ``"round 1"`` .. ``"round N"``.

    An engagement already locked at the start (a combat carried over from an
    earlier turn) skips Overwatch and the charge, and fights without the
    charge bonus; an attacker falling back, or either unit destroyed, does
    nothing.
    """
    d = check_assault(distance, rounds)
    require_type(attacker, Unit, "the attacker")
    require_type(defender, Unit, "the defender")
    kernels: list[tuple[str, Kernel, str]] = []
    if overwatch:
        kernels.append((OVERWATCH, overwatch_kernel(attacker, defender, order, d), ""))
    kernels.append((CHARGE, charge_kernel(attacker, d), ""))
    charging, continuing = fight_round(attacker, defender, True), fight_round(attacker, defender, False)

    def fight(e: Engagement) -> Dist:
        return (charging if e.just_charged else continuing)(e)

    for r in range(1, rounds + 1):
        kernels.append((f"round {r}", fight, "blows by Initiative, combat result, morale, sweeping advance"))
    return kernels


def assault_steps(attacker: Unit, defender: Unit, distance: int | Fraction, rounds: int = 1,
                  overwatch: bool = True, order: Sequence[str] | None = None) -> list[Step]:
    """The assault sequence (:func:`assault_kernels`) as steps on :class:`Engagement` states."""
    return [Step.kernel(name, kernel, doc)
            for name, kernel, doc in assault_kernels(attacker, defender, distance, rounds, overwatch, order)]


def assault(attacker: Unit, defender: Unit, distance: int | Fraction, rounds: int = 1, overwatch: bool = True,
            order: Sequence[str] | None = None) -> Run:
    """Run the whole assault of fresh units; ``run.stages`` holds each step."""
    steps = assault_steps(attacker, defender, distance, rounds, overwatch, order)
    w_a = sum(m.wounds * m.count for m in attacker.models)
    w_d = sum(m.wounds * m.count for m in defender.models)
    check_size((w_a + 1) * (w_d + 1) * 4 * rounds, f"an assault of {attacker.size} against {defender.size} models")
    return Pipeline(tuple(steps)).run(Engagement(start_state(attacker), start_state(defender)))


# --------------------------------------------------------------------------- steps of a scenario
# Each spec builds pipeline steps on worlds (:class:`~exactodds.rules.scenario.World`):
# one state and one status per unit. A world's unsaved-wound counters are 0
# between steps; statuses: "" (nothing), "locked", "charging" (locked, its
# charge just made: the first round gives +1 Attack), "charge failed" (until
# the end of the turn), "falling back", "swept".

CHARGING = "charging"


def _engagement(w: World, a: int, d: int) -> Engagement:
    sa = w.statuses[a]
    return Engagement(w.units[a], w.units[d], LOCKED if sa == CHARGING else sa, w.statuses[d], sa == CHARGING)


def _write(w: World, a: int, d: int, e: Engagement) -> World:
    units, statuses = list(w.units), list(w.statuses)
    units[a], units[d] = _cleared(e.attacker), _cleared(e.defender)
    statuses[a], statuses[d] = CHARGING if e.just_charged else e.attacker_status, e.defender_status
    return World(tuple(units), tuple(statuses))


def _on_worlds(kernel: Kernel, a: int, d: int) -> Callable[[Dist], Dist]:
    """``kernel`` on engagements as a step on worlds (units ``a`` and ``d``):
    each world's engagement through the kernel, each outcome written back
    into that world. O(sum of the kernel's answers)."""
    return lambda dist: dist.then(lambda w: kernel(_engagement(w, a, d)), lambda w, e: _write(w, a, d, e))


def _unit(units: Mapping[str, Unit], name: str) -> Unit:
    return units[name]


@dataclass(frozen=True)
class Shoot:
    """``unit`` fires all its ranged weapons at ``target``, group by group.

    A unit locked in combat neither shoots nor is shot at; a unit falling back
    fires snap shots; a destroyed unit does nothing. Weapons that Get Hot cost
    their firing models wounds (:func:`fire_both_pipeline`)."""

    unit: str
    target: str
    order: tuple[str, ...] | None = None
    focus_fire: int | str | None = None
    snap: bool = False
    moved: bool = False
    range: str | None = None
    distance: Fraction | None = None
    name: str = ""
    kind: str = "shoot"

    def units_named(self) -> list[str]:
        return [self.unit, self.target]

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        firer, target = _unit(units, self.unit), _unit(units, self.target)
        if not can_shoot(firer):
            raise InputError(f"{self.unit} cannot shoot: none of its models has a ranged weapon")
        if self.unit == self.target:
            raise InputError(f"{self.unit} cannot shoot at itself")
        weapon_order(firer, self.order)
        f, t = index[self.unit], index[self.target]
        pipes: dict[tuple, Pipeline] = {}
        memo: dict[tuple, Dist] = {}
        hot = gets_hot_unit(firer)

        def kernel(w: World) -> Dist:
            if (not w.units[f].alive() or not w.units[t].alive()
                    or {w.statuses[f], w.statuses[t]} & {LOCKED, CHARGING}):
                return Dist.constant(w)
            snap = self.snap or w.statuses[f] == FALLS_BACK
            if hot:
                key: tuple = (w.units[f], snap, w.units[t])
                if key not in memo:
                    memo[key] = fire_both(firer, target, w.units[f], w.units[t], self.order, self.focus_fire, snap,
                                          self.moved, self.range, self.distance)
                return memo[key].map(lambda s: w.put(t, s.target).put(f, s.firer))
            alive = alive_per_line(firer, w.units[f])
            key = (alive, snap, w.units[t])
            if key not in memo:
                if (alive, snap) not in pipes:
                    pipes[alive, snap] = fire_pipeline(firer, target, alive, self.order, self.focus_fire, snap,
                                                       self.moved, self.range, self.distance)
                memo[key] = pipes[alive, snap](Dist.constant(w.units[t])).map(lambda s: replace(s, unsaved=0))
            return memo[key].map(lambda s: w.put(t, s))

        return [Step.kernel(self.kind, kernel, f"{self.unit} shoots {self.target}")]


@dataclass(frozen=True)
class Assault:
    """``attacker`` charges ``defender`` from ``distance`` inches: Overwatch,
    the charge roll, up to ``rounds`` rounds of combat (see :func:`assault_steps`)."""

    attacker: str
    defender: str
    distance: Fraction | int = 6
    rounds: int = 1
    overwatch: bool = True
    order: tuple[str, ...] | None = None
    name: str = ""
    kind: str = "assault"

    def units_named(self) -> list[str]:
        return [self.attacker, self.defender]

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        if self.attacker == self.defender:
            raise InputError(f"{self.attacker} cannot charge itself")
        a, d = index[self.attacker], index[self.defender]
        kernels = assault_kernels(_unit(units, self.attacker), _unit(units, self.defender), self.distance,
                                  self.rounds, self.overwatch, self.order)
        return [Step(name, _on_worlds(kernel, a, d), doc or kernel.__doc__ or "") for name, kernel, doc in kernels]


@dataclass(frozen=True)
class Fight:
    """``attacker`` and ``defender`` are locked in combat and fight ``rounds``
    rounds (``charged``: the attacker charged, +1 Attack in the first)."""

    attacker: str
    defender: str
    charged: bool = False
    rounds: int = 1
    name: str = ""
    kind: str = "fight"

    def units_named(self) -> list[str]:
        return [self.attacker, self.defender]

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        check_assault(0, self.rounds)
        if self.attacker == self.defender:
            raise InputError(f"{self.attacker} cannot fight itself")
        a, d = index[self.attacker], index[self.defender]
        ua, ud = _unit(units, self.attacker), _unit(units, self.defender)
        charging, continuing = fight_round(ua, ud, True), fight_round(ua, ud, False)

        def engage(w: World) -> World:
            if not (w.units[a].alive() and w.units[d].alive()):
                return w
            return w.put(a, w.units[a], CHARGING if self.charged else LOCKED).put(d, w.units[d], LOCKED)

        def round_kernel(e: Engagement) -> Dist:
            return (charging if e.just_charged else continuing)(e)

        steps = [Step.map("engage", engage, "both units locked in combat")]
        for r in range(1, self.rounds + 1):
            steps.append(Step(f"round {r}", _on_worlds(round_kernel, a, d),
                              "blows by Initiative, combat result, morale, sweeping advance"))
        return steps


@dataclass(frozen=True)
class MoraleCheck:
    """``unit`` takes a morale test (2D6 <= its highest Leadership in play +
    ``modifier``, a double 1 passes; Fearless passes, Stubborn ignores a
    negative modifier); failed, it falls back. A destroyed unit does not test."""

    unit: str
    modifier: int = 0
    name: str = ""
    kind: str = "morale"

    def units_named(self) -> list[str]:
        return [self.unit]

    def build(self, index: Mapping[str, int], units: Mapping[str, Unit]) -> list[Step]:
        from .morale import FAIL, test_against

        i, unit = index[self.unit], _unit(units, self.unit)
        models = unit.expanded()
        if any(m.melee is None for m in models):
            raise InputError(f"{self.unit}: a morale test needs each model's leadership (the close-combat profile)")

        def kernel(w: World) -> Dist:
            s = w.units[i]
            if not s.alive() or w.statuses[i] in (FALLS_BACK, SWEPT):
                return Dist.constant(w)
            rules = {r for j in s.alive() for r in models[j].rules}
            if "fearless" in rules:
                return Dist.constant(w)
            ld = max(models[j].melee.leadership for j in s.alive())  # type: ignore[union-attr]
            mod = max(0, self.modifier) if "stubborn" in rules else self.modifier
            return test_against(ld + mod).map(lambda r: w.put(i, s, FALLS_BACK) if r == FAIL else w)

        return [Step.kernel(self.kind, kernel, f"{self.unit} tests morale")]
