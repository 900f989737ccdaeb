"""A fight step's blows as integer tables (``Striker.strike_table``) built
without a Dist: on a birth chain, on a chain of saves, and the capped
binomial they both read, against hand-computed weights and against the
blows as a Dist (``Striker.strike``)."""

from __future__ import annotations

from fractions import Fraction

import pytest

from exactodds.core import Dist
from exactodds.rules.allocation import UnitState
from exactodds.rules.wh40k6.blows import Striker
from exactodds.rules.wh40k6.chain_tables import capped
from exactodds.rules.wh40k6.fight import _product, _product_lists
from exactodds.rules.wh40k6.units import Unit
from tests.test_wh40k6_fight import fighter


def _table(unit: Unit, target: Unit, own: UnitState, foe: UnitState) -> list:
    s = Striker(unit, target, False, False)
    pairs, total = s.strike_table(4, own, foe, s.choose(foe), frozenset())
    return [*((st.wounds, st.unsaved, v) for st, v in pairs), total]


def _dist(unit: Unit, target: Unit, own: UnitState, foe: UnitState) -> list:
    s = Striker(unit, target, False, False)
    d = s.strike(4, own, foe, s.choose(foe), frozenset())
    return [*((st.wounds, st.unsaved, v) for st, v in d.weights().items()), d.denominator]


def test_blows_on_a_birth_chain() -> None:
    """3 attacks, hit 4+, wound 4+, save 4+ on 2 models: kills ~ Binomial(3, 1/8)
    capped at 2: 7^3, 3 x 7^2 and 3 x 7 + 1 over 8^3."""
    a, d = Unit((fighter("a", count=3),)), Unit((fighter("d", count=2, save=4),))
    own, foe = UnitState((1, 1, 1)), UnitState((1, 1))
    want = [((1, 1), 0, 343), ((0, 1), 1, 147), ((0, 0), 2, 22), 512]
    assert _table(a, d, own, foe) == want == _dist(a, d, own, foe)


def test_blows_on_a_chain_of_saves() -> None:
    """A Look Out, Sir sergeant (4+ to pass the wound on) and one more model, both
    saving on 3+: 2 attacks at 1/4 to wound, each unsaved at 1/3, so u unsaved
    wounds ~ Binomial(2, 1/12) (121, 22, 1 over 144); one unsaved wound kills
    either model, half and half."""
    a = Unit((fighter("a", count=1, a=2),))
    d = Unit((fighter("sgt", char=True, los=True, save=3), fighter("d", count=1, save=3)))
    own, foe = UnitState((1,)), UnitState((1, 1))
    want = [((1, 1), 0, 121), ((1, 0), 1, 11), ((0, 1), 1, 11), ((0, 0), 2, 1), 144]
    assert _table(a, d, own, foe) == want == _dist(a, d, own, foe)


def test_a_chain_of_saves_as_tables() -> None:
    """A Look Out, Sir sergeant in front of two models, all saving on 3+: a wound
    stays put at 2/3; one unsaved wound kills the sergeant or, passed on, the
    next model, half and half; a second kills the last model the first spared
    (the sergeant alone has nobody to pass it to) or, after him, the next
    model; the third kills the last. E_u as integer tables, passed-on first."""
    d = Unit((fighter("sgt", char=True, los=True, save=3), fighter("d", count=2, save=3)))
    s = Striker(Unit((fighter("a", count=3),)), d, False, False)
    q, chain = s.kernel(4, None, False).saved_chain(UnitState((1, 1, 1)))
    assert q == Fraction(2, 3)
    assert [([(st.wounds, st.unsaved, w) for st, w in pairs], total) for pairs, total in chain] == [
        ([((1, 1, 1), 0, 1)], 1),
        ([((1, 0, 1), 1, 1), ((0, 1, 1), 1, 1)], 2),
        ([((1, 0, 0), 2, 1), ((0, 0, 1), 2, 3)], 4),
        ([((0, 0, 0), 3, 1)], 1)]


def test_lines_grouped_once_per_target_ws() -> None:
    """A sergeant with 2 Attacks and three troopers, striking alike (one group of 5
    attacks, kept per target WS), meet a target at WS 5 (hit 4+: each attack
    kills at 1/8) then at WS 2 (hit 3+: at 1/6): the same striker gives each
    its own binomial, as the blows as a Dist do."""
    a = Unit((fighter("sgt", a=2), fighter("a", count=3)))
    d = Unit((fighter("front", ws=2, save=4), fighter("back", count=2, ws=5, save=4)))
    s = Striker(a, d, False, False)
    own = UnitState((1, 1, 1, 1))
    wants = {UnitState((1, 1, 1)): [((1, 1, 1), 0, 7 ** 5), ((0, 1, 1), 1, 12005), ((0, 0, 1), 2, 3430),
                                    ((0, 0, 0), 3, 526), 8 ** 5],
             UnitState((1, 0, 0)): [((1, 0, 0), 0, 5 ** 5), ((0, 0, 0), 1, 6 ** 5 - 5 ** 5), 6 ** 5]}
    for foe, want in wants.items():
        pairs, total = s.strike_table(4, own, foe, s.choose(foe), frozenset())
        assert [*((st.wounds, st.unsaved, v) for st, v in pairs), total] == want == _dist(a, d, own, foe)


def test_a_capped_binomial_from_its_suffix_sums() -> None:
    """Binomial(4, 1/2) = 1, 4, 6, 4, 1 over 16, capped at 2, at 4 or more, at 0."""
    d = Dist.binomial(4, Fraction(1, 2))
    tails = ([1, 4, 6, 4, 1], [16, 15, 11, 5, 1])
    assert capped(tails, d, 2) == (((0, 1), (1, 4), (2, 11)), 16)
    assert capped(tails, d, 4) == capped(tails, d, 9) == (((0, 1), (1, 4), (2, 6), (3, 4), (4, 1)), 16)
    assert capped(tails, d, 0) == (((0, 1),), 1)


def test_a_capped_dist_in_any_order() -> None:
    """Outcomes not 0, 1, 2... in order: merged in the order they first appear, reduced."""
    d = Dist.from_weights([(3, 1), (0, 2), (1, 1)])
    assert capped(None, d, 1) == (((1, 1), (0, 1)), 2)
    assert capped(None, d, 5) == (((3, 1), (0, 2), (1, 1)), 4)


def _run(unit: Unit, target: Unit, foe: UnitState, plain: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    """The blows at Initiative 4 then 2 as one table: the states and their
    probabilities; ``plain``: one step after the other, no capped sum."""
    with monkeypatch.context() as m:
        if plain:
            m.setattr(Striker, "_run_on_chain", lambda self, whos, choice, foe: None)
        s = Striker(unit, target, False, False)
        own = UnitState(tuple(x.wounds for x in unit.expanded()))
        pairs, total = s.run_table((4, 2), own, foe, s.choose(foe), frozenset())
        return [(st.wounds, st.unsaved, Fraction(v, total)) for st, v in pairs]


def test_a_run_on_one_chain_is_the_capped_sum(monkeypatch: pytest.MonkeyPatch) -> None:
    """One attack at Initiative 4, one at 2, each killing at 1/8 (hit 4+, wound 4+,
    save 4+), on two models: kills ~ Binomial(2, 1/8), 49, 14, 1 over 64."""
    a = Unit((fighter("fast", i=4), fighter("slow", i=2)))
    d = Unit((fighter("d", count=2, save=4),))
    got = _run(a, d, UnitState((1, 1)), False, monkeypatch)
    assert got == [((1, 1), 0, Fraction(49, 64)), ((0, 1), 1, Fraction(14, 64)), ((0, 0), 2, Fraction(1, 64))]
    assert got == _run(a, d, UnitState((1, 1)), True, monkeypatch)


def test_a_run_of_two_strengths_on_one_chain(monkeypatch: pytest.MonkeyPatch) -> None:
    """One attack at Strength 4 (Initiative 4: kills at 1/8), one at Strength 5
    (Initiative 2: wounds on 3+, kills at 1/6) on two models: two kernels, one
    chain (kept as one tuple), kills 35, 12, 1 over 48, as step after step."""
    a = Unit((fighter("fast", i=4), fighter("slow", i=2, s=5)))
    d = Unit((fighter("d", count=2, save=4),))
    got = _run(a, d, UnitState((1, 1)), False, monkeypatch)
    assert got == [((1, 1), 0, Fraction(35, 48)), ((0, 1), 1, Fraction(1, 4)), ((0, 0), 2, Fraction(1, 48))]
    assert got == _run(a, d, UnitState((1, 1)), True, monkeypatch)
    s, foe = Striker(a, d, False, False), UnitState((1, 1))
    fast, slow = (s._chain_under(s._chance(opts[0], 4, s._p_hit(j, 4))[4], foe) for j, opts in enumerate(s.options))
    assert fast is not None and slow is not None and fast[0] is slow[0]  # kernels of Strength 4 and 5


def test_a_run_whose_target_changes_toughness_goes_step_by_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two Toughness 4 models in front of a Toughness 5 one: after the first falls
    the majority Toughness is 5 (highest on a tie), so the chain is not one
    binomial; the run is the steps one after the other, from any start."""
    a = Unit((fighter("fast", count=3, i=4, a=2), fighter("slow", count=2, i=2, a=2, s=5)))
    d = Unit((fighter("d", count=2, save=5), fighter("big", t=5, save=5)))
    for foe in (UnitState((1, 1, 1)), UnitState((0, 1, 1), 1)):
        assert _run(a, d, foe, False, monkeypatch) == _run(a, d, foe, True, monkeypatch)
    s = Striker(a, d, False, False)
    assert not s._steady((UnitState((1, 1, 1)), UnitState((0, 1, 1), 1), UnitState((0, 0, 1), 2)))


def _as_fractions(table: tuple) -> list:
    pairs, total = table
    return [(st.wounds, st.unsaved, Fraction(v, total)) for st, v in pairs]


@pytest.mark.parametrize("steps", [(4,), (4, 2), (1,)])
def test_run_tables_reads_each_pairs_run_table(steps: tuple[int, ...]) -> None:
    """One call for many (striker's state, target's state) pairs gives each
    pair's own table, in order, whether known or new; at Initiative 1 nobody
    strikes (the target's state as it is). The first pair: 3 attacks (hit 4+,
    wound 4+, save 4+) on 2 models, kills ~ Binomial(3, 1/8) capped at 2."""
    a, d = Unit((fighter("a", count=3),)), Unit((fighter("d", count=2, save=4),))
    pairs = [(UnitState((1, 1, 1)), UnitState((1, 1))), (UnitState((0, 1, 1)), UnitState((1, 1))),
             (UnitState((1, 1, 1), 2), UnitState((0, 1), 1)), (UnitState((1, 1, 1)), UnitState((1, 1)))]
    s = Striker(a, d, False, False)
    choice = s.choose(pairs[0][1])
    got = [_as_fractions(t) for t in s.run_tables(steps, pairs, choice, frozenset())]
    want = [_as_fractions(Striker(a, d, False, False).run_table(steps, own, foe, choice, frozenset()))
            for own, foe in pairs]
    assert got == want
    if steps == (4,):
        assert got[0] == [((1, 1), 0, Fraction(343, 512)), ((0, 1), 1, Fraction(147, 512)),
                          ((0, 0), 2, Fraction(22, 512))]
    if steps == (1,):
        assert got == [[(foe.wounds, foe.unsaved, 1)] for _, foe in pairs]


def test_the_states_after_a_step_from_one_state_are_listed_without_a_merge() -> None:
    """From one state the products of both sides' tables are the states after
    the step, as the merge gives them (same order, same weights); from several
    states the merge adds the weights of states met twice."""
    a0, a1, d0, d1 = UnitState((1, 1)), UnitState((0, 1), 1), UnitState((1,)), UnitState((0,), 1)
    one = [(3, 4, ((a0, 1), (a1, 3)), ((d0, 5), (d1, 1)))]  # weight 3 over a blows' total of 4
    states, weights = _product_lists(one, 8)  # over twice the blows' total: each product x 2
    assert list(zip(states, weights)) == [((a0, d0), 30), ((a0, d1), 6), ((a1, d0), 90), ((a1, d1), 18)]
    assert list(zip(states, weights)) == list(_product(one, 8).items())
    two = [*one, (1, 2, ((a1, 1),), ((d1, 1),))]  # (a1, d1) again: 18 + 1 x 4
    states, weights = _product_lists(two, 8)
    assert dict(zip(states, weights)) == {(a0, d0): 30, (a0, d1): 6, (a1, d0): 90, (a1, d1): 22}
    assert list(zip(states, weights)) == list(_product(two, 8).items())
