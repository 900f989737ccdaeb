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


def test_the_bounded_reader_refuses_from_stat_before_reading(tmp_path: Path) -> None:
    """A FIFO (which would block), a device (endless) and a file over the limit (a 3 GB sparse
    file, nothing on disk) are refused from their ``stat``: no read, no wait."""
    import os

    from exactodds.tomlfiles import MAX_FILE_BYTES, ProfileRef, _read_bounded

    pipe = tmp_path / "pipe.toml"
    os.mkfifo(pipe)
    huge = tmp_path / "huge.toml"
    with open(huge, "wb") as f:
        f.truncate(3 * 2**30)
    limit = tmp_path / "limit.toml"
    limit.write_bytes(b"#" * MAX_FILE_BYTES)
    for path, needle in [(pipe, "not a regular file"), (Path("/dev/zero"), "not a regular file"),
                         (huge, "3,221,225,472 bytes is too large"), (tmp_path, "is a folder")]:
        with pytest.raises(InputError, match=needle):
            _read_bounded(path)
        with pytest.raises(InputError, match=needle):
            ProfileRef.read(str(path), path)
        with pytest.raises(InputError, match=needle):
            load_toml(path)
    assert len(_read_bounded(limit)) == MAX_FILE_BYTES  # at the limit: read whole
