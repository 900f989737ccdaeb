"""Apply a kernel a random number of times, where the number is part of the state.

:func:`exactodds.core.iterate` applies a kernel N times to one start, N
independent of the start. In a fire group the start of the allocation (the
unit as earlier groups left it) and the number of wounds are joint: the
state is ``(count, rest)``. :func:`apply_counted` computes the distribution
of ``kernel^count(rest)`` by Horner's scheme over the counts::

    Y = X_0 + K(X_1 + K(X_2 + ... + K(X_max)))

where ``X_k`` is the part of the distribution whose count is ``k`` (a
sub-probability measure over ``rest``). Cost: ``max count`` applications of
the kernel to at most the distinct ``rest`` states reached, each kernel
output computed once per distinct state (cached): O(max count x distinct rest
states x kernel output size) multiply-adds. Naively running one chain per
start would cost that many times the number of distinct starts. An inert
``tag`` may ride along (e.g. the wounds still to allocate after these).

:func:`resolve_in_order` chains several counted kernels (e.g. wounds from
Critical Hits, then the other wounds).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from typing import Any

from ...core import Dist, InputError, Kernel
from ...core.checks import is_whole


def apply_counted(dist: Dist, split: Callable[[Any], tuple[int, Hashable, Hashable]], kernel: Kernel) -> Dist:
    """The distribution of ``(tag, kernel^count(rest))``, for
    ``(count, tag, rest) = split(state)`` of each state of ``dist``.

    ``kernel`` maps a rest state to a :class:`Dist` of rest states; the tag
    rides along untouched. Horner's scheme, integer weights over one growing
    denominator (reduced by the gcd after each application): O(max count x
    distinct (tag, rest) pairs x kernel output size), each distinct rest
    state's kernel computed once.
    """
    layers: dict[int, dict] = {}
    for state, w in dist.weights().items():
        count, tag, rest = split(state)
        if not is_whole(count) or count < 0:
            raise InputError(f"a repeat count must be a whole number 0 or more, not {count!r}")
        layer = layers.setdefault(count, {})
        key = (tag, rest)
        layer[key] = layer.get(key, 0) + w
    cache: dict = {}

    def out(rest: Hashable) -> tuple[int, list]:
        if rest not in cache:
            d = kernel(rest)
            if not isinstance(d, Dist):
                d = Dist.constant(d)
            cache[rest] = (d.denominator, list(d.weights().items()))
        return cache[rest]

    acc: dict = {}
    scale = 1  # acc's weights are over dist.denominator * scale
    for k in range(max(layers), 0, -1):
        for key, w in layers.get(k, {}).items():
            acc[key] = acc.get(key, 0) + w * scale
        lcm = 1
        for _, rest in acc:
            lcm = math.lcm(lcm, out(rest)[0])
        nxt: dict = {}
        for (tag, rest), w in acc.items():
            den, items = out(rest)
            f = w * (lcm // den)
            for y, v in items:
                key = (tag, y)
                nxt[key] = nxt.get(key, 0) + f * v
        scale *= lcm
        g = math.gcd(scale, *nxt.values())
        acc = {y: v // g for y, v in nxt.items()} if g > 1 else nxt
        scale //= g
    for key, w in layers.get(0, {}).items():
        acc[key] = acc.get(key, 0) + w * scale
    return Dist.from_weights(acc)


def resolve_in_order(dist: Dist, counts: Callable[[Any], Sequence[int]], rest: Callable[[Any], Hashable],
                     kernels: Sequence[Kernel]) -> Dist:
    """Apply ``kernels[0]`` ``counts(state)[0]`` times, then ``kernels[1]``
    ``counts(state)[1]`` times, and so on, to ``rest(state)``.

    One :func:`apply_counted` per kernel; the counts still to apply ride along
    as the tag. O(sum over phases of max count x distinct states x output).
    """
    current = dist.map(lambda s: (tuple(counts(s)), rest(s)))
    for kernel in kernels:
        current = apply_counted(current, lambda s: (s[0][0], s[0][1:], s[1]), kernel)
    return current.map(lambda s: s[1])
