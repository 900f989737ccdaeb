"""``Query``: one question as data, ``(system, command, parameters)``.

The same question can be written as command-line flags, as a TOML query
file or in Python::

    exactodds 40k6 hit --shots 1 --bs 8

    system = "40k6"
    command = "hit"
    [params]
    shots = 1
    bs = 8

    Query("40k6", "hit", {"shots": 1, "bs": 8})

In ``[params]`` each key is a parameter name (the long option with dashes
written as underscores: ``reroll_hit = "4+"`` for ``--reroll-hit 4+``; ``n =
3`` for the positional ``exactodds pool 3``). A repeated option is a list
(``engaged_def = [3, 5]``); a flag is ``true``/``false``; an empty list leaves
the parameter at its default. Relative profile paths are read from the query
file's folder. ``--format`` is not part of a query: it is how the answer is
written.

A query's parameters are a typed :class:`~exactodds.commands.params.Params`
object, validated once when the query is built; its :meth:`Query.key`,
equality and hash come from those values (a profile file by its content),
so comparing two queries never parses anything and never raises.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import ExactOddsError, InputError
from .kinds import Many
from .params import ParamError, Params
from .registry import COMMANDS, Command, find

if TYPE_CHECKING:
    from ..answer import Answer
    from ..core import Dist

TOP_LEVEL_KEYS = {"system", "command", "params", "description"}
"""Keys allowed at the top level of a query file (``description`` is free text, ignored)."""


@dataclass(frozen=True, eq=False)
class Query:
    """One question: a command and its parameters.

    Build it from a mapping of parameter names (``Query("pool", None, {"n": 3,
    "hit": "4+"})``; relative profile paths read from ``base``), from a typed
    parameter object, or with :meth:`from_toml` / :meth:`from_text`.
    :meth:`answer` computes the exact answer.
    """

    system: str
    command: str | None = None
    params: Params | Mapping[str, Any] = field(default_factory=dict)
    base: Path | None = None
    """Folder against which relative profile paths were read (the query file's folder)."""
    source: str | None = None
    """Where the query came from (a file name), for messages."""

    def __post_init__(self) -> None:
        spec = find(self.system, self.command, self.source or "")
        if isinstance(self.params, Params):
            if not isinstance(self.params, spec.params):
                raise InputError(f"{spec.title} takes {spec.params.__name__}, not {type(self.params).__name__}")
            return
        if not isinstance(self.params, Mapping):
            raise InputError(f"{self._where()}params must be a table of parameter = value, not "
                             f"{type(self.params).__name__}")
        object.__setattr__(self, "params", spec.params.from_mapping(self.params, self._where(), self.base,
                                                                            spec.title))

    # ----------------------------------------------------------------- build
    @classmethod
    def from_toml(cls, path: str | Path) -> Query:
        """Read a TOML query file (``system``, optional ``command``, ``[params]``)."""
        from ..tomlfiles import load_toml

        return cls._from_doc(load_toml(path), Path(path).resolve().parent, str(path))

    @classmethod
    def from_text(cls, text: str, base: str | Path | None = None, source: str = "<query>") -> Query:
        """A query from TOML text (profile paths read from ``base``, default: the current folder)."""
        import tomllib

        from ..tomlfiles import check_toml_text

        check_toml_text(text, source)
        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise InputError(f"{source}: invalid TOML: {e}") from None
        return cls._from_doc(doc, None if base is None else Path(base), source)

    @classmethod
    def _from_doc(cls, doc: dict, base: Path | None, source: str) -> Query:
        from ..tomlfiles import no_unknown_keys, optional, require

        no_unknown_keys(doc, TOP_LEVEL_KEYS, source)
        command = optional(doc, "command", str, source)
        if "system" not in doc and command is not None:
            words = command.split()
            if len(words) != 2:  # "40k6 assault" is system and command in one
                systems = ", ".join(dict.fromkeys(f'"{s}"' for s, _ in COMMANDS))
                raise InputError(f"{source}: system is missing; expected text: the rule system ({systems}), "
                                 f"e.g. system = \"40k6\" with command = \"assault\", or both in one: "
                                 f"command = \"40k6 assault\"")
            doc = {**doc, "system": words[0]}
            command = words[1]
        system = require(doc, "system", str, source)
        optional(doc, "description", str, source)
        params = optional(doc, "params", dict, source, default={})
        params = {k: v for k, v in params.items() if v != []}  # an empty list: the default
        return cls(system, command, params, base=base, source=source)

    # ------------------------------------------------------------- execute
    @property
    def spec(self) -> Command[Any]:
        """The command this query runs."""
        return find(self.system, self.command)

    @property
    def typed(self) -> Params:
        """The validated parameters."""
        assert isinstance(self.params, Params)
        return self.params

    def answer(self) -> Answer:
        """The exact answer."""
        try:
            return self.spec.compute(self.typed)
        except ExactOddsError as e:
            if self.source:
                if isinstance(e, ParamError):
                    raise ParamError(self.source.replace("{", "{{").replace("}", "}}") + ": " + e.template) from None
                raise type(e)(f"{self.source}: {e}") from None
            raise

    def dist(self) -> Dist:
        """The exact distribution of the answer."""
        return self.answer().dist

    # ------------------------------------------------------------ describe
    @property
    def name(self) -> str:
        """``exactodds SYSTEM [COMMAND]``."""
        return self.spec.title

    def key(self) -> tuple:
        """What makes two queries the same: the command and the parameter values."""
        return (self.system, self.command, self.typed.key())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Query):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def to_toml(self) -> str:
        """This query as the text of a query file (parameters left at their default omitted),
        written by ``tomli_w``: :meth:`from_text` reads it back as the same query."""
        import tomli_w

        doc: dict[str, Any] = {"system": self.system}
        if self.command is not None:
            doc["command"] = self.command
        doc["params"] = {k: toml_plain(v) for k, v in self.typed.plain().items()}
        return tomli_w.dumps(doc)

    def command_line(self) -> str:
        """The query as a command line: ``exactodds pool 3 --hit 4+``."""
        import shlex

        words = [self.name]
        specs = self.typed.specs()
        plain = self.typed.plain()
        for key, value in plain.items():
            if specs[key][0].positional:
                words.append(shlex.quote(str(value)))
        for key, value in plain.items():
            spec = specs[key][0]
            if spec.positional:
                continue
            flag = "--" + key.replace("_", "-")
            if isinstance(value, bool):
                words += [flag] if value else []
            elif isinstance(spec.kind, Many):
                for v in value:
                    words += [flag, shlex.quote(str(v))]
            elif isinstance(value, list):
                words += [flag, shlex.quote(",".join(map(str, value)))]
            else:
                words += [flag, shlex.quote(str(value))]
        return " ".join(words)

    def __str__(self) -> str:
        return self.command_line()

    def _where(self) -> str:
        return f"{self.source}: " if self.source else ""


def toml_plain(v: Any) -> Any:
    """A parameter value as a value TOML can hold: flags, numbers, text and lists
    as they are, anything else as its text."""
    if isinstance(v, (bool, int, float, str)):
        return v
    if isinstance(v, (list, tuple)):
        return [toml_plain(x) for x in v]
    return str(v)
