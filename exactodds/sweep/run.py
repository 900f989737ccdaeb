"""Running a sweep: grid -> distinct queries -> engine -> rows, streamed to the output.

:func:`sweep` is the Python API and always returns a pandas DataFrame (it
needs pandas); :func:`run_sweep` does the work and returns a
:class:`SweepResult` (the rows as dicts, and the sweep's counters) without
needing pandas; ``exactodds sweep`` is the command line.
"""

from __future__ import annotations

import errno
import itertools
import sys
import time
from collections import OrderedDict, deque
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TextIO

from ..commands import ExactOddsError, InputError, TooLargeError
from ..core import max_states
from .engines import (DEFAULT_WORKERS, Engine, EngineLost, Item, Result, Task, check_engine, chunk_size,
                      make_engine)
from .grid import Grid, load_grid, parse_grid
from .output import Output, Schema, open_output, text_cell
from .questions import QuestionLog, question_digest, row_mark

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
    count: int = 0
    """Rows of the sweep (also when they are not kept in ``rows``)."""

    def to_pandas(self) -> Any:
        """The rows as a pandas DataFrame (counters in ``df.attrs["sweep"]``)."""
        import pandas as pd  # type: ignore[import-untyped,import-not-found,unused-ignore]

        df = pd.DataFrame(self.rows, columns=self.columns)
        df.attrs["sweep"] = self.summary()
        return df

    def summary(self) -> dict[str, Any]:
        """The counters as a dict."""
        return {"rows": self.count, "computed": self.computed, "resumed": self.resumed,
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
              progress: bool = False, stream: TextIO | None = None, write: bool = True,
              keep_rows: bool = True) -> SweepResult:
    """Run every query of ``grid`` and write one row per query (see :func:`sweep`).

    ``write=False`` keeps the rows in memory only (no output at all);
    ``keep_rows=False`` keeps none in memory (the command line: rows go to the output).
    Work: each *distinct* canonical query is computed once (among the queries in
    flight and the last :data:`RECENT` answered); the rows already in ``out``
    are skipped. The grid is streamed: its points are turned into queries as
    the engine takes tasks (a few per worker ahead), so the first rows are
    written within seconds whatever the grid's size, and memory is
    O(workers + rows finished ahead of the first unfinished one) besides the
    kept rows. Rows leave in grid order.

    A lost engine (a worker killed, the Dask scheduler gone) or a full disk
    stops the sweep with an :class:`~exactodds.core.InputError` saying so; the
    rows written so far are kept and the same call resumes.
    """
    start = time.perf_counter()
    if client is None:
        check_engine(scheduler, workers, address)
    grid = as_grid(grid)
    schema = Schema(grid, keep_going)
    output = open_output(out, schema, overwrite, stream) if write else None
    result = SweepResult(schema.columns, [])
    finished = False
    bar = _Bar(0, False)
    try:
        try:
            done = {tuple(cells[:len(schema.keys)]): cells for cells in (output.previous if output else [])}
            log = None if output is None or out is None else QuestionLog(Path(out), overwrite)
            if log is not None and output is not None:
                done = _same_questions(grid, output, done, log)
            bar = _Bar(max(0, len(grid) - len(done)), progress)
            _stream(grid, schema, (output, log), result, done, keep_going, keep_rows, bar,
                    workers if client is None else 8, lambda: make_engine(scheduler, workers, address, client))
            finished = True
        finally:
            bar(None)
            if output is not None:
                output.close(finished)
    except EngineLost as e:
        raise InputError(f"sweep stopped: {e}{_kept(out)}") from None
    except OSError as e:
        if e.errno not in WRITE_FULL:
            raise
        raise InputError(f"sweep stopped: cannot write {out if out is not None else 'standard output'}: "
                         f"{WRITE_FULL[e.errno]}{_kept(out)}") from None
    result.seconds = time.perf_counter() - start
    return result


RECENT = 4096
"""Answers the sweep's own process remembers (their figures), so that rows
spelling the same query are computed once; older ones are asked of a worker
again (whose cache answers at once)."""

WRITE_FULL = {errno.ENOSPC: "the disk is full (no space left on device)",
              errno.EFBIG: "the file is too large (over the file size limit)",
              errno.EDQUOT: "the disk quota is exceeded"}
"""Write errors that are the environment's, not a bug: what to say for each."""


def _kept(out: str | Path | None) -> str:
    if out is None:
        return "; the rows written so far are on standard output (write with --out FILE to resume)"
    return f"; the finished rows are kept in {out}: run the same command again to resume"


def _same_questions(grid: Grid, output: Output, done: dict, log: QuestionLog) -> dict:
    """The previous rows of ``done`` that answer the question their cells ask now
    (its digest as recorded, :mod:`.questions`); the others are dropped from the
    output, to be computed again. O(grid points), a query built per previous row."""
    if not done:
        return done
    recorded = log.recorded()
    kept: dict = {}
    marks = []
    for point in grid.points():
        key = grid.row_key(point)
        if key in done and key not in kept:
            try:
                mark = row_mark(key, question_digest(grid.query(point), grid.report))
            except ExactOddsError:
                continue
            if mark in recorded:
                kept[key] = done[key]
                marks.append(mark)
    output.drop(set(done) - set(kept), len(grid.keys))
    log.keep(marks)
    return kept


class _Slot:
    """A row of the grid waiting to leave in grid order (``digest``: its question's, once built)."""

    __slots__ = ("point", "row", "resumed", "digest")

    def __init__(self, point: dict, row: dict | None = None, resumed: bool = False) -> None:
        self.point = point
        self.row = row
        self.resumed = resumed
        self.digest: str | None = None


def _stream(grid: Grid, schema: Schema, outputs: tuple[Output | None, QuestionLog | None], result: SweepResult,
            done: dict, keep_going: bool, keep_rows: bool, bar: _Bar, workers: int,
            engine: Callable[[], Engine]) -> None:
    """Stream the grid's points through an engine (see :func:`run_sweep`); each row
    written is recorded with its question's digest in the log, if any."""
    output, log = outputs
    pending: deque[_Slot] = deque()  # the rows not yet written, in grid order
    waiting: dict[tuple, list[_Slot]] = {}  # query key -> its rows, while the query is computed
    recent: OrderedDict[tuple, Result] = OrderedDict()
    size = chunk_size(len(grid), workers)
    folder = None if grid.folder is None else str(grid.folder)

    def flush() -> None:
        """Write the finished rows that no unfinished row precedes (flushed once:
        O(rows) cells, one write to the output)."""
        lines, asked = [], []
        while pending and (row := pending[0].row) is not None:
            slot = pending.popleft()
            if output is not None and not slot.resumed:
                lines.append([v if v.__class__ is str else text_cell(v) for v in row.values()])  # in column order
                if slot.digest is not None:
                    asked.append(row_mark(grid.row_key(slot.point), slot.digest))
            result.count += 1
            if keep_rows:
                result.rows.append(row)
        if lines and output is not None:
            output.write_rows(lines)
            if log is not None:
                log.append(asked)

    def finish(slot: _Slot, r: Result) -> None:
        slot.row = _row(slot.point, r, keep_going, schema)
        result.errors += r.error is not None

    def tasks() -> Iterator[Task]:
        batch: list[Item] = []
        for point in grid.points():
            cells = done.get(grid.row_key(point)) if done else None
            if cells is not None:
                pending.append(_Slot(point, schema.typed(cells), resumed=True))
                result.resumed += 1
                flush()
                continue
            slot = _Slot(point)
            pending.append(slot)
            try:
                query = grid.query(point)
            except ExactOddsError as e:  # a combination of values the command refuses
                finish(slot, Result((), None, str(e), type(e).__name__))
                bar(1)
                flush()
                continue
            key = query.key()  # the typed values: O(parameters), nothing parsed again
            if log is not None:
                slot.digest = question_digest(query, grid.report)
            if key in waiting:
                waiting[key].append(slot)
                result.shared += 1
            elif key in recent:
                recent.move_to_end(key)
                finish(slot, recent[key])
                result.shared += 1
                bar(1)
                flush()
            else:
                waiting[key] = [slot]
                batch.append(Item(key, query.typed, query.source or ""))
                if len(batch) == size:
                    yield Task(grid.system, grid.command, folder, grid.report, max_states(), tuple(batch))
                    batch = []
        if batch:
            yield Task(grid.system, grid.command, folder, grid.report, max_states(), tuple(batch))

    todo = tasks()
    first = next(todo, None)  # the rows before the first query to compute, checked before any engine starts
    if first is None:
        flush()
        return
    with engine() as running:
        bar.start()  # once the engine is up: an error starting it stays one line
        for results in running.run(itertools.chain([first], todo)):
            finished = 0
            for r in results:
                result.computed += 1
                recent[r.key] = r
                if len(recent) > RECENT:
                    recent.popitem(last=False)
                for slot in waiting.pop(r.key):
                    finish(slot, r)
                    finished += 1
            bar(finished)  # once per task: a steady ETA
            flush()
    flush()


def _row(point: dict, r: Result, keep_going: bool, schema: Schema) -> dict[str, Any]:
    if r.error is not None and not keep_going:
        raise _ERRORS.get(r.kind or "", InputError)(r.error)
    row: dict[str, Any] = {**point, **r.figures} if r.figures is not None else dict(point)
    if keep_going:
        row["error"] = r.error
    if list(row) == schema.columns:  # the parameters, then the report's figures in its order: O(columns)
        return row
    return {c: row.get(c) for c in schema.columns}


class _Bar:
    """A progress bar that shows only from :meth:`start` on (what advances it before is counted)."""

    def __init__(self, total: int, enabled: bool) -> None:
        self.total, self.enabled, self.done = total, enabled, 0
        self.shown: Any = None

    def start(self) -> None:
        if self.shown is None:
            self.shown = _progress(self.total, self.enabled)
            self.shown(self.done)

    def __call__(self, n: int | None) -> None:
        """Advance by ``n`` rows (``None``: close the bar)."""
        if self.shown is not None:
            self.shown(n)
        elif n is not None:
            self.done += n


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
    """Run a sweep and return its rows as a pandas DataFrame, in grid order,
    with the counters in ``df.attrs["sweep"]``; the same type whatever else is
    installed. Without pandas this is an :class:`InputError` before any work
    (install pandas, or call :func:`run_sweep`, which returns a
    :class:`SweepResult` whose ``rows`` are dicts and whose ``to_pandas()``
    makes this DataFrame).

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
    try:
        import pandas  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
    except ImportError:
        raise InputError("sweep() returns a pandas DataFrame and needs pandas: pip install pandas (or "
                         "'exactodds[notebook]'); run_sweep() returns the rows without pandas") from None
    result = run_sweep(as_grid(grid, folder), out, workers=workers, scheduler=scheduler, address=address,
                       client=client, overwrite=overwrite, keep_going=keep_going, progress=progress,
                       write=out is not None)
    return result.to_pandas()
