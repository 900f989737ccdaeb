"""Shooting in Warhammer 40,000 6th edition: hits, wounds, saves, casualties.

One attack is a :class:`~exactodds.core.Pipeline` of the rule's own steps,
each stage inspectable in ``run.stages``:

- ``"hits"``: the number of hits (Dist over int);
- ``"wounds"``: the number of wounds (Dist over int);
- ``"unsaved wounds"``: the target unit after allocation, saves and
  removal (Dist over :class:`~exactodds.rules.allocation.UnitState`, whose
  ``unsaved`` field counts the unsaved wounds);
- ``"casualties"``: the number of models removed (Dist over int).

:func:`stage_counts` gives the four stages as counts.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace
from fractions import Fraction
from functools import partial

from ...core import Dist, InputError, Pipeline, Run, Step, check_size
from ...core.limits import state_units, work_meter
from ...core.tables import Table
from ...dice import Target, pool_counts, reroll_up_to, successes
from ..allocation import AllocModel, UnitState, cleared
from .casualties import (
    IndexedKernel, alloc_models, allocation_kernel, check_focus_fire, instant_death_damage, majority_toughness,
    recipient, start_state,
)
from .tables import BS_TABLE, SNAP_SHOT_BS, bs_target, check_bs
from .traits import FAIL, RENDING, RENDING_AP, WOUND, hit_chance_with_rerolls, rending_changes_ap, wound_die, \
    wound_roll_needed
from .inputs import CANNOT_SNAP, Firing, Shooting
from .units import Unit, require_type

HITS, WOUNDS, UNSAVED, CASUALTIES = "hits", "wounds", "unsaved wounds", "casualties"
STAGES = (HITS, WOUNDS, UNSAVED, CASUALTIES)


def check_attack(attack: Shooting) -> Shooting:
    """``attack`` if it is a :class:`Shooting` (whose values were checked when it
    was made: ranges, weapon type, snap shots a weapon cannot fire, rerolls)."""
    require_type(attack, Shooting, "the attack")
    return attack


def check_firing(firing: Firing) -> Firing:
    """``firing`` if it is a :class:`Firing` (checked when it was made)."""
    require_type(firing, Firing, "the attack")
    return firing


def hit_chance(bs: int, snap: bool = False, reroll_failed: bool = False, reroll_ones: bool = False) -> Fraction:
    """P(one shot hits), for independent dice.

    Snap shots use BS 1 "whatever the BS". A granted reroll of every failed
    hit (twin-linked) replaces the BS 6+ table, and the reroll needs the
    first roll's score (original: "celle-ci l'emporte et le tableau ci-dessus
    n'est pas utilisé. dans ce cas, les chances de toucher de la relance sont
    les mêmes que pour le premier jet"). A reroll of 1s (Preferred Enemy)
    also needs the first roll's score. O(1).
    """
    require_type(snap, bool, "snap")
    require_type(reroll_failed, bool, "reroll_failed")
    require_type(reroll_ones, bool, "reroll_ones")
    effective = SNAP_SHOT_BS if snap else check_bs(bs)
    first, again = BS_TABLE[effective]
    return hit_chance_with_rerolls(Target.at_least(first).chance(),
                                   None if again is None else Target.at_least(again).chance(),
                                   reroll_failed, reroll_ones)


def to_hit(attack: Firing) -> Callable[[int], Dist]:
    """The to-hit step: ``shots -> Dist`` of hits.

    Independent dice: Binomial(shots, p), O(shots). Master-crafted (reroll
    up to K failed hits at the first roll's score): conditions on the
    failures, O(shots x K) (:func:`~exactodds.dice.reroll_up_to`). Weapons
    that place their hits (template, blast, artillery, no-bs): the shots are
    the models hit, no roll.
    """
    check_firing(attack)
    if attack.weapon_type != "normal":
        return Dist.constant
    assert attack.bs is not None
    snap = attack.fires_snap()
    if attack.master_crafted is not None:
        effective = SNAP_SHOT_BS if snap else attack.bs
        p = bs_target(effective).chance()
        k = attack.master_crafted
        return lambda n: reroll_up_to(n, k, p, p)
    p = hit_chance(attack.bs, snap, attack.reroll_all_hits(), "preferred-enemy" in attack.rules)
    return lambda n: successes(n, p)


def binomial_hit_chance(attack: Firing) -> Fraction | None:
    """P(one shot hits) when :func:`to_hit` is Binomial(shots, p): a weapon that
    rolls to hit with no master-crafted reroll; else None. O(1)."""
    if attack.weapon_type != "normal" or attack.master_crafted is not None:
        return None
    assert attack.bs is not None
    return hit_chance(attack.bs, attack.fires_snap(), attack.reroll_all_hits(), "preferred-enemy" in attack.rules)


def hits(attack: Firing) -> Dist:
    """The number of hits of ``attack`` (its shots may be random)."""
    return check_firing(attack).shot_counts().then(to_hit(attack))


def shooting_pipeline(attack: Shooting, target: Unit, focus_fire: int | str | None = None,
                      start: UnitState | None = None, kept: Allocations | None = None) -> Pipeline:
    """The steps of one shooting attack on ``target`` (from an optional
    already-damaged ``start`` state; default: each model's ``wounds_left``):
    hits, wounds, unsaved wounds, casualties. ``kept``: a dict the caller
    keeps for the wound kernels, shared by its pipelines on the same target. Run it on the attack's
    :meth:`~.units.Shooting.shot_counts`.

    The wound stage holds counts of wounds, or (wounds, rending wounds) pairs
    when a rending wound (AP2) differs from the weapon's own; the unsaved
    stage allocates the weapon's own wounds first, then the rending ones
    (:func:`stage_counts` gives plain counts).

    Cost: hits O(shots); wounds O(shots^2) (one binomial per hit count), or
    O(shots^3) with rending (one trinomial per hit count); allocation
    O(wounds x unit states x 2) with at most (total wounds + 1) x
    (unsaved counts) unit states when the order is fixed, more with Look Out
    Sir (each character can be skipped), twice with rending (one chain per
    pool, run once per number of rending wounds); all equal states merged.
    """
    shot = Resolution(attack, target, focus_fire, start, kept)
    state0 = shot.state0
    wounds = shot.wound_kernel(state0)

    def unsaved(wound_counts: Dist) -> Dist:
        """Allocate each wound to the closest model (Look Out Sir, Focus
        Fire), roll its save (and Feel No Pain), remove it when out of wounds."""
        return shot.unsaved(wound_counts, state0)

    def casualties(state: UnitState) -> int:
        """Models removed by this attack."""
        return state.casualties() - state0.casualties()

    return (Step.kernel(HITS, shot.hit_kernel, "To hit: BS table, snap shots, rerolls")
            >> Step.kernel(WOUNDS, wounds)
            >> Step.whole(UNSAVED, unsaved)
            >> Step.map(CASUALTIES, casualties))


_WOUNDS_DOC = """To wound, against the majority Toughness: Binomial(hits, p), or the
        (wounds, rending wounds) counts of a trinomial."""
"""The wound step's doc (indented as the step's docs were)."""

PIPELINE_WORK = "the steps hits, wounds, unsaved wounds, ..."
"""What the work meter of a :func:`shooting_pipeline` run is named (:class:`~exactodds.core.Pipeline`)."""
TAIL_WORK = "the steps wounds, unsaved wounds"
"""What the work meter of a run of its wound and unsaved steps alone is named."""


class Resolution:
    """The parts of one shooting attack on ``target`` that do not depend on the
    target's state, made and checked once (as :func:`shooting_pipeline` checks
    them) and shared by every state the attack meets: the to-hit kernel, the
    hits (:meth:`hits`), the wound rolls per Toughness needed
    (:meth:`wound_kernel`, :meth:`wounds`), the allocation kernels (in ``kept``).
    ``start``: the first state (default: the unit's own), checked."""

    def __init__(self, attack: Shooting, target: Unit, focus_fire: int | str | None = None,
                 start: UnitState | None = None, kept: Allocations | None = None) -> None:
        self.hit_kernel = to_hit(check_attack(attack))
        require_type(target, Unit, "the target unit")
        if start is not None:
            require_type(start, UnitState, "the start state")
        self.focus_fire = focus_fire = check_focus_fire(focus_fire)
        self.attack, self.target = attack, target
        self.cover = "ignores-cover" not in attack.rules
        self.kept = {} if kept is None else kept
        self.models, self.own = _allocation(self.kept, target, attack.ap, self.cover, attack.strength, focus_fire)
        self.state0 = self.check_start(start_state(target) if start is None else start)
        shots = attack.most_shots()
        total_wounds = sum(m.wounds * m.count for m in target.models)
        self.rending = rending = rending_changes_ap(attack.rules, attack.ap)
        check_size((shots + 1) * (total_wounds + 1) * (target.size + 1) * (shots + 1 if rending else 1),
                   f"{shots} shots at a unit of {target.size} models")
        # the wound step holds one binomial (trinomial with rending) per hit count: about
        # shots^2/2 (shots^3/6) weights of about 8 bits per shot
        wound_weights = (shots + 1) * (shots + 2) // 2 * ((shots + 3) // 3 if rending else 1)
        check_size(state_units(wound_weights, 8 * shots), f"the wound rolls of {shots} shots")
        self._kernels: dict[int | None, Callable[[int], Dist]] = {}
        self._wounds: dict[int | None, Dist] = {}
        self._wound_tables: dict[int | None, Table[int]] = {}
        self._hits: Dist | None = None
        self._p_hit = binomial_hit_chance(attack)
        # one Toughness in the unit: the majority whatever the models in play, found once
        self._toughness = (majority_toughness(target, self.state0)
                           if len({m.toughness for m in target.models}) == 1 else None)

    def check_start(self, state: UnitState) -> UnitState:
        """``state`` if it is a state of the target with some model in play."""
        if len(state.wounds) != len(self.models):
            raise InputError(f"the start state has {len(state.wounds)} models, the unit {len(self.models)}")
        if not state.alive():
            raise InputError("the target unit has no model left")
        return state

    def _needed(self, state0: UnitState) -> int | None:
        attack = self.attack
        toughness = self._toughness if self._toughness is not None else majority_toughness(self.target, state0)
        return wound_roll_needed(attack.strength, toughness, attack.rules,
                                 attack.poisoned_on())

    def wound_kernel(self, state0: UnitState) -> Callable[[int], Dist]:
        """The to-wound kernel ``hits -> Dist`` against the majority Toughness of
        the models in play in ``state0``: Binomial(hits, p), or the (wounds,
        rending wounds) counts of a trinomial; one per roll needed, each hit
        count's Dist computed once. O(models) when known."""
        needed = self._needed(state0)
        got = self._kernels.get(needed)
        if got is None:
            got = self._kernels[needed] = self._make_wound_kernel(needed)
        return got

    def _make_wound_kernel(self, needed: int | None) -> Callable[[int], Dist]:
        die = wound_die(needed, self.attack.rules, self.attack.ap)
        order = [c for c in (WOUND, RENDING, FAIL) if c in die]
        rending = self.rending
        wound_cache: dict[int, Dist] = {}

        def wounds(h: int) -> Dist:
            if h not in wound_cache:
                if rending:
                    counts = pool_counts(h, die, order)
                    wound_cache[h] = counts.map(lambda c: tuple(c[order.index(k)] if k in order else 0
                                                                for k in (WOUND, RENDING)))
                else:
                    wound_cache[h] = successes(h, die.pmf(WOUND))
            return wound_cache[h]
        wounds.__doc__ = _WOUNDS_DOC
        return wounds

    def hits(self) -> Dist:
        """The hits of the attack's shot counts (computed once). O(shots)."""
        if self._hits is None:
            self._hits = self.attack.shot_counts().then(self.hit_kernel)
        return self._hits

    def wounds(self, state0: UnitState) -> Dist:
        """The wounds of :meth:`hits` against ``state0``'s majority Toughness (once per roll needed)."""
        needed = self._needed(state0)
        got = self._wounds.get(needed)
        if got is None:
            got = self._wounds[needed] = self.hits().then(self.wound_kernel(state0))
        return got

    def unsaved(self, wound_counts: Dist, state0: UnitState) -> Dist:
        """The target after the wounds of ``wound_counts`` from ``state0``: each
        allocated to the closest model (Look Out Sir, Focus Fire), its save (and
        Feel No Pain) rolled, removed when out of wounds."""
        if not self.rending:
            return self.own.run(wound_counts, state0)
        attack = self.attack
        ap2 = _allocation(self.kept, self.target, RENDING_AP, self.cover, attack.strength, self.focus_fire)[1]
        by_rending = wound_counts.map(lambda c: c[1])
        own = self.own

        def pools(r: int) -> Dist:
            normal = wound_counts.condition(lambda c: c[1] == r).map(lambda c: c[0])
            return ap2.run(Dist.constant(r), own.run(normal, state0))
        return by_rending.then(pools)

    def after(self, state: UnitState) -> Dist:
        """The ``"unsaved wounds"`` stage of :func:`shooting_pipeline` from ``state``
        run on the attack's shot counts: the same Dist, the hits and wounds shared
        across states. O(allocation from ``state``) when the wounds are known."""
        with work_meter(PIPELINE_WORK):
            state0 = self.check_start(state)
            return self.unsaved(self.wounds(state0), state0)

    def table_after(self, state: UnitState) -> Table[UnitState]:
        """:meth:`after` from ``state``, counters left at 0, as a weight table:
        when every wound goes through (:meth:`~.casualties.IndexedKernel.certain_path`),
        the wounds' weights put on the path's states with no Dist built per
        state, O(wound counts); else :meth:`after`'s Dist, its counters cleared.
        Outcomes in :meth:`after`'s order (repeated where the path ends)."""
        state0 = self.check_start(state)
        path = None if self.rending else self.own.certain_path(state0)
        if path is None:
            d = self.after(state)
            return [(cleared(s), v) for s, v in d.weights().items()], d.denominator
        states, at = path
        last = len(states) - 1
        pairs, total = self._wound_table(state0)
        return [(states[at + k if at + k < last else last], v) for k, v in pairs], total

    def _wound_table(self, state0: UnitState) -> Table[int]:
        """:meth:`wounds` against ``state0`` as a weight table, made once per roll needed.
        When the hits are Binomial(shots, p) and a wound roll is plain (no
        Rending), a hit wounds with chance q and the wounds are Binomial(shots,
        p q): one binomial per shot count instead of one per hit count (the
        same Dist, outcomes in the same order: from 0 up). O(1) when made, else
        O(shots) binomials."""
        needed = self._needed(state0)
        got = self._wound_tables.get(needed)
        if got is None:
            if self._p_hit is None or self.rending:
                d = self.wounds(state0)
            else:
                p = self._p_hit * wound_die(needed, self.attack.rules, self.attack.ap).pmf(WOUND)
                d = self.attack.shot_counts().then(partial(successes, p=p))
            got = self._wound_tables[needed] = (tuple(d.weights().items()), d.denominator)
        return got

    def after_hits(self, state: UnitState, hits: int) -> Dist:
        """The ``"unsaved wounds"`` stage of :func:`shooting_pipeline` from ``state``
        run from ``hits`` hits (its wound and unsaved steps). O(allocation from
        ``state``) when the wounds of ``hits`` hits are known."""
        with work_meter(TAIL_WORK):
            state0 = self.check_start(state)
            return self.unsaved(self.wound_kernel(state0)(hits), state0)


Allocations = dict[tuple, tuple[list[AllocModel], IndexedKernel]]
"""Wound kernels kept by a caller of :func:`shooting_pipeline` for its attacks (see ``_allocation``)."""


def _allocation(kept: Allocations, target: Unit, ap: int | None, cover: bool, strength: int,
                focus_fire: int | str | None) -> tuple[list[AllocModel], IndexedKernel]:
    """Each model's save against the attack and the wound kernel (closest
    first, Look Out, Sir, Focus Fire, Instant Death) on ``target``, kept in
    ``kept`` per (AP, cover, Strength, Focus Fire): an attack from many target
    states (one per state a kernel meets) computes the kernel once per
    target state, and the chain of wounds from a state once. Attacks whose
    saves and damage come out the same on every model (a bolter and a plasma
    gun on models whose armour neither lets through) share one kernel. O(models) when new."""
    key = (ap, cover, strength, focus_fire)
    got = kept.get(key)
    if got is None:
        models = alloc_models(target, ap, cover, strength)
        damage = instant_death_damage(target, strength)
        lines = [0]  # the first model of each line (alloc_models gives a line's models one object)
        for m in target.models[:-1]:
            lines.append(lines[-1] + m.count)
        same = (tuple(models[i] for i in lines), tuple(damage), focus_fire)
        got = kept.get(same)
        if got is None:
            got = kept[same] = (models, allocation_kernel(models, recipient(target, focus_fire), damage))
        kept[key] = got
    return got


def shoot(attack: Shooting, target: Unit, focus_fire: int | str | None = None) -> Run:
    """Run one shooting attack; ``run.stages`` holds every step, ``run.final``
    the number of casualties."""
    return shooting_pipeline(check_attack(attack), target, focus_fire).run(attack.shot_counts())


def overwatch(attack: Shooting, target: Unit, focus_fire: int | str | None = None) -> Run:
    """Overwatch fire at a charging unit: "résolu comme un tir ordinaire [...]
    tous les tirs en état d'alerte sont des tirs au jugé. En outre, les armes
    et les figurines incapables de tirer au jugé ne peuvent pas effectuer de
    tirs en état d'alerte." Snap shots forced; it causes no morale or pinning
    test (this engine rolls none after shooting anyway)."""
    return shoot(overwatch_attack(attack), target, focus_fire)


def overwatch_attack(attack: Shooting) -> Shooting:
    """``attack`` as Overwatch: snap shots forced; refused for a weapon that cannot snap fire."""
    check_attack(attack)
    if attack.weapon_type in CANNOT_SNAP:
        raise InputError(f"cannot fire Overwatch: {CANNOT_SNAP[attack.weapon_type]}, and Overwatch is all snap shots")
    return replace(attack, snap=True)


def stage_counts(run: Run) -> dict[str, Dist]:
    """The four stages of a shooting run as counts: hits, wounds, unsaved
    wounds and casualties (Dists over int)."""
    require_type(run, Run, "the run")
    return {HITS: run[HITS], WOUNDS: run[WOUNDS].map(lambda w: sum(w) if isinstance(w, tuple) else w),
            UNSAVED: run[UNSAVED].map(lambda s: s.unsaved), CASUALTIES: run[CASUALTIES]}
