"""Rule pieces that several game systems use alike.

- :mod:`.penetration`: the armour penetration die (d6 + S against an Armour
  Value), read the same way by 40K 6th edition and Horus Heresy 3rd edition.
"""
