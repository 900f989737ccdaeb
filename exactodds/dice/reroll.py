"""Rerolls: per-die "reroll once", pool-level budgets, exploding dice.

A die is never rerolled twice: every function here rerolls a die at most
once, and says which dice it may reroll.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from fractions import Fraction
from typing import Any, NamedTuple

from ..core import Dist, InputError, check_size
from ..core.limits import state_units, weights_note
from ..core.checks import count as check_count
from ..core.checks import probability
from .die import Target, check_die, check_target, d
from ..core.checks import is_exact


class Roll(NamedTuple):
    """One die after its (optional) reroll: the face that stands, and whether it was rerolled."""

    face: int
    rerolled: bool


def reroll_once(die: Dist[Any], should_reroll: Collection[Any] | Callable[[Any], bool]) -> Dist[Any]:
    """Roll ``die``; if the face is one to reroll, roll it again once and keep that.

    Outcomes are :class:`Roll` pairs, so a rule can use a different target
    for rerolled dice. O(faces^2).
    """
    check_die(die)
    if callable(should_reroll):
        pred = should_reroll
    else:
        faces = _faces(should_reroll)

        def pred(f: Any) -> bool:
            return f in faces
    return die.then(lambda f: die.map(lambda g: Roll(g, True)) if pred(f) else Dist.constant(Roll(f, False)))


def target_with_reroll(
    target: Target,
    reroll_faces: Collection[int] = (),
    reroll_target: Target | None = None,
    sides: int = 6,
) -> Fraction:
    """P(success) of one die at ``target`` whose ``reroll_faces`` are rerolled
    once at ``reroll_target`` (default: the same target).

    The 40K 6th-edition BS 6-10 row is ``target_with_reroll(2+, {1}, Y+)``.
    """
    check_target(target)
    if reroll_target is not None:
        check_target(reroll_target, "reroll target")
    faces = _faces(reroll_faces)
    if target.kind != "at_least":
        return target.chance()
    second = target if reroll_target is None else reroll_target
    rolls = reroll_once(d(sides), faces)
    return rolls.prob(lambda r: (second if r.rerolled else target).succeeds(r.face))


def reroll_failed_chance(p_first: Any, p_reroll: Any | None = None) -> Fraction:
    """P(success) when every failed die is rerolled once: ``p + (1 - p) p2``."""
    p = probability(p_first, "p_first")
    p2 = p if p_reroll is None else probability(p_reroll, "p_reroll")
    return p + (1 - p) * p2


def reroll_up_to(n: int, k: int, p_first: Any, p_reroll: Any | None = None) -> Dist[Any]:
    """Successes of ``n`` dice when at most ``k`` failed dice are rerolled once.

    The player rerolls ``min(k, failures)`` dice (rerolling never hurts when
    only the count of successes matters). Conditions on the number of
    failures f ~ Bin(n, 1-p), then adds ``n - f`` to Bin(min(k, f), p2):
    O(n) outer terms, each a binomial of size <= k (k+1 distinct ones,
    cached): O(n k) big-integer multiply-adds.
    """
    n = check_count(n, "number of dice")
    k = check_count(k, "reroll budget")
    p = probability(p_first, "p_first")
    p2 = p if p_reroll is None else probability(p_reroll, "p_reroll")
    if k >= n:  # min(k, f) = f for every f: every failed die is rerolled, the dice stay iid
        return Dist.binomial(n, p + (1 - p) * p2)
    # Cost: sum over f of (min(k, f) + 1) multiply-adds, about n k - k^2 / 2 terms, of weights
    # below den^n den2^k (den, den2 the denominators of p and p2); refused above the limit first.
    terms = (n + 1) * (k + 1) - k * (k + 1) // 2
    bits = n * (p.denominator - 1).bit_length() + k * (p2.denominator - 1).bit_length()
    check_size(state_units(terms, bits), f"the successes of {n} dice rerolling up to {k} failed dice"
               f"{weights_note(terms, bits).replace(' outcomes', ' terms')}")
    cache: dict[int, Dist[Any]] = {}

    def after(f: int) -> Dist[Any]:
        m = min(k, f)
        if m not in cache:
            cache[m] = Dist.binomial(m, p2)
        return cache[m] + (n - f)

    return Dist.binomial(n, 1 - p).then(after)


def explode(die: Dist[Any], faces: Collection[Any] | None = None, depth: int = 1) -> Dist[Any]:
    """Total of a die that rolls again and adds when it shows one of ``faces``
    (default: its highest face), at most ``depth`` extra times.

    O(depth x faces^2) after merging equal totals.
    """
    depth = check_count(depth, "explosion depth")
    check_die(die)
    if any(not is_exact(f) for f in die.support()):
        raise InputError(f"an exploding die adds its rolls: its faces must be numbers, not {die.support()!r}")
    check_size(depth * len(die) ** 2, f"an exploding die to depth {depth}")
    faces = {max(die.support())} if faces is None else _faces(faces)
    result = die
    for _ in range(depth):
        prev = result

        def step(f: int, prev: Dist[Any] = prev) -> Dist[Any]:
            return prev + f if f in faces else Dist.constant(f)

        result = die.then(step)
    return result



def _faces(faces: Any) -> frozenset[Any]:
    """A collection of faces as a frozenset (an InputError for a single number or unhashable faces)."""
    if isinstance(faces, (str, bytes)) or not isinstance(faces, Collection):
        raise InputError(f"faces must be a collection such as {{1}} or [1, 2], not {faces!r}")
    try:
        return frozenset(faces)
    except TypeError:
        raise InputError(f"faces must be hashable values, not {faces!r}") from None
