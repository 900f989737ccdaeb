"""``pool``: successes of a pool of dice, with rerolls.

The parameters stay a command: the dice layer below has no input object of its
own (its functions take a count and chances, and the rule systems call them with
chances they compute), so this class is the one place a pool's fields are declared.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

from ..answer import Answer
from ..dice import Target, reroll_failed_chance, successes, target_with_reroll
from ..dice import reroll_up_to as reroll_up_to_dist
from .described import Layout, described
from .kinds import Count, Faces, Flag, TargetNumber
from .params import ParamError, Params, param
from .registry import define


@dataclass(frozen=True, kw_only=True)
class PoolParams(Params):
    """Successes among ``n`` dice: a target number and, optionally, one reroll rule."""

    n: int = param(Count(0, what="a number of dice"), "Number of dice.", positional=True)
    sides: int = param(Count(2, 1000, "a number of sides"), "Sides of each die.", 6)
    hit: Target = param(TargetNumber(), "Target number: X+ (2+ to 6+ on a d6), auto or fail.")
    reroll: tuple[int, ...] = param(Faces(), "Faces rerolled once per die, e.g. 1 or 1,2.", ())
    reroll_hit: Target | None = param(TargetNumber(), "Target for rerolled dice (default: the {hit} target).",
                                      None)
    reroll_failed: bool = param(Flag(), "Reroll every failed die once.", False)
    reroll_up_to: int | None = param(Count(0, what="a reroll budget"),
                                     "Reroll at most K failed dice once (a shared budget).", None, metavar="K")

    QUERY: ClassVar[Layout] = ("n", "hit", "sides", "reroll", "reroll_hit", "reroll_failed", "reroll_up_to")

    def check(self) -> None:
        if self.hit.kind != "at_least" and (self.reroll or self.reroll_failed or self.reroll_up_to is not None
                                            or self.reroll_hit is not None):
            raise ParamError("{hit} " + str(self.hit) + " decides every die without a roll: {reroll}, "
                             "{reroll_hit}, {reroll_failed} and {reroll_up_to} need a target number X+")
        if self.reroll_hit is not None and not (self.reroll or self.reroll_failed or self.reroll_up_to is not None):
            raise ParamError("{reroll_hit} needs {reroll} FACES, {reroll_failed} or {reroll_up_to} K")
        if self.reroll and (self.reroll_failed or self.reroll_up_to is not None):
            raise ParamError("{reroll} FACES cannot be combined with {reroll_failed} or {reroll_up_to}: "
                             "a die is never rerolled twice; choose one reroll rule")
        if self.reroll_failed and self.reroll_up_to is not None:
            raise ParamError("{reroll_failed} and {reroll_up_to} are alternatives; give one")
        if self.hit.sides != self.sides or (self.reroll_hit is not None and self.reroll_hit.sides != self.sides):
            raise ParamError(f"targets must be for a d{self.sides}")


@define("pool", None, PoolParams)
def pool(p: PoolParams) -> Answer:
    """Exact distribution of the number of successes among N dice.

    Example: 40 shots at BS 7 in 40K 6th edition (2+, 1s rerolled at 5+):

        exactodds pool 40 --hit 2+ --reroll 1 --reroll-hit 5+
    """
    p_first = target_with_reroll(p.hit, p.reroll, p.reroll_hit, p.sides) if p.reroll else p.hit.chance()
    p_again = (p.reroll_hit or p.hit).chance()
    if p.reroll_failed:
        dist = successes(p.n, reroll_failed_chance(p_first, p_again))
    elif p.reroll_up_to is not None:
        dist = reroll_up_to_dist(p.n, p.reroll_up_to, p_first, p_again)
    else:
        dist = successes(p.n, p_first)
    return Answer(dist, described(p))
