"""Hell Dorado: shooting into a melee, with the parity rule ("commettre un impair").

From the French "Lesrens" community rules of Hell Dorado; docs/hell_dorado.md
gives each rule in English beside the original sentence. Each rule step below
is a function named after it, with the original sentence quoted beside the
code that implements it:

1. :func:`attack_difficulty` - the difficulty of the attack roll;
2. :func:`parity_check_applies` - whether an impair is possible at all;
3. :func:`attack_roll` - the dice, their rerolls, the hits and the parity
   count, as the exact distribution of :class:`RollSummary`;
4. :func:`recipient` - who receives the hits (:class:`HitOn`);
5. :func:`damage_step` - a caller's damage kernel applied per recipient.

:func:`shot_pipeline` chains them (stages ``"attack roll"``,
``"recipient"`` and optionally ``"damage"``) and :func:`shoot` runs it and
adds the figures a player asks for (:class:`ShotResult`). Raw-roll versions
of the steps (:func:`count_hits`, :func:`count_parity`,
:func:`commits_impair`, :func:`resolve_roll`) exist for worked examples and
tests; the main path never enumerates the 6^N rolls: it uses the joint
counts of two face attributes (hit, even) of
:mod:`exactodds.dice.attributes` and the reroll budgets of
:mod:`exactodds.dice.budget`.

Choices where the rules are silent (all documented in docs/hell_dorado.md):

- DEF values and the range difficulty are whole numbers from 1 to 10; a
  difficulty of 7 or more means no die can hit; a difficulty below 2 is an
  input error unless ``allow_low_difficulty`` (every die then hits).
- Behind a melee, "la même méthode" is read as: the candidates (fighters on
  the line of fire and those they engage) take the place of the fighters
  engaged by the target, in the difficulty too (``candidates_in_difficulty``
  turns that off). A target behind a melee that itself engages fighters
  combines both rules: on an impair the hits go to one of the candidates or
  of the fighters it engages, uniformly; the engaged fighters' DEF always
  counts in the difficulty (the difficulty rule names them), the
  candidates' as above.
- Elevation ("plus hauts que les combattants qui se trouvent entre eux")
  removes the parity check; the difficulty is computed as without it.
- Fighters engaged by the target are the shooter's friends by default ("donc
  un des siens"); behind a melee each candidate says whether it is a friend
  (default: friend).
- Rerolls: none, every failed die, or up to k failed dice with a named
  policy: ``odd-first`` (failed odd dice first, then failed even ones, up to
  k in all), ``even-first`` (the reverse), ``optimal`` (exact search).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, NamedTuple

from ..core import Dist, InputError, Pipeline, Run, Step, check_size
from ..core.checks import is_whole
from ..core.labels import Named
from ..core.limits import state_units, weights_note
from ..dice import Target, d6, reroll_once
from ..dice.attributes import FaceClasses, margin_weights
from ..dice.budget import (
    BudgetState,
    OptimalPolicy,
    Policy,
    ThresholdPayoff,
    budget_split,
    first_roll_states,
    optimal_policy,
    priority_policy,
)

SIDES = 6
DEF_MIN, DEF_MAX = 1, 10
"""Allowed DEF values and range difficulties (a difficulty of 7+ cannot be hit on a d6)."""
REROLL_RULES = ("none", "failed", "up-to")
POLICIES = ("odd-first", "even-first", "optimal")
OBJECTIVES = ("p-target", "target-hits", "no-friendly-fire")
"""Objectives of the optimal reroll policy: P(the original target is hit),
expected hits on the original target, P(no friend is hit)."""
NONE = "none"
"""The recipient of a shot that scores no hit."""
TARGET = "target"


# ------------------------------------------------------------------ inputs
@dataclass(frozen=True)
class Fighter:
    """A fighter that may receive the hits: its name, its DEF, and whether it
    is on the shooter's side (a friend)."""

    name: str
    defense: int
    friend: bool = True


@dataclass(frozen=True)
class Rerolls:
    """Rerolls made before the parity count, each die at most once.

    ``rule``: ``"none"``, ``"failed"`` (every failed die) or ``"up-to"``
    (at most ``budget`` failed dice, chosen by ``policy``; ``objective`` is
    what the ``optimal`` policy maximises).
    """

    rule: str = "none"
    budget: int = 0
    policy: str | None = None
    objective: str = "p-target"

    def __post_init__(self) -> None:
        if self.rule not in REROLL_RULES:
            raise InputError(f"reroll rule {self.rule!r} is not one of {', '.join(REROLL_RULES)}")
        if self.rule == "up-to":
            if not is_whole(self.budget) or self.budget < 0:
                raise InputError(f"the reroll budget must be a whole number 0 or more, not {self.budget!r}")
            if self.policy not in POLICIES:
                raise InputError("rerolling up to K failed dice needs a policy naming which ones: "
                                 f"{', '.join(POLICIES)} (not {self.policy!r}); the choice changes the parity")
        elif self.policy is not None:
            raise InputError(f"a reroll policy ({self.policy}) only applies to 'reroll up to K failed dice' "
                             "(rule='up-to' with a budget)")
        if self.objective not in OBJECTIVES:
            raise InputError(f"objective {self.objective!r} is not one of {', '.join(OBJECTIVES)}")
        if self.objective != "p-target" and self.policy != "optimal":
            raise InputError("an objective only applies to the optimal policy (policy='optimal')")


@dataclass(frozen=True)
class Shot:
    """One shot: ``dice`` d6 at ``target``.

    ``engaged``: the fighters the target engages (a shot into a melee).
    ``behind``: the target stands behind a melee, and ``candidates`` lists
    every fighter whose base touches the line of fire plus those they engage;
    a target behind a melee may also engage fighters of its own (both lists).
    ``elevated``: shooter or target higher than the fighters between them.
    Build with :func:`make_shot` for defaults and names.
    """

    dice: int
    target: Fighter
    engaged: tuple[Fighter, ...] = ()
    range_difficulty: int | None = None
    behind: bool = False
    candidates: tuple[Fighter, ...] = ()
    elevated: bool = False
    candidates_in_difficulty: bool = True
    allow_low_difficulty: bool = False
    rerolls: Rerolls = field(default_factory=Rerolls)

    def __post_init__(self) -> None:
        if not is_whole(self.dice) or self.dice < 1:
            raise InputError(f"a shot rolls at least one die: dice must be a whole number 1 or more, not {self.dice!r}")
        _check_def(self.target.defense, "the target's DEF")
        for i, f in enumerate(self.engaged, 1):
            _check_def(f.defense, f"the DEF of engaged fighter {i}")
        for i, f in enumerate(self.candidates, 1):
            _check_def(f.defense, f"the DEF of candidate {i}")
        if self.range_difficulty is not None:
            _check_def(self.range_difficulty, "the range difficulty")
        _check_layout(self.behind, self.engaged, self.candidates)
        names = [self.target.name] + [f.name for f in self.impair_candidates]
        for name in names:
            if not isinstance(name, str) or not name.strip() or name == NONE:
                raise InputError(f"recipient name {name!r} is not allowed: use a non-empty name other than '{NONE}'")
        if len(set(names)) != len(names):
            raise InputError(f"recipient names must be distinct, got {names}")
        if not isinstance(self.rerolls, Rerolls):
            raise InputError("rerolls must be a Rerolls value")
        if self.difficulty < 2 and not self.allow_low_difficulty:
            raise InputError(f"the difficulty would be {self.difficulty} (below 2): every die would hit. "
                             "Check the DEF values, or allow it explicitly (allow_low_difficulty=True)")

    @property
    def impair_candidates(self) -> tuple[Fighter, ...]:
        """Who may receive the hits on an impair: the fighters engaged by the
        target, and, behind a melee, first the listed candidates."""
        return self.candidates + self.engaged if self.behind else self.engaged

    @property
    def difficulty(self) -> int:
        """The attack roll's difficulty (see :func:`attack_difficulty`): the DEF of
        the target and of every fighter it engages, the range, and behind a melee
        the candidates' DEF (unless ``candidates_in_difficulty`` is False). Behind
        a melee with an elevated shooter or target the shot is a normal one: the
        candidates play no part."""
        counted = self.behind and self.candidates_in_difficulty and not self.elevated
        others = self.engaged + (self.candidates if counted else ())
        return attack_difficulty(self.target.defense, [f.defense for f in others], self.range_difficulty)

    @property
    def parity_check(self) -> bool:
        """Whether the parity count decides the recipient (see :func:`parity_check_applies`)."""
        return parity_check_applies(len(self.impair_candidates), self.elevated)

    @property
    def recipients(self) -> list[str]:
        """Every possible recipient, the target first, then the candidates, then ``none``."""
        return [self.target.name] + [f.name for f in self.impair_candidates] + [NONE]

    @property
    def named_recipients(self) -> dict[str, Named]:
        """Each recipient's name as a :class:`~exactodds.core.labels.Named` holding
        its place in :attr:`recipients`, so that tables list the target first, then
        the fighters in the order given, then ``none`` (equal to the plain names)."""
        return {name: Named(name, i) for i, name in enumerate(self.recipients)}


def _check_def(value: Any, what: str) -> None:
    if not is_whole(value) or not DEF_MIN <= value <= DEF_MAX:
        raise InputError(f"{what} must be a whole number from {DEF_MIN} to {DEF_MAX}, not {value!r}")


def _check_layout(behind: bool, engaged: Any, candidates: Any) -> None:
    """Candidates describe a target behind a melee (which may engage fighters too)."""
    for what, seq in (("engaged_defs", engaged), ("candidate_defs", candidates)):
        if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
            raise InputError(f"{what} must be a list of DEF values (whole numbers), not {seq!r}")
    if behind and not candidates:
        raise InputError("a shot behind a melee needs its candidates: list every fighter whose base touches "
                         "the line of fire and every fighter those engage (candidate_defs)")
    if candidates and not behind:
        raise InputError("candidates (candidate_defs) describe a target behind a melee: set behind=True, or use "
                         "engaged_defs for the fighters the target itself engages")


def make_shot(dice: int, target_def: int, engaged_defs: Sequence[int] = (), range_difficulty: int | None = None,
              *, names: Sequence[str] = (), enemies: Sequence[int] = (), behind: bool = False,
              candidate_defs: Sequence[int] = (), elevated: bool = False, candidates_in_difficulty: bool = True,
              allow_low_difficulty: bool = False, reroll: str = "none", budget: int = 0,
              policy: str | None = None, objective: str = "p-target") -> Shot:
    """A :class:`Shot` from plain values.

    ``names``: the target's name, then one per candidate (behind a melee),
    then one per engaged fighter, in order; default ``target``,
    ``candidate-1``, ..., ``engaged-1``, .... ``enemies``: 1-based positions,
    in that same order (candidates, then engaged fighters), of the fighters
    that are *not* the shooter's friends.
    ``reroll``: ``none``, ``failed`` or ``up-to`` (with ``budget`` and
    ``policy``; ``objective`` for the optimal policy).
    """
    _check_layout(behind, engaged_defs, candidate_defs)
    others = list(candidate_defs) + list(engaged_defs)
    kind = ("candidate" + (" or engaged fighter" if engaged_defs else "")) if behind else "engaged fighter"
    default = ([TARGET] + [f"candidate-{i}" for i in range(1, len(candidate_defs) + 1)]
               + [f"engaged-{i}" for i in range(1, len(engaged_defs) + 1)])
    names = list(names)
    if names and len(names) != len(default):
        raise InputError(f"names has {len(names)} entries but there are {len(default)} recipients: "
                         f"the target first, then each {kind} in order")
    names = names or default
    for i in enemies:
        if not is_whole(i) or not 1 <= i <= len(others):
            raise InputError(f"enemy position {i!r} is not one of the {len(others)} {kind}s "
                             f"(positions 1 to {len(others)})")
    enemy_set = set(enemies)
    fighters = tuple(Fighter(name, d, i not in enemy_set) for i, (name, d) in enumerate(zip(names[1:], others), 1))
    target = Fighter(names[0], target_def, friend=False)
    rerolls = Rerolls(reroll, budget, policy, objective)
    candidates, engaged = fighters[:len(candidate_defs)], fighters[len(candidate_defs):]
    return Shot(dice, target, engaged, range_difficulty, behind, candidates, elevated, candidates_in_difficulty,
                allow_low_difficulty, rerolls)


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


# ------------------------------------------------------------ rule steps
def attack_difficulty(target_def: int, engaged_defs: Sequence[int] = (), range_difficulty: int | None = None) -> int:
    """The difficulty of the attack roll.

    « La difficulté du jet d'attaque est la plus haute valeur entre la DEF
    de la cible, la DEF de tous les combattants engagés par la cible et la
    difficulté imposée par la distance. »
    """
    values = [target_def, *engaged_defs] + ([] if range_difficulty is None else [range_difficulty])
    return max(values)


def parity_check_applies(candidates: int, elevated: bool = False) -> bool:
    """Whether the parity count decides who is hit.

    « Si la cible du tir n'engage aucun adversaire (p. 44), alors il n'y a
    aucun risque d'impair, et le tir se déroule normalement. »
    « si le tireur et/ou sa cible sont plus hauts que les combattants qui se
    trouvent entre eux, la ligne de vue n'est pas bloquée et le tir se
    déroule normalement. »
    """
    return candidates > 0 and not elevated


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


def shot_pipeline(shot: Shot, damage: DamageKernel | Mapping[str, DamageKernel] | None = None) -> Pipeline:
    """The shot as named steps: ``attack roll`` -> ``recipient`` [-> ``damage``].

    Run it on ``Dist.constant(shot)`` (or use :func:`shoot`).
    """
    _check_recipients(shot)
    pipeline = Step.kernel("attack roll", attack_roll) >> Step.kernel("recipient", lambda s: recipient(s, shot))
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

    def p_recipient(self) -> dict[str, Fraction]:
        """P(each recipient receives the hits), ``none`` for a miss; sums to 1."""
        marginal = self.hits.marginal("recipient")
        return {name: marginal.pmf(name) for name in self.shot.recipients}

    def p_friend_hit(self) -> Fraction:
        """P(the hits go to one of the shooter's friends)."""
        friends = {f.name for f in self.shot.impair_candidates if f.friend}
        return self.hits.prob(lambda o: o.recipient in friends)

    def expected_hits(self) -> dict[str, Fraction]:
        """Expected hits received by each fighter (over all shots, misses included)."""
        out = {name: Fraction(0) for name in self.shot.recipients if name != NONE}
        for o, p in self.hits.items():
            if o.recipient != NONE:
                out[o.recipient] += o.hits * p
        return out


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


__all__ = [
    "DEF_MAX", "DEF_MIN", "NONE", "OBJECTIVES", "POLICIES", "REROLL_RULES", "SIDES", "TARGET",
    "BudgetState", "DamageOn", "Fighter", "HitOn", "RerollDecision", "Rerolls", "RollSummary", "Shot",
    "ShotResult", "attack_difficulty", "attack_roll", "commits_impair", "count_hits", "count_parity",
    "damage_step", "face_classes", "hit_target", "make_shot", "optimal_reroll_policy", "parity_check_applies",
    "parity_threshold", "recipient", "reroll_decisions", "reroll_policy", "resolve_roll", "shoot", "shot_pipeline",
]
