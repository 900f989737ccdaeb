"""Big integers for the longest multiply-add loops: GMP's, through gmpy2, where
a loop is long enough to repay importing it; Python's own ``int`` elsewhere.

A fight round of 40 Orks against 20 Guardsmen adds about 97,000 products of a
1,000 to 2,000-bit weight by a 100-bit one. Python's ``int`` takes about 300 ns
for each (multiply, add, store); gmpy2's ``mpz`` about 150 ns, most of it the
loop itself (GMP's arithmetic on 64-bit limbs, with assembly kernels). An
``mpz`` times a Python ``int`` is an ``mpz``, exact, so only the loop's big
operand and its accumulators need to be converted, and its results are
converted back to ``int`` (the rest of the library, and every answer, sees
Python integers only).

Importing gmpy2 costs about 30 ms (it reads its package metadata), more than a
short loop saves, so :func:`integers` picks ``mpz`` only for a loop of at
least :data:`MPZ_WORK` limb-terms (a tenth of that, :data:`MPZ_WORK_LOADED`,
once an earlier loop of the process imported it), and keeps ``int`` where gmpy2 is not
installed (the calculator page's Pyodide ships no gmpy2; gmpy2 is a dependency
of the package elsewhere). Either way the integers, hence the answers, are the
same.
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import repeat
from typing import Any

MPZ_WORK = 400_000
"""The least work (multiply-adds x 64-bit limbs of the big operand) for which
a loop converts to ``mpz``: about 40,000 multiply-adds of 640-bit weights,
which save about as much as the import costs."""

MPZ_WORK_LOADED = 40_000
"""The same once gmpy2 is imported (by an earlier loop of the process): then a
loop repays converting its big operand and its answers alone."""

_mpz: list[Callable[[int], Any] | None] = []  # [gmpy2.mpz or None], once looked for


def integers(terms: int, bits: int) -> Callable[[int], Any]:
    """The integer type for a loop of ``terms`` multiply-adds whose big operand
    has ``bits`` bits: gmpy2's ``mpz`` when that work is at least
    :data:`MPZ_WORK` limb-terms (:data:`MPZ_WORK_LOADED` once gmpy2 is
    imported) and gmpy2 is installed, else ``int``. O(1) after the first look
    for gmpy2."""
    if terms * -(-bits // 64) < (MPZ_WORK_LOADED if _mpz and _mpz[0] else MPZ_WORK):
        return int
    if not _mpz:
        try:
            from gmpy2 import mpz  # type: ignore[import-untyped,import-not-found,unused-ignore]
        except ImportError:
            mpz = None
        _mpz.append(mpz)
    return _mpz[0] or int


def accumulators(big: Callable[[int], Any], n: int, pool: list[Any]) -> list[Any]:
    """At least ``n`` zeros to add products into, for the integers of ``big`` (an
    :func:`integers` type): for gmpy2's ``mpz``, ``pool`` (a list the caller
    keeps between loops, one loop at a time) of gmpy2's mutable ``xmpz``, each
    its own object (``+=`` then adds in place, without a new integer per sum),
    set back to 0 in place and extended to ``n`` (making one costs several
    times zeroing it); else ``n`` of Python's 0s. O(n)."""
    if big is int:
        return [0] * n
    from gmpy2 import xmpz  # type: ignore[import-untyped,import-not-found,unused-ignore]
    for x in pool:  # zeroed first, so a loop stopped half-way leaves nothing behind
        x ^= x
    if len(pool) < n:
        pool.extend(map(xmpz, repeat(0, n - len(pool))))
    return pool
