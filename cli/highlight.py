"""Highlighting of rules text: a Pygments lexer (registered as the `cardrules` lexer, so rich,
Sphinx and `pygmentize` colour `.rules` files) and the `check` command's error snippets in
colour on a terminal. The keywords are the Lark grammar's own (grammar/textmate.py)."""
from __future__ import annotations

import re

from pygments.lexer import RegexLexer, bygroups, words
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, Punctuation, String, Whitespace
from rich.console import Console
from rich.syntax import Syntax
from rich.text import Text

from ..grammar.textmate import DECLARING, OPERATOR_WORDS, keywords
from ..interpreter.expressions import TRUTHS

_NAME = r"[A-Za-z_][A-Za-z0-9_]*"


class RulesLexer(RegexLexer):
    """The cardrules rules language."""

    name = "cardrules"
    aliases = ["cardrules", "rules"]
    filenames = ["*.rules"]
    mimetypes = ["text/x-cardrules"]

    tokens = {
        "root": [
            (r"\s+", Whitespace),
            (r"#[^\n]*", Comment.Single),
            (r'"', String.Double, "string"),
            (r"\b(" + "|".join(DECLARING) + r")(\s+)(?!" + "|".join(keywords()) + rf"\b)({_NAME})\b(?!\s*[.(])",
             # types-Pygments leaves `bygroups` unannotated
             bygroups(Keyword.Declaration, Whitespace, Name.Class)),  # type: ignore[no-untyped-call]
            (words(OPERATOR_WORDS, suffix=r"\b"), Operator.Word),
            (words([w for w in keywords() if w not in OPERATOR_WORDS], prefix=r"\b", suffix=r"\b"), Keyword),
            (words(TRUTHS, prefix=r"\b", suffix=r"\b"), Keyword.Constant),
            (r"[0-9]+", Number.Integer),
            (rf"{_NAME}(?=\s*\()", Name.Function),
            (_NAME, Name),
            (r"==|!=|<=|>=|\.\.|[<>=+\-*/%]", Operator),
            (r"[{}(),.:]", Punctuation),
        ],
        "string": [
            (r'\\["\\n]', String.Escape),
            (r'[^"\\\n]+', String.Double),
            (r'"', String.Double, "#pop"),
            (r"\n", Error, "#pop"),  # a string is closed on its line
        ],
    }


_CARETS = re.compile(r"^    \s*\^+$")


def located(rendered: str, console: Console) -> Text:
    """Rendered diagnostics (`file:line:col: error: ...`, the line, a caret line, the hint) as
    Text: each quoted line of rules highlighted when `console` is a terminal that shows colour,
    plain otherwise (a pipe, a file, NO_COLOR)."""
    if not console.is_terminal or console.no_color or console.color_system is None:
        return Text(rendered)
    lines = rendered.split("\n")
    out = Text()
    syntax = Syntax("", RulesLexer(), theme="ansi_dark", background_color="default")
    for i, line in enumerate(lines):
        if i:
            out.append("\n")
        if line.startswith("    ") and i + 1 < len(lines) and _CARETS.match(lines[i + 1]):
            out.append("    ")
            code = syntax.highlight(line[4:])
            code.rstrip()  # highlight() ends the code with a newline
            out.append(code)
        else:
            out.append(line)
    return out

