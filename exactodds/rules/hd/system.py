"""The ``hd`` rule system (Hell Dorado): its command and its scenario steps.

A Hell Dorado scenario is shots in order into one melee (a
:class:`~.volley.Volley`), run by the volley's own pipeline rather than on
worlds of unit states: the system has no unit files and no start state.
"""

from __future__ import annotations

from ..hell_dorado import Shot
from ..systems import RuleSystem, StepKind, register
from .volley import SYSTEM as NAME

SYSTEM = register(RuleSystem(
    NAME, "Hell Dorado", commands="hell_dorado", profiles="hd_scenario",
    steps={"shot": StepKind("shot", Shot, "one shooter's dice into the melee (a Volley runs the shots)")},
))
