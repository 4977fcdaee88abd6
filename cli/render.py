"""A seat's view and its legal moves, drawn compactly with rich for an 80-column terminal.

The renderer draws only what `Game.view(seat)` holds, so it cannot show a card the seat may not
see: hidden zones arrive as counts. Per-seat zones become columns of a table with a row per
seat; shared zones follow as lines. Piles read bottom to top, the top card last and bold.
"""
from __future__ import annotations

from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from ..interpreter.model import Ruleset
from ..interpreter.notation import Move
from .i18n import _

SHOWN_OF_SHARED = 8  # a public shared zone shows its last cards only


def view_of(view: dict, model: Ruleset, kinds: list[str], scores: list[int] | None = None) -> RenderableType:
    """The table as `view["seat"]` sees it; `kinds` names what plays each seat (human, random);
    `scores`, each seat's round score as it stands, go beside the totals."""
    me, to_move = view["seat"], view["to_move"]
    title = title_of(view, model)
    seats = Table(box=None, padding=(0, 1), pad_edge=False, show_edge=False, header_style="bold dim")
    seats.add_column("seat", no_wrap=True)
    seats.add_column("total", justify="right", no_wrap=True)
    if scores is not None:
        seats.add_column(_("now"), justify="right", no_wrap=True)
    per_seat = [z for z in model.zones if z.per_seat]
    for zone in per_seat:
        seats.add_column(zone.name, overflow="fold", ratio=1)
    for seat in range(view["players"]):
        label = Text("▶ " if seat == to_move else "  ")
        label.append(f"{seat} {'you' if seat == me else kinds[seat]}", style="bold" if seat == me else "")
        seats.add_row(label, str(view["totals"][seat]), *score_cells(scores, seat),
                      *(_zone(view["zones"][z.name][seat]) for z in per_seat))
    shared = Table.grid(padding=(0, 2))
    shared.add_column(style="bold dim", no_wrap=True)
    shared.add_column(overflow="fold")
    for zone in model.zones:
        if not zone.per_seat:
            shared.add_row(zone.name, _zone(view["zones"][zone.name], last=SHOWN_OF_SHARED))
    return Group(title, *teams_of(view, model), seats, shared, *values_of(view))


def values_of(view: dict) -> list[Text]:
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


def teams_of(view: dict, model: Ruleset) -> list[Text]:
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


def title_of(view: dict, model: Ruleset) -> Text:
    """The game, the round, and whose decision it is."""
    me, to_move = view["seat"], view["to_move"]
    title = Text(f"{model.title} · round {view['round'] + 1}", style="bold")
    if to_move is not None and view.get("window"):
        title.append(f" · seat {view['active']}'s turn · seat {to_move} may respond or pass"
                     + (" (you)" if to_move == me else ""))
    elif to_move is not None:
        title.append(f" · seat {to_move} to move" + (" (you)" if to_move == me else ""))
    return title


def changes_of(old: dict, new: dict, model: Ruleset, kinds: list[str], scores: list[int]) -> RenderableType:
    """What changed on the table between two views of one seat: the title with the round scores
    so far, then only the zones whose content changed, as they are now."""
    me = new["seat"]
    title = title_of(new, model)
    title.append(" · " + _("now") + ": " + ", ".join(
        f"{_('you') if seat == me else f'{seat} {kinds[seat]}'} {score}" for seat, score in enumerate(scores)),
                 style="")
    grid = Table.grid(padding=(0, 2))
    grid.add_column(style="bold dim", no_wrap=True)
    grid.add_column(overflow="fold")
    for zone in model.zones:
        if zone.per_seat:
            for seat, (was, now) in enumerate(zip(old["zones"][zone.name], new["zones"][zone.name])):
                if was != now:
                    whose = _("your {zone}") if seat == me else _("seat {seat}'s {zone}")
                    grid.add_row(whose.format(zone=zone.name, seat=seat), _zone(now))
        elif old["zones"][zone.name] != new["zones"][zone.name]:
            grid.add_row(zone.name, _zone(new["zones"][zone.name], last=SHOWN_OF_SHARED))
    if old["totals"] != new["totals"]:
        grid.add_row(_("totals"), " ".join(map(str, new["totals"])))
    if not grid.rows:
        grid.add_row(_("nothing changed"), Text(_("since your last prompt (`view` shows the table)"), style="dim"))
    return Group(title, grid)


def score_cells(scores: list[int] | None, seat: int) -> tuple[Text, ...]:
    """The cell of a seat's round score so far, if scores are shown."""
    return () if scores is None else (Text(str(scores[seat]), style="bold"),)


def _zone(content, last: int | None = None) -> Text:
    """A zone's content: a count when hidden, its cards or its numbered piles when visible."""
    if isinstance(content, dict):
        text = _count(content["count"])
        if "piles" in content and content["count"]:
            text += f" in {content['piles']} pile{'s' * (content['piles'] != 1)}"
        return Text(text, style="dim")
    if not content:
        return Text("–", style="dim")
    out = Text()
    if isinstance(content[0], list):
        for i, pile in enumerate(content):
            out.append(f"{' ' * bool(i)}{i}:[", style="dim")
            out.append(" ".join(pile[:-1]) + " " * (len(pile) > 1))
            out.append(pile[-1], style="bold")
            out.append("]", style="dim")
        return out
    if last is not None and len(content) > last:
        out.append(f"… {_count(len(content))}, the last: ", style="dim")
        content = content[-last:]
    out.append(" ".join(content))
    return out


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'s' * (n != 1)}"


def _count(n: int) -> str:
    return plural(n, "card")


def moves_of(moves: list[Move]) -> RenderableType:
    """The numbered moves (1-based, in the order given), one line per play and card with its
    targets: `put red5   1 @0  2 @1  3 @1/0` reads as `put red5 @1/0` for number 3."""
    groups: dict[tuple[str, str], list[tuple[int, Move]]] = {}
    for number, move in enumerate(moves, 1):
        groups.setdefault((move.play, move.card), []).append((number, move))
    grid = Table.grid(padding=(0, 2))
    grid.add_column(no_wrap=True)
    grid.add_column(overflow="fold")
    for (play, card), numbered in groups.items():
        targets = Text()
        for number, move in numbered:
            target = str(move)[len(f"{play} {card}"):].strip()
            targets.append(f"{number}", style="bold cyan")
            targets.append(f"{' ' + target if target else ''}   ")
        targets.rstrip()
        grid.add_row(f"{play} {card}", targets)
    return grid


def breakdown_of(b, kinds: list[str], viewer: int) -> RenderableType:
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
