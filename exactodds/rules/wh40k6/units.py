"""Plain data for Warhammer 40,000 6th edition: models, units, weapons.

No file reading here (see :mod:`exactodds.profiles.wh40k6`); these classes
only check that their values are in the ranges the rules allow.
"""

from __future__ import annotations

from dataclasses import dataclass

from ...core import Dist, InputError
from ...core.checks import whole_number
from ..common import save_value
from ..random_count import DiceCount
from .assault import CHARGE_ROLLS
from .inputs import CANNOT_SNAP, WEAPON_TYPES, Shooting  # noqa: F401  (the first two named here too)
from .melee import GRENADES, MeleeWeapon, check_melee_names
from .traits import check_feel_no_pain, check_model_rules

def require_type(value: object, cls: type | tuple[type, ...], what: str) -> None:
    """Refuse (InputError) a ``value`` that is not an instance of ``cls``."""
    if not isinstance(value, cls) or (isinstance(value, bool) and bool not in (cls if isinstance(cls, tuple) else (cls,))):
        names = " or ".join(c.__name__ for c in (cls if isinstance(cls, tuple) else (cls,)))
        raise InputError(f"{what} must be a {names}, not {value!r:.60}")


@dataclass(frozen=True)
class Melee:
    """A model's close-combat profile: WS, Initiative, Attacks, Strength, AP
    (None: no AP) and Leadership."""

    ws: int
    initiative: int
    attacks: int | DiceCount
    strength: int
    leadership: int
    ap: int | None = None

    def most_attacks(self) -> int:
        """The largest number of Attacks a model can make (before bonuses)."""
        return self.attacks if isinstance(self.attacks, int) else max(self.attacks.dist().support())

    def attack_counts(self, models: int, bonus: int) -> Dist:
        """The Attacks of ``models`` models, each with ``bonus`` more: a number, or the
        sum of one random roll per model. O(log models) convolutions."""
        if isinstance(self.attacks, int):
            return Dist.constant(models * (self.attacks + bonus))
        return self.attacks.total(models).map(lambda a: a + models * bonus)

    def __post_init__(self) -> None:
        whole_number(self.ws, "WS", 1, 10)
        whole_number(self.initiative, "Initiative", 1, 10)
        if isinstance(self.attacks, (str, DiceCount)):  # random Attacks: D3, D6, D3+1...
            object.__setattr__(self, "attacks", DiceCount.parse(self.attacks, "an Attacks value"))
        else:
            whole_number(self.attacks, "Attacks", 0, 10)
        whole_number(self.strength, "Strength", 1, 10)
        whole_number(self.leadership, "Leadership", 1, 10)
        if self.ap is not None:
            whole_number(self.ap, "AP", 1, 6)


@dataclass(frozen=True)
class Model:
    """One line of a unit: ``count`` identical models.

    Saves are X for X+ (None: none). ``look_out_sir`` is False, True
    (another model is within 6": the wound moves to the closest other model)
    or the name of the line whose models take the wound.
    """

    toughness: int
    wounds: int
    name: str = "model"
    count: int = 1
    save: int | None = None
    invulnerable: int | None = None
    cover: int | None = None
    character: bool = False
    look_out_sir: bool | str = False
    melee: Melee | None = None
    feel_no_pain: int | None = None
    eternal_warrior: bool = False
    wounds_left: int | None = None
    rules: tuple[str, ...] = ()
    bs: int | None = None
    weapons: tuple[str, ...] = ()
    charge_roll: str = "2d6"
    melee_weapons: tuple[str, ...] = ()
    """The close-combat weapons of each model (names of the unit's
    ``melee_weapons``; none: it fights with its own Strength and AP)."""
    melee_uses: str | None = None
    """The close-combat weapon it fights with (None: the best, see :mod:`.fight`)."""
    grenades: tuple[str, ...] = ()

    def __post_init__(self) -> None:
        require_type(self.name, str, "a model's name")
        self._check_melee_weapons()
        if self.bs is not None:
            whole_number(self.bs, f"{self.name}: bs", 1, 10)
        require_type(self.weapons, (tuple, list), f"{self.name}: weapons")
        object.__setattr__(self, "weapons", tuple(self.weapons))
        for w in self.weapons:
            require_type(w, str, f"{self.name}: each weapon name")
        if self.weapons and self.bs is None:
            raise InputError(f"{self.name}: a model with ranged weapons needs its bs (Ballistic Skill 1 to 10)")
        require_type(self.charge_roll, str, f"{self.name}: charge_roll")
        if self.charge_roll not in CHARGE_ROLLS:
            raise InputError(f"{self.name}: charge_roll {self.charge_roll!r:.40} is not allowed: use one of "
                             f"{', '.join(CHARGE_ROLLS)}")
        whole_number(self.toughness, f"{self.name}: toughness", 1, 10)
        whole_number(self.wounds, f"{self.name}: wounds", 1, 10)
        whole_number(self.count, f"{self.name}: count", 1, 1000)
        save_value(self.save, f"{self.name}: save")
        save_value(self.invulnerable, f"{self.name}: invulnerable save")
        save_value(self.cover, f"{self.name}: cover save")
        require_type(self.character, bool, f"{self.name}: character")
        require_type(self.look_out_sir, (bool, str), f"{self.name}: look_out_sir")
        if self.melee is not None:
            require_type(self.melee, Melee, f"{self.name}: melee profile")
        check_feel_no_pain(self.feel_no_pain, f"{self.name}: feel_no_pain")
        require_type(self.eternal_warrior, bool, f"{self.name}: eternal_warrior")
        object.__setattr__(self, "rules", check_model_rules(self.rules, self.name))
        if self.wounds_left is not None:
            whole_number(self.wounds_left, f"{self.name}: wounds_left", 1, self.wounds)
        if self.look_out_sir is not False and not self.character:
            raise InputError(f"{self.name}: look_out_sir is for characters only; set character = true "
                             "or remove look_out_sir")

    def _check_melee_weapons(self) -> None:
        object.__setattr__(self, "melee_weapons", check_melee_names(self.melee_weapons, f"{self.name}: melee"))
        require_type(self.grenades, (tuple, list), f"{self.name}: grenades")
        object.__setattr__(self, "grenades", tuple(self.grenades))
        for g in self.grenades:
            if g not in GRENADES:
                raise InputError(f"{self.name}: grenades {g!r:.40} is not allowed: use {', '.join(GRENADES)}")
        if self.melee_uses is not None:
            require_type(self.melee_uses, str, f"{self.name}: melee_uses")
            if self.melee_uses not in self.melee_weapons:
                raise InputError(f"{self.name}: melee_uses {self.melee_uses!r:.40} is not one of its close-combat "
                                 f"weapons ({', '.join(self.melee_weapons) or 'none: give melee = [...]'})")
        if self.melee_weapons and self.melee is None:
            raise InputError(f"{self.name}: close-combat weapons need the close-combat profile "
                             "(ws, initiative, attacks, strength, leadership)")
        if self.melee_weapons and self.melee is not None and self.melee.ap is not None:
            raise InputError(f"{self.name}: give the AP on its close-combat weapons, not on the model line "
                             "(a line with melee weapons has no ap of its own)")


@dataclass(frozen=True)
class Weapon:
    """A named ranged weapon profile, carried by model lines of a unit
    (``weapon = "NAME"`` / ``weapons = [...]`` in a unit file): the shots
    each model fires, Strength, AP, type and special rules, as in
    :class:`Shooting` (``shots`` is per model; ``random_shots`` replaces it)."""

    name: str
    strength: int
    shots: int = 1
    ap: int | None = None
    weapon_type: str = "normal"
    rules: tuple[str, ...] = ()
    poisoned: int | None = None
    random_shots: str | None = None
    range: int | None = None
    salvo: tuple[int, int] | None = None
    """Salvo X/Y: each model fires X shots after moving, Y when stationary (``shots`` unused)."""
    """Range in inches, when known: beyond it the weapon does not fire, and
    within half of it a Rapid Fire weapon fires twice (a Melta weapon rolls
    2D6 for armour penetration)."""

    def attack(self, models: int, bs: int | None, snap: bool = False, moved: bool = False,
               range: str | None = None) -> Shooting:
        """The :class:`Shooting` of ``models`` models firing this weapon at ``bs``
        (a weapon that places its hits fires one template or marker per model,
        ``shots`` models hit each)."""
        placed = self.weapon_type != "normal"
        rng = range if {"rapid-fire", "melta"} & set(self.rules) else None
        if "rapid-fire" in self.rules and rng is None:
            rng = "full"
        per_model = self.random_shots is not None or self.salvo is not None
        return Shooting(shots=models if per_model else models * self.shots, salvo=self.salvo,
                        strength=self.strength, bs=None if placed else bs, ap=self.ap,
                        snap=snap, weapon_type=self.weapon_type, rules=self.rules, poisoned=self.poisoned,
                        random_shots=self.random_shots, moved=moved, range=rng)

    def __post_init__(self) -> None:
        require_type(self.name, str, "a weapon's name")
        whole_number(self.shots, f"weapon {self.name}: shots", 1, 100)
        object.__setattr__(self, "rules", tuple(self.rules))
        if self.range is not None:
            whole_number(self.range, f"weapon {self.name}: range (inches)", 1, 1000)
        try:  # the profile's values are those of one shooting attack
            self.attack(1, 4 if self.weapon_type == "normal" else None, range="full")
        except InputError as e:
            raise InputError(f"weapon {self.name}: {e}") from None


@dataclass(frozen=True)
class Unit:
    """A unit: its model lines, closest to the enemy first, and the ranged
    weapon profiles its lines name (``weapons``)."""

    models: tuple[Model, ...]
    name: str = "unit"
    weapons: tuple[Weapon, ...] = ()
    melee_weapons: tuple[MeleeWeapon, ...] = ()

    def __post_init__(self) -> None:
        require_type(self.name, str, "a unit's name")
        require_type(self.models, (tuple, list), f"{self.name}: models")
        object.__setattr__(self, "models", tuple(self.models))
        object.__setattr__(self, "weapons", tuple(self.weapons))
        for m in self.models:
            require_type(m, Model, f"{self.name}: each model line")
        if not self.models:
            raise InputError(f"{self.name}: a unit needs at least one model")
        known = {w.name for w in self.weapons}
        self._check_melee_names(known)
        close = {w.name for w in self.melee_weapons}
        for m in self.models:
            for w in m.weapons:
                if w in close and w not in known:
                    raise InputError(f"{self.name}: {m.name}: weapon {w!r} is a close-combat weapon "
                                     "(type = \"melee\"): name it with melee = [...], not weapon/weapons")
                if w not in known:
                    raise InputError(f"{self.name}: {m.name}: weapon {w!r} has no profile; profiles are: "
                                     f"{', '.join(sorted(known)) or '(none)'}")
        names = [m.name for m in self.models]
        for m in self.models:
            if isinstance(m.look_out_sir, str):
                if m.look_out_sir not in names:
                    raise InputError(f"{self.name}: {m.name}: look_out_sir names {m.look_out_sir!r}, which is "
                                     f"not a model line of the unit (lines: {', '.join(names)})")
                if names.count(m.look_out_sir) > 1:
                    raise InputError(f"{self.name}: look_out_sir names {m.look_out_sir!r}, but several lines "
                                     "have that name; give the lines distinct names")

    def weapon(self, name: str) -> Weapon:
        """The weapon profile called ``name``."""
        for w in self.weapons:
            if w.name == name:
                return w
        raise InputError(f"{self.name}: no weapon {name!r}; weapons are: {', '.join(w.name for w in self.weapons)}")

    def _check_melee_names(self, known: set[str]) -> None:
        """Each close-combat weapon a line names has a profile (``known``: the ranged ones)."""
        object.__setattr__(self, "melee_weapons", tuple(self.melee_weapons))
        for weapon in self.melee_weapons:
            require_type(weapon, MeleeWeapon, f"{self.name}: each close-combat weapon")
        close = {x.name for x in self.melee_weapons}
        for m in self.models:
            for n in m.melee_weapons:
                if n not in close:
                    why = " (a ranged weapon: name it with weapon/weapons)" if n in known else ""
                    raise InputError(f"{self.name}: {m.name}: close-combat weapon {n!r} has no profile{why}; "
                                     f"close-combat weapons are: {', '.join(sorted(close)) or '(none)'}")

    def melee_weapon(self, name: str) -> MeleeWeapon:
        """The close-combat weapon called ``name``."""
        for w in self.melee_weapons:
            if w.name == name:
                return w
        raise InputError(f"{self.name}: no close-combat weapon {name!r}")

    def expanded(self) -> list[Model]:
        """One entry per model (lines repeated ``count`` times), closest first."""
        return [m for m in self.models for _ in range(m.count)]

    def line_of(self) -> list[int]:
        """For each model of :meth:`expanded`, the index of its line."""
        return [j for j, m in enumerate(self.models) for _ in range(m.count)]

    @property
    def size(self) -> int:
        """The number of models."""
        return sum(m.count for m in self.models)
