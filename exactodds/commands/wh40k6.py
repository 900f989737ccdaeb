"""``40k6``: Warhammer 40,000 6th edition — hit, wound, shoot, overwatch, charge, fight, morale."""

from __future__ import annotations

from dataclasses import dataclass, replace
from fractions import Fraction
from typing import Any, NamedTuple

from ..answer import Answer
from ..core import Dist, InputError
from ..dice import successes
from ..rules import wh40k6 as rules
from ..rules.common import wound_target
from ..rules.random_count import DiceCount
from ..rules.wh40k6.tables import FACINGS
from ..rules.wh40k6.gets_hot import Firer, shoot_firers, volley_removed
from ..rules.wh40k6.traits import RANGES, WEAPON_RULES
from ..rules.wh40k6.units import WEAPON_TYPES
from ..rules.kinds import DiceExpr
from .kinds import Choice, Count, Flag, Inches, Many, ProfileFile, ProfileRef, SaveOrNone, SaveRoll, Text
from .params import ParamError, Params, literal, param
from .registry import define

OUTCOMES = ("casualties", "unsaved-wounds", "failed-saves")
FIRING_LOST, JOINT = "firing models lost", "casualties and firing models lost"


class CasualtiesAndLost(NamedTuple):
    """A shooting attack whose weapon Gets Hot: the target's casualties and the
    firing models removed."""

    casualties: int
    firing_models_lost: int


class FireEnd(NamedTuple):
    """A unit's shooting attack whose weapons Get Hot: the target's casualties and
    the firing unit's models removed."""

    casualties: int
    attacker_lost: int


@dataclass(frozen=True, kw_only=True)
class _Firing(Params):
    shots: int = param(Count(0, what="a number of shots"),
                       "Shots fired (for template/blast/artillery/no-bs: the models hit).")
    bs: int | None = param(Count(1, 10, "a Ballistic Skill"),
                           "Ballistic Skill 1-10 (required unless the weapon places its hits).", None)
    weapon_type: str = param(Choice(WEAPON_TYPES), "normal rolls to hit with BS; the others place their hits "
                             "and cannot snap fire.", "normal")
    master_crafted: int | None = param(Count(1, what="a number of rerolls"), "Reroll up to K failed hits at the "
                                       "first roll's score (replaces the BS 6+ table).", None, metavar="K")
    reroll_failed: bool = param(Flag(), "Reroll every failed hit at the first roll's score (replaces the BS 6+ "
                                "table).", False)
    rules: tuple[str, ...] = param(Many(Choice(tuple(WEAPON_RULES))), "The weapon's special rules (repeatable): "
                                   + "; ".join(f"{k}: {v}" for k, v in WEAPON_RULES.items()) + ".", ())
    poisoned: int | None = param(SaveRoll("a Poisoned roll: 2+ to 6+"), "Poisoned (X+): wounds on X+ unless the "
                                 "chart needs less (the rule poisoned alone is 4+).", None)
    random_shots: DiceCount | None = param(DiceExpr("random shots"), "Each of the shots firing models fires D3, "
                                           "D6, 2D6, D6+1... shots (then shots counts the models).", None)
    moved: bool = param(Flag(), "The firing unit moved this turn (heavy: snap shots; salvo: half the shots).", False)
    range: str | None = param(Choice(RANGES), "How far the target is: half (within half range) or full (rapid-fire: "
                              "two shots each within half range).", None)
    firers: int | None = param(Count(1, 1000, "a number of firing models"), "Gets Hot: the firing models, the "
                               "shots split evenly among them (default: one per shot; with random shots, the "
                               "shots count the models).", None, metavar="N")
    firer_wounds: int | None = param(Count(1, 10, "a Wounds value"), "Gets Hot: each firing model's Wounds 1-10 "
                                     "(default 1).", None)
    firer_save: int | None = param(SaveRoll("an armour save: 2+ to 6+"), "Gets Hot: each firing model's armour "
                                   "save (default: none).", None)
    firer_invulnerable: int | None = param(SaveRoll("an invulnerable save: 2+ to 6+"), "Gets Hot: each firing "
                                           "model's invulnerable save (default: none).", None)
    firer_feel_no_pain: int | None = param(SaveRoll("a Feel No Pain roll: 2+ to 6+"), "Gets Hot: each firing "
                                           "model's Feel No Pain (default: none).", None)

    def check(self) -> None:
        _check_firers(self)
        if "rapid-fire" in self.rules and self.range is None:
            raise ParamError("{rules} rapid-fire needs {range}: half (two shots each) or full (one shot each)")
        if self.random_shots is not None and ("salvo" in self.rules or "rapid-fire" in self.rules):
            raise ParamError("{random_shots} cannot go with salvo or rapid-fire {rules}: those change a fixed "
                             "number of shots")


@dataclass(frozen=True, kw_only=True)
class _Snap(Params):
    snap: bool = param(Flag(), "Snap shots: BS counts as 1.", False)


@dataclass(frozen=True, kw_only=True)
class _AtUnit(Params):
    strength: int = param(Count(1, 10, "a Strength"), "Weapon Strength 1-10.")
    ap: int | None = param(Count(1, 6, "an AP"), "Weapon AP 1-6 (default: no AP).", None)
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file, models closest first.",
                               metavar="UNIT.toml")
    focus_fire: int | str | None = param(SaveOrNone("a Focus Fire value: a cover save from 2+ to 6+, or none"),
                                         "Focus Fire: wounds only on models with this cover save or worse, or "
                                         "none (only models with no cover save).", None)
    outcome: str = param(Choice(OUTCOMES), "Report models removed; unsaved wounds (capped at what the unit "
                         "can absorb: no save is rolled once every model is removed); or failed saves, "
                         "uncapped (every wound's save rolled, as fast dice do; units whose models all have "
                         "the same save).", "casualties")
    stage: str | None = param(Text(), "Report one stage of the attack instead: hits, wounds, 'unsaved wounds' "
                              "or casualties.", None, metavar="NAME")
    facing: str | None = param(Choice(FACINGS), "Armour facing hit, for a vehicle target (default front).", None)

    def check(self) -> None:
        super().check()  # the firing checks of the commands that mix in _Firing
        if self.stage is not None and _stage_name(self.stage) not in rules.STAGES:
            raise ParamError("{stage} " + literal(f"{self.stage!r} is not a stage; stages are: "
                                                  f"{', '.join(rules.STAGES)}"))


@dataclass(frozen=True, kw_only=True)
class HitParams(_Snap, _Firing):
    """Hit rolls of one shooting attack."""


@dataclass(frozen=True, kw_only=True)
class ShootParams(_AtUnit, _Snap, _Firing):
    """One shooting attack at a unit file."""


@dataclass(frozen=True, kw_only=True)
class OverwatchParams(_AtUnit, _Firing):
    """Overwatch at a charging unit: a shooting attack with snap shots forced."""


@dataclass(frozen=True, kw_only=True)
class WoundParams(Params):
    """Wound rolls of hits against one Toughness."""

    strength: int = param(Count(1, 10, "a Strength"), "Weapon Strength 1-10.")
    toughness: int = param(Count(1, 10, "a Toughness"), "Target Toughness 1-10.")
    hits: int = param(Count(0, what="a number of hits"), "Hits rolling to wound.", 1)


@dataclass(frozen=True, kw_only=True)
class ChargeParams(Params):
    """A charge roll against a distance."""

    distance: Fraction = param(Inches(), "Inches from the first charger to the enemy (e.g. 8 or 7.5).")
    roll: tuple[str, ...] = param(Many(Choice(tuple(rules.CHARGE_ROLLS))), "Charge roll of the unit's models "
                                  "(repeatable; default 2d6). A unit mixing methods charges with the slowest.", ())
    fleet: bool = param(Flag(), "Fleet: a charge roll short of the distance is rerolled once.", False)


@dataclass(frozen=True, kw_only=True)
class FightParams(Params):
    """One fight sub-phase between two unit files."""

    attacker: ProfileRef = param(ProfileFile(), "One unit's TOML file.", metavar="UNIT.toml")
    defender: ProfileRef = param(ProfileFile(), "The other unit's TOML file.", metavar="UNIT.toml")
    attacker_charged: bool = param(Flag(), "The attacker charged this turn: +1 Attack each.", False)
    difficult_terrain: bool = param(Flag(), "The attacker charged through difficult terrain: Initiative 1 "
                                    "without assault grenades.", False)

    def check(self) -> None:
        if self.difficult_terrain and not self.attacker_charged:
            raise ParamError("{difficult_terrain} slows a charge: give it only with {attacker_charged}")


@dataclass(frozen=True, kw_only=True)
class MoraleParams(Params):
    """A morale test."""

    leadership: int = param(Count(1, 10, "a Leadership"), "Leadership 1-10.")
    modifier: int = param(Count(None, None, "a Leadership modifier"), "Added to Leadership (negative: harder, "
                          "e.g. minus a combat result difference).", 0)
    fearless: bool = param(Flag(), "Fearless: the test is passed automatically.", False)
    stubborn: bool = param(Flag(), "Stubborn: negative modifiers are ignored.", False)


def _stage_name(text: str) -> str:
    """A stage as written on the command line: ``unsaved-wounds`` is ``unsaved wounds``."""
    return text.strip().replace("-", " ")


def _failed_saves(unit: rules.Unit, ap: int | None, wounds: Dist) -> Dist:
    """Failed saves among all the wounds, uncapped: one save per wound, when every
    model has the same save (else who is hit decides which save is rolled)."""
    saves = {m.save for m in rules.alloc_models(unit, ap)}
    if len(saves) > 1:
        raise ParamError("{outcome} failed-saves needs models with one save; " + literal(
            f"{unit.name!r} has {', '.join(sorted(str(s) for s in saves))} against this AP, so the save rolled "
            "depends on who is hit") + ": use {outcome} unsaved-wounds")
    fail = 1 - next(iter(saves)).chance()
    return wounds.then(lambda w: successes(w, fail))


FIRER_PARAMS = ("firers", "firer_wounds", "firer_save", "firer_invulnerable", "firer_feel_no_pain")


def _check_firers(p: _Firing) -> None:
    """The firing-model flags go with the gets-hot rule only, and split the shots evenly."""
    given = [n for n in FIRER_PARAMS if getattr(p, n) is not None]
    if "gets-hot" not in p.rules:
        if given:
            flags = ", ".join("{" + n + "}" for n in given)
            raise ParamError(flags + (" describe" if len(given) > 1 else " describes") + " the firing models a "
                             "weapon that Gets Hot wounds: add {rules} gets-hot, or leave "
                             + ("them" if len(given) > 1 else "it") + " out")
        return
    if p.master_crafted is not None:
        raise ParamError("{master_crafted} with {rules} gets-hot is not modelled (which failed dice the rerolls go "
                         "to would need a choice): use {reroll_failed}, twin-linked, or neither")
    if p.firers is None:
        return
    if p.random_shots is not None and p.firers != p.shots:
        raise ParamError("{firers} " + literal(f"{p.firers}") + " with {random_shots}: the {shots} count the "
                         "firing models already; leave {firers} out or give the same number")
    if p.random_shots is None and p.shots % p.firers:
        raise ParamError("{shots} " + literal(f"{p.shots}") + " do not split evenly among {firers} "
                         + literal(f"{p.firers}") + ": give a multiple of the firing models")


def _firers(p: _Firing) -> list[Firer]:
    """The anonymous firing models of a gets-hot attack, one per model."""
    n = p.firers if p.firers is not None else p.shots
    one = Firer(p.firer_wounds or 1, p.firer_save, p.firer_invulnerable, p.firer_feel_no_pain)
    return [one] * n


def _firer_query(p: _Firing) -> dict:
    """The firing models of a gets-hot query, as the answer records them."""
    if "gets-hot" not in p.rules:
        return {}
    out = {"firers": p.firers if p.firers is not None else p.shots, "firer_wounds": p.firer_wounds or 1}
    out.update({n: getattr(p, n) for n in FIRER_PARAMS[2:] if getattr(p, n) is not None})
    return out


def _losses_extras(lost: Dist) -> dict:
    """The figures of the firing models' own losses: P(at least one removed), the
    distribution and mean of models removed."""
    return {"p_firing_model_lost": lost.at_least(1), "firing_models_lost": dict(lost.items()),
            "mean_firing_models_lost": lost.mean()}


def _attack(p: _Firing, snap: bool, strength: int = 1, ap: int | None = None) -> rules.Shooting:
    return rules.Shooting(shots=p.shots, strength=strength, bs=p.bs, ap=ap, snap=snap, weapon_type=p.weapon_type,
                          master_crafted=p.master_crafted, reroll_failed=p.reroll_failed, rules=p.rules,
                          poisoned=p.poisoned, random_shots=p.random_shots, moved=p.moved, range=p.range)


def _weapon_query(p: _Firing) -> dict:
    """The weapon rules of a query, as the answer records them (only those given)."""
    given = {"rules": list(p.rules), "poisoned": p.poisoned,
             "random_shots": None if p.random_shots is None else str(p.random_shots), "moved": p.moved,
             "range": p.range}
    return {k: v for k, v in given.items() if v not in (None, False, [])}


@define("40k6", "hit", HitParams)
def hit(p: HitParams) -> Answer:
    """Exact distribution of the number of hits.

    Example, BS 8 (2+, 1s rerolled at 4+): exactodds 40k6 hit --shots 1 --bs 8
    """
    attack = _attack(p, p.snap)
    query = {"shots": p.shots, "bs": p.bs, "snap": p.snap, "weapon_type": p.weapon_type,
             "master_crafted": p.master_crafted, "reroll_failed": p.reroll_failed, **_weapon_query(p),
             **_firer_query(p)}
    if "gets-hot" not in p.rules:
        return Answer(rules.hits(attack), query)
    joint = volley_removed(attack, _firers(p))
    hits, lost = joint.map(lambda x: x[0]), joint.map(lambda x: x[1])
    return Answer(hits, query, _losses_extras(lost), stages={"hits": hits, FIRING_LOST: lost})


@define("40k6", "wound", WoundParams)
def wound(p: WoundParams) -> Answer:
    """Exact number of wounds among hits of Strength S against Toughness T (the S vs
    T chart: 2+ at S >= T+2 down to 6+ at S = T-3; no wound below).

    Example, 3 bolter hits on Ork Boyz: exactodds 40k6 wound --strength 4 --toughness 4 --hits 3
    """
    target = wound_target(p.strength, p.toughness)
    query = {"strength": p.strength, "toughness": p.toughness, "hits": p.hits, "wound_on": str(target)}
    return Answer(successes(p.hits, target.chance()), query)


def _shooting(p: ShootParams | OverwatchParams, overwatch: bool) -> Answer:
    from ..profiles.wh40k6 import load_target
    from ..rules.wh40k6.vehicles import Vehicle

    unit = p.target.parsed(load_target)
    snap = overwatch or (isinstance(p, ShootParams) and p.snap)
    attack = _attack(p, snap, p.strength, p.ap)
    if isinstance(unit, Vehicle):
        return _at_vehicle(p, attack, unit)
    if p.facing is not None:
        raise ParamError("{facing} applies to vehicles; " + literal(f"{unit.name!r} has no armour facings"))
    hot = "gets-hot" in p.rules
    if hot:
        run, joint = shoot_firers(attack, unit, _firers(p), p.focus_fire, overwatch)
    else:
        run = (rules.overwatch if overwatch else rules.shoot)(attack, unit, p.focus_fire)
    stages = rules.stage_counts(run)
    if p.stage is not None:
        dist = stages[_stage_name(p.stage)]
    elif p.outcome == "failed-saves":
        dist = _failed_saves(unit, p.ap, stages["wounds"])
    else:
        dist = stages["casualties" if p.outcome == "casualties" else "unsaved wounds"]
    query = {"shots": p.shots, "bs": p.bs, "strength": p.strength, "ap": p.ap, "snap": snap,
             "weapon_type": p.weapon_type, "master_crafted": p.master_crafted, "reroll_failed": p.reroll_failed,
             "target": p.target.written, "unit": unit.name, "models": unit.size, "focus_fire": p.focus_fire,
             "outcome": None if p.stage else p.outcome, "stage": None if p.stage is None else _stage_name(p.stage),
             **_weapon_query(p), **_firer_query(p)}
    extras = {"p_unit_destroyed": run.final.pmf(unit.size)} if p.outcome == "casualties" else {}
    extras["mean_hits"] = stages["hits"].mean()
    extras["mean_wounds"] = stages["wounds"].mean()
    if hot:
        lost = joint.map(lambda x: x[1])
        extras.update(_losses_extras(lost))
        stages[FIRING_LOST] = lost
        stages[JOINT] = joint.map(lambda x: CasualtiesAndLost(*x))
    return Answer(dist, query, extras, stages=stages)


def _at_vehicle(p: ShootParams | OverwatchParams, attack: rules.Shooting, vehicle: object) -> Answer:
    """A shooting attack at a vehicle: the joint (Hull Points left, status set)."""
    from ..rules.wh40k6 import vehicles

    if p.outcome != "casualties" or p.focus_fire is not None:
        raise ParamError("{outcome} and {focus_fire} apply to units of models, not to a vehicle")
    assert isinstance(vehicle, vehicles.Vehicle)
    if "gets-hot" in p.rules and p.weapon_type != "normal":
        raise ParamError("{rules} gets-hot with a " + literal(p.weapon_type) + " weapon at a vehicle is not "
                         "modelled (a template or marker that gets hot is not fired): use a unit of models as "
                         "the target, or a weapon that rolls to hit")
    facing = p.facing or "front"
    run = (vehicles.shoot_vehicle(replace(attack, snap=True), vehicle, facing) if isinstance(p, OverwatchParams)
           else vehicles.shoot_vehicle(attack, vehicle, facing))
    final = run.final
    start = vehicle.hull_points if vehicle.hull_left is None else vehicle.hull_left
    query = {"shots": p.shots, "bs": p.bs, "strength": p.strength, "ap": p.ap, "snap": attack.snap,
             "weapon_type": p.weapon_type, "master_crafted": p.master_crafted, "reroll_failed": p.reroll_failed,
             "target": p.target.written, "vehicle": vehicle.name, "facing": facing,
             "armour": vehicle.armour(facing), **_weapon_query(p)}
    extras = {"p_wrecked_or_exploded": final.map(lambda s: s.destroyed()).pmf(True),
              "p_explodes": final.map(lambda s: s.fate == vehicles.EXPLODES).pmf(True),
              "mean_hits": run["hits"].mean(),
              "mean_hull_points_lost": final.map(lambda s: start - s.hull_points).mean()}
    stages = {"hits": run["hits"], vehicles.DAMAGE: final.map(vehicles.result_of)}
    if "gets-hot" in p.rules:  # the firers' losses do not depend on the target: their marginal
        firers = _firers(p)
        lost = volley_removed(replace(attack, snap=True) if isinstance(p, OverwatchParams) else attack,
                              firers).map(lambda x: x[1])
        query.update(_firer_query(p))
        extras.update(_losses_extras(lost))
        stages[FIRING_LOST] = lost
    return Answer(final.map(vehicles.result_of), query, extras, stages=stages)


@define("40k6", "shoot", ShootParams)
def shoot(p: ShootParams) -> Answer:
    """Casualties of one shooting attack: hits, wounds (majority Toughness),
    allocation closest first with Look Out Sir and Focus Fire, saves.

    Example: exactodds 40k6 shoot --shots 20 --bs 4 --strength 4 --ap 5
    --target examples/40k6/guard_squad_in_ruins.toml
    """
    return _shooting(p, overwatch=False)


@define("40k6", "overwatch", OverwatchParams)
def overwatch(p: OverwatchParams) -> Answer:
    """Overwatch at a charging unit: the shooting attack with snap shots forced.

    Example: exactodds 40k6 overwatch --shots 10 --bs 4 --strength 4 --ap 5
    --target examples/40k6/ork_boyz.toml
    """
    return _shooting(p, overwatch=True)


@define("40k6", "charge", ChargeParams)
def charge(p: ChargeParams) -> Answer:
    """Distribution of the charge roll and P(success) at the distance.

    Example: exactodds 40k6 charge --distance 8
    """
    methods = p.roll or ("2d6",)
    used = rules.slowest(methods)
    from ..rules.wh40k6.assault import fleet_charge_roll

    dist = fleet_charge_roll(p.distance, (used,)) if p.fleet else rules.charge_roll(used)
    query: dict[str, Any] = {"distance": str(p.distance), "rolls": list(methods), "charges_with": used}
    if p.fleet:
        query["fleet"] = True
    return Answer(dist, query, {"p_success": rules.p_charge(p.distance, methods, p.fleet)})


@define("40k6", "fight", FightParams)
def fight(p: FightParams) -> Answer:
    """Joint distribution of survivors after one fight sub-phase, and P(fall back).

    Example: exactodds 40k6 fight --attacker examples/40k6/assault_squad.toml
    --defender examples/40k6/ork_boyz.toml --attacker-charged
    """
    from ..profiles.wh40k6 import load_unit

    a, d = p.attacker.parsed(load_unit, True), p.defender.parsed(load_unit, True)
    result = rules.fight(a, d, p.attacker_charged, p.difficult_terrain)
    survivors = result.survivors()
    query = {"attacker": p.attacker.written, "defender": p.defender.written, "attacker_unit": a.name,
             "defender_unit": d.name, "attacker_charged": p.attacker_charged}
    if p.difficult_terrain:
        query["difficult_terrain"] = True
    extras = {
        "p_fall_back": result.p_falls_back(),
        "p_attacker_falls_back": result.p_falls_back("attacker"),
        "p_defender_falls_back": result.p_falls_back("defender"),
        "p_attacker_wins": result.p_wins("attacker"),
        "p_defender_wins": result.p_wins("defender"),
        "mean_attacker_survivors": survivors.map(lambda s: s.attacker_survivors).mean(),
        "mean_defender_survivors": survivors.map(lambda s: s.defender_survivors).mean(),
    }
    return Answer(survivors, query, extras, stages=dict(result.run.stages))


@define("40k6", "morale", MoraleParams)
def morale(p: MoraleParams) -> Answer:
    """A morale test: pass on 2D6 <= Leadership + modifier, always on a double 1.

    Example: exactodds 40k6 morale --leadership 8 --modifier -2
    """
    from ..core import Dist, InputError

    modifier = max(0, p.modifier) if p.stubborn else p.modifier
    dist = Dist.constant("pass") if p.fearless else rules.morale_test(p.leadership, modifier)
    query = {"leadership": p.leadership, "modifier": p.modifier}
    query.update({k: True for k in ("fearless", "stubborn") if getattr(p, k)})
    return Answer(dist, query, {"p_pass": dist.pmf("pass")})


@dataclass(frozen=True, kw_only=True)
class FireParams(Params):
    """Every ranged weapon of a unit file at a target unit, one weapon group after another."""

    attacker: ProfileRef = param(ProfileFile(), "The firing unit's TOML file (model lines with bs and weapon(s), "
                                 "[weapons.NAME] tables).", metavar="UNIT.toml")
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file, models closest first.",
                               metavar="UNIT.toml")
    order: tuple[str, ...] = param(Many(Text()), "Weapons fired first, in this order (repeatable; the others "
                                   "follow in file order).", ())
    range: str | None = param(Choice(RANGES), "half or full range for every weapon (rapid-fire: two shots each "
                              "within half range); default full.", None)
    distance: Fraction | None = param(Inches(), "Inches to the target: each weapon with a range fires if in range "
                                      "(rapid-fire: twice within half of it).", None)
    moved: bool = param(Flag(), "The firing unit moved this turn (heavy: snap shots; salvo: half the shots).", False)
    snap: bool = param(Flag(), "Snap shots (BS 1); weapons that cannot snap fire do not fire.", False)
    focus_fire: int | str | None = param(SaveOrNone("a Focus Fire value: a cover save from 2+ to 6+, or none"),
                                         "Focus Fire: wounds only on models with this cover save or worse, or "
                                         "none.", None)


@define("40k6", "fire", FireParams)
def fire(p: FireParams) -> Answer:
    """Casualties of one shooting attack with every weapon of a unit file:
    group by group, each on the target as the previous groups left it (hits,
    wounds against the majority Toughness of the models in play, allocation
    closest first with Look Out, Sir and Focus Fire, saves).

    Example: exactodds 40k6 fire --attacker examples/40k6/tactical_squad_mixed_weapons.toml
    --target examples/40k6/ork_boyz_sluggas.toml --range half
    """
    from ..profiles.wh40k6 import load_unit
    from ..rules.wh40k6 import exchange

    a, t = p.attacker.parsed(load_unit), p.target.parsed(load_unit)
    if not exchange.can_shoot(a):
        raise ParamError("{attacker} " + literal(f"{a.name!r} cannot shoot: none of its model lines has a ranged "
                                                 "weapon (weapon = \"NAME\" and a [weapons.NAME] table)"))
    hot = exchange.gets_hot_unit(a)
    if hot:
        a0, t0 = rules.casualties.start_state(a), rules.casualties.start_state(t)
        pipe = exchange.fire_both_pipeline(a, t, a0, p.order, p.focus_fire, p.snap, p.moved, p.range, p.distance)
        run = pipe.run(exchange.Sides(t0, a0))
        stages = {name: d.map(lambda s: FireEnd(s.target.casualties(), s.firer.casualties() - a0.casualties()))
                  for name, d in run.stages.items()}
    else:
        pipe = exchange.fire_pipeline(a, t, None, p.order, p.focus_fire, p.snap, p.moved, p.range, p.distance)
        run = pipe.run(rules.casualties.start_state(t))
        stages = {name: d.map(lambda s: s.casualties()) for name, d in run.stages.items()}
    query = {"attacker": p.attacker.written, "target": p.target.written, "attacker_unit": a.name, "unit": t.name,
             "models": t.size, "groups": pipe.names, "range": p.range,
             "distance": None if p.distance is None else str(p.distance), "moved": p.moved, "snap": p.snap,
             "focus_fire": p.focus_fire}
    query = {k: v for k, v in query.items() if v not in (None, False)}
    if hot:
        end = stages[pipe.names[-1]] if pipe.names else Dist.constant(FireEnd(0, 0))
        target_lost = end.map(lambda x: x.casualties)
        extras = {"p_unit_destroyed": target_lost.pmf(t.size),
                  "mean_casualties_after": {name: stages[name].map(lambda x: x.casualties).mean()
                                            for name in pipe.names},
                  "p_attacker_lost": end.prob(lambda x: x.attacker_lost > 0),
                  "mean_attacker_lost": end.map(lambda x: x.attacker_lost).mean()}
        return Answer(end, query, extras, mean=target_lost.mean(), stages=stages)
    casualties = stages[pipe.names[-1]] if pipe.names else Dist.constant(0)
    extras = {"p_unit_destroyed": casualties.pmf(t.size),
              "mean_casualties_after": {name: stages[name].mean() for name in pipe.names}}
    return Answer(casualties, query, extras, stages=stages)


@dataclass(frozen=True, kw_only=True)
class AssaultParams(Params):
    """The whole assault between two unit files."""

    attacker: ProfileRef = param(ProfileFile(), "The charging unit's TOML file.", metavar="UNIT.toml")
    defender: ProfileRef = param(ProfileFile(), "The charged unit's TOML file (its ranged weapons fire "
                                 "Overwatch).", metavar="UNIT.toml")
    distance: Fraction = param(Inches(), "Inches from the first charger to the enemy, 0 to 12.")
    rounds: int = param(Count(1, 20, "a number of rounds"), "Rounds of combat at most (further rounds while "
                        "both units are locked).", 1)
    no_overwatch: bool = param(Flag(), "The charged unit does not fire Overwatch.", False)
    difficult_terrain: bool = param(Flag(), "The charge goes through difficult terrain: 3D6 charge roll, the "
                                    "highest discarded; Initiative 1 without assault grenades.", False)
    stage: str | None = param(Text(), "Report one stage instead: overwatch, charge, 'round 1'...", None,
                              metavar="NAME")

    def check(self) -> None:
        if self.distance > 12:
            raise ParamError("{distance} " + literal(f"{self.distance} is over 12 inches: no charge roll reaches "
                                                     "it (2D6 at most 12)"))


@define("40k6", "assault", AssaultParams)
def assault(p: AssaultParams) -> Answer:
    """The whole assault: Overwatch (snap shots at the charger), the charge roll
    (the slowest method among the charger's survivors), fight rounds by
    Initiative (+1 Attack charging), combat result, morale, sweeping advance.

    Example: exactodds 40k6 assault --attacker examples/40k6/ork_boyz_sluggas.toml
    --defender examples/40k6/tactical_squad_mixed_weapons.toml --distance 7 --rounds 3
    """
    from ..profiles.wh40k6 import load_unit
    from ..rules.scenario import Scenario
    from ..rules.wh40k6.exchange import Assault
    from .scenario import scenario_answer

    try:
        a = p.attacker.parsed(load_unit, True)
    except InputError as e:
        raise ParamError("{attacker} " + literal(e)) from None
    try:
        d = p.defender.parsed(load_unit, True)
    except InputError as e:
        raise ParamError("{defender} " + literal(e)) from None
    sc = Scenario({"attacker": a, "defender": d},
                  [Assault("attacker", "defender", p.distance, p.rounds, not p.no_overwatch, name="assault",
                           difficult_terrain=p.difficult_terrain)])
    stage = None if p.stage is None else (p.stage if p.stage.startswith("assault: ") or p.stage == "start"
                                          else f"assault: {p.stage}")
    answer = scenario_answer(sc, {"attacker": p.attacker.written, "defender": p.defender.written,
                                  "distance": str(p.distance), "rounds": p.rounds,
                                  "overwatch": not p.no_overwatch,
                                  **({"difficult_terrain": True} if p.difficult_terrain else {})}, stage)
    charge = answer.stages["assault: charge"]
    answer.extras["p_charge_fails"] = charge.prob(lambda x: x.attacker_status == "charge failed")
    end = answer.dist
    answer.extras["p_defender_swept"] = end.prob(lambda x: x.defender_status == "swept")
    answer.extras["p_attacker_swept"] = end.prob(lambda x: x.attacker_status == "swept")
    answer.extras["p_still_locked"] = end.prob(lambda x: x.attacker_status == "locked")
    return answer
