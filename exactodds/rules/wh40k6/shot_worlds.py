"""A Warhammer 40,000 6th edition shooting step on the whole distribution of
worlds at once (:class:`ShotWorlds`): the same distribution as applying its
kernel world by world (``dist.then(kernel)``), its outcomes in the same
order, without building a :class:`~exactodds.rules.scenario.World` and a
:class:`~exactodds.core.Dist` per outcome of every world.

A shot changes the firing unit's state, the target's state and status and the
phase's marks; the rest of a world passes through. So each world is split in
its part read by the shot (both units' states and statuses) and the rest: the
shot's outcomes (target state, firer state, target status) are computed once
per distinct part, the rest numbered once per world, the worlds of one part
and one rest summed into one row (at the end of a phase the marks are
cleared: the worlds that differed only in them share a rest), and the
weights summed on (rest number, outcome) pairs; a world is built once per
distinct pair.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection
from typing import Any

from ...core import Dist, Kernel
from ...core.limits import charge
from ..scenario import World
from .phases import note_start

Moves = Callable[[World], "Dist | None"]
"""A world -> the Dist of (target state, firer state, target status) after the
shot from it, or None when nothing is fired (the world then goes through the kernel)."""


class ShotWorlds:
    """The step ``dist -> dist.then(kernel)`` of a shooting step on worlds
    (units ``f`` fires at ``t``), computed on the whole distribution.

    ``moves``: the shot's outcomes from a world (after :func:`~.phases.note_start`),
    a function of both units' states and statuses only; ``tested``: the
    positions of the units the end of the phase tests; ``ends_phase``: the
    kernel ends the phase (the marks cleared, the units of ``tested`` noted in
    the marks tested). A world whose end of phase tests some unit, or from
    which nothing is fired, goes through ``kernel`` itself.

    Cost: O(worlds x units) to split them, one ``moves`` per distinct part,
    O(sum over the distinct (part, rest) rows of their outcomes' counts)
    big-integer multiply-adds (metered as :meth:`Dist.then` meters them), one
    world built per distinct outcome."""

    def __init__(self, kernel: Kernel, f: int, t: int, moves: Moves, tested: Collection[int],
                 ends_phase: bool) -> None:
        self.kernel = kernel
        self.f, self.t, self.moves = f, t, moves
        self.tested, self.ends_phase = frozenset(tested), ends_phase

    def __call__(self, dist: Dist) -> Dist:
        f, t, moves, tested, ends = self.f, self.t, self.moves, self.tested, self.ends_phase
        parts: dict[tuple, Dist | None] = {}
        rests: dict[tuple, int] = {}
        rest_worlds: list[World] = []
        rows: list[list[Any]] = []  # [weight, Dist, rest number or None: keyed by world]
        row_of: dict[tuple, list[Any]] = {}  # (part, rest number) -> its row
        lcm, terms = 1, 0
        for w, weight in dist.weights().items():
            w0 = note_start(w, t)
            part = (w.units[f], w.units[t], w.statuses[f], w.statuses[t])
            shot = parts[part] if part in parts else parts.setdefault(part, moves(w0))
            if shot is None or (ends and any(i in tested for i, _ in w0.marks)):
                d = self.kernel(w)
                rows.append([weight, d, None])
            else:
                rest = (w.units[:t] + w.units[t + 1:], w.statuses, () if ends else w0.marks)
                r = rests.get(rest)
                if r is None:
                    r = rests[rest] = len(rest_worlds)
                    rest_worlds.append(w0._replace(marks=rest[2]))
                # worlds of one part and one rest (e.g. their marks cleared at the end of the
                # phase) send the shot's outcomes to the same places: one row, their weights summed
                row = row_of.get((part, r))
                if row is not None:
                    row[0] += weight
                    continue
                d = shot
                rows.append(row_of.setdefault((part, r), [weight, d, r]))
            lcm = math.lcm(lcm, d.denominator)
            terms += len(d.weights())
        charge(terms, dist.denominator.bit_length() + lcm.bit_length())
        merged: dict[Any, int] = {}
        get = merged.get
        for weight, d, r in rows:
            scale = weight * (lcm // d.denominator)
            for y, v in d.weights().items():
                at = y if r is None else (r, y)
                merged[at] = get(at, 0) + scale * v
        worlds: dict[World, int] = {}
        for at, v in merged.items():
            if at.__class__ is World:
                z = at
            else:
                base, (ts, fs, status) = rest_worlds[at[0]], at[1]
                z = base.put(t, ts, status).put(f, fs)
            worlds[z] = worlds.get(z, 0) + v
        return Dist.from_weights(worlds)
