"""Typed parameters, as the commands layer names them for the interfaces.

The machinery is declared once, below the rules (:mod:`exactodds.core.params`),
so that each rule step's input is a :class:`Params` class whose fields carry
their kind, help and default; a command's parameter class adds its
presentation fields to the rule inputs it composes.
"""

from __future__ import annotations

from ..core.params import FieldError, ParamError, Params, Spec, literal, param

__all__ = ["FieldError", "ParamError", "Params", "Spec", "literal", "param"]
