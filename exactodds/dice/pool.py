"""Pools of independent identical dice, in closed form.

Never enumerates the ``s^n`` raw rolls: a pool of ``n`` dice is summarised
by how many dice fall in each category, and the multinomial formula gives
each count vector's weight directly.
"""

from __future__ import annotations

import math
from collections.abc import Hashable, Sequence
from typing import Any

from ..core import Dist, InputError, check_size
from ..core.limits import state_units, weights_note
from ..core.checks import count as check_count
from .die import check_die
from ..core.checks import is_exact


def successes(n: int, p: Any) -> Dist[int]:
    """Number of successes among ``n`` dice each succeeding with chance ``p``.

    Binomial closed form: O(n) big-integer products.
    """
    return Dist.binomial(n, p)


def compositions_count(n: int, k: int) -> int:
    """How many count vectors ``n`` dice over ``k`` categories have: C(n+k-1, k-1)."""
    return math.comb(n + k - 1, k - 1) if k else int(n == 0)


def pool_counts(n: int, die: Dist[Any], order: Sequence[Hashable] | None = None) -> Dist[Any]:
    """Joint distribution of the category counts of ``n`` iid dice.

    ``die`` is a distribution over categories (see :func:`~exactodds.dice.classify`).
    Outcomes are tuples of counts, one per category in ``order`` (default:
    ``die.support()``). Multinomial closed form: the weight of counts
    ``a`` is ``n!/(a_1!...a_k!) * prod w_i^a_i`` over ``W^n``; cost
    O(C(n+k-1, k-1) * k) big-integer products (refused above the state limit).
    """
    n = check_count(n, "number of dice")
    check_die(die)
    if order is not None and (isinstance(order, (str, bytes)) or not isinstance(order, Sequence)):
        raise InputError(f"order must be a list of the die's categories, not {order!r}")
    cats = list(die.support() if order is None else order)
    if set(cats) != set(die.support()) or len(cats) != len(set(cats)):
        raise InputError(f"order must list each category of the die once: {die.support()}")
    k = len(cats)
    if k == 1:  # every die in the one category: certain, whatever n
        return Dist.constant((n,))
    # each weight is computed from n! and W^n: numbers of about n (log2 n + log2 W) bits
    states, bits = compositions_count(n, k), n * (n.bit_length() + (die.denominator - 1).bit_length())
    check_size(state_units(states, bits),
               f"the category counts of {n} dice over {k} categories{weights_note(states, bits)}")
    w = [die.weights()[c] for c in cats]
    fact = [1] * (n + 1)
    for i in range(1, n + 1):
        fact[i] = fact[i - 1] * i
    powers = [[1] * (n + 1) for _ in range(k)]
    for j in range(k):
        for i in range(1, n + 1):
            powers[j][i] = powers[j][i - 1] * w[j]
    out: dict[tuple[int, ...], int] = {}

    # n!/(prod a_i!) * prod w_i^a_i, one exact integer per count vector at the leaf
    def rec(j: int, left: int, prefix: tuple[int, ...], denom: int, num: int) -> None:
        if j == k - 1:
            out[prefix + (left,)] = fact[n] // (denom * fact[left]) * num * powers[j][left]
            return
        for a in range(left + 1):
            rec(j + 1, left - a, prefix + (a,), denom * fact[a], num * powers[j][a])

    rec(0, n, (), 1, 1)
    return Dist._make(out, die.denominator**n)


def multiset(n: int, die: Dist[Any]) -> Dist[Any]:
    """Distribution of the sorted tuple of ``n`` iid dice (highest first).

    Built from :func:`pool_counts` over the faces: O(C(n+s-1, s-1)) outcomes
    for ``s`` faces.
    """
    faces = check_die(die).support()
    counts = pool_counts(n, die, faces)

    def expand(c: tuple[int, ...]) -> tuple[Any, ...]:
        out: list[Any] = []
        for face, m in zip(faces, c):
            out.extend([face] * m)
        return tuple(sorted(out, reverse=True))

    return counts.map(expand)


def keep_highest(n: int, die: Dist[Any], keep: int) -> Dist[Any]:
    """Sum of the ``keep`` highest of ``n`` dice (e.g. 3D6 keep two highest)."""
    _check_keep(n, keep, die)
    return multiset(n, die).map(lambda t: sum(t[:keep]))


def keep_lowest(n: int, die: Dist[Any], keep: int) -> Dist[Any]:
    """Sum of the ``keep`` lowest of ``n`` dice."""
    _check_keep(n, keep, die)
    return multiset(n, die).map(lambda t: sum(t[n - keep:]))


def _check_keep(n: int, keep: int, die: Dist[Any]) -> None:
    check_count(n, "number of dice")
    check_count(keep, "number of dice kept")
    if any(not is_exact(f) for f in check_die(die).support()):
        raise InputError(f"keeping dice adds their faces: the die's faces must be numbers, not {die.support()!r}")
    if keep > n:
        raise InputError(f"cannot keep {keep} dice out of {n}")
