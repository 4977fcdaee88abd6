"""`cardrules --help` and each command's help read as prose at 100 columns: a one-line summary per
command, paragraphs wrapped at the terminal's width, no Python types beside the options."""
import os
import re

import pytest
from typer.testing import CliRunner

COMMANDS = ["list", "check", "export", "scenarios", "play", "replay", "resume", "selfplay", "diff", "compare", "book",
            "lsp", "serve",
            "log redact", "house check", "house schema"]
WIDTH = 100


def _help(*words: str) -> str:
    from cardrules.cli.main import app

    result = CliRunner().invoke(app, [*words, "--help"], env={**os.environ, "COLUMNS": str(WIDTH), "NO_COLOR": "1"},
                                terminal_width=WIDTH)
    assert result.exit_code == 0, result.output
    return result.stdout


def test_every_command_is_listed_with_a_one_line_summary():
    shown = _help()
    rows = [line for line in shown.splitlines() if line.startswith("│ ")]
    listed = [row for row in rows if re.match(r"│ [a-z]+ {2,}\S", row)]
    assert {row.split()[1] for row in listed} >= {c.split()[0] for c in COMMANDS}
    continued = [row for row in rows if re.match(r"│ {3,}\S", row)]  # a summary wrapped onto a second line
    assert not continued, continued


@pytest.mark.parametrize("command", COMMANDS)
def test_no_python_type_is_shown_as_a_metavar(command):
    shown = _help(*command.split())
    assert not re.search(r"<(bool|str|int|float|list\[|path|int range)", shown), shown


@pytest.mark.parametrize("command", COMMANDS)
def test_the_description_is_wrapped_at_the_terminals_width_not_the_sources(command):
    """Each line of the text above the panels ends a paragraph, or the next line's first word would
    not have fitted on it: a line broken where the docstring's source line ended fails."""
    shown = _help(*command.split())
    text = shown.split("╭")[0].splitlines()
    description = text[text.index(next(line for line in text if line.strip().startswith("Usage:"))) + 1:]
    for line, following in zip(description, description[1:] + [""], strict=True):
        if line.strip() and following.strip():
            next_word = following.split()[0]
            assert len(line.rstrip()) + 1 + len(next_word) > WIDTH - 2, f"{command}: line broken early: {line!r}"
