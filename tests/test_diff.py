"""`cardrules diff`: the differences RULINGS.md's table names, and nothing else; renamed cards
paired by behaviour; provenance on both sides; JSON valid against its schema; Markdown tables;
exit codes as diff(1)."""
from __future__ import annotations

import json

import pytest
from jsonschema import Draft202012Validator

from cardrules.interpreter.diff import diff
from cardrules.interpreter.house import load_house
from cardrules.interpreter.load import load
from cardrules.interpreter.yamlfile import shipped_schema

from .conftest import RULESETS, cli

TOTAL = str(RULESETS / "arne_total.rules")
NINETY_TWO = str(RULESETS / "arne_92.rules")


@pytest.fixture(scope="module")
def ru_en():
    return diff(load(TOTAL, "ru").model, load(TOTAL, "en").model)


@pytest.fixture(scope="module")
def en_92():
    return diff(load(TOTAL, "en").model, load(NINETY_TWO).model)


def test_ru_against_en_is_exactly_the_rows_of_the_differences_table(ru_en):
    found = {(d.section, d.what, d.kind) for d in ru_en.differences}
    # each row of RULINGS.md's table where ru and en differ, as the facts that carry it
    rows = {
        "discard pile face down": {("players and setup", "zone discard", "changed")},
        "decks per player count": {("components and deck", "deck rule by_players", "changed"),
                                   ("components and deck", "deck with 3 players", "changed"),
                                   ("components and deck", "deck with 4 players", "changed")},
        "chameleon laid on a card in a row": {("timing and windows", "window", "changed"),
                                              ("cards and their plays", "play cham_on", "removed")},
        "+1: no black answer": {("cards and their plays", "play plus1", "changed")},
        "+2": {("cards and their plays", "play plus2v", "changed")},
        "x2 and -200": {("scoring", "define row_total", "changed")},
        "final round": {("end and final round", "final round last_black", "changed")},
        "two colours per player": {("options", "variant two_colours", "removed")},
    }
    assert found == set().union(*rows.values())


def test_the_differences_carry_both_sides_provenance(ru_en):
    by = {d.what: d for d in ru_en.differences}
    discard = by["zone discard"]
    assert discard.left.provenance.sources[0].startswith("000:")
    assert discard.right.provenance.sources[0].startswith("002:")
    plus1 = by["play plus1"]
    assert plus1.changed_lines == (("then no answer from victim",), ())
    assert "не может в этот момент сыграть чёрной картой" in plus1.left.cite_of("then no answer from victim")
    assert "x2 does not double -200" in by["define row_total"].left.provenance.rulings[-1]


def test_a_ruleset_against_itself_is_the_same_and_exits_0():
    assert diff(load(TOTAL, "en").model, load(TOTAL, "en").model).same
    r = cli("diff", "klats", "klats")
    assert r.code == 0 and "the same rules" in r.stdout


def test_two_variants_of_one_edition_show_only_the_variants_clauses():
    d = diff(load(TOTAL, "en", ["minimum"]).model, load(TOTAL, "en").model)
    assert {x.what for x in d.differences} == {"play lay", "play double", "play pair", "play plus2v", "winner"}


def test_en_against_92_pairs_the_renamed_cards_by_behaviour(en_92):
    renamed = {(p.left, p.right) for p in en_92.cards if p.how == "behaviour"}
    assert {("lock", "zap"), ("crash", "zero"), ("thief", "steal"), ("change", "reverse")} <= renamed
    assert {("plus1", "take1"), ("plus3", "draw3"), ("plus2v", "get2")} <= renamed


def test_en_against_92_reports_what_the_issue_names(en_92):
    by = {d.what: d for d in en_92.differences}
    # Big Fat Zero vs crash: opponents only
    assert by["play zero"].changed_lines == (("to row of any seat",), ("to row of any other seat",))
    # lock and zap: the same role, renamed, with the same rule once the names are read alike
    assert by["card lock -> zap"].kind == "renamed" and "play zap" not in by
    # x2 stacking via chameleon: en refuses a second x2, 92 lets them stack
    assert any("holds_double" in line for line in by["play pair"].changed_lines[0])
    assert any("holds_double" in line for line in by["play double"].changed_lines[0])
    # the final round: en has stop and change besides, and neither offers them at the end
    assert "final round last_black" in by and "play stop" in by and by["play stop"].kind == "removed"
    # the actions and blacks in each deck, the composition and the player counts
    assert {"card plus2b", "card swap_hands", "card change_places", "card stop"} <= {
        w for w, d in by.items() if d.kind == "removed"}
    assert by["players"].changed_lines == (("2..6",), ("2..4",))
    assert by["deck with 2 players"].kind == "changed" and by["deck with 6 players"].kind == "removed"


def test_klats_against_arne_is_a_short_summary():
    r = cli("diff", "klats", "arne_92")
    assert r.code == 1, r.stderr
    assert "different games" in r.stdout and len(r.stdout.splitlines()) < 20


def test_house_rules_show_in_the_diff():
    base = load(str(RULESETS / "klats.rules")).model
    for name in ("klats_big_hands", "klats_five_piles"):
        house = load_house(str(RULESETS / "house" / f"{name}.yaml")).model
        d = diff(base, house)
        assert not d.same
        assert ("options", "house rules", "added") in {(x.section, x.what, x.kind) for x in d.differences}
    r = cli("diff", "klats", f"klats+house:{RULESETS / 'house' / 'klats_big_hands.yaml'}", "--json")
    changed = {d["what"]: d for d in json.loads(r.stdout)["differences"]}
    assert r.code == 1 and changed["param hand_size"]["right"]["text"] == ["default 5, range 1..10"]
    assert "Big hands, short match" in changed["param hand_size"]["right"]["provenance"]["rulings"][-1]


@pytest.mark.parametrize("left,right", [("arne_total@ru", "arne_total@en"), ("arne_total@en", "arne_92"),
                                        ("klats", "klats"), ("klats", "arne_total@ru+teams")])
def test_json_output_is_valid_against_its_schema(left, right):
    r = cli("diff", left, right, "--json")
    data = json.loads(r.stdout)
    Draft202012Validator(shipped_schema("diff.schema.json")).validate(data)
    assert data["same"] == (r.code == 0) == (data["differences"] == [])


def test_markdown_output_is_a_document_of_tables():
    r = cli("diff", "arne_total@ru", "arne_total@en", "--markdown")
    assert r.code == 1
    lines = r.stdout.splitlines()
    assert lines[0].startswith("# Rule diff: ARNE Total@ru vs ARNE Total@en")
    assert "## Players and setup" in lines and "| | `arne_total@ru` | `arne_total@en` |" in lines
    rows = [line for line in lines if line.startswith("| zone discard")]
    assert len(rows) == 1 and rows[0].count(" | ") >= 2


@pytest.mark.parametrize("args", [("klats", "no_such_ruleset"), ("arne_total@xx", "arne_total@en"),
                                  ("klats", "klats", "--json", "--markdown")])
def test_trouble_is_exit_2(args):
    r = cli("diff", *args)
    assert r.code == 2
    assert "Traceback" not in r.stderr


@pytest.mark.parametrize("path", sorted((RULESETS / "house").glob("*.yaml")), ids=lambda p: p.stem)
def test_every_change_of_a_house_file_shows_in_the_diff(path):
    from cardrules.interpreter.house import read_house

    house = read_house(str(path))
    patched = load_house(str(path)).model
    base = load(str(house.ruleset), patched.edition, patched.variants).model
    facts = {(d.what, d.kind) for d in diff(base, patched).differences}
    for change in house.changes:
        if "set" in change:
            assert (f"param {change['set']}", "changed") in facts
        elif "remove" in change:
            assert (f"card {change['remove']}", "removed") in facts
        elif "replace" in change:
            assert (change["replace"], "changed") in facts
        else:
            assert (f"card {change.get('card') or change['add']}", "changed") in facts
