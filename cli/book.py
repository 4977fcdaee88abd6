"""`book`: a rulebook for players, generated from the checked model of one selection, as
Markdown or as one self-contained HTML page."""
from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from ..interpreter.book_words import LANGUAGES
from ..interpreter.errors import EXIT_USAGE
from ..interpreter.load import resolve, split_selection
from .common import Edition, House, Variants, err, fail, load_or_exit
from .inspect import RULESET_HELP
from .logs import writable_or_exit, write_or_exit

FORMATS = ("md", "html")


def book(
    file: Annotated[str, typer.Argument(help=RULESET_HELP + " FILE@EDITION+VARIANT+house:H.yaml chooses a selection.",
                                        show_default=False, metavar="SPEC")],
    lang: Annotated[str, typer.Option("--lang", metavar="LANG", help=f"The book's language: {', '.join(LANGUAGES)}; "
                                      "cards are named in it where the ruleset gives their names in it.")] = "en",
    form: Annotated[str, typer.Option("--format", metavar="FORMAT", help=f"{' or '.join(FORMATS)}")] = "md",
    output: Annotated[Path | None, typer.Option("--output", "-o", metavar="FILE",
                                                help="Write the book to this file, not to stdout.",
                                               show_default=False)] = None,
    edition: Edition = None,
    variant: Variants = None,
    house: House = None,
) -> None:
    """Write a rulebook of a ruleset for players.

    It holds the aim, components and the deck for each player
    count, setup, a turn, every card and play in words, windows, the end, scoring with a worked
    example, editions and variants, settings, and where each rule comes from as notes."""
    if lang not in LANGUAGES:
        raise fail(f"--lang {lang!r}: the book is written in {', '.join(LANGUAGES)}", "e.g. --lang ru", EXIT_USAGE)
    if form not in FORMATS:
        raise fail(f"--format {form!r} is not one of {', '.join(FORMATS)}", "e.g. --format html", EXIT_USAGE)
    if output is not None:
        spec = split_selection(file)
        writable_or_exit(output, "--output", [resolve(spec.path), house or spec.house])
    loaded = load_or_exit(file, edition, variant, house)
    from ..interpreter import book as building  # the engine and the diff: only once the ruleset loads
    from ..interpreter import book_html, book_markdown
    from ..interpreter.compile import ConfigError

    try:
        built = building.build(loaded.model, lang)
    except ConfigError as e:
        raise fail(f"{loaded.model.file}: {e}", "the book compiles the ruleset for its smallest player count, "
                   "params at their defaults: make that count playable") from None
    text = (book_html if form == "html" else book_markdown).render(built)
    if output is None:
        typer.echo(text, nl=False)
        return
    write_or_exit(output, text)
    err.print(f"wrote {output}", markup=False)
