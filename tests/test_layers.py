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
# core -> dice -> rules (with the profile files that build rule objects) -> render (tables,
# HTML, LaTeX, plots, pandas) -> commands (typed questions, and the Answer they produce)
# -> interfaces (cli, sweep, validation).
ALLOWED = {
    "core": {"core"},
    "dice": {"core", "dice"},
    "rules": {"core", "dice", "rules"},
    "tomlfiles": {"core"},
    "profiles": {"core", "dice", "rules", "tomlfiles", "profiles"},
    # presentation: only the engine's values below it (core installs nothing from it)
    "render": {"core", "render"},
    "symbolic": {"core", "render"},
    "units": {"core", "render", "units"},
    "answer": {"core", "render", "units", "answer"},
    "commands": {"core", "dice", "rules", "tomlfiles", "profiles", "render", "answer", "commands"},
    # interfaces: sweeps and validation ask questions through the commands layer
    "sweep": {"core", "tomlfiles", "render", "answer", "commands", "sweep"},
    "validation": {"core", "dice", "tomlfiles", "render", "units", "answer", "commands", "validation"},
    "comparison": {"core", "render", "units", "answer", "commands", "comparison"},
    "efficiency": {"core", "render", "answer", "commands", "efficiency"},
    # the command line calls only the commands layer (and the other interfaces' commands)
    "cli": {"commands", "sweep", "validation", "comparison", "efficiency", "cli"},
    # the calculator page's forms and answers, and the Jupyter forms built on them
    "webform": {"core", "render", "units", "answer", "commands", "webform"},
    "widgets": {"core", "render", "answer", "commands", "webform", "widgets"},
    # the calculator page's roster import, answered as the page's questions are
    "webrosters": {"core", "commands", "webform", "webrosters"},
}
CLICK_FREE = ("core", "dice", "rules", "tomlfiles", "profiles", "render", "symbolic", "units", "answer", "commands")
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


def _module_name(path: Path) -> str:
    """``exactodds.core.dist`` for a module, ``exactodds.core`` for a package's ``__init__``."""
    parts = path.relative_to(PKG.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _import_graph() -> dict[str, set[str]]:
    """Module -> the package's modules its import statements name, at any depth (inside
    functions too). Relative imports are resolved; a package counts as its ``__init__``;
    ``from package import name`` counts as importing the submodule ``name`` when there is
    one, else the package."""
    files = {_module_name(p): p for p in PKG.rglob("*.py")}
    graph: dict[str, set[str]] = {name: set() for name in files}
    for name, path in files.items():
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    up = package.split(".")[: len(package.split(".")) - (node.level - 1)]
                    base = ".".join(up + ([base] if base else []))
                targets = [f"{base}.{a.name}" if f"{base}.{a.name}" in files else base for a in node.names]
            else:
                continue
            graph[name] |= {t for t in targets if t in files and t != name}
    return graph


def _find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One cycle ``[a, b, ..., a]`` of the graph, or None (depth-first search, O(V + E))."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state and (found := visit(nxt)):
                return found
        path.pop()
        state[node] = 2
        return None

    for start in sorted(graph):
        if start not in state and (found := visit(start)):
            return found
    return None


def test_the_import_graph_sees_relative_imports() -> None:
    graph = _import_graph()
    assert "exactodds.core.present" in graph["exactodds.core.dist"]
    assert "exactodds.render" in graph["exactodds"]  # a function-level `from . import render`
    assert "exactodds.core" in graph["exactodds.comparison"]  # a package counts as its __init__


def test_find_cycle_reports_the_cycle() -> None:
    assert _find_cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert _find_cycle({"a": {"b"}, "b": set()}) is None


def test_no_import_cycles() -> None:
    cycle = _find_cycle(_import_graph())
    assert cycle is None, "import cycle: " + " -> ".join(cycle or [])


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


def test_showing_a_dist_loads_the_rendering_layer_only_when_asked() -> None:
    code = ("import sys, exactodds\n"
            "print('exactodds.render' in sys.modules)\n"
            "print(repr(exactodds.Dist.uniform([1, 2])), 'exactodds.render' in sys.modules)\n"
            "print(exactodds.Dist({1: 1})._repr_html_().startswith('<table class=\"exactodds-dist\"'))\n"
            f"print([m for m in {HEAVY!r} if m in sys.modules])")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.splitlines() == ["False", "Dist(2 outcomes 1..2, mean 3/2: {1: 1/2, 2: 1/2}) True", "True",
                                       "[]"]


def test_heavy_libraries_are_not_imported_at_module_level() -> None:
    code = (
        "import sys, exactodds, exactodds.cli\n"
        f"print([m for m in {HEAVY!r} if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]", out.stdout
