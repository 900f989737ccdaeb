"""Grid files: one base query and the parameters a sweep varies.

A grid is data (TOML, or the same shape as a Python dict)::

    [base]                 # a query, as in `exactodds run` (or: base = "query.toml")
    system = "pool"
    [base.params]
    hit = "4+"

    [vary]                 # each key a parameter of the command; the product is swept
    n = {from = 1, to = 40}          # a range of whole numbers, both ends included
    reroll_hit = ["4+", "5+"]        # a list of values

    [[combinations]]       # optional: listed combinations (crossed with [vary])
    hit = "3+"
    sides = 6

    [report]               # the figures of each row (see exactodds.sweep.report)
    mean = true
    at_least = [5]

Every problem is an :class:`~exactodds.core.InputError` naming the file and
the key (``grid.toml: vary.hit[3] = '9+': ...``), raised before any work
starts: each varied value is checked by the command's own validation.
"""

from __future__ import annotations

import itertools
import json
import math
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import InputError
from ..commands import FieldError, ParamError, Query, find
from ..commands.kinds import Many, ProfileFile
from ..commands.query import TOP_LEVEL_KEYS as QUERY_KEYS
from ..tomlfiles import load_toml, no_unknown_keys, optional, require
from .report import Report, parse_report

TOP_LEVEL_KEYS = {"base", "vary", "combinations", "report", "description"}
"""Keys allowed at the top level of a grid file (``description`` is free text)."""

BASE_KEYS = {"system", "command", "params"}
RANGE_KEYS = {"from", "to", "step"}
MAX_POINTS = 1_000_000
"""Largest grid accepted (rows); a larger one is refused before any work."""


@dataclass(frozen=True)
class Grid:
    """A parsed, validated sweep: base query, varied parameters, report.

    ``vary`` maps parameter keys to their lists of values (in file order);
    ``combinations`` lists tables of coupled values (all with the same
    keys), crossed with the product of ``vary``. :meth:`points` yields the
    rows' varied values; :meth:`query` builds the query of one point.
    """

    system: str
    command: str | None
    base: Mapping[str, Any]
    vary: Mapping[str, list]
    combinations: list[dict] = field(default_factory=list)
    report: Report = field(default_factory=Report)
    source: str = "<grid>"
    folder: Path | None = None
    """Folder against which relative profile paths are resolved (the grid file's)."""

    @property
    def keys(self) -> list[str]:
        """The varied parameters, one column each: combination keys, then ``vary`` keys."""
        first = list(self.combinations[0]) if self.combinations else []
        return first + list(self.vary)

    def __len__(self) -> int:
        return max(len(self.combinations), 1) * math.prod(len(v) for v in self.vary.values())

    def points(self) -> Iterator[dict[str, Any]]:
        """Each row's varied values, ``{key: value}``, in grid order (the last
        ``vary`` key changes fastest, as in :func:`itertools.product`).
        O(rows x keys), generated lazily."""
        names = list(self.vary)
        for combo in self.combinations or [{}]:
            for values in itertools.product(*self.vary.values()):
                yield {**combo, **dict(zip(names, values))}

    def params(self, point: Mapping[str, Any]) -> dict[str, Any]:
        """The full parameters of one point: base parameters, then the point's."""
        return {**self.base, **point}

    def query(self, point: Mapping[str, Any]) -> Query:
        """The :class:`~exactodds.commands.Query` of one point of the grid."""
        return Query(self.system, self.command, self.params(point), base=self.folder,
                     source=f"{self.source}: {describe(point)}")

    def row_key(self, point: Mapping[str, Any]) -> tuple[str, ...]:
        """The text cells of a point's parameters: what identifies a row in the output."""
        return tuple(cell(point[k]) for k in self.keys)


def describe(point: Mapping[str, Any]) -> str:
    """``n=3, hit=4+``: a point's values for messages."""
    return ", ".join(f"{k}={cell(v)}" for k, v in point.items()) or "(the base query)"


def cell(value: Any) -> str:
    """A parameter value as the text of a CSV cell (lists and tables as JSON)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, tuple, dict)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


# --------------------------------------------------------------------- parsing
def load_grid(path: str | Path) -> Grid:
    """Read and validate a grid file (relative profile paths are resolved
    against its folder)."""
    return parse_grid(load_toml(path), source=str(path), folder=Path(path).resolve().parent)


def parse_grid(doc: Mapping[str, Any], source: str = "<grid>", folder: str | Path | None = None) -> Grid:
    """Validate a grid given as data (the shape of a grid file).

    Checks the keys, the types, every varied value (with the command's own
    validation) and the size, before any work.
    """
    if not isinstance(doc, Mapping):
        raise InputError(f"{source}: a grid must be a table (a dict), not {type(doc).__name__}")
    doc = dict(doc)
    folder = None if folder is None else Path(folder)
    no_unknown_keys(doc, TOP_LEVEL_KEYS, source)
    optional(doc, "description", str, source)
    system, command, base, folder_base = _parse_base(doc, source, folder)
    allowed = find(system, command, f"{source}: base").params.specs()
    vary = _parse_vary(optional(doc, "vary", dict, source, default={}), allowed, base, source)
    combinations = _parse_combinations(doc, allowed, base, vary, source)
    if not vary and not combinations:
        raise InputError(f"{source}: nothing to sweep: give a [vary] table (parameter = [values]) "
                         "or [[combinations]]")
    report = parse_report(optional(doc, "report", dict, source, default=None), source)
    grid = Grid(system, command, base, vary, combinations, report, source, folder_base)
    size = len(grid)
    if size > MAX_POINTS:
        raise InputError(f"{source}: the grid has {size:,} combinations, over the limit of {MAX_POINTS:,}; "
                         "split it into several sweeps")
    _check_values(grid)
    return grid


def _parse_base(doc: dict, source: str, folder: Path | None) -> tuple[str, str | None, dict, Path | None]:
    if "base" not in doc:
        raise InputError(f"{source}: base is missing; expected a table (system, command, [base.params]) "
                         "or the name of a query file")
    raw = doc["base"]
    if isinstance(raw, str):  # a query file, relative to the grid file
        path = Path(raw).expanduser()
        if folder is not None and not path.is_absolute():
            path = folder / path
        query = load_toml(path)
        no_unknown_keys(query, QUERY_KEYS, str(path))
        system = require(query, "system", str, str(path))
        command = optional(query, "command", str, str(path))
        params = dict(optional(query, "params", dict, str(path), default={}))
        return system, command, _absolute_profiles(system, command, params, path.resolve().parent), folder
    base = require(doc, "base", dict, source)
    no_unknown_keys(base, BASE_KEYS, source, "base")
    system = require(base, "system", str, source, "base")
    command = optional(base, "command", str, source, "base")
    params = dict(optional(base, "params", dict, source, "base", default={}))
    return system, command, params, folder


def _absolute_profiles(system: str, command: str | None, params: dict, folder: Path) -> dict:
    """Base parameters read from a query file, with its relative profile paths made
    absolute (the grid's own values are read from the grid's folder)."""
    specs = find(system, command).params.specs()
    out = {}
    for key, value in params.items():
        kind = specs[key][0].kind if key in specs else None
        if isinstance(kind, Many):
            kind = kind.item
        if isinstance(kind, ProfileFile):
            value = [_absolute(v, folder) for v in value] if isinstance(value, list) else _absolute(value, folder)
        out[key] = value
    return out


def _absolute(value: Any, folder: Path) -> Any:
    if isinstance(value, str) and not Path(value).expanduser().is_absolute():
        return str(folder / value)
    return value


def _known(key: str, allowed: Mapping[str, Any], where: str) -> None:
    if key not in allowed:
        raise InputError(f"{where}: unknown parameter {key!r}; allowed parameters are "
                         f"{', '.join(sorted(allowed))}")


def _parse_vary(table: dict, allowed: Mapping[str, Any], base: Mapping[str, Any], source: str) -> dict[str, list]:
    vary: dict[str, list] = {}
    for key, spec in table.items():
        where = f"{source}: vary.{key}"
        _known(key, allowed, where)
        if key in base:
            raise InputError(f"{where}: is also set in base.params; a parameter is either fixed or varied, "
                             "remove one")
        if isinstance(spec, dict):
            values = _parse_range(spec, source, f"vary.{key}")
        elif isinstance(spec, list):
            values = list(spec)
        else:
            raise InputError(f"{where} = {spec!r}: expected a list of values (e.g. [1, 2, 3]) "
                             "or a range {from = 1, to = 10}")
        if not values:
            raise InputError(f"{where}: is an empty list; give at least one value")
        _no_repeats(values, where)
        vary[key] = values
    return vary


def _parse_range(spec: dict, source: str, where: str) -> list[int]:
    """``{from = a, to = b, step = s}``: a..b inclusive. O(length) values."""
    no_unknown_keys(spec, RANGE_KEYS, source, where)
    start = require(spec, "from", int, source, where)
    stop = require(spec, "to", int, source, where)
    step = optional(spec, "step", int, source, where, default=1)
    if step == 0:
        raise InputError(f"{source}: {where}.step = 0: a step must not be 0")
    size = max(0, (stop - start) // step + 1)
    if size > MAX_POINTS:
        raise InputError(f"{source}: {where}: the range has {size:,} values, over the limit of {MAX_POINTS:,}")
    return list(range(start, stop + (1 if step > 0 else -1), step))


def _no_repeats(values: list, where: str) -> None:
    seen: dict[str, int] = {}
    for i, v in enumerate(values):
        text = cell(v)
        if text in seen:
            raise InputError(f"{where}: lists {text!r} twice (items {seen[text] + 1} and {i + 1}); "
                             "each row must be a different query")
        seen[text] = i


def _parse_combinations(doc: dict, allowed: Mapping[str, Any], base: Mapping[str, Any],
                        vary: Mapping[str, list], source: str) -> list[dict]:
    combos = optional(doc, "combinations", list, source, default=[])
    if "combinations" in doc and not combos:
        raise InputError(f"{source}: combinations is an empty list; give at least one combination "
                         "or remove it")
    keys: list[str] | None = None
    seen: dict[str, int] = {}
    out = []
    for i, combo in enumerate(combos, 1):
        where = f"{source}: combinations[{i}]"
        if not isinstance(combo, dict) or not combo:
            raise InputError(f"{where}: expected a non-empty table of parameter = value")
        for key in combo:
            _known(key, allowed, f"{where}.{key}")
            if key in base or key in vary:
                raise InputError(f"{where}.{key}: is also set in {'base.params' if key in base else 'vary'}; "
                                 "a parameter is set in one place only")
        if keys is None:
            keys = list(combo)
        elif set(combo) != set(keys):
            raise InputError(f"{where}: has keys {', '.join(sorted(combo))} but combinations[1] has "
                             f"{', '.join(sorted(keys))}; every combination sets the same parameters")
        text = json.dumps({k: combo[k] for k in keys}, sort_keys=True, default=str)
        if text in seen:
            raise InputError(f"{where}: repeats combinations[{seen[text]}]; each row must be a different query")
        seen[text] = i
        out.append({k: combo[k] for k in keys})
    return out


def _check_values(grid: Grid) -> None:
    """Check each varied value with the command's own validation, blaming its key.

    Each value is tried once, with the first value of every other varied key
    (and the first combination): O(sum of the list lengths) parses, not the
    product. Whole combinations are checked when they are computed.
    """
    first = {k: v[0] for k, v in grid.vary.items()}
    combo0 = grid.combinations[0] if grid.combinations else {}
    _parse_point(grid, {**combo0, **first}, f"{grid.source}: the first combination ({describe({**combo0, **first})})")
    for i, combo in enumerate(grid.combinations[1:], 2):
        _parse_point(grid, {**combo, **first}, f"{grid.source}: combinations[{i}]")
    for key, values in grid.vary.items():
        for i, v in enumerate(values[1:], 2):
            _parse_point(grid, {**combo0, **first, key: v}, f"{grid.source}: vary.{key}[{i}] = {v!r}")


def _parse_point(grid: Grid, point: dict, where: str) -> None:
    try:
        Query(grid.system, grid.command, grid.params(point), base=grid.folder, source=where)
    except ParamError as e:
        if isinstance(e, FieldError):
            raise
        # a combination the command refuses: its rows say so when they are computed (or keep_going records it)
