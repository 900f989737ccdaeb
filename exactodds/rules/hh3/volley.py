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

import itertools
import math
from collections.abc import Callable, Sequence
from typing import NamedTuple

from ...core import Dist
from ...core.limits import charge
from ..allocation import Numbering, UnitState
from ..scenario import World
from .status import landed_text, statuses_of

Fire = Callable[[UnitState, UnitState, frozenset[str]], Dist]
"""One attack from a firer's state at a target's state and statuses: a Dist of :class:`~.status.Hit`."""

Attack = tuple[Fire, int, int]
"""One attack of a step on worlds: the :class:`~.exchange.Fire`, the firer's and the target's positions."""

Factor = list[tuple[int, int]]
"""One attack's results from one world: (number of the target's state and status text, weight) pairs."""

class Volley:
    """Independent ``attacks`` from the same start (each at its own target, the
    targets distinct) as one step on a whole Dist of worlds (call it on the
    Dist): the same Dist as ``dist.then(kernel)`` for :func:`shoot_kernel` (one
    attack) or :func:`exchange_kernel` (the attack and the return fire), the
    same outcomes in the same order (worlds in order; per world, the first
    attack's results outer, the next ones' inner), without a World built,
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
    O(distinct worlds x (units + attacks)) to build the worlds."""

    def __init__(self, attacks: Sequence[Attack]) -> None:
        self.attacks = list(attacks)
        self.targets = [t for _, _, t in attacks]
        self.involved = sorted({i for _, f, t in attacks for i in (f, t)})
        # kept from one application to the next (each turn): the states made, by Wounds
        # left; each target's (state, status text) numbered; the worlds with the targets
        # left out numbered; the keys' prefixes ((attack, prefix, its target's number)
        # -> number); each attack's results landed; the worlds built, by key
        self._made: dict[tuple[int, ...], UnitState] = {}
        self._sides: list[Numbering[tuple[UnitState, str]]] = [Numbering() for _ in attacks]
        self._rests: Numbering[tuple] = Numbering()
        self._prefixes: dict[tuple[int, int, int], int] = {}
        self._landed: dict[tuple[int, UnitState, UnitState, str], tuple[int, Factor]] = {}
        self._worlds: dict[tuple[int, int], World] = {}
        self._prefix_list: list[tuple[int, int, int]] = []

    def _results(self, j: int, w: World) -> tuple[int, Factor]:
        """Attack ``j``'s results on world ``w`` as (denominator, (number of the
        target's state and status text, weight) pairs): O(1) when known."""
        fire, f, t = self.attacks[j]
        key = (j, w.units[f], w.units[t], w.statuses[t])
        got = self._landed.get(key)
        if got is None:
            hits = fire(w.units[f], w.units[t], statuses_of(w.statuses[t]))
            landed = landed_text(w.statuses[t], hits, self._made).values()
            got = self._landed[key] = (hits.denominator, [(self._sides[j].number(pair), v) for pair, v in
                                                          zip(landed, hits.weights().values(), strict=True)])
        return got

    def _rows(self, dist: Dist) -> tuple[list[tuple[int, int, list[Factor], int]], int]:
        """Per world: (weight, number of its rest, each attack's results, their
        denominator), a kept world as one certain result per target; and the
        lcm of the denominators. O(units + attacks) per world."""
        rows, lcm, terms = [], 1, 0
        for w, weight in dist.weights().items():
            units, statuses = list(w.units), list(w.statuses)
            for t in self.targets:
                units[t] = statuses[t] = None
            rest = self._rests.number((tuple(units), tuple(statuses), w.marks))
            if all(any(w.units[i].wounds) for i in self.involved):
                got = [self._results(j, w) for j in range(len(self.attacks))]
                den = math.prod(d for d, _ in got)
                rows.append((weight, rest, [factor for _, factor in got], den))
                lcm = math.lcm(lcm, den)
                terms += math.prod(len(factor) for _, factor in got)
            else:
                rows.append((weight, rest, [[(side.number((w.units[t], w.statuses[t])), 1)]
                                            for side, t in zip(self._sides, self.targets, strict=True)], 1))
                terms += 1
        charge(terms, dist.denominator.bit_length() + lcm.bit_length())
        return rows, lcm

    def __call__(self, dist: Dist) -> Dist:
        """The step on ``dist`` (see the class docstring for the order and the cost)."""
        prefixes = self._prefixes
        rows, lcm = self._rows(dist)
        stride = len(self._sides[-1].values)  # a key is one int, k x stride + the last target's number
        acc: dict[int, int] = {}
        get = acc.get
        for weight, rest, factors, den in rows:
            heads = [(rest, weight * (lcm // den))]
            for j, factor in enumerate(factors[:-1]):  # the attacks before the last: prefixes numbered
                heads = [(prefixes.setdefault((j, k, i), len(prefixes)), c * v) for k, c in heads for i, v in factor]
            for k, c in heads:  # the hot loop: one multiply-add per product
                base = k * stride
                for i, v in factors[-1]:
                    acc[base + i] = get(base + i, 0) + c * v
        return Dist.from_weights({self._world(divmod(key, stride)): v for key, v in acc.items()})

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


