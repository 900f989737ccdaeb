"""Build the calculator page's runtime: exactodds running in the browser with Pyodide.

``python docs/build_calculator.py [SITE]`` writes ``SITE/calculator/`` (default
``site/``, the folder ``mkdocs build`` writes): the page's script and style
(``docs/calculator/``), the Pyodide runtime, the wheels of exactodds and of
the pure-Python packages it can use, the example unit and scenario files and
``manifest.json`` (every command's form, generated from the parameter
specs by :func:`exactodds.webform.form_spec`, and the files to load). The
page itself is ``docs/calculator.md``; ``mkdocs build`` runs this module as a
hook after it writes the site (``hooks:`` in ``mkdocs.yml``), so the built
site always holds a working page.

Everything comes from package registries, at build time only, and is cached
(``$EXACTODDS_CALCULATOR_CACHE``, default ``~/.cache/exactodds-calculator``):
the ``pyodide`` npm package (runtime and standard library), and wheels from
PyPI (``pip download --only-binary=:all: --no-deps``). exactodds's own wheel
is built from this checkout (``pip wheel --no-deps``). The page fetches
nothing from anywhere but the site itself. scipy (used only by validation)
is not shipped: the page puts the wheels on ``sys.path`` as they are.
"""

from __future__ import annotations

import gzip
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ASSETS = ROOT / "docs" / "calculator"
PYODIDE_VERSION = "0.29.5"
"""The pyodide npm package: Python 3.13, with its runtime, standard library and lock file."""
PYODIDE_FILES = ("pyodide.js", "pyodide.asm.js", "pyodide.asm.wasm", "python_stdlib.zip", "pyodide-lock.json")
PURE_WHEELS = ("tomli_w==1.2.0", "sympy==1.14.0", "mpmath==1.3.0", "click==8.2.1")
"""Pure-Python wheels shipped beside exactodds: tomli_w, which writes a question's TOML
(every answer offers it), sympy and mpmath for the symbolic module, click for the
command line's code (the commands layer needs none of these three)."""
EAGER = ("exactodds", "tomli_w")
"""Wheels the page loads before its first answer (the others load after it)."""


def cache_dir() -> Path:
    """Where the npm package and the downloaded wheels are kept between builds."""
    return Path(os.environ.get("EXACTODDS_CALCULATOR_CACHE") or Path.home() / ".cache" / "exactodds-calculator")


def _run(args: list[str], **kwargs: object) -> None:
    result = subprocess.run(args, capture_output=True, text=True, **kwargs)  # type: ignore[call-overload]
    if result.returncode != 0:
        raise SystemExit(f"build_calculator: {' '.join(args[:4])} ... failed:\n{result.stdout}\n{result.stderr}")


def pyodide_dir(cache: Path) -> Path:
    """The pyodide npm package's folder, installed with npm once per version."""
    prefix = cache / f"npm-pyodide-{PYODIDE_VERSION}"
    folder = prefix / "node_modules" / "pyodide"
    if not all((folder / name).is_file() for name in PYODIDE_FILES):
        npm = shutil.which("npm")
        if npm is None:
            raise SystemExit("build_calculator: npm is needed to install the pyodide package (Node.js's npm)")
        prefix.mkdir(parents=True, exist_ok=True)
        _run([npm, "install", "--prefix", str(prefix), "--no-save", "--no-audit", "--no-fund",
              "--ignore-scripts", f"pyodide@{PYODIDE_VERSION}"])
    return folder


def pure_wheels(cache: Path) -> list[Path]:
    """The pure-Python wheels of :data:`PURE_WHEELS`, downloaded once from PyPI."""
    folder = cache / "wheels"

    def found(req: str) -> Path | None:
        name, version = req.split("==")
        hits = sorted(folder.glob(f"{name}-{version}-*.whl")) if folder.is_dir() else []
        return hits[0] if hits else None

    missing = [req for req in PURE_WHEELS if found(req) is None]
    if missing:
        folder.mkdir(parents=True, exist_ok=True)
        _run([sys.executable, "-m", "pip", "download", "--quiet", "--only-binary=:all:", "--no-deps",
              "--python-version", "3.13", "--dest", str(folder), *missing])
    wheels = [found(req) for req in PURE_WHEELS]
    if None in wheels:
        raise SystemExit(f"build_calculator: pip did not download {', '.join(missing)}")
    return wheels  # type: ignore[return-value]


def exactodds_wheel(dest: Path) -> Path:
    """exactodds's wheel, built from this checkout (no dependencies)."""
    with tempfile.TemporaryDirectory() as tmp:
        _run([sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps", "--wheel-dir", tmp, str(ROOT)])
        built = sorted(Path(tmp).glob("exactodds-*.whl"))
        if not built:
            raise SystemExit("build_calculator: pip wheel made no exactodds wheel")
        target = dest / built[0].name
        shutil.copyfile(built[0], target)
        return target


def snapshot(pyodide: Path, wheels: list[Path], out: Path) -> Path | None:
    """A Pyodide memory snapshot of Python started with exactodds.webform imported
    (``docs/calculator/snapshot.mjs``, run by Node.js), gzipped: the page starts from it
    in well under a second instead of starting Python afresh. None (the page starts
    Python afresh) when Node.js is missing or the snapshot fails."""
    node = shutil.which("node")
    if node is None:
        return None
    with tempfile.TemporaryDirectory() as tmp:
        raw = Path(tmp) / "snapshot.bin"
        result = subprocess.run([node, str(ASSETS / "snapshot.mjs"), str(pyodide), str(raw), *map(str, wheels)],
                                capture_output=True, text=True)
        if result.returncode != 0 or not raw.is_file():
            last = [line[:300] for line in result.stderr.splitlines() if line.strip()][-1:]
            print(f"build_calculator: no Python snapshot (the page starts Python afresh): {' '.join(last)}",
                  file=sys.stderr)
            return None
        with raw.open("rb") as src, gzip.open(out, "wb", compresslevel=6) as dst:
            shutil.copyfileobj(src, dst)
    return out


def manifest(wheels: list[Path]) -> dict:
    """What the page loads: the forms of every command, the wheels, the example files."""
    sys.path.insert(0, str(ROOT))
    from exactodds.webform import command_id, example_files, form_spec, run

    forms = form_spec()
    here = Path.cwd()
    os.chdir(ROOT)  # the examples name files as the repository does
    try:
        for command in forms["commands"]:  # keep the docstrings' examples that answer, as the first question
            example = command["example"]
            if example is not None and not run({"system": command["system"], "command": command["command"],
                                               "params": example})["ok"]:
                print(f"build_calculator: the example of {command_id(command['system'], command['command'])} "
                      "does not answer; its form starts empty", file=sys.stderr)
                command["example"] = None
    finally:
        os.chdir(here)
    examples = example_files(ROOT / "examples")
    # the scenario form picks one of the shipped scenarios (their unit files are shipped above)
    examples["scenario"] = [f"examples/scenarios/{p.name}" for p in sorted((ROOT / "examples" / "scenarios").glob("*.toml"))]
    return {"pyodide": PYODIDE_VERSION, "python": "3.13",
            "wheels": [{"file": w.name, "eager": w.name.split("-")[0] in EAGER} for w in wheels],
            "examples": examples, "forms": forms}


def build(site: Path) -> Path:
    """Write ``site/calculator/`` (see the module docstring); returns that folder."""
    cache = cache_dir()
    out = site / "calculator"
    (out / "pyodide").mkdir(parents=True, exist_ok=True)
    pyodide = pyodide_dir(cache)
    for name in PYODIDE_FILES:
        target = out / "pyodide" / name
        if not target.exists() or target.stat().st_size != (pyodide / name).stat().st_size:
            shutil.copyfile(pyodide / name, target)
    wheel_dir = out / "wheels"
    if wheel_dir.exists():
        shutil.rmtree(wheel_dir)
    wheel_dir.mkdir()
    wheels = [exactodds_wheel(wheel_dir)]
    for wheel in pure_wheels(cache):
        shutil.copyfile(wheel, wheel_dir / wheel.name)
        wheels.append(wheel_dir / wheel.name)
    data = manifest(wheels)
    eager = [w for w in wheels if w.name.split("-")[0] in EAGER]
    snap = snapshot(pyodide, eager, out / "pyodide" / "snapshot.bin.gz")
    data["snapshot"] = None if snap is None else f"pyodide/{snap.name}"
    for paths in data["examples"].values():
        for rel in paths:
            target = out / rel
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(ROOT / rel, target)
    for asset in ASSETS.iterdir():
        if asset.is_file() and asset.suffix != ".mjs":
            shutil.copyfile(asset, out / asset.name)
    (out / "manifest.json").write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
    return out


def on_post_build(config: dict, **kwargs: object) -> None:
    """mkdocs hook: build the calculator into the site just written."""
    build(Path(config["site_dir"]))


def main(argv: list[str] | None = None) -> None:
    args = sys.argv[1:] if argv is None else argv
    site = Path(args[0]) if args else ROOT / "site"
    out = build(site)
    print(f"calculator written to {out}")


if __name__ == "__main__":
    main()
