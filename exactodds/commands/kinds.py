"""Kinds of parameter values: profile files, and every kind an interface reads.

A profile file (a unit, an attacker, a target) is identified by its content
(:class:`ProfileRef`). The other kinds are declared below the commands layer,
beside what they describe (:mod:`exactodds.core.kinds`,
:mod:`exactodds.dice.kinds`, :mod:`exactodds.rules.kinds`) and are named here
for the interfaces, which read kinds only through the commands layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import InputError
from ..core.kinds import (MAX_DIGITS, Choice, Count, Flag, Inches, Kind, KindError, Many, Text, exact_decimal,
                          quoted, whole_number)
from ..core.lazy import lazy_exports
from ..dice.kinds import Faces, SaveOrNone, SaveRoll, TargetNumber

if TYPE_CHECKING:
    from ..rules.kinds import DiceExpr

# The rules' kinds load on first use: a question about dice alone loads no rules.
__getattr__, __dir__ = lazy_exports(__name__, {"DiceExpr": "..rules.kinds"})

__all__ = ["MAX_DIGITS", "MAX_PROFILE_BYTES", "Choice", "Count", "DiceExpr", "Faces", "FileWithParts", "Flag",
           "Inches", "Kind", "KindError", "Many", "ProfileFile", "ProfileRef", "SaveOrNone", "SaveRoll",
           "TargetNumber", "Text", "exact_decimal", "whole_number"]

MAX_PROFILE_BYTES = 10 * 1024 * 1024
"""Largest profile file read (as for any TOML file)."""


@dataclass(frozen=True, eq=False)
class ProfileRef:
    """A profile file (a unit, an attacker, a target), as written and by content.

    ``written`` is the path as the user wrote it (shown in answers), ``path``
    where it was read, and ``digest`` the SHA-256 of its bytes: two references
    are the same question when their contents are the same, wherever the
    files are, and an edited file is a different question.
    """

    written: str
    path: Path
    digest: str

    @classmethod
    def read(cls, written: str, path: Path) -> ProfileRef:
        """Hash the file at ``path`` (a regular file, checked by the caller); an
        unreadable one is a KindError naming it. O(its size)."""
        import hashlib

        try:
            with open(path, "rb") as f:
                data = f.read(MAX_PROFILE_BYTES + 1)
        except OSError as e:
            raise KindError(f"{path}: cannot read the file ({e.strerror or e})") from None
        if len(data) > MAX_PROFILE_BYTES:
            raise KindError(f"{written}: more than {MAX_PROFILE_BYTES:,} bytes is too large for a profile file")
        return cls(written, path, hashlib.sha256(data).hexdigest())

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


class ProfileFile(Kind):
    """A TOML profile file: a path, read relative to the query file's folder when
    the question comes from one. Identified by its content (:class:`ProfileRef`)."""

    metavar = "FILE.toml"

    def convert(self, value: Any, done: Mapping[str, Any]) -> ProfileRef:
        if isinstance(value, ProfileRef):
            return value
        written = _file_name(value)
        return _read_profile(written, written)

    def key(self, value: ProfileRef) -> Any:
        return ("file", value.digest)

    def plain(self, value: ProfileRef) -> Any:
        return value.written

    def with_base(self, value: Any, base: Path) -> Any:
        if isinstance(value, (str, Path)):
            written = _file_name(value)
            relative = not written.startswith("~") and not Path(written).is_absolute()
            return _read_profile(written, base / written if relative else written)
        return value


def _file_name(value: Any) -> str:
    if isinstance(value, Path):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise KindError(f"{quoted(value)} is not a file name (a TOML file's path was expected)")
    return value


def _read_profile(written: str, path: str | Path) -> ProfileRef:
    """The file's :class:`ProfileRef`: O(its size) to hash it. A NUL byte in the name,
    ``~`` with no home, a missing file, a folder, a device or a pipe is refused by name
    (:func:`~exactodds.tomlfiles.file_path`)."""
    from ..tomlfiles import file_path

    try:
        return ProfileRef.read(written, file_path(path, "a TOML file"))
    except InputError as e:
        raise KindError(str(e)) from None


class FileWithParts(ProfileFile):
    """A TOML file that names other files (a scenario naming its units): its key is
    the content of the file *and* of every ``.toml`` file it names (relative to its
    folder), so editing a unit file makes the scenario a new question too."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> ProfileRef:
        return _with_parts(super().convert(value, done))

    def with_base(self, value: Any, base: Path) -> Any:
        ref = super().with_base(value, base)
        return _with_parts(ref) if isinstance(ref, ProfileRef) else ref


def _with_parts(ref: ProfileRef) -> ProfileRef:
    """``ref`` with its digest extended by the files it names. O(the files' sizes)."""
    import hashlib
    import tomllib

    try:
        doc = tomllib.loads(Path(ref.path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return ref  # the loader refuses the file later, naming the problem
    digest = hashlib.sha256(ref.digest.encode())
    for name in sorted(set(_toml_names(doc))):
        part = Path(ref.path).parent / Path(name).expanduser()
        try:
            digest.update(name.encode() + b"\0" + part.read_bytes()[:MAX_PROFILE_BYTES])
        except (OSError, ValueError):
            digest.update(name.encode() + b"\0(unreadable)")
    return ProfileRef(ref.written, ref.path, digest.hexdigest())


def _toml_names(value: Any, depth: int = 0) -> list[str]:
    """Every text value ending in ``.toml`` in a parsed TOML document."""
    if depth > 64:
        return []
    if isinstance(value, str):
        return [value] if value.endswith(".toml") else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [n for v in value for n in _toml_names(v, depth + 1)]
    return []
