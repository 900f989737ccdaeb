"""Charging a vehicle in Warhammer 40,000 6th edition.

A unit charges a vehicle without Weapon Skill (a Rhino): the vehicle fires no
Overwatch in this engine, the charge roll is made as against any unit, and
each model that charged home strikes once, with every Attack (+1 for the
charge): a blow hits automatically a vehicle that did not move in its last
turn, on 4+ one that moved at combat speed, on 6+ one that moved flat out
(:data:`~.tables.VEHICLE_HIT_ON`). Each hit strikes the rear armour: the
armour penetration test of shooting (D6 + the blow's final Strength; 2D6 with
Armourbane; Rending adds D3 on a 6), glancing and penetrating hits, Hull
Points and the Vehicle Damage table (AP1 +2, AP2 +1, open-topped +1), reused
from :mod:`.vehicles` (no cover save in close combat). Hammer of Wrath adds
one automatic hit per model at its unmodified Strength, no AP, first.

The vehicle does not strike back; there is no combat result, no morale test
and no sweeping advance, and the units are not locked: one round of blows,
after which the charger is free. Blows are resolved by Initiative step,
highest first (Hammer of Wrath at 10), a step's model lines in file order,
each hit in turn; the order only decides whether a penetrating hit rolling
Explodes! comes before or after the last Hull Point goes (wrecked first stays
wrecked).

A model with several close-combat weapons and no ``melee_uses`` fights with
the one that gives the most expected glancing or penetrating hits (its
Attacks x P(hit) x P(glancing or penetrating)); the first in file order on a
tie (our reading: the player chooses).

In a scenario the vehicle's state is one "model" whose wounds are its Hull
Points left (:class:`~exactodds.rules.allocation.UnitState`), and its status
the text the shooting answers show: its damage results (``"crew shaken,
immobilised"``), ``"wrecked"`` or ``"explodes"``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from functools import partial
from typing import Any

from ...core import Dist, InputError, Kernel, check_size, iterate
from ...dice import Target, successes
from ..allocation import UnitState
from ..scenario import World
from .blows import CHARGE_BONUS, RAGE_BONUS
from .strike_options import weapon_blows
from .engagement import charge_kernel, check_assault
from .fight_rounds import READY, Engagement
from .firing import alive_per_line
from .melee import HAMMER_OF_WRATH_INITIATIVE
from .tables import VEHICLE_HIT_ON, VEHICLE_MOVED
from .units import Shooting, Unit
from .vehicles import EXPLODES, STATUSES, WRECKED, Vehicle, VehicleState, hit_kernel, penetration_result

FACING = "rear"
"""Blows strike a vehicle's rear armour."""
CHARGING = "charging"
"""The charger's status between the charge roll and its blows (cleared by the blows)."""
PENETRATION_RULES = ("armourbane", "rending")
"""A close-combat weapon's rules that change the armour penetration test."""


@dataclass(frozen=True)
class Strikes:
    """How one model line strikes a vehicle: its Initiative step, Strength, AP,
    the rules of its armour penetration test and its Attacks added (the charge,
    two weapons)."""

    line: int
    initiative: int
    strength: int
    ap: int | None
    rules: tuple[str, ...]
    bonus: int


def p_vehicle_hit(moved: str) -> Fraction:
    """P(a blow hits a vehicle without Weapon Skill) after it moved ``moved``. O(1)."""
    if not isinstance(moved, str) or moved not in VEHICLE_MOVED:
        raise InputError(f"vehicle_moved {moved!r:.40} is not allowed: use one of {', '.join(VEHICLE_MOVED)}")
    on = VEHICLE_HIT_ON[moved]
    return Fraction(1) if on is None else Target.at_least(on).chance()


def _attack(strength: int, ap: int | None, rules: tuple[str, ...]) -> Shooting:
    """A blow as the shooting code's attack description (no to-hit roll)."""
    return Shooting(shots=0, strength=strength, weapon_type="no-bs", ap=ap, rules=rules)


def _options(unit: Unit, j: int, terrain: bool) -> list[Strikes]:
    """Line ``j``'s ways to strike a vehicle on the charge: one per close-combat
    weapon it may fight with, or its own Strength and AP, as in any fight
    (:func:`~.strike_options.weapon_blows`). O(weapons)."""
    m = unit.models[j]
    if m.melee is None:
        raise InputError(f"{unit.name}: {m.name} has no close-combat profile (ws, initiative, attacks, strength, "
                         "leadership): it cannot charge")
    slowed = terrain and "assault" not in m.grenades
    bonus = RAGE_BONUS if "rage" in m.rules else CHARGE_BONUS
    return [Strikes(j, b.initiative, b.strength, b.ap,
                    tuple(r for r in PENETRATION_RULES if w is not None and r in w.rules), bonus + b.extra_attacks)
            for w, b in weapon_blows(unit, m, True, slowed)]


def line_strikes(unit: Unit, vehicle: Vehicle, moved: str, terrain: bool = False) -> list[Strikes]:
    """Each line's way to strike ``vehicle``: the option with the most expected
    glancing or penetrating hits, the first on a tie. O(lines x weapons x 36)."""
    p_hit, armour = p_vehicle_hit(moved), vehicle.armour(FACING)
    chosen = []
    for j, m in enumerate(unit.models):
        best: tuple[Fraction, Strikes] | None = None
        for s in _options(unit, j, terrain):
            p_pen = 1 - penetration_result(_attack(s.strength, s.ap, s.rules), armour).pmf("none")
            value = Fraction(m.melee.attack_counts(1, s.bonus).mean()) * p_hit * p_pen  # type: ignore[union-attr]
            if best is None or value > best[0]:
                best = (value, s)
        assert best is not None
        chosen.append(best[1])
    return chosen


def state_of(state: UnitState, status: str) -> VehicleState:
    """A scenario's vehicle (Hull Points left as its one model's wounds, its
    status text) as a :class:`~.vehicles.VehicleState`."""
    if status in (WRECKED, EXPLODES):
        return VehicleState(0, (), status)
    held = tuple(s for s in status.split(", ") if s in STATUSES)
    return VehicleState(state.wounds[0], held, "" if state.wounds[0] else WRECKED)


def written(v: VehicleState) -> tuple[UnitState, str]:
    """A :class:`~.vehicles.VehicleState` as a scenario's (state, status text)."""
    return UnitState((v.hull_points,)), v.fate or ", ".join(v.statuses)


class VehicleBlows:
    """One unit's blows on the charge at a vehicle (see the module docstring).

    :meth:`strike` maps (models in play per line, the vehicle's state) to a
    Dist of vehicle states, memoised. Cost per call: O(lines x max hits x
    vehicle states x 42), at most HP x 2^4 + 2 vehicle states."""

    def __init__(self, unit: Unit, vehicle: Vehicle, moved: str, terrain: bool = False) -> None:
        self.unit, self.p_hit = unit, p_vehicle_hit(moved)
        target = replace(vehicle, cover=None)  # no cover save in close combat
        strikes = line_strikes(unit, vehicle, moved, terrain)
        self.order = sorted(strikes, key=lambda s: (-s.initiative, s.line))
        self.kernels = [hit_kernel(_attack(s.strength, s.ap, s.rules), target, FACING) for s in self.order]
        self.hammers = [(j, hit_kernel(_attack(m.melee.strength, None, ()), target, FACING))  # type: ignore[union-attr]
                        for j, m in enumerate(unit.models) if "hammer-of-wrath" in m.rules]
        most = sum(m.count * (m.melee.most_attacks() + 4) for m in unit.models if m.melee is not None)
        check_size((most + 1) * (vehicle.hull_points + 1) * 2 ** len(STATUSES) * 42,
                   f"{unit.size} models striking a vehicle of {vehicle.hull_points} Hull Points")
        self._memo: dict[tuple, Dist] = {}

    def strike(self, alive: tuple[int, ...], start: VehicleState) -> Dist:
        """The vehicle's state after the blows of ``alive`` models per line."""
        key = (alive, start)
        got = self._memo.get(key)
        if got is None:
            got = self._memo[key] = self._blows(alive, start)
        return got

    def _blows(self, alive: tuple[int, ...], start: VehicleState) -> Dist:
        d = Dist.constant(start)
        for j, kernel in self.hammers:  # Hammer of Wrath: automatic hits, at Initiative 10, first
            if alive[j]:
                d = d.then(partial(iterate, Dist.constant(alive[j]), kernel))
        for s, kernel in zip(self.order, self.kernels, strict=True):
            n = alive[s.line]
            if not n:
                continue
            attacks = self.unit.models[s.line].melee.attack_counts(n, s.bonus)  # type: ignore[union-attr]
            hits = attacks.then(partial(successes, p=self.p_hit))
            d = d.then(partial(iterate, hits, kernel))
        return d


def vehicle_assault_kernels(attacker: Unit, vehicle: Vehicle, distance: int | Fraction, a: int, d: int,
                            moved: str = "none", difficult_terrain: bool = False
                            ) -> list[tuple[str, Kernel, str]]:
    """``attacker`` (unit ``a`` of the world) charges ``vehicle`` (unit ``d``):
    ``"charge"`` (the charge roll, as against a unit: :func:`~.engagement.charge_kernel`)
    then ``"blows"`` (one round: :class:`VehicleBlows`), as kernels on worlds.
    The attacker ends free (or ``"charge failed"``); the vehicle's status is its
    damage results, ``"wrecked"`` or ``"explodes"``."""
    dist = check_assault(distance, 1)
    blows = VehicleBlows(attacker, vehicle, moved, difficult_terrain)
    roll = charge_kernel(attacker, dist, difficult_terrain)

    def charge(w: World) -> Dist:
        sa = w.statuses[a] or READY
        e = Engagement(w.units[a], w.units[d], sa, READY)
        return roll(e).map(lambda out: w.put(a, w.units[a], CHARGING if out.just_charged else out.attacker_status))

    def strike(w: World) -> Dist:
        if w.statuses[a] != CHARGING:
            return Dist.constant(w)
        alive = alive_per_line(attacker, w.units[a])
        return blows.strike(alive, state_of(w.units[d], w.statuses[d])).map(
            lambda v: w.put(a, w.units[a], "").put(d, *written(v)))

    return [("charge", charge, "the charge roll at the vehicle"),
            ("blows", strike, "one round of blows on the vehicle's rear armour")]


def refuse_vehicle(unit: Any, name: str) -> None:
    """Refuse ``unit`` (named ``name`` in a scenario) if it is a vehicle: in a 40k6
    scenario a vehicle is only ever charged."""
    if isinstance(unit, Vehicle):
        raise InputError(f"{name}: {unit.name} is a vehicle; in a 40k6 scenario a vehicle can only be charged "
                         "(the defender of an assault step)")
