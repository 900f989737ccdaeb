"""Several weapons in one shooting attack in Warhammer 40,000 6th edition.

The firing unit's models fire their ranged weapons one weapon group after
another (a group: the models of one BS carrying one weapon); each group rolls
to hit, to wound against the majority Toughness of the target's models still
in play, and allocates closest first (Look Out, Sir, Focus Fire, saves) on the
target as the previous groups left it. A target wiped out by an earlier group
takes nothing more. Weapons that Get Hot cost their firing models wounds
(:func:`fire_both_pipeline` follows both units).

The steps are Markov kernels on a unit's :class:`~exactodds.rules.allocation.UnitState`,
memoised per distinct state: a step costs (distinct states before it) x (the
cost of one single-state step), equal states merged after each step.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from ...core import Dist, InputError, Kernel, Pipeline, Run, Step, check_size
from ...core.limits import charge
from ...core.tables import Table, mix
from ..allocation import UnitState, alive_per_line as count_alive, cleared
from .casualties import start_state
from .gets_hot import Firer, apply_losses, gets_hot, per_model_shots, removed_last, volley, volley_removed
from .shooting import Allocations, Resolution
from .units import CANNOT_SNAP, Model, Shooting, Unit, Weapon, require_type

RELENTLESS = "relentless"
"""The model rule Relentless: Heavy and Salvo weapons fire as if the unit had not moved."""

# --------------------------------------------------------------------------- weapon groups


@dataclass(frozen=True)
class Group:
    """One weapon group of a shooting attack: ``models`` models of one ``bs``
    firing ``weapon``; ``relentless``: models with the Relentless rule (they
    fire Heavy and Salvo weapons as if stationary)."""

    weapon: Weapon
    bs: int
    models: int
    relentless: bool = False

    @property
    def label(self) -> str:
        """``bolter x8 (BS 4)`` (``heavy bolter x2 (BS 4, relentless)``)."""
        return f"{self.weapon.name} x{self.models} (BS {self.bs}{', relentless' if self.relentless else ''})"

    def fires(self, model: Model) -> bool:
        """Whether ``model`` fires in this group."""
        return (self.weapon.name in model.weapons and model.bs == self.bs
                and (RELENTLESS in model.rules) == self.relentless)


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
    all), in firing order: one group per (weapon, BS, Relentless or not), lines merged."""
    alive = [m.count for m in unit.models] if alive is None else list(alive)
    groups: list[Group] = []
    for name in weapon_order(unit, order):
        by_bs: dict[tuple[int, bool], int] = {}
        for m, n in zip(unit.models, alive, strict=True):
            if name in m.weapons and n and m.bs is not None:
                key = (m.bs, RELENTLESS in m.rules)
                by_bs[key] = by_bs.get(key, 0) + n
        groups.extend(Group(unit.weapon(name), bs, n, relentless) for (bs, relentless), n in by_bs.items())
    return groups


def can_shoot(unit: Unit) -> bool:
    """Whether some model of ``unit`` carries a ranged weapon."""
    return any(m.weapons for m in unit.models)


def group_attack(group: Group, snap: bool = False, moved: bool = False, range: str | None = None,
                 distance: Fraction | None = None) -> Shooting | None:
    """The :class:`~.units.Shooting` of one group, or None when it cannot fire:
    a weapon that cannot snap fire when the shots are snap shots (asked for, or
    a Heavy weapon after moving), or a target beyond the weapon's range. A
    Relentless group fires as if stationary."""
    w = group.weapon
    moved = moved and not group.relentless
    if distance is not None and w.range is not None and distance > w.range:
        return None
    rng = range
    if distance is not None and w.range is not None:
        rng = "half" if 2 * distance <= w.range else "full"
    heavy_snap = moved and "heavy" in w.rules and "relentless" not in w.rules
    if (snap or heavy_snap) and w.weapon_type in CANNOT_SNAP:
        return None
    return w.attack(group.models, group.bs, snap=snap, moved=moved, range=rng)


def attack_kernel(attack: Shooting, target: Unit, focus_fire: int | str | None = None,
                  kept: Allocations | None = None) -> Kernel:
    """One group's attack as a kernel on the target's state: the state after
    hits, wounds (against the majority Toughness of the models in play),
    allocation and saves; a target with no model left is unchanged. Memoised
    per state: each distinct state costs the allocation of one shooting
    pipeline (see :func:`~.shooting.shooting_pipeline`), its hits computed
    once and its wounds once per roll needed (:class:`~.shooting.Resolution`).
    ``kept``: the wound kernels kept for the target, shared by the groups of one
    attack (default: this group's own)."""
    memo: dict[UnitState, Dist] = {}
    # one wound kernel for every state: each state's chain of wounds computed once
    kept = {} if kept is None else kept
    made: list[Resolution] = []  # made at the first state in play, as the pipeline was (its checks then)

    def kernel(state: UnitState) -> Dist:
        got = memo.get(state)
        if got is None:
            if not state.alive():
                got = Dist.constant(state)
            else:
                if not made:
                    made.append(Resolution(attack, target, focus_fire, state, kept))
                got = made[0].after(state)
            memo[state] = got
        return got

    return kernel


def cleared_step(attack: Shooting, target: Unit, focus_fire: int | str | None = None,
                 kept: Allocations | None = None) -> Callable[[Dist], Dist]:
    """One group's attack on a distribution of the target's states, as
    ``dist.then(attack_kernel(...))`` with every counter cleared (:func:`cleared`),
    outcomes in the same order: each distinct state's outcomes a weight table
    (:meth:`~.shooting.Resolution.table_after`), the tables mixed over their
    least common total (:func:`~exactodds.core.tables.mix`) with no Dist per
    state. Memoised per state. Cost: O(sum of the tables' sizes) multiply-adds,
    metered as :meth:`Dist.then` meters them, and one table per new state."""
    tables: dict[UnitState, Table[UnitState]] = {}
    made: list[Resolution] = []  # made at the first state in play, as the pipeline was (its checks then)
    kept = {} if kept is None else kept

    def step(dist: Dist) -> Dist:
        parts = []
        terms = 0
        for state, w in dist.weights().items():
            got = tables.get(state)
            if got is None:
                if not state.alive():
                    got = [(cleared(state), 1)], 1
                else:
                    if not made:
                        made.append(Resolution(attack, target, focus_fire, state, kept))
                    got = made[0].table_after(state)
                tables[state] = got
            parts.append((w, got))
            terms += len(got[0])
        out, lcm = mix(parts)
        charge(terms, dist.denominator.bit_length() + lcm.bit_length())
        return Dist._make(out, dist.denominator * lcm)

    return step


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
    work, groups = 0, 0
    for group in weapon_groups(firer, alive, order):
        attack = group_attack(group, snap, moved, range, distance)
        if attack is None:
            continue
        size = (total + 1) * (attack.most_shots() + 1) * (target.size + 1)
        check_size(size, f"{group.label} at a unit of {target.size} models")
        work, groups = work + size, groups + 1
        check_size(work, f"the first {groups} weapon groups of {firer.name!r} at a unit of {target.size} models")
        yield group, attack


def fire_pipeline(firer: Unit, target: Unit, alive: Sequence[int] | None = None, order: Sequence[str] | None = None,
                  focus_fire: int | str | None = None, snap: bool = False, moved: bool = False,
                  range: str | None = None, distance: Fraction | None = None, counted: bool = True) -> Pipeline:
    """One shooting attack of ``firer``'s weapons at ``target``, one step per
    weapon group (named after it, e.g. ``"bolter x8 (BS 4)"``), in firing order.

    Cost: the sum over the groups of (distinct target states before the group)
    x (one shooting pipeline from that state); the distinct states are at most
    the target's total wounds + 1 without Look Out, Sir or Instant Death.
    ``counted=False``: every state's unsaved-wound counter cleared, after
    each group too (:func:`cleared_step`), for a caller that reads none: the
    next group then meets one state per wounds left, not one per (wounds
    left, unsaved wounds so far); the final Dist is ``pipe(start)``'s with its
    counters cleared, outcomes in the same order (a group's kernel reads the
    wounds left, never the counter).
    """
    steps = []
    kept: Allocations = {}  # the groups' wound kernels on the target: one per distinct saves and damage
    for group, attack in _firing(firer, target, alive, order, snap, moved, range, distance):
        doc = f"{group.label} fires at {target.name}"
        if counted:
            steps.append(Step.kernel(group.label, attack_kernel(attack, target, focus_fire, kept), doc))
        else:
            steps.append(Step.whole(group.label, cleared_step(attack, target, focus_fire, kept), doc))
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
                focus_fire: int | str | None, removed: bool = False) -> Kernel:
    """One Gets Hot group's attack as a kernel on :class:`Sides`: the volley's
    (hits, wounds lost per firing model) (:func:`~.gets_hot.volley`), the hits
    resolved on the target as in one shooting attack, the losses taken from the
    firing models. A group still rolls to hit (and may get hot) at a target
    already destroyed by an earlier group. Memoised per (target state, hits).

    ``removed``: for a group whose models fire no other weapon that Gets Hot,
    when only the firing unit's casualties are asked for: the volley over
    (hits, models removed) (:func:`~.gets_hot.volley_removed`, O(k^2 x H)),
    the removed models taken as the group's first ones in play, instead of
    the product over the models of their wounds left + 1 loss tuples."""
    models = firer.expanded()
    firers, left = [Firer.of(models[i]) for i in indices], [start.wounds[i] for i in indices]
    v = volley_removed(attack, firers, left) if removed else volley(attack, firers, left)
    lose = _remove_first if removed else apply_losses
    made: list[Resolution] = []  # made at the first target state in play (its checks then)
    after: dict[tuple[UnitState, int], Dist] = {}
    kept: Allocations = {}

    def on_target(state: UnitState, h: int) -> Dist:
        if not state.alive():
            return Dist.constant(state)
        got = after.get((state, h))
        if got is None:
            if not made:
                made.append(Resolution(attack, target, focus_fire, state, kept))
            got = after[state, h] = made[0].after_hits(state, h)
        return got

    hits, given = _by_hits(v)
    firer_after: dict[tuple[UnitState, int], Dist] = {}

    def losses(state: UnitState, h: int) -> Dist:
        got = firer_after.get((state, h))
        if got is None:
            got = firer_after[state, h] = given[h].map(lambda x: lose(state, indices, x))
        return got

    def kernel(s: Sides) -> Dist:
        # per hit total: the target's states x the firer's (independent given the hits), O(|T| |L|)
        return hits.then(lambda h: _product(on_target(s.target, h), losses(s.firer, h)))

    return kernel


def _product(target: Dist, firer: Dist) -> Dist:
    """The :class:`Sides` of independent target and firer states (the work is
    counted once, by the kernel's caller). O(|target| |firer|)."""
    out: dict[Sides, int] = {}
    fw = firer.weights()
    for t, w in target.weights().items():
        for f, v in fw.items():
            out[Sides(t, f)] = w * v
    return Dist.from_weights(out)


def _by_hits(v: Dist) -> tuple[Dist, dict[int, Dist]]:
    """A volley's Dist over (hits, losses) as the Dist of its hits and, per hit
    total, the Dist of the losses given it (their product is ``v``). O(|v|)."""
    weights: dict[int, dict[object, int]] = {}
    for (h, lost), w in v.weights().items():
        weights.setdefault(h, {})[lost] = w
    hits = Dist.from_weights({h: sum(ws.values()) for h, ws in weights.items()})
    return hits, {h: Dist.from_weights(ws) for h, ws in weights.items()}


def _remove_first(state: UnitState, indices: Sequence[int], n: int) -> UnitState:
    """``state`` with the first ``n`` models of ``indices`` in play removed. O(models)."""
    if not n:
        return state
    wounds = list(state.wounds)
    for i in indices:
        if n and wounds[i] > 0:
            wounds[i], n = 0, n - 1
    return replace(state, wounds=tuple(wounds))


def fire_both_pipeline(firer: Unit, target: Unit, start: UnitState, order: Sequence[str] | None = None,
                       focus_fire: int | str | None = None, snap: bool = False, moved: bool = False,
                       range: str | None = None, distance: Fraction | None = None,
                       casualties_only: bool = False) -> Pipeline:
    """:func:`fire_pipeline` on :class:`Sides`: the firing unit's state changes
    too, its weapons that Get Hot costing their firing models wounds.

    Every group fires with the models in play in ``start`` (the firing unit's
    state at the start of the attack: all its weapons fire in one shooting
    attack); the wounds a model loses to Gets Hot are taken as its group
    resolves, so a model removed by one weapon has still fired its others.
    Cost: as :func:`fire_pipeline`, each Gets Hot group's steps run once per
    (target state, hit total), times the firing unit's distinct states (see
    :func:`~.gets_hot.volley`). ``casualties_only``: the firing unit's states
    are read only for how many models it lost, so a group whose models fire
    no other weapon that Gets Hot counts its models removed
    (:func:`_hot_kernel`): three groups of six three-Wound models make 7^3
    firing states, not 4^18.
    """
    firing, members, modes = _hot_plan(firer, target, start, order, snap, moved, range, distance, casualties_only)
    check_size(2 * both_work(firing, members, modes, start, target),
               f"the {len(firing)} weapon groups of {firer.name!r} (weapons that get hot: each firing model's "
               f"wounds followed) at a unit of {target.size} models")
    steps = []
    for (group, attack), indices, removed in zip(firing, members, modes):
        if gets_hot(attack):
            kernel = _hot_kernel(attack, firer, target, indices, start, focus_fire, removed)
        else:
            kernel = _on_target(attack_kernel(attack, target, focus_fire))
        steps.append(Step.kernel(group.label, kernel, f"{group.label} fires at {target.name}"))
    return Pipeline(tuple(steps))


def _hot_plan(firer: Unit, target: Unit, start: UnitState, order: Sequence[str] | None, snap: bool, moved: bool,
              range: str | None, distance: Fraction | None, casualties_only: bool
              ) -> tuple[list[tuple[Group, Shooting]], list[list[int]], list[bool]]:
    """The groups that fire (with their attacks), each group's firing models (indices
    in ``start``) and whether it counts its models removed (see :func:`_hot_kernel`). O(groups x models)."""
    require_type(start, UnitState, "the firing unit's state")
    models = firer.expanded()
    firing = list(_firing(firer, target, alive_per_line(firer, start), order, snap, moved, range, distance))
    hot_groups = {i: 0 for i in start.alive()}
    members = []
    for group, attack in firing:
        indices = [i for i in start.alive() if group.fires(models[i])]
        members.append(indices)
        for i in indices if gets_hot(attack) else ():
            hot_groups[i] += 1
    modes = [gets_hot(attack) and casualties_only and all(hot_groups[i] == 1 for i in indices)
             for (_, attack), indices in zip(firing, members)]
    return firing, members, modes


def hot_attack_work(firer: Unit, target: Unit, order: Sequence[str] | None = None, snap: bool = False,
                    moved: bool = False, range: str | None = None, distance: Fraction | None = None) -> int:
    """A bound on the work of one shooting attack of ``firer`` (at full strength, its
    weapons that get hot followed model by model) at ``target``: :func:`both_work`."""
    start = start_state(firer)
    firing, members, modes = _hot_plan(firer, target, start, order, snap, moved, range, distance, False)
    return both_work(firing, members, modes, start, target)


def both_work(firing: Sequence[tuple[Group, Shooting]], members: Sequence[Sequence[int]], removed: Sequence[bool],
              start: UnitState, target: Unit) -> int:
    """A bound on the terms of :func:`fire_both_pipeline`'s kernels, before any
    work: per group, (target states before it) x (firing unit's states before
    it) x the sum over its hit totals h of (target states h hits leave) x
    (loss outcomes of its volley). The target's states are at most its total
    wounds + 1 and one more per hit fired before; a model's losses at most its
    wounds left and the shots it has fired with weapons that get hot; a group
    counting models removed (``removed``) adds k + 1 states for its k models.
    O(groups x models)."""
    most_target = sum(m.wounds * m.count for m in target.models) + 1
    targets, fired, firer_states, work = 1, {i: 0 for i in start.alive()}, 1, 0
    for (_, attack), indices, by_count in zip(firing, members, removed):
        hits = attack.most_shots()
        leave = sum(min(h + 1, most_target) for h in range(hits + 1))  # O(shots)
        if not gets_hot(attack):
            work += targets * firer_states * leave
        elif by_count:
            work += targets * firer_states * leave * (len(indices) + 1)
            firer_states *= len(indices) + 1
        else:
            shots = [max(s.support()) for s in per_model_shots(attack, len(indices))]
            losses = math.prod(min(start.wounds[i], s) + 1 for i, s in zip(indices, shots))
            work += targets * firer_states * leave * losses
            for i, s in zip(indices, shots):
                firer_states //= min(start.wounds[i], fired[i]) + 1
                fired[i] += s
                firer_states *= min(start.wounds[i], fired[i]) + 1
        targets = min(most_target, targets + hits)
    return work


def _on_target(kernel: Kernel) -> Kernel:
    """A kernel on the target's state as a kernel on :class:`Sides` (the firer unchanged)."""
    return lambda s: kernel(s.target).map(lambda t: Sides(t, s.firer))


def settled(firer: Unit, s: Sides) -> Sides:
    """Both states with their unsaved counters cleared, the firing unit's
    removed models after its models in play (:func:`~.gets_hot.removed_last`)."""
    return Sides(cleared(s.target), removed_last(firer, cleared(s.firer)))


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


# --------------------------------------------------------------------------- pinning

PINNING = "pinning"


class Pinning(NamedTuple):
    """A state of a shooting attack (the target's, or :class:`Sides`) and whether
    a pinning weapon has inflicted an unsaved wound on the target so far."""

    state: Any
    wounded: bool = False


def pinning_labels(unit: Unit, alive: Sequence[int] | None = None) -> set[str]:
    """The labels of ``unit``'s weapon groups (with ``alive`` models per line) whose weapon has Pinning."""
    return {g.label for g in weapon_groups(unit, alive) if PINNING in g.weapon.rules}


def track_pinning(pipe: Pipeline, labels: set[str], unsaved: Callable[[Any], int]) -> Pipeline:
    """``pipe``'s steps on :class:`Pinning` states: a step named in ``labels`` (a
    group whose weapon has Pinning) marks the outcomes where it raised the
    target's unsaved-wound counter (``unsaved(state)``). Cost: each step once per
    distinct (state, mark) (its own kernels memoise per state)."""
    def tracked(step: Step) -> Step:
        pins = step.name in labels

        def kernel(p: Pinning) -> Dist:
            before = unsaved(p.state)
            return step.apply(Dist.constant(p.state)).map(
                lambda s: Pinning(s, p.wounded or (pins and unsaved(s) > before)))
        return Step.kernel(step.name, kernel, step.doc)
    return Pipeline(tuple(tracked(step) for step in pipe))
