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

import os
import re
import stat
import tomllib
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .core import InputError
from .core.checks import MAX_NESTING, bracket_depth, deep_nesting, long_number, too_long_number

MAX_FILE_BYTES = 10 * 1024 * 1024

_TYPE_NAMES = {int: "a whole number", str: "text", bool: "true or false", list: "a list",
               dict: "a table", float: "a number"}


def file_path(path: str | Path, kind: str) -> Path:
    """``path`` as a Path to an existing regular file, ``~`` expanded; else an InputError
    naming the file: a NUL byte in the name, ``~`` with no home directory, a missing or
    unreadable file, a folder, a device or a pipe (which could be endless or block).
    ``kind`` names what was expected ("a TOML file"). One ``stat``."""
    if not isinstance(path, (str, os.PathLike)):
        raise InputError(f"a file name must be text, not {path!r:.60}")
    text = os.fspath(path)
    if not isinstance(text, str):
        raise InputError(f"a file name must be text, not {text!r:.60}")
    if "\x00" in text:
        raise InputError(f"{text!r:.80}: a file name cannot contain a NUL byte")
    p = Path(text)
    if text.startswith("~"):
        try:
            p = p.expanduser()
        except RuntimeError:
            raise InputError(f"{text}: cannot expand '~': no home directory is known "
                             "(set HOME, or give the full path)") from None
    try:
        mode = p.stat().st_mode
    except OSError as e:
        raise InputError(f"{p}: cannot read the file ({e.strerror or e})") from None
    except ValueError as e:  # a name the system cannot take at all
        raise InputError(f"{p}: cannot read the file ({e})") from None
    if stat.S_ISDIR(mode):
        raise InputError(f"{p}: is a folder, not {kind}")
    if not stat.S_ISREG(mode):
        raise InputError(f"{p}: is not a regular file (a device or a pipe); {kind} was expected")
    return p


def load_toml(path: str | Path | ProfileRef) -> dict:
    """Parse a TOML file; a missing, binary, huge, too deeply nested or malformed file is an
    InputError (see :func:`file_path`, :func:`_read_bounded` and :func:`check_toml_text`).
    A :class:`ProfileRef` is not read again: its document is parsed from the bytes it hashed."""
    if isinstance(path, ProfileRef):
        return path.doc()
    p = file_path(path, "a TOML file")
    return parse_toml(_read_bounded(p), p)


def _read_bounded(p: Path) -> bytes:
    """The bytes of the regular file ``p``, the one way a TOML file is read: a folder, a
    device or a pipe (which could be endless or block), and a file over
    :data:`MAX_FILE_BYTES`, are refused from ``stat`` before anything is read; the file is
    opened without blocking, checked again once open (it may have been replaced), and read
    at most :data:`MAX_FILE_BYTES` + 1 bytes (it may have grown). O(its size)."""
    _check_regular(p, _os_call(p, os.stat, p))
    fd = _os_call(p, os.open, p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0))
    with os.fdopen(fd, "rb") as f:
        _check_regular(p, _os_call(p, os.fstat, f.fileno()))
        raw = _os_call(p, f.read, MAX_FILE_BYTES + 1)
    if len(raw) > MAX_FILE_BYTES:
        raise InputError(f"{p}: more than {MAX_FILE_BYTES:,} bytes is too large for a TOML file")
    return raw


def _os_call(p: Path, call: Callable[..., Any], *args: Any) -> Any:
    """``call(*args)``; an OSError (or a name the system cannot take) is an InputError naming ``p``."""
    try:
        return call(*args)
    except OSError as e:
        raise InputError(f"{p}: cannot read the file ({e.strerror or e})") from None
    except ValueError as e:
        raise InputError(f"{p}: cannot read the file ({e})") from None


def _check_regular(p: Path, st: os.stat_result) -> None:
    """Refuse what ``st`` shows is not a regular file of at most :data:`MAX_FILE_BYTES`."""
    if stat.S_ISDIR(st.st_mode):
        raise InputError(f"{p}: is a folder, not a TOML file")
    if not stat.S_ISREG(st.st_mode):
        raise InputError(f"{p}: is not a regular file (a device or a pipe); a TOML file was expected")
    if st.st_size > MAX_FILE_BYTES:
        raise InputError(f"{p}: {st.st_size:,} bytes is too large for a TOML file (limit {MAX_FILE_BYTES:,})")


def parse_toml(raw: bytes, p: str | Path) -> dict:
    """Parse the bytes of the TOML file ``p`` (named in messages): not UTF-8, NUL bytes,
    too deep or malformed is an InputError. O(its size)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise InputError(f"{p}: is not a UTF-8 text file (a TOML file was expected)") from None
    if "\x00" in text:
        raise InputError(f"{p}: contains NUL bytes; a TOML text file was expected")
    check_toml_text(text, p)
    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise InputError(f"{p}: invalid TOML: {e}") from None
    except RecursionError:  # tomllib parses nested arrays/tables recursively
        raise InputError(f"{p}: invalid TOML: arrays or tables nested too deeply") from None


@dataclass(frozen=True, eq=False)
class ProfileRef:
    """A profile file (a unit, an attacker, a target), read once: as written, by content,
    and parsed.

    ``written`` is the path as the user wrote it (shown in answers), ``path``
    where it was read, ``digest`` the SHA-256 of its bytes and ``data`` the bytes
    themselves: two references are the same question when their contents are the
    same, wherever the files are, and an edited file is a different question. The
    file is read once, when the reference is made; :meth:`doc` parses those bytes
    and :meth:`parsed` keeps what a loader built from them, so one question never
    reads or parses a file twice.
    """

    written: str
    path: Path
    digest: str
    data: bytes = field(default=b"", repr=False)
    _memo: dict = field(default_factory=dict, repr=False)

    @classmethod
    def read(cls, written: str, path: Path) -> ProfileRef:
        """Read and hash the file at ``path`` through :func:`_read_bounded`: a folder, a
        device, a pipe, an unreadable or an oversized file is an InputError naming it.
        O(its size)."""
        import hashlib

        data = _read_bounded(path)
        return cls(written, path, hashlib.sha256(data).hexdigest(), data)

    def doc(self) -> dict:
        """The file's TOML document, parsed from the bytes that were hashed (once)."""
        return self.parsed(_parsed_doc)

    def parsed(self, loader: Callable[..., Any], *args: Any) -> Any:
        """``loader(self, *args)``, built once per reference and arguments (a loader
        reads the document through :func:`load_toml`, which does not read the file
        again). The result is shared: loaders return immutable units."""
        key = (loader, args)
        if key not in self._memo:
            self._memo[key] = loader(self, *args)
        return self._memo[key]

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ProfileRef):
            return NotImplemented
        return self.digest == other.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __str__(self) -> str:
        return self.written

    def __fspath__(self) -> str:
        return str(self.path)


def _parsed_doc(ref: ProfileRef) -> dict:
    return parse_toml(ref.data, ref.path)


_TOML_STRINGS = re.compile(r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*"|\'[^\'\n]*\'|#[^\n]*')
_TOML_HEADER = re.compile(r"^[ \t]*\[\[?([^\]\n]*)", re.MULTILINE)
_TOML_KEY = re.compile(r"(?:^|[{,])[ \t]*([A-Za-z0-9_\-. \t]+?)[ \t]*=", re.MULTILINE)


def check_toml_text(text: str, path: str | Path) -> None:
    """Refuse, before parsing, TOML nested deeper than :data:`~exactodds.core.checks.MAX_NESTING`
    (arrays, inline tables, table headers and dotted keys added up) or holding a whole number
    of more than :data:`~exactodds.core.checks.MAX_NUMBER_DIGITS` digits. Strings and comments
    are blanked first (newlines kept, so line numbers hold). A few regex passes in C: O(size),
    milliseconds for the largest file accepted."""
    def blank(m: re.Match) -> str:
        return '""' + "\n" * m.group().count("\n")

    code = _TOML_STRINGS.sub(blank, text)
    found = long_number(code)
    if found is not None:
        line = code.count("\n", 0, found[0]) + 1
        raise InputError(f"{path}: line {line}: {too_long_number(found[1])}")
    headers = max((m.group(1).count(".") + 1 for m in _TOML_HEADER.finditer(code)), default=0)
    keys = max((m.group(1).count(".") + 1 for m in _TOML_KEY.finditer(code)), default=0)
    depth = headers + keys + bracket_depth(_TOML_HEADER.sub("", code))
    if depth > MAX_NESTING:
        raise InputError(f"{path}: {deep_nesting(depth, 'arrays, tables and dotted keys')}; "
                         "a profile or query nests a few levels")


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
