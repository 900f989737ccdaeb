"""Hell Dorado: shooting into a melee, with the parity rule ("commettre un impair").

From the French "Lesrens" community rules of Hell Dorado; docs/hell_dorado.md
gives each rule in English beside the original sentence. Each rule step is a
function named after it (in :mod:`.difficulty` and :mod:`.steps`), with the original sentence quoted
beside the code that implements it:

1. :func:`attack_difficulty` - the difficulty of the attack roll;
2. :func:`parity_check_applies` - whether an impair is possible at all;
3. :func:`attack_roll` - the dice, their rerolls, the hits and the parity
   count, as the exact distribution of :class:`RollSummary`;
4. :func:`recipient` - who receives the hits (:class:`HitOn`);
5. :func:`damage_step` - a caller's damage kernel applied per recipient.

A shot's every input is one typed :class:`Shot` (:mod:`.shot`), fields
declared once with their kind, bounds, default and help.
:func:`shot_pipeline` chains the steps (stages ``"attack roll"``,
``"recipient"`` and optionally ``"damage"``) and :func:`shoot` runs it and
adds the figures a player asks for (:class:`ShotResult`). Raw-roll versions
of the steps (:func:`count_hits`, :func:`count_parity`,
:func:`commits_impair`, :func:`resolve_roll`) exist for worked examples and
tests; the main path never enumerates the 6^N rolls: it uses the joint
counts of two face attributes (hit, even) of
:mod:`exactodds.dice.attributes` and the reroll budgets of
:mod:`exactodds.dice.budget`.

Choices where the rules are silent (all documented in docs/hell_dorado.md):

- DEF values and the range difficulty are whole numbers from 1 to 10; a
  difficulty of 7 or more means no die can hit; a difficulty below 2 is an
  input error unless ``allow_low_difficulty`` (every die then hits).
- Behind a melee, "la même méthode" is read as: the candidates (fighters on
  the line of fire and those they engage) take the place of the fighters
  engaged by the target, in the difficulty too (``candidates_in_difficulty``
  turns that off). A target behind a melee that itself engages fighters
  combines both rules: on an impair the hits go to one of the candidates or
  of the fighters it engages, uniformly; the engaged fighters' DEF always
  counts in the difficulty (the difficulty rule names them), the
  candidates' as above.
- Elevation ("plus hauts que les combattants qui se trouvent entre eux")
  removes the parity check; the difficulty is computed as without it.
- Fighters engaged by the target are the shooter's friends by default ("donc
  un des siens"); behind a melee each candidate says whether it is a friend
  (default: friend).
- Rerolls: none, every failed die, or up to k failed dice with a named
  policy: ``odd-first`` (failed odd dice first, then failed even ones, up to
  k in all), ``even-first`` (the reverse), ``optimal`` (exact search).
"""

from ...dice.budget import BudgetState
from .shooting import RerollDecision, ShotResult, reroll_decisions, resolve_roll, shoot, shot_pipeline
from .difficulty import attack_difficulty, parity_check_applies
from .shot import (
    DEF,
    DEF_MAX,
    DEF_MIN,
    NONE,
    OBJECTIVES,
    POLICIES,
    REROLL_RULES,
    SIDES,
    TARGET,
    Fighter,
    FighterDef,
    Rerolls,
    Shot,
    make_shot,
)
from .steps import (
    DamageKernel,
    DamageOn,
    HitOn,
    RollSummary,
    attack_roll,
    commits_impair,
    count_hits,
    count_parity,
    damage_step,
    face_classes,
    hit_target,
    optimal_reroll_policy,
    parity_threshold,
    recipient,
    reroll_policy,
)

__all__ = [
    "DEF", "DEF_MAX", "DEF_MIN", "NONE", "OBJECTIVES", "POLICIES", "REROLL_RULES", "SIDES", "TARGET",
    "BudgetState", "DamageKernel", "DamageOn", "Fighter", "FighterDef", "HitOn", "RerollDecision", "Rerolls",
    "RollSummary", "Shot", "ShotResult", "attack_difficulty", "attack_roll", "commits_impair", "count_hits",
    "count_parity", "damage_step", "face_classes", "hit_target", "make_shot", "optimal_reroll_policy",
    "parity_check_applies", "parity_threshold", "recipient", "reroll_decisions", "reroll_policy", "resolve_roll",
    "shoot", "shot_pipeline",
]
