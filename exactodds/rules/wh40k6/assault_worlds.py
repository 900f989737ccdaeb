"""The worlds of a Warhammer 40,000 6th edition assault's (or fight's) steps:
each step's engagements written into worlds (:class:`~exactodds.rules.scenario.World`)
and read back from them, and the fight rounds on the whole distribution of
worlds at once (:func:`on_worlds`): the same distribution as the kernel
applied world by world (a round's outcomes listed in the order of the
engagements' numbers rather than of first appearance: a Dist's listing order
is not part of its answer, which is shown sorted).

A world of the two fighting units alone is decided by its engagement and
its marks, so it is written once per (marks, engagement) for the whole
assault, a fight round's outcomes once per engagement number; each written
world keeps beside it what the next round reads (:class:`_Seen`).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from typing import Any

from ...core import Dist, Kernel
from ...core.limits import charge
from ..allocation import Numbering
from ..scenario import World
from .fight_rounds import LOCKED, Engagement, Rounds, round_kind
from .firing import cleared

CHARGING = "charging"
"""A unit's status when its charge was just made (locked; the first round gives +1 Attack)."""


def _engagement(w: World, a: int, d: int) -> Engagement:
    sa = w.statuses[a]
    return Engagement(w.units[a], w.units[d], LOCKED if sa == CHARGING else sa, w.statuses[d], sa == CHARGING)


def _write(w: World, a: int, d: int, e: Engagement) -> World:
    units, statuses = list(w.units), list(w.statuses)
    units[a], units[d] = cleared(e.attacker), cleared(e.defender)
    statuses[a], statuses[d] = CHARGING if e.just_charged else e.attacker_status, e.defender_status
    return World(tuple(units), tuple(statuses), w.marks)


def _reads_back(e: Engagement) -> bool:
    """A world ``e`` is written into reads back ``e`` itself (:func:`_engagement`
    of :func:`_write`): its states carry no unsaved wounds and its charge is
    not just made (written as :data:`CHARGING`, read back as locked). O(1)."""
    return not (e.just_charged or e.attacker.unsaved or e.defender.unsaved)


class _Seen:
    """A world and what the steps read from it: its engagement, which round that
    fights (of the charge or a further one) and whether it is locked, and, for
    an engagement passing through, its number in one fight's numbering (found once)."""

    __slots__ = ("world", "engagement", "kind", "numbering", "number")

    def __init__(self, world: World, engagement: Engagement) -> None:
        self.world, self.engagement = world, engagement
        self.kind = round_kind(engagement)
        self.numbering: Numbering | None = None
        self.number = -1

    def number_in(self, numbering: Numbering) -> int:
        """The engagement's number in ``numbering`` (a new one the first time). O(1) when known."""
        if self.numbering is not numbering:
            self.numbering, self.number = numbering, numbering.number(self.engagement)
        return self.number


class Worlds:
    """The worlds of one assault's (or fight's) steps on units ``a`` and ``d``:
    each engagement written into a world, and each world's engagement.

    A world of these two units alone (``a != d``) is decided by its
    engagement and its marks (:func:`_write` replaces both units' states and
    statuses, and keeps the rest: the marks), so such a world is written once
    per distinct (marks, engagement) for all the steps, and once per (marks,
    number of an engagement) for the fight rounds' numbers (one numbering per
    :class:`~.fight_rounds.Rounds`). What the steps read from a world written
    here is kept beside it (:class:`_Seen`, found by the world's identity,
    O(1)), so the next step does not build its engagement again. Lives as
    long as the steps (one run)."""

    def __init__(self, a: int, d: int) -> None:
        self.a, self.d = a, d
        self._written: dict[tuple[tuple[tuple[int, int], ...], Engagement], World] = {}
        self._numbered: dict[tuple[int, tuple[tuple[int, int], ...]], list[_Seen | None]] = {}
        # id(world) -> what is read from it; the record holds the world, so its id is not reused
        self._seen: dict[int, _Seen] = {}
        self.last: tuple[Dist, list[_Seen]] | None = None
        """The last fight round's answer and its worlds' records, in its order."""

    def seen(self, w: World) -> _Seen:
        """What the steps read from ``w``. O(1) for a world written here."""
        got = self._seen.get(id(w))
        if got is not None and got.world is w:
            return got
        return _Seen(w, _engagement(w, self.a, self.d))

    def engagement(self, w: World) -> Engagement:
        """The engagement of ``w``'s two units. O(1) for a world written here."""
        return self.seen(w).engagement

    def _new(self, w: World, e: Engagement) -> _Seen:
        z = _write(w, self.a, self.d, e)
        got = self._seen[id(z)] = _Seen(z, e if _reads_back(e) else _engagement(z, self.a, self.d))
        return got

    def join(self, w: World, e: Engagement) -> World:
        """``e`` written into ``w``; once per (marks, engagement) for a world of the two units alone."""
        if len(w.units) != 2:
            return _write(w, self.a, self.d, e)
        key = (w.marks, e)
        got = self._written.get(key)
        if got is None:
            got = self._written[key] = self._new(w, e).world
        return got

    def numbered(self, rounds: Rounds, w: World) -> Callable[[list[int]], list[_Seen]]:
        """The records of the worlds of the engagements numbered ``i`` by
        ``rounds`` written into ``w`` (a world of the two units alone), for a
        list of numbers: O(1) each when known (a world equal to one
        :meth:`join` wrote may be written again: equal worlds are one outcome)."""
        records = self._numbered.setdefault((id(rounds), w.marks), [])  # per number; None: not written yet
        ends = rounds.numbering.values

        def records_of(numbers: list[int]) -> list[_Seen]:
            if len(records) < len(ends):
                records.extend([None] * (len(ends) - len(records)))
            got = list(map(records.__getitem__, numbers))
            if None in got:
                for k, known in enumerate(got):
                    if known is None:
                        i = numbers[k]
                        got[k] = records[i] = self._new(w, ends[i])
            return got  # type: ignore[return-value]

        return records_of


def on_worlds(kernel: Kernel, worlds: Worlds) -> Callable[[Dist], Dist]:
    """``kernel`` on engagements as a step on worlds (``worlds``' two units):
    each world's engagement through the kernel, each outcome written back
    into that world (:class:`Worlds`: a world of these two units alone is
    written once per distinct outcome for the whole assault). O(sum of the
    kernel's answers) look-ups. The fight rounds (:class:`~.fight_rounds.Rounds`)
    are merged from their weight tables directly (:func:`_merge_tables`)."""
    def step(dist: Dist) -> Dist:
        if isinstance(kernel, Rounds):
            return _merge_tables(dist, kernel, worlds)
        return dist.then(lambda w: kernel(worlds.engagement(w)), worlds.join)

    return step


def _merge_tables(dist: Dist, rounds: Rounds, worlds: Worlds) -> Dist:
    """``dist.then(rounds, join)`` from the rounds' weight tables: the same
    distribution (from the rounds' mixture, its outcomes in the order of the
    engagements' numbers; else in the same order). O(sum of the tables' sizes)
    big-integer multiply-adds (metered as :meth:`Dist.then` meters them), on
    the engagements' numbers when every world holds the two units alone and
    the same marks (each number written into a world once per assault), else
    on the worlds. The answer of the round before (:attr:`Worlds.last`),
    written here from one world, needs no check and no look-up per world."""
    weights = dist.weights()
    first = next(iter(weights))
    marks = first.marks
    last = worlds.last
    items: list[tuple[_Seen, int]] | None = None
    if last is not None and last[0] is dist:
        items = list(zip(last[1], weights.values(), strict=True))
    elif all(len(w.units) == 2 and w.marks == marks for w in weights):  # O(worlds)
        items = [(worlds.seen(w), weight) for w, weight in weights.items()]
    mixed = None if items is None else _round_mixture(rounds, items)
    if mixed is not None:  # the whole distribution at once, the same outcomes and weights
        out, records = _numbered_dist(mixed, worlds.numbered(rounds, first))
        worlds.last = None if records is None else (out, records)
        return out
    parts = []
    lcm, terms, alone = 1, 0, True
    for w, weight in weights.items():
        pairs, total = rounds.table(worlds.engagement(w))
        parts.append((w, weight, pairs, total))
        lcm = math.lcm(lcm, total)
        terms += len(pairs)
        alone = alone and len(w.units) == 2 and w.marks == marks
    charge(terms, dist.denominator.bit_length() + lcm.bit_length())
    ends = rounds.numbering.values
    merged: dict[Any, int] = {}
    get = merged.get
    for w, weight, pairs, total in parts:
        scale = weight * (lcm // total)
        for i, v in pairs:
            at: Any = i if alone else worlds.join(w, ends[i])
            merged[at] = get(at, 0) + scale * v
    if not alone:
        return Dist.from_weights(merged)
    return _numbered_dist(list(merged.items()), worlds.numbered(rounds, first))[0]


def _round_mixture(rounds: Rounds, items: list[tuple[_Seen, int]]) -> list[tuple[int, int]] | None:
    """:meth:`Rounds.mixture` of the items' engagements, each world's round kind
    and, for an engagement passing through, its number read from its record."""
    return rounds.mixture([(seen.engagement, w) for seen, w in items], [seen.kind for seen, _ in items],
                          lambda k: items[k][0].number_in(rounds.numbering))


def _numbered_dist(pairs: list[tuple[int, int]],
                   records_of: Callable[[list[int]], list[_Seen]]) -> tuple[Dist, list[_Seen] | None]:
    """The Dist over the worlds of the records of (engagement number i,
    positive weight) pairs with distinct numbers (``records_of``: the records
    of a list of numbers, :meth:`Worlds.numbered`), in their order (equal worlds
    merged), and the records in the Dist's order (None when two numbers wrote
    one world). The weights reduced on the list before the worlds are hashed
    (one dict built): O(pairs) look-ups and big-integer gcds and divisions."""
    values = [v for _, v in pairs]
    g = math.gcd(*values)
    if g > 1:
        values = list(map(g.__rfloordiv__, values))
    records = records_of([i for i, _ in pairs])
    out = dict(zip([r.world for r in records], values))
    if len(out) == len(pairs):  # one world per number: the weights as they are, reduced (gcd 1)
        return Dist._make(out, sum(values), reduce=False), records
    out = {}  # two numbers wrote one world: add their weights
    for r, v in zip(records, values, strict=True):
        out[r.world] = out.get(r.world, 0) + v
    return Dist.from_weights(out), None
