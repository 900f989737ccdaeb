"""``Answer``: one exact answer to one query, and its renderings.

Every query command (CLI flags or a TOML query file) produces an
:class:`Answer`: the exact distribution, the query's inputs, optional
top-level figures (e.g. ``p_success``) and optional inspectable stages.
This module renders it as a table, JSON or CSV in the shape shared by every
command::

    {"query": {...}, "outcomes": [{"outcome": ..., "p": "n/d", "p_float": f}, ...],
     "mean": "n/d", ...extras}

A composite answer (several units' figures in one joint distribution, declared
by ``units``: :mod:`exactodds.units`) adds ``"marginals": {"NAME": {"outcomes":
[...], "mean": "n/d", "status": [...]}}`` after its outcomes, and its table
shows a block per unit and its most probable joint outcomes.

Rendering API (what the command line calls):

- ``answer.render(fmt, all_rows=False, exact=False)``: the whole answer in one
  of :data:`FORMATS`. ``all_rows`` (``--all``) and ``exact`` (``--exact``)
  apply to the table only: by default a table shows the window of the
  :data:`~exactodds.render.TABLE_ROWS` most probable outcomes and
  shortens fractions longer than
  :data:`~exactodds.render.LONG_FRACTION` characters; JSON and CSV are
  always complete and exact.
- ``answer.figure(name, k=None)``: one exact number, ``name`` one of
  :data:`FIGURES` (``"at_least"`` and ``"at_most"`` take ``k``), or the name
  of an extra figure (``"p_success"``);
- ``answer.render_figure(name, k=None, fmt="table", exact=False)``: that
  number alone (``--at-least K``, ``--at-most K``, ``--mean``): in a table
  ``<exact>  ≈ <decimal>`` (``7`` for a whole number), in JSON
  ``{"query": ..., "figure": ..., "k": ..., "value": "n/d", "value_float": f}``,
  in CSV the same as one header line and one row.
"""

from __future__ import annotations

import csv
import io
import json
import json.encoder
import math
from collections import namedtuple
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any, NoReturn

from .core import Dist, InputError
from .render import (
    LONG_FRACTION,
    decimal,
    dist_text,
    figure_parts,
    figure_text,
    outcome_label,
    plot_dists,
    save_figure,
)
from .units import UnitFields, Units, counts_label, engagement_lines, marginals_json, plot_parts, unit_answer_parts

FORMATS = ("table", "json", "csv")
_INTS = {int}

FIGURES = ("at_least", "at_most", "mean")
"""Single figures of any numeric answer (see :meth:`Answer.figure`)."""

LINE_WIDTH = 100
"""Table lines (the query, the extras) are wrapped or shortened to this width."""


def frac_str(p: Fraction | int) -> str:
    """A reduced fraction always written ``num/den`` (``"1/1"`` for one)."""
    if p.__class__ is not Fraction:
        p = Fraction(p)
    return f"{p.numerator}/{p.denominator}"


def ratio_text(num: int, den: int) -> str:
    """``num/den`` reduced, as :func:`frac_str` writes ``Fraction(num, den)`` (one gcd)."""
    g = math.gcd(num, den)
    return f"{num // g}/{den // g}"


def jsonable(value: Any) -> Any:
    """Turn query inputs and outcomes into JSON values (named tuples become objects)."""
    if hasattr(value, "_asdict"):
        return {k: jsonable(v) for k, v in value._asdict().items()}
    if isinstance(value, Fraction):
        return frac_str(value)
    if isinstance(value, (list, tuple)):
        return [jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): jsonable(v) for k, v in value.items()}
    if isinstance(value, Path):
        return str(value)
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    return str(value)


def json_text(value: Any, level: int = 0) -> str:
    """The text of ``json.dumps(value, indent=2)`` for a JSON value (what
    :func:`jsonable` returns) nested ``level`` deep: the same bytes, written
    without the encoder's generators. O(size of the value)."""
    kind = value.__class__
    if kind is str:
        return _string_text(value)
    if kind is int:
        return int.__repr__(value)
    if value is None or value is True or value is False:
        return _CONSTANTS[value]
    if kind is float:
        return _float_text(value)
    if isinstance(value, dict):
        if not value:
            return "{}"
        inner = "\n" + "  " * (level + 1)
        return ("{" + inner + ("," + inner).join(f"{_key_text(k)}: {json_text(v, level + 1)}" for k, v in value.items())
                + "\n" + "  " * level + "}")
    if isinstance(value, (list, tuple)):
        if not value:
            return "[]"
        inner = "\n" + "  " * (level + 1)
        return "[" + inner + ("," + inner).join(json_text(v, level + 1) for v in value) + "\n" + "  " * level + "]"
    if isinstance(value, str):
        return _string_text(value)
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        return _float_text(value)
    return json.dumps(value)  # not a JSON value: the encoder's own error


def _outcome_json(x: Any, heads: dict[type, list[str]]) -> str:
    """One outcome as :func:`json_text` writes ``jsonable(x)`` at level 3; a named tuple's
    keys are written once per class (``heads``), its values one by one."""
    kind = x.__class__
    if kind is int:
        return int.__repr__(x)
    if getattr(getattr(kind, "_asdict", None), "__code__", None) is not _ASDICT or not x:  # not a plain named tuple
        return json_text(jsonable(x), 3)
    head = heads.get(kind)
    if head is None:
        head = heads[kind] = [f"\n        {_key_text(k)}: " for k in x._fields]
        head[1:] = ["," + h for h in head[1:]]
    return "{" + "".join(h + json_text(jsonable(v), 4) for h, v in zip(head, x)) + "\n      }"


_ASDICT = getattr(namedtuple("_Plain", "x"), "_asdict").__code__
"""The code of every named tuple's own ``_asdict`` (``dict(zip(_fields, self))``)."""
_CONSTANTS = {None: "null", True: "true", False: "false"}
_string_text = json.encoder.encode_basestring_ascii  # type: ignore[attr-defined]


def _float_text(x: float) -> str:
    """A float as :mod:`json` writes it."""
    if x != x:
        return "NaN"
    if x in (math.inf, -math.inf):
        return "Infinity" if x > 0 else "-Infinity"
    return float.__repr__(x)


def _key_text(key: Any) -> str:
    """A mapping's key as :mod:`json` writes it (always a string)."""
    if isinstance(key, str):
        return _string_text(key)
    if key is None or key is True or key is False:
        return f'"{_CONSTANTS[key]}"'
    if isinstance(key, float):
        return f'"{_float_text(key)}"'
    if isinstance(key, int):
        return f'"{int.__repr__(key)}"'
    return json.dumps({key: 0})  # not a JSON key: the encoder's own error


def _numeric(dist: Dist) -> bool:
    if set(map(type, dist.weights())) == _INTS:  # the common case in one C pass, O(k)
        return True
    return all(isinstance(x, int) and not isinstance(x, bool) for x in dist.weights())  # unsorted: O(k)


class ReadOnlyDict(dict):  # type: ignore[type-arg]
    """A dict that refuses every change (a ``TypeError``), so that an :class:`Answer`
    shared by a cache cannot be changed by one of its readers. Reading, ``{**d}``,
    ``dict(d)``, JSON and pickling work as for a dict."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("an answer's mappings are read-only: build a new answer with "
                        "dataclasses.replace(answer, extras={**answer.extras, ...})")

    __setitem__ = __delitem__ = __ior__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[Any, ...]:
        return (ReadOnlyDict, (dict(self),))

    def __copy__(self) -> ReadOnlyDict:
        return self

    def __deepcopy__(self, memo: dict[int, Any]) -> ReadOnlyDict:
        return self


@dataclass(frozen=True)
class Answer:
    """An exact answer: ``dist`` plus the query that produced it.

    ``mean`` defaults to the mean of ``dist`` for integer outcomes; a
    command with composite outcomes may give its own (or ``None``).
    ``extras`` are extra top-level figures (exact fractions or plain values).

    An answer is immutable, since caches share it: its attributes cannot be
    set (:class:`dataclasses.FrozenInstanceError`) and ``query``, ``extras``
    and ``stages`` are read-only copies of the mappings given
    (:class:`ReadOnlyDict`). ``dataclasses.replace(answer, extras=...)``
    makes a changed copy.
    """

    dist: Dist
    query: dict = field(default_factory=dict)
    extras: dict = field(default_factory=dict)
    mean: Fraction | None = None
    stages: dict[str, Dist] = field(default_factory=dict)
    units: Units | None = None

    def __post_init__(self) -> None:
        for name in ("query", "extras", "stages"):  # O(entries): copies, so the caller's dicts stay theirs
            object.__setattr__(self, name, ReadOnlyDict(getattr(self, name)))
        if self.mean is None and _numeric(self.dist):
            object.__setattr__(self, "mean", self.dist.mean())

    def to_json_obj(self) -> dict:
        """The shared JSON shape (a dict ready for :func:`json.dumps`)."""
        obj: dict = {"query": jsonable(self.query), "outcomes": []}
        for x, p in self.dist.items():
            obj["outcomes"].append({"outcome": jsonable(x), "p": frac_str(p), "p_float": float(p)})
        obj["mean"] = None if self.mean is None else frac_str(self.mean)
        if self.composite:
            obj["marginals"] = self._marginals()
        for k, v in self.extras.items():
            obj[k] = jsonable(v)
        return obj

    def to_json(self) -> str:
        """JSON text in the shared shape: the text of ``json.dumps(self.to_json_obj(),
        indent=2)``, written straight from the integer weights (each ``p`` reduced
        by one gcd, ``p_float`` one correctly rounded division): O(k) for k
        outcomes, no :class:`~fractions.Fraction` and no encoder per outcome."""
        texts = {"query": json_text(jsonable(self.query), 1), "outcomes": self._outcomes_json(),
                 "mean": "null" if self.mean is None else json_text(frac_str(self.mean))}
        if self.composite:
            texts["marginals"] = json_text(self._marginals(), 1)
        for k, v in self.extras.items():
            texts[k] = json_text(jsonable(v), 1)
        return "{\n  " + ",\n  ".join(f"{_key_text(k)}: {t}" for k, t in texts.items()) + "\n}"

    def _outcomes_json(self) -> str:
        """The ``outcomes`` list of :meth:`to_json`, at nesting level 1."""
        weights, den = self.dist.weights(), self.dist.denominator
        heads: dict[type, list[str]] = {}
        gcd, rows = math.gcd, []
        for x in self.dist.support():
            w = weights[x]
            g = gcd(w, den)
            # 0 < w / den <= 1: a finite float, which json writes as its repr
            rows.append(f'{{\n      "outcome": {int.__repr__(x) if x.__class__ is int else _outcome_json(x, heads)},'
                        f'\n      "p": "{w // g}/{den // g}",\n      "p_float": {w / den!r}\n    }}')
        return "[\n    " + ",\n    ".join(rows) + "\n  ]"

    def to_csv(self) -> str:
        """One row per outcome, exact and complete (every outcome, fractions whole).

        Columns: the outcome (one column per field of a composite outcome,
        named as in the JSON), ``p``, ``p_float``; for numeric outcomes
        ``p_at_least`` and ``p_at_least_float``, then ``mean`` and
        ``mean_float``; then every extra figure, repeated on every row:
        ``p_success``, ``p_success_float``, ... (a mapping of figures gives
        one column per key, ``p_recipient.target``, each with its ``_float``
        twin; a whole number or a flag is one column, as in the JSON).
        Repeated columns keep the file one plain table: ``pandas.read_csv``
        reads it with no options, and ``df.p_success[0]`` is the figure.
        """
        buf = io.StringIO()
        support = self.dist.support()
        first = support[0]
        fields = list(first._asdict()) if hasattr(first, "_asdict") else ["outcome"]
        numeric = _numeric(self.dist)
        extra_heads, extra_values = [], []
        if self.mean is not None:
            extra_heads += ["mean", "mean_float"]
            extra_values += [frac_str(self.mean), repr(float(self.mean))]
        for name, value in _flat_extras(self.extras):
            if isinstance(value, Fraction):
                extra_heads += [name, f"{name}_float"]
                extra_values += [frac_str(value), repr(float(value))]
            else:
                extra_heads.append(name)
                extra_values.append(_csv_value(value))
        csv.writer(buf, lineterminator="\n").writerow(
            fields + ["p", "p_float"] + (["p_at_least", "p_at_least_float"] if numeric else []) + extra_heads)
        # the figures repeated on every row are written once, as the end of every line (a
        # field's quoting depends on that field alone; the leading "x" only spares the
        # single-empty-field case); each row's own cells are written to `line`, its "\n" cut
        tail = _csv_line(["x", *extra_values])[1:]
        line = io.StringIO()
        writer = csv.writer(line, lineterminator="\n")
        weights, den = self.dist.weights(), self.dist.denominator
        above = den  # the weight of the outcomes from this row on: exact, one subtraction per row
        for x in support:
            w = weights[x]
            values = list(x._asdict().values()) if hasattr(x, "_asdict") else [outcome_label(x)]
            row = values + [ratio_text(w, den), repr(w / den)]
            if numeric:
                row += [ratio_text(above, den), repr(above / den)]
            above -= w
            line.seek(0)
            line.truncate()
            writer.writerow(row)
            buf.write(line.getvalue()[:-1] + tail)
        return buf.getvalue()

    def to_table(self, all_rows: bool = False, exact: bool = False, joint: bool = False) -> str:
        """A plain-text table for people: the query, the distribution, the mean and extras.

        ``all_rows=False`` (CLI: without ``--all``): the window of the most
        probable outcomes (:data:`~exactodds.render.TABLE_ROWS` rows at
        most), with the count and total probability of the outcomes hidden
        below and above it; ``all_rows=True``: every outcome.
        ``exact=False`` (CLI: without ``--exact``): fractions longer than
        :data:`~exactodds.render.LONG_FRACTION` characters are shortened
        (``≈ 0.4677 (exact: 90 digits, --exact)``); ``exact=True``: in full.
        Decimals have 4 significant digits and never read 0 for a chance that
        is not 0; whole numbers print without ``/1``. Without ``exact``, no
        line is longer than :data:`LINE_WIDTH` characters (the query line wraps).

        A composite answer (:attr:`composite`: two units or more) shows by
        default a short block per unit and its most probable joint outcomes
        (:func:`~exactodds.units.engagement_lines`); ``joint`` (CLI ``--joint``)
        or ``all_rows`` shows the whole joint distribution instead.
        """
        lines = []
        if self.query:
            shown = ", ".join(f"{k}={_show(v)}" for k, v in self.query.items() if not _unset(v))
            lines += _wrap("query: " + shown)
        covered: set[str] = set()
        if self.composite and not (all_rows or joint or self.numeric):
            blocks, covered = engagement_lines(self, exact)
            lines += blocks
        else:
            lines.append(dist_text(self.dist, all_rows=all_rows, exact=exact))
            if self.mean is not None:
                lines.append(f"mean: {figure_text(self.mean, exact)}")
        for k, v in self.extras.items():
            if k in covered:
                continue
            if isinstance(v, dict) and any(isinstance(x, (int, Fraction)) and not isinstance(x, bool)
                                           for x in v.values()):
                lines.append(f"{k}:")
                parts = [(str(name), *figure_parts(x, exact)) for name, x in v.items()]
                widths = [max(len(t[i]) for t in parts) for i in range(2)]
                lines += [f"  {name:<{widths[0]}}  {ex:>{widths[1]}}  {approx}".rstrip() for name, ex, approx in parts]
            else:
                lines += _wrap(f"{k}: {_figure(v, exact)}")
        return "\n".join(lines)

    def render(self, fmt: str, all_rows: bool = False, exact: bool = False, joint: bool = False) -> str:
        """Render in one of :data:`FORMATS`; ``all_rows``, ``exact`` and ``joint`` are
        the table's options (:meth:`to_table`; CLI ``--all``, ``--exact`` and
        ``--joint``): JSON and CSV are always complete and exact."""
        if fmt not in FORMATS:
            raise InputError(f"format {fmt!r} is not known; use {', '.join(FORMATS)}")
        if fmt == "table":
            return self.to_table(all_rows=all_rows, exact=exact, joint=joint)
        return self.to_json() if fmt == "json" else self.to_csv()

    # ------------------------------------------------------- single figures
    def figure(self, name: str, k: Any = None) -> Any:
        """One exact figure of the answer (a :class:`~fractions.Fraction`):

        - ``figure("at_least", k)``: P(outcome >= k) (CLI ``--at-least K``);
        - ``figure("at_most", k)``: P(outcome <= k) (CLI ``--at-most K``);
        - ``figure("mean")``: the mean (CLI ``--mean``);
        - ``figure(extra)``: an extra figure by name (e.g. ``"p_success"``).

        ``at_least`` and ``at_most`` need numeric outcomes and a whole or
        fractional ``k``; an unknown name is an :class:`InputError` listing the
        names this answer has.
        """
        if name in ("at_least", "at_most"):
            if k is None or isinstance(k, bool) or not isinstance(k, (int, Fraction)):
                raise InputError(f"figure {name!r} needs a number k (the outcome to compare with), not {k!r}")
            if not _numeric_outcomes(self.dist) and self.composite:
                raise InputError(f"{name.replace('_', ' ')} needs one number per outcome; this answer holds "
                                 f"several units: choose one with --unit NAME (unit=NAME), one of "
                                 f"{', '.join(self.unit_names())}")
            if not _numeric_outcomes(self.dist):
                raise InputError(f"{name.replace('_', ' ')} needs numeric outcomes; these are "
                                 f"{outcome_label(self.dist.support()[0])}, ...")
            return self.dist.at_least(k) if name == "at_least" else self.dist.at_most(k)
        if k is not None:
            raise InputError(f"figure {name!r} takes no k")
        if name == "mean":
            if self.mean is None:
                raise InputError("this answer has no mean (its outcomes are not numbers)")
            return self.mean
        if name in self.extras:
            return self.extras[name]
        known = [f for f in FIGURES if f != "mean" or self.mean is not None] + list(self.extras)
        raise InputError(f"figure {name!r} is not known; this answer has {', '.join(known)}")

    def render_figure(self, name: str, k: Any = None, fmt: str = "table", exact: bool = False) -> str:
        """One figure (:meth:`figure`) alone, in one of :data:`FORMATS`.

        table: ``<exact>  ≈ <decimal>`` (``5/12  ≈ 0.4167``; ``7`` for a whole
        number; a fraction longer than
        :data:`~exactodds.render.LONG_FRACTION` characters is shortened
        unless ``exact``); json: ``{"query": {...}, "figure": "at_least",
        "k": 3, "value": "1/2", "value_float": 0.5}``; csv: the columns
        ``figure,k,value,value_float`` and one row.
        """
        value = self.figure(name, k)
        if fmt not in FORMATS:
            raise InputError(f"format {fmt!r} is not known; use {', '.join(FORMATS)}")
        number = isinstance(value, (int, Fraction)) and not isinstance(value, bool)
        if fmt == "table":
            return figure_text(value, exact) if number else _show(value, top=True)
        obj = {"figure": name, "k": jsonable(k), "value": frac_str(value) if number else jsonable(value),
               "value_float": float(value) if number else None}
        if fmt == "json":
            return json.dumps({"query": jsonable(self.query), **obj}, indent=2)
        buf = io.StringIO()
        writer = csv.writer(buf, lineterminator="\n")
        writer.writerow(list(obj))
        writer.writerow(["" if v is None else (repr(v) if isinstance(v, float) else _csv_value(v))
                         for v in obj.values()])
        return buf.getvalue()

    # ---------------------------------------------------------------- units
    @property
    def composite(self) -> bool:
        """Whether the answer holds several units' figures (declared by ``units``)."""
        return self.units is not None and len(self.units.fields) >= 2

    def unit_names(self) -> list[str]:
        """The units this answer declares, in display order (``[]`` for none)."""
        return [] if self.units is None else list(self.units.fields)

    def marginal(self, name: str, turn: int | None = None) -> Dist:
        """Unit ``name``'s own distribution: its models left (or hits taken, as
        declared), exact; with ``turn``, at the end of that turn (scenarios over
        several turns). A name the answer lacks is an :class:`InputError` naming
        the units it has. O(outcomes)."""
        return self.unit(name, turn).dist

    def unit(self, name: str, turn: int | None = None) -> Answer:
        """Unit ``name``'s own answer: its marginal (:meth:`marginal`) as the
        distribution, the query with ``unit`` (and ``turn``), its chance of each
        status (``p_status``) and its own extra figures; every figure, table,
        JSON, CSV and plot of an answer works on it (CLI ``--unit NAME``)."""
        if self.units is None:
            raise InputError(f"unit {str(name)[:40]!r}: this answer has no units (its outcomes are one figure)")
        dist, query, extras, units = unit_answer_parts(self, name, turn)
        return Answer(dist, {**self.query, **query}, extras, units=units)

    def _marginals(self) -> dict[str, Any]:
        """The JSON ``marginals`` (:func:`~exactodds.units.marginals_json`)."""
        return marginals_json(self, frac_str)

    @property
    def numeric(self) -> bool:
        """Whether the outcomes are numbers (so P(outcome >= x) means something)."""
        return _numeric_outcomes(self.dist)

    # ---------------------------------------------------------------- plots
    def plot(self, ax: Any = None, at_least: bool = False, title: str | None = None,
             xlabel: str | None = None) -> Any:
        """A bar chart of P(outcome), or with ``at_least`` of P(outcome >= x), on
        ``ax`` (a new figure by default); returns the Axes (needs matplotlib).
        See :func:`~exactodds.render.plot_dists`. A composite answer
        (:attr:`composite`) draws one panel per unit and, for two units, a heat
        map of their joint chances instead (``ax`` is then not used; returns
        the list of Axes)."""
        if self.composite:
            from .render.engagement_plots import plot_engagement

            return plot_engagement(*plot_parts(self), at_least=at_least, title=title)
        return plot_dists([self.dist], ax=ax, at_least=at_least, title=title, xlabel=xlabel or counts_label(self))

    def save_plot(self, path: str, at_least: bool = False, title: str | None = None,
                  xlabel: str | None = None) -> None:
        """Write :meth:`plot` to ``path`` (PNG, SVG or PDF by its suffix; matplotlib's
        Agg renderer, no window). The command line's ``--plot FILE``."""
        if self.composite:
            from .render.engagement_plots import save_engagement

            return save_engagement(path, *plot_parts(self), at_least=at_least, title=title)
        xlabel = xlabel or counts_label(self)
        save_figure(path, [self.dist], at_least=at_least, title=title, xlabel=xlabel)

    def _repr_html_(self) -> str:
        if self.composite:  # the unit blocks and the likeliest joint outcomes, as printed
            import html

            return f"<pre>{html.escape(self.to_table())}</pre>"
        return self.dist._repr_html_()


def _unset(v: Any) -> bool:
    """A query value the table's query line leaves out: none, empty, or a flag that is off
    (a zero is a value: ``n=0``)."""
    return v is None or v is False or (isinstance(v, (tuple, list)) and not v)


def _numeric_outcomes(dist: Dist) -> bool:
    return all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for x in dist.weights())  # unsorted: O(k)


def _figure(v: Any, exact: bool) -> str:
    """An extra figure in a table: a number as :func:`figure_text`, anything else as :func:`_show`."""
    if isinstance(v, (int, Fraction)) and not isinstance(v, bool):
        return figure_text(v, exact)
    return _show(v, top=True)


def _wrap(line: str) -> list[str]:
    """``line`` wrapped at :data:`LINE_WIDTH` after a ``", "`` (outside brackets
    when possible, so ``groups=[(...), (...)]`` breaks between groups),
    continuation lines indented by two spaces (four inside a bracket)."""
    if len(line) <= LINE_WIDTH:
        return [line]
    out: list[str] = []
    for x in _fill(_split_top(line), "  "):
        out += [x] if len(x) <= LINE_WIDTH else _fill(x.split(", "), "    ")
    return out


def _fill(parts: list[str], indent: str) -> list[str]:
    """Join ``parts`` with ``", "`` into lines of at most :data:`LINE_WIDTH` where possible."""
    out, current = [], ""
    for part in parts:
        piece = part if not current else current + ", " + part
        if current and len(piece) + 1 > LINE_WIDTH:
            out.append(current + ",")
            current = indent + part
        else:
            current = piece
    return out + [current]


def _split_top(line: str) -> list[str]:
    """``line`` split at every ``", "`` outside brackets and parentheses."""
    parts, depth, start = [], 0, 0
    for i, c in enumerate(line):
        depth += c in "([{"
        depth -= c in ")]}"
        if depth == 0 and line.startswith(", ", i):
            parts.append(line[start:i])
            start = i + 2
    parts.append(line[start:])
    return parts


def _flat_extras(extras: dict) -> list[tuple[str, Any]]:
    """Extra figures as ``(column, value)``: a mapping gives one column per key (``name.key``)."""
    out = []
    for name, value in extras.items():
        if isinstance(value, dict):
            out += [(f"{name}.{k}", v) for k, v in value.items()]
        else:
            out.append((name, value))
    return out


def _csv_line(cells: list[str]) -> str:
    """``cells`` as one line of CSV (ending in ``"\n"``)."""
    buf = io.StringIO()
    csv.writer(buf, lineterminator="\n").writerow(cells)
    return buf.getvalue()


def _csv_value(v: Any) -> str:
    j = jsonable(v)
    return j if isinstance(j, str) else json.dumps(j)


def _show(v: Any, top: bool = False) -> str:
    """A value for the text table: mappings as ``k=v`` pairs (in parentheses when nested)."""
    if isinstance(v, dict):
        pairs = ", ".join(f"{k}={_show(x)}" for k, x in v.items())
        return pairs if top else f"({pairs})"
    if isinstance(v, (list, tuple)):
        return "[" + ", ".join(_show(x) for x in v) + "]"
    if isinstance(v, Fraction):
        return str(v) if len(str(v)) <= LONG_FRACTION else "≈" + decimal(v)
    return str(v)
