"""Goodness-of-fit tests of samples against an exact distribution.

Which test, and why (the choice is reported with the result):

- **one possible outcome**: nothing to test (any possible sample agrees);
- **two possible outcomes**: the count of one is exactly Binomial(n, p), so
  the exact binomial test (:func:`scipy.stats.binomtest`'s p-value) applies at any n;
  it is also the test of a shifted mean;
- **few samples** (at most :data:`EXACT_MAX_VECTORS` count vectors): the
  exact multinomial test: the p-value is the exact probability of every
  count vector no more likely than the observed one, from the project's
  exact multinomial (:func:`exactodds.dice.pool_counts`, integers, so ties
  are exact);
- **otherwise**: Pearson's chi-square (or the G-test) via
  :func:`scipy.stats.power_divergence`, after pooling outcomes of expected
  count below :data:`MIN_EXPECTED` (Cochran's rule) with their neighbours
  (ordered outcomes) or into one "other" cell; the pooled outcomes are
  named;
- **few samples over many outcomes** (too many count vectors for the exact
  test, too few samples for the chi-square): the exact test on cells pooled
  to an expected count of at least 1 (or more, until it is small enough);
- and for **ordered numeric outcomes** with three or more values, a test
  for a shifted distribution as well: the z-test of the sample mean
  against the exact mean and variance (from n >= :data:`MEAN_TEST_MIN_N`).

With several tests the verdict uses Bonferroni: rejected when a p-value is
below alpha divided by the number of tests, so the false-positive rate stays
at most alpha. An engagement's answer adds each unit's tests (:mod:`.family`),
the whole family corrected by Holm's method instead. Only :mod:`scipy.special` is used (see :mod:`.stats`), imported
inside the functions: ``exactodds validate`` starts without scipy.stats.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from dataclasses import dataclass, field
from fractions import Fraction

from ..core import Dist, InputError, max_states
from ..core.limits import decimal_digits
from ..dice.pool import compositions_count, pool_counts
from .outcomes import outcome_fields, outcome_text
from .samples import Samples
from .stats import binomtest_pvalue, clopper_pearson, noncentrality, norm_sf, power_divergence

MIN_EXPECTED = 5
"""Cells with a smaller expected count are pooled before a chi-square test (Cochran)."""

EXACT_MAX_VECTORS = 50_000
"""The exact multinomial test is used when the samples have at most this many possible count vectors."""

MEAN_TEST_MIN_N = 30
"""The mean z-test (a normal approximation) is run from this many samples."""

STATISTICS = ("pearson", "g")


@dataclass
class TestResult:
    """One test: what it is, why it was chosen, and its figures."""

    name: str
    function: str
    why: str
    statistic: float | None
    statistic_name: str
    p_value: float
    df: int | None = None
    ci: tuple[float, float] | None = None
    """For a binomial test: the confidence interval (level 1 - alpha) of the simulator's chance."""

    def to_json_obj(self) -> dict:
        """A JSON-ready dict."""
        return {"name": self.name, "function": self.function, "why": self.why,
                "statistic_name": self.statistic_name, "statistic": self.statistic,
                "df": self.df, "p_value": self.p_value, "ci": None if self.ci is None else list(self.ci)}


@dataclass
class Cell:
    """A cell of the chi-square test: one outcome, or several pooled."""

    outcomes: list
    p: Fraction
    observed: int
    label: str = ""

    members: list[str] = field(default_factory=list)
    """Labels of the outcomes in a pooled cell."""

    def expected(self, n: int) -> float:
        """Expected count for ``n`` samples."""
        return float(self.p * n)

    def describe(self, most: int = 8) -> str:
        """``other = {a; b; c}`` (at most ``most`` members named, then how many more)."""
        if len(self.members) <= 1:
            return self.label
        shown = "; ".join(self.members[:most])
        more = f"; and {len(self.members) - most} more" if len(self.members) > most else ""
        return f"{self.label} = {{{shown}{more}}}"


@dataclass
class Fit:
    """The tests run on the possible outcomes, and the pooling they used."""

    tests: list[TestResult] = field(default_factory=list)
    pooled: list[Cell] = field(default_factory=list)
    cells: int = 0


def is_ordered(dist: Dist) -> bool:
    """Numeric (integer or fraction) outcomes, which have an order and a mean."""
    return all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for x in dist.support())


def _cells(samples: Samples) -> list[Cell]:
    fields = outcome_fields(samples.dist)
    return [Cell([x], p, samples.observed(x), outcome_text(x, fields)) for x, p in samples.dist.items()]


def pool_cells(cells: list[Cell], n: int, ordered: bool, minimum: float = MIN_EXPECTED) -> list[Cell]:
    """Merge cells until each has an expected count of at least ``minimum``. O(k log k).

    Ordered outcomes: left to right, a cell is closed once it reaches the
    minimum; a short last cell joins the one before (so tails and sparse
    runs merge with their neighbours). Unordered: every small cell goes to
    one "other" cell, which joins the smallest remaining cell if still short.
    """
    def merged(group: list[Cell]) -> Cell:
        outs = [x for c in group for x in c.outcomes]
        labels = [c.label for c in group]
        if len(group) == 1:
            label = labels[0]
        elif ordered:
            label = f"{labels[0]}..{labels[-1]}"
        else:
            label = "other"
        return Cell(outs, sum((c.p for c in group), Fraction(0)), sum(c.observed for c in group), label,
                    [m for c in group for m in (c.members or [c.label])])

    if ordered:
        groups: list[list[Cell]] = []
        current: list[Cell] = []
        for c in cells:
            current.append(c)
            if sum(x.p for x in current) * n >= minimum:
                groups.append(current)
                current = []
        if current:
            if groups:
                groups[-1].extend(current)
            else:
                groups.append(current)
        return [merged(g) for g in groups]
    small = [c for c in cells if c.p * n < minimum]
    big = [c for c in cells if c.p * n >= minimum]
    if not small:
        return list(cells)
    other = small
    if sum(c.p for c in other) * n < minimum and big:
        smallest = min(big, key=lambda c: c.p)
        big.remove(smallest)
        other = other + [smallest]
    return big + [merged(other)]


def binomial_test(successes: int, n: int, p: Fraction, label: str, why: str,
                  confidence: float = 0.95) -> TestResult:
    """Exact two-sided binomial test (the p-value of :func:`scipy.stats.binomtest`,
    computed by :func:`.stats.binomtest_pvalue`), with the Clopper-Pearson
    confidence interval of the simulator's chance."""
    pvalue = binomtest_pvalue(successes, n, float(p))
    return TestResult("exact binomial test", "scipy.stats.binomtest", why, float(successes),
                      f"count of {label}", pvalue, ci=clopper_pearson(successes, n, confidence))


def simplest_fraction(lo: float | Fraction, hi: float | Fraction) -> Fraction:
    """The fraction with the smallest denominator in ``[lo, hi]`` (``lo <= hi``).

    Continued-fraction recursion on exact Fractions: O(log of the
    denominator) steps. Used to name the chance a simulator seems to use.
    """
    lo, hi = Fraction(lo), Fraction(hi)
    whole = math.floor(lo)
    if whole == lo or whole < math.floor(hi):
        return Fraction(whole if whole == lo else whole + 1)
    return whole + 1 / simplest_fraction(1 / (hi - whole), 1 / (lo - whole))


def exact_multinomial_test(probs: list[Fraction], counts: list[int]) -> Fraction:
    """P(a count vector no more likely than ``counts``) under the exact multinomial.

    Exact integers from :func:`~exactodds.dice.pool_counts` (so ties are
    exact): O(C(n+k-1, k-1) * k) for n samples over k cells, then a
    binary search in the sorted weights (kept for the last few
    ``(probs, n)``, so repeated validations of one query are cheap).
    """
    weights, cumulative, denominator = _multinomial_table(tuple(probs), sum(counts))
    observed = _vector_weight(tuple(probs), tuple(counts), denominator)
    at = bisect.bisect_right(weights, observed)
    return Fraction(cumulative[at - 1] if at else 0, denominator)


@functools.lru_cache(maxsize=4)
def _multinomial_table(probs: tuple[Fraction, ...], n: int) -> tuple[list[int], list[int], int]:
    """Sorted weights of every count vector, their running sums, and the denominator."""
    vectors = pool_counts(n, Dist.from_probs(dict(enumerate(probs))), order=list(range(len(probs))))
    weights = sorted(vectors.weights().values())
    return weights, list(itertools.accumulate(weights)), vectors.denominator


def _vector_weight(probs: tuple[Fraction, ...], counts: tuple[int, ...], denominator: int) -> int:
    """The weight (over ``denominator``) of one count vector: n!/prod(c_i!) prod p_i^c_i."""
    p = Fraction(math.factorial(sum(counts)))
    for q, c in zip(probs, counts):
        p = p / math.factorial(c) * q**c
    return int(p * denominator)


def exact_multinomial_cells(cells: list[Cell], why: str) -> TestResult:
    """The exact multinomial test over ``cells`` as a :class:`TestResult`."""
    p = float(exact_multinomial_test([c.p for c in cells], [c.observed for c in cells]))
    return TestResult("exact multinomial test", "exactodds.dice.pool_counts (exact integers)", why, None, "-", p)


def chi_square_test(cells: list[Cell], n: int, statistic: str) -> TestResult:
    """Pearson's chi-square or the G-test (:func:`scipy.stats.power_divergence`,
    computed by :func:`.stats.power_divergence`) on pooled cells."""
    lam = "pearson" if statistic == "pearson" else "log-likelihood"
    observed = [c.observed for c in cells]
    expected = [c.expected(n) for c in cells]
    scale = n / sum(expected)  # float rounding only: the exact expectations sum to n
    expected = [e * scale for e in expected]
    stat, p = power_divergence(observed, expected, statistic)
    name = "Pearson chi-square test" if statistic == "pearson" else "G-test (log-likelihood ratio)"
    return TestResult(name, f"scipy.stats.power_divergence(lambda_={lam!r})", "", float(stat),
                      "chi-square" if statistic == "pearson" else "G", float(p), len(cells) - 1)


def mean_test(dist: Dist, samples: Samples) -> TestResult:
    """Two-sided z-test of the sample mean against the exact mean and variance
    (:func:`scipy.stats.norm`, via :func:`.stats.norm_sf`; the normal
    approximation of the central limit theorem)."""
    n = samples.n_possible
    mu, var = dist.mean(), dist.var()
    total = sum(x * c for x, c in samples.counts.items())
    mean = Fraction(total, n)
    z = float(mean - mu) / math.sqrt(float(var) / n)  # var > 0: called with 3 or more outcomes
    p = 2 * norm_sf(abs(z))
    why = (f"ordered outcomes: a simulator that is off by a shift shows in the mean; the z-test compares the "
           f"sample mean {float(mean):.6g} with the exact mean {mu} ~ {float(mu):.6g} "
           f"(standard error {math.sqrt(float(var) / n):.3g}, normal approximation for n >= {MEAN_TEST_MIN_N})")
    return TestResult("mean z-test", "scipy.stats.norm.sf", why, z, "z", p)


def fit(samples: Samples, statistic: str = "pearson", confidence: float = 0.95) -> Fit:
    """Choose and run the tests on the possible outcomes of ``samples`` (see the module doc)."""
    if statistic not in STATISTICS:
        raise InputError(f"statistic {statistic!r} is not known; use pearson or g")
    dist = samples.dist
    n = samples.n_possible
    cells = _cells(samples)
    k = len(cells)
    ordered = is_ordered(dist)
    out = Fit(cells=k)
    if n == 0:
        return out
    if k == 1:
        out.tests.append(TestResult("none needed", "-", f"the exact distribution has a single outcome "
                                    f"({cells[0].label}); every possible sample agrees with it", None, "-", 1.0))
        return out
    if k == 2:
        a, b = cells
        why = (f"2 possible outcomes: the number of samples showing {b.label} is exactly Binomial({n:,}, {b.p}), "
               "so the exact binomial test applies at any sample size"
               + (" (it is also the test for a shifted mean)" if ordered else ""))
        out.tests.append(binomial_test(b.observed, n, b.p, b.label, why, confidence))
        out.cells = 2
        return out
    limit = min(EXACT_MAX_VECTORS, max_states())
    vectors = compositions_count(n, k)
    if vectors <= limit:
        why = (f"few samples: {n:,} samples over {k} outcomes have {vectors:,} possible count vectors, few "
               "enough to sum the exact multinomial probability of every vector no more likely than the "
               "observed one (no large-sample approximation)")
        out.tests.append(exact_multinomial_cells(cells, why))
    else:
        pooled = pool_cells(cells, n, ordered)
        if len(pooled) >= 3:
            out.pooled = [c for c in pooled if len(c.outcomes) > 1]
            out.cells = len(pooled)
            test = chi_square_test(pooled, n, statistic)
            pooled_note = (f"; outcomes with an expected count below {MIN_EXPECTED} were pooled: "
                           + "; ".join(_short(c) for c in out.pooled)) if out.pooled else (
                f"; every outcome has an expected count of at least {MIN_EXPECTED}, none pooled")
            test.why = (f"{n:,} samples over {k} outcomes: too many count vectors ({_big(vectors)}) for the "
                        f"exact multinomial test, so the pooled chi-square approximation (Cochran: every "
                        f"cell's expected count at least {MIN_EXPECTED}){pooled_note}; "
                        f"{len(pooled) - 1} degrees of freedom")
            out.tests.append(test)
        else:
            _few_samples(out, cells, n, k, ordered, limit, confidence)
    if ordered and n >= MEAN_TEST_MIN_N:
        out.tests.append(mean_test(dist, samples))
    return out


def _few_samples(out: Fit, cells: list[Cell], n: int, k: int, ordered: bool, limit: int,
                 confidence: float) -> None:
    """Few samples over many outcomes: pool to cells of expected count at least 1
    (or more, until the exact multinomial test is small enough) and test exactly."""
    for minimum in (1, 2, 3, 4, MIN_EXPECTED):
        coarse = pool_cells(cells, n, ordered, minimum)
        if compositions_count(n, len(coarse)) <= limit:
            break
    out.pooled = [c for c in coarse if len(c.outcomes) > 1]
    out.cells = len(coarse)
    head = (f"few samples for many outcomes: {n:,} samples over {k} outcomes are too many count vectors "
            f"({_big(compositions_count(n, k))}) for the exact test over every outcome, and too few for the "
            f"chi-square approximation; outcomes were pooled into {len(coarse)} cell(s) of expected count "
            f"at least {minimum}: " + "; ".join(_short(c) for c in coarse))
    if len(coarse) >= 3:
        out.tests.append(exact_multinomial_cells(coarse, head + "; then the exact multinomial test"))
    elif len(coarse) == 2:
        a, b = coarse
        out.tests.append(binomial_test(b.observed, n, b.p, b.label, head + f"; then the exact binomial test of "
                                       f"{b.label} against {a.label}", confidence))
    else:
        out.tests.append(TestResult("none possible", "-", head + "; with a single cell there is nothing to "
                                    "test: draw more samples", None, "-", 1.0))


def _short(cell: Cell) -> str:
    return f"{cell.label} ({len(cell.members)} outcomes)" if cell.label == "other" else cell.label


def _big(count: int) -> str:
    """A count as text: exactly up to 10^9, then ``1.23e+45``, and past 10^300
    ``~1.23e+4567`` (never through a float, which overflows past 10^308, nor ``str``,
    which Python refuses past 4,300 digits). O(digits): the exponent from
    :func:`~exactodds.core.limits.decimal_digits`, three leading digits by integer division."""
    if count <= 10**9:
        return f"{count:,}"
    if count < 10**300:
        return f"{count:.3g}"
    exponent = decimal_digits(count) - 1
    leading = (count * 100 + 10**exponent // 2) // 10**exponent  # three digits, rounded
    if leading >= 1000:
        leading, exponent = leading // 10, exponent + 1
    return f"~{leading // 100}.{leading % 100:02d}e+{exponent}"


def adjusted_residual(observed: int, n: int, p: Fraction) -> float:
    """``(O - E) / sqrt(n p (1 - p))``: about standard normal when the samples agree."""
    e = float(p * n)
    var = float(p * (1 - p) * n)
    if var == 0:
        return 0.0 if observed == e else math.copysign(math.inf, observed - e)
    return (observed - e) / math.sqrt(var)


def detectable_effect(n: int, df: int, alpha: float, power: float = 0.8) -> float:
    """Cohen's ``w = sqrt(sum (q - p)^2 / p)`` that a chi-square test with ``df``
    degrees of freedom at level ``alpha`` detects with probability ``power``
    from ``n`` samples (noncentral chi-square, :func:`scipy.stats.ncx2`)."""
    return math.sqrt(noncentrality_needed(df, alpha, power) / n)


@functools.lru_cache(maxsize=64)
def noncentrality_needed(df: int, alpha: float, power: float = 0.8) -> float:
    """The noncentrality ``lambda = n w^2`` at which the chi-square test at
    level ``alpha`` has the given power (the inverse noncentral chi-square,
    :func:`.stats.noncentrality`)."""
    return noncentrality(df, alpha, power)
