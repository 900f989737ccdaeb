"""Shooting at a vehicle in Warhammer 40,000 6th edition.

A vehicle makes no wound roll: each hit rolls D6 + the weapon's Strength
against the Armour Value of the facing hit; equal is a glancing hit, higher a
penetrating hit (the same armour penetration test as Horus Heresy's,
:func:`~exactodds.rules.shared.penetration.penetration_die`). A cover save may
discard a glancing or penetrating hit. Each glancing or penetrating hit
removes one Hull Point; a penetrating hit also rolls on the Vehicle Damage
table (:data:`~.tables.VEHICLE_DAMAGE_TABLE`, with its AP and open-topped
modifiers). At 0 Hull Points the vehicle is wrecked; an Explodes! result
destroys it whatever its Hull Points. Rending: a penetration roll of 6 adds
D3 to the total.

The vehicle's state is (Hull Points left, statuses held, fate); each hit is a
Markov kernel on it, applied a random number of times (the hits) with
:func:`~exactodds.core.iterate`, one hit at a time in the order rolled.
Cost: O(max hits x distinct states x 6 x 7) with at most HP x 2^4 + 2 states.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, NamedTuple

from ...core import Dist, InputError, Pipeline, Run, Step, check_size, iterate
from ...dice import Target, d6
from ..common import save_value, whole_number
from ..shared.penetration import penetration_die
from .shooting import HITS, check_attack, to_hit
from .tables import ARMOUR_VALUES, FACINGS, OPEN_TOPPED_DAMAGE, VEHICLE_DAMAGE_AP, VEHICLE_DAMAGE_TABLE
from .traits import armour_against, penetration_dice, rending_applies
from .units import Shooting, require_type

PENETRATION, DAMAGE = "penetration", "vehicle damage"
STATUSES = ("crew shaken", "crew stunned", "weapon destroyed", "immobilised")
WRECKED, EXPLODES = "wrecked", "explodes"


@dataclass(frozen=True)
class Vehicle:
    """One vehicle: Armour Values per facing (10-14), Hull Points, open-topped or
    not, a cover save (X for X+) and ``hull_left`` for a vehicle already damaged."""

    front: int
    side: int
    rear: int
    hull_points: int
    name: str = "vehicle"
    open_topped: bool = False
    cover: int | None = None
    hull_left: int | None = None
    is_vehicle: ClassVar[bool] = True
    """Counted in Hull Points, not models, in a scenario's answer."""

    def __post_init__(self) -> None:
        require_type(self.name, str, "a vehicle's name")
        for facing in FACINGS:
            value = getattr(self, facing)
            if isinstance(value, bool) or not isinstance(value, int) or value not in ARMOUR_VALUES:
                raise InputError(f"{self.name}: {facing} armour {value!r:.60} is not allowed: an Armour Value is "
                                 "a whole number from 10 to 14")
        whole_number(self.hull_points, f"{self.name}: hull_points", 1, 10)
        require_type(self.open_topped, bool, f"{self.name}: open_topped")
        save_value(self.cover, f"{self.name}: cover save")
        if self.hull_left is not None:
            whole_number(self.hull_left, f"{self.name}: hull_left", 1, self.hull_points)

    def armour(self, facing: str) -> int:
        """The Armour Value of ``facing`` (front, side or rear)."""
        return getattr(self, check_facing(facing))


def check_facing(facing: object) -> str:
    """``facing`` if it is front, side or rear."""
    if not isinstance(facing, str) or facing not in FACINGS:
        raise InputError(f"facing {facing!r:.60} is not allowed: use front, side or rear")
    return facing


class VehicleState(NamedTuple):
    """Hull Points left, the statuses held (sorted) and the fate: ``""`` while it
    stands, ``"wrecked"`` or ``"explodes"``."""

    hull_points: int
    statuses: tuple[str, ...]
    fate: str = ""

    def destroyed(self) -> bool:
        return bool(self.fate)


class VehicleResult(NamedTuple):
    """What the attack left: Hull Points and the status set (or wrecked/explodes)."""

    hull_points: int
    status: str


def penetration_result(attack: Shooting, armour: int) -> Dist:
    """One hit's armour penetration: ``"none"``, ``"glancing"`` or
    ``"penetrating"``. Rending: a penetration roll of 6 adds D3 (O(6 x 3)).
    Melta within half range and Armourbane roll 2D6 + S (O(36)); Lance
    counts an Armour Value above 12 as 12."""
    armour = armour_against(attack.rules, armour)
    dice = penetration_dice(attack.rules, attack.range)
    if dice == 2:
        if rending_applies(attack.rules):
            raise InputError("rending with a 2D6 armour penetration roll (melta within half range, armourbane) "
                             "is not modelled: which die's 6 adds D3 is not stated")
        return (d6 + d6).map(lambda total: _penetration(total + attack.strength, armour))
    if not rending_applies(attack.rules):
        return penetration_die(attack.strength, armour)
    d3 = Dist.uniform((1, 2, 3))

    def result(total: int) -> str:
        return "none" if total < armour else "glancing" if total == armour else "penetrating"

    return d6.then(lambda f: Dist.constant(result(f + attack.strength)) if f < 6 else
                   d3.map(lambda extra: result(6 + attack.strength + extra)))


def _penetration(total: int, armour: int) -> str:
    """A penetration total against an Armour Value: lower none, equal glancing, higher penetrating."""
    return "none" if total < armour else "glancing" if total == armour else "penetrating"


def damage_roll(attack: Shooting, vehicle: Vehicle) -> Dist:
    """The Vehicle Damage table's result of one penetrating hit: D6 + AP1 (+2),
    AP2 (+1), open-topped (+1), 7 and more read as 7. O(6)."""
    modifier = VEHICLE_DAMAGE_AP.get(attack.ap or 0, 0) + (OPEN_TOPPED_DAMAGE if vehicle.open_topped else 0)
    return d6.map(lambda f: VEHICLE_DAMAGE_TABLE[min(7, f + modifier)])


def hit_kernel(attack: Shooting, vehicle: Vehicle, facing: str):  # -> Kernel
    """One hit on the vehicle: penetration, cover save (glancing or penetrating
    hits; none with Ignores Cover), Hull Point lost, damage roll when penetrating.
    Per state: O(6 x 7)."""
    pen = penetration_result(attack, vehicle.armour(facing))
    cover = vehicle.cover if "ignores-cover" not in attack.rules else None
    p_saved = Target.at_least(cover).chance() if cover is not None else 0
    if p_saved:
        pen = pen.then(lambda r: Dist.constant(r) if r == "none" else Dist.bernoulli(p_saved, "none", r))
    table = damage_roll(attack, vehicle)

    def hit(state: VehicleState) -> Dist:
        if state.destroyed():
            return Dist.constant(state)

        def resolve(result: str) -> Dist:
            if result == "none":
                return Dist.constant(state)
            hp = state.hull_points - 1
            if result == "glancing":
                return Dist.constant(VehicleState(hp, state.statuses, WRECKED if hp == 0 else ""))
            return table.map(lambda r: _damaged(state, hp, r))
        return pen.then(resolve)

    return hit


def _damaged(state: VehicleState, hp: int, result: str) -> VehicleState:
    if result == EXPLODES:
        return VehicleState(0, (), EXPLODES)
    if hp == 0:
        return VehicleState(0, (), WRECKED)
    return VehicleState(hp, tuple(sorted(set(state.statuses) | {result})))


def vehicle_pipeline(attack: Shooting, vehicle: Vehicle, facing: str = "front") -> Pipeline:
    """The steps of one shooting attack on a vehicle: hits, then the vehicle's
    state after every hit is resolved (:class:`VehicleState`)."""
    check_attack(attack)
    require_type(vehicle, Vehicle, "the target vehicle")
    check_facing(facing)
    shots = attack.most_shots()
    check_size((shots + 1) * (vehicle.hull_points + 1) * 2 ** len(STATUSES) * 42,
               f"{shots} shots at a vehicle of {vehicle.hull_points} Hull Points")
    kernel = hit_kernel(attack, vehicle, facing)
    start = VehicleState(vehicle.hull_points if vehicle.hull_left is None else vehicle.hull_left, ())
    return (Step.kernel(HITS, to_hit(attack), "To hit: BS table, snap shots, rerolls")
            >> Step.whole(DAMAGE, lambda hits: iterate(hits, kernel, start)))


def shoot_vehicle(attack: Shooting, vehicle: Vehicle, facing: str = "front") -> Run:
    """Run one shooting attack on ``vehicle``'s ``facing``; ``run.final`` is the
    :class:`VehicleState` after it."""
    return vehicle_pipeline(attack, vehicle, facing).run(check_attack(attack).shot_counts())


def result_of(state: VehicleState) -> VehicleResult:
    """The joint (Hull Points left, status set) of a final state."""
    status = state.fate or (", ".join(state.statuses) if state.statuses else "none")
    return VehicleResult(state.hull_points, status)
