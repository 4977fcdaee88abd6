"""Scenario files: the Klats and ARNE Total scenarios pass, the runner really checks what they
claim, a file and each scenario choose the ruleset's edition and variants, and a bad file is
refused with a located message and exit 1."""
from __future__ import annotations

import json
from pathlib import Path

import jsonschema
import pytest
import yaml

from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.load import load_all
from cardrules.interpreter.notation import parse_move
from cardrules.interpreter.scenarios import load_file, load_text, run
from cardrules.interpreter.yamlfile import shipped_schema

from .conftest import REPO, RULESETS, cli, cli_process

KLATS = RULESETS / "klats.scenarios.yaml"
RULES = (RULESETS / "klats.rules").as_posix()
TOTAL = RULESETS / "arne_total.scenarios.yaml"
TOTAL_RULES = RULESETS / "arne_total.rules"


@pytest.fixture(scope="module")
def klats_file():
    return load_file(str(KLATS))


def write(tmp_path: Path, text: str, name: str = "s.yaml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def one(position: str, steps: str, extra: str = "") -> str:
    """A file with one Klats scenario for two seats."""
    return f"""ruleset: {RULES}
scenarios:
  - name: probe
    clause: "a clause"
{extra}    position:
{position}
    steps:
{steps}
"""


POSITION = """      zones:
        hand: {0: [blue5, green2], 1: [orange1]}
        row: {0: [[blue3], [orange4]], 1: [[green7]]}
        draw: [blue1]"""


# ---------------------------------------------------------------- the Klats scenarios


def test_klats_scenarios_pass_via_the_runner(klats_file):
    outcomes = run(klats_file)
    assert len(outcomes) >= 35
    assert [o.scenario.name for o in outcomes if not o.passed] == []
    assert all(o.scenario.clause.strip() for o in outcomes)


def test_klats_scenarios_cover_every_clause_of_the_ruleset(klats_file):
    clauses = " | ".join(s.clause for s in klats_file.scenarios)
    for clause in ("setup", "players 2..6", "param hand_size", "param max_piles", "param target_total",
                   "card from hand", "to row of any seat", "new pile when", "onto pile when", "then merge",
                   "play one of put or pass", "draw 1 from draw to hand", "end round six_piles",
                   "end round cards_exhausted", "score s =", "until max(totals) >= target_total", "winner highest",
                   "starter round % players", "distinct"):
        assert clause in clauses, clause


def test_klats_scenarios_via_the_command(klats_file):
    done = cli("scenarios", KLATS)
    assert done.code == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    assert sum(line.startswith("pass  ") for line in lines) == len(klats_file.scenarios)
    assert not any(line.startswith("FAIL") for line in lines)
    assert f"{len(klats_file.scenarios)} passed, 0 failed" in lines[-1]
    assert done.stderr == ""


def test_klats_scenarios_as_a_process_in_json():
    done = cli_process("scenarios", "rulesets/klats.scenarios.yaml", "--json")
    assert done.code == 0, done.stderr
    report = json.loads(done.stdout)
    assert report["ok"] and report["failed"] == 0 and report["passed"] == len(report["scenarios"])


def test_verbose_shows_clauses_and_refusal_reasons():
    done = cli("scenarios", KLATS, "--verbose")
    assert done.code == 0
    assert "clause: play put: onto pile when top(pile).colour == card.colour" in done.stdout
    assert "refuse put blue5 @0/1: blue5 may not go onto pile 1: the rule is `top(pile).colour == card.colour`" \
        in done.stdout
    assert "round 0 ends (six_piles), scores [21, 0]" in done.stdout


@pytest.mark.parametrize("old, new", [
    ("round_over: {reason: six_piles, scores: [21, 0], totals: [21, 0]}",
     "round_over: {reason: six_piles, scores: [22, 0], totals: [21, 0]}"),
    ("zones: {row: {0: [[orange2], [blue5, green5]]}}", "zones: {row: {0: [[blue5, green5], [orange2]]}}"),
    ("expect: {round: 2, to_move: 2}", "expect: {round: 2, to_move: 0}"),
    ("match_over: true, winners: [0, 1]}", "match_over: true, winners: [0]}"),
    ('because: "seat 0 holds no green3 in hand"', 'because: "seat 0 holds no green3 in the hand"'),
    ("      - play: put blue5 @0/0\n", "      - refuse: put blue5 @0/0\n"),
    ("legal_count: 4\n      - play: put blue5 @0", "legal_count: 5\n      - play: put blue5 @0"),
    ("not_legal: [put blue5 @1/0]", "not_legal: [put blue5 @1/1]"),
    ("counts: {hand: {0: 5, 1: 5}, draw: 80}", "counts: {hand: {0: 5, 1: 5}, draw: 81}"),
])
def test_a_changed_klats_expectation_fails(tmp_path, old, new):
    """The runner checks what the scenarios claim: change one claim and that scenario fails."""
    text = KLATS.read_text(encoding="utf-8")
    assert old in text
    outcomes = run(load_text(text.replace(old, new, 1), "changed.yaml", RULESETS))
    assert sum(not o.passed for o in outcomes) == 1


def test_every_scenario_file_validates_against_the_schema():
    jsonschema.Draft202012Validator.check_schema(shipped_schema("scenarios.schema.json"))
    files = sorted(RULESETS.glob("*.scenarios.yaml"))
    assert KLATS in files
    for path in files:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        as_json = json.loads(json.dumps(data))  # mapping keys as text, as the schema reads them
        jsonschema.Draft202012Validator(shipped_schema("scenarios.schema.json")).validate(as_json)


# ---------------------------------------------------------------- failures are reported, located


def test_a_wrong_expectation_is_a_located_fail(tmp_path):
    path = write(tmp_path, one(POSITION, """      - play: put blue5 @0/0
      - expect:
          to_move: 0
          zones: {row: {0: [[blue3], [orange4]]}}"""))
    done = cli("scenarios", path)
    assert done.code == 1
    assert "FAIL  probe" in done.stdout
    assert f"{path}:13:20: error: scenario 'probe', step 2 (expect): to_move: expected 0, found 1" in done.stdout
    assert ("zones.row of seat 0: expected [[blue3], [orange4]], found [[blue3, blue5], [orange4]]"
            in done.stdout)
    assert "0 passed, 1 failed" in done.stdout


def test_a_refused_play_fails_citing_the_rule(tmp_path):
    path = write(tmp_path, one(POSITION, "      - play: put blue5 @0/1"))
    [outcome] = run(load_file(str(path)))
    [failure] = outcome.failures
    assert failure.span.line == 11
    assert "step 1 (play): 'put blue5 @0/1' must be legal, but it is refused" in failure.message
    assert "`top(pile).colour == card.colour`" in failure.message


def test_a_legal_refuse_and_a_wrong_reason_fail(tmp_path):
    legal = run(load_file(str(write(tmp_path, one(POSITION, "      - refuse: put blue5 @0/0"), "a.yaml"))))[0]
    assert "'put blue5 @0/0' must be refused, but it is legal" in legal.failures[0].message
    other = one(POSITION, "      - refuse: put blue5 @0/1\n        because: max_piles")
    wrong = run(load_file(str(write(tmp_path, other, "b.yaml"))))[0]
    assert "the reason does not say 'max_piles'" in wrong.failures[0].message
    assert wrong.failures[0].span.line == 12  # the `because:` line


def test_a_seat_that_is_not_to_move_may_not_play(tmp_path):
    path = write(tmp_path, one(POSITION, "      - play: put orange1 @1\n        by: 1\n"
                                         "      - refuse: put orange1 @1\n        by: 1\n        because: seat 0"))
    [outcome] = run(load_file(str(path)))
    assert "seat 1 may not play now: seat 0 is to move" in outcome.failures[0].message


def test_round_over_compares_with_the_last_move(tmp_path):
    position = """      zones:
        hand: {0: [blue5], 1: [orange1]}
        row: {0: [[blue1], [orange2], [green3], [blue4], [orange6]], 1: []}
        draw: [green1]"""
    steps = """      - expect: {round_over: false}
      - play: put blue5 @0
      - expect: {round_over: false}"""
    [outcome] = run(load_file(str(write(tmp_path, one(position, steps)))))
    [failure] = outcome.failures
    assert "step 3 (expect): round_over (of the last move): expected false, found {round: 0, reason: six_piles, " \
           "scores: [21, 0], totals: [21, 0]}" in failure.message


def test_json_reports_failures_with_their_place(tmp_path):
    path = write(tmp_path, one(POSITION, "      - expect: {legal_count: 1}"))
    done = cli("scenarios", path, "--json")
    assert done.code == 1
    report = json.loads(done.stdout)
    [scenario] = report["scenarios"]
    assert report["failed"] == 1 and not scenario["passed"]
    [failure] = scenario["failures"]
    assert (failure["line"], failure["column"]) == (11, 31)
    assert "legal_count: expected 1, found 6" in failure["message"]


# ---------------------------------------------------------------- bad files


BAD = {
    "unknown key": (one(POSITION, "      - expect: {round: 0}", "    stepz: 1\n"),
                    5, 5, "scenario: unknown key 'stepz'"),
    "wrong type": (f"ruleset: {RULES}\ndefaults: {{players: two}}\nscenarios: []\n",
                   2, 21, "players: expected a whole number, found 'two'"),
    "yaml syntax": (f"ruleset: {RULES}\nscenarios:\n  - name: [a\n    clause: b\n",
                    4, 11, "not valid YAML"),
    "unknown zone": (one(POSITION.replace("row:", "rows:"), "      - expect: {round: 0}"),
                     8, 9, "no zone 'rows'"),
    "unknown face": (one(POSITION.replace("green2", "purple2"), "      - expect: {round: 0}"),
                     7, 27, "no card is called 'purple2'"),
    "too many copies": (one(POSITION.replace("[blue5, green2]", "[blue3, blue3]"), "      - expect: {round: 0}"),
                        8, 20, "the deck has 2 blue3; this is one more"),
    "piles in a zone of cards": (one(POSITION.replace("[blue1]", "[[blue1]]"), "      - expect: {round: 0}"),
                                 9, 16, "'draw' holds cards, not piles"),
    "a seat that does not exist": (one(POSITION.replace("1: [orange1]", "2: [orange1]"),
                                       "      - expect: {round: 0}"), 7, 36, "there is no seat 2"),
    "step of two kinds": (one(POSITION, "      - play: put blue5 @0\n        expect: {round: 0}"),
                          11, 9, "a step is one of `play: MOVE`"),
    "because without refuse": (one(POSITION, "      - play: put blue5 @0\n        because: x"),
                               12, 9, "'because' goes with 'refuse'"),
    "duplicate key": (f"ruleset: {RULES}\nruleset: {RULES}\nscenarios: []\n",
                      2, 1, "the key 'ruleset' comes twice"),
    "player count": (one(POSITION, "      - expect: {round: 0}", "    players: 9\n"),
                     5, 14, "Klats is for 2 to 6 players, not 9"),
    "missing ruleset": ("ruleset: nowhere.rules\nscenarios: [{name: a, clause: b, steps: [{expect: {round: 0}}]}]\n",
                        1, 10, "no ruleset 'nowhere.rules'"),
    "unknown zone in an expectation": (one(POSITION, "      - expect: {zones: {hands: {0: []}}}"),
                                       11, 26, "no zone 'hands'"),
    "two scenarios of one name": (one(POSITION, "      - expect: {round: 0}")
                                  + "  - {name: probe, clause: c, steps: [{expect: {round: 0}}]}\n",
                                  12, 12, "a second scenario is called 'probe'"),
}


@pytest.mark.parametrize("case", BAD)
def test_a_bad_file_is_refused_with_its_place(tmp_path, case):
    text, line, column, message = BAD[case]
    path = write(tmp_path, text)
    done = cli("scenarios", path)
    assert done.code == 1
    assert done.stdout == ""
    assert f"{path}:{line}:{column}: error: " in done.stderr, done.stderr
    assert message in done.stderr
    assert "Traceback" not in done.stderr
    with pytest.raises(RulesError) as raised:
        load_file(str(path))
    first = raised.value.diagnostics[0]
    assert (first.span.line, first.span.column) == (line, column)


def test_a_bad_file_in_json_mode_prints_its_errors_as_json(tmp_path):
    path = write(tmp_path, one(POSITION.replace("row:", "rows:"), "      - expect: {round: 0}"))
    done = cli("scenarios", path, "--json")
    assert done.code == 1
    report = json.loads(done.stdout)
    assert not report["ok"]
    assert [(e["line"], e["column"], e["message"]) for e in report["errors"]] == [(8, 9, "no zone 'rows'")]


def test_every_error_of_a_file_is_reported_at_once(tmp_path):
    text = one(POSITION.replace("row:", "rows:").replace("green2", "purple2"), "      - expect: {round: 0}")
    with pytest.raises(RulesError) as raised:
        load_text(text, "s.yaml")
    assert [d.message for d in raised.value.diagnostics] == ["no card is called 'purple2'", "no zone 'rows'"]


@pytest.mark.parametrize("text, message", [
    ("", "the file is empty"),
    ("- a\n", "expected a mapping, found a list"),
    ("a: !!python/object/apply:os.system [echo hi]\n", "could not determine a constructor"),
    ("a: &a [" + ", ".join(["x"] * 9) + "]\n" + "".join(
        f"{n}: &{n} [" + ", ".join([f"*{p}"] * 9) + "]\n" for p, n in zip("abcdefg", "bcdefgh", strict=True)),
     "more than 200,000 values"),
])
def test_files_that_are_no_scenario_file(tmp_path, text, message):
    done = cli("scenarios", write(tmp_path, text))
    assert done.code == 1
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_a_missing_file():
    done = cli("scenarios", REPO / "no" / "such.yaml")
    assert done.code == 1
    assert "no scenario file" in done.stderr


def test_a_shipped_ruleset_may_be_named_without_a_path(tmp_path):
    path = write(tmp_path, one(POSITION, "      - expect: {to_move: 0}").replace(f"ruleset: {RULES}",
                                                                                   "ruleset: klats.rules"))
    assert [o.passed for o in run(load_file(str(path)))] == [True]


# ---------------------------------------------------------------- editions and variants


@pytest.fixture(scope="module")
def total_file():
    return load_file(str(TOTAL))


# ARNE Total for two seats: x2 doubles the -200 in en (800), not in ru (1000)
X2_ON_MINUS = """    position:
      zones:
        badge: {0: [orange], 1: [purple]}
        hand: {0: [orange100], 1: [purple50]}
        row: {0: [[orange500], [orangex2], [orange-200]]}
        draw: []
      rest: box
    steps:
      - play: lay orange100 @0
      - expect: {round_over: {scores: [SCORE, 0]}}
"""


def total(head: str, *scenarios: tuple[str, str, int]) -> str:
    """An ARNE Total file: `head` (file keys), then scenarios (name, own keys, expected score)."""
    body = "".join(f"  - name: {name}\n    clause: c\n{keys}" + X2_ON_MINUS.replace("SCORE", str(score))
                   for name, keys, score in scenarios)
    return f"ruleset: {TOTAL_RULES.as_posix()}\n{head}scenarios:\n{body}"


def test_a_scenario_plays_the_edition_it_names():
    text = total("", ("ru", "    edition: ru\n", 1000), ("en", "    edition: en\n", 800))
    sf = load_text(text, "e.yaml")
    assert [(s.compiled.model.edition, s.compiled.model.variants) for s in sf.scenarios] == [("ru", ()), ("en", ())]
    assert [o.passed for o in run(sf)] == [True, True]
    swapped = run(load_text(text.replace("[1000, 0]", "[X, 0]").replace("[800, 0]", "[1000, 0]")
                            .replace("[X, 0]", "[800, 0]"), "e.yaml"))
    assert [o.passed for o in swapped] == [False, False]
    assert "round_over (of the last move): expected {scores: [800, 0]}, found {scores: [1000, 0]}" \
        in swapped[0].failures[0].message


def test_the_file_chooses_for_every_scenario_and_a_scenario_may_choose_otherwise():
    text = total("edition: ru\nvariants: [minimum]\n",
                 ("inherits", "", 1000), ("own edition", "    edition: en\n", 800),
                 ("no variant", "    variants: []\n", 1000), ("own variants", "    variants: [first_game]\n", 1000))
    sf = load_text(text, "o.yaml")
    assert sf.ruleset.model.selection == "@ru+minimum"
    assert [s.compiled.model.selection for s in sf.scenarios] == ["@ru+minimum", "@en+minimum", "@ru",
                                                                   "@ru+first_game"]
    outcomes = run(sf)
    assert [o.passed for o in outcomes] == [True, True, True, True]
    assert outcomes[1].log[0] == "arne_total.rules@en+minimum, 2 players"


def test_a_file_without_a_choice_plays_the_rulesets_first_edition():
    sf = load_text(total("", ("first", "", 1000)), "f.yaml")
    assert sf.scenarios[0].compiled.model.selection == "@ru"


def place(text: str, snippet: str) -> tuple[int, int]:
    """The line and column (1-based) where `snippet` first stands in `text` after its first line,
    which holds the ruleset's path: the checkout's folder may hold any letters."""
    before = text[:text.index(snippet, text.index("\n"))]
    return before.count("\n") + 1, len(before) - before.rfind("\n")


@pytest.mark.parametrize("head, keys, snippet, message, hint", [
    ("", "    edition: fr\n", "fr", "the ruleset has no edition 'fr'", "editions: ru, en"),
    ("edition: rus\n", "", "rus", "the ruleset has no edition 'rus'", "did you mean 'ru'?"),
    ("", "    variants: [first_game, gohst]\n", "gohst", "the ruleset has no variant 'gohst'", "did you mean 'ghost'?"),
    ("", "    edition: en\n    variants: [two_colours]\n", "two_colours",
     "variant 'two_colours' is for edition ru, not en", "choose --edition ru"),
    ("", "    variants: [minimum, ghost]\n", "ghost", "variant 'ghost' does not combine with variant 'minimum'",
     "'ghost' combines with: first_game"),
    # the file's variants and the scenario's edition clash: the scenario's own node is shown
    ("variants: [two_colours]\n", "    edition: en\n", "en\n", "variant 'two_colours' is for edition ru, not en", ""),
], ids=["unknown edition", "unknown file edition", "unknown variant", "variant of another edition",
        "variants that do not combine", "the scenario's node first"])
def test_a_selection_the_ruleset_refuses_is_located_at_its_node(tmp_path, head, keys, snippet, message, hint):
    text = total(head, ("probe", keys, 1000))
    path = write(tmp_path, text)
    line, column = place(text, snippet)
    with pytest.raises(RulesError) as raised:
        load_file(str(path))
    [error] = raised.value.diagnostics
    assert (error.span.line, error.span.column) == (line, column)
    assert message in error.message and hint in error.hint
    done = cli("scenarios", path)
    assert done.code == 1 and done.stdout == ""
    assert f"{path}:{line}:{column}: error: {message}" in done.stderr
    assert "Traceback" not in done.stderr


def test_an_illegal_combination_says_where_the_ruleset_refuses_it():
    text = total("", ("probe", "    edition: en\n    variants: [two_colours]\n", 1000))
    with pytest.raises(RulesError) as raised:
        load_text(text, "c.yaml")
    rules_line = next(n for n, line in enumerate(TOTAL_RULES.read_text(encoding="utf-8").splitlines(), 1)
                      if line.strip() == "requires edition ru")
    assert f"arne_total.rules:{rules_line}:5)" in raised.value.diagnostics[0].message


def test_a_ruleset_without_editions_refuses_one(tmp_path):
    text = one(POSITION, "      - expect: {round: 0}", "    edition: ru\n")
    with pytest.raises(RulesError) as raised:
        load_text(text, "k.yaml")
    [error] = raised.value.diagnostics
    assert (error.span.line, error.span.column) == place(text, "ru\n")
    assert "declares no edition or variant" in error.message


def test_a_player_count_the_selection_does_not_allow_is_located():
    text = total("", ("probe", "    variants: [two_colours]\n    players: 4\n", 1000))
    with pytest.raises(RulesError) as raised:
        load_text(text, "p.yaml")
    [error] = raised.value.diagnostics
    assert (error.span.line, error.span.column) == place(text, "4\n")
    assert error.message.endswith("(in @ru+two_colours)")


# ---------------------------------------------------------------- the ARNE Total scenarios


def test_arne_total_scenarios_pass_and_play_every_play_of_every_selection(total_file):
    outcomes = run(total_file)
    assert len(outcomes) >= 70
    assert [o.scenario.name for o in outcomes if not o.passed] == []
    selections = load_all(TOTAL_RULES.read_text(encoding="utf-8"), str(TOTAL_RULES))
    assert all(not isinstance(loaded, RulesError) for _, loaded in selections)
    plays = {p.name for _, loaded in selections for p in loaded.model.plays}
    played = {parse_move(step["play"], ()).play for s in total_file.scenarios for step in s.steps if "play" in step}
    assert len(plays) == 25 and plays - played == set()
    assert played - plays == {"pass"}
    models = [s.compiled.model for s in total_file.scenarios]
    assert {m.edition for m in models} == {"ru", "en"}
    assert {v for m in models for v in m.variants} == {o.name for o in models[0].options if o.kind == "variant"}


def test_arne_total_scenarios_where_the_editions_differ_come_in_pairs(total_file):
    """Each "... (ru)" scenario has its "... (en)" twin, and each plays the edition it names."""
    by_name = {s.name: s for s in total_file.scenarios}
    pairs = [name[:-len(" (ru)")] for name in by_name if name.endswith(" (ru)")]
    assert len(pairs) >= 14
    for edition in ("ru", "en"):
        mine = [name for name in by_name if name.endswith(f" ({edition})")]
        assert all(by_name[name].compiled.model.edition == edition for name in mine)
    twins = {name[:-len(" (en)")] for name in by_name if name.endswith(" (en)")}
    assert len(twins) >= 14
    for name in ("x6", "x2", "-200", "final round", "discard pile", "+1", "+2 for value", "+2 for black",
                 "deck for 2", "deck for 4", "deck for 6", "first game: 2", "first game: 4", "first game: 6"):
        assert any(name in pair for pair in pairs) and any(name in twin for twin in twins), name


def test_changed_arne_total_claims_fail_each_in_its_scenario():
    """The deck's size, what a seat sees and the edition are really checked: change each claim
    (in one file, one claim a scenario) and exactly those scenarios fail."""
    changes = {
        "the deck for 2 players is the 58 starred cards (ru)": ("{cards_in_play: 58, counts: {badge: {0: 1, 1: 1}",
                                                               "{cards_in_play: 57, counts: {badge: {0: 1, 1: 1}"),
        "the discard pile is face up; a thief takes its top card (en)": (
            "view: {discard: [orange500, plus3], draw: 1,", "view: {discard: 2, draw: 1,"),
        "the discard pile is face down; a thief takes its top card unseen (ru)": (
            "view: {discard: 2, draw: 1,", "view: {discard: [orange500, plus3], draw: 1,"),
        "an x2 doubles a -200 too (en)": ("    edition: en\n    steps:\n      - play: lay orange100 @0\n",
                                          "    edition: ru\n    steps:\n      - play: lay orange100 @0\n"),
    }
    text = TOTAL.read_text(encoding="utf-8")
    for old, new in changes.values():  # each in the first scenario that has it, in this order
        assert old in text, old
        text = text.replace(old, new, 1)
    outcomes = run(load_text(text, "changed.yaml", RULESETS))
    assert sorted(o.scenario.name for o in outcomes if not o.passed) == sorted(changes)


def test_a_view_names_known_zones_and_faces():
    text = total("", ("probe", "", 1000)).replace("      - play: lay orange100 @0\n",
                                                  "      - expect: {view: {discards: 0, hand: {0: [orange1OO]}}}\n")
    with pytest.raises(RulesError) as raised:
        load_text(text, "v.yaml")
    assert [d.message for d in raised.value.diagnostics] == ["no zone 'discards'", "no card is called 'orange1OO'"]


def test_a_view_after_the_match_needs_a_seat():
    text = total("", ("probe", "", 1000)).replace("      - expect: {round_over: {scores: [1000, 0]}}\n",
                                                  "      - expect: {view: {discard: []}}\n")
    [outcome] = run(load_text(text, "w.yaml"))
    assert "view: the match is over: say whose view with `by: SEAT`" in outcome.failures[0].message
