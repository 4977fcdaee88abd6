"""The rulings a ruleset cites, read from the document it cites them in.

A clause may cite a ruling as `PATH.md#ANCHOR: the gist` (`docs/rulings.md#some-game: ...`). The
document marks each section and each ruling with an HTML anchor, `<a id="ANCHOR"></a>`, at the
start of a heading or of a list item. An anchor of a ruling gives that ruling; an anchor of a
section gives the ruling of that section whose words the citation's gist shares most (the gist
is written from the ruling), so that `card NAME` can show a player the ruling's own text.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

CITATION = re.compile(r"([\w./-]+\.md)#([\w-]+)(?::\s*([^;]*))?")
_ANCHOR = re.compile(r'<a id="([\w-]+)"></a>')
_WORD = re.compile(r"\w+")
MAX_BYTES = 1_000_000  # a document of rulings is a page, not a book


@dataclass(frozen=True)
class Ruling:
    anchor: str
    section: str  # the anchor of its section
    text: str  # the ruling in plain words, Markdown emphasis removed


def read(path: Path) -> dict[str, Ruling | str]:
    """The document's rulings by anchor; a section's anchor maps to its title."""
    found: dict[str, Ruling | str] = {}
    section = ""
    current: str | None = None
    lines: list[str] = []

    def close() -> None:
        if current is not None:
            found[current] = Ruling(current, section, " ".join(" ".join(lines).split()).replace("**", ""))

    pending: str | None = None  # a section anchor on its own line, before its heading
    for line in path.read_text(encoding="utf-8", errors="replace")[:MAX_BYTES].splitlines():
        item = re.match(r'\s*- <a id="([\w-]+)"></a>(.*)', line)
        if item:
            close()
            current, lines = item.group(1), [item.group(2)]
        elif line.startswith("#") or _ANCHOR.fullmatch(line.strip()):
            close()
            current, lines = None, []
            if line.startswith("#") and pending:
                section, found[pending] = pending, line.lstrip("# ").strip()
                pending = None
            elif anchor := _ANCHOR.fullmatch(line.strip()):  # matched above: a line of an anchor alone
                pending = anchor.group(1)
        elif current is not None and line.strip():
            lines.append(line.strip())
        elif current is not None:
            close()
            current, lines = None, []
    close()
    return found


def document_of(cited: str, ruleset_file: str) -> Path | None:
    """The cited document, looked for beside the ruleset, in the folder above it (a ruleset in
    `rulesets/` of a checkout cites `docs/...` of that checkout), and from here."""
    from .load import resolve  # a shipped ruleset is named by its name alone

    base = resolve(ruleset_file).resolve().parent
    for folder in (base, base.parent, Path.cwd()):
        path = folder / cited
        if path.is_file():
            return path
    return None


def cited(text: str, ruleset_file: str) -> list[Ruling]:
    """The rulings a clause's provenance text cites, found in their documents (those not found
    are left out)."""
    out: list[Ruling] = []
    for document, anchor, gist in CITATION.findall(text):
        path = document_of(document, ruleset_file)
        if path is None:
            continue
        rulings = read(path)
        entry = rulings.get(anchor)
        if isinstance(entry, str):  # a section: the ruling of it that the gist matches best
            entry = _closest([r for r in rulings.values() if isinstance(r, Ruling) and r.section == anchor], gist)
        if entry is not None and entry not in out:
            out.append(entry)
    return out


def _closest(rulings: list[Ruling], gist: str) -> Ruling | None:
    words = set(_WORD.findall(gist.lower()))
    if not rulings or not words:
        return None
    best = max(rulings, key=lambda r: len(words & set(_WORD.findall(r.text.lower()))) / len(words))
    shared = len(words & set(_WORD.findall(best.text.lower())))
    return best if shared >= min(3, len(words)) else None
