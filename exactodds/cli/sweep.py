"""``exactodds sweep GRID.toml``: many exact queries at once (see docs/sweeps.md)."""

from __future__ import annotations

import signal
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click

from ..commands.kinds import Count
from .generate import KindType, with_max_states

SCHEDULER_CHOICES = ("processes", "local", "dask")


@with_max_states
@click.command("sweep")
@click.argument("grid", type=click.Path(dir_okay=False, path_type=Path))
@click.option("--out", "-o", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Write the rows to this .csv or .parquet file as they complete; an existing file of "
                   "the same sweep is resumed (its rows are skipped). Default: CSV on standard output.")
@click.option("--workers", "-j", type=KindType(Count(1, 256, "a number of workers")), default=2, show_default=True,
              help="Worker processes (processes scheduler, or a local Dask cluster).")
@click.option("--scheduler", type=click.Choice(SCHEDULER_CHOICES), default="processes", show_default=True,
              help="processes: a local process pool; local: this process only; dask: a Dask cluster "
                   "(--address, else a local cluster).")
@click.option("--address", default=None, metavar="ADDRESS",
              help="Address of a Dask scheduler, e.g. tcp://10.0.0.5:8786 (with --scheduler dask).")
@click.option("--overwrite", is_flag=True, help="Start again: discard the rows already in --out.")
@click.option("--keep-going", is_flag=True,
              help="Record a query's error in an 'error' column and go on (default: stop at the first).")
@click.option("--progress/--no-progress", default=None,
              help="Show a progress bar (default: when standard error is a terminal).")
def sweep(grid: Path, out: Path | None, workers: int, scheduler: str, address: str | None,
                  overwrite: bool, keep_going: bool, progress: bool | None) -> None:
    """Run every query of a grid file and write one row per query.

    The grid names a base query (as in a query file), the parameters to
    vary (lists, ranges {from, to, step}, listed [[combinations]]) and
    the figures of each row ([report]: mean, var, at_least, at_most,
    p_outcome, quantiles, extras). Exact figures are written num/den,
    each with a _float twin. Example:

        exactodds sweep examples/sweeps/pool_hits.toml --out hits.csv
    """
    from ..sweep import run_sweep
    from ..sweep.output import output_format

    if out is not None:
        output_format(out)  # refuse an unknown suffix, or Parquet without pyarrow, before any work
    if scheduler == "dask":
        _quiet_dask()
    show = sys.stderr.isatty() if progress is None else progress
    where = f"; the finished rows are kept in {out}: run the same command again to resume" if out else ""
    try:
        with _signals_stop():
            result = run_sweep(grid, out, workers=workers, scheduler=scheduler, address=address,
                               overwrite=overwrite, keep_going=keep_going, progress=show, keep_rows=False)
    except KeyboardInterrupt:
        click.echo(f"sweep stopped{where}", err=True)
        raise click.Abort() from None
    except _Stopped as e:
        from .common import _fail

        _fail(f"sweep stopped by {signal.Signals(e.signum).name}{where}", None, 128 + e.signum)
    if out is None and not sys.stderr.isatty():
        return  # rows on standard output for a program: nothing else
    s = result.summary()
    dest = f" -> {out}" if out else ""
    click.echo(f"sweep: {s['rows']} rows ({s['computed']} queries computed, {s['resumed']} rows resumed, "
               f"{s['shared']} shared, {s['errors']} errors) in {s['seconds']:.1f} s{dest}", err=True)


def _quiet_dask() -> None:
    """Drop dask.distributed's log records (a lost cluster is reported in one
    line, not in the client's tracebacks as it tries to reconnect)."""
    import logging

    try:
        import distributed  # noqa: F401 - its import sets up its loggers
    except ImportError:  # the engine says what to install
        return
    names = [n for n in logging.root.manager.loggerDict if n.split(".")[0] in ("distributed", "tornado", "bokeh")]
    for name in {"distributed", *names}:
        log = logging.getLogger(name)
        for handler in list(log.handlers):
            log.removeHandler(handler)
        log.addHandler(logging.NullHandler())
        log.propagate = False


class _Stopped(BaseException):
    """A signal asked the sweep to stop (a BaseException, like Ctrl-C's: no handler
    of errors catches it on its way out, and the engine stops its workers)."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextmanager
def _signals_stop() -> Iterator[None]:
    """While the sweep runs, SIGTERM and SIGHUP stop it as Ctrl-C does: the
    workers are ended, the finished rows kept (the output closed), then the
    process exits with 128 + the signal's number (Ctrl-C, SIGINT: 130 too). Each
    handler, SIGINT's too, raises at the engine's next poll
    (:func:`~exactodds.sweep.engines.request_stop`), not inside the process pool's locks."""

    from ..sweep.engines import request_stop

    def stop(signum: int, frame: Any) -> None:
        request_stop(KeyboardInterrupt() if signum == signal.SIGINT else _Stopped(signum))

    kept = {}
    for sig in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        try:
            kept[sig] = signal.signal(sig, stop)
        except (ValueError, OSError):  # not the main thread (a test runner): leave the signal alone
            pass
    try:
        yield
    finally:
        for sig, handler in kept.items():
            signal.signal(sig, handler)
