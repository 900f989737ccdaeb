"""Unit files made from a roster: their content, TOML text, and writing them all
or none.

Cost: O(size of the files written).
"""

from __future__ import annotations

import os
import re
import shutil
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ...core import InputError

_BARE_KEY = re.compile(r"^[A-Za-z0-9_-]+$")


@dataclass
class UnitFile:
    """One unit file to write: top-level keys, model lines, weapon tables, and the
    comments (what could not be mapped) and warnings (the same, for standard error)."""

    name: str
    system: str
    top: dict[str, Any] = field(default_factory=dict)
    models: list[dict[str, Any]] = field(default_factory=list)
    weapons: dict[str, dict[str, Any]] = field(default_factory=dict)
    comments: list[str] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)

    def note(self, text: str, warn: bool = True) -> None:
        """Keep ``text`` as a comment in the file, and (``warn``) as a warning naming the unit."""
        if text not in self.comments:
            self.comments.append(text)
            if warn:
                self.warnings.append(f"{self.name}: {text}")

    def to_toml(self) -> str:
        """The unit file's text."""
        out = [f"# {self.name}: imported from a roster ({self.system})."]
        out += [f"# {c}" for c in self.comments]
        out += [f"{_key(k)} = {_value(v)}" for k, v in self.top.items()]
        for m in self.models:
            out += ["", "[[models]]"] + [f"{_key(k)} = {_value(v)}" for k, v in m.items()]
        for name, w in self.weapons.items():
            out += ["", f"[weapons.{_key(name)}]"] + [f"{_key(k)} = {_value(v)}" for k, v in w.items()]
        return "\n".join(out) + "\n"


def _string(text: str) -> str:
    escaped = text.replace("\\", "\\\\").replace('"', '\\"')
    return '"' + "".join(c if c >= " " and c != "\x7f" else f"\\u{ord(c):04x}" for c in escaped) + '"'


def _key(name: str) -> str:
    return name if _BARE_KEY.match(name) else _string(name)


def _value(v: Any) -> str:
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, str):
        return _string(v)
    if isinstance(v, list):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    if isinstance(v, dict):
        return "{ " + ", ".join(f"{_key(k)} = {_value(x)}" for k, x in v.items()) + " }"
    raise TypeError(f"no TOML spelling for {v!r}")


def file_stem(name: str, taken: set[str]) -> str:
    """A file name for a unit: its name in lower case, words joined by ``_``, made unique."""
    stem = "_".join(re.findall(r"[a-z0-9]+", name.casefold())) or "unit"
    candidate, i = stem, 2
    while candidate in taken:
        candidate, i = f"{stem}_{i}", i + 1
    taken.add(candidate)
    return candidate


def write_all(files: list[tuple[str, UnitFile]], out: Path, check: Callable[[Path, UnitFile], None]) -> list[Path]:
    """Write every file into ``out`` (made if missing), or none: each is written to a
    temporary folder beside it and read back by ``check`` first; a file already in
    ``out`` is never overwritten. The paths written, in order."""
    if out.exists() and not out.is_dir():
        raise InputError(f"--out {out}: exists and is not a folder")
    targets = [out / f"{stem}.toml" for stem, _ in files]
    existing = [t for t in targets if t.exists()]
    if existing:
        raise InputError(f"{existing[0]} already exists; give another --out folder, or remove the file")
    parent = out.parent if out.parent != Path("") else Path(".")
    try:
        parent.mkdir(parents=True, exist_ok=True)
        staging = Path(tempfile.mkdtemp(prefix=".import-", dir=parent))
    except OSError as e:
        raise InputError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    try:
        for (stem, unit), target in zip(files, targets):
            staged = staging / target.name
            staged.write_text(unit.to_toml(), encoding="utf-8")
            check(staged, unit)
        out.mkdir(exist_ok=True)
        for target in targets:
            os.replace(staging / target.name, target)
    except OSError as e:
        raise InputError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return targets
