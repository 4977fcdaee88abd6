"""Highlighting: the TextMate grammar and the Pygments lexer cover every keyword of the Lark
grammar, and `check` shows its snippets of rules in colour on a terminal only."""
from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys

import pytest
from pygments.lexers import get_lexer_by_name, get_lexer_for_filename
from pygments.token import Comment, Error, Keyword, Name, Number, Operator, String
from rich.console import Console

from cardrules.cli.highlight import RulesLexer, located
from cardrules.grammar import textmate

from .conftest import REPO, RULESETS

LARK = (REPO / "grammar" / "cardrules.lark").read_text(encoding="utf-8")
TM = json.loads((REPO / "grammar" / "cardrules.tmLanguage.json").read_text(encoding="utf-8"))


def _lark_keywords() -> set[str]:
    """Every word the Lark grammar spells as a literal, read here on its own (not through
    grammar/textmate.py), comments left out."""
    code = re.sub(r"//[^\n]*", "", LARK)
    return set(re.findall(r'"([a-z]+)"', code))


def _tm_keyword_regexes() -> list[re.Pattern]:
    return [re.compile(p["match"]) for p in TM["repository"]["keyword"]["patterns"]]


def test_the_textmate_grammar_is_the_one_the_script_makes():
    assert (REPO / "grammar" / "cardrules.tmLanguage.json").read_text(encoding="utf-8") == textmate.text(), \
        "run: python -m cardrules.grammar.textmate"


def test_the_textmate_grammar_covers_every_keyword_of_the_lark_grammar():
    words = _lark_keywords()
    assert {"play", "zone", "where", "edition", "variant", "and", "not", "seat"} <= words
    patterns = _tm_keyword_regexes()
    missing = [w for w in sorted(words) if not any(p.fullmatch(w) for p in patterns)]
    assert missing == []
    assert not any(p.search("played") or p.search("zones") for p in patterns)  # whole words only


def test_the_textmate_grammar_scopes_comments_strings_numbers_and_declarations():
    repo = TM["repository"]
    assert re.search(repo["comment"]["match"], 'x # a comment').group() == "# a comment"
    assert re.fullmatch(repo["number"]["match"], "150")
    assert TM["scopeName"] == "source.cardrules" and TM["fileTypes"] == ["rules"]
    declaration = re.compile(repo["declaration"]["match"])
    assert declaration.search("play put {").groups() == ("play", "put")
    assert declaration.search("    card from hand") is None  # `from` is a keyword, not a name
    truth = re.compile(repo["constant"]["match"])
    assert truth.search("set broken to true").group() == "true" and truth.search("let x = false")
    assert truth.search("trueness") is None and repo["constant"]["name"] == "constant.language.cardrules"


def test_the_lexer_is_registered_for_rules_files():
    assert isinstance(get_lexer_by_name("cardrules"), RulesLexer)
    assert isinstance(get_lexer_for_filename("game.rules"), RulesLexer)


def test_the_lexer_knows_every_keyword_of_the_lark_grammar():
    for word in _lark_keywords():
        kinds = [kind for kind, text in RulesLexer().get_tokens(word) if text == word]
        assert kinds and (kinds[0] in Keyword or kinds[0] in Operator.Word), word


def test_the_lexer_tokens_of_a_clause():
    tokens = [(kind, text) for kind, text in RulesLexer().get_tokens(
        'param hand_size = 3 in 1..10  # cards\n    source "003: \\"three\\""\n') if text.strip()]
    assert tokens[:2] == [(Keyword.Declaration, "param"), (Name.Class, "hand_size")]
    assert (Number.Integer, "3") in tokens and (Keyword, "in") in tokens and (Operator, "..") in tokens
    assert (Comment.Single, "# cards") in tokens and (Keyword, "source") in tokens
    assert (String.Escape, '\\"') in tokens
    calls = [(kind, text) for kind, text in RulesLexer().get_tokens("count(hand of s) >= 2 and not x") if text.strip()]
    assert calls[0] == (Name.Function, "count") and (Operator.Word, "and") in calls and (Operator.Word, "not") in calls
    truths = [(kind, text) for kind, text in RulesLexer().get_tokens("let b = true or false or truer") if text.strip()]
    assert (Keyword.Constant, "true") in truths and (Keyword.Constant, "false") in truths and (Name, "truer") in truths


@pytest.mark.parametrize("name", ["klats", "arne_92", "arne_total"])
def test_no_error_token_in_a_shipped_ruleset(name):
    text = (RULESETS / f"{name}.rules").read_text(encoding="utf-8")
    tokens = list(RulesLexer().get_tokens(text))
    assert [t for t in tokens if t[0] in Error] == []
    assert "".join(t for _, t in tokens) == (text if text.endswith("\n") else text + "\n")  # nothing dropped


def test_the_lexer_marks_a_stray_character_as_an_error():
    assert any(kind in Error for kind, _ in RulesLexer().get_tokens("score s = $\n"))


RENDERED = ("x.rules:4:17: error: no zone 'hand'\n    score s = count(hand of s)\n"
            "                    ^^^^\n  hint: did you mean 'h'?")


def test_located_snippets_are_coloured_on_a_terminal_only():
    terminal = Console(file=io.StringIO(), force_terminal=True, color_system="standard")
    terminal.print(located(RENDERED, terminal))
    shown = terminal.file.getvalue()
    assert "\x1b[" in shown and re.sub(r"\x1b\[[0-9;]*m", "", shown).rstrip("\n") == RENDERED
    first = shown.split("\n")[0]
    assert "\x1b[" not in first  # the message line stays plain; the rules line is coloured
    for console in (Console(file=io.StringIO()), Console(file=io.StringIO(), force_terminal=True, no_color=True)):
        console.print(located(RENDERED, console))
        assert "\x1b[" not in console.file.getvalue() and console.file.getvalue().rstrip("\n") == RENDERED


def test_check_colours_its_snippet_on_a_terminal_and_not_in_a_pipe(tmp_path):
    broken = tmp_path / "broken.rules"
    broken.write_text((RULESETS / "klats.rules").read_text(encoding="utf-8").replace(
        "deal hand_size from", "deal hand_sz from"), encoding="utf-8")

    def run(**env):
        base = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "FORCE_COLOR", "TERM")}
        done = subprocess.run([sys.executable, "-m", "cardrules.cli.main", "check", str(broken)], capture_output=True,
                              text=True, timeout=60, env={**base, "PYTHONIOENCODING": "utf-8", "COLUMNS": "120", **env})
        assert done.returncode == 1
        return done.stderr

    piped, forced, no_color = run(), run(FORCE_COLOR="1", TERM="xterm"), run(FORCE_COLOR="1", NO_COLOR="1")
    assert "\x1b[" not in piped and "\x1b[" not in no_color and "unknown name 'hand_sz'" in piped
    assert "\x1b[" in forced and re.sub(r"\x1b\[[0-9;]*m", "", forced) == piped
