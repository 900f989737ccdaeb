"""``exactodds pool``: successes of a pool of dice, with rerolls."""

from __future__ import annotations

import click

from ..answer import Answer
from ..core import InputError
from ..dice import Target, reroll_failed_chance, successes, target_with_reroll
from ..dice import reroll_up_to as reroll_up_to_dist
from .common import Count, FacesType, TargetType


def pool_answer(n: int, hit: Target, reroll: tuple[int, ...] = (), reroll_hit: Target | None = None,
                reroll_failed: bool = False, reroll_up_to: int | None = None, sides: int = 6) -> Answer:
    """The exact distribution of successes of ``n`` d``sides`` at ``hit``."""
    if reroll_hit is not None and not (reroll or reroll_failed or reroll_up_to is not None):
        raise InputError("--reroll-hit needs --reroll FACES, --reroll-failed or --reroll-up-to K")
    if reroll and (reroll_failed or reroll_up_to is not None):
        raise InputError("--reroll FACES cannot be combined with --reroll-failed or --reroll-up-to: "
                         "a die is never rerolled twice; choose one reroll rule")
    if reroll_failed and reroll_up_to is not None:
        raise InputError("--reroll-failed and --reroll-up-to are alternatives; give one")
    if hit.sides != sides or (reroll_hit is not None and reroll_hit.sides != sides):
        raise InputError(f"targets must be for a d{sides}")
    p_first = target_with_reroll(hit, reroll, reroll_hit, sides) if reroll else hit.chance()
    p_again = (reroll_hit or hit).chance()
    if reroll_failed:
        dist = successes(n, reroll_failed_chance(p_first, p_again))
    elif reroll_up_to is not None:
        dist = reroll_up_to_dist(n, reroll_up_to, p_first, p_again)
    else:
        dist = successes(n, p_first)
    query = {"n": n, "hit": str(hit), "sides": sides, "reroll": list(reroll),
             "reroll_hit": None if reroll_hit is None else str(reroll_hit),
             "reroll_failed": reroll_failed, "reroll_up_to": reroll_up_to}
    return Answer(dist, query)


def register(main: click.Group) -> None:
    """Add the ``pool`` command to ``main``."""
    from .common import query_command

    @query_command(main, "pool")
    @click.argument("n", type=Count(0, what="a number of dice"))
    @click.option("--sides", type=Count(2, 1000, "a number of sides"), default=6, show_default=True, is_eager=True,
                  help="Sides of each die.")
    @click.option("--hit", type=TargetType(), required=True, help="Target number: X+ (2+ to 6+ on a d6), auto or fail.")
    @click.option("--reroll", type=FacesType(), default=(), help="Faces rerolled once per die, e.g. 1 or 1,2.")
    @click.option("--reroll-hit", type=TargetType(), default=None,
                  help="Target for rerolled dice (default: the --hit target).")
    @click.option("--reroll-failed", is_flag=True, help="Reroll every failed die once.")
    @click.option("--reroll-up-to", type=Count(0, what="a reroll budget"), default=None, metavar="K",
                  help="Reroll at most K failed dice once (a shared budget).")
    def pool(n: int, sides: int, hit: Target, reroll: tuple[int, ...], reroll_hit: Target | None,
             reroll_failed: bool, reroll_up_to: int | None) -> Answer:
        """Exact distribution of the number of successes among N dice.

        Example: 40 shots at BS 7 in 40K 6th edition (2+, 1s rerolled at 5+):

            exactodds pool 40 --hit 2+ --reroll 1 --reroll-hit 5+
        """
        return pool_answer(n, hit, reroll, reroll_hit, reroll_failed, reroll_up_to, sides)
