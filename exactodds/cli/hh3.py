"""``exactodds hh3``: Horus Heresy 3rd edition — hit, wound, penetrate, shoot."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

import click

from ..answer import Answer
from ..core import Dist, InputError
from ..dice import Target
from ..rules import hh3 as rules
from ..rules.hh3.tables import COVER_SAVES, FACINGS, STATUSES, hit_entry
from ..rules.hh3.units import REACTIONS
from ..rules.hh3.vehicles import penetration_die
from ..rules.hh3.wounds import wound_rolls_of
from ..rules.common import wound_target
from .common import Count, TargetType

SHOW = ("casualties", "wounds-lost", "left", "statuses", "aftermath")


class VehicleStatuses(NamedTuple):
    """Which vehicle statuses the unit holds after the attack."""

    stunned: bool
    pinned: bool
    suppressed: bool


STRENGTH = click.option("--strength", type=Count(1, 10, "a Strength"), required=True, help="Weapon Strength 1-10.")


def _hits(help_text: str) -> Callable:
    return click.option("--hits", type=Count(0, what="a number of hits"), default=1, show_default=True,
                        help=help_text)


def _statuses(held: tuple[str, ...]) -> VehicleStatuses:
    return VehicleStatuses(*(s in held for s in STATUSES))


def hit_answer(shots: int, bs: int, snap: bool = False) -> Answer:
    """(hits, crits) of ``shots`` hit rolls at ``bs``."""
    dist = rules.hit_rolls(shots, bs, snap)
    query = {"shots": shots, "bs": bs, "snap": snap, "hit_table": hit_entry(bs, snap).text}
    extras = {"mean_hits": dist.map(lambda h: h.hits).mean(), "mean_crits": dist.map(lambda h: h.crits).mean()}
    return Answer(dist, query, extras)


def wound_answer(strength: int, toughness: int, hits: int = 1) -> Answer:
    """Wounds among ``hits`` ordinary hits of ``strength`` against ``toughness``."""
    target = wound_target(strength, toughness)
    query = {"strength": strength, "toughness": toughness, "hits": hits, "wound_on": str(target)}
    return Answer(wound_rolls_of(hits, strength, toughness), query)


def penetrate_answer(strength: int, armour: int, hits: int = 1) -> Answer:
    """(glancing, penetrating) among ``hits`` armour penetration tests."""
    dist = rules.penetration_rolls(hits, strength, armour)
    query = {"strength": strength, "armour": armour, "hits": hits}
    die = penetration_die(strength, armour)
    extras = {"p_glancing": die.pmf("glancing"), "p_penetrating": die.pmf("penetrating")}
    return Answer(dist, query, extras)


def shoot_answer(attacker: str, target: str, cover: str | None = None, overwatch: bool = False,
                 pinned: bool = False, intercept: bool = False, reaction: str | None = None,
                 medic_roll: Target | None = None, facing: str | None = None, order: tuple[str, ...] = (),
                 crits_last: bool = False, show: str = "casualties", stage: str | None = None) -> Answer:
    """The whole shooting attack of the ``attacker`` file at the ``target`` file."""
    from ..profiles.hh3 import load_attacker, load_target

    firer, unit = load_attacker(attacker), load_target(target)
    if facing is not None and not unit.is_vehicle:
        raise InputError(f"--facing applies to vehicles; {unit.name!r} has no armour facings")
    if show == "statuses" and not unit.is_vehicle:
        raise InputError(f"--show statuses applies to vehicles; {unit.name!r} is not a vehicle unit")
    conditions = rules.Conditions(cover=cover, overwatch=overwatch, pinned=pinned, intercept=intercept,
                                  reaction=reaction, medic_roll=medic_roll, facing=facing or "front",
                                  order=tuple(order), crits_first=not crits_last)
    attack = rules.ShootingAttack(firer, unit, conditions)
    result = attack.run()
    if stage is not None:
        names = result.stage_names()
        if stage not in names:
            raise InputError(f"--stage {stage!r} does not exist; stages are: {', '.join(map(repr, names))}")
        dist: Dist = result.stage(stage)
    else:
        dist = {"casualties": result.casualties, "wounds-lost": result.wounds_lost, "left": result.left,
                "statuses": lambda: result.statuses().map(_statuses), "aftermath": lambda: result.final}[show]()
    query: dict[str, Any] = {
        "attacker": attacker, "target": target, "attacker_name": firer.name, "target_name": unit.name,
        "groups": [{"name": g.name, "shots": g.shots, "bs": g.bs, "hit_table": hit_entry(g.bs, g.snap).text,
                    "snap": g.snap} for g in attack.groups],
        "not_firing": attack.skipped, "cover": cover, "overwatch": overwatch, "reaction": reaction,
        "medic_roll": None if medic_roll is None else str(medic_roll),
        "facing": conditions.facing if unit.is_vehicle else None,
        "crits_first": conditions.crits_first, "show": None if stage else show, "stage": stage,
    }
    extras: dict[str, Any] = {"panic": result.panic(), "routed": result.routed(), "destroyed": result.destroyed()}
    if unit.out_of_coherency:
        extras["pinned"] = result.pinned()
    return Answer(dist, query, extras)


def register(main: click.Group) -> None:
    """Add the ``hh3`` group and its commands to ``main``."""
    from .common import query_command

    @main.group("hh3")
    def hh3() -> None:
        """Horus Heresy 3rd edition: the shooting attack, exactly.

        hit (hits and Critical Hits), wound (S vs T), penetrate (d6 + S vs
        Armour), shoot (a whole attack from two TOML files).
        """

    @query_command(hh3, "hit")
    @click.option("--shots", type=Count(0, what="a number of shots"), required=True, help="Hit rolls (sum of Firepower).")
    @click.option("--bs", type=Count(1, what="a Ballistic Skill"), required=True,
                  help="Ballistic Skill 1 or more (10+ reads the last column: every shot a Critical Hit).")
    @click.option("--snap", is_flag=True, help="Snap shots (the 'Au jugé' row: never Critical Hits).")
    def hit(shots: int, bs: int, snap: bool) -> Answer:
        """Exact (hits, crits) of a fire group's hit rolls.

        Example (one shot at BS 7: Critical Hit on 5+):

            exactodds hh3 hit --shots 1 --bs 7
        """
        return hit_answer(shots, bs, snap)

    @query_command(hh3, "wound")
    @STRENGTH
    @click.option("--toughness", type=Count(1, 10, "a Toughness"), required=True, help="Target Toughness 1-10.")
    @_hits("Ordinary hits rolling to wound (Critical Hits wound automatically).")
    def wound(strength: int, toughness: int, hits: int) -> Answer:
        """Exact number of wounds among ordinary hits (the S vs T chart)."""
        return wound_answer(strength, toughness, hits)

    @query_command(hh3, "penetrate")
    @STRENGTH
    @click.option("--armour", type=Count(1, 20, "an Armour Value"), required=True, help="Armour Value of the facing hit.")
    @_hits("Hits testing armour penetration.")
    def penetrate(strength: int, armour: int, hits: int) -> Answer:
        """Exact (glancing, penetrating) of armour penetration tests: d6 + S vs AV."""
        return penetrate_answer(strength, armour, hits)

    @query_command(hh3, "shoot")
    @click.option("--attacker", required=True, metavar="ATTACKER.toml", help="The firing unit's TOML file.")
    @click.option("--target", required=True, metavar="TARGET.toml", help="The target unit's TOML file.")
    @click.option("--cover", type=click.Choice(tuple(COVER_SAVES)), default=None,
                  help="Area terrain cover: light 6+, medium 5+, dense 4+ (not affected by AP).")
    @click.option("--overwatch", is_flag=True, help="Overwatch fire: the target gets no cover and no Shrouded.")
    @click.option("--pinned", is_flag=True, help="The firing unit is Pinned: snap shots.")
    @click.option("--intercept", is_flag=True, help="The Intercept reaction: snap shots.")
    @click.option("--reaction", type=click.Choice(REACTIONS), default=None,
                  help="The target's reaction: shield (+1 T), smoke (Shrouded 5+), medic (recovery rolls).")
    @click.option("--medic-roll", type=TargetType(), default=None,
                  help="The Medic's recovery roll, X+ (with --reaction medic; the seed does not give it).")
    @click.option("--facing", type=click.Choice(FACINGS), default=None,
                  help="Armour facing hit, for vehicle targets (default front).")
    @click.option("--order", multiple=True, metavar="GROUP",
                  help="Resolve this fire group first (repeat for more; the others follow in file order).")
    @click.option("--crits-last", is_flag=True,
                  help="Resolve the wounds from Critical Hits after the others (default: before).")
    @click.option("--show", type=click.Choice(SHOW), default="casualties", show_default=True,
                  help="What to report: models removed, Wounds (Hull Points) lost, left per model, "
                       "vehicle statuses, or the whole aftermath (casualties, panic, routed...).")
    @click.option("--stage", default=None, metavar="NAME",
                  help="Report one pipeline stage instead, e.g. 'boltgun: hits' (a wrong name lists them).")
    def shoot(attacker: str, target: str, cover: str | None, overwatch: bool, pinned: bool, intercept: bool,
              reaction: str | None, medic_roll: Target | None, facing: str | None, order: tuple[str, ...],
              crits_last: bool, show: str, stage: str | None) -> Answer:
        """Exact outcome of a whole shooting attack, fire group by fire group.

        Casualties by default, with the probabilities of a panic test, of
        being Routed and of being destroyed. Example:

            exactodds hh3 shoot --attacker examples/hh3/heavy_support_squad.toml
            --target examples/hh3/rhino.toml --facing side
        """
        return shoot_answer(attacker, target, cover, overwatch, pinned, intercept, reaction, medic_roll,
                            facing, order, crits_last, show, stage)
