"""The calculator page's roster import: a roster dropped, chosen or pasted on the page,
imported by the same code as ``exactodds import``, its unit files sent back as text.

The page offers the units in the unit pickers of its system's forms and sends a chosen
one back as a pasted unit file (:func:`exactodds.webform.run`'s ``files``), so a roster
adds no new kind of question. :func:`import_roster_json` is the page's entry (JSON text
in and out, never raising).
"""

from __future__ import annotations

import json
import re
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from .commands import ExactOddsError, InputError
from .webform import parse_request

_FILE_NAME = re.compile(r"[^A-Za-z0-9_.-]+")


def _roster_bytes(request: Any) -> tuple[str, bytes]:
    """(the roster's file name as given, its bytes) from ``{"name", "text"}`` (a pasted
    ``.ros``) or ``{"name", "base64"}`` (a dropped ``.ros`` or ``.rosz``), bounded
    before decoding. O(size)."""
    import base64
    import binascii

    from .commands.rosters import MAX_ROSTER_BYTES

    if not isinstance(request, Mapping):
        raise InputError("a roster request is a JSON object with name and text (or base64)")
    name = request.get("name") or "pasted.ros"
    if not isinstance(name, str):
        raise InputError(f"a roster's name is text, not {type(name).__name__}")
    name = name.strip()[-100:] or "pasted.ros"
    text, packed = request.get("text"), request.get("base64")
    if isinstance(text, str) and text.strip():
        if len(text) > MAX_ROSTER_BYTES:
            raise InputError(f"{name}: {len(text)} characters is too large for a roster (at most {MAX_ROSTER_BYTES})")
        return name, text.encode("utf-8", "replace")
    if isinstance(packed, str) and packed:
        if len(packed) > MAX_ROSTER_BYTES * 4 // 3 + 4:
            raise InputError(f"{name}: too large for a roster (at most {MAX_ROSTER_BYTES} bytes)")
        try:
            return name, base64.b64decode(packed, validate=True)
        except (binascii.Error, ValueError):
            raise InputError(f"{name}: the file's content did not arrive whole (not base64)") from None
    raise InputError("no roster given: paste a .ros file's text, or drop or choose a .ros or .rosz file")


def import_roster_data(request: Any) -> dict[str, Any]:
    """Import a roster sent by the page, as ``exactodds import`` does, never raising:
    ``{"ok": True, "roster": name, "system": "40k6", "units": [{"name", "file",
    "points", "text"}], "warnings": [...]}`` (each unit file's TOML text, ready to be
    sent back as a pasted file), or ``{"ok": False, "message": one line}`` naming the
    roster by the name it was given. Nothing is kept: the files are written to a
    temporary folder and read back. Cost: that of the import, O(roster size)."""
    import tempfile

    from .commands.rosters import import_roster, unit_system

    name = "the roster"
    try:
        name, data = _roster_bytes(request)
        with tempfile.TemporaryDirectory() as folder:
            path = Path(folder) / (_FILE_NAME.sub("_", name) or "roster.ros")
            path.write_bytes(data)
            try:
                written, warnings = import_roster(path, Path(folder) / "units")
            except ExactOddsError as e:
                raise InputError(str(e).split("\n")[0].replace(str(path), name)) from None
            units = [{"name": unit.name, "file": p.name, "points": unit.top.get("points"),
                      "system": unit_system(unit), "text": p.read_text(encoding="utf-8")} for p, unit in written]
        return {"ok": True, "roster": name, "system": units[0]["system"] if units else "", "units": units,
                "warnings": warnings}
    except ExactOddsError as e:
        return {"ok": False, "message": str(e).split("\n")[0]}
    except Exception as e:  # any bug, as one line: never a traceback
        return {"ok": False, "message": f"internal error (a bug) reading {name}: {type(e).__name__}"}


def import_roster_json(request: str) -> str:
    """:func:`import_roster_data` on JSON text, answering JSON text (the page's entry)."""
    try:
        data = parse_request(request)
    except InputError as e:
        return json.dumps({"ok": False, "message": str(e)})
    return json.dumps(import_roster_data(data))
