"""The move notation, typed by people, written in logs and scenario files.

    put red7 @2          play `put` with a red7 from the hand: a new pile in seat 2's zone
    put red7 @2/0        the same card onto pile 0 of seat 2's zone
    discard 8-hearts     a play to a shared zone names no seat
    lay 8-clubs /0       onto pile 0 of a shared zone of piles
    ask 7 @1             a play of no card names a value where a card stands (`ask @1 7` too)
    red7 @2              the play's name may be left out when one play is open
    pass                 let a response window go by

Seats and piles count from 0, as in every view. A `Move` is a small tuple whose `str` is its
canonical text, so text -> Move -> text round-trips. Three errors tell a bad spelling, an
illegal move and an ambiguous one apart (python-chess does the same).
"""
from __future__ import annotations

import re
from typing import NamedTuple

from .errors import CardrulesError


class Move(NamedTuple):
    play: str
    card: str
    seat: int | None = None  # None: a shared zone
    pile: int | None = None  # None: a new pile, or a zone of plain cards

    def __str__(self) -> str:
        if not self.card:  # `pass`, in a response window
            return self.play
        seat = "" if self.seat is None else f"@{self.seat}"
        pile = "" if self.pile is None else f"/{self.pile}"
        return f"{self.play} {self.card}" + (f" {seat}{pile}" if seat or pile else "")


class MoveError(CardrulesError, ValueError):
    """A typed move that cannot be played; `column` (1-based) points into the typed text."""

    def __init__(self, message: str, text: str = "", column: int = 0, hint: str = ""):
        super().__init__(message, hint)
        self.text, self.column = text, column

    def render(self) -> str:
        out = [self.message]
        if self.text and self.column:
            out += [f"    {self.text}", "    " + " " * (self.column - 1) + "^"]
        if self.hint:
            out.append(f"  hint: {self.hint}")
        return "\n".join(out)


class MoveSyntaxError(MoveError):
    """The text is not a move in the notation."""


class IllegalMoveError(MoveError):
    """A well-formed move that the rules do not allow now."""


class AmbiguousMoveError(MoveError):
    """A shortened move that fits more than one play."""


_TARGET = re.compile(r"(?:@(\d{1,3}))?(?:/(\d{1,3}))?$")
HELP = ("write PLAY CARD, then @SEAT for a seat's zone (a new pile there) or @SEAT/PILE onto a pile, "
        "e.g. put red7 @1/0")


def parse_move(text: str, open_plays: tuple[str, ...]) -> Move:
    """Read a typed move. `open_plays` are the plays open now, used when the name is left out."""
    words = [(m.group(), m.start() + 1) for m in re.finditer(r"\S+", text)]
    if not words:
        raise MoveSyntaxError("an empty move", text, 1, HELP)
    if len(words) == 1 and words[0][0].lower() == "pass":
        return Move("pass", "")
    inside = [w for w in words[1:-1] if w[0].startswith(("@", "/"))]
    if len(inside) == 1:  # `ask @1 7`: a seat named before the value reads as after it
        words = [w for w in words if w is not inside[0]] + inside
    target, column = words[-1]
    is_target = target.startswith(("@", "/"))
    found = _TARGET.match(target) if is_target else None
    if is_target and not found:
        raise MoveSyntaxError(f"'{target}' is not a target", text, column,
                              "a target is @SEAT, @SEAT/PILE, or /PILE in a shared zone, e.g. @1, @1/0, /0")
    rest = words[:-1] if found else words
    if len(rest) == 2:
        (play, _), (card, _) = rest
    elif len(rest) == 1:
        card = rest[0][0]
        if len(open_plays) != 1:
            if not open_plays:
                raise IllegalMoveError("no play is open now", text, 1)
            raise AmbiguousMoveError(f"'{text.strip()}' could be any of: {', '.join(open_plays)}", text, 1,
                                     "name the play first, e.g. " + f"{open_plays[0]} {text.strip()}")
        play = open_plays[0]
    else:
        raise MoveSyntaxError("a move is PLAY CARD @SEAT[/PILE]", text, words[0][1] if not rest else rest[-1][1], HELP)
    if found is None:
        return Move(play, card)
    seat, pile = found.group(1), found.group(2)
    return Move(play, card, int(seat) if seat is not None else None, int(pile) if pile is not None else None)


def _target(move: Move) -> str:
    return str(move)[len(f"{move.play} {move.card}"):].strip() if move.card else ""


def matching(text: str, moves: list[Move], face_index: dict[str, int]) -> list[Move]:
    """The legal moves that a shortened move may mean: each typed word is, in order, the play's
    name, the card (in any language the faces are named in) or the target of the move, and any
    of these may be left out: `jump` is `jump jump` when that is the only move with it."""
    words = text.split()
    if not words:
        return []

    def same(word: str, part: str, is_card: bool) -> bool:
        if not is_card:
            return word.lower() == part.lower()
        typed, named = word.lower().split("+"), part.lower().split("+")
        return len(typed) == len(named) and all(face_index.get(a, a) == face_index.get(b, b)
                                                for a, b in zip(typed, named, strict=True))

    found = []
    for move in moves:
        parts = [(move.play, False), (move.card, True), (_target(move), False)]
        k = 0
        for word in words:
            while k < len(parts) and not (parts[k][0] and same(word, *parts[k])):
                k += 1
            if k == len(parts):
                break
            k += 1
        else:
            found.append(move)
    return found
