"""The benchmark cases, one module per family.

A :class:`Case` is one timed question: the exactodds call, how to encode its
answer exactly, the peer case that asks the same question (if any peer
can), and the targets it must meet. Modules:

- :mod:`.pools`   (a) successes on 4+ among 60 d6; (c) 40 dice at BS 7.
- :mod:`.parity`  (b) joint (count of 5+, even - odd) over N d6, and the
  Hell Dorado (recipient, hits) answer for the same N.
- :mod:`.wh40k6`  (d) a full 40K 6th-ed attack down to casualties.
- :mod:`.hh3`     (e) the shipped Horus Heresy examples (examples/hh3/).
- :mod:`.startup` (f) the first call in a fresh process (import, CLI).
- :mod:`.sweeps`  (g) a sweep's own overhead.
- :mod:`.exchanges` (h) whole 40K exchanges from scenario files, and a numpy
  Monte Carlo of the assault for comparison.
- :mod:`.answers` (i) answers end to end (the JSON from the parameters)
  against their rule steps.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any


class NotAvailable(Exception):
    """The exactodds module a case needs is not there (yet)."""


def need(module: str, *names: str) -> Any:
    """Import ``module`` and return it (or its attributes ``names``), or raise
    :class:`NotAvailable` naming what is missing."""
    try:
        mod = importlib.import_module(module)
    except ImportError as exc:
        raise NotAvailable(f"{module} not available yet ({exc})") from None
    missing = [n for n in names if not hasattr(mod, n)]
    if missing:
        raise NotAvailable(f"{module} has no {', '.join(missing)} yet")
    if not names:
        return mod
    got = tuple(getattr(mod, n) for n in names)
    return got[0] if len(got) == 1 else got


@dataclass(frozen=True)
class Target:
    """A speed target: ``kind`` "ratio" (exactodds / fastest peer at most
    ``limit``), "time" (exactodds's time at most ``limit`` seconds),
    "relative" (exactodds's time / its time on the case ``reference``, minus
    ``offset``, at most ``limit``: both measured in the same run) or "either"
    (one of ``alternatives`` met: a target and the fallback that holds where
    it cannot, :func:`either`)."""

    kind: str
    limit: float
    text: str
    reference: str = ""
    offset: float = 0.0
    alternatives: tuple[Target, ...] = ()

    def check(self, seconds: float | None, ratio: float | None,
              times: dict[str, float | None] | None = None) -> bool | None:
        """True met, False missed, None not measurable (e.g. no peer answered).
        ``times``: exactodds's time per case key, for "relative" targets. An
        "either" target is met when one of its alternatives is, missed when
        every one is, else not measurable."""
        if self.kind == "either":
            states = [a.check(seconds, ratio, times) for a in self.alternatives]
            return True if True in states else None if None in states else False
        value = self.value(seconds, ratio, times)
        return None if value is None else value <= self.limit

    def values(self, seconds: float | None, ratio: float | None,
               times: dict[str, float | None] | None = None) -> list[float | None]:
        """The measured figure of each alternative of an "either" target (else of the target)."""
        return [a.value(seconds, ratio, times) for a in self.alternatives or (self,)]

    def value(self, seconds: float | None, ratio: float | None,
              times: dict[str, float | None] | None = None) -> float | None:
        """The measured figure the target bounds (an "either" target: its first alternative's)."""
        if self.kind == "either":
            return self.alternatives[0].value(seconds, ratio, times)
        if self.kind == "relative":
            base = (times or {}).get(self.reference)
            return None if seconds is None or not base else seconds / base - self.offset
        return ratio if self.kind == "ratio" else seconds


def faster_than_peers(times: float) -> Target:
    """exactodds at least ``times`` x faster than the fastest peer."""
    return Target("ratio", 1 / times, f">= {times:g}x faster than fastest peer" if times != 1
                  else "no slower than fastest peer")


def relative(reference: str, limit: float, text: str, offset: float = 0.0) -> Target:
    """exactodds's time / its time on the case ``reference`` (minus ``offset``) at most ``limit``."""
    return Target("relative", limit, text, reference, offset)


def either(target: Target, fallback: Target) -> Target:
    """``target``, or else ``fallback`` where it cannot be met: met when one of the two is."""
    return Target("either", 0.0, f"{target.text}, or else {fallback.text}", alternatives=(target, fallback))


def under(seconds: float) -> Target:
    """exactodds under ``seconds``."""
    return Target("time", seconds, f"< {seconds * 1e3:g} ms" if seconds < 1 else f"< {seconds:g} s")


@dataclass
class Case:
    """One timed question.

    ``compute`` is the exactodds call that is timed (it must do all the work,
    from the parameters to the finished distribution); ``canon`` turns its
    result into the exact JSON answer of :func:`timing.encode_answer`;
    ``peer`` is ``(peer case name, params)`` for :mod:`peer_impl`, or None
    when no peer can answer; ``fresh`` cases (startup) are timed as whole
    processes instead (``argv`` lists per library).
    """

    key: str
    group: str
    title: str
    compute: Callable[[], Any] | None = None
    canon: Callable[[Any], dict] | None = None
    peer: tuple[str, dict] | None = None
    targets: list[Target] = field(default_factory=list)
    fresh: dict[str, list[str]] | None = None
    skip_peers: tuple[str, ...] = ()
    note: str = ""
    clear: Callable[[], Any] | None = None
    """Called before every call, outside the timing, besides clearing the ``functools``
    caches (e.g. a cache of answers that is not one)."""
    paired: str = ""
    """The key of the case this one's figure is a ratio to: the two are timed with
    their calls alternating (:func:`~bench.timing.measure_pair`) when both run."""
    budget: float | None = None
    """Seconds of timed calls (default the harness's 0.5 s): more repeats for a case
    whose ratio to another case is the figure, so that a busy moment weighs less."""
    repeats: int = 0
    """Timed calls whatever their length (0: as many as the budget allows, one past
    2 s): the least of several for a slow case that another case's figure divides."""


def dist_answer(dist: Any, key: Callable[[Any], Any] = lambda o: o) -> dict:
    """An exactodds Dist (or Answer) as the exact JSON answer; ``key`` maps
    an outcome to its JSON key (NamedTuples become lists)."""
    from ..timing import encode_answer

    dist = getattr(dist, "dist", dist)
    return encode_answer(((_jsonable(key(o)), w) for o, w in dist.weights().items()), dist.denominator)


def _jsonable(x: Any) -> Any:
    if isinstance(x, tuple):
        return [_jsonable(v) for v in x]
    if isinstance(x, bool):
        return int(x)
    return x


def all_cases(quick: bool = False) -> list[Case]:
    """Every case, in report order."""
    from . import answers, exchanges, hh3, parity, pools, startup, sweeps, wh40k6

    out: list[Case] = []
    for mod in (pools, parity, wh40k6, hh3, startup, sweeps, exchanges, answers):
        out.extend(mod.cases(quick))
    return sorted(out, key=lambda c: c.group)
