"""An answer's ``query`` object, described by its parameter class instead of built by hand.

A command's parameter class declares ``QUERY``: the answer's keys in order, each
either a parameter's name (its value as a query file writes it,
:meth:`~exactodds.core.params.Params.plain`) or a derived fact
``(key, fn)``: ``fn(params, *context)`` gives the value, or :data:`OMIT` to leave
the key out (an option shown only when set). ``context`` is what the compute
function built on the way (the rule's run, the units read), so that a fact is
never computed twice.

Cost: O(keys) conversions to plain values.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from .params import Params

OMIT: Any = object()
"""What a derived fact returns to leave its key out of the query."""

Fact = Callable[..., Any]
Layout = Sequence["str | tuple[str, Fact]"]


def described(p: Params, *context: Any) -> dict[str, Any]:
    """The answer's ``query`` for ``p``, in the order its class's ``QUERY`` declares."""
    specs = p.specs()
    out: dict[str, Any] = {}
    for entry in type(p).QUERY:  # type: ignore[attr-defined]
        if isinstance(entry, str):  # as Params.plain writes it, for this one field
            value = getattr(p, entry)
            out[entry] = None if value is None else specs[entry][0].kind.plain(value)
            continue
        key, fact = entry
        value = fact(p, *context)
        if value is not OMIT:
            out[key] = value
    return out


def when(name: str, test: Callable[[Any], bool] = bool) -> tuple[str, Fact]:
    """A parameter shown only when ``test(value)`` holds (by default: when set)."""
    return name, lambda p, *_: getattr(p, name) if test(getattr(p, name)) else OMIT

