"""The ``exactodds`` command line.

The query commands are generated from :mod:`exactodds.commands`
(:mod:`exactodds.cli.generate`); ``run``, ``sample``, ``validate``,
``sweep`` and ``compare`` work on query and grid files; ``import`` turns a roster into unit files. Commands are built when first asked
for, so a question loads only its own command. Run ``exactodds --help``.
"""

from __future__ import annotations

import click

from .common import ExactOddsGroup

FILE_COMMANDS = {"run": "files", "sample": "files", "validate": "files", "sweep": "sweep", "compare": "compare",
                 "import": "rosters"}
"""Commands on files -> the module of :mod:`exactodds.cli` defining them."""
FUNCTIONS = {"import": "import_roster"}
"""Commands whose function is not named as the command (``import`` is a Python keyword)."""


class Main(ExactOddsGroup):
    """The root group: rule systems and query commands from the commands layer, then
    the commands on files; each built on first use."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        from ..commands import systems

        return sorted({*systems(), *FILE_COMMANDS, *self.commands})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        import importlib

        from ..commands import SYSTEMS, find, systems

        if cmd_name in self.commands:  # added in Python (a plug-in, a test)
            return self.commands[cmd_name]
        known = systems()
        if cmd_name in known:
            if known[cmd_name] is None:
                from .generate import query_command

                return query_command(find(cmd_name))
            from .generate import SystemGroup

            return SystemGroup(cmd_name, SYSTEMS.get(cmd_name, ""))
        if cmd_name in FILE_COMMANDS:
            module = importlib.import_module(f"{__name__}.{FILE_COMMANDS[cmd_name]}")
            return getattr(module, FUNCTIONS.get(cmd_name, cmd_name))  # type: ignore[no-any-return]
        close = [name for name in known if name.startswith(cmd_name) or cmd_name.startswith(name.rstrip("0123456789"))]
        if close and cmd_name not in close:
            raise click.UsageError(f"No such command {cmd_name!r}; did you mean {' or '.join(map(repr, close))}?", ctx)
        return None


@click.group(cls=Main, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--max-states", type=click.IntRange(min=1), default=None, envvar="EXACTODDS_MAX_STATES",
              help="Refuse questions needing more states than this (default 2,000,000; "
                   "env EXACTODDS_MAX_STATES). Also accepted after the command.")
@click.version_option(package_name="exactodds")
def main(max_states: int | None) -> None:
    """Exact probabilities of tabletop wargame dice rules.

    Every answer is a set of exact fractions, never a simulation. Each query
    command takes --format table|json|csv. Exit status: 0 done, 1 a rejected
    validation, 2 bad input, 3 an internal error.
    """
    from ..commands import state_limit

    click.get_current_context().with_resource(state_limit(max_states))


__all__ = ["main"]
