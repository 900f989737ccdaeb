"""Unit and weapon profiles read from TOML files (one module per rule system).

Interface layer: it turns checked TOML data into the plain data classes of
:mod:`exactodds.rules`; the rules never read files.
"""
