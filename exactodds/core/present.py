"""How people see a ``Dist`` or a ``Run``: a hook that the rendering layer fills.

The engine holds distributions and transforms only. Tables, HTML, LaTeX,
plots and pandas live in :mod:`exactodds.render`, a layer above the rule
systems, and ``core`` never imports it, not even inside a function. Instead
``Dist`` and ``Run`` ask :func:`presenter` for the installed
:class:`Presenter`:

- :mod:`exactodds.render` builds one and calls :func:`install` when it is
  imported;
- the top package :mod:`exactodds` names, with :func:`set_loader`, the
  function that imports :mod:`exactodds.render`; :func:`presenter` calls it on
  the first request, so ``import exactodds`` loads no rendering code until
  something is shown.

Without a presenter (the loader removed), ``repr`` and ``str`` fall back to
one plain line and the rich methods raise an
:class:`~exactodds.core.errors.InputError` naming what to import.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from .errors import InputError


class Presenter(NamedTuple):
    """The renderings ``Dist`` and ``Run`` delegate to, one function each (a named
    tuple: importing this module costs no more than ``typing``)."""

    dist_repr: Callable[[Any], str]
    dist_str: Callable[[Any], str]
    dist_html: Callable[[Any], str]
    dist_latex: Callable[[Any], str]
    plot_dist: Callable[..., Any]
    dist_to_pandas: Callable[[Any], Any]
    run_repr: Callable[[Any], str]
    run_html: Callable[[Any], str]
    plot_run: Callable[..., Any]
    run_to_pandas: Callable[..., Any]


_state: dict[str, Any] = {"presenter": None, "loader": None}


def install(presenter: Presenter) -> None:
    """Make ``presenter`` the one every ``Dist`` and ``Run`` uses (the last installed wins)."""
    _state["presenter"] = presenter


def set_loader(loader: Callable[[], object] | None) -> None:
    """The function :func:`presenter` calls once when none is installed yet (or None)."""
    _state["loader"] = loader


def presenter() -> Presenter | None:
    """The installed presenter, loading it first when a loader is set; O(1)."""
    if _state["presenter"] is None and _state["loader"] is not None:
        _state["loader"]()
    shown: Presenter | None = _state["presenter"]
    return shown


def required(what: str) -> Presenter:
    """The presenter, or an InputError saying that ``what`` needs the rendering layer."""
    found = presenter()
    if found is None:
        raise InputError(f"{what} needs the rendering layer: import exactodds.render")
    return found
