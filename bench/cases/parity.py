"""(b) joint (count of 5+, even - odd) over N d6, and the Hell Dorado
(recipient, hits) answer for the same N.

The joint answer has (N+1)^2 outcomes at most; exactodds computes it with
the generic joint-count primitive of ``exactodds.dice.attributes`` (never
the 6^N rolls), and the Hell Dorado answer with ``exactodds.rules.
hell_dorado`` (difficulty 5: the seed's worked example, target DEF 4
engaged with DEF 3 and DEF 5 fighters, range difficulty 4; so an impair
goes to one of 2 engaged fighters, uniformly). N = 1000 is asked of
exactodds alone (the peers would take hours).
"""

from __future__ import annotations

from typing import Any

from . import Case, dist_answer, faster_than_peers, need, under

HIT = 5          # "count of 5+"
ENGAGED_DEF = (3, 5)
TARGET_DEF = 4
RANGE_DIFFICULTY = 4  # max(4, 3, 5, 4) = difficulty 5 = HIT


def joint(n: int, hit: int = HIT) -> Any:
    """exactodds: Dist over (hits at ``hit``+, even dice - odd dice) of ``n`` d6."""
    raise need("exactodds.dice.attributes") and NotImplementedError  # wired when the module lands


def joint_key(outcome: Any) -> list:
    """exactodds's joint outcome -> [hits, even - odd]."""
    return [outcome[0], outcome[1]]


def hd(n: int) -> Any:
    """exactodds: Dist over (recipient, hits) of a Hell Dorado shot of ``n`` dice
    at the seed's worked-example target (difficulty 5, two engaged fighters)."""
    raise need("exactodds.rules.hell_dorado") and NotImplementedError


def hd_key(outcome: Any) -> list:
    """exactodds's (recipient, hits) outcome -> [recipient name, hits]."""
    return [str(outcome[0]), outcome[1]]


def cases(quick: bool = False) -> list[Case]:
    """Cases (b): joint and Hell Dorado at N = 30, 60, 120 with peers, 1000 alone."""
    sizes = (30, 60, 120)
    out = []
    for n in sizes:
        targets = [faster_than_peers(100)] if n in (30, 120) else []
        if n == 120:
            targets.append(under(0.015))
        out.append(Case(f"b.joint{n}", "b", f"joint (5+ count, even - odd) over {n} d6",
                        compute=lambda n=n: joint(n), canon=lambda d: dist_answer(d, joint_key),
                        peer=("joint", {"n": n, "hit": HIT}), targets=targets,
                        # the n-fold sums grow as N^3 log N: minutes at 120, no new information
                        skip_peers=("icepool (n-fold sum)",) if n >= 120 else ()))
    out.append(Case("b.joint1000", "b", "joint (5+ count, even - odd) over 1000 d6 (exactodds alone)",
                    compute=lambda: joint(1000), canon=lambda d: dist_answer(d, joint_key),
                    targets=[under(2.0)]))
    for n in sizes:
        out.append(Case(f"b.hd{n}", "b", f"Hell Dorado (recipient, hits), {n} dice at difficulty 5",
                        compute=lambda n=n: hd(n), canon=lambda d: dist_answer(d, hd_key),
                        peer=("hd", {"n": n, "hit": HIT, "engaged": len(ENGAGED_DEF)})))
    out.append(Case("b.hd1000", "b", "Hell Dorado (recipient, hits), 1000 dice (exactodds alone)",
                    compute=lambda: hd(1000), canon=lambda d: dist_answer(d, hd_key)))
    return out
