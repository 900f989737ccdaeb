"""Benchmark suite: exactodds side by side with icepool and dyce.

Run it with ``python bench/run.py`` (see bench/README.md). Not part of the
installed package and never imported by it.
"""
