"""Sequential allocation of wounds to the models of a unit.

Shared by Warhammer 40,000 6th edition and Horus Heresy 3rd edition: both
allocate wounds one at a time to one model of the target unit, roll that
model's save, then (Horus Heresy) a damage mitigation test, and remove
wounds from it until it is a casualty. What differs between the systems —
*which* model receives a wound (closest first, Look Out Sir, Focus Fire,
already-wounded first), what a save is, how much damage a wound does — is
passed in as functions and data.

The state of the target unit is a :class:`UnitState`: wounds left per
model, in allocation order (0 = removed), plus optional counters. Each wound
is a Markov kernel on that state (:func:`wound_kernel`); a random number of
wounds is applied with :func:`exactodds.core.iterate`. Because equal states
are merged after every wound, the cost is O(wounds x distinct states x
recipients x damage outcomes); with a fixed allocation order the distinct
states number at most the unit's total wounds + 1 (times the counters).
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Generic, TypeVar

from ..core import Dist, InputError, Kernel, iterate
from ..dice import Target
from ..core.checks import is_whole
from ..core.limits import charge
from ..core.tables import mix


@dataclass(frozen=True)
class AllocModel:
    """What allocation needs to know of one model, against one attack.

    ``save`` is the single best save already chosen by the rule system
    (``fail`` when none); ``mitigation`` a test taken after a failed save
    (``fail`` when none). ``wounds`` is the model's starting wounds.
    """

    wounds: int
    save: Target = field(default_factory=Target.fail)
    mitigation: Target = field(default_factory=Target.fail)

    def __post_init__(self) -> None:
        if not is_whole(self.wounds) or self.wounds < 1:
            raise InputError(f"a model needs 1 or more wounds, not {self.wounds!r}")
        for name in ("save", "mitigation"):
            if not isinstance(getattr(self, name), Target):
                raise InputError(f"a model's {name} must be a Target (e.g. Target.parse('4+')), "
                                 f"not {getattr(self, name)!r}")

    def p_unsaved(self) -> Fraction:
        """P(a wound allocated to this model gets through save and mitigation)."""
        through = 1 - self.save.chance()
        mitigated = self.mitigation.chance()
        return through * (1 - mitigated) if mitigated else through


@dataclass(frozen=True, order=True)
class UnitState:
    """Wounds left per model (allocation order; 0 = removed), the count of
    unsaved wounds so far (when tracked) and the models marked as having
    suffered an unsaved wound (when tracked)."""

    wounds: tuple[int, ...]
    unsaved: int = 0
    marked: frozenset[int] = frozenset()

    def __post_init__(self) -> None:
        # states are dict keys in every merge: the hash is taken once, O(models),
        # and each later hash is an attribute read
        object.__setattr__(self, "_hash", hash((self.wounds, self.unsaved, self.marked)))

    def __hash__(self) -> int:
        return self._hash  # type: ignore[attr-defined,no-any-return]

    @classmethod
    def fresh(cls, models: Sequence[AllocModel]) -> UnitState:
        """Every model at full wounds."""
        return cls(tuple(m.wounds for m in models))

    def alive(self) -> list[int]:
        """Indices of the models still in play, in allocation order."""
        return [i for i, w in enumerate(self.wounds) if w > 0]

    def casualties(self) -> int:
        """How many models have been removed."""
        return sum(1 for w in self.wounds if w == 0)

    def survivors(self) -> int:
        """How many models are left."""
        return sum(1 for w in self.wounds if w > 0)


def cleared(state: UnitState) -> UnitState:
    """``state`` with its unsaved-wound counter at 0 (the same object when it is already)."""
    return state if not state.unsaved else UnitState(state.wounds, 0, state.marked)


H = TypeVar("H", bound=Hashable)


class Numbering(Generic[H]):
    """Values numbered 0, 1, 2... in the order they first appear, so that merges
    can key on small integers (hashed in O(1)) instead of on the values."""

    def __init__(self) -> None:
        self._numbers: dict[H, int] = {}
        self.values: list[H] = []
        """The value of each number."""

    def number(self, value: H) -> int:
        """The number of ``value`` (a new one the first time). O(1): one hash of ``value``."""
        new = len(self.values)
        got = self._numbers.setdefault(value, new)
        if got == new:
            self.values.append(value)
        return got


Recipient = Callable[[UnitState], Dist]
"""Which model receives the next wound: ``state -> Dist`` over model indices."""


def alive_per_line(line_of: Sequence[int], lines: int, wounds: Sequence[int]) -> tuple[int, ...]:
    """How many models of each of ``lines`` model lines are in play, from the
    Wounds left per model (``line_of[i]``: the line of model ``i``). O(models)."""
    counts = [0] * lines
    for line, w in zip(line_of, wounds, strict=True):
        if w > 0:
            counts[line] += 1
    return tuple(counts)


def closest_first(state: UnitState, eligible: Callable[[int], bool] = lambda i: True) -> Dist:
    """The first model still in play (models are listed closest first), among
    the ``eligible`` ones; ``Dist.constant(None)`` when none is left."""
    return Dist.constant(closest_in_play(state, eligible))


def closest_in_play(state: UnitState, eligible: Callable[[int], bool] = lambda i: True) -> int | None:
    """:func:`closest_first`'s model itself (None when none is left). O(models)."""
    for i, w in enumerate(state.wounds):
        if w > 0 and eligible(i):
            return i
    return None


def wounded_first(state: UnitState, models: Sequence[AllocModel]) -> Dist:
    """An already wounded model first, else the first in play (file order)."""
    for i, w in enumerate(state.wounds):
        if 0 < w < models[i].wounds:
            return Dist.constant(i)
    return closest_first(state)


Damage = Dist | int | Sequence[Dist | int]
"""Wounds removed by one unsaved wound: a number, a Dist, or one of those per
model (indexed like the models), for rules where the damage depends on the
model hit (e.g. 40K 6th edition Instant Death)."""


def _damage_per_model(damage: Damage, n_models: int) -> list[Dist]:
    """The damage Dist for each model index."""
    if isinstance(damage, (list, tuple)):
        if len(damage) != n_models:
            raise InputError(f"damage per model needs {n_models} entries, not {len(damage)}")
        given = list(damage)
    else:
        given = [damage] * n_models
    made: dict[Any, Dist] = {}  # each distinct damage made and checked once: O(models + distinct x outcomes)
    for d in given:
        if d not in made:
            dmg = made[d] = d if isinstance(d, Dist) else Dist.constant(d)
            if any(not is_whole(x) or x < 0 for x in dmg.support()):
                raise InputError("damage must be whole numbers 0 or more")
    return [made[d] for d in given]


def _check_models(models: Any) -> None:
    if isinstance(models, (str, bytes)) or not isinstance(models, Sequence) or not models:
        raise InputError(f"models must be a non-empty list of AllocModel, not {models!r}")
    for i, m in enumerate(models):
        if not isinstance(m, AllocModel):
            raise InputError(f"models[{i}] must be an AllocModel, not {m!r}")


def _through_coin(p: Fraction) -> tuple[int, int] | bool:
    """Whether a wound gets through at chance ``p``: True when it always does,
    False when it never does, else ``p`` as (numerator, denominator). O(1)."""
    return True if p == 1 else False if p == 0 else (p.numerator, p.denominator)


def _through_or_saved(coin: tuple[int, int], through: Dist, state: UnitState) -> Dist:
    """``through`` (the states after the wound gets through) at chance n/d
    (``coin``), else ``state`` as it is: what ``Dist.bernoulli(n/d, True,
    False).then(...)`` gives (the same order, the reduced total, the work it
    charges), mixed as weight tables (:func:`~exactodds.core.tables.mix`; ``t``
    is their least common total). O(outcomes of ``through``)."""
    n, d = coin
    t = through.denominator
    out, _ = mix([(n, (tuple(through.weights().items()), t)), (d - n, (((state, 1),), 1))])
    charge(len(through) + 1, d.bit_length() + t.bit_length())
    return Dist._make(out, d * t)


def wound_kernel(models: Sequence[AllocModel], recipient: Recipient, damage: Damage = 1,
                 track_unsaved: bool = False, mark: bool = False) -> Kernel:
    """One wound: choose the recipient, roll its save, then its mitigation,
    then remove ``damage`` wounds from it (excess damage is lost).

    ``damage`` is one number or Dist for every model, or a sequence of them,
    one per model. A wound with no model left to receive it (unit gone, or
    none eligible) does nothing. Per state: O(recipients x damage outcomes).
    """
    _check_models(models)
    dmgs = _damage_per_model(damage, len(models))
    chances: dict[int, Fraction] = {}  # one per model object (held by ``models``): a unit's lines repeat theirs
    p_through = [chances[id(m)] if id(m) in chances else chances.setdefault(id(m), m.p_unsaved()) for m in models]
    coins: dict[Fraction, tuple[int, int] | bool] = {}  # whether a wound gets through, once per chance
    through_coin = [coins[p] if p in coins else coins.setdefault(p, _through_coin(p)) for p in p_through]

    def hit_model(state: UnitState, i: int | None) -> Dist:
        if i is None:
            return Dist.constant(state)
        coin = through_coin[i]
        if coin is False:  # always saved
            return Dist.constant(state)

        def damaged(d: int) -> UnitState:
            wounds = list(state.wounds)
            wounds[i] = max(0, wounds[i] - d)
            return UnitState(tuple(wounds), state.unsaved + 1 if track_unsaved else state.unsaved,
                             state.marked | {i} if mark else state.marked)

        through = dmgs[i].map(damaged)
        if coin is True:  # never saved
            return through
        return _through_or_saved(coin, through, state)

    def kernel(state: UnitState) -> Dist:
        return recipient(state).then(lambda i: hit_model(state, i))

    return kernel


def allocate(wounds: Dist, models: Sequence[AllocModel], recipient: Recipient, damage: Damage = 1,
             start: UnitState | Dist | None = None, track_unsaved: bool = False, mark: bool = False) -> Dist:
    """The unit's state after a random number of wounds (``wounds``, a Dist
    over counts) allocated one at a time. See :func:`wound_kernel`."""
    _check_models(models)
    begin: Any = UnitState.fresh(models) if start is None else start
    return iterate(wounds, wound_kernel(models, recipient, damage, track_unsaved, mark), begin)
