"""Horus Heresy 3rd edition: the majority-BS reading, the dice traits (reroll
failed hits, reroll failed wounds, random Firepower, Heavy) and wounded models,
from every interface (command line, query file, sweep, Python), with values
worked out by hand, and their one-line refusals."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from exactodds import ask
from exactodds.sweep import run_sweep
from tests.test_wh40k6_rules_cli import invoke, one_line_error


def attacker(folder: Path, name: str = "a.toml", firepower: str = "1", bs: int = 4, strength: int = 4,
             traits: str = "[]", extra_models: str = "", top: str = "") -> str:
    path = folder / name
    path.write_text(f'{top}\n[[models]]\nbs = {bs}\nweapon = "w"\n{extra_models}\n'
                    f'[weapons.w]\nfirepower = {firepower}\nstrength = {strength}\nap = "-"\ndamage = 1\n'
                    f'traits = {traits}\n')
    return str(path)


def target(folder: Path, name: str = "t.toml", models: str = "[[models]]\ntoughness = 4\nwounds = 1\n") -> str:
    path = folder / name
    path.write_text(f"leadership = 7\n{models}")
    return str(path)


# ------------------------------------------------------------ identities by hand


def test_reroll_failed_hits_identities() -> None:
    # BS 4 hits on 3+: 2/3 + 1/3 x 2/3 = 8/9
    assert ask("hh3", "hit", shots=1, bs=4, reroll_failed=True).dist.to_fractions() == {(0, 0): F(1, 9),
                                                                                         (1, 0): F(8, 9)}
    # BS 7 (hit on 2+, Critical on 5+): a miss (1/6) is rolled again: miss 1/36,
    # hit 1/2 + 1/6 x 1/2 = 7/12, Critical 1/3 + 1/6 x 1/3 = 7/18
    got = ask("hh3", "hit", shots=1, bs=7, reroll_failed=True).dist.to_fractions()
    assert got == {(0, 0): F(1, 36), (1, 0): F(7, 12), (1, 1): F(7, 18)}
    # snap shots at BS 1 are an automatic failure: no die, nothing to reroll
    assert ask("hh3", "hit", shots=2, bs=1, snap=True, reroll_failed=True).dist.to_fractions() == {(0, 0): 1}


def test_reroll_failed_wounds_identities() -> None:
    # S4 vs T4 wounds on 4+: 1/2 + 1/2 x 1/2 = 3/4; S3 vs T4 on 5+: 1/3 + 2/3 x 1/3 = 5/9
    assert ask("hh3", "wound", strength=4, toughness=4, reroll_failed=True).dist.pmf(1) == F(3, 4)
    assert ask("hh3", "wound", strength=3, toughness=4, reroll_failed=True).dist.pmf(1) == F(5, 9)
    # a "-" on the chart stays impossible
    assert ask("hh3", "wound", strength=1, toughness=5, reroll_failed=True).dist.pmf(1) == 0


def test_random_firepower_at_bs_10(tmp_path: Path) -> None:
    # BS 10+: every shot hits and is a Critical Hit (wounds automatically): casualties = shots
    three = target(tmp_path, models="[[models]]\ncount = 3\ntoughness = 4\nwounds = 1\n")
    got = ask("hh3", "shoot", attacker=attacker(tmp_path, firepower='"D3"', bs=10), target=three)
    assert got.dist.to_fractions() == {1: F(1, 3), 2: F(1, 3), 3: F(1, 3)}
    ten = target(tmp_path, models="[[models]]\ncount = 20\ntoughness = 4\nwounds = 1\n")
    # two models firing D6+1 each: mean 2 x 4.5 = 9; 2D6 from one model: P(12) = 1/36
    assert ask("hh3", "shoot", attacker=attacker(tmp_path, firepower='"D6+1"', bs=10,
                                                 extra_models="count = 2"), target=ten).dist.mean() == 9
    assert ask("hh3", "shoot", attacker=attacker(tmp_path, firepower='"2D6"', bs=10),
               target=ten).dist.pmf(12) == F(1, 36)


def test_heavy_fires_snap_shots_after_moving(tmp_path: Path) -> None:
    # BS 4: 3+ (2/3), snap 5+ (1/3); S8 vs T4 wounds on 2+ (5/6); no save
    heavy = attacker(tmp_path, strength=8, traits='["heavy"]')
    one = target(tmp_path)
    assert ask("hh3", "shoot", attacker=heavy, target=one).dist.pmf(1) == F(5, 9)
    assert ask("hh3", "shoot", attacker=heavy, target=one, moved=True).dist.pmf(1) == F(5, 18)
    # the attacker file may say the unit moved
    moved = attacker(tmp_path, "moved.toml", strength=8, traits='["heavy"]', top="moved = true")
    assert ask("hh3", "shoot", attacker=moved, target=one).dist.pmf(1) == F(5, 18)
    # a weapon without Heavy is unaffected by moving
    plain = attacker(tmp_path, "plain.toml", strength=8)
    assert ask("hh3", "shoot", attacker=plain, target=one, moved=True).dist.pmf(1) == F(5, 9)


def test_majority_bs_reading(tmp_path: Path) -> None:
    # two BS 2 models with "w" and one BS 5 model with a pistol: majority BS 2
    unit = tmp_path / "mixed.toml"
    unit.write_text('[[models]]\ncount = 2\nbs = 2\nweapon = "w"\n[[models]]\nbs = 5\nweapon = "p"\n'
                    '[weapons.w]\nfirepower = 1\nstrength = 4\nap = "-"\ndamage = 1\n'
                    '[weapons.p]\nfirepower = 1\nstrength = 4\nap = "-"\ndamage = 1\n')
    t = target(tmp_path)
    per_group = ask("hh3", "shoot", attacker=str(unit), target=t, show="aftermath")
    literal = ask("hh3", "shoot", attacker=str(unit), target=t, majority_bs=True)
    assert [g["bs"] for g in per_group.query["groups"]] == [2, 5]
    assert [g["bs"] for g in literal.query["groups"]] == [2, 2]
    # the pistol at BS 2 (5+, 1/3) instead of BS 5 (2+, 5/6); S4 vs T4 (1/2):
    # P(the single model survives) = (1 - 1/6)^2 x (1 - 1/6) vs (1 - 1/6)^2 x (1 - 5/12)
    assert literal.dist.pmf(0) == F(5, 6) ** 3
    assert per_group.dist.map(lambda a: a.casualties).pmf(0) == F(5, 6) ** 2 * F(7, 12)
    # a tie (one BS 3, one BS 5): the highest
    tie = tmp_path / "tie.toml"
    tie.write_text('[[models]]\nbs = 3\nweapon = "w"\n[[models]]\nbs = 5\nweapon = "w"\n'
                   '[weapons.w]\nfirepower = 1\nstrength = 4\nap = "-"\ndamage = 1\n')
    got = ask("hh3", "shoot", attacker=str(tie), target=t, majority_bs=True).query["groups"]
    assert [(g["name"], g["bs"]) for g in got] == [("w (BS 3)", 5), ("w (BS 5)", 5)]


def test_wounded_model_takes_the_first_wound(tmp_path: Path) -> None:
    # one BS 10 shot: a Critical Hit, automatic wound, Damage 1 + 1 = 2
    shooter = attacker(tmp_path, bs=10)
    fresh = target(tmp_path, "fresh.toml", "[[models]]\ntoughness = 4\nwounds = 3\n[[models]]\ntoughness = 4\n"
                   "wounds = 3\n")
    wounded = target(tmp_path, "wounded.toml", "[[models]]\ntoughness = 4\nwounds = 3\n[[models]]\n"
                     "toughness = 4\nwounds = 3\nwounds_left = 2\n")
    assert ask("hh3", "shoot", attacker=shooter, target=fresh, show="left").dist.support() == [(1, 3)]
    got = ask("hh3", "shoot", attacker=shooter, target=wounded, show="left")
    assert got.dist.support() == [(3, 0)] and got.dist.pmf((3, 0)) == 1
    assert ask("hh3", "shoot", attacker=shooter, target=wounded).dist.pmf(1) == 1


# ------------------------------------------------------------ every interface


def test_each_new_option_from_the_command_line_query_file_sweep_and_python(tmp_path: Path) -> None:
    heavy = attacker(tmp_path, strength=8, traits='["heavy", "reroll-failed-hits"]')
    one = target(tmp_path)
    # snap 5+ rerolled: 1/3 + 2/3 x 1/3 = 5/9 hits, x 5/6 wounds = 25/54
    cli = invoke("hh3", "shoot", "--attacker", heavy, "--target", one, "--moved", "--majority-bs", "--format", "json")
    assert cli.exit_code == 0, cli.output
    data = json.loads(cli.output)
    assert {o["outcome"]: o["p"] for o in data["outcomes"]}[1] == "25/54"
    assert data["query"]["moved"] is True and data["query"]["majority_bs"] is True
    q = tmp_path / "q.toml"
    q.write_text(f'system = "hh3"\ncommand = "shoot"\n[params]\nattacker = "{heavy}"\ntarget = "{one}"\n'
                 'moved = true\nmajority_bs = true\n')
    assert json.loads(invoke("run", str(q), "--format", "json").output)["outcomes"] == data["outcomes"]
    grid = {"base": {"system": "hh3", "command": "shoot", "params": {"attacker": heavy, "target": one}},
            "vary": {"moved": [False, True]}, "report": {"mean": True}}
    rows = run_sweep(grid, scheduler="local", write=False).rows
    assert {row["mean"] for row in rows} == {"25/54", "20/27"}  # 8/9 x 5/6 = 20/27 standing still
    assert ask("hh3", "shoot", attacker=heavy, target=one, moved=True, majority_bs=True).dist.pmf(1) == F(25, 54)
    hit = invoke("hh3", "hit", "--shots", "1", "--bs", "4", "--reroll-failed", "--format", "json")
    assert json.loads(hit.output)["mean_hits"] == "8/9"
    wound = invoke("hh3", "wound", "--strength", "4", "--toughness", "4", "--reroll-failed", "--format", "json")
    assert json.loads(wound.output)["mean"] == "3/4"


# ------------------------------------------------------------ bad input


@pytest.mark.parametrize("firepower, traits, needle", [
    ('"D7+"', "[]", "use D3, D6, 2D6 or D6+1"),
    ('"0D6"', "[]", "use D3, D6, 2D6 or D6+1"),
    ('"D6+"', "[]", "use D3, D6, 2D6 or D6+1"),
    ("0", "[]", "from 1 to 1000"),
    ("1", '["twin-linked"]', "light, heavy, reroll-failed-hits, reroll-failed-wounds"),
])
def test_bad_weapons_are_refused_in_one_line(tmp_path: Path, firepower: str, traits: str, needle: str) -> None:
    line = one_line_error(invoke("hh3", "shoot", "--attacker", attacker(tmp_path, firepower=firepower, traits=traits),
                                 "--target", target(tmp_path)))
    assert needle in line and "a.toml" in line


@pytest.mark.parametrize("models, needle", [
    ("[[models]]\ntoughness = 4\nwounds = 2\nwounds_left = 2\n", "must be from 1 to 1"),
    ("[[models]]\ntoughness = 4\nwounds = 2\nwounds_left = 0\n", "must be from 1 to 1"),
    ("[[models]]\ntoughness = 4\nwounds = 1\nwounds_left = 1\n", "cannot be wounded"),
    ("[[models]]\ntoughness = 4\nwounds = 2\nhull_points_left = 1\n", "needs armour"),
    ("[[models]]\narmour = { front = 10, side = 10, rear = 10 }\nhull_points = 3\nwounds_left = 1\n",
     "use hull_points_left"),
    ("[[models]]\narmour = { front = 10, side = 10, rear = 10 }\nhull_points = 3\nhull_points_left = 3\n",
     "must be from 1 to 2"),
])
def test_bad_wounded_models_are_refused_in_one_line(tmp_path: Path, models: str, needle: str) -> None:
    line = one_line_error(invoke("hh3", "shoot", "--attacker", attacker(tmp_path), "--target",
                                 target(tmp_path, models=models)))
    assert needle in line and "t.toml" in line


def test_python_refusals_name_what_is_allowed() -> None:
    from exactodds.core import InputError
    from exactodds.rules.hh3 import TargetModels, Weapon

    with pytest.raises(InputError, match="use D3, D6, 2D6 or D6"):
        Weapon("w", "D7+", 4, None, 1)  # type: ignore[arg-type]
    with pytest.raises(InputError, match="not modelled; allowed: light, heavy"):
        Weapon("w", 1, 4, None, 1, frozenset({"shred"}))
    with pytest.raises(InputError, match="wounds_left"):
        TargetModels("m", toughness=4, wounds=2, wounds_left=2)
