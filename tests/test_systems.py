"""The registry of rule systems: which systems there are, their scenario steps,
and the default system of a scenario file."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactodds.commands.registry import COMMANDS
from exactodds.core import InputError
from exactodds.profiles.scenario import load_scenario
from exactodds.profiles.systems import files_of
from exactodds.rules import systems as registry
from exactodds.rules.hell_dorado import Shot
from exactodds.rules.hh3.exchange import Exchange, Shoot as HH3Shoot
from exactodds.rules.wh40k6.steps import Assault, Fight, MoraleCheck, Regroup, Shoot

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"

STEPS = {
    "pool": {},
    "hd": {"shot": Shot},
    "40k6": {"shoot": Shoot, "assault": Assault, "fight": Fight, "morale": MoraleCheck, "regroup": Regroup},
    "hh3": {"exchange": Exchange, "shoot": HH3Shoot},
}
"""Each system's scenario step kinds, in the order its messages list them."""

MINIMAL = {
    "shoot": {"unit": "a", "target": "b"},
    "assault": {"attacker": "a", "defender": "b", "distance": 6},
    "fight": {"attacker": "a", "defender": "b"},
    "morale": {"unit": "a"},
    "regroup": {"unit": "a"},
    "exchange": {"attacker": "a", "target": "b"},
}
"""A step table of each kind with only its required keys."""


def test_the_registry_lists_exactly_the_four_systems() -> None:
    found = registry.systems()
    assert set(found) == {"pool", "hd", "40k6", "hh3"}
    assert {n: s.title for n, s in found.items()} == {
        "pool": "A pool of dice", "hd": "Hell Dorado", "40k6": "Warhammer 40,000 6th edition",
        "hh3": "Horus Heresy 3rd edition"}
    assert all(s.name == n for n, s in found.items())


def test_each_system_names_the_module_of_its_commands() -> None:
    for name, system in registry.systems().items():
        modules = {module for (s, _), module in COMMANDS.items() if s == name}
        assert modules == {system.commands}, name


@pytest.mark.parametrize("name", sorted(STEPS))
def test_each_step_kind_is_reachable_through_the_registry(name: str) -> None:
    system = registry.get(name)
    assert {k: kind.spec for k, kind in system.steps.items()} == STEPS[name]
    assert list(system.steps) == list(STEPS[name])
    if not system.steps:
        assert system.profiles is None and system.start is None
        return
    files = files_of(system)
    assert list(files.steps) == list(system.steps)
    for kind, spec in STEPS[name].items():
        reader = files.steps[kind]
        if files.read_file is not None:  # the file's reader reads these steps itself
            assert reader.read is None
            continue
        assert reader.read is not None
        step = reader.read(dict(MINIMAL[kind], kind=kind), Path("s.toml"), "steps[1]", {})
        assert type(step) is spec and step.kind == kind and step.system == name


def test_a_step_kind_is_found_by_name_or_refused() -> None:
    assert registry.get("40k6").step_kind("morale").spec is MoraleCheck
    with pytest.raises(InputError) as e:
        registry.get("hh3").step_kind("morale")
    assert str(e.value) == "'morale' is not a step of hh3 scenarios; allowed kinds are exchange, shoot"
    with pytest.raises(InputError) as e:
        registry.get("aos")
    assert str(e.value) == "system 'aos' is not known; allowed systems are 40k6, hd, hh3, pool"


def test_a_scenario_file_without_a_system_is_a_40k6_scenario(tmp_path: Path) -> None:
    assert registry.DEFAULT_SCENARIO_SYSTEM == "40k6"
    path = tmp_path / "s.toml"
    path.write_text(f'[units.a]\nfile = "{EXAMPLES / "40k6" / "marines.toml"}"\n'
                    '[[steps]]\nkind = "morale"\nunit = "a"\n')
    sc = load_scenario(path)
    assert sc.system == "40k6"
    assert [type(s) for s in sc.steps] == [MoraleCheck]


def test_an_unknown_system_in_a_scenario_file_is_refused_in_one_line(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('system = "aos"\n[[steps]]\nkind = "shoot"\n')
    with pytest.raises(InputError) as e:
        load_scenario(path)
    assert str(e.value) == f"{path}: system = 'aos': scenarios are for 40k6, hd, hh3"
