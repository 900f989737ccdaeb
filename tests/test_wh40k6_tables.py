"""40K 6th edition: to-hit (BS table, snap shots, rerolls), WS table, charge
roll and morale, against the published figures and brute-force enumeration."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError
from exactodds.rules.wh40k6 import (
    BS_TABLE, WS_TABLE, Shooting, bs_hit_chance, charge_roll, hit_chance, hits, morale_test, p_charge, slowest,
    unit_charge_roll, ws_target,
)
from tests.brute import as_fractions, enumerate_rolls
from tests.test_wh40k6_brute import sim_hit, sim_hits_master, tree


def test_published_bs_6_to_10_chances() -> None:
    assert [bs_hit_chance(b) for b in range(6, 11)] == [F(31, 36), F(8, 9), F(11, 12), F(17, 18), F(35, 36)]


def test_bs_1_to_5_chances() -> None:
    assert [bs_hit_chance(b) for b in range(1, 6)] == [F(1, 6), F(1, 3), F(1, 2), F(2, 3), F(5, 6)]


def test_bs_table_is_the_rules_text_table() -> None:
    # "CT1 6 ; CT2 5+ ; CT3 4+ ; CT4 3+ ; CT5 2+" and "CT6 2/6 ; CT7 2/5 ; CT8 2/4 ; CT9 2/3 ; CT10 2/2"
    rules_text = "CT1 6 ; CT2 5+ ; CT3 4+ ; CT4 3+ ; CT5 2+ ; CT6 2/6 ; CT7 2/5 ; CT8 2/4 ; CT9 2/3 ; CT10 2/2"
    for part in rules_text.split(" ; "):
        bs, rule = part[2:].split(" ")
        first, _, again = rule.rstrip("+").partition("/")
        assert BS_TABLE[int(bs)] == (int(first), int(again) if again else None)


@pytest.mark.parametrize("bs", range(1, 11))
def test_single_shot_matches_raw_dice(bs: int) -> None:
    # one shot: a hit die and (when used) a reroll die, every raw roll enumerated
    def outcome(r: tuple[int, int]) -> bool:
        it = iter(r)
        return sim_hit(lambda: next(it), bs, False)
    assert hit_chance(bs) == enumerate_rolls(2, outcome)[True]


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 3), st.integers(1, 10), st.booleans(), st.sampled_from(["none", "reroll", "master"]),
       st.integers(1, 3))
def test_hits_match_brute_force(n: int, bs: int, snap: bool, mode: str, k: int) -> None:
    attack = Shooting(n, 4, bs=bs, snap=snap, master_crafted=k if mode == "master" else None,
                      reroll_failed=mode == "reroll")
    if mode == "master":
        expected = tree(lambda roll, chance: sim_hits_master(roll, n, bs, snap, k))
    else:
        expected = tree(lambda roll, chance: sum(sim_hit(roll, bs, snap, mode == "reroll") for _ in range(n)))
    assert as_fractions(hits(attack)) == expected


def test_snap_shots_are_bs_1_whatever_the_bs() -> None:
    for bs in range(1, 11):
        assert hits(Shooting(5, 4, bs=bs, snap=True)) == Dist.binomial(5, F(1, 6))


def test_master_crafted_replaces_the_bs_table() -> None:
    # BS 8 with a granted reroll: 2+ and the reroll at 2+ too, not the 4+ of the table
    assert hits(Shooting(1, 4, bs=8, master_crafted=1)).pmf(1) == F(35, 36)
    assert hit_chance(8, reroll_failed=True) == F(35, 36)
    # one reroll shared by two shots: P(both hit) at BS 4 = (2/3)^2 + 2 (2/3)(1/3)(2/3)
    assert hits(Shooting(2, 4, bs=4, master_crafted=1)).pmf(2) == F(4, 9) + F(8, 27)


@pytest.mark.parametrize("weapon, reason", [("template", "template"), ("blast", "blast"),
                                             ("artillery", "artillery"), ("no-bs", "does not use BS")])
def test_snap_shots_with_weapons_that_cannot_snap_fire_name_the_reason(weapon: str, reason: str) -> None:
    with pytest.raises(InputError, match=f"{reason}.*cannot fire snap shots|{reason}.*never fire snap shots"):
        hits(Shooting(3, 4, snap=True, weapon_type=weapon))


def test_placed_weapons_hit_the_models_given() -> None:
    assert hits(Shooting(4, 4, weapon_type="template")) == Dist.constant(4)
    with pytest.raises(InputError, match="does not roll to hit"):
        hits(Shooting(4, 4, bs=4, weapon_type="blast"))


@pytest.mark.parametrize("kwargs, message", [
    ({"bs": 0}, "bs: 0 is out of range"), ({"bs": 11}, "bs: 11 is out of range"),
    ({"weapon_type": "flamer", "bs": 4}, "weapon_type: 'flamer' is not one of"),
    ({}, "a BS is required"), ({"bs": 4, "master_crafted": 1, "reroll_failed": True}, "alternatives"),
    ({"bs": 4, "master_crafted": 0}, "master_crafted: 0 is out of range"),
])
def test_bad_hit_input(kwargs: dict, message: str) -> None:
    with pytest.raises(InputError, match=message):
        hits(Shooting(3, 4, **kwargs))


def test_ws_table() -> None:
    assert ws_target(4, 4).value == 4
    assert ws_target(5, 4).value == 3
    assert ws_target(4, 8).value == 4      # exactly twice: not "more than twice"
    assert ws_target(4, 9).value == 5
    assert ws_target(1, 3).value == 5
    assert ws_target(10, 1).value == 3
    assert set(WS_TABLE.values()) == {3, 4, 5} and len(WS_TABLE) == 100
    with pytest.raises(InputError, match="Weapon Skill"):
        ws_target(0, 4)


# ----------------------------------------------------------------- charge
def test_two_d6_at_least_8_is_5_12() -> None:
    assert p_charge(8) == F(5, 12)
    assert enumerate_rolls(2, lambda r: sum(r) >= 8)[True] == F(5, 12)
    assert p_charge(F(15, 2)) == F(5, 12)      # 7.5": a roll of 8 or more
    assert p_charge(0) == 1 and p_charge(13) == 0


@pytest.mark.parametrize("method, keep", [("3d6kh2", lambda r: sum(sorted(r)[1:])),
                                          ("3d6kl2", lambda r: sum(sorted(r)[:2]))])
def test_three_dice_charge_rolls_match_enumeration(method: str, keep) -> None:  # noqa: ANN001
    assert as_fractions(charge_roll(method)) == enumerate_rolls(3, keep)


def test_slowest_is_stochastically_smallest_at_every_distance() -> None:
    kl, two, kh = (charge_roll(m) for m in ("3d6kl2", "2d6", "3d6kh2"))
    for x in range(0, 14):
        assert kl.at_least(x) <= two.at_least(x) <= kh.at_least(x)
    assert slowest(["3d6kh2", "2d6"]) == "2d6"
    assert slowest(["2d6", "3d6kl2", "3d6kh2"]) == "3d6kl2"
    assert unit_charge_roll(["3d6kh2", "3d6kl2"]) == kl
    assert p_charge(8, ["3d6kh2"]) == enumerate_rolls(3, lambda r: sum(sorted(r)[1:]) >= 8)[True]


@pytest.mark.parametrize("distance, message", [(-1, "negative"), (7.5, "exact number"), ("8", "exact number")])
def test_bad_charge_distance(distance: object, message: str) -> None:
    with pytest.raises(InputError, match=message):
        p_charge(distance)  # type: ignore[arg-type]


def test_unknown_charge_roll() -> None:
    with pytest.raises(InputError, match="unknown charge roll"):
        charge_roll("4d6")


# ----------------------------------------------------------------- morale
@pytest.mark.parametrize("ld", range(1, 11))
@pytest.mark.parametrize("modifier", [-12, -5, -1, 0, 2])
def test_morale_matches_enumeration(ld: int, modifier: int) -> None:
    expected = enumerate_rolls(2, lambda r: "pass" if sum(r) <= ld + modifier or r == (1, 1) else "fail")
    assert as_fractions(morale_test(ld, modifier)) == expected


def test_double_one_always_passes() -> None:
    assert morale_test(2, -10).pmf("pass") == F(1, 36)
    assert morale_test(10, 2).pmf("pass") == 1


@pytest.mark.parametrize("ld", [0, 11, True])
def test_bad_leadership(ld: object) -> None:
    with pytest.raises(InputError, match="Leadership"):
        morale_test(ld)  # type: ignore[arg-type]
