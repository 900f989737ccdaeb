"""An answer's ``query`` record, read from its parameters.

A command declares the record's layout once: a sequence of entries, each

- a parameter's name: its value as a query file writes it
  (:meth:`~exactodds.core.params.Params.plain`);
- :class:`Given` names: each value only when it was given (not None, false
  or empty);
- a derived fact's name, whose value the command passes as a keyword
  (the unit's name, its model count, a value the rule decided);
- a callable of the parameters returning several entries at once.

Cost: O(entries).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, NamedTuple, Union

from ..core.params import Params


class Given(NamedTuple):
    """Parameters recorded only when given."""

    names: tuple[str, ...]


Entry = Union[str, Given, Callable[[Any], dict]]


def plain_value(p: Params, name: str) -> Any:
    """Parameter ``name`` of ``p`` as plain data (an attribute that is no parameter: as it is)."""
    value = getattr(p, name)
    spec = p.specs().get(name)
    return value if value is None or spec is None else spec[0].kind.plain(value)


def described(p: Params, layout: Sequence[Entry], **facts: Any) -> dict[str, Any]:
    """The query record of ``p`` in ``layout`` (see the module docstring)."""
    out: dict[str, Any] = {}
    for entry in layout:
        if isinstance(entry, str):
            out[entry] = facts[entry] if entry in facts else plain_value(p, entry)
        elif isinstance(entry, Given):
            for name in entry.names:
                value = plain_value(p, name)
                if not (value is None or value is False or value == []):
                    out[name] = value
        else:
            out.update(entry(p))
    return out
