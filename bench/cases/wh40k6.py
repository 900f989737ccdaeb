"""(d) a full 40K 6th-edition shooting attack, down to casualties.

40 shots at BS 4 (hit on 3+), Strength 4 against Toughness 4 (wound on
4+), armour save 4+ (no AP), on a unit of 10 models with 2 wounds each:
hits -> wounds -> allocation to the closest model, saves, removal ->
casualties. exactodds runs the rule module's pipeline
(``exactodds.rules.wh40k6.shooting.shoot``), which keeps every stage; the
peers chain n-fold sums (icepool's ``die @ die``, dyce's ``expand``) and,
the models being all alike, read casualties as min(10, unsaved // 2).
"""

from __future__ import annotations

from typing import Any

from . import Case, dist_answer, need, under

ATTACK = {"shots": 40, "bs": 4, "strength": 4, "toughness": 4, "save": 4, "models": 10, "wounds_each": 2}


def attack_casualties(shots: int, bs: int, strength: int, toughness: int, save: int, models: int,
                      wounds_each: int) -> Any:
    """exactodds: the casualties Dist of the whole attack (the pipeline's final stage)."""
    shoot = need("exactodds.rules.wh40k6.shooting", "shoot")
    Shooting, Model, Unit = need("exactodds.rules.wh40k6.units", "Shooting", "Model", "Unit")
    unit = Unit((Model(toughness=toughness, wounds=wounds_each, count=models, save=save),))
    return shoot(Shooting(shots=shots, strength=strength, bs=bs), unit).final


# The same attack for the peers, as target numbers: BS 4 hits on 3+ (the rules
# to-hit table); S 4 - T 4 = 0 wounds on 4+ (S vs T chart).
PEER = {"shots": 40, "hit": 3, "wound": 4, "save": 4, "models": 10, "wounds_each": 2}


def cases(quick: bool = False) -> list[Case]:
    """Case (d)."""
    return [Case("d.attack40k", "d", "40K 6th: 40 shots BS4 S4 vs 10 x T4 W2 Sv4+ -> casualties",
                 compute=lambda: attack_casualties(**ATTACK), canon=dist_answer,
                 peer=("attack", PEER), targets=[under(0.020)])]
