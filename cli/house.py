"""`cardrules house ...`: house rules in YAML. `house check` validates a file in its three steps;
`house schema` prints the schema narrowed to one ruleset, for an editor to complete with."""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Annotated

import typer
from rich.text import Text

from ..interpreter import house as houses
from ..interpreter.diagnostics import RulesError
from ..interpreter.errors import EXIT_FINDINGS
from ..interpreter.load import resolve
from .common import echo, err, fail, out
from .logs import writable_or_exit, write_or_exit

app = typer.Typer(help="House rules: check a house-rules YAML file, or print the schema for a ruleset.",
                  no_args_is_help=True)


@app.command("check")
def check(
    file: Annotated[str, typer.Argument(metavar="FILE.yaml", help="A house-rules file.", show_default=False)],
) -> None:
    """Check a house-rules file against its ruleset.

    Three steps, each error at its line and column: the file against
    schemas/house-rules.schema.json, the changes against the ruleset (names, ranges, snippets),
    then the changed ruleset by the checker, for every player count. Exit 1 on any error."""
    try:
        house = houses.read_house(file)
        loaded = houses.apply_house(house)
    except RulesError as e:
        err.print(e.render(), markup=False)
        raise typer.Exit(EXIT_FINDINGS) from None
    model = loaded.model
    out.print(Text(f"{file}: ok: '{house.name}' changes {house.data['ruleset']}{model.selection.split('+house:')[0]}",
                   style="bold"))
    for change in house.changes:
        out.print(Text("  " + houses.describe(change)))
    out.print(Text(f"play it with: cardrules play {os.path.normpath(house.ruleset)} --house {file}"))


@app.command("schema")
def schema(
    ruleset: Annotated[str, typer.Argument(metavar="RULESET", help="A .rules file, or a shipped ruleset's name.",
                                           show_default=False)],
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE", help="Write the schema to this file.",
                                                   show_default=False)] = None,
) -> None:
    """Print the house-rules schema for one ruleset.

    It holds the params (with their ranges), cards,
    clauses, editions and variants as enums. Point an editor at it with a first line
    `# yaml-language-server: $schema=PATH` in the house file."""
    if output is not None:
        writable_or_exit(output, "--output", [resolve(ruleset)])
    try:
        text = json.dumps(houses.ruleset_schema(ruleset), ensure_ascii=False, indent=2) + "\n"
    except RulesError as e:
        err.print(e.render(), markup=False)
        raise fail("the ruleset does not check, so it has no house-rules schema", "fix it first: cardrules check "
                   + ruleset) from None
    if output is None:
        echo(text, nl=False, is_json=True)
        return
    write_or_exit(output, text)
    err.print(f"wrote {output}", markup=False)
