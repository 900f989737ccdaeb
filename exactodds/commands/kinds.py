"""Kinds of parameter values: profile files, and every kind an interface reads.

A profile file (a unit, an attacker, a target) is identified by its content
(:class:`ProfileRef`). The other kinds are declared below the commands layer,
beside what they describe (:mod:`exactodds.core.kinds`,
:mod:`exactodds.dice.kinds`, :mod:`exactodds.rules.kinds`) and are named here
for the interfaces, which read kinds only through the commands layer.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core import InputError
from ..tomlfiles import MAX_FILE_BYTES as MAX_PROFILE_BYTES
from ..tomlfiles import ProfileRef
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
    the content of the file *and* of every unit file it names (relative to its folder,
    whatever the file is called), so editing a unit file makes the scenario a new
    question too. No other text of the file is read as a file name."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> ProfileRef:
        return _with_parts(super().convert(value, done))

    def with_base(self, value: Any, base: Path) -> Any:
        ref = super().with_base(value, base)
        return _with_parts(ref) if isinstance(ref, ProfileRef) else ref


def _with_parts(ref: ProfileRef) -> ProfileRef:
    """``ref`` with its digest extended by the bytes of each file it names (the unit files of
    a scenario, :func:`~exactodds.profiles.scenario.part_files`), whatever their names. Each is
    read once through the bounded reader: a folder, a device, a pipe or a file over the size
    limit is refused from its ``stat`` before any read. O(the files' sizes)."""
    import hashlib

    from ..profiles.scenario import part_files
    from ..tomlfiles import file_path

    try:
        doc = ref.doc()
    except InputError:
        return ref  # the loader refuses the file later, naming the problem
    digest = hashlib.sha256(ref.digest.encode())
    for where, part in part_files(doc, Path(ref.path)):
        try:
            read = ProfileRef.read(where, file_path(part, "a TOML file"))
        except InputError as e:
            raise KindError(f"{ref.written}: {where}: {e}") from None
        digest.update(where.encode() + b"\0" + read.digest.encode())
    return ProfileRef(ref.written, ref.path, digest.hexdigest(), ref.data)
