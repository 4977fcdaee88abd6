"""One match measured for `compare`: its length, outcome, the cards played, and its lead history.

The lead is read after every turn (the active seat changes, or a round ends): each seat's total
plus its score for the round under way, as the ruleset scores it (the compiled score evaluated on
the state as it stands, which it leaves as it was); once the match is over, the totals. From that
history a worker keeps only a few numbers per match (lead changes, drama, decisiveness, the gap
curve), so a record stays small however long the match.

The ruleset may be won by the lowest total: every reading of the lead turns the totals round
first, so that "ahead" always means closer to winning. Between tied winners, the lead is read
for the first of them. With `teams`, the lead is the teams': each team's value is the sum of
its seats'.
"""
from __future__ import annotations

import functools
import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import cast

from .bots import BOTS, Table
from .compile import Compiled
from .engine import EngineError, Game, new_game
from .seats import SeatError, parse_seat
from .selfplay import matches, seat_bots

MAX_DECISIONS = 200_000  # a match still going after this many decisions is stopped: a safety limit
BINS = 20  # points on the normalised course of a match at which the gap curve is read
SEPARATOR = ","  # between the seat kinds of `--seats`


class SeatKindError(ValueError):
    """A seat kind that no bot here plays."""

    def __init__(self, message: str, hint: str = ""):
        super().__init__(message)
        self.message, self.hint = message, hint


def seat_kinds(text: str, players: int) -> tuple[str, ...]:
    """The kind of each seat from `--seats`: one kind for every seat, or one per seat."""
    kinds = tuple(kind.strip() for kind in text.split(SEPARATOR))
    if len(kinds) == 1:
        kinds *= players
    if len(kinds) != players:
        raise SeatKindError(f"--seats names {len(kinds)} seats for {players} players",
                            f"give one kind for every seat, or {players} separated by commas")
    return check_kinds(kinds)


def check_kinds(kinds: tuple[str, ...]) -> tuple[str, ...]:
    """`kinds`, when a bot here plays each (`selfplay.seat_bots` makes them, for compare as for
    self-play); else a `SeatKindError` naming the first that none does."""
    for kind in kinds:
        try:
            seat = parse_seat(kind)
        except SeatError:
            seat = None
        if seat is None or not seat.is_bot:
            raise SeatKindError(f"seat kind not available: {kind!r}", f"the seat kinds here: {', '.join(BOTS)} "
                                "(ismcts:400, ismcts:0.5s, greedy:16 set a budget)")
    return kinds


@dataclass(frozen=True)
class Lead:
    """What a match's lead history says, read from the eventual winner's side."""

    changes: int  # times the sole leader became another seat (ties in between do not count)
    drama: float  # the winner's deepest deficit to the leader, over the widest spread seen: 0..1
    behind: float  # the share of turns the winner spent behind the leader
    decisiveness: float  # the share of the match from which the winner led (or shared the lead) to the end
    gap: tuple[float, ...]  # winner minus best other seat at BINS points of the match's course


def read_lead(history: Sequence[Sequence[float]], winner: int, lowest: bool = False) -> Lead:
    """The lead figures of a history (one tuple of seat values per turn, the last being the
    final totals) for the eventual `winner`; with `lowest`, the lowest value leads."""
    sign = -1.0 if lowest else 1.0
    turns = len(history)
    if turns == 0:
        return Lead(0, 0.0, 0.0, 1.0, (0.0,) * BINS)
    changes, leader = 0, None
    deepest = widest = 0.0
    behind = 0
    first_led = turns  # the first turn of the winner's last unbroken run at the top
    gaps = []
    for t, values in enumerate(history):
        ahead = [sign * v for v in values]
        best = max(ahead)
        tops = [s for s, v in enumerate(ahead) if v == best]
        if len(tops) == 1:
            if leader is not None and tops[0] != leader:
                changes += 1
            leader = tops[0]
        deficit = best - ahead[winner]
        deepest, widest = max(deepest, deficit), max(widest, best - min(ahead))
        if deficit > 0:
            behind += 1
            first_led = turns
        elif first_led == turns:
            first_led = t
        gaps.append(ahead[winner] - max((v for s, v in enumerate(ahead) if s != winner), default=ahead[winner]))
    gap = tuple(gaps[min(turns - 1, int((b + 0.5) * turns / BINS))] for b in range(BINS))
    return Lead(changes, deepest / widest if widest > 0 else 0.0, behind / turns, (turns - first_led) / turns, gap)


@dataclass(frozen=True)
class Record:
    """One measured match, as small as it travels back from a worker."""

    index: int
    seed: int  # the game's seed
    seats: tuple[str, ...]  # the kind of each seat
    over: bool
    limit: str | None  # why the match was stopped before its end (a safety limit), or None
    rounds: int
    turns: int
    decisions: int
    plays: int
    totals: tuple[int, ...]
    winners: tuple[int, ...]
    reasons: tuple[str, ...]  # how each round ended
    cards: tuple[tuple[int, ...], ...]  # per seat, cards played of each card kind (the ruleset's order)
    lead: Lead | None  # None for a match that did not end


def standing(game: Game) -> tuple[float, ...]:
    """Each seat's total plus its score for the round under way, as the ruleset scores the
    position as it stands (no cleanup run first); the totals once the match is over (its last
    round is in them already)."""
    st = game.state
    if st.over:
        return tuple(st.totals)
    c, env = game.c, game.env
    slot = c.score_slot
    kept = env[slot]
    values = []
    for seat in range(game.n):
        env[slot] = seat
        values.append(st.totals[seat] + cast(int, c.score(env)))  # the checker types a score int
    env[slot] = kept
    return tuple(values)


def play_measured(compiled: Compiled, index: int, game_seed: int, bot_seed: int, *, seats: tuple[str, ...],
                  rotate: bool = False) -> Record:
    """Play match `index` between bots of the kinds `seats` and measure it. With `rotate`, the
    kinds move one seat on each match (the first kind sits at seat `index % players`), so that a
    lone kind plays from every seat in turn."""
    n = compiled.players
    if rotate:
        shift = index % n
        seats = seats[n - shift:] + seats[:n - shift]
    game = new_game(compiled, game_seed)
    bots, _ = seat_bots(seats, n, bot_seed, record=False)
    table = Table(game, bots)
    kinds = [card.kind for card in compiled.model.deck]
    kind_index = {kind.name: k for k, kind in enumerate(compiled.model.kinds)}
    kind_of_face = [kind_index[kind] for kind in kinds]
    cards = [[0] * len(kind_index) for _ in range(n)]
    st = game.state
    history: list[tuple[float, ...]] = []
    decisions, limit = 0, None
    active, round_ = st.active, st.round
    try:
        while not st.over:
            if decisions >= MAX_DECISIONS:
                limit = f"{MAX_DECISIONS:,} decisions"
                break
            seat = game.to_move
            assert seat is not None  # the match is not over: a seat is to move
            action = table.choose()
            play, face = action[0], action[1]
            if play is not None and play.value is None:  # a play of no card plays no kind
                for f in face if isinstance(face, tuple) else (face,):
                    cards[seat][kind_of_face[f]] += 1
            table.play(action)
            decisions += 1
            if st.over or st.active != active or st.round != round_:
                history.append(standing(game))
                active, round_ = st.active, st.round
    except EngineError as e:
        limit = str(e)
    over = st.over and limit is None
    winners = tuple(game.winners()) if over else ()
    lead = read_lead(*_by_team(compiled, history, winners), compiled.model.match.winner == "lowest") if over else None
    return Record(index, game_seed, tuple(seats), over, limit, len(st.results), len(history), decisions, st.plays,
                  tuple(st.totals), winners, tuple(r.reason for r in st.results), tuple(map(tuple, cards)), lead)


def _by_team(compiled: Compiled, history: list[tuple[float, ...]],
             winners: tuple[int, ...]) -> tuple[list[tuple[float, ...]], int]:
    """The history and the winner as the lead is read: by seat, or with `teams` by team (each
    team's value the sum of its seats'), so that partners are never each other's rivals."""
    if compiled.model.teams is None or not winners:
        return history, winners[0] if winners else 0
    teams = compiled.model.teams.at(compiled.players)
    return ([tuple(sum(values[s] for s in team) for team in teams) for values in history],
            next(k for k, team in enumerate(teams) if winners[0] in team))


def stream_seed(seed: int, stream: int) -> int:
    """The seed of the run's `stream`-th set of matches (one per SPEC, and one per SPEC for the
    skill): a function of the run's seed and the stream alone, and a different one for each
    stream, so that two SPECs that are the same game still play different matches."""
    return random.Random(f"compare {seed} {stream}").getrandbits(64)


def measure(compiled: Compiled, games: int, seed: int, seats: tuple[str, ...], *, rotate: bool = False,
            workers: int = 1, progress: Callable[[], None] | None = None) -> list[Record]:
    """Play and measure `games` matches (match i from the i-th seeds of `seed`, as self-play
    draws them), in this process or in a pool of `workers`; the records come in match order and
    are the same whatever the number of workers. `progress()` is called after each match."""
    play = functools.partial(play_measured, seats=seats, rotate=rotate)
    records: list[Record] = []
    played = matches(compiled, games, seed, workers=workers, play=play)
    try:
        for record in played:
            records.append(record)
            if progress is not None:
                progress()
    finally:
        played.close()
    return records
