"""Kinds of parameter values: what a parameter accepts, and its canonical form.

A :class:`Kind` converts a value spelled any way an interface spells it (a
command-line word, a TOML value, a Python object) to one typed value, or
raises :class:`KindError` with a message saying what is allowed (the caller
adds the parameter's name in its own vocabulary). Conversion is idempotent:
a typed value converts to itself. :meth:`Kind.key` gives the value's
canonical, hashable form and :meth:`Kind.plain` a TOML-friendly one.

Numbers are read from ASCII digits only, and a number written with more than
:data:`MAX_DIGITS` digits is refused before it is converted.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path
from typing import Any

from ..core import ExactOddsError, InputError
from ..core.checks import MAX_NUMBER_DIGITS
from ..dice import Target

MAX_DIGITS = MAX_NUMBER_DIGITS
"""Most digits a number may be written with (a longer one is a typo, and
converting thousands of digits is slow, or refused by Python itself)."""

MAX_PROFILE_BYTES = 10 * 1024 * 1024
"""Largest profile file read (as for any TOML file)."""

_INTEGER = re.compile(r"[+-]?[0-9]+")


class KindError(ValueError):
    """A value a kind does not accept; the message says what is allowed."""


class Kind:
    """What one parameter accepts (see the module docstring). Subclasses override
    :meth:`convert`, and :meth:`key`/:meth:`plain` where the value is not plain."""

    metavar: str | None = None
    """How help texts show a value (``N``, ``X+``)."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> Any:
        """The typed value of ``value`` (``done``: the parameters converted before this one)."""
        raise NotImplementedError

    def key(self, value: Any) -> Any:
        """The value's canonical, hashable form."""
        return value

    def plain(self, value: Any) -> Any:
        """The value as TOML data (numbers, text, booleans, lists)."""
        return value

    def with_base(self, value: Any, base: Path) -> Any:
        """``value`` with relative file paths read from ``base`` (only files care)."""
        return value


def whole_number(value: Any, what: str, low: int | None, high: int | None) -> int:
    """``value`` as a whole number within ``[low, high]`` (None: unbounded), or a KindError.

    Accepts an int (not a bool) or text of ASCII digits with an optional sign,
    at most :data:`MAX_DIGITS` digits (refused before converting).
    """
    if isinstance(value, bool):
        raise KindError(f"{value!r} is not {what}: {_allowed(low, high)}")
    if isinstance(value, int):
        n = value
    else:
        text = value.strip() if isinstance(value, str) else None
        if text is None or not _INTEGER.fullmatch(text):
            raise KindError(f"{_quoted(value)} is not {what}: {_allowed(low, high)}")
        if len(text.lstrip("+-").lstrip("0")) > MAX_DIGITS:
            raise KindError(f"{_quoted(text)} is far too large ({len(text):,} digits): {_allowed(low, high)}")
        n = int(text)
    if (low is not None and n < low) or (high is not None and n > high):
        raise KindError(f"{_bounded(n)} is out of range: {_allowed(low, high)}")
    return n


def _bounded(n: int) -> str:
    digits = len(str(abs(n))) if n.bit_length() < 200 else None
    return str(n) if digits is not None else f"a {n.bit_length():,}-bit number"


def _quoted(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 60 else text[:40] + f"...({len(text):,} characters)"


def _allowed(low: int | None, high: int | None) -> str:
    if low is None and high is None:
        return "use a whole number"
    if high is None:
        return f"use a whole number {low} or more"
    return f"use a whole number from {low} to {high}"


class Count(Kind):
    """A whole number within ``[low, high]`` (``high`` None: unbounded)."""

    metavar = "N"

    def __init__(self, low: int | None = 0, high: int | None = None, what: str = "a count") -> None:
        self.low, self.high, self.what = low, high, what


    def convert(self, value: Any, done: Mapping[str, Any]) -> int:
        return whole_number(value, self.what, self.low, self.high)


class Flag(Kind):
    """On or off: ``true``/``false`` (a flag on the command line)."""


    def convert(self, value: Any, done: Mapping[str, Any]) -> bool:
        if not isinstance(value, bool):
            raise KindError(f"{_quoted(value)} is not true or false (it is a flag)")
        return value


class Choice(Kind):
    """One of a fixed set of words."""

    def __init__(self, choices: tuple[str, ...]) -> None:
        self.choices = tuple(choices)


    def convert(self, value: Any, done: Mapping[str, Any]) -> str:
        if not isinstance(value, str) or value not in self.choices:
            raise KindError(f"{_quoted(value)} is not one of {', '.join(map(repr, self.choices))}")
        return value


class Text(Kind):
    """Free text (a name), at most ``longest`` characters."""

    metavar = "TEXT"

    def __init__(self, longest: int = 200) -> None:
        self.longest = longest


    def convert(self, value: Any, done: Mapping[str, Any]) -> str:
        if not isinstance(value, str):
            raise KindError(f"{_quoted(value)} is not text")
        if len(value) > self.longest:
            raise KindError(f"{_quoted(value)} is longer than {self.longest} characters")
        return value


class TargetNumber(Kind):
    """A target number on a die: ``X+``, ``auto`` or ``fail`` (the die's sides
    come from the ``sides`` parameter when the command has one, else 6)."""

    metavar = "X+"


    def convert(self, value: Any, done: Mapping[str, Any]) -> Target:
        if isinstance(value, Target):
            return value
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise KindError(f"{_quoted(value)} is not a target number: use X+ (e.g. 4+), auto or fail")
        try:
            return Target.parse(value, sides=done.get("sides", 6))
        except ExactOddsError as e:
            raise KindError(str(e)) from None

    def key(self, value: Target) -> Any:
        return (value.kind, value.value, value.sides)

    def plain(self, value: Target) -> Any:
        return str(value)


class Faces(Kind):
    """Die faces: ``1``, ``"1,2"`` or ``[1, 2]``, each from 1 to the die's sides."""

    metavar = "FACES"


    def convert(self, value: Any, done: Mapping[str, Any]) -> tuple[int, ...]:
        sides = done.get("sides", 6)
        if isinstance(value, (list, tuple)):
            parts = list(value)
        elif isinstance(value, int) and not isinstance(value, bool):
            parts = [value]
        elif isinstance(value, str):
            parts = [p.strip() for p in value.split(",")] if value.strip() else []
        else:
            parts = [value]
        faces = []
        for part in parts:
            text = str(part) if isinstance(part, int) and not isinstance(part, bool) else part
            if not isinstance(text, str) or not re.fullmatch(r"[0-9]{1,4}", text) or not 1 <= int(text) <= sides:
                shown = ",".join(map(str, value)) if isinstance(value, (list, tuple)) else value
                raise KindError(f"{_quoted(shown)} is not a list of faces: use whole numbers 1 to {sides}, "
                                "separated by commas (e.g. 1 or 1,2)")
            faces.append(int(text))
        return tuple(sorted(set(faces)))

    def plain(self, value: tuple[int, ...]) -> Any:
        return list(value)


class Many(Kind):
    """Several values of one kind (a repeated option; a list in TOML)."""

    def __init__(self, item: Kind) -> None:
        self.item = item


    @property
    def metavar(self) -> str | None:  # type: ignore[override]
        return self.item.metavar

    def convert(self, value: Any, done: Mapping[str, Any]) -> tuple:
        values = value if isinstance(value, (list, tuple)) else [value]
        return tuple(self.item.convert(v, done) for v in values)

    def key(self, value: tuple) -> Any:
        return tuple(self.item.key(v) for v in value)

    def plain(self, value: tuple) -> Any:
        return [self.item.plain(v) for v in value]

    def with_base(self, value: Any, base: Path) -> Any:
        if isinstance(value, (list, tuple)):
            return [self.item.with_base(v, base) for v in value]
        return self.item.with_base(value, base)


_DECIMAL = re.compile(r"(?P<int>[0-9]*)(?:\.(?P<frac>[0-9]*))?(?:[eE](?P<exp>[+-]?[0-9]+))?")
_RATIO = re.compile(r"(?P<num>[0-9]+)\s*/\s*(?P<den>[0-9]+)")


def exact_decimal(text: str) -> Fraction | None:
    """A non-negative decimal (``7.5``, ``1e2``) or ratio (``15/2``) read exactly, or None.

    The digits and the exponent are bounded (:data:`MAX_DIGITS`) before any
    number is built, so ``1e1000000000`` costs nothing.
    """
    text = text.strip()
    m = _RATIO.fullmatch(text)
    if m:
        if max(len(m["num"]), len(m["den"])) > MAX_DIGITS or int(m["den"]) == 0:
            return None
        return Fraction(int(m["num"]), int(m["den"]))
    m = _DECIMAL.fullmatch(text)
    if not m or not (m["int"] or m["frac"]):
        return None
    digits = (m["int"] or "") + (m["frac"] or "")
    exp = m["exp"]
    if len(digits.lstrip("0")) > MAX_DIGITS or (exp is not None and len(exp.lstrip("+-").lstrip("0")) > 3):
        return None
    power = (int(exp) if exp else 0) - len(m["frac"] or "")
    value = Fraction(int(digits or "0"))
    if value and abs(power) + len(digits.lstrip("0")) > 2 * MAX_DIGITS:
        return None
    return value * Fraction(10) ** power


class Inches(Kind):
    """A distance in inches, 0 or more, read exactly: ``8``, ``7.5`` or ``15/2``."""

    metavar = "INCHES"


    def convert(self, value: Any, done: Mapping[str, Any]) -> Fraction:
        if isinstance(value, Fraction):
            d: Fraction | None = value
        elif isinstance(value, bool):
            d = None
        elif isinstance(value, (int, float, str)):
            text = repr(value) if isinstance(value, float) else str(value)
            negative = text.strip().startswith("-")
            d = exact_decimal(text.strip().lstrip("-"))
            if d is not None and negative and d:
                raise KindError(f"{text.strip()} is negative: a charge distance is 0 inches or more")
        else:
            d = None
        if d is None:
            raise KindError(f"{_quoted(value)} is not a distance: use inches as a number 0 or more "
                            "(e.g. 8, 7.5 or 15/2)")
        if d < 0:
            raise KindError(f"{value} is negative: a charge distance is 0 inches or more")
        return d

    def key(self, value: Fraction) -> Any:
        return (value.numerator, value.denominator)

    def plain(self, value: Fraction) -> Any:
        return str(value)


class SaveRoll(Kind):
    """A save value ``2+`` to ``6+`` (or 2 to 6), as a whole number."""

    metavar = "X+"

    def __init__(self, what: str = "a cover value: Focus Fire declares a cover save from 2+ to 6+") -> None:
        self.what = what

    def convert(self, value: Any, done: Mapping[str, Any]) -> int:
        if isinstance(value, int) and not isinstance(value, bool):
            text = str(value)
        elif isinstance(value, str):
            text = value.strip().removesuffix("+").strip()
        else:
            text = ""
        if not (text.isascii() and text.isdigit()) or len(text) > 2 or not 2 <= int(text) <= 6:
            raise KindError(f"{_quoted(value)} is not {self.what}")
        return int(text)


@dataclass(frozen=True, eq=False)
class ProfileRef:
    """A profile file (a unit, an attacker, a target), as written and by content.

    ``written`` is the path as the user wrote it (shown in answers), ``path``
    where it was read, and ``digest`` the SHA-256 of its bytes: two references
    are the same question when their contents are the same, wherever the
    files are, and an edited file is a different question.
    """

    written: str
    path: Path
    digest: str

    @classmethod
    def read(cls, written: str, path: Path) -> ProfileRef:
        """Hash the file at ``path`` (a regular file, checked by the caller); an
        unreadable one is a KindError naming it. O(its size)."""
        import hashlib

        try:
            with open(path, "rb") as f:
                data = f.read(MAX_PROFILE_BYTES + 1)
        except OSError as e:
            raise KindError(f"{path}: cannot read the file ({e.strerror or e})") from None
        if len(data) > MAX_PROFILE_BYTES:
            raise KindError(f"{written}: more than {MAX_PROFILE_BYTES:,} bytes is too large for a profile file")
        return cls(written, path, hashlib.sha256(data).hexdigest())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ProfileRef):
            return NotImplemented
        return self.digest == other.digest

    def __hash__(self) -> int:
        return hash(self.digest)

    def __str__(self) -> str:
        return self.written

    def __fspath__(self) -> str:
        return str(self.path)


class ProfileFile(Kind):
    """A TOML profile file: a path, read relative to the query file's folder when
    the question comes from one. Identified by its content (:class:`ProfileRef`)."""

    metavar = "FILE.toml"

    def convert(self, value: Any, done: Mapping[str, Any]) -> ProfileRef:
        if isinstance(value, ProfileRef):
            return value
        written = _file_name(value)
        return _read_profile(written, written)

    def key(self, value: ProfileRef) -> Any:
        return ("file", value.digest)

    def plain(self, value: ProfileRef) -> Any:
        return value.written

    def with_base(self, value: Any, base: Path) -> Any:
        if isinstance(value, (str, Path)):
            written = _file_name(value)
            relative = not written.startswith("~") and not Path(written).is_absolute()
            return _read_profile(written, base / written if relative else written)
        return value


def _file_name(value: Any) -> str:
    if isinstance(value, Path):
        value = str(value)
    if not isinstance(value, str) or not value.strip():
        raise KindError(f"{_quoted(value)} is not a file name (a TOML file's path was expected)")
    return value


def _read_profile(written: str, path: str | Path) -> ProfileRef:
    """The file's :class:`ProfileRef`: O(its size) to hash it. A NUL byte in the name,
    ``~`` with no home, a missing file, a folder, a device or a pipe is refused by name
    (:func:`~exactodds.tomlfiles.file_path`)."""
    from ..tomlfiles import file_path

    try:
        return ProfileRef.read(written, file_path(path, "a TOML file"))
    except InputError as e:
        raise KindError(str(e)) from None


class FileWithParts(ProfileFile):
    """A TOML file that names other files (a scenario naming its units): its key is
    the content of the file *and* of every ``.toml`` file it names (relative to its
    folder), so editing a unit file makes the scenario a new question too."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> ProfileRef:
        return _with_parts(super().convert(value, done))

    def with_base(self, value: Any, base: Path) -> Any:
        ref = super().with_base(value, base)
        return _with_parts(ref) if isinstance(ref, ProfileRef) else ref


def _with_parts(ref: ProfileRef) -> ProfileRef:
    """``ref`` with its digest extended by the files it names. O(the files' sizes)."""
    import hashlib
    import tomllib

    try:
        doc = tomllib.loads(Path(ref.path).read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError, RecursionError):
        return ref  # the loader refuses the file later, naming the problem
    digest = hashlib.sha256(ref.digest.encode())
    for name in sorted(set(_toml_names(doc))):
        part = Path(ref.path).parent / Path(name).expanduser()
        try:
            digest.update(name.encode() + b"\0" + part.read_bytes()[:MAX_PROFILE_BYTES])
        except (OSError, ValueError):
            digest.update(name.encode() + b"\0(unreadable)")
    return ProfileRef(ref.written, ref.path, digest.hexdigest())


def _toml_names(value: Any, depth: int = 0) -> list[str]:
    """Every text value ending in ``.toml`` in a parsed TOML document."""
    if depth > 64:
        return []
    if isinstance(value, str):
        return [value] if value.endswith(".toml") else []
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, list):
        return [n for v in value for n in _toml_names(v, depth + 1)]
    return []


class DiceExpr(Kind):
    """A random count written as dice: ``D3``, ``D6``, ``2D6``, ``D6+1``
    (:class:`~exactodds.rules.random_count.DiceCount`)."""

    metavar = "DICE"

    def __init__(self, what: str = "a dice expression") -> None:
        self.what = what

    def convert(self, value: Any, done: Mapping[str, Any]) -> Any:
        from ..rules.random_count import DiceCount
        try:
            return DiceCount.parse(value, self.what)
        except ExactOddsError as e:
            raise KindError(str(e)) from None

    def key(self, value: Any) -> Any:
        return (value.dice, value.sides, value.plus)

    def plain(self, value: Any) -> Any:
        return str(value)


class SaveOrNone(SaveRoll):
    """A save value ``2+`` to ``6+``, or the word ``none``."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> Any:  # int, or "none"
        if isinstance(value, str) and value.strip().lower() == "none":
            return "none"
        return super().convert(value, done)
