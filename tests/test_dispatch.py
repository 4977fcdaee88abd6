"""Readers of the syntax and the model dispatch by node class: a class they do not know is an
internal error naming it, never read as another class (issue 13.2)."""
from __future__ import annotations

from dataclasses import dataclass, replace

import pytest

from cardrules.interpreter import model as m
from cardrules.interpreter import syntax as s
from cardrules.interpreter.check import check
from cardrules.interpreter.compile import compile_ruleset
from cardrules.interpreter.diagnostics import RulesError, Sink
from cardrules.interpreter.dispatch import UnknownNode, visit
from cardrules.interpreter.load import load_text
from cardrules.interpreter.parse import parse

from .conftest import RULESETS
from .helpers import QUICK

KLATS = RULESETS / "klats.rules"


class Teleport(s.Effect):
    """An effect the checker has no method for."""

    kind = "teleport"


@dataclass(frozen=True)
class Vanish:
    """A model effect the compiler has no method for, shaped like `NextTurn`: the `isinstance`
    chain it replaced compiled any such effect as `next turn to`."""

    seat: m.Ref = m.Ref("self", "seat")
    provenance: m.Provenance = m.NO_PROVENANCE


def _with_effect(clauses: list[s.Clause], play: str, effect: s.Clause) -> list[s.Clause]:
    return [c.replace(items=c.items + (effect,)) if isinstance(c, s.Play) and c.name.text == play else c
            for c in clauses]


def test_an_effect_the_checker_does_not_know_is_an_internal_error_naming_it():
    clauses = _with_effect(parse(QUICK, "quick.rules"), "jump", Teleport())
    with pytest.raises(UnknownNode, match="Plays does not know the node .*Teleport"):
        check(clauses, Sink("quick.rules", QUICK))


def test_the_checker_still_reads_the_effects_it_knows():
    clauses = _with_effect(parse(QUICK, "quick.rules"), "jump", s.Reverse())
    model = check(clauses, Sink("quick.rules", QUICK))
    assert model is not None
    assert [type(e) for e in next(p for p in model.plays if p.name == "jump").effects] == [m.NextTurn, m.Reverse]


def test_an_effect_the_compiler_does_not_know_raises_rather_than_compiling_as_next_turn():
    model = load_text(QUICK, "quick.rules").model
    plays = tuple(replace(p, effects=p.effects + (Vanish(),)) if p.name == "flip" else p for p in model.plays)
    with pytest.raises(UnknownNode, match="does not know the node .*Vanish"):
        compile_ruleset(replace(model, plays=plays), 2)


def test_visit_takes_the_method_of_the_nearest_base_class():
    class Reader:
        def _read_Effect(self, node):
            return "an effect"

        def _read_Reverse(self, node):
            return "reverse"

    assert visit(Reader(), "_read_", s.Reverse())(None) == "reverse"
    assert visit(Reader(), "_read_", s.EndTurn())(None) == "an effect"
    with pytest.raises(UnknownNode, match="Reader does not know the node .*Label"):
        visit(Reader(), "_read_", s.Label(s.Ident("en"), "x"))


def test_a_guarded_merge_is_a_located_error_not_an_internal_one():
    """`then merge ... when C` parses; the checker's effect chain had no case for it and failed
    an assertion. Its method now says where and what to do."""
    text = KLATS.read_text(encoding="utf-8")
    merge = "then merge other in piles(target) where top(other).value == card.value into pile"
    assert text.count(merge) == 1
    with pytest.raises(RulesError) as raised:
        load_text(text.replace(merge, merge + " when count(hand of self) > 0"), "klats.rules")
    [error] = raised.value.diagnostics
    assert "takes no `when`" in error.message and error.span.line == text[:text.index(merge)].count("\n") + 1


def test_walk_visits_every_sub_expression_in_the_order_written():
    count = s.Call(s.Ident("count"), (s.EachArg(s.Ident("x"), s.Name("hand"), s.Name("ok"), True),))
    e = s.Binary("+", count, s.If(s.Attr(s.Name("card"), s.Ident("n")), s.Number(1), s.Unary("-", s.Number(2))))
    assert [type(x).__name__ for x in s.walk(e)] == [
        "Binary", "Call", "EachArg", "Name", "Name", "If", "Attr", "Name", "Number", "Unary", "Number"]
    assert [x.id for x in s.walk(e) if isinstance(x, s.Name)] == ["hand", "ok", "card"]


def test_expression_walkers_refuse_a_node_they_do_not_know():
    @dataclass(frozen=True)
    class Random:
        type: str = "int"

    inside = m.Op("+", m.Const(1, "int"), Random(), "int")
    for walker in (m.children, lambda e: m.reads_only(e, {"players"}), m.names_read):
        with pytest.raises(UnknownNode, match="Random"):
            walker(Random())
    with pytest.raises(UnknownNode, match="Random"):  # found below a node it knows, too
        m.names_read(inside)
    with pytest.raises(UnknownNode, match="Random"):
        list(s.walk(s.Unary("-", Random())))  # type: ignore[arg-type]
    assert m.names_read(m.Op("+", m.Ref("round", "int"), m.ZoneRef("hand", m.Ref("self", "seat"), False), "int")) \
        == {"round", m.ZONES, "self"}
