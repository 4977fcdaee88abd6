"""Editions and variants: one file, many rulesets. What each change does to the model, which
selections are legal, how a name the file does not declare and an illegal combination are
reported, and how `check` verifies every legal selection of a file."""
from __future__ import annotations

import json
import re

import pytest

from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.load import load_all, load_text
from cardrules.interpreter.options import SelectionError
from cardrules.interpreter.unparse import unparse

from .conftest import cli, write

# A base game, two editions and three variants, each change of its own kind.
OPTS = """game "Pick" { }
players 2..4
attribute n in 1..6
card chip { n each  copies 2 }
zone stock shared hidden
zone discard shared public
zone hand per seat owner
setup { shuffle deck into stock  deal 2 from stock to hand }
play lay { card from hand  to discard }
turn { play one of lay or pass }
end round out when some s in seats: count(hand of s) == 0
score s = count(hand of s)
match { until round >= 1  winner lowest }

edition short {
    name en "Short"
}
edition long {
    name en "Long"
    replace match { until round >= 3  winner lowest }
    extend setup { move 1 from stock to discard }
}
variant draw {
    name en "Draw a card"
    extend turn { draw 1 from stock to hand when passed }
    end round dry when count(stock) == 0
    combines with big
}
variant big {
    requires edition long
    replace players 2..6
    decks 2
}
variant calm {
    remove end round out
    end round calm when passes >= players
    for edition short { replace score s = 0 }
}
"""

LEGAL = ["@short", "@short+draw", "@short+calm", "@long", "@long+draw", "@long+big", "@long+calm", "@long+draw+big"]


def model(edition=None, variants=()):
    return load_text(OPTS, "pick.rules", edition, variants).model


def at(text: str, line_text: str, word: str) -> str:
    """`line:col` of `word` in the first line of `text` that contains `line_text`."""
    for number, line in enumerate(text.splitlines(), 1):
        if line_text in line:
            return f"{number}:{line.index(word, line.index(line_text)) + 1}"
    raise AssertionError(f"no line holds {line_text!r}")


# ------------------------------------------------------------------ what each change does


def test_the_default_edition_is_the_files_first_and_no_variant():
    m = model()
    assert (m.edition, m.variants, m.selection) == ("short", (), "@short")
    assert [(o.kind, o.name) for o in m.options] == [("edition", "short"), ("edition", "long"), ("variant", "draw"),
                                                     ("variant", "big"), ("variant", "calm")]
    assert m.options[0].labels == (("en", "Short"),)
    assert unparse(m.match.until) == "round >= 1" and len(m.setup) == 2


def test_replace_and_extend_change_the_named_clauses():
    long = model("long")
    assert unparse(long.match.until) == "round >= 3" and long.match.winner == "lowest"
    assert [type(s).__name__ for s in long.setup] == ["Shuffle", "Deal", "Transfer"]  # extended: a move more
    draw = model("short", ["draw"])
    assert [type(s).__name__ for s in draw.turn] == ["PlayStep", "Draw"]
    assert unparse(draw.turn[1].when) == "passed"


def test_a_new_clause_is_added_and_remove_takes_one_away():
    assert model("short", ["draw"]).round_end_names == ("out", "dry")
    assert model("short", ["calm"]).round_end_names == ("calm",)


def test_for_edition_applies_only_in_that_edition():
    assert unparse(model("short", ["calm"]).score.expr) == "0"
    assert unparse(model("long", ["calm"]).score.expr) == "count(hand of s)"


def test_a_variant_replaces_single_clauses_and_adds_decks():
    big = model("long", ["big"])
    assert big.counts == (2, 3, 4, 5, 6) and big.sets == 2
    assert model("long").counts == (2, 3, 4) and model("long").sets == 1


def test_variants_are_applied_in_file_order_whatever_order_they_are_given_in():
    m = model("long", ["big", "draw"])
    assert m.variants == ("draw", "big") and m.selection == "@long+draw+big"


def test_the_legal_selections_follow_requires_and_combines_with():
    results = load_all(OPTS, "pick.rules")
    assert [selection for selection, _ in results] == LEGAL
    assert all(not isinstance(r, RulesError) for _, r in results)


# ------------------------------------------------------------------ choosing wrong


@pytest.mark.parametrize("edition,variants,message,hint", [
    ("lnog", (), "the ruleset has no edition 'lnog'", "did you mean 'long'?"),
    (None, ("clam",), "the ruleset has no variant 'clam'", "did you mean 'calm'?"),
    ("zzz", (), "the ruleset has no edition 'zzz'", "Its editions: short, long."),
])
def test_a_name_the_file_does_not_declare_is_a_selection_error_with_a_hint(edition, variants, message, hint):
    with pytest.raises(SelectionError) as raised:
        model(edition, variants)
    assert raised.value.message == message and hint in raised.value.hint


def test_a_file_without_options_refuses_a_selection():
    plain = OPTS.split("\nedition short")[0]
    with pytest.raises(SelectionError, match="declares no edition or variant"):
        load_text(plain, "plain.rules", "short")


def test_a_variant_outside_its_edition_is_located_at_its_requires():
    with pytest.raises(RulesError) as raised:
        model("short", ["big"])
    [d] = raised.value.diagnostics
    assert d.message == "variant 'big' is for edition long, not short"
    assert f"{d.span.line}:{d.span.column}" == at(OPTS, "requires edition long", "requires")
    assert d.hint == "choose --edition long, or leave out --variant big"


def test_variants_that_do_not_combine_are_located_at_the_variant(tmp_path):
    path = write(tmp_path, "pick.rules", OPTS)
    r = cli("check", path, "--edition", "long", "--variant", "draw", "--variant", "calm")
    assert r.code == 1 and r.stdout == ""
    assert f"{path}:{at(OPTS, 'variant calm', 'calm')}: error: variant 'calm' does not combine with variant 'draw'" \
        in r.stderr
    assert "^^^^" in r.stderr and "add `combines with draw` to one of them" in r.stderr


def test_an_unknown_variant_on_the_command_line_is_a_usage_error(tmp_path):
    path = write(tmp_path, "pick.rules", OPTS)
    r = cli("check", path, "--variant", "clam")
    assert r.code == 2 and r.stdout == ""
    assert "error: the ruleset has no variant 'clam'" in r.stderr and "did you mean 'calm'?" in r.stderr


# ------------------------------------------------------------------ options declared wrong


@pytest.mark.parametrize("option,word,message", [
    ("variant v { replace play throw { card from hand  to discard } }", "throw",
     "variant 'v' cannot replace play 'throw': the ruleset has none"),
    ("variant v { play lay { card from hand  to discard } }", "lay {",
     "variant 'v' adds play 'lay', which the ruleset already has"),
    ("variant v { extend score s = 0 }", "score", "the score clause cannot be extended"),
    ("variant v { edition inner { } }", "edition", "an edition inside variant 'v'"),
    ("variant v { requires edition nowhere }", "nowhere", "no edition 'nowhere'"),
    ("variant v { remove end round never }", "never",
     "variant 'v' cannot remove end round 'never': the ruleset has none"),
    ("variant v { combines with w }", "w }", "no variant 'w'"),
    ("edition v { requires edition short }", "requires", "an edition cannot require an edition"),
], ids=["replace missing", "add existing", "extend a clause", "edition in a variant", "requires unknown",
        "remove missing", "combines unknown", "edition requires"])
def test_an_option_declared_wrong_is_a_located_error(option, word, message):
    text = OPTS + option + "\n"
    with pytest.raises(RulesError) as raised:
        load_text(text, "pick.rules", None, ("v",) if option.startswith("variant") else ())
    located = {(f"{d.span.line}:{d.span.column}", d.message) for d in raised.value.diagnostics}
    assert (at(text, option, word), message) in located


# ------------------------------------------------------------------ `check` over every selection


def test_check_verifies_and_lists_every_legal_selection(tmp_path):
    path = write(tmp_path, "pick.rules", OPTS)
    r = cli("check", path)
    assert r.code == 0, r.stderr
    assert "Every legal selection checks (8)" in r.stdout
    assert re.search(r"│ @long\+draw\+big\s+│ 2\.\.6\s+│ 0 ", r.stdout)
    data = json.loads(cli("check", path, "--json").stdout)
    assert data["selection"] == "@short"  # the summary is the default selection's
    assert [(s["selection"], s["players"], s["warnings"]) for s in data["selections"]] == [
        (s, [2, 3, 4, 5, 6] if "big" in s else [2, 3, 4], 0) for s in LEGAL]


def test_check_reports_an_error_with_the_selections_it_shows_in(tmp_path):
    # this long edition deals two cards more: 4 to each of 4 players is 16 of the 12 cards
    text = OPTS.replace("extend setup { move 1 from stock to discard }", "extend setup { deal 2 from stock to hand }")
    path = write(tmp_path, "pick.rules", text)
    r = cli("check", path)
    assert r.code == 1 and r.stdout == ""
    assert f"{path}:8:1: error: the deck of 12 cards cannot deal 4 to each of 4 players" in r.stderr
    assert "  in: @long, @long+draw, @long+calm\n" in r.stderr  # not with big: decks 2
    assert "3 of the 8 legal selections of edition and variants do not check" in r.stderr
    assert cli("check", path, "--edition", "short").code == 0  # one selection, checked alone


def test_file_at_edition_plus_variant_names_a_selection(tmp_path):
    path = write(tmp_path, "pick.rules", OPTS)
    r = cli("check", f"{path}@long+draw", "--json")
    assert r.code == 0, r.stderr
    assert json.loads(r.stdout)["selection"] == "@long+draw"
    six = cli("selfplay", f"{path}@long+big", "--players", "6", "--games", "2", "--json")
    assert six.code == 0, six.stderr
    assert json.loads(six.stdout)["games"] == 2
    refused = cli("selfplay", f"{path}@short", "--players", "6", "--games", "1")
    assert refused.code == 2 and "Pick@short is for 2 to 4 players, not 6" in refused.stderr
    clash = cli("check", f"{path}@short", "--edition", "long")
    assert clash.code == 2 and "two editions: @short and --edition long" in clash.stderr
