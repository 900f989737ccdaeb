"""Horus Heresy 3rd edition: the whole shooting attack, as one pipeline.

The rules' sequence: 1 choose the target unit, 2 check the target, 3 declare
weapons, 4 build fire groups, 5 pick a fire group, 6 hit rolls, 7 wound
rolls, 8 choose the target model, 9 saves and damage mitigation, 10 next fire
group (steps 6-9 again), 11 remove casualties. Original: "1. Choisir l'unité cible · 2. Vérifier la cible ·
3. Déclarer les armes · 4. Dresser les groupes de tirs · 5. Choisir un groupe
de tirs à résoudre · 6. Faire les jets de touche · 7. Faire les jets de
blessure · 8. Choisir la figurine cible · 9. Faire les jets de sauvegarde et
de mitigation de dégâts · 10. Choisir le groupe de tirs suivant (répéter les
étapes 6 à 9) · 11. Retirer les pertes."

Steps 1-5 are checks and bookkeeping (:func:`check_eligibility`,
:func:`fire_groups`). Steps 6-9 become, per fire group, three named pipeline
steps: ``"<group>: hits"``, ``"<group>: wounds"`` (``"<group>: armour
penetration"`` against vehicles) and ``"<group>: saves and damage"``; then
``"remove casualties"`` (step 11, with the Medic's recovery rolls) and
``"after the attack"`` (panic and Cool tests). Every stage is a :class:`Dist`
over a small named tuple; :class:`AttackRun` gives the usual views.

State and cost. Between steps the target is its Wounds (Hull Points) left per
model plus the statuses it holds. The defender allocates to an already
wounded model first, else in file order, so models fall in file order and a
unit with W Wounds in all has at most W + 1 distinct states (x 8 status sets
for vehicles). A fire group of n shots then costs O(n^2 U) for the hit and
wound steps (U distinct target states coming in) and O(n^2 U^2) for the saves
(the wound count, the unsaved counter and the group's damage ride along),
each distinct state's kernel computed once.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, NamedTuple

from ...core import Dist, InputError, Kernel, Pipeline, Run, Step, check_size
from ...core.labels import Labelled
from ...core.limits import work_meter
from ...dice import Target
from ..allocation import AllocModel, UnitState, wound_kernel, wounded_first
from ..common import best_save, majority
from .after import aftermath_kernel
from .counted import resolve_in_order
from .hits import HitRoll, hit_rolls
from .reactions import check_reaction, recovery_kernel, shield_active, smoke_shrouded
from .tables import COVER_SAVES, STATUSES
from .units import AttackingUnit, Conditions, FireGroup, TargetModels, TargetUnit, Weapon
from .vehicles import VehicleHits, VehicleState, glancing_kernel, vehicle_hits
from .wounds import WoundRoll, toughness_for_wounds, wound_rolls

# ----------------------------------------------------------------- stages


class TargetState(NamedTuple):
    """The target between steps: Wounds (or Hull Points) left per model, file
    order (0 = casualty), and the statuses the unit holds."""

    left: tuple[int, ...]
    statuses: tuple[str, ...] = ()


class HitStage(NamedTuple):
    """After a group's hit rolls (step 6)."""

    hits: int
    crits: int
    left: tuple[int, ...]
    statuses: tuple[str, ...]


class WoundStage(NamedTuple):
    """After a group's wound rolls (step 7): wounds from Critical Hits and others."""

    crit_wounds: int
    wounds: int
    left: tuple[int, ...]
    statuses: tuple[str, ...]


class PenetrationStage(NamedTuple):
    """After a group's armour penetration tests (step 7 against vehicles)."""

    crit_penetrating: int
    penetrating: int
    glancing: int
    left: tuple[int, ...]
    statuses: tuple[str, ...]


class DamageStage(NamedTuple):
    """After a group's saves, mitigation and damage (steps 8-9): ``unsaved``
    wounds (or penetrating hits) that got through the save and the
    mitigation test, ``damage`` Wounds (Hull Points) the unit lost to them
    (and to repeated glancing statuses), excess damage not counted."""

    unsaved: int
    damage: int
    left: tuple[int, ...]
    statuses: tuple[str, ...]


HITS, WOUNDS, PENETRATION, SAVES = "hits", "wounds", "armour penetration", "saves and damage"
REMOVE, AFTER = "remove casualties", "after the attack"


def stage_name(group: str, step: str) -> str:
    """The pipeline step name of one step of one fire group."""
    return f"{group}: {step}"


# -------------------------------------------------------- steps 1 to 5


def check_eligibility(attacker: AttackingUnit, target: TargetUnit) -> None:
    """Steps 1-2: "Une unité ne peut pas tirer si : elle a Foncé, est verrouillée
    en combat ou est embarquée" and the target is "jamais une unité embarquée,
    en réserve, ou déjà engagée en mêlée". A unit that Rushed may still fire
    its Light weapons, as snap shots (see :func:`fire_groups`)."""
    if attacker.locked_in_combat:
        raise InputError(f"{attacker.name!r} cannot shoot: it is locked in combat")
    if attacker.embarked:
        raise InputError(f"{attacker.name!r} cannot shoot: it is embarked on a transport")
    if target.embarked:
        raise InputError(f"{target.name!r} cannot be chosen as a target: it is embarked on a transport")
    if target.in_reserve:
        raise InputError(f"{target.name!r} cannot be chosen as a target: it is in reserve")
    if target.engaged:
        raise InputError(f"{target.name!r} cannot be chosen as a target: it is already engaged in melee")


def fire_groups(attacker: AttackingUnit, conditions: Conditions) -> tuple[list[FireGroup], list[str]]:
    """Steps 3-5: the fire groups in resolution order, and the weapons that
    cannot fire (non-Light weapons of a unit that Rushed).

    "toutes les attaques faites avec des armes du même nom forment un seul
    groupe [...] si l'arme a plusieurs profils [...], ou si les figurines qui
    tirent n'ont pas toutes la même capacité de tir" (separate groups). Each
    ``[weapons.NAME]`` is one profile; a weapon fired at several BS makes one
    group per BS, named ``"NAME (BS b)"``. Groups named in
    ``conditions.order`` resolve first, in that order, the others in file
    order. Snap shots: a Pinned firer, the Intercept reaction, a Light weapon
    after Rushing, or a Heavy weapon when the unit moved.

    The BS a group rolls at: its models' BS (the default), or with
    ``conditions.majority_bs`` the unit's majority BS, "la capacité de tir
    majoritaire dans l'unité" (every model of the unit counted; ties: the
    highest, :func:`~exactodds.rules.common.majority`); the groups still
    split by their models' BS. O(models).
    """
    by_key: dict[tuple[str, int], list] = {}
    skipped: list[str] = []
    for m in attacker.models:
        if attacker.rushed and "light" not in m.weapon.traits:
            if m.weapon.name not in skipped:
                skipped.append(m.weapon.name)
            continue
        by_key.setdefault((m.weapon.name, m.bs), []).append(m)
    if not by_key:
        raise InputError(f"{attacker.name!r} cannot shoot: it Rushed, and only Light weapons may fire "
                         "(as snap shots) after Rushing")
    bs_of: dict[str, set[int]] = {}
    for name, bs in by_key:
        bs_of.setdefault(name, set()).add(bs)
    snap = conditions.pinned or attacker.pinned or conditions.intercept or attacker.rushed
    moved = conditions.moved or attacker.moved
    unit_bs = majority_bs(attacker) if conditions.majority_bs else None
    groups = []
    for (name, bs), models in by_key.items():
        label = name if len(bs_of[name]) == 1 else f"{name} (BS {bs})"
        weapon = models[0].weapon
        firing = sum(m.count for m in models)
        heavy_snap = moved and "heavy" in weapon.traits
        groups.append(FireGroup(label, weapon, bs if unit_bs is None else unit_bs, weapon.most_shots(firing),
                                snap or heavy_snap, tuple(m.name for m in models), firing))
    names = [g.name for g in groups]
    for name in conditions.order:
        if name not in names:
            raise InputError(f"fire group {name!r} does not exist; groups are: {', '.join(map(repr, names))}")
    if len(set(conditions.order)) != len(conditions.order):
        raise InputError("a fire group is named twice in the order")
    rank = {n: i for i, n in enumerate(conditions.order)}
    groups.sort(key=lambda g: rank.get(g.name, len(rank)))  # stable: the others keep file order
    return groups, skipped


def majority_bs(attacker: AttackingUnit) -> int:
    """The unit's majority Ballistic Skill: the most common BS among all its
    models (each model counted once, whatever it fires), ties broken by the
    highest. O(model lines)."""
    counts: dict[int, int] = {}
    for m in attacker.models:
        counts[m.bs] = counts.get(m.bs, 0) + m.count
    top = max(counts.values())
    return majority([bs for bs, c in counts.items() if c == top])


# --------------------------------------------------------- steps 6 to 11


def _alloc_models(models: Sequence[TargetModels], weapon: Weapon, conditions: Conditions) -> tuple[AllocModel, ...]:
    """Each model's single best save and best mitigation against ``weapon``.

    "At most one saving throw per wound [...] among armour (AP applies),
    cover and invulnerable"; vehicles take only invulnerable or cover saves on
    penetrating hits. Mitigation: the best (lowest X+) of Shrouded (the
    model's own, or 5+ from Smoke screen; none under Overwatch) and Feel No
    Pain. Overwatch: no cover either.
    """
    cover = None if conditions.overwatch or conditions.cover is None else COVER_SAVES[conditions.cover]
    smoke = smoke_shrouded(conditions)
    out = []
    for m in models:
        armour = None if m.is_vehicle else m.save
        save = best_save(armour, weapon.ap, cover, m.invulnerable)
        shrouded = [] if conditions.overwatch else [v for v in (m.shrouded, smoke) if v is not None]
        options = shrouded + ([m.feel_no_pain] if m.feel_no_pain is not None else [])
        mitigation = Target.clamped(min(options)) if options else Target.fail()
        out.append(AllocModel(m.starting_wounds, save, mitigation))
    return tuple(out)


def _counting(hit: Callable[[DamageStage], Dist]) -> Kernel:
    """A one-hit kernel on DamageStage, cached per state, that adds the Wounds
    (Hull Points) the hit removed to the group's ``damage``. ``hit`` returns a
    Dist of ``(left, statuses, unsaved)``."""
    cache: dict[DamageStage, Dist] = {}

    def one(st: DamageStage) -> Dist:
        if st not in cache:
            before = sum(st.left)
            cache[st] = hit(st).map(lambda r: DamageStage(r[2], st.damage + before - sum(r[0]), r[0], r[1]))
        return cache[st]

    return one


def _damage_kernel(models: Sequence[AllocModel], damage: int) -> Kernel:
    """One wound (or penetrating hit) of ``damage``: the shared allocation
    kernel on the Wounds left (wounded model first, then file order, save,
    mitigation, excess damage lost), counting unsaved wounds."""
    kernel = wound_kernel(models, lambda s: wounded_first(s, models), damage, track_unsaved=True)
    return _counting(lambda st: kernel(UnitState(st.left, st.unsaved)).map(
        lambda u: (u.wounds, st.statuses, u.unsaved)))


def _glance_kernel(models: Sequence[AllocModel], conditions: Conditions) -> Kernel:
    """One glancing hit (see :func:`.vehicles.glancing_kernel`): only the Smoke
    screen's Shrouded applies (never under Overwatch)."""
    smoke = smoke_shrouded(conditions)
    mitigation = Target.at_least(smoke) if smoke is not None and not conditions.overwatch else Target.fail()
    kernel = glancing_kernel(models, mitigation)
    return _counting(lambda st: kernel(VehicleState(st.left, st.statuses)).map(
        lambda v: (v.hull, v.statuses, st.unsaved)))


def group_hits(group: FireGroup) -> Dist:
    """A fire group's (hits, crits), its number of hit rolls random or fixed: the
    mixture over n of :func:`.hits.hit_rolls` (n shots), weighted by P(n).
    Fixed: O(n^2); random with at most n shots: O(n^3) multiply-adds."""
    return group.shot_counts().then(lambda n: hit_rolls(n, group.bs, group.snap, group.reroll_hits))


def _fresh(s: Any) -> DamageStage:
    return DamageStage(0, 0, s.left, s.statuses)


def _with_hits(hits: Dist, d: Dist) -> Dist:
    """Step 6: each state of ``d`` with the fire group's (hits, crits) beside it
    (independent of the state: one product of the two distributions)."""
    return d.map(lambda s: (s.left, s.statuses)).combine(
        hits, lambda ls, h: HitStage(h.hits, h.crits, ls[0], ls[1]))


@dataclass(frozen=True)
class ShootingAttack:
    """One shooting attack of ``attacker`` at ``target`` under ``conditions``.

    Checks eligibility, reactions and fire groups when built (an
    :class:`~exactodds.core.InputError` says what is wrong); :meth:`run`
    computes every stage exactly.
    """

    attacker: AttackingUnit
    target: TargetUnit
    conditions: Conditions = field(default_factory=Conditions)

    def __post_init__(self) -> None:
        for value, kind in ((self.attacker, AttackingUnit), (self.target, TargetUnit), (self.conditions, Conditions)):
            if not isinstance(value, kind):
                raise InputError(f"a shooting attack needs a {kind.__name__}, not {value!r:.60}")
        check_eligibility(self.attacker, self.target)
        check_reaction(self.target, self.conditions)
        self.groups  # noqa: B018  (builds and checks the fire groups)
        self.check_size()

    @cached_property
    def _groups_and_skipped(self) -> tuple[list[FireGroup], list[str]]:
        return fire_groups(self.attacker, self.conditions)

    @property
    def groups(self) -> list[FireGroup]:
        """The fire groups, in resolution order."""
        return self._groups_and_skipped[0]

    @property
    def skipped(self) -> list[str]:
        """Weapons that cannot fire (non-Light weapons after Rushing)."""
        return self._groups_and_skipped[1]

    @cached_property
    def models(self) -> tuple[TargetModels, ...]:
        """The target models one by one, in allocation (file) order."""
        return self.target.expanded()

    def start(self) -> TargetState:
        """The target before the attack."""
        return TargetState(tuple(m.left_at_start for m in self.models), tuple(sorted(self.target.statuses)))

    def check_size(self) -> None:
        """Refuse, before any work, an attack whose largest stage would exceed the
        state limit. Bound: U = W + 1 target states (x 8 for vehicles); a group of
        n shots after k earlier groups holds at most (n + 1)^2 x U x U_in states
        in its saves step (U_in = 1 for the first group)."""
        check_size(self.target.size(), f"the {self.target.size():,} models of {self.target.name!r}")
        total = sum(m.count * m.starting_wounds for m in self.target.models)
        units = (total + 1) * (2 ** len(STATUSES) if self.target.is_vehicle else 1)
        incoming = 1
        total = 0
        for g in self.groups:
            size = max(math.comb(g.shots + 2, 2) * incoming, (g.shots + 1) ** 2 * units * incoming)
            check_size(size, f"fire group {g.name!r} ({g.shots} shots at {units} possible target states)")
            incoming = units
            total += size
        # every stage is kept (the run's stages), and the groups run one after the other: the
        # whole attack costs the sum of its groups, O(sum of n^2 U^2)
        check_size(total, f"the {len(self.groups)} fire groups of {self.attacker.name!r} "
                          f"({sum(g.shots for g in self.groups):,} shots at {units} possible target states)")

    def wounds_for(self, group: FireGroup) -> Callable[[Dist], Dist]:
        """Step 7 for one group: HitStage -> WoundStage (or PenetrationStage), on
        the whole distribution: each state's rolls (:meth:`wound_results`) with
        the state's Wounds left and statuses joined back. O(sum of the rolls'
        outcomes) multiply-adds, each distinct roll computed once."""
        results, join = self.wound_results(group), self._join()
        return lambda d: d.then(results, join)

    def wound_results(self, group: FireGroup) -> Callable[[HitStage], Dist]:
        """Step 7's rolls for one group from one HitStage: a Dist of
        :class:`~.wounds.WoundRoll` (of :class:`~.vehicles.VehicleHits` against
        vehicles). They depend on the state only through its hits and what
        the rolls read of the models in play (:meth:`rolled_against`): cached
        on those. O(hits) per distinct (hits, crits, toughness or armour)."""
        against = self.rolled_against()
        cache: dict[tuple[int, int, int | None], Dist] = {}

        def roll(s: HitStage) -> Dist:
            key = (s.hits, s.crits, against(s.left))
            got = cache.get(key)
            if got is None:
                got = cache[key] = self._rolls(group, key[2], HitRoll(s.hits, s.crits))
            return got

        return roll

    def rolled_against(self) -> Callable[[tuple[int, ...]], int | None]:
        """What step 7 reads of the models in play, from the Wounds left per
        model: the toughness the wound rolls use (:func:`~.wounds.toughness_for_wounds`),
        against vehicles the majority armour of the facing hit; None when no
        model is left. O(models) per distinct Wounds left, cached."""
        models, vehicle = self.models, self.target.is_vehicle
        shield = shield_active(self.conditions)
        facing = self.conditions.facing_hit
        cache: dict[tuple[int, ...], int | None] = {}

        def against(left: tuple[int, ...]) -> int | None:
            if left not in cache:
                alive = [i for i, w in enumerate(left) if w > 0]
                if not alive:
                    cache[left] = None
                elif vehicle:
                    cache[left] = majority([models[i].armour.facing(facing) for i in alive])  # type: ignore[union-attr]
                else:
                    toughness = [models[i].toughness for i in alive]
                    cache[left] = toughness_for_wounds(toughness, shield)  # type: ignore[arg-type]
            return cache[left]

        return against

    def _rolls(self, group: FireGroup, against: int | None, hit: HitRoll) -> Dist:
        """Step 7's rolls of ``hit`` at a toughness (armour) ``against``; "(0, 0)"
        when no hit or no model is left. O(hits), cached below."""
        vehicle = self.target.is_vehicle
        if against is None or hit.hits == 0:
            return Dist.constant(VehicleHits(0, 0, 0) if vehicle else WoundRoll(0, 0))
        if vehicle:
            return vehicle_hits(hit, group.weapon.strength, against)
        return wound_rolls(hit, group.weapon.strength, against, group.reroll_wounds)

    def hits_and_wounds(self, group: FireGroup) -> Callable[[Dist], Dist]:
        """Steps 6 and 7 for one group as one step, their middle stage not kept:
        the same Dist (the same outcomes in the same order) as the ``hits`` step
        then the ``wounds`` step. The group's hits do not depend on the target
        (:func:`group_hits`), so per toughness (armour) the rolls after them are
        one Dist (``hits.then(rolls)``), computed once and joined to each
        state's Wounds left and statuses: O(hits x rolls) once per toughness,
        then O(outcomes) per distinct state."""
        hits, against = group_hits(group), self.rolled_against()
        join = self._join()
        cache: dict[int | None, Dist] = {}

        def composed(s: TargetState) -> Dist:
            key = against(s.left)
            if key not in cache:
                cache[key] = hits.then(lambda h: self._rolls(group, key, h))
            return cache[key]

        return lambda d: d.map(lambda s: TargetState(s.left, s.statuses)).then(composed, join)

    def _join(self) -> Callable[[Any, Any], Any]:
        """Step 7's rolls joined back to a state's Wounds left and statuses
        (``s.left``, ``s.statuses``): a WoundStage, or a PenetrationStage."""
        if self.target.is_vehicle:
            return lambda s, v: PenetrationStage(v[0], v[1], v[2], s.left, s.statuses)
        return lambda s, w: WoundStage(w.crit_wounds, w.wounds, s.left, s.statuses)

    def saves_for(self, group: FireGroup) -> Callable[[Dist], Dist]:
        """Steps 8-9 for one group: wounds (or penetration results) -> DamageStage.

        Critical Hits first unless ``conditions.crits_last``; against
        vehicles: penetrating Critical Hits, other penetrating hits, then the
        glancing hits."""
        models = _alloc_models(self.models, group.weapon, self.conditions)
        crit = _damage_kernel(models, group.weapon.damage + 1)
        normal = _damage_kernel(models, group.weapon.damage)
        first = not self.conditions.crits_last
        if self.target.is_vehicle:
            glance = _glance_kernel(models, self.conditions)
            kernels = [crit, normal, glance] if first else [normal, crit, glance]

            def counts(s: PenetrationStage) -> tuple[int, ...]:
                pair = (s.crit_penetrating, s.penetrating) if first else (s.penetrating, s.crit_penetrating)
                return pair + (s.glancing,)
        else:
            kernels = [crit, normal] if first else [normal, crit]

            def counts(s: WoundStage) -> tuple[int, ...]:  # type: ignore[misc]
                return (s.crit_wounds, s.wounds) if first else (s.wounds, s.crit_wounds)

        return lambda dist: resolve_in_order(dist, counts, _fresh, kernels)

    def pipeline(self, rolls_merged: bool = False) -> Pipeline:
        """The named steps of the whole attack (see the module docstring).
        ``rolls_merged``: each group's steps 6 and 7 as one step,
        ``"<group>: hits and wounds"`` (:meth:`hits_and_wounds`; the same end,
        the hits stage not kept)."""
        steps: list[Step] = []
        for g in self.groups:
            rolled = PENETRATION if self.target.is_vehicle else WOUNDS
            hit_doc = f"step 6: {g.shots_text()} hit rolls at BS {g.bs}{' (snap shots)' if g.snap else ''}"
            if rolls_merged:
                steps.append(Step.whole(stage_name(g.name, f"{HITS} and {rolled}"), self.hits_and_wounds(g),
                                        f"{hit_doc}, then step 7"))
            else:
                steps.append(Step.whole(stage_name(g.name, HITS), partial(_with_hits, group_hits(g)), hit_doc))
                steps.append(Step.whole(stage_name(g.name, rolled), self.wounds_for(g), "step 7"))
            steps.append(Step.whole(stage_name(g.name, SAVES), self.saves_for(g), "steps 8-9"))
        steps.append(Step.kernel(REMOVE, self._remove_casualties(), "step 11"))
        after = aftermath_kernel(self.target)
        steps.append(Step.kernel(AFTER, lambda s: after(s.left), "panic and Cool tests"))
        return Pipeline(tuple(steps))

    def _remove_casualties(self) -> Kernel:
        if self.conditions.reaction != "medic":
            return lambda s: Dist.constant(TargetState(s.left, s.statuses))
        recover = recovery_kernel(self.target, self.conditions.medic_roll)  # type: ignore[arg-type]
        return lambda s: recover(s.left).map(lambda left: TargetState(left, s.statuses))

    def run(self) -> AttackRun:
        """Run the whole attack exactly; every stage is kept."""
        with work_meter(f"the shooting attack of {self.attacker.name!r} at {self.target.name!r}"):
            return AttackRun(self, self.pipeline().run(self.start()))


@dataclass(frozen=True)
class AttackRun:
    """The exact result of a :class:`ShootingAttack`, stage by stage."""

    attack: ShootingAttack
    run: Run

    @property
    def final(self) -> Dist:
        """Dist of :class:`~.after.Aftermath` (casualties, destroyed, panic, routed, pinned)."""
        return self.run.final

    def stage(self, name: str) -> Dist:
        """One stage's distribution by its step name (``run.stage_names()``)."""
        return self.run[name]

    def stage_names(self) -> list[str]:
        """Every stage name, in order (``"start"`` first)."""
        return self.run.stage_names()

    def casualties(self) -> Dist:
        """Models removed (after any Medic recovery)."""
        return self.final.map(lambda a: a.casualties)

    def panic(self) -> Any:
        """P(the unit must take a panic test)."""
        return self.final.prob(lambda a: a.panic)

    def routed(self) -> Any:
        """P(the unit fails its panic test and is Routed)."""
        return self.final.prob(lambda a: a.routed)

    def destroyed(self) -> Any:
        """P(no model of the unit is left)."""
        return self.final.prob(lambda a: a.destroyed)

    def pinned(self) -> Any:
        """P(the unit fails its out-of-coherency Cool test and is Pinned)."""
        return self.final.prob(lambda a: a.pinned)

    def left(self) -> Dist:
        """Wounds (Hull Points for vehicles) left per model, file order: tuples
        that tables show with a column per model (:class:`~exactodds.core.labels.Labelled`)."""
        target = self.attack.target
        names = tuple(m.name for m in target.expanded())
        what = "Hull Points left" if target.is_vehicle else "Wounds left"
        return self.stage(REMOVE).map(lambda s: Labelled(s.left, names, what))

    def statuses(self) -> Dist:
        """The statuses the (vehicle) unit holds after the attack, as a sorted tuple."""
        return self.stage(REMOVE).map(lambda s: s.statuses)

    def wounds_lost(self) -> Dist:
        """Wounds (Hull Points) lost by the unit in all (after any recovery)."""
        total = sum(self.attack.start().left)
        return self.stage(REMOVE).map(lambda s: total - sum(s.left))

    def group(self, name: str) -> dict[str, Dist]:
        """One fire group's stages as marginals: ``hits`` (:class:`HitRoll`),
        ``wounds`` (:class:`WoundRoll`) or ``penetration`` (:class:`VehicleHits`),
        ``unsaved``, ``damage``, ``casualties`` (so far) and ``left``."""
        names = [g.name for g in self.attack.groups]
        if name not in names:
            raise InputError(f"fire group {name!r} does not exist; groups are: {', '.join(map(repr, names))}")
        views: dict[str, Dist] = {"hits": self.stage(stage_name(name, HITS)).map(lambda s: HitRoll(s.hits, s.crits))}
        if self.attack.target.is_vehicle:
            views["penetration"] = self.stage(stage_name(name, PENETRATION)).map(
                lambda s: VehicleHits(s.crit_penetrating, s.penetrating, s.glancing))
        else:
            views["wounds"] = self.stage(stage_name(name, WOUNDS)).map(lambda s: WoundRoll(s.crit_wounds, s.wounds))
        saves = self.stage(stage_name(name, SAVES))
        views["unsaved"] = saves.map(lambda s: s.unsaved)
        views["damage"] = saves.map(lambda s: s.damage)
        views["casualties"] = saves.map(lambda s: sum(1 for w in s.left if w == 0))
        views["left"] = saves.map(lambda s: s.left)
        if self.attack.target.is_vehicle:
            views["statuses"] = saves.map(lambda s: s.statuses)
        return views


def shoot(attacker: AttackingUnit, target: TargetUnit, conditions: Conditions | None = None) -> AttackRun:
    """The whole shooting attack, exactly: ``shoot(a, t).casualties()``."""
    return ShootingAttack(attacker, target, conditions or Conditions()).run()
