"""Reading TOML files (profiles, queries, grids) with errors that name the
file, the key and the expected type.

Profiles and queries are data: parsed with the standard library's
:mod:`tomllib`, never evaluated.

Typical use in a profile loader::

    doc = load_toml(path)
    models = require(doc, "models", list, path, where="")
    for i, m in enumerate(models, 1):
        where = f"models[{i}]"
        toughness = require(m, "toughness", int, path, where, check=between(1, 10))
        save = optional(m, "save", int, path, where, check=between(2, 6))
"""

from __future__ import annotations

import tomllib
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .core import InputError

MAX_FILE_BYTES = 10 * 1024 * 1024

_TYPE_NAMES = {int: "a whole number", str: "text", bool: "true or false", list: "a list",
               dict: "a table", float: "a number"}


def load_toml(path: str | Path) -> dict:
    """Parse a TOML file; a missing, binary, huge or malformed file is an InputError."""
    p = Path(path)
    try:
        size = p.stat().st_size
    except OSError as e:
        raise InputError(f"{p}: cannot read the file ({e.strerror or e})") from None
    if p.is_dir():
        raise InputError(f"{p}: is a folder, not a TOML file")
    if not p.is_file():  # a device (/dev/zero), a pipe: could be endless or block
        raise InputError(f"{p}: is not a regular file (a TOML file was expected)")
    if size > MAX_FILE_BYTES:
        raise InputError(f"{p}: {size:,} bytes is too large for a TOML file (limit {MAX_FILE_BYTES:,})")
    try:
        with open(p, "rb") as f:
            raw = f.read(MAX_FILE_BYTES + 1)  # bounded even if the file grew since stat()
        if len(raw) > MAX_FILE_BYTES:
            raise InputError(f"{p}: more than {MAX_FILE_BYTES:,} bytes is too large for a TOML file")
        text = raw.decode("utf-8")
    except OSError as e:
        raise InputError(f"{p}: cannot read the file ({e.strerror or e})") from None
    except UnicodeDecodeError:
        raise InputError(f"{p}: is not a UTF-8 text file (a TOML file was expected)") from None
    if "\x00" in text:
        raise InputError(f"{p}: contains NUL bytes; a TOML text file was expected")
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{p}: invalid TOML: {e}") from None
    except RecursionError:  # tomllib parses nested arrays/tables recursively
        raise InputError(f"{p}: invalid TOML: arrays or tables nested too deeply") from None


def _must_be_table(table: Any, path: str | Path, where: str) -> None:
    if not isinstance(table, dict):
        raise InputError(f"{path}: {where or 'the file'} must be a table, not {table!r}")


def _type_name(t: type | tuple[type, ...]) -> str:
    if isinstance(t, tuple):
        return " or ".join(_TYPE_NAMES.get(x, x.__name__) for x in t)
    return _TYPE_NAMES.get(t, t.__name__)


def _is(value: Any, t: type | tuple[type, ...]) -> bool:
    types = t if isinstance(t, tuple) else (t,)
    if isinstance(value, bool) and bool not in types:
        return False
    return isinstance(value, types)


def _loc(path: str | Path, where: str, key: str) -> str:
    return f"{path}: {where + '.' if where else ''}{key}"


def require(table: dict, key: str, t: type | tuple[type, ...], path: str | Path, where: str = "",
            check: Callable[[Any], str | None] | None = None) -> Any:
    """``table[key]``, which must exist, be of type ``t`` and pass ``check``."""
    _must_be_table(table, path, where)
    if key not in table:
        raise InputError(f"{_loc(path, where, key)} is missing; expected {_type_name(t)}")
    return _checked(table[key], key, t, path, where, check)


def optional(table: dict, key: str, t: type | tuple[type, ...], path: str | Path, where: str = "",
             default: Any = None, check: Callable[[Any], str | None] | None = None) -> Any:
    """``table[key]`` if present (type-checked), else ``default``."""
    _must_be_table(table, path, where)
    if key not in table:
        return default
    return _checked(table[key], key, t, path, where, check)


def _checked(value: Any, key: str, t: type | tuple[type, ...], path: str | Path, where: str,
             check: Callable[[Any], str | None] | None) -> Any:
    if not _is(value, t):
        raise InputError(f"{_loc(path, where, key)} = {value!r}: expected {_type_name(t)}")
    if check is not None:
        problem = check(value)
        if problem:
            raise InputError(f"{_loc(path, where, key)} = {value!r}: {problem}")
    return value


def no_unknown_keys(table: dict, allowed: set[str], path: str | Path, where: str = "") -> None:
    """Refuse keys outside ``allowed`` (a typo must not be silently ignored)."""
    _must_be_table(table, path, where)
    unknown = sorted(set(table) - allowed)
    if unknown:
        raise InputError(f"{path}: {where or 'top level'}: unknown key {unknown[0]!r}; "
                         f"allowed keys are {', '.join(sorted(allowed))}")


def between(lo: int, hi: int) -> Callable[[Any], str | None]:
    """A check: ``lo <= value <= hi``."""
    return lambda v: None if lo <= v <= hi else f"must be from {lo} to {hi}"


def at_least(lo: int) -> Callable[[Any], str | None]:
    """A check: ``value >= lo``."""
    return lambda v: None if v >= lo else f"must be {lo} or more"
