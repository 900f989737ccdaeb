"""Running a sweep: grid -> distinct queries -> engine -> rows, streamed to the output.

:func:`sweep` is the Python API (a pandas DataFrame, or a list of dicts
without pandas); :func:`run_sweep` does the work and returns the rows with
the sweep's counters; ``exactodds sweep`` is the command line.
"""

from __future__ import annotations

import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..commands import ExactOddsError, InputError, TooLargeError
from ..core import max_states
from .engines import DEFAULT_WORKERS, Item, Result, check_engine, make_engine, make_tasks
from .grid import Grid, load_grid, parse_grid
from .output import Schema, open_output, text_cell

_ERRORS = {"TooLargeError": TooLargeError}


@dataclass
class SweepResult:
    """The rows of a sweep in grid order (``{column: value}``) and its counters."""

    columns: list[str]
    rows: list[dict[str, Any]]
    computed: int = 0
    """Distinct queries computed by this run."""
    resumed: int = 0
    """Rows found already written in the output and skipped."""
    shared: int = 0
    """Rows answered by another row's query (the same canonical query)."""
    errors: int = 0
    """Rows that recorded an error (``keep_going``)."""
    seconds: float = 0.0

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (counters in ``df.attrs["sweep"]``)."""
        import pandas as pd  # type: ignore[import-untyped,import-not-found,unused-ignore]

        df = pd.DataFrame(self.rows, columns=self.columns)
        df.attrs["sweep"] = self.summary()
        return df

    def summary(self) -> dict[str, Any]:
        """The counters as a dict."""
        return {"rows": len(self.rows), "computed": self.computed, "resumed": self.resumed,
                "shared": self.shared, "errors": self.errors, "seconds": round(self.seconds, 3)}


def as_grid(grid: Grid | str | Path | Mapping[str, Any], folder: str | Path | None = None) -> Grid:
    """A :class:`Grid` from a grid, a grid file's path, or a dict of the file's shape."""
    if isinstance(grid, Grid):
        return grid
    if isinstance(grid, (str, Path)):
        return load_grid(grid)
    if isinstance(grid, Mapping):
        return parse_grid(grid, folder=folder)
    raise InputError(f"a grid is a Grid, a grid file's path or a dict, not {type(grid).__name__}")


def run_sweep(grid: Grid | str | Path | Mapping[str, Any], out: str | Path | None = None, *,
              workers: int = DEFAULT_WORKERS, scheduler: str = "processes", address: str | None = None,
              client: Any = None, overwrite: bool = False, keep_going: bool = False,
              progress: bool = False, stream: TextIO | None = None, write: bool = True) -> SweepResult:
    """Run every query of ``grid`` and write one row per query (see :func:`sweep`).

    ``write=False`` keeps the rows in memory only (no output at all).
    Work: each *distinct* canonical query is computed once; the rows already
    in ``out`` are skipped. Bookkeeping is O(rows): one parse per row for its
    canonical key (a dict groups equal keys), and rows leave in grid order
    through a buffer of the rows finished ahead of the first unfinished one.
    """
    start = time.perf_counter()
    if client is None:
        check_engine(scheduler, workers, address)
    grid = as_grid(grid)
    schema = Schema(grid, keep_going)
    output = open_output(out, schema, overwrite, stream) if write else None
    points = list(grid.points())
    rows: list[dict | None] = [None] * len(points)
    result = SweepResult(schema.columns, [])

    done = {tuple(cells[:len(schema.keys)]): cells for cells in (output.previous if output else [])}
    groups: dict[tuple, list[int]] = {}
    items: list[Item] = []
    refused: list[int] = []
    for i, point in enumerate(points):
        cells = done.get(grid.row_key(point))
        if cells is not None:
            rows[i] = schema.typed(cells)
            result.resumed += 1
            continue
        try:
            query = grid.query(point)
        except ExactOddsError as e:  # a combination of values the command refuses
            if not keep_going:
                raise
            rows[i] = _row(point, Result((), None, str(e), type(e).__name__), keep_going, schema)
            refused.append(i)
            continue
        key = query.key()  # the typed values: O(parameters), nothing parsed again
        if key not in groups:
            groups[key] = []
            items.append(Item(key, query.typed, query.source or ""))
        groups[key].append(i)
    todo = sum(len(g) for g in groups.values())
    result.shared = todo - len(items)

    tasks = make_tasks(items, workers if client is None else 8, grid.system, grid.command, grid.folder,
                       grid.report, max_states())
    order = sorted([i for g in groups.values() for i in g] + refused)  # the rows to write, in grid order
    result.errors += len(refused)
    written = 0

    def flush() -> None:
        """Write the finished rows that no unfinished row precedes (rows leave in grid order)."""
        nonlocal written
        while written < len(order) and (row := rows[order[written]]) is not None:
            if output is not None:
                output.write([text_cell(row.get(c)) for c in schema.columns])
            written += 1

    finished = False
    bar = _progress(0, False)
    try:
        flush()
        if tasks:
            with make_engine(scheduler, workers, address, client) as engine:
                bar = _progress(todo, progress)  # once the engine is up: an error stays one line
                for results in engine.run(tasks):
                    for r in results:
                        result.computed += 1
                        for i in groups[r.key]:
                            rows[i] = _row(points[i], r, keep_going, schema)
                            result.errors += r.error is not None
                    bar(sum(len(groups[r.key]) for r in results))  # once per batch: a steady ETA
                    flush()
        finished = True
    finally:
        bar(None)
        if output is not None:
            output.close(finished)
    result.rows = [r for r in rows if r is not None]
    result.seconds = time.perf_counter() - start
    return result


def _row(point: dict, r: Result, keep_going: bool, schema: Schema) -> dict[str, Any]:
    if r.error is not None and not keep_going:
        raise _ERRORS.get(r.kind or "", InputError)(r.error)
    row: dict[str, Any] = dict(point)
    if r.figures is not None:
        row.update(r.figures)
    if keep_going:
        row["error"] = r.error
    return {c: row.get(c) for c in schema.columns}


def _progress(total: int, enabled: bool) -> Any:
    """A callable advancing a progress bar on standard error (``None`` closes it)."""
    if not enabled or total == 0:
        return lambda n: None
    import click

    bar = click.progressbar(length=total, label="sweep", file=sys.stderr, show_pos=True, show_eta=True)
    bar.__enter__()

    def advance(n: int | None) -> None:
        if n is None:
            bar.__exit__(None, None, None)
        else:
            bar.update(n)

    return advance


def sweep(grid: Grid | str | Path | Mapping[str, Any], out: str | Path | None = None, *,
          workers: int = DEFAULT_WORKERS, scheduler: str = "processes", address: str | None = None,
          client: Any = None, overwrite: bool = False, keep_going: bool = False, progress: bool = False,
          folder: str | Path | None = None) -> Any:
    """Run a sweep and return its rows: a pandas DataFrame when pandas is
    installed (counters in ``df.attrs["sweep"]``), else a list of dicts.

    ``grid``: a grid file's path, a dict of the same shape (relative profile
    paths resolved against ``folder``), or a :class:`Grid`. ``out``: also
    stream the rows to this CSV or Parquet file, resuming it if it holds
    rows of the same sweep (``overwrite=True`` starts again). ``scheduler``:
    ``"processes"`` (``workers`` local processes, default 2), ``"local"``
    (this process; best for small grids and notebooks) or ``"dask"``
    (the scheduler at ``address``, else a local Dask cluster); or pass a
    ``dask.distributed.Client`` as ``client``. ``keep_going``: record a
    query's error in an ``error`` column instead of stopping.

    Example::

        df = sweep({"base": {"system": "pool", "params": {"hit": "4+"}},
                    "vary": {"n": {"from": 1, "to": 10}},
                    "report": {"mean": True, "at_least": [3]}}, scheduler="local")
    """
    result = run_sweep(as_grid(grid, folder), out, workers=workers, scheduler=scheduler, address=address,
                       client=client, overwrite=overwrite, keep_going=keep_going, progress=progress,
                       write=out is not None)
    try:
        return result.to_pandas()
    except ImportError:
        return result.rows
