"""``40k6``: Warhammer 40,000 6th edition — hit, wound, shoot, overwatch, charge, fight, morale.

Each command's parameters are a rule input of :mod:`exactodds.rules.wh40k6.inputs`
with the presentation fields added (the unit files, what to report); its
compute function is: rule input -> run -> Answer. The answer's ``query``
object is declared beside the fields (``QUERY``, :func:`~.described.described`).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, ClassVar

from ..answer import Answer, UnitFields, Units
from ..core import Dist, InputError
from ..dice import successes
from ..rules import wh40k6 as rules
from ..rules.common import wound_target
from ..rules.wh40k6.attack import JOINT, MORALE
from .described import OMIT, Layout, described, when
from .kinds import Choice, Flag, ProfileFile, ProfileRef, Text
from .params import ParamError, Params, literal, param
from .registry import define

OUTCOMES = ("casualties", "unsaved-wounds", "failed-saves")


def _given(name: str) -> tuple[str, Any]:
    """A parameter shown, as a query file writes it, only when given (not None, false or empty)."""
    def fact(p: Params, *_: Any) -> Any:
        value = getattr(p, name)
        return OMIT if value is None or value is False or value == () else p.specs()[name][0].kind.plain(value)
    return name, fact


def _if_hot(name: str, fact: Any) -> tuple[str, Any]:
    """A fact of the firing models, shown when the weapon Gets Hot."""
    return name, lambda p, *_: fact(p) if p.gets_hot() else OMIT


WEAPON = tuple(_given(n) for n in ("rules", "poisoned", "random_shots", "salvo", "moved", "range"))
"""The weapon's rules and the turn, shown when given."""
FIRERS = (_if_hot("firers", lambda p: p.firing_models()), _if_hot("firer_wounds", lambda p: p.wounds_each()),
          *(_given(n) for n in ("firer_save", "firer_invulnerable", "firer_feel_no_pain")))
"""The firing models a weapon that Gets Hot wounds, shown with it."""


def _on_unit(fact: Any) -> Any:
    """A fact of an attack at a unit of models (left out at a vehicle)."""
    return lambda p, unit, done: OMIT if done.vehicle is not None else fact(p, unit, done)


def _on_vehicle(fact: Any) -> Any:
    """A fact of an attack at a vehicle (left out at a unit of models)."""
    return lambda p, unit, done: OMIT if done.vehicle is None else fact(p, unit, done)


@dataclass(frozen=True, kw_only=True)
class _AtUnit(Params):
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file, models closest first.",
                               metavar="UNIT.toml")
    outcome: str = param(Choice(OUTCOMES), "Report models removed; unsaved wounds (capped at what the unit "
                         "can absorb: no save is rolled once every model is removed); or failed saves, "
                         "uncapped (every wound's save rolled, as fast dice do; units whose models all have "
                         "the same save).", "casualties")
    stage: str | None = param(Text(), "Report one stage of the attack instead: hits, wounds, 'unsaved wounds' "
                              "or casualties.", None, metavar="NAME")

    QUERY: ClassVar[Layout] = (
        "shots", "bs", "strength", "ap", ("snap", lambda p, *_: p.snap), "weapon_type", "master_crafted",
        "reroll_failed", "target", ("unit", _on_unit(lambda p, unit, _: unit.name)),
        ("models", _on_unit(lambda p, unit, _: unit.size)), ("focus_fire", _on_unit(lambda p, *_: p.focus_fire)),
        ("outcome", _on_unit(lambda p, *_: None if p.stage else p.outcome)),
        ("stage", _on_unit(lambda p, *_: None if p.stage is None else _stage_name(p.stage))),
        ("vehicle", _on_vehicle(lambda p, unit, _: unit.name)),
        ("facing", _on_vehicle(lambda p, _, done: done.facts["facing"])),
        ("armour", _on_vehicle(lambda p, _, done: done.facts["armour"])), *WEAPON, *FIRERS, _given("morale"))

    def check(self) -> None:
        super().check()  # the rule input's checks
        if self.stage is not None and _stage_name(self.stage) not in rules.STAGES:
            raise ParamError("{stage} " + literal(f"{self.stage!r} is not a stage; stages are: "
                                                  f"{', '.join(rules.STAGES)}"))


@dataclass(frozen=True, kw_only=True)
class HitParams(rules.Volley):
    """Hit rolls of one shooting attack."""

    QUERY: ClassVar[Layout] = ("shots", "bs", "snap", "weapon_type", "master_crafted", "reroll_failed", *WEAPON,
                               *FIRERS)


@dataclass(frozen=True, kw_only=True)
class ShootParams(_AtUnit, rules.ShootingAttack):
    """One shooting attack at a unit file."""


@dataclass(frozen=True, kw_only=True)
class OverwatchParams(_AtUnit, rules.OverwatchAttack):
    """Overwatch at a charging unit: a shooting attack with snap shots forced."""


@dataclass(frozen=True, kw_only=True)
class WoundParams(rules.Wounding):
    """Wound rolls of hits against one Toughness."""

    QUERY: ClassVar[Layout] = ("strength", "toughness", "hits",
                               ("wound_on", lambda p, *_: str(wound_target(p.strength, p.toughness))))


@dataclass(frozen=True, kw_only=True)
class ChargeParams(rules.Charging):
    """A charge roll against a distance."""

    show_decisions: bool = param(Flag(), "With Fleet: add the decision table (which dice each first roll "
                                 "rerolls, and P(reaching the distance) after it).", False)

    QUERY: ClassVar[Layout] = ("distance", ("rolls", lambda p, *_: list(p.methods())),
                               ("charges_with", lambda p, *_: rules.slowest(p.methods())), when("fleet"))

    def check(self) -> None:
        if self.show_decisions and not self.fleet:
            raise ParamError("{show_decisions} needs {fleet}: only Fleet chooses dice to reroll")
        super().check()


@dataclass(frozen=True, kw_only=True)
class _TwoUnits(Params):
    attacker: ProfileRef = param(ProfileFile(), "One unit's TOML file.", metavar="UNIT.toml")
    defender: ProfileRef = param(ProfileFile(), "The other unit's TOML file.", metavar="UNIT.toml")


@dataclass(frozen=True, kw_only=True)
class FightParams(rules.Fighting, _TwoUnits):
    """One fight sub-phase between two unit files."""

    QUERY: ClassVar[Layout] = ("attacker", "defender", ("attacker_unit", lambda p, a, d: a.name),
                               ("defender_unit", lambda p, a, d: d.name), "attacker_charged",
                               when("difficult_terrain"))


@dataclass(frozen=True, kw_only=True)
class MoraleParams(rules.MoraleTest):
    """A morale test."""

    QUERY: ClassVar[Layout] = ("leadership", "modifier", when("fearless"), when("stubborn"))


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


@define("40k6", "hit", HitParams)
def hit(p: HitParams) -> Answer:
    """Exact distribution of the number of hits.

    Example, BS 8 (2+, 1s rerolled at 4+): exactodds 40k6 hit --shots 1 --bs 8
    """
    done = rules.hit_attack(p)
    return Answer(done.final, described(p), done.extras, stages=done.stages)


@define("40k6", "wound", WoundParams)
def wound(p: WoundParams) -> Answer:
    """Exact number of wounds among hits of Strength S against Toughness T (the S vs
    T chart: 2+ at S >= T+2 down to 6+ at S = T-3; no wound below).

    Example, 3 bolter hits on Ork Boyz: exactodds 40k6 wound --strength 4 --toughness 4 --hits 3
    """
    target = wound_target(p.strength, p.toughness)
    return Answer(successes(p.hits, target.chance()), described(p))


def _shooting(p: ShootParams | OverwatchParams) -> Answer:
    from ..profiles.wh40k6 import load_target

    unit = p.target.parsed(load_target)
    done = rules.shooting_attack(p, unit)
    if done.vehicle is not None:
        if p.outcome != "casualties":
            raise ParamError("{outcome} applies to units of models, not to a vehicle")
        return Answer(done.final, described(p, unit, done), done.extras, stages=done.stages)
    stage = None if p.stage is None else _stage_name(p.stage)
    if stage is not None:
        dist = done.stages[stage]
    elif p.outcome == "failed-saves":
        dist = _failed_saves(unit, p.ap, done.stages["wounds"])
    else:
        dist = done.stages["casualties" if p.outcome == "casualties" else "unsaved wounds"]
    extras = {"p_unit_destroyed": done.final.pmf(unit.size)} if p.outcome == "casualties" else {}
    if p.morale:
        if p.outcome != "casualties":
            raise ParamError("{morale} reports casualties and status: give it without {outcome}")
        return Answer(dist if stage is not None else done.stages[MORALE], described(p, unit, done),
                      {**extras, **done.extras}, stages=done.stages, units=_morale_units(unit))
    return Answer(dist, described(p, unit, done), {**extras, **done.extras}, stages=done.stages,
                  units=_shoot_units(unit, p.firing_models()) if JOINT in done.stages else None)


def _morale_units(unit: Any) -> Units:
    """The target of an attack with the morale check after it, from its joint stage
    (casualties and status)."""
    return Units({"target": UnitFields("casualties", "status", unit.name, unit.size, lost=True,
                                       stage=MORALE)})


def _shoot_units(unit: Any, firers: int) -> Units:
    """The target and the firing models of a gets-hot attack, from its joint stage."""
    return Units({"target": UnitFields("casualties", name=unit.name, size=unit.size, lost=True, stage=JOINT),
                  "firing": UnitFields("firing_models_lost", name="firing models", size=firers, lost=True,
                                       stage=JOINT)})


@define("40k6", "shoot", ShootParams)
def shoot(p: ShootParams) -> Answer:
    """Casualties of one shooting attack: hits, wounds (majority Toughness),
    allocation closest first with Look Out Sir and Focus Fire, saves.

    Example: exactodds 40k6 shoot --shots 20 --bs 4 --strength 4 --ap 5
    --target examples/40k6/guard_squad_in_ruins.toml
    """
    return _shooting(p)


@define("40k6", "overwatch", OverwatchParams)
def overwatch(p: OverwatchParams) -> Answer:
    """Overwatch at a charging unit: the shooting attack with snap shots forced.

    Example: exactodds 40k6 overwatch --shots 10 --bs 4 --strength 4 --ap 5
    --target examples/40k6/ork_boyz.toml
    """
    return _shooting(p)


@define("40k6", "charge", ChargeParams)
def charge(p: ChargeParams) -> Answer:
    """Distribution of the charge roll and P(success) at the distance.

    Example: exactodds 40k6 charge --distance 8
    """
    from ..rules.wh40k6.assault import fleet_charge_roll, fleet_decisions

    methods = p.methods()
    used = rules.slowest(methods)
    dist = fleet_charge_roll(p.distance, (used,)) if p.fleet else rules.charge_roll(used)
    query = described(p)
    extras: dict[str, Any] = {"p_success": rules.p_charge(p.distance, methods, p.fleet)}
    if p.show_decisions:
        extras["decisions"] = fleet_decisions(p.distance, (used,))
    return Answer(dist, query, extras)


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
    query = described(p, a, d)
    extras = {
        "p_fall_back": result.p_falls_back(),
        "p_attacker_falls_back": result.p_falls_back("attacker"),
        "p_defender_falls_back": result.p_falls_back("defender"),
        "p_attacker_wins": result.p_wins("attacker"),
        "p_defender_wins": result.p_wins("defender"),
        "mean_attacker_survivors": survivors.map(lambda s: s.attacker_survivors).mean(),
        "mean_defender_survivors": survivors.map(lambda s: s.defender_survivors).mean(),
    }
    units = Units({side: UnitFields(f"{side}_survivors", name=u.name, size=u.size,
                                    figures=(("falls back", f"p_{side}_falls_back"),))
                   for side, u in (("attacker", a), ("defender", d))},
                  shown=("mean_attacker_survivors", "mean_defender_survivors"))
    return Answer(survivors, query, extras, stages=dict(result.run.stages), units=units)


@define("40k6", "morale", MoraleParams)
def morale(p: MoraleParams) -> Answer:
    """A morale test: pass on 2D6 <= Leadership + modifier, always on a double 1.

    Example: exactodds 40k6 morale --leadership 8 --modifier -2
    """
    modifier = max(0, p.modifier) if p.stubborn else p.modifier
    dist = Dist.constant("pass") if p.fearless else rules.morale_test(p.leadership, modifier)
    query = described(p)
    return Answer(dist, query, {"p_pass": dist.pmf("pass")})


@dataclass(frozen=True, kw_only=True)
class _FireUnits(Params):
    attacker: ProfileRef = param(ProfileFile(), "The firing unit's TOML file (model lines with bs and weapon(s), "
                                 "[weapons.NAME] tables).", metavar="UNIT.toml")
    target: ProfileRef = param(ProfileFile(), "The target unit's TOML file, models closest first.",
                               metavar="UNIT.toml")


@dataclass(frozen=True, kw_only=True)
class FireParams(rules.UnitFire, _FireUnits):
    """Every ranged weapon of a unit file at a target unit, one weapon group after another."""

    QUERY: ClassVar[Layout] = ("attacker", "target", ("attacker_unit", lambda p, a, t, done: a.name),
                               ("unit", lambda p, a, t, done: t.name), ("models", lambda p, a, t, done: t.size),
                               ("groups", lambda p, a, t, done: done.facts["groups"]),
                               *(_given(n) for n in ("range", "distance", "moved", "snap", "focus_fire",
                                                     "morale")))




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
    done = rules.unit_fire(p, a, t)
    if p.morale:
        return Answer(done.stages[MORALE], described(p, a, t, done), done.extras, stages=done.stages,
                      units=_morale_units(t))
    units = Units({"target": UnitFields("casualties", name=t.name, size=t.size, lost=True),
                   "firing": UnitFields("attacker_lost", name=a.name, size=a.size, lost=True)})
    return Answer(done.final, described(p, a, t, done), done.extras, mean=done.mean, stages=done.stages,
                  units=units if exchange.gets_hot_unit(a) else None)


@dataclass(frozen=True, kw_only=True)
class _AssaultUnits(Params):
    attacker: ProfileRef = param(ProfileFile(), "The charging unit's TOML file.", metavar="UNIT.toml")
    defender: ProfileRef = param(ProfileFile(), "The charged unit's TOML file (its ranged weapons fire "
                                 "Overwatch).", metavar="UNIT.toml")


@dataclass(frozen=True, kw_only=True)
class AssaultParams(rules.Assaulting, _AssaultUnits):
    """The whole assault between two unit files."""

    stage: str | None = param(Text(), "Report one stage instead: overwatch, charge, 'round 1'...", None,
                              metavar="NAME")

    QUERY: ClassVar[Layout] = ("attacker", "defender", "distance", "rounds",
                               ("overwatch", lambda p, *d: OMIT if d else not p.no_overwatch),
                               when("difficult_terrain"), ("vehicle_moved", lambda p, *d: p.vehicle_moved if d else OMIT))


def _defender(ref: ProfileRef) -> Any:
    """The charged unit's file: a unit with close-combat profiles, or a vehicle."""
    from ..profiles.wh40k6 import load_target, load_unit
    from ..rules.wh40k6.vehicles import Vehicle

    try:
        return ref.parsed(load_unit, True)
    except InputError as e:
        try:
            target = ref.parsed(load_target)
        except InputError:
            target = None
        if not isinstance(target, Vehicle):
            raise ParamError("{defender} " + literal(e)) from None
        return target


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
    d = _defender(p.defender)
    vehicle = getattr(d, "is_vehicle", False)
    if vehicle and p.rounds != 1:
        raise ParamError("{rounds} " + literal(f"{p.rounds}") + ": a charged vehicle is not locked in combat, so "
                         "there is one round of blows; leave {rounds} at 1")
    if not vehicle and p.vehicle_moved != "none":
        raise ParamError("{vehicle_moved} " + literal(p.vehicle_moved) + " describes a charged vehicle, but the "
                         "{defender} is a unit of models: leave it out")
    sc = Scenario({"attacker": a, "defender": d},
                  [Assault("attacker", "defender", p.distance, p.rounds, not p.no_overwatch, name="assault",
                           difficult_terrain=p.difficult_terrain, vehicle_moved=p.vehicle_moved)])
    if vehicle:
        return _vehicle_answer(p, sc)
    stage = None if p.stage is None else (p.stage if p.stage.startswith("assault: ") or p.stage == "start"
                                          else f"assault: {p.stage}")
    answer = scenario_answer(sc, described(p), stage)
    charge = answer.stages["assault: charge"]
    end = answer.dist
    shown = ("p_charge_fails", "p_defender_swept", "p_attacker_swept", "p_still_locked")  # in the unit blocks
    assert answer.units is not None  # a scenario's answer declares its units
    return replace(answer, units=replace(answer.units, shown=shown), extras={
        **answer.extras,
        "p_charge_fails": charge.prob(lambda x: x.attacker_status == "charge failed"),
        "p_defender_swept": end.prob(lambda x: x.defender_status == "swept"),
        "p_attacker_swept": end.prob(lambda x: x.attacker_status == "swept"),
        "p_still_locked": end.prob(lambda x: x.attacker_status == "locked")})


def _vehicle_answer(p: AssaultParams, sc: Any) -> Answer:
    """A charge at a vehicle: the joint (charger's models left and status, the
    vehicle's Hull Points left and status), P(charge fails), P(wrecked),
    P(explodes), P(immobilised) and the mean Hull Points left."""
    from .scenario import scenario_answer

    stage = None if p.stage is None else (p.stage if p.stage.startswith("assault: ") or p.stage == "start"
                                          else f"assault: {p.stage}")
    answer = scenario_answer(sc, described(p, sc.units["defender"]), stage)
    end = answer.dist
    extras = {
        **answer.extras,
        "p_charge_fails": answer.stages["assault: charge"].prob(lambda x: x.attacker_status == "charge failed"),
        "p_wrecked": end.prob(lambda x: x.defender_status == "wrecked"),
        "p_explodes": end.prob(lambda x: x.defender_status == "explodes"),
        "p_immobilised": end.prob(lambda x: "immobilised" in x.defender_status),
        "mean_hull_points_left": end.map(lambda x: x.defender).mean(),
    }
    del extras["mean_survivors"]["defender"]  # a vehicle's are its Hull Points
    assert answer.units is not None  # a scenario's answer declares its units
    shown = ("p_charge_fails", "p_wrecked", "p_explodes", "p_immobilised", "mean_hull_points_left")
    return replace(answer, units=replace(answer.units, shown=shown), extras=extras)
