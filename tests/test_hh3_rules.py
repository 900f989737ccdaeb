"""Horus Heresy 3rd edition rule steps: tables, hits, wounds, penetration,
fire groups, eligibility, reactions, stages, and the counted-kernel helper."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError, Target
from exactodds.core import iterate
from exactodds.rules.hh3 import (
    Armour,
    AttackingUnit,
    Conditions,
    FiringModels,
    HitRoll,
    Penetration,
    ShootingAttack,
    TargetModels,
    TargetUnit,
    Weapon,
    fire_groups,
    hit_rolls,
    penetration_rolls,
    shoot,
)
from exactodds.rules.hh3.after import panic_triggered
from exactodds.rules.hh3.counted import apply_counted
from exactodds.rules.hh3.tables import HIT_TABLE, SNAP_TABLE, hit_entry
from exactodds.rules.hh3.wounds import toughness_for_wounds
from tests.brute import enumerate_rolls

PAGE = Path(__file__).resolve().parents[1] / "docs" / "hh3.md"

BOLTER = Weapon("bolter", 2, 4, 5, 1)
LASCANNON = Weapon("lascannon", 1, 9, 2, 1)


def marines(n: int = 5, **kw) -> TargetUnit:  # type: ignore[no-untyped-def]
    return TargetUnit("marines", 7, (TargetModels("legionary", n, toughness=4, wounds=1, save=3),), **kw)


def firing(weapon: Weapon = BOLTER, count: int = 5, bs: int = 4, **kw) -> AttackingUnit:  # type: ignore[no-untyped-def]
    return AttackingUnit("firers", (FiringModels("legionary", count, bs, weapon),), **kw)


RHINO = TargetUnit("rhino", 7, (TargetModels("rhino", armour=Armour(11, 11, 10), hull_points=3),))


# ---------------------------------------------------------------- tables


def test_hit_table_is_the_documented_table() -> None:
    text = PAGE.read_text()
    assert "| normal | 6+ | 5+ | 4+ | 3+ | 2+ | Cr6+ | Cr5+ | Cr4+ | Cr3+ | A |" in text
    assert '| snap shots ("Au jugé") | F | 6+ | 6+ | 5+ | 5+ | 4+ | 4+ | 3+ | 3+ | 2+ |' in text
    assert [HIT_TABLE[b] for b in range(1, 11)] == ["6+", "5+", "4+", "3+", "2+", "Cr6+", "Cr5+", "Cr4+", "Cr3+", "A"]
    assert [SNAP_TABLE[b] for b in range(1, 11)] == ["F", "6+", "6+", "5+", "5+", "4+", "4+", "3+", "3+", "2+"]


def test_hit_entries() -> None:
    e = hit_entry(7)
    assert (e.hit, e.crit) == (Target.at_least(2), Target.at_least(5))
    assert hit_entry(12).text == "A" and hit_entry(12, snap=True).text == "2+"
    assert hit_entry(1, snap=True).hit == Target.fail()
    with pytest.raises(InputError, match="ballistic skill"):
        hit_entry(0)


# ---------------------------------------------------------------- hits


def test_done_when_one_shot_at_bs7() -> None:
    assert hit_rolls(1, 7).to_fractions() == {HitRoll(0, 0): F(1, 6), HitRoll(1, 0): F(1, 2), HitRoll(1, 1): F(1, 3)}


def test_bs10_every_shot_hits_and_crits_and_snap_never_crits() -> None:
    assert hit_rolls(7, 10) == Dist.constant(HitRoll(7, 7))
    assert hit_rolls(7, 15) == Dist.constant(HitRoll(7, 7))
    assert hit_rolls(5, 1, snap=True) == Dist.constant(HitRoll(0, 0))
    for bs in range(1, 12):
        assert hit_rolls(4, bs, snap=True).prob(lambda h: h.crits > 0) == 0


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 30), st.integers(1, 11), st.booleans())
def test_hit_rolls_are_a_multinomial(n: int, bs: int, snap: bool) -> None:
    entry = hit_entry(bs, snap)
    p_hit, p_crit = entry.hit.chance(), entry.crit.chance()
    got = hit_rolls(n, bs, snap)
    assert got.map(lambda h: h.hits) == Dist.binomial(n, p_hit)
    assert got.map(lambda h: h.crits) == Dist.binomial(n, p_crit)
    assert got.total_probability() == 1


# ---------------------------------------------------------------- wounds and vehicles


def test_majority_toughness_and_shield() -> None:
    assert toughness_for_wounds([4, 4, 5]) == 4
    assert toughness_for_wounds([4, 5]) == 5  # tie: the highest
    assert toughness_for_wounds([4, 4], shield=True) == 5
    assert toughness_for_wounds([10], shield=True) == 10  # characteristics never exceed 10


@pytest.mark.parametrize("strength,armour", [(4, 10), (9, 11), (7, 11), (3, 10), (9, 14), (10, 10)])
def test_penetration_of_two_hits_matches_raw_rolls(strength: int, armour: int) -> None:
    def outcome(roll: tuple[int, ...]) -> Penetration:
        return Penetration(sum(f + strength == armour for f in roll), sum(f + strength > armour for f in roll))

    assert penetration_rolls(2, strength, armour).to_fractions() == enumerate_rolls(2, outcome)


def test_lascannon_against_a_rhino_by_hand() -> None:
    # one lascannon shot at BS 4: hit 2/3; d6 + 9 vs 11: glancing on a 2, penetrating on 3+
    att = AttackingUnit("hs", (FiringModels("gunner", 1, 4, LASCANNON),))
    result = shoot(att, RHINO)
    pen = result.group("lascannon")["penetration"]
    assert pen.pmf((0, 1, 0)) == F(2, 3) * F(4, 6)
    assert pen.pmf((0, 0, 1)) == F(2, 3) * F(1, 6)
    assert result.left().to_fractions() == {(3,): 1 - F(2, 3) * F(4, 6), (2,): F(2, 3) * F(4, 6)}
    assert result.statuses().prob(lambda s: s != ()) == F(2, 3) * F(1, 6)


# ---------------------------------------------------------------- fire groups and eligibility


def test_fire_groups_by_weapon_name_and_bs_in_file_order() -> None:
    pistol = Weapon("bolt pistol", 1, 4, 5, 1)
    att = AttackingUnit("tac", (FiringModels("a", 4, 4, BOLTER), FiringModels("sgt", 1, 4, pistol),
                                FiringModels("b", 4, 4, BOLTER), FiringModels("vet", 1, 5, BOLTER)))
    groups, skipped = fire_groups(att, Conditions())
    assert [(g.name, g.shots, g.bs) for g in groups] == [("bolter (BS 4)", 16, 4), ("bolt pistol", 1, 4),
                                                         ("bolter (BS 5)", 2, 5)]
    assert skipped == []
    groups, _ = fire_groups(att, Conditions(order=("bolter (BS 5)",)))
    assert [g.name for g in groups] == ["bolter (BS 5)", "bolter (BS 4)", "bolt pistol"]
    with pytest.raises(InputError, match="groups are"):
        fire_groups(att, Conditions(order=("bolter",)))


def test_rushed_unit_fires_only_light_weapons_as_snap_shots() -> None:
    light = Weapon("carbine", 1, 4, 5, 1, frozenset({"light"}))
    att = AttackingUnit("scouts", (FiringModels("a", 2, 4, light), FiringModels("b", 1, 4, BOLTER)), rushed=True)
    groups, skipped = fire_groups(att, Conditions())
    assert [(g.name, g.snap) for g in groups] == [("carbine", True)] and skipped == ["bolter"]
    with pytest.raises(InputError, match="Rushed"):
        fire_groups(firing(rushed=True), Conditions())


@pytest.mark.parametrize("attacker,target,needle", [
    (firing(locked_in_combat=True), marines(), "locked in combat"),
    (firing(embarked=True), marines(), "embarked"),
    (firing(), marines(embarked=True), "embarked"),
    (firing(), marines(in_reserve=True), "in reserve"),
    (firing(), marines(engaged=True), "engaged in melee"),
])
def test_eligibility_errors(attacker: AttackingUnit, target: TargetUnit, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        ShootingAttack(attacker, target)


@pytest.mark.parametrize("target,conditions,needle", [
    (marines(), Conditions(reaction="shield"), "Shield"),
    (marines(), Conditions(reaction="smoke"), "Smoke"),
    (marines(), Conditions(reaction="medic", medic_roll=Target.at_least(5)), "medic = true"),
    (RHINO, Conditions(reaction="shield"), "no Toughness"),
])
def test_reaction_errors(target: TargetUnit, conditions: Conditions, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        ShootingAttack(firing(), target, conditions)


@pytest.mark.parametrize("kw,needle", [
    ({"overwatch": True, "cover": "light"}, "no cover"),
    ({"overwatch": True, "reaction": "smoke"}, "cannot react"),
    ({"reaction": "medic"}, "recovery roll.s target \\(medic_roll"),
    ({"medic_roll": Target.at_least(5)}, "Medic reaction"),
    ({"cover": "heavy"}, "^cover: 'heavy' is not one of 'light', 'medium', 'dense'$"),
    ({"facing": "top"}, "^facing: 'top' is not one of 'front', 'side', 'rear'$"),
])
def test_condition_errors(kw: dict, needle: str) -> None:
    with pytest.raises(InputError, match=needle):
        Conditions(**kw)


def test_unit_errors() -> None:
    with pytest.raises(InputError, match="not modelled"):
        Weapon("w", 1, 4, 5, 1, frozenset({"rending"}))
    with pytest.raises(InputError, match="mixes vehicles"):
        TargetUnit("x", 7, (TargetModels("a", toughness=4, wounds=1),
                            TargetModels("b", armour=Armour(10, 10, 10), hull_points=2)))
    with pytest.raises(InputError, match="cool"):
        marines(out_of_coherency=True)


def test_size_is_checked_before_work() -> None:
    from exactodds import TooLargeError, state_limit

    with state_limit(1000), pytest.raises(TooLargeError, match="fire group"):
        ShootingAttack(firing(count=50), marines(30))


# ---------------------------------------------------------------- stages and results


def test_every_stage_is_named_and_inspectable() -> None:
    result = shoot(firing(), marines())
    assert result.stage_names() == ["start", "bolter: hits", "bolter: wounds", "bolter: saves and damage",
                                    "remove casualties", "after the attack"]
    g = result.group("bolter")
    assert g["hits"].map(lambda h: h.hits) == Dist.binomial(10, F(2, 3))
    assert g["wounds"].map(lambda w: w.wounds) == Dist.binomial(10, F(1, 3))
    # each shot: hit 2/3, wound 1/2, save failed 1/3; wounds past the fifth casualty find no model
    capped = Dist.binomial(10, F(1, 9)).map(lambda k: min(k, 5))
    assert g["unsaved"] == capped and g["damage"] == capped and g["casualties"] == capped
    assert result.casualties() == capped
    with pytest.raises(InputError, match="groups are"):
        result.group("lascannon")


def test_panic_threshold_and_destroyed_units() -> None:
    assert panic_triggered(1, 4) and not panic_triggered(1, 5) and panic_triggered(2, 5)
    assert not panic_triggered(5, 5)  # a destroyed unit takes no test


def test_panic_and_routed_by_hand() -> None:
    # 4 lascannon shots at BS 10 (automatic Critical Hits: wound automatically) on 4 marines:
    # AP 2 ignores the 3+ save: every model dies, no test. With a 4+ invulnerable:
    target = TargetUnit("m", 8, (TargetModels("m", 4, toughness=4, wounds=1, save=3, invulnerable=4),))
    result = shoot(firing(LASCANNON, count=4, bs=10), target)
    casualties = Dist.binomial(4, F(1, 2))
    assert result.casualties() == casualties
    panic = casualties.prob(lambda k: 1 <= k <= 3)
    assert result.panic() == panic
    assert result.routed() == panic * F(10, 36)  # 2D6 > 8 on 10 of 36
    assert result.destroyed() == F(1, 16)


def test_cool_test_flag() -> None:
    target = TargetUnit("m", 8, (TargetModels("m", 2, toughness=4, wounds=1),), out_of_coherency=True, cool=7)
    result = shoot(firing(LASCANNON, count=1, bs=10), target)
    assert result.pinned() == F(15, 36)  # one shot never destroys the unit; 2D6 > 7 on 15 of 36


# ---------------------------------------------------------------- counted kernels (Horner)


def _step(r: int) -> Dist:
    return Dist.from_weights({r: 1, r + 1: 2}) if r < 5 else Dist.constant(r)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 4), st.integers(0, 3), st.integers(1, 5)), min_size=1, max_size=6))
def test_apply_counted_equals_one_chain_per_state(items: list) -> None:
    dist = Dist.from_weights(((c, r), w) for c, r, w in items)
    got = apply_counted(dist, lambda s: (s[0], s[0] % 2, s[1]), _step)
    assert got == dist.then(lambda s: iterate(Dist.constant(s[0]), _step, s[1]).map(lambda r: (s[0] % 2, r)))


@settings(max_examples=20, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 3), st.integers(0, 3), st.integers(1, 4)), min_size=1, max_size=5))
def test_resolve_in_order_applies_the_kernels_in_turn(items: list) -> None:
    from exactodds.rules.hh3.counted import resolve_in_order

    def double(r: int) -> Dist:
        return Dist.from_weights({min(2 * r, 9): 1, r: 1})

    dist = Dist.from_weights(((a, b), w) for a, b, w in items)
    got = resolve_in_order(dist, lambda s: s, lambda s: 1, [_step, double])
    expected = dist.then(lambda s: iterate(Dist.constant(s[1]), double, iterate(Dist.constant(s[0]), _step, 1)))
    assert got == expected


def test_automatic_columns_cost_nothing_whatever_the_count() -> None:
    huge = 10**30
    assert hit_rolls(huge, 1, snap=True) == Dist.constant(HitRoll(0, 0))
    assert hit_rolls(huge, 10) == Dist.constant(HitRoll(huge, huge))
    assert penetration_rolls(huge, 10, 5) == Dist.constant(Penetration(0, huge))
    assert penetration_rolls(huge, 3, 14) == Dist.constant(Penetration(0, 0))
