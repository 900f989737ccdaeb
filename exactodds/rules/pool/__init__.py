"""The ``pool`` system: N dice against one target number.

Its rules are the dice layer's (:mod:`exactodds.dice.pool`,
:mod:`exactodds.dice.reroll`); this package only declares the system
(:mod:`.system`).
"""
