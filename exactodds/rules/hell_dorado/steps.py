"""Hell Dorado: the rule steps of a shot (listed in :mod:`exactodds.rules.hell_dorado`),
each a function named after the step, with the rule's sentence beside the code that
implements it; :func:`recipient_of_rolls` is the recipient step over a whole
distribution of rolls. The raw-roll versions (:func:`count_hits`,
:func:`count_parity`, :func:`commits_impair`) are for worked examples and tests.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import NamedTuple

from ...core import Dist, InputError
from ...dice import Target, d6, reroll_once
from ...dice.attributes import FaceClasses, margin_weights
from ...dice.budget import OptimalPolicy, Policy, ThresholdPayoff, budget_split, optimal_policy, priority_policy

from .shot import NONE, OBJECTIVES, SIDES, Shot


# -------------------------------------------------------------- outcomes
class RollSummary(NamedTuple):
    """The attack roll after rerolls: how many dice hit, and whether the hits
    stay on the original target's side of the parity rule (even >= odd, or
    no parity check)."""

    hits: int
    parity_ok: bool


class HitOn(NamedTuple):
    """Who receives the hits, and how many (``none`` with 0 hits for a miss)."""

    recipient: str
    hits: int


class DamageOn(NamedTuple):
    """Who receives the damage, and how much."""

    recipient: str
    damage: int


# ------------------------------------------------------------ rule steps 3-5
def hit_target(difficulty: int) -> Target:
    """A die hits when it shows at least the difficulty (7+: never, 1: always)."""
    return Target.clamped(difficulty, SIDES)


def count_hits(roll: Sequence[int], difficulty: int) -> int:
    """Hits of one raw roll: the dice showing at least the difficulty."""
    target = hit_target(difficulty)
    return sum(target.succeeds(f) for f in roll)


def count_parity(roll: Sequence[int]) -> tuple[int, int]:
    """``(even, odd)`` over all the dice of one roll.

    « on compte le nombre de dés pairs et impairs (tous les dés : ceux qui
    font des touches et ceux qui n'en font pas). »
    """
    even = sum(f % 2 == 0 for f in roll)
    return even, len(roll) - even


def commits_impair(even: int, odd: int) -> bool:
    """« S'il y a plus de dés impairs que de dés pairs (c'est ce qui s'appelle
    « commettre un impair »), le coup touche un des combattants engagé par le
    cible initiale du tir » ; « S'il y a au moins autant de dés pairs que de
    dés impairs, le coup touche la cible d'origine. »"""
    return odd > even


def parity_threshold(shot: Shot) -> int:
    """Even dice needed for the hits to stay on the target: even >= odd means
    ``even >= ceil(N/2)``; 0 when no parity check applies."""
    return (shot.dice + 1) // 2 if shot.parity_check else 0


def _is_even(face: int) -> bool:
    return face % 2 == 0


def face_classes(shot: Shot) -> FaceClasses:
    """The d6 faces (as rolled first) by (hit, even) at the shot's difficulty."""
    return FaceClasses.of_die(d6, hit_target(shot.difficulty).succeeds, _is_even)


def reroll_policy(shot: Shot) -> Policy:
    """The policy choosing which failed dice to reroll under a budget of K.

    ``odd-first``: reroll failed odd dice first, then failed even ones, up
    to K dice in all (so min(K, failures) dice); ``even-first``: the
    reverse; ``optimal``: :func:`optimal_reroll_policy`.
    """
    r = shot.rerolls
    if r.rule != "up-to":
        raise InputError("a reroll policy exists only for 'reroll up to K failed dice'")
    if r.policy == "odd-first":
        return priority_policy(r.budget, "other")  # the second attribute is "even": other = odd
    if r.policy == "even-first":
        return priority_policy(r.budget, "second")
    return optimal_reroll_policy(shot)


def _payoff(objective: str, shot: Shot) -> ThresholdPayoff:
    """One objective as integer payoffs on the final (hits, parity) (scaled by
    the number of candidates for the friendly-fire one)."""
    if objective == "p-target":
        return ThresholdPayoff(lambda h: int(h >= 1), lambda h: 0)
    if objective == "target-hits":
        return ThresholdPayoff(lambda h: h, lambda h: 0)
    cands = shot.impair_candidates
    total, friends = max(len(cands), 1), sum(f.friend for f in cands)
    return ThresholdPayoff(lambda h: total, lambda h: total - friends if h >= 1 else total)


def _payoff_scale(objective: str, shot: Shot) -> int:
    return max(len(shot.impair_candidates), 1) if objective == "no-friendly-fire" else 1


def optimal_reroll_policy(shot: Shot) -> OptimalPolicy:
    """The exact optimal choice of failed dice to reroll, for every first roll.

    Maximises the shot's objective; ties are broken by the other objectives
    in the order of :data:`OBJECTIVES`, then by rerolling fewer dice, then
    fewer even dice. "Up to K" includes rerolling none.
    """
    r = shot.rerolls
    order = [r.objective] + [o for o in OBJECTIVES if o != r.objective]
    return optimal_policy(shot.dice, face_classes(shot), r.budget, [_payoff(o, shot) for o in order])


def attack_roll(shot: Shot) -> Dist:
    """The attack roll, rerolls included, as the exact distribution of
    :class:`RollSummary` (hits, parity ok).

    « Lors de la résolution de l'attaque (une fois les relances effectuées),
    si le jet indique au moins une réussite, on compte le nombre de dés pairs
    et impairs (tous les dés : ceux qui font des touches et ceux qui n'en
    font pas). »

    Dice are summarised by counts of (hit, even): with no reroll or with
    every failed die rerolled, the dice stay iid and the answer is the tail
    ``even >= ceil(N/2)`` of the joint counts (O(N) packed big-integer
    operations); with a budget of K, :func:`~exactodds.dice.budget.budget_split`
    (polynomial in N, exponential in nothing).
    """
    hit = hit_target(shot.difficulty)
    s = parity_threshold(shot)
    r = shot.rerolls
    if r.rule == "up-to":
        weights = budget_split(shot.dice, face_classes(shot), s, r.budget, reroll_policy(shot))
        return Dist.from_weights({RollSummary(a, ok): v for (a, ok), v in weights.items()})
    die = d6
    if r.rule == "failed":  # every failed die rerolled once: still iid dice, with a new face distribution
        die = reroll_once(d6, lambda f: not hit.succeeds(f)).map(lambda roll: roll.face)
    classes = FaceClasses.of_die(die, hit.succeeds, _is_even)
    weights = {}
    for a, (below, at_least) in enumerate(margin_weights(shot.dice, classes, s, 0)):
        if below:
            weights[RollSummary(a, False)] = below
        if at_least:
            weights[RollSummary(a, True)] = at_least
    return Dist.from_weights(weights)


def recipient(summary: RollSummary, shot: Shot) -> Dist:
    """Who receives the hits (a kernel on :class:`RollSummary`).

    No hit: a miss (``none``). « S'il y a au moins autant de dés pairs que de
    dés impairs, le coup touche la cible d'origine. » Otherwise « le coup
    touche un des combattants engagé par le cible initiale du tir, déterminé
    au hasard » — uniformly; behind a melee, « les cibles potentielles sont
    sélectionnées parmi toutes celles dont le socle se trouve au moins
    partiellement sur une ligne imaginaire [...] ainsi que toutes celles
    engagées par ces dernières ».
    """
    names = shot.named_recipients
    if summary.hits == 0:
        return Dist.constant(HitOn(names[NONE], 0))
    if summary.parity_ok or not shot.parity_check:
        return Dist.constant(HitOn(names[shot.target.name], summary.hits))
    return Dist.uniform(HitOn(names[f.name], summary.hits) for f in shot.impair_candidates)


def recipient_of_rolls(rolls: Dist, shot: Shot) -> Dist:
    """:func:`recipient` applied to the whole distribution of attack rolls at once:
    the joint (recipient, hits), built from the rolls' integer weights (each
    weight times the number of candidates, split evenly among them on an impair).
    O(rolls x candidates) additions, no fractions (the same Dist as
    ``rolls.then(lambda s: recipient(s, shot))``)."""
    names = shot.named_recipients
    miss, target = HitOn(names[NONE], 0), names[shot.target.name]
    fighters = [names[f.name] for f in shot.impair_candidates] if shot.parity_check else []
    scale = len(fighters) or 1
    weights: dict[HitOn, int] = {}
    for (hits, parity_ok), w in rolls.weights().items():
        if hits == 0:
            weights[miss] = weights.get(miss, 0) + w * scale
        elif parity_ok or not fighters:
            weights[HitOn(target, hits)] = w * scale
        else:
            for name in fighters:
                weights[HitOn(name, hits)] = w
    return Dist.from_weights(weights)


DamageKernel = Callable[[int], Dist]
"""Hits -> distribution of damage (the shooting rules give no damage table)."""


def damage_step(damage: DamageKernel | Mapping[str, DamageKernel]) -> Callable[[HitOn], Dist]:
    """A kernel applying a damage kernel per recipient: one kernel for all, or
    one per recipient name.

    « Les dégâts sont ensuite normalement infligés au regard du nombre de
    touches totales obtenues (dans ce cas précis, il est impossible de
    réduire le nombre de touches infligées). »
    """
    if not callable(damage) and not isinstance(damage, Mapping):
        raise InputError("damage must be a function hits -> Dist, or a mapping recipient name -> such a function")

    def kernel(hit: HitOn) -> Dist:
        if hit.recipient == NONE:
            return Dist.constant(DamageOn(NONE, 0))
        fn: Callable[[int], Dist]
        if not isinstance(damage, Mapping):
            fn = damage
        else:
            if hit.recipient not in damage:
                raise InputError(f"no damage kernel for recipient {hit.recipient!r}; "
                                 f"kernels given for {sorted(damage)}")
            fn = damage[hit.recipient]
        out = fn(hit.hits)
        if not isinstance(out, Dist):
            out = Dist.constant(out)
        return out.map(lambda dmg: DamageOn(hit.recipient, dmg))

    return kernel


