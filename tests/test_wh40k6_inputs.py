"""A rule parameter is declared once, in its rule input: the interfaces come from it.

Every field of the 40K 6th edition shooting input (``rules.wh40k6.ShootingAttack``)
is an option of ``40k6 shoot`` with its help text and a key of its query files,
though no class of ``commands/`` declares it.
"""

from __future__ import annotations

import ast
from fractions import Fraction
from pathlib import Path

import click
import click.testing
import pytest

from exactodds.cli import main
from exactodds.commands import ask
from exactodds.commands.query import Query
from exactodds.commands.wh40k6 import OverwatchParams, ShootParams
from exactodds.rules.wh40k6 import OverwatchAttack, ShootingAttack

ROOT = Path(__file__).resolve().parents[1]
MARINES = str(ROOT / "examples" / "40k6" / "marines.toml")
RULE_FIELDS = list(ShootingAttack.specs())


def shoot_command() -> click.Command:
    group = main.get_command(click.Context(main), "40k6")
    assert isinstance(group, click.Group)
    command = group.get_command(click.Context(group), "shoot")
    assert command is not None
    return command


def test_the_shooting_input_holds_the_rule_fields() -> None:
    assert RULE_FIELDS[:3] == ["shots", "bs", "weapon_type"]
    assert {"strength", "ap", "rules", "random_shots", "firers", "firer_save", "focus_fire", "facing"} <= set(
        RULE_FIELDS)
    assert "target" not in RULE_FIELDS and "outcome" not in RULE_FIELDS and "stage" not in RULE_FIELDS


def test_every_rule_field_is_an_option_of_40k6_shoot_with_its_help() -> None:
    options = {p.name: p for p in shoot_command().params if isinstance(p, click.Option)}
    for name in RULE_FIELDS:
        spec, _ = ShootingAttack.specs()[name]
        assert options[name].opts == ["--" + name.replace("_", "-")]
        assert options[name].help == spec.help


@pytest.mark.parametrize("name", RULE_FIELDS)
def test_every_rule_field_is_a_query_file_key_with_the_rule_input_spec(name: str) -> None:
    (spec, default), (rule_spec, rule_default) = ShootParams.specs()[name], ShootingAttack.specs()[name]
    assert spec is rule_spec and default == rule_default


def test_no_rule_field_is_declared_in_the_commands_layer() -> None:
    source = (ROOT / "exactodds" / "commands" / "wh40k6.py").read_text()
    declared = {node.target.id for node in ast.walk(ast.parse(source))
                if isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name)}
    assert declared & set(RULE_FIELDS) == set()
    assert declared >= {"target", "outcome", "stage"}  # the presentation fields


def test_overwatch_forces_snap_shots_and_offers_no_snap_option() -> None:
    assert "snap" not in OverwatchParams.specs() and "snap" not in OverwatchAttack.specs()
    # Overwatch causes no morale check after shooting: no morale option either
    assert "morale" not in OverwatchParams.specs()
    assert set(OverwatchAttack.specs()) == set(RULE_FIELDS) - {"snap", "morale"}


def test_one_rule_field_by_flags_query_file_and_python() -> None:
    """The Gets Hot firer's armour save: a BS 4 shot rolls a 1 with chance 1/6 (no
    reroll below BS 6), saved on 3+: the firing model is lost with chance 1/6 x 1/3."""
    flags = ["--shots", "1", "--bs", "4", "--strength", "7", "--ap", "2", "--rules", "gets-hot",
             "--firer-save", "3+", "--target", MARINES]
    text = ('system = "40k6"\ncommand = "shoot"\n[params]\nshots = 1\nbs = 4\nstrength = 7\nap = 2\n'
            f'rules = ["gets-hot"]\nfirer_save = 3\ntarget = "{MARINES}"\n')
    by_python = ask("40k6", "shoot", shots=1, bs=4, strength=7, ap=2, rules=["gets-hot"], firer_save="3+",
                    target=MARINES)
    assert by_python.extras["p_firing_model_lost"] == Fraction(1, 18)
    assert by_python.query["firer_save"] == 3 and by_python.query["firers"] == 1
    assert Query.from_text(text).answer().to_json() == by_python.to_json()
    result = click.testing.CliRunner().invoke(main, ["40k6", "shoot", *flags, "--format", "json"])
    assert result.exit_code == 0 and result.output.strip() == by_python.to_json().strip()


def test_a_rule_combination_is_refused_once_in_each_vocabulary() -> None:
    result = click.testing.CliRunner().invoke(main, ["40k6", "shoot", "--shots", "1", "--bs", "4", "--strength",
                                                     "4", "--firer-save", "3+", "--target", MARINES])
    assert result.exit_code == 2
    assert result.output.strip().splitlines()[-1] == (
        "Error: --firer-save describes the firing models a weapon that Gets Hot wounds: add --rules gets-hot, "
        "or leave it out")
    with pytest.raises(Exception, match="^firer_save describes the firing models a weapon that Gets Hot wounds: "
                                        "add rules gets-hot, or leave it out$"):
        ShootingAttack(shots=1, strength=4, bs=4, firer_save=3)


def test_the_rule_layer_runs_the_same_input_from_python() -> None:
    """``shooting_attack`` decides the Gets Hot path itself: the same 1/18 as the command."""
    from exactodds.profiles.wh40k6 import load_target
    from exactodds.rules.wh40k6 import shooting_attack

    done = shooting_attack(ShootingAttack(shots=1, strength=7, bs=4, ap=2, rules=["gets-hot"], firer_save=3),
                           load_target(MARINES))
    assert done.extras["p_firing_model_lost"] == Fraction(1, 18)
    assert done.stages["hits"].pmf(1) == Fraction(2, 3)  # BS 4 hits on 3+: 4 faces of 6
    assert done.vehicle is None
