"""Weight tables: ``((outcome, integer weight), ...)`` over a total, the plain
form a hot loop mixes without building a :class:`~.dist.Dist` per step."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from math import gcd
from typing import TypeVar

K = TypeVar("K", bound=Hashable)

Table = tuple[Sequence[tuple[K, int]], int]
"""``(pairs, total)``: each outcome's integer weight, and their sum (or any
common total the weights are over)."""


def mix(parts: Sequence[tuple[int, Table[K]]]) -> tuple[dict[K, int], int]:
    """The mixture of weighted tables: sum over ``(w, (pairs, total))`` of
    ``w x pair weight / total``, over the tables' least common total. Returns
    (outcome -> integer weight over that lcm x the weights' own total, in the
    order outcomes first appear, tables in order), and that lcm. Cost:
    O(entries) big-integer multiply-adds."""
    lcm = 1
    for _, (_, t) in parts:
        if lcm % t:
            lcm = lcm * t // gcd(lcm, t)
    out: dict[K, int] = {}
    get = out.get
    for w, (pairs, t) in parts:
        scale = w * (lcm // t)
        for k, v in pairs:
            out[k] = get(k, 0) + scale * v
    return out, lcm
