"""Symbolic results: exact polynomials in p, checked against closed forms and raw rolls."""

from __future__ import annotations

import math
from fractions import Fraction as F

import pytest
import sympy
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError, Step, reroll_failed_chance, reroll_up_to, successes
from exactodds.symbolic import SymbolicDist, interpolate, nice, sample_points, symbolic
from tests.brute import as_fractions, enumerate_rolls

p = sympy.Symbol("p")


def same(a: sympy.Expr, b: sympy.Expr) -> bool:
    """Exact polynomial identity."""
    return sympy.expand(a - b) == 0


@pytest.mark.parametrize("n", range(0, 7))
@pytest.mark.parametrize("degree", [None, "n"])
def test_binomial_pmf_is_the_closed_form(n: int, degree: str | None) -> None:
    result = symbolic(lambda q: successes(n, q), p, degree=n if degree else None)
    assert isinstance(result, SymbolicDist)
    assert list(result) == list(range(n + 1))
    for k in range(n + 1):
        assert same(result[k], math.comb(n, k) * p**k * (1 - p) ** (n - k))
    assert same(result.mean(), n * p)
    assert result.degree == n


def test_factored_form_reads_like_the_textbook() -> None:
    result = symbolic(lambda q: successes(3, q), p)
    assert str(result[1]) == "3*p*(1 - p)**2"
    assert str(result[2]) == "3*p**2*(1 - p)"
    assert str(result[0]) == "(1 - p)**3"
    assert str(nice([F(3), F(-3)], p)) == "3*(1 - p)"
    latex = result._repr_latex_()
    assert latex.startswith("$") and r"\left(1 - p\right)^{3}" in latex


def test_reroll_failed_is_p_times_2_minus_p() -> None:
    assert same(symbolic(lambda q: reroll_failed_chance(q), p), 2 * p - p**2)


def test_pipeline_of_two_chances_is_binomial_in_the_product() -> None:
    # hits ~ Bin(4, p), then each hit wounds on 1/2: wounds ~ Bin(4, p/2)
    def run(q: F):
        hit = Step.kernel("hits", lambda shots: Dist.binomial(shots, q))
        wound = Step.kernel("wounds", lambda h: Dist.binomial(h, F(1, 2)))
        return (hit >> wound).run(4)

    result = symbolic(run, "p")
    for k in range(5):
        assert same(result[k], math.comb(4, k) * (p / 2) ** k * (1 - p / 2) ** (4 - k))
    assert same(result.at_least(1), 1 - (1 - p / 2) ** 4)
    assert same(result.at_most(0), (1 - p / 2) ** 4)


@pytest.mark.parametrize("n", [1, 2])
@pytest.mark.parametrize("faces", range(0, 7))
def test_values_at_die_chances_match_raw_rolls(n: int, faces: int) -> None:
    """Reroll every failed die once, success on the top ``faces`` faces: the
    polynomial at p = faces/6 equals the enumeration of all first rolls and rerolls."""
    result = symbolic(lambda q: successes(n, reroll_failed_chance(q)), p)
    t = 7 - faces  # success on t or more

    def outcome(roll: tuple[int, ...]) -> int:
        return sum(roll[i] >= t or roll[n + i] >= t for i in range(n))

    assert as_fractions(result.at(F(faces, 6))) == enumerate_rolls(2 * n, outcome)


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 5), st.integers(0, 5), st.fractions(0, 1, max_denominator=50))
def test_polynomial_reproduces_the_engine_anywhere(n: int, k: int, value: F) -> None:
    result = symbolic(lambda q: reroll_up_to(n, k, q), p)
    assert result.at(value) == reroll_up_to(n, k, value)
    total = sympy.Add(*result.values())
    assert same(total, 1)


def test_outcome_absent_at_the_first_points_is_still_found() -> None:
    # P(1) = (2q - 1)^2 is 0 at q = 1/2, the first sample point
    result = symbolic(lambda q: Dist.from_probs({1: (2 * q - 1) ** 2, 0: 1 - (2 * q - 1) ** 2}), p)
    assert same(result[1], (2 * p - 1) ** 2)
    assert same(result[0], 1 - (2 * p - 1) ** 2)


def test_mappings_and_scalars_are_accepted() -> None:
    assert same(symbolic(lambda q: {"hit": q, "miss": 1 - q}, p)["hit"], p)
    assert symbolic(lambda q: F(1, 3)) == sympy.Rational(1, 3)
    assert same(symbolic(lambda q: q**3, p, degree=5), p**3)


def test_errors_are_clear() -> None:
    with pytest.raises(InputError, match="not a polynomial of degree <= 2"):
        symbolic(lambda q: successes(3, q), p, degree=2)
    with pytest.raises(InputError, match="rational function"):
        symbolic(lambda q: successes(3, q).condition(lambda x: x > 0), p, max_degree=8)
    with pytest.raises(InputError, match="exact number"):
        symbolic(lambda q: float(q), p)
    with pytest.raises(InputError, match="degree must be"):
        symbolic(lambda q: q, p, degree=-1)
    with pytest.raises(InputError, match="sympy Symbol"):
        symbolic(lambda q: q, 3)


def test_sample_points_are_distinct_and_inside() -> None:
    it = sample_points()
    pts = [next(it) for _ in range(200)]
    assert len(set(pts)) == 200 and all(0 < x < 1 for x in pts)
    assert pts[:5] == [F(1, 2), F(1, 3), F(2, 3), F(1, 4), F(3, 4)]


def test_detection_costs_degree_plus_one_plus_check_calls() -> None:
    calls = []
    interpolate(lambda q: calls.append(q) or successes(4, q), check=2)
    assert len(calls) == 4 + 1 + 2
    calls.clear()
    interpolate(lambda q: calls.append(q) or successes(4, q), degree=6)
    assert len(calls) == 6 + 2
