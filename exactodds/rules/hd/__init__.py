"""Hell Dorado as a rule system: several shots into one melee (:mod:`.volley`)
and the system's declaration (:mod:`.system`).

The rules of one shot (the parity rule, who receives the hits) are in
:mod:`exactodds.rules.hell_dorado`.
"""
