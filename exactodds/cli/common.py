"""Shared pieces of the command line: the error-handling group, parameter
types, and :func:`query_command`, the pattern every query command follows.

A query command is a function computing an :class:`~exactodds.answer.Answer`
from validated parameters. :func:`query_command` turns it into a click
command with ``--format table|json|csv`` and keeps the function on the
command (``cmd.compute``) so that query files (``exactodds run``) reach the
very same code with the very same validation.
"""

from __future__ import annotations

import os
import re
import sys
from collections.abc import Callable
from typing import Any

import click

from ..answer import FORMATS, Answer
from ..core import ExactOddsError
from ..dice import Target

EXIT_REJECTED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3

_NEGATIVE = re.compile(r"^-\d")


def _one_line(text: str) -> str:
    return " ".join(text.split())


class ExactOddsGroup(click.Group):
    """A click group whose errors are one line on stderr, never a traceback.

    Exit status: 0 success, 1 a rejected validation, 2 bad input (usage
    errors, bad files, work over the size limit), 3 an internal error (a bug:
    set ``EXACTODDS_DEBUG=1`` to see the traceback).
    """

    def main(self, args: Any = None, prog_name: str | None = None, complete_var: str | None = None,
             standalone_mode: bool = True, **extra: Any) -> Any:
        try:
            rv = super().main(args=args, prog_name=prog_name or "exactodds", complete_var=complete_var,
                              standalone_mode=False, **extra)
        except click.exceptions.NoSuchOption as e:
            if _NEGATIVE.match(e.option_name):
                _fail(f"{e.option_name} is not allowed here: counts and distances must be 0 or more", e.ctx)
            _fail(e.format_message(), e.ctx)
        except click.UsageError as e:
            _fail(e.format_message(), e.ctx)
        except click.ClickException as e:
            _fail(e.format_message(), None, e.exit_code)
        except click.exceptions.Abort:
            click.echo("Aborted.", err=True)
            sys.exit(130)
        except ExactOddsError as e:
            _fail(str(e), None)
        except BrokenPipeError:
            sys.exit(0)
        except Exception as e:  # a bug: one line unless debugging
            if os.environ.get("EXACTODDS_DEBUG"):
                raise
            click.echo(f"internal error: {type(e).__name__}: {_one_line(str(e))} "
                       "(a bug in exactodds; rerun with EXACTODDS_DEBUG=1 for details)", err=True)
            sys.exit(EXIT_INTERNAL)
        sys.exit(rv if isinstance(rv, int) else 0)


def _fail(message: str, ctx: click.Context | None, code: int = EXIT_BAD_INPUT) -> None:
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    click.echo(f"Error: {_one_line(message)}{hint}", err=True)
    sys.exit(code)


class TargetType(click.ParamType):
    """A target number on a die: ``X+``, ``auto`` or ``fail``."""

    name = "X+"

    def __init__(self, sides: int = 6) -> None:
        self.sides = sides

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Target:
        if isinstance(value, Target):
            return value
        sides = ctx.params.get("sides", self.sides) if ctx is not None else self.sides
        try:
            return Target.parse(value, sides=sides)
        except ExactOddsError as e:
            self.fail(str(e), param, ctx)


class Count(click.ParamType):
    """A whole number within ``[low, high]`` (``high`` None: unbounded), with a message
    naming what is allowed (clearer than click's ``IntRange`` wording)."""

    name = "N"

    def __init__(self, low: int = 0, high: int | None = None, what: str = "a count") -> None:
        self.low, self.high, self.what = low, high, what

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> int:
        if isinstance(value, bool):
            self.fail(f"{value!r} is not {self.what}: {self._allowed()}", param, ctx)
        if isinstance(value, int):
            n = value
        else:
            text = str(value).strip()
            if not re.fullmatch(r"[+-]?\d+", text):
                self.fail(f"{value!r} is not {self.what}: {self._allowed()}", param, ctx)
            n = int(text)
        if n < self.low or (self.high is not None and n > self.high):
            self.fail(f"{n} is out of range: {self._allowed()}", param, ctx)
        return n

    def _allowed(self) -> str:
        if self.high is None:
            return f"use a whole number {self.low} or more"
        return f"use a whole number from {self.low} to {self.high}"


class FacesType(click.ParamType):
    """A comma-separated list of die faces, e.g. ``1`` or ``1,2``."""

    name = "FACES"

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> tuple[int, ...]:
        if isinstance(value, tuple):
            return value
        if isinstance(value, int) and not isinstance(value, bool):
            value = str(value)
        if isinstance(value, list):
            value = ",".join(str(v) for v in value)
        sides = ctx.params.get("sides", 6) if ctx is not None else 6
        faces = []
        for part in str(value).split(","):
            part = part.strip()
            if not part.isdigit() or not 1 <= int(part) <= sides:
                self.fail(f"{value!r} is not a list of faces: use whole numbers 1 to {sides}, "
                          f"separated by commas (e.g. 1 or 1,2)", param, ctx)
            faces.append(int(part))
        return tuple(sorted(set(faces)))


def format_option(f: Callable) -> Callable:
    """The ``--format table|json|csv`` option shared by every query command."""
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="Output format: a table for people, JSON or CSV for programs.")(f)


def query_command(parent: click.Group, name: str | None = None, **command_kwargs: Any) -> Callable:
    """Decorator: make ``compute(**params) -> Answer`` a query command of ``parent``.

    Put the click options *below* this decorator; they describe the
    command's parameters. ``--format`` is added here.
    """

    def deco(compute: Callable[..., Answer]) -> click.Command:
        def callback(fmt: str, **params: Any) -> None:
            answer = compute(**params)
            click.echo(answer.render(fmt).rstrip("\n"))

        callback.__click_params__ = list(getattr(compute, "__click_params__", []))  # type: ignore[attr-defined]
        callback.__doc__ = compute.__doc__
        cmd = parent.command(name or compute.__name__.replace("_", "-"), **command_kwargs)(format_option(callback))
        cmd.compute = compute  # type: ignore[attr-defined]
        return cmd

    return deco
