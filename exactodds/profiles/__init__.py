"""Unit and weapon profiles read from TOML files (one module per rule system).

Interface layer: it turns checked TOML data into the plain data classes of
:mod:`exactodds.rules`; the rules never read files.
"""

from __future__ import annotations

from pathlib import Path

from ..core import InputError
from ..rules.random_count import DiceCount
from ..tomlfiles import between, optional


def dice_count(text: str, what: str, path: str | Path, where: str, key: str) -> DiceCount:
    """A random count written in a profile (``"D3"``, ``"2D6"``...), or an InputError
    naming the file and the key."""
    try:
        return DiceCount.parse(text, what)
    except InputError as e:
        raise InputError(f"{path}: {where}.{key}: {e}") from None


def choice(table: dict, key: str, allowed: tuple[str, ...], path: str | Path, where: str) -> str | None:
    """An optional text among ``allowed``, or an InputError naming the file, the
    key and the allowed values."""
    value = optional(table, key, str, path, where)
    if value is not None and value not in allowed:
        raise InputError(f"{path}: {where}.{key} = {value!r:.40}: expected one of {', '.join(allowed)}")
    return value


MAX_POINTS = 100_000
"""The largest ``points`` a unit file may give."""


def points(doc: dict, path: str | Path) -> int | None:
    """A unit file's optional ``points`` (what the unit costs: a whole number from 0 to
    :data:`MAX_POINTS`), or an InputError naming the file. No answer depends on it; the
    points efficiency of ``compare --per-points`` reads it."""
    return optional(doc, "points", int, path, check=between(0, MAX_POINTS))
