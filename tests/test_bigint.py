"""Big integers for long multiply-add loops: gmpy2's where the loop repays its import,
Python's elsewhere, and the same integers either way."""

from __future__ import annotations

import random

import pytest

from exactodds.core import bigint


def test_a_short_loop_keeps_python_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bigint, "_mpz", [])  # gmpy2 not imported yet: its import is to repay
    assert bigint.integers(1_000, 640) is int
    assert bigint.integers(10, 10 ** 6) is int  # 10 x 15,625 limbs: under the threshold
    assert bigint._mpz == []  # nor looked for


def test_a_long_loop_takes_gmpy2_where_installed(monkeypatch: pytest.MonkeyPatch) -> None:
    gmpy2 = pytest.importorskip("gmpy2")
    monkeypatch.setattr(bigint, "_mpz", [])
    assert bigint.integers(6_250, 4_096) is gmpy2.mpz  # exactly 400,000 limb-terms
    assert bigint.integers(100_000, 1_000) is gmpy2.mpz


def test_once_imported_a_shorter_loop_takes_gmpy2(monkeypatch: pytest.MonkeyPatch) -> None:
    """With gmpy2 imported by an earlier loop, only the conversions are to repay."""
    gmpy2 = pytest.importorskip("gmpy2")
    monkeypatch.setattr(bigint, "_mpz", [gmpy2.mpz])
    assert bigint.integers(10, 10 ** 6) is gmpy2.mpz  # 156,250 limb-terms
    assert bigint.integers(4_000, 640) is gmpy2.mpz  # exactly 40,000
    assert bigint.integers(3_999, 640) is int


def test_without_gmpy2_a_long_loop_keeps_python_integers(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bigint, "_mpz", [None])
    assert bigint.integers(10 ** 6, 10 ** 4) is int


def test_the_same_sums_either_way() -> None:
    """The loop's multiply-adds, on a 2,000-bit factor and 100-bit terms, give the same
    integers on gmpy2's type as on Python's (and convert back to equal ints)."""
    gmpy2 = pytest.importorskip("gmpy2")
    rng = random.Random(7)
    f = rng.getrandbits(2_000) | 1
    terms = [(rng.randrange(20), rng.getrandbits(100)) for _ in range(500)]
    plain, fast = [0] * 20, [gmpy2.mpz(0)] * 20
    for i, x in terms:
        plain[i] += f * x
        fast[i] += gmpy2.mpz(f) * x
    assert [int(v) for v in fast] == plain and all(type(int(v)) is int for v in fast)
    assert plain[0] == f * sum(x for i, x in terms if i == 0)


def test_accumulators_add_in_place_each_its_own() -> None:
    """Python's zeros for ``int``; for gmpy2's ``mpz``, one mutable zero per slot:
    adding into one slot leaves the others at 0, and the sums equal Python's."""
    assert bigint.accumulators(int, 3, []) == [0, 0, 0]
    gmpy2 = pytest.importorskip("gmpy2")
    acc = bigint.accumulators(gmpy2.mpz, 3, [])
    first = acc[0]
    f = gmpy2.mpz(3) ** 1_000
    for x in (5, 7, 11):
        acc[0] += f * gmpy2.mpz(x)
    assert acc[0] is first  # the same object, added into
    assert [int(v) for v in acc] == [23 * 3 ** 1_000, 0, 0]


def test_a_pool_of_accumulators_is_zeroed_and_extended_in_place() -> None:
    """A kept pool comes back as the same objects, every one at 0 again (even
    when the loop before stopped half-way), extended to the size asked."""
    gmpy2 = pytest.importorskip("gmpy2")
    pool: list = []
    acc = bigint.accumulators(gmpy2.mpz, 2, pool)
    assert acc is pool and len(pool) == 2 and all(x == 0 for x in pool)
    first = pool[0]
    acc[0] += gmpy2.mpz(2) ** 500  # a loop that stopped here: the pool is not at 0
    acc = bigint.accumulators(gmpy2.mpz, 4, pool)
    assert acc is pool and acc[0] is first and [int(x) for x in acc] == [0, 0, 0, 0]
    assert len({id(x) for x in acc}) == 4
    assert bigint.accumulators(int, 3, pool) == [0, 0, 0] and len(pool) == 4  # Python's zeros: no pool
