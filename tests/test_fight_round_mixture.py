"""The fight rounds' fast paths give the same exact answers as the plain ones:
a line's blows as a binomial thinning (one wound takes the next model or is
saved) against the wound chain, a round from many engagements at once against
each engagement's table merged, and the difference of unsaved wounds clamped
where the combat result stops telling it apart."""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction as F

import pytest

from exactodds.core import bigint
from exactodds.rules.allocation import UnitState
from exactodds.rules.wh40k6.blows import Striker
from exactodds.rules.wh40k6.casualties import IndexedKernel
from exactodds import Dist
from exactodds.rules.wh40k6.fight_rounds import LOCKED, READY, Engagement, Rounds, decisive, fight_round
from exactodds.rules.wh40k6.fight import Blows, FightState, Standing
from exactodds.rules.wh40k6.melee import MeleeWeapon
from exactodds.rules.wh40k6.units import Unit
from tests.test_wh40k6_fight import fighter


def _pairs(d) -> list:
    return [(s.wounds, s.unsaved, w) for s, w in d.weights().items()]


def _strike(unit: Unit, target: Unit, foe: UnitState, chain: bool, monkeypatch: pytest.MonkeyPatch) -> list:
    """The target after one Initiative step of ``unit``'s blows; ``chain``: by the
    plain wound chain (every wound in turn), neither shortcut taken."""
    with monkeypatch.context() as m:
        if chain:
            m.setattr(IndexedKernel, "birth_chain", lambda self, start: None)
            m.setattr(IndexedKernel, "saved_chain", lambda self, start: None)
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


def _loops_on(mpz_work: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """A round's loop on gmpy2's integers (``mpz_work`` 0, where installed) or on
    Python's (10 ** 18), whether or not an earlier test imported gmpy2 (after
    which :data:`~exactodds.core.bigint.MPZ_WORK_LOADED` is the threshold)."""
    monkeypatch.setattr(bigint, "MPZ_WORK", mpz_work)
    monkeypatch.setattr(bigint, "MPZ_WORK_LOADED", mpz_work)


@pytest.mark.parametrize("mpz_work", [0, 10 ** 18])
def test_a_round_from_many_engagements_is_their_tables_merged(mpz_work: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Rounds.mixture against each engagement's table, weighted and merged; its
    pairs in the order of the numbers. ``mpz_work`` 0: the loop on gmpy2's
    integers (where installed), else on Python's."""
    _loops_on(mpz_work, monkeypatch)
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
    assert {i: F(v, total) for i, v in got} == want
    assert [i for i, _ in got] == sorted(want) and all(type(v) is int for _, v in got)


@pytest.mark.parametrize("mpz_work", [0, 10 ** 18])
def test_engagements_passing_through_meet_the_rounds_outcomes(mpz_work: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """An engagement passing through a round that is also an outcome of a locked
    one (a unit destroyed), given twice: its weights add to that outcome's, on
    either kind of integers; a round of engagements passing through alone is
    their weights, one pair per engagement, in the order of the numbers."""
    _loops_on(mpz_work, monkeypatch)
    a = Unit((fighter("a", count=3, i=2, a=2, ld=7),))
    d = Unit((fighter("d", count=2, i=3, ld=7, save=5),))
    locked = Engagement(UnitState((1, 1, 1)), UnitState((1, 1)), LOCKED, LOCKED, False)
    rounds = Rounds(a, d)
    pairs, total = rounds.table(locked)
    ends = rounds.numbering.values
    over = next(ends[i] for i, _ in pairs if not ends[i].locked() and not any(ends[i].defender.wounds))
    items = [(locked, 4), (over, 3), (over, 2)]
    want: dict = {}
    for i, v in pairs:
        want[ends[i]] = want.get(ends[i], F(0)) + F(4, 9) * F(v, total)
    want[over] += F(5, 9)
    fresh = Rounds(a, d)
    got_rounds = fresh.mixture(items)
    assert got_rounds is not None
    weight = sum(v for _, v in got_rounds)
    assert {fresh.numbering.values[i]: F(v, weight) for i, v in got_rounds} == want
    assert [i for i, _ in got_rounds] == sorted({i for i, _ in got_rounds})
    alone = Rounds(a, d)
    only = alone.mixture([(over, 3), (over, 2), (Engagement(UnitState((1, 0, 0)), UnitState((0, 0)), READY, READY), 1)])
    assert only is not None and [(alone.numbering.values[i], v) for i, v in only] == [
        (over, 5), (Engagement(UnitState((1, 0, 0)), UnitState((0, 0)), READY, READY), 1)]


@pytest.mark.parametrize("rules", [(), ("and-they-shall-know-no-fear",)])
@pytest.mark.parametrize("mpz_work", [0, 10 ** 18])
def test_a_later_round_meeting_the_charges_endings_is_a_round_of_its_own(
        mpz_work: int, rules: tuple[str, ...], monkeypatch: pytest.MonkeyPatch) -> None:
    """The rounds of one assault share their endings (the charge's round numbers
    them first): a later round from what the charge's round left is what a fight
    round sharing nothing gives, outcome for outcome, and so is the round after
    it (which meets engagements, tables and endings the rounds before did not).
    ``mpz_work`` 0: every round's loop on gmpy2's integers (where installed).
    And They Shall Know No Fear: a defender caught by a sweep fights on, so an
    ending where it tests has two outcomes, not three."""
    _loops_on(mpz_work, monkeypatch)
    a = Unit((fighter("a", count=4, i=2, a=2, ld=7),))
    d = Unit((replace(fighter("d", count=3, i=3, ld=7, save=5), rules=rules),))
    start = Engagement(UnitState((1, 1, 1, 1)), UnitState((1, 1, 1)), LOCKED, LOCKED, True)
    rounds = Rounds(a, d)
    after = rounds.on_dist(Dist.constant(start))
    assert any(e.locked() for e in after.support())
    got = rounds.on_dist(after)
    want = after.then(fight_round(a, d, False))
    assert got == want and got.weights() == want.weights()
    third = rounds.on_dist(got)
    want = got.then(fight_round(a, d, False))
    assert third == want and third.weights() == want.weights()


def test_endings_of_another_denominator_take_the_plain_path(monkeypatch: pytest.MonkeyPatch) -> None:
    """When no ending's total divides the common ending denominator, the rows are
    refused (none kept) and every engagement's table is merged the plain way:
    the same probabilities, twice in a row (a refused key is not remembered)."""
    import exactodds.rules.wh40k6.fight_rounds as fight_rounds
    a = Unit((fighter("a", count=4, i=2, a=2, ld=7),))
    d = Unit((fighter("d", count=3, i=3, ld=7, save=5),))
    e = Engagement(UnitState((1, 1, 1, 1)), UnitState((1, 1, 1)), LOCKED, LOCKED, True)

    def answer(rounds: Rounds) -> dict:
        got = rounds.on_dist(rounds.on_dist(Dist.constant(e)))
        return {k: got.pmf(k) for k in got.support()}

    want = answer(Rounds(a, d))
    with monkeypatch.context() as m:
        m.setattr(fight_rounds, "ENDING_DENOMINATOR", 1)
        plain = Rounds(a, d)
        assert plain.mixture([(e, 1)]) is None and plain.mixture([(e, 1)]) is None
        assert answer(plain) == want
    assert len(want) > 10 and sum(want.values()) == 1


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


def _exact(pairs: list) -> dict:
    return {(ws, u): F(w, pairs[-1]) for ws, u, w in pairs[:-1]}


@pytest.mark.parametrize("foe", [UnitState((1, 1, 1, 1)), UnitState((1, 0, 1, 1), 2), UnitState((0, 1, 1, 1))])
def test_look_out_sir_as_one_binomial_of_unsaved_wounds(foe: UnitState, monkeypatch: pytest.MonkeyPatch) -> None:
    """A sergeant who passes wounds on at 4+, every model saving on 3+: the
    wounds that get through are Binomial(attacks, P(hit) P(wound) x 1/3), then
    the chain of states after each; the same exact answer as every wound in turn."""
    d = Unit((fighter("sgt", char=True, los=True, save=3), fighter("d", count=3, save=3)))
    a = Unit((fighter("a", count=4, a=2),))
    fast = _strike(a, d, foe, False, monkeypatch)
    assert _exact(fast) == _exact(_strike(a, d, foe, True, monkeypatch))
    # by hand from the full unit: 8 attacks, each through at 1/2 (hit) x 1/2 (wound) x 1/3 (3+ failed)
    if foe == UnitState((1, 1, 1, 1)):
        assert _exact(fast)[(1, 1, 1, 1), 0] == F(11, 12) ** 8


def test_saved_chain_needs_one_save_for_every_model() -> None:
    """A sergeant on 2+ among troopers on 4+: a wound stays put at two chances, no shortcut."""
    d = Unit((fighter("sgt", char=True, los=True, save=2), fighter("d", count=3, save=4)))
    s = Striker(Unit((fighter("a", count=3),)), d, False, False)
    assert s.kernel(4, None, False).saved_chain(UnitState((1, 1, 1, 1))) is None


@pytest.mark.parametrize("start", [UnitState((1, 1, 2)), UnitState((0, 1, 2), 1), UnitState((0, 0, 1), 4)])
def test_chains_from_states_without_their_counter(start: UnitState) -> None:
    """Two Boyz and a 2-Wound Nob last, each wound through a 6+ save at 5/6
    (S4 against T4: no Instant Death): closest first, one model or Wound per
    unsaved wound, the counter raised by one at each, from whatever it was."""
    d = Unit((fighter("boy", count=2, save=6), fighter("nob", w=2, save=6)))
    own = Striker(Unit((fighter("a", count=3),)), d, False, False).kernel(4, None, False)
    walk = [(1, 1, 2), (0, 1, 2), (0, 0, 2), (0, 0, 1), (0, 0, 0)]
    first = walk.index(start.wounds)
    want = tuple(UnitState(w, start.unsaved + k) for k, w in enumerate(walk[first:]))
    assert own.birth_chain(start) == (want, F(5, 6))
    assert own.birth_chain(UnitState((0, 0, 0), 7)) == ((UnitState((0, 0, 0), 7),), 0)


def _klaw_boyz() -> Unit:
    """Three Boyz (I2, A2, S3) and a Nob last (2 Wounds) with a power klaw: x2 Strength, AP2, Unwieldy (Initiative 1)."""
    boy = fighter("boy", count=3, i=2, a=2, s=3, ld=7, save=6)
    nob = replace(fighter("nob", i=3, a=3, ld=7, w=2, save=6, char=True, los=True), melee_weapons=("power klaw",))
    klaw = MeleeWeapon("power klaw", strength="x2", ap=2, rules=("unwieldy", "specialist-weapon"))
    return Unit((boy, nob), "orks", melee_weapons=(klaw,))


def test_steps_of_one_side_in_a_row_are_one_table(monkeypatch: pytest.MonkeyPatch) -> None:
    """Guardsmen at Initiative 3, then the Boyz at 2 and their Nob's klaw at 1
    (Unwieldy): the Boyz' and the Nob's blows as one table give the round's
    very states, weights and order of the steps one at a time."""
    orks = _klaw_boyz()
    guard = Unit((fighter("g", count=4, ws=3, i=3, s=3, t=3, ld=7, save=5),), "guard")
    start = FightState(UnitState(tuple(m.wounds for m in orks.expanded())), UnitState((1,) * 4))

    def weights(blows: Blows) -> list:
        states, total = blows.round_weights(start)
        return [(k, F(v, total)) for k, v in states.items()]

    runs = Blows(orks, guard, True)
    assert [r for r in runs._groups(runs._plan(start)[0])] == [((3,), "d"), ((2, 1), "a")]
    fused = weights(runs)
    with monkeypatch.context() as m:
        m.setattr(Blows, "_groups", lambda self, key: [((i,), "") for i in self._initiatives(key)])
        plain = weights(Blows(orks, guard, True))
    assert fused == plain
    assert sum(p for _, p in fused) == 1
