"""Sample files: reading a simulator's outcomes, and writing exact samples.

Two formats, both streamed line by line (memory constant in the file's
length: one count per possible outcome, plus at most
:data:`MAX_IMPOSSIBLE_KINDS` named impossible outcomes):

- **CSV** with a header row. One outcome per row under ``outcome``; or
  ``outcome,count`` rows. Composite outcomes (named tuples, JSON objects in
  the answer) take one column per field, named as in the JSON output, e.g.
  ``recipient,hits`` or ``recipient,hits,count``.
- **JSON lines**: one JSON value per line: the outcome itself (``3``,
  ``{"recipient": "target", "hits": 2}``), or ``{"outcome": ..., "count": k}``
  (for composite outcomes ``{"recipient": ..., "hits": ..., "count": k}``
  too).

Values are matched to the exact distribution's outcomes by their text,
normalised: ``1``, ``01``, ``1.0`` and ``+1`` are the outcome 1; ``True``
and ``true`` are the same. Anything else is an impossible outcome (it has
probability 0), reported by name with the line where it first appears.
"""

from __future__ import annotations

import csv
import io
import json
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any

from ..core import Dist, InputError
from ..tomlfiles import file_path
from ..core.checks import MAX_NUMBER_DIGITS, is_whole
from .outcomes import (FLOAT_TEXT, INT_TEXT, JsonFloat, TextTooLarge, check_text, exact_integer, canonical_text,
                       canonical_value, outcome_cells, outcome_fields, outcome_key, written_value)

MAX_LINE_CHARS = 1_000_000
"""Longest line read from a sample file (a longer one is refused, never loaded whole)."""

MAX_COUNT = 10**12
"""Largest count accepted on one row (and in all): far beyond any simulation, small enough for the tests."""

MAX_IMPOSSIBLE_KINDS = 20
"""How many distinct impossible outcomes are kept by name; further ones are only counted."""

PROGRESS_AFTER_SECONDS = 2.0
"""A file still being read after this long shows a progress bar (when standard error is a terminal)."""

COUNT = "count"
OUTCOME = "outcome"
JSONL_SUFFIXES = (".jsonl", ".ndjson", ".json")

class OutcomeIndex:
    """Matches normalised file values to the outcomes of one exact distribution."""

    def __init__(self, dist: Dist) -> None:
        self.dist = dist
        self.fields = outcome_fields(dist)
        self.columns = self.fields if self.fields is not None else [OUTCOME]
        self.by_key: dict[tuple[str, ...], Any] = {}
        for x in dist.support():
            k = outcome_key(x, self.fields)
            if k in self.by_key:
                raise InputError(f"outcomes {self.by_key[k]!r} and {x!r} are written the same way "
                                 f"({', '.join(k)}); they cannot be told apart in a sample file")
            self.by_key[k] = x
        self.numeric = all(is_whole(x) for x in dist.support())

    def label(self, key: tuple[str, ...]) -> str:
        """A text label for a key (an impossible outcome's name)."""
        if self.fields is not None:
            return ", ".join(f"{f}={v}" for f, v in zip(self.fields, key))
        return key[0]


# ----------------------------------------------------------------- Samples
@dataclass
class ImpossibleOutcome:
    """An outcome seen in the samples that has probability 0 under the exact distribution."""

    label: str
    count: int
    first_line: int | None
    value: Any = None
    """The outcome as a number when it is one (for KS and Cramér-von Mises), else None."""


@dataclass
class Samples:
    """A simulator's outcomes, counted against one exact distribution.

    ``counts`` maps possible outcomes to how often they were seen;
    ``impossible`` lists outcomes of probability 0 that were seen (the first
    :data:`MAX_IMPOSSIBLE_KINDS` kinds by name, ``impossible_more`` counts
    the rest).
    """

    dist: Dist
    counts: dict[Any, int] = field(default_factory=dict)
    impossible: list[ImpossibleOutcome] = field(default_factory=list)
    impossible_more: int = 0
    source: str = "<samples>"

    @property
    def n(self) -> int:
        """The number of samples (possible and impossible outcomes)."""
        return self.n_possible + self.n_impossible

    @property
    def n_possible(self) -> int:
        """The number of samples whose outcome is possible."""
        return sum(self.counts.values())

    @property
    def n_impossible(self) -> int:
        """The number of samples whose outcome has probability 0."""
        return sum(i.count for i in self.impossible) + self.impossible_more

    def observed(self, outcome: Any) -> int:
        """How many samples showed ``outcome`` (0 if none)."""
        return self.counts.get(outcome, 0)

    def empirical(self) -> Dist:
        """The observed frequencies as an exact :class:`Dist` (denominator ``n``).

        Impossible outcomes are included when they are numbers; otherwise
        (they cannot be placed in order) they count under their label.
        """
        weights: dict[Any, int] = dict(self.counts)
        for imp in self.impossible:
            key = imp.value if imp.value is not None else imp.label
            weights[key] = weights.get(key, 0) + imp.count
        if self.impossible_more:
            weights["(other impossible outcomes)"] = self.impossible_more
        if not any(weights.values()):
            raise InputError(f"{self.source}: no samples")
        return Dist.from_weights(weights)

    # ------------------------------------------------------------ builders
    @classmethod
    def from_outcomes(cls, outcomes: Iterable[Any], dist: Dist, source: str = "<samples>") -> Samples:
        """Count Python outcomes (values, named tuples, dicts of fields, or their text)."""
        counter = _Counter(OutcomeIndex(dist), source)
        for i, x in enumerate(outcomes, 1):
            try:
                counter.add_value(x, 1, i)
            except TextTooLarge as e:
                raise InputError(f"{source}: outcome {i}: {e}") from None
        return counter.samples()

    @classmethod
    def from_counts(cls, counts: Mapping[Any, int], dist: Dist, source: str = "<samples>") -> Samples:
        """Samples given as ``{outcome: count}``."""
        counter = _Counter(OutcomeIndex(dist), source)
        for i, (x, c) in enumerate(counts.items(), 1):
            try:
                counter.add_value(x, _count(c, source, f"count of {x!r}"), i)
            except TextTooLarge as e:
                raise InputError(f"{source}: outcome {i}: {e}") from None
        return counter.samples()


def _count(value: Any, source: str, where: str) -> int:
    if isinstance(value, JsonFloat):
        value = value.text  # decided exactly from its text, like a CSV cell
    shown = value if not isinstance(value, str) or len(value) <= 30 else value[:30] + "..."
    if isinstance(value, str):
        text = value.strip()
        if FLOAT_TEXT.fullmatch(text) and not INT_TEXT.fullmatch(text):  # 2.0 or 2e0: exactly 2; 1e-400: not whole
            try:
                exact = exact_integer(text)
            except TextTooLarge:
                exact = MAX_COUNT + 1
            text = text if exact is None else str(exact)
        if not INT_TEXT.fullmatch(text) or text.startswith("-"):
            raise InputError(f"{source}: {where}: count {shown!r} is not a whole number 0 or more")
        if len(text.lstrip("+0")) > len(str(MAX_COUNT)):
            value = MAX_COUNT + 1
        else:
            value = int(text)
    if isinstance(value, float) and value.is_integer():
        value = int(value)
    if not is_whole(value) or value < 0:
        raise InputError(f"{source}: {where}: count {shown!r} is not a whole number 0 or more")
    if value > MAX_COUNT:
        raise InputError(f"{source}: {where}: count {shown!r} is more than {MAX_COUNT:,} samples")
    return value


class _Counter:
    """Accumulates counts per outcome; constant memory in the number of rows."""

    def __init__(self, index: OutcomeIndex, source: str) -> None:
        self.index = index
        self.source = source
        self.counts: dict[Any, int] = {}
        self.impossible: dict[tuple[str, ...], ImpossibleOutcome] = {}
        self.impossible_more = 0
        self.rows = 0
        self.total = 0

    def add_key(self, key: tuple[str, ...], count: int, line: int | None) -> None:
        self.rows += 1
        if not count:
            return
        self.total += count
        if self.total > MAX_COUNT:
            raise InputError(f"{self.source}: line {line}: more than {MAX_COUNT:,} samples in all")
        x = self.index.by_key.get(key)
        if x is not None or key in self.index.by_key:
            self.counts[x] = self.counts.get(x, 0) + count
            return
        imp = self.impossible.get(key)
        if imp is not None:
            imp.count += count
        elif len(self.impossible) < MAX_IMPOSSIBLE_KINDS:
            value = int(key[0]) if self.index.numeric and INT_TEXT.fullmatch(key[0]) else None
            self.impossible[key] = ImpossibleOutcome(self.index.label(key), count, line, value)
        else:
            self.impossible_more += count

    def add_value(self, x: Any, count: int, line: int | None) -> None:
        """Count a Python value (an outcome, a dict of fields, or text)."""
        try:
            if x in self.index.dist and not (isinstance(x, bool) and self.index.numeric):
                key = outcome_key(x, self.index.fields)
                self.add_key(key, count, line)
                return
        except TypeError:  # unhashable (a dict): matched by its fields below
            pass
        self.add_key(self.json_key(x, line), count, line)

    def json_key(self, x: Any, line: int | None) -> tuple[str, ...]:
        fields = self.index.fields
        if fields is not None:
            if isinstance(x, Mapping):
                missing = [f for f in fields if f not in x]
                extra = sorted(set(x) - set(fields))
                if missing or extra:
                    raise InputError(f"{self.source}: line {line}: {_fields_problem(missing, extra, fields)}")
                return tuple(canonical_value(x[f]) for f in fields)
            if hasattr(x, "_asdict"):
                return tuple(canonical_value(v) for v in x._asdict().values())
            raise InputError(f"{self.source}: line {line}: {x!r} is not an outcome of this query: expected "
                             f"an object with the fields {', '.join(fields)}")
        if isinstance(x, Mapping):
            raise InputError(f"{self.source}: line {line}: an object is not an outcome of this query "
                             f"(outcomes are single values); write the value, or "
                             f'{{"outcome": ..., "count": ...}}')
        return (canonical_value(x) if not isinstance(x, str) else canonical_text(x),)

    def samples(self) -> Samples:
        return Samples(self.index.dist, self.counts, list(self.impossible.values()), self.impossible_more,
                       self.source)


def _fields_problem(missing: list[str], extra: list[str], fields: list[str]) -> str:
    if missing:
        return (f"field {missing[0]!r} is missing; outcomes of this query have the fields "
                f"{', '.join(fields)}")
    return f"unknown field {extra[0]!r}; outcomes of this query have the fields {', '.join(fields)}"


# ----------------------------------------------------------------- reading
def read_samples(source: str | Path | IO[str], dist: Dist, fmt: str = "auto",
                 progress: bool = False) -> Samples:
    """Count the outcomes in a sample file against the exact distribution ``dist``.

    ``source`` is a path, ``"-"`` for standard input, or an open text file.
    ``fmt`` is ``"csv"``, ``"jsonl"`` or ``"auto"`` (by the file's suffix:
    ``.jsonl``, ``.ndjson`` or ``.json`` for JSON lines, ``.csv`` for CSV;
    otherwise by its first character: ``{``, ``[``, ``"``, a digit or a
    sign means JSON lines). One pass over the file; memory constant in its
    length. ``progress`` shows a bar on standard error for large files.
    """
    if fmt not in ("auto", "csv", "jsonl"):
        raise InputError(f"sample format {fmt!r} is not known; use csv, jsonl or auto")
    index = OutcomeIndex(dist)
    if hasattr(source, "read"):
        name = getattr(source, "name", "<samples>")
        return _read_stream(source, str(name), fmt, index, None)  # type: ignore[arg-type]
    if str(source) == "-":
        return _read_stream(sys.stdin, "<stdin>", fmt, index, None)
    path = file_path(source, "a sample file")  # type: ignore[arg-type]
    if fmt == "auto":
        suffix = path.suffix.lower()
        fmt = "jsonl" if suffix in JSONL_SUFFIXES else ("csv" if suffix == ".csv" else "auto")
    try:
        size = path.stat().st_size
        handle = open(path, encoding="utf-8-sig", newline="")
    except OSError as e:
        raise InputError(f"{path}: cannot read the file ({e.strerror or e})") from None
    with handle:
        bar_size = size if progress and sys.stderr.isatty() else None
        return _read_stream(handle, str(path), fmt, index, bar_size)


def _lines(handle: IO[str], source: str, bar_size: int | None) -> Iterator[str]:
    """The file's lines, refusing any longer than :data:`MAX_LINE_CHARS` (never loads one whole).

    With ``bar_size`` (the file's size), a progress bar appears on standard error once
    reading has taken :data:`PROGRESS_AFTER_SECONDS` (the clock is read once per MB)."""
    bar = None
    started = time.monotonic()
    done = pending = read = 0
    try:
        while True:
            try:
                line = handle.readline(MAX_LINE_CHARS + 1)
            except UnicodeDecodeError:
                raise InputError(f"{source}: is not a UTF-8 text file (after line {done}); "
                                 "a CSV or JSON lines file was expected") from None
            if not line:
                return
            done += 1
            if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
                raise InputError(f"{source}: line {done} is longer than {MAX_LINE_CHARS:,} characters; "
                                 "a sample file has one short outcome per line")
            if "\x00" in line:
                raise InputError(f"{source}: line {done} contains NUL bytes; a text file was expected")
            if bar_size is not None:
                pending += len(line)
                if pending >= 1 << 20:
                    read += pending
                    if bar is None and time.monotonic() - started >= PROGRESS_AFTER_SECONDS:
                        import click

                        bar = click.progressbar(length=bar_size, label=f"reading {source}", file=sys.stderr)
                        bar.__enter__()
                        bar.update(read - pending)
                    if bar is not None:
                        bar.update(pending)
                    pending = 0
            yield line
    finally:
        if bar is not None:
            bar.update(pending)
            bar.__exit__(None, None, None)


def _read_stream(handle: IO[str], source: str, fmt: str, index: OutcomeIndex, bar_size: int | None) -> Samples:
    lines = _lines(handle, source, bar_size)
    if fmt == "auto":
        first = ""
        buffered: list[str] = []
        for line in lines:
            buffered.append(line)
            if line.strip():
                first = line.strip()[0]
                break
        fmt = "jsonl" if first and (first in '{["-+.' or first.isdigit()) else "csv"
        lines = _chain(buffered, lines)
    counter = _Counter(index, source)
    if fmt == "csv":
        _read_csv(lines, counter)
    else:
        _read_jsonl(lines, counter)
    samples = counter.samples()
    if samples.n == 0:
        raise InputError(f"{source}: no samples (the file has no outcome rows, or every count is 0)")
    return samples


def _chain(first: list[str], rest: Iterator[str]) -> Iterator[str]:
    yield from first
    yield from rest


def _read_csv(lines: Iterator[str], counter: _Counter) -> None:
    source = counter.source
    reader = csv.reader(lines, strict=True)
    try:
        header = next((row for row in reader if row), None)
        if header is None:
            raise InputError(f"{source}: is empty; expected a header row "
                             f"({','.join(counter.index.columns)}[,count]) and one row per outcome")
        names = [h.strip() for h in header]
        columns = counter.index.columns
        allowed = columns + [COUNT]
        for name in names:
            if name not in allowed:
                raise InputError(f"{source}: line 1: unknown column {name!r}; the columns are "
                                 f"{', '.join(columns)} and optionally count")
        if len(set(names)) != len(names):
            dup = next(n for n in names if names.count(n) > 1)
            raise InputError(f"{source}: line 1: column {dup!r} appears twice")
        missing = [c for c in columns if c not in names]
        if missing:
            raise InputError(f"{source}: line 1: column {missing[0]!r} is missing; the columns are "
                             f"{', '.join(columns)} and optionally count")
        where = [names.index(c) for c in columns]
        count_at = names.index(COUNT) if COUNT in names else None
        width = len(names)
        for row in reader:
            if not row or (len(row) == 1 and not row[0].strip()):
                continue
            line = reader.line_num
            if len(row) != width:
                raise InputError(f"{source}: line {line}: {len(row)} values for {width} columns "
                                 f"({','.join(names)})")
            count = 1 if count_at is None else _count(row[count_at], source, f"line {line}")
            try:
                key = tuple(canonical_text(row[i]) for i in where)
            except TextTooLarge as e:
                raise InputError(f"{source}: line {line}: {e}") from None
            counter.add_key(key, count, line)
    except csv.Error as e:
        raise InputError(f"{source}: line {reader.line_num}: not valid CSV ({e})") from None


def _read_jsonl(lines: Iterator[str], counter: _Counter) -> None:
    source = counter.source
    fields = counter.index.fields
    wrapper_keys = {OUTCOME, COUNT}
    for line_no, line in enumerate(lines, 1):
        text = line.strip()
        if not text:
            continue
        try:
            if len(text) > MAX_NUMBER_DIGITS:
                check_text(text)
            value = json.loads(text, parse_float=JsonFloat)
        except TextTooLarge as e:
            raise InputError(f"{source}: line {line_no}: {e}") from None
        except ValueError as e:
            raise InputError(f"{source}: line {line_no}: not valid JSON ({e.args[0] if e.args else e})") from None
        count = 1
        if isinstance(value, dict):
            wrapped = OUTCOME in value if fields is None else (OUTCOME in value and OUTCOME not in fields)
            if wrapped or fields is None:
                extra = sorted(set(value) - wrapper_keys)
                if extra or OUTCOME not in value:
                    what = "an outcome" if fields is None else "an object with the outcome's fields"
                    bad = f"unknown key {extra[0]!r}" if extra else "key 'outcome' is missing"
                    raise InputError(f"{source}: line {line_no}: {bad}; a line is {what}, "
                                     f'or {{"outcome": ..., "count": ...}}')
                count = _count(value.get(COUNT, 1), source, f"line {line_no}")
                value = value[OUTCOME]
            elif COUNT in value and COUNT not in fields:
                count = _count(value[COUNT], source, f"line {line_no}")
                value = {k: v for k, v in value.items() if k != COUNT}
        try:
            key = counter.json_key(value, line_no)
        except TextTooLarge as e:
            raise InputError(f"{source}: line {line_no}: {e}") from None
        counter.add_key(key, count, line_no)


# ----------------------------------------------------------------- writing
def write_samples(outcomes: Iterable[Any], dist: Dist, out: IO[str], counts: bool = False) -> int:
    """Write outcomes as CSV in the format :func:`read_samples` reads; returns the row count.

    One row per outcome (header ``outcome`` or the fields), or with
    ``counts=True`` one row per distinct outcome with its count, in the
    distribution's order.
    """
    index = OutcomeIndex(dist)
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(index.columns + ([COUNT] if counts else []))
    rows = 0
    if counts:
        tally: dict[Any, int] = {}
        for x in outcomes:
            tally[x] = tally.get(x, 0) + 1
        for x in dist.support():
            if x in tally:
                writer.writerow([written_value(v) for v in outcome_cells(x, index.fields)] + [tally[x]])
                rows += 1
        return rows
    for x in outcomes:
        writer.writerow([written_value(v) for v in outcome_cells(x, index.fields)])
        rows += 1
    return rows


def samples_csv(outcomes: Iterable[Any], dist: Dist, counts: bool = False) -> str:
    """The CSV text of :func:`write_samples` (handy in notebooks and tests)."""
    buf = io.StringIO()
    write_samples(outcomes, dist, buf, counts)
    return buf.getvalue()
