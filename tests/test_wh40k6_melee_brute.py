"""40K 6th edition close combat with weapons and the army rules, against the
memoised die-by-die simulator (``DieByDie`` in tests/test_wh40k6_brute.py),
by exact equality.

The random units are cut from the shipped unit files (examples/40k6): 1-2
model lines taken from any of them, 1-3 models a side, each line keeping its
own close-combat weapons, fighting with none, or given 1-2 weapons drawn from
the shipped files and the rulebook's table in docs/wh40k6.md (power axe,
maul, lance, lightning claws, thunder hammer, and blades with Rending, Shred,
Poisoned and Sniper), maybe a ``melee_uses``, assault grenades and the
assault rules (Hammer of Wrath, Furious Charge, And They Shall Know No Fear,
...). The engine reads each unit as a unit file (``load_unit``); the
simulator reads the same TOML on its own. Hand-worked identities check the
simulator itself."""

from __future__ import annotations

import json
import tempfile
import tomllib
from fractions import Fraction as F
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from exactodds.profiles.wh40k6 import load_unit
from exactodds.rules.scenario import Scenario
from exactodds.rules.wh40k6 import FightEnd, Melee, Model, Unit, fight
from exactodds.rules.wh40k6.exchange import Fight, assault
from exactodds.rules.wh40k6.melee import MeleeWeapon
from tests.test_wh40k6_brute import DieByDie, sim_fight, tree

ROOT = Path(__file__).resolve().parents[1]

# The rulebook's close-combat weapons as docs/wh40k6.md lists them, and blades with the
# wound rules that close combat shares with shooting.
RULEBOOK = tomllib.loads('''
[weapons."power axe"]
type = "melee"
strength = "+1"
ap = 2
rules = ["unwieldy"]
[weapons."power maul"]
type = "melee"
strength = "+2"
ap = 4
rules = ["concussive"]
[weapons."power lance"]
type = "melee"
strength = "user"
ap = 4
charge_strength = "+1"
charge_ap = 3
[weapons."lightning claw"]
type = "melee"
strength = "user"
ap = 3
rules = ["shred", "specialist-weapon"]
[weapons."thunder hammer"]
type = "melee"
strength = "x2"
ap = 2
rules = ["concussive", "unwieldy", "specialist-weapon"]
[weapons."rending claw"]
type = "melee"
strength = "user"
rules = ["rending"]
[weapons."poisoned blade"]
type = "melee"
strength = 3
rules = ["poisoned"]
[weapons."venom blade"]
type = "melee"
strength = "user"
poisoned = 2
[weapons."sniper blade"]
type = "melee"
strength = "x2"
ap = 5
rules = ["sniper"]
''')["weapons"]

DROPPED = ("bs", "weapon", "weapons", "wounds_left", "count", "name", "character", "look_out_sir")


def _shipped() -> tuple[list[tuple[str, dict, dict]], dict[str, dict]]:
    """(file, model line, its file's close-combat weapons) for every shipped line
    with a close-combat profile, and every close-combat weapon (the rulebook's too)."""
    lines, armoury = [], dict(RULEBOOK)
    for path in sorted((ROOT / "examples" / "40k6").glob("*.toml")):
        doc = tomllib.loads(path.read_text())
        melee = {k: v for k, v in doc.get("weapons", {}).items() if v.get("type") == "melee"}
        armoury.update(melee)
        lines += [(path.stem, m, melee) for m in doc.get("models", []) if "ws" in m]
    return lines, armoury


LINES, ARMOURY = _shipped()
RULES = ("hammer-of-wrath", "furious-charge", "and-they-shall-know-no-fear", "counter-attack", "hatred", "rage",
         "fearless", "stubborn")


@st.composite
def unit_docs(draw: st.DrawFn, prefix: str, max_models: int = 3, max_lines: int = 2) -> dict:
    """A unit file (as a dict) of 1-``max_models`` models in 1-``max_lines``
    lines cut from the shipped files, with close-combat weapons and rules."""
    n = draw(st.integers(1, max_lines))
    counts = [1] * n
    for _ in range(draw(st.integers(0, max_models - n))):
        counts[draw(st.integers(0, n - 1))] += 1
    lines, tables = [], {}
    for j, count in enumerate(counts):
        _, base, own = draw(st.sampled_from(LINES))
        line = {k: v for k, v in base.items() if k not in DROPPED}
        line.update(name=f"{prefix}{j}", count=count)
        if count == 1 and base.get("character"):
            line.update(character=True, look_out_sir=bool(base.get("look_out_sir")))
        kind = draw(st.sampled_from(["own", "none", "drawn", "drawn"]))
        melee = [] if kind == "none" else (
            list(base.get("melee", [])) if isinstance(base.get("melee", []), list) else [base["melee"]])
        if kind == "drawn":
            melee = draw(st.lists(st.sampled_from(sorted(ARMOURY)), min_size=1, max_size=2))
        line.pop("melee", None)
        line.pop("melee_uses", None)
        if melee:
            line.pop("ap", None)
            line["melee"] = melee
            tables.update({w: (own if kind == "own" else ARMOURY)[w] for w in melee})
            if len(set(melee)) > 1 and draw(st.booleans()):
                line["melee_uses"] = draw(st.sampled_from(melee))
        if draw(st.booleans()):     # tougher: Instant Death, Eternal Warrior, Feel No Pain
            line.update(wounds=2, eternal_warrior=draw(st.booleans()))
        if draw(st.integers(0, 3)) == 0:
            line["feel_no_pain"] = "5+"
        extra = draw(st.sets(st.sampled_from(RULES), max_size=2))
        if extra:
            line["rules"] = sorted(set(line.get("rules", [])) | extra)
        if draw(st.booleans()):
            line["grenades"] = ["assault"]
        lines.append(line)
    return {"name": prefix, "models": lines, "weapons": tables}


def toml_value(v: object) -> str:
    """A TOML value: text, a whole number, true/false or a list of them."""
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, list):
        return "[" + ", ".join(toml_value(x) for x in v) + "]"
    return json.dumps(v)


def toml_text(doc: dict) -> str:
    """The unit file of ``doc`` (name, [[models]], [weapons.NAME])."""
    out = [f"name = {toml_value(doc['name'])}"]
    for m in doc["models"]:
        out += ["", "[[models]]"] + [f"{k} = {toml_value(v)}" for k, v in m.items()]
    for name, w in doc["weapons"].items():
        out += ["", f"[weapons.{json.dumps(name)}]"] + [f"{k} = {toml_value(v)}" for k, v in w.items()]
    return "\n".join(out) + "\n"


def engine_units(*docs: dict) -> list[Unit]:
    """The units as the engine reads them from their unit files."""
    with tempfile.TemporaryDirectory() as tmp:
        out = []
        for k, doc in enumerate(docs):
            path = Path(tmp) / f"unit{k}.toml"
            path.write_text(toml_text(doc))
            out.append(load_unit(path, True))
        return out


def plus(v: object) -> int | None:
    """A save or roll written 3 or "3+"."""
    return None if v is None else int(str(v).rstrip("+"))


def sim_weapon(name: str, w: dict) -> dict:
    """A close-combat weapon table as the simulator's dict."""
    rules = set(w.get("rules", ()))
    poisoned = plus(w.get("poisoned")) or (4 if "poisoned" in rules else None)
    return dict(name=name, s=w.get("strength", "user"), ap=w.get("ap"), rules=rules, cs=w.get("charge_strength"),
                cap=w.get("charge_ap"), poisoned=poisoned)


def sim_models(doc: dict) -> list[dict]:
    """The simulator's model dicts, one per model, read from the unit file's dict."""
    out = []
    for m in doc["models"]:
        melee = m.get("melee", [])
        melee = [melee] if isinstance(melee, str) else melee
        a = m["attacks"]
        if isinstance(a, str):     # "D3", "D3+1"
            dice, _, rest = a.upper().partition("D")
            sides, _, add = rest.partition("+")
            a = (int(dice or 1), int(sides), int(add or 0))
        for _ in range(m.get("count", 1)):
            out.append(dict(t=m["toughness"], w=m["wounds"], save=plus(m.get("save")), cover=plus(m.get("cover")),
                            inv=plus(m.get("invulnerable")), char=m.get("character", False),
                            los=m.get("look_out_sir", False), line=m["name"], ws=m["ws"], i=m["initiative"], a=a,
                            s=m["strength"], ap=m.get("ap"), ld=m["leadership"], rules=set(m.get("rules", ())),
                            fnp=plus(m.get("feel_no_pain")), ew=m.get("eternal_warrior", False),
                            grenades="assault" in m.get("grenades", ()),
                            melee=[sim_weapon(n, doc["weapons"][n]) for n in melee], uses=m.get("melee_uses")))
    return out


def engagement_tuple(e) -> tuple:  # noqa: ANN001
    return e.attacker.wounds, e.defender.wounds, e.attacker_status, e.defender_status


def check_fight(a_doc: dict, d_doc: dict, charged: bool, terrain: bool) -> None:
    a, d = engine_units(a_doc, d_doc)
    got = fight(a, d, charged, terrain).final.to_fractions()
    expected = DieByDie(sim_models(a_doc), sim_models(d_doc)).fight(charged, terrain)
    assert got == {FightEnd(*k): v for k, v in expected.items()}


def check_assault(a_doc: dict, d_doc: dict, distance: int, rounds: int, terrain: bool) -> None:
    a, d = engine_units(a_doc, d_doc)
    got = assault(a, d, distance, rounds, overwatch=False, difficult_terrain=terrain).final.map(engagement_tuple)
    expected = DieByDie(sim_models(a_doc), sim_models(d_doc)).assault(distance, rounds, [], terrain)
    assert got.to_fractions() == expected


@settings(max_examples=100, deadline=None)
@given(unit_docs("A"), unit_docs("D"), st.booleans(), st.booleans())
def test_fights_with_weapons_match_the_die_by_die_simulator(a_doc: dict, d_doc: dict, charged: bool,
                                                            terrain: bool) -> None:
    """``40k6 fight``: weapons (Strength modifiers, AP, Unwieldy, two weapons,
    Specialist, rending, shred, poisoned, sniper, the lance on the charge, the
    choice among weapons), Instant Death and Eternal Warrior from the final
    Strength, Hammer of Wrath, Furious Charge, difficult terrain."""
    check_fight(a_doc, d_doc, charged, terrain and charged)


@settings(max_examples=40, deadline=None)
@given(unit_docs("A"), unit_docs("D"), st.integers(2, 10), st.integers(1, 2),
       st.booleans())
def test_assaults_with_weapons_match_the_die_by_die_simulator(a_doc: dict, d_doc: dict, distance: int,
                                                              rounds: int, terrain: bool) -> None:
    """``40k6 assault``: the charge (through difficult terrain: 3D6, the highest
    discarded), rounds with Concussive carried into the next, And They Shall
    Know No Fear against the sweeping advance."""
    check_assault(a_doc, d_doc, distance, rounds, terrain)


@pytest.mark.slow
@settings(max_examples=300, deadline=None)
@given(unit_docs("A", max_models=4, max_lines=3), unit_docs("D", max_models=4, max_lines=3), st.booleans(),
       st.booleans())
def test_more_fights_with_weapons_match_the_die_by_die_simulator(a_doc: dict, d_doc: dict, charged: bool,
                                                                 terrain: bool) -> None:
    check_fight(a_doc, d_doc, charged, terrain and charged)


@pytest.mark.slow
@settings(max_examples=80, deadline=None)
@given(unit_docs("A", max_models=4, max_lines=3), unit_docs("D", max_models=4, max_lines=3), st.integers(2, 10),
       st.integers(1, 3), st.booleans())
def test_more_assaults_with_weapons_match_the_die_by_die_simulator(a_doc: dict, d_doc: dict, distance: int,
                                                                   rounds: int, terrain: bool) -> None:
    check_assault(a_doc, d_doc, distance, rounds, terrain)


@pytest.mark.slow  # the plain tree rolls every die of every blow: seconds to minutes per case
@settings(max_examples=10, deadline=None)
@given(unit_docs("A", max_models=1, max_lines=1), unit_docs("D", max_models=1, max_lines=1), st.booleans(),
       st.booleans())
def test_the_memoised_simulator_matches_the_plain_tree_with_weapons(a_doc: dict, d_doc: dict, charged: bool,
                                                                    terrain: bool) -> None:
    """The two simulators agree on a fight of one model a side."""
    a, d = sim_models(a_doc), sim_models(d_doc)
    terrain = terrain and charged
    assert DieByDie(a, d).fight(charged, terrain) == tree(lambda roll, chance: sim_fight(chance, a, d, charged,
                                                                                          terrain))



# ------------------------------------------------------------ by hand
def one(name: str, ws: int = 4, i: int = 4, a: int = 1, s: int = 4, t: int = 4, w: int = 1, ld: int = 8,
        save: int | None = None, **more: object) -> dict:
    """One model of the simulator."""
    return dict(dict(t=t, w=w, save=save, line=name, ws=ws, i=i, a=a, s=s, ap=None, ld=ld), **more)


def weapon(name: str) -> dict:
    return sim_weapon(name, ARMOURY[name])


def test_one_power_fist_blow_by_hand() -> None:
    # WS4 v WS4 hits on 4+ (1/2); S8 v T4 wounds on 2+ (5/6); AP2 ignores the 3+ save;
    # S8 is double T4: Instant Death takes both Wounds
    fist = one("fist", melee=[weapon("power fist")])
    target = one("target", a=0, i=1, w=2, save=3)
    got = DieByDie([fist], [target]).fight(False)
    assert sum(p for (_, left, _), p in got.items() if left == 0) == F(1, 2) * F(5, 6) == F(5, 12)
    # an Eternal Warrior loses one Wound of two
    ew = DieByDie([fist], [dict(target, ew=True)]).fight(False)
    assert sum(p for (_, left, _), p in ew.items() if left == 0) == 0


def test_the_lance_strikes_harder_on_the_charge_by_hand() -> None:
    # S4 user: +1 and AP3 on the charge (S5 v T4 wounds on 3+, the 3+ save ignored), else S4
    # AP4 (4+, then the 3+ save: 1/3 through); one blow, two on the charge
    lance = one("lance", melee=[weapon("power lance")])
    target = one("target", a=0, i=1, save=3)

    def removed(charged: bool) -> F:
        return sum((p for (_, left, _), p in DieByDie([lance], [target]).fight(charged).items() if left == 0), F(0))
    assert removed(False) == F(1, 2) * F(1, 2) * F(1, 3)
    assert removed(True) == 1 - (1 - F(1, 2) * F(2, 3)) ** 2


def test_furious_charge_adds_after_the_fist_doubles() -> None:
    # S3 x2 = 6, +1 Furious Charge = 7 (not 8): against T4 it wounds on 2+ either way, but
    # against T6 S7 wounds on 3+ where S8 would on 2+; two attacks charging
    ork = one("nob", s=3, melee=[weapon("power fist")], rules={"furious-charge"})
    target = one("target", a=0, i=1, t=6)
    got = DieByDie([ork], [target]).fight(True)
    assert sum(p for (_, left, _), p in got.items() if left == 0) == 1 - (1 - F(1, 2) * F(2, 3)) ** 2


def test_concussion_slows_the_next_round_by_hand() -> None:
    # A (I2, a power maul: S6 AP4 Concussive) and D (I3, 2 Wounds, no save), both Fearless,
    # locked: in round 1 D strikes first and kills A on 1/4; A, alive, wounds D on
    # 1/2 x 5/6 = 5/12 and concusses it, so in round 2 A strikes first: D strikes back only if
    # A's blow fails to kill it (7/12); an unconcussed D strikes first again.
    maul = one("a", i=2, melee=[weapon("power maul")], rules={"fearless"})
    d = one("d", i=3, w=2, rules={"fearless"})
    start = {((1,), (2,), "locked", "locked"): F(1)}
    a_dies = F(1, 4) + F(3, 4) * F(5, 12) * F(7, 12) * F(1, 4) + F(3, 4) * F(7, 12) * F(1, 4)
    assert a_dies == F(311, 768)
    got = DieByDie([maul], [d]).fight_rounds(start, 2, False)
    assert sum(p for k, p in got.items() if k[0] == (0,)) == a_dies
    plain = dict(maul, melee=[dict(weapon("power maul"), rules=set())])
    got = DieByDie([plain], [d]).fight_rounds(start, 2, False)
    assert sum(p for k, p in got.items() if k[0] == (0,)) == F(1, 4) + F(3, 4) * F(1, 4) == F(336, 768)
    # the engine agrees
    unit_a = Unit((Model(4, 1, "a", melee=Melee(4, 2, 1, 4, 8), rules=("fearless",), melee_weapons=("maul",)),),
                  "A", melee_weapons=(MeleeWeapon("maul", "+2", 4, ("concussive",)),))
    unit_d = Unit((Model(4, 2, "d", melee=Melee(4, 3, 1, 4, 8), rules=("fearless",)),), "D")
    run = Scenario({"a": unit_a, "d": unit_d}, [Fight("a", "d", charged=False, rounds=2)]).run()
    assert run.final.prob(lambda w: not w.units[0].alive()) == a_dies


def test_no_fear_keeps_a_caught_unit_in_the_fight_by_hand() -> None:
    # one blow kills one of two Ld 2 models on 1/4 (no charge): the loser tests at Ld 2 - 1,
    # passing on a double 1 only, and the I6 winner always catches the I1 loser (D6 + 6 >=
    # D6 + 1): swept on 1/4 x 35/36, unless it has And They Shall Know No Fear: then it
    # stays locked
    a = one("a", i=6)
    d = [one("d", a=0, i=1, ld=2), one("d", a=0, i=1, ld=2)]
    start = {((1,), (1, 1), "locked", "locked"): F(1)}
    plain = DieByDie([a], d).fight_rounds(start, 1, False)
    assert plain[((1,), (0, 0), "", "swept")] == F(1, 4) * F(35, 36)
    fearless = [dict(m, rules={"and-they-shall-know-no-fear"}) for m in d]
    held = DieByDie([a], fearless).fight_rounds(start, 1, False)
    assert held[((1,), (0, 1), "locked", "locked")] == F(1, 4)
    assert all(k[3] != "swept" for k in held)


def test_hammer_of_wrath_and_difficult_terrain_by_hand() -> None:
    # one automatic S4 hit (wounds on 4+) at Initiative 10 and 1 + 1 Attacks on the charge
    jumper = one("j", a=0, rules={"hammer-of-wrath"})
    target = one("t", a=0, i=1)
    got = DieByDie([jumper], [target]).fight(True)
    assert sum(p for (_, left, _), p in got.items() if left == 0) == 1 - (1 - F(1, 2)) * (1 - F(1, 4))
    # 12" through difficult terrain: the two lowest of 3D6 make 12 only on three 6s
    for terrain, fails in ((False, F(35, 36)), (True, F(215, 216))):
        run = DieByDie([one("a")], [one("d")]).assault(12, 1, [], terrain)
        assert sum(p for k, p in run.items() if k[2] == "charge failed") == fails
    # the slowed charger (I4 -> I1) strikes after the I3 foe, who kills it on 1/4
    slowed = DieByDie([one("a")], [one("d", i=3)]).fight(True, True)
    assert sum(p for (_, left, _), p in slowed.items() if left == 0) == F(3, 4) * (1 - F(3, 4) ** 2)
    grenades = DieByDie([one("a", grenades=True)], [one("d", i=3)]).fight(True, True)
    assert sum(p for (_, left, _), p in grenades.items() if left == 0) == 1 - F(3, 4) ** 2


def test_shipped_lines_are_read_with_their_weapons() -> None:
    stems = {stem for stem, _, _ in LINES}
    assert {"assault_squad", "ork_boyz_sluggas", "terminators", "tactical_squad_mixed_weapons"} <= stems
    assert {"power klaw", "chainfist", "power sword", "thunder hammer"} <= set(ARMOURY)
