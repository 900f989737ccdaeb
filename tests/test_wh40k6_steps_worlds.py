"""Exact tests of how the 40K assault steps write engagements into worlds and
read them back (one world per (marks, engagement), weights reduced)."""

from __future__ import annotations

from fractions import Fraction as F

from exactodds.rules.allocation import UnitState
from exactodds.rules.scenario import World
from exactodds.rules.wh40k6.fight_rounds import FALLS_BACK, LOCKED, READY, Engagement, Rounds
from exactodds.rules.wh40k6.assault_worlds import Worlds, _numbered_dist, _round_mixture, _Seen
from exactodds.rules.wh40k6.units import Unit
from tests.test_wh40k6_fight import fighter


def _world(a: tuple[int, ...], d: tuple[int, ...], marks: tuple[tuple[int, int], ...] = ()) -> World:
    return World((UnitState(a), UnitState(d)), ("", ""), marks)


def _seen(w: World) -> _Seen:
    return _Seen(w, Engagement(*w.units))


def test_numbered_weights_are_reduced_in_the_order_of_the_numbers() -> None:
    records = [_seen(_world((1,), (1,))), _seen(_world((0,), (1,))), _seen(_world((1,), (0,)))]
    dist, kept = _numbered_dist([(2, 9), (0, 6), (1, 3)], lambda numbers: [records[i] for i in numbers])
    assert list(dist.weights().items()) == [(records[2].world, 3), (records[0].world, 2), (records[1].world, 1)]
    assert dist.denominator == 6
    assert kept == [records[2], records[0], records[1]]


def test_two_numbers_writing_one_world_add_their_weights() -> None:
    a, b = _world((1,), (1,)), _world((0,), (1,))
    records = [_seen(a), _seen(b), _seen(a)]
    dist, kept = _numbered_dist([(0, 6), (1, 3), (2, 9)], lambda numbers: [records[i] for i in numbers])
    assert list(dist.weights().items()) == [(a, 5), (b, 1)]
    assert dist.to_fractions() == {a: F(5, 6), b: F(1, 6)}
    assert kept is None


def test_a_world_is_written_once_per_marks_and_engagement() -> None:
    worlds = Worlds(1, 0)
    e = Engagement(UnitState((1, 2), 3), UnitState((2,)), LOCKED, FALLS_BACK, True)
    plain, marked = _world((9,), (9,)), _world((9,), (9,), ((0, 4),))
    z = worlds.join(plain, e)
    # the attacker (position 1) cleared of its unsaved wounds, just charged: "charging"
    assert z == World((UnitState((2,)), UnitState((1, 2))), (FALLS_BACK, "charging"), ())
    assert worlds.join(_world((5,), (5,)), e) is z
    # other marks: another world, which keeps them
    assert worlds.join(marked, e) == z._replace(marks=((0, 4),))
    # each written world's engagement is the one read from it (counters cleared)
    assert worlds.engagement(z) == Engagement(UnitState((1, 2)), UnitState((2,)), LOCKED, FALLS_BACK, True)
    assert worlds.engagement(plain) == Engagement(UnitState((9,)), UnitState((9,)), "", "", False)


def test_a_round_from_worlds_is_the_rounds_mixture() -> None:
    """The same pairs, in the same order, and the same engagements numbered in the
    same sequence as Rounds.mixture, round after round from the same records."""
    a = Unit((fighter("a", count=4, i=2, a=2, ld=7),))
    d = Unit((fighter("d", count=3, i=3, ld=7, save=5),))
    items = [(Engagement(UnitState((0, 0, 1, 1)), UnitState((0, 1, 1)), READY, READY, False), 1),
             (Engagement(UnitState((1, 1, 1, 1)), UnitState((1, 1, 1)), LOCKED, LOCKED, True), 3),
             (Engagement(UnitState((0, 1, 1, 1)), UnitState((1, 1, 1)), LOCKED, LOCKED, False), 2),
             (Engagement(UnitState((1, 1, 1, 1)), UnitState((1, 1, 1)), FALLS_BACK, READY, True), 4),
             (Engagement(UnitState((0, 0, 1, 1)), UnitState((0, 0, 1)), LOCKED, LOCKED, False), 5)]
    plain, ours = Rounds(a, d), Rounds(a, d)
    seen = [(_Seen(_world((9,), (9,)), e), w) for e, w in items]
    for _ in range(2):
        want = plain.mixture(items)
        assert want is not None and _round_mixture(ours, seen) == want
        assert ours.numbering.values == plain.numbering.values
    # a record keeps the number of an engagement that passes through, and only that
    assert [s.number for s, _ in seen] == [plain.numbering.values.index(e) if not e.locked() else -1
                                          for e, _ in items]
