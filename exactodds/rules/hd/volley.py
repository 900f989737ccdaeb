"""Hell Dorado: several shots into the same melee, one after another.

Each shot (a :class:`~exactodds.rules.hell_dorado.Shot`, from different
shooters or several shots of one shooter) is resolved by the public
:func:`~exactodds.rules.hell_dorado.shoot`: its exact joint (recipient, hits).
The shots are independent, so the state is the tuple of total hits received
by each fighter of the melee (the target first, then the fighters it engages
or the candidates behind it, in order), and each shot adds its hits to the
fighter that receives them. Equal totals are merged after every shot.

With ``wounds`` given for a fighter, it is out of the fight once its total
hits reach them (a fighter's hits are read as wounds: the shooting rules give
no damage table); ``turns`` repeats the shots with the totals carried over.

Cost: per shot, (distinct totals before it) x (its (recipient, hits)
outcomes, at most (dice + 1) x fighters); the distinct totals are at most
prod over fighters of (their most hits + 1), checked before the work.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar

from ...core import Dist, InputError, Pipeline, Run, Step, check_size
from ..hell_dorado import NONE, Shot, shoot
from ..scenario import check_turns

SYSTEM = "hd"


@dataclass(frozen=True)
class Volley:
    """Shots in order, each ``(name, shot)``, into one melee; ``turns`` repeats
    them; ``wounds``: hits that take a fighter out, by name (optional)."""

    shots: Sequence[tuple[str, Shot]]
    turns: int = 1
    wounds: Mapping[str, int] = field(default_factory=dict)
    system: ClassVar[str] = SYSTEM

    def __post_init__(self) -> None:
        if not self.shots:
            raise InputError("a volley needs at least one shot")
        check_turns(self.turns)
        object.__setattr__(self, "shots", tuple(self.shots))
        object.__setattr__(self, "wounds", dict(self.wounds))
        first = self.names
        for name, shot in self.shots:
            if not isinstance(shot, Shot):
                raise InputError(f"shot {name!r:.40} must be a Shot (see make_shot), not {shot!r:.40}")
            if _names(shot) != first:
                raise InputError(f"shot {name!r:.40} is not into the same melee: its fighters are "
                                 f"{', '.join(_names(shot))}, the first shot's {', '.join(first)}")
        for name, w in self.wounds.items():
            if name not in first:
                raise InputError(f"wounds names {name!r:.40}, which is not a fighter of the melee "
                                 f"({', '.join(first)})")
            if not isinstance(w, int) or isinstance(w, bool) or w < 1:
                raise InputError(f"wounds of {name}: {w!r:.20} is not a whole number 1 or more")
        most = 1
        for _ in first:
            most *= sum(s.dice for _, s in self.shots) * self.turns + 1
        check_size(min(most, 10**12) * len(self.shots) * self.turns,
                   f"{len(self.shots)} shots x {self.turns} turns into a melee of {len(first)} fighters")

    @property
    def names(self) -> tuple[str, ...]:
        """The fighters of the melee: the target first, then the others in order."""
        return _names(self.shots[0][1])

    def friends(self) -> list[int]:
        """Positions of the shooters' friends among :attr:`names`."""
        shot = self.shots[0][1]
        friendly = {f.name for f in shot.impair_candidates if f.friend}
        return [i for i, n in enumerate(self.names) if n in friendly]

    def pipeline(self) -> Pipeline:
        """One step per shot and turn (``"NAME"``, or ``"turn T: NAME"``): the totals after it."""
        index = {n: i for i, n in enumerate(self.names)}
        steps = []
        for t in range(1, self.turns + 1):
            prefix = f"turn {t}: " if self.turns > 1 else ""
            for name, shot in self.shots:
                hits = shoot(shot).hits
                steps.append(Step.whole(prefix + name, _adder(hits, index), f"{name}: its hits added"))
        return Pipeline(tuple(steps))

    def turn_ends(self) -> list[str]:
        """The stage name at the end of each turn."""
        last = self.shots[-1][0]
        return [f"turn {t}: {last}" if self.turns > 1 else last for t in range(1, self.turns + 1)]

    def run(self) -> Run:
        """Every shot from no hits; ``run.stages`` holds the totals after each."""
        return self.pipeline().run(tuple(0 for _ in self.names))

    def p_friend_hit(self, dist: Dist) -> Fraction:
        """P(at least one of the shooters' friends has been hit)."""
        friends = self.friends()
        return dist.prob(lambda totals: any(totals[i] for i in friends))

    def p_out(self, dist: Dist, name: str) -> Fraction:
        """P(fighter ``name`` has taken at least its wounds in hits)."""
        i, w = self.names.index(name), self.wounds[name]
        return dist.prob(lambda totals: totals[i] >= w)


def _names(shot: Shot) -> tuple[str, ...]:
    return tuple(n for n in shot.recipients if n != NONE)


def _adder(hits: Dist, index: Mapping[str, int]) -> Callable[[Dist], Dist]:
    """A step adding one shot's (recipient, hits) to the totals; O(totals x outcomes)."""
    add = hits.map(lambda h: (index.get(str(h.recipient)), h.hits))

    def kernel(totals: tuple[int, ...]) -> Dist:
        def plus(hit: tuple[int | None, int]) -> tuple[int, ...]:
            i, n = hit
            if i is None or not n:
                return totals
            return totals[:i] + (totals[i] + n,) + totals[i + 1:]
        return add.map(plus)

    return lambda d: d.then(kernel)
