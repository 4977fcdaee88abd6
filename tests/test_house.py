"""House rules: the shipped house files check, change what they say and play; every bad file in
tests/house_bad/ fails with the located message its first line expects, and exit 1."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from cardrules.interpreter import gamelog, selfplay
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.house import load_house, read_house, ruleset_schema
from cardrules.interpreter.invariants import Checker
from cardrules.interpreter.load import load
from cardrules.interpreter.yamlfile import read_yaml

from .conftest import REPO, RULESETS, cli

HOUSE = sorted((RULESETS / "house").glob("*.yaml"))
BAD = sorted((REPO / "tests" / "house_bad").glob("*.yaml"))
EXPECT = re.compile(r"# expect: (\d+):(\d+) (.+)")


def test_there_are_house_files_for_every_shipped_ruleset():
    rulesets = [Path(read_house(str(f)).ruleset).name for f in HOUSE]
    assert rulesets.count("klats.rules") >= 2
    assert rulesets.count("arne_92.rules") >= 3
    assert rulesets.count("arne_total.rules") >= 3


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_a_house_file_checks_and_its_games_keep_every_invariant(path):
    r = cli("house", "check", path)
    assert r.code == 0, r.stderr
    assert "ok" in r.stdout
    loaded = load_house(str(path))
    players = loaded.model.counts[-1]
    checker = Checker()
    stats = selfplay.run(compile_ruleset(loaded.model, players), 4, 1, invariants=checker)
    assert stats.games == 4 and checker.failures == []


@pytest.mark.parametrize("path", HOUSE, ids=lambda p: p.stem)
def test_a_house_file_validates_against_its_rulesets_own_schema(path):
    house = read_house(str(path))
    schema = json.loads(cli("house", "schema", house.ruleset).stdout)
    Draft202012Validator.check_schema(schema)
    data = read_yaml(path.read_text("utf-8"), str(path), "ruleset")[1]
    assert list(Draft202012Validator(schema).iter_errors(data)) == []


def test_the_changes_reach_the_model_with_their_provenance():
    base = load(str(RULESETS / "klats.rules")).model
    house = load_house(str(RULESETS / "house" / "klats_big_hands.yaml")).model
    assert base.param("hand_size").default == 3 and house.param("hand_size").default == 5
    assert house.param("target_total").default == 100
    why = house.param("hand_size").provenance.rulings[-1]
    assert "Big hands, short match" in why and "three cards leave too little choice" in why
    assert house.selection.endswith("+house:" + str(RULESETS / "house" / "klats_big_hands.yaml"))
    five = load_house(str(RULESETS / "house" / "klats_five_piles.yaml")).model
    assert sum(c.copies for c in five.deck) == 135  # three of each of the 45 faces
    assert "count(piles(row of s)) >= 5" in json.dumps(cli("export", RULESETS / "klats.rules", "--house",
                                                          RULESETS / "house" / "klats_five_piles.yaml").stdout)


def test_removing_and_adding_cards_changes_the_deck():
    base = compile_ruleset(load(str(RULESETS / "arne_92.rules")).model, 3)
    house = compile_ruleset(load_house(str(RULESETS / "house" / "arne_92_no_steal.yaml")).model, 3)
    def count(c, face):
        return sum(1 for f in c.face_of if c.faces[f] == face)
    assert count(base, "steal") == 4 and "steal" not in {house.faces[f] for f in house.face_of}
    assert count(base, "zap") == 5 and count(house, "zap") == 7


def test_house_rules_choose_the_edition_and_variants():
    model = load_house(str(RULESETS / "house" / "arne_total_ru_minimum_short.yaml")).model
    assert (model.edition, model.variants, model.match.winner) == ("ru", ("minimum",), "lowest")
    assert model.param("hand_size").default == 6


@pytest.mark.parametrize("command", ["check", "export", "selfplay"])
def test_house_option_on_the_commands(command):
    house = RULESETS / "house" / "arne_92_big_hands.yaml"
    extra = ["--players", "2", "--games", "3"] if command == "selfplay" else []
    r = cli(command, RULESETS / "arne_92.rules", "--house", house, *extra)
    assert r.code == 0, r.stderr
    if command == "export":
        assert '"default": 10' in r.stdout


def test_play_with_house_rules_runs_a_whole_game_and_its_log_replays(tmp_path):
    log = tmp_path / "game.json"
    house = RULESETS / "house" / "klats_five_piles.yaml"
    r = cli("play", RULESETS / "klats.rules", "--house", house, "--seats", "random,random,random", "--seed", "5",
            "--log", log)
    assert r.code == 0, r.stderr
    assert "wins" in r.stdout
    assert "+house:" in gamelog.read(log).ruleset
    assert cli("replay", log).code == 0


def test_house_rules_for_another_ruleset_are_a_usage_error():
    r = cli("play", RULESETS / "klats.rules", "--house", RULESETS / "house" / "arne_92_no_steal.yaml")
    assert r.code == 2
    assert "changes" in r.stderr and "arne_92.rules" in r.stderr


def test_the_ruleset_schema_names_the_real_params_cards_and_clauses_with_ranges():
    schema = ruleset_schema(str(RULESETS / "arne_total.rules"))
    defs = schema["$defs"]
    assert defs["param"]["enum"] == ["hand_size"]
    assert {"thief", "chameleon", "crash", "lock", "indicator"} <= set(defs["card"]["enum"])
    assert {"play stop", "play cham_on", "play seize", "final round last_black", "setup", "window"} <= set(
        defs["clause"]["enum"])
    assert schema["properties"]["edition"]["enum"] == ["ru", "en"]
    bad = {"ruleset": "x", "name": "n", "changes": [{"set": "hand_size", "to": 13}]}
    errors = list(Draft202012Validator(schema).iter_errors(bad))
    assert errors and any("13" in e.message for e in errors for e in [e, *e.context])


@pytest.mark.parametrize("path", BAD, ids=lambda p: p.stem)
def test_a_bad_house_file_is_located_and_exits_1(path):
    line, column, fragment = EXPECT.match(path.read_text("utf-8").splitlines()[0]).groups()
    r = cli("house", "check", path)
    assert r.code == 1, r.stdout
    where = f"{path}:{line}:{column}:" if line != "0" else f"{path}:"
    assert where in r.stderr, r.stderr
    assert fragment in r.stderr, r.stderr
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    if line != "0":
        assert "^" in r.stderr  # the line and a caret under the place


def test_there_are_at_least_twenty_bad_house_files():
    assert len(BAD) >= 20


def test_a_python_tag_builds_nothing(tmp_path):
    marker = tmp_path / "pwned"
    path = tmp_path / "evil.yaml"
    path.write_text(f'ruleset: klats\nname: x\nchanges: !!python/object/apply:os.system ["touch {marker}"]\n')
    assert cli("house", "check", path).code == 1
    assert not marker.exists()


def test_a_ten_megabyte_file_is_refused_before_it_is_read_as_yaml(tmp_path):
    path = tmp_path / "huge.yaml"
    path.write_text("ruleset: klats\nname: x\nchanges: []\n# " + "x" * 10_000_000 + "\n")
    r = cli("house", "check", path)
    assert r.code == 1 and "the limit is" in r.stderr


@pytest.mark.parametrize("content,message", [
    (b"", "the file is empty"),
    (b"ruleset: klats\nname: \xff\n", "is not UTF-8"),
    (b"- just\n- a list\n", "expected a mapping"),
])
def test_empty_binary_and_shapeless_files(tmp_path, content, message):
    path = tmp_path / "house.yaml"
    path.write_bytes(content)
    r = cli("house", "check", path)
    assert r.code == 1 and message in r.stderr, r.stderr


def test_a_missing_house_file_is_one_line_and_exit_1(tmp_path):
    r = cli("house", "check", tmp_path / "nope.yaml")
    assert r.code == 1 and "cannot read the house rules" in r.stderr


def test_a_snippet_error_points_into_the_yaml_file_not_the_ruleset():
    path = REPO / "tests" / "house_bad" / "snippet_does_not_check.yaml"
    with pytest.raises(RulesError) as e:
        load_house(str(path))
    [d] = [d for d in e.value.diagnostics if d.severity == "error"]
    assert d.file == str(path) and (d.span.line, d.span.column) == (7, 55)
    assert "count(rows of s)" in e.value.render()
