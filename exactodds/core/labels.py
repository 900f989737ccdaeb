"""Outcome values that tell the display how to show them.

Rule steps build outcomes from plain values (numbers, strings, tuples,
named tuples). Two small subclasses add what a person reading a table needs
and a program does not, without changing equality, hashing, JSON or the
order of :meth:`~exactodds.core.Dist.support`:

- :class:`Named`: a name (a ``str``) with its natural position, e.g. the
  target of a shot before the fighters it engages, in the order given,
  rather than alphabetical order;
- :class:`Labelled`: a tuple of values, one per named thing (e.g. Hull
  Points left per model), with what the values are.

``Named("target", 0) == "target"`` and ``Labelled((3, 1), ("Rhino", "Rhino"),
"Hull Points left") == (3, 1)``, with the same hashes, so distributions and
tests written with plain values are unaffected; only the tables of
:mod:`exactodds.render` read the extra attributes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any


class Named(str):
    """A name with a natural ``position`` (tables list smaller positions first)."""

    position: int

    def __new__(cls, name: str, position: int = 0) -> Named:
        self = super().__new__(cls, name)
        self.position = position
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Named, (str(self), self.position))


class Labelled(tuple[Any, ...]):
    """A tuple of values with a name per position and a description of the values.

    ``names``: one label per value (e.g. each model's name, in file order);
    ``what``: what the values are (e.g. ``"Hull Points left"``).
    """

    names: tuple[str, ...]
    what: str

    def __new__(cls, values: Iterable[Any], names: Iterable[str] = (), what: str = "") -> Labelled:
        self = super().__new__(cls, values)
        self.names = tuple(names)
        self.what = what
        return self

    def __reduce__(self) -> tuple[Any, ...]:
        return (Labelled, (tuple(self), self.names, self.what))
