"""Located messages. Every error a user can cause passes through here, so each one says where
(file:line:col, the line, a caret under the span) and what to do (a one-line hint)."""
from __future__ import annotations

from dataclasses import dataclass, field

from .errors import CardrulesError


@dataclass(frozen=True)
class Span:
    """Where a node stands in its text: 1-based lines and columns, end exclusive. `file` names
    the file when it is not the one being checked: a snippet of rules inside a house-rules file."""

    line: int
    column: int
    end_line: int
    end_column: int
    file: str = field(default="", compare=False)

    @staticmethod
    def point(line: int, column: int) -> Span:
        return Span(line, column, line, column + 1)


@dataclass(frozen=True)
class Diagnostic:
    severity: str  # "error" or "warning"
    message: str
    span: Span | None = None
    hint: str = ""
    file: str = ""


@dataclass
class Sink:
    """Collects the diagnostics of one run, so that one run reports all it can."""

    file: str
    text: str = ""
    items: list[Diagnostic] = field(default_factory=list)

    def error(self, message: str, span: Span | None, hint: str = "") -> None:
        self.items.append(Diagnostic("error", message, span, hint, span.file if span and span.file else self.file))

    def warning(self, message: str, span: Span | None, hint: str = "") -> None:
        self.items.append(Diagnostic("warning", message, span, hint, span.file if span and span.file else self.file))

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "error"]

    @property
    def warnings(self) -> list[Diagnostic]:
        return [d for d in self.items if d.severity == "warning"]


class RulesError(CardrulesError):
    """A ruleset (or a file that refers to one) that cannot be used. Carries its diagnostics
    and the text they point into, so the caller can render them."""

    def __init__(self, diagnostics: list[Diagnostic], text: str = "", others: dict[str, str] | None = None):
        self.diagnostics = diagnostics
        self.text = text
        self.others = others or {}  # the texts of other files some diagnostics point into
        first = diagnostics[0] if diagnostics else None
        super().__init__(first.message if first else "invalid input", first.hint if first else "",
                         first.file if first else "")

    def render(self) -> str:
        if not self.others:
            return render_all(self.diagnostics, self.text)
        return "\n".join(render(d, self.others.get(d.file, self.text)) for d in self.diagnostics)


def render(d: Diagnostic, text: str = "") -> str:
    """`file:line:col: error: message`, then the line, a caret under the span, and the hint."""
    return _render(d, text.split("\n"))


def render_all(diagnostics: list[Diagnostic], text: str = "") -> str:
    lines = text.split("\n")  # once: a run may report thousands; the parsers count only LF as a line end
    return "\n".join(_render(d, lines) for d in diagnostics)


def _render(d: Diagnostic, lines: list[str]) -> str:
    where = d.file or "<input>"
    if d.span is not None:
        where += f":{d.span.line}:{d.span.column}"
    out = [f"{where}: {d.severity}: {d.message}"]
    # A span may stand just past the last line: the end of an empty file, or of one ending in a newline.
    if d.span is not None and 0 < d.span.line <= len(lines) + 1:
        line = (lines[d.span.line - 1] if d.span.line <= len(lines) else "").expandtabs(1)
        offset = max(0, d.span.column - 60) if d.span.column > 120 else 0
        shown = ("... " if offset else "") + line[offset:offset + 120] + (" ..." if len(line) > offset + 120 else "")
        start = min(d.span.column - 1 - offset + (4 if offset else 0), len(shown))
        if d.span.end_line == d.span.line:
            width = max(1, min(d.span.end_column - d.span.column, len(shown) - start))
        else:
            width = max(1, len(shown) - start)
        out.append(f"    {shown}")
        out.append("    " + " " * start + "^" * width)
    if d.hint:
        out.append(f"  hint: {d.hint}")
    return "\n".join(out)
