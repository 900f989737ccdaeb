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
from ..core.limits import check_digits, decimal_digits
from ..dice import Target

EXIT_REJECTED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3

_NEGATIVE = re.compile(r"^-\d")
MAX_WORD = 200
"""Words of an error message longer than this are shortened (a 5,000-digit
number typed by mistake is quoted by its start and its length); file paths
are kept whole up to :data:`MAX_PATH`, as they say where the problem is."""
MAX_PATH = 1000
MAX_NUMBER_DIGITS = 100
"""A count written with more digits than this is refused before converting it
(Python itself refuses to read integers of more than 4,300 digits)."""


def _one_line(text: str) -> str:
    return " ".join(_shorten(word) for word in text.split())


def _shorten(word: str) -> str:
    if len(word) <= MAX_WORD or (len(word) <= MAX_PATH and ("/" in word or "\\" in word)):
        return word
    return f"{word[:24]}...({len(word):,} characters)"


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
        except click.exceptions.NoArgsIsHelpError as e:  # a bare group: its help, as --help does
            click.echo(e.ctx.get_help())
            sys.exit(0)
        except click.exceptions.NoSuchOption as e:
            if _NEGATIVE.match(e.option_name):
                _fail(f"{e.option_name} is not allowed here: counts and distances must be 0 or more", e.ctx)
            _fail(e.format_message(), e.ctx)
        except click.BadParameter as e:
            _fail(e.format_message() + _from_environment(e), e.ctx)
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


def _from_environment(e: click.BadParameter) -> str:
    """' (from the environment variable X)' when the bad value came from there."""
    param, ctx = e.param, e.ctx
    if param is None or ctx is None or param.name is None:
        return ""
    if ctx.get_parameter_source(param.name) is not click.core.ParameterSource.ENVIRONMENT:
        return ""
    envvar = param.envvar if isinstance(param.envvar, str) else "the environment"
    return f" (from the environment variable {envvar})"


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
            if not re.fullmatch(r"[+-]?[0-9]+", text):
                self.fail(f"{value!r} is not {self.what}: {self._allowed()}", param, ctx)
            if len(text.lstrip("+-").lstrip("0")) > MAX_NUMBER_DIGITS:
                self.fail(f"{text} is far too large ({len(text):,} digits): {self._allowed()}", param, ctx)
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
            if not re.fullmatch(r"[0-9]{1,4}", part) or not 1 <= int(part) <= sides:
                self.fail(f"{value!r} is not a list of faces: use whole numbers 1 to {sides}, "
                          f"separated by commas (e.g. 1 or 1,2)", param, ctx)
            faces.append(int(part))
        return tuple(sorted(set(faces)))


def render_answer(answer: Answer, fmt: str) -> str:
    """``answer`` rendered in ``fmt`` (no trailing newline), after checking that
    its exact fractions are not too long to write (:func:`~exactodds.core.limits.check_digits`).

    Writing a fraction of d digits as text costs O(d^2); the check costs
    O(outcomes + d) and refuses, with the size, before any of that work.
    """
    dist = answer.dist
    numbers = [answer.mean, *_fractions(answer.extras)]
    digits = max([decimal_digits(dist.denominator)]
                 + [decimal_digits(x) for f in numbers if f is not None for x in (f.numerator, f.denominator)])
    check_digits(len(dist) + len(numbers), digits, "the answer")
    return answer.render(fmt).rstrip("\n")


def _fractions(value: Any) -> list:
    """The Fractions inside an answer's extras (nested in dicts, lists and tuples)."""
    from fractions import Fraction

    if isinstance(value, Fraction):
        return [value]
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return [f for v in value for f in _fractions(v)]
    return []


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
            click.echo(render_answer(compute(**params), fmt))

        callback.__click_params__ = list(getattr(compute, "__click_params__", []))  # type: ignore[attr-defined]
        callback.__doc__ = compute.__doc__
        cmd = parent.command(name or compute.__name__.replace("_", "-"), **command_kwargs)(format_option(callback))
        cmd.compute = compute  # type: ignore[attr-defined]
        return cmd

    return deco
