"""Which question each row of a sweep's output answers, so that a resumed row
always answers the question its cells ask now.

Beside ``FILE`` (``--out FILE``), ``FILE.questions`` holds one line per row
written: a digest of the row's parameter cells together with its whole
question (16 hexadecimal digits: 17 bytes a row). The question covers the
system, the command, every parameter's typed value (the grid's ``[base]``
included), the content of every file the question reads (a profile is keyed by
its bytes, a scenario by its own and its units' files) and the report's
figures. When a sweep resumes, a previous row is kept only if the digest of its
cells and the question they ask now is recorded; any other row (an input
changed, or no digest recorded) is dropped from the output and computed again.
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


def row_mark(cells: tuple[str, ...], digest: str) -> str:
    """What the log records for a row: its cells and its question's digest, digested
    (64 bits: a changed question matches a recorded mark by chance with odds 2^-64 per row)."""
    return hashlib.sha256(json.dumps([digest, *cells]).encode()).hexdigest()[:16]


class QuestionLog:
    """``FILE.questions``: the mark (:func:`row_mark`) of each row written to ``FILE``."""

    def __init__(self, out: Path, overwrite: bool = False) -> None:
        self.path = out.with_name(out.name + SUFFIX)
        if overwrite:
            self.path.unlink(missing_ok=True)

    def recorded(self) -> set[str]:
        """The marks recorded (a damaged line only costs its row a new computation). O(lines)."""
        try:
            return set(self.path.read_text(encoding="ascii", errors="replace").split())
        except FileNotFoundError:
            return set()

    def keep(self, marks: Iterable[str]) -> None:
        """Write the log again with only ``marks`` (the rows a resume keeps)."""
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text("".join(f"{m}\n" for m in marks), encoding="ascii")
        tmp.replace(self.path)

    def append(self, marks: Iterable[str]) -> None:
        """Record rows just written to the output (after them: a row whose mark is
        missing is computed again)."""
        text = "".join(f"{m}\n" for m in marks)
        if text:
            with self.path.open("a", encoding="ascii") as f:
                f.write(text)
