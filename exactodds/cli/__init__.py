"""The ``exactodds`` command line.

Each rule system adds its commands from its own module (``register(main)``);
this module only assembles them. Run ``exactodds --help``.
"""

from __future__ import annotations

import click

from ..core import state_limit
from . import pool
from .common import ExactOddsGroup

SYSTEM_MODULES = ("pool", "hd", "wh40k6", "hh3", "files", "sweep")


@click.group(cls=ExactOddsGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--max-states", type=click.IntRange(min=1), default=None, envvar="EXACTODDS_MAX_STATES",
              help="Refuse questions needing more states than this (default 2,000,000; "
                   "env EXACTODDS_MAX_STATES).")
@click.version_option(package_name="exactodds")
def main(max_states: int | None) -> None:
    """Exact probabilities of tabletop wargame dice rules.

    Every answer is a set of exact fractions, never a simulation. Each query
    command takes --format table|json|csv. Exit status: 0 done, 1 a rejected
    validation, 2 bad input, 3 an internal error.
    """
    click.get_current_context().with_resource(state_limit(max_states))


def _register_all() -> None:
    import importlib

    for name in SYSTEM_MODULES:
        try:
            module = importlib.import_module(f"{__name__}.{name}")
        except ModuleNotFoundError as e:  # a system not written yet
            if e.name != f"{__name__}.{name}":
                raise
            continue
        module.register(main)


_register_all()

__all__ = ["main", "pool"]
