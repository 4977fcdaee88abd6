"""Bots: honest by construction (they see what their seat sees and nothing else), sampled worlds
that the seat cannot tell from the real one, determinism, legality, and enough strength that a
bot gone random fails here."""
from __future__ import annotations

import json
import random
import re
from collections import Counter

import pytest

from cardrules.interpreter import invariants, ismcts
from cardrules.interpreter.bots import GreedyBot, RandomBot, SeatView, Table, make_bot
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.ismcts import (
    LINE_CANDIDATES,
    IsmctsBot,
    Node,
    _candidates,
    _iterate,
    _rewards,
    _win_shares,
    key,
    search,
)
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.notation import Move
from cardrules.interpreter.outcome import round_values, seat_rivals
from cardrules.interpreter.seats import Seat, SeatError, parse_seat, parse_seats
from cardrules.interpreter.worlds import Knowledge, Memory, _places, public_flow

from .conftest import RULESETS, cli

SELECTIONS = {"klats": ("klats.rules", None, ()), "arne_92": ("arne_92.rules", None, ()),
              "arne_total@en": ("arne_total.rules", "en", ()), "arne_total@ru": ("arne_total.rules", "ru", ()),
              "arne_total@en+minimum": ("arne_total.rules", "en", ("minimum",))}

GIVE = """\
game "Give" { }
players 2..3
attribute rank in 1..30
card plain { rank each  face "r{rank}" }
zone stock shared hidden
zone hand per seat owner
zone heap shared public
setup {
    shuffle deck into stock
    deal 3 from stock to hand
}
play give {
    card from hand
    to hand of any other seat
}
play drop {
    card from hand
    to heap
}
turn { play one of give, drop or pass }
end round out when count(heap) >= 12
score s = count(hand of s)
match {
    until round >= 1
    winner highest
}
"""


# rulesets whose rules read who played a card (`played_by`) or keep a card in a value
MARKED = {"whist": ("whist.rules", None, (), 4), "hearts": ("hearts.rules", None, (), 4),
          "colour_rush": ("colour_rush.rules", None, (), 3), "go_fish": ("go_fish.rules", None, (), 3)}


def compiled(name: str, players: int | None = None):
    """The ruleset compiled for `players` (by default 2, or the count a `MARKED` one plays at)."""
    file, edition, variants = SELECTIONS[name] if name in SELECTIONS else MARKED[name][:3]
    players = players or (MARKED[name][3] if name in MARKED else 2)
    return compile_ruleset(load(str(RULESETS / file), edition, variants).model, players)


def positions(c, seed: int, watched: int, every: int = 7, limit: int = 60):
    """Positions of a random match where `watched` is to move, with its Table (which keeps the
    moves as `watched` saw them): every `every`-th of its decisions, up to `limit` actions."""
    game = Game(c, seed)
    table = Table(game, [RandomBot(random.Random(seed + s)) for s in range(c.players)], watch=(watched,))
    decisions = actions = 0
    while not game.over and actions < limit:
        if game.to_move == watched and len(game.actions()) > 1:
            decisions += 1
            if decisions % every == 1:
                yield game, table
        table.play(table.choose())
        actions += 1


def hidden_permuted(game: Game, seat: int, knowledge: Knowledge, rng: random.Random) -> Game:
    """The same match with the cards hidden from `seat` dealt again among the places that hide
    them, each place keeping its count and the faces the seat knows are there. Who played the
    card in a spot, and a value that names it, are public and stay with the spot."""
    state = game.state.copy()
    slots, pool = [], []
    for (z, owner), pins in [(p, knowledge.pinned.get(p, Counter())) for p in knowledge.layout.hidden]:
        cards = state.zones[z] if owner < 0 else state.zones[z][owner]
        keep = Counter(pins)
        for i, card in enumerate(cards):
            face = game.c.face_of[card]
            if keep[face] > 0:
                keep[face] -= 1
            else:
                slots.append((cards, i))
                pool.append(card)
    rng.shuffle(pool)
    moved = {}  # the card that was in a spot: the card there now
    for (cards, i), card in zip(slots, pool, strict=True):
        moved[cards[i]] = card
        cards[i] = card
    for was, now in moved.items():
        state.played[now] = game.state.played[was]
    for k, value in enumerate(game.c.model.values):
        if value.type == "card" and state.values[k] in moved:
            state.values[k] = moved[state.values[k]]
    return Game.resume(game.c, state, 0)


def seat_view(game: Game, table: Table, seat: int) -> SeatView:
    """What `seat` is given at `game`, with the history the table kept (the same for a match
    whose hidden cards were dealt otherwise: the seat saw the same)."""
    return SeatView(game.c, seat, game.view(seat), public_flow(game.c, game.state), tuple(game.actions()),
                    table.start[seat], tuple(table.history[seat]))


# ------------------------------------------------------------------ seat strings


def test_seat_strings_read_and_print_back():
    assert [str(s) for s in parse_seats("human,random,greedy,ismcts,ismcts:400,ismcts:0.5s,greedy:3")] == [
        "human", "random", "greedy", "ismcts", "ismcts:400", "ismcts:0.5s", "greedy:3"]
    assert parse_seat("ISMCTS:400") == Seat("ismcts", iterations=400)
    assert parse_seat("ismcts:1.25s") == Seat("ismcts", seconds=1.25)
    assert parse_seat("ismcts:0001000") == Seat("ismcts", iterations=1000)
    assert str(parse_seat("ismcts:600.000s")) == "ismcts:600s"


@pytest.mark.parametrize("text, message", [
    ("robot", "unknown kind 'robot'"), ("random:3", "takes no settings"), ("ismcts:fast", "bad setting"),
    ("greedy:0.5s", "bad setting"), ("ismcts:0", "the count must be"), ("ismcts:0s", "the time must be"),
    ("ismcts:1000001", "the count must be 1 to 1,000,000"), ("greedy:" + "9" * 5000, "the count must be"),
    ("ismcts:0.0005s", "thousandth of a second"), ("ismcts:601s", "at most 600 s"), ("ismcts:-5", "bad setting"),
])
def test_bad_seat_strings_say_what_is_wrong(text, message):
    with pytest.raises(SeatError) as e:
        parse_seat(text)
    assert message in e.value.message and e.value.hint


def test_a_bad_seat_is_a_usage_error_with_a_hint():
    done = cli("play", "klats", "--seats", "human,ismcts:lots")
    assert done.code == 2 and "bad setting 'lots'" in done.stderr and "hint:" in done.stderr


def test_a_log_records_each_seats_kind_and_replays_without_a_search(tmp_path):
    log = tmp_path / "game.json"
    done = cli("play", "klats", "--seats", "ismcts:5,greedy:1", "--seed", "2", "--log", log)
    assert done.code == 0, done.stderr
    assert json.loads(log.read_text().splitlines()[0])["seats"] == ["ismcts:5", "greedy:1"]  # the journal's head
    again = cli("replay", log)
    assert again.code == 0 and "the result matches the log" in again.stdout


def test_selfplay_with_mixed_seats_reports_each_seats_kind_and_logs_it(tmp_path):
    log = tmp_path / "matches.jsonl"
    done = cli("selfplay", "klats", "--seats", "ismcts:5,random", "--games", "2", "--json", "--log", log)
    assert done.code == 0, done.stderr
    figures = json.loads(done.stdout)
    assert figures["seats"] == ["ismcts:5", "random"] and figures["players"] == 2
    assert len(figures["wins_by_seat"]) == 2 and sum(figures["wins_by_seat"]) >= 2
    lines = log.read_text().splitlines()
    assert len(lines) == 2 and all(json.loads(line)["seats"] == ["ismcts:5", "random"] for line in lines)
    assert cli("replay", log, "--game", "2").code == 0


def test_hint_shows_the_top_moves_of_a_search():
    done = cli("play", "klats", "--seats", "human,random", "--seed", "4", input="hint\nquit\n")
    assert done.code == 0, done.stderr
    lines = re.findall(r"^  (\d)\. put (\S+ @\d+(?:/\d+)?)  tried (\d+) times, won (\d+)%$", done.stdout, re.M)
    assert [n for n, *_ in lines] == ["1", "2", "3"]
    visits = [int(v) for _, _, v, _ in lines]
    assert visits == sorted(visits, reverse=True) and visits[0] > 0
    assert "kept for the final round" not in done.stdout  # Klats has no final round


def test_hint_leaves_out_and_names_the_plays_the_bot_keeps_for_the_final_round():
    """ARNE Total's Russian edition: the first window, before the final round, with black cards
    in hand. The bot would keep them (`reserve`), so the hint weighs the rest and names them."""
    done = cli("play", "arne_total@ru", "--seats", "human,random", "--seed", "1", input="hint\nquit\n")
    assert done.code == 0, done.stderr
    kept = re.search(r"^  kept for the final round, as the bot keeps them: (.+)$", done.stdout, re.M)
    assert kept is not None
    plays = kept.group(1).split(", ")
    assert plays and set(plays) <= {"minus200", "pair", "cham_on", "crash", "lock", "thief_top", "thief_pair"}
    moves = re.findall(r"^  \d\. (\S+).*  tried \d+ times", done.stdout, re.M)
    assert moves and not set(moves) & set(plays)


# ------------------------------------------------------------------ sampled worlds


@pytest.mark.parametrize("name", [*SELECTIONS, "go_fish"])
def test_every_sampled_world_shows_the_seat_its_real_view_and_holds_the_deck(name):
    c = compiled(name, 3 if name == "klats" else None)
    rng = random.Random(5)
    checked = 0
    for game, table in positions(c, seed=11, watched=1):
        seen = seat_view(game, table, 1)
        memory = Memory()
        sampler = memory.sampler(seen)
        legal = sorted(key(1, a) for a in game.actions())
        for _ in range(6):
            world = sampler.sample(rng)
            assert world.view(1) == game.view(1)
            assert sorted(key(1, a) for a in world.actions()) == legal
            assert invariants.check(world) == []
            checked += 1
    assert checked >= 6


def test_a_card_seen_going_into_a_hand_stays_there_in_every_world():
    c = compile_ruleset(load_text(GIVE).model, 3)
    game = Game(c, 4)
    table = Table(game, [None, None, None], watch=(0,))
    given = game.view(0)["zones"]["hand"][0][0]
    table.play(game.action_of(next(m for m in game.legal_moves(0) if m.play == "give" and m.card == given
                                   and m.seat == 2)))
    table.play(game.action_of(next(m for m in game.legal_moves(1) if m.play == "drop")))  # seat 1 shows a card
    memory = Memory()
    while game.to_move != 0:
        table.play(game.action_of(next(m for m in game.legal_moves(game.to_move) if m.play == "drop")))
    sampler = memory.sampler(seat_view(game, table, 0))
    hand = c.model.zones.index(c.model.zone("hand"))
    assert memory.knowledge.pinned == {(hand, 2): Counter({c.faces.index(given): 1})}
    rng = random.Random(1)
    for _ in range(30):
        world = sampler.sample(rng)
        assert given in [c.faces[c.face_of[card]] for card in world.state.zones[hand][2]]
    # seat 2 then passes on a card seat 0 cannot see: the card may have left, and is no longer pinned
    table.play(game.action_of(next(m for m in game.legal_moves(0) if m.play == "drop")))
    table.play(game.action_of(next(m for m in game.legal_moves(1) if m.play == "drop")))
    table.play(game.action_of(next(m for m in game.legal_moves(2) if m.play == "give" and m.seat == 1)))
    memory.sampler(seat_view(game, table, 0))
    assert (hand, 2) not in memory.knowledge.pinned


BURY = GIVE.replace("zone heap shared public", "zone heap shared public\nzone pit shared hidden").replace(
    "turn { play one of give, drop or pass }", """play bury {
    card from hand where card.rank == 1
    to pit
}
turn { play one of give, drop, bury or pass }""")


def test_a_card_played_unseen_is_known_when_the_play_takes_one_face_only():
    c = compile_ruleset(load_text(BURY).model, 2)
    game = Game(c, 0)
    game.set_position({"hand": [["r5", "r6"], ["r1", "r7"]]}, active=1, rest="stock")
    table = Table(game, [None, None], watch=(0,))
    table.play(game.action_of(next(m for m in game.legal_moves(1) if m.play == "bury")))
    assert str(table.history[0][-1].move) == "bury ?"  # seat 0 does not see the card go
    memory = Memory()
    memory.of(seat_view(game, table, 0))
    pit = c.model.zones.index(c.model.zone("pit"))
    assert memory.knowledge.pinned == {(pit, -1): Counter({c.faces.index("r1"): 1})}


def test_a_play_that_passes_the_hands_round_unpins_what_was_in_them():
    rotate = GIVE.replace("turn { play one of give, drop or pass }", """play rotate {
    card from hand where card.rank == 1
    to heap
    then pass hand
}
turn { play one of give, drop, rotate or pass }""")
    c = compile_ruleset(load_text(rotate).model, 3)
    game = Game(c, 0)
    game.set_position({"hand": [["r5", "r6", "r4"], ["r1", "r7"], ["r8", "r9"]]}, active=0, rest="stock")
    table = Table(game, [None, None, None], watch=(0,))
    table.play(game.action_of(next(m for m in game.legal_moves(0) if m.play == "give" and m.card == "r5")))
    hand = c.model.zones.index(c.model.zone("hand"))
    memory = Memory()
    memory.of(seat_view(game, table, 0))
    r5 = c.faces.index("r5")
    assert memory.knowledge.pinned[(hand, 1)][r5] == 1
    table.play(game.action_of(next(m for m in game.legal_moves(1) if m.play == "rotate")))
    memory.of(seat_view(game, table, 0))
    # every hand keeps its count, yet r5 went on to seat 2 with the hand: the play says the hands moved
    assert memory.knowledge.pinned.get((hand, 1), Counter())[r5] == 0


def go_fish_after(hands: list[list[str]], asks: list[tuple[int, str]], active: int = 1):
    """Go Fish for two from `hands`, `active` to play, after the `asks` (each the seat asking the
    other and the rank): the match, its table, the hand zone's index, and seat 0's memory of it."""
    c = compile_ruleset(load(str(RULESETS / "go_fish.rules")).model, 2)
    game = Game(c, 3)
    game.set_position({"hand": hands}, active=active, rest="stock")
    table = Table(game, [None, None], watch=(0,))
    for seat, rank in asks:
        assert game.to_move == seat
        table.play(game.action_of(Move("ask", rank, 1 - seat)))
    memory = Memory()
    memory.of(seat_view(game, table, 0))
    return game, table, c.model.zones.index(c.model.zone("hand")), memory


def faces_of(c, rank: str) -> frozenset[int]:
    return frozenset(f for f, face in enumerate(c.faces) if face.split("-")[0] == rank)


def test_a_rank_a_rival_asks_for_is_in_its_hand_in_every_world():
    game, table, hand, memory = go_fish_after([["7-diamonds", "2-clubs"], ["7-clubs", "9-hearts", "10-spades"]],
                                              [(1, "7"), (1, "7")])
    c = game.c
    sevens = faces_of(c, "7")
    # the first ask took seat 0's seven (seen: pinned) and says seat 1 held one of its own; the
    # second, with that seven pinned there already, tells nothing more
    assert memory.knowledge.pinned == {(hand, 1): Counter({c.faces.index("7-diamonds"): 1})}
    assert memory.knowledge.held == {(hand, 1): [sevens]}
    assert game.to_move == 0  # seat 1 went fishing and did not draw a seven
    sampler = memory.sampler(seat_view(game, table, 0))
    rng, drew = random.Random(2), Counter()
    for _ in range(40):
        faces = [c.face_of[card] for card in sampler.sample(rng).state.zones[hand][1]]
        assert sum(f in sevens for f in faces) >= 2 and c.faces.index("7-diamonds") in faces
        drew.update(f for f in faces if f in sevens)
    assert len(drew) == 4  # which seven of its own is dealt at random


def test_a_rank_asked_for_again_is_kept_once():
    # seat 1 asks for nines in vain and fishes; seat 0 asks for sevens in vain and fishes the nine
    # of spades; seat 1 asks for nines again and takes it, in sight
    game, table, hand, memory = go_fish_after([["7-diamonds", "2-clubs"], ["9-hearts", "10-spades", "3-clubs"]],
                                              [(1, "9"), (0, "7"), (1, "9")])
    c, nines = game.c, faces_of(game.c, "9")
    assert memory.knowledge.held == {(hand, 1): [nines]}  # the second ask says what the first did
    assert memory.knowledge.pinned == {(hand, 1): Counter({c.faces.index("9-spades"): 1})}
    sampler = memory.sampler(seat_view(game, table, 0))
    rng = random.Random(4)
    held = Counter(sum(c.face_of[card] in nines for card in sampler.sample(rng).state.zones[hand][1])
                   for _ in range(40))
    assert min(held) == 2  # the nine it took and one of its own, as the real hand holds


def test_a_held_rank_is_forgotten_once_cards_of_it_leave_the_hand_in_sight():
    # seat 1 asks for sevens, takes seat 0's two and lays the four down as a book, in sight
    game, _, hand, memory = go_fish_after([["7-diamonds", "7-hearts", "2-clubs"],
                                           ["7-clubs", "7-spades", "9-hearts"]], [(1, "7")])
    assert game.view(0)["zones"]["books"][1] and memory.knowledge.held == {} and memory.knowledge.pinned == {}


def test_a_rank_asked_for_in_vain_is_not_in_the_hand_asked_but_for_the_cards_it_draws_after():
    # seat 0 asks for sevens in vain: seat 1 has none; then seat 1 asks for nines in vain and fishes
    game, table, hand, memory = go_fish_after([["7-diamonds", "2-clubs"], ["9-hearts", "10-spades", "3-clubs"]],
                                              [(0, "7")], active=0)
    c, sevens = game.c, faces_of(game.c, "7")
    assert [(lack.faces, lack.allowed) for lack in memory.knowledge.lacks[(hand, 1)]] == [(sevens, 0)]
    rng = random.Random(6)
    sampler = memory.sampler(seat_view(game, table, 0))
    for _ in range(40):
        assert not sevens & {c.face_of[card] for card in sampler.sample(rng).state.zones[hand][1]}
    assert game.to_move == 1
    table.play(game.action_of(Move("ask", "9", 0)))
    sampler = memory.sampler(seat_view(game, table, 0))
    assert [lack.allowed for lack in memory.knowledge.lacks[(hand, 1)]] == [1]  # the card it fished may be one
    held = Counter(sum(c.face_of[card] in sevens for card in sampler.sample(rng).state.zones[hand][1])
                   for _ in range(60))
    assert set(held) == {0, 1}


def real_faces(game: Game, place: tuple[int, int]) -> Counter:
    """The faces of the cards the real match holds at `place` (its piles' together)."""
    zone, owner = place
    cards = game.state.zones[zone] if owner < 0 else game.state.zones[zone][owner]
    if game.c.model.zones[zone].piles:
        cards = [card for pile in cards for card in pile]
    return Counter(game.c.face_of[card] for card in cards)


@pytest.mark.parametrize("name, players", [*((name, 2) for name in SELECTIONS if name != "klats"), ("arne_total@ru", 4),
                                           ("go_fish", 2), ("go_fish", 4), ("whist", 4), ("hearts", 4),
                                           ("rummy", 2)])
def test_what_a_seat_knows_of_the_cards_it_cannot_see_is_true_of_the_real_match(name, players):
    """Every seat's knowledge, after every move of random matches, holds of the real cards: its
    pins are there, each held set has a card of its faces beyond them, and no lacking place
    holds more of its faces beyond its pins than it may: the real match is a world the seat's
    sampler could deal."""
    c = (compiled(name, players) if name in SELECTIONS or name in MARKED
         else compile_ruleset(load(str(RULESETS / f"{name}.rules")).model, players))
    checked = {"pinned": 0, "held": 0, "lacks": 0}
    for seed in range(5):
        game = Game(c, 40 + seed)
        table = Table(game, [RandomBot(random.Random(seed * 7 + s)) for s in range(players)],
                      watch=tuple(range(players)))
        memories = [Memory() for _ in range(players)]
        for _ in range(200):
            if game.over:
                break
            table.play(table.choose())
            for seat, memory in enumerate(memories):
                knowledge = memory.of(seat_view(game, table, seat))
                for place, pins in knowledge.pinned.items():
                    assert not pins - real_faces(game, place), (seat, place)
                    checked["pinned"] += 1
                for place, sets in knowledge.held.items():
                    beyond = real_faces(game, place) - knowledge.pinned.get(place, Counter())
                    for faces in sets:
                        assert any(beyond[f] for f in faces), (seat, place, faces)
                    checked["held"] += 1
                for place, lacks in knowledge.lacks.items():
                    real = real_faces(game, place) - knowledge.pinned.get(place, Counter())  # a world deals pins first
                    for lack in lacks:
                        assert sum(real[f] for f in lack.faces) <= lack.allowed, (seat, place)
                        checked["lacks"] += 1
    assert checked["pinned"]  # a seat saw cards go into a hidden place (Klats and Colour Rush show none)
    if name == "go_fish":
        assert checked["held"] and checked["lacks"]


def test_partners_are_read_from_the_teams_clause():
    teams = compile_ruleset(load(str(RULESETS / "arne_total.rules"), "en", ("teams",)).model, 4)
    assert seat_rivals(teams) == ((1, 3), (0, 2), (1, 3), (0, 2))  # teams opposite: 0+2 against 1+3
    six = compile_ruleset(load(str(RULESETS / "arne_total.rules"), "en", ("teams",)).model, 6)
    assert seat_rivals(six)[4] == (0, 2, 3, 5)  # seat 4 plays with seat 1
    assert seat_rivals(compiled("arne_total@en", 4)) == ((1, 2, 3), (0, 2, 3), (0, 1, 3), (0, 1, 2))
    assert seat_rivals(compiled("klats", 3)) == ((1, 2), (0, 2), (0, 1))


# ------------------------------------------------------------------ honesty


@pytest.mark.parametrize("name", ["klats", "arne_total@en", "arne_total@ru", *MARKED])
def test_dealing_the_hidden_cards_otherwise_never_changes_a_bots_choice(name):
    c = compiled(name)
    rng = random.Random(3)
    compared = changed = 0
    for game, table in positions(c, seed=21, watched=0, every=4):
        seen = seat_view(game, table, 0)
        memory = Memory()
        memory.of(seen)
        other = hidden_permuted(game, 0, memory.knowledge, rng)
        assert other.view(0) == game.view(0)
        changed += other.state.zones != game.state.zones
        for make in (lambda: GreedyBot(random.Random(8)), lambda: IsmctsBot(random.Random(8), iterations=40)):
            assert make().choose(seen) == make().choose(seat_view(other, table, 0))
        compared += 1
    assert compared >= 2 and changed >= 1  # the hidden cards really lay otherwise


@pytest.mark.parametrize("name", ["klats", "arne_total@en", *MARKED])
def test_a_bots_search_never_changes_the_match(name):
    """The worlds a bot plays on share nothing with the match: a search once wrote who played
    which card, and the values its lines set (Whist's trump, the trick's taker), into the match."""
    c = compiled(name)
    game = Game(c, 6)
    table = Table(game, [IsmctsBot(random.Random(1), iterations=20)] +
                  [GreedyBot(random.Random(2 + s)) for s in range(1, c.players)])
    for _ in range(40):
        if game.over:
            break
        before = game.state.copy()
        action = table.choose()
        assert game.state == before
        table.play(action)


@pytest.mark.parametrize("name", list(MARKED))
def test_who_played_a_card_and_the_card_a_value_names_stay_with_its_spot_in_every_world(name):
    c = compiled(name)
    card_values = [k for k, v in enumerate(c.model.values) if v.type == "card"]
    rng, checked = random.Random(4), 0
    for game, table in positions(c, seed=5, watched=1, every=3):
        sampler = Memory().sampler(seat_view(game, table, 1))
        real = _spots(c, game.state.zones)
        for _ in range(4):
            world = sampler.sample(rng)
            spots = _spots(c, world.state.zones)
            assert spots.keys() == real.keys()
            for spot, card in real.items():
                assert world.state.played[spots[spot]] == game.state.played[card]
            where = {card: spot for spot, card in real.items()}
            for k in card_values:
                if game.state.values[k] in where:
                    assert world.state.values[k] == spots[where[game.state.values[k]]]
            checked += sum(seat >= 0 for seat in game.state.played) + sum(
                game.state.values[k] in where for k in card_values)
    assert checked > 0  # cards had been played or named: there were marks to keep


def _spots(c, zones) -> dict[tuple[tuple[int, int], int], int]:
    """(place, position) -> the card there, piles one after another."""
    return {(place, i): card for place, cards in _places(c, zones) for i, card in enumerate(cards)}


# ------------------------------------------------------------------ determinism and legality


def play_match(c, seats: str, seed: int) -> tuple[list[str], Game]:
    game = Game(c, seed)
    bots = [make_bot(s, random.Random(f"{seed}:{k}")) for k, s in enumerate(parse_seats(seats))]
    table, moves = Table(game, bots), []
    while not game.over:
        action = table.choose()
        assert action in game.actions()  # never an illegal move
        moves.append(str(game.move_of(action)))
        table.play(action)
    return moves, game


@pytest.mark.parametrize("name", ["klats", "arne_total@ru"])
def test_a_fixed_seed_gives_the_same_match(name):
    c = compiled(name)
    first, _ = play_match(c, "ismcts:12,greedy:2", 2)
    again, _ = play_match(c, "ismcts:12,greedy:2", 2)
    assert first == again


def test_bots_in_a_four_seat_match_make_only_legal_moves():
    c = compiled("arne_total@en", 4)
    _, game = play_match(c, "ismcts:8,greedy:2,random,greedy:1", 3)
    assert game.over


# ------------------------------------------------------------------ strength (a bot gone random fails)


@pytest.mark.parametrize("name", list(SELECTIONS))
def test_greedy_beats_random_clearly(name):
    c = compiled(name)
    wins = 0.0
    games = 16
    for g in range(games):
        seats = "greedy:2,random" if g % 2 == 0 else "random,greedy:2"
        _, game = play_match(c, seats, 100 + g)
        me = g % 2
        winners = game.winners()
        wins += (me in winners) / len(winners)
    assert wins >= 0.7 * games, f"greedy won {wins} of {games}"


@pytest.mark.parametrize("name, budget", [("klats", 40), ("arne_92", 60), ("arne_total@en", 60), ("arne_total@ru", 60),
                                          ("arne_total@en+minimum", 60)])
def test_ismcts_beats_random_clearly(name, budget):
    c = compiled(name)
    wins = 0.0
    games = 16  # a bot gone random reaches 11 of 16 once in 10 seeds
    for g in range(games):
        seats = f"ismcts:{budget},random" if g % 2 == 0 else f"random,ismcts:{budget}"
        _, game = play_match(c, seats, 200 + g)
        winners = game.winners()
        wins += (g % 2 in winners) / len(winners)
    assert wins >= 0.65 * games, f"ismcts won {wins} of {games}"


def test_ismcts_never_makes_the_same_play_twice_from_the_same_view_but_passes_again():
    """A cycle (a card fetching back the card that fetched it) would otherwise never end a round.
    A pass makes no cycle, and one window asks the same view again after each step: a barred
    pass used to force the search's next move (a crash on the bot's own pile)."""
    c = compiled("arne_total@en")
    game, table = next((g, t) for g, t in positions(c, seed=21, watched=0, every=2, limit=400)
                       if any(a[0] is None for a in g.actions()) and len(g.actions()) >= 3)
    seen = seat_view(game, table, 0)
    plays = [a for a in seen.actions() if a[0] is not None]
    bot = IsmctsBot(random.Random(1), iterations=30)
    chosen = [bot.choose(seen) for _ in range(len(seen.actions()) + 3)]
    made = [a for a in chosen if a[0] is not None]
    assert len(set(map(repr, made))) == len(made)  # no play twice
    assert set(map(repr, made)) <= set(map(repr, plays))
    assert sum(a[0] is None for a in chosen) >= 4  # more asks than plays: the rest are passes


def test_ismcts_rewards_a_line_by_its_gain_not_by_where_it_stands():
    """Far behind, tanh of the margin is flat and the search chose at random (an x2 thrown away
    3,800 points down): two lines with the same gains reward alike, wherever they began."""
    rivals = ((1,), (0,))
    scale, won = [0.0, 0], [0, 1]  # seat 1 stands best where each line ends
    far = _rewards([1000, 5000], won, scale, rivals, before=[-6000, 6000])  # margins -4000/4000, gains 2000/-2000
    near = _rewards([1000, 2000], won, scale, rivals, before=[-3000, 3000])  # margins -1000/1000, the same gains
    assert far == pytest.approx(near)
    worse = _rewards([1000, 2000], won, scale, rivals, before=[-1000, 1000])  # the same standing, no gain
    assert worse[0] < near[0] and worse[1] > near[1]


def test_a_teams_win_is_a_win_for_each_of_its_seats_in_the_search():
    """A match counts a team's win as each of its seats' win; so do the search's rewards and its
    win rates (the hint's figures): a Whist side standing best alone is a whole win for both its
    seats, not half a win each. Without teams the win is shared among the seats that tie."""
    partners = ((1, 3), (0, 2), (1, 3), (0, 2))  # each seat's rivals: seats 0+2 and 1+3
    assert _win_shares([7, 3, 7, 3], partners) == [1, 0, 1, 0]
    assert _win_shares([3, 3, 3, 3], partners) == [0.5] * 4
    alone = ((1, 2), (0, 2), (0, 1))
    assert _win_shares([5, 5, 1], alone) == [0.5, 0.5, 0]
    scale = [0.0, 0]
    assert _rewards([7, 3, 7, 3], [1, 0, 1, 0], scale, partners, before=[0, 0, 0, 0])[0] > 0.75  # half a win and a gain


def test_a_lines_candidates_hold_one_of_each_play_the_seat_can_make():
    """A card held once is one way to play among many ways to give or drop any card: drawn from
    all alike it was left out of most lines (here 13 times in 21)."""
    c = compile_ruleset(load_text(BURY).model, 2)
    game = Game(c, 0)
    game.set_position({"hand": [["r1", *(f"r{k}" for k in range(2, 11))], ["r20"]]}, active=0, rest="stock")
    actions = game.actions()
    plays = {None if a[0] is None else a[0].name for a in actions}
    assert plays == {"give", "drop", "bury"} and len(actions) > LINE_CANDIDATES
    for seed in range(40):
        chosen = _candidates(actions, random.Random(seed))
        assert len(chosen) == LINE_CANDIDATES and len(set(map(repr, chosen))) == LINE_CANDIDATES
        assert all(a in actions for a in chosen)
        assert {None if a[0] is None else a[0].name for a in chosen} == plays


def test_a_line_is_scored_after_its_plays_however_many_passes_come_between(monkeypatch):
    """A window after every step asks each seat, so a horizon counted in actions ended most lines
    in passes before the seat's own next play: the thief that fetches back the card just played
    against it was scored without the play that card makes."""
    c = compiled("arne_total@en")
    game, table = next(iter(positions(c, seed=21, watched=0, every=5, limit=200)))
    seen = seat_view(game, table, 0)
    legal = {key(0, a): a for a in seen.actions()}
    sampler, rng, rivals = Memory().sampler(seen), random.Random(2), seat_rivals(c)
    root, scale, horizon, lines = Node(), [0.0, 0], 4, 0
    scored = []  # the positions lines are scored at, the last its end (a line plays on in copies of its world)

    def scoring(world, start_round):
        scored.append(world)
        return round_values(world, start_round)

    monkeypatch.setattr(ismcts, "round_values", scoring)
    for _ in range(20):
        world = sampler.sample(rng)
        if world.to_move != 0:
            continue
        plays = world.state.plays
        _iterate(world, root, legal, rng, horizon, scale, rivals, False)
        end = scored[-1].state
        assert end.plays - plays == horizon or end.round > game.state.round or end.over
        lines += 1
    assert lines >= 10


@pytest.mark.parametrize(("players", "plays"), [(2, 3 * 2), (4, 8)])
def test_a_lines_horizon_is_3_plays_a_seat_and_8_plays_at_most(monkeypatch, players, plays):
    """3 plays a seat beat 2 against greedy (docs/bots-research.md, "Longer lines"); with four seats
    that would be 12 plays, half as much again as 8 for a seat already far above its target."""
    c = compiled("arne_total@en", players)
    game, table = next(iter(positions(c, seed=21, watched=0, every=5, limit=200)))
    seen = seat_view(game, table, 0)
    horizons = set()

    def iterate(world, root, legal, rng, horizon, scale, rivals, play_on):
        horizons.add(horizon)
        return False

    monkeypatch.setattr(ismcts, "_iterate", iterate)
    search(Memory().sampler(seen), 0, seen.actions(), random.Random(1), iterations=20)
    assert horizons == {plays}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_decision_with_no_budget_searches_longer_with_more_seats(monkeypatch, players):
    """With four seats a line gives each rival 2 plays and the tree splits its visits over three
    rivals' moves: 300 iterations won more than 150 among three bots, where two seats gained
    nothing from them (docs/bots.md, "A budget that grows with the seats"). No more past four:
    a decision there nears the second allowed."""
    c = compiled("arne_total@en", players)
    game, table = next(iter(positions(c, seed=21, watched=0, every=5, limit=200)))
    seen = seat_view(game, table, 0)
    lines = []
    monkeypatch.setattr(ismcts, "SETTLED_EVERY", 10**9)  # every iteration of the budget runs
    monkeypatch.setattr(ismcts, "_iterate", lambda *args: lines.append(args) or False)
    search(Memory().sampler(seen), 0, seen.actions(), random.Random(1))
    assert len(lines) == ismcts.ISMCTS_ITERATIONS * players // 2 == ismcts.default_iterations(players)
    assert ismcts.default_iterations(6) == ismcts.default_iterations(4)


def test_a_search_whose_lines_end_quiet_plays_them_on_and_learns(monkeypatch):
    """Whist scores a side only past its sixth trick, so at a deal's first lead every line of the
    horizon ends where it began: without playing on, each move's lines come out alike and the
    choice is at random; played on, the moves' lines differ. In ARNE Total a value changes
    within the horizon, so its searches mostly run as before, lines scored at the horizon."""
    c = compiled("whist")
    game, table = next(iter(positions(c, seed=3, watched=0, every=2, limit=4)))
    seen = seat_view(game, table, 0)

    def win_rates():
        edges = search(Memory().sampler(seen), 0, seen.actions(), random.Random(4), iterations=120)
        return {round(e.win_rate, 9) for e in edges if e.visits}

    played_on = win_rates()
    with monkeypatch.context() as m:
        m.setattr(ismcts, "QUIET_PROBE", 0)
        assert len(win_rates()) == 1
    assert len(played_on) > 1

    playing_on = []  # for each line, whether its search played quiet lines on
    iterate = ismcts._iterate

    def counting(*args):
        playing_on.append(args[-1])
        return iterate(*args)

    monkeypatch.setattr(ismcts, "_iterate", counting)
    arne = compiled("arne_total@en")
    for game, table in positions(arne, seed=21, watched=0, every=4, limit=200):
        seen = seat_view(game, table, 0)
        search(Memory().sampler(seen), 0, seen.actions(), random.Random(5), iterations=30)
    assert playing_on and sum(playing_on) < len(playing_on) / 4


def test_a_quiet_line_plays_on_until_a_value_changes_or_the_round_ends():
    """Where nothing scores within the horizon, a line plays on at random: it stops at the first
    play that changes a seat's value, or at the round's end, never sooner and never past it."""
    c = compiled("whist")
    game, table = next(iter(positions(c, seed=3, watched=0, every=2, limit=4)))
    seen = seat_view(game, table, 0)
    sampler, rng = Memory().sampler(seen), random.Random(6)
    for _ in range(10):
        world = sampler.sample(rng)
        st = world.state
        start_round, start, plays = st.round, round_values(world, st.round), st.plays
        values = ismcts._played_on(world, rng, start_round, start)
        assert values == round_values(world, start_round)
        assert values != start or st.over or st.round > start_round or st.plays - plays == ismcts.QUIET_PLAYS


def test_a_search_stops_once_its_choice_is_settled_and_chooses_as_the_whole_budget(monkeypatch):
    """Once no move can overtake the most visited in the iterations left, the rest would change
    nothing that is chosen: the search stops there, and a clear decision costs less."""
    c = compiled("arne_total@en")
    stopped = 0
    for game, table in positions(c, seed=21, watched=0, every=3, limit=300):
        seen = seat_view(game, table, 0)
        early = search(Memory().sampler(seen), 0, seen.actions(), random.Random(5), iterations=120)
        with monkeypatch.context() as m:
            m.setattr(ismcts, "SETTLED_EVERY", 10**9)  # looked at before the first iteration only
            whole = search(Memory().sampler(seen), 0, seen.actions(), random.Random(5), iterations=120)
        assert early[0].action == whole[0].action
        stopped += sum(e.visits for e in early) < sum(e.visits for e in whole)
    assert stopped >= 2
