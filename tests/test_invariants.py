"""Invariants of the rules, as hypothesis property tests over random small cases.

- more dice never lower P(at least one hit);
- a better save never raises casualties (stochastic order: P(casualties >= k)
  never grows, for every k), for the shared allocation chain and the 40K 6th
  and Horus Heresy 3rd shooting attacks;
- a reroll never lowers the hit chance (rerolling failed dice, at any target);
- every distribution's probabilities are positive and sum to exactly 1.

Plus: no code execution from user text anywhere in the package (no eval,
exec, pickle, marshal, shelve, yaml.load).
"""

from __future__ import annotations

import re
from dataclasses import replace
from fractions import Fraction
from pathlib import Path

from hypothesis import assume, given
from hypothesis import strategies as st

from exactodds import Dist, Target, d, explode, keep_highest, pool_counts, reroll_failed_chance, reroll_once
from exactodds import reroll_up_to, state_limit, successes, target_with_reroll
from exactodds.dice import multiset
from exactodds.rules import hh3, wh40k6
from exactodds.rules.allocation import AllocModel, allocate, closest_first
from exactodds.rules.hell_dorado import make_shot
from exactodds.rules.hell_dorado import shoot as hd_shoot
from tests.fuzzing import assert_probability_distribution, fuzz_settings

N = 60
ROOT = Path(__file__).resolve().parents[1]


def chances() -> st.SearchStrategy[Fraction]:
    return st.fractions(0, 1, max_denominator=36)


def targets() -> st.SearchStrategy[Target]:
    return st.one_of(st.integers(2, 6).map(Target.at_least), st.just(Target.auto()), st.just(Target.fail()))


def save_values() -> st.SearchStrategy[int | None]:
    return st.one_of(st.none(), st.integers(2, 6))


def dominated(a: Dist, b: Dist) -> bool:
    """``a`` is stochastically no larger than ``b``: P(a >= k) <= P(b >= k) for every k."""
    return all(a.at_least(k) <= b.at_least(k) for k in set(a.support()) | set(b.support()))


def better(save: int | None) -> int | None:
    """One step better: none -> 6+, X+ -> (X-1)+ (2+ stays 2+)."""
    return 6 if save is None else max(2, save - 1)


def better_target(t: Target) -> Target:
    if t.kind == "fail":
        return Target.at_least(6)
    if t.kind == "auto" or t.value == 2:
        return Target.auto()
    return Target.at_least(t.value - 1)


# ------------------------------------------------------------------ more dice
@fuzz_settings(N)
@given(st.integers(0, 30), chances(), st.integers(0, 5), chances())
def test_more_dice_never_lower_p_at_least_one_hit(n: int, p: Fraction, k: int, p2: Fraction) -> None:
    assert successes(n + 1, p).at_least(1) >= successes(n, p).at_least(1)
    assert dominated(successes(n, p), successes(n + 1, p))
    assert reroll_up_to(n + 1, k, p, p2).at_least(1) >= reroll_up_to(n, k, p, p2).at_least(1)


@fuzz_settings(N)
@given(st.integers(0, 12), st.integers(1, 10), st.booleans(), st.booleans(), st.one_of(st.none(), st.integers(1, 3)))
def test_more_shots_never_lower_p_hit_40k(shots: int, bs: int, snap: bool, reroll_failed: bool,
                                           master_crafted: int | None) -> None:
    assume(not (reroll_failed and master_crafted is not None))
    one = wh40k6.Shooting(shots, 4, bs=bs, snap=snap, reroll_failed=reroll_failed, master_crafted=master_crafted)
    more = replace(one, shots=shots + 1)
    assert wh40k6.hits(more).at_least(1) >= wh40k6.hits(one).at_least(1)
    assert dominated(wh40k6.hits(one), wh40k6.hits(more))


@fuzz_settings(N)
@given(st.integers(0, 10), st.integers(1, 12), st.booleans())
def test_more_shots_never_lower_p_hit_hh3(shots: int, bs: int, snap: bool) -> None:
    def p_hit(n: int) -> Fraction:
        return hh3.hit_rolls(n, bs, snap).prob(lambda r: r.hits + r.crits >= 1)

    assert p_hit(shots + 1) >= p_hit(shots)


@fuzz_settings(N)
@given(st.integers(1, 8), st.integers(2, 6), st.lists(st.integers(2, 6), max_size=2),
       st.sampled_from(["none", "failed", "up-to"]), st.integers(0, 3))
def test_more_dice_never_lower_p_hit_hell_dorado(dice: int, target_def: int, engaged: list[int], reroll: str,
                                                 budget: int) -> None:
    """Hell Dorado, into a melee: more dice never lower P(someone is hit)."""
    policy = "odd-first" if reroll == "up-to" else None

    def p_any_hit(n: int) -> Fraction:
        shot = make_shot(n, target_def, engaged, reroll=reroll, budget=budget, policy=policy)
        return hd_shoot(shot).hits.prob(lambda o: o.hits >= 1)

    assert p_any_hit(dice + 1) >= p_any_hit(dice)


# ------------------------------------------------------------------ better saves
def alloc_model() -> st.SearchStrategy[AllocModel]:
    return st.builds(AllocModel, st.integers(1, 3), targets(), targets())


@fuzz_settings(N)
@given(st.lists(alloc_model(), min_size=1, max_size=4), st.data(),
       st.dictionaries(st.integers(0, 6), st.integers(1, 4), min_size=1, max_size=3), st.integers(1, 2))
def test_better_save_never_raises_casualties_allocation(models: list[AllocModel], data: st.DataObject,
                                                       wound_weights: dict, damage: int) -> None:
    i = data.draw(st.integers(0, len(models) - 1))
    improved = list(models)
    improved[i] = replace(models[i], save=better_target(models[i].save))
    wounds = Dist.from_weights(wound_weights)

    def casualties(ms: list[AllocModel]) -> Dist:
        return allocate(wounds, ms, closest_first, damage).map(lambda s: s.casualties())

    assert dominated(casualties(improved), casualties(models))


def wh40k6_lines() -> st.SearchStrategy[list]:
    """One to three model lines; the first may be a character with Look Out, Sir."""
    line = st.builds(wh40k6.Model, toughness=st.integers(3, 5), wounds=st.integers(1, 2), count=st.integers(1, 3),
                     save=save_values(), invulnerable=save_values(), cover=save_values())
    character = st.builds(wh40k6.Model, name=st.just("sergeant"), toughness=st.integers(3, 5),
                          wounds=st.integers(1, 2), save=save_values(), character=st.just(True),
                          look_out_sir=st.booleans())
    return st.tuples(st.one_of(st.none(), character), st.lists(line, min_size=1, max_size=3)).map(
        lambda t: ([t[0]] if t[0] else []) + t[1])


@fuzz_settings(N)
@given(wh40k6_lines(), st.data(), st.integers(0, 6), st.integers(1, 10), st.integers(3, 8),
       st.one_of(st.none(), st.integers(1, 6)), st.sampled_from(["save", "invulnerable", "cover"]))
def test_better_save_never_raises_casualties_40k(lines: list, data: st.DataObject, shots: int, bs: int,
                                                 strength: int, ap: int | None, which: str) -> None:
    i = data.draw(st.integers(0, len(lines) - 1))
    improved = list(lines)
    improved[i] = replace(lines[i], **{which: better(getattr(lines[i], which))})
    attack = wh40k6.Shooting(shots, strength, bs=bs, ap=ap)
    with state_limit(50_000):
        before = wh40k6.shoot(attack, wh40k6.Unit(tuple(lines))).final
        after = wh40k6.shoot(attack, wh40k6.Unit(tuple(improved))).final
    assert dominated(after, before)


@fuzz_settings(N)
@given(st.integers(1, 3), st.integers(2, 6), st.integers(3, 8), st.one_of(st.none(), st.integers(1, 6)),
       st.integers(1, 2), st.integers(1, 4), st.integers(3, 5), st.integers(1, 2), save_values(),
       st.sampled_from(["save", "invulnerable", "feel_no_pain"]))
def test_better_save_never_raises_casualties_hh3(count: int, bs: int, strength: int, ap: int | None,
                                                 firepower: int, size: int, toughness: int, wounds: int,
                                                 save: int | None, which: str) -> None:
    weapon = hh3.Weapon("gun", firepower, strength, ap, 1)
    attacker = hh3.AttackingUnit("a", (hh3.FiringModels("m", count, bs, weapon),))
    models = hh3.TargetModels("x", size, toughness, wounds, **{which: save})
    improved = replace(models, **{which: better(save)})
    with state_limit(50_000):
        before = hh3.shoot(attacker, hh3.TargetUnit("t", 8, (models,))).casualties()
        after = hh3.shoot(attacker, hh3.TargetUnit("t", 8, (improved,))).casualties()
    assert dominated(after, before)


# ------------------------------------------------------------------ rerolls
@fuzz_settings(N)
@given(st.integers(2, 6), st.sets(st.integers(1, 6)), targets(), st.integers(0, 10), st.integers(0, 4), chances(),
       chances())
def test_a_reroll_never_lowers_the_hit_chance(value: int, faces: set, again: Target, n: int, k: int, p: Fraction,
                                              p2: Fraction) -> None:
    target = Target.at_least(value)
    failed = {f for f in faces if not target.succeeds(f)}  # rerolling failures only
    assert target_with_reroll(target, failed, again) >= target.chance()
    assert reroll_failed_chance(p, p2) >= p
    assert dominated(successes(n, p), reroll_up_to(n, k, p, p2))
    assert dominated(reroll_up_to(n, k, p, p2), reroll_up_to(n, k + 1, p, p2))
    assert reroll_up_to(n, k, p, p2).at_least(1) >= successes(n, p).at_least(1)


@fuzz_settings(N)
@given(st.integers(1, 10), st.booleans(), st.integers(0, 8), st.integers(0, 3))
def test_a_reroll_never_lowers_the_hit_chance_40k(bs: int, snap: bool, shots: int, k: int) -> None:
    assert wh40k6.hit_chance(bs, snap, reroll_failed=True) >= wh40k6.hit_chance(bs, snap)
    plain = wh40k6.hits(wh40k6.Shooting(shots, 4, bs=bs, snap=snap))
    assert dominated(plain, wh40k6.hits(wh40k6.Shooting(shots, 4, bs=bs, snap=snap, reroll_failed=True)))
    # k = 0: no master-crafted reroll. At BS 6+ (not snap) a granted reroll *replaces* the table's
    # reroll of 1s (docs/wh40k6.md, "To hit"), so master-crafted 1 may lower the chance there: by the rule.
    if k == 0 and bs >= 6 and not snap:
        return
    fewer = wh40k6.Shooting(shots, 4, bs=bs, snap=snap, master_crafted=k or None)
    assert dominated(wh40k6.hits(fewer), wh40k6.hits(replace(fewer, master_crafted=k + 1)))


@fuzz_settings(N)
@given(st.integers(1, 8), st.integers(2, 6), st.lists(st.integers(2, 6), max_size=2))
def test_rerolling_failed_dice_never_lowers_p_hit_hell_dorado(dice: int, target_def: int, engaged: list) -> None:
    def p_any_hit(reroll: str) -> Fraction:
        return hd_shoot(make_shot(dice, target_def, engaged, reroll=reroll)).hits.prob(lambda o: o.hits >= 1)

    assert p_any_hit("failed") >= p_any_hit("none")


# ------------------------------------------------------------------ distributions
@fuzz_settings(N)
@given(st.dictionaries(st.integers(-3, 8), st.integers(1, 5), min_size=1, max_size=5), st.integers(0, 5),
       st.integers(0, 3), chances(), st.sets(st.integers(-3, 8), max_size=2))
def test_every_distribution_is_positive_and_sums_to_one(weights: dict, n: int, depth: int, p: Fraction,
                                                        faces: set) -> None:
    die = Dist.from_weights(weights)
    with state_limit(20_000):
        made = [die, successes(n, p), pool_counts(n, die), multiset(min(n, 4), die),
                keep_highest(n, die, min(n, 2)), explode(die, faces or None, depth), reroll_once(die, faces),
                reroll_up_to(n, depth, p), die.sum_n(n), die.then(lambda x: Dist.uniform(range(abs(x) + 1))),
                Dist.mixture([die, d(6)], [1, n + 1]), Dist.bernoulli(p, 1, 1), die.condition(lambda x: x == max(weights)),
                die.joint(die).marginal(0)]
    for dist in made:
        assert_probability_distribution(dist)


# ------------------------------------------------------------------ no code execution
FORBIDDEN = re.compile(r"(?<![\w.])(eval|exec)\s*\(|\bpickle\b|\bmarshal\b|\bshelve\b|\byaml\.load\s*\(|\bdill\b"
                       r"|__import__\s*\(")


def test_no_code_execution_from_user_text() -> None:
    """Profiles, queries, grids and samples are data: the package never evaluates text."""
    hits = []
    for path in sorted((ROOT / "exactodds").rglob("*.py")):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if FORBIDDEN.search(line):
                hits.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not hits, "code execution from text is not allowed:\n" + "\n".join(hits)


def test_the_forbidden_pattern_catches_what_it_should() -> None:
    for bad in ("x = eval(text)", "exec(code)", "import pickle", "pickle.loads(b)", "yaml.load(f)",
                "builtins.__import__('os')", "import marshal"):
        assert FORBIDDEN.search(bad), bad
    for fine in ("evaluate(x)", "self.executor(x)", "df.eval_step", "literal = 1", "tomllib.loads(text)"):
        assert not FORBIDDEN.search(fine), fine
