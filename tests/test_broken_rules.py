"""Broken `.rules` files: each kind of mistake ends in one located message (file:line:col, the
line, a caret, a hint) and exit 1, never a traceback or a hang.

Most cases are one small edit of the real Klats ruleset, so each is a single mistake in a
real file; the expected position is found in the edited text (the first `at` after the edit),
not written down as a number that could drift from the file.
"""
from __future__ import annotations

import random
import re
import time
from dataclasses import dataclass

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.parse import MAX_BYTES, MAX_DEPTH, MAX_TOKENS, parser

from .conftest import RULESETS, cli_process

KLATS = (RULESETS / "klats.rules").read_text(encoding="utf-8")
KLATS_BYTES = KLATS.encode("utf-8")
DEEP = 20_000


@dataclass(frozen=True)
class Case:
    id: str
    data: bytes
    line: int
    column: int | range  # a range where the exact token depends on a limit (deep nesting)
    phrase: str


def _where(text: str, index: int) -> tuple[int, int]:
    return text.count("\n", 0, index) + 1, index - (text.rfind("\n", 0, index) + 1) + 1


def edit(id: str, old: str, new: str, at: str | None, phrase: str, *, offset: int = 0, before: bool = False) -> Case:
    """Klats with `old` replaced by `new` once; the error is expected at the first `at` from the
    start of the edit (the last `at` before it with `before`, which finds the enclosing clause;
    the edit itself when `at` is None), plus `offset` characters."""
    assert KLATS.count(old) == 1, f"{id}: {old!r} is not in klats.rules exactly once"
    text = KLATS.replace(old, new, 1)
    assert text != KLATS
    start = KLATS.index(old)
    index = (start if at is None else text.rindex(at, 0, start) if before else text.index(at, start)) + offset
    return Case(id, text.encode("utf-8"), *_where(text, index), phrase)


def deep(id: str, old: str, new: str, run: str, phrase: str = f"nests deeper than {MAX_DEPTH} levels") -> Case:
    """A deep nesting: the caret must fall on the edited line, inside the nested run."""
    case = edit(id, old, new, run, phrase)
    line_start = KLATS.rfind("\n", 0, KLATS.index(old)) + 1
    first = KLATS.index(old) - line_start + new.index(run) + 1
    return Case(id, case.data, case.line, range(first, first + len(run) * DEEP + 1), phrase)


def edit_bytes(old: bytes, new: bytes) -> bytes:
    """Klats's bytes with `old` replaced by `new` once: for mistakes that are not text."""
    assert KLATS_BYTES.count(old) == 1
    return KLATS_BYTES.replace(old, new, 1)


def scratch(id: str, text: str | bytes, line: int, column: int, phrase: str) -> Case:
    return Case(id, text if isinstance(text, bytes) else text.encode("utf-8"), line, column, phrase)


LAST_END = "count(draw) == 0 and every s in seats: count(hand of s) == 0"

CASES = [
    # ------------------------------------------------------------ bytes and text
    scratch("empty file", "", 1, 1, "holds no rules"),
    scratch("only comments", "# a ruleset\n\n   # to come\n", 1, 1, "holds no rules"),
    Case("binary bytes with a NUL", edit_bytes(b"players 2..6", b"players \x89PNG\x00\x01 2..6"),
         *_where(KLATS, KLATS.index("players 2..6") + len("players \x89PNG")), "NUL byte"),
    # 'Клац' is 4 characters and 8 bytes: the column counts characters.
    Case("invalid UTF-8", edit_bytes('ru "Клац!"'.encode(), 'ru "Клац'.encode() + b'\xff!"'),
         *_where(KLATS, KLATS.index('ru "Клац!"') + len('ru "Клац')), "is not UTF-8"),
    Case("UTF-8 cut short at the end", KLATS_BYTES + "Клац".encode()[:3],
         KLATS.count("\n") + 1, 2, "is not UTF-8"),
    scratch("a BOM does not count as a column", b"\xef\xbb\xbf$" + KLATS_BYTES, 1, 1, "unexpected character '$'"),
    scratch("a tab counts as one column", "\tplayers 2..4 $\n", 1, 15, "unexpected character '$'"),
    # ------------------------------------------------------------ sizes and nesting
    deep("parens 20,000 deep", "count(values(colour))", "(" * DEEP + "count(values(colour))" + ")" * DEEP, "("),
    deep("not 20,000 deep", f"when {LAST_END}", "when " + "not " * DEEP + LAST_END, "not "),
    deep("minus 20,000 deep", "then sum(tops(row of s).value)", "then " + "- " * DEEP + "sum(tops(row of s).value)",
         "- "),
    edit("a + a + ... 20,000 terms", "then sum(tops(row of s).value)", "then " + " + ".join(["a"] * DEEP), "a + a",
         f"nests deeper than {MAX_DEPTH} levels"),
    edit("a 5,000-digit number", "copies 2", "copies " + "7" * 5000, "7", "is too large"),
    edit("10 digits after 5,000 zeros", "copies 2", "copies " + "0" * 5000 + "1" * 10, "0",
         "the number 1111111111 is too large"),
    # ------------------------------------------------------------ syntax
    edit("unclosed string", '"Клац! rulebook, Russian"', '"Клац! rulebook, Russian', '"Клац!', "string is not closed"),
    edit("unclosed brace at the end", 'seats carry no age"\n}', 'seats carry no age"\n', 'no age"',
         "ends in the middle of a clause", offset=len('no age"')),
    edit("unclosed card brace", '    face "{colour}{value}"\n}', '    face "{colour}{value}"\n', "zone draw",
         "unexpected 'zone'"),
    edit("misspelled keyword", "play put {", "playy put {", "playy", "unexpected 'playy'"),
    edit("stray character", "deal hand_size from draw", "deal hand_size $ from draw", "$", "unexpected character '$'"),
    edit("= where == is meant", "top(pile).colour == card.colour", "top(pile).colour = card.colour", "=",
         "unexpected '='"),
    edit("end without round", "end round six_piles", "end six_piles", "six_piles", "unexpected 'six_piles'"),
    edit("a clause inside a clause", "    draw 1 from draw to hand\n", "    players 2..4\n", "players",
         "unexpected 'players'"),
    # ------------------------------------------------------------ names
    edit("unknown zone", "deal hand_size from draw to hand", "deal hand_size from draw to hands", "hands",
         "no zone 'hands'"),
    edit("unknown attribute", "top(pile).colour == card.colour", "top(pile).color == card.colour", "color",
         "no attribute 'color'"),
    edit("unknown param", "< max_piles", "< max_pile", "max_pile", "unknown name 'max_pile'"),
    edit("unknown play in the turn", "play one of put or pass", "play one of putt or pass", "putt",
         "no play 'putt'"),
    edit("unknown function", "new pile when count(piles(target))", "new pile when counts(piles(target))", "counts",
         "no function 'counts'"),
    edit("per-seat zone without of", f"when {LAST_END}", "when count(draw) == 0 and every s in seats: count(hand) == 0",
         "hand)", "zone 'hand' is per seat"),
    edit("an attribute used as a value", "top(other).value == card.value", "top(other).value == value", "== value",
         "is an attribute", offset=len("== ")),
    # ------------------------------------------------------------ types
    edit("sum of cards", "then sum(tops(row of s).value)", "then sum(tops(row of s))", "tops",
         "sum(...) does not take a list of cards"),
    edit("colour compared with a number", "top(pile).colour == card.colour", "top(pile).colour == card.value",
         "top(pile)", "compares a colour value with a number"),
    edit("colours ordered with <", "top(pile).colour == card.colour", "top(pile).colour < card.colour", "top(pile)",
         "'<' orders numbers"),
    edit("if-branches of different types", "else 0", "else count(draw) == 0", "if count", "the branches differ",
         before=True),
    edit("a number where a condition goes", "until max(totals) >= target_total", "until max(totals)", "max(totals)",
         "but a truth value is needed"),
    edit("merge over a non-list", "merge other in piles(target)", "merge other in target", "target",
         "merge takes a list of piles"),
    # ------------------------------------------------------------ definitions
    edit("duplicate param", "param max_piles = 6", "param hand_size = 4 in 1..5\nparam max_piles = 6", "hand_size",
         "param 'hand_size' is defined twice"),
    edit("duplicate zone", "zone row per seat public piles", "zone hand shared hidden\nzone row per seat public piles",
         "hand", "zone 'hand' is defined twice"),
    edit("duplicate attribute value", 'green ru "зелёный" en "green"', 'blue ru "зелёный" en "green"', "blue",
         "'blue' is defined twice"),
    edit("duplicate play", "turn {", "play put { card from hand to row of self new pile }\n\nturn {", "put",
         "play 'put' is defined twice"),
    edit("duplicate card face", "zone draw shared hidden",
         'card bone { colour each value each face "{colour}{value}" }\nzone draw shared hidden', "card bone",
         "two cards have the face 'blue1'"),
    edit("a second turn clause", "end round six_piles", "turn { play one of put }\n\nend round six_piles", "turn {",
         "a second 'turn' clause"),
    edit("attribute set twice in a card", "    value each\n", "    value each\n    colour each\n", "colour each",
         "'colour' is set twice"),
    # ------------------------------------------------------------ missing clauses
    # A missing clause is reported at the last character of the last clause.
    edit("no match clause", KLATS[KLATS.index("match {"):], "", "only top cards count", "no 'match' clause",
         before=True, offset=len("only top cards count")),
    edit("no turn clause", KLATS[KLATS.index("turn {"):KLATS.index("end round six_piles")], "", "}",
         "no 'turn' clause"),
    edit("no end round clause", KLATS[KLATS.index("end round six_piles"):KLATS.index("score s =")], "", "}",
         "no 'end round' clause"),
    # ------------------------------------------------------------ numbers and ranges
    edit("players range empty", "players 2..6", "players 6..2", "6", "the range 6..2 is empty"),
    edit("players 0..3", "players 2..6", "players 0..3", "players", "players 0..3 is outside"),
    edit("players 1..100", "players 2..6", "players 1..100", "players", "players 1..100 is outside"),
    edit("param default outside its range", "param max_piles = 6 in 2..20", "param max_piles = 60 in 2..20", "60",
         "the default 60 of 'max_piles' is outside 2..20"),
    edit("copies 0", "copies 2", "copies 0", "0", "0 copies"),
    edit("an attribute wider than its limit", "attribute value in 1..15", "attribute value in 1..150000", "attribute",
         "spans 150,000 values"),
    edit("a deck too large", "copies 2", "copies 500", "card skull", "the deck holds 22,500 cards", before=True),
    # ------------------------------------------------------------ cards
    edit("face names an unset attribute", 'face "{colour}{value}"', 'face "{colour}{suit}"', "face",
         "names 'suit', which card 'skull' does not set"),
    edit("face with a space", 'face "{colour}{value}"', 'face "{colour} {value}"', "face", "has a space"),
    edit("deck too small to deal", "players 2..6", "players 2..40", "setup {",
         "the deck of 90 cards cannot deal 3 to each of 40 players"),
    # ------------------------------------------------------------ procedure and provenance
    edit("setup with no shuffle", KLATS[KLATS.index("    shuffle deck"):KLATS.index("    deal hand_size")], "",
         "setup {", "setup never puts the deck anywhere", before=True),
    edit("a play with no placement into piles",
         KLATS[KLATS.index("    new pile when"):KLATS.index("    then merge")], "", "play put", "allows no placement",
         before=True),
    edit("a play with no card", KLATS[KLATS.index("    card from hand"):KLATS.index("    to row of any seat")], "",
         "play put", "does not say which card is played", before=True),
    edit("a turn with no play step", KLATS[KLATS.index("    play one of put"):KLATS.index("    draw 1 from draw")], "",
         "turn {", "the turn has no play step", before=True),
    edit("an empty ruling", '"docs/rulings.md#klats: a player with no card in hand passes"', '""', "ruling",
         "an empty ruling", before=True),
    edit("a match with no until", KLATS[KLATS.index("    until max(totals)"):KLATS.index("    winner highest")], "",
         "match {", "the match never ends", before=True),
    edit("a game with an empty title", 'game "Klats" {', 'game "  " {', "game", "empty title"),
    # ------------------------------------------------------------ from scratch
    edit("a setup count that reads the table", "deal hand_size from draw", "deal count(draw) from draw", "count",
         "a setup count reads the table"),
    edit("a setup count that reads passes", "deal hand_size from draw", "deal passes from draw", "passes",
         "unknown name 'passes'"),
    edit("a second shuffle", "    deal hand_size from draw to hand",
         "    shuffle deck into draw\n    deal hand_size from draw to hand",
         "shuffle", "shuffles the deck a second time", offset=0),
    edit("a second 'to' in a play", "    to row of any seat\n", "    to row of any seat\n    to row of self\n",
         "to row of self", "a second 'to' in play 'put'"),
    edit("a second 'winner' in the match", "    winner highest\n", "    winner highest\n    winner lowest\n",
         "winner lowest", "a second 'winner' in the match"),
    edit("a zone named like a param", "zone draw shared hidden",
         "zone draw shared hidden\nzone hand_size shared hidden",
         "hand_size shared", "'hand_size' already names a param"),
    edit("a param named like a context name", "param max_piles = 6", "param card = 1 in 1..2\nparam max_piles = 6",
         "card", "'card' is a name the language gives"),
    edit("a param named like a truth value", "param max_piles = 6", "param true = 1 in 1..2\nparam max_piles = 6",
         "true", "'true' is a name the language gives"),
    edit("a quantifier's variable named like a truth value", "when some s in seats: count(piles(row of s))",
         "when some false in seats: count(piles(row of false))", "false", "'false' is a truth value of the language"),
    edit("a count's variable named like a truth value", "when some s in seats: count(piles(row of s)) >= max_piles",
         "when count(true in seats where count(piles(row of true)) >= max_piles) > 0", "true",
         "'true' is a truth value of the language"),
    edit("a define's parameter named like a truth value", "match {", "define f(true) = true\nmatch {", "true)",
         "'true' is a truth value of the language"),
    edit("a define that calls itself", "match {", "define f(x) = f(x) + 1\nmatch {", "f(x) =",
         "define 'f' calls itself"),
    edit("a define that reads what it is not given", "match {", "define f(x) = card.value + x\nmatch {", "card.",
         "define 'f' reads 'card', which it is not given"),
    edit("a define named like a function", "match {", "define sum(x) = x\nmatch {", "sum(x)",
         "'sum' is a function of the language"),
    edit("a define called with the wrong number of arguments", "score s = if",
         "define twice(x) = x * 2\nscore s = if twice(1, 2) > 0 and", "twice(1, 2)", "'twice' takes 1 argument"),
    scratch("prose instead of rules", "Klats is a game for 2 to 6 players.\n", 1, 1, "unexpected 'Klats'"),
    scratch("an unclosed game block", 'game "X" {\n    name en "X"\n', 2, 16, "ends in the middle of a clause"),
    scratch("json instead of rules", '{"game": "X"}\n', 1, 1, "unexpected '{'"),
]


def test_cases_are_distinct_and_many():
    ids = [c.id for c in CASES]
    assert len(ids) == len(set(ids))
    assert len({c.data for c in CASES}) == len(CASES)
    assert len(CASES) >= 30


def _load(tmp_path, case: Case) -> RulesError:
    path = tmp_path / "broken.rules"
    path.write_bytes(case.data)
    with pytest.raises(RulesError) as caught:
        load(str(path))
    return caught.value


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_broken_input_is_located(tmp_path, case: Case):
    error = _load(tmp_path, case)
    first = error.diagnostics[0]
    assert first.severity == "error"
    assert [d.severity for d in error.diagnostics].count("error") == 1  # one mistake, no cascade
    assert case.phrase in first.message
    assert first.span is not None
    assert first.span.line == case.line
    if isinstance(case.column, range):
        assert first.span.column in case.column
    else:
        assert first.span.column == case.column
    assert first.hint.strip()
    text = error.render()
    path = str(tmp_path / "broken.rules")
    head, shown, caret, hint = text.splitlines()[:4]
    assert head.startswith(f"{path}:{first.span.line}:{first.span.column}: error: ")
    assert case.phrase in head
    source = case.data.removeprefix(b"\xef\xbb\xbf").decode("utf-8", "replace").splitlines() + [""]
    line = source[case.line - 1].expandtabs(1)
    assert shown.startswith("    ")
    assert shown[4:].removeprefix("... ").removesuffix(" ...") in line
    assert re.fullmatch(r" {4,}\^+", caret)
    assert hint == f"  hint: {first.hint}"


def test_leading_zeros_are_only_zeros():
    """5,000 zeros before a 2 is the number 2 (Python's int() alone would refuse the string)."""
    text = KLATS.replace("copies 2", "copies " + "0" * 5000 + "2", 1)
    assert load_text(text, "k.rules").model == load_text(KLATS, "k.rules").model


def test_the_caret_stands_under_the_mistake():
    """Not only somewhere on the line: under the very token."""
    case = next(c for c in CASES if c.id == "unknown zone")
    with pytest.raises(RulesError) as caught:
        load_text(case.data.decode(), "k.rules")
    _, shown, caret = caught.value.render().splitlines()[:3]
    start = caret.index("^")
    assert shown[start:start + caret.count("^")] == "hands"


def test_a_bom_is_fine(tmp_path):
    path = tmp_path / "bom.rules"
    path.write_bytes(b"\xef\xbb\xbf" + KLATS_BYTES)
    assert load(str(path)).model == load_text(KLATS, str(path)).model


def test_one_run_reports_every_independent_error():
    text = KLATS
    for old, new in (("deal hand_size from draw to hand", "deal hand_size from draw to hands"),
                     ("top(pile).colour == card.colour", "top(pile).color == card.colour"),
                     ("copies 2", "copies 0")):
        assert text.count(old) == 1
        text = text.replace(old, new)
    with pytest.raises(RulesError) as caught:
        load_text(text, "three.rules")
    found = caught.value.diagnostics
    assert sorted(d.message for d in found) == ["0 copies", "no attribute 'color'", "no zone 'hands'"]
    assert all(d.severity == "error" for d in found)
    rendered = caught.value.render()
    for d in found:
        assert f"three.rules:{d.span.line}:{d.span.column}: error: {d.message}" in rendered


# ------------------------------------------------------------------ through the real command

COMMAND_CASES = ["stray character", "unknown zone", "invalid UTF-8", "not 20,000 deep"]


@pytest.mark.parametrize("id", COMMAND_CASES)
def test_check_command_exits_1_with_the_located_message(tmp_path, id):
    case = next(c for c in CASES if c.id == id)
    path = tmp_path / "broken.rules"
    path.write_bytes(case.data)
    result = cli_process("check", str(path))
    assert result.code == 1, result.stderr
    assert "Traceback" not in result.stderr + result.stdout
    assert result.stdout == ""
    line = next(ln for ln in result.stderr.splitlines() if ln.startswith(f"{path}:{case.line}:"))
    assert case.phrase in line
    assert "^" in result.stderr and "hint: " in result.stderr


# ------------------------------------------------------------------ random damage

TOKENS = sorted(set(re.findall(r'"[^"\n]*"|[A-Za-z_]+|\d+|\.\.|==|>=|<=|!=|\S', KLATS)))
ODD = ["\x00", "\ufeff", "\t", "\n", '"', "\\", "{", "}", "(", ")", "#", "é", "Клац", "\U0001f0a1", "9" * 30,
       "if", "then", "else", "not", "some", "every", "of", "in", ":", ",", ".", "-", "..", "%"]


@st.composite
def damaged(draw):
    """Klats after a few random deletions, duplications and insertions of characters or tokens."""
    text = KLATS
    for _ in range(draw(st.integers(1, 4))):
        i = draw(st.integers(0, len(text)))
        j = min(len(text), i + draw(st.integers(0, 40)))
        kind = draw(st.sampled_from(["delete", "duplicate", "insert", "token"]))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(st.text(min_size=1, max_size=3) | st.sampled_from(ODD)) + text[i:]
        else:
            text = text[:i] + " " + draw(st.sampled_from(TOKENS)) + " " + text[i:]
    return text


@settings(max_examples=200, deadline=None, derandomize=True, database=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_random_damage_gives_rules_error_or_a_model(text):
    start = time.process_time()
    try:
        load_text(text, "m.rules")
    except RulesError as e:
        assert e.diagnostics
        for d in e.diagnostics:
            assert d.span is not None, d.message  # every error is located
        first = e.diagnostics[0]
        rendered = e.render()
        assert rendered.startswith(f"m.rules:{first.span.line}:{first.span.column}: {first.severity}: ")
    assert time.process_time() - start < 1.0


# ------------------------------------------------------------------ time

def _megabyte(prefix: bytes, unit: bytes) -> bytes:
    return prefix + unit * ((MAX_BYTES - len(prefix)) // len(unit))


def _garbage() -> dict[str, bytes]:
    rng = random.Random(1)
    size = MAX_BYTES
    salad = b" ".join(rng.choices([t.encode() for t in TOKENS], k=size // 4))[:size]
    return {
        "random bytes": rng.randbytes(size),
        "random printable": "".join(rng.choices("abc xyz{}()=.,:\"#\n0123456789+-*<>", k=size)).encode(),
        "token salad": salad,
        "1 MB of (": _megabyte(b"score s = ", b"("),
        "1 MB of not": _megabyte(b"end round x when ", b"not "),
        "1 MB of minus": _megabyte(b"score s = ", b"- "),
        "1 MB chain": _megabyte(b"score s = 1", b" + a"),
        "1 MB of if-else": _megabyte(b"score s = ", b"if a then 1 else "),
        "1 MB of valid clauses": _megabyte(b"", b"players 2..4\n"),
        "1 MB comment": _megabyte(b"#", b"x"),
        "1 MB string": _megabyte(b'game "', b"x")[:-4] + b'" {\n',
        "more than a megabyte": KLATS_BYTES * (size // len(KLATS_BYTES) + 1),
    }


GARBAGE = _garbage()


@pytest.mark.parametrize("name", list(GARBAGE))
def test_a_megabyte_of_garbage_is_rejected_fast(tmp_path, name):
    parser()  # the grammar is built once per process; that is not the file's cost
    path = tmp_path / "garbage.rules"
    path.write_bytes(GARBAGE[name])
    start = time.process_time()
    with pytest.raises(RulesError) as caught:
        load(str(path))
    rendered = caught.value.render()
    spent = time.process_time() - start
    assert spent < 2.0, f"{name}: {spent:.2f} s"
    assert caught.value.diagnostics[0].span is not None
    assert re.match(rf"{re.escape(str(path))}:\d+:\d+: error: ", rendered)


def test_the_token_limit_names_itself_at_the_first_token_past_it():
    with pytest.raises(RulesError) as caught:
        load_text("players 2..4\n" * (MAX_TOKENS // 4 + 1), "big.rules")  # four tokens a line
    first = caught.value.diagnostics[0]
    assert f"more than {MAX_TOKENS:,}" in first.message
    assert (first.span.line, first.span.column) == (MAX_TOKENS // 4 + 1, 1)


@pytest.mark.parametrize("case", [c for c in CASES if "20,000" in c.id], ids=lambda c: c.id)
def test_deep_nesting_is_rejected_fast(case):
    parser()
    text = case.data.decode()
    start = time.process_time()
    with pytest.raises(RulesError):
        load_text(text, "deep.rules")
    assert time.process_time() - start < 1.0


def test_target_is_typed_by_the_to_item_wherever_it_stands():
    moved = (KLATS.replace("    to row of any seat\n", "", 1)
             .replace("    new pile when", "    to row of any seat\n    new pile when", 1))
    first = KLATS.replace("    card from hand\n", "    to row of any seat\n    card from hand\n", 1).replace(
        "        source \"003: Из карточек на руках игрок выбирает одну\"\n    to row of any seat\n", "", 1)
    late = (KLATS.replace("    to row of any seat\n", "", 1)
            .replace("    then merge", "    to row of any seat\n    then merge", 1))
    for text in (moved, first, late):
        assert text != KLATS
        assert load_text(text, "order.rules").model.play("put").dest_zone == "row"


def test_owner_is_not_known_in_a_play_to_a_shared_zone():
    text = KLATS.replace("zone draw shared hidden", "zone draw shared hidden\nzone middle shared public piles", 1)
    text = text.replace("    to row of any seat\n", "    to middle\n", 1).replace(
        "new pile when count(piles(target)) < max_piles", "new pile when owner == self", 1)
    with pytest.raises(RulesError) as e:
        load_text(text, "owner.rules")
    assert any("unknown name 'owner'" in d.message for d in e.value.diagnostics)


def test_an_empty_ruling_is_an_error_without_documents_too():
    text = KLATS.replace('    document "003" "Клац! rulebook, Russian"\n', "", 1).replace(
        '"docs/rulings.md#klats: a player with no card in hand passes"', '""', 1)
    with pytest.raises(RulesError) as e:
        load_text(text, "nodoc.rules")
    assert [d.message for d in e.value.diagnostics if d.severity == "error"] == ["an empty ruling"]


def test_string_escapes_are_read_left_to_right():
    text = KLATS.replace('game "Klats"', 'game "back\\\\n \\"q\\" two\\nlines"', 1)
    assert load_text(text, "esc.rules").model.title == 'back\\n "q" two\nlines'


def test_merge_needs_a_zone_of_piles():
    text = KLATS.replace("zone draw shared hidden", "zone draw shared hidden\nzone heap per seat public", 1)
    text = text.replace("    to row of any seat\n", "    to heap of any seat\n", 1).replace(
        "    new pile when count(piles(target)) < max_piles\n", "", 1).replace(
        "    onto pile when top(pile).colour == card.colour\n", "", 1)
    with pytest.raises(RulesError) as e:
        load_text(text, "merge.rules")
    assert "merge needs a zone of piles; 'heap' holds cards" in [d.message for d in e.value.diagnostics]
