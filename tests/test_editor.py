"""interpreter/editor.py: what the language server answers, asked in-process. The protocol
itself is tested over stdio in test_lsp.py."""
from __future__ import annotations

from pygments.token import Token

from cardrules.cli.highlight import RulesLexer
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.editor import analyze
from cardrules.interpreter.load import load_text

from .conftest import RULESETS

KLATS = (RULESETS / "klats.rules").read_text(encoding="utf-8")
ARNE_92 = (RULESETS / "arne_92.rules").read_text(encoding="utf-8")


def _where(text: str, needle: str, into: int = 0) -> tuple[int, int]:
    """The 1-based line and column `into` characters into the first `needle`."""
    at = text.index(needle) + into
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


def _messages(text: str) -> list[tuple[str, int]]:
    return [(d.message, d.span.line) for d in analyze(text, "x.rules").diagnostics]


def test_a_shipped_ruleset_has_no_diagnostic():
    for name in ("klats", "arne_92", "arne_total"):
        assert analyze((RULESETS / f"{name}.rules").read_text(encoding="utf-8"), name).diagnostics == [], name


def test_a_parse_error_does_not_hide_the_checkers_errors_in_the_rest_of_the_file():
    text = KLATS.replace("zone row per seat public piles", "zone row per seat publik piles")
    text = text.replace("deal hand_size from draw", "deal hand_sz from draw")
    text = text.replace("winner highest", "winner higest")
    got = _messages(text)
    assert got == [("unexpected 'publik'", _where(text, "publik")[0]),
                   ("unexpected 'higest'", _where(text, "higest")[0]),
                   ("unknown name 'hand_sz'", _where(text, "hand_sz")[0])]
    # the checker alone says the same of the same file with its syntax right
    fixed = text.replace("publik", "public").replace("higest", "highest")
    try:
        load_text(fixed, "x.rules")
    except RulesError as e:
        assert [(d.message, d.span.line) for d in e.diagnostics if d.severity == "error"] == [got[-1]]


def test_what_a_cut_out_clause_would_have_answered_is_held_back():
    # the play is never closed: the parser stops at the next clause; the play is cut out, and
    # the turn's `play one of put` is not reported as naming no play
    text = KLATS.replace("        source \"003: Из карточек на руках игрок выбирает одну\"\n", "", 1)
    text = text.replace("card from hand\n", "card from hand\n", 1)
    start = text.index("play put {")
    end = text.index("\n}\n", start)
    text = text[:end] + "\n" + text[end + 3:]  # drop the play's closing brace
    got = _messages(text)
    assert len(got) == 1 and got[0][0].startswith("unexpected") and got[0][1] > _where(text, "play put")[0]
    assert not any("put" in message for message, _ in got)


def test_diagnostics_of_every_selection_once_each_saying_where_they_show():
    text = KLATS.replace("deal hand_size from draw", "deal hand_sz from draw") + (
        "\nedition one {\n}\n"
        "edition two {\n    replace score s = count(hand of s) + nope\n}\n")
    got = analyze(text, "x.rules").diagnostics
    messages = [d.message for d in got]
    assert messages.count("unknown name 'hand_sz'") == 1  # in both editions: said once, with no list
    assert "unknown name 'nope' (in @two)" in messages


def test_a_negative_setup_count_is_located_over_its_whole_step():
    text = KLATS.replace("deal hand_size from draw to hand", "deal 0 - 2 from draw to hand")
    error = next(d for d in analyze(text, "x.rules").diagnostics if d.message == "setup moves -2 cards")
    line, column = _where(text, "deal 0 - 2")
    assert (error.span.line, error.span.column) == (line, column)
    assert error.span.end_column > column + len("deal 0 - 2 from draw to hand") - 1


def test_an_unclosed_string_is_located_to_the_end_of_its_line():
    text = KLATS.replace('game "Klats" {', 'game "Klats {', 1)
    error = analyze(text, "x.rules").diagnostics[0]
    line, column = _where(text, '"Klats {')
    assert (error.message, error.span.line, error.span.column) == ("a string is not closed on its line", line, column)
    assert error.span.end_column == len(text.split("\n")[line - 1]) + 1


def test_a_local_name_goes_to_its_binder_and_a_define_tells_its_type():
    a = analyze(ARNE_92, "arne_92.rules")
    line, column = _where(
        ARNE_92, "define has(p, kind) = count(c in cards(p)", len("define has(p, kind) = count(c in cards(p")
    )
    use = a.at(line, column)
    assert use.name == "p" and a.definitions(use)[0].column == _where(ARNE_92, "define has(p")[1] + len("define has(")
    line, column = _where(ARNE_92, "zeroed(p) = has(", len("zeroed(p) = h"))
    hover = a.hover(line, column)
    assert "**define** `has`: a truth value" in hover and "count(c in cards(p) where c.type == kind) > 0" in hover
    refs = a.references(a.at(line, column), declarations=False)
    calls = sum(1 for kind, word in RulesLexer().get_tokens(ARNE_92) if word == "has" and kind is Token.Name.Function)
    assert len(refs) == calls - 1 > 2  # every call, not the define itself


def test_completion_after_an_attribute_comparison_offers_its_values_first():
    text = KLATS.replace(
        "onto pile when top(pile).colour == card.colour", "onto pile when top(pile).colour == card.colour"
    )
    a = analyze(text, "x.rules")
    line, column = _where(text, "colour == card.colour", len("colour == "))
    assert [w for w, _ in a.completions(line, column)[:3]] == ["blue", "orange", "green"]
    line, column = _where(text, "\nsetup {")
    assert ("zone", "keyword") in a.completions(line + 1, 1)  # between clauses: the clause keywords


def test_completion_inside_a_clause_being_typed_offers_its_names():
    # the setup does not parse while its step is half written: it is cut out, and still read as a setup
    text = KLATS.replace("    deal hand_size from draw to hand\n", "    deal hand_\n", 1)
    a = analyze(text, "x.rules")
    assert a.parse_errors and not any(c.kind == "setup" for c in a.clauses)
    line, column = _where(text, "deal hand_", len("deal hand_"))
    offered = a.completions(line, column)
    assert ("hand_size", "param") in offered and ("draw", "zone") in offered
    assert "players" in dict(offered) and "put" not in dict(offered)  # a play is no name in an expression
    assert offered.count(("true", "a truth value")) == 1 and ("false", "a truth value") in offered


def test_completion_of_a_list_of_plays_and_of_what_an_option_removes():
    text = ARNE_92
    a = analyze(text, "arne_92.rules")
    line, column = _where(text, "play one of ", len("play one of "))
    plays = a.completions(line, column)
    assert plays and all(kind == "play" for _, kind in plays)
    assert {w for w, _ in plays} == {sym.name for syms in a.symbols.values() for sym in syms if sym.kind == "play"}
    total = (RULESETS / "arne_total.rules").read_text(encoding="utf-8")
    b = analyze(total, "arne_total.rules")
    line, column = _where(total, "    remove play ", len("    remove play "))
    removable = b.completions(line, column)
    assert ("stop", "play") in removable and {k for _, k in removable} == {"play"}


def test_completion_of_what_an_option_replaces_names_the_cards():
    total = (RULESETS / "arne_total.rules").read_text(encoding="utf-8")
    a = analyze(total + "\nvariant more {\n    replace card \n}\n", "arne_total.rules")
    line = total.count("\n") + 3  # the file ends with a newline; then a blank line and the variant
    cards = a.completions(line, len("    replace card ") + 1)
    assert ("thief", "card") in cards and {k for _, k in cards} == {"card"}


def test_a_name_spelt_like_others_names_what_its_place_takes():
    # in ARNE Total `stop` is a play, a card and a value of `type`
    total = (RULESETS / "arne_total.rules").read_text(encoding="utf-8")
    a = analyze(total, "arne_total.rules")
    assert {sym.kind for sym in a.symbols["stop"]} >= {"play", "card", "value of type"}
    removed = a.at(*_where(total, "remove play stop", len("remove play s")))
    assert [sym.kind for sym in a.resolve(removed)] == ["play"]
    assert a.hover(*_where(total, "remove play stop", len("remove play s"))).startswith("**play** `stop`")
    play_refs = a.references(removed, declarations=False)
    value = a.at(*_where(total, "card.type == stop", len("card.type == s")))
    assert [sym.kind for sym in a.resolve(value)] == ["value of type"]
    value_refs = a.references(value, declarations=False)
    assert play_refs and value_refs and not set(play_refs) & set(value_refs)
    assert all(total.split("\n")[r.line - 1][r.column - 1 : r.end_column - 1] == "stop" for r in play_refs + value_refs)


def test_a_file_past_the_token_limit_is_told_once_not_cut_clause_by_clause():
    text = "".join(f"param p{i} = 1 in 1..2\n" for i in range(3_000))  # 8 tokens each: past the 20,000 limit
    a = analyze(text, "x.rules")
    assert [d.message for d in a.parse_errors] == ["the file holds more than 20,000 words and symbols"]
    assert a.clauses == [] and a.cut == [(0, len(text))]


def test_the_outline_shows_what_each_edition_and_variant_changes():
    total = (RULESETS / "arne_total.rules").read_text(encoding="utf-8")
    outline = {entry.name: entry for entry in analyze(total, "arne_total.rules").outline()}
    assert {"edition ru", "edition en", "variant minimum"} <= set(outline)
    minimum = [child.name for child in outline["variant minimum"].children]
    assert "replace play lay" in minimum and "replace match" in minimum
    teams = {child.name: child for child in outline["variant teams"].children}
    assert "remove play stop" in [c.name for c in teams["for edition en"].children]
    for entry in outline.values():  # each name's place lies inside its entry, as LSP requires
        assert (entry.span.line, entry.span.column) <= (entry.name_span.line, entry.name_span.column)
        assert (entry.name_span.end_line, entry.name_span.end_column) <= (entry.span.end_line, entry.span.end_column)
