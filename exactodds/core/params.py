"""Typed parameters: a question's inputs as a frozen dataclass.

Every command's parameters are a subclass of :class:`Params`, one field per
parameter, each declared with :func:`param`: its :class:`~exactodds.core.kinds.Kind`
(what values it takes), its help text, its default and how interfaces show
it (positional or not, metavar). The class does all validation itself:

- each field's value is converted by its kind when the object is built,
  whatever the spelling (``"4+"``, ``4`` or a :class:`~exactodds.dice.Target`);
- :meth:`Params.check` then refuses bad combinations, in parameter names.

Messages name parameters through :class:`ParamError`, whose text holds
``{name}`` placeholders: Python and TOML show ``reroll_up_to``, the command
line shows ``--reroll-up-to``. Two parameter objects are equal (the
dataclass's field-by-field equality) when their converted values are (a
profile file by its content, not its path); their :meth:`Params.key` is a
tuple of plain values, cheap to hash.

Cost: building a parameter object is O(fields) conversions (reading a
profile file is O(its size), once, for its content hash).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, fields
from pathlib import Path
from typing import Any, TypeVar

from .errors import InputError
from .kinds import Kind, KindError

P = TypeVar("P", bound="Params")


class ParamError(InputError):
    """A message about parameters, written with ``{name}`` placeholders.

    ``str(error)`` spells the names as Python and TOML do (``reroll_up_to``);
    :meth:`spelled` lets an interface use its own vocabulary (the command
    line: ``--reroll-up-to``). Literal braces in interpolated values must be
    doubled (:func:`literal`).
    """

    def __init__(self, template: str) -> None:
        self.template = template
        super().__init__(self.spelled(lambda name: name))

    def spelled(self, spell: Callable[[str], str]) -> str:
        """The message with each ``{name}`` written as ``spell(name)``."""
        return self.template.format_map(_Spelling(spell))


class _Spelling(dict[str, str]):
    def __init__(self, spell: Callable[[str], str]) -> None:
        super().__init__()
        self.spell = spell

    def __missing__(self, key: str) -> str:
        return self.spell(key)


class FieldError(ParamError):
    """One parameter's value is not allowed: ``name`` and the ``reason``."""

    def __init__(self, name: str, reason: str) -> None:
        self.name, self.reason = name, reason
        super().__init__(f"{{{name}}}: {literal(reason)}")


def literal(value: Any) -> str:
    """``value`` as text safe inside a :class:`ParamError` template (braces doubled)."""
    return str(value).replace("{", "{{").replace("}", "}}")


@dataclass(frozen=True)
class Spec:
    """How one parameter is described: its kind, help text and display."""

    kind: Kind
    help: str
    positional: bool = False
    metavar: str | None = None


def param(kind: Kind, help: str, default: Any = MISSING, *, positional: bool = False,
          metavar: str | None = None, keyword: bool = True) -> Any:
    """A field of a :class:`Params` class (no ``default``: the parameter is required).
    ``keyword=False``: Python may also pass it by position (the class's first fields)."""
    metadata = {"spec": Spec(kind, help, positional, metavar)}
    if keyword:
        return dataclasses.field(default=default, metadata=metadata)
    return dataclasses.field(default=default, metadata=metadata, kw_only=False)


@dataclass(frozen=True, kw_only=True)
class Params:
    """Base class of every command's parameters (see the module docstring)."""

    def __post_init__(self) -> None:
        # O(fields): the declared fields are read once per class (specs), not per object
        done: dict[str, Any] = {}
        for name, (spec, default) in self.specs().items():
            value = getattr(self, name)
            if value is None and default is None:  # an optional parameter left out
                done[name] = None
                continue
            try:
                value = spec.kind.convert(value, done)
            except KindError as e:
                raise FieldError(name, str(e)) from None
            object.__setattr__(self, name, value)
            done[name] = value
        self.check()

    def check(self) -> None:
        """Refuse bad combinations of values (a :class:`ParamError`); override."""

    def part(self, cls: type[P]) -> P:
        """The values of ``cls``'s fields, as a ``cls``: the rule input a composed
        parameter class holds (``cls`` one of its bases). O(fields) conversions."""
        return cls(**{f.name: getattr(self, f.name) for f in fields(cls) if f.init})

    # ------------------------------------------------------------- describe
    @classmethod
    def specs(cls) -> dict[str, tuple[Spec, Any]]:
        """``{name: (spec, default)}`` in declaration order (``MISSING``: required)."""
        cached = cls.__dict__.get("_specs")
        if cached is None:
            cached = {f.name: (f.metadata["spec"], f.default) for f in fields(cls) if "spec" in f.metadata}
            cls._specs = cached  # type: ignore[attr-defined]
        return cached

    @classmethod
    def from_mapping(cls: type[P], values: Mapping[str, Any], where: str = "",
                     base: Path | None = None, title: str = "the command") -> P:
        """Build from a mapping of parameter names (a query file's ``[params]``, keyword
        arguments), refusing unknown and missing names; relative profile paths are
        read from ``base``. ``where`` prefixes messages (``"q.toml: "``), which call the
        command ``title``."""
        specs = cls.specs()
        unknown = sorted(set(values) - set(specs))
        if unknown:
            raise InputError(f"{where}params: unknown key {unknown[0]!r}; allowed keys are "
                             f"{', '.join(sorted(specs)) or '(none)'}")
        kwargs: dict[str, Any] = {}
        for name, (spec, default) in specs.items():
            if name in values:
                value = values[name]
                if base is not None:
                    try:
                        value = spec.kind.with_base(value, base)
                    except KindError as e:
                        raise InputError(f"{where}params.{name}: {e}") from None
                kwargs[name] = value
            elif default is MISSING:
                raise InputError(f"{where}params: {name!r} is required by {title} and missing")
        try:
            return cls(**kwargs)
        except FieldError as e:
            if not where:
                raise
            raise InputError(f"{where}params.{e.name}: {e.reason}") from None
        except ParamError as e:
            raise ParamError(f"{literal(where)}{e.template}") from None

    def key(self) -> tuple[Any, ...]:
        """What makes two questions the same: each value's canonical form."""
        specs = self.specs()
        return tuple(None if (v := getattr(self, name)) is None else spec.kind.key(v)
                     for name, (spec, _) in specs.items())

    def plain(self, explicit_only: bool = True) -> dict[str, Any]:
        """The values as plain data (numbers, text, booleans, lists), as a query file
        writes them; ``explicit_only``: only those that differ from the default."""
        out = {}
        for name, (spec, default) in self.specs().items():
            value = getattr(self, name)
            if explicit_only and default is not MISSING and (
                    value == default if default is None else spec.kind.key(value) == spec.kind.key(
                        spec.kind.convert(default, {}))):
                continue
            out[name] = None if value is None else spec.kind.plain(value)
        return out
