"""(g) a sweep's own overhead: 5,000 ``pool`` queries swept in this process
(``scheduler="local"``: grid, keys, dispatch, figures) against the same 5,000
answers computed by calling the command's compute function in a loop; and
1,000 cheap ``pool`` queries swept as ``exactodds sweep --scheduler local``
does (rows written as CSV) against the same 1,000 distributions from the dice
functions in a loop.

The first target bounds the overhead per row: (sweep time - loop time) / loop
time; the second the whole sweep: sweep time / dice time.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from . import Case, relative

NS = range(1, 501)
HITS = ["2+", "3+", "4+", "5+", "6+"]
REROLLS = [False, True]
GRID = {"base": {"system": "pool", "params": {}},
        "vary": {"n": {"from": 1, "to": 500}, "hit": HITS, "reroll_failed": REROLLS},
        "report": {"mean": True, "at_least": [3]}}
"""5,000 queries: 500 pool sizes x 5 targets x with and without rerolling failed dice."""


@cache
def _params() -> list[Any]:
    """The 5,000 parameter objects (built once, outside the timing)."""
    from exactodds.commands.pool import PoolParams

    return [PoolParams(n=n, hit=h, reroll_failed=r) for n in NS for h in HITS for r in REROLLS]


def loop() -> list[Any]:
    """exactodds: the compute function called on each of the 5,000 parameter objects."""
    from exactodds.commands.pool import pool

    return [pool(p) for p in _params()]


def sweep() -> Any:
    """exactodds: the same 5,000 queries as a sweep in this process (no file written)."""
    from exactodds.sweep import ANSWERS, run_sweep

    ANSWERS.clear()  # each repeat computes every answer again
    return run_sweep(GRID, scheduler="local", write=False)


SMALL = {"base": {"system": "pool", "params": {}},
         "vary": {"n": {"from": 1, "to": 100}, "hit": HITS, "reroll_failed": REROLLS},
         "report": {"mean": True, "at_least": [3]}}
"""1,000 queries: 100 pool sizes x 5 targets x with and without rerolling failed dice."""
SMALL_TARGET = 3.0
RATIO_BUDGET = 2.0
"""Seconds of timed calls for each of the two (about 10 repeats of the sweep): the
ratio of two minimums, each from enough calls to catch a quiet moment."""


def dice_loop() -> list[Any]:
    """exactodds: the 1,000 distributions of :data:`SMALL` from the dice functions
    (``successes``, ``reroll_failed_chance``), the target numbers parsed in the loop."""
    from exactodds import Target, reroll_failed_chance, successes

    out = []
    for n in range(1, 101):
        for hit in HITS:
            p = Target.parse(hit).chance()
            for again in REROLLS:
                out.append(successes(n, reroll_failed_chance(p, p) if again else p))
    return out


def small_sweep() -> Any:
    """exactodds: :data:`SMALL` swept in this process, its rows written as CSV text
    (as ``exactodds sweep GRID --scheduler local`` does, less the process start). The
    harness empties the process's answer cache before every call (:func:`forget`),
    outside the timing, so no call is answered from it."""
    import io

    from exactodds.sweep import run_sweep

    out = io.StringIO()
    run_sweep(SMALL, scheduler="local", stream=out, keep_rows=False)
    return out.getvalue()


def forget() -> None:
    """Empty the process's cache of answers (a sweep's second level)."""
    from exactodds.sweep import ANSWERS

    ANSWERS.clear()


def _rows(result: Any) -> dict:
    """The number of rows (of a CSV text, or distributions), as a one-outcome answer."""
    from ..timing import encode_answer

    return encode_answer([(len(result.splitlines()) - 1 if isinstance(result, str) else len(result), 1)])


def _count(result: Any) -> dict:
    """The number of answers, as a one-outcome answer (the two cases must agree on it)."""
    from ..timing import encode_answer

    rows = result if isinstance(result, list) else result.rows
    return encode_answer([(len(rows), 1)])


def cases(quick: bool = False) -> list[Case]:
    """Case (g): the loop (reference) and the sweep."""
    return [
        Case("g.loop", "g", "5,000 pool answers by calling the compute function in a loop (reference)",
             compute=loop, canon=_count),
        Case("g.sweep", "g", "the same 5,000 queries as a sweep (scheduler local: grid, keys, dispatch, figures)",
             compute=sweep, canon=_count,
             targets=[relative("g.loop", 1.5, "overhead <= 1.5x the computing (same run)", offset=1.0)]),
        Case("g.dice1000", "g", "1,000 pool distributions (n 1-100 x 2+..6+ x reroll failed or not) from the dice "
             "functions in a loop (reference)", compute=dice_loop, canon=_rows, budget=RATIO_BUDGET),
        Case("g.sweep1000", "g", "the same 1,000 queries as a sweep (scheduler local, CSV rows written)",
             compute=small_sweep, canon=_rows, clear=forget, budget=RATIO_BUDGET, paired="g.dice1000",
             targets=[relative("g.dice1000", SMALL_TARGET,
                               f"sweep / dice functions <= {SMALL_TARGET:g} (same run)")]),
    ]
