"""The registry of rule systems: one :class:`RuleSystem` per system.

Each system is a package of :mod:`exactodds.rules` with a module ``system``
that builds its :class:`RuleSystem` and calls :func:`register` once. Generic
code (the scenario engine, scenario files, the ``scenario`` command) asks
this registry what a system offers instead of testing system names.

The registry finds the systems by looking for those ``system`` modules
(:func:`systems`), so a new system is one package plus its one registration.
Listing the systems imports every system's package; nothing here is read
when a command of one system runs on its own.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeVar

from ..core import Dist, InputError
from .allocation import UnitState

T = TypeVar("T")

DEFAULT_SCENARIO_SYSTEM = "40k6"
"""The system of a scenario file that does not name one (``system = ...``)."""


@dataclass(frozen=True)
class StepKind:
    """One kind of scenario step: its name (``kind = "shoot"`` in a file) and
    its class. For a system with a ``start`` state, an instance of ``spec`` has
    ``kind``, ``name``, ``system`` and ``build(index, units)``, which gives its
    pipeline steps on worlds, run by :class:`~exactodds.rules.scenario.Scenario`;
    otherwise the system's scenarios run their steps their own way (Hell
    Dorado's :class:`~exactodds.rules.hd.volley.Volley`)."""

    name: str
    spec: type
    doc: str = ""


@dataclass(frozen=True)
class RuleSystem:
    """What one rule system offers, for the generic code that serves them all.

    - ``name``, ``title``: ``"40k6"``, ``"Warhammer 40,000 6th edition"``.
    - ``commands``: the module of :mod:`exactodds.commands` defining its
      commands (the commands registry lists each command and this module).
    - ``profiles``: the module of :mod:`exactodds.profiles` that reads its
      unit files and scenario steps, and registers those readers (None: no files).
    - ``steps``: its scenario step kinds, in the order a message lists them.
    - ``start``: a unit's state and status when a scenario starts (None: the
      system's scenarios start their own way, or it has none).
    - ``work``: a bound on the work of one of its scenarios (checked against
      the state limit before any work).
    - ``extras``: answers of its own on a scenario's final worlds
      (``extras(final, names)``), besides each unit's P(destroyed) and survivors.
    - ``prepare``: the step specs of one turn as the system builds them, given
      all of them (e.g. which steps make one shooting phase); None: as written.
    """

    name: str
    title: str
    commands: str
    profiles: str | None = None
    steps: Mapping[str, StepKind] = field(default_factory=dict)
    start: Callable[[Any], tuple[UnitState, str]] | None = None
    work: Callable[[Any], int] | None = None
    extras: Callable[[Dist, list[str]], dict[str, Any]] | None = None
    prepare: Callable[[Sequence[Any]], Sequence[Any]] | None = None

    def step_kind(self, kind: str) -> StepKind:
        """The step kind ``kind``, or an InputError naming the allowed kinds."""
        if kind not in self.steps:
            raise InputError(f"{kind!r:.40} is not a step of {self.name} scenarios; allowed kinds are "
                             f"{', '.join(self.steps)}")
        return self.steps[kind]


_REGISTERED: dict[str, RuleSystem] = {}


def register(system: RuleSystem) -> RuleSystem:
    """Add ``system`` to the registry (once per name); returns it."""
    return add_once(_REGISTERED, system.name, system, "the rule system")


def add_once(table: dict[str, T], name: str, value: T, what: str) -> T:
    """``table[name] = value``, refused when ``name`` holds another value
    (a second registration of ``what``); returns ``value``."""
    old = table.get(name)
    if old is not None and old is not value:
        raise AssertionError(f"{what} {name!r} is registered twice")
    table[name] = value
    return value


_DISCOVERED: list[bool] = []
"""Whether :func:`_discover` has run (the packages installed do not change while the process runs)."""


def _discover() -> None:
    """Import the ``system`` module of every package of :mod:`exactodds.rules`
    (each registers its system), once per process. O(packages) the first time."""
    if _DISCOVERED:
        return
    package = importlib.import_module(__package__)
    for info in pkgutil.iter_modules(package.__path__):
        if info.ispkg and importlib.util.find_spec(f"{__package__}.{info.name}.system") is not None:
            importlib.import_module(f"{__package__}.{info.name}.system")
    _DISCOVERED.append(True)


def systems() -> dict[str, RuleSystem]:
    """Every registered rule system by name, sorted by name."""
    _discover()
    return dict(sorted(_REGISTERED.items()))


def get(name: str) -> RuleSystem:
    """The rule system ``name``, or an InputError naming the systems there are."""
    if name not in _REGISTERED:
        _discover()
    if name not in _REGISTERED:
        raise InputError(f"system {name!r:.40} is not known; allowed systems are {', '.join(sorted(_REGISTERED))}")
    return _REGISTERED[name]


def scenario_systems() -> list[str]:
    """The systems that have scenario steps, the default one first."""
    names = [n for n, s in systems().items() if s.steps]
    return sorted(names, key=lambda n: n != DEFAULT_SCENARIO_SYSTEM)
