"""Where a sweep's queries run: in this process, in a local process pool
(:mod:`multiprocessing`, the default), or on a Dask cluster
(:mod:`dask.distributed`, an optional extra).

Every engine runs the same function, :func:`run_task`, on the same
:class:`Task` objects and yields the results as they complete, so the rows
do not depend on the engine (only their order of completion does). The
engines only schedule: no scheduling logic of our own beyond cutting the
work into tasks.
"""

from __future__ import annotations

import math
import os
import threading
import time
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from ..commands import ExactOddsError, InputError, Params, Query, state_limit
from .cache import ANSWERS
from .report import Report

SCHEDULERS = ("processes", "local", "dask")
"""``processes``: a local pool of worker processes (default); ``local``: this
process, one query after another; ``dask``: a Dask cluster (``--address``, or a
local cluster started for the sweep)."""

DEFAULT_WORKERS = 2
MAX_CHUNK = 32
IN_FLIGHT = 4
"""Tasks submitted per worker at a time: the engines take tasks from an iterator
as earlier ones complete, so a huge grid starts at once and its queries are
built while the workers compute (memory O(workers), not O(grid))."""
NO_WORKER_SECONDS = 60.0
"""A Dask sweep with no worker and no progress for this long stops (the
cluster lost its workers) instead of waiting for ever."""


_running = [0]
"""Engines now running in this process."""
_stops: list[BaseException] = []
"""Stops asked for by signal handlers while an engine runs (see :func:`request_stop`)."""
POLL_SECONDS = 0.25
WORKER_EXIT_SECONDS = 5
"""How long an aborted sweep waits for each terminated worker to exit."""


def request_stop(stop: BaseException) -> None:
    """Stop the sweep with ``stop`` (from a signal handler): raised at once when no
    engine runs, else at the engine's next poll (within :data:`POLL_SECONDS`), never
    from inside the pool's own locks, which would leave them held."""
    if not _running[0]:
        raise stop
    _stops.append(stop)


def _check_stop() -> None:
    if _stops:
        stop = _stops.pop()
        _stops.clear()
        raise stop


class EngineLost(ExactOddsError):
    """The engine can no longer compute: a worker process died, the Dask
    scheduler or every Dask worker was lost. The message says what happened;
    :func:`~exactodds.sweep.run.run_sweep` adds where the finished rows are."""


@dataclass(frozen=True)
class Item:
    """One distinct query of a sweep: its canonical key, typed parameters and label."""

    key: tuple
    params: Params
    where: str


@dataclass(frozen=True)
class Task:
    """A batch of distinct queries sent to one worker (picklable, self-contained)."""

    system: str
    command: str | None
    folder: str | None
    report: Report
    max_states: int
    items: tuple[Item, ...]


@dataclass(frozen=True)
class Result:
    """A query's figures, or the message of the error it raised (``kind``: the error's class)."""

    key: tuple
    figures: dict | None
    error: str | None = None
    kind: str | None = None


def run_task(task: Task) -> list[Result]:
    """Compute every query of a task (in a worker): answers from this process's
    cache (:data:`~exactodds.sweep.cache.ANSWERS`), then the report's figures.

    A query's own error (bad combination, too large) becomes a :class:`Result`
    with its message; anything else is a bug and propagates.
    """
    out = []
    with state_limit(task.max_states):
        for item in task.items:
            query = Query(task.system, task.command, item.params, source=item.where)
            try:
                answer = ANSWERS.answer(query, item.key)
                out.append(Result(item.key, task.report.figures(answer, f"{item.where}: ")))
            except ExactOddsError as e:
                out.append(Result(item.key, None, str(e), type(e).__name__))
    return out


def chunk_size(rows: int, workers: int) -> int:
    """Queries per task for a grid of ``rows``: about eight tasks per worker (a
    smooth progress bar, balanced load), at most :data:`MAX_CHUNK` queries each.
    Neighbours in the grid share most parameters, so a task's queries tend to
    share sub-results in the worker's caches."""
    return max(1, min(MAX_CHUNK, math.ceil(rows / (8 * max(workers, 1)))))


def make_tasks(items: list[Item], workers: int, system: str, command: str | None, folder: Path | None,
               report: Report, max_states: int) -> list[Task]:
    """Cut the items, in grid order, into consecutive tasks of :func:`chunk_size`."""
    if not items:
        return []
    size = chunk_size(len(items), workers)
    return [Task(system, command, None if folder is None else str(folder), report, max_states,
                 tuple(items[i:i + size])) for i in range(0, len(items), size)]


class Engine:
    """Runs :func:`run_task` on tasks, yielding results as they complete.

    Use as a context manager: leaving it normally releases the workers;
    leaving it on an error, Ctrl-C or a signal also stops the running work
    (the workers are ended, not waited for).
    """

    workers = 1

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Result]]:  # pragma: no cover - interface
        """Yield each task's results as soon as it completes, taking tasks from
        ``tasks`` only as earlier ones complete (about :data:`IN_FLIGHT` per worker)."""
        raise NotImplementedError

    def close(self, abort: bool = False) -> None:
        """Release the workers (``abort``: stop the running work first)."""

    def __enter__(self) -> Engine:
        _running[0] += 1
        return self

    def __exit__(self, kind: Any, *exc: Any) -> None:
        _running[0] -= 1
        self.close(abort=kind is not None)


class LocalEngine(Engine):
    """This process, one task after another (no parallelism; no start-up cost)."""

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Result]]:
        for task in tasks:
            _check_stop()
            yield run_task(task)


class ProcessEngine(Engine):
    """A pool of ``workers`` local processes, each with its own pipe
    (:mod:`multiprocessing`'s public API: ``Process``, ``Pipe``, ``connection.wait``).

    Each worker computes one task at a time and sends its results back on its
    pipe; this process closes its copy of the workers' ends, so a worker that
    dies, even while sending (a signal to the whole process group), shows as the
    end of its pipe at once, never as half a message waited on for ever. There
    is no thread of our own or of a pool behind the loop, so nothing is left to
    wait for when the workers are ended. A round trip per task costs a few
    microseconds against tasks of up to :data:`MAX_CHUNK` queries.
    """

    def __init__(self, workers: int = DEFAULT_WORKERS) -> None:
        import multiprocessing

        self.workers = workers
        self._processes: list[Any] = []
        self._pipes: list[Any] = []
        context = multiprocessing.get_context()
        try:
            for _ in range(workers):
                mine, theirs = context.Pipe()
                process = context.Process(target=_worker_main, args=(theirs, mine, os.getpid()),
                                          name="exactodds-worker", daemon=True)
                process.start()
                theirs.close()  # before the next worker starts, which would inherit it
                self._processes.append(process)
                self._pipes.append(mine)
        except BaseException:
            self.close(abort=True)
            raise

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Result]]:
        from multiprocessing.connection import wait

        todo = iter(tasks)
        busy: set[Any] = set()

        def feed(pipe: Any) -> None:
            task = next(todo, None)
            if task is not None:
                pipe.send(task)
                busy.add(pipe)

        for pipe in self._pipes:
            feed(pipe)
        while busy:
            ready: list[Any] = wait(list(busy), timeout=POLL_SECONDS)
            _check_stop()
            for pipe in ready:
                busy.discard(pipe)
                try:
                    kind, value = pipe.recv()
                except (EOFError, OSError):
                    raise EngineLost("a worker process died (killed, or out of memory)") from None
                if kind == "error":
                    raise value
                feed(pipe)
                yield value

    def close(self, abort: bool = False) -> None:
        if not abort:  # idle workers: ask them to leave
            for pipe in self._pipes:
                try:
                    pipe.send(None)
                except OSError:  # that worker is gone already
                    pass
        for process in self._processes:  # the running queries may take long: end the workers, not wait
            if abort and process.is_alive():
                process.terminate()
        for process in self._processes:
            process.join(WORKER_EXIT_SECONDS)
            if process.is_alive():
                process.kill()
                process.join(WORKER_EXIT_SECONDS)
        for pipe in self._pipes:
            pipe.close()
        self._processes, self._pipes = [], []


class DaskEngine(Engine):
    """A Dask cluster: the scheduler at ``address``, or a given ``client``, or a
    :class:`~dask.distributed.LocalCluster` of ``workers`` processes started
    (on loopback) for this sweep. The workers must have exactodds installed."""

    def __init__(self, address: str | None = None, workers: int = DEFAULT_WORKERS, client: Any = None,
                 processes: bool = True, no_worker_seconds: float | None = None) -> None:
        distributed = _import_distributed()
        self.no_worker_seconds = NO_WORKER_SECONDS if no_worker_seconds is None else no_worker_seconds
        self._cluster = None
        self._own_client = client is None
        if client is not None:
            self.client = client
        elif address:
            try:
                self.client = distributed.Client(address, timeout="10s")
            except ValueError as e:  # malformed: no port, unknown scheme
                raise InputError(f"{address!r} is not a Dask scheduler address ({e}); write it like "
                                 "tcp://10.0.0.5:8786") from None
            except (OSError, TimeoutError) as e:
                raise InputError(f"cannot reach the Dask scheduler at {address!r}: {e}; start one with "
                                 "'dask scheduler' and workers with 'dask worker ADDRESS', or omit --address "
                                 "for a local cluster") from None
        else:
            self._cluster = distributed.LocalCluster(n_workers=workers, threads_per_worker=1, processes=processes,
                                                     host="127.0.0.1", dashboard_address=None)
            self.client = distributed.Client(self._cluster)
        self.workers = max(1, len(self.client.scheduler_info().get("workers", {})) or workers)
        self._futures: list = []

    def run(self, tasks: Iterable[Task]) -> Iterator[list[Result]]:
        from distributed import wait

        todo = iter(tasks)
        running: set = set()
        progress = time.monotonic()
        try:
            while True:
                while len(running) < IN_FLIGHT * self.workers and (task := next(todo, None)) is not None:
                    running.add(self.client.submit(run_task, task, pure=False))
                self._futures = list(running)
                if not running:
                    return
                try:
                    done, running = wait(list(running), timeout=min(POLL_SECONDS * 2, self.no_worker_seconds),
                                         return_when="FIRST_COMPLETED")
                except TimeoutError:
                    done, running = set(), set(running)
                running = set(running)
                _check_stop()
                if not done:
                    self._check_workers(progress)
                    continue
                progress = time.monotonic()
                for f in done:
                    yield self._result(f)
        except EngineLost:
            raise
        except Exception as e:
            if not _lost(e):
                raise
            raise EngineLost(f"lost the Dask scheduler or its workers ({type(e).__name__}: "
                             f"{' '.join(str(e).split())[:200] or 'no details'})") from None

    def _result(self, future: Any) -> list[Result]:
        """A completed future's result; it may have been lost with its worker
        since (Dask then computes it again, if a worker is left)."""
        since = time.monotonic()
        while True:
            try:
                return future.result(timeout=min(POLL_SECONDS * 2, self.no_worker_seconds))  # type: ignore[no-any-return]
            except TimeoutError:
                _check_stop()
                self._check_workers(since)

    def _check_workers(self, since: float) -> None:
        """Stop when nothing progressed since ``since`` for the allowed time and no worker is left."""
        if time.monotonic() - since > self.no_worker_seconds and not self._has_workers():
            raise EngineLost(f"the Dask cluster has no worker left (no progress for {self.no_worker_seconds:g} s)")

    def _has_workers(self) -> bool:
        try:
            return bool(self.client.nthreads())
        except Exception:  # the scheduler is gone too
            return False

    def close(self, abort: bool = False) -> None:
        try:
            if self._futures:
                self.client.cancel(self._futures)
                self._futures = []
        except Exception:  # the scheduler is gone: nothing to cancel
            pass
        if self._own_client:
            for closing in (self.client, self._cluster):
                try:
                    if closing is not None:
                        closing.close()
                except Exception:  # already lost
                    pass


def _lost(e: BaseException) -> bool:
    """A Dask error meaning the cluster (not a query) failed: a closed connection,
    a cancelled or lost future, a killed worker, a timeout."""
    from concurrent.futures import CancelledError

    names = {"CommClosedError", "KilledWorker", "FutureCancelledError", "CancelledError", "StreamClosedError"}
    return isinstance(e, (OSError, TimeoutError, CancelledError)) or type(e).__name__ in names


def _worker_main(pipe: Any, parents_end: Any, parent: int) -> None:
    """A worker's life: run each task received on ``pipe`` and send back
    ``("ok", results)``, or ``("error", exception)`` for a bug (re-raised in the
    sweep's process), until ``None`` or the end of the pipe."""
    parents_end.close()  # the sweep's end of the pipe, inherited by the fork
    _worker_start(parent)
    while True:
        try:
            task = pipe.recv()
        except (EOFError, OSError):
            return
        if task is None:
            return
        try:
            reply: tuple[str, Any] = ("ok", run_task(task))
        except BaseException as e:  # noqa: BLE001 - a bug: shown in the sweep's process
            reply = ("error", e)
        try:
            pipe.send(reply)
        except Exception as e:  # noqa: BLE001 - an exception that cannot be pickled
            pipe.send(("error", RuntimeError(f"{type(reply[1]).__name__}: {reply[1]} ({e})")))


def _worker_start(parent: int) -> None:
    """In pool workers: leave Ctrl-C to the parent, which cancels the pool (no
    traceback from every worker); and end this worker when the sweep's process
    is gone (killed with SIGKILL: nothing else would stop the worker, which
    keeps the sweep's pipes open, so a caller waiting on them would hang)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    for sig in (signal.SIGTERM, signal.SIGHUP):  # not the sweep's handlers, inherited by a fork
        signal.signal(sig, signal.SIG_DFL)
    threading.Thread(target=_watch_parent, args=(parent,), name="exactodds-watchdog", daemon=True).start()


WATCH_SECONDS = 0.5


def _watch_parent(parent: int) -> None:
    """Exit this process within :data:`WATCH_SECONDS` once the sweep's process
    (``parent``) is gone: this process was given another parent (it was
    orphaned), or ``parent`` no longer exists."""
    first = os.getppid()
    while True:
        time.sleep(WATCH_SECONDS)
        if os.getppid() != first:
            os._exit(1)
        try:
            os.kill(parent, 0)
        except ProcessLookupError:
            os._exit(1)
        except PermissionError:  # the pid now belongs to another user's process
            os._exit(1)


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise InputError("the dask scheduler needs dask.distributed: pip install 'exactodds[dask]' "
                         "(or use --scheduler processes)") from None
    return distributed


def check_engine(scheduler: str, workers: int, address: str | None) -> None:
    """Refuse an unknown scheduler, a bad worker count or a misplaced address
    (before any output is opened or any work starts)."""
    if scheduler not in SCHEDULERS:
        raise InputError(f"scheduler {scheduler!r} is not known; use one of {', '.join(SCHEDULERS)}")
    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise InputError(f"workers must be a whole number, 1 or more, not {workers!r}")
    if address is not None and not address.strip():
        raise InputError("the Dask scheduler address is empty; write it like tcp://10.0.0.5:8786, or leave "
                         "it out for a local cluster")
    if address and scheduler != "dask":
        raise InputError("an address is for the dask scheduler: add --scheduler dask")


def make_engine(scheduler: str = "processes", workers: int = DEFAULT_WORKERS, address: str | None = None,
                client: Any = None) -> Engine:
    """The engine named by ``scheduler`` (one of :data:`SCHEDULERS`), or a
    :class:`DaskEngine` on ``client`` when one is given."""
    if client is not None:
        return DaskEngine(client=client)
    check_engine(scheduler, workers, address)
    if scheduler == "local":
        return LocalEngine()
    if scheduler == "dask":
        return DaskEngine(address=address, workers=workers)
    return ProcessEngine(workers)

