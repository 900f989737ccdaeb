"""Which question each row of a sweep's output answers, so that a resumed row
always answers the question its cells ask now.

Beside ``FILE`` (``--out FILE``), ``FILE.questions`` holds one line per row
written: the digest of the row's whole question and the row's parameter cells
(JSON). The digest covers the system, the command, every parameter's typed
value (the grid's ``[base]`` included), the content of every file the
question reads (a profile is keyed by its bytes, a scenario by its own and its
units' files) and the report's figures. When a sweep resumes, a previous row is
kept only if the question its cells ask now has the digest recorded for it;
any other row (an input changed, or no digest recorded) is dropped from the
output and computed again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from ..commands import Query

SUFFIX = ".questions"


def question_digest(query: Query, report: Any) -> str:
    """The digest of one row's question: its key (typed values, files by content)
    and the report. O(parameters), besides reading its files once."""
    return hashlib.sha256(repr((query.key(), report)).encode()).hexdigest()


class QuestionLog:
    """``FILE.questions``: the digest of each row written to ``FILE``, by its
    parameter cells (the last line for the same cells wins)."""

    def __init__(self, out: Path, overwrite: bool = False) -> None:
        self.path = out.with_name(out.name + SUFFIX)
        if overwrite:
            self.path.unlink(missing_ok=True)

    def recorded(self) -> dict[tuple[str, ...], str]:
        """Each row's recorded digest, by its cells; a damaged line is skipped (its
        row is then computed again). O(lines)."""
        out: dict[tuple[str, ...], str] = {}
        try:
            text = self.path.read_text(encoding="utf-8", errors="replace")
        except FileNotFoundError:
            return out
        for line in text.splitlines():
            digest, _, cells = line.partition(" ")
            try:
                row = json.loads(cells)
            except ValueError:
                continue
            if isinstance(row, list) and all(isinstance(c, str) for c in row):
                out[tuple(row)] = digest
        return out

    def keep(self, kept: dict[tuple[str, ...], str]) -> None:
        """Write the log again with only ``kept`` (the rows a resume keeps)."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text("".join(_line(c, d) for c, d in kept.items()), encoding="utf-8")
        tmp.replace(self.path)

    def append(self, rows: Iterable[tuple[tuple[str, ...], str]]) -> None:
        """Record rows just written to the output (after them: a row whose line is
        missing is computed again)."""
        text = "".join(_line(c, d) for c, d in rows)
        if text:
            with self.path.open("a", encoding="utf-8") as f:
                f.write(text)


def _line(cells: tuple[str, ...], digest: str) -> str:
    return f"{digest} {json.dumps(list(cells), ensure_ascii=True)}\n"
