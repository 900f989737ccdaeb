"""A roster unit's model lines: which models it holds, how many, and what each carries.

Both games' readers share this. Models are found by their profiles, never by
a selection's ``type``:

- a **model selection** is a selection below the unit that carries a model
  profile, or is named as one of the unit's own model profiles (a unit's
  profiles may sit on the unit selection, its models' weapons below);
- a unit with no model selection is one line: its own model profile, times
  its ``number``;
- a **weapon selection** carries weapon profiles. Under a model selection of N
  models, a weapon selection of ``number`` n >= N is carried by every model;
  one of n < N by n of them, who become a line of their own ("Space Marine
  with plasma gun"); weapons chosen on the unit itself (a special-weapon
  option) split the largest line the same way.

Cost: O(selections x model selections).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from ...core import InputError
from .tree import Profile, Rule, Selection


@dataclass
class Line:
    """One model line: a name, a count, its model profile, the weapon selections
    each of its models carries, and the rules and other profiles that apply to it."""

    name: str
    count: int
    profile: Profile
    weapons: list[Selection] = field(default_factory=list)
    rules: list[Rule] = field(default_factory=list)
    others: list[Profile] = field(default_factory=list)


def _is_weapon(s: Selection, weapon_types: tuple[str, ...]) -> bool:
    return any(p.type_name in weapon_types for p in s.profiles)


def _model_profile(s: Selection, model_types: tuple[str, ...]) -> Profile | None:
    return next((p for p in s.profiles if p.type_name in model_types), None)


def _split(unit: Selection, model_types: tuple[str, ...], weapon_types: tuple[str, ...]
           ) -> tuple[list[Selection], list[Selection], list[Selection]]:
    """(model selections, weapon selections on the unit outside any model, the
    unit's other selections), depth first."""
    named = {p.name.casefold() for p in unit.profiles if p.type_name in model_types}
    models: list[Selection] = []
    loose: list[Selection] = []
    other: list[Selection] = []

    def visit(s: Selection) -> None:
        if _model_profile(s, model_types) is not None or s.name.casefold() in named:
            if s.number > 0:
                models.append(s)
            return
        if _is_weapon(s, weapon_types):
            loose.append(s)
        else:
            other.append(s)
        for c in s.children:
            visit(c)

    for c in unit.children:
        visit(c)
    return models, loose, other


def _profile_for(s: Selection, unit: Selection, model_types: tuple[str, ...], where: str) -> Profile:
    own = _model_profile(s, model_types)
    if own is not None:
        return own
    for p in unit.profiles:
        if p.type_name in model_types and p.name.casefold() == s.name.casefold():
            return p
    raise InputError(f"{where}: no model profile ({', '.join(model_types)}) for {s.name!r}")


def _carve(name: str, count: int, profile: Profile, carried: list[Selection], extra: list[Selection]
           ) -> list[Line]:
    """Lines of ``count`` models: weapons carried by all of them, and the
    weapons of fewer models each on a line of its own."""
    common = [w for w in carried if w.number >= count]
    partial = [w for w in carried if w.number < count] + extra
    lines = []
    left = count
    for w in partial:
        n = min(w.number, left)
        if n <= 0:
            continue
        lines.append(Line(f"{name} with {w.name.casefold()}", n, profile, [w, *common]))
        left -= n
    if left > 0:
        lines.insert(0, Line(name, left, profile, list(common)))
    return lines


def _others(selections: list[Selection], model_types: tuple[str, ...], weapon_types: tuple[str, ...]
            ) -> list[Profile]:
    """The profiles of ``selections`` that are neither models nor weapons (wargear...)."""
    return [p for s in selections for p in s.profiles if p.type_name not in (*model_types, *weapon_types)]


def _unit_alone(unit: Selection, loose: list[Selection], model_types: tuple[str, ...], where: str) -> list[Line]:
    """The lines of a unit with no model selection: its own model profile, times its number."""
    profiles = [p for p in unit.profiles if p.type_name in model_types]
    if len(profiles) != 1:
        raise InputError(f"{where}: {len(profiles)} model profiles ({', '.join(model_types)}) on the unit and "
                         "no model selection below it; expected one")
    return _carve(profiles[0].name, max(unit.number, 1), profiles[0], loose, [])


def _leader(unit: Selection, models: list[Selection], model_types: tuple[str, ...]) -> Profile | None:
    """The unit's own model profile when it is a model besides the model selections
    below it (BattleScribe 1.x puts a Necron Overlord's profile on the unit and his
    Royal Court below): one model profile on the unit, named like no model below."""
    own = [p for p in unit.profiles if p.type_name in model_types]
    below = {m.name.casefold() for m in models}
    below |= {p.name.casefold() for m in models for s in m.walk() for p in s.profiles if p.type_name in model_types}
    if len(own) != 1 or own[0].name.casefold() in below:
        return None
    return own[0]


def model_lines(unit: Selection, model_types: tuple[str, ...], weapon_types: tuple[str, ...],
                where: str) -> tuple[list[Line], list[Selection]]:
    """The unit's model lines, and the weapon selections no line could take
    (more special weapons than models)."""
    models, loose, other = _split(unit, model_types, weapon_types)
    unit_rules = list(unit.rules) + [r for s in other for r in s.rules]
    unit_others = _others([unit, *other], model_types, weapon_types)
    if not models:
        lines = _unit_alone(unit, loose, model_types, where)
        for line in lines:
            line.rules, line.others = list(unit_rules), list(unit_others)
        return lines, []
    out: list[Line] = []
    leader = _leader(unit, models, model_types)
    if leader is not None:  # a character whose retinue sits below it: its own line, with its own weapons
        out = _carve(leader.name, max(unit.number, 1), leader, loose, [])
        for line in out:
            line.rules, line.others = list(unit_rules), list(unit_others)
        loose = []
    biggest = max(models, key=lambda m: m.number)
    for m in models:
        below = m.walk()
        carried = [s for s in below if _is_weapon(s, weapon_types)]
        lines = _carve(m.name, m.number, _profile_for(m, unit, model_types, where), carried,
                       loose if m is biggest else [])
        for line in lines:
            line.rules = unit_rules + [r for s in below for r in s.rules]
            line.others = unit_others + _others(below, model_types, weapon_types)
        out.extend(lines)
    placed = {id(w) for line in out for w in line.weapons}
    return out, [w for w in loose if id(w) not in placed]
