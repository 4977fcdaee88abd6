"""The JSON export: valid against its schema for every ruleset we ship, complete enough that a
tree rebuilds each expression, deterministic to the byte, and the `check` summary's figures."""
from __future__ import annotations

import json
from importlib.resources import files

import pytest
from jsonschema import Draft202012Validator

from cardrules.interpreter import model as m
from cardrules.interpreter.export import FORMAT, clauses, export, summary
from cardrules.interpreter.house import load_house
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.unparse import unparse

from .conftest import REPO, RULESETS, cli

RULES_FILES = sorted(RULESETS.glob("*.rules")) + sorted((REPO / "docs" / "examples").glob("*.rules"))

# A ruleset that uses every kind of expression node and every optional part of a clause.
EVERY_BLOCK = """
game "Every block" {
    name en "Every block"
    document "book" "A test book"  source "book: itself"
}
players 2, 4  source "book: p1"
param hand_size = 2 in 1..5
attribute suit { red en "Red", black }  ruling "why not"
attribute rank in 1..4  assumed "four ranks"
card plain {
    suit each  rank each  copies 2 assumed "two"
    face en "P{suit}{rank}"
    mark star 1 where card.rank > 2  source "book: stars"
}
card joker { suit = red  rank = 1  face "joker"  mark gold }
deck few where card.star or card.gold or card.rank <= 2 or players > 2  ruling "fewer for two"
decks 2  assumed "two packs"
zone pool shared hidden
zone table shared public
zone hand per seat owner
zone row per seat public piles
setup {
    shuffle deck into pool
    deal hand_size from pool to hand
    move 1 from pool to table
}
play give {
    card from hand where not (card.rank == 1) and card.suit != red
    to row of any other seat
    new pile
    onto pile
    then merge q in piles(target) into pile
}
play keep {
    card from hand
    to row of self
    new pile when count(piles(target)) < -(-3)
}
define home(s) = seat(index(s) + 1)
play gift {
    card from hand where card.rank == 4
    to row of home(self)
    new pile
    then pass hand
}
play trade {
    card from hand where card.rank == 3
    to table
    choose seat victim of any other seat
    then swap hand, row of self with victim
    then no answer from victim
}
play drop {
    card from hand where card.suit == top(table).suit
    to table
}
turn {
    play one of give, keep, gift, trade or pass
    may play any of drop when count(table) < 4
    draw 1 from pool to hand when count(x in cards(hand of self) where x.rank > 2) < hand_size
}
end round dry when count(pool) == 0 and every s in seats: count(hand of s) == 0
end round big when some s in seats: sum(c in tops(row of s): c.rank * 2) >= max(p in seats: count(hand of p)) + 20
score s = if count(distinct(tops(row of s).suit)) == count(values(suit)) then sum(tops(row of s).rank) % 7 else 0
match {
    until max(totals) >= 30 or round >= 5
    winner lowest
}
"""

# Editions and variants on top of it: the export says which were chosen, and lists them all.
WITH_OPTIONS = EVERY_BLOCK + """
edition plain_rules { name en "Plain" }  source "book: p2"
edition short { language en  replace match { until round >= 1 } }
variant no_gift {
    name en "No gifts"  name fr "Sans cadeaux"
    requires edition short
    combines with calm
    remove play gift
    replace turn { play one of give, keep, trade or pass  may play any of drop  draw 1 from pool to hand when passed }
}
variant calm { extend play keep { then no answer from self } }
"""


@pytest.fixture(scope="module")
def schema() -> dict:
    return json.loads((files("cardrules.schemas") / "ruleset.schema.json").read_text(encoding="utf-8"))


@pytest.fixture(scope="module")
def validator(schema) -> Draft202012Validator:
    return Draft202012Validator(schema)


def as_json(data: dict) -> dict:
    """What a reader of the file gets: proves the export is plain JSON data."""
    return json.loads(json.dumps(data))


def errors(validator, data) -> list[str]:
    return [f"{'/'.join(map(str, e.absolute_path))}: {e.message[:200]}" for e in validator.iter_errors(data)]


def expressions(data):
    """Every exported expression ({text, type, tree}) anywhere in the export."""
    if isinstance(data, dict):
        if set(data) == {"text", "type", "tree"}:
            yield data
        for value in data.values():
            yield from expressions(value)
    elif isinstance(data, list):
        for value in data:
            yield from expressions(value)


def rebuild(t: dict):
    """A model expression from its exported tree: if this gives back the text, the tree is complete."""
    node, typ = t["node"], t["type"]
    if node == "const":
        value = t["value"]
        return m.Const(tuple(value) if isinstance(value, list) else value, typ)
    if node == "ref":
        return m.Ref(t["name"], typ)
    if node == "param":
        return m.ParamRef(t["name"], typ)
    if node == "zone":
        return m.ZoneRef(t["zone"], None if t["seat"] is None else rebuild(t["seat"]), t["piles"], typ)
    if node == "attr":
        return m.AttrOf(rebuild(t["object"]), t["attribute"], typ)
    if node == "call":
        return m.Call(t["function"], tuple(rebuild(a) for a in t["args"]), typ)
    if node == "each":
        return m.Each(t["function"], t["var"], rebuild(t["in"]), rebuild(t["body"]), t["filter"], typ)
    if node == "op":
        return m.Op(t["op"], rebuild(t["left"]), rebuild(t["right"]), typ)
    if node == "unary":
        return m.Unary(t["op"], rebuild(t["operand"]), typ)
    if node == "if":
        return m.If(rebuild(t["cond"]), rebuild(t["then"]), rebuild(t["else"]), typ)
    if node == "define":
        return m.Defined(t["name"], tuple(rebuild(a) for a in t["args"]), rebuild(t["body"]), typ)
    assert node == "quantifier", node
    return m.Quantifier(t["kind"], t["var"], rebuild(t["in"]), rebuild(t["body"]), typ)


def node_kinds(data) -> set[str]:
    kinds = set()
    for e in expressions(data):
        stack = [e["tree"]]
        while stack:
            t = stack.pop()
            kinds.add(t["node"])
            stack += [v for v in t.values() if isinstance(v, dict)]
            stack += [v for vs in t.values() if isinstance(vs, list) for v in vs if isinstance(v, dict)]
    return kinds


# ------------------------------------------------------------------ schema


def test_the_schema_is_a_valid_draft_2020_12_schema(schema):
    Draft202012Validator.check_schema(schema)
    assert schema["$schema"] == "https://json-schema.org/draft/2020-12/schema"
    assert schema["properties"]["format"] == {"const": FORMAT}


@pytest.mark.parametrize("path", RULES_FILES, ids=lambda p: p.name)
def test_every_shipped_ruleset_exports_valid_json(path, validator):
    data = as_json(export(load(str(path)).model))
    assert data["format"] == FORMAT
    assert errors(validator, data) == []


def test_a_ruleset_with_every_block_exports_valid_json(validator):
    data = as_json(export(load_text(EVERY_BLOCK, "every.rules").model))
    assert errors(validator, data) == []
    assert node_kinds(data) == {"const", "ref", "param", "zone", "attr", "call", "each", "op", "unary", "if",
                                "quantifier", "define"}
    give, keep, gift, trade, drop = data["plays"]
    assert [p["to"]["seats"] for p in data["plays"]] == ["other", "self", "seat", None, None]
    assert gift["to"]["seat"]["text"] == "home(self)" and gift["to"]["seat"]["type"] == "seat"
    assert gift["to"]["seat"]["tree"]["body"]["function"] == "seat"  # the call, and what it means
    [home] = data["defines"]
    assert (home["name"], home["params"], home["body"]["text"], home["body"]["type"]) == (
        "home", ["s"], "seat(index(s) + 1)", "seat")
    assert give["to"]["seat"] is None and keep["to"]["seat"] is None
    assert keep["new_pile"]["when"]["text"] == "count(piles(target)) < -(-3)"  # as written: not --3
    assert give["new_pile"]["when"] is None and give["effects"][0]["where"] is None
    assert drop["new_pile"] is None and drop["onto_pile"] is None
    assert [s["step"] for s in data["setup"]] == ["shuffle", "deal", "move"]
    assert data["match"]["winner"]["value"] == "lowest"
    # the starter is not written: the default, with no provenance and no line
    assert data["match"]["starter"]["expr"]["text"] == "round % players"
    assert data["match"]["starter"]["provenance"]["line"] == 0
    assert data["attributes"][0]["values"][0] == {"name": "red", "labels": [{"language": "en", "text": "Red"}]}
    assert data["attributes"][1] == {"name": "rank", "kind": "int", "min": 1, "max": 4, "provenance": {
        "sources": [], "rulings": [], "assumptions": ["four ranks"], "line": 9, "column": 1}}
    assert data["deck"]["size"] == 2 * 2 * 4 + 1  # one set, as the cards are written
    assert data["deck"]["faces"][0]["names"] == {"en": "PRed1"}  # an enum value by its label in the language
    assert data["deck"]["faces"][-1] == {"face": "joker", "kind": "joker", "attributes": {"suit": "red", "rank": 1},
                                         "copies": 1, "names": {}}


def test_the_new_blocks_export_as_written(validator):
    data = as_json(export(load_text(EVERY_BLOCK, "every.rules").model))
    assert data["players"]["counts"] == [2, 4] and (data["players"]["min"], data["players"]["max"]) == (2, 4)
    assert data["header"]["edition"] is None and data["header"]["variants"] == [] and data["options"] == []
    plain, joker = data["cards"]
    assert plain["faces"] == [{"language": "en", "template": "P{suit}{rank}"}] and joker["faces"] == []
    [star] = plain["marks"]
    assert (star["name"], star["count"], star["where"]["text"]) == ("star", 1, "card.rank > 2")
    assert star["provenance"]["sources"] == ["book: stars"] and star["provenance"]["line"] == 13
    assert joker["marks"] == [{"name": "gold", "count": None, "where": None, "provenance": {
        "sources": [], "rulings": [], "assumptions": [], "line": 15, "column": 50}}]
    assert data["marks"] == ["star", "gold"]
    [few] = data["deck_rules"]
    assert few["name"] == "few" and few["where"]["text"] == "card.star or card.gold or card.rank <= 2 or players > 2"
    assert few["provenance"]["rulings"] == ["fewer for two"]
    assert data["sets"]["count"] == 2 and data["sets"]["provenance"]["assumptions"] == ["two packs"]
    effects = {p["name"]: p["effects"] for p in data["plays"]}
    assert [e["effect"] for e in effects["gift"]] == ["pass"] and effects["gift"][0]["zone"] == "hand"
    swap, silence = effects["trade"]
    assert (swap["effect"], swap["zones"], swap["seat"]["text"], swap["other"]["text"]) == (
        "swap", ["hand", "row"], "self", "victim")
    assert (silence["effect"], silence["seat"]["text"], silence["seat"]["type"]) == ("no_answer", "victim", "seat")
    play_step, repeat_step, _ = data["turn"]
    assert (play_step["or_pass"], play_step["optional"], play_step["repeat"]) == (True, False, False)
    assert (repeat_step["plays"], repeat_step["optional"], repeat_step["repeat"]) == (["drop"], True, True)


def test_house_rules_export_in_the_header(validator):
    data = as_json(export(load_house(str(RULESETS / "house" / "klats_big_hands.yaml")).model))
    assert errors(validator, data) == []
    assert data["header"]["house"] == {"file": str(RULESETS / "house" / "klats_big_hands.yaml"),
                                       "name": "Big hands, short match"}
    assert [(p["name"], p["default"]) for p in data["params"]][::2] == [("hand_size", 5), ("target_total", 100)]
    assert as_json(export(load(str(RULESETS / "klats.rules")).model))["header"]["house"] is None


def test_editions_and_variants_export_the_selection_and_every_option(validator):
    data = as_json(export(load_text(WITH_OPTIONS, "every.rules", "short", ["calm", "no_gift"]).model))
    assert errors(validator, data) == []
    assert data["header"]["edition"] == "short" and data["header"]["variants"] == ["no_gift", "calm"]  # file order
    assert data["header"]["language"] == "en"  # the edition's
    assert [(o["kind"], o["name"]) for o in data["options"]] == [
        ("edition", "plain_rules"), ("edition", "short"), ("variant", "no_gift"), ("variant", "calm")]
    no_gift = data["options"][2]
    assert no_gift["labels"] == [{"language": "en", "text": "No gifts"}, {"language": "fr", "text": "Sans cadeaux"}]
    assert (no_gift["requires"], no_gift["combines"]) == (["short"], ["calm"])
    assert data["options"][0]["provenance"]["sources"] == ["book: p2"]
    # the chosen options are applied: gift is gone, keep silences, the match is one round
    assert [p["name"] for p in data["plays"]] == ["give", "keep", "trade", "drop"]
    assert data["plays"][1]["effects"][-1]["effect"] == "no_answer"
    assert data["match"]["until"]["expr"]["text"] == "round >= 1"
    default = as_json(export(load_text(WITH_OPTIONS, "every.rules").model))
    assert default["header"]["edition"] == "plain_rules" and default["header"]["variants"] == []
    assert default["header"]["language"] is None
    assert errors(validator, default) == []


@pytest.mark.parametrize("mutate", [
    lambda d: d.update(extra=1),
    lambda d: d["zones"][0].update(visibility="secret"),
    lambda d: d["zones"][0].pop("provenance"),
    lambda d: d["plays"][0]["to"].update(seats="all"),
    lambda d: d["score"]["expr"]["tree"].update(node="lambda"),
    lambda d: d["score"]["expr"]["tree"].update(colour="x"),
    lambda d: d["score"]["expr"].update(type="float"),
    lambda d: d["match"]["winner"].update(value="first"),
    lambda d: d["round_ends"][0]["provenance"].update(line=-1),
    lambda d: d.update(format="cardrules-ruleset/3"),
    lambda d: d["players"].pop("counts"),
    lambda d: d["plays"][0]["to"].update(seats="seat"),
    lambda d: d["deck"]["faces"][0]["names"].update(en=""),
    lambda d: d["cards"][0]["marks"].append({"name": "star", "count": None, "where": None}),
    lambda d: d["sets"].update(count=0),
    lambda d: d["turn"][0].pop("repeat"),
    lambda d: d["plays"][0]["effects"].append({"effect": "pass", "zone": "hand"}),
    lambda d: d["header"].update(variants=["x y"]),
], ids=["top-level key", "visibility", "provenance missing", "seats", "node tag", "node key", "type",
        "winner", "line", "format", "player counts", "seat expression missing", "empty face", "mark provenance",
        "sets", "repeat", "effect provenance", "variant name"])
def test_the_schema_is_strict(klats, validator, mutate):
    data = as_json(export(klats.model))
    mutate(data)
    assert errors(validator, data) != []


# ------------------------------------------------------------------ content


@pytest.mark.parametrize("source", ["klats", "every"])
def test_each_tree_rebuilds_its_expression(klats, source):
    model = klats.model if source == "klats" else load_text(EVERY_BLOCK, "every.rules").model
    found = list(expressions(as_json(export(model))))
    assert len(found) >= 10
    for e in found:
        rebuilt = rebuild(e["tree"])
        assert unparse(rebuilt) == e["text"]
        assert rebuilt.type == e["type"]


def test_klats_export_holds_the_whole_model(klats):
    data = as_json(export(klats.model))
    assert data["header"]["title"] == "Klats"
    assert {"language": "ru", "text": "Клац!"} in data["header"]["names"]
    assert [d["id"] for d in data["documents"]] == ["003"]
    assert (data["players"]["min"], data["players"]["max"]) == (2, 6)
    assert data["players"]["provenance"]["assumptions"] == [
        "003 does not say how many may play; docs/rulings.md#klats: 2 to 6"]
    assert [(p["name"], p["default"]) for p in data["params"]] == [("hand_size", 3), ("max_piles", 6),
                                                                   ("target_total", 150)]
    assert data["deck"]["size"] == 90 == sum(f["copies"] for f in data["deck"]["faces"])
    assert len(data["deck"]["faces"]) == 45
    assert data["cards"][0]["copies_provenance"]["assumptions"]
    assert [z["name"] for z in data["zones"]] == ["draw", "hand", "row"]
    put = data["plays"][0]
    assert put["onto_pile"]["when"]["text"] == "top(pile).colour == card.colour"
    assert put["onto_pile"]["provenance"]["rulings"] == [
        "docs/rulings.md#klats: on top of a pile whose top card has the same colour"]
    assert put["effects"][0]["where"]["text"] == "top(other).value == card.value"
    assert [s["step"] for s in data["turn"]] == ["play", "draw"]
    assert [r["name"] for r in data["round_ends"]] == ["six_piles", "cards_exhausted"]
    assert data["score"]["expr"]["tree"]["node"] == "if"
    assert data["match"]["starter"]["provenance"]["assumptions"] == [
        "003 names the youngest player first; seats carry no age"]


def test_export_is_deterministic_to_the_byte(tmp_path):
    first = cli("export", RULESETS / "klats.rules")
    second = cli("export", RULESETS / "klats.rules")
    assert first.code == second.code == 0
    assert first.stdout == second.stdout and first.stdout.endswith("}\n")
    written = tmp_path / "klats.json"
    assert cli("export", RULESETS / "klats.rules", "-o", written).code == 0
    assert written.read_text(encoding="utf-8") == first.stdout
    assert json.loads(first.stdout)["format"] == FORMAT


def test_export_to_a_place_it_cannot_write(tmp_path):
    missing = cli("export", "klats", "--output", tmp_path / "no" / "such" / "x.json")
    assert missing.code == 1 and missing.stdout == ""
    assert "cannot write" in missing.stderr and "No such file" in missing.stderr
    folder = cli("export", "klats", "-o", tmp_path)
    assert folder.code == 1 and "is a directory" in folder.stderr


def test_export_of_a_missing_file_or_a_directory(tmp_path):
    missing = cli("export", tmp_path / "nope.rules")
    assert missing.code == 1 and missing.stdout == ""
    assert "cannot read the file" in missing.stderr
    folder = cli("export", tmp_path)
    assert folder.code == 1 and "this is a directory" in folder.stderr


# ------------------------------------------------------------------ the summary of `check`


def test_klats_summary_figures(klats):
    s = summary(klats.model)
    assert s["title"] == "Klats" and s["selection"] == ""  # a file without editions or variants
    assert s["players"] == {"min": 2, "max": 6, "counts": [2, 3, 4, 5, 6]}
    assert s["deck"] == 90
    assert s["stock"] == "draw"
    assert [(d["players"], d["deck"], d["per_seat"], d["dealt"], d["stock"]) for d in s["deals"]] == [
        (n, 90, 3, 3 * n, 90 - 3 * n) for n in range(2, 7)]
    assert [(z["name"], z["scope"], z["visibility"], z["piles"]) for z in s["zones"]] == [
        ("draw", "shared", "hidden", False), ("hand", "per_seat", "owner", False), ("row", "per_seat", "public", True)]
    assert [(p["name"], p["default"], p["min"], p["max"]) for p in s["params"]] == [
        ("hand_size", 3, 1, 10), ("max_piles", 6, 2, 20), ("target_total", 150, 1, 100000)]
    assert s["plays"] == ["put"] and s["round_ends"] == ["six_piles", "cards_exhausted"]
    # Every Klats clause is backed: 26 counted, each citing the book, a ruling or an assumption.
    assert s["provenance"] == {"clauses": 26, "sources": 21, "rulings": 9, "assumptions": 4, "none": 0}
    assert s["unbacked"] == []


def test_summary_follows_player_counts_decks_deck_rules_deals_moves_and_shared_zones():
    s = summary(load_text(EVERY_BLOCK, "every.rules").model)
    assert s["players"] == {"min": 2, "max": 4, "counts": [2, 4]}  # `players 2, 4`: no deal for 3
    assert s["deck"] == 17 and s["stock"] == "pool"  # one set, as written
    # `decks 2`: 34 cards. With two players the deck rule keeps, of the 8 copies of ranks 3 and 4
    # in each set, the 4 that carry a star (the first copy of each face): 34 - 8 = 26.
    # Each seat is dealt `hand_size` (2), then one card is turned up on the table.
    assert s["deals"] == [{"players": n, "deck": deck, "per_seat": 2, "dealt": 2 * n, "stock": deck - 2 * n - 1,
                           "shared": {"pool": deck - 2 * n - 1, "table": 1}} for n, deck in ((2, 26), (4, 34))]
    # the document, `players` and the mark cite the book; the suit and the deck rule are rulings;
    # the rank, `copies` and `decks` assumed; `param hand_size` says nothing; `card plain` counts
    # by its items (copies, mark star), `card joker` (its mark says nothing) as itself
    assert s["provenance"] == {"clauses": 25, "sources": 3, "rulings": 2, "assumptions": 3, "none": 17}
    assert s["unbacked"][:3] == ["param hand_size", "card joker", "zone pool"]
    assert "card plain" not in s["unbacked"] and "setup" in s["unbacked"]
    assert "deck few" not in s["unbacked"] and "decks" not in s["unbacked"]


def test_summary_counts_deck_rules_decks_and_marks_as_clauses():
    counted = dict(clauses(load_text(EVERY_BLOCK, "every.rules").model))
    assert counted["deck few"].rulings == ("fewer for two",)
    assert counted["decks"].assumptions == ("two packs",)
    assert counted["card plain: mark star"].sources == ("book: stars",)
    assert counted["card plain: copies"].assumptions == ("two",)
    assert "card joker" in counted and not any(name.startswith("card joker:") for name in counted)
    unwritten = dict(clauses(load_text(EVERY_BLOCK.replace('decks 2  assumed "two packs"\n', ""), "every.rules").model))
    assert "decks" not in unwritten  # `decks` counts when it is written


def test_summary_evaluates_counts_per_player_count_and_says_which_cannot_be_set_up():
    text = EVERY_BLOCK.replace("deal hand_size from pool",
                               "deal if players == 2 then hand_size * 3 else hand_size * players * 2 from pool")
    deals = summary(load_text(text, "every.rules").model)["deals"]
    # 26 cards for two: 6 each (the param at its default), one on the table; 16 each is too many for four
    assert deals[0] == {"players": 2, "deck": 26, "per_seat": 6, "dealt": 12, "stock": 13,
                        "shared": {"pool": 13, "table": 1}}
    assert deals[1]["players"] == 4 and "cannot deal 16 to each of 4 players" in deals[1]["problem"]
    assert set(deals[1]) == {"players", "problem"}


def test_summary_of_a_selection_names_it():
    s = summary(load_text(WITH_OPTIONS, "every.rules", "short", ["no_gift"]).model)
    assert s["selection"] == "@short+no_gift"
    assert s["plays"] == ["give", "keep", "trade", "drop"]


def test_windows_turn_order_choices_and_moves_export_valid_json(validator):
    from .helpers import QUICK, RAID

    quick = as_json(export(load_text(QUICK, "quick.rules").model))
    raid = as_json(export(load_text(RAID, "raid.rules").model))
    assert errors(validator, quick) == [] and errors(validator, raid) == []
    assert quick["window"]["plays"] == ["jump", "flip"]
    assert [e["effect"] for p in quick["plays"] for e in p["effects"]] == ["next_turn", "reverse"]
    heist = next(p for p in raid["plays"] if p["name"] == "heist")
    assert heist["choose"]["kind"] == "pile" and heist["choose"]["zone"] == "vault"
    assert [e["effect"] for e in heist["effects"]] == ["move_pile", "move_cards"]


def test_a_final_round_exports_valid_json(validator):
    from .helpers import QUICK_FINAL

    data = as_json(export(load_text(QUICK_FINAL, "final.rules").model))
    assert errors(validator, data) == []
    assert data["final"]["name"] == "last" and data["final"]["steps"][0]["plays"] == ["lay"]


def test_a_compound_play_exports_valid_json(validator):
    from .helpers import PAIRS

    data = as_json(export(load_text(PAIRS, "pairs.rules").model))
    assert errors(validator, data) == []
    pair = next(p for p in data["plays"] if p["name"] == "pair")
    assert pair["with"]["name"] == "helper"
    assert pair["with"]["where"]["text"] == "helper.type == flip or helper.n == card.n"
