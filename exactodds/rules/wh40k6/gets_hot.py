"""Gets Hot in Warhammer 40,000 6th edition: the firing models' own losses.

The rule, in our words (docs/wh40k6.md): each to-hit roll of 1 with a weapon
that Gets Hot costs the model that fired it a wound, after any reroll (a 1
that is rerolled counts only if the reroll is a 1 too); the model may take its
armour or invulnerable save (no cover), and Feel No Pain. A weapon that makes
no to-hit roll (template, blast...) rolls a D6 per shot before firing: on a 1
that shot is not fired and the model suffers the wound.

The wound falls on the model that fired, so the answer is joint: the hits on
the target and, per firing model, the wounds it lost. Each firing model is
independent of the others: one model's (hits, wounds lost) is a multinomial
over its shots (three classes of final die: hit, a 1, another miss), then a
binomial of unsaved wounds among its 1s; the models are then combined one at
a time, equal (hits, losses) outcomes merged.

Cost: one model O(S^3) for S shots (a trinomial per shot count, a binomial
per number of 1s); the volley O(k x H x L) for k models, H + 1 hit totals and
L distinct loss tuples (at most the product over the models of their wounds
left + 1), refused over the state limit.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import groupby

from ...core import Dist, InputError, Pipeline, Run, Step, check_size
from ...core.checks import whole_number
from ...dice import Target, pool_counts, successes
from ..allocation import UnitState
from ..common import best_save, save_value
from .tables import BS_TABLE, SNAP_SHOT_BS
from .traits import check_feel_no_pain
from .shooting import HITS, overwatch_attack, shooting_pipeline
from .inputs import Firing, Shooting
from .units import Model, Unit, require_type

GETS_HOT = "gets-hot"
HIT, HOT, MISS = "hit", "hot", "miss"

PLACED_FIRES = Target.at_least(2)
"""A weapon that places its hits rolls a D6 per shot before firing: 2+ fires."""


def gets_hot(attack: Firing) -> bool:
    """Whether ``attack``'s weapon Gets Hot."""
    return GETS_HOT in attack.rules


@dataclass(frozen=True)
class Firer:
    """What a firing model opposes to its own weapon's wound: Wounds, armour
    and invulnerable saves (X for X+, None: none) and Feel No Pain (X+)."""

    wounds: int = 1
    save: int | None = None
    invulnerable: int | None = None
    feel_no_pain: int | None = None

    def __post_init__(self) -> None:
        whole_number(self.wounds, "the firing model's wounds", 1, 10)
        save_value(self.save, "the firing model's save")
        save_value(self.invulnerable, "the firing model's invulnerable save")
        check_feel_no_pain(self.feel_no_pain, "the firing model's feel no pain")

    @classmethod
    def of(cls, model: Model) -> Firer:
        """The firing profile of one model of a unit file."""
        require_type(model, Model, "the firing model")
        return cls(model.wounds, model.save, model.invulnerable, model.feel_no_pain)

    def p_unsaved(self) -> Fraction:
        """P(one Gets Hot wound is neither saved nor ignored): the best of armour and
        invulnerable (no AP: the rule gives the wound none; no cover), then Feel No
        Pain (no Instant Death: the weapon does not wound its bearer by Strength). O(1)."""
        save = best_save(self.save, None, None, self.invulnerable).chance()
        fnp = Fraction(0) if self.feel_no_pain is None else Target.at_least(self.feel_no_pain).chance()
        return (1 - save) * (1 - fnp)


def hit_die(attack: Firing) -> Dist:
    """One shot's final to-hit die as a class: ``"hit"``, ``"hot"`` (the final
    roll is a 1) or ``"miss"`` (any other miss). Same rerolls as
    :func:`~.shooting.hit_chance`: every failed roll at the first roll's score
    (twin-linked, reroll-failed), or a 1 at the first roll's score
    (Preferred Enemy), else the BS 6+ table's reroll of 1s; snap shots at BS 1.
    Enumerates 6 faces and 6 reroll faces: O(1)."""
    assert attack.master_crafted is None  # refused with gets-hot when the attack was made
    assert attack.bs is not None
    first, again = BS_TABLE[SNAP_SHOT_BS if attack.fires_snap() else attack.bs]
    every = attack.reroll_all_hits()
    ones = "preferred-enemy" in attack.rules

    def final(face: int, need: int) -> str:
        return HIT if face >= need else HOT if face == 1 else MISS

    weights: dict[str, int] = {}
    for face in range(1, 7):
        need = None
        if face < first and (every or (ones and face == 1)):
            need = first
        elif face == 1 and again is not None:
            need = again
        if need is None:
            weights[final(face, first)] = weights.get(final(face, first), 0) + 6
        else:
            for again_face in range(1, 7):
                c = final(again_face, need)
                weights[c] = weights.get(c, 0) + 1
    return Dist.from_weights(weights)


def per_model_shots(attack: Firing, models: int) -> list[Dist]:
    """The shots of each of ``models`` firing models (models hit, for a weapon
    that places its hits), in order: random shots and Salvo X/Y, one model's own
    roll or count each; else the attack's total shots (Rapid Fire and the
    halving rule salvo applied to the total, as without Gets Hot) dealt out
    evenly, the first models taking one more when they do not split evenly.
    Gets Hot never changes the number of shots. O(models)."""
    whole_number(models, "the number of firing models", 1, 1000)
    if attack.counts_models():
        if attack.shots != models:
            given = "random shots" if attack.random_shots is not None else "Salvo X/Y"
            raise InputError(f"with {given}, the shots count the firing models: {attack.shots} shots, "
                             f"{models} firing models")
        return [replace(attack, shots=1).shot_counts()] * models
    if attack.shots % models:
        raise InputError(f"{attack.shots} shots do not split evenly among {models} firing models: give a "
                         "multiple of the firing models")
    total = attack.most_shots()  # a fixed count here: only random shots give a spread
    each, extra = divmod(total, models)
    return [Dist.constant(each + (i < extra)) for i in range(models)]


def model_outcome(attack: Firing, shots: Dist, p_unsaved: Fraction, wounds_left: int) -> Dist:
    """One firing model: Dist over (hits, wounds lost, at most ``wounds_left``).

    Rolling to hit: a trinomial over its shots of :func:`hit_die`, the 1s then
    saved one by one. A weapon that places its hits: the D6 per shot before
    firing, each 1 a lost shot and a wound. O(S^3) for S shots."""
    def lost(ones: int) -> Dist:
        return successes(ones, p_unsaved).map(lambda n: min(n, wounds_left))

    if attack.weapon_type != "normal":
        fires = PLACED_FIRES.chance()
        # each model places one template or marker hitting ``s`` models: on a 1 it is not fired
        misfire = lost(1).map(lambda n: (0, n))
        return shots.then(lambda s: Dist.bernoulli(fires, success=True, failure=False)
                          .then(lambda ok: Dist.constant((s, 0)) if ok else misfire))
    die = hit_die(attack)
    order = [c for c in (HIT, HOT, MISS) if c in die.support()]

    def of_shots(s: int) -> Dist:
        counts = pool_counts(s, die, order)
        return counts.then(lambda c: lost(c[order.index(HOT)] if HOT in order else 0)
                           .map(lambda n: (c[order.index(HIT)] if HIT in order else 0, n)))
    return shots.then(of_shots)


def _models(attack: Firing, firers: Sequence[Firer],
            wounds_left: Sequence[int] | None) -> tuple[list[Dist], int, list[int]]:
    """Each firing model's own Dist over (hits, wounds lost) (:func:`model_outcome`,
    computed once per distinct (profile, wounds left)), the most shots one
    model fires, and each model's wounds left. Checks the inputs."""
    require_type(attack, Firing, "the attack")
    if not gets_hot(attack):
        raise InputError("the weapon does not have gets-hot")
    firers = list(firers)
    for f in firers:
        require_type(f, Firer, "each firing model")
    left = [f.wounds for f in firers] if wounds_left is None else list(wounds_left)
    if len(left) != len(firers) or not firers:
        raise InputError(f"{len(firers)} firing models and {len(left)} wounds left: give one per model, at least one")
    for f, w in zip(firers, left):
        whole_number(w, "a firing model's wounds left", 1, f.wounds)
    shots = per_model_shots(attack, len(firers))
    memo: dict[tuple[Firer, int, Dist], Dist] = {}
    for f, w, s in zip(firers, left, shots):
        if (f, w, s) not in memo:
            memo[f, w, s] = model_outcome(attack, s, f.p_unsaved(), w)
    return [memo[f, w, s] for f, w, s in zip(firers, left, shots)], max(max(s.support()) for s in shots), left


def volley(attack: Firing, firers: Sequence[Firer], wounds_left: Sequence[int] | None = None) -> Dist:
    """The firing models of ``attack`` (one :class:`Firer` each, ``wounds_left``
    each, default full): Dist over (total hits, wounds lost per model).

    ``attack.shots`` is split evenly among the models (:func:`per_model_shots`).
    The models are combined one at a time, equal outcomes merged: the loss
    tuples are at most the product over the models of (wounds left + 1), so
    this is for a unit's few special weapons; :func:`volley_removed` counts
    the models removed instead, for any number of models."""
    outcomes, most, left = _models(attack, firers, wounds_left)
    states = 1
    for w in left:
        states *= w + 1
    check_size((most * len(outcomes) + 1) * states, f"gets-hot losses of {len(outcomes)} firing models")
    out: Dist = Dist.constant((0, ()))
    for one in outcomes:
        out = out.combine(one, lambda acc, x: (acc[0] + x[0], acc[1] + (x[1],)))
    return out


def volley_removed(attack: Firing, firers: Sequence[Firer], wounds_left: Sequence[int] | None = None) -> Dist:
    """As :func:`volley` (``wounds_left`` each, default full), but over (total
    hits, firing models removed). O(k^2 x H) for k models and H + 1 hit totals:
    at most (H + 1)(k + 1) outcomes between two models."""
    outcomes, most, left = _models(attack, firers, wounds_left)
    check_size((most * len(outcomes) + 1) * (len(outcomes) + 1), f"gets-hot losses of {len(outcomes)} firing models")
    out = Dist.constant((0, 0))
    for w, one in zip(left, outcomes):
        out = out.combine(one, _adder(w))
    return out


def _adder(wounds: int) -> Callable[[tuple[int, int], tuple[int, int]], tuple[int, int]]:
    """(hits, removed so far) + one model's (hits, wounds lost) of ``wounds``."""
    return lambda acc, x: (acc[0] + x[0], acc[1] + (x[1] >= wounds))


def apply_losses(state: UnitState, indices: Sequence[int], losses: Sequence[int]) -> UnitState:
    """``state`` with ``losses[j]`` wounds taken from model ``indices[j]`` (a model
    at 0 is removed). O(models)."""
    wounds = list(state.wounds)
    for i, n in zip(indices, losses):
        wounds[i] = max(0, wounds[i] - n)
    return replace(state, wounds=tuple(wounds))


def removed_last(unit: Unit, state: UnitState) -> UnitState:
    """``state`` with each line's removed models moved after its models in play,
    order kept. The models of a line are identical and a removed model takes no
    further part, so the two states have the same future; merging them keeps
    the firing unit's states few (k + 1, not 2^k, for k one-wound models
    firing). O(models)."""
    if state.marked:
        return state
    wounds: list[int] = []
    for _, line in groupby(zip(unit.line_of(), state.wounds), key=lambda x: x[0]):
        block = [w for _, w in line]
        wounds.extend([w for w in block if w > 0] + [0] * block.count(0))
    return replace(state, wounds=tuple(wounds))


def shoot_firers(attack: Shooting, target: Unit, firers: Sequence[Firer], focus_fire: int | str | None = None,
                 overwatch: bool = False) -> tuple[Run, Dist]:
    """One shooting attack (Overwatch: snap shots forced) of a weapon that Gets
    Hot, fired by ``firers`` (one each, at full wounds).

    Returns the run of :func:`~.shooting.shooting_pipeline` (its hits stage the
    volley's total hits) and the joint Dist over (target casualties, firing
    models removed). Cost: the volley (see :func:`volley_removed`), then the steps after
    the hits once per distinct hit total."""
    if overwatch:
        attack = overwatch_attack(attack)
    v = volley_removed(attack, firers)
    pipe = shooting_pipeline(attack, target, focus_fire)
    hits = v.map(lambda x: x[0])
    tail = Pipeline(pipe.steps[1:])
    run = (Step.whole(HITS, lambda _: hits, "To hit: each firing model's dice, its 1s getting hot") >> tail).run(
        attack.shot_counts())
    by_hits: dict[int, Dist] = {}

    def after(x: tuple[int, int]) -> Dist:
        h, lost = x
        if h not in by_hits:
            by_hits[h] = tail(Dist.constant(h))
        return by_hits[h].map(lambda c: (c, lost))

    return run, v.then(after)
