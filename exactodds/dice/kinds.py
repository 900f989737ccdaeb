"""Kinds of parameter values on dice: target numbers, faces and save rolls
(see :mod:`exactodds.core.kinds` for what a kind is)."""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from ..core import ExactOddsError
from ..core.kinds import Kind, KindError, quoted
from .die import Target


class TargetNumber(Kind):
    """A target number on a die: ``X+``, ``auto`` or ``fail`` (the die's sides
    come from the ``sides`` parameter when the command has one, else 6)."""

    metavar = "X+"


    def convert(self, value: Any, done: Mapping[str, Any]) -> Target:
        if isinstance(value, Target):
            return value
        if isinstance(value, bool) or not isinstance(value, (str, int)):
            raise KindError(f"{quoted(value)} is not a target number: use X+ (e.g. 4+), auto or fail")
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
                raise KindError(f"{quoted(shown)} is not a list of faces: use whole numbers 1 to {sides}, "
                                "separated by commas (e.g. 1 or 1,2)")
            faces.append(int(text))
        return tuple(sorted(set(faces)))

    def plain(self, value: tuple[int, ...]) -> Any:
        return list(value)


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
            raise KindError(f"{quoted(value)} is not {self.what}")
        return int(text)



class SaveOrNone(SaveRoll):
    """A save value ``2+`` to ``6+``, or the word ``none``."""

    def convert(self, value: Any, done: Mapping[str, Any]) -> Any:  # int, or "none"
        if isinstance(value, str) and value.strip().lower() == "none":
            return "none"
        return super().convert(value, done)
