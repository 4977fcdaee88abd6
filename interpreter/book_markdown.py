"""A book (`book.Book`) as Markdown. Every string from the ruleset is escaped: Markdown's own
marks, and `<` and `&`, which Markdown would pass on as HTML."""
from __future__ import annotations

import html
import re

from . import book as b

_SPECIAL = re.compile(r"([\\`*_\[\]|~])")


def escape(text: str) -> str:
    text = text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
    text = _SPECIAL.sub(r"\\\1", text).replace("\n", " ")
    return "\\" + text if text[:1] in ("#", "+", "-") else text  # not a heading or a list at a line's start


def code(text: str) -> str:
    """A code span that holds any text: a fence longer than any run of backticks inside."""
    text = text.replace("\n", " ").replace("|", "\\|")
    longest = max((len(r) for r in re.findall(r"`+", text)), default=0)
    fence = "`" * (longest + 1)
    pad = " " if text.startswith("`") or text.endswith("`") or not text.strip() else ""
    return f"{fence}{pad}{text}{pad}{fence}"


def line(parts: b.Line) -> str:
    out = []
    for part in parts:
        if isinstance(part, b.Code):
            out.append(code(part.text))
        elif isinstance(part, b.Strong):
            out.append(f"**{escape(part.text)}**")
        elif isinstance(part, b.Link):
            out.append(f"[**{escape(part.text)}**](#{part.anchor})")  # anchors are the ruleset's identifiers
        elif isinstance(part, b.Note):
            out.append(f"[^{part.number}]")
        else:
            out.append(escape(part))
    return "".join(out)


def render(book: b.Book) -> str:
    out = [f"# {escape(book.title)}", ""]
    out += [line(s) + "  " for s in book.subtitle] + [""]
    out += [f"**{escape(book.contents_title)}**", ""]
    out += [f"- [{line(s.title)}](#{s.anchor})" for s in book.sections] + [""]
    for section in book.sections:
        out += _section(section)
    out += [f"## {escape(book.notes_title)}", ""]
    for number, items in enumerate(book.notes, 1):
        out.append(f"[^{number}]: " + "; ".join(f"{escape(label)}: {escape(text)}" for label, text in items))
    return "\n".join(out) + "\n"


def _section(s: b.Section) -> list[str]:
    out = [f'<a id="{html.escape(s.anchor)}"></a>', "", f"{'#' * s.level} {line(s.title)}", ""]
    for block in s.blocks:
        out += _block(block)
    return out


def _block(block: b.Block) -> list[str]:
    if isinstance(block, b.Section):
        return _section(block)
    if isinstance(block, b.Paragraph):
        return [line(block.line), ""] if block.line else []
    if isinstance(block, b.Items):
        return [f"{i}. " + line(x) if block.ordered else "- " + line(x)
                for i, x in enumerate(block.lines, 1)] + [""]
    if isinstance(block, b.Table):
        out = [f"*{line(block.caption)}*", ""] if block.caption else []
        out.append("| " + " | ".join(line(h) for h in block.header) + " |")
        out.append("|" + "---|" * len(block.header))
        out += ["| " + " | ".join(line(c) for c in row) + " |" for row in block.rows]
        return out + [""]
    raise TypeError(f"not a block: {block!r}")
