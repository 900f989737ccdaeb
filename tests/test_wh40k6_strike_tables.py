"""A fight step's blows as integer tables (``Striker.strike_table``) built
without a Dist: on a birth chain, on a chain of saves, and the capped
binomial they both read, against hand-computed weights and against the
blows as a Dist (``Striker.strike``)."""

from __future__ import annotations

from fractions import Fraction

from exactodds.core import Dist
from exactodds.rules.allocation import UnitState
from exactodds.rules.wh40k6.blows import Striker, _capped
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


def test_a_capped_binomial_from_its_suffix_sums() -> None:
    """Binomial(4, 1/2) = 1, 4, 6, 4, 1 over 16, capped at 2, at 4 or more, at 0."""
    d = Dist.binomial(4, Fraction(1, 2))
    tails = ([1, 4, 6, 4, 1], [16, 15, 11, 5, 1])
    assert _capped(tails, d, 2) == (((0, 1), (1, 4), (2, 11)), 16)
    assert _capped(tails, d, 4) == _capped(tails, d, 9) == (((0, 1), (1, 4), (2, 6), (3, 4), (4, 1)), 16)
    assert _capped(tails, d, 0) == (((0, 1),), 1)


def test_a_capped_dist_in_any_order() -> None:
    """Outcomes not 0, 1, 2... in order: merged in the order they first appear, reduced."""
    d = Dist.from_weights([(3, 1), (0, 2), (1, 1)])
    assert _capped(None, d, 1) == (((1, 1), (0, 1)), 2)
    assert _capped(None, d, 5) == (((3, 1), (0, 2), (1, 1)), 4)
