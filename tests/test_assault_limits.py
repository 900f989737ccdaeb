"""The work limit on assaults: a huge assault is refused before any blow is
struck, with one line naming its size (nothing here is timed)."""

from __future__ import annotations

from importlib import import_module
from pathlib import Path

import pytest
from click.testing import CliRunner

from exactodds.cli import main
from exactodds.core import limits

ROOT = Path(__file__).resolve().parents[1]
UNITS = ROOT / "bench" / "units"


def _resized(tmp_path: Path, source: str, old: str, new: int) -> Path:
    """A copy of a benchmark unit file with ``new`` models instead of ``old``."""
    text = (UNITS / source).read_text()
    assert f"count = {old}" in text
    out = tmp_path / f"{new}_{source}"
    out.write_text(text.replace(f"count = {old}", f"count = {new}"))
    return out


def _no_blows(*args: object, **kwargs: object) -> None:
    raise AssertionError("the fight was started")


def test_huge_assault_is_refused_before_any_fight(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    orks = _resized(tmp_path, "ork_boyz_40.toml", "40", 100)
    guard = _resized(tmp_path, "guard_squad_20.toml", "20", 100)
    package = "exactodds.rules.wh40k6"
    for owner, name in ((import_module(f"{package}.blows").Striker, "strike"),
                        (import_module(f"{package}.fight").Blows, "steps"),
                        (import_module(f"{package}.fight_rounds"), "fight_round")):
        monkeypatch.setattr(owner, name, _no_blows)
    monkeypatch.delenv("EXACTODDS_MAX_STATES", raising=False)
    r = CliRunner().invoke(main, ["40k6", "assault", "--attacker", str(orks), "--defender", str(guard),
                                  "--distance", "7", "--rounds", "10"])
    assert r.exit_code == 2, r.output
    lines = r.output.strip().splitlines()
    assert len(lines) == 1
    assert "would need about" in lines[0] and "states" in lines[0]
    assert f"over the limit of {limits.DEFAULT_MAX_STATES:,}" in lines[0]
