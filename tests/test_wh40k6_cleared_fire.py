"""A shooting attack whose unsaved-wound counters nobody reads: the path of
states a wound that always goes through follows (``IndexedKernel.certain_path``),
and the groups run on the whole distribution of target states with their
counters cleared (``fire_pipeline(..., counted=False)``), which give exactly
the counted pipeline's Dist with its counters cleared, outcomes in the same order;
the wounds of binomial hits as one binomial."""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path

import pytest

from exactodds.core import Dist
from exactodds.profiles.wh40k6 import load_unit
from exactodds.rules.allocation import UnitState, cleared
from exactodds.rules.wh40k6 import Model, Shooting, Unit, alloc_models, instant_death_damage, recipient
from exactodds.rules.wh40k6.casualties import allocation_kernel
from exactodds.rules.wh40k6.firing import fire_pipeline
from exactodds.rules.wh40k6.shooting import Resolution

EXAMPLES = Path(__file__).resolve().parents[1] / "examples" / "40k6"


def one(**kw: object) -> Model:
    base: dict = dict(toughness=4, wounds=1)
    base.update(kw)
    return Model(**base)  # type: ignore[arg-type]


def kernel_of(unit: Unit, ap: int | None, strength: int = 4):
    models = alloc_models(unit, ap, True, strength)
    return allocation_kernel(models, recipient(unit), instant_death_damage(unit, strength))


def test_certain_path_of_unsaved_wounds() -> None:
    # a 6+ save against AP 5: every wound goes through; the 2-Wound model last
    unit = Unit((one(name="Boy", count=2, save=6), one(name="Nob", wounds=2, save=6)))
    own = kernel_of(unit, ap=5)
    path, at = own.certain_path(UnitState((1, 1, 2)))
    assert at == 0
    assert [s.wounds for s in path] == [(1, 1, 2), (0, 1, 2), (0, 0, 2), (0, 0, 1), (0, 0, 0)]
    assert all(s.unsaved == 0 for s in path)
    # a state on the path shares it, at its own position
    assert own.certain_path(UnitState((0, 0, 2))) == (path, 2)


def test_certain_path_refused_when_a_wound_branches() -> None:
    unit = Unit((one(name="Marine", count=2, save=3),))
    assert kernel_of(unit, ap=5).certain_path(UnitState((1, 1))) is None  # a 3+ save
    assert kernel_of(unit, ap=3).certain_path(UnitState((1, 1))) is not None  # AP 3 ignores it
    lucky = Unit((one(name="Sgt", character=True, look_out_sir=True), one(name="Marine")))
    assert kernel_of(lucky, ap=1).certain_path(UnitState((1, 1))) is None  # Look Out, Sir moves it


def test_certain_path_with_instant_death() -> None:
    unit = Unit((one(name="Boy", save=6), one(name="Nob", wounds=2, save=6)))
    path, at = kernel_of(unit, ap=3, strength=8).certain_path(UnitState((1, 2)))
    assert (at, [s.wounds for s in path]) == (0, [(1, 2), (0, 2), (0, 0)])


@pytest.mark.parametrize("firer, target, distance", [
    ("tactical_squad_mixed_weapons.toml", "ork_boyz_sluggas.toml", 10),  # every wound through: the path
    ("tactical_squad_mixed_weapons.toml", "ork_boyz_sluggas.toml", 20),
    ("tactical_squad_mixed_weapons.toml", "marines.toml", 10),  # saves: each state's own Dist
    ("ork_boyz_sluggas.toml", "tactical_squad_mixed_weapons.toml", 10),  # Look Out, Sir
])
def test_cleared_groups_give_the_counted_pipeline_cleared(firer: str, target: str, distance: int) -> None:
    shooter, aim = load_unit(EXAMPLES / firer), load_unit(EXAMPLES / target)
    start = UnitState(tuple(m.wounds for m in aim.expanded()))
    counted = fire_pipeline(shooter, aim, distance=F(distance)).run(start)
    fast = fire_pipeline(shooter, aim, distance=F(distance), counted=False).run(start)
    assert counted.stage_names() == fast.stage_names()
    for name in counted.stage_names():
        want = counted[name].map(cleared)
        assert list(fast[name].weights().items()) == list(want.weights().items()), name
        assert fast[name].denominator == want.denominator


def test_cleared_groups_from_several_states_and_a_destroyed_one() -> None:
    unit = Unit((one(name="Boy", count=3, save=6), one(name="Nob", wounds=2, save=6)))
    shooter = load_unit(EXAMPLES / "tactical_squad_mixed_weapons.toml")
    start = Dist.from_weights({UnitState((1, 1, 1, 2)): 3, UnitState((0, 0, 0, 0)): 2, UnitState((0, 1, 1, 1)): 1})
    counted = fire_pipeline(shooter, unit, distance=F(10))(start).map(cleared)
    fast = fire_pipeline(shooter, unit, distance=F(10), counted=False)(start)
    assert list(fast.weights().items()) == list(counted.weights().items())


@pytest.mark.parametrize("attack", [
    Shooting(6, 4, bs=4),
    Shooting(3, 4, bs=3, snap=True),
    Shooting(2, 5, bs=4, reroll_failed=True, random_shots="D3"),
    Shooting(4, 3, bs=5, poisoned=4),
    Shooting(2, 4, bs=4, salvo=(2, 3), moved=True),
])
def test_wounds_of_binomial_hits_in_one_binomial(attack: Shooting) -> None:
    # Binomial(shots, p) hits each wounding with chance q: Binomial(shots, p q) wounds
    unit = Unit((one(name="Boy", count=4, save=6),))
    shot = Resolution(attack, unit)
    want = shot.wounds(shot.state0)
    pairs, total = shot._wound_table(shot.state0)
    assert (list(pairs), total) == (list(want.weights().items()), want.denominator)


def test_wounds_in_one_binomial_exactly() -> None:
    # two BS 4 shots (2/3) at S4 against T4 (1/2): each wounds with chance 1/3
    shot = Resolution(Shooting(2, 4, bs=4), Unit((one(name="Boy", count=4),)))
    assert shot._wound_table(shot.state0) == (((0, 4), (1, 4), (2, 1)), 9)
