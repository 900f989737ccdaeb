"""Reading a BattleScribe / New Recruit roster file safely: ``.ros`` (XML) or
``.rosz`` (the same, zipped), into an ElementTree root element.

Rosters come from other people, so the reader is defensive: a file over
:data:`MAX_ROSTER_BYTES` is refused before it is read; a zip is refused when an
entry would unpack past that size or far beyond its compressed size (a zip
bomb), and its roster is read with a bounded read whatever the zip claims; a
document type or entity declaration is refused before parsing (they are how
entity-expansion attacks work, and rosters never hold one); the root must be a
``roster`` element in the roster namespace. Every refusal is one
:class:`~exactodds.core.InputError` naming the file.

Cost: one pass over at most :data:`MAX_ROSTER_BYTES` bytes, then the parse.
"""

from __future__ import annotations

import io
import re
import zipfile
from pathlib import Path
from xml.etree import ElementTree

from ...core import InputError
from ...tomlfiles import file_path

NAMESPACE = "http://www.battlescribe.net/schema/rosterSchema"
"""The XML namespace of a roster (BattleScribe and New Recruit)."""

MAX_ROSTER_BYTES = 20 * 1024 * 1024
"""The largest roster read, zipped or not (real rosters are well under 1 MB)."""

MAX_ZIP_RATIO = 200
"""The largest unpacked / packed size ratio of a zipped roster (XML packs about 10:1)."""

_DECLARATION = re.compile(rb"<!\s*(DOCTYPE|ENTITY)", re.IGNORECASE)


def read_roster_xml(path: str | Path) -> ElementTree.Element:
    """The root ``roster`` element of a ``.ros`` or ``.rosz`` file, or an InputError."""
    p = file_path(path, "a roster file")
    size = p.stat().st_size
    if size > MAX_ROSTER_BYTES:
        raise InputError(f"{p}: {size} bytes is too large for a roster (at most {MAX_ROSTER_BYTES})")
    with open(p, "rb") as f:
        raw = f.read(MAX_ROSTER_BYTES + 1)
    if raw[:4] == b"PK\x03\x04":
        raw = _unzipped(raw, p)
    return _parsed(raw, p)


def _unzipped(raw: bytes, p: Path) -> bytes:
    """The roster inside a zip: its one ``.ros`` entry."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(raw))
        entries = [e for e in archive.infolist() if not e.is_dir()]
    except (zipfile.BadZipFile, ValueError, OSError) as e:
        raise InputError(f"{p}: not a readable zip file ({e})") from None
    rosters = [e for e in entries if e.filename.lower().endswith(".ros")]
    if len(rosters) != 1:
        raise InputError(f"{p}: the zip holds no roster (a .ros entry)" if not rosters else
                         f"{p}: the zip holds {len(rosters)} rosters; expected one .ros entry")
    entry = rosters[0]
    if entry.file_size > MAX_ROSTER_BYTES or entry.file_size > MAX_ZIP_RATIO * max(entry.compress_size, 1):
        raise InputError(f"{p}: {entry.filename} would unpack to {entry.file_size} bytes from "
                         f"{entry.compress_size}: refused (at most {MAX_ROSTER_BYTES} bytes, ratio {MAX_ZIP_RATIO})")
    try:
        with archive.open(entry) as f:
            data = f.read(MAX_ROSTER_BYTES + 1)  # bounded whatever the header says
    except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError) as e:
        raise InputError(f"{p}: cannot unpack {entry.filename} ({e})") from None
    if len(data) > MAX_ROSTER_BYTES:
        raise InputError(f"{p}: {entry.filename} unpacks to more than {MAX_ROSTER_BYTES} bytes: refused")
    return data


def _parsed(raw: bytes, p: Path) -> ElementTree.Element:
    if _DECLARATION.search(raw):
        raise InputError(f"{p}: the roster holds a DOCTYPE or ENTITY declaration; rosters never do: refused")
    try:
        root = ElementTree.fromstring(raw)
    except ElementTree.ParseError as e:
        raise InputError(f"{p}: not a roster (not XML: {e})") from None
    if root.tag != f"{{{NAMESPACE}}}roster":
        raise InputError(f"{p}: not a roster: the root element is {root.tag!r:.80}; expected 'roster' in the "
                         f"namespace {NAMESPACE} (a .ros or .rosz file from BattleScribe or New Recruit)")
    return root
