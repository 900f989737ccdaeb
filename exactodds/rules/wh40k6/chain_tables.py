"""Integer tables of a fight step's blows along a chain of target states.

A target whose models each fall to one unsaved wound, closest first, at one
chance (a birth chain), or whose wounds are each saved at one chance (a
chain of saves), takes k wounds to the chain's state min(k, last): the
blows' table is then the capped distribution of the wounds, here as
integer weights kept once per (wounds, chain length), and the states' own
tables mixed over it (:func:`mixed`). No Dist is built per table.

The rule these chains follow, one wound at a time (original, "Sous-phase de
combat"): "Les blessures sont ensuite allouées, les sauvegardes effectuées
et les pertes retirées avant de résoudre le rang suivant." (The wounds are
then allocated, saves taken and casualties removed before the next
Initiative step is resolved.)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import accumulate
from math import gcd

from ...core import Dist
from ...core.limits import charge
from ...core.tables import mix
from ..allocation import UnitState

Table = tuple[tuple[tuple[UnitState, int], ...], int]
"""A target's states after blows, each with its integer weight, and their total."""

Weights = tuple[tuple[int, int], ...]
"""(number of wounds, integer weight) pairs."""


class CappedWounds:
    """The weights of ``min(wounds, length - 1)``, reduced, in the order the
    Dist's map would list them (first appearance), kept per (Dist, length):
    shared by every chain of that length. With outcomes 0, 1, 2... in order
    (a binomial) they are the first ``length - 1`` weights and the sum of the
    rest, read from suffix sums kept once per Dist. The Dists are told by
    identity (the callers keep them memoised)."""

    def __init__(self) -> None:
        self._capped: dict[tuple[int, int], tuple[Dist, Weights, int]] = {}
        self._tails: dict[int, tuple[Dist, tuple[list[int], list[int]] | None]] = {}

    def __call__(self, wounds: Dist, length: int) -> tuple[Weights, int]:
        """The capped weights and their total. O(length) when new, O(1) when known
        (O(outcomes) when the outcomes are not 0, 1, 2... in order)."""
        key = (id(wounds), length)
        got = self._capped.get(key)
        if got is None or got[0] is not wounds:
            got = self._capped[key] = (wounds, *capped(self.suffixes(wounds), wounds, length - 1))
        return got[1], got[2]

    def suffixes(self, wounds: Dist) -> tuple[list[int], list[int]] | None:
        """``wounds``' weights in order and their suffix sums, when its outcomes
        are 0, 1, 2... in order; else None. O(outcomes) once per Dist."""
        got = self._tails.get(id(wounds))
        if got is None or got[0] is not wounds:
            weights = wounds.weights()
            tails = None
            if all(k == i for i, k in enumerate(weights)):
                values = list(weights.values())
                sums = list(accumulate(reversed(values)))
                sums.reverse()
                tails = (values, sums)
            got = self._tails[id(wounds)] = (wounds, tails)
        return got[1]


def capped(tails: tuple[list[int], list[int]] | None, wounds: Dist, last: int) -> tuple[Weights, int]:
    """The weights of ``min(wounds, last)`` reduced, over their total, in the
    order of first appearance (``tails``: :meth:`CappedWounds.suffixes`): the
    first ``last`` weights and the suffix sum from ``last``, O(last) plus one
    gcd pass; without ``tails`` merged one outcome at a time, O(outcomes)."""
    total = wounds.denominator
    if tails is None:
        merged: dict[int, int] = {}
        for k, v in wounds.weights().items():
            k = min(k, last)
            merged[k] = merged.get(k, 0) + v
        pairs = list(merged.items())
    else:
        values, sums = tails
        if last >= len(values) - 1:  # nothing capped: the Dist's own (reduced) weights
            return tuple(enumerate(values)), total
        pairs = [*enumerate(values[:last]), (last, sums[last])]
    g = gcd(total, pairs[0][1])  # most often 1 already (a binomial's first weight f^n over den^n)
    if g > 1:
        g = gcd(g, *(v for _, v in pairs))
    if g > 1:
        pairs = [(k, v // g) for k, v in pairs]
        total //= g
    return tuple(pairs), total


def on_chain(states: Sequence[UnitState], weights: tuple[Weights, int]) -> Table:
    """Capped wounds (:class:`CappedWounds`) as the states of a chain they reach:
    k wounds reach ``states[k]``. O(chain)."""
    pairs, total = weights
    return tuple([(states[k], v) for k, v in pairs]), total


def mixed(parts: Sequence[tuple[int, Table]], total: int) -> Table:
    """The states' tables mixed over integer weights (over ``total``), merged in
    order of first appearance and reduced: what ``Dist.then`` gives, charged
    as it charges. O(entries) multiply-adds."""
    if len(parts) == 1:  # a certain outcome: its table as it is
        table = parts[0][1]
        charge(len(table[0]), 1 + table[1].bit_length())
        return table
    out, lcm = mix(parts)
    charge(sum(len(t[0]) for _, t in parts), total.bit_length() + lcm.bit_length())
    total *= lcm
    g = total
    for v in out.values():
        g = gcd(g, v)
        if g == 1:
            break
    if g > 1:
        return tuple([(st, v // g) for st, v in out.items()]), total // g
    return tuple(out.items()), total
