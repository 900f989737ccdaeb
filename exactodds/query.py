"""``Query``: one question, spelled as CLI flags or as a TOML query file.

A query names a command of the ``exactodds`` command line (``system``, and
``command`` for the systems that are groups of commands) and its
parameters. Both spellings reach the same code with the same validation:
the parameters are turned into the command's own arguments and parsed by
the click command itself (``cmd.make_context``), then handed to the
function that computes the answer (``cmd.compute``, see
:func:`exactodds.cli.common.query_command`). So::

    exactodds 40k6 hit --shots 1 --bs 8

and the file ::

    system = "40k6"
    command = "hit"
    [params]
    shots = 1
    bs = 8

are the same query. In ``[params]`` each key is the command's long option
with dashes written as underscores (``reroll_hit = "4+"`` for
``--reroll-hit 4+``), or the name of a positional argument (``n = 3`` for
``exactodds pool 3``). A list becomes the option repeated
(``engaged_def = [3, 5]`` is ``--engaged-def 3 --engaged-def 5``; for an
option taken once, the list is written comma-separated, ``reroll = [1, 2]``
is ``--reroll 1,2``), ``true`` gives a flag, ``false`` leaves it out.
Relative paths to profile files (options of type path, or any text value
ending in ``.toml``) are resolved against the query file's folder.
``--format`` is not part of a query: it is how the answer is written.

The module walks the click group, so it knows every command registered
there, including those of rule systems added later.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

import click

from .core import ExactOddsError, InputError
from .tomlfiles import load_toml, no_unknown_keys, optional, require

if TYPE_CHECKING:
    from .answer import Answer
    from .core import Dist

TOP_LEVEL_KEYS = {"system", "command", "params", "description"}
"""Keys allowed at the top level of a query file (``description`` is free text, ignored)."""

PATH_SUFFIXES = (".toml",)
"""Text values ending like this are profile files, resolved against the query file's folder."""

_SKIPPED = {"fmt", "format", "help"}


def _root() -> click.Group:
    from .cli import main  # lazy: the CLI imports this module while it is being built

    return main


def _is_query_command(cmd: click.Command) -> bool:
    return callable(getattr(cmd, "compute", None))


def query_systems() -> dict[str, list[str] | None]:
    """The systems a query can name: ``{system: [commands]}``, or ``None`` for a plain command.

    Only commands made with :func:`~exactodds.cli.common.query_command`
    (those computing an answer) count.
    """
    out: dict[str, list[str] | None] = {}
    for name, cmd in sorted(_root().commands.items()):
        if isinstance(cmd, click.Group):
            subs = sorted(n for n, c in cmd.commands.items() if _is_query_command(c))
            if subs:
                out[name] = subs
        elif _is_query_command(cmd):
            out[name] = None
    return out


def find_command(system: str, command: str | None, where: str = "") -> click.Command:
    """The click command of ``system`` (and ``command`` for a group), or an InputError
    listing what exists."""
    prefix = f"{where}: " if where else ""
    systems = query_systems()
    if system not in systems:
        raise InputError(f"{prefix}system {system!r} is not known; allowed systems are "
                         f"{', '.join(systems)}")
    top = _root().commands[system]
    commands = systems[system]
    if commands is None:
        if command is not None:
            raise InputError(f"{prefix}system {system!r} is a single command: remove command = {command!r}")
        return top
    if command is None:
        raise InputError(f"{prefix}system {system!r} needs a command; allowed commands are "
                         f"{', '.join(commands)}")
    if command not in commands:
        raise InputError(f"{prefix}command {command!r} is not a command of {system!r}; allowed commands "
                         f"are {', '.join(commands)}")
    return top.commands[command]  # type: ignore[attr-defined]


def param_key(param: click.Parameter) -> str:
    """The query-file key of a click parameter: its long option with dashes as
    underscores (``--reroll-hit`` -> ``reroll_hit``), or an argument's name."""
    if isinstance(param, click.Option):
        longs = [o for o in param.opts if o.startswith("--")]
        opt = longs[0] if longs else param.opts[0]
        return opt.lstrip("-").replace("-", "_")
    return param.name or ""


def query_params(cmd: click.Command) -> dict[str, click.Parameter]:
    """``{key: click parameter}`` of a command's query parameters (not ``--format`` nor ``--help``)."""
    out = {}
    for p in cmd.params:
        if p.name in _SKIPPED or not p.expose_value:
            continue
        out[param_key(p)] = p
    return out


def _is_path_param(param: click.Parameter) -> bool:
    return isinstance(param.type, (click.Path, click.File)) or bool(getattr(param.type, "is_path", False))


def _scalar_text(key: str, value: Any, where: str) -> str:
    if isinstance(value, dict):
        raise InputError(f"{where}params.{key}: expected a value (number, text, true/false or a list), "
                         "not a table")
    if isinstance(value, (list, tuple)):
        raise InputError(f"{where}params.{key}: a list inside a list is not allowed here")
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        raise InputError(f"{where}params.{key}: no value given")
    if isinstance(value, (int, float, str)):
        return str(value)
    return str(value)  # Targets, Fractions, Paths given from Python


def _resolve(value: str, base: Path | None) -> str:
    if base is None:
        return value
    p = Path(value).expanduser()
    return str(p if p.is_absolute() else base / p)


def params_to_args(cmd: click.Command, params: Mapping[str, Any], base: Path | None = None,
                   where: str = "") -> list[str]:
    """The command-line arguments that spell ``params`` for ``cmd``.

    Options come first, then ``--`` and the positional arguments, so that a
    negative number is read as a value (and refused by the command's own
    validation) rather than as an unknown option. An unknown key is an
    InputError naming it and listing the allowed keys.
    """
    allowed = query_params(cmd)
    unknown = sorted(set(params) - set(allowed))
    if unknown:
        raise InputError(f"{where}params: unknown key {unknown[0]!r}; allowed keys are "
                         f"{', '.join(sorted(allowed)) or '(none)'}")
    opts: list[str] = []
    positional: list[str] = []
    for key, param in allowed.items():
        if key not in params:
            continue
        value = params[key]
        as_path = _is_path_param(param)

        def text(v: Any) -> str:
            t = _scalar_text(key, v, where)
            if isinstance(v, (str, Path)) and (as_path or t.endswith(PATH_SUFFIXES)):
                t = _resolve(t, base)
            return t

        if isinstance(param, click.Argument):
            if param.nargs == 1:
                positional.append(text(value))
            else:
                positional.extend(text(v) for v in (value if isinstance(value, (list, tuple)) else [value]))
            continue
        assert isinstance(param, click.Option)
        name = next((o for o in param.opts if o.startswith("--")), param.opts[0])
        if param.count:
            if isinstance(value, bool) or not isinstance(value, int) or value < 0:
                raise InputError(f"{where}params.{key} = {_toml_value(value)}: expected a whole number, 0 or more")
            opts.extend([name] * value)
        elif param.is_flag:
            if not isinstance(value, bool):
                raise InputError(f"{where}params.{key} = {_toml_value(value)}: expected true or false (it is a flag)")
            if value:
                opts.append(name)
            elif param.secondary_opts:
                opts.append(param.secondary_opts[0])
        else:
            if isinstance(value, bool):
                raise InputError(f"{where}params.{key} = {_toml_value(value)}: expected a value for {name}, "
                                 "not true or false")
            if param.multiple:
                for v in value if isinstance(value, (list, tuple)) else [value]:
                    opts.append(name)
                    opts.extend([text(x) for x in v] if param.nargs > 1 and isinstance(v, (list, tuple))
                                else [text(v)])
            elif param.nargs > 1 and isinstance(value, (list, tuple)):
                opts.append(name)
                opts.extend(text(v) for v in value)
            elif isinstance(value, (list, tuple)):
                if value:  # an empty list leaves the option out (its default: none)
                    opts += [name, ",".join(text(v) for v in value)]
            else:
                opts += [name, text(value)]
    return opts + (["--"] + positional if positional else [])


def _typed_word(value: Any) -> Any:
    """A command-line word as a TOML value: whole numbers as numbers, the rest as typed."""
    if isinstance(value, (list, tuple)):
        return [_typed_word(v) for v in value]
    if isinstance(value, str) and value.strip().lstrip("-").isdigit() and value.strip() == str(int(value)):
        return int(value)
    return value


def _plain(value: Any) -> Any:
    """A validated parameter value as a TOML-friendly value (round-trips through the option)."""
    if isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return str(value)


@dataclass(frozen=True, eq=False)
class Query:
    """One question: a command of the CLI and its parameters.

    Build it with :meth:`from_toml` (a query file), :meth:`from_args`
    (command-line words) or directly (``Query("pool", None, {"n": 3,
    "hit": "4+"})``). :meth:`answer` computes the exact answer; two
    queries are equal when they name the same command with the same
    validated parameters, however they were spelled.
    """

    system: str
    command: str | None = None
    params: Mapping[str, Any] = field(default_factory=dict)
    base: Path | None = None
    """Folder against which relative profile paths are resolved (the query file's folder)."""
    source: str | None = None
    """Where the query came from (a file name), for error messages."""

    # ----------------------------------------------------------------- build
    @classmethod
    def from_toml(cls, path: str | Path) -> Query:
        """Read a TOML query file (``system``, optional ``command``, ``[params]``)."""
        return cls._from_doc(load_toml(path), Path(path).resolve().parent, str(path))

    @classmethod
    def from_text(cls, text: str, base: str | Path | None = None, source: str = "<query>") -> Query:
        """A query from TOML text (profile paths resolved against ``base``, default: none)."""
        import tomllib

        try:
            doc = tomllib.loads(text)
        except tomllib.TOMLDecodeError as e:
            raise InputError(f"{source}: invalid TOML: {e}") from None
        return cls._from_doc(doc, None if base is None else Path(base), source)

    @classmethod
    def _from_doc(cls, doc: dict, base: Path | None, source: str) -> Query:
        no_unknown_keys(doc, TOP_LEVEL_KEYS, source)
        system = require(doc, "system", str, source)
        command = optional(doc, "command", str, source)
        optional(doc, "description", str, source)
        params = optional(doc, "params", dict, source, default={})
        query = cls(system, command, dict(params), base=base, source=source)
        query.command_object()  # refuse an unknown system or command now
        return query

    @classmethod
    def from_args(cls, args: Sequence[str]) -> Query:
        """A query from command-line words, e.g. ``["pool", "3", "--hit", "4+"]``.

        The words are validated by the command; the query keeps the
        parameters given explicitly, as plain values.
        """
        from click.core import ParameterSource

        args = list(args)
        if not args:
            raise InputError(f"a query needs a system; allowed systems are {', '.join(query_systems())}")
        system, rest = args[0], args[1:]
        command = None
        if query_systems().get(system, None) is not None:
            if not rest:
                find_command(system, None)
            command, rest = rest[0], rest[1:]
        cmd = find_command(system, command)
        ctx = _make_context(cmd, _info_name(system, command), rest, "", flags=True)
        raw, _, _ = cmd.make_parser(ctx).parse_args(list(rest))  # the words as typed, per parameter
        params = {key: _typed_word(raw[p.name]) for key, p in query_params(cmd).items()
                  if p.name in raw and ctx.get_parameter_source(p.name) == ParameterSource.COMMANDLINE}
        return cls(system, command, params)

    # ------------------------------------------------------------- execute
    def command_object(self) -> click.Command:
        """The click command this query runs."""
        return find_command(self.system, self.command, self.source or "")

    def args(self) -> list[str]:
        """The command-line words after ``exactodds SYSTEM [COMMAND]`` that spell this query."""
        return params_to_args(self.command_object(), self.params, self.base, self._where())

    def parsed(self) -> dict[str, Any]:
        """The parameters validated by the command itself (all of them, defaults included)."""
        cmd = self.command_object()
        ctx = _make_context(cmd, self.name, self.args(), self._where())
        return {k: v for k, v in ctx.params.items() if k not in _SKIPPED}

    def answer(self) -> Answer:
        """The exact answer, computed by the same function as the CLI command."""
        cmd = self.command_object()
        params = self.parsed()
        try:
            return cmd.compute(**params)  # type: ignore[attr-defined]
        except click.UsageError as e:
            raise InputError(f"{self._where()}{e.format_message()}") from None
        except ExactOddsError as e:
            if self.source:
                raise type(e)(f"{self.source}: {e}") from None
            raise

    def dist(self) -> Dist:
        """The exact distribution of the answer."""
        return self.answer().dist

    # ------------------------------------------------------------ describe
    @property
    def name(self) -> str:
        """``exactodds SYSTEM [COMMAND]``."""
        return _info_name(self.system, self.command)

    def to_toml(self) -> str:
        """This query as the text of a query file."""
        lines = [f"system = {json.dumps(self.system)}"]
        if self.command is not None:
            lines.append(f"command = {json.dumps(self.command)}")
        lines.append("")
        lines.append("[params]")
        for k, v in self.params.items():
            lines.append(f"{k} = {_toml_value(_plain(v))}")
        return "\n".join(lines) + "\n"

    def key(self) -> tuple:
        """What makes two queries the same: command and validated parameters."""
        return (self.system, self.command, json.dumps(_plain_params(self.parsed()), sort_keys=True))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Query):
            return NotImplemented
        return self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def command_line(self) -> str:
        """The query as a command line for people: ``exactodds pool 3 --hit 4+``."""
        import shlex

        args = self.args()
        if "--" in args:
            at = args.index("--")
            positional = args[at + 1:]
            args = (positional + args[:at]) if not any(a.startswith("-") for a in positional) else args
        return " ".join([self.name] + [shlex.quote(a) for a in args])

    def __str__(self) -> str:
        return self.command_line()

    def _where(self) -> str:
        return f"{self.source}: " if self.source else f"{self.name}: "


def _plain_params(params: Mapping[str, Any]) -> dict:
    return {k: _plain(v) if v is not None else None for k, v in params.items()}


def _toml_value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, (int, float)):
        return repr(v)
    if isinstance(v, list):
        return "[" + ", ".join(_toml_value(x) for x in v) + "]"
    return json.dumps(str(v))


def _info_name(system: str, command: str | None) -> str:
    return " ".join(["exactodds", system] + ([command] if command else []))


def _make_context(cmd: click.Command, info_name: str, args: list[str], where: str,
                  flags: bool = False) -> click.Context:
    """Parse ``args`` with the command itself; its usage errors become InputErrors
    naming the key (or the option, for a query spelled as flags)."""
    try:
        return cmd.make_context(info_name, list(args))
    except click.BadParameter as e:  # MissingParameter included
        if e.param is None or flags:
            raise InputError(f"{where}{info_name}: {e.format_message()}") from None
        key = param_key(e.param)
        if isinstance(e, click.MissingParameter):
            raise InputError(f"{where}params: {key!r} is required by {info_name} and missing") from None
        raise InputError(f"{where}params.{key}: {e.message}") from None
    except click.UsageError as e:
        raise InputError(f"{where}{e.format_message()}") from None
