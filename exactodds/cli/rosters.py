"""``exactodds import ROSTER --out DIR``: a BattleScribe / New Recruit roster as unit files."""

from __future__ import annotations

from pathlib import Path

import click


@click.command("import")
@click.argument("roster", metavar="ROSTER.rosz", type=click.Path(dir_okay=False))
@click.option("--out", "-o", "out", required=True, type=click.Path(file_okay=False, path_type=Path),
              help="The folder to write the unit files into (made if missing; an existing file is never "
                   "overwritten).")
def import_roster(roster: str, out: Path) -> None:
    """Write one unit file per unit of a roster exported from BattleScribe or New
    Recruit (.ros, or .rosz zipped), ready for every command and scenario.

    Warhammer 40,000 6th and 7th edition rosters give 40K 6th edition unit
    files, Horus Heresy 3rd edition rosters Horus Heresy unit files; each file
    holds the unit's points. What cannot be mapped (a rule the engine does not
    model) is kept as a comment in the file and reported on standard error.
    Nothing is written unless every unit could be. Example:

    \b
        exactodds import examples/rosters/ork_boyz.rosz --out my_army
    """
    from ..commands.rosters import import_roster as run_import

    written, warnings = run_import(roster, out)
    for path, unit in written:
        lines = len(unit.models)
        click.echo(f"{path}: {unit.name} ({unit.top.get('points', 0)} points, "
                   f"{lines} model line{'s' if lines != 1 else ''})")
    for line in warnings:
        click.echo(f"warning: {line}", err=True)
