"""The inputs of Warhammer 40,000 6th edition's rule steps, as typed parameters.

Each rule step takes one frozen :class:`~exactodds.core.params.Params` class
whose fields carry their kind (what values they take), help text and
default, and whose :meth:`check` refuses bad combinations, naming fields as
``{name}`` placeholders. The command line, query files, sweeps,
``exactodds.ask`` and the calculator are generated from these fields: a new
rule parameter is one field here.

- :class:`Firing`: the to-hit roll of a shooting attack (shots, BS, weapon
  type, rerolls, special rules, the turn);
- :class:`Shooting`: a whole shooting attack (with Strength and AP);
- :class:`Volley`: the firing models a weapon that Gets Hot wounds;
- :class:`ShootingAttack`, :class:`OverwatchAttack`: one shooting attack at
  a unit or a vehicle, Gets Hot included (:func:`.attack.shooting_attack`);
- :class:`Wounding`, :class:`Charging`, :class:`MoraleTest`,
  :class:`Fighting`, :class:`UnitFire`, :class:`Assaulting`: the other steps.

Cost: building one is O(fields) conversions.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from fractions import Fraction

from ...core import Dist
from ...core.kinds import Choice, Count, Flag, Inches, Many, Text
from ...core.params import ParamError, Params, literal, param
from ...dice.kinds import SaveOrNone, SaveRoll
from ..kinds import DiceExpr, ShotPair
from ..random_count import DiceCount
from .assault import CHARGE_ROLLS
from .tables import FACINGS, VEHICLE_MOVED
from .traits import FIRE_MODES, POISONED_DEFAULT, RANGES, WEAPON_RULES

WEAPON_TYPES = ("normal", "template", "blast", "artillery", "no-bs")
"""Weapon types. Only ``normal`` rolls to hit with BS; the others place their
hits by template or marker (or do not use BS) and can never snap fire."""

CANNOT_SNAP = {
    "template": "a template weapon (arme à souffle) cannot fire snap shots",
    "blast": "a blast weapon (explosion) cannot fire snap shots",
    "artillery": "an artillery weapon cannot fire snap shots",
    "no-bs": "an attack that does not use BS can never fire snap shots",
}
"""Artillery, template and blast weapons, and attacks that do not use BS,
can never fire snap shots. Original: "Certain type d'armes, comme pour
l'artillerie et les armes à souffle, ou celles qui suivent des règles
spéciales, comme explosion, ne peuvent pas servir à faire des tirs au jugé.
[...] une attaque de tir n'utilisant pas la CT [...] ne peut jamais servir à
tirer au jugé."""

FOCUS_FIRE = SaveOrNone("a Focus Fire value: a cover save from 2+ to 6+, or none")


@dataclass(frozen=True, kw_only=True)
class Firing(Params):
    """The to-hit roll of one shooting attack: ``shots`` of one weapon by one BS.

    ``bs`` is None only for weapons that do not roll to hit with BS (template,
    blast, artillery, no-bs): their ``shots`` are the models hit.
    ``master_crafted`` is the number K of failed hits that may be rerolled;
    ``reroll_failed`` rerolls every failed hit (one reroll per die). ``rules``
    are the weapon's special rules (:data:`~.traits.WEAPON_RULES`);
    ``poisoned`` is X of Poisoned (X+) (the rule poisoned alone is 4+).
    ``random_shots`` (``"D6"``, ``"2D6"``, ``"D6+1"``...): each of ``shots``
    firing models fires that many. ``salvo`` (X, Y): each of ``shots`` firing
    models fires X shots after moving, Y when stationary (Salvo X/Y).
    ``moved`` (Heavy, Salvo) and ``range`` (Rapid Fire, Melta) describe the turn.
    """

    shots: int = param(Count(0, what="a number of shots"),
                       "Shots fired (for template/blast/artillery/no-bs: the models hit).", keyword=False)
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
    random_shots: DiceCount | str | None = param(DiceExpr("random shots"), "Each of the shots firing models fires D3, "
                                           "D6, 2D6, D6+1... shots (then shots counts the models).", None)
    salvo: tuple[int, int] | None = param(ShotPair("a Salvo X/Y"), "Salvo X/Y: each of the shots firing models "
                                          "fires X shots after moving, Y when stationary or relentless (then shots "
                                          "counts the models).", None)
    moved: bool = param(Flag(), "The firing unit moved this turn (heavy: snap shots; salvo X/Y: X shots each; the "
                        "rule salvo: half the shots).", False)
    range: str | None = param(Choice(RANGES), "How far the target is: half (within half range) or full (rapid-fire: "
                              "two shots each within half range).", None)
    snap: bool = param(Flag(), "Snap shots: BS counts as 1.", False)

    def check(self) -> None:
        super().check()
        rules, wt = set(self.rules), self.weapon_type
        if "gets-hot" in rules and self.master_crafted is not None:
            raise ParamError("{master_crafted} with {rules} gets-hot is not modelled (which failed dice the rerolls "
                             "go to would need a choice): use {reroll_failed}, twin-linked, or neither")
        if "rapid-fire" in rules and self.range is None:
            raise ParamError("{rules} rapid-fire needs {range}: half (two shots each) or full (one shot each)")
        if self.random_shots is not None and (rules & {"salvo", "rapid-fire"} or self.salvo is not None):
            raise ParamError("{random_shots} cannot go with {salvo} or salvo or rapid-fire {rules}: those change a "
                             "fixed number of shots")
        modes = [m for m in FIRE_MODES if m in rules] + (["salvo X/Y"] if self.salvo is not None else [])
        if len(modes) > 1:
            raise ParamError("{rules} " + " and ".join(modes) + ": a weapon has one type (rapid-fire, heavy or "
                             "salvo)")
        rerolls = sorted(rules & {"twin-linked", "preferred-enemy"})
        if self.master_crafted is not None and rerolls:
            raise ParamError("{master_crafted} with {rules} " + " and ".join(rerolls) + ": a die is rerolled at most "
                             "once, and which failed dice the K rerolls go to would need a choice; use one of them")
        if wt != "normal" and {"twin-linked", "preferred-enemy"} & rules:
            raise ParamError("{weapon_type} " + wt + " makes no to-hit roll: {rules} twin-linked and "
                             "preferred-enemy have nothing to reroll (their to-wound reroll is not modelled)")
        if self.moved and wt in CANNOT_SNAP and "heavy" in rules and "relentless" not in rules:
            raise ParamError("{moved}: a heavy weapon fires snap shots after moving, and " + CANNOT_SNAP[wt])
        self._check_to_hit()

    def _check_to_hit(self) -> None:
        wt = self.weapon_type
        if self.snap and wt in CANNOT_SNAP:
            raise ParamError(CANNOT_SNAP[wt])
        if self.master_crafted is not None and self.reroll_failed:
            raise ParamError("{master_crafted} and {reroll_failed} are alternatives: a die is rerolled at most once")
        if wt != "normal":
            if self.bs is not None:
                raise ParamError("a " + wt + " weapon does not roll to hit with BS: give the number of models it "
                                 "hits (under the template or marker) as {shots}, without {bs}")
            if self.master_crafted is not None or self.reroll_failed:
                raise ParamError(("{reroll_failed}" if self.master_crafted is None else "{master_crafted}") + ": a "
                                 + wt + " weapon makes no to-hit roll, so there is nothing to reroll")
        elif self.bs is None:
            raise ParamError("a BS is required ({bs}): give the firing model's Ballistic Skill, 1 to 10")

    def fires_snap(self) -> bool:
        """Snap shots: asked for, or a Heavy weapon whose unit moved (not Relentless)."""
        return self.snap or (self.moved and "heavy" in self.rules and "relentless" not in self.rules)

    def reroll_all_hits(self) -> bool:
        """Every failed to-hit roll is rerolled (twin-linked, or asked for)."""
        return self.reroll_failed or "twin-linked" in self.rules

    def poisoned_on(self) -> int | None:
        """The roll Poisoned wounds on: X of Poisoned (X+), 4 for the rule alone, None without it."""
        if self.poisoned is not None:
            return self.poisoned
        return POISONED_DEFAULT if "poisoned" in self.rules else None

    def counts_models(self) -> bool:
        """Whether ``shots`` counts the firing models (random shots, Salvo X/Y), not the shots."""
        return self.random_shots is not None or self.salvo is not None

    def fires_stationary(self) -> bool:
        """Whether Salvo fires as stationary: the unit did not move, or the weapon is Relentless."""
        return not self.moved or "relentless" in self.rules

    def shot_counts(self) -> Dist:
        """The number of shots fired, as a Dist: ``shots``, or the sum of ``shots``
        random rolls; with Salvo X/Y, ``shots`` models firing X each after moving,
        Y stationary; doubled within half range with Rapid Fire; halved (rounded
        down) after moving with the rule salvo (not Relentless). O(log shots)
        convolutions."""
        if isinstance(self.random_shots, DiceCount):  # text is converted when the input is made
            return self.random_shots.total(self.shots)
        if self.salvo is not None:
            return Dist.constant(self.shots * self.salvo[1 if self.fires_stationary() else 0])
        n = self.shots
        if "rapid-fire" in self.rules and self.range == "half":
            n *= 2
        if "salvo" in self.rules and not self.fires_stationary():
            n //= 2
        return Dist.constant(n)

    def most_shots(self) -> int:
        """The largest number of shots :meth:`shot_counts` can give."""
        return max(self.shot_counts().support())


@dataclass(frozen=True, kw_only=True)
class Shooting(Firing):
    """One shooting attack: :class:`Firing` with the weapon's Strength and AP
    (``Shooting(shots, strength, bs=..., ...)``)."""

    strength: int = param(Count(1, 10, "a Strength"), "Weapon Strength 1-10.", keyword=False)
    ap: int | None = param(Count(1, 6, "an AP"), "Weapon AP 1-6 (default: no AP).", None)


FIRER_FIELDS = ("firers", "firer_wounds", "firer_save", "firer_invulnerable", "firer_feel_no_pain")


@dataclass(frozen=True, kw_only=True)
class Volley(Firing):
    """:class:`Firing` and, for a weapon that Gets Hot, the firing models it wounds:
    anonymous and alike, the shots split evenly among them."""

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
        given = [n for n in FIRER_FIELDS if getattr(self, n) is not None]
        if given and not self.gets_hot():
            flags = ", ".join("{" + n + "}" for n in given)
            raise ParamError(flags + (" describe" if len(given) > 1 else " describes") + " the firing models a "
                             "weapon that Gets Hot wounds: add {rules} gets-hot, or leave "
                             + ("them" if len(given) > 1 else "it") + " out")
        super().check()
        if self.firers is None:
            return
        if self.counts_models() and self.firers != self.shots:
            counting = "{random_shots}" if self.random_shots is not None else "{salvo}"
            raise ParamError("{firers} " + literal(f"{self.firers}") + " with " + counting + ": the {shots} count the "
                             "firing models already; leave {firers} out or give the same number")
        if not self.counts_models() and self.shots % self.firers:
            raise ParamError("{shots} " + literal(f"{self.shots}") + " do not split evenly among {firers} "
                             + literal(f"{self.firers}") + ": give a multiple of the firing models")

    def gets_hot(self) -> bool:
        """Whether the weapon Gets Hot."""
        return "gets-hot" in self.rules

    def wounds_each(self) -> int:
        """Each firing model's Wounds: ``firer_wounds``, 1 by default."""
        return self.firer_wounds or 1

    def firing_models(self) -> int:
        """The number of firing models: ``firers``, else one per shot (or per random roll)."""
        return self.firers if self.firers is not None else self.shots


@dataclass(frozen=True, kw_only=True)
class ShootingAttack(Volley, Shooting):
    """One shooting attack at a unit of models or a vehicle, Gets Hot included
    (:func:`~.attack.shooting_attack`)."""

    focus_fire: int | str | None = param(FOCUS_FIRE, "Focus Fire: wounds only on models with this cover save or "
                                         "worse, or none (only models with no cover save).", None)
    facing: str | None = param(Choice(FACINGS), "Armour facing hit, for a vehicle target (default front).", None)
    morale: bool = param(Flag(), "Morale after shooting: the target, taking this attack as its whole shooting "
                         "phase, tests morale if it lost 25% or more of its models (Leadership and rules from its "
                         "file); the answer is the joint of casualties and status, with P(falls back).", False)

    def facing_hit(self) -> str:
        """The armour facing hit: ``facing``, front by default."""
        return self.facing or "front"


@dataclass(frozen=True, kw_only=True)
class OverwatchAttack(ShootingAttack):
    """Overwatch at a charging unit: a shooting attack with snap shots forced."""

    snap: bool = dataclasses.field(default=True, init=False)
    morale: bool = dataclasses.field(default=False, init=False)
    """Overwatch causes no morale check after shooting."""


@dataclass(frozen=True, kw_only=True)
class Wounding(Params):
    """Wound rolls of hits against one Toughness."""

    strength: int = param(Count(1, 10, "a Strength"), "Weapon Strength 1-10.")
    toughness: int = param(Count(1, 10, "a Toughness"), "Target Toughness 1-10.")
    hits: int = param(Count(0, what="a number of hits"), "Hits rolling to wound.", 1)


@dataclass(frozen=True, kw_only=True)
class Charging(Params):
    """A charge roll against a distance."""

    distance: Fraction = param(Inches(), "Inches from the first charger to the enemy (e.g. 8 or 7.5).")
    roll: tuple[str, ...] = param(Many(Choice(tuple(CHARGE_ROLLS))), "Charge roll of the unit's models "
                                  "(repeatable; default 2d6). A unit mixing methods charges with the slowest.", ())
    fleet: bool = param(Flag(), "Fleet: a charge roll short of the distance rerolls one or both "
                        "dice, the choice that best reaches it.", False)

    def methods(self) -> tuple[str, ...]:
        """The charge roll methods of the unit's models (2D6 when none is given)."""
        return self.roll or ("2d6",)


@dataclass(frozen=True, kw_only=True)
class MoraleTest(Params):
    """A morale test."""

    leadership: int = param(Count(1, 10, "a Leadership"), "Leadership 1-10.")
    modifier: int = param(Count(None, None, "a Leadership modifier"), "Added to Leadership (negative: harder, "
                          "e.g. minus a combat result difference).", 0)
    fearless: bool = param(Flag(), "Fearless: the test is passed automatically.", False)
    stubborn: bool = param(Flag(), "Stubborn: negative modifiers are ignored.", False)


@dataclass(frozen=True, kw_only=True)
class Fighting(Params):
    """One fight sub-phase between two units."""

    attacker_charged: bool = param(Flag(), "The attacker charged this turn: +1 Attack each.", False)
    difficult_terrain: bool = param(Flag(), "The attacker charged through difficult terrain: Initiative 1 "
                                    "without assault grenades.", False)

    def check(self) -> None:
        super().check()
        if self.difficult_terrain and not self.attacker_charged:
            raise ParamError("{difficult_terrain} slows a charge: give it only with {attacker_charged}")


@dataclass(frozen=True, kw_only=True)
class UnitFire(Params):
    """Every ranged weapon of a unit at a target unit, one weapon group after another."""

    order: tuple[str, ...] = param(Many(Text()), "Weapons fired first, in this order (repeatable; the others "
                                   "follow in file order).", ())
    range: str | None = param(Choice(RANGES), "half or full range for every weapon (rapid-fire: two shots each "
                              "within half range); default full.", None)
    distance: Fraction | None = param(Inches(), "Inches to the target: each weapon with a range fires if in range "
                                      "(rapid-fire: twice within half of it).", None)
    moved: bool = param(Flag(), "The firing unit moved this turn (heavy: snap shots; salvo X/Y: X shots each; the "
                        "rule salvo: half the shots).", False)
    snap: bool = param(Flag(), "Snap shots (BS 1); weapons that cannot snap fire do not fire.", False)
    focus_fire: int | str | None = param(FOCUS_FIRE, "Focus Fire: wounds only on models with this cover save or "
                                         "worse, or none.", None)
    morale: bool = param(Flag(), "Morale after shooting: the target, taking this attack as its whole shooting "
                         "phase, tests morale if it lost 25% or more of its models (Leadership and rules from its "
                         "file); the answer is the joint of casualties and status, with P(falls back).", False)


@dataclass(frozen=True, kw_only=True)
class Assaulting(Params):
    """The whole assault between two units."""

    distance: Fraction = param(Inches(), "Inches from the first charger to the enemy, 0 to 12.")
    rounds: int = param(Count(1, 20, "a number of rounds"), "Rounds of combat at most (further rounds while "
                        "both units are locked).", 1)
    no_overwatch: bool = param(Flag(), "The charged unit does not fire Overwatch.", False)
    difficult_terrain: bool = param(Flag(), "The charge goes through difficult terrain: 3D6 charge roll, the "
                                    "highest discarded; Initiative 1 without assault grenades.", False)
    vehicle_moved: str = param(Choice(tuple(VEHICLE_MOVED)), "A charged vehicle's move in its last turn: none "
                               "(blows hit automatically), combat (4+) or flat-out (6+).", "none")

    def check(self) -> None:
        super().check()
        if self.distance > 12:
            raise ParamError("{distance} " + literal(f"{self.distance} is over 12 inches: no charge roll reaches "
                                                     "it (2D6 at most 12)"))
