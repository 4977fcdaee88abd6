"""The language reference stays true: its examples load and play, its excerpts are what the
files say, and its tables of names, functions, limits, moves and messages are the ones the
interpreter knows (read from the interpreter, never copied here).

docs/language.md marks its ```rules blocks by their first line:
  `# complete`            a whole ruleset: it loads with no error and no warning, and plays a match
  `# PATH.rules`          an excerpt: the rest of the block stands word for word in that file
  anything else           clauses: they parse (the names they use are not checked)
"""
from __future__ import annotations

import random
import re
from functools import cache

import pytest

from cardrules.interpreter import check, engine, expressions, melds, parse, progress
from cardrules.interpreter import compile as compiling
from cardrules.interpreter.bots import RandomBot, play_out
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError
from cardrules.interpreter.engine import Game
from cardrules.interpreter.load import load, load_text
from cardrules.interpreter.notation import parse_move

from .conftest import REPO, RULESETS, cli

DOC = REPO / "docs" / "language.md"
EXAMPLES = sorted((REPO / "docs" / "examples").glob("*.rules"))
TEXT = DOC.read_text(encoding="utf-8")


# ------------------------------------------------------------------ reading the doc


def _blocks(language: str) -> list[tuple[int, str]]:
    """The fenced blocks of one language: (line of the fence, text)."""
    found = []
    for m in re.finditer(rf"^```{language}\n(.*?)^```$", TEXT, re.M | re.S):
        found.append((TEXT.count("\n", 0, m.start()) + 1, m.group(1)))
    return found


RULES = _blocks("rules")
COMPLETE = [(line, text) for line, text in RULES if text.startswith("# complete\n")]
EXCERPTS = [(line, text) for line, text in RULES if re.match(r"# [\w/.-]+\.rules\n", text)]
FRAGMENTS = [(line, text) for line, text in RULES if (line, text) not in COMPLETE + EXCERPTS]


def _table(header: list[str]) -> list[list[str]]:
    """The rows of every table in the doc whose header is exactly `header`."""
    rows, inside = [], False
    for line in TEXT.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")] if line.startswith("|") else None
        if cells is None:
            inside = False
        elif cells == header:
            inside = True
        elif inside and not set(line) <= set("|-: "):
            rows.append(cells)
    assert rows, f"docs/language.md has no table with the header {header}"
    return rows


def _code(cell: str) -> str:
    """The first `code` in a table cell."""
    found = re.search(r"`([^`]+)`", cell)
    assert found, f"no `code` in the cell {cell!r}"
    return found.group(1)


def _in_place(line: int, text: str) -> str:
    """The block preceded by blank lines, so that a message points at its line in the doc."""
    return "\n" * line + text


def _ids(blocks):
    return [f"line {line}" for line, _ in blocks]


# ------------------------------------------------------------------ the examples


def test_the_doc_has_complete_examples_and_fragments():
    assert COMPLETE and len(EXCERPTS) >= 10 and len(FRAGMENTS) >= 10


def _play_one_match(model, where: str) -> Game:
    players = model.players[0]
    game = Game(compile_ruleset(model, players), seed=1)
    play_out(game, [RandomBot(random.Random(seat)) for seat in range(players)])
    assert game.over and game.winners(), where
    return game


@pytest.mark.parametrize("line,text", COMPLETE, ids=_ids(COMPLETE))
def test_a_complete_example_checks_cleanly_and_plays(line, text):
    try:
        loaded = load_text(_in_place(line, text), "docs/language.md")
    except RulesError as e:
        pytest.fail(f"the example at docs/language.md:{line} does not check:\n{e.render()}")
    assert not loaded.warnings, [w.message for w in loaded.warnings]
    _play_one_match(loaded.model, f"docs/language.md:{line}")


@pytest.mark.parametrize("line,text", EXCERPTS, ids=_ids(EXCERPTS))
def test_an_excerpt_is_word_for_word_in_its_file(line, text):
    path, body = text.split("\n", 1)
    source = (REPO / path[2:]).read_text(encoding="utf-8")
    assert body in source, f"docs/language.md:{line}: this excerpt is no longer in {path[2:]}"


@pytest.mark.parametrize("line,text", FRAGMENTS, ids=_ids(FRAGMENTS))
def test_a_fragment_parses(line, text):
    try:
        parse.parse(_in_place(line, text), "docs/language.md")
    except RulesError as e:
        pytest.fail(f"the fragment at docs/language.md:{line} does not parse:\n{e.render()}")


@pytest.mark.parametrize("path", EXAMPLES, ids=[p.name for p in EXAMPLES])
def test_a_shipped_example_checks_cleanly_and_plays_a_match(path):
    loaded = load(str(path))
    assert not loaded.warnings, [w.message for w in loaded.warnings]
    game = _play_one_match(loaded.model, path.name)
    assert game.state.results and all(r.reason in {e.name for e in loaded.model.round_ends}
                                      for r in game.state.results)


def test_every_example_file_is_walked_through_in_the_doc():
    for path in EXAMPLES:
        assert f"docs/examples/{path.name}" in TEXT, f"docs/language.md never mentions {path.name}"


# ------------------------------------------------------------------ the tables


CONTEXT_HEADER = ["name", "type", "SETUP", "DECK", "GLOBAL", "PLAY_CARD", "PLAY_TARGET", "TURN_STEP", "MATCH_UNTIL",
                  "MATCH_STARTER"]


def test_the_names_in_scope_table_is_the_checkers():
    contexts = expressions.CONTEXTS
    assert set(contexts) == set(CONTEXT_HEADER[2:]), "the checker's contexts and the doc's columns differ"
    documented = {context: {} for context in contexts}
    for row in _table(CONTEXT_HEADER):
        name, type_ = _code(row[0]), _code(row[1])
        for context, mark in zip(CONTEXT_HEADER[2:], row[2:], strict=True):
            if mark:
                documented[context][name] = type_
    for context, names in contexts.items():
        assert documented[context] == names, f"the doc's column {context} differs from expressions.{context}"


EXAMPLE_HEADER = ["form", "gives", "example", "example's type"]
# Each example is typed where a play of Klats checks `onto pile when`: there `card`, `pile`,
# `target` (a row), `owner`, `self`, `seats`, the zones hand, row and draw and the
# attributes colour and value are all in scope. `A == B` checks only when both have one type.
PROBE = "\nplay probe {{ card from hand to row of any seat onto pile when ({example}) == ({reference}) }}\n"
REFERENCE = {"int": "0", "bool": "true", "seat": "self", "card": "card", "pile": "pile", "list:card": "cards(hand)",
             "list:pile": "piles(target)", "list:int": "values(value)", "list:seat": "seats",
             "enum:colour": "card.colour", "list:enum:colour": "values(colour)", "zone": "draw",
             "zone:piles": "target"}


def _type_of(example: str, expected: str) -> None:
    klats = (RULESETS / "klats.rules").read_text(encoding="utf-8")
    if re.match(r"(team|partner|team_total)\(", example):  # these read the teams: Klats with partners across
        klats = klats.replace("players 2..6", "players 4, 6\nteams opposite")
    text = klats + PROBE.format(example=example, reference=REFERENCE[expected])
    try:
        load_text(text, "klats.rules + probe")
    except RulesError as e:
        pytest.fail(f"`{example}` is not {expected} in Klats:\n{e.render()}")


EXAMPLE_ROWS = _table(EXAMPLE_HEADER)


@pytest.mark.parametrize("row", EXAMPLE_ROWS, ids=[_code(r[2]) for r in EXAMPLE_ROWS])
def test_an_expression_example_has_the_type_the_doc_gives(row):
    _type_of(_code(row[2]), _code(row[3]))


def _checker_functions() -> set[str]:
    """The functions the checker knows, as it lists them for an unknown one."""
    text = (RULESETS / "klats.rules").read_text(encoding="utf-8") + PROBE.format(example="zzzz(1)", reference="0")
    with pytest.raises(RulesError) as raised:
        load_text(text)
    hint = next(d.hint for d in raised.value.diagnostics if d.message == "no function 'zzzz'")
    assert hint.startswith("functions: ")
    return set(hint.removeprefix("functions: ").split(", "))


def test_the_function_table_is_every_function_the_checker_knows():
    documented = {m.group(1) for row in EXAMPLE_ROWS if (m := re.match(r"(\w+)\(", _code(row[0])))}
    assert documented == _checker_functions()


NOTATION_HEADER = ["you type", "the move", "means"]


@pytest.mark.parametrize("row", _table(NOTATION_HEADER), ids=lambda r: r[0])
def test_a_notation_example_reads_as_the_doc_says(row):
    move = parse_move(_code(row[0]), ("put",))
    assert str(move) == _code(row[1])
    assert str(parse_move(str(move), ("put",))) == str(move)


LIMITS_HEADER = ["limit", "value", "where"]
MODULES = {"parse": parse, "check": check, "compile": compiling, "engine": engine, "progress": progress, "melds": melds}


def test_the_limits_are_the_interpreters():
    for row in _table(LIMITS_HEADER):
        module, constant = _code(row[2]).split(".")
        value = int(re.sub(r"[ ,]", "", _code(row[1])))
        assert getattr(MODULES[module], constant) == value, f"{row[0]}: {module}.{constant} is not {value}"


MESSAGES_HEADER = ["message", "when"]
MESSAGE = re.compile(r'(?:\.(?:error|warning)\(|Diagnostic\("(?:error|warning)",|_Located\()\s*(f?)"((?:[^"\\]|\\.)*)"')
HOLE = re.compile(r"\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}")  # an f-string's {...}, one level of braces inside


@cache
def _skeletons() -> set[str]:
    """Every message the parser, the checker (with its expressions and plays) and the options can
    give, each run of `{...}` shown as one `…`."""
    found = set()
    for name in ("parse", "check", "expressions", "plays", "options", "files"):
        source = (REPO / "interpreter" / f"{name}.py").read_text(encoding="utf-8")
        for m in MESSAGE.finditer(source):
            text = HOLE.sub("…", m.group(2)) if m.group(1) else m.group(2)
            found.add(re.sub("…+", "…", text))
    return found


@pytest.mark.parametrize("row", _table(MESSAGES_HEADER), ids=lambda r: r[0])
def test_a_documented_message_is_one_the_interpreter_gives(row):
    message = _code(row[0])
    assert any(s == message or s.startswith(message) for s in _skeletons()), f"no such message: {message}"


# ------------------------------------------------------------------ the command line


def _cli_section() -> str:
    return TEXT.split("\n## The command line", 1)[1].split("\n## ", 1)[0]


def test_every_command_and_option_in_the_doc_exists():
    from cardrules.cli.main import app

    section = _cli_section()
    groups = "|".join(group.name for group in app.registered_groups)
    command_name = rf"(?:(?:{groups}) )?\w+"
    commands = re.findall(rf"^### `cardrules ({command_name})", section, re.M)
    known = [c.name for c in app.registered_commands] + [
        f"{group.name} {c.name}" for group in app.registered_groups for c in group.typer_instance.registered_commands]
    assert sorted(commands) == sorted(known)
    for command, body in zip(commands, re.split(rf"^### `cardrules {command_name}.*$", section, flags=re.M)[1:],
                             strict=True):
        shown = cli(*command.split(), "--help")
        assert shown.code == 0, command
        for option in set(re.findall(r"(?<![\w-])(--[a-z][a-z-]+)", body)):
            assert option in shown.stdout, f"`cardrules {command}` has no option {option}"
