"""Hell Dorado, the first two rule steps of a shot: the difficulty of the attack
roll, and whether the parity count can send the hits elsewhere. Each is a function
with the rule's sentence beside it (the other steps: :mod:`.steps`)."""

from __future__ import annotations

from collections.abc import Sequence


def attack_difficulty(target_def: int, engaged_defs: Sequence[int] = (), range_difficulty: int | None = None) -> int:
    """The difficulty of the attack roll.

    « La difficulté du jet d'attaque est la plus haute valeur entre la DEF
    de la cible, la DEF de tous les combattants engagés par la cible et la
    difficulté imposée par la distance. »
    """
    values = [target_def, *engaged_defs] + ([] if range_difficulty is None else [range_difficulty])
    return max(values)


def parity_check_applies(candidates: int, elevated: bool = False) -> bool:
    """Whether the parity count decides who is hit.

    « Si la cible du tir n'engage aucun adversaire (p. 44), alors il n'y a
    aucun risque d'impair, et le tir se déroule normalement. »
    « si le tireur et/ou sa cible sont plus hauts que les combattants qui se
    trouvent entre eux, la ligne de vue n'est pas bloquée et le tir se
    déroule normalement. »
    """
    return candidates > 0 and not elevated
