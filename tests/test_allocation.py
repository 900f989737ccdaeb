"""Sequential wound allocation against a brute-force enumerator of save rolls."""

from __future__ import annotations

from fractions import Fraction as F

from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds import Dist, Target
from exactodds.core import iterate
from exactodds.rules.allocation import AllocModel, UnitState, allocate, closest_first, wounded_first
from tests.brute import as_fractions, enumerate_rolls


def brute_closest(n_wounds: int, models: list[tuple[int, int, int]], damage: int = 1) -> dict:
    """models: (wounds, save X or 7 for none, mitigation X or 7). Each wound rolls
    a save die and a mitigation die (used only when needed)."""
    def outcome(roll: tuple) -> int:
        left = [w for w, _, _ in models]
        for k in range(n_wounds):
            alive = [i for i, w in enumerate(left) if w > 0]
            if not alive:
                break
            i = alive[0]
            save, mit = roll[2 * k], roll[2 * k + 1]
            if save >= models[i][1] or mit >= models[i][2]:
                continue
            left[i] = max(0, left[i] - damage)
        return sum(1 for w in left if w == 0)
    return enumerate_rolls(2 * n_wounds, outcome)


def to_models(spec: list[tuple[int, int, int]]) -> list[AllocModel]:
    return [AllocModel(w, Target.clamped(s), Target.clamped(m)) for w, s, m in spec]


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 3), st.lists(st.tuples(st.integers(1, 2), st.integers(2, 7), st.integers(5, 7)),
                                   min_size=1, max_size=3), st.integers(1, 2))
def test_closest_first_with_mixed_saves_matches_enumeration(n: int, spec: list, damage: int) -> None:
    models = to_models(spec)
    got = allocate(Dist.constant(n), models, closest_first, damage).map(UnitState.casualties)
    assert as_fractions(got) == brute_closest(n, spec, damage)


def test_two_wound_model_keeps_taking_wounds() -> None:
    models = [AllocModel(2), AllocModel(1)]  # no saves
    got = allocate(Dist.constant(2), models, closest_first)
    assert got == Dist.constant(UnitState((0, 1)))


def test_wounded_first_prefers_the_damaged_model() -> None:
    models = [AllocModel(2), AllocModel(2)]
    start = UnitState((2, 1))
    got = allocate(Dist.constant(1), models, lambda s: wounded_first(s, models), start=start)
    assert got == Dist.constant(UnitState((2, 0)))


def test_random_count_is_a_mixture() -> None:
    models = [AllocModel(1, Target.at_least(4)) for _ in range(3)]
    wounds = Dist.binomial(4, F(1, 2))
    got = allocate(wounds, models, closest_first).map(UnitState.casualties)
    expected = wounds.then(lambda n: Dist.binomial(n, F(1, 2)).map(lambda k: min(k, 3)))
    assert got == expected


def test_tracking_counts_unsaved_wounds_and_marks() -> None:
    models = [AllocModel(3), AllocModel(1)]
    got = allocate(Dist.constant(2), models, closest_first, track_unsaved=True, mark=True)
    assert got == Dist.constant(UnitState((1, 1), unsaved=2, marked=frozenset({0})))


def test_iterate_rejects_negative_counts() -> None:
    import pytest

    from exactodds import InputError
    with pytest.raises(InputError):
        iterate(Dist.constant(-1), lambda s: Dist.constant(s), 0)


def test_a_save_as_the_coin_it_replaces() -> None:
    """A wound on the closest model's 4+ save, then 0, 1 or 2 damage: the kernel's
    answer is the plain coin then its branches (Dist.bernoulli(1/2).then), outcomes in the
    same order (a wound of 0 damage leaves the state as a save does: merged
    where it first appears), the same total and the same work charged."""
    from exactodds.core.limits import _meter, work_meter
    from exactodds.rules.allocation import wound_kernel

    models = [AllocModel(1, Target.at_least(4)), AllocModel(2, Target.at_least(5))]
    damage = Dist.from_weights({0: 1, 1: 1, 2: 1})
    state = UnitState((1, 2))
    with work_meter("kernel"):
        got = wound_kernel(models, closest_first, damage)(state)
        charged = _meter.get()[0]  # type: ignore[index]
    with work_meter("plain"):
        through = damage.map(lambda d: UnitState((max(0, 1 - d), 2)))
        want = closest_first(state).then(lambda i: Dist.bernoulli(F(1, 2), success=True, failure=False).then(
            lambda gets: through if gets else Dist.constant(state)))
        assert charged == _meter.get()[0]  # type: ignore[index]
    assert list(got.weights().items()) == list(want.weights().items()) == [(state, 2), (UnitState((0, 2)), 1)]
    assert got.denominator == want.denominator == 3
