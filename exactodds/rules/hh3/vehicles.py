"""Horus Heresy 3rd edition: vehicles (armour penetration, glancing statuses,
Hull Points).

A vehicle makes no wound roll: an armour penetration test compares the
weapon's Strength with the armour hit (original: "Cible Véhicule : pas de jet
de blessure. On fait à la place un test de pénétration de blindage, qui
compare la force de l'arme au blindage touché."). The rulebook's test: d6 + S
against the Armour Value of the facing hit: lower, nothing; equal, a glancing
hit; higher, a penetrating hit. Glancing: no damage; roll on the vehicle
damage table (1-2 Stunned, 3-4 Pinned, 5-6 Suppressed); a status it already
has costs 1 Hull Point instead (no save, no mitigation). Penetrating:
invulnerable or cover save and mitigation allowed, then Hull Points lost
equal to Damage.

A vehicle unit's state is the Hull Points left per vehicle (file order) and
the statuses the unit holds (statuses are tactical statuses of the unit).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache
from typing import NamedTuple

from ...core import Dist, Kernel
from ...dice import Target, d6, pool_counts
from ..allocation import AllocModel, UnitState, wounded_first
from ..shared.penetration import penetration_die
from .hits import HitRoll
from .tables import VEHICLE_DAMAGE_TABLE


class Penetration(NamedTuple):
    """Armour penetration results of a number of hits."""

    glancing: int
    penetrating: int


class VehicleHits(NamedTuple):
    """A fire group's hits on a vehicle unit, as they will be resolved:
    penetrating Critical Hits (+1 Damage), other penetrating hits, and
    glancing hits (a glancing Critical Hit is a glancing hit like any other)."""

    crit_penetrating: int
    penetrating: int
    glancing: int


@lru_cache(maxsize=1024)
def penetration_rolls(hits: int, strength: int, armour: int) -> Dist:
    """(glancing, penetrating) among ``hits`` penetration tests: the
    3-category multinomial in closed form, O(hits^2) outcomes; cached."""
    die = penetration_die(strength, armour)
    cats = die.support()
    if len(cats) == 1:  # every test gives the same result: O(1)
        return Dist.constant(Penetration(hits if cats[0] == "glancing" else 0, hits if cats[0] == "penetrating" else 0))
    counts = pool_counts(hits, die, cats)
    index = {c: i for i, c in enumerate(cats)}

    def to_pen(c: tuple[int, ...]) -> Penetration:
        return Penetration(*(c[index[k]] if k in index else 0 for k in ("glancing", "penetrating")))

    return counts.map(to_pen)


@lru_cache(maxsize=4096)
def vehicle_hits(hit: HitRoll, strength: int, armour: int) -> Dist:
    """Penetration tests of a fire group's (hits, crits) against one Armour
    Value: Critical Hits and other hits roll alike (a Critical Hit's only
    difference against a vehicle is its +1 Damage when it penetrates).
    O(hits^4) at worst (two multinomials convolved), cached."""
    crit = penetration_rolls(hit.crits, strength, armour)
    other = penetration_rolls(hit.hits - hit.crits, strength, armour)
    return crit.combine(other, lambda c, o: VehicleHits(c.penetrating, o.penetrating, c.glancing + o.glancing))


class VehicleState(NamedTuple):
    """Hull Points left per vehicle (file order; 0 = destroyed) and the
    statuses the unit holds (sorted names)."""

    hull: tuple[int, ...]
    statuses: tuple[str, ...]


def glancing_kernel(models: Sequence[AllocModel], mitigation: Target) -> Kernel:
    """One glancing hit: the damaged vehicle first (else file order); the
    Smoke screen's Shrouded test (``mitigation``) may discard it; else roll on
    the vehicle damage table: a new status is gained, a status the unit
    already holds costs the vehicle 1 Hull Point (no save, no mitigation).
    Per state: O(6)."""
    p_stays = 1 - mitigation.chance()
    table = d6.map(lambda face: VEHICLE_DAMAGE_TABLE[face])

    def hit(state: VehicleState) -> Dist:
        target = wounded_first(UnitState(state.hull), models).support()[0]
        if target is None:
            return Dist.constant(state)

        def effect(status: str) -> VehicleState:
            if status in state.statuses:
                hull = list(state.hull)
                hull[target] -= 1
                return VehicleState(tuple(hull), state.statuses)
            return VehicleState(state.hull, tuple(sorted(state.statuses + (status,))))

        resolved = table.map(effect)
        if p_stays == 1:
            return resolved
        return Dist.bernoulli(p_stays, True, False).then(lambda stays: resolved if stays else Dist.constant(state))

    return hit
