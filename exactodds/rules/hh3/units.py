"""Horus Heresy 3rd edition: the firing unit, the target unit, the conditions
of one shooting attack, as plain checked data classes.

The TOML loader (:mod:`exactodds.profiles.hh3`) builds these with errors that
name the file and key; the checks here protect callers of the Python API.
"""

from __future__ import annotations

from dataclasses import InitVar, dataclass, field

from ...core import Dist, InputError
from ...dice import Target
from ...core.checks import whole_number
from ...core.kinds import Choice, Flag, Many, Text
from ...core.params import ParamError, Params, param
from ...dice.kinds import TargetNumber
from ..allocation import alive_per_line
from ..common import save_value
from ..random_count import DiceCount
from .tables import COVER_SAVES, FACINGS, STATUSES

WEAPON_TRAITS: tuple[str, ...] = ("light", "heavy", "reroll-failed-hits", "reroll-failed-wounds")
"""Weapon traits the engine models (docs/hh3.md, "Weapon traits")."""

TRAIT_HELP: dict[str, str] = {
    "light": "fires snap shots after the unit Rushed (the other weapons cannot fire)",
    "heavy": "fires snap shots if the unit moved",
    "reroll-failed-hits": "every failed hit roll is rerolled once",
    "reroll-failed-wounds": "every failed wound roll is rerolled once",
}
"""What each modelled weapon trait does, in our own words."""

UNIT_TRAITS: tuple[str, ...] = ("shield", "smoke")
"""Target unit traits that allow a reaction: Shield, Smoke screen."""

REACTIONS: tuple[str, ...] = ("shield", "smoke", "medic")
"""The target's reactions the engine models."""


def _text(value: object, what: str) -> str:
    if not isinstance(value, str):
        raise InputError(f"{what} must be text, not {value!r:.60}")
    return value


def _flag(value: object, what: str) -> bool:
    if not isinstance(value, bool):
        raise InputError(f"{what} must be true or false, not {value!r:.60}")
    return value


def _choice(value: object, what: str, allowed: tuple[str, ...], optional: bool = True) -> None:
    if value is None and optional:
        return
    if not isinstance(value, str) or value not in allowed:
        raise InputError(f"{what} {value!r:.60} is not allowed: use {', '.join(allowed)}")


def _names(obj: object, attr: str, what: str, allowed: tuple[str, ...]) -> None:
    """Normalise a collection of names to a frozenset, refusing anything else."""
    value = getattr(obj, attr)
    if isinstance(value, (str, bytes)) or not isinstance(value, (frozenset, set, list, tuple)):
        raise InputError(f"{what} must be a collection of names ({', '.join(allowed)}), not {value!r:.60}")
    bad = [v for v in value if not isinstance(v, str) or v not in allowed]
    if bad:
        raise InputError(f"{what}: {bad[0]!r:.60} is not modelled; allowed: {', '.join(allowed)}")
    object.__setattr__(obj, attr, frozenset(value))


def _members(obj: object, attr: str, what: str, kind: type) -> None:
    """Normalise a non-empty sequence of ``kind`` to a tuple, refusing anything else."""
    value = getattr(obj, attr)
    if not isinstance(value, (tuple, list)) or not all(isinstance(v, kind) for v in value):
        raise InputError(f"{what} must be a list of {kind.__name__}, not {value!r:.60}")
    if not value:
        raise InputError(f"{what} is empty")
    object.__setattr__(obj, attr, tuple(value))


@dataclass(frozen=True)
class Weapon:
    """A ranged weapon profile. ``ap`` is None for a weapon without AP ("-").
    ``firepower`` is a whole number, or a random count (``"D3"``, ``"D6"``,
    ``"2D6"``, ``"D6+1"``: a :class:`~exactodds.rules.random_count.DiceCount`)
    rolled once per firing model."""

    name: str
    firepower: int | DiceCount
    strength: int
    ap: int | None
    damage: int
    traits: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        _text(self.name, "a weapon's name")
        if isinstance(self.firepower, (str, DiceCount)):
            object.__setattr__(self, "firepower", DiceCount.parse(self.firepower, f"weapon {self.name!r}: firepower"))
        else:
            whole_number(self.firepower, f"weapon {self.name!r}: firepower", 1)
        whole_number(self.strength, f"weapon {self.name!r}: strength", 1, 10)
        if self.ap is not None:
            whole_number(self.ap, f"weapon {self.name!r}: ap", 1, 6)
        whole_number(self.damage, f"weapon {self.name!r}: damage", 1)
        _names(self, "traits", f"weapon {self.name!r}: traits", WEAPON_TRAITS)

    def shots(self, models: int) -> Dist:
        """The hit rolls of ``models`` models firing this weapon: ``models`` x the
        Firepower, or the sum of ``models`` independent rolls of a random
        Firepower. O(log models) convolutions of at most 6N x models + 1 outcomes."""
        if isinstance(self.firepower, DiceCount):
            return self.firepower.total(models)
        return Dist.constant(models * self.firepower)

    def most_shots(self, models: int) -> int:
        """The largest number of hit rolls :meth:`shots` can give."""
        per = self.firepower.maximum() if isinstance(self.firepower, DiceCount) else self.firepower
        return models * per


@dataclass(frozen=True)
class FiringModels:
    """``count`` identical firing models, each firing ``weapon`` at ``bs``."""

    name: str
    count: int
    bs: int
    weapon: Weapon

    def __post_init__(self) -> None:
        _text(self.name, "firing models' name")
        whole_number(self.count, f"models {self.name!r}: count", 1)
        whole_number(self.bs, f"models {self.name!r}: bs", 1)
        if not isinstance(self.weapon, Weapon):
            raise InputError(f"models {self.name!r}: weapon must be a Weapon, not {self.weapon!r:.60}")


@dataclass(frozen=True)
class AttackingUnit:
    """The firing unit and the states that bar or change its shooting."""

    name: str
    models: tuple[FiringModels, ...]
    rushed: bool = False
    locked_in_combat: bool = False
    embarked: bool = False
    pinned: bool = False
    moved: bool = False

    def __post_init__(self) -> None:
        _text(self.name, "the attacking unit's name")
        _members(self, "models", f"attacking unit {self.name!r}: models", FiringModels)
        for key in ("rushed", "locked_in_combat", "embarked", "pinned", "moved"):
            _flag(getattr(self, key), f"attacking unit {self.name!r}: {key}")


@dataclass(frozen=True)
class Armour:
    """A vehicle's Armour Values by facing."""

    front: int
    side: int
    rear: int

    def __post_init__(self) -> None:
        for facing in FACINGS:
            whole_number(getattr(self, facing), f"armour {facing}", 1, 20)

    def facing(self, name: str) -> int:
        """The Armour Value of one facing (front, side or rear)."""
        if name not in FACINGS:
            raise InputError(f"facing {name!r} is not allowed: use {', '.join(FACINGS)}")
        return getattr(self, name)


@dataclass(frozen=True)
class TargetModels:
    """``count`` identical target models: infantry-like (``toughness`` and
    ``wounds``) or a vehicle (``armour`` and ``hull_points``). Saves and
    mitigation values are X for an X+ roll, None when the model has none.
    ``wounds_left`` (``hull_points_left`` for a vehicle): each model of the
    line is already wounded and has that many left (1 to one less than its
    Wounds); wounded models take wounds first."""

    name: str
    count: int = 1
    toughness: int | None = None
    wounds: int | None = None
    save: int | None = None
    invulnerable: int | None = None
    shrouded: int | None = None
    feel_no_pain: int | None = None
    medic: bool = False
    armour: Armour | None = None
    hull_points: int | None = None
    wounds_left: int | None = None
    hull_points_left: int | None = None

    def __post_init__(self) -> None:
        where = f"target models {_text(self.name, 'target models name')!r}"
        whole_number(self.count, f"{where}: count", 1)
        _flag(self.medic, f"{where}: medic")
        if self.armour is not None and not isinstance(self.armour, Armour):
            raise InputError(f"{where}: armour must be an Armour (front, side, rear), not {self.armour!r:.60}")
        if self.is_vehicle:
            if self.hull_points is None:
                raise InputError(f"{where}: a vehicle needs hull_points")
            whole_number(self.hull_points, f"{where}: hull_points", 1)
            bad = [k for k in ("toughness", "wounds", "save", "feel_no_pain") if getattr(self, k) is not None]
            if bad or self.medic:
                raise InputError(f"{where}: a vehicle (armour) cannot have {(bad or ['medic'])[0]}; "
                                 "vehicles take armour penetration, not wounds")
        else:
            if self.toughness is None or self.wounds is None:
                raise InputError(f"{where}: needs toughness and wounds (or armour and hull_points for a vehicle)")
            if self.hull_points is not None:
                raise InputError(f"{where}: hull_points needs armour (a vehicle)")
            whole_number(self.toughness, f"{where}: toughness", 1, 10)
            whole_number(self.wounds, f"{where}: wounds", 1)
        for key in ("save", "invulnerable", "shrouded", "feel_no_pain"):
            save_value(getattr(self, key), f"{where}: {key}")
        key, full = ("hull_points_left", "hull_points") if self.is_vehicle else ("wounds_left", "wounds")
        other = "wounds_left" if self.is_vehicle else "hull_points_left"
        if getattr(self, other) is not None:
            raise InputError(f"{where}: {other} is for {'non-vehicles' if self.is_vehicle else 'vehicles'}; "
                             f"use {key}")
        left = getattr(self, key)
        if left is not None:
            most = getattr(self, full)
            if most < 2:
                raise InputError(f"{where}: {key} = {left!r}: a model with {full} = 1 cannot be wounded and "
                                 "still in play; leave it out")
            whole_number(left, f"{where}: {key} (a wounded model's {full} left)", 1, most - 1)

    @property
    def is_vehicle(self) -> bool:
        """Whether these models are vehicles (Armour Values and Hull Points)."""
        return self.armour is not None

    @property
    def starting_wounds(self) -> int:
        """Wounds, or Hull Points for a vehicle."""
        return self.hull_points if self.is_vehicle else self.wounds  # type: ignore[return-value]

    @property
    def left_at_start(self) -> int:
        """Wounds (Hull Points) left when the attack starts: full, or ``wounds_left``."""
        left = self.hull_points_left if self.is_vehicle else self.wounds_left
        return self.starting_wounds if left is None else left


@dataclass(frozen=True)
class TargetUnit:
    """The target unit: its models (file order = allocation order), Leadership,
    traits, and the states that make it an illegal target or matter after
    the attack."""

    name: str
    leadership: int
    models: tuple[TargetModels, ...]
    traits: frozenset[str] = frozenset()
    embarked: bool = False
    in_reserve: bool = False
    engaged: bool = False
    out_of_coherency: bool = False
    cool: int | None = None
    statuses: frozenset[str] = frozenset()

    def __post_init__(self) -> None:
        where = f"target unit {_text(self.name, 'the target unit name')!r}"
        _members(self, "models", f"{where}: models", TargetModels)
        whole_number(self.leadership, f"{where}: leadership", 1, 12)
        if self.cool is not None:
            whole_number(self.cool, f"{where}: cool", 1, 12)
        for key in ("embarked", "in_reserve", "engaged", "out_of_coherency"):
            _flag(getattr(self, key), f"{where}: {key}")
        if self.out_of_coherency and self.cool is None:
            raise InputError(f"{where}: out_of_coherency needs the unit's cool characteristic for the Cool test")
        kinds = {m.is_vehicle for m in self.models}
        if len(kinds) > 1:
            raise InputError(f"{where} mixes vehicles and non-vehicles; give one kind per unit")
        _names(self, "traits", f"{where}: traits", UNIT_TRAITS)
        _names(self, "statuses", f"{where}: statuses (vehicle statuses)", STATUSES)

    @property
    def is_vehicle(self) -> bool:
        """Whether the unit is made of vehicles."""
        return self.models[0].is_vehicle

    def expanded(self) -> tuple[TargetModels, ...]:
        """One entry per model, in file order (the allocation order)."""
        return tuple(m for m in self.models for _ in range(m.count))

    def size(self) -> int:
        """Number of models at the start of the attack."""
        return sum(m.count for m in self.models)


@dataclass(frozen=True, kw_only=True)
class Conditions(Params):
    """Everything about one shooting attack that is not in the two units: one typed
    field each, with its kind, default and help; :meth:`check` refuses bad
    combinations.

    ``order``: fire groups named first resolve first (the rest follow in file
    order). ``crits_last``: within a fire group, wounds (and penetrating hits)
    from Critical Hits are resolved after the others (the default: before;
    the constructor also takes ``crits_first=False`` for the same).
    ``moved``: the firing unit moved (its Heavy weapons fire snap shots; the
    attacker file may say so too). ``majority_bs``: every group rolls on the
    hit table at the unit's majority Ballistic Skill (the literal reading of
    the rule) instead of its own models' BS (the default). ``facing``: the
    armour facing hit (None: front).
    """

    cover: str | None = param(Choice(tuple(COVER_SAVES)), "Area terrain cover: light 6+, medium 5+, dense 4+ "
                              "(not affected by AP).", None)
    overwatch: bool = param(Flag(), "Overwatch fire: the target gets no cover and no Shrouded.", False)
    pinned: bool = param(Flag(), "The firing unit is Pinned: snap shots.", False)
    intercept: bool = param(Flag(), "The Intercept reaction: snap shots.", False)
    moved: bool = param(Flag(), "The firing unit moved: its Heavy weapons fire snap shots.", False)
    majority_bs: bool = param(Flag(), "Read the hit table at the unit's majority Ballistic Skill for every "
                              "fire group (ties: the highest) instead of each group's own BS.", False)
    reaction: str | None = param(Choice(REACTIONS), "The target's reaction: shield (+1 T), smoke (Shrouded 5+), "
                                 "medic (recovery rolls).", None)
    medic_roll: Target | None = param(TargetNumber(), "The Medic's recovery roll, X+ (with {reaction} medic; the "
                                      "rules give no default).", None)
    facing: str | None = param(Choice(FACINGS), "Armour facing hit, for vehicle targets (default front).", None)
    order: tuple[str, ...] = param(Many(Text()), "Resolve this fire group first (repeat for more; the others "
                                   "follow in file order).", (), metavar="GROUP")
    crits_last: bool = param(Flag(), "Resolve the wounds from Critical Hits after the others (default: before).",
                             False)
    crits_first: InitVar[bool | None] = None

    def __post_init__(self, crits_first: bool | None) -> None:  # type: ignore[override]
        if crits_first is not None:  # the other spelling of crits_last
            object.__setattr__(self, "crits_last", not _flag(crits_first, "conditions: crits_first"))
        super().__post_init__()

    def check(self) -> None:
        if self.overwatch and self.cover is not None:
            raise ParamError("Overwatch fire gives the target no cover save: drop the cover (or {overwatch})")
        if self.overwatch and self.reaction is not None:
            raise ParamError("a unit fired at by Overwatch is the charging unit, which cannot react: "
                             "drop the reaction (or {overwatch})")
        if self.reaction == "medic" and self.medic_roll is None:
            raise ParamError("the Medic reaction needs the recovery roll's target ({medic_roll} X+)")
        if self.medic_roll is not None and self.reaction != "medic":
            raise ParamError("a medic roll is only used with the Medic reaction ({reaction} medic)")

    @property
    def facing_hit(self) -> str:
        """The armour facing hit: ``facing``, front by default."""
        return self.facing or "front"


@dataclass(frozen=True)
class FireGroup:
    """One fire group (step 4): the attacks of one weapon profile at one BS.

    ``shots`` is the number of hit rolls, the largest one when the weapon's
    Firepower is random; ``firing`` the number of models firing (each rolls
    its own random Firepower). ``bs`` is the BS the group rolls at (its
    models', or the unit's majority BS); ``reroll_hits``/``reroll_wounds``
    come from the weapon's traits."""

    name: str
    weapon: Weapon
    bs: int
    shots: int
    snap: bool = False
    models: tuple[str, ...] = field(default=())
    firing: int = 0

    def shot_counts(self) -> Dist:
        """The number of hit rolls, as a Dist (a constant for a fixed Firepower)."""
        if isinstance(self.weapon.firepower, DiceCount):
            return self.weapon.shots(self.firing)
        return Dist.constant(self.shots)

    @property
    def random(self) -> bool:
        """Whether the number of hit rolls is random."""
        return isinstance(self.weapon.firepower, DiceCount)

    def shots_text(self) -> int | str:
        """The hit rolls as shown: a number, or e.g. ``"3 x D6"`` (3 models, D6 each)."""
        return f"{self.firing} x {self.weapon.firepower}" if self.random else self.shots

    @property
    def reroll_hits(self) -> bool:
        return "reroll-failed-hits" in self.weapon.traits

    @property
    def reroll_wounds(self) -> bool:
        return "reroll-failed-wounds" in self.weapon.traits


@dataclass(frozen=True)
class ShootingUnit:
    """A unit that both shoots and is shot at (an exchange, a scenario step).

    ``target`` is its target profile (models in allocation order, Leadership,
    Cool, traits...); ``firing[i]`` the firing profile of the models of
    ``target.models[i]`` (same name and count), or None for a line whose
    models carry no ranged weapon. The flags are those of an attacker
    file (a unit that is embarked says so once, in ``target``).

    The models of one line fall in file order (the defender allocates to a
    wounded model first, else in file order), so the models of a line still
    in play are read from the Wounds left per model: :meth:`attacker` gives
    the :class:`AttackingUnit` of the survivors. O(models).
    """

    target: TargetUnit
    firing: tuple[FiringModels | None, ...]
    rushed: bool = False
    locked_in_combat: bool = False
    pinned: bool = False
    moved: bool = False

    def __post_init__(self) -> None:
        if not isinstance(self.target, TargetUnit):
            raise InputError(f"a shooting unit needs a TargetUnit, not {self.target!r:.60}")
        where = f"unit {self.target.name!r}"
        if not isinstance(self.firing, (tuple, list)) or len(self.firing) != len(self.target.models):
            raise InputError(f"{where}: firing must give one entry (FiringModels or None) per model line "
                             f"({len(self.target.models)})")
        object.__setattr__(self, "firing", tuple(self.firing))
        for f, m in zip(self.firing, self.target.models, strict=True):
            if f is None:
                continue
            if not isinstance(f, FiringModels):
                raise InputError(f"{where}: firing entries must be FiringModels or None, not {f!r:.60}")
            if f.count != m.count:
                raise InputError(f"{where}: model line {m.name!r} has {m.count} models but fires with {f.count}")
        for key in ("rushed", "locked_in_combat", "pinned", "moved"):
            _flag(getattr(self, key), f"{where}: {key}")

    @property
    def name(self) -> str:
        """The unit's name."""
        return self.target.name

    def can_shoot(self) -> bool:
        """Whether some model line carries a ranged weapon."""
        return any(f is not None for f in self.firing)

    def line_of(self) -> tuple[int, ...]:
        """The model line of each model, in allocation (file) order."""
        return tuple(i for i, m in enumerate(self.target.models) for _ in range(m.count))

    def alive_per_line(self, left: tuple[int, ...]) -> tuple[int, ...]:
        """Models in play per line, from the Wounds left per model. O(models)."""
        return alive_per_line(self.line_of(), len(self.target.models), left)

    def attacker(self, alive: tuple[int, ...] | None = None) -> AttackingUnit | None:
        """The firing unit made of the models in play (``alive`` per line; default:
        all), or None when none of them carries a ranged weapon."""
        counts = alive if alive is not None else tuple(m.count for m in self.target.models)
        models = tuple(FiringModels(f.name, n, f.bs, f.weapon) for f, n in zip(self.firing, counts, strict=True)
                       if f is not None and n > 0)
        if not models:
            return None
        return AttackingUnit(self.name, models, self.rushed, self.locked_in_combat, self.target.embarked,
                             self.pinned, self.moved)

    def total_wounds(self) -> int:
        """Wounds (Hull Points) of all its models at full strength."""
        return sum(m.count * m.starting_wounds for m in self.target.models)
