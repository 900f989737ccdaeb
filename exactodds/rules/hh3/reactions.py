"""Horus Heresy 3rd edition: the target's reactions (Legiones Astartes,
1 reaction point each).

- Shield ("Bouclier"): declared at the start of step 3 when the majority of
  the unit has the Shield trait: +1 Toughness for the phase (original: "Se
  déclare au début de l'étape 3 [...] si la majorité de l'unité visée a le
  trait Bouclier : +1 en endurance pour la durée de la phase.").
- Smoke screen ("Écran de fumée"): a Shrouded 5+ mitigation roll for the
  phase, against wounds, penetrating and glancing hits (original: "jet de
  mitigation de Dissimulation (5+) pendant la phase, contre les blessures, les
  touches pénétrantes et les touches superficielles.").
- Medic: when casualties are removed (step 11), one recovery roll for each
  model that suffered an unsaved wound, models with Medic excepted (original:
  "Au retrait des pertes (étape 11) : un jet de rétablissement pour chaque
  figurine ayant subi une blessure non sauvegardée (sauf les figurines qui ont
  elles-mêmes Médic)."). The rules text does not give the roll's target: it is
  an input.

Engine reading of Medic (the rules text does not say what a recovery does): a
model removed as a casualty whose recovery roll succeeds stays in play with
1 Wound; a model that suffered an unsaved wound but still has Wounds gains
nothing (its roll cannot change the outcome). Recovery rolls are made
whether or not the Medic model itself survived the attack.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from functools import partial

from ...core import Dist, InputError, check_size
from ...dice import Target
from .tables import SMOKE_SHROUDED
from .units import Conditions, TargetUnit


def check_reaction(target: TargetUnit, conditions: Conditions) -> None:
    """Refuse a reaction the target unit cannot make, saying why."""
    reaction = conditions.reaction
    if reaction is None:
        return
    if reaction == "shield" and target.is_vehicle:
        raise InputError("the Shield reaction gives +1 Toughness; vehicles have no Toughness")
    if reaction in ("shield", "smoke") and reaction not in target.traits:
        trait = {"shield": "Shield", "smoke": "Smoke screen"}[reaction]
        raise InputError(f"the {trait} reaction needs the majority of the target unit {target.name!r} "
                         f"to have the {reaction!r} trait (add it to the unit's traits)")
    if reaction == "medic" and not any(m.medic for m in target.models):
        raise InputError(f"the Medic reaction needs a model with medic = true in the target unit {target.name!r}")


def shield_active(conditions: Conditions) -> bool:
    """Whether the wound rolls read Toughness + 1 (the Shield reaction)."""
    return conditions.reaction == "shield"


def smoke_shrouded(conditions: Conditions) -> int | None:
    """The Smoke screen's Shrouded value (5, for 5+), or None without it."""
    return SMOKE_SHROUDED if conditions.reaction == "smoke" else None


def recovery_kernel(target: TargetUnit, roll: Target) -> Callable[[tuple[int, ...]], Dist]:
    """Step 11 with the Medic reaction: wounds left per model -> the same after
    the recovery rolls of the casualties that are not Medic models.

    Identical models of one entry are interchangeable, so only the number of
    recovered casualties per entry is drawn (a binomial) and the recovered
    models take the first casualty slots of their entry: prod over entries
    of (casualties + 1) states, refused above the state limit before any work.
    """
    p = roll.chance()
    entries: list[tuple[int, int]] = []  # (first model index, last + 1) of each non-Medic entry
    start = 0
    for m in target.models:
        if not m.medic:
            entries.append((start, start + m.count))
        start += m.count
    bound = 1
    for a, b in entries:
        bound *= b - a + 1
    check_size(bound, "the Medic recovery rolls")
    cache: dict[tuple[int, ...], Dist] = {}

    def recover(left: tuple[int, ...]) -> Dist:
        if left in cache:
            return cache[left]
        d = Dist.constant(left)
        for a, b in entries:
            dead = [i for i in range(a, b) if left[i] == 0]
            if dead:
                d = d.then(partial(_recover_some, dead, p))
        cache[left] = d
        return d

    return recover


def _recover_some(dead: list[int], p: Fraction, now: tuple[int, ...]) -> Dist:
    """The ``dead`` models of ``now`` each back at 1 Wound with chance ``p`` (they are
    interchangeable: the first k of them)."""
    return Dist.binomial(len(dead), p).map(lambda k: tuple(1 if i in dead[:k] else w for i, w in enumerate(now)))
