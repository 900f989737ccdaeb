"""Horus Heresy 3rd edition: the attacks of one scenario step on the whole
distribution of worlds at once (:class:`Volley`), for the steps of
:mod:`.exchange` (one attack, or an attack and its return fire).

"L'unité ciblée riposte en tirant à son tour, même avec les figurines qui
vont mourir dans l'échange" (the original; the targeted unit returns fire in
turn, even with the models that will die in the exchange): the attacks of a
step start from the same world and are independent, so the end of a world is
the product of the attacks' results. A step's answer is a sum of products of
integer weights; a :class:`Plan` computes the same sums once the step has met
the same worlds (in the same order) before, as it does turn after turn once
the states stop changing.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ...core import Dist
from ...core.limits import charge
from ..allocation import Numbering, UnitState
from ..scenario import World
from .status import landed_text, statuses_of

Firing = Callable[[UnitState, UnitState, frozenset[str]], Dist]
"""One attack from a firer's state at a target's state and statuses: a Dist of :class:`~.status.Hit`."""

Attack = tuple[Firing, int, int]
"""One attack of a step on worlds: the :class:`~.exchange.Fire`, the firer's and the target's positions."""

Factor = list[tuple[int, int]]
"""One attack's results from one world: (number of the target's state and status text, weight) pairs."""


class Plan(NamedTuple):
    """A step's sums of products for one sequence of worlds, as moves on lists
    of integers: per stage, each source's ``(destination, weight)`` pairs and
    the number of destinations. Stage 1's sources are the worlds, each next
    stage's the sums of the one before; the last one's sums are the step's
    outcomes, in ``order`` (their keys: a prefix number and the last target's
    number)."""

    stages: list[tuple[list[list[tuple[int, int]]], int]]
    order: list[tuple[int, int]]

    def run(self, weights: list[int]) -> list[int]:
        """The sums in ``order``: one multiply-add per move, O(moves)."""
        for moves, size in self.stages:
            sums = [0] * size
            for c, pairs in zip(weights, moves, strict=True):
                for d, v in pairs:
                    sums[d] += c * v
            weights = sums
        return weights


Shape = tuple[int, list[Factor], int, tuple[int, ...], int]
"""What a step does to one world, its weight aside: (number of its rest, each
attack's results, their denominator, each attack's results numbered, the
number of products)."""

Row = tuple[int, Shape]
"""One world of a step's input: its weight and its :data:`Shape`."""


class Volley:
    """Independent ``attacks`` from the same start (each at its own target, the
    targets distinct) as one step on a whole Dist of worlds (call it on the
    Dist): the same Dist as ``dist.then(kernel)`` for :func:`~.exchange.shoot_kernel`
    (one attack) or :func:`~.exchange.exchange_kernel` (the attack and the return
    fire), the same outcomes in the same order (worlds in order; per world, the
    first attack's results outer, the next ones' inner), without a World built,
    hashed and merged per product of the attacks' results.

    Each product adds its integer weight, over one common denominator (the lcm
    of each world's product of the attacks' denominators), to a key of small
    integers (the world with the targets left out, and each target's state and
    status text numbered), and a World is built once per distinct key at the
    end. A world where a firer or a target is destroyed is kept as it is (its
    own key). Cost: O(units + attacks) per world, each attack's results landed
    once per distinct (attack, firer's state, target's state and status text)
    over the whole scenario, then one big-integer multiply-add per product
    (O(sum over the worlds of the product of the attacks' outcomes)), then
    O(distinct worlds x (units + attacks)) to build the worlds.

    The second time the step meets the same sequence of worlds (their rests
    and their attacks' results, the weights aside), it runs a :class:`Plan`
    instead (:meth:`_plan`): the sums taken one attack at a time, the products
    that share a partial end merged before the next attack multiplies them out
    (for an exchange, O(worlds x |return fire| + partial ends x |attack|)
    multiply-adds instead of O(worlds x |attack| x |return fire|)), the order
    of the outcomes the one the first meeting found."""

    def __init__(self, attacks: Sequence[Attack]) -> None:
        self.attacks = list(attacks)
        self.targets = [t for _, _, t in attacks]
        self.involved = sorted({i for _, f, t in attacks for i in (f, t)})
        # kept from one application to the next (each turn): the states made, by Wounds
        # left; each target's (state, status text) numbered; the worlds with the targets
        # left out numbered; the keys' prefixes ((attack, prefix, its target's number)
        # -> number); each attack's results landed, numbered; a kept world's certain
        # result per (attack, number); each world's shape; the worlds built, by key; the
        # order of the outcomes of each sequence of worlds met once, the plan of each met twice
        self._made: dict[tuple[int, ...], UnitState] = {}
        self._sides: list[Numbering[tuple[UnitState, str]]] = [Numbering() for _ in attacks]
        self._rests: Numbering[tuple] = Numbering()
        self._prefixes: dict[tuple[int, int, int], int] = {}
        self._landed: dict[tuple[int, UnitState, UnitState, str], tuple[int, Factor, int]] = {}
        self._certain: dict[tuple[int, int], tuple[Factor, int]] = {}
        self._worlds: dict[tuple[int, int], World] = {}
        self._prefix_list: list[tuple[int, int, int]] = []
        self._met: dict[tuple, list[tuple[int, int]]] = {}
        self._plans: dict[tuple, Plan] = {}
        self._shapes: dict[World, Shape] = {}

    def _results(self, j: int, w: World) -> tuple[int, Factor, int]:
        """Attack ``j``'s results on world ``w`` as (denominator, (number of the
        target's state and status text, weight) pairs, their number): O(1) when known."""
        fire, f, t = self.attacks[j]
        key = (j, w.units[f], w.units[t], w.statuses[t])
        got = self._landed.get(key)
        if got is None:
            hits = fire(w.units[f], w.units[t], statuses_of(w.statuses[t]))
            landed = landed_text(w.statuses[t], hits, self._made).values()
            factor = [(self._sides[j].number(pair), v) for pair, v in zip(landed, hits.weights().values(), strict=True)]
            got = self._landed[key] = (hits.denominator, factor, len(self._landed) + len(self._certain))
        return got

    def _kept(self, j: int, w: World) -> tuple[Factor, int]:
        """Attack ``j``'s certain result on a kept world ``w`` (its target as it
        is), and its number. O(1) when known."""
        t = self.targets[j]
        n = self._sides[j].number((w.units[t], w.statuses[t]))
        got = self._certain.get((j, n))
        if got is None:
            got = self._certain[(j, n)] = ([(n, 1)], len(self._landed) + len(self._certain))
        return got

    def _shape(self, w: World) -> Shape:
        """World ``w``'s :data:`Shape` (a kept world: one certain result per
        target, denominator 1): O(1) when known, else O(units + attacks)."""
        got = self._shapes.get(w)
        if got is not None:
            return got
        units: list[UnitState | None] = list(w.units)
        statuses: list[str | None] = list(w.statuses)
        for t in self.targets:
            units[t] = statuses[t] = None
        rest = self._rests.number((tuple(units), tuple(statuses), w.marks))
        if all(any(w.units[i].wounds) for i in self.involved):
            results = [self._results(j, w) for j in range(len(self.attacks))]
            got = (rest, [factor for _, factor, _ in results], math.prod(d for d, _, _ in results),
                   tuple(n for _, _, n in results), math.prod(len(factor) for _, factor, _ in results))
        else:
            kept = [self._kept(j, w) for j in range(len(self.attacks))]
            got = (rest, [factor for factor, _ in kept], 1, tuple(n for _, n in kept), 1)
        self._shapes[w] = got
        return got

    def _rows(self, dist: Dist) -> tuple[list[Row], int]:
        """Per world, its weight and :data:`Shape`; and the lcm of the
        denominators. O(1) per world met before, else O(units + attacks)."""
        shape = self._shape
        rows = [(weight, shape(w)) for w, weight in dist.weights().items()]
        lcm = math.lcm(*(den for _, (_, _, den, _, _) in rows))
        charge(sum(terms for _, (_, _, _, _, terms) in rows), dist.denominator.bit_length() + lcm.bit_length())
        return rows, lcm

    def __call__(self, dist: Dist) -> Dist:
        """The step on ``dist`` (see the class docstring for the order and the cost)."""
        rows, lcm = self._rows(dist)
        met = tuple((rest, numbers) for _, (rest, _, _, numbers, _) in rows)
        plan = self._plans.get(met)
        if plan is None and met in self._met:
            plan = self._plans[met] = self._plan(rows, self._met.pop(met))
        if plan is not None:
            sums = plan.run([weight * (lcm // den) for weight, (_, _, den, _, _) in rows])
            return Dist.from_weights({self._world(key): v for key, v in zip(plan.order, sums, strict=True)})
        acc, stride = self._products(rows, lcm)
        self._met[met] = [divmod(key, stride) for key in acc]
        return Dist.from_weights({self._world(divmod(key, stride)): v for key, v in acc.items()})

    def _products(self, rows: list[Row], lcm: int) -> tuple[dict[int, int], int]:
        """Each product's weight added under its key, in the order the products
        come (worlds in order, the first attack outer): the sums by key, and the
        stride of a key (k x stride + the last target's number)."""
        prefixes = self._prefixes
        stride = len(self._sides[-1].values)
        acc: dict[int, int] = {}
        get = acc.get
        for weight, (rest, factors, den, _, _) in rows:
            heads = [(rest, weight * (lcm // den))]
            for j, factor in enumerate(factors[:-1]):  # the attacks before the last: prefixes numbered
                heads = [(prefixes.setdefault((j, k, i), len(prefixes)), c * v) for k, c in heads for i, v in factor]
            for k, c in heads:  # the hot loop: one multiply-add per product
                base = k * stride
                for i, v in factors[-1]:
                    acc[base + i] = get(base + i, 0) + c * v
        return acc, stride

    def _plan(self, rows: list[Row], order: list[tuple[int, int]]) -> Plan:
        """The :class:`Plan` of a sequence of worlds whose outcomes come in
        ``order``: the attacks taken one at a time, the first one drawn the one
        that leaves the fewest moves (:meth:`_moves`, every attack tried); a
        stage's destination is a partial end (the rest, the results drawn so
        far, the numbers of the attacks' results still to draw).
        O(moves x attacks) for the plan, O(worlds x outcomes x attacks) per
        attack tried."""
        m = len(self.attacks)
        first = min(range(m), key=lambda j: self._moves(rows, j))
        sequence = [first] + [j for j in range(m) if j != first]
        slot = {key: n for n, key in enumerate(order)}
        none: tuple[int | None, ...] = (None,) * m
        # a source: (rest, results drawn so far by attack (None: not yet), each attack's results, their numbers)
        sources = [(rest, none, factors, numbers) for _, (rest, factors, _, numbers, _) in rows]
        stages = []
        for depth, j in enumerate(sequence):
            last = depth == m - 1
            later = sequence[depth + 1:]
            partial: dict[tuple, int] = {}
            nexts: list[tuple[int, tuple[int | None, ...], list[Factor], tuple[int, ...]]] = []
            moves = []
            for rest, drawn, factors, numbers in sources:
                still = tuple(numbers[x] for x in later)
                pairs: list[tuple[int, int]] = []
                moves.append(pairs)
                if last:
                    pairs.extend(self._outcomes(rest, drawn, j, factors[j], slot))
                    continue
                for i, v in factors[j]:
                    now = drawn[:j] + (i,) + drawn[j + 1:]
                    dst = partial.setdefault((rest, now, still), len(nexts))
                    if dst == len(nexts):
                        nexts.append((rest, now, factors, numbers))
                    pairs.append((dst, v))
            stages.append((moves, len(slot) if last else len(nexts)))
            sources = nexts
        return Plan(stages, order)

    @staticmethod
    def _moves(rows: list[Row], j: int) -> int:
        """The moves of the first two stages of a plan that draws attack ``j``
        first (all of them for two attacks): one per result of ``j`` per world,
        then per distinct partial end one per product of the other attacks'
        results. O(worlds x outcomes of ``j``)."""
        moves = 0
        partial: set[tuple] = set()
        for _, (rest, factors, _, numbers, _) in rows:
            still = numbers[:j] + numbers[j + 1:]
            rest_moves = math.prod(len(f) for x, f in enumerate(factors) if x != j)
            for i, _ in factors[j]:
                moves += 1
                if (rest, i, still) not in partial:
                    partial.add((rest, i, still))
                    moves += rest_moves
        return moves

    def _outcomes(self, rest: int, drawn: tuple[int | None, ...], j: int, factor: Factor,
                  slot: dict[tuple[int, int], int]) -> list[tuple[int, int]]:
        """The slots of the outcomes (keyed as :meth:`_products` numbers them: the
        prefix of the attacks before the last, the last's number) that attack
        ``j``'s results ``factor`` complete, the others' results ``drawn``, with
        their weights. O(attacks) per result."""
        prefixes, m = self._prefixes, len(self.attacks)
        head = rest
        for x in range(min(j, m - 1)):
            head = prefixes[(x, head, drawn[x])]  # type: ignore[index]
        if j == m - 1:
            return [(slot[(head, i)], v) for i, v in factor]
        out = []
        last = drawn[-1]
        assert last is not None
        for i, v in factor:
            k = prefixes[(j, head, i)]
            for x in range(j + 1, m - 1):
                k = prefixes[(x, k, drawn[x])]  # type: ignore[index]
            out.append((slot[(k, last)], v))
        return out

    def _world(self, key: tuple[int, int]) -> World:
        """The world of a key (its prefix, the last target's number): O(1) when
        built before, else O(units + attacks), plus O(prefixes) to number them."""
        got = self._worlds.get(key)
        if got is not None:
            return got
        if len(self._prefix_list) < len(self._prefixes):
            self._prefix_list = list(self._prefixes)
        prefixes = self._prefix_list
        k, i = key
        numbers = [i]
        for _ in self.targets[:-1]:
            _, k, i = prefixes[k]
            numbers.append(i)
        units, statuses, marks = self._rests.values[k]
        units, statuses = list(units), list(statuses)
        for t, side, n in zip(self.targets, self._sides, reversed(numbers), strict=True):
            units[t], statuses[t] = side.values[n]
        got = self._worlds[key] = World(tuple(units), tuple(statuses), marks)
        return got


