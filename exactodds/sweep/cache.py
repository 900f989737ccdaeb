"""What a sweep computes once.

Two levels, both keyed by the *canonical query* (:meth:`exactodds.commands.Query.key`:
the command and its parameters after the command's own validation, so
``hit = "4+"``, ``hit = 4`` and ``hit = " 4 + "`` are the same key):

1. **Within a sweep, across workers**: the sweep groups the grid's rows by
   canonical query before dispatching, so each distinct query is sent to
   exactly one worker, once; rows that spell the same query differently
   (or list it in several combinations) share its answer.
2. **Within a worker process, across sweeps**: :data:`ANSWERS`, an LRU
   cache of answers per process, bounded by the size of what it holds (see
   :data:`DEFAULT_UNITS`) as well as by count (a Dask worker, the notebook's own
   process with ``scheduler="local"``), so sweeping again with another
   report or an overlapping grid recomputes nothing already answered.
   Process pools of the default engine live for one sweep, so there this
   level only helps the in-process engine and long-lived Dask workers.

The answers are exact and deterministic, so a cached answer is the answer.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..core.limits import state_units

if TYPE_CHECKING:
    from ..answer import Answer
    from ..commands import Query

DEFAULT_SIZE = 4096
"""Most answers kept per process. Only what a report reads is kept (the
distribution, mean and extra figures; not the pipeline stages)."""

DEFAULT_UNITS = 1_000_000
"""Most size units kept per process, as the state limit counts them
(:func:`~exactodds.core.limits.state_units`): each outcome of a cached
distribution counts once per started 1,024 bits of its exact weights (about
128 bytes, what an entry costs anyway). A million units is about 150 to 250 MB:
4,096 answers of a few outcomes fit, while answers of 100,000 outcomes are
kept ten at a time (before this bound, 4,096 large answers grew a worker to
3 GB). An answer larger than the whole budget is returned but not kept."""


@dataclass
class CacheInfo:
    """Counters of an :class:`AnswerCache`."""

    hits: int
    misses: int
    size: int
    maxsize: int
    units: int = 0
    """Size of the answers kept (see :data:`DEFAULT_UNITS`)."""
    max_units: int = DEFAULT_UNITS


class AnswerCache:
    """A thread-safe LRU map: canonical query key -> :class:`~exactodds.answer.Answer`.

    Lookup and insertion are O(1); the computation runs outside the lock
    (two threads may compute the same new key once each; both get equal answers).
    """

    def __init__(self, maxsize: int = DEFAULT_SIZE, max_units: int = DEFAULT_UNITS) -> None:
        self.maxsize = maxsize
        self.max_units = max_units
        self.units = 0
        self._data: OrderedDict[tuple, tuple[Answer, int]] = OrderedDict()
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def answer(self, query: Query, key: tuple | None = None) -> Answer:
        """The answer of ``query`` (``key``: its canonical key, if already known)."""
        key = query.key() if key is None else key
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return self._data[key][0]
            self.misses += 1
        answer = _slim(query.answer())
        units = answer_units(answer)
        if units > self.max_units:
            return answer
        with self._lock:
            if key in self._data:
                self.units -= self._data.pop(key)[1]
            self._data[key] = (answer, units)
            self.units += units
            while len(self._data) > self.maxsize or self.units > self.max_units:
                self.units -= self._data.popitem(last=False)[1][1]
        return answer

    def info(self) -> CacheInfo:
        """Hits, misses and size so far."""
        return CacheInfo(self.hits, self.misses, len(self._data), self.maxsize, self.units, self.max_units)

    def clear(self) -> None:
        """Forget every answer and reset the counters."""
        with self._lock:
            self._data.clear()
            self.hits = self.misses = self.units = 0


def answer_units(answer: Answer) -> int:
    """The size of an answer in units of :data:`DEFAULT_UNITS`: its outcomes, each
    counted once per started 1,024 bits of the common denominator (O(1)), plus one."""
    dist = answer.dist
    return 1 + state_units(len(dist), dist.denominator.bit_length())


def _slim(answer: Answer) -> Answer:
    """The answer without its intermediate stages (a report never reads them)."""
    if not answer.stages:
        return answer
    from dataclasses import replace

    return replace(answer, stages={})


ANSWERS = AnswerCache()
"""This process's cache of answers (level 2 above)."""
