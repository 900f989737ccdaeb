"""The layers import only the layers below them, and the package imports lazily."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "exactodds"

# layer -> the exactodds subpackages it may import
ALLOWED = {
    "core": {"core"},
    "dice": {"core", "dice"},
    "rules": {"core", "dice", "rules"},
}
HEAVY = ("sympy", "scipy", "matplotlib", "pandas", "numpy")


def _imports(path: Path) -> list[tuple[str, int]]:
    """(module, relative level) for every import statement in a file, at any depth."""
    out = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom):
            out.append((node.module or "", node.level))
        elif isinstance(node, ast.Import):
            out.extend((a.name, 0) for a in node.names)
    return out


def _target_layer(path: Path, module: str, level: int) -> str | None:
    if level == 0:
        return module.split(".")[1] if module.startswith("exactodds.") else None
    parts = path.relative_to(PKG).parts[:-1]
    base = list(parts[: len(parts) - (level - 1)]) if level > 1 else list(parts)
    full = base + (module.split(".") if module else [])
    return full[0] if full else ""


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_lower_layers(layer: str) -> None:
    bad = []
    for path in (PKG / layer).rglob("*.py"):
        for module, level in _imports(path):
            target = _target_layer(path, module, level)
            if target is not None and target not in ALLOWED[layer] and target != "":
                bad.append(f"{path.relative_to(PKG)} imports {module or '.'} (layer {target})")
    assert not bad, bad


def test_heavy_libraries_are_not_imported_at_module_level() -> None:
    code = (
        "import sys, exactodds, exactodds.cli\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
