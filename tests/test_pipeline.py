"""Pipelines: composition, stages, merging of equal states."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from exactodds import Dist, InputError, Pipeline, Step, d6
from exactodds.core import repeat
from tests.brute import as_fractions, enumerate_rolls


def test_pipeline_runs_and_keeps_stages() -> None:
    roll = Step.kernel("roll", lambda n: Dist.binomial(n, F(1, 2)))
    wound = Step.kernel("wound", lambda h: Dist.binomial(h, F(1, 3)))
    run = (roll >> wound).run(3)
    assert run.stage_names() == ["start", "roll", "wound"]
    assert run["roll"] == Dist.binomial(3, F(1, 2))
    # thinning a binomial is a binomial with the product chance
    assert run.final == Dist.binomial(3, F(1, 6))
    with pytest.raises(InputError, match="no stage named"):
        run["save"]


def test_pipeline_matches_enumeration_of_two_rolls_per_die() -> None:
    # 2 dice: hit on 4+, then each hit wounds on 5+ (second die of the pair)
    hit = Step.kernel("hit", lambda n: Dist.binomial(n, F(1, 2)))
    wound = Step.kernel("wound", lambda h: Dist.binomial(h, F(1, 3)))
    got = (hit >> wound)(2)
    brute = enumerate_rolls(4, lambda r: sum(r[2 * i] >= 4 and r[2 * i + 1] >= 5 for i in range(2)))
    assert as_fractions(got) == brute


def test_equal_states_are_merged_after_each_step() -> None:
    parity = Step.map("parity", lambda x: x % 2)
    run = Pipeline((Step.whole("roll", lambda _: d6.sum_n(10)), parity)).run(0)
    assert len(run["roll"]) == 51 and len(run.final) == 2
    assert run.final.pmf(0) == F(1, 2)


def test_duplicate_step_names_are_refused() -> None:
    s = Step.map("x", lambda v: v)
    with pytest.raises(InputError, match="unique"):
        s >> s


def test_repeat_kernel() -> None:
    add_die = lambda total: d6 + total  # noqa: E731
    assert Dist.constant(0).then(repeat(add_die, 3)) == d6.sum_n(3)


def test_iterate_reuses_a_chain() -> None:
    # a chain kept from one count serves the next: the same answers, the chain only grows
    from exactodds.core import iterate

    def step(n: int) -> Dist:
        return Dist.bernoulli(F(1, 3), success=n + 1, failure=n)

    chain: list = []
    for count in (Dist.uniform([0, 1, 2]), Dist.constant(5), Dist.uniform([1, 3])):
        assert iterate(count, step, 0, chain) == iterate(count, step, 0)
    assert len(chain) == 6
