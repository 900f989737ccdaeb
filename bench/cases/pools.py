"""(a) successes on 4+ among 60 d6; (c) 40 dice at BS 7 (2+, 1s rerolled at 5+).

Both are i.i.d. pools: exactodds answers with the binomial closed form
(O(n) big-integer products, see ``Dist.binomial``); the BS 7 reroll only
changes the single-die chance (``target_with_reroll``: 8/9).
"""

from __future__ import annotations

from typing import Any

from . import Case, dist_answer, faster_than_peers


def successes_pool(n: int, hit: int) -> Any:
    """exactodds: successes of ``n`` d6 at ``hit``+."""
    from exactodds import Target, successes

    return successes(n, Target.parse(f"{hit}+").chance())


def rerolled_pool(n: int, hit: int, reroll: tuple[int, ...], reroll_hit: int) -> Any:
    """exactodds: successes of ``n`` d6 at ``hit``+, faces ``reroll`` rerolled once at ``reroll_hit``+."""
    from exactodds import Target, successes, target_with_reroll

    p = target_with_reroll(Target.parse(f"{hit}+"), set(reroll), Target.parse(f"{reroll_hit}+"))
    return successes(n, p)


def cases(quick: bool = False) -> list[Case]:
    """Cases (a) and (c)."""
    a = {"n": 60, "hit": 4}
    c = {"n": 40, "hit": 2, "reroll": [1], "reroll_hit": 5}
    return [
        Case("a.pool60", "a", "successes on 4+ among 60 d6",
             compute=lambda: successes_pool(a["n"], a["hit"]), canon=dist_answer,
             peer=("successes", a), targets=[faster_than_peers(1)]),
        Case("c.bs7x40", "c", "40 dice at BS 7 (2+, 1s rerolled at 5+)",
             compute=lambda: rerolled_pool(c["n"], c["hit"], tuple(c["reroll"]), c["reroll_hit"]),
             canon=dist_answer, peer=("reroll", c), targets=[faster_than_peers(1)]),
    ]
