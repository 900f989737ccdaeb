"""Joint counts of two face attributes and reroll budgets (exactodds.dice.attributes, .budget),
checked exactly against independent enumerations of raw rolls."""

from __future__ import annotations

import itertools
import math
from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, d, d6
from exactodds.core import InputError, TooLargeError, state_limit
from exactodds.dice.attributes import (
    FaceClasses,
    attribute_count_split,
    attribute_count_table,
    attribute_counts,
    margin_weights,
    second_at_least_weights,
)
from exactodds.dice.budget import (
    BudgetState,
    RerollChoice,
    ThresholdPayoff,
    budget_split,
    budget_split_dist,
    first_roll_states,
    optimal_policy,
    priority_policy,
)
from tests.brute import enumerate_rolls

faces = st.frozensets(st.integers(1, 6))


def weighted_rolls(n: int, weights: dict[int, int]):  # type: ignore[no-untyped-def]
    """Every roll of n dice with face weights (a loaded die), with its weight: brute force."""
    for roll in itertools.product(list(weights), repeat=n):
        yield roll, math.prod(weights[f] for f in roll)


# ------------------------------------------------------------- joint counts
@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 4), first=faces, second=faces, difference=st.booleans())
def test_joint_counts_equal_brute_force(n: int, first: frozenset, second: frozenset, difference: bool) -> None:
    got = attribute_counts(n, d6, first.__contains__, second.__contains__, difference=difference)

    def outcome(r: tuple) -> tuple:
        b = sum(f in second for f in r)
        return (sum(f in first for f in r), 2 * b - n if difference else b)

    assert got.to_fractions() == enumerate_rolls(n, outcome)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(0, 4), first=faces, second=faces, at_least=st.integers(-1, 5))
def test_split_equals_brute_force(n: int, first: frozenset, second: frozenset, at_least: int) -> None:
    got = attribute_count_split(n, d6, first.__contains__, second.__contains__, at_least)
    expected = enumerate_rolls(n, lambda r: (sum(f in first for f in r), sum(f in second for f in r) >= at_least))
    assert got.to_fractions() == expected


@settings(max_examples=60, deadline=None)
@given(n=st.integers(0, 5), w=st.tuples(*[st.integers(0, 3)] * 4), s=st.integers(-2, 7), width=st.integers(0, 3))
def test_tables_with_empty_classes_equal_brute_force(n: int, w: tuple, s: int, width: int) -> None:
    """Any class may be empty (c0 = 0, c1 = 0, no face with the second attribute...):
    every branch of the row recurrence and of the packed tail."""
    classes = FaceClasses(*w)
    # a loaded 4-faced die: face 0 = neither, 1 = first only, 2 = second only, 3 = both
    weights = {face: wt for face, wt in enumerate(w)}
    joint: dict = {}
    buckets: dict = {}
    for roll, wt in weighted_rolls(n, weights):
        a = sum(f & 1 for f in roll)
        m = sum(f >> 1 for f in roll)
        joint[a, m] = joint.get((a, m), 0) + wt
        j = max(-width - 1, min(width, m - s)) + width + 1
        buckets[a, j] = buckets.get((a, j), 0) + wt
    rows = attribute_count_table(n, classes)
    assert {(a, m): v for m, row in enumerate(rows) for a, v in enumerate(row) if v} == \
        {k: v for k, v in joint.items() if v}
    table = margin_weights(n, classes, s, width)
    assert {(a, j): v for a, row in enumerate(table) for j, v in enumerate(row) if v} == \
        {k: v for k, v in buckets.items() if v}
    tail = second_at_least_weights(n, classes, s)
    assert tail == [sum(v for (a2, m), v in joint.items() if a2 == a and m >= s) for a in range(n + 1)]


def test_worked_example_figures_and_identities_at_60_dice() -> None:
    """Marginals of the joint are the binomials; the split is the joint summed."""
    n = 60
    first, second = (lambda f: f >= 5), (lambda f: f % 2 == 0)
    joint = attribute_counts(n, d6, first, second)
    assert joint.marginal(0) == Dist.binomial(n, F(1, 3))
    assert joint.marginal(1) == Dist.binomial(n, F(1, 2))
    split = attribute_count_split(n, d6, first, second, 30)
    assert split == joint.map(lambda o: (o[0], o[1] >= 30))
    diff = attribute_counts(n, d6, first, second, difference=True)
    assert diff == joint.map(lambda o: (o[0], 2 * o[1] - n))


def test_other_dice_and_face_classes() -> None:
    d8 = d(8)
    got = attribute_counts(3, d8, lambda f: f > 6, lambda f: f % 3 == 0)
    assert got.to_fractions() == enumerate_rolls(3, lambda r: (sum(f > 6 for f in r), sum(f % 3 == 0 for f in r)), 8)
    assert FaceClasses.of_die(d6, lambda f: f >= 5, lambda f: f % 2 == 0) == FaceClasses(2, 1, 2, 1)
    assert FaceClasses(2, 1, 2, 1).without("both") == FaceClasses(2, 1, 2, 0)
    with pytest.raises(InputError, match="unknown face class"):
        FaceClasses(2, 1, 2, 1).without("odd")


def test_bad_input_and_size_limit() -> None:
    with pytest.raises(InputError, match="0 or more"):
        attribute_counts(-1, d6, bool, bool)
    with pytest.raises(InputError, match="whole number >= 0"):
        attribute_count_table(3, FaceClasses(1, -1, 0, 0))
    with pytest.raises(InputError, match="FaceClasses"):
        attribute_count_table(3, (1, 1, 1, 1))  # type: ignore[arg-type]
    with pytest.raises(InputError, match="whole number"):
        attribute_count_split(3, d6, bool, bool, 1.5)  # type: ignore[arg-type]
    with state_limit(100), pytest.raises(TooLargeError, match="over the limit"):
        attribute_counts(20, d6, bool, bool)


# -------------------------------------------------------------- budgets
def brute_states(n: int, hit: int, s: int, k: int) -> dict:
    out: dict = {}
    for r in itertools.product(range(1, 7), repeat=n):
        even = sum(f % 2 == 0 for f in r)
        fe = sum(f < hit and f % 2 == 0 for f in r)
        fo = sum(f < hit and f % 2 == 1 for f in r)
        state = BudgetState(sum(f >= hit for f in r), max(-k - 1, min(k, even - s)), min(fe, k), min(fo, k))
        out[state] = out.get(state, 0) + F(1, 6 ** n)
    return out


def brute_split(n: int, hit: int, s: int, choose) -> dict:  # type: ignore[no-untyped-def]
    """Final (hits, even >= s): ``choose(roll)`` lists the indices to reroll."""
    out: dict = {}
    for r in itertools.product(range(1, 7), repeat=n):
        picked = choose(r)
        for again in itertools.product(range(1, 7), repeat=len(picked)):
            final = list(r)
            for i, v in zip(picked, again):
                final[i] = v
            key = (sum(f >= hit for f in final), sum(f % 2 == 0 for f in final) >= s)
            out[key] = out.get(key, 0) + F(1, 6 ** (n + len(picked)))
    return out


def in_order(first_odd: bool, k: int, hit: int):  # type: ignore[no-untyped-def]
    def choose(r: tuple) -> list:
        odd = [i for i, f in enumerate(r) if f < hit and f % 2]
        even = [i for i, f in enumerate(r) if f < hit and f % 2 == 0]
        order = odd + even if first_odd else even + odd
        return order[:k]
    return choose


@pytest.mark.parametrize("n", [0, 1, 2, 3])
@pytest.mark.parametrize("k", [0, 1, 2, 4])
def test_budget_states_and_priority_policies_equal_brute_force(n: int, k: int) -> None:
    for hit in (2, 4, 5, 7):
        w = FaceClasses.of_die(d6, lambda f, h=hit: f >= h, lambda f: f % 2 == 0)
        for s in (0, (n + 1) // 2, n + 1):
            states = first_roll_states(n, w, s, k)
            assert {st_: F(v, 6 ** n) for st_, v in states.items()} == brute_states(n, hit, s, k)
            for first_odd, kind in ((True, "other"), (False, "second")):
                got = budget_split_dist(n, d6, lambda f, h=hit: f >= h, lambda f: f % 2 == 0, s, k,
                                        priority_policy(k, kind))
                assert got.to_fractions() == {key: p for key, p in brute_split(n, hit, s, in_order(first_odd, k, hit)).items()
                                              if p}


def test_budget_of_all_dice_is_reroll_all() -> None:
    from exactodds.dice import reroll_once

    n, hit = 5, 4
    die = reroll_once(d6, lambda f: f < hit).map(lambda r: r.face)
    expected = attribute_count_split(n, die, lambda f: f >= hit, lambda f: f % 2 == 0, 3)
    got = budget_split_dist(n, d6, lambda f: f >= hit, lambda f: f % 2 == 0, 3, n, priority_policy(n, "other"))
    assert got == expected


def test_optimal_policy_equals_subset_search() -> None:
    """Brute force: every subset of failed dice of size <= k, best expected payoff
    by enumerating the rerolls; ties to fewer dice, then fewer even dice."""
    n, hit, k, s = 3, 5, 2, 2
    w = FaceClasses.of_die(d6, lambda f: f >= hit, lambda f: f % 2 == 0)
    payoffs = [ThresholdPayoff(lambda h: int(h >= 1), lambda h: 0), ThresholdPayoff(lambda h: h, lambda h: 0)]
    policy = optimal_policy(n, w, k, payoffs)

    def value(r: tuple, subset: tuple) -> tuple:
        total = [F(0), F(0)]
        for again in itertools.product(range(1, 7), repeat=len(subset)):
            final = list(r)
            for i, v in zip(subset, again):
                final[i] = v
            h = sum(f >= hit for f in final)
            ok = sum(f % 2 == 0 for f in final) >= s
            for j, p in enumerate(payoffs):
                total[j] += F(p.at_least(h) if ok else p.below(h), 6 ** len(subset))
        return tuple(total)

    def choose(r: tuple) -> list:
        failed = [i for i, f in enumerate(r) if f < hit]
        best = None
        for size in range(min(k, len(failed)) + 1):
            for subset in itertools.combinations(failed, size):
                key = (value(r, subset), -size, -sum(r[i] % 2 == 0 for i in subset))
                if best is None or key > best[0]:
                    best = (key, subset)
        return list(best[1])

    got = Dist.from_weights(budget_split(n, w, s, k, policy))
    assert got.to_fractions() == brute_split(n, hit, s, choose)
    for state, choice in policy.decisions.items():
        assert choice.second <= state.failed_second and choice.other <= state.failed_other and choice.total <= k


def test_policy_errors() -> None:
    w = FaceClasses(2, 1, 2, 1)
    with pytest.raises(InputError, match="first_kind"):
        priority_policy(1, "odd")
    with pytest.raises(InputError, match="reroll policy chose"):
        budget_split(3, w, 2, 1, lambda state: RerollChoice(2, 0))
    with pytest.raises(InputError, match="at least one payoff"):
        optimal_policy(3, w, 1, [])
    with state_limit(1000), pytest.raises(TooLargeError, match="optimal reroll search"):
        optimal_policy(100, w, 3, [ThresholdPayoff(lambda h: h, lambda h: 0)])
