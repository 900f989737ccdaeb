"""TOML reading errors name the file, the key and the expected type."""

from __future__ import annotations

from pathlib import Path

import pytest

from exactodds import InputError
from exactodds.tomlfiles import between, load_toml, no_unknown_keys, optional, require


def test_errors_name_file_key_and_type(tmp_path: Path) -> None:
    f = tmp_path / "unit.toml"
    f.write_text('name = "x"\n[[models]]\ntoughness = "four"\n')
    doc = load_toml(f)
    m = doc["models"][0]
    with pytest.raises(InputError, match=r"unit.toml: models\[1\].toughness = 'four': expected a whole number"):
        require(m, "toughness", int, f, "models[1]")
    with pytest.raises(InputError, match=r"models\[1\].wounds is missing; expected a whole number"):
        require(m, "wounds", int, f, "models[1]")
    assert optional(m, "save", int, f, "models[1]", default=None) is None
    with pytest.raises(InputError, match="must be from 2 to 6"):
        optional({"save": 7}, "save", int, f, "models[1]", check=between(2, 6))
    with pytest.raises(InputError, match="expected a whole number"):
        require({"w": True}, "w", int, f)
    with pytest.raises(InputError, match="unknown key 'tougness'"):
        no_unknown_keys({"tougness": 4}, {"toughness"}, f, "models[1]")


@pytest.mark.parametrize("content,needle", [(b"a = ", "invalid TOML"), (b"\xff\xfe\x00", "not a UTF-8"),
                                            (b"a = 1\x00", "NUL")])
def test_broken_files(tmp_path: Path, content: bytes, needle: str) -> None:
    f = tmp_path / "bad.toml"
    f.write_bytes(content)
    with pytest.raises(InputError, match=needle):
        load_toml(f)
    with pytest.raises(InputError, match="cannot read"):
        load_toml(tmp_path / "missing.toml")
