"""`cardrules lsp`: the language server, over stdin and stdout. pygls speaks the protocol; every
answer comes from interpreter/editor.py, which knows no LSP. Diagnostics follow the author:
when a file opens or is saved, and 300 ms after the last change while typing. LSP counts
lines from 0 and columns in UTF-16 code units; the AST counts both from 1, columns in
characters: `_Positions` converts, in the encoding the client and server agreed on."""
from __future__ import annotations

import asyncio
from dataclasses import dataclass
from importlib.metadata import version
from typing import TYPE_CHECKING

from .common import fail

if TYPE_CHECKING:  # the `lsp` extra: imported when the server is built, named in annotations only
    from lsprotocol import types as t
    from pygls.lsp.server import LanguageServer

    from ..interpreter.diagnostics import Diagnostic, Span
    from ..interpreter.editor import Outline

DEBOUNCE = 0.3  # seconds after the last change before a text is checked again


def lsp() -> None:
    """Run the language server for editors (.rules files).

    It speaks on stdin and stdout, for an editor to start (docs/editors.md):
    diagnostics as you type, hover, completion, go to definition, references and an outline
    for .rules files. Needs the `lsp` extra: pip install 'cardrules\\[lsp]'."""
    try:
        server = build_server()
    except ImportError as e:
        raise fail(f"the language server needs pygls and lsprotocol ({e.name} is missing)",
                   "pip install 'cardrules[lsp]'") from None
    server.start_io()


def build_server() -> LanguageServer:
    from lsprotocol import types as t
    from pygls.lsp.server import LanguageServer

    from ..interpreter.editor import Analysis, analyze

    server = LanguageServer("cardrules", version("cardrules"),
                            text_document_sync_kind=t.TextDocumentSyncKind.Full)
    analyses: dict[str, Analysis] = {}
    pending: dict[str, asyncio.Task[None]] = {}

    def current(uri: str) -> Analysis:
        """The analysis of the document's text as it is now (made anew when the text changed)."""
        doc = server.workspace.get_text_document(uri)
        known = analyses.get(uri)
        if known is None or known.text != doc.source:
            known = analyses[uri] = analyze(doc.source, _file_name(uri))
        return known

    def positions(a: Analysis) -> _Positions:
        return _Positions(a.text.split("\n"), str(server.workspace.position_encoding or "utf-16"))

    def publish(uri: str) -> None:
        a = current(uri)
        at = positions(a)
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(
            uri=uri, diagnostics=[_diagnostic(at, d, uri) for d in a.diagnostics]))

    async def later(uri: str) -> None:
        await asyncio.sleep(DEBOUNCE)
        pending.pop(uri, None)
        try:
            publish(uri)
        except Exception as e:  # noqa: BLE001 - a bug of ours: told in the editor's log; the server carries on
            server.window_log_message(t.LogMessageParams(
                type=t.MessageType.Error, message=f"cardrules: internal error: {type(e).__name__}: {e}"))

    @server.feature(t.TEXT_DOCUMENT_DID_OPEN)
    def did_open(params: t.DidOpenTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_SAVE)
    def did_save(params: t.DidSaveTextDocumentParams) -> None:
        publish(params.text_document.uri)

    @server.feature(t.TEXT_DOCUMENT_DID_CHANGE)
    async def did_change(params: t.DidChangeTextDocumentParams) -> None:
        uri = params.text_document.uri
        if uri in pending:
            pending[uri].cancel()
        pending[uri] = asyncio.ensure_future(later(uri))

    @server.feature(t.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(params: t.DidCloseTextDocumentParams) -> None:
        uri = params.text_document.uri
        analyses.pop(uri, None)
        if uri in pending:
            pending.pop(uri).cancel()
        server.text_document_publish_diagnostics(t.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    @server.feature(t.TEXT_DOCUMENT_HOVER)
    def hover(params: t.HoverParams) -> t.Hover | None:
        a = current(params.text_document.uri)
        at = positions(a)
        line, column = at.place(params.position)
        text = a.hover(line, column)
        if text is None:
            return None
        o = a.at(line, column)
        return t.Hover(contents=t.MarkupContent(kind=t.MarkupKind.Markdown, value=text),
                       range=at.range(o.span if o is not None else None))

    @server.feature(t.TEXT_DOCUMENT_COMPLETION, t.CompletionOptions(trigger_characters=["."]))
    def completion(params: t.CompletionParams) -> t.CompletionList:
        a = current(params.text_document.uri)
        line, column = positions(a).place(params.position)
        items = [t.CompletionItem(label=word, kind=_completion_kind(what), detail=what, sort_text=f"{i:04d}")
                 for i, (word, what) in enumerate(a.completions(line, column))]
        return t.CompletionList(is_incomplete=False, items=items)

    @server.feature(t.TEXT_DOCUMENT_DEFINITION)
    def definition(params: t.DefinitionParams) -> list[t.Location]:
        a = current(params.text_document.uri)
        at = positions(a)
        o = a.at(*at.place(params.position))
        uri = params.text_document.uri
        return [t.Location(uri=uri, range=at.range(span)) for span in a.definitions(o)] if o else []

    @server.feature(t.TEXT_DOCUMENT_REFERENCES)
    def references(params: t.ReferenceParams) -> list[t.Location]:
        a = current(params.text_document.uri)
        at = positions(a)
        o = a.at(*at.place(params.position))
        uri = params.text_document.uri
        if o is None:
            return []
        return [t.Location(uri=uri, range=at.range(span))
                for span in a.references(o, params.context.include_declaration)]

    @server.feature(t.TEXT_DOCUMENT_DOCUMENT_SYMBOL)
    def symbols(params: t.DocumentSymbolParams) -> list[t.DocumentSymbol]:
        a = current(params.text_document.uri)
        at = positions(a)

        def symbol(o: Outline) -> t.DocumentSymbol:
            return t.DocumentSymbol(name=o.name, kind=_symbol_kind(o.kind),
                                    range=at.range(o.span), selection_range=at.range(o.name_span),
                                    children=[symbol(c) for c in o.children])
        return [symbol(o) for o in a.outline()]

    return server


# ------------------------------------------------------------------ conversions


def _file_name(uri: str) -> str:
    from urllib.parse import unquote, urlparse

    parsed = urlparse(uri)
    return unquote(parsed.path) if parsed.scheme == "file" else uri


@dataclass(frozen=True)
class _Positions:
    """Between the AST's places (1-based lines and character columns) and LSP's (0-based
    lines, columns in the code units the client and server agreed on: UTF-16 unless the client
    offers UTF-8 or UTF-32 first)."""

    lines: list[str]
    encoding: str  # "utf-8", "utf-16" or "utf-32"

    def _units(self, chars: str) -> int:
        if self.encoding == "utf-8":
            return len(chars.encode("utf-8"))
        if self.encoding == "utf-32":
            return len(chars)
        return len(chars.encode("utf-16-le")) // 2

    def to_lsp(self, line: int, column: int) -> t.Position:
        from lsprotocol import types as t

        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        return t.Position(line=max(line - 1, 0), character=self._units(text[:max(column - 1, 0)]))

    def place(self, position: t.Position) -> tuple[int, int]:
        """An LSP position as a 1-based line and character column."""
        text = self.lines[position.line] if position.line < len(self.lines) else ""
        units = 0
        for i, char in enumerate(text):
            if units >= position.character:
                return position.line + 1, i + 1
            units += self._units(char)
        return position.line + 1, len(text) + 1

    def range(self, span: Span | None) -> t.Range:
        from lsprotocol import types as t

        if span is None:
            return t.Range(start=t.Position(line=0, character=0), end=t.Position(line=0, character=0))
        return t.Range(start=self.to_lsp(span.line, span.column), end=self.to_lsp(span.end_line, span.end_column))


def _diagnostic(at: _Positions, d: Diagnostic, uri: str) -> t.Diagnostic:
    from lsprotocol import types as t

    severity = t.DiagnosticSeverity.Error if d.severity == "error" else t.DiagnosticSeverity.Warning
    where = at.range(d.span)
    related = [t.DiagnosticRelatedInformation(location=t.Location(uri=uri, range=where), message=f"hint: {d.hint}")] \
        if d.hint else None
    return t.Diagnostic(range=where, message=d.message + (f"\nhint: {d.hint}" if d.hint else ""), severity=severity,
                        source="cardrules", related_information=related)


def _completion_kind(what: str) -> t.CompletionItemKind:
    """The kind of a completion by what `Analysis.completions` says the word is."""
    from lsprotocol import types as t

    kinds = t.CompletionItemKind
    fixed = {"keyword": kinds.Keyword, "param": kinds.Constant, "zone": kinds.Variable, "attribute": kinds.Property,
             "mark": kinds.Property, "card": kinds.Class, "define": kinds.Function, "play": kinds.Method,
             "edition": kinds.Module, "variant": kinds.Module, "bound here": kinds.Variable}
    if what in fixed:
        return fixed[what]
    if what.startswith("value of "):
        return kinds.EnumMember
    if what.startswith("name: "):
        return kinds.Variable
    return kinds.Function if "(" in what else kinds.Text


def _symbol_kind(kind: str) -> t.SymbolKind:
    from lsprotocol import types as t

    return {"param": t.SymbolKind.Constant, "define": t.SymbolKind.Function, "attribute": t.SymbolKind.Enum,
            "value": t.SymbolKind.EnumMember, "card": t.SymbolKind.Class, "zone": t.SymbolKind.Variable,
            "play": t.SymbolKind.Method, "edition": t.SymbolKind.Namespace, "variant": t.SymbolKind.Namespace,
            "for": t.SymbolKind.Namespace, "game": t.SymbolKind.File, "turn": t.SymbolKind.Event,
            "window": t.SymbolKind.Event, "round end": t.SymbolKind.Event, "final round": t.SymbolKind.Event,
            }.get(kind, t.SymbolKind.Object)
