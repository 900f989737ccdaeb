"""Distances between distributions, exact: total variation, Kolmogorov-Smirnov,
Cramér-von Mises.

Each takes two of: a :class:`~exactodds.core.Dist`, :class:`Samples` (a
simulator's outcomes read from a file), a ``{outcome: count}`` mapping, or a
list of outcomes. Samples become their empirical distribution (exact
fractions over the number of samples), so every result is a
:class:`~fractions.Fraction`.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping
from fractions import Fraction
from typing import Any

from ..core import Dist, InputError
from .samples import Samples

Comparable = Dist | Samples | Mapping | Iterable


def as_dist(x: Any, what: str = "argument") -> Dist:
    """A Dist from a Dist, Samples, ``{outcome: count or probability}`` or a list of outcomes."""
    if isinstance(x, Dist):
        return x
    if isinstance(x, Samples):
        return x.empirical()
    if isinstance(x, Mapping):
        if all(isinstance(v, int) and not isinstance(v, bool) for v in x.values()):
            return Dist.from_weights(x)
        return Dist.from_probs(x)
    if isinstance(x, (str, bytes)):
        raise InputError(f"{what}: expected a Dist, samples, counts or a list of outcomes, not text "
                         "(read a sample file with read_samples(path, dist))")
    if isinstance(x, Iterable):
        counts = Counter(x)
        if not counts:
            raise InputError(f"{what}: no outcomes")
        return Dist.from_weights(counts)
    raise InputError(f"{what}: expected a Dist, samples, counts or a list of outcomes, not {type(x).__name__}")


def _numeric(d: Dist, name: str) -> None:
    bad = next((x for x in d.support() if isinstance(x, bool) or not isinstance(x, (int, Fraction))), None)
    if bad is not None:
        raise InputError(f"{name} needs ordered numeric outcomes, and {bad!r} is not a number; "
                         "compare a numeric part instead, e.g. dist.marginal('hits')")


def total_variation(a: Comparable, b: Comparable) -> Fraction:
    """``max over events |P_a(E) - P_b(E)| = 1/2 sum |p_a(x) - p_b(x)|``, exact.

    Any outcomes (composite ones too). O(k) for k outcomes in the union.
    """
    da, db = as_dist(a, "first argument"), as_dist(b, "second argument")
    union = set(da.support()) | set(db.support())
    return sum((abs(da.pmf(x) - db.pmf(x)) for x in union), Fraction(0)) / 2


def _cdf_steps(da: Dist, db: Dist) -> list[tuple[Any, Fraction, Fraction, Fraction]]:
    """``(x, F_a(x), F_b(x), p_a(x))`` over the sorted union of supports. O(k log k)."""
    xs = sorted(set(da.support()) | set(db.support()))
    fa = fb = Fraction(0)
    out = []
    for x in xs:
        pa, pb = da.pmf(x), db.pmf(x)
        fa += pa
        fb += pb
        out.append((x, fa, fb, pa))
    return out


def ks_distance(a: Comparable, b: Comparable) -> Fraction:
    """Kolmogorov-Smirnov distance ``sup_x |F_a(x) - F_b(x)|``, exact.

    Numeric outcomes only. O(k log k) for k outcomes in the union (the
    supremum is reached at an outcome, where a CDF jumps).
    """
    da, db = as_dist(a, "first argument"), as_dist(b, "second argument")
    _numeric(da, "the Kolmogorov-Smirnov distance")
    _numeric(db, "the Kolmogorov-Smirnov distance")
    return max((abs(fa - fb) for _, fa, fb, _ in _cdf_steps(da, db)), default=Fraction(0))


def cramer_von_mises(reference: Comparable, other: Comparable) -> Fraction:
    """Cramér-von Mises distance ``sum_x (F_other(x) - F_ref(x))^2 p_ref(x)``, exact.

    The integral of the squared CDF difference with respect to the
    reference distribution (the exact one, when comparing with samples):
    the one-sample Cramér-von Mises criterion divided by the number of
    samples, so it does not grow with the sample size. Not symmetric.
    Numeric outcomes only. O(k log k).
    """
    dr, do = as_dist(reference, "reference"), as_dist(other, "other")
    _numeric(dr, "the Cramér-von Mises distance")
    _numeric(do, "the Cramér-von Mises distance")
    return sum(((fo - fr) ** 2 * pr for _, fr, fo, pr in _cdf_steps(dr, do)), Fraction(0))


def distances(reference: Comparable, other: Comparable) -> dict[str, Fraction]:
    """All three distances that apply: ``total_variation`` always, ``ks`` and
    ``cramer_von_mises`` for numeric outcomes."""
    dr, do = as_dist(reference, "reference"), as_dist(other, "other")
    out = {"total_variation": total_variation(dr, do)}
    try:
        out["ks"] = ks_distance(dr, do)
        out["cramer_von_mises"] = cramer_von_mises(dr, do)
    except InputError:
        pass
    return out
