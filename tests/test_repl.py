"""The REPL as a player meets it (issue 18): the round score so far and `score` clause by clause,
what each move did, `rules` and the rulings `card` cites, fewer interruptions (the table once,
then what changed; auto-pass), bare words and suggestions, `cardrules list`, play again, the
replay command and `replay -v`. Driven through stdin pipes, as the other REPL tests are."""
from __future__ import annotations

import re
import shlex
from pathlib import Path

from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.notation import Move, matching
from cardrules.interpreter.rulings import CITATION, read
from cardrules.interpreter.scoring import Scorer

from .conftest import REPO, RULESETS, cli, cli_process

PROMPT = "seat 0> "
# the REPL's own tests read a random rival's moves, fast and as they were before ismcts was the default
KLATS_AGAINST_RANDOM = ("klats", "--seats", "human,random")
ARNE_92_AGAINST_RANDOM = ("arne_92", "--seats", "human,random,random")


def prompts(stdout: str) -> list[str]:
    """The output between one prompt and the next: what the player read before each answer."""
    return re.split(r"^seat 0> .*$", stdout, flags=re.M)


# ------------------------------------------------------------------ 1. the score


def arne_position(zones: dict) -> Game:
    game = Game(compile_ruleset(load(str(RULESETS / "arne_92.rules")).model, 3, {}), 1, deal=False)
    game.set_position({"badge": {0: ["blue"], 1: ["green"], 2: ["red"]}, **zones}, rest="box")
    return game


def test_the_score_breaks_down_clause_by_clause_with_the_cards_each_term_counts():
    game = arne_position({"row": {0: [["blue50"], ["blue100", "3x"], ["blue1000"], ["bluex2"]], 1: [["green100"]]},
                          "draw": ["yellow50"]})
    scorer = Scorer(game.c)
    assert scorer.scores(game, 0) == [2700, 100, 0]
    b = scorer.breakdown(game, 0, 0)
    assert (b.total, b.formula) == (2700, "1350 * 2")
    [points, times] = b.clauses
    assert points.text == "sum(p in piles(row of s): pile_points(p))"
    assert points.detail == "50 (blue50) + 300 (blue100 3x) + 1000 (blue1000)" and points.value == 1350
    assert (times.text, times.detail, times.value) == ("multiplier(s)", "2 (bluex2)", 2)


def test_an_if_in_the_score_tells_its_condition_and_both_sides():
    game = Game(compile_ruleset(load(str(RULESETS / "klats.rules")).model, 2, {}), 1, deal=False)
    game.set_position({"row": {0: [["blue3"], ["orange14"], ["green5"]], 1: [["blue2"]]}}, rest="draw")
    scorer = Scorer(game.c)
    mine, theirs = scorer.breakdown(game, 0, 0), scorer.breakdown(game, 1, 0)
    assert mine.total == 22 and mine.clauses[0].detail == "3 == 3" and mine.clauses[0].value is True
    assert mine.clauses[1].detail == "3 + 14 + 5"
    assert theirs.total == 0 and theirs.clauses[0].detail == "1 == 3" and len(theirs.clauses) == 1


HIDDEN_SCORE = """
game "Hoard" { }
players 2..3
attribute value in 1..9
card chip { value each  copies 2  face "c{value}" }
zone stock shared hidden
zone hand per seat owner
zone table shared public
setup {
    shuffle deck into stock
    deal 2 from stock to hand
}
play drop { card from hand  to table }
turn { play one of drop or pass }
end round empty when count(stock) == 0
score s = sum(cards(hand of s).value)
match { until round >= 1  winner highest }
"""


def test_a_seat_counts_only_what_it_may_see_and_says_so():
    game = Game(compile_ruleset(load_text(HIDDEN_SCORE, "hoard.rules").model, 2, {}), 1, deal=False)
    game.set_position({"hand": {0: ["c4", "c5"], 1: ["c9"]}}, rest="stock")
    scorer = Scorer(game.c)
    assert scorer.scores(game, 0) == [9, 0]  # seat 1's hand is hidden from seat 0: it counts as empty
    assert scorer.scores(game, 1) == [0, 9]
    assert scorer.unseen(0) == ("hand",)
    done = cli("play", _write(HIDDEN_SCORE), "--seed", "1", input="score\nquit\n")
    assert "hand of other seats count as empty" in done.stdout


def _write(text: str) -> str:
    import tempfile
    folder = Path(tempfile.mkdtemp())
    (folder / "hoard.rules").write_text(text, encoding="utf-8")
    return str(folder / "hoard.rules")


def test_the_table_shows_the_score_so_far_and_score_agrees_with_it():
    done = cli("play", *ARNE_92_AGAINST_RANDOM, "--seed", "3", input="1\nscore\nquit\n")
    assert done.code == 0, done.stderr
    assert re.search(r"^seat +total +now +hand", done.stdout, re.M)
    # after the pair is laid, the prompt's title gives the scores so far; `score` breaks each down
    title = re.search(r"· now: you (-?\d+), 1 random (-?\d+), 2 random (-?\d+)", done.stdout)
    for seat, value in enumerate(title.groups()):
        assert re.search(rf"^seat {seat} \((you|random)\): (.* = )?{value}$", done.stdout, re.M)
    assert "  sum(p in piles(row of s): pile_points(p)) = " in done.stdout


# ------------------------------------------------------------------ 2. what each move did


def test_each_move_is_told_with_the_faces_this_seat_may_see():
    done = cli("play", *KLATS_AGAINST_RANDOM, "--seed", "3", input="1\nquit\n")
    said = done.stdout.splitlines()
    mine = said.index("seat 0 (human): put orange1 @0")
    assert said[mine + 1] == "    orange1: your hand → your row (pile 0)"
    assert re.fullmatch(r"    \w+: the draw → your hand", said[mine + 2])  # the card drawn, named to its owner
    theirs = next(k for k, line in enumerate(said) if line.startswith("seat 1 (random): put "))
    assert re.fullmatch(r"    \w+: seat 1's hand → (your|seat 1's) row \(pile \d\)", said[theirs + 1])
    assert said[theirs + 2] == "    a card: the draw → seat 1's hand"  # seat 1's draw is not shown to seat 0


def test_a_round_ends_in_the_rules_words_at_the_table():
    done = cli_process("play", "klats", "--seed", "3", "--seats", "random,random", input="")
    assert re.search(r"^round 1 over after \d+ plays \((six_piles|cards_exhausted)\): (for some player s, the "
                     r"number of piles in row of s is at least max_piles|the number of cards in draw is 0)",
                     done.stdout, re.M)


# ------------------------------------------------------------------ 3. the rules


def test_rules_summarises_the_game_from_the_ruleset():
    done = cli("play", "klats", "--seed", "3", input="rules\nquit\n")
    for part in ("The aim", "A turn", "The cards and what they do", "The end of a round", "Scoring"):
        assert f"\n{part}\n" in done.stdout
    assert "  1. Play one of: put. If you cannot play any of them, you pass." in done.stdout
    assert "six_piles: The round ends at once when for some player s, the number of piles in row of s" in \
        " ".join(done.stdout.split())


def test_every_ruling_cited_is_in_docs_rulings():
    rulings = read(REPO / "docs" / "rulings.md")
    cited = set()
    for path in [*RULESETS.glob("*.rules"), *RULESETS.glob("*.yaml"), *RULESETS.glob("house/*.yaml")]:
        text = path.read_text(encoding="utf-8")
        assert "RULINGS.md" not in text, path
        cited |= {(document, anchor) for document, anchor, _ in CITATION.findall(text)}
    assert {document for document, _ in cited} == {"docs/rulings.md"}
    assert {anchor for _, anchor in cited} <= set(rulings)


def test_card_shows_the_text_of_the_rulings_it_cites():
    done = cli("play", "klats", "--seed", "3", input="card blue3\nquit\n")
    after = done.stdout.split("the rulings cited:")[1]
    assert re.search(r"#klats-merge +Merging\. Once the card lies, every other pile of that row", after)
    assert "#klats-deck" in after


# ------------------------------------------------------------------ 5. fewer interruptions


def test_the_table_is_shown_whole_once_then_what_changed():
    done = cli("play", *KLATS_AGAINST_RANDOM, "--seed", "3", input="1\n1\nview\nquit\n")
    first, second, third, fourth = prompts(done.stdout)[:4]
    assert re.search(r"^seat +total +now", first, re.M)
    assert not re.search(r"^seat +total", second, re.M)  # the second prompt: only what changed
    assert re.search(r"^your hand +\w+", second, re.M) and re.search(r"^your row +0:\[orange1\]", second, re.M)
    assert "· now: you 0, 1 random 0" in second
    assert re.search(r"^seat +total +now", fourth, re.M)  # `view`: the whole table


def test_auto_pass_lets_windows_go_unless_a_named_card_could_be_played():
    done = cli("play", *ARNE_92_AGAINST_RANDOM, "--seed", "3", input="auto-pass on\n1\nquit\n")
    assert "seat 0 (human): pass (auto-pass)" in done.stdout
    asked = prompts(done.stdout)[1:]
    assert asked and all("may respond or pass (you)" not in text for text in asked)  # no window asks any more
    done = cli("play", *ARNE_92_AGAINST_RANDOM, "--seed", "3", input="auto-pass on except zap\n" + "4\n" * 6 + "quit\n")
    windows = [text for text in prompts(done.stdout)[1:] if "may respond or pass (you)" in text]
    assert windows and all(re.search(r"^zap zap ", text, re.M) for text in windows)
    assert "(auto-pass)" in done.stdout
    done = cli("play", *ARNE_92_AGAINST_RANDOM, "--seed", "3", input="auto-pass on except zapp\nquit\n")
    assert "no card or kind of card is called 'zapp' (did you mean zap?)" in done.stderr


# ------------------------------------------------------------------ 6. bare words


def test_a_move_may_leave_out_what_is_clear():
    done = cli("play", "arne_92", "-p", "3", "--seed", "3", input="reverse\nquit\n")
    assert "seat 0 (human): reverse reverse" in done.stdout
    moves = [Move("put", "green3", 0), Move("put", "green3", 1), Move("put", "blue4", 0, 2)]
    index = {"green3": 1, "blue4": 2, "зелёный3": 1}
    assert matching("blue4", moves, index) == [moves[2]]
    assert matching("green3", moves, index) == moves[:2]
    assert matching("зелёный3 @1", moves, index) == [moves[1]]  # a face in another language
    assert matching("@0/2", moves, index) == [moves[2]]
    assert matching("put red9", moves, index) == []


def test_an_ambiguous_short_move_lists_what_it_could_be():
    done = cli("play", "klats", "--seed", "3", input="green8\nquit\n")
    assert "'green8' could be any of 2 moves: put green8 @0, put green8 @1" in done.stderr


def test_misspelt_cards_commands_and_rulesets_get_suggestions():
    done = cli("play", "klats", "--seed", "3", input="put gren8 @0\nscroe\nquit\n")
    assert "no card is called 'gren8'\n  hint: did you mean green8?" in done.stderr
    assert "hint: did you mean score?" in done.stderr
    done = cli("play", "klatz")
    assert done.code == 1 and "did you mean klats?" in done.stderr


def test_commands_are_never_read_as_cards():
    done = cli("play", "klats", "--seed", "3", input="1\nundo\nscore\nrules\nquit\n")
    assert "took back 2 moves: put orange1 @0" in done.stdout
    assert "no card is called" not in done.stderr


# ------------------------------------------------------------------ 9. around the game


def test_list_names_the_rulesets_and_the_examples():
    done = cli("list")
    assert done.code == 0
    rows = {line.split()[0]: line for line in done.stdout.splitlines() if line.strip()}
    assert "ru, en" in rows["arne_total"] and "2–6" in rows["klats"]
    assert rows["whist"].split()[2] == "4"  # one count alone, as the rulebook writes it: not "4–4"
    assert rows["crazy_eights"].rstrip().endswith("example") and rows["klats"].rstrip().endswith("shipped")
    assert cli("play", "crazy_eights", "--seats", "random,random", "--seed", "1").code == 0


def test_play_again_starts_a_new_match():
    first = cli("play", *KLATS_AGAINST_RANDOM, "--seed", "4", "--param", "target_total=1", input="1\n" * 300)
    assert first.stdout.count("play it again:") == 1 and "play again? [y/N] 1" in first.stdout  # not a yes
    moves = "1\n" * first.stdout.count("seat 0 (human): ")
    done = cli("play", *KLATS_AGAINST_RANDOM, "--seed", "4", "--param", "target_total=1", input=moves + "y\nquit\n")
    assert " ".join(done.stdout.split()).count("play it again: cardrules play klats") == 2
    assert "play again? [y/N] y" in done.stdout
    done = cli("play", *KLATS_AGAINST_RANDOM, "--seed", "4", "--param", "target_total=1", input=moves)
    assert done.code == 0 and done.stdout.count("play it again:") == 1  # the end of input answers no


def test_the_command_to_play_again_names_the_house_rules():
    house = str(RULESETS / "house" / "klats_five_piles.yaml")
    done = cli("play", "klats", "--house", house, "--seats", "random,random", "--seed", "5")
    command = re.search(r"play it again: (cardrules play .*?--seed \d+)", " ".join(done.stdout.split())).group(1)
    assert f"--house {shlex.quote(house)}" in command
    assert cli(*shlex.split(command)[1:]).stdout == done.stdout


def test_replay_verbose_shows_the_table_as_it_goes(tmp_path):
    log = tmp_path / "game.log"
    assert cli("play", "klats", "--seats", "random,random", "--seed", "6", "--log", str(log)).code == 0
    done = cli("replay", "-v", str(log))
    assert done.code == 0
    moves = re.findall(r"^ +\d+\. seat \d", done.stdout, re.M)
    tables = re.findall(r"^seat +total +now", done.stdout, re.M)
    assert len(tables) >= len(moves) - len(re.findall(r"^round \d+ over", done.stdout, re.M))
    assert re.search(r"^ +1\. seat \d \(random\): put \w+ @\d\n +\w+: seat \d's hand → seat \d's row", done.stdout,
                     re.M)
