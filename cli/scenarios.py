"""`cardrules scenarios FILE`: run a scenario file, a line per scenario and each failure in detail."""
from __future__ import annotations

import json

import typer
from rich.text import Text

from ..interpreter.diagnostics import Diagnostic, RulesError, render_all
from ..interpreter.errors import EXIT_FINDINGS
from ..interpreter.export import Json
from ..interpreter.scenarios import Outcome, load_file, run
from .common import echo, err, out


def scenarios(
    file: str = typer.Argument(..., metavar="FILE", help="A scenario file (YAML), e.g. rulesets/NAME.scenarios.yaml."),
    verbose: bool = typer.Option(False, "--verbose", "-v", help="Show each scenario's clause and what each step did."),
    as_json: bool = typer.Option(False, "--json", help="Print only JSON: every scenario and its failures."),
) -> None:
    """Run a ruleset's scenarios: positions, moves, and what must follow.

    Each scenario of FILE puts a match in a position, plays moves that must be legal,
    tries moves that must be refused and checks what follows. Exit 1 when any fails."""
    try:
        sf = load_file(file)
    except RulesError as e:
        err.print(e.render(), markup=False)
        if as_json:
            echo(json.dumps({"file": file, "ok": False, "errors": [_located(d) for d in e.diagnostics]},
                            ensure_ascii=False, indent=2), is_json=True)
        raise typer.Exit(EXIT_FINDINGS) from None
    outcomes = run(sf)
    failed = sum(not o.passed for o in outcomes)
    if as_json:
        echo(json.dumps({
            "file": file, "ruleset": sf.ruleset.model.file, "ok": not failed,
            "passed": len(outcomes) - failed, "failed": failed,
            "scenarios": [_json(o) for o in outcomes]}, ensure_ascii=False, indent=2), is_json=True)
    else:
        for o in outcomes:
            verdict = Text("pass", style="cyan") if o.passed else Text("FAIL", style="bold red")
            out.print(verdict.append(f"  {o.scenario.name}"))
            if verbose:
                out.print(f"      clause: {o.scenario.clause}", markup=False)
                for line in o.log:
                    out.print(f"      {line}", markup=False)
            if not o.passed:
                out.print(_indent(render_all(list(o.failures), sf.text)), markup=False)
        out.print(f"{len(outcomes)} scenarios: {len(outcomes) - failed} passed, {failed} failed"
                  f" ({sf.ruleset.model.title}, {file})", markup=False)
    if failed:
        raise typer.Exit(EXIT_FINDINGS)


def _indent(text: str) -> str:
    return "\n".join("      " + line for line in text.splitlines())


def _located(d: Diagnostic) -> Json:
    return {"file": d.file, "line": d.span.line if d.span else None, "column": d.span.column if d.span else None,
            "message": d.message, "hint": d.hint}


def _json(o: Outcome) -> Json:
    return {"name": o.scenario.name, "clause": o.scenario.clause, "passed": o.passed,
            "failures": [_located(d) for d in o.failures], "log": list(o.log)}
