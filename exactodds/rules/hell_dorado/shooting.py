"""Hell Dorado: a shot's rule steps chained and run (:func:`shoot`), the
figures a player asks for (:class:`ShotResult`), one raw roll resolved
(:func:`resolve_roll`) and the optimal reroll policy's decisions
(:func:`reroll_decisions`)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from fractions import Fraction
from typing import Any

from ...core import Dist, InputError, Pipeline, Run, Step, check_size
from ...core.limits import state_units, weights_note
from ...dice.budget import first_roll_states
from .shot import NONE, SIDES, Shot
from .steps import (
    DamageKernel,
    RollSummary,
    _payoff_scale,
    attack_roll,
    commits_impair,
    count_hits,
    count_parity,
    damage_step,
    face_classes,
    optimal_reroll_policy,
    parity_threshold,
    recipient,
    recipient_of_rolls,
)


def shot_pipeline(shot: Shot, damage: DamageKernel | Mapping[str, DamageKernel] | None = None) -> Pipeline:
    """The shot as named steps: ``attack roll`` -> ``recipient`` [-> ``damage``].

    Run it on ``Dist.constant(shot)`` (or use :func:`shoot`).
    """
    _check_recipients(shot)
    pipeline = Step.kernel("attack roll", attack_roll) >> Step.whole("recipient", lambda d: recipient_of_rolls(d, shot))
    if damage is not None:
        pipeline = pipeline >> Step.kernel("damage", damage_step(damage))
    return pipeline


def _check_recipients(shot: Shot) -> None:
    """Refuse, before the work, a joint (recipient, hits) too large to build: up to
    (dice + 1) x (fighters + 1) outcomes (a miss, the target or any candidate with each
    count of hits) of weights below (6^dice x fighters), built in O(outcomes) additions."""
    fighters = len(shot.impair_candidates) + 1
    outcomes = (shot.dice + 1) * fighters if shot.parity_check else shot.dice + 1
    bits = shot.dice * (SIDES ** (2 if shot.rerolls.rule != "none" else 1)).bit_length() + fighters.bit_length()
    among = f" among {fighters} possible recipients" if shot.parity_check else ""
    check_size(state_units(outcomes, bits), f"the hits of {shot.dice} dice{among}{weights_note(outcomes, bits)}")


# ----------------------------------------------------------------- results
@dataclass(frozen=True)
class ShotResult:
    """The exact answer to one shot.

    ``hits``: joint distribution of :class:`HitOn` (recipient, hits);
    ``run``: every stage; ``damage``: the damage stage if a kernel was given.
    """

    shot: Shot
    run: Run

    @property
    def hits(self) -> Dist:
        """The exact joint distribution over (recipient, hits)."""
        return self.run["recipient"]

    @property
    def damage(self) -> Dist | None:
        """The joint distribution over (recipient, damage), if a damage kernel was given."""
        return self.run.stages.get("damage")

    @cached_property
    def _sums(self) -> tuple[dict[str, int], dict[str, int], int]:
        """Per recipient: the integer weight of receiving the hits, and of the hits
        received (weight x hits), over the joint's denominator. O(outcomes)."""
        chance = dict.fromkeys(self.shot.recipients, 0)
        hits = dict.fromkeys(self.shot.recipients, 0)
        joint = self.hits
        for o, w in joint.weights().items():
            chance[o.recipient] += w
            hits[o.recipient] += w * o.hits
        return chance, hits, joint.denominator

    def p_recipient(self) -> dict[str, Fraction]:
        """P(each recipient receives the hits), ``none`` for a miss; sums to 1."""
        chance, _, total = self._sums
        return {name: Fraction(w, total) for name, w in chance.items()}

    def p_friend_hit(self) -> Fraction:
        """P(the hits go to one of the shooter's friends)."""
        chance, _, total = self._sums
        return Fraction(sum(chance[f.name] for f in self.shot.impair_candidates if f.friend), total)

    def expected_hits(self) -> dict[str, Fraction]:
        """Expected hits received by each fighter (over all shots, misses included)."""
        _, hits, total = self._sums
        return {name: Fraction(w, total) for name, w in hits.items() if name != NONE}


def shoot(shot: Shot, damage: DamageKernel | Mapping[str, DamageKernel] | None = None) -> ShotResult:
    """Resolve ``shot`` exactly: the joint (recipient, hits) and its figures."""
    if not isinstance(shot, Shot):
        raise InputError(f"shoot() needs a Shot (see make_shot), not {type(shot).__name__}")
    return ShotResult(shot, shot_pipeline(shot, damage).run(Dist.constant(shot)))


# ----------------------------------------------------- raw rolls (examples)
def resolve_roll(roll: Sequence[int], shot: Shot) -> Dist:
    """The recipient of one raw roll *after* rerolls (no reroll is applied
    here): the rules' worked example as a function. O(N)."""
    hits = count_hits(roll, shot.difficulty)
    even, odd = count_parity(roll)
    return recipient(RollSummary(hits, not commits_impair(even, odd)), shot)


# ------------------------------------------------------------ decisions
@dataclass(frozen=True)
class RerollDecision:
    """One row of the optimal policy's decision table.

    The first roll is summarised by ``hits``, ``parity_margin`` (even dice
    minus ceil(N/2), clipped to [-(K+1), K]: K or more means the hits stay
    on the target whatever is rerolled, -(K+1) or less that they cannot),
    and the failed even / odd dice (capped at K). ``reroll_even`` and
    ``reroll_odd`` are the best choice, ``objective`` its exact expected
    objective given that first roll, ``p_state`` the probability of the state.
    """

    hits: int
    parity_margin: int
    failed_even: int
    failed_odd: int
    reroll_even: int
    reroll_odd: int
    objective: Fraction
    p_state: Fraction

    def _asdict(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__}

    def __str__(self) -> str:
        return (f"hits={self.hits} margin={self.parity_margin} failed={self.failed_even}e/{self.failed_odd}o"
                f" -> reroll {self.reroll_even}e/{self.reroll_odd}o")


def reroll_decisions(shot: Shot) -> list[RerollDecision]:
    """The optimal policy's decision for every possible first roll (states of
    positive probability), with the expected objective and the state's
    probability. Only for ``--policy optimal``."""
    r = shot.rerolls
    if r.policy != "optimal":
        raise InputError("a decision table comes from the optimal policy (policy 'optimal'); "
                         "odd-first and even-first follow their fixed order")
    policy = optimal_reroll_policy(shot)
    scale = _payoff_scale(r.objective, shot)
    total = SIDES ** shot.dice
    states = first_roll_states(shot.dice, face_classes(shot), parity_threshold(shot), r.budget)
    rows = []
    for state in sorted(states):
        choice = policy(state)
        value = policy.values(state, choice)[0] / scale
        rows.append(RerollDecision(state.successes, state.margin, state.failed_second, state.failed_other,
                                   choice.second, choice.other, value, Fraction(states[state], total)))
    return rows


