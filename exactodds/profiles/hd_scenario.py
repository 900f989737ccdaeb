"""What a Hell Dorado scenario file holds: one melee and the shots into it, in
order (read by :func:`load_volley`, a :class:`~exactodds.rules.hd.volley.Volley`).
Registers this reader for the ``hd`` system."""

from __future__ import annotations

from pathlib import Path

from ..core import InputError
from ..rules.hd.system import SYSTEM
from ..rules.hd.volley import Volley
from ..rules.hell_dorado import make_shot
from ..rules.hell_dorado.shot import MAX_FIGHTERS
from ..rules.scenario import MAX_TURNS
from ..tomlfiles import between, no_unknown_keys, optional, require
from .systems import ScenarioFiles, StepReader, register

HD_KEYS = {"system", "turns", "melee", "steps", "description"}
MELEE_KEYS = {"target", "target_def", "engaged", "behind", "wounds"}
FIGHTER_KEYS = {"name", "def", "enemy"}
SHOT_KEYS = {"kind", "name", "dice", "range_difficulty", "reroll", "repeat", "elevated"}


def load_volley(doc: dict, path: Path, turns: int | None = None) -> Volley:
    """A Hell Dorado scenario: shots into one melee (see the module docstring of
    :mod:`exactodds.rules.hd.volley`)::

        system = "hd"
        turns = 1                        # optional
        [melee]
        target = "ogre"                  # the target's name
        target_def = 4
        behind = false                   # optional: the target stands behind the melee
        wounds = { ogre = 3 }            # optional: hits that take a fighter out
        [[melee.engaged]]                # the fighters the target engages (or candidates)
        name = "knight"
        def = 3
        enemy = false                    # optional: not on the shooters' side
        [[steps]]
        kind = "shot"
        name = "crossbow"                # optional
        dice = 3
        range_difficulty = 4             # optional
        reroll = "failed"                # optional: none or failed
        repeat = 2                       # optional: several shots of this shooter
        elevated = false                 # optional
    """
    no_unknown_keys(doc, HD_KEYS, path)
    n_turns = turns or optional(doc, "turns", int, path, default=1, check=between(1, MAX_TURNS))
    melee = require(doc, "melee", dict, path)
    no_unknown_keys(melee, MELEE_KEYS, path, "melee")
    fighters = optional(melee, "engaged", list, path, "melee", default=[])
    if len(fighters) > MAX_FIGHTERS:  # refused from the count, before any fighter is read
        raise InputError(f"{path}: melee.engaged: {len(fighters):,} fighters is too many: at most {MAX_FIGHTERS}")
    names, defs, enemies = [], [], []
    for i, f in enumerate(fighters, 1):
        where = f"melee.engaged[{i}]"
        if not isinstance(f, dict):
            raise InputError(f"{path}: {where} must be a table ([[melee.engaged]])")
        no_unknown_keys(f, FIGHTER_KEYS, path, where)
        names.append(require(f, "name", str, path, where))
        defs.append(require(f, "def", int, path, where, check=between(1, 10)))
        if optional(f, "enemy", bool, path, where, default=False):
            enemies.append(i)
    target = require(melee, "target", str, path, "melee")
    target_def = require(melee, "target_def", int, path, "melee", check=between(1, 10))
    behind = optional(melee, "behind", bool, path, "melee", default=False)
    wounds = optional(melee, "wounds", dict, path, "melee", default={})
    steps = require(doc, "steps", list, path)
    shots = []
    for i, st in enumerate(steps, 1):
        where = f"steps[{i}]"
        if not isinstance(st, dict):
            raise InputError(f"{path}: {where} must be a table ([[steps]])")
        kind = require(st, "kind", str, path, where)
        if kind != "shot":
            raise InputError(f"{path}: {where}.kind = {kind!r:.40}: not a step of hd scenarios; allowed kinds are shot")
        no_unknown_keys(st, SHOT_KEYS, path, where)
        reroll = optional(st, "reroll", str, path, where, default="none")
        if reroll not in ("none", "failed"):
            raise InputError(f"{path}: {where}.reroll = {reroll!r:.40}: expected none or failed")
        name = optional(st, "name", str, path, where, default=f"shot {i}")
        repeat = optional(st, "repeat", int, path, where, default=1, check=between(1, 20))
        try:
            shot = make_shot(require(st, "dice", int, path, where, check=between(1, 50)), target_def,
                             [] if behind else defs, optional(st, "range_difficulty", int, path, where),
                             names=[target, *names], enemies=enemies, behind=behind,
                             candidate_defs=defs if behind else [], reroll=reroll,
                             elevated=optional(st, "elevated", bool, path, where, default=False))
        except InputError as e:
            raise InputError(f"{path}: {where}: {e}") from None
        shots += [(name if repeat == 1 else f"{name} ({k})", shot) for k in range(1, repeat + 1)]
    try:
        return Volley(shots, n_turns, wounds)
    except InputError as e:
        raise InputError(f"{path}: {e}") from None


FILES = register(ScenarioFiles(
    SYSTEM.name,
    steps={"shot": StepReader(frozenset(SHOT_KEYS - {"kind", "name"}))},
    read_file=load_volley,
))
