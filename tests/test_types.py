"""The package type-checks: ``mypy exactodds`` with mypy's default settings reports nothing,
and ``mypy --strict`` on the core and the dice layers reports nothing."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.slow
def test_mypy_with_default_settings_is_clean(tmp_path: Path) -> None:
    out = subprocess.run([sys.executable, "-m", "mypy", "--cache-dir", str(tmp_path / "cache"), "exactodds"],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("Success: no issues found"), out.stdout


GENERIC_USE = '''
from typing import assert_type

from exactodds.core import Dist

d = Dist.uniform(range(1, 7))
assert_type(d, Dist[int])
assert_type(d.map(str), Dist[str])
assert_type(d.then(lambda x: Dist.uniform(["a", "b"])), Dist[str])
assert_type(d.then(lambda x: Dist.constant("a"), join=lambda x, y: (x, y)), Dist[tuple[int, str]])
assert_type(d.combine(Dist.constant("a"), lambda x, y: y * x), Dist[str])
assert_type(d.joint(Dist.constant("a")), Dist[tuple[int, str]])
assert_type(d.condition(lambda x: x > 2), Dist[int])
assert_type(d.support(), list[int])
assert_type(d.median(), int)
assert_type(d.std(), float)
'''


@pytest.mark.slow
def test_mypy_strict_on_core_and_dice_is_clean(tmp_path: Path) -> None:
    # Dist[T] is generic in its outcome type: what map, then, combine, ... return is checked too
    (tmp_path / "generic_use.py").write_text(GENERIC_USE)
    out = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--follow-imports=silent",
                          "--cache-dir", str(tmp_path / "cache"), "exactodds/core", "exactodds/dice",
                          str(tmp_path / "generic_use.py")], cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    assert out.stdout.startswith("Success: no issues found"), out.stdout
