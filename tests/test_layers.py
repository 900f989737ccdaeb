"""The layers import only the layers below them, and the package imports lazily."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest

PKG = Path(__file__).resolve().parent.parent / "exactodds"

# layer -> the exactodds subpackages (or top-level modules) it may import. From the bottom:
# core -> dice -> rules (with the profile files that build rule objects) -> commands (typed
# questions, and the Answer they produce) -> interfaces (cli, sweep, validation).
ALLOWED = {
    "core": {"core"},
    "dice": {"core", "dice"},
    "rules": {"core", "dice", "rules"},
    "tomlfiles": {"core"},
    "profiles": {"core", "dice", "rules", "tomlfiles", "profiles"},
    "symbolic": {"core"},
    "answer": {"core"},
    "commands": {"core", "dice", "rules", "tomlfiles", "profiles", "answer", "commands"},
    # interfaces: sweeps and validation ask questions through the commands layer
    "sweep": {"core", "tomlfiles", "answer", "commands", "sweep"},
    "validation": {"core", "dice", "tomlfiles", "answer", "commands", "validation"},
    "comparison": {"core", "answer", "commands", "comparison"},
    # the command line calls only the commands layer (and the other interfaces' commands)
    "cli": {"commands", "sweep", "validation", "comparison", "cli"},
    # the calculator page's forms and answers, and the Jupyter forms built on them
    "webform": {"core", "answer", "commands", "webform"},
    "widgets": {"core", "answer", "commands", "webform", "widgets"},
}
CLICK_FREE = ("core", "dice", "rules", "tomlfiles", "profiles", "symbolic", "answer", "commands")
"""Layers that never import click: the commands layer and everything below it (the
interfaces may, for a progress bar)."""
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


def _files(layer: str) -> list[Path]:
    folder = PKG / layer
    return sorted(folder.rglob("*.py")) if folder.is_dir() else [PKG / f"{layer}.py"]


def test_every_module_belongs_to_a_layer() -> None:
    tops = {p.stem if p.is_file() else p.name for p in PKG.iterdir()
            if (p.suffix == ".py" or (p.is_dir() and (p / "__init__.py").exists()))}
    assert tops - {"__init__", "__main__"} == set(ALLOWED)


@pytest.mark.parametrize("layer", sorted(ALLOWED))
def test_layer_imports_only_lower_layers(layer: str) -> None:
    bad = []
    for path in _files(layer):
        for module, level in _imports(path):
            target = _target_layer(path, module, level)
            if target is not None and target not in ALLOWED[layer] and target != "":
                bad.append(f"{path.relative_to(PKG)} imports {module or '.'} (layer {target})")
    assert not bad, bad


@pytest.mark.parametrize("layer", CLICK_FREE)
def test_only_the_command_line_imports_click(layer: str) -> None:
    bad = [f"{path.relative_to(PKG)} imports {module}" for path in _files(layer)
           for module, level in _imports(path) if level == 0 and module.split(".")[0] == "click"]
    assert not bad, bad


def test_a_query_loads_only_its_own_command() -> None:
    """No walk of the command tree at start-up: ``exactodds pool`` loads no rule system."""
    code = ("import sys\nfrom exactodds.cli import main\n"
            "main(['pool', '3', '--hit', '4+'], standalone_mode=False)\n")
    probe = ("import atexit, json, sys\natexit.register(lambda: print(json.dumps(sorted(m for m in sys.modules "
             "if m.startswith(('exactodds.rules', 'exactodds.commands.')) or m == 'exactodds.dice.budget')), "
             "file=sys.stderr))\n")
    out = subprocess.run([sys.executable, "-c", probe + code], capture_output=True, text=True)
    loaded = json.loads(out.stderr.strip().splitlines()[-1])
    assert "exactodds.commands.pool" in loaded
    assert not [m for m in loaded if m.startswith("exactodds.rules") or m == "exactodds.dice.budget"], loaded
    assert not {"exactodds.commands.wh40k6", "exactodds.commands.hh3", "exactodds.commands.hell_dorado"} & set(loaded)


def test_heavy_libraries_are_not_imported_at_module_level() -> None:
    code = (
        "import sys, exactodds, exactodds.cli\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
