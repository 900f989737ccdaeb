"""Rule systems, one package or module each, built on the core and dice layers.

- :mod:`exactodds.rules.systems`: the registry of rule systems, one
  ``RuleSystem`` per system, registered by the ``system`` module of its package.
- :mod:`exactodds.rules.common`: what 40K 6th edition and Horus Heresy 3rd
  edition truly share (the S vs T wound chart, best save, 2D6 tests), and
  :mod:`exactodds.rules.shared`: rule pieces both read alike (the armour
  penetration die).
- :mod:`exactodds.rules.hell_dorado` (with :mod:`exactodds.rules.hd`),
  :mod:`exactodds.rules.wh40k6`, :mod:`exactodds.rules.hh3`: the three rule sets.
"""
