"""Weight tables mixed over their least common total (core.tables.mix)."""

from __future__ import annotations

from fractions import Fraction as F

from exactodds.core.tables import mix


def test_a_mixture_of_two_tables_by_hand() -> None:
    """1/3 of (a 1/2, b 1/2) and 2/3 of (b 1/3, c 2/3): a 1/6, b 1/6 + 2/9, c 4/9."""
    out, lcm = mix([(1, ((("a", 1), ("b", 1)), 2)), (2, ((("b", 1), ("c", 2)), 3))])
    assert lcm == 6 and list(out) == ["a", "b", "c"]  # outcomes in the order they first appear
    total = 3 * lcm  # the weights' own total (1 + 2) times the lcm
    assert {k: F(v, total) for k, v in out.items()} == {"a": F(1, 6), "b": F(1, 6) + F(2, 9), "c": F(4, 9)}


def test_one_table_is_itself() -> None:
    assert mix([(5, (((0, 3), (1, 4)), 7))]) == ({0: 15, 1: 20}, 7)
