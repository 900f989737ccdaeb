"""Which commands exist, and where each is defined.

The table :data:`COMMANDS` names every command and the module that defines
it, so that an interface can list the commands without importing them and
load only the one it runs. A module defines its commands with
:func:`define`; adding a command is one parameter class, one compute
function and one line here.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from ..core import InputError

if TYPE_CHECKING:
    from ..answer import Answer
    from .params import Params

P = TypeVar("P", bound="Params")

COMMANDS: dict[tuple[str, str | None], str] = {
    ("pool", None): "pool",
    ("hd", "shoot"): "hell_dorado",
    ("40k6", "hit"): "wh40k6",
    ("40k6", "wound"): "wh40k6",
    ("40k6", "shoot"): "wh40k6",
    ("40k6", "overwatch"): "wh40k6",
    ("40k6", "charge"): "wh40k6",
    ("40k6", "fight"): "wh40k6",
    ("40k6", "morale"): "wh40k6",
    ("40k6", "fire"): "wh40k6",
    ("40k6", "assault"): "wh40k6",
    ("scenario", None): "scenario",
    ("hh3", "hit"): "hh3",
    ("hh3", "wound"): "hh3",
    ("hh3", "penetrate"): "hh3",
    ("hh3", "shoot"): "hh3",
    ("hh3", "exchange"): "hh3",
}
"""``(system, command)`` -> module of :mod:`exactodds.commands` defining it
(``command`` None: the system is a single command). A rule system's module
is the ``commands`` of its :class:`~exactodds.rules.systems.RuleSystem` (a
test checks); the table is written here so that running one command loads
no rule system."""

SYSTEMS: dict[str, str] = {
    "pool": "Exact distribution of the number of successes among N dice.",
    "hd": "Hell Dorado: shooting into a melee, with the parity rule (more odd dice than even ones send "
          "the hits to a fighter the target engages).",
    "40k6": "Warhammer 40,000 6th edition: hit and wound rolls, shooting, Overwatch, charge, fight, morale; "
            "several weapons of a unit file (fire) and the whole "
            "assault (assault).",
    "scenario": "A whole exchange from a scenario file: units named once, steps in order (40k6: shoot, "
                "assault, fight, morale; hh3: exchange, shoot) on shared unit states, over turns.",
    "hh3": "Horus Heresy 3rd edition: the shooting attack, exactly.\n\n"
           "hit (hits and Critical Hits), wound (S vs T), penetrate (d6 + S vs Armour), "
           "shoot (a whole attack from two TOML files), exchange (an attack and the target's return fire).",
}
"""What each system is, in one paragraph (the help of a group of commands)."""

_DEFINED: dict[tuple[str, str | None], Command[Any]] = {}


@dataclass(frozen=True)
class Command(Generic[P]):
    """One question a user can ask: its parameter class and its compute function.

    ``command(**values)`` builds the parameters from keyword values (as a query
    file spells them) and computes the answer; ``command(params)`` takes a
    parameter object.
    """

    system: str
    name: str | None
    params: type[P]
    compute: Callable[[P], Answer]

    @property
    def title(self) -> str:
        """``exactodds SYSTEM [COMMAND]``."""
        return " ".join(["exactodds", self.system] + ([self.name] if self.name else []))

    @property
    def doc(self) -> str:
        """The command's description (its compute function's docstring)."""
        return self.compute.__doc__ or ""

    def __call__(self, params: P | None = None, /, **values: Any) -> Answer:
        if params is not None:
            if values or not isinstance(params, self.params):
                raise InputError(f"{self.title} takes a {self.params.__name__} or keyword values, not both")
            return self.compute(params)
        return self.compute(self.params.from_mapping(values, title=self.title))


def define(system: str, name: str | None, params: type[P]) -> Callable[[Callable[[P], Answer]], Command[P]]:
    """Decorator: make ``compute(params) -> Answer`` the command ``system name``."""
    if (system, name) not in COMMANDS:
        raise AssertionError(f"{system} {name} is not listed in exactodds.commands.registry.COMMANDS")

    def deco(compute: Callable[[P], Answer]) -> Command[P]:
        command = Command(system, name, params, compute)
        _DEFINED[(system, name)] = command
        return command

    return deco


def systems() -> dict[str, list[str] | None]:
    """``{system: [commands]}``, or ``None`` for a system that is a single command."""
    out: dict[str, list[str] | None] = {}
    for system, name in COMMANDS:
        if name is None:
            out[system] = None
        else:
            out.setdefault(system, []).append(name)  # type: ignore[union-attr]
    return {s: (sorted(c) if c is not None else None) for s, c in sorted(out.items())}


def rule_systems() -> list[str]:
    """The names of the rule systems (:func:`exactodds.rules.systems.systems`),
    sorted. Loads every system's rules: not for a command's start-up."""
    from ..rules.systems import systems as registered

    return sorted(registered())


def find(system: str, name: str | None = None, where: str = "") -> Command[Any]:
    """The command ``system name``, or an InputError listing what exists. Imports
    only the module that defines it."""
    command = _DEFINED.get((system, name))
    if command is not None and (system, name) in COMMANDS:  # loaded already: O(1) (a sweep asks per query)
        return command
    prefix = f"{where}: " if where else ""
    known = systems()
    if system not in known:
        raise InputError(f"{prefix}system {system!r} is not known; allowed systems are {', '.join(known)}")
    names = known[system]
    if names is None:
        if name is not None:
            raise InputError(f"{prefix}system {system!r} is a single command: remove command = {name!r}")
    elif name is None:
        raise InputError(f"{prefix}system {system!r} needs a command; allowed commands are {', '.join(names)}")
    elif name not in names:
        raise InputError(f"{prefix}command {name!r} is not a command of {system!r}; allowed commands "
                         f"are {', '.join(names)}")
    if (system, name) not in _DEFINED:
        importlib.import_module(f"{__package__}.{COMMANDS[(system, name)]}")
    return _DEFINED[(system, name)]
