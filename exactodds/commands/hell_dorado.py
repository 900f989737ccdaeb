"""``hd shoot``: Hell Dorado, one shot into (or behind) a melee, with the parity rule.

The shot's inputs are the rule layer's :class:`~exactodds.rules.hell_dorado.Shot`
(every field declared and checked there); the command adds what it shows.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Any, ClassVar

from ..answer import Answer
from ..rules import hell_dorado as hd
from .described import OMIT, Layout, described
from .kinds import Flag
from .params import ParamError, param
from .registry import define


def _defs(name: str) -> tuple[str, Any]:
    """Fighters' DEF values alone, without their sides."""
    return name, lambda p, *_: [d for d, _ in getattr(p, name)]


@dataclass(frozen=True, kw_only=True)
class ShootParams(hd.Shot):
    """One shot at a fighter in a melee, or behind one."""

    show_decisions: bool = param(Flag(), "Add the optimal policy's decision table to the answer.", False)

    QUERY: ClassVar[Layout] = (
        "dice", "target_def", _defs("engaged_def"), "range_difficulty", "behind", _defs("candidate_def"),
        "elevated", ("recipients", lambda p: p.recipients[:-1]),
        ("enemies", lambda p: [f.name for f in p.impair_candidates if not f.friend]),
        ("reroll", lambda p: p.rerolls.rule), "reroll_up_to", "policy",
        ("objective", lambda p: p.objective or ("p-target" if p.policy == "optimal" else None)),
        ("candidates_in_difficulty", lambda p: p.candidates_in_difficulty if p.behind else OMIT),
    )

    def check(self) -> None:
        if self.show_decisions and self.policy != "optimal":
            raise ParamError("{show_decisions} needs {policy} optimal (the other policies follow a fixed order)")
        super().check()


@define("hd", "shoot", ShootParams)
def shoot(p: ShootParams) -> Answer:
    """Exact (recipient, hits) of one shot at a fighter in (or behind) a melee.

    The rulebook's example (difficulty 5, two engaged fighters):

        exactodds hd shoot --dice 3 --target-def 4 --engaged-def 3 --engaged-def 5 --range-difficulty 4
    """
    result = hd.shoot(p)
    expected = result.expected_hits()
    extras: dict[str, Any] = {
        "difficulty": p.difficulty,
        "parity_check": p.parity_check,
        "p_recipient": result.p_recipient(),
        "p_friend_hit": result.p_friend_hit(),
        "expected_hits": expected,
        "expected_hits_total": sum(expected.values(), Fraction(0)),
    }
    if p.show_decisions:
        extras["decisions"] = hd.reroll_decisions(p)
    return Answer(result.hits, described(p), extras, stages=dict(result.run.stages))
