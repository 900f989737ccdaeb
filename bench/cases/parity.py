"""(b) joint (count of 5+, even - odd) over N d6, and the Hell Dorado
(recipient, hits) answer for the same N.

The joint answer has (N+1)^2 outcomes at most; exactodds computes it with
the generic joint-count primitive of ``exactodds.dice.attributes`` (never
the 6^N rolls), and the Hell Dorado answer with ``exactodds.rules.
hell_dorado`` (difficulty 5: the rules' worked example, target DEF 4
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
OPTIMAL = {"reroll": "up-to", "budget": 2, "policy": "optimal"}


def joint(n: int, hit: int = HIT) -> Any:
    """exactodds: Dist over (hits at ``hit``+, even dice - odd dice) of ``n`` d6
    (``attribute_counts``: a row recurrence, O(n^2) small-integer operations)."""
    attribute_counts = need("exactodds.dice.attributes", "attribute_counts")
    from exactodds import d6

    return attribute_counts(n, d6, lambda f: f >= hit, _even, difference=True)


def _even(face: int) -> bool:
    return face % 2 == 0


def joint_key(outcome: Any) -> list:
    """exactodds's joint outcome -> [hits, even - odd]."""
    return [outcome[0], outcome[1]]


def hd(n: int, **rerolls: Any) -> Any:
    """exactodds: Dist over (recipient, hits) of a Hell Dorado shot of ``n`` dice
    at the rules' worked-example target (difficulty 5, two engaged fighters);
    ``rerolls`` go to ``make_shot`` (e.g. ``reroll="up-to", budget=2,
    policy="optimal"``)."""
    make_shot, shoot = need("exactodds.rules.hell_dorado", "make_shot", "shoot")
    return shoot(make_shot(n, TARGET_DEF, ENGAGED_DEF, RANGE_DIFFICULTY, **rerolls)).hits


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
    # what no peer answers: the best choice of up to 2 failed dice to reroll, per first roll
    out.append(Case("b.hd30opt", "b", "Hell Dorado, 30 dice, reroll up to 2 failed, optimal policy (exactodds alone)",
                    compute=lambda: hd(30, **OPTIMAL), canon=lambda d: dist_answer(d, hd_key)))
    return out
