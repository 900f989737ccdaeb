"""``hd shoot``: Hell Dorado, one shot into (or behind) a melee, with the parity rule."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from typing import Any

from ..answer import Answer
from ..rules import hell_dorado as hd
from .kinds import Choice, Count, Flag, Kind, KindError, Many, Text
from .params import ParamError, Params, param
from .registry import define


class FighterDef(Kind):
    """A fighter's DEF, optionally marked as the shooter's enemy: ``3``, ``"3:enemy"``
    or ``"3:friend"``; typed as ``(DEF, is_friend)``."""

    metavar = "D[:enemy]"

    def convert(self, value: Any, done: Mapping[str, Any]) -> tuple[int, bool]:
        if isinstance(value, tuple) and len(value) == 2:
            value = f"{value[0]}:{'friend' if value[1] else 'enemy'}"
        text = str(value).strip() if isinstance(value, (str, int)) and not isinstance(value, bool) else ""
        head, _, side = text.partition(":")
        side = side.strip().lower() or "friend"
        head = head.strip()
        if not (head.isascii() and head.isdigit()) or len(head) > 3 or not hd.DEF_MIN <= int(head) <= hd.DEF_MAX \
                or side not in ("friend", "enemy"):
            raise KindError(f"{value!r} is not a fighter's DEF: use a whole number from {hd.DEF_MIN} to "
                            f"{hd.DEF_MAX}, optionally followed by :enemy (a fighter not on the shooter's side) "
                            "or :friend (the default)")
        return int(head), side == "friend"

    def plain(self, value: tuple[int, bool]) -> Any:
        return value[0] if value[1] else f"{value[0]}:enemy"


DEF = Count(hd.DEF_MIN, hd.DEF_MAX, "a DEF value")


@dataclass(frozen=True, kw_only=True)
class ShootParams(Params):
    """One shot at a fighter in a melee, or behind one."""

    dice: int = param(Count(1, what="a number of dice"), "Dice rolled (1 or more).")
    target_def: int = param(DEF, f"The target's DEF ({hd.DEF_MIN}-{hd.DEF_MAX}).")
    engaged_def: tuple[tuple[int, bool], ...] = param(
        Many(FighterDef()), "DEF of a fighter the target engages (repeat for each; friend by default, "
        "D:enemy if not).", ())
    range_difficulty: int | None = param(Count(hd.DEF_MIN, hd.DEF_MAX, "a range difficulty"),
                                         "Difficulty imposed by the range.", None)
    name: tuple[str, ...] = param(Many(Text()), "Recipient names: the target first, then each candidate, "
                                  "then each engaged fighter, in order.", ())
    behind: bool = param(Flag(), "The target stands behind a melee (list the {candidate_def}; it may also "
                         "engage fighters of its own, {engaged_def}).", False)
    candidate_def: tuple[tuple[int, bool], ...] = param(
        Many(FighterDef()), "Behind a melee: DEF of a fighter on the line of fire, or engaged by one (repeat).",
        ())
    elevated: bool = param(Flag(), "Shooter or target higher than the fighters between them: no parity check.",
                           False)
    no_candidate_difficulty: bool = param(Flag(), "Behind a melee: the candidates' DEF does not raise the "
                                          "difficulty.", False)
    allow_low_difficulty: bool = param(Flag(), "Accept a difficulty below 2 (every die hits) instead of "
                                       "refusing it.", False)
    reroll_failed: bool = param(Flag(), "Reroll every failed die once, before the parity count.", False)
    reroll_up_to: int | None = param(Count(0, what="a reroll budget"),
                                     "Reroll at most K failed dice once, chosen by {policy}.", None, metavar="K")
    policy: str | None = param(Choice(hd.POLICIES), "Which failed dice {reroll_up_to} rerolls: odd ones first, "
                               "even ones first, or the exact optimum for {objective}.", None)
    objective: str | None = param(Choice(hd.OBJECTIVES), "What the optimal policy maximises (default p-target: "
                                  "P(the original target is hit)).", None)
    show_decisions: bool = param(Flag(), "Add the optimal policy's decision table to the answer.", False)

    def check(self) -> None:
        if self.reroll_failed and self.reroll_up_to is not None:
            raise ParamError("{reroll_failed} and {reroll_up_to} are alternatives (a die is rerolled at most "
                             "once); give one")
        if self.policy is not None and self.reroll_up_to is None:
            raise ParamError(f"{{policy}} {self.policy} needs {{reroll_up_to}} K: a policy chooses which failed "
                             "dice to reroll when at most K may be")
        if self.reroll_up_to is not None and self.policy is None:
            raise ParamError(f"{{reroll_up_to}} {self.reroll_up_to} needs {{policy}} {'|'.join(hd.POLICIES)}: "
                             "which failed dice are rerolled changes the parity")
        if self.objective is not None and self.policy != "optimal":
            raise ParamError(f"{{objective}} {self.objective} only applies to {{policy}} optimal")
        if self.show_decisions and self.policy != "optimal":
            raise ParamError("{show_decisions} needs {policy} optimal (the other policies follow a fixed order)")
        if self.no_candidate_difficulty and not self.behind:
            raise ParamError("{no_candidate_difficulty} only applies behind a melee ({behind})")
        if self.behind and not self.candidate_def:
            raise ParamError("a shot behind a melee needs its candidates: list every fighter whose base touches "
                             "the line of fire and every fighter those engage ({candidate_def} D, repeated)")
        if self.candidate_def and not self.behind:
            raise ParamError("candidates ({candidate_def}) describe a target behind a melee: add {behind}, or "
                             "use {engaged_def} for the fighters the target itself engages")
        others = self.candidate_def + self.engaged_def
        if self.name and len(self.name) != len(others) + 1:
            kind = "candidate, then each engaged fighter" if self.behind and self.engaged_def else \
                "candidate" if self.behind else "engaged fighter"
            raise ParamError(f"{{name}} is given {len(self.name)} times but there are {len(others) + 1} "
                             f"recipients: the target first, then each {kind} in order")
        candidates_count = self.behind and not self.no_candidate_difficulty and not self.elevated
        counted = self.engaged_def + (self.candidate_def if candidates_count else ())
        difficulty = hd.attack_difficulty(self.target_def, [d for d, _ in counted], self.range_difficulty)
        if difficulty < 2 and not self.allow_low_difficulty:
            raise ParamError(f"the difficulty would be {difficulty} (below 2): every die would hit. "
                             "Check the DEF values, or allow it explicitly ({allow_low_difficulty})")


@define("hd", "shoot", ShootParams)
def shoot(p: ShootParams) -> Answer:
    """Exact (recipient, hits) of one shot at a fighter in (or behind) a melee.

    The rulebook's example (difficulty 5, two engaged fighters):

        exactodds hd shoot --dice 3 --target-def 4 --engaged-def 3 --engaged-def 5 --range-difficulty 4
    """
    others = p.candidate_def + p.engaged_def  # the order of make_shot: candidates, then engaged fighters
    enemies = [i for i, (_, friend) in enumerate(others, 1) if not friend]
    reroll = "failed" if p.reroll_failed else ("up-to" if p.reroll_up_to is not None else "none")
    shot = hd.make_shot(
        p.dice, p.target_def, [d for d, _ in p.engaged_def], p.range_difficulty, names=p.name, enemies=enemies,
        behind=p.behind, candidate_defs=[d for d, _ in p.candidate_def], elevated=p.elevated,
        candidates_in_difficulty=not p.no_candidate_difficulty, allow_low_difficulty=p.allow_low_difficulty,
        reroll=reroll, budget=p.reroll_up_to or 0, policy=p.policy, objective=p.objective or "p-target")
    result = hd.shoot(shot)
    query = {
        "dice": p.dice, "target_def": p.target_def, "engaged_def": [d for d, _ in p.engaged_def],
        "range_difficulty": p.range_difficulty, "behind": p.behind,
        "candidate_def": [d for d, _ in p.candidate_def],
        "elevated": p.elevated, "recipients": shot.recipients[:-1],
        "enemies": [f.name for f in shot.impair_candidates if not f.friend],
        "reroll": reroll, "reroll_up_to": p.reroll_up_to, "policy": p.policy,
        "objective": p.objective or ("p-target" if p.policy == "optimal" else None),
    }
    if p.behind:
        query["candidates_in_difficulty"] = not p.no_candidate_difficulty
    expected = result.expected_hits()
    extras: dict[str, Any] = {
        "difficulty": shot.difficulty,
        "parity_check": shot.parity_check,
        "p_recipient": result.p_recipient(),
        "p_friend_hit": result.p_friend_hit(),
        "expected_hits": expected,
        "expected_hits_total": sum(expected.values(), Fraction(0)),
    }
    if p.show_decisions:
        extras["decisions"] = hd.reroll_decisions(shot)
    return Answer(result.hits, query, extras, stages=dict(result.run.stages))
