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

from ...core import Dist, InputError, Pipeline, Run, Step, check_size
from ...core.limits import state_units
from ...dice import reroll_failed_chance, reroll_up_to, successes
from ..allocation import UnitState
from ..common import wound_target
from .casualties import alloc_models, allocate_wounds, check_focus_fire, instant_death_damage, majority_toughness, recipient
from .tables import SNAP_SHOT_BS, bs_hit_chance, bs_target, check_bs
from .units import CANNOT_SNAP, Shooting, Unit, require_type

HITS, WOUNDS, UNSAVED, CASUALTIES = "hits", "wounds", "unsaved wounds", "casualties"
STAGES = (HITS, WOUNDS, UNSAVED, CASUALTIES)


def check_attack(attack: Shooting) -> Shooting:
    """``attack`` if it is a :class:`Shooting` (whose values were checked when it
    was made: ranges, weapon type, snap shots a weapon cannot fire, rerolls)."""
    require_type(attack, Shooting, "the attack")
    return attack


def hit_chance(bs: int, snap: bool = False, reroll_failed: bool = False) -> Fraction:
    """P(one shot hits), for independent dice.

    Snap shots use BS 1 "whatever the BS". A granted reroll of every failed
    hit replaces the BS 6+ table, and the reroll needs the first roll's score
    (original: "celle-ci l'emporte et le tableau ci-dessus n'est pas utilisé.
    dans ce cas, les chances de toucher de la relance sont les mêmes que pour
    le premier jet"). O(1).
    """
    require_type(snap, bool, "snap")
    require_type(reroll_failed, bool, "reroll_failed")
    effective = SNAP_SHOT_BS if snap else check_bs(bs)
    if reroll_failed:
        return reroll_failed_chance(bs_target(effective).chance())
    return bs_hit_chance(effective)


def to_hit(attack: Shooting) -> Callable[[int], Dist]:
    """The to-hit step: ``shots -> Dist`` of hits.

    Independent dice: Binomial(shots, p), O(shots). Master-crafted (reroll
    up to K failed hits at the first roll's score): conditions on the
    failures, O(shots x K) (:func:`~exactodds.dice.reroll_up_to`). Weapons
    that place their hits (template, blast, artillery, no-bs): the shots are
    the models hit, no roll.
    """
    check_attack(attack)
    if attack.weapon_type != "normal":
        return Dist.constant
    assert attack.bs is not None
    if attack.master_crafted is not None:
        effective = SNAP_SHOT_BS if attack.snap else attack.bs
        p = bs_target(effective).chance()
        k = attack.master_crafted
        return lambda n: reroll_up_to(n, k, p, p)
    p = hit_chance(attack.bs, attack.snap, attack.reroll_failed)
    return lambda n: successes(n, p)


def hits(attack: Shooting) -> Dist:
    """The number of hits of ``attack``."""
    return to_hit(check_attack(attack))(attack.shots)


def shooting_pipeline(attack: Shooting, target: Unit, focus_fire: int | None = None,
                      start: UnitState | None = None) -> Pipeline:
    """The steps of one shooting attack on ``target`` (from an optional
    already-damaged ``start`` state): hits, wounds, unsaved wounds, casualties.

    Cost: hits O(shots); wounds O(shots^2) (one binomial per hit count);
    allocation O(wounds x unit states x 2) with at most (total wounds + 1) x
    (unsaved counts) unit states when the order is fixed, more with Look Out
    Sir (each character can be skipped); all equal states merged.
    """
    hit_kernel = to_hit(attack)
    require_type(target, Unit, "the target unit")
    if start is not None:
        require_type(start, UnitState, "the start state")
    focus_fire = check_focus_fire(focus_fire)
    models = alloc_models(target, attack.ap)
    state0 = UnitState.fresh(models) if start is None else start
    if len(state0.wounds) != len(models):
        raise InputError(f"the start state has {len(state0.wounds)} models, the unit {len(models)}")
    if not state0.alive():
        raise InputError("the target unit has no model left")
    total_wounds = sum(m.wounds * m.count for m in target.models)
    check_size((attack.shots + 1) * (total_wounds + 1) * (target.size + 1),
               f"{attack.shots} shots at a unit of {target.size} models")
    # the wound step holds one binomial per hit count: (shots+1)(shots+2)/2 weights of
    # about 8 bits per shot (36^shots hit denominators times 6^hits wound ones)
    check_size(state_units((attack.shots + 1) * (attack.shots + 2) // 2, 8 * attack.shots),
               f"the wound rolls of {attack.shots} shots")
    p_wound = wound_target(attack.strength, majority_toughness(target, state0)).chance()
    choose = recipient(target, focus_fire)
    damage = instant_death_damage(target, attack.strength)
    wound_cache: dict[int, Dist] = {}

    def wounds(h: int) -> Dist:
        """To wound, against the majority Toughness: Binomial(hits, p)."""
        if h not in wound_cache:
            wound_cache[h] = successes(h, p_wound)
        return wound_cache[h]

    def unsaved(wound_counts: Dist) -> Dist:
        """Allocate each wound to the closest model (Look Out Sir, Focus
        Fire), roll its save, remove it when out of wounds."""
        return allocate_wounds(wound_counts, models, choose, damage, state0)

    def casualties(state: UnitState) -> int:
        """Models removed by this attack."""
        return state.casualties() - state0.casualties()

    return (Step.kernel(HITS, hit_kernel, "To hit: BS table, snap shots, rerolls")
            >> Step.kernel(WOUNDS, wounds)
            >> Step.whole(UNSAVED, unsaved)
            >> Step.map(CASUALTIES, casualties))


def shoot(attack: Shooting, target: Unit, focus_fire: int | None = None) -> Run:
    """Run one shooting attack; ``run.stages`` holds every step, ``run.final``
    the number of casualties."""
    return shooting_pipeline(check_attack(attack), target, focus_fire).run(attack.shots)


def overwatch(attack: Shooting, target: Unit, focus_fire: int | None = None) -> Run:
    """Overwatch fire at a charging unit: "résolu comme un tir ordinaire [...]
    tous les tirs en état d'alerte sont des tirs au jugé. En outre, les armes
    et les figurines incapables de tirer au jugé ne peuvent pas effectuer de
    tirs en état d'alerte." Snap shots forced; it causes no morale or pinning
    test (this engine rolls none after shooting anyway)."""
    check_attack(attack)
    if attack.weapon_type in CANNOT_SNAP:
        raise InputError(f"cannot fire Overwatch: {CANNOT_SNAP[attack.weapon_type]}, and Overwatch is all snap shots")
    return shoot(replace(attack, snap=True), target, focus_fire)


def stage_counts(run: Run) -> dict[str, Dist]:
    """The four stages of a shooting run as counts: hits, wounds, unsaved
    wounds and casualties (Dists over int)."""
    require_type(run, Run, "the run")
    return {HITS: run[HITS], WOUNDS: run[WOUNDS],
            UNSAVED: run[UNSAVED].map(lambda s: s.unsaved), CASUALTIES: run[CASUALTIES]}
