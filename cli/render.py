"""A seat's view and its legal moves, drawn compactly with rich for an 80-column terminal.

The renderer draws only what `Game.view(seat)` holds, so it cannot show a card the seat may not
see: hidden zones arrive as counts. Per-seat zones become columns of a table with a row per
seat; shared zones follow as lines. Piles read bottom to top, the top card last and bold.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import TypeAlias

from rich.console import Console, ConsoleOptions, Group, RenderableType, RenderResult
from rich.measure import Measurement
from rich.table import Table
from rich.text import Text

from ..interpreter.drawing import drawings
from ..interpreter.engine import View
from ..interpreter.model import Ruleset
from ..interpreter.notation import Move
from ..interpreter.scoring import Breakdown
from .i18n import _, ngettext

SHOWN_OF_SHARED = 8  # a public shared zone shows its last cards only

Paint = Callable[[str], Text]  # a face, as the view holds it, drawn
ZoneShown: TypeAlias = dict[str, int] | list[str] | list[list[str]]  # a count when hidden, the cards, or the piles


def plain(face: str) -> Text:
    return Text(face)


def painter(model: Ruleset, lang: str | None, drawn: bool) -> Paint:
    """How faces are drawn: with the ruleset's `display` symbols and colours when `drawn` (at a
    terminal; rich leaves the colours out under NO_COLOR), else as typed."""
    if not drawn or not model.display:
        return plain
    looks = drawings(model, lang)

    def paint(face: str) -> Text:
        look = looks.get(face)
        return Text(face) if look is None else Text(look.text, style=look.colour or "")
    return paint


class Chunks:
    """Texts laid out in lines that break only between them: a pile or a card is never split
    across lines, unless it alone is wider than the line."""

    def __init__(self, chunks: list[Text], gap: int = 1):
        self.chunks, self.gap = chunks, gap

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        widths = [chunk.cell_len for chunk in self.chunks]
        return Measurement(max(widths, default=0), sum(widths) + self.gap * max(len(widths) - 1, 0))

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        line = Text()
        for chunk in self.chunks:
            if line and line.cell_len + self.gap + chunk.cell_len > options.max_width:
                yield line
                line = Text()
            line.append(" " * self.gap if line else "")
            line.append_text(chunk)
        yield line


def view_of(view: View, model: Ruleset, kinds: list[str], scores: list[int] | None = None, paint: Paint = plain,
            title: str | None = None) -> RenderableType:
    """The table as `view["seat"]` sees it; `kinds` names what plays each seat (human, random);
    `scores`, each seat's round score as it stands, go beside the totals; `paint` draws the
    cards, `title` names the game (its title in the language shown)."""
    me, to_move = view["seat"], view["to_move"]
    head = title_of(view, model, title)
    seats = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, header_style="bold dim")
    seats.add_column(_("seat"), no_wrap=True)
    seats.add_column(_("total"), justify="right", no_wrap=True)
    if scores is not None:
        seats.add_column(_("now"), justify="right", no_wrap=True)
    per_seat = [z for z in model.zones if z.per_seat]
    for zone in per_seat:
        seats.add_column(zone.name)
    for seat in range(view["players"]):
        label = Text("▶ " if seat == to_move else "  ")
        label.append(f"{seat} " + (_("you") if seat == me else kinds[seat]), style="bold" if seat == me else "")
        seats.add_row(label, str(view["totals"][seat]), *score_cells(scores, seat),
                      *(_zone(view["zones"][z.name][seat], paint) for z in per_seat))
    shared = Table.grid(padding=(0, 2))
    shared.add_column(style="bold dim", no_wrap=True)
    shared.add_column()
    for zone in model.zones:
        if not zone.per_seat:
            shared.add_row(zone.name, _zone(view["zones"][zone.name], paint, last=SHOWN_OF_SHARED))
    return Group(head, *teams_of(view, model), seats, shared, *values_of(view))


def values_of(view: View) -> list[Text]:
    """The named values (`let`), on one line, as the view shows them; nothing without values."""
    values = view.get("values") or {}
    if not values:
        return []
    line = Text(_("values: "), style="dim")
    for k, (name, value) in enumerate(values.items()):
        line.append((", " if k else "") + f"{name} ")
        line.append("–" if value is None else str(value).lower() if isinstance(value, bool) else str(value),
                    style="bold")
    return [line]


def teams_of(view: View, model: Ruleset) -> list[Text]:
    """For a ruleset with teams, a line that shows the seat its team (its partners) and every
    team's total; nothing without teams."""
    if model.teams is None:
        return []
    me, totals = view["seat"], view["totals"]
    line = Text()
    for k, team in enumerate(model.teams.at(view["players"])):
        seats = "+".join(map(str, team))
        mine = me in team
        line.append(" · " if k else _("teams: "), style="dim")
        line.append(seats, style="bold" if mine else "")
        if mine:
            partners = ", ".join(str(s) for s in team if s != me)
            line.append(_(" (your team, partner {partners})").format(partners=partners) if partners else _(" (you)"))
        line.append(_(" total {total}").format(total=sum(totals[s] for s in team)), style="dim")
    return [line]


def title_of(view: View, model: Ruleset, title: str | None = None) -> Text:
    """The game, the round, and whose decision it is."""
    me, to_move = view["seat"], view["to_move"]
    head = Text(_("{title} · round {round}").format(title=title or model.title, round=view["round"] + 1), style="bold")
    you = _(" (you)")
    if to_move is not None and view.get("window"):
        head.append(" · " + _("seat {active}'s turn · seat {seat} may respond or pass").format(
            active=view["active"], seat=to_move) + (you if to_move == me else ""))
    elif to_move is not None:
        head.append(" · " + _("seat {seat} to move").format(seat=to_move) + (you if to_move == me else ""))
    return head


def changes_of(old: View, new: View, model: Ruleset, kinds: list[str], scores: list[int], paint: Paint = plain,
               title: str | None = None) -> RenderableType:
    """What changed on the table between two views of one seat: the title with the round scores
    so far, then only the zones whose content changed, as they are now."""
    me = new["seat"]
    head = title_of(new, model, title)
    head.append(" · " + _("now") + ": " + ", ".join(
        f"{_('you') if seat == me else f'{seat} {kinds[seat]}'} {score}" for seat, score in enumerate(scores)),
                 style="")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold dim", no_wrap=True)
    grid.add_column()
    for zone in model.zones:
        if zone.per_seat:
            for seat, (was, now) in enumerate(zip(old["zones"][zone.name], new["zones"][zone.name], strict=True)):
                if was != now:
                    whose = _("your {zone}") if seat == me else _("seat {seat}'s {zone}")
                    grid.add_row(whose.format(zone=zone.name, seat=seat), _zone(now, paint))
        elif old["zones"][zone.name] != new["zones"][zone.name]:
            grid.add_row(zone.name, _zone(new["zones"][zone.name], paint, last=SHOWN_OF_SHARED))
    if old["totals"] != new["totals"]:
        grid.add_row(_("totals"), " ".join(map(str, new["totals"])))
    if not grid.rows:
        grid.add_row(_("nothing changed"), Text(_("since your last prompt (`view` shows the table)"), style="dim"))
    return Group(head, grid)


def score_cells(scores: list[int] | None, seat: int) -> tuple[Text, ...]:
    """The cell of a seat's round score so far, if scores are shown."""
    return () if scores is None else (Text(str(scores[seat]), style="bold"),)


def _zone(content: ZoneShown, paint: Paint = plain, last: int | None = None) -> RenderableType:
    """A zone's content: a count when hidden, its cards or its numbered piles when visible."""
    if isinstance(content, dict):
        text = _count(content["count"])
        if "piles" in content and content["count"]:
            text = ngettext("{cards} in {n} pile", "{cards} in {n} piles", content["piles"]).format(
                cards=text, n=content["piles"])
        return Text(text, style="dim")
    if not content:
        return Text("–", style="dim")
    if isinstance(content[0], list):
        return Chunks([_pile(i, pile, paint) for i, pile in enumerate(content)])
    chunks = [paint(face) for face in content]
    if last is not None and len(content) > last:
        chunks = [Text(_("… {cards}, the last:").format(cards=_count(len(content))), style="dim"), *chunks[-last:]]
    return Chunks(chunks)


def _pile(number: int, pile: list[str], paint: Paint) -> Text:
    """`0:[a b c]`, the top card (the last) in bold."""
    text = Text(f"{number}:[", style="dim")
    for k, face in enumerate(pile):
        card = paint(face)
        if k == len(pile) - 1:
            card.stylize("bold")
        text.append_text(card)
        text.append(" " if k < len(pile) - 1 else "")
    text.append("]", style="dim")
    return text


_NOUNS = {  # the counted words of the interface, each with its forms in every language
    "card": lambda n: ngettext("{n} card", "{n} cards", n),
    "move": lambda n: ngettext("{n} move", "{n} moves", n),
    "play": lambda n: ngettext("{n} play", "{n} plays", n),
    "round": lambda n: ngettext("{n} round", "{n} rounds", n),
    "pile": lambda n: ngettext("{n} pile", "{n} piles", n),
}


def plural(n: int, word: str) -> str:
    """`8 cards`: the count and its noun, translated when the noun is one of the interface's."""
    if word in _NOUNS:
        return _NOUNS[word](n).format(n=n)
    return f"{n} {word}{'s' * (n != 1)}"


def _count(n: int) -> str:
    return plural(n, "card")


def moves_of(moves: list[Move], paint: Paint = plain) -> RenderableType:
    """The numbered moves (1-based, in the order given), one line per play and card with its
    targets: `put red5   1 @0  2 @1  3 @1/0` reads as `put red5 @1/0` for number 3."""
    groups: dict[tuple[str, str], list[tuple[int, Move]]] = {}
    for number, move in enumerate(moves, 1):
        groups.setdefault((move.play, move.card), []).append((number, move))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column()
    for (play, card), numbered in groups.items():
        head = Text(play)
        if card:
            head.append(" ")
            head.append_text(_coloured(card, paint))
        targets = []
        for number, move in numbered:
            target = str(move)[len(f"{play} {card}"):].strip()
            chunk = Text(f"{number}", style="bold cyan")
            chunk.append(f" {target}" if target else "")
            targets.append(chunk)
        grid.add_row(head, Chunks(targets, gap=3))
    return grid


def _coloured(card: str, paint: Paint) -> Text:
    """A card of a move as typed (`K7`, a compound `K7+J2`), each face in the colour it is drawn in."""
    text = Text()
    for k, face in enumerate(card.split("+")):
        text.append("+" if k else "")
        text.append(face, style=paint(face).style)
    return text


def breakdown_of(b: Breakdown, kinds: list[str], viewer: int) -> RenderableType:
    """`score`: a seat's round score so far, how its clauses combine, then each clause with
    what it is made of (a `scoring.Breakdown`)."""
    who = _("you") if b.seat == viewer else kinds[b.seat]
    head = Text(_("seat {seat} ({who}): ").format(seat=b.seat, who=who), style="bold")
    head.append(f"{b.formula} = {b.total}" if b.formula != str(b.total) else str(b.total))
    lines = [head]
    for clause in b.clauses:
        line = Text(f"  {clause.text}", style="dim")
        if isinstance(clause.value, bool):
            line.append(f": {clause.detail}" if clause.detail else ":")
            line.append(" " + (_("yes") if clause.value else _("no")), style="bold")
        else:
            line.append(" = ")
            line.append(f"{clause.detail} = {clause.value}" if clause.detail and clause.detail != str(clause.value)
                        else str(clause.value))
        lines.append(line)
    return Group(*lines)
