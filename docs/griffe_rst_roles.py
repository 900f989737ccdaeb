"""A griffe extension for the API reference: Sphinx roles become code spans.

The docstrings of exactodds use reStructuredText roles (``:class:`Dist```,
``:meth:`~Dist.then```) that Markdown would print literally. This rewrites
them to Markdown code spans (the ``~`` form keeps the last dotted part, as
Sphinx does) and turns a paragraph ending in ``::`` into one ending in ``:``
(the indented block after it is already a Markdown code block). Loaded by
mkdocstrings from mkdocs.yml; not part of the package.
"""

from __future__ import annotations

import re
from typing import Any

import griffe

_ROLE = re.compile(r":(?:py:)?[a-z]+:`(~?)([^`]+)`")
_LITERAL = re.compile(r"(\S)::\n(\s*\n)")


def _code(m: re.Match) -> str:
    target = m.group(2)
    return f"`{target.rsplit('.', 1)[-1] if m.group(1) else target}`"


def rewrite(text: str) -> str:
    """Markdown for a docstring written with Sphinx roles."""
    return _LITERAL.sub(r"\1:\n\2", _ROLE.sub(_code, text))


class RstRoles(griffe.Extension):
    """Rewrite every docstring of the loaded package."""

    def on_package(self, *, pkg: griffe.Module, **kwargs: Any) -> None:
        seen: set[int] = set()
        stack: list[Any] = [pkg]
        while stack:
            obj = stack.pop()
            if id(obj) in seen or obj.is_alias:
                continue
            seen.add(id(obj))
            if obj.docstring is not None:
                obj.docstring.value = rewrite(obj.docstring.value)
            stack.extend(obj.members.values())
