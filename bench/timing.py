"""Timing and answer-encoding helpers shared by both sides of the benchmark.

Standard library only: this module is imported by the harness (``run.py``,
in the project's environment) and by the peer runner (``peer_impl.py``, in
the peers' own virtual environment, which has no exactodds).

Method (timeit-style): one untimed warm-up call, whose result is the answer
that is checked, then ``repeats`` timed calls; we report the minimum and the
median. Before every call the library's ``functools`` caches are cleared
(:func:`clear_caches`) and each call builds its dice afresh, so no library
answers from a cache filled by an earlier repeat. As in :mod:`timeit`, the
garbage collector is off during a timed call.
"""

from __future__ import annotations

import gc
import inspect
import json
import math
import statistics
import sys
import time
from collections.abc import Callable, Iterable
from fractions import Fraction
from typing import Any

# Repeat policy: enough calls to fill BUDGET seconds, within [MIN, MAX].
BUDGET = 0.5
MIN_REPEATS = 3
MAX_REPEATS = 25
SLOW = 2.0  # a call slower than this is timed once more only


def clear_caches(prefixes: Iterable[str]) -> int:
    """Call ``cache_clear()`` on every functools cache found in the modules
    whose name starts with one of ``prefixes`` (module functions and class
    attributes). Returns how many caches were cleared."""
    prefixes = tuple(prefixes)
    seen: set[int] = set()
    n = 0
    for name, mod in list(sys.modules.items()):
        if mod is None or not name.startswith(prefixes):
            continue
        for value in list(vars(mod).values()):
            candidates = [value]
            if inspect.isclass(value):
                candidates += list(vars(value).values())
            for c in candidates:
                c = getattr(c, "__func__", c)
                clear = getattr(c, "cache_clear", None)
                if callable(clear) and id(c) not in seen:
                    seen.add(id(c))
                    clear()
                    n += 1
    return n


def _timed(fn: Callable[[], Any]) -> tuple[Any, float]:
    enabled = gc.isenabled()
    gc.disable()
    try:
        t0 = time.perf_counter()
        result = fn()
        return result, time.perf_counter() - t0
    finally:
        if enabled:
            gc.enable()


def measure(fn: Callable[[], Any], clear: Callable[[], Any] | None = None,
            budget: float = BUDGET, max_repeats: int = MAX_REPEATS, repeats: int = 0) -> tuple[Any, dict]:
    """Warm up once (its result is returned), then time repeated calls
    (``repeats`` of them when given, else as the budget allows).

    Returns ``(result, {"first", "min", "median", "repeats"})`` in seconds.
    """
    if clear:
        clear()
    result, first = _timed(fn)
    if not repeats:
        repeats = 1 if first >= SLOW else min(max(MIN_REPEATS, math.ceil(budget / max(first, 1e-6))), max_repeats)
    times = []
    for _ in range(repeats):
        if clear:
            clear()
        _, t = _timed(fn)
        times.append(t)
    return result, {"first": first, "min": min(times), "median": statistics.median(times),
                    "repeats": repeats}


def measure_pair(fns: tuple[Callable[[], Any], Callable[[], Any]], clear: Callable[[], Any] | None = None,
                 budget: float = BUDGET, max_repeats: int = MAX_REPEATS) -> list[tuple[Any, dict]]:
    """:func:`measure` for two functions whose times are compared, their calls
    alternating (a, b, a, b, ...) so that both see the same moments of a busy
    machine; ``budget`` is for the two together. Returns ``[(result, times)]`` for each."""
    if clear:
        clear()
    results, firsts = zip(*(_timed(fn) for fn in fns))
    per_round = sum(firsts)
    repeats = 1 if per_round >= SLOW else max(MIN_REPEATS, min(max_repeats, math.ceil(budget / max(per_round, 1e-6))))
    times: list[list[float]] = [[], []]
    for _ in range(repeats):
        for i, fn in enumerate(fns):
            if clear:
                clear()
            times[i].append(_timed(fn)[1])
    return [(results[i], {"first": firsts[i], "min": min(times[i]), "median": statistics.median(times[i]),
                          "repeats": repeats}) for i in range(2)]


def encode_answer(pairs: Iterable[tuple[Any, int]], total: int | None = None) -> dict:
    """An exact distribution as JSON: ``{"total": T, "weights": [[key, w], ...]}``.

    ``pairs`` are (JSON-able key, non-negative integer weight); equal keys are
    added. ``total`` defaults to the sum of the weights.
    """
    merged: dict[str, list] = {}
    for key, w in pairs:
        k = json.dumps(key)
        if k in merged:
            merged[k][1] += int(w)
        else:
            merged[k] = [key, int(w)]
    tot = sum(w for _, w in merged.values()) if total is None else int(total)
    return {"total": tot, "weights": [v for v in merged.values() if v[1]]}


def decode_answer(answer: dict) -> dict[str, Fraction]:
    """``encode_answer`` output -> {JSON key text: exact Fraction}, for comparison."""
    total = answer["total"]
    return {json.dumps(k): Fraction(w, total) for k, w in answer["weights"]}
