"""Writing a sweep's rows as they complete, and resuming a stopped sweep.

- **CSV** (``--out results.csv``): each row is appended and flushed as soon
  as its query completes. Run the same sweep again with the same output and
  the rows already there (keyed by their parameter cells) are skipped; a
  half-written last line (a sweep killed mid-write) is dropped first, and
  rows that recorded an error are computed again.
- **Parquet** (``--out results.parquet``, needs pyarrow): rows go to a CSV
  journal beside it (``results.parquet.partial.csv``) as they complete; when
  the sweep finishes, the rows of the existing file and of the journal are
  written as the Parquet file (typed columns) and the journal is removed. A
  stopped sweep resumes from both.
- **Standard output** (no ``--out``): CSV, streamed, no resume.

While a sweep writes a file it holds a lock on ``FILE.lock`` beside it
(:func:`fcntl.flock`, released by the system if the sweep is killed); a second
sweep writing the same file at the same time is refused, and a lock left by a
sweep that is gone is taken over (:class:`OutputLock`).

Cells: parameters as written in the grid (lists as JSON), exact figures
``num/den``, decimals as Python's shortest round-trip repr.
"""

from __future__ import annotations

import csv
import errno
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any, TextIO

from ..core import InputError
from .grid import Grid, cell

FORMATS = {".csv": "csv", ".parquet": "parquet", ".pq": "parquet"}
_INT = re.compile(r"^-?\d+$")


def text_cell(value: Any) -> str:
    """The CSV text of any row value (``""`` for none)."""
    kind = value.__class__
    if kind is str:  # exact figures and most parameters: as they are
        return value  # type: ignore[no-any-return]
    if value is None:
        return ""
    if kind is float:
        return repr(value)
    return cell(value)


class Schema:
    """The columns of a sweep's rows and how to read their cells back as values.

    Parameter cells map back to the grid's own values; ``*_float`` cells are
    floats; ``quantile_*`` cells are whole numbers when they look like one;
    exact figures and errors stay text.
    """

    def __init__(self, grid: Grid, keep_going: bool = False) -> None:
        self.keys = grid.keys
        self.columns = self.keys + grid.report.columns() + (["error"] if keep_going else [])
        self._values: dict[str, dict[str, Any]] = {k: {} for k in self.keys}
        for k in self.keys:
            source = grid.vary.get(k) or [c[k] for c in grid.combinations]
            for v in source:
                self._values[k].setdefault(cell(v), v)

    def value(self, column: str, text: str) -> Any:
        """The typed value of a cell read back from a file."""
        if column in self._values:
            return self._values[column].get(text, text)
        if text == "":
            return None
        if column.endswith("_float"):
            return float(text)
        if column.startswith("quantile_") and _INT.match(text):
            return int(text)
        return text

    def typed(self, cells: Sequence[str]) -> dict[str, Any]:
        """A row read back from a file, as ``{column: value}``."""
        return {c: self.value(c, t) for c, t in zip(self.columns, cells)}

    def arrow_array(self, column: str, cells: Sequence[str]) -> Any:
        """One column of cells as a typed pyarrow array: parameters as int, float or
        bool when all the grid's values are, ``*_float`` as float, ``quantile_*`` as
        int when every cell is a whole number, the rest as text."""
        import pyarrow as pa  # type: ignore[import-untyped,import-not-found,unused-ignore]

        values = [self.value(column, t) for t in cells]
        present = [v for v in (self._values[column].values() if column in self._values else values) if v is not None]
        if column.endswith("_float") and column not in self._values:
            kind = pa.float64()
        elif present and all(isinstance(v, bool) for v in present):
            kind = pa.bool_()
        elif present and all(isinstance(v, int) and not isinstance(v, bool) for v in present):
            kind = pa.int64()
        elif column in self._values and present and all(isinstance(v, (int, float)) and not isinstance(v, bool)
                                                        for v in present):
            kind = pa.float64()
        else:
            kind = pa.string()
            values = [None if v is None else (v if isinstance(v, str) else cell(v)) for v in values]
        return pa.array(values, type=kind)


def output_format(path: str | Path) -> str:
    """``csv`` or ``parquet`` from the file's suffix (else an InputError)."""
    suffix = Path(path).suffix.lower()
    if suffix not in FORMATS:
        raise InputError(f"{path}: cannot tell the output format from {suffix or 'no suffix'!r}; "
                         "name it .csv or .parquet")
    if FORMATS[suffix] == "parquet":
        try:
            import pyarrow  # noqa: F401
            import pyarrow.parquet  # type: ignore[import-untyped,import-not-found,unused-ignore]  # noqa: F401
        except ImportError:
            raise InputError(f"{path}: writing Parquet needs pyarrow (pip install pyarrow); "
                             "or write CSV with --out results.csv") from None
    return FORMATS[suffix]


class Output:
    """Where rows go. ``previous`` holds the rows (cells) already written by an
    earlier run of the same sweep; :meth:`write` appends one row."""

    previous: list[list[str]]
    lock: OutputLock | None = None

    def write(self, cells: Sequence[str]) -> None:  # pragma: no cover - interface
        """Append one row and flush it."""
        raise NotImplementedError

    def write_rows(self, rows: Sequence[Sequence[str]]) -> None:
        """Append rows and flush them once (the rows a finished task completes)."""
        for cells in rows:
            self.write(cells)

    def close(self, finished: bool) -> None:
        """Close the output; ``finished``: every row has been written."""

    def drop(self, stale: set[tuple[str, ...]], width: int) -> None:
        """Remove the previous rows whose first ``width`` cells are in ``stale``."""
        self.previous = [r for r in self.previous if tuple(r[:width]) not in stale]


class StreamOutput(Output):
    """CSV on a stream (standard output), header first; nothing to resume."""

    def __init__(self, columns: list[str], stream: TextIO | None = None) -> None:
        self.previous = []
        self._stream = stream or sys.stdout
        self._writer = csv.writer(self._stream, lineterminator="\n")
        self._columns: list[str] | None = columns  # the header waits for the first row (or the end)

    def write(self, cells: Sequence[str]) -> None:
        self.write_rows([cells])

    def write_rows(self, rows: Sequence[Sequence[str]]) -> None:
        self._header()
        self._writer.writerows(rows)
        self._stream.flush()

    def close(self, finished: bool) -> None:
        if finished:
            self._header()
            self._stream.flush()

    def _header(self) -> None:
        if self._columns is not None:
            self._writer.writerow(self._columns)
            self._columns = None


class CsvOutput(Output):
    """A CSV file appended row by row; an existing file of the same sweep is resumed."""

    def __init__(self, path: Path, columns: list[str], overwrite: bool = False, retry_errors: bool = True) -> None:
        self.path = path
        self.columns = columns
        self.previous = []
        if overwrite and path.exists():
            path.unlink()
        if path.exists() and path.stat().st_size > 0:
            self.previous = read_rows(path, columns)
            if retry_errors and "error" in columns:
                kept = [r for r in self.previous if not r[columns.index("error")]]
                if len(kept) != len(self.previous):
                    _rewrite(path, columns, kept)
                self.previous = kept
            self._file = path.open("a", newline="", encoding="utf-8")
            self._writer = csv.writer(self._file, lineterminator="\n")
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            self._file = path.open("w", newline="", encoding="utf-8")
            self._writer = csv.writer(self._file, lineterminator="\n")
            self._writer.writerow(columns)
            self._file.flush()

    def write(self, cells: Sequence[str]) -> None:
        self.write_rows([cells])

    def write_rows(self, rows: Sequence[Sequence[str]]) -> None:
        self._writer.writerows(rows)
        self._file.flush()

    def drop(self, stale: set[tuple[str, ...]], width: int) -> None:
        kept = [r for r in self.previous if tuple(r[:width]) not in stale]
        if len(kept) != len(self.previous):
            self._file.close()
            _rewrite(self.path, self.columns, kept)
            self._file = self.path.open("a", newline="", encoding="utf-8")
            self._writer = csv.writer(self._file, lineterminator="\n")
        self.previous = kept

    def close(self, finished: bool) -> None:
        try:
            self._file.close()
        finally:
            if self.lock is not None:
                self.lock.release()


class ParquetOutput(Output):
    """A Parquet file, journaled as CSV while the sweep runs (see the module docstring)."""

    def __init__(self, path: Path, schema: Schema, overwrite: bool = False) -> None:
        import pyarrow.parquet as pq

        self.path = path
        self.schema = schema
        self.journal = path.with_name(path.name + ".partial.csv")
        if overwrite:
            for p in (path, self.journal):
                if p.exists():
                    p.unlink()
        self._stored: list[list[str]] = []
        if path.exists():
            table = pq.read_table(path)
            if table.column_names != schema.columns:
                raise _mismatch(path, table.column_names, schema.columns)
            self._stored = [[text_cell(r[c]) for c in schema.columns] for r in table.to_pylist()]
            if "error" in schema.columns:
                self._stored = [r for r in self._stored if not r[-1]]
        self._journal = CsvOutput(self.journal, schema.columns)
        self.previous = self._stored + self._journal.previous

    def drop(self, stale: set[tuple[str, ...]], width: int) -> None:
        kept = [r for r in self._stored if tuple(r[:width]) not in stale]
        if len(kept) != len(self._stored):
            self._stored = kept
            self._write_table(kept)
        self._journal.drop(stale, width)
        self.previous = self._stored + self._journal.previous

    def write(self, cells: Sequence[str]) -> None:
        self._journal.write(cells)

    def write_rows(self, rows: Sequence[Sequence[str]]) -> None:
        self._journal.write_rows(rows)

    def close(self, finished: bool) -> None:
        try:
            self._journal.close(finished)
            if finished:
                self._store()
        finally:
            if self.lock is not None:
                self.lock.release()

    def _store(self) -> None:
        self._write_table(self._stored + read_rows(self.journal, self.schema.columns))
        self.journal.unlink()

    def _write_table(self, rows: list[list[str]]) -> None:
        """Write ``rows`` as the Parquet file (through a temporary file)."""
        import pyarrow as pa
        import pyarrow.parquet as pq

        arrays = [self.schema.arrow_array(c, [r[i] for r in rows]) for i, c in enumerate(self.schema.columns)]
        table = pa.Table.from_arrays(arrays, names=self.schema.columns)
        tmp = self.path.with_name(self.path.name + ".tmp")
        try:
            pq.write_table(table, tmp)
        except BaseException:
            tmp.unlink(missing_ok=True)  # the journal still holds every row: a resume writes the file again
            raise
        os.replace(tmp, self.path)


class OutputLock:
    """An exclusive lock on ``FILE.lock`` beside a sweep's output, held while
    the sweep writes it (see the module docstring). The lock file is removed on
    :meth:`release`; a lock taken on a lock file that was meanwhile removed or
    replaced is taken again on the new one.

    The lock file names its owner (process id and start time). A killed sweep
    leaves the file behind; the system releases its lock with the process (forked
    workers close their copy, :func:`os.register_at_fork`, so orphaned workers do
    not keep it). A lock still held whose owner is gone (a worker forked by
    something else outlived it) is stale: it is removed and a new one taken."""

    def __init__(self, path: Path) -> None:
        self.path = path.with_name(path.name + ".lock")
        self._fd: int | None = None
        path.parent.mkdir(parents=True, exist_ok=True)
        while True:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
            if not self._locked(fd, path):
                continue  # a stale lock was removed: try the new file
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                self._fd = fd
                os.ftruncate(fd, 0)
                os.write(fd, f"{_owner(os.getpid())}\n".encode())
                _hold(fd)
                return
            os.close(fd)  # removed by the sweep that held it: lock the new one

    def _locked(self, fd: int, path: Path) -> bool:
        """Lock ``fd``: True once held; False after removing a stale lock file; an
        InputError when a live sweep holds it."""
        import fcntl

        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            stale = _stale(fd)
            if stale:
                try:
                    if os.stat(self.path).st_ino == os.fstat(fd).st_ino:
                        os.unlink(self.path)  # only the file whose owner is gone
                except FileNotFoundError:
                    pass
            os.close(fd)
            if stale:
                return False
            raise InputError(f"{path}: another sweep is writing this file now (it holds {self.path}); "
                             "wait for it to finish, or choose another --out") from None
        except OSError:
            os.close(fd)
            raise

    def release(self) -> None:
        if self._fd is None:
            return
        try:
            os.unlink(self.path)
        except OSError:
            pass
        _held.discard(self._fd)
        os.close(self._fd)
        self._fd = None


_held: set[int] = set()
"""Descriptors of the locks this process holds."""


def _hold(fd: int) -> None:
    """Note a held lock; the first time, have forked children close their copies."""
    if not _held and not _forgetting:
        os.register_at_fork(after_in_child=_forget_in_child)
        _forgetting.append(True)
    _held.add(fd)


_forgetting: list[bool] = []


def _forget_in_child() -> None:
    """In a forked child: close the child's copies of the locks (the parent keeps them)."""
    for fd in _held:
        try:
            os.close(fd)
        except OSError:
            pass
    _held.clear()


def _owner(pid: int) -> str:
    """``PID START``: a process and when it started (its start time in clock ticks after
    boot, from ``/proc``; ``-`` where there is none), so a reused id is not taken for it."""
    try:
        start = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[19]
    except (OSError, IndexError):
        start = "-"
    return f"{pid} {start}"


def _stale(fd: int) -> bool:
    """Whether the lock file open as ``fd`` names an owner that is gone. A file naming
    no owner (an older sweep's, or one being written) counts as live. O(1)."""
    try:
        words = os.pread(fd, 64, 0).decode("ascii").split()
        pid = int(words[0])
    except (OSError, ValueError, IndexError, UnicodeDecodeError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except PermissionError:  # another user's live process
        return False
    return len(words) > 1 and words[1] != "-" and _owner(pid) != f"{pid} {words[1]}"


def open_output(out: str | Path | None, schema: Schema, overwrite: bool = False,
                stream: TextIO | None = None) -> Output:
    """The output for ``out`` (``None``: CSV on standard output), locked for this sweep."""
    if out is None:
        return StreamOutput(schema.columns, stream)
    path = Path(out)
    kind = output_format(path)
    lock = None
    try:
        lock = OutputLock(path)
        output: Output = (ParquetOutput(path, schema, overwrite) if kind == "parquet"
                          else CsvOutput(path, schema.columns, overwrite))
        output.lock = lock
        return output
    except InputError:
        if lock is not None:
            lock.release()
        raise
    except (OSError, ValueError, csv.Error) as e:  # unreadable, unwritable, not text, not CSV/Parquet
        if lock is not None:
            lock.release()
        if isinstance(e, OSError) and e.errno in (errno.ENOSPC, errno.EFBIG, errno.EDQUOT):
            raise
        reason = e.strerror if isinstance(e, OSError) and e.strerror else " ".join(str(e).split())[:200]
        raise InputError(f"{path}: cannot be used as the sweep's output ({type(e).__name__}: {reason}); "
                         "choose another --out, or start again with --overwrite") from None


def read_rows(path: Path, columns: list[str]) -> list[list[str]]:
    """The rows of a sweep's CSV file (cells), after checking its header; a
    half-written last line is cut off the file first."""
    with path.open(newline="", encoding="utf-8") as f:
        header = next(csv.reader([f.readline()]), None)
    if header != columns:  # checked before anything is cut: never damage another file
        raise _mismatch(path, header or [], columns)
    _drop_partial_line(path)
    with path.open(newline="", encoding="utf-8") as f:
        reader = csv.reader(f)
        next(reader)
        rows = []
        for line, r in enumerate(reader, 2):
            if len(r) != len(columns):
                raise InputError(f"{path}: line {line} has {len(r)} cells, the header {len(columns)}; "
                                 "the file was edited or damaged: fix it, or start again with --overwrite")
            rows.append(r)
        return rows


def _mismatch(path: Path, found: Iterable[str], wanted: list[str]) -> InputError:
    found = [" ".join(c.split())[:40] for c in found][:30]
    return InputError(f"{path}: already holds something else than this sweep's rows (columns "
                      f"{', '.join(found) or 'none'}; this grid writes {', '.join(wanted)}); choose another --out, "
                      "or start again with --overwrite")


def _drop_partial_line(path: Path) -> None:
    """Cut a half-written last row (the header line, already checked, is completed)."""
    data = path.read_bytes()
    if data and not data.endswith(b"\n"):
        end = data.rfind(b"\n")
        with path.open("r+b") as f:
            if end < 0:
                f.seek(0, 2)
                f.write(b"\n")
            else:
                f.truncate(end + 1)


def _rewrite(path: Path, columns: list[str], rows: list[list[str]]) -> None:
    tmp = path.with_name(path.name + ".tmp")
    with tmp.open("w", newline="", encoding="utf-8") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(columns)
        w.writerows(rows)
    os.replace(tmp, path)
