"""The fight rounds' fast paths give the same exact answers as the plain ones:
a line's blows as a binomial thinning (one wound takes the next model or is
saved) against the wound chain, a round from many engagements at once against
each engagement's table merged, and the difference of unsaved wounds clamped
where the combat result stops telling it apart."""

from __future__ import annotations

from fractions import Fraction as F

import pytest

from exactodds.rules.allocation import UnitState
from exactodds.rules.wh40k6.blows import Striker
from exactodds.rules.wh40k6.casualties import IndexedKernel
from exactodds.rules.wh40k6.engagement import LOCKED, READY, Engagement, Rounds, decisive
from exactodds.rules.wh40k6.fight import Standing
from exactodds.rules.wh40k6.units import Unit
from tests.test_wh40k6_fight import fighter


def _pairs(d) -> list:
    return [(s.wounds, s.unsaved, w) for s, w in d.weights().items()]


def _strike(unit: Unit, target: Unit, foe: UnitState, chain: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    with monkeypatch.context() as m:
        if chain:
            m.setattr(IndexedKernel, "birth_chain", lambda self, start: None)
        s = Striker(unit, target, False, False)
        own = UnitState(tuple(x.wounds for x in unit.expanded()))
        d = s.strike(4, own, foe, s.choose(foe), frozenset())
        return [*_pairs(d), d.denominator]


def test_six_attacks_on_ten_marines_is_a_binomial(monkeypatch: pytest.MonkeyPatch) -> None:
    """6 attacks, hit 4+, wound 4+, save 4+: casualties ~ Binomial(6, 1/8)."""
    a = Unit((fighter("a", count=6),))
    d = Unit((fighter("d", count=10, save=4),))
    got = _strike(a, d, UnitState((1,) * 10), False, monkeypatch)
    assert got[0] == ((1,) * 10, 0, 7 ** 6) and got[-1] == 8 ** 6
    assert F(got[1][2], got[-1]) == 6 * F(7 ** 5, 8 ** 6)
    assert got[1][:2] == ((0,) + (1,) * 9, 1)


@pytest.mark.parametrize("wounds, unsaved", [(1, 0), (2, 0), (1, 3)])
def test_binomial_thinning_is_the_wound_chain(wounds: int, unsaved: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Same outcomes, same order, same weights, from a fresh or a counted state."""
    a = Unit((fighter("a", count=5, a=2),))
    d = Unit((fighter("d", count=4, w=wounds, save=5),))
    foe = UnitState((wounds,) * 4, unsaved)
    fast = _strike(a, d, foe, False, monkeypatch)
    assert fast == _strike(a, d, foe, True, monkeypatch)
    assert all(u - unsaved == sum(wounds - w for w in ws) for ws, u, _ in fast[:-1])


def test_look_out_sir_keeps_the_chain() -> None:
    """A character who may pass wounds on: one wound can reach two states, no thinning."""
    d = Unit((fighter("sgt", char=True, los=True, save=3), fighter("d", count=3, save=3)))
    s = Striker(Unit((fighter("a", count=3),)), d, False, False)
    assert s.kernel(4, None, False).birth_chain(UnitState((1, 1, 1, 1))) is None


def test_a_round_from_many_engagements_is_their_tables_merged() -> None:
    """Rounds.mixture against each engagement's table, weighted and merged in order."""
    a = Unit((fighter("a", count=4, i=2, a=2, ld=7),))
    d = Unit((fighter("d", count=3, i=3, ld=7, save=5),))
    items = [(Engagement(UnitState((1, 1, 1, 1)), UnitState((1, 1, 1)), LOCKED, LOCKED, True), 3),
             (Engagement(UnitState((0, 1, 1, 1)), UnitState((1, 1, 1)), LOCKED, LOCKED, False), 2),
             (Engagement(UnitState((0, 0, 1, 1)), UnitState((0, 1, 1)), READY, READY, False), 1),
             (Engagement(UnitState((0, 0, 1, 1)), UnitState((0, 0, 1)), LOCKED, LOCKED, False), 5)]
    rounds = Rounds(a, d)
    want: dict[int, F] = {}
    for e, w in items:
        pairs, total = rounds.table(e)
        for i, v in pairs:
            want[i] = want.get(i, F(0)) + F(w, 11) * F(v, total)
    got = rounds.mixture(items)
    assert got is not None
    total = sum(v for _, v in got)
    assert [(i, F(v, total)) for i, v in got] == list(want.items())


@pytest.mark.parametrize("difference, loser_ld, morale, want", [
    (0, 7, "", 0), (3, 7, "", 3), (5, 7, "", 5), (6, 7, "", 5), (12, 7, "", 5), (-9, 9, "", -7),
    (-2, 3, "", -1), (4, 10, "stubborn", 1), (-4, 10, "fearless", -1)])
def test_the_decisive_difference(difference: int, loser_ld: int, morale: str, want: int) -> None:
    """Leadership - difference at 2 or less passes only on a double 1: those are one case."""
    loser = Standing(5, loser_ld, morale)
    winner = Standing(5, 8, "")
    a, d = (winner, loser) if difference > 0 else (loser, winner)
    assert decisive(difference, a, d) == want


def test_nobody_tests_when_a_unit_is_destroyed() -> None:
    assert decisive(4, Standing(3, 8, ""), Standing(0, 0, "")) == 0


def test_lines_striking_alike_sum_their_attacks(monkeypatch: pytest.MonkeyPatch) -> None:
    """A sergeant with 2 Attacks and three troopers: one binomial of 5 attacks,
    the same answer (order included) as each line's wounds allocated in turn."""
    a = Unit((fighter("sgt", a=2, ld=9), fighter("a", count=3)))
    d = Unit((fighter("d", count=6, save=4),))
    fast = _strike(a, d, UnitState((1,) * 6), False, monkeypatch)
    assert fast == _strike(a, d, UnitState((1,) * 6), True, monkeypatch)
    assert fast[0] == ((1,) * 6, 0, 7 ** 5) and fast[-1] == 8 ** 5
