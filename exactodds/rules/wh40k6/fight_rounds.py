"""Fight rounds between two units locked in an assault, Warhammer 40,000 6th
edition, exact: the :class:`Engagement` (both units' states and how the
assault stands for each), and a round of it as a kernel and as weight tables
(:class:`Rounds`): the blows by Initiative (:class:`~.fight.Blows`), the
combat result, the loser's morale test and the sweeping advance.

A round is memoised per distinct engagement (its row: the states after the
blows, each keyed by its ending), and the endings (combat result, morale
test, sweeping advance) once per (unit states, decisive difference of
unsaved wounds) for all the rounds of one assault (:class:`RoundEndings`).
A round from a whole distribution of engagements sums the rows on the
endings and applies each ending once (:meth:`Rounds.mixture`). The rules
these follow are quoted beside :mod:`.fight`'s steps.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from fractions import Fraction
from functools import lru_cache
from typing import Any, NamedTuple, cast

from ...core import Dist
from ...core.bigint import accumulators, integers
from ...core.limits import charge
from ...core.tables import mix
from ...dice import d6
from ..allocation import Numbering, UnitState
from .fight import DEFENDER, NOBODY, Blows, FightState, Standing, combat_result, standing_of, who_falls_back
from .firing import cleared
from .units import Unit

LOCKED, CHARGE_FAILED, FALLS_BACK, SWEPT, READY = "locked", "charge failed", "falling back", "swept", ""
"""How an assault stands for a unit (the empty text: nothing)."""

ATSKNF = "and-they-shall-know-no-fear"


class Engagement(NamedTuple):
    """Two units in an assault: the charger's and the charged unit's states
    (wounds left per model; the unsaved wounds each suffered in the current
    fight round) and how the assault stands for each (:data:`LOCKED`,
    :data:`CHARGE_FAILED`, :data:`FALLS_BACK`, :data:`SWEPT` or :data:`READY`)."""

    attacker: UnitState
    defender: UnitState
    attacker_status: str = READY
    defender_status: str = READY
    just_charged: bool = False

    def locked(self) -> bool:
        """Both units in play and locked in combat."""
        return (self.attacker_status == LOCKED and self.defender_status == LOCKED
                and any(self.attacker.wounds) and any(self.defender.wounds))


def sweep_initiative(unit: Unit, state: UnitState) -> int:
    """The Initiative a unit rolls with in a sweeping advance: the lowest among
    its models in play (the rules do not say for a mixed unit; a unit moves at
    the pace of its slowest model, as in the charge). 0 when none is left. O(models)."""
    models = unit.expanded()
    return min((models[i].melee.initiative for i in state.alive()  # type: ignore[union-attr]
                if models[i].melee is not None), default=0)


@lru_cache(maxsize=None)
def p_caught(winner_initiative: int, loser_initiative: int) -> Fraction:
    """P(D6 + the winner's Initiative >= D6 + the loser's): the loser is caught. O(36)."""
    return (d6.combine(d6, lambda a, b: a + winner_initiative >= b + loser_initiative)).pmf(True)


def _wiped(state: UnitState) -> UnitState:
    """``state`` with every model removed and its unsaved-wound counter at 0."""
    return UnitState(tuple(0 for _ in state.wounds), 0, state.marked)


def sweeping_advance(who: str, winner_initiative: int, loser_initiative: int, fights_on: bool = False) -> Dist:
    """The loser ``who`` falls back; the winner's sweeping advance may catch it:
    Dist over the pair of statuses (attacker's, defender's) after the round,
    both :data:`LOCKED` when nobody falls back (the combat goes on).
    ``fights_on``: the loser has And They Shall Know No Fear, so caught it is
    not destroyed and stays locked in combat. O(1)."""
    if who == NOBODY:
        return Dist.constant((LOCKED, LOCKED))
    caught = p_caught(winner_initiative, loser_initiative)
    if fights_on:
        loser = (READY, FALLS_BACK) if who == DEFENDER else (FALLS_BACK, READY)
        return Dist.bernoulli(caught, success=(LOCKED, LOCKED), failure=loser)
    if who == DEFENDER:
        return Dist.bernoulli(caught, success=(READY, SWEPT), failure=(READY, FALLS_BACK))
    return Dist.bernoulli(caught, success=(SWEPT, READY), failure=(FALLS_BACK, READY))


class _Side(NamedTuple):
    """One unit after the blows of a round, as the rest of the round needs it."""

    state: UnitState
    """Its state, the unsaved-wound counter at 0."""
    swept: UnitState
    """Its state when caught by a sweeping advance: every model removed."""
    standing: Standing
    """Models in play, highest Leadership, morale rule (the combat result)."""
    initiative: int
    """The Initiative it rolls with in a sweeping advance."""
    fearless_of_sweeps: bool = False
    """A model in play has And They Shall Know No Fear: a sweeping advance does not destroy it."""
    kind: int = 0
    """The number of what the combat result, the morale test and the sweeping
    advance read of it beside the unsaved wounds (models in play or none, highest
    Leadership, morale rule, Initiative, And They Shall Know No Fear): sides of
    one kind end a round alike."""
    number: int = 0
    """The number of its state among both units' states (the keys of a round's endings)."""


def decisive(difference: int, attacker: Standing, defender: Standing) -> int:
    """The difference of unsaved wounds (the attacker's inflicted minus the
    defender's) as far as the combat result tells it apart
    (:func:`~.fight.who_falls_back`): 0 when nobody tests; its sign alone when
    the loser is Fearless or Stubborn; else at most Leadership - 2 either way
    (a test on 2 or less passes only on a double 1). O(1)."""
    if not (difference and attacker.survivors and defender.survivors):
        return 0
    loser = defender if difference > 0 else attacker
    sign = 1 if difference > 0 else -1
    if loser.morale:
        return sign
    return sign * min(abs(difference), max(1, loser.leadership - 2))


class RoundEndings:
    """What the fight rounds of one assault (the round of the charge and the
    later ones, same two units) share in :func:`fight_round`: the end of a round
    (the combat result, the loser's morale test, the sweeping advance) reads
    the units' states after the blows and the difference of unsaved wounds,
    never which round it is. So both keep one object per distinct unit state
    (equal engagements are then told equal by identity), one record per unit
    state (:class:`_Side`), and one numbered ending per (states, decisive
    difference): a later round meets most of the charge's endings again.
    The endings name the engagements after the round by their numbers in
    :attr:`numbers`, which both rounds' tables give. Lives as long as the
    assault's steps (one run)."""

    __slots__ = ("numbers", "states", "kinds", "state_ids", "a_sides", "d_sides", "falls", "ends", "numbered", "scaled",
                 "end_lists", "end_weights", "spread", "big_ending", "outcomes", "ends_at", "statuses_ids",
                 "pair_ends", "kernels")

    def __init__(self) -> None:
        self.numbers: Numbering[Engagement] = Numbering()
        """The engagements' numbers (the endings' and the rounds' tables')."""
        self.states: dict[UnitState, UnitState] = {}
        self.kinds: Numbering[tuple] = Numbering()
        self.state_ids: Numbering[UnitState] = Numbering()
        self.a_sides: dict[UnitState, _Side] = {}
        self.d_sides: dict[UnitState, _Side] = {}
        self.falls: dict[tuple, Dist] = {}
        self.ends: dict[tuple, Table] = {}
        self.numbered: dict[tuple, int] = {}
        # per attacker's state number: the defender's part of a key plus the clamped
        # difference of unsaved wounds -> the ending's index (small keys, small dictionaries)
        self.scaled: dict[int, dict[int, int]] = {}
        # the endings, by index: the numbers of the engagements after the round, in
        # order, and their weights over ENDING_DENOMINATOR in the same order
        self.end_lists: list[tuple[int, ...]] = []
        self.end_weights: list[tuple[int, ...]] = []
        # the endings as flat records by their number of outcomes, for the rounds' loops, per
        # kind of integers (True: gmpy2's): three lists, one record per ending in one of them
        self.spread: dict[bool, tuple[list[tuple], list[tuple], list[tuple]]] = {}
        # the endings' weights as gmpy2's integers (shared tuples, converted once each, by their ids)
        self.big_ending: dict[int, tuple[Any, ...]] = {}
        self.outcomes: dict[tuple[int, int, int], tuple[int, int, tuple[tuple[str, str], ...],
                                                        tuple[int, ...]] | None] = {}
        self.ends_at: dict[int, int] = {}
        self.statuses_ids: Numbering[tuple[tuple[str, str], ...]] = Numbering()
        self.pair_ends: dict[int, tuple[int, ...]] = {}
        self.kernels: tuple[dict, dict] = ({}, {})
        """Each unit's wound kernels at the other (:meth:`~.blows.Striker.kernel`), with the
        chains of states they keep: the same in every round."""


def fight_round(attacker: Unit, defender: Unit, charged: bool, difficult_terrain: bool = False,
                shared: RoundEndings | None = None) -> RoundKernel:
    """One round of combat between locked units, as a kernel on
    :class:`Engagement`: the Initiative steps (as in
    :func:`~.fight.fight_pipeline`; ``charged``: the attacker charged this
    turn, +1 Attack), then the combat result, the loser's morale test and the
    sweeping advance. A unit destroyed ends the combat.

    Engagements not locked pass through unchanged. Memoised per engagement
    (its row: the states after the blows, each keyed by its ending); cost
    (distinct engagements) x (one fight's Initiative steps), then per state
    after the blows O(1); each ending (combat result, morale test, sweeping
    advance) once per (unit states, decisive difference), O(models). A round
    from a whole distribution of engagements (:meth:`RoundKernel.mixture`)
    sums the rows on the endings and applies each ending once. ``shared``:
    the engagements' numbers, endings and unit states it shares with the
    other rounds of the same two units (:class:`RoundEndings`)."""
    shared = RoundEndings() if shared is None else shared
    numbers = shared.numbers
    canonical = shared.states
    blows = Blows(attacker, defender, charged, difficult_terrain, shared.kernels)
    a_models, d_models = attacker.expanded(), defender.expanded()

    kinds, state_ids = shared.kinds, shared.state_ids

    def sides(unit: Unit, models: list, memo: dict[UnitState, _Side]) -> Callable[[UnitState], _Side]:
        def side(state: UnitState) -> _Side:
            got = memo.get(state)
            if got is None:
                # states differing only in their unsaved counters share one record, so equal
                # states after the round are one object (the merges compare them by identity)
                clear = cleared(state)
                clear = canonical.setdefault(clear, clear)
                got = memo.get(clear)
                if got is None:
                    standing = standing_of(models, clear)
                    initiative = sweep_initiative(unit, clear)
                    fearless = any(ATSKNF in models[i].rules for i in clear.alive())
                    kind = kinds.number((standing.survivors > 0, standing.leadership, standing.morale,
                                         initiative, fearless))
                    got = memo[clear] = _Side(clear, _wiped(clear), standing, initiative, fearless, kind,
                                              state_ids.number(clear))
                memo[state] = got
            return got

        return side

    a_side, d_side = sides(attacker, a_models, shared.a_sides), sides(defender, d_models, shared.d_sides)
    endings = shared.falls

    def ending(falls: Dist, a: _Side, d: _Side) -> Dist:
        """The statuses after the loser's morale test (``falls``) and the sweeping advance."""
        key = (falls, a.initiative, d.initiative, a.fearless_of_sweeps, d.fearless_of_sweeps)
        got = endings.get(key)
        if got is None:
            got = endings[key] = falls.then(lambda who: sweeping_advance(
                who, *((a.initiative, d.initiative, d.fearless_of_sweeps) if who == DEFENDER
                       else (d.initiative, a.initiative, a.fearless_of_sweeps))))
        return got

    def end_of_round(a: _Side, d: _Side, statuses: tuple[str, str]) -> Engagement:
        """The engagement after the round; a unit destroyed ends the combat."""
        sa, sd = statuses
        att, dfd = a.swept if sa == SWEPT else a.state, d.swept if sd == SWEPT else d.state
        if sa == LOCKED and not (any(att.wounds) and any(dfd.wounds)):
            return Engagement(att, dfd, READY, READY, False)
        return Engagement(att, dfd, sa, sd, False)

    ends, numbered = shared.ends, shared.numbered

    def end_number(a: _Side, d: _Side, statuses: tuple[str, str]) -> int:
        """The number of the engagement after the round (:func:`end_of_round`). O(1) when known."""
        key = (a.number, d.number, statuses)
        got = numbered.get(key)
        if got is None:
            got = numbered[key] = numbers.number(end_of_round(a, d, statuses))
        return got

    def settled(att: UnitState, dfd: UnitState) -> Table:
        """The combat result, the loser's morale test and the sweeping advance
        after the blows left ``att`` and ``dfd``: (number of the engagement after
        the round, integer weight) pairs and their total. The combat result
        reads the unsaved wounds only through their difference, and that only
        up to :func:`decisive`, so this is memoised per (states without their
        counters, decisive difference): states reached from different
        engagements share it. O(1) when known."""
        a, d = a_side(att), d_side(dfd)
        key = (a.state, d.state, decisive(dfd.unsaved - att.unsaved, a.standing, d.standing))
        got = ends.get(key)
        if got is None:
            falls = ending(who_falls_back(combat_result(a.standing, d.standing, FightState(att, dfd))), a, d)
            got = ends[key] = (tuple((end_number(a, d, st), v) for st, v in falls.weights().items()),
                               falls.denominator)
        return got

    # beyond the highest Leadership - 2 either way no difference of unsaved wounds is
    # told apart (decisive), so the look-ups below clamp it there first
    cap = max(1, max(m.melee.leadership for m in (*a_models, *d_models)) - 2)  # type: ignore[union-attr]
    low = -cap
    span = 2 * cap + 1
    scaled, end_lists, end_weights = shared.scaled, shared.end_lists, shared.end_weights
    spread, big_ending = shared.spread, shared.big_ending
    outcomes, ends_at, statuses_ids, pair_ends = shared.outcomes, shared.ends_at, shared.statuses_ids, shared.pair_ends

    def settled_over(att: UnitState, dfd: UnitState, a: _Side, d: _Side, here: dict[int, int], key: int,
                     base: int, d_id: int) -> int:
        """The index in ``end_lists`` of :func:`settled`'s pairs over
        :data:`ENDING_DENOMINATOR` (-1 when its total does not divide it, not
        memoised) after the blows left ``att`` and ``dfd`` (their sides ``a``
        and ``d``), memoised in ``here`` (the attacker's state's dictionary in
        ``scaled``) on ``key`` (the rest of :func:`settled`'s key as one
        integer: the defender's ``d_id`` times ``span`` plus the clamped
        difference of unsaved wounds), and in ``ends_at`` on ``base`` (the
        attacker's state number, shifted) or'ed with the same integer made
        with the :func:`decisive` difference. The decisive
        difference and the statuses after the test and the sweep are kept per
        (both sides' :attr:`_Side.kind`, difference of unsaved wounds), the
        engagements after the round per (pair of states, those statuses). O(1)
        when known."""
        how = (a.kind, d.kind, dfd.unsaved - att.unsaved)
        known = outcomes.get(how)
        if known is None:
            if how in outcomes:
                return -1
            # the test reads the unsaved wounds only up to their decisive difference
            falls = ending(who_falls_back(combat_result(a.standing, d.standing, FightState(att, dfd))), a, d)
            f, rest = divmod(ENDING_DENOMINATOR, falls.denominator)
            weights = falls.weights()
            known = outcomes[how] = None if rest else (
                decisive(how[2], a.standing, d.standing), statuses_ids.number(tuple(weights)), tuple(weights),
                tuple(v * f for v in weights.values()))
            if known is None:
                return -1
        dec, sid, statuses, scaled_weights = known
        at = base | (d_id * span + dec + cap)
        got = ends_at.get(at)
        if got is None:
            at_pair = sid << 64 | base | d_id
            ends_list = pair_ends.get(at_pair)
            if ends_list is None:
                ends_list = pair_ends[at_pair] = tuple(end_number(a, d, st) for st in statuses)
            got = ends_at[at] = len(end_lists)
            end_lists.append(ends_list)
            end_weights.append(scaled_weights)
        here[key] = got
        return got

    a_sided: dict[int, tuple] = {}
    d_sided: dict[int, tuple] = {}

    def a_sided_of(on: tuple) -> tuple:
        """The attacker's blows (:data:`~.fight.Part`) as (state, its side, the
        number of its state without the counter shifted to a key's high bits,
        unsaved wounds, weight, that number's dictionary in ``scaled``), once
        per table (tables are kept by the strikers)."""
        got = a_sided.get(id(on))
        if got is None or got[0] is not on:
            got = a_sided[id(on)] = (on, tuple((st, a, a.number << 40, st.unsaved, v, scaled.setdefault(a.number, {}))
                                                for st, v in on for a in (a_side(st),)))
        return got[1]

    # the defender's weights after the last step, one tuple per table (a row names
    # its tables by their index here), and the same as ``mpz`` once a round needs them
    d_weights: list[tuple[int, ...]] = []
    big_weights: list[tuple[Any, ...]] = []
    sums: list[Any] = []  # a round's sums per ending, then per engagement after it: kept from round to round
    outs: list[Any] = []

    # the same per sequence of states (tables along one chain of states share theirs), by
    # the states' ids: the records hold the states, so their ids are not reused meanwhile
    d_states: dict[tuple[int, ...], tuple[tuple, tuple]] = {}

    def d_sided_of(on: tuple) -> tuple:
        """The defender's blows as ((state, its side, the number of its state
        without the counter, that number's part of a key, unsaved wounds), ...),
        the index of their weights, in the same order, in ``d_weights``, and
        the (part of a key, unsaved wounds) pairs alone; once per table, the
        states' part once per sequence of states."""
        got = d_sided.get(id(on))
        if got is None or got[0] is not on:
            ids = tuple([id(st) for st, _ in on])
            known = d_states.get(ids)
            if known is None:
                ds = tuple((st, d, d.number, d.number * span + cap, st.unsaved)
                           for st, _ in on for d in (d_side(st),))
                known = d_states[ids] = (ds, tuple((dk, ud) for _, _, _, dk, ud in ds))
            got = d_sided[id(on)] = (on, known[0], len(d_weights), known[1])
            d_weights.append(tuple([v for _, v in on]))
        return got[1:]

    rows: dict[Engagement, Row | None] = {}

    def row_of(e: Engagement) -> Row | None:
        """The round from a locked engagement up to the endings, as the last
        Initiative step's parts: per state before that step and each attacker's
        state after it, (its weight, the indices in ``end_lists`` of the endings
        its defender's states after the step reach, the index in ``d_weights``
        of those states' weights (kept per table)); the row's total and its
        number of entries. The weight of an
        entry is its part's times its own (an index may come again: its weights
        add up). None with Concussive weapons or an ending of another
        denominator. O(states after the blows) look-ups of one small integer
        key each, in the attacker's state's own dictionary (the key packs the
        defender's state number and the clamped difference of unsaved
        wounds), no product: a round multiplies out the parts it sums
        (:func:`mixture`). Memoised per engagement."""
        got = rows.get(e, rows)  # the dict itself: not met yet (a row may be None)
        if got is not rows:
            return got  # type: ignore[return-value]
        rows[e] = None
        if blows.a.concussive or blows.d.concussive:
            return None
        parts, lcm, total = blows.last_step(FightState(cleared(e.attacker), cleared(e.defender)))
        row: list[tuple[int, tuple[int, ...], int]] = []
        entries = 0
        for w, den, on_a, on_d in parts:
            scale = w * (lcm // den)
            ds, t, dks = d_sided_of(on_d)
            for att, a, base, ua, va, here in a_sided_of(on_a):
                get = here.get
                found = [get(dk + (u if low <= (u := ud - ua) <= cap else cap if u > 0 else low)) for dk, ud in dks]
                if None in found:
                    for k in range(found.index(None), len(found)):
                        if found[k] is None:
                            dfd, d, d_id, dk, ud = ds[k]
                            u = ud - ua
                            key = dk + (u if low <= u <= cap else cap if u > 0 else low)
                            i = found[k] = settled_over(att, dfd, a, d, here, key, base, d_id)
                            if i < 0:  # not kept in ``scaled``: met again, it is found again
                                return None
                row.append((scale * va, tuple(found), t))  # type: ignore[arg-type]
                entries += len(found)
        got = rows[e] = (tuple(row), total * lcm, entries)
        return got

    def fused(e: Engagement) -> Table | None:
        """The round from a locked engagement as a weight table from its
        :func:`row_of` (the same pairs, in the same order, as :func:`merged`;
        not reduced). O(its row x endings)."""
        got = row_of(e)
        if got is None:
            return None
        out: dict[int, int] = {}
        put = out.get
        for sa, idx, t in got[0]:
            for i, vd in zip(idx, d_weights[t], strict=True):
                x = sa * vd
                for end, v in zip(end_lists[i], end_weights[i]):
                    out[end] = put(end, 0) + x * v
        return tuple(out.items()), got[1] * ENDING_DENOMINATOR

    def spread_endings(big: Callable[[int], Any]) -> tuple[list[tuple], list[tuple], list[tuple]]:
        """The endings as flat records for a round's loop on the integers of
        ``big`` (:func:`~exactodds.core.bigint.integers`): (index, number of an
        engagement after the round, weight) three times over for the endings
        of three outcomes (a morale test, then a sweeping advance or not), once
        for those of one, (index, numbers, weights) for the others; extended
        with the endings made since the last round. O(new endings)."""
        on_gmp = big is not int
        got = spread.get(on_gmp)
        if got is None:
            got = spread[on_gmp] = ([], [], [])
        threes, ones, others = got
        for i in range(len(threes) + len(ones) + len(others), len(end_lists)):  # the endings made since
            ends, w = end_lists[i], end_weights[i]
            if on_gmp:
                as_big = big_ending.get(id(w))
                if as_big is None:  # the endings' weights are shared tuples: kept alive by them
                    as_big = big_ending[id(w)] = tuple(map(big, w))
                w = as_big
            if len(ends) == 3:
                threes.append((i, ends[0], w[0], ends[1], w[1], ends[2], w[2]))
            elif len(ends) == 1:
                ones.append((i, ends[0], w[0]))
            else:
                others.append((i, ends, w))
        return got

    def mixture(items: Sequence[tuple[Engagement, int]], through: Iterable[tuple[int, int]] = ()) -> Mixture | None:
        """The round from each of ``items`` (locked engagements, integer weights
        over a total the caller keeps) at once, and ``through`` (the numbers of
        the engagements passing through, each with its weight over the same
        total; read once the rows and endings are numbered): states after the
        blows merged on their ending (states, decisive difference of unsaved
        wounds) across the engagements before the endings are applied. Returns
        (number of the engagement after the round, weight) pairs in the order
        of the numbers, over the caller's total x the returned factor, and that
        factor; None with Concussive weapons or an ending of another
        denominator. O(each engagement's row) multiply-adds (:func:`row_of`, memoised, so a later
        round from known engagements costs only these, on a list indexed by
        ending; one more per part of a row), then O(distinct endings x their
        outcomes): the endings are applied once per round, not once per
        engagement. With gmpy2 installed, a long loop adds GMP's integers
        (:func:`~exactodds.core.bigint.integers`), in place, its small factors
        converted once (per table, per ending): the same integers. The weights
        passing through are scaled on the same integers. O(through) more."""
        if not items:
            alone: dict[int, int] = {}
            for end, w in through:
                alone[end] = alone.get(end, 0) + w
            return sorted(alone.items()), 1
        found = [row_of(e) for e, _ in items]
        if None in found:
            return None
        got = cast("list[Row]", found)
        totals = {row[1] for row in got}
        common = math.lcm(*totals)
        scales = {total: common // total for total in totals}
        # the big weights (and their sums) as gmpy2's integers when the loop is long enough
        bits = max((w.bit_length() for _, w in items), default=0) + common.bit_length()
        big = integers(sum(row[2] for row in got), bits)
        acc = accumulators(big, len(end_lists), sums)
        if big is int:
            tables = d_weights
        else:  # an mpz times an mpz skips converting the small factor at every product
            tables = big_weights
            big_weights.extend(tuple(map(big, w)) for w in d_weights[len(big_weights):])
        for (_, weight), (row, total, entries) in zip(items, got, strict=True):
            f = big(weight * scales[total])
            charge(entries, f.bit_length())
            for sa, idx, t in row:
                g = f * sa
                for i, x in zip(idx, tables[t]):
                    acc[i] += g * x
        through = list(through)  # numbered after the endings, before the sums are sized
        out = accumulators(big, len(numbers.values), outs)
        threes, ones, others = spread_endings(big)
        for i, e1, v1, e2, v2, e3, v3 in threes:  # most endings: a morale test, then a sweep or not
            x = acc[i]
            if x:
                out[e1] += x * v1
                out[e2] += x * v2
                out[e3] += x * v3
        for i, e1, v1 in ones:
            x = acc[i]
            if x:
                out[e1] += x * v1
        for i, ends, ws in others:
            x = acc[i]
            if x:
                for end, v in zip(ends, ws):
                    out[end] += x * v
        factor = common * ENDING_DENOMINATOR
        scale = big(factor)
        for end, w in through:
            out[end] += scale * w
        return [(end, int(x)) for end, x in enumerate(out) if x], factor

    def merged(e: Engagement) -> Table:
        """The round from a locked engagement as a weight table: the blows
        (:meth:`~.fight.Blows.round_weights`), then per state after them its
        ending (:func:`settled`), merged on the engagements' numbers:
        O(states after the blows x endings) integer multiply-adds."""
        states, blows_total = blows.round_weights(FightState(cleared(e.attacker), cleared(e.defender)))
        out, lcm = mix([(w, settled(att, dfd)) for (att, dfd), w in states.items()])
        g = math.gcd(*out.values())
        return tuple((end, v // g) for end, v in out.items()), blows_total * lcm // g  # the weights' sum

    def table(e: Engagement) -> Table:
        """The round's weight table (not always reduced: a Dist built from it, or
        the worlds merged from it, are the same either way)."""
        return fused(e) or merged(e)

    return RoundKernel(table, numbers, mixture)


ENDING_DENOMINATOR = 36 * 36
"""A common multiple of the endings' totals: a morale test in 36ths, then a
sweeping advance in 36ths."""

Row = tuple[tuple[tuple[int, tuple[int, ...], int], ...], int, int]
"""A round from one engagement up to the endings (see ``row_of`` in :func:`fight_round`)."""

Mixture = tuple[list[tuple[int, int]], int]
"""A round from many engagements at once (:meth:`RoundKernel.mixture`)."""

Table = tuple[tuple[tuple[int, int], ...], int]
"""A kernel's answer as a plain table: ((number of an engagement, integer
weight), ...) and their total (the numbers from a
:class:`~exactodds.rules.allocation.Numbering`)."""


class RoundKernel:
    """A fight round as a kernel on :class:`Engagement` (calling it gives a
    :class:`Dist`) and as a weight table (:meth:`table`, what a step on
    worlds merges without building a Dist per engagement). Engagements not
    locked pass through; locked ones are memoised, O(1) when known."""

    def __init__(self, locked_table: Callable[[Engagement], Table], numbering: Numbering,
                 locked_mixture: Callable[[Sequence[tuple[Engagement, int]], Iterable[tuple[int, int]]],
                                          Mixture | None] | None = None) -> None:
        self._locked_table = locked_table
        self._locked_mixture = locked_mixture
        self.numbering = numbering
        self._tables: dict[Engagement, Table] = {}

    def mixture(self, items: Sequence[tuple[Engagement, int]],
                through: Iterable[tuple[int, int]] = ()) -> Mixture | None:
        """The round from each of ``items`` (locked engagements, integer weights)
        at once, and ``through`` ((number, weight) of the engagements passing
        through): (number, weight) pairs over the weights' total x the factor,
        in the order of the numbers, and the factor; None when it is only
        computed engagement by engagement (:meth:`table`)."""
        return self._locked_mixture(items, through) if self._locked_mixture else None

    def table(self, e: Engagement) -> Table:
        """((number of the engagement after the round, weight), ...) and their total."""
        if not e.locked():
            return ((self.numbering.number(e), 1),), 1
        got = self._tables.get(e)
        if got is None:
            got = self._tables[e] = self._locked_table(e)
        return got

    def __call__(self, e: Engagement) -> Dist:
        if not e.locked():
            return Dist.constant(e)
        ends = self.numbering.values
        return Dist.from_weights({ends[i]: v for i, v in self.table(e)[0]})


class Rounds:
    """The fight rounds of an assault between ``attacker`` and ``defender``: the
    round of the charge (for an engagement whose charge was just made, through
    ``difficult_terrain`` or not) or a further round, as a kernel and as a
    weight table, both numbering engagements alike (:attr:`numbering`)."""

    def __init__(self, attacker: Unit, defender: Unit, difficult_terrain: bool = False) -> None:
        shared = RoundEndings()
        self.numbering: Numbering[Engagement] = shared.numbers
        self.charging = fight_round(attacker, defender, True, difficult_terrain, shared)
        self.continuing = fight_round(attacker, defender, False, shared=shared)

    def table(self, e: Engagement) -> Table:
        """The round's weight table (:meth:`RoundKernel.table`)."""
        return (self.charging if e.just_charged else self.continuing).table(e)

    def __call__(self, e: Engagement) -> Dist:
        return (self.charging if e.just_charged else self.continuing)(e)

    def on_dist(self, dist: Dist) -> Dist:
        """``dist.then(self)`` from :meth:`mixture` (the same outcomes and weights;
        the outcomes in the order of their numbers)."""
        pairs = self.mixture(list(dist.weights().items()))
        if pairs is None:
            return dist.then(self)
        ends = self.numbering.values
        return Dist.from_weights({ends[i]: v for i, v in pairs})

    def mixture(self, items: Sequence[tuple[Engagement, int]], kinds: Sequence[int] | None = None,
                passing: Callable[[int], int] | None = None) -> list[tuple[int, int]] | None:
        """The round from each of ``items`` (engagements, integer weights) at once,
        as (number of the engagement after the round, weight) pairs in the order
        of the numbers, over the items' total times an unreduced factor; None
        when only tables serve (:meth:`RoundKernel.mixture`). ``kinds``: each
        item's :func:`round_kind` (found here when not given); ``passing``: the
        number of item k's engagement when it passes through (not locked;
        numbered here when not given). The locked engagements of each round (of
        the charge, a further one) and those passing through it go through that
        round's :meth:`RoundKernel.mixture` (those passing through numbered after
        its locked ones, in the items' order); the two rounds' answers, when both
        have items, are put over one factor, added and sorted. O(items) (O(items
        log items) when both rounds have items) plus the rounds' mixtures."""
        if kinds is None:
            kinds = [round_kind(e) for e, _ in items]
        by_kind: tuple[list[int], ...] = ([], [], [], [])
        for k, kind in enumerate(kinds):
            by_kind[kind].append(k)
        groups = []
        for kernel, locked, through in ((self.charging, by_kind[0], by_kind[1]),
                                        (self.continuing, by_kind[2], by_kind[3])):
            if not (locked or through):
                continue
            numbered = ((passing(k) if passing else self.numbering.number(items[k][0]), items[k][1]) for k in through)
            got = kernel.mixture([items[k] for k in locked], numbered)
            if got is None:
                return None
            groups.append(got)
        if len(groups) == 1:
            return groups[0][0]
        total, _ = mix([(1, got) for got in groups])  # over the factors' lcm
        return sorted(total.items())


def round_kind(e: Engagement) -> int:
    """Which round an engagement fights, and how: 0 locked in the round of its
    charge, 1 passing through that round (not locked), 2 and 3 the same in a
    further round. O(models)."""
    return (0 if e.just_charged else 2) + (not e.locked())
