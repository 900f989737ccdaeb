"""`exactodds 40k6 ...`: every command on the shipped examples, exact answers,
and one-line errors with exit status 2 for bad input."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds import Dist
from exactodds.cli import main
from exactodds.profiles.wh40k6 import load_unit
from exactodds.rules.wh40k6 import Shooting, fight, overwatch, shoot, stage_counts

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "40k6"


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, ["40k6", *args], catch_exceptions=False)


def as_json(*args: str) -> dict:
    r = invoke(*args, "--format", "json")
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


def outcomes(data: dict) -> dict:
    return {o["outcome"] if not isinstance(o["outcome"], dict) else tuple(o["outcome"].values()): F(o["p"])
            for o in data["outcomes"]}


def test_hit_bs8_one_shot() -> None:
    data = as_json("hit", "--shots", "1", "--bs", "8")
    assert outcomes(data) == {0: F(1, 12), 1: F(11, 12)}
    assert data["mean"] == "11/12"


def test_hit_master_crafted_and_reroll_failed() -> None:
    assert outcomes(as_json("hit", "--shots", "1", "--bs", "8", "--master-crafted", "1"))[1] == F(35, 36)
    assert outcomes(as_json("hit", "--shots", "2", "--bs", "3", "--reroll-failed")) == \
        Dist.binomial(2, F(3, 4)).to_fractions()
    assert outcomes(as_json("hit", "--shots", "3", "--bs", "9", "--snap")) == Dist.binomial(3, F(1, 6)).to_fractions()


def test_charge_distance_8() -> None:
    data = as_json("charge", "--distance", "8")
    assert data["p_success"] == "5/12"
    assert outcomes(data) == (Dist.uniform(range(1, 7)) + Dist.uniform(range(1, 7))).to_fractions()
    assert all(isinstance(o["outcome"], int) for o in data["outcomes"])


def test_charge_mixing_methods_uses_the_slowest() -> None:
    data = as_json("charge", "--distance", "7.5", "--roll", "3d6kh2", "--roll", "2d6")
    assert data["query"]["charges_with"] == "2d6" and data["p_success"] == "5/12"


def test_shoot_matches_the_python_api() -> None:
    target = str(EXAMPLES / "guard_squad_in_ruins.toml")
    data = as_json("shoot", "--shots", "20", "--bs", "4", "--strength", "4", "--ap", "5", "--target", target)
    run = shoot(Shooting(20, 4, bs=4, ap=5), load_unit(target))
    assert outcomes(data) == run.final.to_fractions()
    assert F(data["mean_hits"]) == F(40, 3)
    data = as_json("shoot", "--shots", "20", "--bs", "4", "--strength", "4", "--ap", "5", "--target", target,
                   "--focus-fire", "5+", "--outcome", "unsaved-wounds")
    run = shoot(Shooting(20, 4, bs=4, ap=5), load_unit(target), focus_fire=5)
    assert outcomes(data) == stage_counts(run)["unsaved wounds"].to_fractions()
    assert max(outcomes(data)) == 4        # only the four Guardsmen in the open can be wounded


def test_overwatch_on_the_ork_boyz() -> None:
    target = str(EXAMPLES / "ork_boyz.toml")
    data = as_json("overwatch", "--shots", "10", "--bs", "4", "--strength", "4", "--ap", "5", "--target", target)
    assert outcomes(data) == overwatch(Shooting(10, 4, bs=4, ap=5), load_unit(target)).final.to_fractions()
    assert data["mean"] == "5/6"            # 10 x 1/6 x 1/2, the 6+ save beaten by AP5
    assert data["query"]["snap"] is True


def test_fight_on_the_examples() -> None:
    a, d = str(EXAMPLES / "assault_squad.toml"), str(EXAMPLES / "ork_boyz.toml")
    data = as_json("fight", "--attacker", a, "--defender", d, "--attacker-charged")
    res = fight(load_unit(a, melee=True), load_unit(d, melee=True), attacker_charged=True)
    assert outcomes(data) == res.survivors().to_fractions()
    assert F(data["p_fall_back"]) == res.p_falls_back()
    assert set(data["outcomes"][0]["outcome"]) == {"attacker_survivors", "defender_survivors"}
    r = invoke("fight", "--attacker", a, "--defender", d, "--format", "csv")
    head = r.output.splitlines()[0].split(",")
    assert head[:4] == ["attacker_survivors", "defender_survivors", "p", "p_float"]
    assert {"p_fall_back", "p_fall_back_float", "p_attacker_wins", "p_attacker_wins_float"} <= set(head)


def test_fight_terminators_and_tactical_squad() -> None:
    data = as_json("fight", "--attacker", str(EXAMPLES / "tactical_squad.toml"),
                   "--defender", str(EXAMPLES / "terminators.toml"), "--attacker-charged")
    assert sum(outcomes(data).values()) == 1


def test_morale() -> None:
    data = as_json("morale", "--leadership", "8", "--modifier", "-2")
    assert outcomes(data) == {"pass": F(5, 12), "fail": F(7, 12)} and data["p_pass"] == "5/12"


@pytest.mark.parametrize("args, message", [
    (["hit", "--shots", "1", "--bs", "0"], "--bs"),
    (["hit", "--shots", "1", "--bs", "11"], "from 1 to 10"),
    (["charge", "--distance", "-1"], "negative"),
    (["morale", "--leadership", "0"], "from 1 to 10"),
    (["morale", "--leadership", "11"], "from 1 to 10"),
    (["hit", "--shots", "3", "--bs", "4", "--weapon-type", "flamer"], "flamer"),
    (["hit", "--shots", "3", "--weapon-type", "blast", "--snap"], "blast weapon (explosion) cannot fire snap shots"),
    (["hit", "--shots", "3", "--weapon-type", "template", "--snap"], "template weapon"),
    (["hit", "--shots", "3", "--weapon-type", "artillery", "--snap"], "artillery weapon"),
    (["shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--target", "missing.toml"], "missing.toml"),
    (["shoot", "--shots", "3", "--bs", "4", "--strength", "4", "--focus-fire", "1+", "--target",
      str(EXAMPLES / "ork_boyz.toml")], "cover"),
    (["fight", "--attacker", str(EXAMPLES / "guard_squad_in_ruins.toml"), "--defender",
      str(EXAMPLES / "ork_boyz.toml")], "models[1].ws is missing"),
])
def test_bad_input_is_one_line_exit_2(args: list[str], message: str) -> None:
    r = invoke(*args)
    assert r.exit_code == 2
    lines = [line for line in r.output.splitlines() if line]
    assert len(lines) == 1 and lines[0].startswith("Error:") and message in lines[0], r.output


def test_bad_unit_files(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)   # short paths: the CLI shortens words over 60 characters
    cases = {
        "zero wounds": ("[[models]]\ntoughness = 4\nwounds = 0\n", "models[1].wounds = 0: must be from 1 to 10"),
        "missing toughness": ("[[models]]\nwounds = 1\n", "models[1].toughness is missing; expected a whole number"),
        "unknown key": ("[[models]]\ntoughness = 4\nwounds = 1\ntougness = 3\n", "unknown key 'tougness'"),
        "wrong type": ("[[models]]\ntoughness = \"four\"\nwounds = 1\n", "toughness = 'four': expected a whole number"),
        "bad save": ("[[models]]\ntoughness = 4\nwounds = 1\nsave = \"7+\"\n", "models[1].save = '7+'"),
        "los not character": ("[[models]]\ntoughness = 4\nwounds = 1\nlook_out_sir = true\n", "character"),
        "los unknown line": ("[[models]]\ntoughness = 4\nwounds = 1\ncharacter = true\nlook_out_sir = \"X\"\n",
                             "names 'X'"),
        "partial melee": ("[[models]]\ntoughness = 4\nwounds = 1\nws = 4\n", "models[1].initiative is missing"),
        "top-level typo": ("nmae = \"x\"\n[[models]]\ntoughness = 4\nwounds = 1\n", "unknown key 'nmae'"),
        "no models": ("name = \"x\"\n", "models is missing"),
    }
    for name, (text, message) in cases.items():
        f = Path(f"{name.replace(' ', '_')}.toml")
        f.write_text(text)
        r = invoke("shoot", "--shots", "1", "--bs", "4", "--strength", "4", "--target", str(f))
        assert r.exit_code == 2, (name, r.output)
        assert str(f) in r.output and message in r.output, (name, r.output)


def test_every_example_loads() -> None:
    from exactodds.profiles.wh40k6 import load_target
    from exactodds.rules.wh40k6.vehicles import Vehicle
    for path in EXAMPLES.glob("*.toml"):
        target = load_target(path)
        assert isinstance(target, Vehicle) or load_unit(path).size >= 1
    assert load_unit(EXAMPLES / "guard_squad_in_ruins.toml").models[1].look_out_sir == "Guardsman (open)"
