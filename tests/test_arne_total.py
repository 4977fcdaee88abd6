"""ARNE Total, both editions and every variant, from one file: every legal selection checks clean
and an illegal or unknown one is refused with a located message; the deck in play at each
player count is RULINGS.md's composition (counted here by hand from its text); the deal gives
each seat its colour cards and a hand; random matches keep the engine's invariants; the REPL
plays each selection to its end, in Russian too, and a logged game replays."""
from __future__ import annotations

import re
from collections import Counter

import pytest

from cardrules.interpreter import gamelog
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import Game
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load_all
from cardrules.interpreter.selfplay import run as selfplay

from .conftest import RULESETS, cli

RULES = RULESETS / "arne_total.rules"
TEXT = RULES.read_text(encoding="utf-8")

# Every legal selection, written out from the variants' `requires` and `combines with`: the
# first game goes with each other variant, no other two go together, two colours is ru's only.
RU_VARIANTS = ("", "first_game", "minimum", "ghost", "teams", "two_colours", "first_game+minimum",
               "first_game+ghost", "first_game+teams", "first_game+two_colours")
EN_VARIANTS = ("", "first_game", "minimum", "ghost", "teams", "first_game+minimum", "first_game+ghost",
               "first_game+teams")
SELECTIONS = [("ru", v) for v in RU_VARIANTS] + [("en", v) for v in EN_VARIANTS]


def players_of(variants: str) -> tuple[int, ...]:
    """002: standard 2-6, Ghost 2-5, Teams 4, 6, 8, 10 or 12; 000: two colours with 2 or 3."""
    if "ghost" in variants:
        return (2, 3, 4, 5)
    if "teams" in variants:
        return (4, 6, 8, 10, 12)
    if "two_colours" in variants:
        return (2, 3)
    return (2, 3, 4, 5, 6)


CASES = [(e, v, p) for e, v in SELECTIONS for p in players_of(v)]


def label(edition: str, variants: str) -> str:
    return f"@{edition}" + (f"+{variants}" if variants else "")


def options(edition: str, variants: str) -> list[str]:
    """The command-line options of a selection."""
    return ["--edition", edition, *(a for v in variants.split("+") if v for a in ("--variant", v))]


@pytest.fixture(scope="module")
def models():
    """Every legal selection's checked model, by its label."""
    loaded = dict(load_all(TEXT, str(RULES)))
    assert [s for s, found in loaded.items() if isinstance(found, RulesError)] == []
    return {selection: found.model for selection, found in loaded.items()}


# ------------------------------------------------------------------ checking selections


def test_check_lists_every_legal_selection():
    done = cli("check", RULES)
    assert done.code == 0, done.stderr
    assert "Every legal selection checks (18)" in done.stdout
    listed = re.findall(r"^│ (@\S+) +│ ([^│]+?) +│ (\d+) +│$", done.stdout, re.M)
    assert sorted(s for s, _, _ in listed) == sorted(label(e, v) for e, v in SELECTIONS)
    assert all(warnings == "0" for _, _, warnings in listed)
    for selection, counts, _ in listed:  # a range as 2..6, a list as 4, 6, 8
        low, _, high = counts.partition("..")
        shown = tuple(range(int(low), int(high) + 1)) if high else tuple(map(int, counts.split(", ")))
        assert shown == players_of(selection), selection


@pytest.mark.parametrize("edition, variants", SELECTIONS, ids=[label(e, v) for e, v in SELECTIONS])
def test_each_selection_checks_clean(edition, variants):
    done = cli("check", RULES, *options(edition, variants), "--strict")
    assert done.code == 0, done.stderr
    assert done.stderr == ""
    assert f"│ edition and variants │ {label(edition, variants)} " in done.stdout


def _line_of(text: str, start: int = 0) -> int:
    """The 1-based line of the first `text` in the ruleset at or after line `start`."""
    lines = TEXT.splitlines()
    return next(k for k in range(start, len(lines)) if text in lines[k]) + 1


@pytest.mark.parametrize("flags, line, column, message, hint", [
    (["--edition", "ru", "--variant", "minimum", "--variant", "ghost"], lambda: _line_of("variant ghost {"), 9,
     "variant 'ghost' does not combine with variant 'minimum'", "'ghost' combines with: first_game"),
    (["--edition", "en", "--variant", "two_colours"],
     lambda: _line_of("requires edition ru", _line_of("variant two_colours {")), 5,
     "variant 'two_colours' is for edition ru, not en", "choose --edition ru, or leave out --variant two_colours"),
], ids=["minimum+ghost", "en+two_colours"])
def test_an_illegal_combination_is_located_at_its_variant(flags, line, column, message, hint):
    done = cli("check", RULES, *flags)
    assert done.code == 1
    at = line()
    lines = done.stderr.splitlines()
    assert lines[0] == f"{RULES}:{at}:{column}: error: {message}"
    assert lines[1] == "    " + TEXT.splitlines()[at - 1]
    assert lines[2].index("^") == 4 + column - 1
    assert lines[3].startswith(f"  hint: {hint}")
    assert "Traceback" not in done.stderr


@pytest.mark.parametrize("flags, message, hint", [
    (["--edition", "fr"], "the ruleset has no edition 'fr'", "its editions: ru, en"),
    (["--variant", "dummy"], "the ruleset has no variant 'dummy'",
     "its variants: first_game, minimum, ghost, teams, two_colours"),
])
def test_an_unknown_edition_or_variant_is_a_usage_error(flags, message, hint):
    done = cli("check", RULES, *flags)
    assert done.code == 2
    error, hint_line = done.stderr.splitlines()
    assert error == f"error: {message}"
    assert hint_line.lower().startswith("  hint: ") and hint in hint_line.lower()


# ------------------------------------------------------------------ the deck in play

# RULINGS.md, "ARNE — assumed deck composition", written out by hand. Per colour: its colour
# card, 50 x2, 100 x3, 200 x2, 500, 1000, x2 and -200 x2; all of them carry "1", those of colours
# 5 and 6 (orange, purple) a star.
PER_COLOUR = {"": 1, "50": 2, "100": 3, "200": 2, "500": 1, "1000": 1, "x2": 1, "-200": 2}
STARRED_COLOURS = ("orange", "purple")
PLAIN_COLOURS = ("blue", "green", "red", "yellow")
# The colourless kinds: face -> (copies with a star, copies without, whether they carry "1"):
# white actions x4 with a star on 2; crash, lock, chameleon, thief x8 and stop, change x6 with a
# star on 3; "1" on x3, +1, +3, crash and lock.
COLOURLESS = {
    "x3": (2, 2, True), "plus1": (2, 2, True), "plus2v": (2, 2, False), "plus2b": (2, 2, False),
    "plus3": (2, 2, True), "swaphands": (2, 2, False), "changeplaces": (2, 2, False),
    "crash": (3, 5, True), "lock": (3, 5, True), "chameleon": (3, 5, False), "thief": (3, 5, False),
    "stop": (3, 3, False), "change": (3, 3, False),
}


def cards(star: bool | None, one_only: bool) -> Counter:
    """The faces of the cards with a star (True), without (False) or all (None); only those
    marked "1" when `one_only`."""
    colours = {True: STARRED_COLOURS, False: PLAIN_COLOURS, None: STARRED_COLOURS + PLAIN_COLOURS}[star]
    out = Counter({colour + kind: n for colour in colours for kind, n in PER_COLOUR.items()})
    for face, (starred, plain, one) in COLOURLESS.items():
        if one or not one_only:
            out[face] = {True: starred, False: plain, None: starred + plain}[star]
    return +out


def test_the_composition_adds_up_as_rulings_says():
    """150 cards: 58 with a star, 92 without; with "1" 38 starred, 68 not, 106 in all."""
    assert sum(cards(None, False).values()) == 150
    assert sum(cards(True, False).values()) == 58 and sum(cards(False, False).values()) == 92
    assert sum(cards(True, True).values()) == 38 and sum(cards(False, True).values()) == 68
    assert sum(cards(None, True).values()) == 106
    assert sum(n for face, n in cards(None, False).items() if face in STARRED_COLOURS + PLAIN_COLOURS) == 6


def expected_deck(edition: str, variants: str, players: int) -> Counter:
    """RULINGS.md: en 2 colours the star cards, 3-4 those without, 5-6 all; ru the same but 3-4
    only "1" without a star; the first game only "1", by the same split. The split follows the
    colours in play (the ruleset's assumption): a ghost adds one, teams share one per two
    players, two colours a player double them. Teams play two sets; en teams without stop and
    change. The ghost keeps all 6 change cards, whatever their marks (RULINGS.md ARNE variants)."""
    colours = (players + 1 if "ghost" in variants else players // 2 if "teams" in variants
               else players * 2 if "two_colours" in variants else players)
    star = True if colours <= 2 else False if colours <= 4 else None
    deck = cards(star, "first_game" in variants or (edition == "ru" and star is False))
    if "ghost" in variants:
        deck["change"] = 6
    if "teams" in variants:
        deck = Counter({face: 2 * n for face, n in deck.items()
                        if edition == "ru" or face not in ("stop", "change")})
    return deck


@pytest.mark.parametrize("edition, variants, players", CASES)
def test_the_deck_in_play_is_the_rulings_composition(models, edition, variants, players):
    model = models[label(edition, variants)]
    assert model.counts == players_of(variants)
    c = compile_ruleset(model, players)
    deck = Counter(c.faces[f] for f in c.face_of)
    assert deck == expected_deck(edition, variants, players)
    assert c.deck_size == sum(deck.values())


@pytest.mark.parametrize("edition, variants, players, size", [
    ("en", "", 2, 58), ("en", "", 3, 92), ("en", "", 4, 92), ("en", "", 5, 150), ("en", "", 6, 150),
    ("ru", "", 2, 58), ("ru", "", 3, 68), ("ru", "", 4, 68), ("ru", "", 5, 150), ("ru", "", 6, 150),
    ("en", "first_game", 2, 38), ("en", "first_game", 4, 68), ("en", "first_game", 6, 106),
    ("ru", "first_game", 2, 38), ("ru", "first_game", 3, 68), ("ru", "first_game", 5, 106),
    ("en", "minimum", 2, 58), ("ru", "minimum", 4, 68),
    ("en", "ghost", 2, 95), ("ru", "ghost", 3, 74), ("en", "ghost", 4, 150), ("ru", "first_game+ghost", 2, 74),
    ("en", "first_game+ghost", 4, 112),
    ("en", "teams", 4, 104), ("en", "teams", 8, 172), ("en", "teams", 12, 276),
    ("ru", "teams", 4, 116), ("ru", "teams", 6, 136), ("ru", "teams", 10, 300),
    ("en", "first_game+teams", 4, 76), ("ru", "first_game+teams", 12, 212),
    ("ru", "two_colours", 2, 68), ("ru", "two_colours", 3, 150), ("ru", "first_game+two_colours", 3, 106),
])
def test_deck_sizes(models, edition, variants, players, size):
    """The sizes, counted by hand: en teams, 2 x (58 - 3 stop - 3 change) = 104 with 4 players; the
    ghost with 2 players in en, 92 without a star and the 3 starred change cards: 95."""
    assert compile_ruleset(models[label(edition, variants)], players).deck_size == size


@pytest.mark.parametrize("edition, stop, change", [("en", 0, 0), ("ru", 6, 6)])
def test_teams_play_two_sets_and_en_has_no_stop_or_change(models, edition, stop, change):
    """002 Teams: stop and change are removed; 000 keeps them. With 4 players (2 colours, the
    star cards) two sets give 2 x 3 of each."""
    model = models[f"@{edition}+teams"]
    assert model.sets == 2
    c = compile_ruleset(model, 4)
    deck = Counter(c.faces[f] for f in c.face_of)
    assert (deck["stop"], deck["change"], deck["chameleon"]) == (stop, change, 6)
    plays = {p.name for p in model.plays}
    assert {"stop", "change"} <= plays if stop else not {"stop", "change"} & plays


# ------------------------------------------------------------------ the deal

COLOURS = PLAIN_COLOURS + STARRED_COLOURS


def zone(game: Game, name: str):
    return game.state.zones[game.c.zone_index[name]]


def faces(game: Game, cards) -> list[str]:
    return [game.c.faces[game.c.face_of[card]] for card in cards]


@pytest.mark.parametrize("edition, variants, players", CASES)
def test_the_deal(models, edition, variants, players):
    """Each seat gets a colour card (two with two colours; in teams the home seats 0..n/2-1 only),
    all of different colours, and 8 cards: seat 0, which starts, has drawn its ninth. The
    colour cards left over lie in the box, none in the draw pile or a hand."""
    c = compile_ruleset(models[label(edition, variants)], players)
    game = Game(c, seed=players)
    badges = [faces(game, b) for b in zone(game, "badge")]
    per_seat = 2 if "two_colours" in variants else 1
    homes = players // 2 if "teams" in variants else players
    assert [len(b) for b in badges] == [per_seat] * homes + [0] * (players - homes)
    held = [f for b in badges for f in b]
    ghost = faces(game, zone(game, "ghost_badge")) if "ghost" in variants else []
    assert set(held + ghost) <= set(COLOURS) and len(ghost) == ("ghost" in variants)
    assert len(set(held + ghost)) == len(held + ghost)
    assert [len(h) for h in zone(game, "hand")] == [9] + [8] * (players - 1)
    dealt = Counter(held + ghost + faces(game, zone(game, "box")))
    in_deck = Counter({f: n for f, n in Counter(c.faces[f] for f in c.face_of).items() if f in COLOURS})
    assert dealt == in_deck
    assert not set(faces(game, zone(game, "draw"))) & set(COLOURS)
    assert not {f for h in zone(game, "hand") for f in faces(game, h)} & set(COLOURS)


# ------------------------------------------------------------------ random matches


def games_at(players: int) -> int:
    """Matches a player count gets: fewer where a match is long (236 in all)."""
    return 4 if players <= 4 else 2 if players <= 6 else 1


@pytest.mark.parametrize("edition, variants", SELECTIONS, ids=[label(e, v) for e, v in SELECTIONS])
def test_random_matches_keep_every_invariant(models, edition, variants):
    model = models[label(edition, variants)]
    for players in model.counts:
        checker, games = Checker(), games_at(players)
        stats = selfplay(compile_ruleset(model, players), games, seed=players, invariants=checker)
        assert checker.failures == [], f"{players} players"
        assert checker.matches == games and stats.round_end_reasons == {"last_black": games}


# ------------------------------------------------------------------ the REPL


@pytest.mark.parametrize("edition, variants", SELECTIONS, ids=[label(e, v) for e, v in SELECTIONS])
def test_the_repl_plays_each_selection_to_its_end(edition, variants):
    players = players_of(variants)[0]
    done = cli("play", RULES, *options(edition, variants), "--players", players,
               "--seats", ",".join(["random"] * players), "--seed", "5")
    assert done.code == 0, done.stderr
    assert f"ARNE Total{label(edition, variants)}: {players} players" in done.stdout
    assert re.search(r"^round 1 over after \d+ plays \(last_black\): the number of cards in draw is 0$", done.stdout,
                     re.M)
    totals = [int(re.search(rf"^{seat} random +[+-]?\d+ +(-?\d+)$", done.stdout, re.M).group(1))
              for seat in range(players)]
    if "teams" in variants:  # partners sit opposite; a team's total is the sum of its seats'
        totals = [totals[seat] + totals[(seat + players // 2) % players] for seat in range(players)]
    best = (min if "minimum" in variants else max)(totals)
    winners = [seat for seat, total in enumerate(totals) if total == best]
    said = re.search(r"^match over after 1 round: (.*) (wins|share the win) with (-?\d+)$", done.stdout, re.M)
    assert said and int(said.group(3)) == best
    assert re.findall(r"seat (\d+) \(random\)", said.group(1)) == [str(s) for s in winners]
    if "teams" in variants:  # partners collect one row: they win together
        assert all((s + players // 2) % players in winners for s in winners)


HUMAN = ["--edition", "ru", "--variant", "minimum", "--seats", "human,random,random,random", "--lang", "ru",
         "--seed", "2"]
RUSSIAN_FACE = re.compile(r"(синий|зелёный|красный|жёлтый)(50|100|200|500|1000|х2|-200)\b|"
                          r"\b(хамелеон|вор|крэш|замок|стоп|разворот|плюс1|плюс3|х3|передать|поменяться)\b")


def _human_game(lines: list[str]):
    return cli("play", RULES, *HUMAN, input="\n".join(lines) + "\n")


@pytest.fixture(scope="module")
def human_game(models):
    """A game of ARNE Minimum in Russian, seat 0 answering every prompt with its first move; the
    first of its moves that names a card, its number among seat 0's moves, and that move with
    its cards' English faces."""
    done = _human_game(["1"] * 400)
    ru, en = compile_ruleset(models["@ru+minimum"], 4, lang="ru"), compile_ruleset(models["@ru+minimum"], 4)
    english = dict(zip(ru.faces, en.faces, strict=True))
    said = re.findall(r"^место 0 \(human\): (.*)$", done.stdout, re.M)  # --lang ru: the interface too
    k, move = next((k, m) for k, m in enumerate(said) if RUSSIAN_FACE.search(m))
    play, card, *rest = move.split(" ")
    typed = " ".join([play, "+".join(english[part] for part in card.split("+")), *rest])
    assert typed != move and not RUSSIAN_FACE.search(typed)
    return done, k, move, typed


def test_a_human_plays_in_russian(human_game):
    done, *_ = human_game
    assert done.code == 0, done.stderr
    assert re.search(r"^матч окончен, позади 1 раунд: (побеждает место \d \((human|random)\)|.* делят победу)"
                     r", очков.*: -?\d+$", done.stdout, re.M)
    assert len(re.findall(r"^место 0 \(human\): ", done.stdout, re.M)) > 5
    named = re.findall(r"^место \d \((?:human|random)\): \S+ (\S+)", done.stdout, re.M)
    assert len(named) > 20 and RUSSIAN_FACE.search(done.stdout)
    assert [card for card in named if card.isascii() and card != "?"] == []  # the discard pile is face down


def test_a_move_typed_with_its_english_face_is_the_same_move(human_game):
    """Seat 0's first move that names a card, typed with English faces instead of by number:
    the game goes exactly as before, the move shown in Russian."""
    done, k, _, typed = human_game
    again = _human_game(["1"] * k + [typed] + ["1"] * 400)
    assert again.code == 0, again.stderr
    assert again.stdout.replace(f"место 0> {typed}\n", "место 0> 1\n", 1) == done.stdout


def test_why_takes_a_move_named_by_its_english_face(human_game):
    _, k, move, typed = human_game
    asked = _human_game(["1"] * k + [f"why {typed}", "quit"])
    assert asked.code == 0, asked.stderr
    assert f"{typed} сейчас разрешён" in asked.stdout or f"{move} сейчас разрешён" in asked.stdout


# ------------------------------------------------------------------ logs


@pytest.mark.parametrize("file, flags, selection", [
    (RULES, ["--edition", "ru", "--variant", "minimum", "--players", "4", "--lang", "ru"], "@ru+minimum"),
    (f"{RULES}@en+first_game+teams", ["--players", "6"], "@en+first_game+teams"),
])
def test_a_logged_game_records_its_selection_and_replays(tmp_path, file, flags, selection):
    path = tmp_path / "game.json"
    players = flags[flags.index("--players") + 1]
    done = cli("play", file, *flags, "--seats", ",".join(["random"] * int(players)), "--seed", "4", "--log", path)
    assert done.code == 0, done.stderr
    record = gamelog.read(path)
    assert record.ruleset == f"{RULES}{selection}"
    assert record.players == int(players) and len(record.moves) > 20
    replayed = cli("replay", path)
    assert replayed.code == 0, replayed.stderr
    assert "the result matches the log" in replayed.stdout
