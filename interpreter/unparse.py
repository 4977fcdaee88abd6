"""Model expressions back to the text a rules author would write: for messages that say which
condition forbids a move, for export and for diffs."""
from __future__ import annotations

from . import model as m

_PRECEDENCE = {"or": 1, "and": 2, "==": 4, "!=": 4, "<": 4, "<=": 4, ">": 4, ">=": 4,
               "+": 5, "-": 5, "*": 6, "/": 6, "%": 6}


def unparse(e: object, outer: int = 0) -> str:
    match e:
        case None:
            return "always"
        case m.Const(value=tuple() as values):
            return "[" + ", ".join(map(str, values)) + "]"
        case m.Const(value=bool() as value):
            return "true" if value else "false"
        case m.Const(value=value):
            return str(value)
        case m.Ref(name=name) | m.ParamRef(name=name) | m.ValueRef(name=name):
            return name
        case m.ZoneRef(zone=zone, seat=None):
            return zone
        case m.ZoneRef(zone=zone, seat=seat):
            return f"{zone} of {unparse(seat, 9)}"
        case m.AttrOf(obj=obj, attr=attr):
            return f"{unparse(obj, 9)}.{attr}"
        case m.Defined(name=fn, args=args) | m.Call(function=fn, args=args):
            return f"{fn}({', '.join(unparse(a) for a in args)})"
        case m.Each(function=fn, var=var, collection=coll, body=body, filter=filt):
            return f"{fn}({var} in {unparse(coll)}{' where ' if filt else ': '}{unparse(body)})"
        case m.Op(op=op, left=left, right=right):
            p = _PRECEDENCE[op]
            text = f"{unparse(left, p)} {op} {unparse(right, p + 1)}"
            return f"({text})" if p < outer else text
        case m.Unary(op="not", operand=x):
            return f"({'not ' + unparse(x, 3)})" if outer > 3 else "not " + unparse(x, 3)
        case m.Unary(operand=x):
            text = unparse(x, 7)
            return f"-({text})" if text.startswith("-") else "-" + text  # -(-3), as written, not --3
        case m.If(cond=c, then=a, otherwise=b):
            text = f"if {unparse(c)} then {unparse(a)} else {unparse(b)}"
            return f"({text})" if outer else text
        case m.Quantifier(kind=kind, var=var, collection=coll, body=body):
            text = f"{kind} {var} in {unparse(coll)}: {unparse(body, 3)}"
            return f"({text})" if outer > 3 else text
    raise TypeError(f"not an expression: {e!r}")
