"""Cold start: the parser's tables come from the cache folder (and a damaged, stale or unwritable
cache is no harm), a command imports only what it needs, and `check` parses a file once and deals
each player count of each selection once."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import lark.lark
import pytest

from cardrules.interpreter import caches, export, load, parse

from .conftest import REPO, RULESETS, cli

ARNE_TOTAL = str(RULESETS / "arne_total.rules")
TEXT = (RULESETS / "klats.rules").read_text(encoding="utf-8")


@pytest.fixture
def cache_in(tmp_path, monkeypatch):
    """A fresh parser whose cache folder is `tmp_path / "cache"`; the usual parser afterwards."""
    folder = tmp_path / "cache"
    monkeypatch.setenv(caches.ENV, str(folder))
    parse.parser.cache_clear()
    yield folder
    parse.parser.cache_clear()


def _no_grammar_building(monkeypatch) -> None:
    def refuse(*args, **kwargs):
        raise AssertionError("the grammar was built, not read from the cache")

    monkeypatch.setattr(lark.lark, "load_grammar", refuse)


def test_the_tables_are_built_once_then_read_from_the_cache(cache_in, monkeypatch):
    first = parse.parse(TEXT, "klats.rules")
    [kept] = cache_in.glob("grammar-*.lark")
    assert kept.stat().st_size > 10_000
    parse.parser.cache_clear()
    _no_grammar_building(monkeypatch)
    assert parse.parse(TEXT, "klats.rules") == first  # the same clauses, spans and all


def test_a_changed_grammar_gets_another_file():
    grammar = (REPO / "grammar" / "cardrules.lark").read_text(encoding="utf-8")
    assert parse.cache_file(grammar) == parse.cache_file(grammar)
    assert parse.cache_file(grammar) != parse.cache_file(grammar + "\n// changed\n")


def test_a_damaged_cache_file_is_rebuilt(cache_in, monkeypatch):
    parse.parser()
    [kept] = cache_in.glob("grammar-*.lark")
    good = kept.read_bytes()
    kept.write_bytes(good[: len(good) // 2])  # a write cut short
    parse.parser.cache_clear()
    assert parse.parse(TEXT, "klats.rules")
    kept.write_bytes(b"not a cache at all\n")
    parse.parser.cache_clear()
    assert parse.parse(TEXT, "klats.rules")
    assert kept.stat().st_size > len(good) // 2  # written again, whole: the next process reads it
    parse.parser.cache_clear()
    _no_grammar_building(monkeypatch)
    assert parse.parse(TEXT, "klats.rules")


def test_a_folder_that_cannot_be_made_is_no_cache(tmp_path, monkeypatch):
    blocker = tmp_path / "a file"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv(caches.ENV, str(blocker / "cache"))
    assert caches.cache_folder() is None
    parse.parser.cache_clear()
    try:
        assert parse.parse(TEXT, "klats.rules")
    finally:
        parse.parser.cache_clear()


def test_a_cache_file_that_cannot_be_written_is_no_harm(cache_in):
    cache_in.mkdir()
    grammar = (REPO / "grammar" / "cardrules.lark").read_text(encoding="utf-8")
    Path(parse.cache_file(grammar)).mkdir()  # a folder where the file should go: neither read nor written
    assert parse.parse(TEXT, "klats.rules")
    assert Path(parse.cache_file(grammar)).is_dir()


def test_an_empty_setting_keeps_no_cache(monkeypatch):
    monkeypatch.setenv(caches.ENV, "")
    assert caches.cache_folder() is None


def _modules_after(*args: str) -> set[str]:
    """The modules a `cardrules ARGS` process has imported when it ends."""
    code = ("import sys\nfrom cardrules.cli.main import main\nsys.argv = ['cardrules', *sys.argv[1:]]\n"
            "try:\n    main()\nexcept SystemExit:\n    pass\nsys.stderr.write('\\nMODULES ' + ' '.join(sys.modules))\n")
    done = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, cwd=REPO, timeout=120)
    return set(done.stderr.rpartition("MODULES ")[2].split())


def test_check_and_selfplay_do_not_import_what_they_do_not_use():
    for command in (("check", "rulesets/klats.rules"), ("selfplay", "klats", "-p", "2", "-g", "2", "-w", "1")):
        loaded = _modules_after(*command)
        assert "cardrules.interpreter.parse" in loaded  # the command did run
        assert not {"jsonschema", "yaml", "prompt_toolkit", "cardrules.interpreter.diff", "ray", "pydantic"} & loaded, \
            command
    assert "jsonschema" in _modules_after("house", "check", "rulesets/house/klats_big_hands.yaml")  # where it is needed


def test_check_parses_once_and_deals_each_count_of_each_selection_once(monkeypatch):
    parses, compiles = [], []
    real_parse, real_compile = load.parse, export.compile_ruleset
    monkeypatch.setattr(load, "parse", lambda *a, **k: parses.append(1) or real_parse(*a, **k))
    monkeypatch.setattr(export, "compile_ruleset", lambda m, n, *a: compiles.append((m.selection, n)) or
                        real_compile(m, n, *a))
    result = cli("check", ARNE_TOTAL)
    assert result.code == 0, result.stderr
    assert len(parses) == 1
    assert len(compiles) == len(set(compiles)) == 80  # 18 selections, 80 player counts in all
