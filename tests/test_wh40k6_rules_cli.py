"""40K 6th edition special rules from every interface: the command line (one-line
refusals, exit status 2), query files, sweeps and Python — each giving the same
exact answer, with values worked out by hand."""

from __future__ import annotations

import json
from fractions import Fraction as F
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds import ask
from exactodds.cli import main
from exactodds.sweep import run_sweep

EXAMPLES = Path(__file__).resolve().parent.parent / "examples" / "40k6"
RHINO = str(EXAMPLES / "rhino.toml")


def invoke(*args: str):  # type: ignore[no-untyped-def]
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


def one_line_error(result) -> str:  # type: ignore[no-untyped-def]
    assert result.exit_code == 2, result.output
    lines = [line for line in result.output.splitlines() if line.strip()]
    assert len(lines) == 1, result.output
    return lines[0]


def write(folder: Path, name: str, text: str) -> Path:
    path = folder / name
    path.write_text(text)
    return path


def test_twin_linked_from_the_command_line_query_file_and_python(tmp_path: Path) -> None:
    flags = invoke("40k6", "hit", "--shots", "1", "--bs", "3", "--rules", "twin-linked", "--format", "json")
    assert json.loads(flags.output)["mean"] == "3/4"
    q = write(tmp_path, "q.toml", 'system = "40k6"\ncommand = "hit"\n[params]\nshots = 1\nbs = 3\n'
              'rules = ["twin-linked"]\n')
    assert invoke("run", str(q), "--format", "json").output == flags.output
    assert ask("40k6", "hit", shots=1, bs=4, rules=["twin-linked"]).dist.pmf(1) == F(8, 9)


def test_feel_no_pain_unit_file_and_sweep(tmp_path: Path) -> None:
    unit = write(tmp_path, "fnp.toml", "[[models]]\ntoughness = 4\nwounds = 1\nfeel_no_pain = 5\n")
    plain = write(tmp_path, "plain.toml", "[[models]]\ntoughness = 4\nwounds = 1\n")
    # one automatic hit, S4 vs T4: 1/2 wounds; Feel No Pain 5+ lets 2/3 through
    with_fnp = ask("40k6", "shoot", shots=1, strength=4, weapon_type="no-bs", target=str(unit))
    without = ask("40k6", "shoot", shots=1, strength=4, weapon_type="no-bs", target=str(plain))
    assert with_fnp.dist.pmf(1) == F(1, 3) and without.dist.pmf(1) == F(1, 2)
    grid = {"base": {"system": "40k6", "command": "shoot",
                     "params": {"shots": 1, "strength": 4, "weapon_type": "no-bs", "target": str(unit)}},
            "vary": {"rules": [["rending"], ["shred"]]}, "report": {"mean": True}}
    rows = run_sweep(grid, scheduler="local", write=False).rows
    # rending: a 6 wounds anyway at S4 vs T4 (1/2); shred: 1/2 + 1/4 = 3/4; times 2/3
    assert sorted(row["mean"] for row in rows) == ["1/2", "1/3"]


def test_krak_missiles_at_the_rhino_side() -> None:
    data = json.loads(invoke("40k6", "shoot", "--shots", "1", "--bs", "4", "--strength", "8", "--ap", "3",
                             "--target", RHINO, "--facing", "side", "--format", "json").output)
    # hits 2/3; d6 + 8 against 11: 3 glances (1/6), 4-6 penetrate (1/2); both cost a Hull Point
    assert data["mean_hull_points_lost"] == str(F(2, 3) * F(2, 3))
    assert F(data["p_wrecked_or_exploded"]) == 0


@pytest.mark.parametrize("args, words", [
    (["hit", "--shots", "1", "--bs", "4", "--rules", "laser"], "'laser' is not one of"),
    (["hit", "--shots", "1", "--bs", "4", "--random-shots", "D7+"], "D3, D6, 2D6 or D6+1"),
    (["hit", "--shots", "1", "--bs", "4", "--random-shots", "0D6"], "D3, D6, 2D6 or D6+1"),
    (["hit", "--shots", "1", "--bs", "4", "--rules", "rapid-fire"], "--rules rapid-fire needs --range"),
    (["shoot", "--shots", "1", "--bs", "4", "--strength", "4", "--target", RHINO, "--facing", "top"],
     "'top' is not one of 'front', 'side', 'rear'"),
])
def test_bad_input_is_one_line_naming_what_is_allowed(args: list[str], words: str) -> None:
    assert words in one_line_error(invoke("40k6", *args))


@pytest.mark.parametrize("line, words", [
    ("feel_no_pain = 1", "a Feel No Pain roll from 2 to 6"),
    ("feel_no_pain = 7", "a Feel No Pain roll from 2 to 6"),
    ("wounds_left = 3", "wounds_left"),
])
def test_bad_model_rules_in_a_unit_file(tmp_path: Path, line: str, words: str) -> None:
    unit = write(tmp_path, "u.toml", f"[[models]]\ntoughness = 4\nwounds = 2\n{line}\n")
    args = ["40k6", "shoot", "--shots", "1", "--bs", "4", "--strength", "4", "--target", str(unit)]
    assert words in one_line_error(invoke(*args))


@pytest.mark.parametrize("armour", [9, 15])
def test_armour_out_of_range_in_a_vehicle_file(tmp_path: Path, armour: int) -> None:
    v = write(tmp_path, "v.toml", f"[[models]]\nfront = {armour}\nside = 11\nrear = 10\nhull_points = 3\n")
    args = ["40k6", "shoot", "--shots", "1", "--bs", "4", "--strength", "4", "--target", str(v)]
    assert "10" in one_line_error(invoke(*args)) and "14" in one_line_error(invoke(*args))


def test_fleet_stubborn_and_fearless_from_the_command_line() -> None:
    def figure(*args: str) -> F:
        out = invoke("40k6", *args, "--format", "json")
        assert out.exit_code == 0, out.output
        return F(json.loads(out.output)["p_success" if args[0] == "charge" else "p_pass"])
    # 2D6 >= 8: 15/36; Fleet rerolls the best dice of a failure (worked by hand in test_wh40k6_rules.py)
    assert figure("charge", "--distance", "8", "--fleet") == F(313, 432)
    # Ld 8 - 3: 2D6 <= 5 is 10/36; stubborn tests at 8: 26/36; fearless passes
    assert figure("morale", "--leadership", "8", "--modifier", "-3") == F(10, 36)
    assert figure("morale", "--leadership", "8", "--modifier", "-3", "--stubborn") == F(26, 36)
    assert figure("morale", "--leadership", "8", "--modifier", "-3", "--fearless") == 1


def test_unknown_model_rule_in_a_unit_file(tmp_path: Path) -> None:
    unit = write(tmp_path, "u.toml", '[[models]]\ntoughness = 4\nwounds = 1\nrules = ["furious"]\n')
    args = ["40k6", "shoot", "--shots", "1", "--bs", "4", "--strength", "4", "--target", str(unit)]
    assert "furious-charge" in one_line_error(invoke(*args))


def test_hell_dorado_elevated_shot_behind_a_melee_is_a_normal_shot() -> None:
    out = invoke("hd", "shoot", "--dice", "2", "--target-def", "3", "--behind", "--candidate-def", "5",
                 "--elevated", "--format", "json")
    data = json.loads(out.output)
    # difficulty max(DEF 3, no range) = 3: each die hits on 3+ (2/3); both miss: 1/9
    assert data["difficulty"] == 3
    assert F(data["p_recipient"]["none"]) == F(1, 9)


@pytest.mark.parametrize("args", [["--hit", "auto", "--reroll", "1", "--reroll-hit", "4+"],
                                  ["--hit", "fail", "--reroll-failed"], ["--hit", "auto", "--reroll-up-to", "2"]])
def test_pool_rerolls_with_an_automatic_result_are_refused(args: list[str]) -> None:
    assert "need a target number X+" in one_line_error(invoke("pool", "3", *args))


def test_fleet_decisions_from_the_command_line() -> None:
    out = invoke("40k6", "charge", "--distance", "9", "--fleet", "--show-decisions", "--format", "json")
    assert out.exit_code == 0, out.output
    rows = {tuple(r["first_roll"]): r for r in json.loads(out.output)["decisions"]}
    # a 3 and a 4 short of 9: reroll the 3, needing 5+ beside the 4
    assert rows[(3, 4)] == {"first_roll": [3, 4], "reroll": [3], "p_reach": "1/3", "probability": "1/18"}
    assert len(rows) == 21  # every sorted pair of d6
    assert "needs --fleet" in one_line_error(invoke("40k6", "charge", "--distance", "9", "--show-decisions"))
