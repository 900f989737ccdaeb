"""Importing BattleScribe / New Recruit rosters (``exactodds import``) and points
efficiency (``compare --per-points``).

The fixture rosters are written in the roster schema as both programs export
it: examples/rosters/space_marines.ros as BattleScribe does (every cost type on
every selection, zeros included, as decimals; a child force), and
examples/rosters/ork_boyz.rosz as New Recruit does (zipped, integer costs, zero
costs left out); tests/fixtures/rosters/legion_hh3.ros is a Horus Heresy 3rd
edition roster.
"""

from __future__ import annotations

import json
import os
import re
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds import Query
from exactodds.cli import main
from exactodds.core import InputError
from exactodds.profiles.rosters import read_roster
from exactodds.profiles.wh40k6 import load_unit

ROOT = Path(__file__).resolve().parent.parent
MARINES = ROOT / "examples" / "rosters" / "space_marines.ros"
ORKS = ROOT / "examples" / "rosters" / "ork_boyz.rosz"
LEGION = ROOT / "tests" / "fixtures" / "rosters" / "legion_hh3.ros"
TACTICAL = ROOT / "examples" / "40k6" / "tactical_squad_mixed_weapons.toml"


def cli(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def units(path: Path) -> dict:
    return {stem: unit for stem, unit in read_roster(path)[1]}


# ----------------------------------------------------------------- field by field
def test_tactical_squad_field_by_field() -> None:
    system, files, skipped = read_roster(MARINES)
    assert system == "40k6"
    assert [stem for stem, _ in files] == ["tactical_squad", "rhino", "terminator_squad"]  # the child force's too
    assert skipped == ["Chapter Tactics: Ultramarines: not a unit (no model profile): not imported"]
    tac = dict(files)["tactical_squad"]
    assert tac.top == {"name": "Tactical Squad", "points": 185}  # 14 + 126 + 15 + 15 + 15
    atsknf = ["and-they-shall-know-no-fear"]
    marine = dict(toughness=4, wounds=1, save=3, rules=atsknf, ws=4, initiative=4, attacks=1, strength=4,
                  leadership=8, grenades=["assault"], bs=4)  # frag grenades are assault grenades
    assert tac.models == [
        dict(name="Space Marine Sergeant", toughness=4, wounds=1, save=3, character=True, rules=atsknf,
             look_out_sir=True, ws=4, initiative=4, attacks=2, strength=4, leadership=9, grenades=["assault"], bs=4,
             weapon="bolt pistol", melee=["power sword", "bolt pistol (close combat)"]),  # two weapons: +1 Attack
        dict(name="Space Marine with boltgun", count=7, **marine, weapon="boltgun"),  # one pistol: no melee
        dict(name="Space Marine with plasma gun", **marine, weapon="plasma gun"),
        dict(name="Space Marine with missile launcher", **marine, weapon="missile launcher"),
    ]
    assert tac.weapons == {
        "bolt pistol": {"range": 12, "strength": 4, "ap": 5},
        "power sword": {"type": "melee", "strength": "user", "ap": 3},
        "bolt pistol (close combat)": {"type": "melee", "strength": "user"},
        "boltgun": {"range": 24, "strength": 4, "ap": 5, "rules": ["rapid-fire"]},
        "plasma gun": {"range": 24, "strength": 7, "ap": 2, "rules": ["gets-hot", "rapid-fire"]},
        "missile launcher": {"range": 48, "strength": 8, "ap": 3, "shots": 1, "rules": ["heavy"]},
    }
    assert "weapon missile launcher: fires its Krak missile profile (also: Frag missile)" in tac.comments
    assert "Space Marine with boltgun: grenades not imported: Krak grenades" in tac.comments
    assert tac.warnings == ["Tactical Squad: rule not modelled: Combat Squads"]


def test_rhino_and_terminators() -> None:
    found = units(MARINES)
    rhino = found["rhino"]
    assert rhino.top == {"name": "Rhino", "points": 35}
    assert rhino.models == [dict(name="Rhino", front=11, side=11, rear=10, hull_points=3)]
    assert rhino.warnings == ["Rhino: vehicle weapons not imported (a firing vehicle is not modelled): Storm bolter",
                              "Rhino: rule not modelled: Repair"]
    term = found["terminator_squad"]
    assert term.top["points"] == 200
    sergeant, terminators = term.models
    assert sergeant["invulnerable"] == 5 and sergeant["save"] == 2 and sergeant["melee"] == "power sword"
    assert "ap" not in sergeant  # the weapon's AP, not the line's
    assert terminators == dict(name="Terminator", count=4, toughness=4, wounds=1, save=2, invulnerable=5,
                               rules=["and-they-shall-know-no-fear"], ws=4, initiative=4, attacks=2, strength=4,
                               leadership=9, bs=4, weapon="storm bolter", melee="power fist")
    assert term.weapons == {"storm bolter": {"range": 24, "strength": 4, "ap": 5, "shots": 2},
                            "power sword": {"type": "melee", "strength": "user", "ap": 3},
                            "power fist": {"type": "melee", "strength": "x2", "ap": 2,
                                           "rules": ["specialist-weapon", "unwieldy"]}}
    assert term.warnings == ["Terminator Squad: rule not modelled: Deep Strike"]


def test_ork_mob_from_new_recruit_zip() -> None:
    found = units(ORKS)
    klaw, shoota = found["klaw_boyz"], found["shoota_mob"]
    assert klaw.top == {"name": "Klaw Boyz", "points": 101}  # 60 + 16 + 25
    assert shoota.top == {"name": "Shoota Mob", "points": 84}  # 72 + 12
    boy, nob = klaw.models
    assert boy == dict(name="Ork Boy", count=10, toughness=4, wounds=1, save=6, rules=["furious-charge"], ws=4,
                       initiative=2, attacks=2, strength=3, leadership=7, bs=2, weapon="slugga",
                       melee=["slugga (close combat)", "choppa"])
    assert nob == dict(name="Boss Nob", toughness=4, wounds=2, save=6, character=True, rules=["furious-charge"],
                       look_out_sir=True, ws=4, initiative=3, attacks=3, strength=4, leadership=7, bs=2,
                       weapon="slugga", melee=["slugga (close combat)", "power klaw"])
    assert klaw.weapons == {"slugga": {"range": 12, "strength": 4, "ap": 6},
                            "slugga (close combat)": {"type": "melee", "strength": "user"},
                            "choppa": {"type": "melee", "strength": "user"},
                            "power klaw": {"type": "melee", "strength": "x2", "ap": 2,
                                           "rules": ["specialist-weapon", "unwieldy"]}}
    assert klaw.warnings == ["Klaw Boyz: rule not modelled: Mob Rule", "Klaw Boyz: rule not modelled: Waaagh!"]
    assert shoota.weapons == {"shoota": {"range": 18, "strength": 4, "ap": 6, "shots": 2}}


def test_horus_heresy_squad_and_rhino() -> None:
    system, files, _ = read_roster(LEGION)
    assert system == "hh3"
    squad, rhino = (u for _, u in files)
    assert squad.top == {"name": "Legion Tactical Squad", "leadership": 8, "cool": 7, "points": 100}
    assert squad.models == [
        dict(name="Legionary", count=9, toughness=4, wounds=1, save=3, bs=4, weapon="bolter"),
        dict(name="Legion Sergeant", toughness=4, wounds=1, save=3, bs=4, weapon="bolt pistol"),
    ]
    assert squad.weapons == {"bolter": {"firepower": 2, "strength": 4, "ap": 5, "damage": 1},
                             "bolt pistol": {"firepower": 1, "strength": 4, "ap": 5, "damage": 1}}
    assert "Legion Tactical Squad: rule not modelled: Line (1)" in squad.warnings
    assert rhino.models == [dict(name="Legion Rhino", armour={"front": 11, "side": 11, "rear": 10}, hull_points=3)]
    assert rhino.top["points"] == 35


def _roster_total(path: Path) -> F:
    text = path.read_text(encoding="utf-8")
    return F(re.search(r'<costs>\s*<cost name="pts" typeId="points" value="([0-9.]+)"', text).group(1))


def test_unit_points_sum_to_the_roster_total() -> None:
    assert sum(u.top["points"] for u in units(MARINES).values()) == _roster_total(MARINES) == 420


# ----------------------------------------------------------------- end to end
def test_imported_tactical_squad_is_the_example_as_a_target(tmp_path: Path) -> None:
    r = cli("import", MARINES, "--out", tmp_path / "army")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines()[0] == f"{tmp_path / 'army' / 'tactical_squad.toml'}: Tactical Squad (185 points, 4 model lines)"
    assert "warning: Tactical Squad: rule not modelled: Combat Squads" in r.stderr.splitlines()
    text = (tmp_path / "army" / "tactical_squad.toml").read_text()
    assert "# rule not modelled: Combat Squads" in text and "points = 185" in text
    for extra in ([], ["--rules", "rending"], ["--focus-fire", "3+"]):
        mine = cli("40k6", "shoot", "--shots", "12", "--bs", "4", "--strength", "8", "--ap", "3", *extra,
                   "--target", tmp_path / "army" / "tactical_squad.toml", "--format", "json")
        theirs = cli("40k6", "shoot", "--shots", "12", "--bs", "4", "--strength", "8", "--ap", "3", *extra,
                     "--target", TACTICAL, "--format", "json")
        a, b = json.loads(mine.stdout), json.loads(theirs.stdout)
        a["query"].pop("target"), b["query"].pop("target")
        assert a == b


KLAW_BOYZ = """
name = "Klaw Boyz"
[[models]]
name = "Ork Boy"
count = 10
toughness = 4
wounds = 1
save = 6
rules = ["furious-charge"]
ws = 4
initiative = 2
attacks = 2
strength = 3
leadership = 7
melee = ["choppa", "slugga"]
[[models]]
name = "Boss Nob"
toughness = 4
wounds = 2
save = 6
character = true
look_out_sir = true
rules = ["furious-charge"]
ws = 4
initiative = 3
attacks = 3
strength = 4
leadership = 7
melee = ["power klaw", "slugga"]
[weapons.choppa]
type = "melee"
strength = "user"
[weapons.slugga]
type = "melee"
strength = "user"
[weapons."power klaw"]
type = "melee"
strength = "x2"
ap = 2
rules = ["unwieldy", "specialist-weapon"]
"""


def test_imported_ork_mob_assaults(tmp_path: Path) -> None:
    r = cli("import", ORKS, "--out", tmp_path / "my_army")
    assert r.exit_code == 0, r.stderr
    assert r.stdout.splitlines() == [f"{tmp_path / 'my_army' / 'klaw_boyz.toml'}: Klaw Boyz (101 points, 2 model lines)",
                                     f"{tmp_path / 'my_army' / 'shoota_mob.toml'}: Shoota Mob (84 points, 1 model line)"]
    (tmp_path / "by_hand.toml").write_text(KLAW_BOYZ)
    # the sluggas fire no Overwatch (the defender fires it): the answer is that of the hand-written mob
    ask = {"defender": str(TACTICAL), "distance": 7}
    imported = Query("40k6", "assault", {"attacker": str(tmp_path / "my_army" / "klaw_boyz.toml"), **ask}).answer()
    by_hand = Query("40k6", "assault", {"attacker": str(tmp_path / "by_hand.toml"), **ask}).answer()
    assert imported.dist == by_hand.dist
    r = cli("40k6", "assault", "--attacker", tmp_path / "my_army" / "klaw_boyz.toml", "--defender", TACTICAL,
            "--distance", "7", "--format", "json")
    assert r.exit_code == 0 and json.loads(r.stdout)["query"]["units"] == {"attacker": "Klaw Boyz",
                                                                          "defender": "Tactical Squad"}


SLUGGA_BOYZ = ROOT / "tests" / "fixtures" / "rosters" / "ork_boyz_sluggas.ros"
"""The unit of examples/40k6/ork_boyz_sluggas.toml as a roster: 19 Boyz with slugga and choppa, a Nob
with slugga and power klaw; with the data's Furious Charge, which the hand-written file leaves out."""


def _assault_json(attacker: Path, defender: Path, *extra: str) -> dict:
    r = cli("40k6", "assault", "--attacker", attacker, "--defender", defender, *extra, "--format", "json")
    assert r.exit_code == 0, r.stderr
    answer = json.loads(r.stdout)
    answer["query"].pop("attacker"), answer["query"].pop("defender")
    return answer  # type: ignore[no-any-return]


def test_imported_slugga_boyz_assault_as_the_example(tmp_path: Path) -> None:
    r = cli("import", SLUGGA_BOYZ, "--out", tmp_path)
    assert r.exit_code == 0, r.stderr
    imported, example = tmp_path / "ork_boyz.toml", ROOT / "examples" / "40k6" / "ork_boyz_sluggas.toml"
    assault_squad = ROOT / "examples" / "40k6" / "assault_squad.toml"
    # charged (Furious Charge plays no part): the very answer of the example, two-weapon Attacks, klaw and all
    assert (_assault_json(assault_squad, imported, "--distance", "6", "--rounds", "2")
            == _assault_json(assault_squad, example, "--distance", "6", "--rounds", "2"))
    # charging: the example with the data's Furious Charge on both lines
    furious = tmp_path / "furious.toml"
    furious.write_text(example.read_text().replace("leadership = 7\n", 'leadership = 7\nrules = ["furious-charge"]\n'))
    assert furious.read_text().count("furious-charge") == 2
    ask = ("--distance", "7", "--rounds", "2")
    assert _assault_json(imported, TACTICAL, *ask) == _assault_json(furious, TACTICAL, *ask)
    assert _assault_json(imported, TACTICAL, *ask) != _assault_json(example, TACTICAL, *ask)


def test_per_points_ranks_two_loadouts(tmp_path: Path) -> None:
    cli("import", ORKS, "--out", tmp_path)
    target = str(tmp_path / "target.toml")
    Path(target).write_text(TACTICAL.read_text())
    queries = [f"40k6 fire --attacker {tmp_path / 'klaw_boyz.toml'} --target {target}",
               f"40k6 fire --attacker {tmp_path / 'shoota_mob.toml'} --target {target}"]
    r = cli("compare", "--per-points", "--query", queries[0], "--query", queries[1], "--format", "json")
    assert r.exit_code == 0, r.stderr
    rows = json.loads(r.stdout)["rows"]
    assert [(row["label"], row["points"]) for row in rows] == [("q2", 84), ("q1", 101)]  # the shootas rank first
    for row, points in zip(rows, (84, 101)):
        name = "shoota_mob" if points == 84 else "klaw_boyz"
        answer = Query("40k6", "fire", {"attacker": str(tmp_path / f"{name}.toml"), "target": target}).answer()
        mean = row["figures"]["mean casualties"]
        assert F(mean["value"]) == answer.mean
        assert F(mean["per_100_points"]) == answer.mean * 100 / points
        assert F(row["figures"]["P(destroy)"]["per_100_points"]) == F(answer.extras["p_unit_destroyed"]) * 100 / points
    table = cli("compare", "--per-points", "--query", queries[0], "--query", queries[1]).stdout
    assert "1. q2: exactodds 40k6 fire" in table and f"attacker: {tmp_path / 'shoota_mob.toml'}, 84 points" in table


def test_per_points_refuses_questions_without_an_attacker_file(tmp_path: Path) -> None:
    r = cli("compare", "--per-points", "--query", f"40k6 shoot --shots 2 --bs 4 --strength 4 --target {TACTICAL}",
            "--query", "pool 3 --hit 4+")
    assert r.exit_code == 2
    assert r.stderr.strip() == ("Error: --per-points: 40k6 shoot has no attacker unit file (its firing models are "
                                "anonymous); ask 40k6 fire --attacker UNIT.toml instead")
    r = cli("compare", "--per-points", "--query", f"40k6 fire --attacker {TACTICAL} --target {TACTICAL}",
            "--query", f"40k6 fire --attacker {TACTICAL} --target {TACTICAL}")
    assert r.exit_code == 2 and "gives no points; add points = N" in r.stderr


def test_unit_files_keep_points_and_refuse_bad_ones(tmp_path: Path) -> None:
    good = tmp_path / "u.toml"
    good.write_text('points = 70\n' + TACTICAL.read_text())
    assert load_unit(good) == load_unit(TACTICAL)  # points change no answer
    bad = tmp_path / "bad.toml"
    bad.write_text('points = -1\n' + TACTICAL.read_text())
    with pytest.raises(InputError, match="points"):
        load_unit(bad)


# ----------------------------------------------------------------- bad rosters
ROSTER = ('<?xml version="1.0"?><roster xmlns="http://www.battlescribe.net/schema/rosterSchema" id="a" name="r" '
          'gameSystemId="g" gameSystemName="{system}"><forces></forces></roster>')


def _zip(entries: dict[str, bytes]) -> bytes:
    """A zip holding ``entries`` (docs/gen_errors.py's, which documents the same refusals)."""
    from .test_fuzz_cli import _load_gen_errors

    return _load_gen_errors()._zip(entries)  # type: ignore[no-any-return]


def _missing_toughness() -> bytes:
    text = MARINES.read_text(encoding="utf-8")
    return re.sub(r'\s*<characteristic name="T" [^>]*>4</characteristic>', "", text, count=1).encode()


BAD = {
    "not XML": (b"hello, not a roster", "not a roster (not XML"),
    "a zip without a roster": (_zip({"readme.txt": b"hi"}), "the zip holds no roster"),
    "a wrong namespace": (ROSTER.format(system="x").replace("rosterSchema", "other").encode(), "expected 'roster'"),
    "an unknown game system": (ROSTER.format(system="Chess").encode(), "game system 'Chess' is not one this reads"),
    "a zip bomb": (_zip({"r.ros": b" " * 2_000_000}), "refused"),
    "an entity declaration": (b'<?xml version="1.0"?><!DOCTYPE r [<!ENTITY a "aaaa">]><r>&a;</r>', "DOCTYPE or ENTITY"),
    "a missing characteristic": (_missing_toughness(), "has no T characteristic"),
}


@pytest.mark.parametrize("case", sorted(BAD))
def test_bad_rosters_get_one_line_and_write_nothing(tmp_path: Path, case: str) -> None:
    data, message = BAD[case]
    roster = tmp_path / "bad.ros"
    roster.write_bytes(data)
    out = tmp_path / "army"
    r = cli("import", roster, "--out", out)
    assert r.exit_code == 2, (case, r.stdout, r.stderr)
    assert r.stdout == ""
    assert len(r.stderr.strip().splitlines()) == 1 and message in r.stderr, r.stderr
    assert not out.exists()
    assert [p.name for p in tmp_path.iterdir()] == ["bad.ros"]  # no temporary folder left behind


def test_a_huge_roster_is_refused_before_reading(tmp_path: Path) -> None:
    roster = tmp_path / "huge.ros"
    with open(roster, "wb") as f:
        f.truncate(21 * 1024 * 1024)
    r = cli("import", roster, "--out", tmp_path / "army")
    assert r.exit_code == 2 and "too large for a roster" in r.stderr


def test_existing_files_are_never_overwritten(tmp_path: Path) -> None:
    (tmp_path / "klaw_boyz.toml").write_text("mine")
    r = cli("import", ORKS, "--out", tmp_path)
    assert r.exit_code == 2 and "already exists" in r.stderr
    assert sorted(os.listdir(tmp_path)) == ["klaw_boyz.toml"]
    assert (tmp_path / "klaw_boyz.toml").read_text() == "mine"


# ----------------------------------------------------------------- the docs page
def test_the_docs_page_examples_print_what_it_shows(tmp_path: Path) -> None:
    """docs/rosters.md's console examples, in order, in a fresh folder (the import writes there)."""
    import shlex
    import subprocess
    import sys

    from .test_docs import cli_env, console_examples

    (tmp_path / "examples").symlink_to(ROOT / "examples")
    examples = console_examples("rosters.md")
    assert [shlex.split(c)[1] for c, _ in examples] == ["import", "40k6", "compare"]
    for command, expected in examples:
        out = subprocess.run([sys.executable, "-m", "exactodds", *shlex.split(command)[1:]], capture_output=True,
                             text=True, env=cli_env(), cwd=tmp_path)
        assert (out.stdout + out.stderr).rstrip("\n") == expected.rstrip("\n"), command
    assert (tmp_path / "my_army" / "klaw_boyz.toml").read_text().rstrip("\n") in (ROOT / "docs" / "rosters.md").read_text()


def test_imported_legion_squad_fires_as_the_example(tmp_path: Path) -> None:
    r = cli("import", LEGION, "--out", tmp_path)
    assert r.exit_code == 0, r.stderr
    answers = []
    for attacker in (tmp_path / "legion_tactical_squad.toml", ROOT / "examples" / "hh3" / "unit_tactical_squad.toml"):
        out = cli("hh3", "shoot", "--attacker", attacker, "--target", ROOT / "examples" / "hh3" / "target_terminators.toml",
                  "--format", "json")
        answer = json.loads(out.stdout)
        answer["query"].pop("attacker")
        answers.append(answer)
    assert answers[0] == answers[1]


# ----------------------------------------------------------------- weapon and rule texts
def _weapon(type_text: str, strength: str = "4", rng: str = '24"', ap: str = "5"):  # type: ignore[no-untyped-def]
    from exactodds.profiles.rosters.output import UnitFile
    from exactodds.profiles.rosters.tree import Profile, Selection
    from exactodds.profiles.rosters.weapon_text import ranged_weapon

    unit = UnitFile("Squad", "test")
    chars = {"Range": rng, "Strength": strength, "AP": ap, "Type": type_text}
    key, table = ranged_weapon(Selection("Gun", 1, [Profile("Gun", "Weapon", chars)]), unit, strength=3)
    return table, unit.comments


@pytest.mark.parametrize(("type_text", "expected"), [
    ("Rapid Fire", {"rules": ["rapid-fire"]}),
    ("Assault 2, Rending", {"shots": 2, "rules": ["rending"]}),
    ("Heavy 1, Blast", {"shots": 1, "type": "blast", "rules": ["heavy"]}),
    ("Salvo 2/4", {"shots": "2/4"}),
    ("Salvo 1/3", {"shots": "1/3"}),
    ("Assault 1, Melta", {"shots": 1, "rules": ["melta"]}),
    ("Heavy 1, Lance", {"shots": 1, "rules": ["heavy", "lance"]}),
    ("Heavy 1, Armourbane, Pinning", {"shots": 1, "rules": ["armourbane", "heavy", "pinning"]}),
    ("Assault D6", {"random_shots": "D6"}),
    ("Pistol", {}),
    ("Assault 1, Poisoned (2+), Twin-linked", {"shots": 1, "poisoned": 2, "rules": ["poisoned", "twin-linked"]}),
])
def test_weapon_type_texts(type_text: str, expected: dict) -> None:
    table, comments = _weapon(type_text)
    assert table == {"range": 24, "strength": 4, "ap": 5, **expected}
    assert comments == []


def test_weapon_values_the_format_cannot_hold() -> None:
    assert _weapon("Assault 1", ap="-")[0] == {"range": 24, "strength": 4, "shots": 1}
    assert _weapon("Assault 1", strength="User")[0]["strength"] == 3  # the model's
    table, comments = _weapon("Heavy 1", strength="D")
    assert table is None and comments == ["weapon gun: Strength 'D' cannot be read: not imported"]
    table, comments = _weapon("Heavy 1, Haywire")
    assert comments == ["weapon gun: rule not modelled: Haywire"]
    table, comments = _weapon("Salvo 4/2")
    assert "shots" not in table and comments == ["weapon gun: Salvo 4/2 not read (the lower number comes first): one shot"]
    assert _weapon("Assault 1", rng="Template")[0]["type"] == "template"


def test_rule_names_and_invulnerable_saves() -> None:
    from exactodds.profiles.rosters.lines import Line
    from exactodds.profiles.rosters.output import UnitFile
    from exactodds.profiles.rosters.tree import Profile, Rule
    from exactodds.profiles.rosters.wh40k import _model

    chars = {"Unit Type": "Infantry", "WS": "4", "BS": "4", "S": "4", "T": "4", "W": "1", "I": "4", "A": "1",
             "Ld": "8", "Save": "-"}
    rules = [Rule("Feel No Pain (4+)", ""), Rule("Fleet", ""), Rule("Hatred (Orks)", ""),
             Rule("Invulnerable Save (4+)", ""), Rule("Eternal Warrior", ""), Rule("Bulky", ""),
             Rule("Hammer of Wrath", ""), Rule("Relentless", ""), Rule("And They Shall Know No Fear", "")]
    unit = UnitFile("Squad", "test")
    doc = _model(Line("Model", 3, Profile("Model", "Unit", chars), rules=rules), unit, "here")
    assert doc == dict(name="Model", count=3, toughness=4, wounds=1, invulnerable=4, feel_no_pain=4,
                       rules=["hatred", "hammer-of-wrath", "relentless", "and-they-shall-know-no-fear"],
                       eternal_warrior=True, ws=4, initiative=4, attacks=1, strength=4,
                       leadership=8)
    assert unit.warnings == ["Squad: rule not modelled: Bulky"]
    assert "Fleet: ask the charge with --fleet (a property of the charge roll)" in unit.comments


def _melee(type_text: str, strength: str = "User", ap: str = "-"):  # type: ignore[no-untyped-def]
    from exactodds.profiles.rosters.melee_text import melee_weapons
    from exactodds.profiles.rosters.output import UnitFile
    from exactodds.profiles.rosters.tree import Profile, Selection

    unit = UnitFile("Squad", "test")
    chars = {"Range": "-", "Strength": strength, "AP": ap, "Type": type_text}
    found = melee_weapons([Selection("Axe", 1, [Profile("Axe", "Weapon", chars)])], unit, "Model")
    return found, unit.comments


@pytest.mark.parametrize(("type_text", "strength", "ap", "expected"), [
    ("Melee", "User", "3", {"strength": "user", "ap": 3}),
    ("Melee, Unwieldy", "+1", "2", {"strength": "+1", "ap": 2, "rules": ["unwieldy"]}),
    ("Melee, Concussive", "+2", "4", {"strength": "+2", "ap": 4, "rules": ["concussive"]}),
    ("Melee, Shred, Specialist Weapon", "User", "3", {"strength": "user", "ap": 3,
                                                       "rules": ["shred", "specialist-weapon"]}),
    ("Melee, Unwieldy, Specialist Weapon, Armourbane", "x2", "2",
     {"strength": "x2", "ap": 2, "rules": ["armourbane", "specialist-weapon", "unwieldy"]}),
    ("Melee, Rending", "User", "-", {"strength": "user", "rules": ["rending"]}),
    ("Melee, Poisoned (3+)", "User", "-", {"strength": "user", "poisoned": 3, "rules": ["poisoned"]}),
    ("Melee", "6", "-", {"strength": 6}),
    ("Melee", "×2", "2", {"strength": "x2", "ap": 2}),
])
def test_melee_type_texts(type_text: str, strength: str, ap: str, expected: dict) -> None:
    found, comments = _melee(type_text, strength, ap)
    assert found == [("axe", {"type": "melee", **expected})]
    assert comments == []


def test_melee_values_the_format_cannot_hold() -> None:
    found, comments = _melee("Melee, Two-handed, Unwieldy", "+1", "2")
    assert found == [("axe", {"type": "melee", "strength": "+1", "ap": 2, "rules": ["unwieldy"]})]
    assert comments == ["Model: Axe: rule not modelled: Two-handed"]
    found, comments = _melee("Melee", "D", "2")
    assert found == [] and comments == ["Model: Axe: Strength 'D' cannot be read: not imported"]
    found, _ = _melee("Pistol", "4", "5")
    assert found == [("axe (close combat)", {"type": "melee", "strength": "user"})]


# ------------------------------------------------- a BattleScribe 1.x export's shape
NECRONS = ROOT / "tests" / "fixtures" / "rosters" / "necrons_bs115.ros"


def test_battlescribe_1_rosters_file_units_under_categories() -> None:
    """BattleScribe 1.x: selections under a force's categories, points as attributes,
    profile types as ``type`` and values as ``value`` attributes."""
    system, files, skipped = read_roster(NECRONS)
    assert system == "40k6"
    found = {stem: u for stem, u in files}
    assert list(found) == ["necron_overlord", "immortals", "necron_monolith"]
    assert skipped == ["Detachment-source: not a unit (no model profile): not imported"]
    # points are each selection's own: 90 + 35 + 5 + 10, 170, 200 (the roster's 580)
    assert [u.top["points"] for u in found.values()] == [140, 170, 200]
    # the Overlord's profile sits on the unit, his Royal Court below: both are lines
    overlord, lord = found["necron_overlord"].models
    assert overlord == {"name": "Necron Overlord", "toughness": 5, "wounds": 3, "save": 3, "character": True,
                        "look_out_sir": True, "ws": 4, "initiative": 2, "attacks": 3, "strength": 5,
                        "leadership": 10, "melee": "warscythe"}
    assert lord["name"] == "Necron Lord" and lord["wounds"] == 1 and lord["weapon"] == "gauntlet of fire"
    assert found["necron_overlord"].weapons["warscythe"] == {"type": "melee", "strength": "+2", "ap": 1,
                                                             "rules": ["armourbane"]}
    immortal, = found["immortals"].models
    assert immortal["count"] == 10 and immortal["save"] == 3 and immortal["weapon"] == "gauss blaster"
    assert found["immortals"].weapons["gauss blaster"] == {"range": 24, "strength": 5, "ap": 4,
                                                            "rules": ["rapid-fire"]}
    assert found["necron_monolith"].models == [{"name": "Necron Monolith", "front": 14, "side": 14, "rear": 14,
                                                "hull_points": 4}]
    assert "Immortals: weapon gauss blaster: rule not modelled: Gauss" in found["immortals"].warnings


def test_battlescribe_1_roster_imports_and_answers(tmp_path: Path) -> None:
    r = cli("import", NECRONS, "--out", tmp_path / "army")
    assert r.exit_code == 0, r.stderr
    assert "warning: Necron Overlord: rule not modelled: Reanimation Protocols" in r.stderr
    r = cli("40k6", "shoot", "--shots", "1", "--bs", "4", "--strength", "10", "--ap", "1",
            "--target", tmp_path / "army" / "immortals.toml", "--format", "json")
    assert r.exit_code == 0, r.stderr
    # BS 4 hits on 3+ (2/3), S10 v T4 wounds on 2+ (5/6), AP1 leaves no save: 5/9
    assert {o["outcome"]: o["p"] for o in json.loads(r.stdout)["outcomes"]} == {0: "4/9", 1: "5/9"}


def test_an_empty_characteristic_is_named_as_it_is() -> None:
    text = NECRONS.read_text(encoding="utf-8").replace('name="T" value="4"', 'name="T" value=""')
    with pytest.raises(InputError, match=r"Necron Immortal: T = '' cannot be read as a toughness"):
        read_roster_text(text)


def read_roster_text(text: str) -> None:
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        path = Path(d) / "r.ros"
        path.write_text(text, encoding="utf-8")
        read_roster(path)


def test_per_points_of_a_horus_heresy_exchange_are_its_attack_on_the_target(tmp_path: Path) -> None:
    """The target's losses in an exchange come from the attacker's fire alone (the return
    fire strikes the attacker): its figures per points are those of the same shooting attack."""
    assert cli("import", LEGION, "--out", tmp_path).exit_code == 0
    attacker = tmp_path / "legion_tactical_squad.toml"
    target = ROOT / "examples" / "hh3" / "unit_tactical_squad.toml"
    queries = [f"hh3 exchange --attacker {attacker} --target {target}", f"hh3 shoot --attacker {attacker} --target {target}"]
    r = cli("compare", "--per-points", "--query", queries[0], "--query", queries[1], "--format", "json")
    assert r.exit_code == 0, r.stderr
    exchange, shoot = sorted(json.loads(r.stdout)["rows"], key=lambda row: row["label"])
    assert exchange["points"] == shoot["points"] == 100
    assert exchange["figures"] == shoot["figures"]
    answer = Query("hh3", "shoot", {"attacker": str(attacker), "target": str(target)}).answer()
    assert F(exchange["figures"]["mean casualties"]["per_100_points"]) == answer.mean
    assert F(exchange["figures"]["P(destroy)"]["value"]) == F(answer.extras["destroyed"])
