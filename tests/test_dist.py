"""Exact tests of Dist: constructors, statistics, transforms, exports."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from exactodds import Dist, InputError, TooLargeError, d, d6, state_limit
from tests.brute import as_fractions, enumerate_rolls


def test_uniform_die_and_sum_against_enumeration() -> None:
    assert as_fractions(d6 + d6) == enumerate_rolls(2, sum)
    assert as_fractions(d6.sum_n(3)) == enumerate_rolls(3, sum)
    assert (d6 + d6).at_least(8) == F(5, 12)


@given(st.integers(0, 4), st.integers(2, 6))
def test_sum_n_matches_enumeration(n: int, sides: int) -> None:
    assert as_fractions(d(sides).sum_n(n)) == enumerate_rolls(n, sum, sides)


@given(st.integers(0, 60), st.fractions(0, 1, max_denominator=12))
def test_binomial_closed_form_matches_repeated_sum(n: int, p: F) -> None:
    closed = Dist.binomial(n, p)
    assert closed == Dist.bernoulli(p).sum_n(n)
    assert closed.total_probability() == 1
    assert closed.mean() == n * p
    assert closed.var() == n * p * (1 - p)


def test_statistics_are_exact() -> None:
    two = d6 + d6
    assert two.mean() == 7
    assert two.var() == F(35, 6)
    assert two.cdf(7) == F(21, 36)
    assert two.sf(7) == F(15, 36)
    assert two.at_most(2) == F(1, 36)
    assert two.ppf(F(1, 2)) == 7
    assert two.median() == 7
    assert two.mode() == 7
    assert two.std() == math.sqrt(35 / 6) and isinstance(two.std(), float)
    assert str(two.std_exact()) == "sqrt(210)/6"
    assert two.pmf(13) == 0
    assert two.prob(lambda x: x % 2 == 0) == F(1, 2)


def test_weights_are_reduced_so_equality_is_structural() -> None:
    a = Dist.from_weights({1: 2, 2: 4})
    b = Dist.from_probs({1: F(1, 3), 2: F(2, 3)})
    assert a == b and hash(a) == hash(b)
    assert a.denominator == 3
    assert Dist({1: "1/3", 2: "2/3"}) == a



def test_weights_from_a_dict_of_positive_ints_are_copied_reduced_in_order() -> None:
    weights = {"b": 6, "a": 9, "c": 3}
    dist = Dist.from_weights(weights)
    assert list(dist.weights().items()) == [("b", 2), ("a", 3), ("c", 1)] and dist.denominator == 6
    weights["d"] = 3  # the Dist keeps its own table
    assert dist.weights() == {"b": 2, "a": 3, "c": 1}
    # zero weights and pairs take the checked path, with the same answer
    assert Dist.from_weights({"b": 6, "x": 0, "a": 9, "c": 3}) == dist
    assert Dist.from_weights([("b", 4), ("a", 6), ("c", 2)]) == dist
    big = 2**200
    assert Dist.from_weights({1: big * 5, 2: big * 7}).weights() == {1: 5, 2: 7}
    with pytest.raises(InputError, match="negative"):
        Dist.from_weights({1: 2, 2: -1})
    with pytest.raises(InputError, match="must be an integer, not True"):
        Dist.from_weights({1: True, 2: 1})

def test_then_is_a_markov_kernel() -> None:
    # a d6 telling how many d6 to roll, summed: against direct enumeration
    mixed = d6.then(lambda k: d6.sum_n(k))
    brute: dict = {}
    for k in range(1, 7):
        for total, p in enumerate_rolls(k, sum).items():
            brute[total] = brute.get(total, 0) + p / 6
    assert as_fractions(mixed) == brute


def test_then_with_join_is_then_of_the_mapped_kernel() -> None:
    # join(x, y) in place of y: the same Dist as mapping each kernel answer first, merged images too
    def kernel(k: int) -> Dist:
        return d6.sum_n(k)

    joined = d6.then(kernel, lambda k, total: (k % 2, total // 3))
    assert joined == d6.then(lambda k: kernel(k).map(lambda total: (k % 2, total // 3)))
    assert Dist.constant(2).then(kernel) == d6.sum_n(2)   # a certain state: the kernel's answer
    assert Dist.constant(2).then(lambda k: k + 1) == Dist.constant(3)


def test_mixture_is_a_die_of_dice() -> None:
    m = Dist.mixture([d(4), d(6)])
    assert m.pmf(1) == F(1, 2) * F(1, 4) + F(1, 2) * F(1, 6)
    assert m.pmf(6) == F(1, 12)


def test_joint_marginal_condition() -> None:
    j = d6 @ d(4)
    assert len(j) == 24
    assert j.marginal(0) == d6 and j.marginal(1) == d(4)
    c = (d6 + d6).condition(lambda x: x >= 11)
    assert c.to_fractions() == {11: F(2, 3), 12: F(1, 3)}
    with pytest.raises(InputError):
        d6.condition(lambda x: x > 6)


def test_exports() -> None:
    assert d6.to_float()[3] == pytest.approx(1 / 6)
    import sympy

    assert d6.to_sympy()[1] == sympy.Rational(1, 6)
    assert d6.support() == [1, 2, 3, 4, 5, 6]


def test_sample_is_reproducible_and_exactly_supported() -> None:
    a = (d6 + d6).sample(500, seed=7)
    assert a == (d6 + d6).sample(500, seed=7)
    assert set(a) <= set(range(2, 13))
    assert a != (d6 + d6).sample(500, seed=8)


@given(st.dictionaries(st.integers(-5, 5), st.integers(1, 50), min_size=1, max_size=6))
def test_total_probability_is_one(weights: dict) -> None:
    dist = Dist.from_weights(weights)
    assert dist.total_probability() == 1
    assert sum(p for _, p in dist.items()) == 1
    assert math.gcd(dist.denominator, *dist.weights().values()) == 1


@pytest.mark.parametrize(
    "bad",
    [lambda: Dist.from_probs({1: 0.5, 2: 0.5}), lambda: Dist.from_probs({1: F(1, 3)}),
     lambda: Dist.from_weights({}), lambda: Dist.from_weights({1: -1}), lambda: Dist.binomial(-1, F(1, 2)),
     lambda: Dist.bernoulli(F(3, 2)), lambda: d(0)],
)
def test_bad_constructions_are_input_errors(bad) -> None:  # type: ignore[no-untyped-def]
    with pytest.raises(InputError):
        bad()


def test_size_limit_refuses_before_working() -> None:
    with state_limit(100), pytest.raises(TooLargeError, match="over the limit of 100"):
        d6.sum_n(1000)


def test_the_names_of_tail_probabilities() -> None:
    # at_least: P(X >= x); at_most and cdf: P(X <= x); sf: P(X > x), strictly, as scipy.stats
    two = d6 + d6
    assert two.at_least(7) == F(21, 36)
    assert two.sf(7) == F(15, 36)
    assert two.sf(6) == two.at_least(7)
    assert two.at_most(7) == two.cdf(7) == F(21, 36)
    assert two.cdf(7) + two.sf(7) == 1
    assert not hasattr(two, "survival") and not hasattr(two, "outcomes") and not hasattr(two, "bind")


def test_sf_and_cdf_agree_with_scipy() -> None:
    from scipy import stats

    die = stats.randint(1, 7)
    for x in range(0, 8):
        assert float(d6.cdf(x)) == pytest.approx(die.cdf(x))
        assert float(d6.sf(x)) == pytest.approx(die.sf(x))


def test_expect_is_an_exact_expectation_of_a_function() -> None:
    two = d6 + d6
    assert two.expect() == two.mean() == 7
    assert two.expect(lambda x: x * x) == F(329, 6)
    assert two.expect(lambda x: x >= 10) == two.at_least(10) == F(1, 6)
    assert two.expect(lambda x: F(1, x)) == sum(F(1, x) * p for x, p in two.items())
    with pytest.raises(InputError, match="expect needs a function giving exact numbers"):
        two.expect(lambda x: x / 2)
    with pytest.raises(InputError, match="expect needs a function"):
        two.expect(3)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="the mean needs exact numeric outcomes"):
        Dist.uniform("ab").mean()


def test_binomial_of_a_count_too_long_to_write_is_refused_naming_the_bound() -> None:
    with state_limit(2_000_000), pytest.raises(TooLargeError) as e:
        Dist.binomial(10**5000, F(1, 2))
    assert str(e.value) == ("the successes of about 10^5,000 trials would need more than 2,000,000 states, over "
                            "the limit; raise it with the environment variable EXACTODDS_MAX_STATES if you have "
                            "the memory and time")
    assert isinstance(e.value, ValueError)


def test_support_is_sorted_once_and_each_call_gets_its_own_list() -> None:
    d = Dist.from_weights({(2, "b"): 1, 3: 2, (1, "a"): 3, "x": 1, 1: 1})
    first = d.support()
    assert first == [1, 3, "x", (1, "a"), (2, "b")]
    first.append("not an outcome")
    assert d.support() == [1, 3, "x", (1, "a"), (2, "b")]
    assert d.support() is not d.support()
