"""Horus Heresy 3rd edition: after the attack (panic, routed, the Cool test).

"Une fois tous les groupes de tirs résolus, les unités qui ont beaucoup
souffert testent leur moral.
- Hors de cohésion. Test de sang-froid ; en cas d'échec, l'unité devient
  Neutralisée.
- Panique. Si l'unité a perdu 25 % ou plus de ses figurines pendant cette
  attaque de tir, test de commandement ; en cas d'échec, elle devient En
  déroute."

Tests pass on 2D6 <= the characteristic (:func:`exactodds.rules.common.two_d6_test`).
Engine readings: a unit destroyed by the attack takes no test; whether the
unit is out of coherency after its casualties are removed depends on the
table, so it is an input flag (the Cool test is then taken by a surviving
unit); the panic and Cool tests are independent rolls.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ...core import Dist, Kernel
from ..common import two_d6_test
from .tables import PANIC_LOSSES
from .units import TargetUnit


class Aftermath(NamedTuple):
    """The target unit after the attack: models lost, whether it was destroyed,
    took a panic test, was Routed (failed it), and was Pinned by a failed
    out-of-coherency Cool test."""

    casualties: int
    destroyed: bool
    panic: bool
    routed: bool
    pinned: bool


def panic_triggered(losses: int, size: int) -> bool:
    """A panic test is due: losses >= 25% of the unit's models at the start of
    the attack, and the unit still has models."""
    return losses < size and losses >= PANIC_LOSSES * size


def aftermath_kernel(target: TargetUnit) -> Kernel:
    """Left per model (0 = casualty) -> Dist of :class:`Aftermath`: the panic
    test on the unit's Leadership when due, the Cool test when the unit is
    flagged out of coherency. O(4) outcomes per state."""
    size = target.size()
    leadership = two_d6_test(target.leadership)
    cool = two_d6_test(target.cool) if target.out_of_coherency and target.cool is not None else None

    def after(left: Sequence[int]) -> Dist:
        losses = sum(1 for w in left if w == 0)
        destroyed = losses == size
        panic = panic_triggered(losses, size)
        routed = leadership.map(lambda passed: not passed) if panic else Dist.constant(False)
        pinned = cool.map(lambda passed: not passed) if cool is not None and not destroyed else Dist.constant(False)
        return routed.combine(pinned, lambda r, p: Aftermath(losses, destroyed, panic, r, p))

    return after
