"""Symbolic results: probabilities as polynomials in a die's success chance.

The engine computes with integers, so it cannot push a sympy symbol ``p``
through a pipeline. It does not need to: when every step uses ``p`` only
as the chance of independent events (a die succeeding, a reroll
succeeding), every probability the pipeline returns is a polynomial in
``p`` of bounded degree. :func:`symbolic` evaluates the exact pipeline at
rational values of ``p`` (the fast integer path, unchanged) and recovers
each polynomial by exact interpolation::

    import sympy
    from exactodds import successes
    from exactodds.symbolic import symbolic

    p = sympy.Symbol("p")
    hits = symbolic(lambda q: successes(3, q), p)
    hits[1]          # 3*p*(1 - p)**2
    hits.mean()      # 3*p

The degree is either given (``degree=``, an upper bound; one extra point
then checks it) or detected: points are added until ``check`` further
points in a row lie on the polynomial already found. A function of ``p``
that is not a polynomial (for example a probability *conditioned* on an
event whose chance depends on ``p``, which is a rational function) is
reported as such once ``max_degree`` is exceeded.

Interfaces layer: sympy is imported only inside the functions that use it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from fractions import Fraction
from numbers import Rational
from typing import Any

from .core import Dist, InputError, Run
from .render import Gap, latex_table, outcome_label

MAX_DEGREE = 64
"""Default largest degree tried when the degree is detected."""


def sample_points() -> Iterator[Fraction]:
    """Distinct rationals in (0, 1) with small denominators, in the order used:
    1/2, 1/3, 2/3, 1/4, 3/4, 1/5, 2/5, ... (reduced fractions only)."""
    den = 2
    while True:
        for num in range(1, den):
            f = Fraction(num, den)
            if f.denominator == den:
                yield f
        den += 1


def _exact(v: Any, where: str) -> Fraction:
    if isinstance(v, bool) or not isinstance(v, Rational):
        try:  # sympy Rational
            import sympy  # type: ignore[import-untyped,import-not-found,unused-ignore]

            if isinstance(v, sympy.Rational):
                return Fraction(int(v.p), int(v.q))
        except ImportError:  # pragma: no cover - sympy is a runtime dependency
            pass
        raise InputError(f"{where} must be an exact number (int or Fraction), not {v!r}: "
                         "the function given to symbolic() must return a Dist, a Run, "
                         "a mapping outcome -> Fraction, or a Fraction")
    return Fraction(v)


def _values(result: Any, value: Fraction) -> tuple[dict, bool]:
    """``({outcome: Fraction}, scalar?)`` from what the user's function returned."""
    if isinstance(result, Run):
        result = result.final
    if isinstance(result, Dist):
        return result.to_fractions(), False
    if isinstance(result, Mapping):
        return {x: _exact(v, f"the value of {x!r} at p={value}") for x, v in result.items()}, False
    return {None: _exact(result, f"the result at p={value}")}, True


class _Newton:
    """Incremental Newton interpolation of one outcome's probability.

    Adding the n-th point costs O(n) Fraction operations (Horner on the
    Newton form), so interpolating degree D costs O(D^2) per outcome.
    """

    __slots__ = ("coefs",)

    def __init__(self) -> None:
        self.coefs: list[Fraction] = []

    def add(self, xs: list[Fraction], y: Fraction) -> Fraction:
        """Add the point ``(xs[-1], y)``; return the new leading coefficient."""
        x = xs[-1]
        n = len(self.coefs)
        value = Fraction(0)
        for k in range(n - 1, -1, -1):  # Horner on the Newton form at x
            value = value * (x - xs[k]) + self.coefs[k]
        prod = Fraction(1)
        for k in range(n):
            prod *= x - xs[k]
        c = (y - value) / prod
        self.coefs.append(c)
        return c

    def monomial(self, xs: list[Fraction]) -> list[Fraction]:
        """Coefficients in the monomial basis, constant first. O(D^2)."""
        out = [Fraction(0)]
        for k in range(len(self.coefs) - 1, -1, -1):
            # out = out * (p - xs[k]) + coefs[k]
            shifted = [Fraction(0)] + out
            for i, c in enumerate(out):
                shifted[i] -= c * xs[k]
            shifted[0] += self.coefs[k]
            out = shifted
        while len(out) > 1 and out[-1] == 0:
            out.pop()
        return out


def interpolate(fn: Callable[[Fraction], Any], degree: int | None = None, check: int = 2,
                max_degree: int = MAX_DEGREE) -> tuple[dict[Any, list[Fraction]], bool, int]:
    """Exact interpolation of ``fn``'s probabilities as polynomials in its argument.

    Returns ``({outcome: monomial coefficients, constant first}, scalar?, points used)``.
    ``fn`` is called on :func:`sample_points`: ``degree + 2`` times when the
    degree bound is given, ``D + 1 + check`` times when it is detected (D the
    true degree). Each call is one exact run of the integer engine; the
    interpolation itself is O(D^2) Fraction operations per outcome.
    """
    _check_degree(degree, check)
    limit = max_degree if degree is None else degree
    xs: list[Fraction] = []
    fits: dict[Any, _Newton] = {}
    scalar = False
    quiet = 0  # consecutive points already on the polynomial
    for x in sample_points():
        values, scalar = _values(fn(x), x)
        xs.append(x)
        new = _add_point(fits, xs, values)
        quiet = quiet + 1 if len(xs) > 1 and not any(new) else 0
        if _enough(xs, quiet, degree, check, limit):
            break
    used = len(xs)
    coeffs = {o: fit.monomial(xs) for o, fit in fits.items()}
    return {o: c for o, c in coeffs.items() if any(c)}, scalar, used


def _check_degree(degree: int | None, check: int) -> None:
    if degree is not None and (isinstance(degree, bool) or not isinstance(degree, int) or degree < 0):
        raise InputError(f"degree must be a whole number 0 or more, not {degree!r}")
    if isinstance(check, bool) or not isinstance(check, int) or check < 1:
        raise InputError(f"check must be a whole number 1 or more, not {check!r}")


def _add_point(fits: dict[Any, _Newton], xs: list[Fraction], values: dict[Any, Fraction]) -> list[Fraction]:
    """Add the point ``xs[-1]`` to every outcome's fit (an outcome unseen so far
    was 0 at the earlier points); the new leading coefficient of each fit."""
    for outcome in values:
        if outcome not in fits:
            fits[outcome] = _Newton()
            for i in range(len(xs) - 1):
                fits[outcome].add(xs[: i + 1], Fraction(0))
    return [fit.add(xs, values.get(outcome, Fraction(0))) for outcome, fit in fits.items()]


def _enough(xs: list[Fraction], quiet: int, degree: int | None, check: int, limit: int) -> bool:
    """Whether the points so far settle the polynomial (``quiet``: the last points
    that were already on it); an InputError when they show it is not one of the
    degree given, or of any degree up to ``limit``."""
    if degree is not None and len(xs) == degree + 2:
        if quiet == 0:
            raise InputError(f"the result is not a polynomial of degree <= {degree} in p "
                             f"(the check at p={xs[-1]} failed): give a larger degree, or leave "
                             "degree=None to detect it")
        return True
    if degree is None and quiet >= check:
        return True
    if degree is None and quiet == 0 and len(xs) - 1 > limit:
        raise InputError(
            f"the result does not look like a polynomial in p of degree <= {limit}: a "
            "probability conditioned on an event whose chance depends on p is a rational "
            "function, not a polynomial; otherwise give max_degree= (or degree=) larger")
    return False


def _symbol(p: Any) -> Any:
    import sympy

    if p is None:
        return sympy.Symbol("p")
    if isinstance(p, str):
        return sympy.Symbol(p)
    if isinstance(p, sympy.Symbol):
        return p
    raise InputError(f"p must be a sympy Symbol or a name, not {p!r}")


def nice(coeffs: list[Fraction], p: Any) -> Any:
    """The polynomial with these coefficients (constant first), factored over the
    rationals, with factors written to have a positive constant term: ``1 - p``
    rather than ``p - 1``, so a binomial term reads ``3*p*(1 - p)**2``."""
    import sympy

    poly = sympy.Poly(list(reversed([sympy.Rational(c.numerator, c.denominator) for c in coeffs])), p)
    if poly.is_zero:
        return sympy.Integer(0)
    content, factors = sympy.factor_list(poly)
    coeff = sympy.Rational(content)
    product = sympy.Integer(1)
    for f, m in factors:
        f = f.as_expr()
        if f.subs(p, 0) < 0:
            f = -f
            coeff *= (-1) ** m
        product *= f**m
    if product.is_Add and coeff != 1:  # keep 3*(1 - p) rather than 3 - 3*p
        return sympy.Mul(coeff, product, evaluate=False)
    return coeff * product


class SymbolicDist(dict):
    """Outcome -> sympy expression in ``symbol``, as returned by :func:`symbolic`.

    A plain dict (``result[outcome]``), plus :meth:`at` (back to an exact
    :class:`~exactodds.core.Dist` at a value of the symbol), :meth:`prob`,
    :meth:`at_least`, :meth:`mean`, :meth:`expand`, and a LaTeX display in
    Jupyter.
    """

    def __init__(self, exprs: dict, coeffs: dict[Any, list[Fraction]], symbol: Any) -> None:
        super().__init__(exprs)
        self.symbol = symbol
        self._coeffs = coeffs

    @property
    def degree(self) -> int:
        """The largest degree in the symbol over all outcomes."""
        return max((len(c) - 1 for c in self._coeffs.values()), default=0)

    def at(self, value: Any) -> Dist:
        """The exact distribution at ``symbol = value`` (a Fraction in [0, 1]).

        Pure Fraction arithmetic (Horner), no sympy: O(outcomes x degree).
        """
        v = _exact(value, "the value of the symbol")
        probs = {}
        for outcome, cs in self._coeffs.items():
            acc = Fraction(0)
            for c in reversed(cs):
                acc = acc * v + c
            probs[outcome] = acc
        return Dist.from_probs(probs)

    def prob(self, event: Callable[[Any], bool]) -> Any:
        """P(event) as a factored polynomial in the symbol."""
        return self._sum_coeffs(lambda x: 1 if event(x) else 0)

    def at_least(self, x: Any) -> Any:
        """P(X >= x) as a factored polynomial."""
        return self.prob(lambda o: o >= x)

    def at_most(self, x: Any) -> Any:
        """P(X <= x) as a factored polynomial."""
        return self.prob(lambda o: o <= x)

    def mean(self) -> Any:
        """E[X] as a factored polynomial (numeric outcomes)."""
        return self._sum_coeffs(lambda x: x)

    def _sum_coeffs(self, weight: Callable[[Any], Any]) -> Any:
        total: list[Fraction] = []
        for outcome, cs in self._coeffs.items():
            w = Fraction(weight(outcome))
            if w:
                total += [Fraction(0)] * (len(cs) - len(total))
                for i, c in enumerate(cs):
                    total[i] += w * c
        return nice(total or [Fraction(0)], self.symbol)

    def expand(self) -> dict:
        """Outcome -> expanded polynomial."""
        import sympy

        return {x: sympy.expand(e) for x, e in self.items()}

    def _repr_latex_(self) -> str:
        import sympy

        rows: list[tuple[Any, str] | Gap] = [(x, sympy.latex(e)) for x, e in self.items()]
        return r"$\displaystyle " + latex_table(rows, rf"P(X = x \mid {sympy.latex(self.symbol)})") + "$"

    def __repr__(self) -> str:
        body = ", ".join(f"{outcome_label(x)}: {e}" for x, e in self.items())
        return f"SymbolicDist({self.symbol}; {{{body}}})"


def symbolic(fn: Callable[[Fraction], Any], p: Any = None, degree: int | None = None, *,
             check: int = 2, max_degree: int = MAX_DEGREE) -> Any:
    """Probabilities as exact polynomials in the chance ``p``.

    ``fn`` takes an exact chance (a Fraction strictly between 0 and 1) and
    returns a :class:`~exactodds.core.Dist`, a pipeline
    :class:`~exactodds.core.Run` (its final distribution is used), a mapping
    outcome -> Fraction, or one Fraction. ``p`` is the sympy Symbol to use (or
    its name; default ``p``). ``degree`` is an upper bound on the degree if
    known (e.g. the number of dice rolled with chance p, counting rerolls);
    otherwise it is detected (see the module docstring).

    Returns a :class:`SymbolicDist` (outcome -> factored sympy polynomial),
    or a single sympy expression when ``fn`` returns a number. Outcomes whose
    probability is identically 0 are left out.
    """
    symbol = _symbol(p)
    coeffs, scalar, _ = interpolate(fn, degree, check, max_degree)
    if scalar:
        return nice(coeffs.get(None, [Fraction(0)]), symbol)
    order = Dist.from_weights({x: 1 for x in coeffs}).support() if coeffs else []
    exprs = {x: nice(coeffs[x], symbol) for x in order}
    return SymbolicDist(exprs, {x: coeffs[x] for x in order}, symbol)


__all__ = ["MAX_DEGREE", "SymbolicDist", "interpolate", "nice", "sample_points", "symbolic"]
