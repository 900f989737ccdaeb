"""`exactodds hh3`: the done-when query, every shipped example, TOML errors."""

from __future__ import annotations

import itertools
import json
import tomllib
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli import main
from exactodds.profiles.hh3 import load_attacker, load_target
from exactodds.rules.hh3 import Conditions, shoot

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "hh3"
ATTACKERS = ["tactical_squad", "heavy_support_squad", "terminators"]
TARGETS = ["target_tactical_squad", "target_terminators", "rhino"]


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["hh3", *args], catch_exceptions=False)


def as_json(*args: str) -> dict:
    r = invoke(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def ex(name: str) -> str:
    return str(EXAMPLES / f"{name}.toml")


def test_done_when_hit_one_shot_bs7() -> None:
    data = as_json("hit", "--shots", "1", "--bs", "7")
    got = {(o["outcome"]["hits"], o["outcome"]["crits"]): o["p"] for o in data["outcomes"]}
    assert got == {(1, 1): "1/3", (1, 0): "1/2", (0, 0): "1/6"}
    assert data["query"]["hit_table"] == "Cr5+"


def test_hit_snap_and_csv() -> None:
    data = as_json("hit", "--shots", "2", "--bs", "4", "--snap")
    assert {(o["outcome"]["hits"], o["outcome"]["crits"]): o["p"] for o in data["outcomes"]} == \
        {(0, 0): "4/9", (1, 0): "4/9", (2, 0): "1/9"}
    csv = invoke("hit", "--shots", "1", "--bs", "10", "--format", "csv").output.splitlines()
    assert csv == ["hits,crits,p,p_float,mean_hits,mean_hits_float,mean_crits,mean_crits_float",
                   "1,1,1/1,1.0,1/1,1.0,1/1,1.0"]


def test_wound_and_penetrate() -> None:
    data = as_json("wound", "--strength", "4", "--toughness", "5", "--hits", "2")
    assert [o["p"] for o in data["outcomes"]] == ["4/9", "4/9", "1/9"] and data["query"]["wound_on"] == "5+"
    data = as_json("penetrate", "--strength", "9", "--armour", "11")
    assert {(o["outcome"]["glancing"], o["outcome"]["penetrating"]): o["p"] for o in data["outcomes"]} == \
        {(0, 0): "1/6", (1, 0): "1/6", (0, 1): "2/3"}
    assert data["p_glancing"] == "1/6" and data["p_penetrating"] == "2/3"


@pytest.mark.parametrize("attacker,target", list(itertools.product(ATTACKERS, TARGETS)))
def test_every_shipped_example_answers_with_consistent_figures(attacker: str, target: str) -> None:
    """Every shipped pair answers; the figures agree with the casualties by the rules'
    own identities (P(destroyed) = P(every model removed); Routed = panic x P(2D6 > Ld))."""
    data = as_json("shoot", "--attacker", ex(attacker), "--target", ex(target))
    casualties = {o["outcome"]: F(o["p"]) for o in data["outcomes"]}
    assert sum(casualties.values()) == 1 and all(p > 0 for p in casualties.values())
    doc = tomllib.loads(Path(ex(target)).read_text())
    models = sum(m.get("count", 1) for m in doc["models"])
    assert F(data["destroyed"]) == casualties.get(models, 0)
    leadership = doc.get("leadership")
    if leadership is not None:
        fail = F(sum(1 for a in range(1, 7) for b in range(1, 7) if a + b > leadership), 36)
        assert F(data["routed"]) == F(data["panic"]) * fail
    assert "/" in data["panic"] and "/" in data["routed"]


SMALL_ATTACKER = """name = "Two Legionaries"
[[models]]
name = "Legionary"
count = 1
bs = {bs}
weapon = "bolter"
[weapons.bolter]
firepower = 2
strength = 4
ap = 5
damage = 1
"""
SMALL_TARGET = """name = "Two Terminators"
leadership = 8
[[models]]
name = "Terminator"
count = 2
toughness = 4
wounds = 2
save = 2
invulnerable = 4
"""


@pytest.mark.parametrize("bs", [3, 4, 7])
def test_the_command_matches_the_dice_by_dice_simulator(bs: int, tmp_path: Path) -> None:
    """The whole CLI path (files, parameters, attack) against the independent simulator."""
    from tests.test_hh3_brute import Case, G, M, tree_enumeration

    (tmp_path / "a.toml").write_text(SMALL_ATTACKER.format(bs=bs))
    (tmp_path / "t.toml").write_text(SMALL_TARGET)
    data = as_json("shoot", "--attacker", str(tmp_path / "a.toml"), "--target", str(tmp_path / "t.toml"))
    got = {o["outcome"]: F(o["p"]) for o in data["outcomes"]}
    terminator = M(t=4, w=2, save=2, inv=4)
    brute = tree_enumeration(Case((G(2, bs, 4, 5, 1),), (terminator, terminator), leadership=8))
    want: dict[int, F] = {}
    for (left, _), p in brute.items():
        want[left.count(0)] = want.get(left.count(0), F(0)) + p
    assert got == want
    assert F(data["destroyed"]) == want.get(2, F(0))


def test_lascannons_against_a_rhino_side_and_statuses() -> None:
    front = as_json("shoot", "--attacker", ex("heavy_support_squad"), "--target", ex("rhino"))
    side = as_json("shoot", "--attacker", ex("heavy_support_squad"), "--target", ex("rhino"), "--facing", "side")
    assert front["destroyed"] == side["destroyed"]  # the Rhino's front and side are both 11
    rear = as_json("shoot", "--attacker", ex("heavy_support_squad"), "--target", ex("rhino"), "--facing", "rear")
    assert F(rear["destroyed"]) > F(front["destroyed"])
    st = as_json("shoot", "--attacker", ex("heavy_support_squad"), "--target", ex("rhino"), "--show", "statuses")
    assert set(st["outcomes"][0]["outcome"]) == {"stunned", "pinned", "suppressed"}
    smoke = as_json("shoot", "--attacker", ex("heavy_support_squad"), "--target", ex("rhino"), "--reaction", "smoke")
    assert F(smoke["destroyed"]) < F(front["destroyed"])


def test_reactions_overwatch_and_options() -> None:
    a, t = ex("tactical_squad"), ex("target_tactical_squad")
    base = as_json("shoot", "--attacker", a, "--target", t)
    medic = as_json("shoot", "--attacker", a, "--target", t, "--reaction", "medic", "--medic-roll", "5+")
    assert F(medic["mean"]) < F(base["mean"]) and medic["query"]["medic_roll"] == "5+"
    ow = as_json("shoot", "--attacker", a, "--target", t, "--overwatch")
    assert ow["outcomes"] == base["outcomes"]  # power armour beats any cover here; nothing Shrouded
    pinned = as_json("shoot", "--attacker", a, "--target", t, "--pinned")
    assert F(pinned["mean"]) < F(base["mean"]) and all(g["snap"] for g in pinned["query"]["groups"])
    order = as_json("shoot", "--attacker", a, "--target", t, "--order", "bolt pistol")
    assert [g["name"] for g in order["query"]["groups"]] == ["bolt pistol", "bolter"]
    aftermath = as_json("shoot", "--attacker", a, "--target", t, "--show", "aftermath")
    assert set(aftermath["outcomes"][0]["outcome"]) == {"casualties", "destroyed", "panic", "routed", "pinned"}
    left = as_json("shoot", "--attacker", a, "--target", t, "--show", "left")
    assert all(len(o["outcome"]) == 11 for o in left["outcomes"])
    stage = as_json("shoot", "--attacker", a, "--target", t, "--stage", "bolter: hits")
    assert stage["query"]["stage"] == "bolter: hits" and "hits" in stage["outcomes"][0]["outcome"]


def test_crits_last_option() -> None:
    a, t = ex("terminators"), ex("target_terminators")
    first = shoot(load_attacker(a), load_target(t)).casualties()
    last = shoot(load_attacker(a), load_target(t), Conditions(crits_first=False)).casualties()
    data = as_json("shoot", "--attacker", a, "--target", t, "--crits-last")
    assert {o["outcome"]: F(o["p"]) for o in data["outcomes"]} == last.to_fractions()
    assert data["query"]["crits_first"] is False and first.total_probability() == 1


def _write(tmp: Path, name: str, text: str) -> str:
    p = tmp / name
    p.write_text(text)
    return str(p)


ATTACKER = """
name = "A"
[[models]]
bs = 4
weapon = "bolter"
[weapons.bolter]
firepower = 2
strength = 4
ap = 5
damage = 1
"""
TARGET = """
leadership = 7
[[models]]
count = 5
toughness = 4
wounds = 1
save = "3+"
"""


@pytest.mark.parametrize("attacker,target,extra,needle", [
    ("rushed = 1\n" + ATTACKER, TARGET, [], "rushed = 1: expected true or false"),
    (ATTACKER.replace('name = "A"', 'name = "A"\nlocked_in_combat = true'), TARGET, [], "locked in combat"),
    (ATTACKER.replace('name = "A"', 'name = "A"\nembarked = true'), TARGET, [], "embarked"),
    (ATTACKER, TARGET.replace("leadership = 7", "leadership = 7\nin_reserve = true"), [], "in reserve"),
    (ATTACKER, TARGET.replace("leadership = 7", "leadership = 7\nengaged = true"), [], "engaged in melee"),
    (ATTACKER, TARGET.replace("leadership = 7", "leadership = 7\nembarked = true"), [], "embarked"),
    (ATTACKER.replace("firepower = 2", "firepower = 2\nrange = 24"), TARGET, [], "unknown key 'range'"),
    (ATTACKER.replace("ap = 5", 'ap = "five"'), TARGET, [], "weapons.bolter.ap"),
    (ATTACKER.replace('weapon = "bolter"', 'weapon = "boltgun"'), TARGET, [], "no [weapons.boltgun]"),
    (ATTACKER.replace("bs = 4\n", ""), TARGET, [], "models[1].bs is missing"),
    (ATTACKER.replace("damage = 1", 'damage = 1\ntraits = ["rending"]'), TARGET, [], "'rending' is not allowed"),
    (ATTACKER, TARGET.replace('save = "3+"', 'save = "1+"'), [], "models[1].save"),
    (ATTACKER, TARGET.replace("toughness = 4\n", ""), [], "models[1].toughness is missing"),
    (ATTACKER, TARGET.replace("leadership = 7\n", ""), [], "leadership is missing"),
    (ATTACKER, TARGET.replace("save = \"3+\"", "save = 3\narmour = { front = 10, side = 10, rear = 10 }"), [],
     "a vehicle (with armour) has no toughness"),
    (ATTACKER, TARGET, ["--reaction", "medic"], "--medic-roll"),
    (ATTACKER, TARGET, ["--reaction", "shield"], "'shield' trait"),
    (ATTACKER, TARGET, ["--facing", "side"], "--facing applies to vehicles"),
    (ATTACKER, TARGET, ["--overwatch", "--cover", "light"], "no cover"),
    (ATTACKER, TARGET, ["--stage", "nope"], "stages are"),
    (ATTACKER, TARGET, ["--order", "lascannon"], "groups are"),
    (ATTACKER, TARGET, ["--show", "statuses"], "applies to vehicles"),
    (ATTACKER, TARGET, ["--medic-roll", "7+"], "2+ to 6+"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path: Path, attacker: str, target: str, extra: list,
                                          needle: str) -> None:
    a, t = _write(tmp_path, "a.toml", attacker), _write(tmp_path, "t.toml", target)
    r = CliRunner().invoke(main, ["hh3", "shoot", "--attacker", a, "--target", t, *extra])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("Error: ") and needle in lines[0], lines
    assert "Traceback" not in r.output


@pytest.mark.parametrize("args,needle", [
    (["hit", "--shots", "1", "--bs", "0"], "--bs"),
    (["hit", "--shots", "-1", "--bs", "4"], "-1"),
    (["hit", "--bs", "4"], "--shots"),
    (["wound", "--strength", "11", "--toughness", "4"], "from 1 to 10"),
    (["penetrate", "--strength", "4"], "--armour"),
    (["shoot", "--attacker", "missing.toml", "--target", "missing.toml"], "missing.toml"),
])
def test_bad_query_options(args: list, needle: str) -> None:
    r = CliRunner().invoke(main, ["hh3", *args])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], lines


def test_profile_errors_name_the_file(tmp_path: Path) -> None:
    from exactodds import InputError

    t = _write(tmp_path, "t.toml", TARGET.replace("wounds = 1", "wounds = 0"))
    with pytest.raises(InputError, match=r"t\.toml: models\[1\]\.wounds = 0: must be from 1 to 100"):
        load_target(t)


def test_help() -> None:
    assert "Critical" in invoke("hit", "--help").output
    assert "--medic-roll" in invoke("shoot", "--help").output


def test_query_file_runs_the_shoot_command() -> None:
    r = CliRunner().invoke(main, ["run", str(EXAMPLES / "query_lascannons_vs_rhino.toml"), "--format", "json"])
    assert r.exit_code == 0, r.output
    data = json.loads(r.output)
    attack = shoot(load_attacker(ex("heavy_support_squad")), load_target(ex("rhino")),
                   Conditions(facing="rear", order=("lascannon (BS 5)",)))
    assert {tuple(o["outcome"]): F(o["p"]) for o in data["outcomes"]} == attack.left().to_fractions()
    assert [g["name"] for g in data["query"]["groups"]] == ["lascannon (BS 5)", "lascannon (BS 4)"]
