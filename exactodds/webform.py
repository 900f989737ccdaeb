"""Forms for every question, generated from the parameter specs, and one JSON entry point.

Two interfaces are built on this module: the calculator page of the
documentation (exactodds running in the browser with Pyodide) and the
Jupyter widgets (:mod:`exactodds.widgets`). Neither is written per command:

- :func:`form_spec` describes every command's form as plain data (JSON):
  each field's name, label, help text, kind of input, choices, bounds,
  default, whether it is required and whether it takes several values, all
  read from the command's :class:`~exactodds.commands.params.Params` class. A
  new command appears in both interfaces once it is registered.
- :func:`run` answers one request (a command and the values typed in its
  form, as text) with plain data: the exact rows, the mean, the extra
  figures, the window of the table shown first, and the same question as a
  command line and as a query file. A bad value is the command line's
  message (its reason, the parameter named by its label) with the field at
  fault; a question over the work limit is refused with its size. Nothing
  raises: an unexpected error is one line too.

:func:`run_json` is :func:`run` on JSON text, as the page calls it.
"""

from __future__ import annotations

import json
import math
import re
import string
from collections.abc import Mapping
from dataclasses import MISSING
from fractions import Fraction
from pathlib import Path, PurePosixPath
from typing import Any

from .answer import Answer, frac_str, jsonable
from .commands import (SYSTEMS, Command, ExactOddsError, FieldError, InputError, ParamError, Params, Query,
                       TooLargeError, check_answer_digits, find, fractions_in, state_limit, systems)
from .commands.kinds import (Choice, Count, Faces, Flag, Inches, Kind, KindError, Many, ProfileFile, SaveRoll,
                             TargetNumber, Text)
from .commands.registry import rule_systems
from .core.checks import JSON_STRINGS, MAX_NESTING, bracket_depth, deep_nesting, long_number, too_long_number
from .core.kinds import quoted
from .core.limits import decimal_digits
from .render import TABLE_ROWS, Gap, decimal, display_items, figure_text, outcome_label, shown_rows

MAX_EXACT = 600
"""Longest exact fraction sent to a page (characters); a longer one is sent as its
number of digits (the decimal is always sent)."""

PASTED = "pasted"
"""Folder (relative to the working folder) where pasted profile files are written."""

_SHORT = {"bs", "ap", "n", "ws"}


# ------------------------------------------------------------------ forms
def label(name: str) -> str:
    """A parameter's label on a form: ``reroll_up_to`` -> ``Reroll up to``, ``bs`` -> ``BS``."""
    if name in _SHORT:
        return name.upper()
    text = name.replace("_", " ")
    return text[:1].upper() + text[1:]


def spell_label(name: str) -> str:
    """How messages name a parameter on a form: its label in quotes (``'Reroll up to'``)."""
    return f"'{label(name)}'"


def command_id(system: str, command: str | None) -> str:
    """``40k6/shoot``, or ``pool`` for a system that is a single command."""
    return system if command is None else f"{system}/{command}"


def _input(kind: Kind) -> dict[str, Any]:
    """How a form asks for one value of ``kind``: ``input`` and its options."""
    if isinstance(kind, Flag):
        return {"input": "checkbox"}
    if isinstance(kind, Choice):
        return {"input": "select", "choices": list(kind.choices)}
    if isinstance(kind, Count):
        out: dict[str, Any] = {"input": "number"}
        if kind.low is not None:
            out["min"] = kind.low
        if kind.high is not None:
            out["max"] = kind.high
        return out
    if isinstance(kind, TargetNumber):
        return {"input": "text", "placeholder": "e.g. 4+", "suggest": ["2+", "3+", "4+", "5+", "6+", "auto", "fail"]}
    if isinstance(kind, SaveRoll):
        return {"input": "text", "placeholder": "e.g. 4+", "suggest": ["2+", "3+", "4+", "5+", "6+"]}
    if isinstance(kind, Faces):
        return {"input": "text", "placeholder": "e.g. 1,2"}
    if isinstance(kind, Inches):
        return {"input": "text", "placeholder": "e.g. 7.5"}
    if isinstance(kind, ProfileFile):
        return {"input": "file"}
    if isinstance(kind, Text):
        return {"input": "text"}
    return {"input": "text", "placeholder": kind.metavar or ""}


def _default(kind: Kind, default: Any) -> Any:
    """The default as a form shows it (None: none)."""
    if default is MISSING or default is None or default == ():
        return None
    try:
        value = kind.convert(default, {})
    except KindError:  # a default depending on another parameter
        return None
    return kind.plain(value)


def _help(text: str) -> str:
    """A help text with its ``{name}`` placeholders spelled as labels (help texts are
    templates as messages are: :meth:`ParamError.spelled` spells both)."""
    return ParamError(text).spelled(spell_label)


def field_specs(params: type[Params]) -> list[dict[str, Any]]:
    """One dict per parameter of ``params``: ``name``, ``label``, ``flag`` (the
    command line's spelling), ``help``, ``kind``, ``input`` (checkbox, select,
    number, text or file) with ``choices``/``min``/``max``/``placeholder``/
    ``suggest`` where they apply, ``default``, ``required``, ``multiple``
    (several values) and ``positional``."""
    out = []
    for name, (spec, default) in params.specs().items():
        kind = spec.kind
        multiple = isinstance(kind, Many)
        item = kind.item if isinstance(kind, Many) else kind
        field = {"name": name, "label": label(name),
                 "flag": name.upper() if spec.positional else "--" + name.replace("_", "-"),
                 "help": _help(spec.help), "kind": type(item).__name__, **_input(item),
                 "default": _default(kind, default), "required": default is MISSING, "multiple": multiple,
                 "positional": spec.positional, "metavar": spec.metavar or kind.metavar}
        out.append(field)
    return out


def command_spec(command: Command[Any]) -> dict[str, Any]:
    """One command's form: ``id``, ``system``, ``command``, ``title``, ``doc``, ``fields``
    and ``example`` (the values of its docstring's example, :func:`doc_example`)."""
    return {"id": command_id(command.system, command.name), "system": command.system, "command": command.name,
            "title": command.title, "doc": command.doc.strip(), "fields": field_specs(command.params),
            "example": doc_example(command)}


def doc_example(command: Command[Any]) -> dict[str, Any] | None:
    """The values of the command line its docstring shows as an example
    (``exactodds pool 40 --hit 2+ ...`` -> ``{"n": "40", "hit": "2+", ...}``), or None.

    The example runs from the word ``exactodds`` to the next blank line; options
    are read by the parameter specs (a flag takes no value, several values
    repeat the option). Nothing is checked here."""
    import re
    import shlex

    doc = command.doc
    at = doc.find(command.title + " ")
    if at < 0:
        return None
    text = " ".join(re.split(r"\n\s*\n", doc[at:])[0].split())
    try:
        words = shlex.split(text)[len(command.title.split()):]
    except ValueError:
        return None
    specs = command.params.specs()
    flags = {"--" + name.replace("_", "-"): name for name in specs}
    positional = [name for name, (spec, _) in specs.items() if spec.positional]
    values: dict[str, Any] = {}
    while words:
        word = words.pop(0)
        name = flags.get(word)
        if name is None:
            if word.startswith("-") and not word.lstrip("-").isdigit() or not positional:
                return None
            values[positional.pop(0)] = word
            continue
        kind = specs[name][0].kind
        if isinstance(kind, Flag):
            values[name] = True
        elif not words:
            return None
        elif isinstance(kind, Many):
            values.setdefault(name, []).append(words.pop(0))
        else:
            values[name] = words.pop(0)
    return values


def form_spec() -> dict[str, Any]:
    """Every command's form (:func:`command_spec`), and each system's description:
    ``{"systems": {system: help}, "commands": [...]}`` (plain data, ready for JSON)."""
    commands = []
    for system, names in systems().items():
        each: list[str | None] = list(names) if names else [None]
        for name in each:
            commands.append(command_spec(find(system, name)))
    return {"systems": dict(SYSTEMS), "commands": commands}


def example_files(folder: str | Path) -> dict[str, list[str]]:
    """The unit files under ``folder`` (``examples/``) by system: ``{"40k6":
    ["examples/40k6/ork_boyz.toml", ...]}``, paths relative to ``folder``'s parent.
    Query files (with a top-level ``system``) are left out."""
    import tomllib

    root = Path(folder)
    out: dict[str, list[str]] = {}
    for system in rule_systems():
        sub = root / system
        if not sub.is_dir():
            continue
        files = []
        for path in sorted(sub.glob("*.toml")):
            try:
                if "system" in tomllib.loads(path.read_text(encoding="utf-8")):
                    continue
            except (tomllib.TOMLDecodeError, UnicodeDecodeError):
                continue
            files.append(f"{root.name}/{system}/{path.name}")
        if files:
            out[system] = files
    return out


# -------------------------------------------------------------- answering
def _given(params: type[Params], values: Mapping[str, Any]) -> dict[str, Any]:
    """The values typed on a form, as the parameter class takes them (text as typed;
    an empty field, an unchecked box or an empty list: the default)."""
    specs = params.specs()
    out: dict[str, Any] = {}
    for name, value in values.items():
        if name not in specs:
            raise InputError(f"{name!r} is not a parameter; allowed are {', '.join(specs)}")
        kind = specs[name][0].kind
        if isinstance(value, str):
            value = value.strip()
        if value is None or value == "" or value is False or value == [] or value == ():
            continue
        if isinstance(kind, Many):
            items = value if isinstance(value, (list, tuple)) else [value]
            items = [v.strip() if isinstance(v, str) else v for v in items]
            items = [v for v in items if v is not None and v != ""]
            if not items:
                continue
            value = items
        out[name] = value
    missing = [name for name, (_, default) in specs.items() if default is MISSING and name not in out]
    if missing:
        raise FieldError(missing[0], "a value is required")
    return out


_PASTED_NAME = re.compile(r"[A-Za-z0-9_][A-Za-z0-9_.-]{0,99}", re.ASCII)


def _write_files(files: Any, base: Path) -> None:
    """Write pasted profile files under ``base/pasted/`` (any other path is refused):
    names of at most 100 ASCII letters, digits, ``_``, ``.`` and ``-``, and text UTF-8 can
    write (the profile loader then bounds its size). All are checked before any is written."""
    if not isinstance(files, Mapping):
        raise FieldError("files", f"{quoted(files)} is not a mapping of pasted file names to their text")
    for rel, text in files.items():
        parts = PurePosixPath(rel).parts if isinstance(rel, str) else ()
        if len(parts) != 2 or parts[0] != PASTED or "\\" in rel or not _PASTED_NAME.fullmatch(parts[1]) \
                or parts[1] in (".", ".."):
            raise FieldError("files", f"{quoted(rel)}: pasted files are written to {PASTED}/NAME.toml, "
                             "NAME of at most 100 letters, digits, _, . and -")
        if not isinstance(text, str):
            raise FieldError("files", f"{rel}: a pasted file is text, not {type(text).__name__}")
        try:
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise FieldError("files", f"{rel}: a pasted file is text that UTF-8 can write "
                                      "(it holds a lone surrogate)") from None
    for rel, text in files.items():
        path = base / PASTED / PurePosixPath(rel).parts[1]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8"))


def _names(template: str) -> list[str]:
    return [name for _, name, _, _ in string.Formatter().parse(template) if name]


def refusal(e: BaseException, params: type[Params] | None, values: Mapping[str, Any]) -> dict[str, Any]:
    """A refusal as data: ``message`` (one line), the ``field`` at fault (or None),
    every field it names (``fields``), and the ``reason`` for a single field."""
    if isinstance(e, FieldError):
        return {"ok": False, "error": "input", "message": e.spelled(spell_label), "field": e.name,
                "fields": [e.name], "reason": e.reason}
    if isinstance(e, ParamError):
        names = [n for n in _names(e.template) if params is None or n in params.specs()]
        return {"ok": False, "error": "input", "message": e.spelled(spell_label),
                "field": names[0] if names else None, "fields": names, "reason": None}
    if isinstance(e, ExactOddsError):
        message = " ".join(str(e).split("\n")[0].split()) if isinstance(e, TooLargeError) else str(e).split("\n")[0]
        field = None
        if params is not None:  # a profile file's own message starts with its path
            for name, (spec, _) in params.specs().items():
                written = values.get(name)
                if isinstance(spec.kind, ProfileFile) and isinstance(written, str) and written.strip() \
                        and message.startswith(written.strip()):
                    field = name
        return {"ok": False, "error": "too_large" if isinstance(e, TooLargeError) else "input",
                "message": message, "field": field, "fields": [field] if field else [], "reason": None}
    return {"ok": False, "error": "internal", "message": f"internal error (a bug): {type(e).__name__}: {e}",
            "field": None, "fields": [], "reason": None}


def _mapping(request: Mapping[str, Any], key: str, what: str) -> Mapping[str, Any]:
    """``request[key]`` (absent or empty: ``{}``), refused unless a mapping with text keys."""
    value = request.get(key) or {}
    if not isinstance(value, Mapping) or not all(isinstance(k, str) for k in value):
        raise FieldError(key, f"{quoted(value)} is not {what}")
    return value


def _command(request: Any) -> Command[Any]:
    """The command a request names (its ``system`` and ``command`` checked as text first)."""
    if not isinstance(request, Mapping):
        raise InputError("a request is a JSON object with system, command and params")
    system, name = request.get("system", ""), request.get("command") or None
    if not isinstance(system, str):
        raise FieldError("system", f"{quoted(system)} is not a system; allowed are {', '.join(SYSTEMS)}")
    if name is not None and not isinstance(name, str):
        raise FieldError("command", f"{quoted(name)} is not a command's name")
    return find(system, name)


def _state_limit(request: Mapping[str, Any]) -> int | None:
    """The request's ``max_states`` (absent or empty: None, the environment's limit),
    as the command line's ``--max-states`` takes it: a whole number 1 or more."""
    limit = request.get("max_states")
    if limit is None or limit == "":
        return None
    try:
        return _LIMIT.convert(limit, {})
    except KindError as e:
        raise FieldError("max_states", str(e)) from None


_LIMIT = Count(1, what="a state limit")


def build_query(request: Mapping[str, Any], base: Path | None = None) -> Query:
    """The :class:`~exactodds.commands.Query` of a request (see :func:`run`); raises
    the parameter class's errors, and a :class:`FieldError` naming ``system``,
    ``command``, ``params`` or ``files`` when one is not what a request holds.
    Relative profile paths are read from the working folder, as on the command line."""
    command = _command(request)
    values = _mapping(request, "params", "a mapping of parameter names to values")
    _write_files(request.get("files") or {}, Path.cwd() if base is None else base)
    return Query(command.system, command.name, command.params(**_given(command.params, values)))


def answer_query(request: Mapping[str, Any], base: Path | None = None) -> tuple[Query, Answer, dict[str, Any]]:
    """The query of a request, its answer and :func:`answer_data`, under the request's
    work limit (``max_states``). An answer whose exact fractions are too long to
    send is refused before they are written, as on the command line
    (:func:`~exactodds.core.limits.check_answer_digits`)."""
    with state_limit(_state_limit(request)):
        query = build_query(request, base)
        answer = query.answer()
    check_answer_digits(len(answer.dist), answer.dist.denominator, [answer.mean, *fractions_in(answer.extras)])
    return query, answer, answer_data(answer)


def answer_data(answer: Answer) -> dict[str, Any]:
    """An answer as plain data for a page: ``rows`` (display order: ``label``, exact
    ``p``, ``p_float``, ``decimal``, and for ordered outcomes ``at_least`` and its
    float), ``numeric``, ``window`` (indexes of the rows the table shows first:
    the most probable window), ``gaps`` (what the window hides, one line each),
    ``mean``, ``mean_float``, ``mean_text``, ``extras`` (``[name, text]``), the
    plain-text ``table`` (exact fractions past :data:`MAX_EXACT` characters are
    sent as their number of digits)."""
    items = display_items(answer.dist)
    numeric = all(isinstance(x, (int, Fraction)) and not isinstance(x, bool) for x, _ in items)
    rows = []
    above = Fraction(1)
    for x, p in items:
        row: dict[str, Any] = {"label": outcome_label(x), "p": _exact(p), "p_float": float(p), "decimal": decimal(p)}
        if numeric:
            row["outcome"] = float(x) if isinstance(x, Fraction) and x.denominator != 1 else int(x)
            row["at_least"], row["at_least_float"] = _exact(above), float(above)
            row["at_least_decimal"] = decimal(above)
            above -= p
        rows.append(row)
    index = {id(x): i for i, (x, _) in enumerate(items)}
    window, gaps = [], []
    for shown in shown_rows(answer.dist, TABLE_ROWS, items):
        if isinstance(shown, Gap):
            gaps.append({"where": shown.where, "count": shown.count, "text": shown.text()})
        else:
            window.append(index.get(id(shown[0]), next(i for i, (x, _) in enumerate(items) if x == shown[0])))
    marginals = _marginals(items)
    if marginals:
        for row, (x, _) in zip(rows, items):
            row["parts"] = [outcome_label(v) for v in x]
    extras = [[name, figure_text(v) if isinstance(v, (int, Fraction)) and not isinstance(v, bool)
               else json.dumps(jsonable(v))] for name, v in answer.extras.items()]
    return {"rows": rows, "numeric": numeric, "window": window, "gaps": gaps,
            "mean": None if answer.mean is None else _exact(answer.mean),
            "mean_float": None if answer.mean is None else float(answer.mean),
            "mean_text": None if answer.mean is None else figure_text(answer.mean),
            "extras": extras, "table": answer.to_table(), "marginals": marginals, **unit_blocks(answer)}


def unit_blocks(answer: Answer) -> dict[str, Any]:
    """A composite answer's per-unit blocks, as the command line prints them
    (:func:`~exactodds.units.engagement_lines`): ``{"units": [{"unit": name, "lines":
    [...]}], "covered": [...]}``, each block's heading first, and the extra figures the
    blocks show (which the command line's table leaves out, as the page does); empty
    lists for an answer of one unit. Cost: one pass over the outcomes per unit."""
    if not answer.composite:
        return {"units": [], "covered": []}
    from .units import engagement_lines

    lines, covered = engagement_lines(answer)
    names = list(answer.unit_names())
    blocks: list[dict[str, Any]] = []
    for line in lines:
        head = line.split(":", 1)[0]
        if not line.startswith(" ") and head in names:
            blocks.append({"unit": head, "lines": [line]})
        elif blocks and line.startswith(" "):
            blocks[-1]["lines"].append(line)
        else:  # the joint outcomes follow the blocks
            break
    return {"units": blocks, "covered": sorted(covered)}


def _marginals(items: list[tuple[Any, Fraction]]) -> list[dict[str, Any]]:
    """For outcomes with named fields (a scenario's end state: each unit's survivors and
    status), each field's own distribution: ``[{"field": name, "numeric": bool, "rows":
    [{"label", "p", "p_float", "decimal"}]}]`` (values in order); ``[]`` for other
    outcomes. Cost: one pass over the outcomes per field (integer sums over their common denominator)."""
    fields = getattr(items[0][0], "_fields", None) if items else None
    if not fields or not all(getattr(x, "_fields", None) == fields for x, _ in items):
        return []
    den = 1
    for _, p in items:
        den = math.lcm(den, p.denominator)
    weights = [(x, p.numerator * (den // p.denominator)) for x, p in items]  # integer sums, one fraction each
    out = []
    for i, name in enumerate(fields):
        totals: dict[Any, int] = {}
        for x, v in weights:
            totals[x[i]] = totals.get(x[i], 0) + v
        sums = {k: Fraction(v, den) for k, v in totals.items()}
        numeric = all(isinstance(v, int) and not isinstance(v, bool) for v in sums)
        values = sorted(sums) if numeric else list(sums)
        out.append({"field": name, "numeric": numeric, "rows": [
            {"label": outcome_label(v), "p": _exact(sums[v]), "p_float": float(sums[v]), "decimal": decimal(sums[v])}
            for v in values]})
    return out


def _exact(p: Fraction) -> str:
    """``num/den``, or ``(N digits)`` past :data:`MAX_EXACT` characters (its sign
    counted as a digit); the digits counted without writing a long fraction out."""
    digits = decimal_digits(p.numerator) + (p.numerator < 0) + decimal_digits(p.denominator)
    if digits + 1 <= MAX_EXACT:
        return frac_str(p)
    return f"({digits} digits)"


def run(request: Mapping[str, Any], base: Path | None = None) -> dict[str, Any]:
    """Answer one form's request, never raising.

    ``request``: ``{"system": "40k6", "command": "shoot", "params": {"shots":
    "20", "bs": "4", "target": "examples/40k6/guard_squad_in_ruins.toml"},
    "files": {"pasted/target.toml": "...TOML..."}, "max_states": 2000000}``;
    values as typed (text, booleans for boxes, lists for several values; an
    empty value: the default); ``files`` are pasted profile files, written
    under ``base/pasted/`` first (``base``: the working folder) and named by
    a parameter like any other file. ``max_states`` (optional) is the work
    limit (:func:`~exactodds.state_limit`; default: the environment's).

    Returns ``{"ok": True, "command_line": ..., "toml": ..., **answer_data}``
    or ``{"ok": False, "error": "input"|"too_large"|"internal", "message":
    one line, "field": the parameter at fault (or the request's own key at
    fault: ``system``, ``command``, ``params``, ``files``, ``max_states``) or
    None, "fields": [...], "reason": ...}``.
    """
    params: type[Params] | None = None
    values: Mapping[str, Any] = {}
    try:
        params = _command(request).params
        values = _mapping(request, "params", "a mapping of parameter names to values")
        query, _, data = answer_query(request, base)
        return {"ok": True, "id": command_id(query.system, query.command), "title": query.name,
                "command_line": query.command_line(), "toml": query.to_toml(), **data}
    except Exception as e:  # every refusal, and any bug, as one line: never a traceback
        try:
            return refusal(e, params, values)
        except Exception:  # an error whose own text cannot be written
            return {"ok": False, "error": "internal", "message": f"internal error (a bug): {type(e).__name__}",
                    "field": None, "fields": [], "reason": None}


def run_json(request: str) -> str:
    """:func:`run` on JSON text, answering JSON text (the calculator page's entry).

    Text that is not a string, nested deeper than
    :data:`~exactodds.core.checks.MAX_NESTING` or holding a number of more than
    :data:`~exactodds.core.checks.MAX_NUMBER_DIGITS` digits is refused before it is
    parsed (the parser recurses, and converts digits in quadratic time)."""
    try:
        data = parse_request(request)
    except InputError as e:
        return json.dumps(refusal(e, None, {}))
    return json.dumps(run(data))


def parse_request(request: Any) -> Any:
    """JSON text as data, or an InputError saying why not. O(len(request))."""
    if not isinstance(request, str):
        raise InputError(f"a request is JSON text, not {type(request).__name__}")
    bare = JSON_STRINGS.sub('""', request)
    depth = bracket_depth(bare)
    if depth > MAX_NESTING:
        raise InputError(f"the request is not allowed: {deep_nesting(depth, 'JSON arrays and objects')}")
    long = long_number(bare)
    if long is not None:
        raise InputError(f"the request is not allowed: {too_long_number(long[1])}")
    try:
        return json.loads(request, parse_constant=_no_constant)
    except (ValueError, RecursionError) as e:
        raise InputError(f"the request is not JSON: {' '.join(str(e).split())}") from None


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a number JSON allows")


def main(argv: list[str] | None = None) -> None:
    """``python -m exactodds.webform [OUT.json]``: write :func:`form_spec` as JSON."""
    import sys

    args = sys.argv[1:] if argv is None else argv
    text = json.dumps(form_spec(), indent=1)
    if args:
        Path(args[0]).write_text(text + "\n", encoding="utf-8")
    else:
        print(text)


if __name__ == "__main__":
    main()
