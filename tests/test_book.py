"""`cardrules book`: a rulebook faithful to the checked model of each shipped selection (every
card kind, every param with its default, every clause's source in a note), in English and
Russian, with a worked scoring example that the engine's own score gives, and escaped output."""
from __future__ import annotations

import html
import re
import shutil
from functools import cache

import pytest

from cardrules.interpreter import book as b
from cardrules.interpreter import book_html, book_markdown
from cardrules.interpreter.book_words import LANGUAGES, WORDS
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.engine import Game
from cardrules.interpreter.export import clauses
from cardrules.interpreter.load import load, load_all, load_text, read

from .conftest import RULESETS, cli


@cache
def selections() -> dict[str, object]:
    """Every shipped selection: klats, arne_92, and every legal selection of arne_total."""
    out = {"klats": load("klats").model, "arne_92": load("arne_92").model}
    text, name = read("arne_total")
    out.update({f"arne_total{s}": loaded.model for s, loaded in load_all(text, name)})
    return out


@cache
def book_of(selection: str, lang: str = "en") -> b.Book:
    return b.build(selections()[selection], lang)


def plain(book: b.Book) -> str:
    """Every string of the book, notes included, joined: what a reader can find in it."""
    parts: list[str] = [book.title]

    def line(items):
        for x in items:
            parts.append(x if isinstance(x, str) else getattr(x, "text", ""))

    def block(x):
        if isinstance(x, b.Section):
            line(x.title)
            for y in x.blocks:
                block(y)
        elif isinstance(x, b.Paragraph):
            line(x.line)
        elif isinstance(x, b.Items):
            for y in x.lines:
                line(y)
        elif isinstance(x, b.Table):
            for row in (x.header, *x.rows):
                for cell in row:
                    line(cell)

    for s in book.subtitle:
        line(s)
    for section in book.sections:
        block(section)
    parts += [text for note in book.notes for _, text in note]
    return "\n".join(parts)


@pytest.mark.parametrize("selection", sorted(selections()))
def test_every_kind_param_and_source_is_in_the_book(selection):
    model = selections()[selection]
    book = book_of(selection)
    text = plain(book)
    for kind in model.kinds:
        assert kind.name in text, f"card kind {kind.name} is missing"
    params = {row[0][0].text: row[1][0].text for s in book.sections if s.anchor == "params"
              for t in s.blocks if isinstance(t, b.Table) for row in t.rows}
    assert params == {p.name: str(p.default) for p in model.params}
    notes = {text for note in book.notes for _, text in note}
    cited = [(name, p) for name, p in clauses(model)] + [(f"define {d.name}", d.provenance) for d in model.defines]
    cited += [(f"{o.kind} {o.name}", o.provenance) for o in model.options]
    for name, provenance in cited:
        for source in (*provenance.sources, *provenance.rulings, *provenance.assumptions):
            assert source in notes, f"{name}: {source!r} is in no note"
    md, page = book_markdown.render(book), book_html.render(book)
    for number in range(1, len(book.notes) + 1):  # every note is referred to, and written out
        assert f"[^{number}]:" in md and f"[^{number}]" in md.rsplit("\n## ", 1)[0]
        assert f'id="note-{number}"' in page and f'href="#note-{number}"' in page


def test_a_variant_section_says_what_the_variant_changes():
    book = book_of("arne_total@en")
    options = next(s for s in book.sections if s.anchor == "options")
    minimum = next(s for s in options.blocks if isinstance(s, b.Section) and s.anchor == "variant-minimum")
    said = plain(b.Book("en", "", (), (minimum,), (), "", ""))
    assert "play lay" in said and "changed" in said  # the variant replaces `play lay`
    chosen = next(s for s in options.blocks if isinstance(s, b.Section) and s.anchor == "edition-en")
    assert WORDS["en"]["chosen"] in plain(b.Book("en", "", (), (chosen,), (), "", ""))


def test_the_russian_book_names_cards_in_russian():
    model = selections()["arne_total@ru"]
    book = book_of("arne_total@ru", "ru")
    text = plain(book)
    russian_faces = compile_ruleset(model, model.counts[0], None, "ru").faces
    english_faces = compile_ruleset(model, model.counts[0], None, "en").faces
    for ru, _en in zip(russian_faces, english_faces, strict=True):
        assert ru in text
    cards = next(s for s in book.sections if s.anchor == "cards")
    titles = [plain(b.Book("ru", "", (), (s,), (), "", "")).splitlines()[1] for s in cards.blocks]
    assert "крэш" in titles and "вор" in titles and "цвет" in titles  # kinds named by their Russian name or face
    assert book.sections[0].title == (WORDS["ru"]["aim"],)
    assert "синий" in text and book.title == "Арне Тотал"
    english = plain(book_of("arne_total@ru", "en"))
    assert "crash" in english and "крэш" not in english


@pytest.mark.parametrize("selection", ["klats", "arne_92", "arne_total@ru", "arne_total@en+teams"])
def test_the_worked_example_is_what_the_engine_scores(selection):
    """The position the book shows, laid out afresh and scored by the compiled score, gives the
    book's scores; and the book's round is the engine's first round of that seed."""
    book = book_of(selection)
    ex = book.example
    assert ex is not None
    compiled = compile_ruleset(selections()[selection], ex.players)
    game = Game(compiled, 0, deal=False)
    game._advance = lambda: None  # lay the position out and stop there: it is scored as it lies
    game.set_position(ex.zones)
    scored = []
    for seat in range(ex.players):
        game.env[compiled.score_slot] = seat
        scored.append(compiled.score(game.env))
    assert tuple(scored) == ex.scores
    replay = Game(compiled, ex.seed)
    assert not replay.state.results
    table = next(t for s in book.sections if s.anchor == "scoring" for x in s.blocks
                 if isinstance(x, b.Section) and x.anchor == "example" for t in x.blocks if isinstance(t, b.Table))
    assert [row[-1][0].text for row in table.rows] == [str(s) for s in ex.scores]
    assert ex.end in compiled.model.round_end_names


def test_some_example_scores_are_not_zero():
    assert any(any(book_of(s).example.scores) for s in ("klats", "arne_92", "arne_total@ru"))


def test_both_languages_have_every_template():
    assert set(LANGUAGES) == set(WORDS)
    keys = [set(WORDS[lang]) for lang in LANGUAGES]
    assert all(k == keys[0] for k in keys)
    for key in keys[0]:  # the same fields in each language
        fields = {lang: set(re.findall(r"\{(\w+)\}", WORDS[lang][key])) for lang in LANGUAGES}
        assert fields["en"] == fields["ru"], key


HOSTILE = (RULESETS / "klats.rules").read_text(encoding="utf-8").replace(
    'name en "Klats"', 'name en "<script>alert(1)</script>"').replace(
    'face "{colour}{value}"', 'face "<b>{colour}{value}"').replace(
    '"003: 90 игровых карточек', '"<img src=x onerror=alert(2)> 90 игровых карточек').replace(
    'blue ru "синий" en "blue"', 'blue ru "синий" en "<i>blue</i>"')


def test_hostile_text_is_escaped_in_html_and_markdown():
    model = load_text(HOSTILE, "hostile.rules").model
    book = b.build(model, "en")
    page = book_html.render(book)
    assert "<script" not in page and "<img" not in page and "<b>" not in page and "<i>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;img src=x onerror=alert(2)&gt;" in page
    assert "<code>&lt;b&gt;blue1</code>" in page and "&lt;i&gt;blue&lt;/i&gt;, orange" in page  # a face, a label
    md = book_markdown.render(book)
    outside_code = re.sub(r"(`+).*?\1", "", md)
    assert "<script" not in outside_code and "<img" not in outside_code and "<i>" not in outside_code
    assert md.startswith("# &lt;script&gt;alert(1)&lt;/script&gt;")


def test_the_html_page_is_self_contained_and_printable():
    page = book_html.render(book_of("arne_92"))
    assert "<script" not in page and "http://" not in page and "https://" not in page and "<link" not in page
    assert "@media print" in page and "page-break-before: always" in page
    assert page.count("<h2>") >= 8 and html.escape("ARNE") in page


def test_the_command_writes_markdown_and_html(tmp_path):
    r = cli("book", "arne_92", "--format", "md")
    assert r.code == 0 and r.stdout.startswith("# ARNE\n") and "| players | cards in play |" in r.stdout
    out = tmp_path / "book_ru.html"
    r = cli("book", "arne_total@ru", "--lang", "ru", "--format", "html", "-o", out)
    assert r.code == 0 and r.stdout == "" and f"wrote {out}" in r.stderr
    page = out.read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>") and '<html lang="ru">' in page and "Цель игры" in page


def test_the_command_refuses_to_write_over_its_inputs(tmp_path):
    rules = tmp_path / "k.rules"
    shutil.copy(RULESETS / "klats.rules", rules)
    before = rules.read_bytes()
    r = cli("book", rules, "-o", rules)
    assert r.code == 2 and "is an input" in r.stderr and rules.read_bytes() == before
    house = RULESETS / "house" / "klats_big_hands.yaml"
    before = house.read_bytes()
    r = cli("book", f"klats+house:{house}", "--format", "html", "-o", house)
    assert r.code == 2 and "is an input" in r.stderr and house.read_bytes() == before


def test_the_command_reports_bad_input_and_usage(tmp_path):
    assert cli("book", "klats", "--lang", "de").code == 2
    assert cli("book", "klats", "--format", "pdf").code == 2
    assert cli("book", "arne_total@fr").code == 2
    broken = tmp_path / "broken.rules"
    broken.write_text((RULESETS / "klats.rules").read_text(encoding="utf-8").replace("to row of any seat",
                                                                                     "to rowz of any seat"))
    r = cli("book", broken)
    assert r.code == 1 and "broken.rules:" in r.stderr and "^" in r.stderr and r.stdout == ""


def test_conditions_in_words_keep_their_scope():
    """A condition the book knows the shape of is put in words; a quantifier with more after it
    stays in code, so no reader can stretch its scope over what follows."""
    text = (RULESETS / "klats.rules").read_text(encoding="utf-8")
    builder = b._Builder(load_text(text, "k.rules").model, "en")
    said = builder.phrase(builder.model.round_ends[1].cond)
    assert said == ("the number of cards in ", b.Code("draw"), " is ", "0", " and ", "for every player ", b.Code("s"),
                    ", ", "the number of cards in ", b.Code("hand of s"), " is ", "0")
    swapped = text.replace("count(draw) == 0 and every s in seats: count(hand of s) == 0",
                           "(every s in seats: count(hand of s) == 0) and count(draw) == 0")
    builder = b._Builder(load_text(swapped, "k.rules").model, "ru")
    said = builder.phrase(builder.model.round_ends[1].cond)
    assert said == (b.Code("every s in seats: count(hand of s) == 0"), " и ", "число карт в ", b.Code("draw"),
                    " равно ", "0")
    params = builder.phrase(builder.model.plays[0].new_pile.expr)
    assert params[-2:] == (b.Code("max_piles"), " (6)")  # a param with its default


def test_a_ruleset_whose_deal_cannot_run_is_a_clear_failure(tmp_path):
    rules = tmp_path / "big.rules"
    rules.write_text((RULESETS / "klats.rules").read_text(encoding="utf-8").replace(
        "param hand_size = 3 in 1..10", "param hand_size = 50 in 1..60"), encoding="utf-8")
    r = cli("book", rules)
    assert r.code == 1 and "big.rules" in r.stderr and "cannot deal" in r.stderr and r.stdout == ""
