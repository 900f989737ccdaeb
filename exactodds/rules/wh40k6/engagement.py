"""The whole assault in Warhammer 40,000 6th edition, as kernels on an
:class:`~.fight_rounds.Engagement` (both units' states and how the assault
stands; its fight rounds: :mod:`.fight_rounds`).

Overwatch by the charged unit with its ranged weapons as snap shots, the
charge roll with the slowest method among the charger's surviving models,
fight rounds by Initiative (the charger with +1 Attack in the first), the
combat result, the loser's morale test and the sweeping advance, then
further rounds (:func:`assault_kernels`). Each kernel is memoised per
distinct engagement, so a step costs (distinct engagements before it) x
(the cost from one engagement), equal engagements merged after each step.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from fractions import Fraction

from ...core import Dist, InputError, Kernel, Pipeline, Run, Step, check_size
from .assault import check_distance, unit_charge_roll
from .casualties import start_state
from .firing import alive_per_line, can_shoot, fire_both, fire_pipeline, gets_hot_unit
from .fight_rounds import CHARGE_FAILED, LOCKED, READY, Engagement, Rounds
from .units import Unit, require_type

# --------------------------------------------------------------------------- the assault

DIFFICULT_TERRAIN_ROLL = "3d6kl2"
"""Charging through difficult terrain: 3D6, the highest discarded."""


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


def charge_kernel(charger: Unit, distance: Fraction, difficult_terrain: bool = False) -> Kernel:
    """The charge roll with the slowest method among the charger's models in
    play (through ``difficult_terrain``: 3D6, the highest discarded): reaching
    ``distance`` locks both units, else the charge fails. A charger wiped out
    by Overwatch does not charge. O(36) per distinct state."""
    models = charger.expanded()

    def kernel(e: Engagement) -> Dist:
        if e.attacker_status != READY or not e.attacker.alive() or not e.defender.alive():
            return Dist.constant(e)
        methods = {DIFFICULT_TERRAIN_ROLL if difficult_terrain else models[i].charge_roll for i in e.attacker.alive()}
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
                    overwatch: bool = True, order: Sequence[str] | None = None,
                    difficult_terrain: bool = False) -> list[tuple[str, Kernel, str]]:
    """The assault sequence as (name, kernel on :class:`Engagement`, doc):
    ``"overwatch"``, ``"charge"``, then ``"round 1"`` .. ``"round N"``.

    An engagement already locked at the start (a combat carried over from an
    earlier turn) skips Overwatch and the charge, and fights without the
    charge bonus; an attacker falling back, or either unit destroyed, does
    nothing. ``difficult_terrain``: the charge goes through it (3D6 charge
    roll, the highest discarded; chargers without assault grenades strike at
    Initiative 1 in the fight of the charge).
    """
    d = check_assault(distance, rounds)
    require_type(difficult_terrain, bool, "difficult_terrain")
    require_type(attacker, Unit, "the attacker")
    require_type(defender, Unit, "the defender")
    kernels: list[tuple[str, Kernel, str]] = []
    if overwatch:
        kernels.append((OVERWATCH, overwatch_kernel(attacker, defender, order, d), ""))
    kernels.append((CHARGE, charge_kernel(attacker, d, difficult_terrain), ""))
    fight = Rounds(attacker, defender, difficult_terrain)
    for r in range(1, rounds + 1):
        kernels.append((f"round {r}", fight, "blows by Initiative, combat result, morale, sweeping advance"))
    return kernels


def assault_steps(attacker: Unit, defender: Unit, distance: int | Fraction, rounds: int = 1,
                  overwatch: bool = True, order: Sequence[str] | None = None,
                  difficult_terrain: bool = False) -> list[Step]:
    """The assault sequence (:func:`assault_kernels`) as steps on :class:`Engagement` states."""
    return [Step.whole(name, kernel.on_dist, doc) if isinstance(kernel, Rounds) else Step.kernel(name, kernel, doc)
            for name, kernel, doc in
            assault_kernels(attacker, defender, distance, rounds, overwatch, order, difficult_terrain)]


def assault(attacker: Unit, defender: Unit, distance: int | Fraction, rounds: int = 1, overwatch: bool = True,
            order: Sequence[str] | None = None, difficult_terrain: bool = False) -> Run:
    """Run the whole assault of fresh units; ``run.stages`` holds each step."""
    steps = assault_steps(attacker, defender, distance, rounds, overwatch, order, difficult_terrain)
    w_a = sum(m.wounds * m.count for m in attacker.models)
    w_d = sum(m.wounds * m.count for m in defender.models)
    check_size((w_a + 1) * (w_d + 1) * 4 * rounds, f"an assault of {attacker.size} against {defender.size} models")
    return Pipeline(tuple(steps)).run(Engagement(start_state(attacker), start_state(defender)))
