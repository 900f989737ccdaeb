"""A roster's selections as plain data: names, numbers, profiles, rules, points.

The roster schema fixes each element's children (a selection holds ``rules``,
``profiles``, ``selections``, ``costs``, ``categories``); a roster's forces
may hold child forces. A selection's ``type`` attribute is not used: real
exports mark whole units and models as ``upgrade``, so the readers find
models by their profiles. A selection's ``number`` is already multiplied down
the tree (a weapon under nine models says ``number="9"``), and its cost covers
itself only, its ``number`` included: a unit's points are the sum over its
selection and every selection below it.

Cost: one pass over the XML tree, O(elements).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from xml.etree import ElementTree

from ...core import InputError
from .source import NAMESPACE

_NS = f"{{{NAMESPACE}}}"
POINTS_COST_NAMES = ("pts", "points", "point(s)", "point")
"""Cost types read as points (BattleScribe's 40K data: ``pts``; Horus Heresy 3rd: ``Point(s)``)."""

_NUMBER = re.compile(r"^\s*-?\d+(\.\d+)?\s*$")


@dataclass(frozen=True)
class Profile:
    """One profile of a selection: its name, its type's name and characteristics (name -> text)."""

    name: str
    type_name: str
    characteristics: dict[str, str]


@dataclass(frozen=True)
class Rule:
    """One rule of a selection: its name and description."""

    name: str
    description: str


@dataclass
class Selection:
    """One selection of a roster, with the selections below it."""

    name: str
    number: int
    profiles: list[Profile] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    children: list[Selection] = field(default_factory=list)
    points: Fraction = Fraction(0)

    def walk(self) -> list[Selection]:
        """This selection and every one below it, depth first. O(subtree)."""
        out = [self]
        for c in self.children:
            out.extend(c.walk())
        return out

    def total_points(self) -> Fraction:
        """The points of this selection and every selection below it."""
        return sum((s.points for s in self.walk()), Fraction(0))


@dataclass(frozen=True)
class Roster:
    """A roster: its name, game system's name and the top-level selections of every force."""

    name: str
    system_name: str
    system_id: str
    units: list[Selection]


def _children(element: ElementTree.Element, list_tag: str, tag: str) -> list[ElementTree.Element]:
    holder = element.find(_NS + list_tag)
    return [] if holder is None else holder.findall(_NS + tag)


def _text(element: ElementTree.Element) -> str:
    return " ".join((element.text or "").split())


def _profile(element: ElementTree.Element, path: Path) -> Profile:
    """A profile; BattleScribe 1.x writes its type as ``type`` and each value as a ``value``
    attribute, BattleScribe 2 and New Recruit as ``typeName`` and the element's text."""
    chars: dict[str, str] = {}
    for c in _children(element, "characteristics", "characteristic"):
        value = c.get("value")
        chars[c.get("name", "")] = _text(c) if value is None else " ".join(value.split())
    return Profile(element.get("name", ""), element.get("typeName") or element.get("type") or "", chars)


def _rule(element: ElementTree.Element) -> Rule:
    description = element.find(_NS + "description")
    return Rule(element.get("name", ""), "" if description is None else _text(description))


def _points(element: ElementTree.Element, path: Path, where: str) -> Fraction:
    """The selection's own points: its ``costs`` of a points type, or (BattleScribe 1.x,
    which writes no costs) its ``points`` attribute."""
    total = Fraction(0)
    old = element.get("points")
    if element.find(_NS + "costs") is None and old is not None:
        if not _NUMBER.match(old):
            raise InputError(f"{path}: {where}: points = {old!r:.40} is not a number")
        return Fraction(old.strip())
    for c in _children(element, "costs", "cost"):
        if c.get("name", "").strip().lower() not in POINTS_COST_NAMES:
            continue
        value = c.get("value", "0")
        if not _NUMBER.match(value):
            raise InputError(f"{path}: {where}: cost {c.get('name')!r} = {value!r:.40} is not a number")
        total += Fraction(value.strip())
    return total


def _selection(element: ElementTree.Element, path: Path, where: str) -> Selection:
    name = element.get("customName") or element.get("name")
    if not name:
        raise InputError(f"{path}: {where}: a selection without a name")
    number = element.get("number", "1")
    if not number.strip().isdigit():
        raise InputError(f"{path}: {where} {name!r}: number = {number!r:.20} is not a whole number")
    here = f"{where} {name!r}"
    return Selection(
        name=name, number=int(number),
        profiles=[_profile(p, path) for p in _children(element, "profiles", "profile")],
        rules=[_rule(r) for r in _children(element, "rules", "rule")],
        children=[_selection(s, path, here) for s in _children(element, "selections", "selection")],
        points=_points(element, path, here))


def _forces(element: ElementTree.Element) -> list[ElementTree.Element]:
    """Every force below ``element``, child forces included, in document order."""
    out = []
    for f in _children(element, "forces", "force"):
        out.append(f)
        out.extend(_forces(f))
    return out


def roster_tree(root: ElementTree.Element, path: Path) -> Roster:
    """The roster's top-level selections (the units, and anything else chosen at
    the top of a force) as :class:`Selection` trees."""
    units: list[Selection] = []
    for force in _forces(root):
        units.extend(_selection(s, path, "selection") for s in _children(force, "selections", "selection"))
        # BattleScribe 1.x files a force's selections under its categories (HQ, Troops, ...)
        for category in _children(force, "categories", "category"):
            units.extend(_selection(s, path, "selection") for s in _children(category, "selections", "selection"))
    return Roster(root.get("name", path.stem), root.get("gameSystemName", ""), root.get("gameSystemId", ""), units)
