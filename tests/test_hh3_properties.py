"""Horus Heresy 3rd edition: properties over random parameters (hypothesis)."""

from __future__ import annotations

from fractions import Fraction as F
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.rules.hh3 import (
    AttackingUnit,
    Conditions,
    FiringModels,
    TargetModels,
    TargetUnit,
    Weapon,
    hit_rolls,
    shoot,
)

COVERS = [None, "light", "medium", "dense"]


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 25), st.integers(1, 11), st.booleans())
def test_more_bs_never_lowers_expected_hits(shots: int, bs: int, snap: bool) -> None:
    lower = hit_rolls(shots, bs, snap).map(lambda h: h.hits)
    higher = hit_rolls(shots, bs + 1, snap).map(lambda h: h.hits)
    assert higher.mean() >= lower.mean()
    assert all(higher.at_least(k) >= lower.at_least(k) for k in range(shots + 1))


@st.composite
def attacks(draw: Any) -> tuple[AttackingUnit, TargetUnit]:
    firers = tuple(
        FiringModels(f"f{i}", draw(st.integers(1, 4)), draw(st.integers(1, 10)),
                     Weapon(f"w{i}", draw(st.integers(1, 2)), draw(st.integers(3, 9)),
                            draw(st.none() | st.integers(2, 6)), draw(st.integers(1, 2))))
        for i in range(draw(st.integers(1, 2))))
    models = tuple(
        TargetModels(f"m{i}", draw(st.integers(1, 3)), toughness=draw(st.integers(3, 5)),
                     wounds=draw(st.integers(1, 2)), save=draw(st.none() | st.integers(2, 6)),
                     invulnerable=draw(st.none() | st.integers(4, 6)),
                     feel_no_pain=draw(st.none() | st.integers(5, 6)))
        for i in range(draw(st.integers(1, 2))))
    return AttackingUnit("a", firers), TargetUnit("t", 7, models)


@settings(max_examples=25, deadline=None)
@given(attacks(), st.booleans())
def test_cover_never_raises_casualties(attack: tuple[AttackingUnit, TargetUnit], crits_first: bool) -> None:
    attacker, target = attack
    results = [shoot(attacker, target, Conditions(cover=c, crits_first=crits_first)).casualties() for c in COVERS]
    for worse, better in zip(results, results[1:]):  # none, light 6+, medium 5+, dense 4+
        assert better.mean() <= worse.mean()
        assert all(better.at_least(k) <= worse.at_least(k) for k in worse.support())


@settings(max_examples=15, deadline=None)
@given(attacks())
def test_probabilities_are_exact_and_consistent(attack: tuple[AttackingUnit, TargetUnit]) -> None:
    attacker, target = attack
    result = shoot(attacker, target)
    assert result.final.total_probability() == 1
    assert 0 <= result.routed() <= result.panic() <= 1
    assert result.routed() == result.panic() * F(15, 36)  # Leadership 7 fails on 2D6 > 7: 15 of 36
