"""Power: how many samples it takes to catch a given simulator bug.

Give the exact distribution and the distribution a buggy simulator really
draws from (both exact :class:`~exactodds.core.Dist`); the figures follow
the tests :func:`~exactodds.validation.validate` runs:

- :func:`effect_size`: Cohen's ``w^2 = sum_x (q(x) - p(x))^2 / p(x)`` over
  the exact outcomes (an exact Fraction), and the buggy mass on impossible
  outcomes;
- :func:`detection_power`: the probability that ``validate`` rejects ``n``
  samples of the buggy simulator: exact for two outcomes (the rejection
  region of :func:`scipy.stats.binomtest`, weighed by
  :func:`scipy.stats.binom`), otherwise the noncentral chi-square
  approximation (:func:`scipy.stats.ncx2`, noncentrality ``n w^2``), with the
  mean test for ordered outcomes and the chance of drawing an impossible
  outcome;
- :func:`samples_needed`: the smallest ``n`` whose approximate power
  reaches the target (noncentral chi-square for every number of outcomes).
"""

from __future__ import annotations

import math
from fractions import Fraction

from ..core import Dist, InputError
from .gof import MEAN_TEST_MIN_N, is_ordered


def effect_size(exact: Dist, wrong: Dist) -> tuple[Fraction, Fraction]:
    """``(w^2, impossible mass)``: Cohen's squared effect size over the exact
    outcomes, and the probability the buggy simulator gives an impossible outcome."""
    w2 = sum(((wrong.pmf(x) - p) ** 2 / p for x, p in exact.items()), Fraction(0))
    impossible = sum((q for x, q in wrong.items() if x not in exact), Fraction(0))
    return w2, impossible


def binomial_test_power(p0: Fraction | float, p1: Fraction | float, n: int, alpha: float = 0.05) -> float:
    """Exact power of the two-sided :func:`scipy.stats.binomtest` at level ``alpha``.

    The test rejects counts far from ``n p0``; its p-value grows towards
    the mode from either side, so each side's boundary is found by
    bisection (O(log n) calls to binomtest) and the power is the
    Binomial(n, p1) probability of the rejection region.
    """
    from scipy.stats import binom, binomtest  # type: ignore[import-untyped,import-not-found,unused-ignore]

    p0, p1 = float(p0), float(p1)
    mode = min(n, max(0, math.floor((n + 1) * p0)))

    def rejects(k: int) -> bool:
        return binomtest(k, n, p0).pvalue <= alpha

    lo_edge = -1  # the largest rejected count at or below the mode
    if rejects(0):
        a, b = 0, mode  # rejects(a), and the answer is in [a, b]
        while a < b:
            mid = (a + b + 1) // 2
            if rejects(mid):
                a = mid
            else:
                b = mid - 1
        lo_edge = a
    hi_edge = n + 1  # the smallest rejected count at or above the mode
    if rejects(n):
        a, b = mode, n
        while a < b:
            mid = (a + b) // 2
            if rejects(mid):
                b = mid
            else:
                a = mid + 1
        hi_edge = a
    power = (binom.cdf(lo_edge, n, p1) if lo_edge >= 0 else 0.0) + (
        binom.sf(hi_edge - 1, n, p1) if hi_edge <= n else 0.0)
    return float(power)


def _tests_power(exact: Dist, wrong: Dist, n: int, alpha: float, exact_binomial: bool) -> float:
    """Power of the tests validate runs (ignoring impossible outcomes)."""
    from scipy.stats import chi2, ncx2, norm

    k = len(exact)
    if k == 1:
        return 0.0
    w2, impossible = effect_size(exact, wrong)
    if k == 2:
        x = exact.support()[1]
        q = wrong.pmf(x) / (1 - impossible) if impossible < 1 else exact.pmf(x)
        if exact_binomial:
            return binomial_test_power(exact.pmf(x), q, n, alpha)
        return float(ncx2.sf(chi2.isf(alpha, 1), 1, n * float(w2)))
    ordered = is_ordered(exact) and n >= MEAN_TEST_MIN_N
    level = alpha / 2 if ordered else alpha
    chi_power = float(ncx2.sf(chi2.isf(level, k - 1), k - 1, n * float(w2)))
    if not ordered:
        return chi_power
    possible = wrong.condition(lambda x: x in exact) if impossible < 1 else exact
    delta = float(possible.mean() - exact.mean())
    s0, s1 = math.sqrt(float(exact.var())), math.sqrt(float(possible.var())) or 1e-300
    z = norm.isf(level / 2)
    shift = abs(delta) * math.sqrt(n)
    mean_power = float(norm.sf((z * s0 - shift) / s1) + norm.cdf((-z * s0 - shift) / s1))
    return max(chi_power, mean_power)


def detection_power(exact: Dist, wrong: Dist, n: int, alpha: float = 0.05) -> float:
    """Probability that ``validate`` rejects ``n`` samples drawn from ``wrong``.

    Exact for two outcomes (exact binomial test); otherwise the noncentral
    chi-square approximation, the better of it and the mean test for
    ordered outcomes (a lower bound on "either test rejects"), combined
    with the chance that an impossible outcome shows up (immediate
    rejection).
    """
    _check(n, alpha)
    _, impossible = effect_size(exact, wrong)
    miss = (1 - float(impossible)) ** n
    return 1 - miss * (1 - _tests_power(exact, wrong, n, alpha, exact_binomial=True))


def samples_needed(exact: Dist, wrong: Dist, alpha: float = 0.05, power: float = 0.8) -> int:
    """The smallest ``n`` at which ``validate`` catches ``wrong`` with probability ``power``.

    Uses the noncentral chi-square approximation for every number of
    outcomes (it grows with n, so bisection finds the edge; the exact
    binomial test's power zig-zags around it by a few points: check with
    :func:`detection_power`). An InputError when the two distributions are
    the same (no sample size detects no bug).
    """
    if not 0 < power < 1:
        raise InputError(f"power must be between 0 and 1, not {power}")
    _check(1, alpha)
    w2, impossible = effect_size(exact, wrong)
    if w2 == 0 and impossible == 0:
        raise InputError("the two distributions are the same: no number of samples tells them apart")

    def approx(n: int) -> float:
        return 1 - (1 - float(impossible)) ** n * (1 - _tests_power(exact, wrong, n, alpha, exact_binomial=False))

    hi = 1
    while approx(hi) < power:
        hi *= 2
        if hi > 10**15:
            raise InputError("the bug is too small to detect with any practical number of samples")
    lo = hi // 2  # approx(lo) < power or lo == 0
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if approx(mid) >= power:
            hi = mid
        else:
            lo = mid
    return hi


def _check(n: int, alpha: float) -> None:
    if isinstance(n, bool) or not isinstance(n, int) or n < 1:
        raise InputError(f"n must be a whole number 1 or more, not {n!r}")
    if not 0 < alpha < 1:
        raise InputError(f"alpha must be between 0 and 1, not {alpha}")
