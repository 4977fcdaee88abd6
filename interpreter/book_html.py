"""A book (`book.Book`) as one self-contained HTML page: inline CSS, no script, no network, a
print stylesheet (a new page for each major section, no background colours). Every string
from the ruleset goes through `html.escape`."""
from __future__ import annotations

from html import escape

from . import book as b

STYLE = """
body { font: 16px/1.5 Georgia, 'Times New Roman', serif; max-width: 46em; margin: 2em auto; padding: 0 1em;
       color: #222; }
h1 { font-size: 2.2em; margin-bottom: .2em; }
h2 { border-bottom: 2px solid #8a6d3b; padding-bottom: .2em; margin-top: 2em; color: #5a3d0b; }
h3 { margin-top: 1.4em; color: #5a3d0b; }
.subtitle { color: #555; margin: 0; }
nav { background: #f7f2e8; border: 1px solid #e0d4bb; padding: .5em 1.2em; margin: 1.5em 0; }
nav ol { margin: .3em 0; }
code { font: .88em/1.3 'DejaVu Sans Mono', Consolas, monospace; background: #f3f0ea; padding: 0 .2em;
       border-radius: 3px; }
table { border-collapse: collapse; margin: 1em 0; }
caption { text-align: left; font-style: italic; padding-bottom: .3em; }
th, td { border: 1px solid #d8ccb4; padding: .25em .6em; text-align: left; vertical-align: top; }
th { background: #f7f2e8; }
sup a { text-decoration: none; color: #8a6d3b; font-size: .8em; }
.notes { font-size: .85em; color: #444; }
.notes li { margin-bottom: .3em; }
.label { font-weight: bold; }
@media print {
  body { max-width: none; margin: 0; font-size: 11pt; color: #000; }
  h2 { page-break-before: always; break-before: page; color: #000; }
  h3 { color: #000; }
  nav, th, code { background: none; }
  nav { border: none; }
  a { color: #000; text-decoration: none; }
  table, li { page-break-inside: avoid; break-inside: avoid; }
}
"""


def line(parts: b.Line) -> str:
    out = []
    for part in parts:
        if isinstance(part, b.Code):
            out.append(f"<code>{escape(part.text)}</code>")
        elif isinstance(part, b.Strong):
            out.append(f"<strong>{escape(part.text)}</strong>")
        elif isinstance(part, b.Link):
            out.append(f'<a href="#{escape(part.anchor)}"><strong>{escape(part.text)}</strong></a>')
        elif isinstance(part, b.Note):
            out.append(f'<sup><a href="#note-{part.number}" id="ref-{part.number}">[{part.number}]</a></sup>')
        else:
            out.append(escape(part))
    return "".join(out)


def render(book: b.Book) -> str:
    out = [
        "<!DOCTYPE html>",
        f'<html lang="{escape(book.lang)}">',
        "<head>",
        '<meta charset="utf-8">',
        f"<title>{escape(book.title)}</title>",
        f"<style>{STYLE}</style>",
        "</head>",
        "<body>",
        f"<h1>{escape(book.title)}</h1>",
    ]
    out += [f'<p class="subtitle">{line(s)}</p>' for s in book.subtitle]
    out.append(f"<nav><strong>{escape(book.contents_title)}</strong><ol>")
    out += [f'<li><a href="#{escape(s.anchor)}">{line(s.title)}</a></li>' for s in book.sections]
    out.append("</ol></nav>")
    for section in book.sections:
        out += _section(section)
    out.append(f'<h2 id="notes">{escape(book.notes_title)}</h2>')
    out.append('<ol class="notes">')
    for number, items in enumerate(book.notes, 1):
        text = "; ".join(f'<span class="label">{escape(label)}:</span> {escape(t)}' for label, t in items)
        out.append(f'<li id="note-{number}">{text}</li>')
    out += ["</ol>", "</body>", "</html>"]
    return "\n".join(out) + "\n"


def _section(s: b.Section) -> list[str]:
    out = [f'<section id="{escape(s.anchor)}">', f"<h{s.level}>{line(s.title)}</h{s.level}>"]
    for block in s.blocks:
        out += _block(block)
    return out + ["</section>"]


def _block(block: b.Block) -> list[str]:
    if isinstance(block, b.Section):
        return _section(block)
    if isinstance(block, b.Paragraph):
        return [f"<p>{line(block.line)}</p>"] if block.line else []
    if isinstance(block, b.Items):
        tag = "ol" if block.ordered else "ul"
        return [f"<{tag}>", *(f"<li>{line(x)}</li>" for x in block.lines), f"</{tag}>"]
    if isinstance(block, b.Table):
        out = ["<table>"]
        if block.caption:
            out.append(f"<caption>{line(block.caption)}</caption>")
        out.append("<tr>" + "".join(f"<th>{line(h)}</th>" for h in block.header) + "</tr>")
        out += ["<tr>" + "".join(f"<td>{line(c)}</td>" for c in row) + "</tr>" for row in block.rows]
        return out + ["</table>"]
    raise TypeError(f"not a block: {block!r}")
