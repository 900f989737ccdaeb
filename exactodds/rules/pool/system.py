"""The ``pool`` rule system: one command, no unit files, no scenarios."""

from __future__ import annotations

from ..systems import RuleSystem, register

SYSTEM = register(RuleSystem("pool", "A pool of dice", commands="pool"))
