"""Scenario files in TOML: units named once, steps in order, turns.

A scenario file::

    system = "40k6"                  # optional: 40k6 (the default), hh3 or hd
    turns = 1                        # optional, 1-20: the steps repeated, state carried over

    [units.marines]                  # a unit by name (letters, digits, _; starting with a letter)
    file = "units/tactical_squad.toml"   # a unit file, relative to this file

    [units.orks]                     # or the unit inline, as in a unit file
    name = "Ork Boyz"
    [[units.orks.models]]
    toughness = 4
    wounds = 1
    ...

    [[steps]]                        # in order
    kind = "shoot"                   # shoot, assault, fight or morale
    unit = "marines"                 # shoot: the firing unit
    target = "orks"                  #        the target unit
    range = "half"                   #        optional: half or full (rapid-fire), or
    distance = 10                    #        optional: inches (each weapon's range decides)
    order = ["plasma gun"]           #        optional: weapons fired first (then file order)
    focus_fire = 5                   #        optional: Focus Fire (2-6, or "none")
    moved = false                    #        optional: the firing unit moved
    snap = false                     #        optional: snap shots
    morale = false                   #        optional: no morale check after shooting
                                     #        for this target in this shooting phase

    [[steps]]
    kind = "assault"                 # assault: Overwatch, charge, rounds, morale, sweeping advance
    attacker = "orks"
    defender = "marines"
    distance = 7                     # required, 0-12 inches
    rounds = 3                       # optional, default 1
    overwatch = true                 # optional, default true

    [[steps]]
    kind = "fight"                   # fight: locked units fight rounds (no charge roll)
    attacker = "orks"
    defender = "marines"
    charged = false                  # optional: +1 Attack in the first round
    rounds = 1                       # optional

    [[steps]]
    kind = "morale"                  # morale: a morale test; failed, the unit falls back
    unit = "orks"
    modifier = 0                     # optional

Every step takes an optional ``name`` (its stage's name). Errors name the
file, the key and what is allowed; unknown keys are refused.

A Horus Heresy scenario (``system = "hh3"``) names unit files that carry
both firing and target stats (see :func:`exactodds.profiles.hh3.load_unit`)
and has two step kinds::

    [[steps]]
    kind = "exchange"                # the attacker shoots; the target returns fire
    attacker = "tacticals"           #   with every model it had when the attack began
    target = "heavies"
    cover = "medium"                 # optional: the target's cover (light, medium, dense)
    return_cover = "light"           # optional: the attacker's cover under the return fire
    facing = "front"                 # optional: the target's facing hit (vehicles)
    return_facing = "front"          # optional: the attacker's facing hit (vehicles)
    moved = false                    # optional: the attacker moved (Heavy weapons: snap shots)
    majority_bs = false              # optional: the majority-BS reading, both attacks
    crits_last = false               # optional: wounds from Critical Hits resolved last

    [[steps]]
    kind = "shoot"                   # one attack, no return fire
    unit = "heavies"
    target = "tacticals"             # and cover, facing, moved, majority_bs, crits_last

A scenario is of one system: a step of another system is refused.
"""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import InputError
from ..rules.hd.volley import Volley
from ..rules.scenario import MAX_TURNS, Scenario, unit_name_problem
from ..rules.systems import DEFAULT_SCENARIO_SYSTEM, RuleSystem, get as get_system, scenario_systems, systems
from ..tomlfiles import between, load_toml, no_unknown_keys, optional, require
from .systems import ScenarioFiles, files_of

SCENARIO_KEYS = {"system", "turns", "units", "steps", "description"}


def _step(s: object, i: int, path: Path, system: RuleSystem, files: ScenarioFiles,
          overrides: dict[str, Any]) -> Any:
    """Step ``i`` of the file, read by its system's reader of its kind."""
    where = f"steps[{i}]"
    if not isinstance(s, dict):
        raise InputError(f"{path}: {where} must be a table ([[steps]])")
    kind = _kind(s, path, where, system)
    reader = files.steps[kind]
    no_unknown_keys(s, set(reader.keys) | {"kind", "name"}, path, where)
    assert reader.read is not None  # a system whose file reader reads its steps has read_file
    return reader.read(s, path, where, overrides)


def _kind(s: dict, path: Path, where: str, system: RuleSystem) -> str:
    """The step's kind, one of ``system``'s; a kind of another system only is
    refused as mixing systems."""
    kind = require(s, "kind", str, path, where)
    allowed = system.steps
    if kind not in allowed:
        others = [name for name, other in systems().items() if name != system.name and kind in other.steps]
        if others:
            raise InputError(f"{path}: {where}.kind = {kind!r:.40} is a step of {others[0]} scenarios, and this "
                             f"scenario is {system.name} (system = \"{system.name}\"): a scenario does not mix "
                             f"systems; allowed kinds are {', '.join(allowed)}")
        raise InputError(f"{path}: {where}.kind = {kind!r:.40}: not a step of {system.name} scenarios; allowed "
                         f"kinds are {', '.join(allowed)}")
    return kind


def _units(doc: dict, path: Path, files: ScenarioFiles) -> dict[str, Any]:
    """The file's units by name: each a unit file (relative to the scenario) or
    a unit written inline, read by the system's readers."""
    assert files.load_unit is not None and files.unit_from_doc is not None
    tables = require(doc, "units", dict, path)
    units: dict[str, Any] = {}
    read: dict[Path, Any] = {}  # a file named by several units is read once (this call only)
    for name, u in tables.items():
        where = f"units.{name}"
        problem = unit_name_problem(name, list(tables))
        if problem:
            raise InputError(f"{path}: {where}: {problem}")
        if not isinstance(u, dict):
            raise InputError(f"{path}: {where} must be a table ([units.{name}])")
        if "file" in u:
            no_unknown_keys(u, {"file"}, path, where)
            file = require(u, "file", str, path, where)
            where_file = unit_file(path, file)
            if where_file not in read:
                read[where_file] = files.load_unit(where_file)
            units[name] = read[where_file]
        else:
            units[name] = files.unit_from_doc(u, path, name)
    return units


def unit_file(scenario: Path, written: str) -> Path:
    """Where a unit file named ``written`` in the scenario file ``scenario`` is: relative to
    the scenario's folder unless absolute (``~`` is not expanded)."""
    return Path(written) if Path(written).is_absolute() else scenario.parent / written


def part_files(doc: dict, path: Path) -> list[tuple[str, Path]]:
    """The files a scenario document names, as ``(where, path)``: each unit's ``file``
    (``units.NAME.file``). The only strings of the file that are read as files; what is
    not a table or not text is left to the reader to refuse. O(units)."""
    units = doc.get("units")
    if not isinstance(units, dict):
        return []
    return [(f"units.{name}.file", unit_file(path, u["file"])) for name, u in units.items()
            if isinstance(u, dict) and isinstance(u.get("file"), str)]


def load_scenario(path: str | Path, turns: int | None = None, distance: Fraction | None = None,
                  rounds: int | None = None) -> Scenario | Volley:
    """Read a scenario file (see the module docstring). ``turns``, ``distance``
    (every assault's) and ``rounds`` (every assault's and fight's) override
    the file's values when given."""
    path = Path(path)
    doc = load_toml(path)
    name = optional(doc, "system", str, path, default=DEFAULT_SCENARIO_SYSTEM)
    allowed = scenario_systems()
    if name not in allowed:
        raise InputError(f"{path}: system = {name!r:.40}: scenarios are for {', '.join(allowed)}")
    system = get_system(name)
    files = files_of(system)
    if files.read_file is not None:
        return files.read_file(doc, path, turns)
    no_unknown_keys(doc, SCENARIO_KEYS, path)
    n_turns = turns or optional(doc, "turns", int, path, default=1, check=between(1, MAX_TURNS))
    # the steps first: a step of another system is named before any unit file is read
    steps = require(doc, "steps", list, path)
    overrides = {"distance": distance, "rounds": rounds}
    if files.check_overrides is not None:
        files.check_overrides(path, overrides)
    built = [_step(s, i, path, system, files, overrides) for i, s in enumerate(steps, 1)]
    units = _units(doc, path, files)
    try:
        sc = Scenario(units, built, n_turns)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None
    index = {n: i for i, n in enumerate(units)}
    for i, step in enumerate(built, 1):  # each step's own checks, named by the file and the step
        try:
            step.build(index, units)
        except InputError as e:
            raise InputError(f"{path}: steps[{i}] ({step.kind}): {e}") from None
    return sc
