"""Rerolling up to ``k`` failed dice, chosen by a policy over categories.

Setting: ``n`` iid dice, each face classified by two yes/no attributes
(:class:`~exactodds.dice.attributes.FaceClasses`): the *first* one is
success, and a die without it has *failed*; the *second* one is a side
property the final answer also looks at (e.g. "even"), through a threshold
``count_second >= threshold``. After the first roll, at most ``k`` failed
dice are rerolled, each once; since the failed dice differ only by their
second attribute, a choice is *how many failed dice with the second
attribute and how many without it* to reroll (:class:`RerollChoice`).

What a policy sees (:class:`BudgetState`) summarises the first roll by
category counts, never by raw rolls:

- ``successes``: dice with the first attribute;
- ``margin``: ``count_second - threshold`` clipped to ``[-(k+1), k]``.
  Clipping loses nothing: rerolling at most ``k`` dice changes
  ``count_second`` by at most ``k`` either way, so a margin of ``k`` or more
  stays ``>= 0`` and one of ``-(k+1)`` or less stays ``< 0``, whatever is
  rerolled;
- ``failed_second`` and ``failed_other``: failed dice with / without the
  second attribute, capped at ``k`` (more of them cannot be rerolled).

A policy is any function ``BudgetState -> RerollChoice``:
:func:`priority_policy` (one kind first, then the other, spending as much
of the budget as there are failures) or :func:`optimal_policy` (an exact
search maximising expected payoffs, with its decision table).

Algorithm (:func:`first_roll_states`): the first roll's weights by state are
assembled from :func:`~exactodds.dice.attributes.margin_weights` of the whole
pool and of sub-pools with one failed class removed, by inclusion-exclusion
on the capped counts: 2k+1 margin tables (each O(n) packed big-integer
operations) and O(k^2 n) small terms. There are O(n k^3) states (n+1 success
counts x 2k+2 margins x (k+1)^2 caps, most empty); :func:`budget_split` then
adds the fresh rolls of the rerolled dice, O((k+1)^2) outcomes per state:
polynomial in ``n``, exponential in nothing (the optimal search is
O(n k^5) payoff evaluations).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any, NamedTuple

from ..core import Dist, InputError, check_size
from ..core.checks import count as check_count
from ..core.checks import is_whole
from ..core.limits import state_units
from .attributes import FaceClasses, _check_classes, attribute_count_table, binomial_row, margin_weights


class BudgetState(NamedTuple):
    """The first roll as a reroll policy sees it (see the module docstring)."""

    successes: int
    margin: int
    failed_second: int
    failed_other: int


class RerollChoice(NamedTuple):
    """How many failed dice to reroll: with the second attribute, and without it."""

    second: int
    other: int

    @property
    def total(self) -> int:
        """Dice rerolled in all."""
        return self.second + self.other


Policy = Callable[[BudgetState], RerollChoice]
"""A reroll policy: the first roll's state -> the dice to reroll."""

PRIORITIES = ("second", "other")


def priority_policy(k: int, first_kind: str) -> Policy:
    """Reroll failed dice of ``first_kind`` (``"second"``: those with the
    second attribute, or ``"other"``: those without) first, then failed dice
    of the other kind, up to ``k`` in all: ``min(k, failures)`` dice.

    O(1) per state.
    """
    k = check_count(k, "reroll budget")
    if first_kind not in PRIORITIES:
        raise InputError(f"first_kind must be one of {PRIORITIES}, not {first_kind!r}")

    def policy(state: BudgetState) -> RerollChoice:
        if first_kind == "other":
            other = min(k, state.failed_other)
            return RerollChoice(min(k - other, state.failed_second), other)
        second = min(k, state.failed_second)
        return RerollChoice(second, min(k - second, state.failed_other))

    policy.__doc__ = f"reroll failed dice without the second attribute first, up to {k}" if first_kind == "other" \
        else f"reroll failed dice with the second attribute first, up to {k}"
    return policy


def _clip(margin: int, k: int) -> int:
    return -k - 1 if margin < -k - 1 else (k if margin > k else margin)


def first_roll_states(n: int, classes: FaceClasses, threshold: int, k: int) -> dict[BudgetState, int]:
    """Weights (over ``W^n``) of every :class:`BudgetState` of the first roll.

    Groups by capped failure counts ``(g_s, g_o)``; with ``part(j_s, j_o)``
    the rolls with exactly ``j_s`` / ``j_o`` failed dice of each kind (all
    other dice successes: a binomial over the second attribute):

    - ``g_s, g_o < k``: ``part(g_s, g_o)``;
    - ``g_s < k = g_o``: ``C(n, g_s) f_s^g_s`` x the pool of ``n - g_s`` dice
      without the failed-second class, minus ``part(g_s, j)`` for ``j < k``;
    - ``g_o < k = g_s``: symmetric;
    - ``g_s = g_o = k``: the whole pool minus all the groups above.

    Cost: 2k+1 calls of :func:`margin_weights` and O(k^2 n) for the parts.
    """
    n = check_count(n, "number of dice")
    k = check_count(k, "reroll budget")
    w = _check_classes(classes)
    s = threshold
    nb = 2 * k + 2
    # O(n k^3) states plus 2k+1 margin tables of (n + 1) x (2k + 6) rows, all weights below W^n
    bits = n * (max(w.total, 1) - 1).bit_length()
    check_size(state_units((n + 1) * nb * (k + 1) ** 2 + (2 * k + 1) * (n + 1) * (2 * k + 6), bits),
               f"the first-roll states of {n} dice with a reroll budget of {k}")
    groups: dict[tuple[int, int, int], list[int]] = {}  # (successes, g_s, g_o) -> weights by margin bucket

    def add(a: int, gs: int, go: int, buckets: list[int], sign: int = 1) -> None:
        cur = groups.setdefault((a, gs, go), [0] * nb)
        for j, v in enumerate(buckets):
            cur[j] += sign * v

    def part(js: int, jo: int) -> tuple[int, list[int]] | None:
        m = n - js - jo
        if m < 0:
            return None
        mult = math.comb(n, js) * math.comb(n - js, jo) * w.second_only ** js * w.neither ** jo
        if not mult:
            return None
        buckets = [0] * nb
        for i, v in enumerate(binomial_row(m, w.first_only, w.both, mult)):  # i successes with the second attribute
            buckets[_clip(js + i - s, k) + k + 1] += v
        return m, buckets

    parts: dict[tuple[int, int], tuple[int, list[int]]] = {}
    for js in range(k):
        for jo in range(k):
            p = part(js, jo)
            if p is not None:
                parts[js, jo] = p
                add(p[0], js, jo, p[1])
    _add_capped(n, w, s, k, parts, add, second=True)  # exactly js failed-second dice, k or more failed-other
    _add_capped(n, w, s, k, parts, add, second=False)  # exactly jo failed-other dice, k or more failed-second
    full = {(a, k, k): row for a, row in enumerate(margin_weights(n, w, s, k))}
    for (a, gs, go), row in list(groups.items()):
        if (a, k, k) in full:
            full[a, k, k] = [x - y for x, y in zip(full[a, k, k], row)]
    for (a, gs, go), row in full.items():
        add(a, gs, go, row)
    return _states(groups, k)


_Adder = Callable[[int, int, int, list[int], int], None]


def _add_capped(n: int, w: FaceClasses, s: int, k: int, parts: dict[tuple[int, int], tuple[int, list[int]]],
                add: _Adder, second: bool) -> None:
    """The groups of :func:`first_roll_states` where one kind of failed die is capped
    at ``k`` and the other is exactly ``j < k``: ``C(n, j) f^j`` x the pool of the
    other ``n - j`` dice without that class, minus the exact parts already counted.
    ``second``: the exact kind is the failed dice with the second attribute.
    k calls of :func:`margin_weights` and O(k^2) part subtractions."""
    for j in range(k):
        m = n - j
        mult = math.comb(n, j) * (w.second_only if second else w.neither) ** j if m >= 0 else 0
        if not mult:
            continue
        gs, go = (j, k) if second else (k, j)
        pool = w.without("second_only" if second else "neither")
        for a, row in enumerate(margin_weights(m, pool, s - j if second else s, k)):
            add(a, gs, go, [mult * v for v in row], 1)
        for i in range(k):
            key = (j, i) if second else (i, j)
            if key in parts:
                add(parts[key][0], gs, go, parts[key][1], -1)


def _states(groups: dict[tuple[int, int, int], list[int]], k: int) -> dict[BudgetState, int]:
    """The weights by (successes, capped counts) and margin bucket as states. O(states)."""
    states: dict[BudgetState, int] = {}
    for (a, gs, go), row in groups.items():
        for j, v in enumerate(row):
            if v < 0:
                raise RuntimeError(f"internal error: negative weight for state {(a, j - k - 1, gs, go)}")
            if v:
                states[BudgetState(a, j - k - 1, gs, go)] = v
    return states


class _Fresh:
    """The rerolled dice: ``tables[r][e][h]`` = weight of ``h`` successes and
    ``e`` dice with the second attribute among ``r`` fresh dice, scaled to the
    common denominator ``W^k``. O(k^3) to build."""

    def __init__(self, classes: FaceClasses, k: int) -> None:
        total = classes.total
        self.tables = []
        for r in range(k + 1):
            scale = total ** (k - r)
            self.tables.append([[v * scale for v in row] for row in attribute_count_table(r, classes)])

    def outcomes(self, r: int) -> list[tuple[int, int, int]]:
        """``(new successes, new dice with the second attribute, weight)`` of ``r`` fresh dice."""
        return [(h, e, v) for e, row in enumerate(self.tables[r]) for h, v in enumerate(row) if v]


def _check_choice(choice: object, state: BudgetState, k: int) -> RerollChoice:
    ok = isinstance(choice, tuple) and len(choice) == 2 and all(is_whole(x) and x >= 0 for x in choice)
    if ok:
        choice = RerollChoice(*choice)  # type: ignore[misc]  # a 2-tuple of whole numbers, checked above
        ok = (choice.second <= state.failed_second and choice.other <= state.failed_other
              and choice.total <= k)
    if not ok:
        raise InputError(f"the reroll policy chose {choice!r} in state {state}: a choice is "
                         f"(second, other) with at most {state.failed_second} and {state.failed_other} "
                         f"dice, {k} in all")
    return choice  # type: ignore[return-value]


def budget_split(n: int, classes: FaceClasses, threshold: int, k: int, policy: Policy) -> dict[tuple[int, bool], int]:
    """Weights (over ``W^(n+k)``) of ``(final successes, final count_second >=
    threshold)`` when the policy rerolls up to ``k`` failed dice once.

    O(number of states x (k+1)^2) after :func:`first_roll_states`.
    """
    k = check_count(k, "reroll budget")
    states = first_roll_states(n, classes, threshold, k)
    fresh = _Fresh(classes, k)
    outcomes = [fresh.outcomes(r) for r in range(k + 1)]
    out: dict[tuple[int, bool], int] = {}
    for state, weight in states.items():
        choice = _check_choice(policy(state), state, k)
        base = state.margin - choice.second  # the rerolled dice with the second attribute leave the count
        for h, e, v in outcomes[choice.total]:
            key = (state.successes + h, base + e >= 0)
            out[key] = out.get(key, 0) + weight * v
    return out


def budget_split_dist(n: int, die: Dist[Any], first: Callable[[object], bool], second: Callable[[object], bool],
                      threshold: int, k: int, policy: Policy) -> Dist[Any]:
    """:func:`budget_split` as a Dist over ``(successes, count_second >= threshold)``."""
    classes = FaceClasses.of_die(die, first, second)
    return Dist.from_weights(budget_split(n, classes, threshold, k, policy))


class ThresholdPayoff(NamedTuple):
    """A payoff of the final roll: ``at_least(successes)`` when ``count_second
    >= threshold``, else ``below(successes)``. Integers (scale fractions by a
    common denominator: only their order matters to the search)."""

    at_least: Callable[[int], int]
    below: Callable[[int], int]


class OptimalPolicy:
    """The policy found by :func:`optimal_policy`: call it on a state to get
    the best :class:`RerollChoice`; :attr:`decisions` holds every state
    decided so far with its choice, and :meth:`values` the exact expected
    payoffs of a choice.

    The best choice maximises the payoffs lexicographically (the first one,
    then the next ones to break ties); remaining ties go to the fewest dice
    rerolled, then the fewest with the second attribute. "Up to k" includes
    rerolling none.
    """

    def __init__(self, n: int, classes: FaceClasses, k: int, payoffs: Sequence[ThresholdPayoff]) -> None:
        self.n = n
        self.k = k
        self.payoffs = tuple(payoffs)
        self._fresh = _Fresh(classes, k)
        self._outcomes = [self._fresh.outcomes(r) for r in range(k + 1)]
        self._denominator = classes.total ** k
        self._values: dict[tuple[int, int, int, int], tuple[int, ...]] = {}
        self.decisions: dict[BudgetState, RerollChoice] = {}

    def _raw(self, successes: int, margin: int, second: int, total: int) -> tuple[int, ...]:
        """Integer expected payoffs (over W^k) of rerolling ``total`` dice, ``second``
        of them with the second attribute. O((k+1)^2 x payoffs), cached."""
        key = (successes, margin, second, total)
        got = self._values.get(key)
        if got is None:
            sums = [0] * len(self.payoffs)
            base = margin - second
            for h, e, v in self._outcomes[total]:
                ok = base + e >= 0
                for i, p in enumerate(self.payoffs):
                    sums[i] += v * (p.at_least(successes + h) if ok else p.below(successes + h))
            got = self._values[key] = tuple(sums)
        return got

    def values(self, state: BudgetState, choice: RerollChoice) -> tuple[Fraction, ...]:
        """The exact expected payoffs of ``choice`` in ``state``."""
        return tuple(Fraction(v, self._denominator)
                     for v in self._raw(state.successes, state.margin, choice.second, choice.total))

    def __call__(self, state: BudgetState) -> RerollChoice:
        best = self.decisions.get(state)
        if best is None:
            best_key = None
            for second in range(min(state.failed_second, self.k) + 1):
                for other in range(min(state.failed_other, self.k - second) + 1):
                    value = self._raw(state.successes, state.margin, second, second + other)
                    key = (value, -(second + other), -second)
                    if best_key is None or key > best_key:
                        best_key, best = key, RerollChoice(second, other)
            assert best is not None  # the loops always try the choice (0, 0)
            self.decisions[state] = best
        return best


def optimal_policy(n: int, classes: FaceClasses, k: int, payoffs: Sequence[ThresholdPayoff]) -> OptimalPolicy:
    """An exact optimal reroll policy for a budget of ``k`` (see :class:`OptimalPolicy`).

    The search is over every allowed choice in every state: O(n k^3) states
    x O(k^2) choices, each valued once per (successes, margin, choice) over
    O(k^2) fresh outcomes; refused above the state limit.
    """
    n = check_count(n, "number of dice")
    k = check_count(k, "reroll budget")
    _check_classes(classes)
    if not payoffs:
        raise InputError("the optimal policy needs at least one payoff to maximise")
    choices = (k + 1) * (k + 2) // 2
    check_size((n + 1) * (2 * k + 2) * choices * (k + 1) ** 2 * len(payoffs),
               f"the optimal reroll search for {n} dice and a budget of {k}")
    return OptimalPolicy(n, classes, k, payoffs)
