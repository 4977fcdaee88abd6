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
from contextvars import ContextVar
from functools import lru_cache
from importlib.resources import files

import lark
from lark import Lark, Token, Transformer, Tree, v_args
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken, VisitError

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


class _WholeWords:
    """Offers NAME to the lexer in every parser state, so that `playy` is one unexpected name
    rather than the keyword `play` followed by `y`: the longest match wins, and a name that
    spells a keyword the state expects still becomes that keyword."""

    always_accept = ("NAME",)

    def process(self, stream):
        return stream


class _Tree(Tree):
    """A parse tree node that knows its height, so that a chain too deep fails as soon as it is
    built (`a + a + ...` nests on the left, where the parser's stack stays flat) and nothing
    recursive ever walks it. Lark's helper rules (`_name`) are spliced into their parent, which
    measures their children itself; skipping them keeps long lists linear."""

    def __init__(self, data, children, meta=None):
        super().__init__(data, children, meta)
        self.height = 0
        if not data.startswith("_"):
            deepest = None
            for child in children:
                if isinstance(child, _Tree) and (deepest is None or child.height > deepest.height):
                    deepest = child
            self.height = 1 + (deepest.height if deepest is not None else 0)
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
        return list(_ToAst().transform(_read(text)).children)
    except UnexpectedInput as e:
        raise RulesError([_syntax_error(e, text, file)], text) from None
    except _Located as e:
        raise RulesError([Diagnostic("error", e.message, e.span, e.hint, file)], text) from None
    except VisitError as wrapped:
        e = wrapped.orig_exc
        if not isinstance(e, _Located):
            raise
        raise RulesError([Diagnostic("error", e.message, e.span, e.hint, file)], text) from None
    finally:
        _ORIGIN.reset(token)


def _read(text: str) -> Tree:
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
    return run.feed_eof(token)


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
        char = text[e.pos_in_stream] if e.pos_in_stream < len(text) else ""
        if char == '"':  # the span runs to the end of the line, where the string should have ended
            end = text.find("\n", e.pos_in_stream)
            width = (len(text) if end < 0 else end) - e.pos_in_stream
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
    if isinstance(e, UnexpectedEOF) or (isinstance(e, UnexpectedToken) and e.token.type == "$END"):
        last = text.rstrip().splitlines() or [""]
        span = Span.point(len(last), len(last[-1]) + 1)
        hint = "a block is not closed: add '}'" if "RBRACE" in expected else f"expected {wanted}"
        return Diagnostic("error", "the file ends in the middle of a clause", span, hint, file)
    token: Token = e.token
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


def _span(meta) -> Span:
    return Span(meta.line, meta.column, meta.end_line, meta.end_column, _ORIGIN.get())


def _tspan(token: Token) -> Span:
    return Span(token.line, token.column, token.end_line, token.end_column, _ORIGIN.get())


def _ident(token: Token) -> s.Ident:
    return s.Ident(str(token), _tspan(token))


def _string(token: Token) -> str:
    """The text of a string literal: `\\"`, `\\\\` and `\\n` are its only escapes, read left to right."""
    return re.sub(r'\\(["\\n])', lambda e: "\n" if e.group(1) == "n" else e.group(1), str(token)[1:-1])


def _integer(token: Token) -> int:
    digits = str(token).lstrip("0") or "0"  # int() refuses a long string, even of zeros
    if len(digits) > MAX_DIGITS:
        raise _Located(f"the number {digits[:12]}{'...' if len(digits) > 12 else ''} is too large",
                       _tspan(token), f"numbers have at most {MAX_DIGITS} digits")
    return int(digits)


def _value(part) -> s.Ident | s.Number:
    """An attribute's value as a clause writes it: an enum value's name or a number."""
    return part if isinstance(part, s.Number) else _ident(part)


def _provs(tree) -> tuple[s.Prov, ...]:
    return tuple(tree.children) if isinstance(tree, Tree) else ()


def _seats(tree):
    """`any seat`, `any other seat`, `self`, or an expression naming one seat."""
    if isinstance(tree, Tree) and tree.data == "seat_expr":
        e = tree.children[0]
        return "self_seat" if isinstance(e, s.Name) and e.id == "self" else e
    return tree.data


def _removal(kind: str):
    """The transformer method of `remove KIND NAME`: (kind, name)."""
    return lambda self, meta, c: (kind, _ident(c[0]) if c else None)


def _node(cls: type[s.Clause], meta, provs, *fields, items=()) -> s.Clause:
    """A clause of class `cls`, its fields in their order, its provenance, span and items."""
    return cls(*fields, provs=_provs(provs), span=_span(meta), items=tuple(items))


@v_args(meta=True)
class _ToAst(Transformer):
    """Builds a `syntax` node of its own class for each clause and block item."""

    # -- provenance
    def source(self, meta, c):
        return s.Prov("source", _string(c[0]), _span(meta))

    def ruling(self, meta, c):
        return s.Prov("ruling", _string(c[0]), _span(meta))

    def assumed(self, meta, c):
        return s.Prov("assumed", _string(c[0]), _span(meta))

    # -- small pieces
    def int(self, meta, c):
        value = _integer(c[-1])
        return s.Number(-value if len(c) == 2 else value, _span(meta))

    def range(self, meta, c):
        return (c[0], c[1])

    def label(self, meta, c):
        return (str(c[0]), _string(c[1]))

    def enum_value(self, meta, c):
        return s.EnumValue(_ident(c[0]), tuple(c[1:]))

    # -- header and components
    def game(self, meta, c):
        return _node(s.Game, meta, c[-1], _string(c[0]), items=c[1:-1])

    def game_name(self, meta, c):
        return _node(s.Label, meta, c[2], _ident(c[0]), _string(c[1]))

    def document(self, meta, c):
        return _node(s.Document, meta, c[2], s.Ident(_string(c[0]), _tspan(c[0])), _string(c[1]))

    def players(self, meta, c):
        if isinstance(c[0], tuple):
            return _node(s.Players, meta, c[-1], *c[0], None)
        return _node(s.Players, meta, c[-1], c[0], c[-2], tuple(c[:-1]))

    def param(self, meta, c):
        return _node(s.Param, meta, c[3], _ident(c[0]), c[1], *c[2])

    def define(self, meta, c):
        params = tuple(_ident(t) for t in c[1:-2] if t is not None)
        return _node(s.Define, meta, c[-1], _ident(c[0]), params, c[-2])

    def enum_attribute(self, meta, c):
        return _node(s.EnumAttribute, meta, c[-1], _ident(c[0]), tuple(c[1:-1]))

    def int_attribute(self, meta, c):
        return _node(s.IntAttribute, meta, c[2], _ident(c[0]), *c[1])

    def card(self, meta, c):
        return _node(s.Card, meta, c[-1], _ident(c[0]), items=c[1:-1])

    def card_each(self, meta, c):
        return _node(s.Each, meta, c[1], _ident(c[0]))

    def card_fixed(self, meta, c):
        return _node(s.Fixed, meta, c[2], _ident(c[0]), _value(c[1]))

    def card_copies(self, meta, c):
        return _node(s.Copies, meta, c[1], s.Number(_integer(c[0]), _tspan(c[0])))

    def card_face(self, meta, c):
        return _node(s.Face, meta, c[2], _string(c[1]), _ident(c[0]) if c[0] is not None else None)

    def card_mark(self, meta, c):
        count = s.Number(_integer(c[1]), _tspan(c[1])) if c[1] is not None else None
        return _node(s.Mark, meta, c[3], _ident(c[0]), count, c[2])

    def card_name(self, meta, c):
        return _node(s.Label, meta, c[2], _ident(c[0]), _string(c[1]))

    def zone(self, meta, c):
        layout = c[3].data if c[3] is not None else "cards"
        return _node(s.Zone, meta, c[4], _ident(c[0]), c[1].data, c[2].data, layout)

    # -- procedure
    def setup(self, meta, c):
        return _node(s.Setup, meta, c[-1], items=c[:-1])

    def cleanup(self, meta, c):
        return _node(s.Cleanup, meta, c[-1], items=c[:-1])

    def shuffle_deck(self, meta, c):
        return _node(s.Shuffle, meta, c[1], _ident(c[0]))

    def deal(self, meta, c):
        return _node(s.Deal, meta, c[4], c[0], _ident(c[1]), _ident(c[2]), c[3])

    def all_cards(self, meta, c):
        return None

    def move(self, meta, c):
        return _node(s.Move, meta, c[4], c[0], _ident(c[1]), _ident(c[2]), c[3])

    def play(self, meta, c):
        return _node(s.Play, meta, c[-1], _ident(c[0]), items=c[1:-1])

    def play_card(self, meta, c):
        return _node(s.CardFrom, meta, c[2], _ident(c[0]), c[1])

    def play_with(self, meta, c):
        return _node(s.With, meta, c[3], _ident(c[0]), _ident(c[1]), c[2])

    def play_to(self, meta, c):
        return _node(s.To, meta, c[2], _ident(c[0]), _seats(c[1]) if c[1] is not None else None)

    def play_new_pile(self, meta, c):
        return _node(s.NewPile, meta, c[1], c[0])

    def play_onto_pile(self, meta, c):
        return _node(s.OntoPile, meta, c[1], c[0])

    def play_choose_seat(self, meta, c):
        return _node(s.Choose, meta, c[3], "seat", _ident(c[0]), None, _seats(c[1]), c[2])

    def play_choose_pile(self, meta, c):
        return _node(s.Choose, meta, c[4], "pile", _ident(c[0]), _ident(c[1]), _seats(c[2]), c[3])

    def move_cards(self, meta, c):  # count or None for all, at random, binder or None, from, to, filter or None
        binder = _ident(c[2]) if c[2] is not None else None
        return _node(s.MoveCards, meta, None, c[0], c[1] is not None, binder, c[3], c[4], c[5])

    def move_pile(self, meta, c):
        return _node(s.MovePile, meta, None, c[0], c[1])

    def play_then(self, meta, c):  # (effect, guard or None)
        return self._then(meta, c)

    def turn_then(self, meta, c):  # (effect, guard or None): an effect as a turn step
        return self._then(meta, c)

    @staticmethod
    def _then(meta, c):
        """An effect with its provenance; with `when COND`, a `Guarded` holding it."""
        effect, when = c[0], c[1]
        if when is None:
            return effect.replace(provs=_provs(c[2]), span=_span(meta))
        return _node(s.Guarded, meta, c[2], effect, when)

    def play_meld(self, meta, c):
        low, high = c[1]
        return _node(s.Meld, meta, c[4], _ident(c[0]), low, high, _ident(c[2]), c[3])

    def play_choose_value(self, meta, c):
        return _node(s.ChooseValue, meta, c[3], _ident(c[0]), _ident(c[1]), c[2])

    def set_value(self, meta, c):
        return _node(s.SetValue, meta, None, _ident(c[0]), c[1])

    def end_turn(self, meta, c):
        return _node(s.EndTurn, meta, None)

    def let(self, meta, c):
        return _node(s.Let, meta, c[2], _ident(c[0]), c[1])

    def merge(self, meta, c):
        return _node(s.Merge, meta, None, _ident(c[0]), c[1], c[2])

    def reverse(self, meta, c):
        return _node(s.Reverse, meta, None)

    def next_turn(self, meta, c):
        return _node(s.NextTurn, meta, None, c[0])

    def swap(self, meta, c):
        return _node(s.Swap, meta, None, tuple(_ident(t) for t in c[:-2]), c[-2], c[-1])

    def pass_zone(self, meta, c):
        return _node(s.PassZone, meta, None, _ident(c[0]))

    def no_answer(self, meta, c):
        return _node(s.NoAnswer, meta, None, c[0])

    def window(self, meta, c):
        return _node(s.Window, meta, c[-1], items=c[:-1])

    def window_plays(self, meta, c):
        return _node(s.WindowPlays, meta, c[-1], tuple(_ident(t) for t in c[:-1]))

    def window_open(self, meta, c):
        return _node(s.WindowOpen, meta, c[-1])

    def window_when(self, meta, c):
        return _node(s.WindowWhen, meta, c[1], c[0])

    def turn(self, meta, c):
        return _node(s.Turn, meta, c[-1], items=c[:-1])

    def turn_play(self, meta, c):  # plays, or_pass, guard or None
        names = tuple(_ident(t) for t in c[:-3])
        return _node(s.PlayStep, meta, c[-1], names, c[-3] is not None, c[-2], False)

    def turn_may_play(self, meta, c):  # plays, guard or None: a pass is always open
        names = tuple(_ident(t) for t in c[:-2])
        return _node(s.PlayStep, meta, c[-1], names, True, c[-2], True)

    def turn_may_play_any(self, meta, c):  # plays, guard or None: plays until the seat passes
        names = tuple(_ident(t) for t in c[:-2])
        return _node(s.PlayStep, meta, c[-1], names, True, c[-2], True, True)

    def turn_draw(self, meta, c):
        return _node(s.Draw, meta, c[4], c[0], _ident(c[1]), _ident(c[2]), c[3])

    def guard(self, meta, c):
        return c[0]

    def round_end(self, meta, c):
        return _node(s.RoundEnd, meta, c[2], _ident(c[0]), c[1])

    def final(self, meta, c):  # name, in seat order, condition, steps
        return _node(s.Final, meta, c[-1], _ident(c[0]), c[2], c[1] is not None, items=c[3:-1])

    def score(self, meta, c):
        return _node(s.Score, meta, c[2], _ident(c[0]), c[1])

    def match(self, meta, c):
        return _node(s.Match, meta, c[-1], items=c[:-1])

    def deck_rule(self, meta, c):
        return _node(s.DeckRule, meta, c[2], _ident(c[0]), c[1])

    def decks(self, meta, c):
        return _node(s.Decks, meta, c[1], s.Number(_integer(c[0]), _tspan(c[0])))

    def display(self, meta, c):
        return _node(s.Display, meta, c[-1], items=c[:-1])

    def display_colour(self, meta, c):  # attribute, value, colour, symbol or None
        symbol = _string(c[3]) if c[3] else None
        return _node(s.Look, meta, c[4], _ident(c[0]), _value(c[1]), _ident(c[2]), symbol)

    def display_symbol(self, meta, c):  # attribute, value, symbol
        return _node(s.Look, meta, c[3], _ident(c[0]), _value(c[1]), None, _string(c[2]))

    def teams_opposite(self, meta, c):
        return _node(s.Teams, meta, c[0], "opposite", ())

    def teams_listed(self, meta, c):
        return _node(s.Teams, meta, c[-1], "listed", tuple(c[:-1]))

    def team(self, meta, c):  # the seat numbers of one team
        return tuple(s.Number(_integer(t), _tspan(t)) for t in c if t.type == "INT")

    # -- editions and variants: items are clauses of the kinds below, and whole clauses
    def edition(self, meta, c):
        return _node(s.Edition, meta, c[-1], _ident(c[0]), items=c[1:-1])

    def variant(self, meta, c):
        return _node(s.Variant, meta, c[-1], _ident(c[0]), items=c[1:-1])

    def option_name(self, meta, c):
        return _node(s.Label, meta, c[2], _ident(c[0]), _string(c[1]))

    def option_language(self, meta, c):
        return _node(s.Language, meta, c[1], _ident(c[0]))

    def option_requires(self, meta, c):
        return _node(s.Requires, meta, c[-1], tuple(_ident(t) for t in c[:-1]))

    def option_combines(self, meta, c):
        return _node(s.Combines, meta, c[-1], tuple(_ident(t) for t in c[:-1]))

    def option_replace(self, meta, c):
        return _node(s.Replace, meta, None, c[0])

    def option_extend(self, meta, c):
        return _node(s.Extend, meta, None, c[0])

    def option_add(self, meta, c):
        return _node(s.Add, meta, None, c[0])

    def option_remove(self, meta, c):  # (kind, name or None)
        return _node(s.Remove, meta, c[1], *c[0])

    def option_for(self, meta, c):
        names = tuple(_ident(t) for t in c if isinstance(t, Token))
        items = [t for t in c[:-1] if isinstance(t, s.Clause)]
        return _node(s.For, meta, c[-1], names, items=items)

    # `remove KIND NAME`: (kind, name), the kind as options.key() names clauses
    rm_play, rm_card, rm_zone, rm_param, rm_define, rm_attribute, rm_deck, rm_round_end, rm_final, rm_window = (
        _removal(k) for k in ("play", "card", "zone", "param", "define", "attribute", "deck", "round_end", "final",
                              "window"))
    rm_teams = _removal("teams")

    def match_until(self, meta, c):
        return _node(s.Until, meta, c[1], c[0])

    def match_winner(self, meta, c):
        return _node(s.Winner, meta, c[1], c[0].data)

    def match_starter(self, meta, c):
        return _node(s.Starter, meta, c[1], c[0])

    # -- expressions
    def if_expr(self, meta, c):
        return s.If(c[0], c[1], c[2], _span(meta))

    def quantifier(self, meta, c):
        return s.Quantifier(c[0].data, _ident(c[1]), c[2], c[3], _span(meta))

    def or_op(self, meta, c):
        return s.Binary("or", c[0], c[1], _span(meta))

    def and_op(self, meta, c):
        return s.Binary("and", c[0], c[1], _span(meta))

    def not_op(self, meta, c):
        return s.Unary("not", c[0], _span(meta))

    def compare(self, meta, c):
        return s.Binary(str(c[1]), c[0], c[2], _span(meta))

    def binary(self, meta, c):
        return s.Binary(str(c[1]), c[0], c[2], _span(meta))

    def negate(self, meta, c):
        return s.Unary("-", c[1], _span(meta))

    def attr(self, meta, c):
        return s.Attr(c[0], _ident(c[1]), _span(meta))

    def zone_of(self, meta, c):
        return s.ZoneOf(_ident(c[0]), c[1], _span(meta))

    def number(self, meta, c):
        return s.Number(_integer(c[0]), _span(meta))

    def name(self, meta, c):
        return s.Name(str(c[0]), _span(meta))

    def call(self, meta, c):
        args = tuple(a for a in c[1:] if a is not None)
        return s.Call(_ident(c[0]), args, _span(meta))

    def each_arg(self, meta, c):
        return s.EachArg(_ident(c[0]), c[1], c[2], False, _span(meta))

    def where_arg(self, meta, c):
        return s.EachArg(_ident(c[0]), c[1], c[2], True, _span(meta))
