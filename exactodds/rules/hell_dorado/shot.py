"""Hell Dorado: one shot, as the rule steps' single input (:class:`Shot`).

Every value of a shot is a typed field declared once here, with its kind,
bounds, default and help; :meth:`Shot.check` refuses bad combinations in one
wording, naming fields as ``{field}`` placeholders (each interface spells
them: ``--reroll-up-to`` on the command line, ``reroll_up_to`` in Python).
The fighters, rerolls and difficulty the rule steps read are derived views
(:attr:`Shot.target`, :attr:`Shot.engaged`, :attr:`Shot.rerolls`, ...).

Cost: building a shot is O(fighters) conversions and checks.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from ...core import InputError
from ...core.checks import is_whole
from ...core.kinds import Choice, Count, Flag, Kind, KindError, Many, Text
from ...core.labels import Named
from ...core.params import ParamError, Params, literal, param
from .difficulty import attack_difficulty, parity_check_applies

DEF_MIN, DEF_MAX = 1, 10
"""Allowed DEF values and range difficulties (a difficulty of 7+ cannot be hit on a d6)."""
SIDES = 6
MAX_FIGHTERS = 100
"""The most engaged fighters, and the most candidates, a shot takes (a melee holds a few):
a longer list is refused from its length, before any work."""
POLICIES = ("odd-first", "even-first", "optimal")
OBJECTIVES = ("p-target", "target-hits", "no-friendly-fire")
"""Objectives of the optimal reroll policy: P(the original target is hit),
expected hits on the original target, P(no friend is hit)."""
NONE = "none"
"""The recipient of a shot that scores no hit."""
REROLL_RULES = ("none", "failed", "up-to")
TARGET = "target"


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
        if not (head.isascii() and head.isdigit()) or len(head) > 3 or not DEF_MIN <= int(head) <= DEF_MAX \
                or side not in ("friend", "enemy"):
            raise KindError(f"{value!r} is not a fighter's DEF: use a whole number from {DEF_MIN} to "
                            f"{DEF_MAX}, optionally followed by :enemy (a fighter not on the shooter's side) "
                            "or :friend (the default)")
        return int(head), side == "friend"

    def plain(self, value: tuple[int, bool]) -> Any:
        return value[0] if value[1] else f"{value[0]}:enemy"


DEF = Count(DEF_MIN, DEF_MAX, "a DEF value")


@dataclass(frozen=True)
class Fighter:
    """A fighter that may receive the hits: its name, its DEF, and whether it
    is on the shooter's side (a friend)."""

    name: str
    defense: int
    friend: bool = True


@dataclass(frozen=True)
class Rerolls:
    """Rerolls made before the parity count, each die at most once (a view of a
    :class:`Shot`, which checks them).

    ``rule``: ``"none"``, ``"failed"`` (every failed die) or ``"up-to"``
    (at most ``budget`` failed dice, chosen by ``policy``; ``objective`` is
    what the ``optimal`` policy maximises).
    """

    rule: str = "none"
    budget: int = 0
    policy: str | None = None
    objective: str = "p-target"


@dataclass(frozen=True, kw_only=True)
class Shot(Params):
    """One shot at a fighter in a melee, or behind one: ``dice`` d6 at a target of
    DEF ``target_def``, engaging the fighters ``engaged_def`` (each ``(DEF, friend)``);
    behind a melee, ``candidate_def`` lists every fighter whose base touches the line
    of fire plus those they engage. :func:`make_shot` builds one from plain values."""

    dice: int = param(Count(1, what="a number of dice"), "Dice rolled (1 or more).")
    target_def: int = param(DEF, f"The target's DEF ({DEF_MIN}-{DEF_MAX}).")
    engaged_def: tuple[tuple[int, bool], ...] = param(
        Many(FighterDef(), MAX_FIGHTERS), "DEF of a fighter the target engages (repeat for each, at most "
        f"{MAX_FIGHTERS}; friend by default, D:enemy if not).", ())
    range_difficulty: int | None = param(Count(DEF_MIN, DEF_MAX, "a range difficulty"),
                                         "Difficulty imposed by the range.", None)
    name: tuple[str, ...] = param(Many(Text(), 2 * MAX_FIGHTERS + 1), "Recipient names: the target first, then each candidate, "
                                  "then each engaged fighter, in order.", ())
    behind: bool = param(Flag(), "The target stands behind a melee (list the {candidate_def}; it may also "
                         "engage fighters of its own, {engaged_def}).", False)
    candidate_def: tuple[tuple[int, bool], ...] = param(
        Many(FighterDef(), MAX_FIGHTERS), "Behind a melee: DEF of a fighter on the line of fire, or engaged by one "
        f"(repeat, at most {MAX_FIGHTERS}).",
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
    policy: str | None = param(Choice(POLICIES), "Which failed dice {reroll_up_to} rerolls: odd ones first, "
                               "even ones first, or the exact optimum for {objective}.", None)
    objective: str | None = param(Choice(OBJECTIVES), "What the optimal policy maximises (default p-target: "
                                  "P(the original target is hit)).", None)

    def check(self) -> None:
        self._check_rerolls()
        self._check_layout()
        self._check_names()
        if self.difficulty < 2 and not self.allow_low_difficulty:
            raise ParamError(f"the difficulty would be {self.difficulty} (below 2): every die would hit. "
                             "Check the DEF values, or allow it explicitly ({allow_low_difficulty})")

    def _check_rerolls(self) -> None:
        if self.reroll_failed and self.reroll_up_to is not None:
            raise ParamError("{reroll_failed} and {reroll_up_to} are alternatives (a die is rerolled at most "
                             "once); give one")
        if self.policy is not None and self.reroll_up_to is None:
            raise ParamError(f"{{policy}} {self.policy} needs {{reroll_up_to}} K: a policy chooses which failed "
                             "dice to reroll when at most K may be")
        if self.reroll_up_to is not None and self.policy is None:
            raise ParamError(f"{{reroll_up_to}} {self.reroll_up_to} needs {{policy}} {'|'.join(POLICIES)}: "
                             "which failed dice are rerolled changes the parity")
        if self.objective is not None and self.policy != "optimal":
            raise ParamError(f"{{objective}} {self.objective} only applies to {{policy}} optimal")

    def _check_layout(self) -> None:
        if self.no_candidate_difficulty and not self.behind:
            raise ParamError("{no_candidate_difficulty} only applies behind a melee ({behind})")
        if self.behind and not self.candidate_def:
            raise ParamError("a shot behind a melee needs its candidates: list every fighter whose base touches "
                             "the line of fire and every fighter those engage ({candidate_def} D, repeated)")
        if self.candidate_def and not self.behind:
            raise ParamError("candidates ({candidate_def}) describe a target behind a melee: add {behind}, or "
                             "use {engaged_def} for the fighters the target itself engages")

    def _check_names(self) -> None:
        others = len(self.candidate_def) + len(self.engaged_def)
        if self.name and len(self.name) != others + 1:
            kind = "candidate, then each engaged fighter" if self.behind and self.engaged_def else \
                "candidate" if self.behind else "engaged fighter"
            raise ParamError(f"{{name}} is given {len(self.name)} times but there are {others + 1} "
                             f"recipients: the target first, then each {kind} in order")
        names = self.recipients[:-1]
        for name in names:
            if not name.strip() or name == NONE:
                raise ParamError(literal(f"recipient name {name!r} is not allowed: use a non-empty name "
                                         f"other than '{NONE}'"))
        if len(set(names)) != len(names):
            raise ParamError(literal(f"recipient names must be distinct, got {names}"))

    # ---------------------------------------------------- what the steps read
    @cached_property
    def _fighters(self) -> tuple[Fighter, ...]:
        """The target, then the candidates, then the engaged fighters (named)."""
        names = self.name or ((TARGET,) + tuple(f"candidate-{i}" for i in range(1, len(self.candidate_def) + 1))
                              + tuple(f"engaged-{i}" for i in range(1, len(self.engaged_def) + 1)))
        others = self.candidate_def + self.engaged_def
        return (Fighter(names[0], self.target_def, friend=False),
                *(Fighter(n, d, friend) for n, (d, friend) in zip(names[1:], others)))

    @property
    def target(self) -> Fighter:
        """The fighter shot at."""
        return self._fighters[0]

    @property
    def candidates(self) -> tuple[Fighter, ...]:
        """Behind a melee: the fighters on the line of fire and those they engage."""
        return self._fighters[1:1 + len(self.candidate_def)]

    @property
    def engaged(self) -> tuple[Fighter, ...]:
        """The fighters the target engages."""
        return self._fighters[1 + len(self.candidate_def):]

    @property
    def candidates_in_difficulty(self) -> bool:
        """Whether, behind a melee, the candidates' DEF raises the difficulty."""
        return not self.no_candidate_difficulty

    @cached_property
    def rerolls(self) -> Rerolls:
        """The reroll rule, as the attack roll reads it."""
        if self.reroll_failed:
            return Rerolls("failed")
        if self.reroll_up_to is not None:
            return Rerolls("up-to", self.reroll_up_to, self.policy, self.objective or "p-target")
        return Rerolls()

    @cached_property
    def impair_candidates(self) -> tuple[Fighter, ...]:
        """Who may receive the hits on an impair: the fighters engaged by the
        target, and, behind a melee, first the listed candidates."""
        return self._fighters[1:] if self.behind else self.engaged

    @cached_property
    def difficulty(self) -> int:
        """The attack roll's difficulty (see :func:`attack_difficulty`): the DEF of
        the target and of every fighter it engages, the range, and behind a melee
        the candidates' DEF (unless ``no_candidate_difficulty``). Behind a melee
        with an elevated shooter or target the shot is a normal one: the
        candidates play no part."""
        counted = self.behind and not self.no_candidate_difficulty and not self.elevated
        others = self.engaged_def + (self.candidate_def if counted else ())
        return attack_difficulty(self.target_def, [d for d, _ in others], self.range_difficulty)

    @property
    def parity_check(self) -> bool:
        """Whether the parity count decides the recipient (see :func:`parity_check_applies`)."""
        return parity_check_applies(len(self.impair_candidates), self.elevated)

    @property
    def recipients(self) -> list[str]:
        """Every possible recipient, the target first, then the candidates, then ``none``."""
        return [self.target.name] + [f.name for f in self.impair_candidates] + [NONE]

    @cached_property
    def named_recipients(self) -> dict[str, Named]:
        """Each recipient's name as a :class:`~exactodds.core.labels.Named` holding
        its place in :attr:`recipients`, so that tables list the target first, then
        the fighters in the order given, then ``none`` (equal to the plain names)."""
        return {name: Named(name, i) for i, name in enumerate(self.recipients)}


def make_shot(dice: int, target_def: int, engaged_defs: Sequence[int] = (), range_difficulty: int | None = None,
              *, names: Sequence[str] = (), enemies: Sequence[int] = (), behind: bool = False,
              candidate_defs: Sequence[int] = (), elevated: bool = False, candidates_in_difficulty: bool = True,
              allow_low_difficulty: bool = False, reroll: str = "none", budget: int = 0,
              policy: str | None = None, objective: str = "p-target") -> Shot:
    """A :class:`Shot` from plain values.

    ``names``: the target's name, then one per candidate (behind a melee),
    then one per engaged fighter, in order; default ``target``,
    ``candidate-1``, ..., ``engaged-1``, .... ``enemies``: 1-based positions,
    in that same order (candidates, then engaged fighters), of the fighters
    that are *not* the shooter's friends.
    ``reroll``: ``none``, ``failed`` or ``up-to`` (with ``budget`` and
    ``policy``; ``objective`` for the optimal policy).
    """
    for what, seq in (("engaged_defs", engaged_defs), ("candidate_defs", candidate_defs)):
        if isinstance(seq, (str, bytes)) or not isinstance(seq, (list, tuple)):
            raise InputError(f"{what} must be a list of DEF values (whole numbers), not {seq!r:.60}")
    if reroll not in REROLL_RULES:
        raise InputError(f"reroll rule {reroll!r:.40} is not one of {', '.join(REROLL_RULES)}")
    others = list(candidate_defs) + list(engaged_defs)
    kind = ("candidate" + (" or engaged fighter" if engaged_defs else "")) if behind else "engaged fighter"
    for i in enemies:
        if not is_whole(i) or not 1 <= i <= len(others):
            raise InputError(f"enemy position {i!r:.40} is not one of the {len(others)} {kind}s "
                             f"(positions 1 to {len(others)})")
    enemy_set = set(enemies)
    fighters: list[Any] = [(d, i not in enemy_set) if is_whole(d) else d for i, d in enumerate(others, 1)]
    return Shot(dice=dice, target_def=target_def, engaged_def=tuple(fighters[len(candidate_defs):]),
                range_difficulty=range_difficulty, name=tuple(names), behind=behind,
                candidate_def=tuple(fighters[:len(candidate_defs)]), elevated=elevated,
                no_candidate_difficulty=behind and not candidates_in_difficulty,
                allow_low_difficulty=allow_low_difficulty,
                reroll_failed=reroll == "failed", reroll_up_to=budget if reroll == "up-to" else None,
                policy=policy, objective=None if objective == "p-target" else objective)
