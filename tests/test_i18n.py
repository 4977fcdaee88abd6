"""The interface in other languages: the catalogs in cli/locale hold every word the code wraps
in `_()`, each translated, compiled into the .mo that ships, and `use` puts them to work."""
from __future__ import annotations

import re

import pytest
from babel.messages.extract import extract_from_dir
from babel.messages.mofile import read_mo
from babel.messages.pofile import read_po

from cardrules.cli import i18n

from .conftest import REPO, cli_process

LOCALE = REPO / "cli" / "locale"
CATALOGS = sorted(LOCALE.glob("*/LC_MESSAGES/cardrules.po"))
HOLE = re.compile(r"\{[^{}]*\}")


def _in_code() -> set[str]:
    """The msgids Babel extracts from cli/ now (a plural by its singular)."""
    found = set()
    for _file, _line, message, _comments, _context in extract_from_dir(str(REPO / "cli")):
        found.add(message[0] if isinstance(message, tuple) else message)
    return found


def _ids(catalog) -> set[str]:
    return {m.id[0] if isinstance(m.id, tuple) else m.id for m in catalog if m.id}


def test_there_is_a_russian_catalog_and_it_ships_compiled():
    assert "ru" in i18n.languages()
    assert [p.parent.parent.name for p in CATALOGS] == list(i18n.languages())


def test_the_template_holds_every_word_the_code_wraps():
    with open(LOCALE / "cardrules.pot", "rb") as f:
        template = _ids(read_po(f))
    code = _in_code()
    assert code - template == set(), "run pybabel extract (CONTRIBUTING.md): these are not in the template"
    assert template - code == set(), "run pybabel extract: the template holds words the code no longer has"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_a_catalog_translates_every_word_with_the_same_holes(po):
    with open(po, "rb") as f:
        catalog = read_po(f)
    assert _ids(catalog) == _in_code(), "run pybabel update (CONTRIBUTING.md)"
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{po.parent.parent.name}: no translation of {ids[0]!r}"
        assert not message.fuzzy, f"{po.parent.parent.name}: a fuzzy translation of {ids[0]!r}"
        holes = set(HOLE.findall(ids[-1])) - {"{n}"}  # a plural form may write the number as a word
        for text in strings:
            assert set(HOLE.findall(text)) >= holes, f"{ids[0]!r}: {text!r} lacks a {{hole}}"


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: p.parent.parent.name)
def test_the_shipped_mo_is_compiled_from_the_po(po):
    with open(po, "rb") as f:
        source = _entries(read_po(f))
    with open(po.with_suffix(".mo"), "rb") as f:
        compiled = _entries(read_mo(f))
    assert compiled == source, "run pybabel compile (CONTRIBUTING.md)"


def _entries(catalog) -> dict:
    """msgid -> msgstr, plurals as tuples (a .mo reads them back as lists)."""
    def whole(x):
        return tuple(x) if isinstance(x, (list, tuple)) else x
    return {whole(m.id): whole(m.string) for m in catalog if m.id}


def test_use_switches_the_words_and_back():
    try:
        i18n.use("ru")
        assert i18n._("seat") == "место"
        assert [i18n.ngettext("{n} card", "{n} cards", n).format(n=n) for n in (1, 3, 5, 21)] == \
            ["1 карта", "3 карты", "5 карт", "21 карта"]
        i18n.use("xx")  # no catalog: English
        assert i18n._("seat") == "seat"
    finally:
        i18n.use(None)
    assert i18n._("seat") == "seat"


def test_play_speaks_russian_with_lang_ru_even_where_the_cards_have_no_russian_faces():
    done = cli_process("play", "arne_92", "--seed", "3", "--seats", "human,random,random", "--lang", "ru",
                       input="help\nquit\n")
    assert done.code == 0, done.stderr
    assert "место 0> help" in done.stdout and "Введите номер хода" in done.stdout
    assert "игра остановлена (выход)" in done.stdout
    assert "put red7" not in done.stdout  # help's examples are this game's moves
    examples = done.stdout.split("Здесь, например:\n", 1)[1].splitlines()[0]
    assert examples.strip().split(", ")[0].split()[0] in {"pair", "reverse", "pass", "put", "take", "play"}


def test_an_unknown_language_is_still_a_usage_error():
    done = cli_process("play", "arne_92", "--lang", "xx", input="quit\n")
    assert done.code == 2 and "no language 'xx'" in done.stderr
