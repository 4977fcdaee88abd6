"""`cardrules diff A B`: what differs between two rulesets, editions, variants or house rules,
as rich text, JSON (schemas/diff.schema.json) or Markdown. Exit 0: the same; 1: they differ;
2: trouble (a file that does not load, a bad option), as diff(1) does."""
from __future__ import annotations

import json
from typing import TYPE_CHECKING, Annotated

import typer
from rich.table import Table
from rich.text import Text

from ..interpreter import diff as diffing
from ..interpreter.engine import cite
from ..interpreter.errors import EXIT_USAGE
from ..interpreter.load import Loaded
from ..interpreter.model import Provenance, Ruleset
from .common import echo, fail, load_or_exit, out

if TYPE_CHECKING:  # a JSON object's type, not the export itself
    from ..interpreter.export import Json

EXIT_DIFFERENT = 1
SPEC_HELP = "A ruleset: FILE, or FILE@EDITION+VARIANT..., or with house rules FILE+house:HOUSE.yaml."


def diff(
    left: Annotated[str, typer.Argument(metavar="A", help=SPEC_HELP, show_default=False)],
    right: Annotated[str, typer.Argument(metavar="B", help=SPEC_HELP, show_default=False)],
    as_json: Annotated[bool, typer.Option("--json", help="Print the diff as JSON (schemas/diff.schema.json).")] = False,
    markdown: Annotated[bool, typer.Option("--markdown", help="Print the diff as a Markdown document.")] = False,
    full: Annotated[bool, typer.Option("--full", help="List every difference even between unrelated games.")] = False,
) -> None:
    """Show what differs between two rulesets, clause by clause.

    Both are checked, then what differs is printed, grouped: players and setup;
    components and the deck for each player count; timing and windows; each card's plays;
    scoring; the end and the final round; the match; the options. Cards and plays are paired
    by name, and by behaviour where the names differ. Each difference shows both sides'
    provenance. Exit 0 when they are the same, 1 when they differ, 2 on trouble."""
    if as_json and markdown:
        raise fail("--json and --markdown: choose one", code=EXIT_USAGE)
    a, b = _load(left), _load(right)
    result = diffing.diff(a.model, b.model)
    names = (left, right)
    if as_json:
        echo(json.dumps(to_json(result, names), ensure_ascii=False, indent=2), is_json=True)
    elif markdown:
        echo(to_markdown(result, names), nl=False)
    else:
        _print(result, names, full)
    raise typer.Exit(0 if result.same else EXIT_DIFFERENT)


def _load(spec: str) -> Loaded:
    """A side, or exit 2: for diff, a side that does not load is trouble, not a difference."""
    try:
        return load_or_exit(spec, show_warnings=False)
    except typer.Exit as e:
        raise typer.Exit(EXIT_USAGE if e.exit_code else 0) from None


def _related(result: diffing.Diff) -> bool:
    """Two games that share a card kind by name are variants of one another; two that share
    none are different games, shown in brief."""
    return any(p.how == "name" for p in result.cards)


# ---------------------------------------------------------------- rich text


def _print(result: diffing.Diff, names: tuple[str, str], full: bool) -> None:
    a, b = result.left, result.right
    head = f"{a.title}{a.selection} ({names[0]})  vs  {b.title}{b.selection} ({names[1]})"
    if result.same:
        out.print(Text(f"{head}: the same rules"))
        return
    out.print(Text(f"{head}: {len(result.differences)} difference{'s' if len(result.differences) != 1 else ''}",
                   style="bold"))
    if not _related(result) and not full:
        _brief(result)
        return
    for section in diffing.SECTIONS:
        rows = [d for d in result.differences if d.section == section]
        if not rows:
            continue
        table = Table(title=Text(section), title_justify="left", header_style="bold", show_lines=True, expand=True)
        table.add_column("", ratio=2)
        table.add_column(names[0], ratio=5)
        table.add_column(names[1], ratio=5)
        for d in rows:
            lines_a, lines_b = d.changed_lines if d.kind == "changed" else (
                d.left.text if d.left else (), d.right.text if d.right else ())
            table.add_row(Text(f"{d.what}\n({d.kind})"), _cell(lines_a, d.left), _cell(lines_b, d.right))
        out.print(table)


def _cell(lines: tuple[str, ...], side: diffing.Side | None) -> Text:
    if side is None:
        return Text("—", style="dim")
    text = Text("" if lines else "(nothing in their place)", style="dim" if not lines else "")
    for i, line in enumerate(lines):
        text.append(("\n" if i else "") + line)
        if side.cite_of(line):
            text.append("\n  " + side.cite_of(line), style="dim")
    why = cite(side.provenance)
    if why:
        text.append("\n" + why, style="dim")
    return text


def _brief(result: diffing.Diff) -> None:
    """Unrelated games: the headline figures and how many facts differ in each section."""
    a, b = result.left, result.right
    out.print(Text("different games: no card kind in common; --full lists every difference"))
    for label, x, y in (("players", diffing.counts_text(a.counts), diffing.counts_text(b.counts)),
                        ("card kinds", len(a.kinds), len(b.kinds)), ("plays", len(a.plays), len(b.plays)),
                        ("winner", a.match.winner, b.match.winner)):
        out.print(Text(f"  {label}: {x} vs {y}"))
    for section in diffing.SECTIONS:
        rows = [d for d in result.differences if d.section == section]
        if rows:
            counts = {k: sum(d.kind == k for d in rows) for k in ("changed", "added", "removed", "renamed")}
            out.print(Text(f"  {section}: " + ", ".join(f"{n} {k}" for k, n in counts.items() if n)))


# ---------------------------------------------------------------- JSON and Markdown


def to_json(result: diffing.Diff, names: tuple[str, str]) -> Json:
    def side(model: Ruleset, name: str) -> Json:
        return {"spec": name, "file": model.file, "title": model.title, "edition": model.edition,
                "variants": list(model.variants), "house": model.house}

    def fact(s: diffing.Side | None) -> Json | None:
        return None if s is None else {"text": list(s.text), "provenance": _provenance(s.provenance),
                                       "cites": list(s.cites)}

    return {
        "format": "cardrules-diff/1",
        "left": side(result.left, names[0]), "right": side(result.right, names[1]),
        "same": result.same,
        "cards": [{"left": p.left, "right": p.right, "paired_by": p.how} for p in result.cards],
        "plays": [{"left": p.left, "right": p.right, "paired_by": p.how} for p in result.plays],
        "differences": [{"section": d.section, "what": d.what, "kind": d.kind, "left": fact(d.left),
                         "right": fact(d.right)} for d in result.differences],
    }


def _provenance(p: Provenance) -> Json:
    return {"sources": list(p.sources), "rulings": list(p.rulings), "assumptions": list(p.assumptions),
            "line": p.line}


def to_markdown(result: diffing.Diff, names: tuple[str, str]) -> str:
    a, b = result.left, result.right
    out_lines = [f"# Rule diff: {a.title}{a.selection} vs {b.title}{b.selection}", "",
                 f"`{names[0]}` and `{names[1]}`: "
                 + ("the same rules." if result.same else f"{len(result.differences)} differences."), ""]
    renamed = [p for p in result.cards if p.how == "behaviour"]
    if renamed:
        out_lines += ["Same role, renamed: " + ", ".join(f"{p.left} → {p.right}" for p in renamed) + ".", ""]
    for section in diffing.SECTIONS:
        rows = [d for d in result.differences if d.section == section]
        if not rows:
            continue
        out_lines += [f"## {section.capitalize()}", "", f"| | `{names[0]}` | `{names[1]}` |", "|---|---|---|"]
        for d in rows:
            lines_a, lines_b = d.changed_lines if d.kind == "changed" else (
                d.left.text if d.left else (), d.right.text if d.right else ())
            out_lines.append(f"| {_md(d.what)} ({d.kind}) | {_md_cell(lines_a, d.left)} | "
                             f"{_md_cell(lines_b, d.right)} |")
        out_lines.append("")
    return "\n".join(out_lines)


def _md_cell(lines: tuple[str, ...], side: diffing.Side | None) -> str:
    if side is None:
        return "—"
    cell = (
        "<br>".join(
            f"`{_md(line)}`" + (f" ({_md(side.cite_of(line))})" if side.cite_of(line) else "") for line in lines
        )
        or "(nothing in their place)"
    )
    why = cite(side.provenance)
    return cell + (f"<br>*{_md(why)}*" if why else "")


def _md(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")
