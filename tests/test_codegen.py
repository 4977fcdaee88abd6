"""The generated engine: equal to the reference move by move on every shipped ruleset and
selection, scenarios and invariants on both engines, generated source made of our own names
only (hostile names and faces included), copies that share nothing, the engine factory."""
from __future__ import annotations

import io
import keyword
import random
import re
import tokenize

import pytest

from cardrules.interpreter import codegen
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game, new_game
from cardrules.interpreter.equivalence import compare, compare_playouts
from cardrules.interpreter.fast import FastGame, plan
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load, load_all, load_text
from cardrules.interpreter.outcome import margin
from cardrules.interpreter.scenarios import load_file
from cardrules.interpreter.scenarios import run as run_scenarios
from cardrules.interpreter.selfplay import run

from .conftest import REPO, RULESETS
from .helpers import KINDS, LEDGER, QUICK, QUICK_FINAL, RAID, REPEAT, STARS, TEXTS, TRADE

BLOCKS = {**TEXTS, "trade": TRADE, "repeat": REPEAT, "stars": STARS, "kinds": KINDS, "quick": QUICK, "raid": RAID,
          "final": QUICK_FINAL, "ledger": LEDGER}

SHIPPED = ("klats", "arne_92", "arne_total", "go_fish", "whist", "colour_rush", "hearts", "rummy")
EXAMPLES = sorted((REPO / "docs" / "examples").glob("*.rules"))


def every_selection():
    """(ruleset, selection text, model) for every legal selection of every shipped ruleset."""
    for name in SHIPPED:
        path = RULESETS / f"{name}.rules"
        for selection, loaded in load_all(path.read_text(encoding="utf-8"), str(path)):
            yield name, selection, loaded.model


SELECTIONS = list(every_selection())


@pytest.mark.parametrize("name, selection, model", SELECTIONS, ids=[f"{n}{s}" for n, s, _ in SELECTIONS])
def test_the_fast_engine_equals_the_reference_on_every_selection(name, selection, model):
    counts = model.counts
    players = counts[len(selection) % len(counts)]  # a different count from one selection to the next
    done = compare(compile_ruleset(model, players), positions=150, seed=len(selection))
    assert done.positions >= 150


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_the_fast_engine_equals_the_reference_on_klats_at_every_count(klats, players):
    assert compare(compile_ruleset(klats.model, players), positions=200, seed=players).positions >= 200


@pytest.mark.parametrize("name", [*(p.stem for p in EXAMPLES), "windows", "pickpocket", "trade", "repeat", "stars",
                                  "kinds", "quick", "raid", "final", "ledger"])
def test_the_fast_engine_equals_the_reference_on_the_small_games(name):
    """The docs' examples and the tests' small games, each showing some block at work."""
    path = REPO / "docs" / "examples" / f"{name}.rules"
    model = load(str(path)).model if path.is_file() else load_text(BLOCKS[name], f"{name}.rules").model
    for players in model.counts[:3]:
        assert compare(compile_ruleset(model, players), positions=150, seed=players).positions >= 150


@pytest.mark.parametrize("name, selection, model", SELECTIONS, ids=[f"{n}{s}" for n, s, _ in SELECTIONS])
def test_the_generated_match_loop_ends_every_match_as_the_reference(name, selection, model):
    counts = model.counts
    players = counts[(len(selection) + 1) % len(counts)]
    assert compare_playouts(compile_ruleset(model, players), matches=4, seed=len(selection)) > 0


@pytest.mark.parametrize("players", [2, 3, 6])
def test_the_generated_match_loop_ends_klats_as_the_reference(klats, players):
    assert compare_playouts(compile_ruleset(klats.model, players), matches=20, seed=players) > 0


@pytest.mark.parametrize("name", [*(p.stem for p in EXAMPLES), "windows", "pickpocket", "trade", "repeat", "stars",
                                  "kinds", "quick", "raid", "final"])
def test_the_generated_match_loop_ends_the_small_games_as_the_reference(name):
    path = REPO / "docs" / "examples" / f"{name}.rules"
    model = load(str(path)).model if path.is_file() else load_text(BLOCKS[name], f"{name}.rules").model
    for players in model.counts[:2]:
        compare_playouts(compile_ruleset(model, players), matches=6, seed=players)


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("name", SHIPPED)
def test_scenarios_pass_on_both_engines(monkeypatch, engine, name):
    monkeypatch.setenv("CARDRULES_ENGINE", engine)
    outcomes = run_scenarios(load_file(str(RULESETS / f"{name}.scenarios.yaml")))
    assert outcomes and [o.scenario.name for o in outcomes if not o.passed] == []


@pytest.mark.parametrize("engine", ["fast", "reference"])
@pytest.mark.parametrize("name, selection, players", [("klats", None, 3), ("arne_92", None, 3),
                                                      ("arne_total", "en", 4), ("arne_total", "ru", 2),
                                                      ("go_fish", None, 3), ("whist", None, 4)])
def test_invariants_hold_on_both_engines(engine, name, selection, players):
    checker = Checker()
    run(compile_ruleset(load(str(RULESETS / f"{name}.rules"), selection).model, players), 8, seed=players,
        invariants=checker, engine=engine)
    assert checker.failures == [] and checker.matches == 8


def test_both_engines_give_the_same_self_play_figures(klats):
    c = compile_ruleset(klats.model, 4)
    fast, reference = run(c, 10, seed=5, engine="fast"), run(c, 10, seed=5, engine="reference")
    figures = ("mean_rounds", "mean_moves", "mean_winning_total", "wins_by_seat", "round_end_reasons")
    assert [getattr(fast, f) for f in figures] == [getattr(reference, f) for f in figures]


# ---------------------------------------------------------------- the source is ours

HOSTILE = [("zone hand", "zone __import__"), ("from hand", "from __import__"), ("to hand", "to __import__"),
           ("hand of s", "__import__ of s"), ("play put", "play exec"), ("of put or", "of exec or"),
           ("card skull", "card os_system"), ('face "{colour}{value}"', 'face "\\"\\"\\"{colour}\')\\\\n{value}"')]
OUR_NAMES = re.compile(r"(v|x|p|h|c|d|hand|faces|dest|mates|mate|piles|chosen|index|gen|count|when|keep"
                       r"|A|P|F|M|R|E|ix|V|WA|WL)\d+|effect\d+_\d+(_0)*|step\d+(_0)*|setup\d+|value\d+")
FIXED = {"env", "zones", "seat", "out", "add", "part", "parts", "target", "t", "i", "pile", "face", "card", "c", "f",
         "mate_face", "NO_CARD", "NO_MATE", "FIRST", "NONE", "FACE_OF", "SEATS", "OTHERS", "_prod", "_div", "_mod",
         "_top",
         "_bottom", "items", "append", "count", "isdisjoint", "fromkeys", "round_end", "dirty", "final_when", "score",
         "until", "starter", "gen_window", "any", "all", "sum", "len", "max", "min", "list", "dict", "map",
         "frozenset", "enumerate", "default", "__getitem__", "copy_zones", "s", "p", "receiving", "under", "kept",
         "extend", "piles", "by_key", "setdefault", "get", "src", "wanted", "fits", "taken", "cards", "sorted",
         "sample", "reverse", "range", "_remove_pile", "PILE_ZONES",
         # the match loop: the game, its state and the engine's methods it hands over to
         "playout", "g", "choose", "bound", "st", "state", "action", "actions", "play", "active", "reason", "k", "_",
         "hand", "zone", "source", "target_seat", "pile_index", "key", "merged", "merging", "gone", "set", "id", "pop",
         "over", "step", "plays", "round_plays", "idle_turns", "passed", "next_turns", "direction", "window",
         "final_turns", "silent", "clear", "drawn", "_actions", "_dirty", "_advance", "_end_round",
         "_take_face", "_turn_over", "_open_window", "_forget", "_wrote", "PASS", "EngineError", "endless_round",
         "answers", "_answers", "answer", "answered", "closed", "_window_actions", "TEAM", "PARTNER", "_team_total",
         "_best", "values", "played", "_meld_actions",
         # the match loop's window and caches, and the round's setup
         "_parts", "ps", "Shallow", "__class__", "keep", "mate", "passes", "spent", "start_round", "ORDERS", "deck",
         "into", "reversed", "rng", "shuffle", "round", "totals", "from_seat", "to_seat", "moved", "_rng_state",
         "idle", "seen", "now", "idle_state", "idle_round", "start", "live", "_live", "draw", "size", "bits", "r",
         "bit_length", "RINGS", "_shuffle"}


def names_in(source: str) -> set[str]:
    tokens = tokenize.generate_tokens(io.StringIO(source).readline)
    return {t.string for t in tokens if t.type == tokenize.NAME and not keyword.iskeyword(t.string)}


def hostile_model():
    text = (RULESETS / "klats.rules").read_text(encoding="utf-8")
    for old, new in HOSTILE:
        assert old in text
        text = text.replace(old, new)
    return load_text(text, "hostile.rules").model


def test_the_new_blocks_are_generated_with_our_names_only():
    """Values, plays of a value, effect steps, guarded effects, best and played_by are written
    into the module (not left to closures), named by number."""
    model = load_text(LEDGER, "ledger.rules").model
    c = compile_ruleset(model, 3)
    gen = codegen.generated(c)
    assert {n for n in names_in(gen.source) if n not in FIXED and not OUR_NAMES.fullmatch(n)} == set()
    for name in ("calls", "high", "lead", "call", "drop", "victim"):
        assert not re.search(rf"\b{name}\b", gen.source)
    assert "_best(" in gen.source and ".played[" in gen.source and ".values[" in gen.source
    assert (
        len(gen.effect_steps) == 1
        and list(gen.values) == [0]
        and all(
            e.__name__.startswith(("effect", "step"))
            for e in gen.effects[c.plays[1].index] + gen.effects[c.plays[0].index]
        )
    )


def test_generated_source_holds_only_our_names_even_for_hostile_names_and_faces():
    model = hostile_model()
    c = compile_ruleset(model, 3)
    source = codegen.generated(c).source
    assert "Generated by cardrules" in source and "repr" in codegen.__doc__
    strange = {n for n in names_in(source) if n not in FIXED and not OUR_NAMES.fullmatch(n)}
    assert strange == set()
    for text in ("__import__", "exec", "os_system", '"""', "\\n"):
        assert text not in source
    for card in model.deck:
        assert card.face not in source
    assert compare(c, positions=300, seed=1).positions >= 300  # and it plays like the reference


@pytest.mark.parametrize("name, selection, model", SELECTIONS[:1] + SELECTIONS[-1:] + SELECTIONS[5:6])
def test_shipped_sources_hold_only_our_names(name, selection, model):
    source = codegen.generated(compile_ruleset(model, model.counts[0])).source
    assert {n for n in names_in(source) if n not in FIXED and not OUR_NAMES.fullmatch(n)} == set()


@pytest.mark.parametrize("name, selection, model", SELECTIONS, ids=[f"{n}{s}" for n, s, _ in SELECTIONS])
def test_each_name_at_a_modules_top_is_written_once(name, selection, model):
    """A play made both in the turn and in the window asks for its mate's faces twice: once is
    written (ARNE's chameleon had its `M` set written, and worked out, twice)."""
    source = codegen.generated(compile_ruleset(model, model.counts[0])).source
    assigned = [line.split(" = ", 1)[0] for line in source.splitlines() if re.match(r"[A-Z]\w* = ", line)]
    assert len(assigned) == len(set(assigned)), sorted(n for n in assigned if assigned.count(n) > 1)


def test_a_module_is_written_once_per_model_and_run_once_per_compiled(klats):
    one, two = compile_ruleset(klats.model, 3), compile_ruleset(klats.model, 3)
    assert codegen.generated(one) is codegen.generated(one)
    assert codegen.generated(one).source == codegen.generated(two).source
    assert codegen.model_key(one) == codegen.model_key(two) != codegen.model_key(compile_ruleset(klats.model, 4))
    action = FastGame(two, 1).actions()[0]
    assert action[0] is two.plays[action[0].index]  # the actions hold the plays of their own compiled ruleset


class _CountedTable(tuple):
    """An attribute table that counts the lookups made in it."""

    reads = 0

    def __getitem__(self, card):
        _CountedTable.reads += 1
        return tuple.__getitem__(self, card)


def test_a_play_that_names_a_value_reads_the_hand_once_however_many_seats_it_may_ask():
    """Go Fish's ask chooses a seat among the others and a rank the hand holds: which ranks it
    holds is the same whichever seat is asked, so listing the asks with five seats reads the hand
    once, not once a seat (the listing is the same)."""
    c = compile_ruleset(load(str(RULESETS / "go_fish.rules")).model, 5)
    game = FastGame(c, 3)
    step = next(s for s in codegen.turn_steps(c) if s.kind == "play")
    listing = codegen.generated(c).generate[id(step)]
    seat = game.to_move
    hand = game.state.zones[c.zone_index["hand"]][seat]
    expected = listing(game.env, seat)
    ns = listing.__globals__
    ranks = len(ns[f"V{expected[0][0].index}"])  # the values the ask may name
    for name in [n for n in ns if re.fullmatch(r"A\d+", n)]:
        ns[name] = _CountedTable(ns[name])
    _CountedTable.reads = 0
    assert listing(game.env, seat) == expected
    assert {a[2] for a in expected} == set(range(5)) - {seat}  # four seats to ask
    assert 0 < _CountedTable.reads <= ranks * len(hand)


# ---------------------------------------------------------------- copies and the factory


def test_a_clone_plays_on_alike_and_shares_nothing():
    model = load(str(RULESETS / "arne_total.rules"), "en").model
    game = FastGame(compile_ruleset(model, 4), 3)
    rng = random.Random(3)
    for _ in range(40):
        game.play(rng.choice(game.actions()))
    copy = game.clone()
    before = game.view(0)
    first = random.Random(9)
    while not copy.over:
        copy.play(first.choice(copy.actions()))
    assert game.view(0) == before and not game.over  # the original did not move
    second = random.Random(9)
    while not game.over:
        game.play(second.choice(game.actions()))
    assert game.state.totals == copy.state.totals and game.state.results == copy.state.results


def _row_move(game: FastGame):
    """A move that lays a card in a seat's row and has no effects, and that seat."""
    row = game.c.zone_index["row"]
    for action in game.actions():
        play, _, target, _ = action
        if play is not None and play.dest_zone == row and not play.effects and target >= 0:
            return action, target
    return None


def test_what_a_pile_alone_decides_is_worked_out_once_for_every_card_tried_on_it():
    """Rummy's laying off (`onto pile when fits(card, pile)`) tries every card of the hand on
    every meld: the meld's own figures (how many ranks, its lowest and highest) are worked out
    once a listing, and each card reads them. A meld's condition is written out without the
    attributes every candidate shares: a set (`count(distinct(m.rank)) == 1`) is not tested at
    all, a run (`count(distinct(m.suit)) == 1 and ...`) only for what follows its suit."""
    c = compile_ruleset(load(str(RULESETS / "rummy.rules")).model, 2)
    source = codegen.generated(c).source
    loops = re.findall(r"\n( +)for i, pile in enumerate\(target\):\n((?:\1 .*\n)+)", source)
    assert loops
    for _, body in loops:
        assert "set(" not in body and "max(" not in body and "[i][" in body
    assert "def keep1" not in source and "_meld_actions(P1, None," in source
    run = source[source.index("def keep2"):].split("\n\n", 1)[0]
    assert "_meld_actions(P2, keep2," in source and run.count("len(set(") == 1 and "A0" not in run
    assert compare(c, positions=400, seed=11).positions >= 400  # and every position lists what the reference does


def test_a_trial_works_out_again_only_the_scores_its_move_touched():
    """ARNE Total's score reads the row of the seat scored alone: with the match's scores kept,
    a trial that lays a card in one row has one seat's score to work out again, not four."""
    c = compile_ruleset(load(str(RULESETS / "arne_total.rules"), "en").model, 4)
    reads = codegen.generated(c).score_reads
    assert c.zone_index["row"] in reads.own and not reads.zones and not reads.counters
    game, rng = FastGame(c, 5), random.Random(5)
    found = _row_move(game)
    while found is None:
        game.play(rng.choice(game.actions()))
        found = _row_move(game)
    action, target = found
    trial = game.trial(action)
    assert [seat for seat, kept in enumerate(trial._scores) if kept is None] == [target]
    assert trial.round_scores() == Game.round_scores(trial)  # kept or not, the same scores
    assert trial.round_scores() != game.round_scores()


def test_a_score_that_reads_a_counter_is_never_kept():
    """Ledger's score reads a value of the match, which changes without a zone changing."""
    c = compile_ruleset(load_text(LEDGER, "ledger.rules").model, 3)
    assert codegen.generated(c).score_reads.counters
    game, rng = FastGame(c, 2), random.Random(2)
    while not game.over:
        assert game.round_scores() == Game.round_scores(game)
        game.play(rng.choice(game.actions()))


def test_a_trial_leaves_the_match_as_it_was_even_when_its_move_deals_a_new_round():
    """A trial draws on the match's own random source and puts it back: the match plays on as
    if no trial had been made, and the trial comes where a clone that played the move comes."""
    c = compile_ruleset(load(str(RULESETS / "klats.rules")).model, 2)
    rng = random.Random(4)
    for seed in range(40):
        game = FastGame(c, seed)
        while not game.over:
            ending = [a for a in game.actions() if a[0] is not None and _deals(game, a)]
            if ending:
                before, view = game.rng.getstate(), game.view(0)
                trial, copy = game.trial(ending[0]), game.clone()
                copy.play(ending[0])
                assert game.rng.getstate() == before and game.view(0) == view
                assert trial.state.round == game.state.round + 1
                assert [trial.view(s) for s in range(2)] == [copy.view(s) for s in range(2)]
                assert trial.state.totals == copy.state.totals
                return
            game.play(rng.choice(game.actions()))
    pytest.fail("no move ended a round in 40 matches")


def _deals(game: FastGame, action) -> bool:
    copy = game.clone()
    copy.play(action)
    return not copy.over and copy.state.round > game.state.round


def test_a_look_scores_its_move_before_the_engine_runs_on_only_where_that_changes_no_standing():
    """A look stops right after its move only where the steps a match runs by itself cannot change
    a standing: not where a draw fills the zone the score counts, nor where a new round would
    stand at something else than 0, nor where the score reads a counter."""
    def settled(text: str) -> bool:
        return plan(compile_ruleset(load_text(text, "look.rules").model, 2)).scored_early

    assert settled(QUICK.replace("score s = count(hand of s)", "score s = count(table)"))
    assert not settled(QUICK)  # each turn draws to the hand the score counts
    assert not settled(QUICK.replace("score s = count(hand of s)", "score s = 1 + count(table)"))
    assert not settled(LEDGER)  # its score reads a value of the match
    for name, edition in (("klats", None), ("arne_92", None), ("arne_total", "en"), ("arne_total", "ru")):
        assert plan(compile_ruleset(load(str(RULESETS / f"{name}.rules"), edition).model, 2)).scored_early


@pytest.mark.parametrize("name, edition", [("klats", None), ("arne_92", None), ("arne_total", "en")])
def test_a_look_stopped_after_its_move_scores_and_goes_on_as_the_whole_move(name, edition):
    """The look a search scores (`trial(scored=True)`) stands where the whole move stands for
    every seat, and `run_on` takes it to the very position the whole move reaches: its moves,
    window, round and totals, and its random source where the search plays on in it. A pass in a
    window stands where the position stands: a look needs no copy for it."""
    c = compile_ruleset(load(str(RULESETS / f"{name}.rules"), edition).model, 2)
    rng, looks, behind, passes = random.Random(3), 0, 0, 0
    for seed in range(4):
        game = FastGame(c, seed)
        while not game.over:
            for action in game.actions()[:4]:
                whole = game.clone()
                whole.play(action)
                look = game.clone().trial(action, scored=True)  # a clone: `run_on` draws on its source
                behind += look._behind
                assert [margin(look, s) for s in range(2)] == [margin(whole, s) for s in range(2)]
                if game.stands_after(action):  # a window's pass: the position as it stands
                    passes += 1
                    assert [margin(game, s) for s in range(2)] == [margin(whole, s) for s in range(2)]
                replaces = look.replaces  # else the move drew on the source, put back: a search plays it again
                look.run_on()
                assert look.state.__dict__ == whole.state.__dict__ and look.actions() == whole.actions()
                assert not replaces or look.rng.getstate() == whole.rng.getstate()
                looks += 1
            game.play(rng.choice(game.actions()))
    assert behind == looks > 100 and (passes > 10 or name == "klats")  # Klats has no window


def test_the_factory_chooses_the_engine(monkeypatch, klats):
    c = compile_ruleset(klats.model, 3)
    assert type(new_game(c, 1)) is FastGame
    assert type(new_game(c, 1, engine="reference")) is Game
    monkeypatch.setenv("CARDRULES_ENGINE", "reference")
    assert type(new_game(c, 1)) is Game
    with pytest.raises(ValueError, match="fast, reference"):
        new_game(c, 1, engine="turbo")


def test_window_shares_are_kept_until_what_they_read_changes():
    """ARNE Total's window asks many seats with nothing changed for them: the fast engine
    works out far fewer window shares than the reference asks seats times plays, in the same
    match."""
    model = load(str(RULESETS / "arne_total.rules"), "en").model
    c = compile_ruleset(model, 4)
    reference, fast = Game(c, 11), FastGame(c, 11)
    asked = computed = 0
    generate, window = reference._generate, fast._window_gen

    def asking(seat, step):
        nonlocal asked
        asked += step is c.window
        return generate(seat, step)

    def computing(env, seat, parts, live):
        nonlocal computed
        computed += sum(p is None for p in parts)
        return window(env, seat, parts, live)

    reference._generate, fast._window_gen = asking, computing
    rng = random.Random(11)
    while not reference.over:
        action = rng.choice(reference.actions())
        assert fast.actions() == reference.actions()
        reference.play(action)
        fast.play(action)
    assert asked > 100 and computed < asked * len(c.window.plays) / 4


def test_the_generated_shuffle_draws_as_random_shuffle():
    """`codegen._shuffle` is `Random.shuffle` without a call per card: the same order and the
    same state of the source after it, for any size; another source's own shuffle is used."""
    for size in (0, 1, 2, 7, 90, 200):
        for seed in range(5):
            ours, theirs = random.Random(seed), random.Random(seed)
            deck, expected = list(range(size)), list(range(size))
            codegen._shuffle(ours, deck)
            theirs.shuffle(expected)
            assert deck == expected and ours.getstate() == theirs.getstate()

    class Reversing(random.Random):
        def shuffle(self, x):
            x.reverse()

    deck = [1, 2, 3]
    codegen._shuffle(Reversing(0), deck)
    assert deck == [3, 2, 1]


@pytest.mark.parametrize("name, edition, players", [("klats", None, 3), ("arne_92", None, 3), ("arne_total", "en", 4)])
def test_the_match_loop_draws_as_choice_whatever_the_chooser(name, edition, players):
    """The match loop writes out `Random.choice` for a plain random source; any other chooser
    is called: with one that calls the same `choice`, the matches end alike."""
    c = compile_ruleset(load(str(RULESETS / f"{name}.rules"), edition).model, players)
    for seed in range(3):
        written, called = FastGame(c, seed), FastGame(c, seed)
        first, second = random.Random(seed), random.Random(seed)
        written.play_random(first.choice, 10**6)
        called.play_random(lambda actions, rng=second: rng.choice(actions), 10**6)
        assert written.state == called.state and first.getstate() == second.getstate()
