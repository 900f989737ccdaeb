"""(g) a sweep's own overhead: 5,000 ``pool`` queries swept in this process
(``scheduler="local"``: grid, keys, dispatch, figures) against the same 5,000
answers computed by calling the command's compute function in a loop.

The target bounds the overhead per row: (sweep time - loop time) / loop time.
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
    ]
