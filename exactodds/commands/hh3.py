"""``hh3``: Horus Heresy 3rd edition — hit, wound, penetrate, shoot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from ..answer import Answer
from ..core import Dist
from ..dice import Target
from ..rules import hh3 as rules
from ..rules.common import wound_target
from ..rules.hh3.tables import COVER_SAVES, FACINGS, STATUSES, hit_entry
from ..rules.hh3.units import REACTIONS
from ..rules.hh3.vehicles import penetration_die
from ..rules.hh3.wounds import wound_rolls_of
from .kinds import Choice, Count, Flag, Many, ProfileFile, ProfileRef, TargetNumber, Text
from .params import ParamError, Params, literal, param
from .registry import define

SHOW = ("casualties", "wounds-lost", "left", "statuses", "aftermath")


class VehicleStatuses(NamedTuple):
    """Which vehicle statuses the unit holds after the attack."""

    stunned: bool
    pinned: bool
    suppressed: bool


STRENGTH = Count(1, 10, "a Strength")


@dataclass(frozen=True, kw_only=True)
class HitParams(Params):
    """A fire group's hit rolls."""

    shots: int = param(Count(0, what="a number of shots"), "Hit rolls (sum of Firepower).")
    bs: int = param(Count(1, what="a Ballistic Skill"),
                    "Ballistic Skill 1 or more (10+ reads the last column: every shot a Critical Hit).")
    snap: bool = param(Flag(), "Snap shots (the snap-shot row: never Critical Hits).", False)
    reroll_failed: bool = param(Flag(), "Reroll every failed hit roll once (the second roll stands).", False)


@dataclass(frozen=True, kw_only=True)
class WoundParams(Params):
    """Wound rolls of ordinary hits."""

    strength: int = param(STRENGTH, "Weapon Strength 1-10.")
    toughness: int = param(Count(1, 10, "a Toughness"), "Target Toughness 1-10.")
    hits: int = param(Count(0, what="a number of hits"),
                      "Ordinary hits rolling to wound (Critical Hits wound automatically).", 1)
    reroll_failed: bool = param(Flag(), "Reroll every failed wound roll once (the second roll stands).", False)


@dataclass(frozen=True, kw_only=True)
class PenetrateParams(Params):
    """Armour penetration tests."""

    strength: int = param(STRENGTH, "Weapon Strength 1-10.")
    armour: int = param(Count(1, 20, "an Armour Value"), "Armour Value of the facing hit.")
    hits: int = param(Count(0, what="a number of hits"), "Hits testing armour penetration.", 1)


@dataclass(frozen=True, kw_only=True)
class ShootParams(Params):
    """A whole shooting attack from an attacker file at a target file."""

    attacker: ProfileRef = param(ProfileFile(), "The firing unit's TOML file.", metavar="ATTACKER.toml")
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file.", metavar="TARGET.toml")
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
    show: str = param(Choice(SHOW), "What to report: models removed, Wounds (Hull Points) lost, left per model, "
                      "vehicle statuses, or the whole aftermath (casualties, panic, routed...).", "casualties")
    stage: str | None = param(Text(), "Report one pipeline stage instead, e.g. 'boltgun: hits' (a wrong name "
                              "lists them).", None, metavar="NAME")

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


def _statuses(held: tuple[str, ...]) -> VehicleStatuses:
    return VehicleStatuses(*(s in held for s in STATUSES))


@define("hh3", "hit", HitParams)
def hit(p: HitParams) -> Answer:
    """Exact (hits, crits) of a fire group's hit rolls.

    Example (one shot at BS 7: Critical Hit on 5+):

        exactodds hh3 hit --shots 1 --bs 7
    """
    dist = rules.hit_rolls(p.shots, p.bs, p.snap, p.reroll_failed)
    query: dict[str, Any] = {"shots": p.shots, "bs": p.bs, "snap": p.snap, "hit_table": hit_entry(p.bs, p.snap).text}
    if p.reroll_failed:
        query["reroll_failed"] = True
    extras = {"mean_hits": dist.map(lambda h: h.hits).mean(), "mean_crits": dist.map(lambda h: h.crits).mean()}
    return Answer(dist, query, extras)


@define("hh3", "wound", WoundParams)
def wound(p: WoundParams) -> Answer:
    """Exact number of wounds among ordinary hits (the S vs T chart)."""
    target = wound_target(p.strength, p.toughness)
    query: dict[str, Any] = {"strength": p.strength, "toughness": p.toughness, "hits": p.hits,
                             "wound_on": str(target)}
    if p.reroll_failed:
        query["reroll_failed"] = True
    return Answer(wound_rolls_of(p.hits, p.strength, p.toughness, p.reroll_failed), query)


@define("hh3", "penetrate", PenetrateParams)
def penetrate(p: PenetrateParams) -> Answer:
    """Exact (glancing, penetrating) of armour penetration tests: d6 + S vs AV."""
    dist = rules.penetration_rolls(p.hits, p.strength, p.armour)
    die = penetration_die(p.strength, p.armour)
    extras = {"p_glancing": die.pmf("glancing"), "p_penetrating": die.pmf("penetrating")}
    return Answer(dist, {"strength": p.strength, "armour": p.armour, "hits": p.hits}, extras)


@define("hh3", "shoot", ShootParams)
def shoot(p: ShootParams) -> Answer:
    """Exact outcome of a whole shooting attack, fire group by fire group.

    Casualties by default, with the probabilities of a panic test, of
    being Routed and of being destroyed. Example:

        exactodds hh3 shoot --attacker examples/hh3/heavy_support_squad.toml
        --target examples/hh3/rhino.toml --facing side
    """
    from ..profiles.hh3 import load_attacker, load_target

    firer, unit = p.attacker.parsed(load_attacker), p.target.parsed(load_target)
    if p.facing is not None and not unit.is_vehicle:
        raise ParamError("{facing} applies to vehicles; " + literal(f"{unit.name!r} has no armour facings"))
    if p.show == "statuses" and not unit.is_vehicle:
        raise ParamError("{show} statuses applies to vehicles; " + literal(f"{unit.name!r} is not a vehicle unit"))
    conditions = rules.Conditions(cover=p.cover, overwatch=p.overwatch, pinned=p.pinned, intercept=p.intercept,
                                  reaction=p.reaction, medic_roll=p.medic_roll, facing=p.facing or "front",
                                  order=tuple(p.order), crits_first=not p.crits_last, moved=p.moved,
                                  majority_bs=p.majority_bs)
    attack = rules.ShootingAttack(firer, unit, conditions)
    result = attack.run()
    if p.stage is not None:
        names = result.stage_names()
        if p.stage not in names:
            raise ParamError("{stage} " + literal(f"{p.stage!r} does not exist; stages are: "
                                                  f"{', '.join(map(repr, names))}"))
        dist: Dist = result.stage(p.stage)
    else:
        dist = {"casualties": result.casualties, "wounds-lost": result.wounds_lost, "left": result.left,
                "statuses": lambda: result.statuses().map(_statuses), "aftermath": lambda: result.final}[p.show]()
    query: dict[str, Any] = {
        "attacker": p.attacker.written, "target": p.target.written, "attacker_name": firer.name,
        "target_name": unit.name,
        "groups": [{"name": g.name, "shots": g.shots_text(), "bs": g.bs, "hit_table": hit_entry(g.bs, g.snap).text,
                    "snap": g.snap, **({"traits": sorted(g.weapon.traits)} if g.weapon.traits else {})}
                   for g in attack.groups],
        **({"moved": True} if p.moved or firer.moved else {}), **({"majority_bs": True} if p.majority_bs else {}),
        "not_firing": attack.skipped, "cover": p.cover, "overwatch": p.overwatch, "reaction": p.reaction,
        "medic_roll": None if p.medic_roll is None else str(p.medic_roll),
        "facing": conditions.facing if unit.is_vehicle else None,
        "crits_first": conditions.crits_first, "show": None if p.stage else p.show, "stage": p.stage,
    }
    extras: dict[str, Any] = {"panic": result.panic(), "routed": result.routed(), "destroyed": result.destroyed()}
    if unit.out_of_coherency:
        extras["pinned"] = result.pinned()
    return Answer(dist, query, extras)


@dataclass(frozen=True, kw_only=True)
class ExchangeParams(Params):
    """An exchange of fire: the attacker shoots, the target returns fire."""

    attacker: ProfileRef = param(ProfileFile(), "The attacking unit's TOML file (firing and target stats).",
                                 metavar="UNIT.toml")
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file (firing and target stats).",
                               metavar="UNIT.toml")
    cover: str | None = param(Choice(tuple(COVER_SAVES)), "The target's area terrain cover: light 6+, medium 5+, "
                              "dense 4+.", None)
    return_cover: str | None = param(Choice(tuple(COVER_SAVES)), "The attacker's cover against the return fire.",
                                     None)
    facing: str | None = param(Choice(FACINGS), "Armour facing of the target hit, for vehicles (default front).",
                               None)
    return_facing: str | None = param(Choice(FACINGS), "Armour facing of the attacker hit by the return fire, for "
                                      "vehicles (default front).", None)
    moved: bool = param(Flag(), "The attacking unit moved: its Heavy weapons fire snap shots (the target's own "
                        "file says whether it moved).", False)
    majority_bs: bool = param(Flag(), "Read the hit table at each unit's majority Ballistic Skill (both attacks).",
                              False)
    crits_last: bool = param(Flag(), "Resolve the wounds from Critical Hits after the others (both attacks).",
                             False)
    turns: int = param(Count(1, 20, "a number of turns"), "Repeat the exchange this many turns, the state carried "
                       "over.", 1)


@define("hh3", "exchange", ExchangeParams)
def exchange(p: ExchangeParams) -> Answer:
    """Exact joint end state of an exchange: the attacker's whole shooting attack,
    then the target's return fire with every model it had when the attack
    began ("even with the models that will die in the exchange").

    Each unit's models left and statuses (passed panic, routed, pinned,
    destroyed), its P(destroyed), P(Routed) and mean models left. Example:

        exactodds hh3 exchange --attacker examples/hh3/unit_tactical_squad.toml
        --target examples/hh3/unit_heavy_support_squad.toml
    """
    from ..profiles.hh3 import load_unit
    from ..rules.hh3.exchange import Exchange
    from ..rules.scenario import Scenario
    from .scenario import scenario_answer

    a = p.attacker.parsed(load_unit, "attacking in an exchange (it is shot at by the return fire)")
    t = p.target.parsed(load_unit, "shot at in an exchange")
    for key, unit in (("facing", t), ("return_facing", a)):
        if getattr(p, key) is not None and not unit.target.is_vehicle:
            raise ParamError("{" + key + "} applies to vehicles; " + literal(f"{unit.name!r} has no armour facings"))
    step = Exchange("attacker", "target", cover=p.cover, return_cover=p.return_cover, facing=p.facing or "front",
                    return_facing=p.return_facing or "front", moved=p.moved, majority_bs=p.majority_bs,
                    crits_first=not p.crits_last, name="exchange")
    sc = Scenario({"attacker": a, "target": t}, [step], p.turns)
    for role, unit, ref in (("attacker", a, p.attacker), ("target", t, p.target)):
        if not unit.can_shoot():
            raise ParamError("{" + role + "} " + literal(
                f"{ref.written}: no model line fires (bs and weapon = \"NAME\"); in an exchange both units shoot"))
    step.build({"attacker": 0, "target": 1}, sc.units)  # its checks, before the size check and the run
    query: dict[str, Any] = {"attacker": p.attacker.written, "target": p.target.written, "turns": p.turns}
    for key in ("cover", "return_cover", "facing", "return_facing"):
        if getattr(p, key) is not None:
            query[key] = getattr(p, key)
    for key in ("moved", "majority_bs", "crits_last"):
        if getattr(p, key):
            query[key] = True
    return scenario_answer(sc, query)
