"""Shared pieces of the command line: the error-handling group, the
``--format`` option and the rendering of an answer."""

from __future__ import annotations

import errno
import io
import os
import re
import sys
from typing import Any, NoReturn

import click

from ..commands import (FORMATS, Answer, ExactOddsError, check_answer_digits, check_digits, decimal_digits,
                        fractions_in)

EXIT_REJECTED = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3

_NEGATIVE = re.compile(r"^-\d")
MAX_WORD = 200
"""Words of an error message longer than this are shortened (a 5,000-digit
number typed by mistake is quoted by its start and its length); file paths
are kept whole up to :data:`MAX_PATH`, as they say where the problem is."""
MAX_PATH = 1000
MAX_LINE = 500
"""Most characters of a message's line: a longer message (a 600 kB list quoted
back) keeps its start and its end (what was expected) and says how much of
the middle was cut."""

WRITE_FULL = {errno.ENOSPC: "the disk is full (no space left on device)",
              errno.EFBIG: "the file is too large (over the file size limit)",
              errno.EDQUOT: "the disk quota is exceeded"}
"""Write errors of the environment (not bugs): what each means."""


def _one_line(text: str) -> str:
    line = " ".join(_shorten(word) for word in text.split())
    if len(line) <= MAX_LINE:
        return line
    head, tail = MAX_LINE - 200, 150
    return f"{line[:head]} ...({len(line) - head - tail:,} characters cut)... {line[-tail:]}"


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
        """Run the command line. ``standalone_mode=True`` (the default, the
        ``exactodds`` program): errors are one line, and the process exits with
        the status above. ``standalone_mode=False`` (calling it from Python),
        click's contract: returns the command's return value (``validate``: 1
        for a rejected sample, else 0; the query commands: ``None``) and raises
        instead of exiting: :class:`click.ClickException` (bad usage, bad
        values), :class:`click.exceptions.Abort` (Ctrl-C) or
        :class:`~exactodds.core.ExactOddsError` (bad input found by the
        library, work over the size limit)."""
        if not standalone_mode:
            return super().main(args=args, prog_name=prog_name or "exactodds", complete_var=complete_var,
                                standalone_mode=False, **extra)
        _whole_stdout()
        try:
            rv = super().main(args=args, prog_name=prog_name or "exactodds", complete_var=complete_var,
                              standalone_mode=False, **extra)
            sys.stdout.flush()  # a write error of the last output is reported here, not at exit
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
        except (BrokenPipeError, _ReaderLeft):  # the reader left (| head): stop quietly, as Unix tools do
            _drop_stdout()
            sys.exit(0)
        except OSError as e:
            if e.errno not in WRITE_FULL:
                _internal(e)
            # the commands name the files they write: a write error without a file name is standard output's
            _fail(f"cannot write {e.filename or 'standard output'}: {WRITE_FULL[e.errno]}", None)
        except Exception as e:  # a bug: one line unless debugging
            _internal(e)
        sys.exit(rv if isinstance(rv, int) else 0)


    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except BrokenPipeError:  # click itself would exit 1, the status of a rejected validation
            raise _ReaderLeft() from None


class _ReaderLeft(Exception):
    """Standard output's reader closed the pipe."""


def _internal(e: Exception) -> NoReturn:
    """A bug: one line and exit 3 (the traceback with ``EXACTODDS_DEBUG=1``)."""
    if os.environ.get("EXACTODDS_DEBUG"):
        raise e
    _settle_stdout()
    click.echo(f"internal error: {type(e).__name__}: {_one_line(str(e))} "
               "(a bug in exactodds; rerun with EXACTODDS_DEBUG=1 for details)", err=True)
    sys.exit(EXIT_INTERNAL)


class _WholeWrites(io.RawIOBase):
    """File descriptor writes that write everything or raise: a short write
    (the disk filled up, the file reached its size limit) is retried, so the
    error that follows is raised instead of the rest being silently lost, as
    it is by an unbuffered standard output (``PYTHONUNBUFFERED``)."""

    def __init__(self, fd: int) -> None:
        super().__init__()
        self._fd = fd

    def writable(self) -> bool:
        return True

    def fileno(self) -> int:
        return self._fd

    def write(self, data: Any) -> int:
        view = memoryview(data).cast("B")
        done = 0
        while done < len(view):
            done += os.write(self._fd, view[done:])
        return done

    def close(self) -> None:  # the descriptor is standard output's, not ours to close
        self.flush()


def _whole_stdout() -> None:
    """Give standard output whole writes (:class:`_WholeWrites`) when it is a
    file or a pipe (not a terminal, nor a test runner's stream)."""
    stream = sys.stdout
    try:
        fd = stream.fileno()
        if os.isatty(fd) or isinstance(stream, io.TextIOWrapper) and isinstance(stream.buffer, io.BufferedWriter) \
                and isinstance(stream.buffer.raw, _WholeWrites):
            return
    except (AttributeError, OSError, ValueError):  # io.UnsupportedOperation is an OSError and a ValueError
        return
    sys.stdout.flush()
    sys.stdout = io.TextIOWrapper(io.BufferedWriter(_WholeWrites(fd)), encoding=stream.encoding,
                                  errors=stream.errors, newline="\n")


def _settle_stdout() -> None:
    """Before a failure's exit: write what standard output still holds, or, when
    that fails too (a full disk, a closed pipe), drop it (:func:`_drop_stdout`)."""
    try:
        sys.stdout.flush()
    except (OSError, ValueError):
        _drop_stdout()


def _drop_stdout() -> None:
    """Point standard output at /dev/null, so that Python's flush at exit neither
    fails again nor prints "Exception ignored" (the Python documentation's advice
    for SIGPIPE)."""
    try:
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        os.close(devnull)
    except (OSError, ValueError):  # no real file descriptor (a test runner's stream)
        pass



def _from_environment(e: click.BadParameter) -> str:
    """' (from the environment variable X)' when the bad value came from there."""
    param, ctx = e.param, e.ctx
    if param is None or ctx is None or param.name is None:
        return ""
    if ctx.get_parameter_source(param.name) is not click.core.ParameterSource.ENVIRONMENT:
        return ""
    envvar = param.envvar if isinstance(param.envvar, str) else "the environment"
    return f" (from the environment variable {envvar})"


def _fail(message: str, ctx: click.Context | None, code: int = EXIT_BAD_INPUT) -> NoReturn:
    """The one place error messages go out: one line (cut at :data:`MAX_LINE`), then exit."""
    _settle_stdout()
    hint = f" (see '{ctx.command_path} --help')" if ctx is not None else ""
    click.echo(f"Error: {_one_line(message)}{hint}", err=True)
    sys.exit(code)


OUTPUT_OPTIONS = ("all_rows", "exact", "at_least", "at_most", "mean", "unit", "joint")
"""What the output options of a query command are called in its callback."""


def output_options(command: click.Command) -> click.Command:
    """Add the options that choose what to print: ``--all``, ``--exact``, and one
    figure alone (``--at-least K``, ``--at-most K``, ``--mean``)."""
    command.params += [
        click.Option(["--all", "all_rows"], is_flag=True,
                     help="Print every outcome (the table shows the most probable ones by default)."),
        click.Option(["--exact", "exact"], is_flag=True,
                     help="Print long exact fractions in full in the table (JSON and CSV always do)."),
        click.Option(["--at-least", "at_least"], type=click.INT, default=None, metavar="K",
                     help="Print only P(outcome >= K), exact and as a decimal."),
        click.Option(["--at-most", "at_most"], type=click.INT, default=None, metavar="K",
                     help="Print only P(outcome <= K), exact and as a decimal."),
        click.Option(["--mean", "mean"], is_flag=True, help="Print only the mean, exact and as a decimal."),
        click.Option(["--unit", "unit"], default=None, metavar="NAME",
                     help="Answer for one unit of an engagement (attacker, defender, target, firing, or a "
                          "scenario's unit name): its models left; --at-least, --mean, --plot apply to it."),
        click.Option(["--joint", "joint"], is_flag=True,
                     help="Print an engagement's whole joint distribution instead of its per-unit summary."),
    ]
    return command


PLOT_OPTIONS = ("plot", "plot_at_least")
"""What the plot options of a query command are called in its callback."""

PLOT_SUFFIXES = ("png", "svg", "pdf")


def _plot_file(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    """``--plot FILE``: refuse, before any work, a suffix other than png/svg/pdf or a
    missing matplotlib (one line, exit 2)."""
    if value is None:
        return None
    suffix = value.rsplit(".", 1)[-1].lower() if "." in value.replace("\\", "/").rsplit("/", 1)[-1] else ""
    if suffix not in PLOT_SUFFIXES:
        raise click.BadParameter(f"{value!r}: a plot is written as .png, .svg or .pdf, chosen by the file name's suffix", ctx, param)
    try:
        import matplotlib  # noqa: F401 - only checking that it is there
    except ImportError:
        raise click.BadParameter("plotting needs matplotlib, which is not installed: "
                                 "pip install 'exactodds[plot]'", ctx, param) from None
    return value


def plot_options(command: click.Command) -> click.Command:
    """Add ``--plot FILE`` and ``--plot-at-least`` to a command."""
    command.params += [
        click.Option(["--plot", "plot"], default=None, metavar="FILE", callback=_plot_file, expose_value=True,
                     help="Also draw the answer into FILE (.png, .svg or .pdf; needs the plot extra: "
                          "matplotlib). The answer is still printed."),
        click.Option(["--plot-at-least", "plot_at_least"], is_flag=True,
                     help="With --plot: draw P(outcome >= x), the chance of at least x, instead of "
                          "P(outcome = x) (numeric outcomes)."),
    ]
    return command


def check_plot(plot: str | None, plot_at_least: bool) -> None:
    """``--plot-at-least`` means something only with ``--plot``."""
    if plot_at_least and plot is None:
        raise click.UsageError("--plot-at-least shapes the plot: give it with --plot FILE")


def emit_answer(answer: Answer, fmt: str, output: dict[str, Any], plot: str | None = None,
                plot_at_least: bool = False, title: str | None = None, xlabel: str | None = None) -> None:
    """Print ``answer`` (:func:`render_answer` with the output options), then draw it
    into ``plot`` when given (after checking that the plot can be drawn, so that
    a refused plot prints nothing). With ``unit`` among the output options, the
    answer is that unit's own (:meth:`~exactodds.answer.Answer.unit`)."""
    output = dict(output)
    unit = output.pop("unit", None)
    if unit is not None:
        answer = answer.unit(unit)
    if plot is not None and plot_at_least and not answer.numeric and not answer.composite:
        raise click.UsageError("--plot-at-least needs numeric outcomes (P(outcome >= x)); this answer's "
                               "outcomes are composite: drop --plot-at-least")
    click.echo(render_answer(answer, fmt, **output))
    if plot is not None:
        answer.save_plot(plot, at_least=plot_at_least, title=title, xlabel=xlabel)
        click.echo(f"plot written to {plot}", err=True)


def render_answer(answer: Answer, fmt: str, all_rows: bool = False, exact: bool = False,
                  at_least: int | None = None, at_most: int | None = None, mean: bool = False,
                  joint: bool = False) -> str:
    """``answer`` rendered in ``fmt`` (no trailing newline), or one of its figures
    alone, after checking that its exact fractions are not too long to write
    (:func:`~exactodds.core.limits.check_answer_digits`: O(outcomes + digits), before
    the O(digits^2) work of writing them).
    """
    from fractions import Fraction

    chosen = [(name, k) for name, k, on in (("at_least", at_least, at_least is not None),
                                            ("at_most", at_most, at_most is not None),
                                            ("mean", None, mean)) if on]
    if len(chosen) > 1:
        raise click.UsageError("--at-least, --at-most and --mean each print one figure: give one of them")
    if chosen:
        name, k = chosen[0]
        value = answer.figure(name, k)
        if isinstance(value, Fraction):
            check_digits(1, max(decimal_digits(value.numerator), decimal_digits(value.denominator)), "the figure")
        return answer.render_figure(name, k, fmt, exact=exact).rstrip("\n")
    check_answer_digits(len(answer.dist), answer.dist.denominator, [answer.mean, *fractions_in(answer.extras)])
    return answer.render(fmt, all_rows=all_rows, exact=exact, joint=joint).rstrip("\n")


def format_option(target: Any) -> Any:
    """Add ``--format table|json|csv`` to a click command (or, as a decorator, to its function)."""
    option = click.Option(["--format", "fmt"], type=click.Choice(FORMATS), default="table", show_default=True,
                          help="Output format: a table for people, JSON or CSV for programs.")
    if isinstance(target, click.Command):
        target.params.append(option)
        return target
    return click.option("--format", "fmt", type=click.Choice(FORMATS), default="table", show_default=True,
                        help="Output format: a table for people, JSON or CSV for programs.")(target)
