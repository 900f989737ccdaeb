"""One declaration: every field of a rule step's input (Hell Dorado's ``Shot``, the
Horus Heresy hit, wound and penetration inputs, ``Conditions`` and ``ExchangeOfFire``, the 40K
``ShootingAttack``) is declared once, in the rules layer, and reaches the command line
(an option with its help text) and query files (an accepted key) without being declared
again in ``exactodds/commands``."""

from __future__ import annotations

import re
from pathlib import Path

import click
import pytest

from exactodds.cli import main
from exactodds.commands import Query, registry
from exactodds.core import InputError
from exactodds.core.params import ParamError, Params
from exactodds.profiles.hh3 import load_unit
from exactodds.rules import hell_dorado as hd
from exactodds.rules import hh3, wh40k6
from exactodds.rules.hh3.exchange import Exchange
from tests.test_docs import ROOT
from tests.test_hh3_exchange import UNARMED

CASES = [
    ("hd", "shoot", hd.Shot, "dice = 3\ntarget_def = 4\n"),
    ("hh3", "hit", hh3.HitRolls, "shots = 2\nbs = 4\n"),
    ("hh3", "wound", hh3.WoundRolls, "strength = 4\ntoughness = 4\n"),
    ("hh3", "penetrate", hh3.PenetrationTests, "strength = 9\narmour = 11\n"),
    ("hh3", "shoot", hh3.Conditions,
     'attacker = "tactical_squad.toml"\ntarget = "target_tactical_squad.toml"\n'),
    ("hh3", "exchange", hh3.ExchangeOfFire,
     'attacker = "unit_tactical_squad.toml"\ntarget = "unit_heavy_support_squad.toml"\n'),
    ("40k6", "shoot", wh40k6.ShootingAttack, 'shots = 1\nbs = 4\nstrength = 4\ntarget = "../40k6/marines.toml"\n'),
]
FIELDS = [(system, command, rule, base, name) for system, command, rule, base in CASES for name in rule.specs()]


def _declared_in(cls: type, name: str) -> str:
    """The module of the class that declares the field ``name``."""
    return next(c.__module__ for c in cls.__mro__ if name in c.__dict__.get("__annotations__", {}))


def _option(system: str, command: str, name: str) -> click.Parameter:
    ctx = click.Context(main)
    group = main.get_command(ctx, system)
    assert isinstance(group, click.Group)
    cmd = group.get_command(click.Context(group, parent=ctx), command)
    assert cmd is not None
    return next(p for p in cmd.params if p.name == name)


def _query(system: str, command: str, text: str) -> Query:
    return Query.from_text(f'system = "{system}"\ncommand = "{command}"\n[params]\n{text}',
                           base=ROOT / "examples" / "hh3")


def test_the_rule_inputs_have_fields() -> None:
    assert [len(rule.specs()) for _, _, rule, _ in CASES] == [14, 4, 4, 3, 11, 8, 22]


@pytest.mark.parametrize(("system", "command", "rule", "base", "name"), FIELDS,
                         ids=[f"{s}-{c}-{n}" for s, c, _, _, n in FIELDS])
def test_a_rule_field_is_declared_once_and_reaches_every_interface(
        system: str, command: str, rule: type[Params], base: str, name: str) -> None:
    params = registry.find(system, command).params
    assert issubclass(params, rule)
    assert _declared_in(params, name).startswith("exactodds.rules.")
    spec = rule.specs()[name][0]
    assert params.specs()[name][0] is spec
    # the command line: an option --name-with-dashes whose help is the rule's, placeholders spelled as options
    option = _option(system, command, name)
    assert option.opts == ["--" + name.replace("_", "-")]
    assert option.help == re.sub(r"\{(\w+)\}", lambda m: "--" + m[1].replace("_", "-"), spec.help)
    # query files: an accepted key, and its default written out is the same question
    with pytest.raises(InputError, match="unknown key 'no_such_key'; allowed keys are") as error:
        _query(system, command, base + "no_such_key = 1\n")
    assert name in str(error.value).split("allowed keys are ")[1].split(", ")
    default = rule.specs()[name][1]
    if isinstance(default, (bool, int)):
        written = str(default).lower() if isinstance(default, bool) else str(default)
        if name not in [line.split(" = ")[0] for line in base.splitlines()]:
            assert _query(system, command, base + f"{name} = {written}\n") == _query(system, command, base)


def test_the_exchange_input_gives_the_step_and_checks_the_units(tmp_path: Path) -> None:
    p = hh3.ExchangeOfFire(cover="light", return_facing=None, moved=True, crits_last=True, turns=2)
    assert p.step() == Exchange("attacker", "target", cover="light", return_cover=None, facing="front",
                                return_facing="front", moved=True, majority_bs=False, crits_first=False,
                                name="exchange")
    assert p.step("a", "b", "s1") == Exchange("a", "b", cover="light", moved=True, crits_first=False, name="s1")
    tacticals = load_unit(ROOT / "examples" / "hh3" / "unit_tactical_squad.toml")
    heavies = load_unit(ROOT / "examples" / "hh3" / "unit_heavy_support_squad.toml")
    sc = p.scenario(tacticals, heavies)
    assert (sc.names, sc.steps, sc.turns) == (["attacker", "target"], (p.step(),), 2)
    with pytest.raises(ParamError, match=r"^facing applies to vehicles; 'Legion Heavy Support Squad' has no "
                                         r"armour facings$"):
        hh3.ExchangeOfFire(facing="side").check_units(tacticals, heavies)
    with pytest.raises(ParamError, match=r"^return_facing applies to vehicles; 'Legion Tactical Squad' has no"):
        hh3.ExchangeOfFire(return_facing="rear").scenario(tacticals, heavies)
    (tmp_path / "unarmed.toml").write_text(UNARMED)
    unarmed = load_unit(tmp_path / "unarmed.toml")
    with pytest.raises(ParamError, match=r'^target unarmed\.toml: no model line fires \(bs and weapon = "NAME"\); '
                                         r"in an exchange both units shoot$"):
        hh3.ExchangeOfFire().scenario(tacticals, unarmed, ("unit_tactical_squad.toml", "unarmed.toml"))
