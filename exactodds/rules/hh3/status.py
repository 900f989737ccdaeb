"""Horus Heresy 3rd edition: a unit's statuses between the steps of a scenario,
and the result of one attack landed on the unit it hit (:class:`Hit`).

The statuses are one text per unit (:func:`status_text`): ``passed panic``
(took a panic test and passed), ``routed``, ``pinned``, and a vehicle's
``stunned`` / ``suppressed``.
"""

from __future__ import annotations

from typing import NamedTuple

from ...core import Dist
from ..allocation import UnitState

PANIC_TEST, ROUTED, PINNED = "passed panic", "routed", "pinned"


class Hit(NamedTuple):
    """One attack's result on the unit it hit: Wounds (Hull Points) left per
    model and the statuses it gained."""

    left: tuple[int, ...]
    gained: frozenset[str]


def statuses_of(text: str) -> frozenset[str]:
    """The statuses written in a world's status text (``""``: none)."""
    return frozenset(s for s in text.split(", ") if s)


def status_text(statuses: frozenset[str] | set[str], left: tuple[int, ...]) -> str:
    """The statuses as one text, sorted; a Routed unit has taken a panic test
    (``passed panic`` is dropped); a destroyed unit holds none (its end state
    says destroyed). O(statuses)."""
    if not any(left):
        return ""
    shown = set(statuses) - ({PANIC_TEST} if ROUTED in statuses else set())
    return ", ".join(sorted(shown))


def landed_text(text: str, hits: Dist, made: dict[tuple[int, ...], UnitState]) -> dict[Hit, tuple[UnitState, str]]:
    """A unit's state and status text after each :class:`Hit` of ``hits``, the unit's
    status text being ``text`` before, in the order of ``hits.weights()``; ``made``:
    the states made so far, by Wounds left, so that equal states are one object (a
    merge then compares them by identity). O(outcomes x statuses)."""
    held = statuses_of(text)
    out = {}
    for h in hits.weights():
        state = made.get(h.left)
        if state is None:
            state = made[h.left] = UnitState(h.left)
        out[h] = (state, status_text(held | h.gained, h.left))
    return out
