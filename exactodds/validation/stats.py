"""The few statistical functions ``validate`` needs, from :mod:`scipy.special` only.

``import scipy.stats`` takes most of a second (several seconds on a cold
disk) and pulls in scipy.optimize, scipy.sparse and scipy.linalg; the
special functions behind the tests take a fraction of that. Each function
here computes exactly what the named :mod:`scipy.stats` function computes
(the same special functions, the same edge cases, the same order of
floating-point operations), so p-values are bit for bit the same
(``tests/test_validation.py`` compares them over many cases):

- :func:`binomtest_pvalue`: ``scipy.stats.binomtest(k, n, p).pvalue`` (two-sided);
- :func:`power_divergence`: ``scipy.stats.power_divergence(obs, exp, lambda_=...)``;
- :func:`norm_sf`: ``scipy.stats.norm.sf``.

:func:`clopper_pearson` and :func:`noncentrality` solve in closed form
(inverse incomplete beta, inverse noncentral chi-square) what scipy.stats
finds with a root finder; they agree to about 1e-9, far below the digits
shown.

Everything is imported inside the functions: importing this module costs nothing.
"""

from __future__ import annotations

import math
from typing import Any


def _binom() -> tuple[Any, Any, Any]:
    """The binomial pmf, cdf and sf ufuncs scipy.stats.binom uses (scipy.special's private ones)."""
    try:
        from scipy.special._ufuncs import _binom_cdf, _binom_pmf, _binom_sf  # type: ignore[import-untyped,import-not-found,unused-ignore]
    except ImportError:  # an older or newer scipy without them: the public (slower to import) route
        from scipy.stats import binom  # type: ignore[import-untyped,import-not-found,unused-ignore]

        return binom.pmf, binom.cdf, binom.sf
    return _binom_pmf, _binom_cdf, _binom_sf


def _clip(x: float) -> float:
    return min(1.0, max(0.0, float(x)))


def binomtest_pvalue(k: int, n: int, p: float) -> float:
    """The two-sided exact binomial test's p-value, as :func:`scipy.stats.binomtest`.

    The p-value sums the probabilities of every count no more likely than
    ``k`` (with scipy's relative tolerance of 1e-7 on "no more likely"):
    one tail up to ``k``, the other found by bisection. ``0 < p < 1``.
    """
    pmf_, cdf_, sf_ = _binom()

    def pmf(x: float) -> float:
        return _clip(pmf_(x, n, p)) if 0 <= x <= n else 0.0

    def cdf(x: float) -> float:
        return 1.0 if x >= n else (0.0 if x < 0 else _clip(cdf_(math.floor(x), n, p)))

    def sf(x: float) -> float:
        return 0.0 if x >= n else (1.0 if x < 0 else _clip(sf_(math.floor(x), n, p)))

    d = pmf(k)
    rerr = 1 + 1e-7
    if k == p * n:
        return 1.0
    if k < p * n:
        ix = _search(lambda x: -pmf(x), -d * rerr, math.ceil(p * n), n)
        y = n - ix + int(d * rerr == pmf(ix))
        pval = cdf(k) + sf(n - y)
    else:
        ix = _search(pmf, d * rerr, 0, math.floor(p * n))
        y = ix + 1
        pval = cdf(y - 1) + sf(k - 1)
    return min(1.0, pval)


def _search(a: Any, d: float, lo: int, hi: int) -> int:
    """The index ``i`` in ``[lo, hi]`` with ``a(i) <= d < a(i + 1)`` (``a`` increasing)."""
    while lo < hi:
        mid = lo + (hi - lo) // 2
        value = a(mid)
        if value < d:
            lo = mid + 1
        elif value > d:
            hi = mid - 1
        else:
            return mid
    return lo if a(lo) <= d else lo - 1


def clopper_pearson(k: int, n: int, confidence: float) -> tuple[float, float]:
    """The exact (Clopper-Pearson) two-sided interval of a binomial chance
    from ``k`` successes in ``n`` trials: the chances at which ``P(X >= k)``,
    resp. ``P(X <= k)``, is ``(1 - confidence) / 2`` (inverse incomplete beta)."""
    from scipy.special import betainccinv, betaincinv  # type: ignore[import-untyped,import-not-found,unused-ignore]

    alpha = (1 - confidence) / 2
    low = 0.0 if k == 0 else float(betaincinv(k, n - k + 1, alpha))
    high = 1.0 if k == n else float(betainccinv(k + 1, n - k, alpha))
    return low, high


def power_divergence(observed: list[int], expected: list[float], statistic: str) -> tuple[float, float]:
    """``(statistic, p-value)`` of Pearson's chi-square (``"pearson"``) or the
    G-test (``"g"``), as :func:`scipy.stats.power_divergence` with
    ``lambda_="pearson"`` or ``"log-likelihood"``: numpy's (pairwise) sum of
    the terms, and the chi-square survival function with ``len - 1``
    degrees of freedom."""
    import numpy as np
    from scipy.special import chdtrc, xlogy

    obs = np.asarray(observed, dtype=np.float64)
    exp = np.asarray(expected, dtype=np.float64)
    terms = (obs - exp) ** 2 / exp if statistic == "pearson" else 2.0 * xlogy(obs, obs / exp)
    stat = np.sum(terms)
    df = np.float64(len(observed)) - 1 - np.float64(0)
    return float(stat), float(chdtrc(df, stat))


def norm_sf(z: float) -> float:
    """P(Z > z) for a standard normal Z, as :func:`scipy.stats.norm.sf`."""
    from scipy.special import ndtr

    return float(ndtr(-z))


def chi2_isf(q: float, df: int) -> float:
    """The chi-square quantile with upper tail ``q``, as :func:`scipy.stats.chi2.isf`."""
    from scipy.special import chdtri

    return float(chdtri(df, q))


def noncentrality(df: int, alpha: float, power: float) -> float:
    """The noncentrality at which a chi-square test with ``df`` degrees of
    freedom at level ``alpha`` rejects with probability ``power``: the
    ``lambda`` with ``P(noncentral chi-square(df, lambda) > crit) = power``."""
    from scipy.special import chndtrinc

    return float(chndtrinc(chi2_isf(alpha, df), df, 1 - power))
