"""Per-seat logs: what one seat of a logged match saw, move by move, and nothing it did not.

A full log's seed deals every hidden card, so a seat's log has no seed. It has the moves, which
are public announcements: a move names the card played because playing it shows it, unless the
zone it leaves and the zone it enters are both hidden from the seat (a card passed face down
between two others), when its face reads "?". After each move comes the seat's own view
(`Game.view`), which shows only counts of what the seat may not see. Visibility is read from the
ruleset's zones, so this knows no game.
"""
from __future__ import annotations

import json
from dataclasses import dataclass

from .compile import Compiled
from .engine import Game, View
from .gamelog import GameLog, LogResult, replay, result_record
from .model import Ruleset, Zone
from .notation import Move, parse_move

FORMAT = "cardrules-seat-log/1"
UNSEEN = "?"  # the face of a card the seat did not see moving


@dataclass(frozen=True)
class SeatMove:
    number: int  # 1-based, as in the full log
    seat: int  # who moved
    move: str  # the notation, the card's face as UNSEEN when the seat did not see it
    view: View  # the seat's view after the move


@dataclass(frozen=True)
class SeatLog:
    ruleset: str
    ruleset_sha256: str
    players: int
    params: dict[str, int]
    seat: int  # whose log this is
    seats: tuple[str, ...]
    start: View  # the seat's view once the cards are dealt, before the first move
    moves: tuple[SeatMove, ...]
    result: LogResult | None


def sees(zone: Zone, owner: int | None, seat: int) -> bool:
    """Whether `seat` sees the cards in `zone` of seat `owner` (None: a shared zone), as views do."""
    return zone.visibility == "public" or (zone.visibility == "owner" and owner == seat)


def as_seen(move: Move, mover: int, seat: int, model: Ruleset) -> Move:
    """`move` as `seat` sees it (-1: a seat that sees only public zones): the card's face is
    UNSEEN when both the zone it left and the zone it went to are hidden from that seat."""
    if not move.card:  # a pass
        return move
    play = model.play(move.play)
    if play.value is not None:  # a play of no card names a value aloud: every seat hears it
        return move
    source, dest = model.zone(play.card_zone), model.zone(play.dest_zone)
    if not sees(source, mover, seat) and not sees(dest, move.seat if dest.per_seat else None, seat):
        return move._replace(card=UNSEEN)
    return move


def redact(log: GameLog, compiled: Compiled, seat: int) -> SeatLog:
    """Replay `log` and keep what `seat` may see; a `gamelog.ReplayError` says where the log breaks."""
    if not 0 <= seat < log.players:
        raise ValueError(f"seat {seat}: the match has seats 0 to {log.players - 1}")
    moves: list[SeatMove] = []
    start: View | None = None
    open_plays: tuple[str, ...] = ()  # the plays open before the move to come: how its text reads

    def begin(game: Game) -> None:
        nonlocal start, open_plays
        start = game.view(seat)
        open_plays = game.open_plays()

    def after(number: int, mover: int, text: str, game: Game) -> None:
        nonlocal open_plays
        move = as_seen(parse_move(text, open_plays), mover, seat, compiled.model)
        moves.append(SeatMove(number, mover, str(move), game.view(seat)))
        open_plays = game.open_plays()

    replay(log, compiled, on_move=after, on_start=begin)
    assert start is not None  # replay calls on_start once the cards are dealt
    return SeatLog(log.ruleset, log.ruleset_sha256, log.players, dict(log.params), seat, log.seats, start,
                   tuple(moves), log.result)


def to_json(s: SeatLog) -> str:
    """The seat log as JSON, one move a line so that it reads and diffs line by line."""
    head = {"format": FORMAT, "ruleset": s.ruleset, "ruleset_sha256": s.ruleset_sha256, "players": s.players,
            "params": s.params, "seat": s.seat, "seats": list(s.seats), "start": s.start}
    moves = [json.dumps({"number": m.number, "seat": m.seat, "move": m.move, "view": m.view}, ensure_ascii=False)
             for m in s.moves]
    lines = [f"  {json.dumps(key)}: {json.dumps(value, ensure_ascii=False)}," for key, value in head.items()]
    lines.append('  "moves": [' + ("\n    " + ",\n    ".join(moves) + "\n  ]," if moves else "],"))
    lines.append(f'  "result": {json.dumps(result_record(s.result))}')
    return "{\n" + "\n".join(lines) + "\n}\n"
