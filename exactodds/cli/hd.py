"""``exactodds hd``: Hell Dorado — shooting into a melee, with the parity rule."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import click

from ..answer import Answer
from ..core import InputError
from ..rules import hell_dorado as hd
from .common import Count


class FighterDefType(click.ParamType):
    """A fighter's DEF, optionally marked as the shooter's enemy: ``3``, ``3:enemy`` or ``3:friend``."""

    name = "D[:enemy]"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, bool]:
        if isinstance(value, tuple):
            return value
        text = str(value).strip()
        head, _, side = text.partition(":")
        side = side.strip().lower() or "friend"
        head = head.strip()
        if not head.isdigit() or len(head) > 3 or not hd.DEF_MIN <= int(head) <= hd.DEF_MAX or \
                side not in ("friend", "enemy"):
            self.fail(f"{value!r} is not a fighter's DEF: use a whole number from {hd.DEF_MIN} to {hd.DEF_MAX}, "
                      "optionally followed by :enemy (a fighter not on the shooter's side) or :friend (the default)",
                      param, ctx)
        return int(head), side == "friend"


def shoot_answer(dice: int, target_def: int, engaged_def: tuple[tuple[int, bool], ...] = (),
                 range_difficulty: int | None = None, name: tuple[str, ...] = (), behind: bool = False,
                 candidate_def: tuple[tuple[int, bool], ...] = (), elevated: bool = False,
                 no_candidate_difficulty: bool = False, allow_low_difficulty: bool = False,
                 reroll_failed: bool = False, reroll_up_to: int | None = None, policy: str | None = None,
                 objective: str | None = None, show_decisions: bool = False) -> Answer:
    """The exact joint distribution of (recipient, hits) of one shot, with its figures."""
    if reroll_failed and reroll_up_to is not None:
        raise InputError("--reroll-failed and --reroll-up-to are alternatives (a die is rerolled at most once); "
                         "give one")
    if policy is not None and reroll_up_to is None:
        raise InputError(f"--policy {policy} needs --reroll-up-to K: a policy chooses which failed dice to reroll "
                         "when at most K may be")
    if reroll_up_to is not None and policy is None:
        raise InputError(f"--reroll-up-to {reroll_up_to} needs --policy {'|'.join(hd.POLICIES)}: which failed dice "
                         "are rerolled changes the parity")
    if objective is not None and policy != "optimal":
        raise InputError(f"--objective {objective} only applies to --policy optimal")
    if show_decisions and policy != "optimal":
        raise InputError("--show-decisions needs --policy optimal (the other policies follow a fixed order)")
    if no_candidate_difficulty and not behind:
        raise InputError("--no-candidate-difficulty only applies behind a melee (--behind)")
    others = candidate_def if behind else engaged_def
    enemies = [i for i, (_, friend) in enumerate(others, 1) if not friend]
    reroll = "failed" if reroll_failed else ("up-to" if reroll_up_to is not None else "none")
    shot = hd.make_shot(
        dice, target_def, [d for d, _ in engaged_def], range_difficulty, names=name, enemies=enemies,
        behind=behind, candidate_defs=[d for d, _ in candidate_def], elevated=elevated,
        candidates_in_difficulty=not no_candidate_difficulty, allow_low_difficulty=allow_low_difficulty,
        reroll=reroll, budget=reroll_up_to or 0, policy=policy, objective=objective or "p-target")
    result = hd.shoot(shot)
    query = {
        "dice": dice, "target_def": target_def, "engaged_def": [d for d, _ in engaged_def],
        "range_difficulty": range_difficulty, "behind": behind, "candidate_def": [d for d, _ in candidate_def],
        "elevated": elevated, "recipients": shot.recipients[:-1],
        "enemies": [f.name for f in shot.impair_candidates if not f.friend],
        "reroll": reroll, "reroll_up_to": reroll_up_to, "policy": policy,
        "objective": objective or ("p-target" if policy == "optimal" else None),
    }
    if behind:
        query["candidates_in_difficulty"] = not no_candidate_difficulty
    expected = result.expected_hits()
    extras: dict[str, Any] = {
        "difficulty": shot.difficulty,
        "parity_check": shot.parity_check,
        "p_recipient": result.p_recipient(),
        "p_friend_hit": result.p_friend_hit(),
        "expected_hits": expected,
        "expected_hits_total": sum(expected.values(), Fraction(0)),
    }
    if show_decisions:
        extras["decisions"] = hd.reroll_decisions(shot)
    return Answer(result.hits, query, extras, stages=dict(result.run.stages))


def register(main: click.Group) -> None:
    """Add the ``hd`` group and its ``shoot`` command to ``main``."""
    from .common import ExactOddsGroup, query_command

    @main.group("hd", cls=ExactOddsGroup)
    def group() -> None:
        """Hell Dorado: shooting into a melee, with the parity rule ("commettre un impair")."""

    @query_command(group, "shoot")
    @click.option("--dice", type=Count(1, what="a number of dice"), required=True, help="Dice rolled (1 or more).")
    @click.option("--target-def", type=Count(hd.DEF_MIN, hd.DEF_MAX, "a DEF value"), required=True,
                  help=f"The target's DEF ({hd.DEF_MIN}-{hd.DEF_MAX}).")
    @click.option("--engaged-def", type=FighterDefType(), multiple=True,
                  help="DEF of a fighter the target engages (repeat for each; friend by default, D:enemy if not).")
    @click.option("--range-difficulty", type=Count(hd.DEF_MIN, hd.DEF_MAX, "a range difficulty"), default=None,
                  help="Difficulty imposed by the range.")
    @click.option("--name", multiple=True,
                  help="Recipient names: the target first, then each engaged fighter (or candidate) in order.")
    @click.option("--behind", is_flag=True, help="The target stands behind a melee (list the --candidate-def).")
    @click.option("--candidate-def", type=FighterDefType(), multiple=True,
                  help="Behind a melee: DEF of a fighter on the line of fire, or engaged by one (repeat).")
    @click.option("--elevated", is_flag=True,
                  help="Shooter or target higher than the fighters between them: no parity check.")
    @click.option("--no-candidate-difficulty", is_flag=True,
                  help="Behind a melee: the candidates' DEF does not raise the difficulty.")
    @click.option("--allow-low-difficulty", is_flag=True,
                  help="Accept a difficulty below 2 (every die hits) instead of refusing it.")
    @click.option("--reroll-failed", is_flag=True, help="Reroll every failed die once, before the parity count.")
    @click.option("--reroll-up-to", type=Count(0, what="a reroll budget"), default=None, metavar="K",
                  help="Reroll at most K failed dice once, chosen by --policy.")
    @click.option("--policy", type=click.Choice(hd.POLICIES), default=None,
                  help="Which failed dice --reroll-up-to rerolls: odd ones first, even ones first, or the "
                       "exact optimum for --objective.")
    @click.option("--objective", type=click.Choice(hd.OBJECTIVES), default=None,
                  help="What the optimal policy maximises (default p-target: P(the original target is hit)).")
    @click.option("--show-decisions", is_flag=True, help="Add the optimal policy's decision table to the answer.")
    def shoot(**params: Any) -> Answer:
        """Exact (recipient, hits) of one shot at a fighter in (or behind) a melee.

        The seed's example (difficulty 5, two engaged fighters):

            exactodds hd shoot --dice 3 --target-def 4 --engaged-def 3 --engaged-def 5 --range-difficulty 4
        """
        return shoot_answer(**params)
