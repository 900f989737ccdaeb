"""Readers of each rule system's files, keyed by system name.

Each system's profiles module (named by its
:class:`~exactodds.rules.systems.RuleSystem`'s ``profiles``) builds one
:class:`ScenarioFiles` and calls :func:`register`: how to read its unit
files and each kind of its scenario steps from TOML. A scenario file's
reader (:mod:`.scenario`) asks :func:`files_of` instead of testing system
names.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..rules.systems import RuleSystem, add_once


@dataclass(frozen=True)
class StepReader:
    """How to read one kind of scenario step: the keys its table takes (besides
    ``kind`` and ``name``) and ``read(table, path, where, overrides)``, which
    gives the step spec (``overrides``: the command's ``distance`` and
    ``rounds``, None when not given); no ``read`` when the system's
    ``read_file`` reads its steps."""

    keys: frozenset[str]
    read: Callable[[dict, Path, str, Mapping[str, Any]], Any] | None = None


@dataclass(frozen=True)
class ScenarioFiles:
    """A system's readers: ``steps`` (kind -> :class:`StepReader`, the kinds of
    the rule system), ``load_unit(path)`` (a unit file), ``unit_from_doc(table,
    path, name)`` (a unit written inline), ``check_overrides(path, overrides)``
    (refuses the overrides its steps do not take), or ``read_file(doc, path,
    turns)`` for a system whose scenario file is read its own way."""

    system: str
    steps: Mapping[str, StepReader] = field(default_factory=dict)
    load_unit: Callable[[Path], Any] | None = None
    unit_from_doc: Callable[[dict, Path, str], Any] | None = None
    check_overrides: Callable[[Path, Mapping[str, Any]], None] | None = None
    read_file: Callable[[dict, Path, int | None], Any] | None = None


_REGISTERED: dict[str, ScenarioFiles] = {}


def register(files: ScenarioFiles) -> ScenarioFiles:
    """Add a system's readers (once per system); returns them."""
    return add_once(_REGISTERED, files.system, files, "the readers of")


def files_of(system: RuleSystem) -> ScenarioFiles:
    """The readers of ``system``'s files: its profiles module, imported on first
    use, registers them."""
    if system.name not in _REGISTERED:
        if system.profiles is None:
            raise AssertionError(f"the rule system {system.name!r} has no files")
        importlib.import_module(f"{__package__}.{system.profiles}")
    return _REGISTERED[system.name]
