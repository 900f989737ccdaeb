"""Names of a package loaded on first use (PEP 562), so that importing a
package costs only the modules a program actually uses."""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any


def lazy_exports(package: str, where: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for ``package``, whose names ``where`` maps to the
    modules defining them (relative, e.g. ``".dist"``). O(1) per name, once."""

    def getattr_(name: str) -> Any:
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(where[name], package), name)
        globals_ = importlib.import_module(package).__dict__
        globals_[name] = value  # later look-ups are plain attribute reads
        return value

    def dir_() -> list[str]:
        return sorted(set(importlib.import_module(package).__dict__) | set(where))

    return getattr_, dir_
