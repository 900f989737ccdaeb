"""Dice, pools and rerolls against the brute-force enumerator."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import InputError, Target, d, d6, explode, keep_highest, keep_lowest, pool_counts
from exactodds.dice import reroll_failed_chance, reroll_once, reroll_up_to, successes, target_with_reroll
from tests.brute import as_fractions, enumerate_rolls


@pytest.mark.parametrize("text,chance", [("2+", F(5, 6)), ("4+", F(1, 2)), ("6+", F(1, 6)),
                                         ("auto", F(1)), ("A", F(1)), ("fail", F(0)), ("F", F(0))])
def test_targets(text: str, chance: F) -> None:
    assert Target.parse(text).chance() == chance


@pytest.mark.parametrize("text", ["1+", "7+", "0+", "9+", "4", "+4", "", "four"])
def test_bad_targets_are_refused(text: str) -> None:
    with pytest.raises(InputError, match="2\\+ to 6\\+"):
        Target.parse(text)


def test_clamped_targets() -> None:
    assert Target.clamped(7).kind == "fail" and Target.clamped(1).kind == "auto"
    assert Target.clamped(5) == Target.at_least(5)


def brute_reroll(n: int, hit: int, faces: set, rehit: int) -> dict:
    """Each die: a first roll and a second roll used only when the first is in faces."""
    def outcome(roll: tuple) -> int:
        hits = 0
        for i in range(n):
            first, second = roll[2 * i], roll[2 * i + 1]
            hits += (second >= rehit) if first in faces else (first >= hit)
        return hits
    return enumerate_rolls(2 * n, outcome)


@pytest.mark.parametrize("rehit,chance", [(6, F(31, 36)), (5, F(8, 9)), (4, F(11, 12)), (3, F(17, 18)), (2, F(35, 36))])
def test_bs6_to_10_published_chances(rehit: int, chance: F) -> None:
    assert target_with_reroll(Target.at_least(2), {1}, Target.at_least(rehit)) == chance


@settings(max_examples=40)
@given(st.integers(0, 3), st.integers(2, 6), st.sets(st.integers(1, 6), max_size=3), st.integers(2, 6))
def test_reroll_faces_matches_enumeration(n: int, hit: int, faces: set, rehit: int) -> None:
    p = target_with_reroll(Target.at_least(hit), faces, Target.at_least(rehit))
    assert as_fractions(successes(n, p)) == brute_reroll(n, hit, faces, rehit)


def brute_up_to(n: int, k: int, hit: int, rehit: int) -> dict:
    def outcome(roll: tuple) -> int:
        firsts, seconds = roll[:n], roll[n:]
        budget, hits = k, 0
        for first, second in zip(firsts, seconds):
            if first >= hit:
                hits += 1
            elif budget:
                budget -= 1
                hits += second >= rehit
        return hits
    return enumerate_rolls(2 * n, outcome)


@settings(max_examples=40)
@given(st.integers(0, 3), st.integers(0, 4), st.integers(2, 6), st.integers(2, 6))
def test_reroll_up_to_matches_enumeration(n: int, k: int, hit: int, rehit: int) -> None:
    got = reroll_up_to(n, k, Target.at_least(hit).chance(), Target.at_least(rehit).chance())
    assert as_fractions(got) == brute_up_to(n, k, hit, rehit)
    if k >= n:  # a budget covering every die is "reroll every failed die"
        assert got == successes(n, reroll_failed_chance(F(7 - hit, 6), F(7 - rehit, 6)))


def test_pool_40_bs7_is_binomial_8_9() -> None:
    p = target_with_reroll(Target.at_least(2), {1}, Target.at_least(5))
    assert successes(40, p) == successes(40, F(8, 9))


@given(st.integers(0, 4))
def test_pool_counts_matches_enumeration(n: int) -> None:
    def cat(face: int) -> tuple:
        return (face >= 5, face % 2 == 0)
    got = pool_counts(n, d6.map(cat), order=[(False, False), (False, True), (True, False), (True, True)])

    def outcome(roll: tuple) -> tuple:
        cats = [cat(f) for f in roll]
        return tuple(cats.count(c) for c in [(False, False), (False, True), (True, False), (True, True)])
    assert as_fractions(got) == enumerate_rolls(n, outcome)


def test_keep_highest_and_lowest() -> None:
    assert as_fractions(keep_highest(3, d6, 2)) == enumerate_rolls(3, lambda r: sum(sorted(r)[1:]))
    assert as_fractions(keep_lowest(3, d6, 2)) == enumerate_rolls(3, lambda r: sum(sorted(r)[:2]))
    with pytest.raises(InputError):
        keep_highest(2, d6, 3)


def test_reroll_once_marks_rerolled_dice() -> None:
    r = reroll_once(d6, {1})
    assert r.prob(lambda x: x.rerolled) == F(1, 6)
    # a 1 stands only when rolled twice; every other face gains 1/36
    assert r.marginal("face").to_fractions() == {1: F(1, 36), **{f: F(7, 36) for f in range(2, 7)}}


@given(st.integers(0, 3), st.integers(2, 4))
def test_explode_matches_enumeration(depth: int, sides: int) -> None:
    def outcome(roll: tuple) -> int:
        total = 0
        for i, face in enumerate(roll):
            total += face
            if face != sides or i == depth:
                return total
        return total
    # roll depth+1 dice, stop at the first non-maximal face
    brute = enumerate_rolls(depth + 1, outcome, sides)
    assert as_fractions(explode(d(sides), depth=depth)) == brute


def test_reroll_failed_chance() -> None:
    assert reroll_failed_chance(F(1, 2)) == F(3, 4)
    assert reroll_failed_chance(F(1, 2), F(1, 6)) == F(7, 12)
