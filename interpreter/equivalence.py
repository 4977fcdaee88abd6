"""The fast engine held equal to the reference, move by move: both play the same random
matches in lockstep, and at every position the distinct legal actions (in order), the seat to
move, every seat's view, the totals, the round results and the round scores as they stand (the
fast engine keeps them) must be the same, and the fast engine's one-ply trial of the move played
(`FastGame.trial`) must come to the same position and leave the match's random source as it was.
Ludii's TestCustomPlayouts does this for its specialised playouts. The fast engine's own match loop
(`FastGame.play_random`, which self-play with random bots runs) is held equal too, match by
match: the same final state, or the same error."""
from __future__ import annotations

import random
from dataclasses import dataclass

from .bots import RandomBot, play_out
from .compile import Compiled
from .engine import Action, EngineError, Game, new_game
from .fast import FastGame


class Mismatch(AssertionError):
    """The two engines disagree: where, and on what."""


@dataclass(frozen=True)
class Compared:
    matches: int
    positions: int


def _compare(ref: Game, fast: Game, where: str) -> None:
    if ref.actions() != fast.actions():
        raise Mismatch(f"{where}: legal actions differ:\n  reference {[str(ref.move_of(a)) for a in ref.actions()]}\n"
                       f"  fast      {[str(fast.move_of(a)) for a in fast.actions()]}")
    if ref.to_move != fast.to_move or ref.over != fast.over:
        raise Mismatch(f"{where}: seat to move {ref.to_move} vs {fast.to_move}, over {ref.over} vs {fast.over}")
    for seat in range(ref.n):
        if ref.view(seat) != fast.view(seat):
            raise Mismatch(f"{where}: seat {seat}'s view differs")
    st, sf = ref.state, fast.state
    if (st.totals, st.results, st.plays, st.direction, st.next_turns, st.step) != (
            sf.totals, sf.results, sf.plays, sf.direction, sf.next_turns, sf.step):
        raise Mismatch(f"{where}: scores, results or turn state differ")
    if not ref.over and ref.round_scores() != fast.round_scores():
        raise Mismatch(f"{where}: round scores now {ref.round_scores()} vs {fast.round_scores()}")


def compare(compiled: Compiled, positions: int, seed: int = 0, max_matches: int | None = None) -> Compared:
    """Random matches on both engines until `positions` positions have been compared (or
    `max_matches` matches played); raise `Mismatch` at the first difference."""
    chooser = random.Random(seed)
    done = matches = 0
    while done < positions and (max_matches is None or matches < max_matches):
        game_seed = chooser.getrandbits(32)
        ref, fast = new_game(compiled, game_seed, engine="reference"), new_game(compiled, game_seed, engine="fast")
        matches += 1
        while True:
            _compare(ref, fast, f"match seed {game_seed}, position {done}")
            done += 1
            if ref.over:
                break
            action = chooser.choice(ref.actions())
            trial = _trial(fast, action, f"match seed {game_seed}, position {done}")
            ref.play(action)
            fast.play(action)
            if trial is not None:
                _compare(fast, trial, f"match seed {game_seed}, the trial before position {done}")
    return Compared(matches, done)


def _trial(game: Game, action: Action, where: str) -> Game | None:
    """The fast engine's trial of `action` (None on the reference engine), checked to leave the
    match's random source as it was."""
    if not isinstance(game, FastGame):
        return None
    source = game.rng.getstate()
    trial = game.trial(action)
    if game.rng.getstate() != source:
        raise Mismatch(f"{where}: the trial drew on the match's random source")
    return trial


def _final(game: Game) -> tuple[object, ...]:
    """A snapshot of the whole final state, only compared for equality."""
    st = game.state
    return (st.zones, st.totals, st.round, st.active, st.step, st.over, st.plays, st.round_plays, st.idle_turns,
            st.passed, st.direction, st.next_turns, st.window, st.final_turns, st.results, st.silent,
            game.actions(), game.rng.getstate())


def compare_playouts(compiled: Compiled, matches: int, seed: int = 0) -> int:
    """`matches` random matches played out by one random bot on each engine, the fast one through
    its generated match loop: the same final state (the random source's too), or the same error.
    Returns the plays compared; raises `Mismatch` at the first difference."""
    chooser = random.Random(seed)
    plays = 0
    for _ in range(matches):
        game_seed, bot_seed = chooser.getrandbits(32), chooser.getrandbits(32)
        ends = []
        for engine in ("reference", "fast"):
            game = new_game(compiled, game_seed, engine=engine)
            try:
                play_out(game, [RandomBot(random.Random(bot_seed))] * compiled.players)
                ends.append(_final(game))
            except EngineError as e:
                ends.append(("error", str(e), _final(game)[:-2]))
        if ends[0] != ends[1]:
            raise Mismatch(f"match seed {game_seed}, bots' seed {bot_seed}: the match loop ends otherwise than the "
                           f"reference ({ends[0][0] if ends[0][0] == 'error' else 'over'} vs "
                           f"{ends[1][0] if ends[1][0] == 'error' else 'over'})")
        plays += game.state.plays
    return plays
