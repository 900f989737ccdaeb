"""``exactodds 40k6``: Warhammer 40,000 6th edition — hit, shoot, overwatch,
charge, fight and morale."""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction
from typing import Any

import click

from ..answer import Answer
from ..core import InputError
from ..rules import wh40k6 as rules
from ..rules.wh40k6.units import WEAPON_TYPES
from .common import Count

OUTCOMES = ("casualties", "unsaved-wounds")


class DistanceType(click.ParamType):
    """A distance in inches, 0 or more, read exactly: ``8``, ``7.5`` or ``15/2``."""

    name = "INCHES"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Fraction:
        if isinstance(value, Fraction):
            return value
        try:
            d = Fraction(str(value).strip())
        except (ValueError, ZeroDivisionError):
            self.fail(f"{value!r} is not a distance: use inches as a number 0 or more (e.g. 8, 7.5 or 15/2)",
                      param, ctx)
        if d < 0:
            self.fail(f"{value} is negative: a charge distance is 0 inches or more", param, ctx)
        return d


class CoverType(click.ParamType):
    """A cover save value for Focus Fire: ``2+`` to ``6+`` (or 2 to 6)."""

    name = "X+"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        else:
            text = str(value).strip().removesuffix("+").strip()
        if not text.isdigit() or not 2 <= int(text) <= 6:
            self.fail(f"{value!r} is not a cover value: Focus Fire declares a cover save from 2+ to 6+", param, ctx)
        return int(text)


def _hit_options(f: Callable) -> Callable:
    for opt in reversed([
        click.option("--shots", type=Count(0, what="a number of shots"), required=True,
                     help="Shots fired (for template/blast/artillery/no-bs: the models hit)."),
        click.option("--bs", type=Count(1, 10, "a Ballistic Skill"), default=None,
                     help="Ballistic Skill 1-10 (required unless the weapon places its hits)."),
        click.option("--weapon-type", type=click.Choice(WEAPON_TYPES), default="normal", show_default=True,
                     help="normal rolls to hit with BS; the others place their hits and cannot snap fire."),
        click.option("--master-crafted", type=Count(1, what="a number of rerolls"), default=None, metavar="K",
                     help="Reroll up to K failed hits at the first roll's score (replaces the BS 6+ table)."),
        click.option("--reroll-failed", is_flag=True,
                     help="Reroll every failed hit at the first roll's score (replaces the BS 6+ table)."),
    ]):
        f = opt(f)
    return f


def _target_options(f: Callable) -> Callable:
    for opt in reversed([
        click.option("--strength", type=Count(1, 10, "a Strength"), required=True, help="Weapon Strength 1-10."),
        click.option("--ap", type=Count(1, 6, "an AP"), default=None, help="Weapon AP 1-6 (default: none, '-')."),
        click.option("--target", "target", required=True, metavar="UNIT.toml",
                     help="The target unit's TOML file, models closest first."),
        click.option("--focus-fire", type=CoverType(), default=None,
                     help="Focus Fire: wounds only on models with this cover save or worse, or none."),
        click.option("--outcome", type=click.Choice(OUTCOMES), default="casualties", show_default=True,
                     help="Report models removed, or unsaved wounds."),
    ]):
        f = opt(f)
    return f


def _attack(shots: int, bs: int | None, snap: bool, weapon_type: str, master_crafted: int | None,
            reroll_failed: bool, strength: int = 1, ap: int | None = None) -> rules.Shooting:
    return rules.Shooting(shots=shots, strength=strength, bs=bs, ap=ap, snap=snap, weapon_type=weapon_type,
                          master_crafted=master_crafted, reroll_failed=reroll_failed)


def hit_answer(shots: int, bs: int | None = None, snap: bool = False, weapon_type: str = "normal",
               master_crafted: int | None = None, reroll_failed: bool = False) -> Answer:
    """The exact distribution of hits."""
    attack = _attack(shots, bs, snap, weapon_type, master_crafted, reroll_failed)
    dist = rules.hits(attack)
    query = {"shots": shots, "bs": bs, "snap": snap, "weapon_type": weapon_type,
             "master_crafted": master_crafted, "reroll_failed": reroll_failed}
    return Answer(dist, query)


def shoot_answer(shots: int, bs: int | None, strength: int, target: str, ap: int | None = None,
                 snap: bool = False, weapon_type: str = "normal", master_crafted: int | None = None,
                 reroll_failed: bool = False, focus_fire: int | None = None, outcome: str = "casualties",
                 overwatch: bool = False) -> Answer:
    """Casualties (or unsaved wounds) of one shooting attack on a unit file."""
    from ..profiles.wh40k6 import load_unit

    if outcome not in OUTCOMES:
        raise InputError(f"unknown outcome {outcome!r}: use one of {', '.join(OUTCOMES)}")
    unit = load_unit(target)
    attack = _attack(shots, bs, snap, weapon_type, master_crafted, reroll_failed, strength, ap)
    run = (rules.overwatch if overwatch else rules.shoot)(attack, unit, focus_fire)
    stages = rules.stage_counts(run)
    dist = stages["casualties" if outcome == "casualties" else "unsaved wounds"]
    query = {"shots": shots, "bs": bs, "strength": strength, "ap": ap, "snap": snap or overwatch,
             "weapon_type": weapon_type, "master_crafted": master_crafted, "reroll_failed": reroll_failed,
             "target": target, "unit": unit.name, "models": unit.size, "focus_fire": focus_fire,
             "outcome": outcome}
    extras = {"p_unit_destroyed": run.final.pmf(unit.size)} if outcome == "casualties" else {}
    extras["mean_hits"] = stages["hits"].mean()
    extras["mean_wounds"] = stages["wounds"].mean()
    return Answer(dist, query, extras, stages=stages)


def charge_answer(distance: Fraction, roll: tuple[str, ...] = ()) -> Answer:
    """The charge roll's distribution and P(it reaches ``distance``)."""
    methods = roll or ("2d6",)
    used = rules.slowest(methods)
    dist = rules.charge_roll(used)
    p = rules.p_charge(distance, methods)
    query = {"distance": str(distance), "rolls": list(methods), "charges_with": used}
    return Answer(dist, query, {"p_success": p})


def fight_answer(attacker: str, defender: str, attacker_charged: bool = False) -> Answer:
    """Survivors on both sides after one fight sub-phase, and P(fall back)."""
    from ..profiles.wh40k6 import load_unit

    a, d = load_unit(attacker, melee=True), load_unit(defender, melee=True)
    result = rules.fight(a, d, attacker_charged)
    survivors = result.survivors()
    query = {"attacker": attacker, "defender": defender, "attacker_unit": a.name, "defender_unit": d.name,
             "attacker_charged": attacker_charged}
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


def morale_answer(leadership: int, modifier: int = 0) -> Answer:
    """Pass or fail of a morale test."""
    dist = rules.morale_test(leadership, modifier)
    return Answer(dist, {"leadership": leadership, "modifier": modifier}, {"p_pass": dist.pmf("pass")})


def register(main: click.Group) -> None:
    """Add the ``40k6`` group and its commands to ``main``."""
    from .common import ExactOddsGroup, query_command

    @main.group("40k6", cls=ExactOddsGroup)
    def group() -> None:
        """Warhammer 40,000 6th edition: shooting, Overwatch, charge, fight, morale."""

    @query_command(group, "hit")
    @_hit_options
    @click.option("--snap", is_flag=True, help="Snap shots: BS counts as 1.")
    def hit(**params: Any) -> Answer:
        """Exact distribution of the number of hits.

        Example, BS 8 (2+, 1s rerolled at 4+): exactodds 40k6 hit --shots 1 --bs 8
        """
        return hit_answer(**params)

    @query_command(group, "shoot")
    @_hit_options
    @click.option("--snap", is_flag=True, help="Snap shots: BS counts as 1.")
    @_target_options
    def shoot(**params: Any) -> Answer:
        """Casualties of one shooting attack: hits, wounds (majority Toughness),
        allocation closest first with Look Out Sir and Focus Fire, saves.

        Example: exactodds 40k6 shoot --shots 20 --bs 4 --strength 4 --ap 5
        --target examples/40k6/guard_squad_in_ruins.toml
        """
        return shoot_answer(**params)

    @query_command(group, "overwatch")
    @_hit_options
    @_target_options
    def overwatch(**params: Any) -> Answer:
        """Overwatch at a charging unit: the shooting attack with snap shots forced.

        Example: exactodds 40k6 overwatch --shots 10 --bs 4 --strength 4 --ap 5
        --target examples/40k6/ork_boyz.toml
        """
        return shoot_answer(overwatch=True, **params)

    @query_command(group, "charge")
    @click.option("--distance", type=DistanceType(), required=True,
                  help="Inches from the first charger to the enemy (e.g. 8 or 7.5).")
    @click.option("--roll", type=click.Choice(tuple(rules.CHARGE_ROLLS)), multiple=True,
                  help="Charge roll of the unit's models (repeatable; default 2d6). A unit mixing "
                       "methods charges with the slowest.")
    def charge(**params: Any) -> Answer:
        """Distribution of the charge roll and P(success) at --distance.

        Example: exactodds 40k6 charge --distance 8
        """
        return charge_answer(**params)

    @query_command(group, "fight")
    @click.option("--attacker", required=True, metavar="UNIT.toml", help="One unit's TOML file.")
    @click.option("--defender", required=True, metavar="UNIT.toml", help="The other unit's TOML file.")
    @click.option("--attacker-charged", is_flag=True, help="The attacker charged this turn: +1 Attack each.")
    def fight(**params: Any) -> Answer:
        """Joint distribution of survivors after one fight sub-phase, and P(fall back).

        Example: exactodds 40k6 fight --attacker examples/40k6/assault_squad.toml
        --defender examples/40k6/ork_boyz.toml --attacker-charged
        """
        return fight_answer(**params)

    @query_command(group, "morale")
    @click.option("--leadership", type=Count(1, 10, "a Leadership"), required=True, help="Leadership 1-10.")
    @click.option("--modifier", type=int, default=0, show_default=True,
                  help="Added to Leadership (negative: harder, e.g. minus a combat result difference).")
    def morale(**params: Any) -> Answer:
        """A morale test: pass on 2D6 <= Leadership + modifier, always on a double 1.

        Example: exactodds 40k6 morale --leadership 8 --modifier -2
        """
        return morale_answer(**params)
