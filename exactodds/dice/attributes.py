"""Joint counts of two yes/no attributes of the faces of a pool of iid dice.

Many rules look at two properties of each die at once: "shows 5 or more"
*and* "shows an even number", "hits" *and* "is a 6". For ``n`` independent
copies of a die, this module gives the exact joint distribution of

    (how many dice have the first attribute, how many have the second)

and, more cheaply, the first count split by a threshold on the second one,
without ever enumerating the ``s^n`` raw rolls.

The algebra
-----------
Classify the faces by (first, second) and let the integer weights be::

    c0 = neither        c1 = first only        (faces without the second attribute)
    b0 = second only    b1 = both              (faces with the second attribute)

With ``x`` marking the first attribute, a die with the second attribute
contributes ``A(x) = b0 + b1 x`` and one without it ``C(x) = c0 + c1 x``.
Conditioning on the number ``m`` of dice having the second attribute, the
weights of the first count are the coefficients of

    Q_m(x) = C(n, m) * A(x)^m * C(x)^(n - m)          (over W^n, W = b0+b1+c0+c1)

Three ways to use it, each with its cost stated beside the code:

- :func:`attribute_count_table`: every row ``Q_0 .. Q_n``. ``Q_{m+1}`` comes
  from ``Q_m`` by multiplying by ``A``, dividing exactly by ``C`` (synthetic
  division, exact in integers) and adjusting the binomial factor: O(n) small
  integer operations per row, O(n^2) for the table instead of O(n^3) for
  convolving each row afresh.
- :func:`second_at_least_weights`: the tail ``sum_{m >= s} Q_m`` only (the
  parity rule "even >= odd" is such a tail), by Horner's rule on polynomials
  packed into single big integers (Kronecker substitution): O(n) big-integer
  operations that each run in C over the whole polynomial, no per-coefficient
  Python loop until the final unpacking.
- :func:`margin_weights`: the tail plus a few rows near the threshold, which
  is what a reroll budget of ``k`` dice needs (see :mod:`.budget`).

Measured on this project's shared 2-core machine (CPU time under load, pure
Python integers, d6, first = "5+", second = "even"): the full joint for
n = 30 / 60 / 120 / 1000 in about 0.2 / 0.9 / 4.8 / 1,400 ms (a million
outcomes of ~2,600 bits at n = 1000: the answer's own size; "4+", whose
attributes are not independent, takes ~1.5x that); the parity tail for
n = 120 in about 1 ms and n = 1000 in about 0.35 s.
Kronecker substitution does not pay for the full table: packing the whole
bivariate polynomial ``(C + y A)^n`` needs (n+1)^2 coefficients of ~n log W
bits in one integer (325 MB at n = 1000) and Karatsuba powers of it, and
dividing a packed row by ``C(2^K)`` is quadratic in CPython, while the row
recurrence is linear per row.
"""

from __future__ import annotations

import gc
import itertools
import math
import operator
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from typing import Any, NamedTuple

from ..core import Dist, InputError, check_size
from ..core.limits import state_units, weights_note
from ..core.checks import count as check_count
from ..core.checks import is_whole


class FaceClasses(NamedTuple):
    """Integer weights of a die's faces, by whether each face has the first
    attribute and whether it has the second.

    A fair d6 with first = "5+" and second = "even" is
    ``FaceClasses(neither=2, first_only=1, second_only=2, both=1)``
    (faces 1,3 / 5 / 2,4 / 6). Weights need not sum to a fair die's
    denominator: any non-negative integers (a class may be 0).
    """

    neither: int
    first_only: int
    second_only: int
    both: int

    @classmethod
    def of_die(cls, die: Dist[Any], first: Callable[[Any], bool], second: Callable[[Any], bool]) -> FaceClasses:
        """Classify the faces of ``die`` (a Dist over faces) by two predicates. O(faces)."""
        w = [0, 0, 0, 0]
        for face, weight in die.weights().items():
            w[2 * bool(second(face)) + bool(first(face))] += weight
        return cls(*w)

    @property
    def total(self) -> int:
        """The sum of the four weights (a die's denominator W)."""
        return self.neither + self.first_only + self.second_only + self.both

    def without(self, *names: str) -> FaceClasses:
        """The same weights with the named classes set to 0 (a die restricted
        to the other faces, not renormalised)."""
        for name in names:
            if name not in self._fields:
                raise InputError(f"unknown face class {name!r}; classes are {list(self._fields)}")
        return self._replace(**{name: 0 for name in names})


def _check_classes(classes: FaceClasses) -> FaceClasses:
    if not isinstance(classes, FaceClasses):
        raise InputError(f"expected FaceClasses, not {type(classes).__name__}")
    for name, w in classes._asdict().items():
        if not is_whole(w) or w < 0:
            raise InputError(f"face class weight {name} must be a whole number >= 0, not {w!r}")
    return classes


# ------------------------------------------------------------ coefficient rows
def binomial_row(n: int, low: int, high: int, scale: int = 1) -> list[int]:
    """Coefficients of ``scale * (low + high x)^n``, lowest degree first.

    O(n) big-integer products (binomial coefficients built incrementally).
    """
    out = [0] * (n + 1)
    high_pow = [1] * (n + 1)
    for i in range(1, n + 1):
        high_pow[i] = high_pow[i - 1] * high
    c = scale
    low_pow = 1
    for a in range(n, -1, -1):  # a descending, so low^(n-a) grows incrementally
        out[a] = c * high_pow[a] * low_pow
        c = c * a // (n - a + 1)
        low_pow *= low
    return out


def _next_row(row: list[int], m: int, n: int, w: FaceClasses) -> list[int]:
    """``Q_{m+1}`` from ``Q_m``: ``Q_m * A * (n - m) / ((m + 1) * C)``. O(n).

    The product ``R = (n - m) * Q_m * A`` is divided by ``(m + 1) * C``
    term by term from the lowest degree (``q_i = (R_i - (m+1) c1 q_{i-1})
    / ((m+1) c0)``); every quotient is an exact integer because the true
    quotient is the integer polynomial ``Q_{m+1}``. With ``c0 = 0`` the
    divisor is the monomial ``c1 x`` (a shift), with ``c1 = 0`` the constant
    ``c0``. Needs ``C != 0`` (callers handle that case).
    """
    b0, b1, c0, c1 = w.second_only, w.both, w.neither, w.first_only
    f0, f1 = (n - m) * b0, (n - m) * b1
    d = m + 1
    if c0 and c1:
        k1, k0 = d * c1, d * c0
        q = 0
        out: list[int] = []
        append = out.append
        prev = 0
        for x in row:  # sequential: each quotient needs the previous one
            q = (f0 * x + f1 * prev - k1 * q) // k0
            append(q)
            prev = x
        return out
    if c1:  # C = c1 x: R / x, i.e. coefficient i+1 of R
        k = d * c1
        shifted = row[1:] + [0]
        return [(f0 * y + f1 * x) // k for x, y in zip(row, shifted)]
    k = d * c0  # C = c0
    return [(f0 * x + f1 * y) // k for x, y in zip(row, [0] + row[:-1])]


def _row(n: int, w: FaceClasses, m: int) -> list[int]:
    """``Q_m`` directly: ``C(n, m) A^m C^(n-m)`` as one product of two packed
    integers (Kronecker substitution). O(M(n log W bits)) for the Karatsuba
    product M, plus O(n) packing and unpacking."""
    if not 0 <= m <= n:
        return [0] * (n + 1)
    a_row = binomial_row(m, w.second_only, w.both, math.comb(n, m))
    c_row = binomial_row(n - m, w.neither, w.first_only)
    sa, sc = sum(a_row), sum(c_row)  # every coefficient of the factors and product is below
    bits = (max(sa * sc, sa, sc).bit_length() + 8) // 8 * 8
    return _unpack(_pack(a_row, bits) * _pack(c_row, bits), n + 1, bits)


def _pack(coeffs: list[int], bits: int) -> int:
    """One integer holding ``coeffs`` in ``bits``-bit slots (all < 2^bits). O(total bits)."""
    nbytes = bits // 8
    return int.from_bytes(b"".join(c.to_bytes(nbytes, "little") for c in coeffs), "little")


def _unpack(value: int, count: int, bits: int) -> list[int]:
    """The ``count`` slots of ``bits`` bits of a packed integer. O(total bits)."""
    nbytes = bits // 8
    raw = value.to_bytes(count * nbytes, "little")
    return [int.from_bytes(raw[i:i + nbytes], "little") for i in range(0, count * nbytes, nbytes)]


def _slot_bits(n: int, w: FaceClasses) -> int:
    """Bits per packed coefficient: every intermediate coefficient of the
    Horner pass is below ``(n + 1) * W^(n+1)`` (see :func:`second_at_least_weights`);
    rounded up to whole bytes for fast unpacking."""
    bound: int = (n + 1) * max(w.total, 1) ** (n + 1)
    return (bound.bit_length() + 8) // 8 * 8


def total_weights(n: int, classes: FaceClasses) -> list[int]:
    """Weights of the first count alone (a binomial row), over ``W^n``. O(n)."""
    w = classes
    return binomial_row(n, w.neither + w.second_only, w.first_only + w.both)


def attribute_count_table(n: int, classes: FaceClasses) -> list[list[int]]:
    """``rows[m][a]``: weight (over ``W^n``) of exactly ``a`` dice with the
    first attribute and ``m`` with the second, among ``n`` iid dice.

    Row recurrence (see the module docstring): O(n) small-integer operations
    per row on O(n log W)-bit integers, O(n^2) operations in all.
    """
    n = check_count(n, "number of dice")
    w = _check_classes(classes)
    check_size((n + 1) ** 2, f"the joint counts of two attributes over {n} dice")
    if w.neither == 0 and w.first_only == 0:  # every face has the second attribute
        rows = [[0] * (n + 1) for _ in range(n)]
        rows.append(binomial_row(n, w.second_only, w.both))
        return rows
    row = binomial_row(n, w.neither, w.first_only)  # Q_0 = C^n
    rows = [row]
    if w.second_only * w.first_only == w.both * w.neither:
        # A = (p/q) C: the attributes are independent and every row is the previous
        # one times (n-m) p / ((m+1) q), exact per coefficient. One multiplication
        # and one exact division per coefficient, run by map() in C: ~40% faster.
        p, q = (w.second_only, w.neither) if w.neither else (w.both, w.first_only)
        g = math.gcd(p, q)
        p, q = p // g, q // g
        mul, floordiv, repeat = operator.mul, operator.floordiv, itertools.repeat
        for m in range(n):
            row = list(map(floordiv, map(mul, row, repeat((n - m) * p)), repeat((m + 1) * q)))
            rows.append(row)
        return rows
    for m in range(n):
        row = _next_row(row, m, n, w)
        rows.append(row)
    return rows


def second_at_least_weights(n: int, classes: FaceClasses, threshold: int) -> list[int]:
    """Weights (over ``W^n``) of each count of the first attribute together
    with *at least* ``threshold`` dice having the second one.

    Horner's rule on ``S = sum_{m >= s} C(n,m) A^m C^(n-m) = A^s U_s`` with
    ``U_m = V_m + A U_{m+1}``, ``V_m = C(n,m) C^(n-m)`` updated by
    ``V_m = V_{m+1} C (m+1) / (n-m)`` (exact for the whole packed integer,
    since every coefficient is divisible). Polynomials are packed into one
    integer with K-bit slots (K ~ (n+1) log2 W): each step is a handful of
    linear-time big-integer operations (multiply by a small integer, shift,
    add, exact division by a small integer), so the whole tail costs
    O(n) such operations, O(n^2 K) bit operations, then one O(n K) unpacking.
    Intermediate coefficients stay below ``(n+1) W^(n+1)`` (when some face
    has the second attribute), which fixes K.
    """
    n = check_count(n, "number of dice")
    w = _check_classes(classes)
    s = threshold
    if s <= 0:
        return total_weights(n, w)
    if s > n or w.second_only + w.both == 0:
        return [0] * (n + 1)
    # the packed tail holds about (n+1)^2/2 slots of ~n log2(W) bits
    check_size(state_units((n + 1) ** 2 // 2, n * sum(w).bit_length()),
               f"the tail of two attribute counts over {n} dice")
    b0, b1, c0, c1 = w.second_only, w.both, w.neither, w.first_only
    bits = _slot_bits(n, w)
    v = 1  # V_n = C(n, n) C^0
    u = 1  # U_n = V_n
    for m in range(n - 1, s - 1, -1):
        v = ((v * c0 + ((v * c1) << bits)) * (m + 1)) // (n - m)
        u = v + u * b0 + ((u * b1) << bits)
    for _ in range(s):  # S = A^s U_s, by s more linear steps (as fast as one Karatsuba product here)
        u = u * b0 + ((u * b1) << bits)
    return _unpack(u, n + 1, bits)


def margin_weights(n: int, classes: FaceClasses, threshold: int, width: int) -> list[list[int]]:
    """``table[a][j]``: weight (over ``W^n``) of ``a`` dice with the first
    attribute and a *margin* ``count_second - threshold`` in bucket ``j``.

    Margins are clipped to ``[-width - 1, width]`` and bucket ``j`` holds
    margin ``j - width - 1``: bucket 0 is "at most ``-width-1``", the last
    bucket "at least ``width``", those in between are exact. With
    ``width = 0`` the two buckets are "below the threshold" and "at least
    the threshold".

    Cost: one tail (:func:`second_at_least_weights`), one row computed as a
    packed product, ``2 width - 1`` more rows by the O(n) row recurrence,
    and O(n width) additions.
    """
    n = check_count(n, "number of dice")
    width = check_count(width, "margin width")
    w = _check_classes(classes)
    # Cost: 2 width + 2 rows of the table plus about 4 more rows built on the way (the tail, the
    # first count's row twice, the first margin row), n + 1 weights of up to n log2(W) bits each,
    # and each row costs O(n) products of such weights: O(width n^2 log W) bit operations.
    rows, bits = (n + 1) * (2 * width + 6), n * (max(w.total, 1) - 1).bit_length()
    check_size(state_units(rows, bits), f"the margin table of {n} dice{weights_note(n + 1, bits)}")
    s = threshold
    hi = second_at_least_weights(n, w, s + width)
    slices: list[list[int]] = []
    row: list[int] | None = None
    for u in range(s - width, s + width):
        if not 0 <= u <= n:
            slices.append([0] * (n + 1))
            row = None
            continue
        if row is None or (w.neither == 0 and w.first_only == 0):
            row = _row(n, w, u)
        else:
            row = _next_row(row, u - 1, n, w)
        slices.append(row)
    total = total_weights(n, w)
    table = []
    for a in range(n + 1):
        middle = [sl[a] for sl in slices]
        lo = total[a] - hi[a] - sum(middle)
        table.append([lo, *middle, hi[a]])
    return table


# ------------------------------------------------------------- Dist-level API
@contextmanager
def _gc_paused() -> Iterator[None]:
    """Pause the cyclic garbage collector while building a huge dict of tuples
    (a million tuple keys would trigger it hundreds of times for nothing:
    they hold only integers). Restores the previous state."""
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def attribute_counts(n: int, die: Dist[Any], first: Callable[[Any], bool], second: Callable[[Any], bool],
                     *, difference: bool = False) -> Dist[Any]:
    """Exact joint distribution of ``(count_first, count_second)`` over ``n``
    iid copies of ``die``, where ``first`` and ``second`` are predicates on
    faces (e.g. ``lambda f: f >= 5`` and ``lambda f: f % 2 == 0``).

    With ``difference=True`` the second component is ``count_second -
    (n - count_second)`` (dice with minus dice without the second attribute,
    e.g. even minus odd). Outcomes are plain ``(int, int)`` tuples.

    O(n^2) small-integer operations (:func:`attribute_count_table`); the
    answer itself has up to (n+1)^2 outcomes.
    """
    w = FaceClasses.of_die(die, first, second)
    rows = attribute_count_table(n, w)
    weights: dict[Hashable, int] = {}
    columns = list(range(n + 1))  # the same int objects for every row
    repeat = itertools.repeat
    with _gc_paused():
        for m, row in enumerate(rows):
            key = 2 * m - n if difference else m
            pairs = zip(zip(columns, repeat(key)), row)  # tuples built in C, no Python loop per outcome
            if 0 in row:
                weights.update((k, v) for k, v in pairs if v)
            else:
                weights.update(pairs)
    return Dist._make(weights, die.denominator ** n)


def attribute_count_split(n: int, die: Dist[Any], first: Callable[[Any], bool], second: Callable[[Any], bool],
                          at_least: int) -> Dist[Any]:
    """Exact distribution of ``(count_first, count_second >= at_least)`` over
    ``n`` iid copies of ``die``: outcomes are ``(int, bool)`` tuples.

    The Hell Dorado parity rule is ``at_least = ceil(n / 2)`` with second =
    "even" (even >= odd). O(n) packed big-integer operations
    (:func:`second_at_least_weights`), far cheaper than the full joint.
    """
    n = check_count(n, "number of dice")
    if not is_whole(at_least):
        raise InputError(f"at_least must be a whole number, not {at_least!r}")
    w = FaceClasses.of_die(die, first, second)
    table = margin_weights(n, w, at_least, 0)
    weights = {}
    for a, (below, above) in enumerate(table):
        if below:
            weights[(a, False)] = below
        if above:
            weights[(a, True)] = above
    return Dist._make(weights, die.denominator ** n)
