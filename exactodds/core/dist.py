"""``Dist``: an exact, immutable, finite probability distribution.

A distribution is a map from hashable outcomes to positive integer weights,
plus their sum, the common denominator: ``P(x) = weight[x] / denominator``.
Integers keep the hot loops fast (no ``Fraction`` per entry); fractions,
floats and sympy rationals are produced only at the edges.

Weights are kept reduced (their gcd is 1), so two equal distributions have
identical weight tables, which makes equality and hashing cheap.
"""

from __future__ import annotations

import bisect
import math
import operator
import random
from collections.abc import Callable, Hashable, Iterable, Iterator, Mapping
from fractions import Fraction
from typing import Any, Generic, TypeVar, overload

from .checks import count as check_count
from .checks import exact_number, is_whole
from .errors import InputError, TooLargeError
from .limits import ENV_VAR, _meter, charge, check_size, count_text, max_states, state_units, weights_note
from .outcomes import _callable, _equally_spaced, _hashable, _iterable, _reduce, _sort_key, _sorted
from .present import presenter, required

T = TypeVar("T", bound=Hashable)
U = TypeVar("U", bound=Hashable)
V = TypeVar("V", bound=Hashable)

__all__ = ["Dist", "Kernel", "MAX_DRAWS", "_sort_key"]

_SMALL_WORK = 4096
"""Work below this many states is never checked against the limit on the hot paths."""

MAX_DRAWS = 100_000_000
"""At most this many draws in one :meth:`Dist.sample` call (the list alone would take gigabytes)."""

Kernel = Callable[[Any], "Dist[Any]"]
"""A rule step on one state: ``state -> Dist`` of next states (a Markov kernel)."""


class Dist(Generic[T]):
    """An exact finite distribution over hashable outcomes.

    Build one with :meth:`from_weights`, :meth:`from_probs`, :meth:`uniform`,
    :meth:`constant`, :meth:`bernoulli` or :meth:`binomial`, or with the dice
    helpers of :mod:`exactodds.dice`. ``Dist({outcome: probability})`` is the
    same as :meth:`from_probs`.

    ``Dist[T]`` is generic in its outcome type ``T``: :meth:`map`,
    :meth:`then` and :meth:`combine` return a ``Dist`` of their functions'
    result type.

    Probabilities come back as :class:`fractions.Fraction`. The project's
    own names are :meth:`at_least` (P(X >= x)) and :meth:`at_most`
    (P(X <= x)); the :mod:`scipy.stats` names keep scipy's exact meanings:
    :meth:`pmf` (P(X = x)), :meth:`cdf` (P(X <= x)), :meth:`sf` (P(X > x),
    strictly greater), :meth:`ppf`, :meth:`mean`, :meth:`var`, :meth:`std`
    (a float), :meth:`median`, :meth:`expect` (E[func(X)]).
    """

    __slots__ = ("_weights", "_total", "_hash", "_support")
    _hash: int | None
    _support: list[T] | None

    _weights: dict[T, int]
    _total: int

    def __init__(self, probs: Mapping[T, Any] | None = None) -> None:
        if probs is None:
            raise InputError("a Dist needs at least one outcome")
        other = Dist.from_probs(probs)
        self._weights = other._weights
        self._total = other._total
        self._hash = None
        self._support = None

    # ------------------------------------------------------------------ build
    @classmethod
    def _make(cls, weights: dict[U, int], total: int, reduce: bool = True) -> Dist[U]:
        """Internal constructor: trusted positive integer weights summing to total."""
        if reduce:
            weights, total = _reduce(weights, total)
        self: Dist[U] = object.__new__(cls)  # type: ignore[arg-type]  # cls is Dist (no cast call on the hot path)
        self._weights = weights
        self._total = total
        self._hash = None
        self._support = None
        return self

    @classmethod
    def from_weights(cls, weights: Mapping[U, int] | Iterable[tuple[U, int]]) -> Dist[U]:
        """A distribution proportional to non-negative integer weights.

        Zero weights are dropped; repeated outcomes (from an iterable of
        pairs) are added. At least one weight must be positive.
        """
        if weights.__class__ is dict and weights:
            values = weights.values()
            # a plain dict of positive ints (the common case) taken as it is: three C passes, O(k)
            if set(map(type, values)) == {int} and min(values) > 0:
                return cls._make(dict(weights), sum(values))
        items = weights.items() if isinstance(weights, Mapping) else _iterable(weights, "weights")
        merged: dict[U, int] = {}
        for pair in items:
            try:
                x, w = pair
            except (TypeError, ValueError):
                raise InputError(f"weights must be a mapping or (outcome, weight) pairs, not {pair!r}") from None
            if w.__class__ is not int and not is_whole(w):  # the common case without a call
                raise InputError(f"weight of outcome {x!r} must be an integer, not {w!r}")
            if w < 0:
                raise InputError(f"weight of outcome {x!r} is negative ({w})")
            if w:
                try:
                    merged[x] = merged.get(x, 0) + w
                except TypeError:  # unhashable outcome
                    _hashable(x)
                    raise
        if not merged:
            raise InputError("a Dist needs at least one outcome with positive weight")
        return cls._make(merged, sum(merged.values()))

    @classmethod
    def from_probs(cls, probs: Mapping[U, Any]) -> Dist[U]:
        """A distribution from exact probabilities that must sum to exactly 1."""
        if not isinstance(probs, Mapping):
            raise InputError(f"probabilities must be a mapping {{outcome: probability}}, not {probs!r}")
        fr = {_hashable(x): exact_number(p, f"probability of {x!r}") for x, p in probs.items()}
        for x, p in fr.items():
            if p < 0:
                raise InputError(f"probability of {x!r} is negative ({p})")
        if sum(fr.values()) != 1:
            raise InputError(f"probabilities must sum to 1, they sum to {sum(fr.values())}")
        den = math.lcm(*(p.denominator for p in fr.values()))
        return cls._make({x: p.numerator * (den // p.denominator) for x, p in fr.items() if p}, den)

    @classmethod
    def uniform(cls, outcomes: Iterable[U]) -> Dist[U]:
        """Each listed outcome equally likely (repeats count twice)."""
        return cls.from_weights((x, 1) for x in _iterable(outcomes, "outcomes"))

    @classmethod
    def constant(cls, outcome: U) -> Dist[U]:
        """The outcome with probability 1."""
        return cls._make({_hashable(outcome): 1}, 1, reduce=False)

    @classmethod
    def bernoulli(cls, p: Any, success: Any = 1, failure: Any = 0) -> Dist[Any]:
        """``success`` with probability ``p``, else ``failure``."""
        p = exact_number(p, "p")
        if not 0 <= p <= 1:
            raise InputError(f"p must be between 0 and 1, not {p}")
        d = p.denominator
        if _hashable(success) == _hashable(failure):  # one outcome either way (a dict would drop a weight)
            return cls.constant(success)
        return cls._make({success: p.numerator, failure: d - p.numerator}, d) if 0 < p < 1 else (
            cls.constant(success if p == 1 else failure)
        )

    @classmethod
    def binomial(cls, n: int, p: Any) -> Dist[int]:
        """Number of successes in ``n`` independent trials of chance ``p``.

        Closed form ``C(n,k) s^k f^(n-k)`` over ``den^n`` with ``p = s/den``,
        each weight from the previous one by the ratio ``(n-k) s / ((k+1) f)``
        (exact integer division): O(n) products and divisions of a big
        integer by a small one, i.e. time linear in the size of the answer,
        O(n^2 log den) bit operations; no convolution.
        """
        n = check_count(n, "n")
        p = exact_number(p, "p")
        if not 0 <= p <= 1:
            raise InputError(f"p must be between 0 and 1, not {p}")
        if p == 0 or p == 1 or n == 0:
            return cls.constant(n if p == 1 else 0)
        s, den = p.numerator, p.denominator
        if n.bit_length() > 100 and n >= max_states():  # n + 1 outcomes, over the limit; n too long to write
            raise TooLargeError(f"the successes of {count_text(n)} trials would need more than {max_states():,} "
                                f"states, over the limit; raise it with the environment variable {ENV_VAR} "
                                "if you have the memory and time")
        bits = n * (den - 1).bit_length()  # the weights are below den^n
        check_size(state_units(n + 1, bits), f"the successes of {n} trials{weights_note(n + 1, bits)}")
        f = den - s
        weights = {0: f**n}
        w = weights[0]
        for k in range(n):  # C(n,k+1) s^(k+1) f^(n-k-1) = C(n,k) s^k f^(n-k) * (n-k) s / ((k+1) f)
            w = w * (n - k) * s // ((k + 1) * f)
            weights[k + 1] = w
        return cls._make(weights, den**n)

    @classmethod
    def mixture(cls, dists: Iterable[Dist[U]], weights: Iterable[int] | None = None) -> Dist[U]:
        """Choose one of ``dists`` (uniformly, or by integer ``weights``), then its outcome.

        This is a die whose faces are themselves dice.
        """
        dists = list(_iterable(dists, "dists"))
        if not dists:
            raise InputError("a mixture needs at least one distribution")
        ws = [1] * len(dists) if weights is None else list(_iterable(weights, "weights"))
        if len(ws) != len(dists):
            raise InputError("a mixture needs one weight per distribution")
        return Dist.from_weights({i: w for i, w in enumerate(ws)}).then(lambda i: dists[i])

    # ----------------------------------------------------------- inspection
    @property
    def denominator(self) -> int:
        """The common denominator of all probabilities (reduced)."""
        return self._total

    def weights(self) -> dict[T, int]:
        """Outcome -> integer weight over :attr:`denominator` (a copy)."""
        return dict(self._weights)

    def support(self) -> list[T]:
        """The possible outcomes, sorted when they can be (a new list; the sort is
        kept, so showing an answer of many outcomes sorts them once). O(k log k)
        the first time, O(k) after."""
        if self._support is None:
            self._support = _sorted(self._weights)
        return list(self._support)

    def __len__(self) -> int:
        return len(self._weights)

    def __iter__(self) -> Iterator[T]:
        return iter(self.support())

    def __contains__(self, outcome: object) -> bool:
        return outcome in self._weights

    def items(self) -> list[tuple[T, Fraction]]:
        """``(outcome, probability)`` pairs in :meth:`support` order."""
        return [(x, Fraction(self._weights[x], self._total)) for x in self.support()]

    def pmf(self, outcome: Any) -> Fraction:
        """P(X = outcome); 0 for an outcome outside the support."""
        return Fraction(self._weights.get(_hashable(outcome), 0), self._total)

    __getitem__ = pmf

    def prob(self, event: Callable[[T], object]) -> Fraction:
        """P(event(X)) for a predicate on outcomes."""
        _callable(event, "event")
        return Fraction(sum(w for x, w in self._weights.items() if event(x)), self._total)

    def _compare(self, x: object, keep: Callable[[Any], object]) -> Fraction:
        try:
            return self.prob(keep)
        except TypeError:
            raise InputError(f"cannot compare the outcomes {self.support()[:3]!r}... with {x!r}") from None

    def at_least(self, x: Any) -> Fraction:
        """P(X >= x): the chance of at least ``x`` (CLI ``--at-least``)."""
        return self._compare(x, lambda o: o >= x)

    def at_most(self, x: Any) -> Fraction:
        """P(X <= x): the chance of at most ``x`` (CLI ``--at-most``); the same number as :meth:`cdf`."""
        return self._compare(x, lambda o: o <= x)

    def cdf(self, x: Any) -> Fraction:
        """P(X <= x), as ``scipy.stats``' ``cdf`` (the same number as :meth:`at_most`)."""
        return self._compare(x, lambda o: o <= x)

    def sf(self, x: Any) -> Fraction:
        """P(X > x), strictly greater, as ``scipy.stats``' ``sf``: ``1 - cdf(x)``.

        For P(X >= x) use :meth:`at_least` (for integer outcomes,
        ``sf(x) == at_least(x + 1)``).
        """
        return self._compare(x, lambda o: o > x)

    def ppf(self, q: Any) -> T:
        """The smallest outcome x with P(X <= x) >= q (quantile function)."""
        q = exact_number(q, "q")
        if not 0 <= q <= 1:
            raise InputError(f"q must be between 0 and 1, not {q}")
        acc = 0
        support = self.support()
        for x in support:
            acc += self._weights[x]
            if acc * q.denominator >= q.numerator * self._total:
                return x
        return support[-1]

    def median(self) -> T:
        """The 1/2 quantile."""
        return self.ppf(Fraction(1, 2))

    def mean(self) -> Fraction:
        """The exact expected value E[X] (exact numeric outcomes)."""
        return self._expect(None, "the mean")

    def expect(self, func: Callable[[T], Any] | None = None) -> Fraction:
        """E[func(X)], exactly, as ``scipy.stats``' ``expect``: ``func`` (default:
        the identity, giving :meth:`mean`) must return exact numbers (int,
        Fraction or bool: ``expect(lambda x: x >= 3) == at_least(3)``). O(k)."""
        if func is not None:
            _callable(func, "expect")
        return self._expect(func, "expect")

    def _expect(self, func: Callable[[Any], Any] | None, what: str) -> Fraction:
        ws: Iterable[tuple[Any, int]] = self._weights.items()
        try:
            total = (sum(map(operator.mul, self._weights, self._weights.values())) if func is None  # a C loop
                     else sum(func(x) * w for x, w in ws))
            return Fraction(total, self._total)
        except TypeError:
            if func is None or what != "expect":
                raise InputError(f"{what} needs exact numeric outcomes, not {self.support()[:3]!r}...") from None
            values = [func(x) for x in self.support()[:3]]
            raise InputError(f"expect needs a function giving exact numbers (int, Fraction, bool), "
                             f"not {values!r}...") from None

    def var(self) -> Fraction:
        """The exact variance E[(X - mean)^2] (exact numeric outcomes)."""
        m = self.mean()
        return self._expect(lambda x: x * x, "the variance") - m * m

    def std(self) -> float:
        """The standard deviation as a float, as ``scipy.stats``' ``std``:
        ``math.sqrt`` of the exact :meth:`var`. For the exact square root
        see :meth:`std_exact`."""
        return math.sqrt(self.var())

    def std_exact(self) -> Any:
        """The standard deviation as an exact sympy expression (``sympy.sqrt`` of :meth:`var`)."""
        import sympy  # type: ignore[import-untyped,import-not-found,unused-ignore]

        v = self.var()
        return sympy.sqrt(sympy.Rational(v.numerator, v.denominator))

    def mode(self) -> T:
        """The most likely outcome (the first in support order on ties)."""
        best = max(self._weights.values())
        return next(x for x in self.support() if self._weights[x] == best)

    # ------------------------------------------------------------ transforms
    def map(self, f: Callable[[T], U]) -> Dist[U]:
        """The distribution of ``f(X)``; equal images are merged. O(k)."""
        _callable(f, "map")
        out: dict[U, int] = {}
        for x, w in self._weights.items():
            y = f(x)
            out[y] = out.get(y, 0) + w
        return Dist._make(out, self._total)

    @overload
    def then(self, kernel: Callable[[T], Dist[U]], join: None = None) -> Dist[U]: ...

    @overload
    def then(self, kernel: Callable[[T], Dist[U]], join: Callable[[T, U], V]) -> Dist[V]: ...

    def then(self, kernel: Callable[[T], Any], join: Callable[[T, Any], Any] | None = None) -> Dist[Any]:
        """Apply a Markov kernel: ``sum_x P(x) * kernel(x)``, equal states merged.

        ``kernel(x)`` must return a :class:`Dist` (a plain value is taken as
        certain). ``join``: each outcome y of ``kernel(x)`` becomes
        ``join(x, y)`` (the same as ``kernel(x).map(lambda y: join(x, y))``,
        without building that Dist). Cost O(sum of the kernel outputs' sizes)
        big-integer multiply-adds (and calls of ``join``), plus one gcd pass.
        """
        _callable(kernel, "then")
        if join is not None:
            _callable(join, "then")
        elif len(self._weights) == 1:  # a certain state: its kernel's answer as it is (Dists never change), O(1)
            d = kernel(next(iter(self._weights)))
            if not isinstance(d, Dist):
                d = Dist.constant(d)
            if _meter.get() is not None:  # counted as the merge it replaces
                charge(len(d._weights), self._total.bit_length() + d._total.bit_length())
            return d
        parts: list[tuple[int, Dist[Any]]] = []
        lcm = 1
        terms = 0
        for x, w in self._weights.items():
            d = kernel(x)
            if not isinstance(d, Dist):
                d = Dist.constant(d)
            parts.append((w, d))
            lcm = math.lcm(lcm, d._total)
            terms += len(d._weights)
        if _meter.get() is not None:  # the multiply-adds below, counted when a work meter runs
            charge(terms, self._total.bit_length() + lcm.bit_length())
        out: dict[Any, int] = {}
        get = out.get
        if join is None:
            for w, d in parts:
                scale = w * (lcm // d._total)
                for y, v in d._weights.items():
                    out[y] = get(y, 0) + scale * v
        else:
            for x, (w, d) in zip(self._weights, parts):
                scale = w * (lcm // d._total)
                for y, v in d._weights.items():
                    z = join(x, y)
                    out[z] = get(z, 0) + scale * v
        return Dist._make(out, self._total * lcm)

    def combine(self, other: Dist[U], op: Callable[[T, U], V]) -> Dist[V]:
        """The distribution of ``op(X, Y)`` for independent X (self) and Y (other).

        O(|X| |Y|) multiply-adds, equal results merged.
        """
        if not isinstance(other, Dist):
            other = Dist.constant(other)
        _callable(op, "combine")
        # a quadratic step: |X| |Y| products of weights below the product of the denominators
        terms, bits = len(self._weights) * len(other._weights), self._total.bit_length() + other._total.bit_length()
        units = state_units(terms, bits)
        if units > _SMALL_WORK:  # small steps skip the message and the limit's lookup
            check_size(units, f"combining {len(self._weights):,} outcomes with {len(other._weights):,}"
                              f"{weights_note(terms, bits).replace(' outcomes', ' products')}")
        if _meter.get() is not None:
            charge(terms, bits)
        out: dict[V, int] = {}
        for x, w in self._weights.items():
            for y, v in other._weights.items():
                z = op(x, y)
                out[z] = out.get(z, 0) + w * v
        return Dist._make(out, self._total * other._total)

    def __add__(self, other: Any) -> Dist[Any]:
        """Sum of independent variables (or shift by a constant)."""
        if isinstance(other, Dist):
            return self.combine(other, _add)
        return self.map(lambda x: x + other)

    def __radd__(self, other: Any) -> Dist[Any]:
        if other == 0:  # so that sum([d1, d2, ...]) works
            return self
        return self.map(lambda x: other + x)

    def __sub__(self, other: Any) -> Dist[Any]:
        if isinstance(other, Dist):
            return self.combine(other, lambda x, y: x - y)
        return self.map(lambda x: x - other)

    def __neg__(self) -> Dist[Any]:
        return self.map(_neg)

    def sum_n(self, n: int) -> Dist[Any]:
        """Sum of ``n`` independent copies, by repeated squaring.

        O(log n) convolutions; each costs O(|A| |B|) for the supports in
        play (for integer outcomes on a range of width w: O((n w)^2) in all).
        """
        n = check_count(n, "n")
        # the last convolution pairs about half of the final outcomes with the other half:
        # (final / 2)^2 multiply-adds of weights below den^n (final <= n (k-1) + 1 for k
        # equally spaced outcomes, at most C(n+k-1, k-1) in general)
        k = len(self._weights)
        final = min(n * (k - 1) + 1, math.comb(n + k - 1, k - 1)) if _equally_spaced(self._weights) else (
            math.comb(n + k - 1, k - 1))
        bits = n * (self._total - 1).bit_length()
        check_size(state_units(max(n, final * final // 4), bits), f"the sum of {n} copies{weights_note(final, bits)}")
        result: Dist[Any] = Dist.constant(0)
        base: Dist[Any] = self
        try:
            while n:
                if n & 1:
                    result = result + base
                n >>= 1
                if n:
                    base = base + base
        except TypeError:
            raise InputError(f"a sum needs numeric outcomes, not {self.support()[:3]!r}...") from None
        return result

    def joint(self, other: Dist[U]) -> Dist[tuple[T, U]]:
        """The independent joint distribution: outcomes are pairs ``(x, y)``."""
        return self.combine(other, lambda x, y: (x, y))

    __matmul__ = joint

    def marginal(self, key: int | str | Callable[[T], Any]) -> Dist[Any]:
        """The distribution of one part of each outcome.

        ``key`` is an index (tuple outcomes), a field name (named tuples,
        dataclasses, dicts) or a function.
        """
        if callable(key):
            return self.map(key)
        d: Dist[Any] = self
        if isinstance(key, bool) or not isinstance(key, (int, str)):
            raise InputError(f"a marginal's key is an index, a field name or a function, not {key!r}")
        try:
            if isinstance(key, int):
                return d.map(lambda x: x[key])
            return d.map(lambda x: x[key] if isinstance(x, Mapping) else getattr(x, key))
        except (TypeError, IndexError, KeyError, AttributeError):
            raise InputError(f"the outcomes {self.support()[:3]!r}... have no part {key!r}") from None

    def condition(self, event: Callable[[T], object]) -> Dist[T]:
        """The distribution given ``event``; an event of probability 0 is an error."""
        _callable(event, "condition")
        kept = {x: w for x, w in self._weights.items() if event(x)}
        if not kept:
            raise InputError("cannot condition on an event of probability 0")
        return Dist._make(kept, sum(kept.values()))

    # ------------------------------------------------------------- exports
    def to_fractions(self) -> dict[T, Fraction]:
        """Outcome -> :class:`~fractions.Fraction`, in support order."""
        return dict(self.items())

    def to_float(self) -> dict[T, float]:
        """Outcome -> float probability (for display and plotting only)."""
        return {x: self._weights[x] / self._total for x in self.support()}

    def to_sympy(self) -> dict[T, Any]:
        """Outcome -> ``sympy.Rational``."""
        import sympy  # type: ignore[import-untyped,import-not-found,unused-ignore]

        return {x: sympy.Rational(self._weights[x], self._total) for x in self.support()}

    def sample(self, n: int, seed: int | str | bytes | None = None) -> list[T]:
        """``n`` independent draws, reproducible for a given ``seed``.

        Exact: each draw picks an integer uniformly below the denominator and
        locates it in the cumulative weights (O(log k) per draw).
        """
        n = check_count(n, "n")
        if n > MAX_DRAWS:  # a list of n draws: O(n) time and memory
            raise InputError(f"{n:,} draws is more than {MAX_DRAWS:,} in one call; draw in several calls "
                             "with different seeds")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, (int, str, bytes))):
            raise InputError(f"a seed is a whole number or text, not {seed!r}")
        rng = random.Random(seed)
        support = self.support()
        cum = []
        acc = 0
        for x in support:
            acc += self._weights[x]
            cum.append(acc)
        return [support[bisect.bisect_right(cum, rng.randrange(self._total))] for _ in range(n)]

    # ------------------------------------------------------------ equality
    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Dist):
            return NotImplemented
        return self._total == other._total and self._weights == other._weights

    def __hash__(self) -> int:
        if self._hash is None:
            self._hash = hash((self._total, frozenset(self._weights.items())))
        return self._hash

    def total_probability(self) -> Fraction:
        """Always exactly 1 (a check used by tests and fuzzers)."""
        return Fraction(sum(self._weights.values()), self._total)

    # Renderings are installed by exactodds.render (see core/present.py); core imports none.
    def __repr__(self) -> str:
        shown = presenter()
        return shown.dist_repr(self) if shown else f"Dist({len(self)} outcomes)"

    def __str__(self) -> str:
        """``print(dist)``: a summary line, then the readable table of
        :func:`~exactodds.render.dist_text` (the window of the most
        probable outcomes, 4-significant-digit decimals, long fractions
        shortened); ``dist_text(dist, all_rows=True, exact=True)`` shows all."""
        shown = presenter()
        return shown.dist_str(self) if shown else repr(self)

    def _repr_html_(self) -> str:
        return required("an HTML table").dist_html(self)

    def _repr_latex_(self) -> str:
        return required("a LaTeX table").dist_latex(self)

    def plot(self, **kwargs: Any) -> Any:
        """A bar chart of the distribution (needs the ``plot`` extra: matplotlib)."""
        return required("a plot").plot_dist(self, **kwargs)

    def to_pandas(self) -> Any:
        """A pandas DataFrame with outcome, p (Fraction), p_float (needs pandas)."""
        return required("a DataFrame").dist_to_pandas(self)


def _add(x: Any, y: Any) -> Any:
    return x + y


def _neg(x: Any) -> Any:
    return -x
