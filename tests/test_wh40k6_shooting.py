"""40K 6th edition shooting: wounds, saves, allocation (closest first, mixed
saves, Look Out Sir, Focus Fire, Instant Death), stages, Overwatch — against
an independent brute-force simulator of the rules (tests/test_wh40k6_brute.py)."""

from __future__ import annotations

from fractions import Fraction as F

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, InputError, TooLargeError, state_limit
from exactodds.rules.allocation import UnitState
from exactodds.rules.wh40k6 import (
    STAGES, Model, Shooting, Unit, alloc_models, instant_death_damage, majority_toughness, overwatch, recipient,
    shoot, stage_counts,
)
from exactodds.rules.wh40k6.casualties import allocate_wounds
from tests.test_wh40k6_brute import sim_allocate, sim_shoot, tree

SAVES = st.one_of(st.none(), st.integers(2, 6))


@st.composite
def units(draw: st.DrawFn, max_lines: int = 3, max_count: int = 2) -> tuple[Unit, list[dict]]:
    """A small random unit, and the same unit as the simulator's model dicts."""
    n = draw(st.integers(1, max_lines))
    lines = []
    for j in range(n):
        char = draw(st.booleans())
        los = draw(st.sampled_from([False, True] + [f"L{i}" for i in range(n)])) if char else False
        lines.append(dict(name=f"L{j}", count=draw(st.integers(1, max_count)), toughness=draw(st.integers(3, 5)),
                          wounds=draw(st.integers(1, 2)), save=draw(SAVES), cover=draw(st.one_of(st.none(), st.integers(3, 6))),
                          invulnerable=draw(st.one_of(st.none(), st.integers(4, 6))), character=char, look_out_sir=los))
    unit = Unit(tuple(Model(**kw) for kw in lines), "random")
    sim = [dict(t=kw["toughness"], w=kw["wounds"], save=kw["save"], cover=kw["cover"], inv=kw["invulnerable"],
                char=kw["character"], los=kw["look_out_sir"], line=kw["name"])
           for kw in lines for _ in range(kw["count"])]
    return unit, sim


def engine_allocation(unit: Unit, wounds: int, strength: int, ap: int | None, focus: int | None) -> Dist:
    models = alloc_models(unit, ap)
    got = allocate_wounds(Dist.constant(wounds), models, recipient(unit, focus), instant_death_damage(unit, strength),
                          UnitState.fresh(models))
    return got.map(lambda s: (s.unsaved, s.casualties(), s.wounds))


def brute_allocation(sim: list[dict], wounds: int, strength: int, ap: int | None, focus: int | None) -> dict:
    def process(roll, chance):  # noqa: ANN001, ANN202
        left = [m["w"] for m in sim]
        unsaved = sim_allocate(lambda x: roll() >= x, sim, left, wounds, strength, ap, focus)
        return unsaved, sum(1 for w in left if w == 0), tuple(left)
    return tree(process)


@settings(max_examples=30, deadline=None)
@given(units(), st.integers(0, 3), st.integers(3, 8), st.one_of(st.none(), st.integers(1, 6)),
       st.one_of(st.none(), st.integers(3, 6)))
def test_allocation_with_mixed_saves_and_look_out_sir_matches_raw_dice(
        unit_sim: tuple, wounds: int, strength: int, ap: int | None, focus: int | None) -> None:
    unit, sim = unit_sim
    assert engine_allocation(unit, wounds, strength, ap, focus).to_fractions() == \
        brute_allocation(sim, wounds, strength, ap, focus)


@settings(max_examples=25, deadline=None)
@given(units(max_lines=2), st.integers(0, 2), st.integers(1, 10), st.booleans(), st.integers(3, 8),
       st.one_of(st.none(), st.integers(1, 6)), st.one_of(st.none(), st.integers(3, 6)))
def test_whole_attack_matches_brute_force(unit_sim: tuple, shots: int, bs: int, snap: bool, strength: int,
                                          ap: int | None, focus: int | None) -> None:
    unit, sim = unit_sim
    run = shoot(Shooting(shots, strength, bs=bs, ap=ap, snap=snap), unit, focus)
    brute = tree(lambda roll, chance: sim_shoot(roll, chance, sim, shots, bs, snap, strength, ap, focus))
    counts = stage_counts(run)
    for k, name in enumerate(STAGES):
        expected: dict = {}
        for outcome, p in brute.items():
            expected[outcome[k]] = expected.get(outcome[k], 0) + p
        assert counts[name].to_fractions() == expected, name
    final_states: dict = {}
    for outcome, p in brute.items():
        final_states[outcome[4]] = final_states.get(outcome[4], 0) + p
    assert run.stages["unsaved wounds"].map(lambda s: s.wounds).to_fractions() == final_states


def one(**kw: object) -> Model:
    base: dict = dict(toughness=4, wounds=1)
    base.update(kw)
    return Model(**base)  # type: ignore[arg-type]


def allocation(unit: Unit, wounds: int, ap: int | None = None, strength: int = 4, focus: int | None = None) -> Dist:
    return engine_allocation(unit, wounds, strength, ap, focus).map(lambda x: x[2])


def test_look_out_sir_moves_the_wound_on_a_4_plus() -> None:
    unit = Unit((one(name="Sgt", character=True, look_out_sir=True), one(name="Marine", count=2)))
    assert allocation(unit, 1) == Dist({(0, 1, 1): F(1, 2), (1, 0, 1): F(1, 2)})


def test_look_out_sir_to_a_named_line() -> None:
    unit = Unit((one(name="Sgt", character=True, look_out_sir="Far"), one(name="Near"), one(name="Far")))
    assert allocation(unit, 1) == Dist({(0, 1, 1): F(1, 2), (1, 1, 0): F(1, 2)})


def test_one_attempt_per_wound_in_an_all_character_unit() -> None:
    unit = Unit((one(name="A", character=True, look_out_sir=True), one(name="B", character=True, look_out_sir=True)))
    # the wound moved to B is not moved back
    assert allocation(unit, 1) == Dist({(0, 1): F(1, 2), (1, 0): F(1, 2)})


def test_no_look_out_sir_for_the_last_model() -> None:
    unit = Unit((one(name="Sgt", character=True, look_out_sir=True),))
    assert allocation(unit, 1) == Dist.constant((0,))


def test_look_out_sir_needs_a_character() -> None:
    with pytest.raises(InputError, match="characters only"):
        one(look_out_sir=True)


def test_focus_fire_restricts_to_worse_or_no_cover() -> None:
    unit = Unit((one(name="Ruins", cover=4), one(name="Open"), one(name="Open 2")))
    assert allocation(unit, 1, focus=5) == Dist.constant((1, 0, 1))
    assert allocation(unit, 3, focus=5) == Dist.constant((1, 0, 0))     # the third wound is lost
    # a worse cover (6+) than the declared value may take the wound, and saves with it
    unit = Unit((one(name="Ruins", cover=4), one(name="Crater", cover=6)))
    assert allocation(unit, 1, focus=5) == Dist({(1, 0): F(5, 6), (1, 1): F(1, 6)})
    unit2 = Unit((one(name="Ruins", cover=4),))
    assert allocation(unit2, 2, focus=5) == Dist.constant((1,))
    with pytest.raises(InputError, match="focus fire 7"):
        recipient(unit, 7)


def test_mixed_saves_are_rolled_per_model() -> None:
    # closest model 2+ (AP 3 does not beat it), next 5+ armour beaten by AP 3, so no save
    unit = Unit((one(name="Termie", save=2), one(name="Guard", save=5)))
    got = allocation(unit, 1, ap=3)
    assert got == Dist({(1, 1): F(5, 6), (0, 1): F(1, 6)})
    # AP 2 beats the 2+ armour: the 5+ invulnerable is taken instead
    unit = Unit((one(name="Termie", save=2, invulnerable=5),))
    assert allocation(unit, 1, ap=2) == Dist({(1,): F(1, 3), (0,): F(2, 3)})


def test_instant_death_removes_a_multi_wound_model() -> None:
    unit = Unit((one(wounds=3),))
    assert allocation(unit, 1, strength=8) == Dist.constant((0,))
    assert allocation(unit, 1, strength=7) == Dist.constant((2,))


def test_majority_toughness_and_ties() -> None:
    assert majority_toughness(Unit((one(toughness=3, count=2), one(toughness=5)))) == 3
    assert majority_toughness(Unit((one(toughness=3), one(toughness=5)))) == 5  # tie: the highest
    unit = Unit((one(toughness=3, count=2), one(toughness=5)))
    state = UnitState((0, 1, 1))
    assert majority_toughness(unit, state) == 5


def test_stages_are_inspectable() -> None:
    unit = Unit((one(count=2, save=4),))
    run = shoot(Shooting(3, 4, bs=4), unit)
    assert run.stage_names() == ["start", *STAGES]
    counts = stage_counts(run)
    assert counts["hits"] == Dist.binomial(3, F(2, 3))
    assert counts["wounds"] == Dist.binomial(3, F(1, 3))
    assert counts["unsaved wounds"].mean() == counts["casualties"].mean()   # 1-wound models
    assert counts["casualties"] == Dist.binomial(3, F(1, 6)).map(lambda k: min(k, 2))


def test_overwatch_is_snap_shots() -> None:
    unit = Unit((one(count=3),))
    assert overwatch(Shooting(4, 4, bs=5), unit).final == shoot(Shooting(4, 4, bs=1), unit).final
    with pytest.raises(InputError, match="cannot fire Overwatch: a template weapon"):
        overwatch(Shooting(4, 4, weapon_type="template"), unit)


def test_too_large_is_refused_before_work() -> None:
    unit = Unit((one(count=10, wounds=2),))
    with state_limit(1000), pytest.raises(TooLargeError, match="states"):
        shoot(Shooting(400, 4, bs=4), unit)


def test_benchmark_attack_is_exact() -> None:
    # 40 shots BS4 S4 vs 10 x T4 W2 Sv4+: wounds are Binomial(40, 2/3 x 1/2), unsaved Binomial(40, 1/6)
    unit = Unit((one(count=10, wounds=2, save=4),))
    run = shoot(Shooting(40, 4, bs=4), unit)
    assert stage_counts(run)["wounds"] == Dist.binomial(40, F(1, 3))
    assert run.final == Dist.binomial(40, F(1, 6)).map(lambda u: min(10, u // 2))
