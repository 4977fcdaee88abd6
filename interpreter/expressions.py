"""Typing expressions: a name resolved against the context's and the ruleset's, a define filled
in where it is called, each node given its type or a located error. The checker (check.py) and
its play and turn reader (plays.py) ask the `Typer` here for every expression they meet, as
jinja2's compiler asks idtracking.py about names; here too live the tables of names they share.
"""
from __future__ import annotations

import difflib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field, replace

from . import model as m
from . import syntax as s
from .diagnostics import Sink, Span
from .dispatch import unknown

MAX_DEFINE_NESTING = 4  # a define inside a define ...: keeps filled-in expressions shallow

# The context names each kind of expression sees, beyond the ruleset's own names.
GLOBAL = {"seats": "list:seat", "players": "int", "passes": "int", "direction": "int"}
PLAY_CARD = {**GLOBAL, "self": "seat", "card": "card"}
PLAY_TARGET = {**PLAY_CARD, "target": "zone", "owner": "seat"}
TURN_STEP = {**GLOBAL, "self": "seat", "passed": "bool"}
PLAY_VALUE = {**GLOBAL, "self": "seat"}  # a play of no card sees the seat playing and the names it chooses
SETUP = {"players": "int"}  # setup counts are known before play: numbers, params and players
SETUP_FILTER = {**SETUP, "seats": "list:seat", "card": "card"}  # a setup `where` reads the table as set so far
MARKS = "@marks"  # in a scope: `card.MARK` may be read (never a name: no identifier has an @)
DECK = {**SETUP, "card": "card", MARKS: ""}  # a deck rule reads a copy's attributes and marks
FACE = {"card": "card"}  # a mark's condition reads the face's attributes

# The functions of the language: name -> the forms it takes, as the hint shows them.
FUNCTIONS = {
    "count": "count(LIST or ZONE) or count(x in LIST where COND)",
    "sum": "sum(LIST of numbers) or sum(x in LIST: NUMBER)",
    "max": "max(LIST of numbers) or max(x in LIST: NUMBER)",
    "min": "min(LIST of numbers) or min(x in LIST: NUMBER)",
    "product": "product(LIST of numbers) or product(x in LIST: NUMBER)",
    "distinct": "distinct(LIST)", "piles": "piles(ZONE of piles)", "tops": "tops(ZONE of piles)",
    "top": "top(PILE or ZONE of cards)", "bottom": "bottom(PILE or ZONE of cards)", "cards": "cards(ZONE or PILE)",
    "values": "values(ATTRIBUTE)",
    "seat": "seat(NUMBER): the seat of that number, counted round the table", "index": "index(SEAT): the seat's number",
    "best": "best(x in LIST: NUMBER): the first element of a list of seats or cards with the largest number",
    "played_by": "played_by(CARD): the seat that played it this round",
    "team": "team(SEAT): the seats of its team", "partner": "partner(SEAT): the next seat of its team",
    "team_total": "team_total(SEAT): the sum of its team's totals",
}
TEAM_FUNCTIONS = ("team", "partner", "team_total")  # need a `teams` clause
MATCH_UNTIL = {**GLOBAL, "totals": "list:int", "round": "int"}
MATCH_STARTER = {**GLOBAL, "round": "int"}
LET_ROUND = {**GLOBAL, "round": "int"}  # a setup `let` reads the table as setup has laid it out, and the round
VALUE_TYPES = ("int", "bool", "seat", "card")  # and enum:ATTR: what a named value may hold
CONTEXTS = {"SETUP": SETUP, "DECK": {k: v for k, v in DECK.items() if k != MARKS}, "GLOBAL": GLOBAL,
            "PLAY_CARD": PLAY_CARD, "PLAY_TARGET": PLAY_TARGET,
            "TURN_STEP": TURN_STEP, "MATCH_UNTIL": MATCH_UNTIL, "MATCH_STARTER": MATCH_STARTER}
TRUTHS = {"true": True, "false": False}  # the truth values, names of every expression
CONTEXT_NAMES = {**PLAY_TARGET, **TURN_STEP, **MATCH_UNTIL, "pile": "pile",
                 **dict.fromkeys(TRUTHS, "bool")}  # no ruleset may define these



def _list(t: str) -> str:
    return "list:" + t


def _element(t: str) -> str | None:
    return t[5:] if t.startswith("list:") else None


def show(t: str) -> str:
    """A type as a message names it: `a number`, `a list of cards`."""
    return {"zone": "a zone of cards", "zone:piles": "a zone of piles", "int": "a number", "bool": "a truth value",
            "seat": "a seat",
            "card": "a card", "pile": "a pile"}.get(t) or (
        f"a list of {show(t[5:]).split(' ', 1)[1]}s" if t.startswith("list:")
        else f"a {t[5:]} value" if t.startswith("enum:") else t)


def near(word: str, choices: Iterable[str]) -> str:
    """A "did you mean" hint for a misspelled name, or ""."""
    close = difflib.get_close_matches(word, list(choices), n=1)
    return f"did you mean '{close[0]}'?" if close else ""


def _free_names(e: s.Expr, bound: frozenset[str] = frozenset()) -> Iterator[s.Name]:
    """The names an expression reads that none of its own binders binds."""
    match e:
        case s.Name(id=name):
            if name not in bound:
                yield e
        case s.Quantifier(var=var, collection=coll, body=body) | s.EachArg(var=var, collection=coll, body=body):
            yield from _free_names(coll, bound)
            yield from _free_names(body, bound | {var.text})
        case _:
            for x in s.children(e):
                yield from _free_names(x, bound)


def _calls(e: s.Expr) -> Iterator[s.Call]:
    """Every call in an expression."""
    return (x for x in s.walk(e) if isinstance(x, s.Call))


def _substitute(e: s.Expr, args: dict[str, s.Expr], depth: int) -> s.Expr:
    """`e` with each free name in `args` replaced by its argument, and each variable that `e`
    binds renamed apart (a `~` cannot be written, so no argument can name it)."""
    match e:
        case s.Name(id=name):
            return args.get(name, e)
        case s.Quantifier(var=var, collection=coll, body=body) | s.EachArg(var=var, collection=coll, body=body):
            fresh = s.Ident(f"{var.text}~{depth}", var.span)
            inner = {**args, var.text: s.Name(fresh.text, var.span)}
            return replace(e, var=fresh, collection=_substitute(coll, args, depth),
                           body=_substitute(body, inner, depth))
        case s.Call(args=call_args):
            return replace(e, args=tuple(_substitute(a, args, depth) for a in call_args))
        case s.Attr(obj=obj):
            return replace(e, obj=_substitute(obj, args, depth))
        case s.ZoneOf(seat=seat):
            return replace(e, seat=_substitute(seat, args, depth))
        case s.Binary(left=left, right=right):
            return replace(e, left=_substitute(left, args, depth), right=_substitute(right, args, depth))
        case s.Unary(operand=x):
            return replace(e, operand=_substitute(x, args, depth))
        case s.If(cond=c, then=a, otherwise=b):
            return replace(e, cond=_substitute(c, args, depth), then=_substitute(a, args, depth),
                           otherwise=_substitute(b, args, depth))
        case s.Number():
            return e
    raise unknown(_substitute, e)


def provenance(provs: tuple[s.Prov, ...], span: Span) -> m.Provenance:
    """A clause's sources, rulings and assumptions, and where it stands."""
    return m.Provenance(
        tuple(p.text for p in provs if p.kind == "source"),
        tuple(p.text for p in provs if p.kind == "ruling"),
        tuple(p.text for p in provs if p.kind == "assumed"),
        span.line, span.column)


@dataclass
class Names:
    """What the first pass finds: every definition by name, with where it was defined."""

    params: dict[str, m.Param] = field(default_factory=dict)
    attributes: dict[str, m.Attribute] = field(default_factory=dict)
    enum_values: dict[str, list[str]] = field(default_factory=dict)  # value -> attributes
    zones: dict[str, m.Zone] = field(default_factory=dict)
    plays: dict[str, s.Play] = field(default_factory=dict)
    values: dict[str, m.Value] = field(default_factory=dict)  # the named values, per match first
    documents: dict[str, m.Document] = field(default_factory=dict)
    spans: dict[tuple[str, str], Span] = field(default_factory=dict)
    broken: set[str] = field(default_factory=set)  # attributes defined with an error already reported
    partial: set[str] = field(default_factory=set)  # enum attributes with a value refused (reported)
    marks: dict[str, Span] = field(default_factory=dict)  # mark -> where first set
    used: set[tuple[str, str]] = field(default_factory=set)


class Typer:
    """Types the expressions of one ruleset against its `names`, reporting to `sink`."""

    def __init__(self, names: Names, sink: Sink):
        self.names = names
        self.sink = sink
        self.teams = False  # whether the ruleset has teams, which team(...) and its kin read
        self.defines: dict[str, s.Define] = {}
        self._expanding: list[str] = []  # the defines being filled in, outermost first
        self._recursive: set[str] = set()  # defines that call themselves: reported, never filled in
        self._declared: dict[str, m.Define] = {}  # each called define, typed as declared
        self._own_only: dict[str, bool] = {}  # define -> whether it reads only its parameters and the ruleset's names

    def declared(self) -> tuple[m.Define, ...]:
        """The defines some expression calls, typed as declared, in file order."""
        return tuple(self._declared[n] for n in self.defines if n in self._declared)

    def zone(self, ident: s.Ident, *, per_seat: bool | None = None, piles: bool | None = None) -> m.Zone | None:
        zone = self.names.zones.get(ident.text)
        if zone is None:
            self.sink.error(f"no zone '{ident.text}'", ident.span,
                            near(ident.text, self.names.zones) or "define it: zone NAME shared hidden")
            return None
        self.names.used.add(("zone", ident.text))
        if per_seat is not None and zone.per_seat != per_seat:
            self.sink.error(f"zone '{zone.name}' is {'per seat' if zone.per_seat else 'shared'}", ident.span,
                            f"this needs a {'per seat' if per_seat else 'shared'} zone")
            return None
        if piles is not None and zone.piles != piles:
            self.sink.error(f"zone '{zone.name}' {'holds piles' if zone.piles else 'holds cards, not piles'}",
                            ident.span, "this needs a zone declared with `piles`" if piles
                            else "this needs a zone of cards (declared without `piles`)")
            return None
        return zone

    def condition(self, expr: s.Expr, scope: dict[str, str]) -> m.Expr | None:
        return self.typed(expr, scope, "bool")

    def number(self, expr: s.Expr, scope: dict[str, str]) -> m.Expr | None:
        return self.typed(expr, scope, "int")

    def typed(self, expr: s.Expr, scope: dict[str, str], want: str) -> m.Expr | None:
        typed = self.expr(expr, scope)
        if typed is not None and typed.type != want:
            self.sink.error(f"this is {show(typed.type)}, but {show(want)} is needed here", expr.span,
                            "compare it (==, <, ...) to make a truth value" if want == "bool"
                            else "count(...) or sum(...) make a number")
            return None
        return typed

    def expr(self, e: s.Expr, scope: dict[str, str]) -> m.Expr | None:
        """Type one expression; report and return None when it does not fit."""
        match e:
            case s.Number(value):
                return m.Const(value, "int")
            case s.Name():
                return self._name(e, scope)
            case s.ZoneOf(zone, seat):
                z = self.zone(zone, per_seat=True)
                who = self.expr(seat, scope)
                if who is not None and who.type != "seat":
                    self.sink.error(f"'{zone.text} of ...' needs a seat, not {show(who.type)}", seat.span,
                                    "write e.g. hand of self, or row of s inside `some s in seats: ...`")
                    return None
                return m.ZoneRef(z.name, who, z.piles, "zone:piles" if z.piles else "zone") if z and who else None
            case s.Attr():
                return self._attr(e, scope)
            case s.Call():
                return self._call(e, scope)
            case s.Unary(op, operand):
                inner = self.typed(operand, scope, "bool" if op == "not" else "int")
                return m.Unary(op, inner, inner.type) if inner else None
            case s.If(cond, then, otherwise):
                c = self.condition(cond, scope)
                a, b = self.expr(then, scope), self.expr(otherwise, scope)
                if a and b and a.type != b.type:
                    self.sink.error(f"the branches differ: {show(a.type)} and {show(b.type)}", e.span,
                                    "make both branches the same kind of value")
                    return None
                return m.If(c, a, b, a.type) if c and a and b else None
            case s.Quantifier(kind, var, coll, body):
                c = self.expr(coll, scope)
                if c is None:
                    return None
                elem = _element(c.type)
                if elem is None:
                    self.sink.error(f"'{kind}' ranges over a list, not {show(c.type)}", coll.span,
                                    "e.g. some s in seats: ...")
                    return None
                if not self.bindable(var):
                    return None
                b = self.condition(body, {**scope, var.text: elem})
                return m.Quantifier(kind, var.text, c, b) if b else None
            case s.Binary():
                return self._binary(e, scope)
        self.sink.error("this expression cannot be used here", getattr(e, "span", None), "")
        return None

    def bindable(self, var: s.Ident) -> bool:
        """Whether a variable (of a quantifier, an each-argument, a define) may take this name:
        any but a truth value, which every expression reads as itself."""
        if var.text not in TRUTHS:
            return True
        self.sink.error(f"'{var.text}' is a truth value of the language", var.span, "pick another name")
        return False

    def _name(self, e: s.Name, scope: dict[str, str]) -> m.Expr | None:
        name = e.id
        if name in TRUTHS:
            return m.Const(TRUTHS[name], "bool")
        if name in scope:
            return m.Ref(name, scope[name])
        if name in self.names.params:
            self.names.used.add(("param", name))
            return m.ParamRef(name)
        if name in self.names.values:
            if "seats" not in scope:  # a count known before play, a deck rule, a mark
                self.sink.error(f"'{name}' is a value of the play, read once the round is under way", e.span,
                                "read values in conditions, effects and the score")
                return None
            self.names.used.add(("value", name))
            return m.ValueRef(name, self.names.values[name].type)
        if name in self.names.zones:
            zone = self.names.zones[name]
            self.names.used.add(("zone", name))
            zone_type = "zone:piles" if zone.piles else "zone"
            if not zone.per_seat:
                return m.ZoneRef(name, None, zone.piles, zone_type)
            if "self" in scope:
                return m.ZoneRef(name, m.Ref("self", "seat"), zone.piles, zone_type)
            self.sink.error(f"zone '{name}' is per seat: say whose", e.span, f"write e.g. {name} of s")
            return None
        if name in self.names.enum_values:
            attrs = self.names.enum_values[name]
            if len(attrs) > 1:
                self.sink.error(f"'{name}' is a value of {', '.join(attrs)}", e.span,
                                "rename one of the values so each names one thing")
                return None
            return m.Const(name, "enum:" + attrs[0])
        if name in self.names.attributes:
            self.sink.error(f"'{name}' is an attribute: say of which card", e.span,
                            f"write e.g. card.{name}, or values({name}) for all its values")
            return None
        known = list(scope) + list(self.names.params) + list(self.names.zones)
        self.sink.error(f"unknown name '{name}'", e.span, near(name, known) or
                        "names here: " + ", ".join(sorted(n for n in scope if n != MARKS)))
        return None

    def _attr(self, e: s.Attr, scope: dict[str, str]) -> m.Expr | None:
        obj = self.expr(e.obj, scope)
        if obj is None:
            return None
        name = e.attr.text
        if name in self.names.marks and name not in self.names.attributes:
            if MARKS not in scope:
                self.sink.error(f"'{name}' is a mark, read only where the deck is chosen", e.attr.span,
                                "copies of one face are alike in play: read marks in a `deck` clause")
                return None
            if obj.type != "card":
                self.sink.error(f"'.{name}' reads a card, not {show(obj.type)}", e.attr.span, f"write card.{name}")
                return None
            return m.AttrOf(obj, name, "bool")
        if name not in self.names.attributes:
            self.sink.error(f"no attribute '{name}'", e.attr.span, near(name, self.names.attributes) or
                            "attributes: " + ", ".join(self.names.attributes))
            return None
        self.names.used.add(("attribute", name))
        a = self.names.attributes[name]
        value_type = "enum:" + name if a.is_enum else "int"
        if obj.type == "card":
            return m.AttrOf(obj, name, value_type)
        if obj.type == "list:card":
            return m.AttrOf(obj, name, _list(value_type))
        self.sink.error(f"'.{name}' reads a card, not {show(obj.type)}", e.attr.span,
                        "e.g. top(pile).colour or tops(row of s).value")
        return None

    def _expand(self, call: s.Call, scope: dict[str, str]) -> m.Expr | None:
        """A call of a `define`: its body with the arguments put in place of its parameters,
        typed where it is called. The body's own variables are renamed first, so an argument
        can never be captured by them."""
        name = call.function.text
        clause = self.defines[name]
        params, body = clause.params, clause.body
        if name in self._recursive:  # reported where the define stands, by defines_sound
            return None
        if len(self._expanding) >= MAX_DEFINE_NESTING:
            self.sink.error(f"defines nest deeper than {MAX_DEFINE_NESTING} here", call.span,
                            "write out one of the inner defines")
            return None
        if len(call.args) != len(params) or any(isinstance(a, s.EachArg) for a in call.args):
            self.sink.error(f"'{name}' takes {len(params)} argument{'s' if len(params) != 1 else ''}", call.span,
                            f"write {name}({', '.join(p.text for p in params)})")
            return None
        self.names.used.add(("define", name))
        if not self._reads_only_its_own(name, clause):  # reported by defines_sound
            return None
        filled = _substitute(body, {p.text: a for p, a in zip(params, call.args, strict=True)}, len(self._expanding))
        self._expanding.append(name)
        try:
            typed = self.expr(filled, scope)
        finally:
            self._expanding.pop()
        args = [self.expr(a, scope) for a in call.args]
        known = [a for a in args if a is not None]
        if typed is None or len(known) < len(args):
            return None
        if name not in self._declared:
            self._declare(clause, known)
        return m.Defined(name, tuple(known), typed, typed.type)

    def _declare(self, clause: s.Define, args: list[m.Expr]) -> None:
        """The define typed as written, its parameters bound to the types of its first call's
        arguments. It typed there, so it types here; any message would repeat one already given."""
        name, params, body = clause.name, clause.params, clause.body
        sink, self.sink = self.sink, Sink(self.sink.file, self.sink.text)
        self._expanding.append(name.text)
        try:
            typed = self.expr(body, {**GLOBAL, **{p.text: a.type for p, a in zip(params, args, strict=True)}})
        finally:
            self._expanding.pop()
            self.sink = sink
        if typed is not None:
            self._declared[name.text] = m.Define(name.text, tuple(p.text for p in params), typed,
                                                 provenance(clause.provs, clause.span))

    def defines_sound(self) -> None:
        """Every define reads only what it is given, and none calls itself, directly or not."""
        for clause in self.defines.values():
            self._free_names_ok(clause)
        calls = {name: {c.function.text for c in _calls(clause.body) if c.function.text in self.defines}
                 for name, clause in self.defines.items()}
        for name, clause in self.defines.items():
            seen, todo = set(), list(calls[name])
            while todo:
                callee = todo.pop()
                if callee == name:
                    self._recursive.add(name)
                    self.sink.error(f"define '{name}' calls itself", clause.name.span,
                                    "a define may use other defines, but not in a circle")
                    break
                if callee not in seen:
                    seen.add(callee)
                    todo.extend(calls[callee])

    def _free_names_ok(self, clause: s.Define) -> bool:
        """A define sees its parameters, the ruleset's names and the global ones, nothing of
        the place it is called from: what it means does not depend on where it is used."""
        params, body = clause.params, clause.body
        allowed = self._allowed(clause)
        for name in _free_names(body):
            if name.id not in allowed:
                self.sink.error(f"define '{clause.name.text}' reads '{name.id}', which it is not given",
                                name.span, f"add it as a parameter: define {clause.name.text}("
                                + ", ".join([p.text for p in params] + [name.id]) + ")")
                return False
        return True

    def _reads_only_its_own(self, name: str, clause: s.Define) -> bool:
        """Whether the define reads only what `_allowed` gives it: asked at every call, worked
        out once a check."""
        known = self._own_only.get(name)
        if known is None:
            allowed = self._allowed(clause)
            known = self._own_only[name] = all(n.id in allowed for n in _free_names(clause.body))
        return known

    def _allowed(self, clause: s.Define) -> set[str]:
        return {p.text for p in clause.params} | set(GLOBAL) | set(TRUTHS) | set(self.names.params) \
            | set(self.names.zones) | set(self.names.enum_values) | set(self.names.attributes)

    def _call(self, e: s.Call, scope: dict[str, str]) -> m.Expr | None:
        fn = e.function.text
        signatures = FUNCTIONS
        if fn in self.defines:
            return self._expand(e, scope)
        if fn not in signatures:
            self.sink.error(f"no function '{fn}'", e.function.span,
                            near(fn, signatures) or "functions: " + ", ".join(signatures))
            return None
        if len(e.args) != 1:
            self.sink.error(f"{fn} takes one argument", e.span, signatures[fn])
            return None
        arg = e.args[0]
        if isinstance(arg, s.EachArg):
            return self._each(fn, arg, scope, signatures[fn])
        if fn == "values":
            if isinstance(arg, s.Name) and arg.id in self.names.attributes:
                self.names.used.add(("attribute", arg.id))
                a = self.names.attributes[arg.id]
                if a.is_enum:
                    return m.Const(tuple(v.name for v in a.values), "list:enum:" + a.name)
                return m.Const(tuple(range(a.low, a.high + 1)), "list:int")
            self.sink.error("values(...) takes an attribute's name", arg.span, signatures[fn])
            return None
        x = self.expr(arg, scope)
        if x is None:
            return None
        t = x.type
        if fn == "played_by":
            if t != "card":
                self.sink.error(f"played_by(...) takes a card, not {show(t)}", arg.span, signatures[fn])
                return None
            return m.Call(fn, (x,), "seat")
        if fn == "best":
            self.sink.error("best(...) takes x in LIST: NUMBER", arg.span, signatures[fn])
            return None
        if fn in TEAM_FUNCTIONS:
            return self._team_call(fn, x, arg)
        if fn in ("seat", "index"):
            want = "int" if fn == "seat" else "seat"
            if t != want:
                self.sink.error(f"{fn}(...) takes {show(want)}, not {show(t)}", arg.span, signatures[fn])
                return None
            return m.Call(fn, (x,), "seat" if fn == "seat" else "int")
        ok = {
            "count": t.startswith(("zone", "list:")),
            "sum": t == "list:int", "max": t == "list:int", "min": t == "list:int", "product": t == "list:int",
            "distinct": t.startswith("list:") and t != "list:pile",
            "piles": t == "zone:piles", "tops": t == "zone:piles",
            "top": t in ("pile", "zone"), "bottom": t in ("pile", "zone"), "cards": t in ("zone", "zone:piles", "pile"),
        }[fn]
        if not ok:
            self.sink.error(f"{fn}(...) does not take {show(t)}", arg.span, signatures[fn])
            return None
        result = {"count": "int", "sum": "int", "max": "int", "min": "int", "product": "int", "distinct": t,
                  "piles": "list:pile", "tops": "list:card", "top": "card", "bottom": "card",
                  "cards": "list:card"}[fn]
        return m.Call(fn, (x,), result)

    def _team_call(self, fn: str, x: m.Expr, arg: s.Expr) -> m.Expr | None:
        """`team(SEAT)`, `partner(SEAT)` and `team_total(SEAT)`: the ruleset's teams read."""
        if x.type != "seat":
            self.sink.error(f"{fn}(...) takes a seat, not {show(x.type)}", arg.span, FUNCTIONS[fn])
            return None
        if not self.teams:
            self.sink.error(f"{fn}(...) reads the teams, and the ruleset has none", arg.span,
                            "add a teams clause, e.g. teams opposite")
            return None
        return m.Call(fn, (x,), {"team": "list:seat", "partner": "seat", "team_total": "int"}[fn])

    def _each(self, fn: str, arg: s.EachArg, scope: dict[str, str], signature: str) -> m.Expr | None:
        if fn not in ("count", "sum", "max", "min", "product", "best") or (fn == "count") != arg.filter:
            self.sink.error(f"{fn}(x in ...) is not a form this function takes", arg.span, signature)
            return None
        coll = self.expr(arg.collection, scope)
        if coll is None:
            return None
        elem = _element(coll.type)
        if elem is None:
            self.sink.error(f"'{arg.var.text} in ...' ranges over a list, not {show(coll.type)}",
                            arg.collection.span, "e.g. piles(row of s) or seats")
            return None
        if fn == "best" and elem not in ("seat", "card"):
            self.sink.error(f"best(...) picks a seat or a card, not {show(elem)}", arg.collection.span,
                            "e.g. best(c in cards(trick): c.rank)")
            return None
        if not self.bindable(arg.var):
            return None
        body = self.typed(arg.body, {**scope, arg.var.text: elem}, "bool" if arg.filter else "int")
        return m.Each(fn, arg.var.text, coll, body, arg.filter, elem if fn == "best" else "int") if body else None

    def _binary(self, e: s.Binary, scope: dict[str, str]) -> m.Expr | None:
        op = e.op
        if op in ("and", "or"):
            a, b = self.condition(e.left, scope), self.condition(e.right, scope)
            return m.Op(op, a, b, "bool") if a and b else None
        a, b = self.expr(e.left, scope), self.expr(e.right, scope)
        if a is None or b is None:
            return None
        if op in ("+", "-", "*", "/", "%"):
            for side, x in (("left", a), ("right", b)):
                if x.type != "int":
                    self.sink.error(f"'{op}' needs numbers; the {side} side is {show(x.type)}",
                                    (e.left if side == "left" else e.right).span,
                                    "count(...) or sum(...) make a number")
                    return None
            return m.Op(op, a, b, "int")
        if a.type != b.type:
            self.sink.error(
                f"'{op}' compares {show(a.type)} with {show(b.type)}",
                e.span,
                "compare values of one kind, e.g. card.colour == top(pile).colour",
            )
            return None
        if op in ("<", "<=", ">", ">=") and a.type != "int":
            self.sink.error(f"'{op}' orders numbers, not {show(a.type)}", e.span, "use == or != here")
            return None
        return m.Op(op, a, b, "bool")
