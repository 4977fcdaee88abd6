"""`check` (a ruleset's errors and warnings, or its summary) and `export` (the whole checked
ruleset as JSON, described by schemas/ruleset.schema.json)."""
from __future__ import annotations

import json
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.table import Table
from rich.text import Text

from ..interpreter import export as exporting
from ..interpreter.compile import deal_location
from ..interpreter.diagnostics import Diagnostic, RulesError, render_all
from ..interpreter.load import Loaded, load_all, read, resolve, split_selection
from .common import Edition, House, Variants, echo, err, fail, load_or_exit, out, print_located, print_warnings

RULESET_HELP = "A .rules file, or the name of a ruleset shipped with cardrules."


def check(
    file: Annotated[str, typer.Argument(help=RULESET_HELP, show_default=False, metavar="FILE")],
    as_json: Annotated[bool, typer.Option("--json",
                                          help="Print the summary and the warnings as JSON, nothing else.")] = False,
    strict: Annotated[bool, typer.Option("--strict", help="Exit 1 on warnings too, not only on errors.")] = False,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
) -> None:
    """Check a ruleset: its errors and warnings, or a summary of the game.

    Errors and warnings go to stderr with file:line:col; a ruleset that
    checks gets a summary: players, the deal for each player count, zones, params, provenance.
    A file with editions and variants is checked in every legal selection, unless one is given."""
    spec = split_selection(file)
    every = edition is None and not variant and house is None and spec == split_selection(spec.path)
    checked = _every_selection(file) if every else None
    selections: list[exporting.Json] | None = None
    if checked is None:
        loaded = load_or_exit(file, edition, variant, house)
        warnings = list(loaded.warnings)
        print_warnings(loaded)
        dealt = exporting.deals(loaded.model)
    else:
        loaded, dealt, selections, warnings = checked
    report = exporting.summary(loaded.model, dealt)
    if selections is not None and len(selections) > 1:
        report["selections"] = selections
    if as_json:
        echo(_json({**report, "warnings": [_diagnostic(d) for d in warnings]}), nl=False, is_json=True)
    else:
        _print_summary(report)
    unplayable = [d for d in dealt if "problem" in d]
    for deal in unplayable:
        err.print(f"{deal_location(loaded.model)}: error: with {deal['players']} players: {deal['problem']}")
    if unplayable:
        raise fail("setup cannot run for every player count the ruleset allows",
                   "narrow `players`, or deal counts that fit the deck")
    if strict and warnings:
        count = len(warnings)
        raise fail(f"{count} warning{'s' if count > 1 else ''}, and --strict counts warnings as errors",
                   "fix them, or drop --strict")


def _every_selection(file: str) -> tuple[Loaded, list[exporting.Deal], list[exporting.Json], list[Diagnostic]] | None:
    """Check the file in each legal selection of edition and variants, parsing it once; print
    each error once, with the selections it shows in, and exit 1 on any. Else print each
    warning of any selection once, with the selections it shows in, and give the first
    selection (the one `load` gives when none is named: the first edition, no variant), its
    deals, the figures of each selection for the summary, and the warnings; None when the file
    does not read or parse (`load_or_exit` then says why)."""
    try:
        text, name = read(file)
        results = load_all(text, name)
    except RulesError:
        return None  # load_or_exit reports it
    failed: dict[tuple[str, str], list[str]] = {}
    for selection, result in results:
        if isinstance(result, RulesError):
            for d in result.diagnostics:
                failed.setdefault((d.severity, render_all([d], text)), []).append(selection or "(base)")
    if any(severity == "error" for severity, _ in failed):
        for (_severity, rendered), where in failed.items():
            print_located(rendered)
            err.print(f"  in: {', '.join(where)}", markup=False)
        bad = sum(isinstance(r, RulesError) for _, r in results)
        raise fail(f"{bad} of the {len(results)} legal selections of edition and variants do not check",
                   "each error says in which selections it shows; --edition and --variant check one")
    checked = [(selection, r) for selection, r in results if isinstance(r, Loaded)]  # all: a RulesError holds an error
    (first, loaded), *others = checked
    dealt = exporting.deals(loaded.model)  # the summary shows the first selection's; of the others, what fails
    unplayable = [(first, loaded.model, d["players"], d["problem"]) for d in dealt if "problem" in d]
    unplayable += [(selection, r.model, players, problem) for selection, r in others
                   for players, problem in exporting.deal_problems(r.model)]
    for selection, model, players, problem in unplayable:
        err.print(f"{deal_location(model)}: error: {f'in {selection} ' if selection else ''}with "
                  f"{players} players: {problem}")
    if unplayable:
        raise fail("setup cannot run for every player count a selection allows",
                   "narrow its `players`, or deal counts that fit its deck")
    return loaded, dealt, [{"selection": selection, "players": list(r.model.counts), "warnings": len(r.warnings)}
                           for selection, r in checked], _selection_warnings(checked, text)


def _selection_warnings(results: list[tuple[str, Loaded]], text: str) -> list[Diagnostic]:
    """Every selection's warnings, each once, printed with the selections it shows in when the
    file has more than one: a warning of a variant alone counts as much as the base's."""
    found: dict[Diagnostic, list[str]] = {}
    for selection, loaded in results:
        for d in loaded.warnings:
            found.setdefault(d, []).append(selection or "(base)")
    for d, where in found.items():
        print_located(render_all([d], text))
        if len(results) > 1:
            err.print(f"  in: {', '.join(where)}", markup=False)
    return list(found)


def export(
    file: Annotated[str, typer.Argument(help=RULESET_HELP, show_default=False, metavar="FILE")],
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE",
                                                help="Write the JSON to this file, not to stdout.",
                                               show_default=False)] = None,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
) -> None:
    """Export a checked ruleset as JSON.

    Every clause with its provenance, every expression as
    text, type and tree. schemas/ruleset.schema.json describes it."""
    from .logs import no_special_file, not_an_input_or_exit, write_or_exit  # files written: not for `check`

    if output is not None:
        spec = split_selection(file)
        not_an_input_or_exit(output, "--output", [resolve(spec.path), house or spec.house])
    loaded = load_or_exit(file, edition, variant, house)
    text = _json(exporting.export(loaded.model))
    if output is None:
        echo(text, nl=False, is_json=True)
        return
    no_special_file(output, "--output")
    write_or_exit(output, text)
    err.print(f"wrote {output}", markup=False)


# ------------------------------------------------------------------ output


def _json(data: exporting.Json) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _diagnostic(d: Diagnostic) -> exporting.Json:
    span = d.span
    return {"severity": d.severity, "message": d.message, "file": d.file,
            "line": span.line if span else None, "column": span.column if span else None,
            "end_line": span.end_line if span else None, "end_column": span.end_column if span else None,
            "hint": d.hint}


def _table(title: str, *columns: str, header: bool = True) -> Table:
    table = Table(title=Text(title), title_justify="left", show_header=header, header_style="bold")
    for column in columns:
        table.add_column(column)
    return table


def _row(table: Table, *cells: object) -> None:
    """Cells as plain text: names and titles come from the file and are never rich markup."""
    table.add_row(*(Text(str(c)) for c in cells))


def _counts(counts: list[int]) -> str:
    """Player counts as a range when they run without a gap: 2..6, else 4, 6, 8; one count alone."""
    if len(counts) == 1:
        return str(counts[0])
    if counts == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]}..{counts[-1]}"
    return ", ".join(map(str, counts))


def _print_summary(r: dict[str, Any]) -> None:
    """The summary `check` prints. `r` is `export.summary`'s JSON object, read by key: no Python type
    states its shape yet (`export.Json` says only that it is JSON)."""
    header = _table(r["title"], "", "", header=False)
    for lang in r["names"]:
        _row(header, f"name ({lang['language']})", lang["text"])
    for doc in r["documents"]:
        _row(header, f"document {doc['id']}", doc["title"])
    if r.get("selection"):
        _row(header, "edition and variants", r["selection"])
    _row(header, "players", _counts(r["players"]["counts"]))
    if r.get("teams"):
        _row(header, "teams", r["teams"])
    _row(header, "deck", f"{r['deck']} cards")
    _row(header, "plays", ", ".join(r["plays"]))
    _row(header, "round ends", ", ".join(r["round_ends"]))
    out.print(header)

    shared = [z["name"] for z in r["zones"] if z["scope"] == "shared"]
    deals = _table(
        "Setup, params at their defaults",
        "players",
        "in play",
        "per seat",
        "dealt",
        *(f"left in {z}" if z == r["stock"] else f"in {z}" for z in shared),
    )
    for d in r["deals"]:
        if "problem" in d:
            deals.add_row(str(d["players"]), Text(d["problem"], style="red"))
        else:
            _row(deals, d["players"], d["deck"], d["per_seat"], d["dealt"], *(d["shared"][z] for z in shared))
    out.print(deals)

    zones = _table("Zones", "zone", "scope", "visibility", "holds")
    for z in r["zones"]:
        _row(zones, z["name"], z["scope"].replace("_", " "), z["visibility"], "piles" if z["piles"] else "cards")
    out.print(zones)

    if r["params"]:
        params = _table("Params", "param", "default", "range")
        for p in r["params"]:
            _row(params, p["name"], p["default"], f"{p['min']}..{p['max']}")
        out.print(params)

    counts = r["provenance"]
    provenance = _table("Provenance", "clauses", "cite a source", "a ruling", "an assumption", "none")
    _row(provenance, counts["clauses"], counts["sources"], counts["rulings"], counts["assumptions"], counts["none"])
    out.print(provenance)
    if r["unbacked"]:
        out.print(Text("without provenance: " + ", ".join(r["unbacked"])))
    if r.get("selections"):
        options = _table(f"Every legal selection checks ({len(r['selections'])})", "selection", "players", "warnings")
        for s in r["selections"]:
            _row(options, s["selection"], _counts(s["players"]), s["warnings"])
        out.print(options)
