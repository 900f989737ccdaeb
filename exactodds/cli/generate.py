"""Click commands generated from the commands layer.

Each command of :mod:`exactodds.commands` becomes a click command: one
option per parameter (``reroll_up_to`` -> ``--reroll-up-to``; a positional
parameter -> an argument; a flag -> ``--flag``; several values -> a
repeated option), with the parameter's help text and default, plus the
options every query command shares (``--format``, ``--max-states``).
Values are passed to the parameter class as typed by the user, so the
command line, query files and Python validate them with the same code; the
parameter class's messages are spelled with this interface's option names.

Nothing here is written per command: a new command appears on the command
line once it is registered in :mod:`exactodds.commands.registry`.
"""

from __future__ import annotations

from dataclasses import MISSING
from typing import Any

import click

from ..commands import Command, FieldError, ParamError, Params, Query, state_limit
from ..commands.params import literal
from ..commands.kinds import Choice, Flag, Kind, KindError, Many, ProfileFile
from .common import (
    OUTPUT_OPTIONS,
    PLOT_OPTIONS,
    ExactOddsGroup,
    check_plot,
    emit_answer,
    format_option,
    output_options,
    plot_options,
)


def spell(params: type[Params]) -> Any:
    """How this interface writes a parameter name: ``--reroll-up-to``, or ``N`` for a positional one."""
    specs = params.specs()

    def spelled(name: str) -> str:
        spec = specs.get(name)
        if spec is not None and spec[0].positional:
            return name.upper()
        return "--" + name.replace("_", "-")

    return spelled


def _help(text: str, params: type[Params]) -> str:
    return text.format_map(_Spelled(spell(params)))


class _Spelled(dict):
    def __init__(self, spelled: Any) -> None:
        super().__init__()
        self.spelled = spelled

    def __missing__(self, key: str) -> str:
        return str(self.spelled(key))


class KindType(click.ParamType):
    """A click type for a kind of value of the commands layer.

    With ``check=False`` (a command's parameters) click passes the words
    through as typed and the parameter class converts them, with the other
    parameters in view; with ``check=True`` (options that are not a command's
    parameters, such as ``sweep --workers``) click converts them itself.
    """

    def __init__(self, kind: Kind, check: bool = True) -> None:
        self.kind, self.check = kind, check
        self.name = kind.metavar or "VALUE"
        self.is_path = isinstance(kind, ProfileFile)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if not self.check:
            return value
        try:
            return self.kind.convert(value, {})
        except KindError as e:
            self.fail(str(e), param, ctx)


NONE_WORDS = ("-", "none", "no", "")
"""Values people type to mean "none" for an option whose default is none."""


def _none_hint(kind: Kind, value: Any, param: click.Parameter | None) -> str:
    """``; leave --ap out for no AP`` when ``value`` reads as "none" for an option
    that is none by default (its kind names what it is: ``an AP``)."""
    what = getattr(kind, "what", None)
    if not isinstance(param, click.Option) or not isinstance(what, str) or str(value).strip().lower() not in NONE_WORDS:
        return ""
    noun = what.split(" ", 1)[1] if what.split(" ", 1)[0] in ("a", "an") and " " in what else what
    return f"; leave {param.opts[0]} out for no {noun}"


def _click_type(kind: Kind) -> click.ParamType:
    if isinstance(kind, Choice):
        return click.Choice(kind.choices)
    return KindType(kind, check=False)


def _shown_default(kind: Kind, default: Any) -> Any:
    """The default as the command line would spell it (None: not shown)."""
    if default is MISSING or default is None or default == () or isinstance(kind, Flag):
        return None
    return kind.plain(kind.convert(default, {}))


def click_params(params: type[Params]) -> list[click.Parameter]:
    """The click arguments and options of a parameter class, in declaration order."""
    out: list[click.Parameter] = []
    for name, (spec, default) in params.specs().items():
        kind = spec.kind
        required = default is MISSING
        if spec.positional:
            out.append(click.Argument([name], type=_click_type(kind), required=required,
                                      metavar=spec.metavar or name.upper()))
            continue
        flag = "--" + name.replace("_", "-")
        help_text = _help(spec.help, params)
        if isinstance(kind, Flag):
            out.append(click.Option([flag, name], is_flag=True, default=False, help=help_text))
        elif isinstance(kind, Many):
            out.append(click.Option([flag, name], type=_click_type(kind.item), multiple=True, help=help_text,
                                    metavar=spec.metavar or kind.item.metavar))
        else:
            shown = _shown_default(kind, default)
            extra: dict[str, Any] = {} if shown is None else {"default": shown, "show_default": True}
            out.append(click.Option([flag, name], type=_click_type(kind), required=required, help=help_text,
                                    metavar=spec.metavar or kind.metavar, **extra))
    return out


def given(values: dict[str, Any]) -> dict[str, Any]:
    """The values the user gave (click reports the others as None, False or ())."""
    return {k: v for k, v in values.items() if v is not None and v is not False and v != ()}


def build(spec: Command[Any], values: dict[str, Any], ctx: click.Context) -> Params:
    """The parameter object of ``values`` typed on the command line; a bad value is
    click's usage error for its option, a bad combination one line in option names."""
    try:
        return spec.params(**given(values))
    except FieldError as e:
        param = next((p for p in ctx.command.params if p.name == e.name), None)
        spec_of = spec.params.specs().get(e.name)  # (spec, default): a hint only for a field none by default
        hint = "" if spec_of is None or spec_of[1] is not None else \
            _none_hint(spec_of[0].kind, values.get(e.name), param)
        raise click.BadParameter(e.reason + hint, ctx=ctx, param=param) from None
    except ParamError as e:
        raise _spelled(e, spec) from None


def _spelled(error: ParamError, spec: Command[Any]) -> ParamError:
    """The same error, its parameter names written as options."""
    return ParamError(literal(error.spelled(spell(spec.params))))


def with_max_states(command: click.Command) -> click.Command:
    """Add ``--max-states`` to a command: its callback runs within that limit, else
    within the one given before the command (else the environment's)."""
    command.params.append(click.Option(
        ["--max-states", "max_states"], type=click.IntRange(min=1), default=None,
        help="Refuse questions needing more states than this (default 2,000,000; env EXACTODDS_MAX_STATES)."))
    inner = command.callback
    assert inner is not None

    def callback(max_states: int | None, **kwargs: Any) -> Any:
        ctx = click.get_current_context()
        limit = max_states if max_states is not None else ctx.find_root().params.get("max_states")
        with state_limit(limit):
            return inner(**kwargs)

    command.callback = callback
    return command


def query_command(spec: Command[Any]) -> click.Command:
    """The click command of one command of the commands layer."""

    def callback(fmt: str, **values: Any) -> None:
        output = {name: values.pop(name) for name in OUTPUT_OPTIONS}
        plot, plot_at_least = (values.pop(name) for name in PLOT_OPTIONS)
        check_plot(plot, plot_at_least)
        params = build(spec, values, click.get_current_context())
        try:
            answer = spec.compute(params)
        except ParamError as e:
            raise _spelled(e, spec) from None
        query = Query(spec.system, spec.name, params)
        emit_answer(answer, fmt, output, plot, plot_at_least, title=query.command_line(), xlabel=plot_label(params))

    clash = set(spec.params.specs()) & {*OUTPUT_OPTIONS, *PLOT_OPTIONS, "fmt", "max_states"}
    assert not clash, f"{spec.title}: parameter names {clash} are taken by the command line's own options"
    command = click.Command(spec.name or spec.system, callback=callback, params=click_params(spec.params),
                            help=spec.doc, short_help=_first_line(spec.doc))
    return with_max_states(plot_options(output_options(format_option(command))))


def plot_label(params: Params) -> str | None:
    """What a plot's x axis counts: the stage or outcome a command was asked to report."""
    for name in ("stage", "outcome", "show"):
        value = getattr(params, name, None)
        if isinstance(value, str):
            return value.replace("-", " ")
    return None


def _first_line(doc: str) -> str:
    """The first paragraph of a docstring as one line (its indents as single spaces)."""
    return " ".join(doc.strip().split("\n\n")[0].split())


class SystemGroup(ExactOddsGroup):
    """The commands of one rule system, each built when first asked for."""

    def __init__(self, system: str, help: str) -> None:
        super().__init__(system, help=help)
        self.system = system

    def list_commands(self, ctx: click.Context) -> list[str]:
        from ..commands import systems

        return list(systems()[self.system] or [])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        from ..commands import find

        if cmd_name not in self.list_commands(ctx):
            return None
        return query_command(find(self.system, cmd_name))


def query_from_args(args: list[str]) -> Query:
    """The :class:`~exactodds.commands.Query` that command-line words spell, e.g.
    ``["pool", "3", "--hit", "4+"]`` (validated as the command line does)."""
    from ..commands import InputError, find, systems

    known = systems()
    if not args:
        raise InputError(f"a query needs a system; allowed systems are {', '.join(known)}")
    system, rest = args[0], list(args[1:])
    name = None
    if known.get(system, None) is not None:
        if not rest:
            find(system, None)
        name, rest = rest[0], rest[1:]
    spec = find(system, name)
    command = query_command(spec)
    try:
        ctx = command.make_context(spec.title, rest)
        values = {k: v for k, v in ctx.params.items()
                  if k not in ("fmt", "max_states", *OUTPUT_OPTIONS, *PLOT_OPTIONS)}
        with ctx:
            return Query(system, name, build(spec, values, ctx))
    except click.UsageError as e:
        raise InputError(f"{spec.title}: {e.format_message()}") from None
