"""Text to AST. Lark parses (LALR, contextual lexer); a transformer builds `syntax` nodes.

Every failure becomes a located `Diagnostic` (files.py reads and decodes the bytes): a file of
too many tokens, a character no token starts with, a token the grammar does not
expect there, a number too long, nesting too deep. Nothing here can raise anything but
`RulesError`, and the limits are checked while reading, so a hostile file fails fast.
"""
from __future__ import annotations

import hashlib
import re
import sys
import unicodedata
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from functools import lru_cache
from importlib.resources import files
from typing import TypeAlias, TypedDict, cast

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedInput, UnexpectedToken, VisitError
from lark.lark import PostLex
from lark.tree import Branch, Meta

from . import syntax as s
from .caches import cache_folder
from .diagnostics import Diagnostic, RulesError, Span

MAX_BYTES = 1 << 20  # a rules file of a megabyte is already a hundred games
MAX_DEPTH = 60  # nesting of expressions; no card game needs a tenth of it
MAX_STACK = 8 * MAX_DEPTH  # the parser's stack: a level of nesting takes at most 6 entries, so past
#                            this the nesting is past MAX_DEPTH too
MAX_TOKENS = 20_000  # fifty times a full ruleset; parsing costs per token, comments and strings are one
MAX_DIGITS = 9  # numbers up to 999,999,999

CLAUSE_KEYWORDS = ("game, players, param, define, attribute, card, zone, setup, cleanup, play, turn, window, "
                   "end round, final round, score, match, deck, decks, teams, display, edition, variant")


class _WholeWords(PostLex):
    """Offers NAME to the lexer in every parser state, so that `playy` is one unexpected name
    rather than the keyword `play` followed by `y`: the longest match wins, and a name that
    spells a keyword the state expects still becomes that keyword."""

    always_accept = ("NAME",)

    def process(self, stream: Iterator[Token]) -> Iterator[Token]:
        return stream


class _Tree(Tree[Token]):
    """A parse tree node that knows its height, so that a chain too deep fails as soon as it is
    built (`a + a + ...` nests on the left, where the parser's stack stays flat) and nothing
    recursive ever walks it. Lark's helper rules (`_name`) are spliced into their parent, which
    measures their children itself; skipping them keeps long lists linear."""

    def __init__(self, data: str, children: list[Branch[Token]], meta: Meta | None = None) -> None:
        super().__init__(data, children, meta)
        self.height = 0
        if not data.startswith("_"):
            deepest = None
            for child in children:
                if isinstance(child, _Tree) and (deepest is None or child.height > deepest.height):
                    deepest = child
            if deepest is None:
                self.height = 1
            else:
                self.height = 1 + deepest.height
                if self.height > MAX_DEPTH:
                    raise _too_deep(_span(deepest.meta))


OPTIONS = dict(parser="lalr", lexer="contextual", propagate_positions=True, maybe_placeholders=True)


@lru_cache(maxsize=1)
def parser() -> Lark:
    """The LALR parser. Building its tables takes a quarter of a second, so Lark keeps them in
    the user's cache folder (`cache_file`). Lark checks the file's own hash too, rebuilds when
    the file is unreadable or damaged, and carries on when it cannot write it."""
    grammar = (files("cardrules.grammar") / "cardrules.lark").read_text(encoding="utf-8")
    return Lark(grammar, postlex=_WholeWords(), tree_class=_Tree, cache=cache_file(grammar), **OPTIONS)


def cache_file(grammar: str) -> str | None:
    """Where the tables built from `grammar` are kept: a file named by a hash of the grammar,
    the options, the names `_WholeWords` offers and the Lark and Python versions, so a changed
    grammar finds no file and builds anew; None when there is no cache folder."""
    folder = cache_folder()
    if folder is None:
        return None
    key = repr((grammar, sorted(OPTIONS.items()), _WholeWords.always_accept, lark.__version__, sys.version_info[:2]))
    return str(folder / f"grammar-{hashlib.sha256(key.encode()).hexdigest()[:20]}.lark")


_ORIGIN: ContextVar[str] = ContextVar("origin", default="")  # the file spans name, when it is not the checked one


def parse(text: str, file: str = "<input>", *, foreign: bool = False) -> list[s.Clause]:
    """Parse rules text into clauses, or raise `RulesError` with the first syntax error.
    `foreign`: the text stands in another file than the ruleset it joins (a house-rules
    snippet), so every span carries `file`."""
    token = _ORIGIN.set(file if foreign else "")
    try:
        return _ToAst().transform(_read(text))
    except UnexpectedInput as e:
        raise RulesError([_syntax_error(e, text, file)], text) from None
    except _Located as e:
        raise RulesError([Diagnostic("error", e.message, e.span, e.hint, file)], text) from None
    except VisitError as wrapped:
        located = wrapped.orig_exc
        if not isinstance(located, _Located):
            raise
        raise RulesError([Diagnostic("error", located.message, located.span, located.hint, file)], text) from None
    finally:
        _ORIGIN.reset(token)


def _read(text: str) -> Tree[Token]:
    """The parse tree, read under two bounds that stop a hostile file early rather than after
    all of it: nesting opens the parser's stack (`not not ...`, `((...`, `if .. else if`), and
    every token costs time."""
    run = parser().parse_interactive(text)
    token = None
    for count, token in enumerate(run.iter_parse(), 1):
        if len(run.parser_state.state_stack) > MAX_STACK:
            raise _too_deep(_tspan(token))
        if count > MAX_TOKENS:
            raise _Located(f"the file holds more than {MAX_TOKENS:,} words and symbols", _tspan(token),
                           "a ruleset is far smaller: split the file, or check that it is a rules file")
    tree: Tree[Token] = run.feed_eof(token)  # type: ignore[no-untyped-call]  # lark leaves feed_eof unannotated
    return tree


# ------------------------------------------------------------------ errors


class _Located(Exception):
    def __init__(self, message: str, span: Span, hint: str = ""):
        self.message, self.span, self.hint = message, span, hint


def _describe(terminal: str) -> str:
    names = {"NAME": "a name", "INT": "a number", "STRING": 'a "string"', "$END": "the end of the file"}
    if terminal in names:
        return names[terminal]
    term = parser().get_terminal(terminal) if terminal in {t.name for t in parser().terminals} else None
    if term is not None and term.pattern.type == "str":
        return f"'{term.pattern.value}'"
    return terminal.lower()


def _syntax_error(e: UnexpectedInput, text: str, file: str) -> Diagnostic:
    line, column = max(e.line, 1), max(e.column, 1)
    if isinstance(e, UnexpectedCharacters):
        pos = cast("int", e.pos_in_stream)  # the lexer's position; lark's class default (None) types it as None
        char = text[pos] if pos < len(text) else ""
        if char == '"':  # the span runs to the end of the line, where the string should have ended
            end = text.find("\n", pos)
            width = (len(text) if end < 0 else end) - pos
            return Diagnostic("error", "a string is not closed on its line", Span(line, column, line, column + width),
                              'end the string with " before the end of the line', file)
        if char.isalpha() and not char.isascii():  # a Cyrillic с in `сolour` looks like the Latin one
            script = unicodedata.name(char, "OTHER").split()[0].title()
            return Diagnostic("error", f"unexpected character {char!r}: names are Latin letters, digits and _; "
                              f"{char!r} is {script}", Span.point(line, column),
                              "retype the name in Latin letters; text in another script goes in double quotes", file)
        return Diagnostic("error", f"unexpected character {char!r}", Span.point(line, column),
                          "names are letters, digits and _; strings go in double quotes; # starts a comment", file)
    expected = sorted(getattr(e, "expected", None) or getattr(e, "accepts", None) or ())
    wanted = ", ".join(_describe(t) for t in expected[:10]) + (", ..." if len(expected) > 10 else "")
    token = e.token if isinstance(e, UnexpectedToken) else None  # else an UnexpectedEOF, lark's third kind
    if token is None or token.type == "$END":
        last = text.rstrip().splitlines() or [""]
        span = Span.point(len(last), len(last[-1]) + 1)
        hint = "a block is not closed: add '}'" if "RBRACE" in expected else f"expected {wanted}"
        return Diagnostic("error", "the file ends in the middle of a clause", span, hint, file)
    span = Span(line, column, token.end_line or line, token.end_column or column + len(token))
    if token.type == "NAME" and "NAME" not in expected and ("PLAY" in expected or "MATCH" in expected):
        hint = f"a clause starts with a keyword: {CLAUSE_KEYWORDS}"
    elif token.value == "=" and "COMPARE" in expected:
        hint = "to compare two values write =="
    else:
        hint = f"expected {wanted}"
    return Diagnostic("error", f"unexpected {token.value!r}", span, hint, file)


def _too_deep(span: Span) -> _Located:
    return _Located(f"the expression nests deeper than {MAX_DEPTH} levels", span,
                    "split it, or use a param or a simpler expression")


# ------------------------------------------------------------------ the transformer
#
# Lark hands each method its rule's children as arguments (`v_args(inline=True)`), so each is
# typed as the grammar puts it there: a `Token` for a terminal, None for an absent `[...]`, a
# `Tree` for a rule with no method here (`scope`, `or_pass`), else what that rule's method
# returns. Where a rule repeats a part (`NAME ("," NAME)*`, a block's items) ahead of fixed ones,
# the method takes the rest as `*parts` and names what the grammar puts at its end.

_Provs: TypeAlias = tuple[s.Prov, ...]
_ProvTree: TypeAlias = "Tree[s.Prov]"  # the `provs` rule as lark leaves it: a method for it costs a call per clause
_Range: TypeAlias = tuple[s.Number, s.Number]
_Removal: TypeAlias = tuple[str, s.Ident | None]  # (kind, name or None), the kind as options.key() names clauses


class _Common(TypedDict):
    """What every clause has apart from its fields, passed to its class as keywords."""

    provs: _Provs
    span: Span
    items: tuple[s.Clause, ...]


def _span(meta: Meta) -> Span:
    return Span(meta.line, meta.column, meta.end_line, meta.end_column, _ORIGIN.get())


def _tspan(token: Token) -> Span:
    # the lexer sets all four positions; lark types them Optional for tokens made by hand. No cast: this runs per name
    return Span(token.line, token.column, token.end_line, token.end_column,  # type: ignore[arg-type]
                _ORIGIN.get())


def _ident(token: Token) -> s.Ident:
    return s.Ident(str(token), _tspan(token))


def _idents(parts: tuple[object, ...]) -> tuple[s.Ident, ...]:
    """The names among a rule's parts (`NAME ("," NAME)*`), in order."""
    return tuple(_ident(t) for t in parts if isinstance(t, Token))


def _string(token: Token) -> str:
    """The text of a string literal: `\\"`, `\\\\` and `\\n` are its only escapes, read left to right."""
    return re.sub(r'\\(["\\n])', lambda e: "\n" if e.group(1) == "n" else e.group(1), str(token)[1:-1])


def _integer(token: Token) -> int:
    digits = str(token).lstrip("0") or "0"  # int() refuses a long string, even of zeros
    if len(digits) > MAX_DIGITS:
        raise _Located(f"the number {digits[:12]}{'...' if len(digits) > 12 else ''} is too large",
                       _tspan(token), f"numbers have at most {MAX_DIGITS} digits")
    return int(digits)


def _value(part: Token | s.Number) -> s.Ident | s.Number:
    """An attribute's value as a clause writes it: an enum value's name or a number."""
    return part if isinstance(part, s.Number) else _ident(part)


def _provs(tree: _ProvTree) -> _Provs:
    return cast("_Provs", tuple(tree.children))  # a `provs` tree holds only `prov`s, which the transformer made _Provs


def _common(meta: Meta, provs: _ProvTree | None = None, items: tuple[s.Clause, ...] = ()) -> _Common:
    return {"provs": _provs(provs) if provs is not None else (), "span": _span(meta), "items": items}


def _last_provs(parts: tuple[object, ...]) -> _ProvTree:
    return cast("_ProvTree", parts[-1])  # every clause's rule ends in `provs`


def _block(meta: Meta, parts: tuple[s.Clause | _ProvTree, ...]) -> _Common:
    """The common attributes of a block clause (`"{" item* "}" provs`): its parts are its items, then its provenance."""
    items = cast("tuple[s.Clause, ...]", parts[:-1])  # an item rule's method makes a clause, and only the last is provs
    return _common(meta, _last_provs(parts), items)


def _removal(kind: str) -> Callable[[_ToAst, Meta, *tuple[Token, ...]], _Removal]:
    """The transformer method of `remove KIND NAME`."""
    return lambda self, meta, *name: (kind, _ident(name[0]) if name else None)


@v_args(meta=True, inline=True)
class _ToAst(Transformer[Token, list[s.Clause]]):
    """Builds a `syntax` node of its own class for each clause and block item."""

    def start(self, meta: Meta, *clauses: s.Clause) -> list[s.Clause]:
        return list(clauses)

    # -- provenance
    def source(self, meta: Meta, text: Token) -> s.Prov:
        return s.Prov("source", _string(text), _span(meta))

    def ruling(self, meta: Meta, text: Token) -> s.Prov:
        return s.Prov("ruling", _string(text), _span(meta))

    def assumed(self, meta: Meta, text: Token) -> s.Prov:
        return s.Prov("assumed", _string(text), _span(meta))

    # -- small pieces
    def int(self, meta: Meta, *tokens: Token) -> s.Number:  # [MINUS] INT
        value = _integer(tokens[-1])
        return s.Number(-value if len(tokens) == 2 else value, _span(meta))

    def range(self, meta: Meta, low: s.Number, high: s.Number) -> _Range:
        return (low, high)

    def label(self, meta: Meta, language: Token, text: Token) -> tuple[str, str]:
        return (str(language), _string(text))

    def enum_value(self, meta: Meta, name: Token, *labels: tuple[str, str]) -> s.EnumValue:
        return s.EnumValue(_ident(name), labels)

    # -- header and components
    def game(self, meta: Meta, title: Token, *parts: s.Clause | _ProvTree) -> s.Game:
        return s.Game(_string(title), **_block(meta, parts))

    def game_name(self, meta: Meta, language: Token, text: Token, provs: _ProvTree) -> s.Label:
        return s.Label(_ident(language), _string(text), **_common(meta, provs))

    def document(self, meta: Meta, id: Token, title: Token, provs: _ProvTree) -> s.Document:
        return s.Document(s.Ident(_string(id), _tspan(id)), _string(title), **_common(meta, provs))

    def players(self, meta: Meta, first: s.Number | _Range, *parts: s.Number | _ProvTree) -> s.Players:
        if not isinstance(first, s.Number):  # `players LOW..HIGH`
            return s.Players(*first, None, **_common(meta, _last_provs(parts)))
        counts = (first, *(n for n in parts if isinstance(n, s.Number)))
        return s.Players(first, counts[-1], counts, **_common(meta, _last_provs(parts)))

    def param(self, meta: Meta, name: Token, default: s.Number, range: _Range, provs: _ProvTree) -> s.Param:
        return s.Param(_ident(name), default, *range, **_common(meta, provs))

    def define(self, meta: Meta, name: Token, *parts: Token | None | s.Expr | _ProvTree) -> s.Define:
        body = cast("s.Expr", parts[-2])  # the rule ends in `"=" expr provs`
        return s.Define(_ident(name), _idents(parts), body, **_common(meta, _last_provs(parts)))

    def enum_attribute(self, meta: Meta, name: Token, *parts: s.EnumValue | _ProvTree) -> s.EnumAttribute:
        values = tuple(v for v in parts if isinstance(v, s.EnumValue))
        return s.EnumAttribute(_ident(name), values, **_common(meta, _last_provs(parts)))

    def int_attribute(self, meta: Meta, name: Token, range: _Range, provs: _ProvTree) -> s.IntAttribute:
        return s.IntAttribute(_ident(name), *range, **_common(meta, provs))

    def card(self, meta: Meta, name: Token, *parts: s.Clause | _ProvTree) -> s.Card:
        return s.Card(_ident(name), **_block(meta, parts))

    def card_each(self, meta: Meta, attribute: Token, provs: _ProvTree) -> s.Each:
        return s.Each(_ident(attribute), **_common(meta, provs))

    def card_fixed(self, meta: Meta, attribute: Token, value: Token | s.Number, provs: _ProvTree) -> s.Fixed:
        return s.Fixed(_ident(attribute), _value(value), **_common(meta, provs))

    def card_copies(self, meta: Meta, count: Token, provs: _ProvTree) -> s.Copies:
        return s.Copies(s.Number(_integer(count), _tspan(count)), **_common(meta, provs))

    def card_face(self, meta: Meta, language: Token | None, template: Token, provs: _ProvTree) -> s.Face:
        return s.Face(_string(template), _ident(language) if language is not None else None, **_common(meta, provs))

    def card_mark(self, meta: Meta, name: Token, count: Token | None, where: s.Expr | None, provs: _ProvTree) -> s.Mark:
        number = s.Number(_integer(count), _tspan(count)) if count is not None else None
        return s.Mark(_ident(name), number, where, **_common(meta, provs))

    def card_name(self, meta: Meta, language: Token, text: Token, provs: _ProvTree) -> s.Label:
        return s.Label(_ident(language), _string(text), **_common(meta, provs))

    def zone(self, meta: Meta, name: Token, scope: Tree[Token], visibility: Tree[Token], layout: Tree[Token] | None,
             provs: _ProvTree) -> s.Zone:
        shape = layout.data if layout is not None else "cards"
        return s.Zone(_ident(name), scope.data, visibility.data, shape, **_common(meta, provs))

    # -- procedure
    def setup(self, meta: Meta, *parts: s.Clause | _ProvTree) -> s.Setup:
        return s.Setup(**_block(meta, parts))

    def cleanup(self, meta: Meta, *parts: s.Clause | _ProvTree) -> s.Cleanup:
        return s.Cleanup(**_block(meta, parts))

    def shuffle_deck(self, meta: Meta, zone: Token, provs: _ProvTree) -> s.Shuffle:
        return s.Shuffle(_ident(zone), **_common(meta, provs))

    def deal(self, meta: Meta, count: s.Expr | None, source: Token, dest: Token, where: s.Expr | None,
             provs: _ProvTree) -> s.Deal:
        return s.Deal(count, _ident(source), _ident(dest), where, **_common(meta, provs))

    def all_cards(self, meta: Meta) -> None:
        return None

    def move(self, meta: Meta, count: s.Expr | None, source: Token, dest: Token, where: s.Expr | None,
             provs: _ProvTree) -> s.Move:
        return s.Move(count, _ident(source), _ident(dest), where, **_common(meta, provs))

    def play(self, meta: Meta, name: Token, *parts: s.Clause | _ProvTree) -> s.Play:
        return s.Play(_ident(name), **_block(meta, parts))

    def play_card(self, meta: Meta, zone: Token, where: s.Expr | None, provs: _ProvTree) -> s.CardFrom:
        return s.CardFrom(_ident(zone), where, **_common(meta, provs))

    def play_with(self, meta: Meta, name: Token, zone: Token, where: s.Expr | None, provs: _ProvTree) -> s.With:
        return s.With(_ident(name), _ident(zone), where, **_common(meta, provs))

    def play_to(self, meta: Meta, zone: Token, seats: s.Seats | None, provs: _ProvTree) -> s.To:
        return s.To(_ident(zone), seats, **_common(meta, provs))

    def play_new_pile(self, meta: Meta, when: s.Expr | None, provs: _ProvTree) -> s.NewPile:
        return s.NewPile(when, **_common(meta, provs))

    def play_onto_pile(self, meta: Meta, when: s.Expr | None, provs: _ProvTree) -> s.OntoPile:
        return s.OntoPile(when, **_common(meta, provs))

    def play_choose_seat(self, meta: Meta, name: Token, seats: s.Seats, where: s.Expr | None,
                         provs: _ProvTree) -> s.Choose:
        return s.Choose("seat", _ident(name), None, seats, where, **_common(meta, provs))

    def play_choose_pile(self, meta: Meta, name: Token, zone: Token, seats: s.Seats, where: s.Expr | None,
                         provs: _ProvTree) -> s.Choose:
        return s.Choose("pile", _ident(name), _ident(zone), seats, where, **_common(meta, provs))

    # `any seat`, `any other seat`, `self`, or an expression naming one seat
    def any_seat(self, meta: Meta) -> s.Seats:
        return "any_seat"

    def other_seat(self, meta: Meta) -> s.Seats:
        return "other_seat"

    def seat_expr(self, meta: Meta, seat: s.Expr) -> s.Seats:
        return "self_seat" if isinstance(seat, s.Name) and seat.id == "self" else seat

    def move_cards(self, meta: Meta, count: s.Expr | None, at_random: Tree[Token] | None, binder: Token | None,
                   source: s.Expr, dest: s.Expr, where: s.Expr | None) -> s.MoveCards:
        var = _ident(binder) if binder is not None else None
        return s.MoveCards(count, at_random is not None, var, source, dest, where, **_common(meta))

    def move_pile(self, meta: Meta, pile: s.Expr, dest: s.Expr) -> s.MovePile:
        return s.MovePile(pile, dest, **_common(meta))

    def play_then(self, meta: Meta, effect: s.Effect, when: s.Expr | None, provs: _ProvTree) -> s.Effect:
        return self._then(meta, effect, when, provs)

    def turn_then(self, meta: Meta, effect: s.Effect, when: s.Expr | None, provs: _ProvTree) -> s.Effect:
        return self._then(meta, effect, when, provs)  # an effect as a turn step

    @staticmethod
    def _then(meta: Meta, effect: s.Effect, when: s.Expr | None, provs: _ProvTree) -> s.Effect:
        """An effect with its provenance; with `when COND`, a `Guarded` holding it."""
        if when is None:
            return effect.replace(provs=_provs(provs), span=_span(meta))
        return s.Guarded(effect, when, **_common(meta, provs))

    def play_meld(self, meta: Meta, name: Token, range: _Range, zone: Token, where: s.Expr | None,
                  provs: _ProvTree) -> s.Meld:
        return s.Meld(_ident(name), *range, _ident(zone), where, **_common(meta, provs))

    def play_choose_value(self, meta: Meta, name: Token, attribute: Token, where: s.Expr | None,
                          provs: _ProvTree) -> s.ChooseValue:
        return s.ChooseValue(_ident(name), _ident(attribute), where, **_common(meta, provs))

    def set_value(self, meta: Meta, name: Token, value: s.Expr) -> s.SetValue:
        return s.SetValue(_ident(name), value, **_common(meta))

    def end_turn(self, meta: Meta) -> s.EndTurn:
        return s.EndTurn(**_common(meta))

    def let(self, meta: Meta, name: Token, value: s.Expr, provs: _ProvTree) -> s.Let:
        return s.Let(_ident(name), value, **_common(meta, provs))

    def merge(self, meta: Meta, var: Token, collection: s.Expr, where: s.Expr | None) -> s.Merge:
        return s.Merge(_ident(var), collection, where, **_common(meta))

    def reverse(self, meta: Meta) -> s.Reverse:
        return s.Reverse(**_common(meta))

    def next_turn(self, meta: Meta, seat: s.Expr) -> s.NextTurn:
        return s.NextTurn(seat, **_common(meta))

    def swap(self, meta: Meta, *parts: Token | s.Expr) -> s.Swap:
        seat, other = cast("tuple[s.Expr, s.Expr]", parts[-2:])  # the rule ends in `"of" expr "with" expr`
        return s.Swap(_idents(parts[:-2]), seat, other, **_common(meta))

    def pass_zone(self, meta: Meta, zone: Token) -> s.PassZone:
        return s.PassZone(_ident(zone), **_common(meta))

    def no_answer(self, meta: Meta, seat: s.Expr) -> s.NoAnswer:
        return s.NoAnswer(seat, **_common(meta))

    def window(self, meta: Meta, *parts: s.Clause | _ProvTree) -> s.Window:
        return s.Window(**_block(meta, parts))

    def window_plays(self, meta: Meta, *parts: Token | _ProvTree) -> s.WindowPlays:
        return s.WindowPlays(_idents(parts), **_common(meta, _last_provs(parts)))

    def window_open(self, meta: Meta, provs: _ProvTree) -> s.WindowOpen:
        return s.WindowOpen(**_common(meta, provs))

    def window_when(self, meta: Meta, when: s.Expr, provs: _ProvTree) -> s.WindowWhen:
        return s.WindowWhen(when, **_common(meta, provs))

    def turn(self, meta: Meta, *parts: s.Clause | _ProvTree) -> s.Turn:
        return s.Turn(**_block(meta, parts))

    def turn_play(self, meta: Meta, *parts: Token | Tree[Token] | s.Expr | None | _ProvTree) -> s.PlayStep:
        # plays, then `or pass` or None, a guard or None, provs
        when = cast("s.Expr | None", parts[-2])  # the rule ends in `[guard] provs`
        return s.PlayStep(_idents(parts[:-3]), parts[-3] is not None, when, False,
                          **_common(meta, _last_provs(parts)))

    def turn_may_play(self, meta: Meta, *parts: Token | s.Expr | None | _ProvTree) -> s.PlayStep:
        # plays, a guard or None, provs: a pass is always open
        when = cast("s.Expr | None", parts[-2])  # the rule ends in `[guard] provs`
        return s.PlayStep(_idents(parts[:-2]), True, when, True, **_common(meta, _last_provs(parts)))

    def turn_may_play_any(self, meta: Meta, *parts: Token | s.Expr | None | _ProvTree) -> s.PlayStep:
        # plays, a guard or None, provs: plays until the seat passes
        when = cast("s.Expr | None", parts[-2])  # the rule ends in `[guard] provs`
        return s.PlayStep(_idents(parts[:-2]), True, when, True, True, **_common(meta, _last_provs(parts)))

    def turn_draw(self, meta: Meta, count: s.Expr, source: Token, dest: Token, when: s.Expr | None,
                  provs: _ProvTree) -> s.Draw:
        return s.Draw(count, _ident(source), _ident(dest), when, **_common(meta, provs))

    def guard(self, meta: Meta, when: s.Expr) -> s.Expr:
        return when

    def round_end(self, meta: Meta, name: Token, when: s.Expr, provs: _ProvTree) -> s.RoundEnd:
        return s.RoundEnd(_ident(name), when, **_common(meta, provs))

    def final(self, meta: Meta, name: Token, seat_order: Tree[Token] | None, when: s.Expr,
              *parts: s.Clause | _ProvTree) -> s.Final:
        return s.Final(_ident(name), when, seat_order is not None, **_block(meta, parts))

    def score(self, meta: Meta, seat: Token, value: s.Expr, provs: _ProvTree) -> s.Score:
        return s.Score(_ident(seat), value, **_common(meta, provs))

    def match(self, meta: Meta, *parts: s.Clause | _ProvTree) -> s.Match:
        return s.Match(**_block(meta, parts))

    def deck_rule(self, meta: Meta, name: Token, when: s.Expr, provs: _ProvTree) -> s.DeckRule:
        return s.DeckRule(_ident(name), when, **_common(meta, provs))

    def decks(self, meta: Meta, count: Token, provs: _ProvTree) -> s.Decks:
        return s.Decks(s.Number(_integer(count), _tspan(count)), **_common(meta, provs))

    def display(self, meta: Meta, *parts: s.Clause | _ProvTree) -> s.Display:
        return s.Display(**_block(meta, parts))

    def display_colour(self, meta: Meta, attribute: Token, value: Token | s.Number, colour: Token,
                       symbol: Token | None, provs: _ProvTree) -> s.Look:
        text = _string(symbol) if symbol else None
        return s.Look(_ident(attribute), _value(value), _ident(colour), text, **_common(meta, provs))

    def display_symbol(self, meta: Meta, attribute: Token, value: Token | s.Number, symbol: Token,
                       provs: _ProvTree) -> s.Look:
        return s.Look(_ident(attribute), _value(value), None, _string(symbol), **_common(meta, provs))

    def teams_opposite(self, meta: Meta, provs: _ProvTree) -> s.Teams:
        return s.Teams("opposite", (), **_common(meta, provs))

    def teams_listed(self, meta: Meta, *parts: tuple[s.Number, ...] | _ProvTree) -> s.Teams:
        teams = cast("tuple[tuple[s.Number, ...], ...]", parts[:-1])  # each a `team`'s, and only the last is provs
        return s.Teams("listed", teams, **_common(meta, _last_provs(parts)))

    def team(self, meta: Meta, *tokens: Token) -> tuple[s.Number, ...]:  # the seat numbers of one team
        return tuple(s.Number(_integer(t), _tspan(t)) for t in tokens if t.type == "INT")

    # -- editions and variants: items are clauses of the kinds below, and whole clauses
    def edition(self, meta: Meta, name: Token, *parts: s.Clause | _ProvTree) -> s.Edition:
        return s.Edition(_ident(name), **_block(meta, parts))

    def variant(self, meta: Meta, name: Token, *parts: s.Clause | _ProvTree) -> s.Variant:
        return s.Variant(_ident(name), **_block(meta, parts))

    def option_name(self, meta: Meta, language: Token, text: Token, provs: _ProvTree) -> s.Label:
        return s.Label(_ident(language), _string(text), **_common(meta, provs))

    def option_language(self, meta: Meta, language: Token, provs: _ProvTree) -> s.Language:
        return s.Language(_ident(language), **_common(meta, provs))

    def option_requires(self, meta: Meta, *parts: Token | _ProvTree) -> s.Requires:
        return s.Requires(_idents(parts), **_common(meta, _last_provs(parts)))

    def option_combines(self, meta: Meta, *parts: Token | _ProvTree) -> s.Combines:
        return s.Combines(_idents(parts), **_common(meta, _last_provs(parts)))

    def option_replace(self, meta: Meta, clause: s.Clause) -> s.Replace:
        return s.Replace(clause, **_common(meta))

    def option_extend(self, meta: Meta, clause: s.Clause) -> s.Extend:
        return s.Extend(clause, **_common(meta))

    def option_add(self, meta: Meta, clause: s.Clause) -> s.Add:
        return s.Add(clause, **_common(meta))

    def option_remove(self, meta: Meta, removal: _Removal, provs: _ProvTree) -> s.Remove:
        return s.Remove(*removal, **_common(meta, provs))

    def option_for(self, meta: Meta, *parts: Token | s.Clause | _ProvTree) -> s.For:
        items = tuple(t for t in parts[:-1] if isinstance(t, s.Clause))
        return s.For(_idents(parts), **_common(meta, _last_provs(parts), items))

    # `remove KIND NAME`
    rm_play, rm_card, rm_zone, rm_param, rm_define, rm_attribute, rm_deck, rm_round_end, rm_final, rm_window = (
        _removal(k) for k in ("play", "card", "zone", "param", "define", "attribute", "deck", "round_end", "final",
                              "window"))
    rm_teams = _removal("teams")

    def match_until(self, meta: Meta, when: s.Expr, provs: _ProvTree) -> s.Until:
        return s.Until(when, **_common(meta, provs))

    def match_winner(self, meta: Meta, winner: Tree[Token], provs: _ProvTree) -> s.Winner:
        return s.Winner(winner.data, **_common(meta, provs))

    def match_starter(self, meta: Meta, seat: s.Expr, provs: _ProvTree) -> s.Starter:
        return s.Starter(seat, **_common(meta, provs))

    # -- expressions
    def if_expr(self, meta: Meta, cond: s.Expr, then: s.Expr, otherwise: s.Expr) -> s.If:
        return s.If(cond, then, otherwise, _span(meta))

    def quantifier(self, meta: Meta, quantity: Tree[Token], var: Token, collection: s.Expr,
                   body: s.Expr) -> s.Quantifier:
        return s.Quantifier(quantity.data, _ident(var), collection, body, _span(meta))

    def or_op(self, meta: Meta, left: s.Expr, right: s.Expr) -> s.Binary:
        return s.Binary("or", left, right, _span(meta))

    def and_op(self, meta: Meta, left: s.Expr, right: s.Expr) -> s.Binary:
        return s.Binary("and", left, right, _span(meta))

    def not_op(self, meta: Meta, operand: s.Expr) -> s.Unary:
        return s.Unary("not", operand, _span(meta))

    def compare(self, meta: Meta, left: s.Expr, op: Token, right: s.Expr) -> s.Binary:
        return s.Binary(str(op), left, right, _span(meta))

    def binary(self, meta: Meta, left: s.Expr, op: Token, right: s.Expr) -> s.Binary:
        return s.Binary(str(op), left, right, _span(meta))

    def negate(self, meta: Meta, minus: Token, operand: s.Expr) -> s.Unary:
        return s.Unary("-", operand, _span(meta))

    def attr(self, meta: Meta, obj: s.Expr, name: Token) -> s.Attr:
        return s.Attr(obj, _ident(name), _span(meta))

    def zone_of(self, meta: Meta, zone: Token, seat: s.Expr) -> s.ZoneOf:
        return s.ZoneOf(_ident(zone), seat, _span(meta))

    def number(self, meta: Meta, digits: Token) -> s.Number:
        return s.Number(_integer(digits), _span(meta))

    def name(self, meta: Meta, name: Token) -> s.Name:
        return s.Name(str(name), _span(meta))

    def call(self, meta: Meta, function: Token, *args: s.Expr | None) -> s.Call:
        return s.Call(_ident(function), tuple(a for a in args if a is not None), _span(meta))

    def each_arg(self, meta: Meta, var: Token, collection: s.Expr, body: s.Expr) -> s.EachArg:
        return s.EachArg(_ident(var), collection, body, False, _span(meta))

    def where_arg(self, meta: Meta, var: Token, collection: s.Expr, cond: s.Expr) -> s.EachArg:
        return s.EachArg(_ident(var), collection, cond, True, _span(meta))
