"""Rule systems, one package or module each, built on the core and dice layers.

- :mod:`exactodds.rules.common`: what 40K 6th edition and Horus Heresy 3rd
  edition truly share (the S vs T wound chart, best save, 2D6 tests).
- :mod:`exactodds.rules.hell_dorado`, :mod:`exactodds.rules.wh40k6`,
  :mod:`exactodds.rules.hh3`: the three rule sets.
"""
