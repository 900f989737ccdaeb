"""``hh3``: Horus Heresy 3rd edition — hit, wound, penetrate, shoot."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar, NamedTuple

from ..answer import Answer
from ..core import Dist
from ..rules import hh3 as rules
from ..rules.common import wound_target
from ..rules.hh3.tables import STATUSES, hit_entry
from ..rules.hh3.vehicles import penetration_die
from .described import OMIT, Layout, described, when
from .kinds import Choice, ProfileFile, ProfileRef, Text
from .params import ParamError, Params, literal, param
from .registry import define

SHOW = ("casualties", "wounds-lost", "left", "statuses", "aftermath")


class VehicleStatuses(NamedTuple):
    """Which vehicle statuses the unit holds after the attack."""

    stunned: bool
    pinned: bool
    suppressed: bool


@dataclass(frozen=True, kw_only=True)
class HitParams(rules.HitRolls):
    """A fire group's hit rolls."""

    QUERY: ClassVar[Layout] = ("shots", "bs", "snap", ("hit_table", lambda p: hit_entry(p.bs, p.snap).text),
                               when("reroll_failed"))


@dataclass(frozen=True, kw_only=True)
class WoundParams(rules.WoundRolls):
    """Wound rolls of ordinary hits."""

    QUERY: ClassVar[Layout] = ("strength", "toughness", "hits",
                               ("wound_on", lambda p: str(wound_target(p.strength, p.toughness))),
                               when("reroll_failed"))


@dataclass(frozen=True, kw_only=True)
class PenetrateParams(rules.PenetrationTests):
    """Armour penetration tests."""

    QUERY: ClassVar[Layout] = ("strength", "armour", "hits")


@dataclass(frozen=True, kw_only=True)
class _Units(Params):
    attacker: ProfileRef = param(ProfileFile(), "The firing unit's TOML file.", metavar="ATTACKER.toml")
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file.", metavar="TARGET.toml")


@dataclass(frozen=True, kw_only=True)
class ShootParams(rules.Conditions, _Units):
    """A whole shooting attack from an attacker file at a target file: the attack's
    conditions (every field declared and checked in the rules), what to report."""

    show: str = param(Choice(SHOW), "What to report: models removed, Wounds (Hull Points) lost, left per model, "
                      "vehicle statuses, or the whole aftermath (casualties, panic, routed...).", "casualties")
    stage: str | None = param(Text(), "Report one pipeline stage instead, e.g. 'boltgun: hits' (a wrong name "
                              "lists them).", None, metavar="NAME")

    QUERY: ClassVar[Layout] = (
        ("attacker", lambda p, *_: p.attacker.written), ("target", lambda p, *_: p.target.written),
        ("attacker_name", lambda p, attack: attack.attacker.name),
        ("target_name", lambda p, attack: attack.target.name),
        ("groups", lambda p, attack: [_group(g) for g in attack.groups]),
        ("moved", lambda p, attack: True if p.moved or attack.attacker.moved else OMIT),
        when("majority_bs"), ("not_firing", lambda p, attack: attack.skipped), "cover", "overwatch", "reaction",
        "medic_roll", ("facing", lambda p, attack: p.facing_hit if attack.target.is_vehicle else None),
        ("crits_first", lambda p, *_: not p.crits_last), ("show", lambda p, *_: None if p.stage else p.show), "stage",
    )


def _group(g: rules.FireGroup) -> dict[str, Any]:
    """One fire group as the answer's query lists it."""
    return {"name": g.name, "shots": g.shots_text(), "bs": g.bs, "hit_table": hit_entry(g.bs, g.snap).text,
            "snap": g.snap, **({"traits": sorted(g.weapon.traits)} if g.weapon.traits else {})}


def _statuses(held: tuple[str, ...]) -> VehicleStatuses:
    return VehicleStatuses(*(s in held for s in STATUSES))


@define("hh3", "hit", HitParams)
def hit(p: HitParams) -> Answer:
    """Exact (hits, crits) of a fire group's hit rolls.

    Example (one shot at BS 7: Critical Hit on 5+):

        exactodds hh3 hit --shots 1 --bs 7
    """
    dist = p.run()
    extras = {"mean_hits": dist.map(lambda h: h.hits).mean(), "mean_crits": dist.map(lambda h: h.crits).mean()}
    return Answer(dist, described(p), extras)


@define("hh3", "wound", WoundParams)
def wound(p: WoundParams) -> Answer:
    """Exact number of wounds among ordinary hits (the S vs T chart)."""
    return Answer(p.run(), described(p))


@define("hh3", "penetrate", PenetrateParams)
def penetrate(p: PenetrateParams) -> Answer:
    """Exact (glancing, penetrating) of armour penetration tests: d6 + S vs AV."""
    die = penetration_die(p.strength, p.armour)
    extras = {"p_glancing": die.pmf("glancing"), "p_penetrating": die.pmf("penetrating")}
    return Answer(p.run(), described(p), extras)


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
    attack = rules.ShootingAttack(firer, unit, p)
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
    extras: dict[str, Any] = {"panic": result.panic(), "routed": result.routed(), "destroyed": result.destroyed()}
    if unit.out_of_coherency:
        extras["pinned"] = result.pinned()
    return Answer(dist, described(p, attack), extras)


@dataclass(frozen=True, kw_only=True)
class _UnitFiles(Params):
    attacker: ProfileRef = param(ProfileFile(), "The attacking unit's TOML file (firing and target stats).",
                                 metavar="UNIT.toml")
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file (firing and target stats).",
                               metavar="UNIT.toml")


@dataclass(frozen=True, kw_only=True)
class ExchangeParams(rules.ExchangeOfFire, _UnitFiles):
    """An exchange of fire: the attacker shoots, the target returns fire (every field
    of the exchange declared in the rules), from two unit files."""

    QUERY: ClassVar[Layout] = ("attacker", "target", "turns", *map(when, (
        "cover", "return_cover", "facing", "return_facing", "moved", "majority_bs", "crits_last")))


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
    from .scenario import scenario_answer

    a = p.attacker.parsed(load_unit, "attacking in an exchange (it is shot at by the return fire)")
    t = p.target.parsed(load_unit, "shot at in an exchange")
    return scenario_answer(p.scenario(a, t, (p.attacker.written, p.target.written)), described(p))
