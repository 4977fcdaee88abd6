"""Dispatch by a node's class: `visit(owner, "_effect_", node)` finds `owner._effect_Swap` for a
`Swap`, or the method of its nearest base class (`_effect_Effect`), as jinja2's
`NodeVisitor.visit_For` and lark's `Transformer` find theirs by name.

A node no method takes is a bug of ours (a class added to the syntax or the model and not to
its readers): it raises `UnknownNode` naming the class, never falls through to another case.
"""
from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

N = TypeVar("N")


class UnknownNode(TypeError):
    """A reader met a node class it has no method for: an internal error, not a bad input."""


_FOUND: dict[tuple[type, str, type], str] = {}  # (reader's class, prefix, node's class) -> the method's name


def visit(owner: object, prefix: str, node: object) -> Callable[..., Any]:
    """The bound method of `owner` for `node`: `prefix` and the name of its class or of the
    nearest base class that has one (found once per pair of classes)."""
    key = (type(owner), prefix, type(node))
    name = _FOUND.get(key)
    if name is None:
        name = next((prefix + cls.__name__ for cls in type(node).__mro__ if hasattr(owner, prefix + cls.__name__)), "")
        if not name:
            raise unknown(owner, node)
        _FOUND[key] = name
    return getattr(owner, name)  # type: ignore[no-any-return]


def unknown(owner: object, node: object) -> UnknownNode:
    """The error for a node `owner` (an object, a class or a function) does not know."""
    reader = getattr(owner, "__qualname__", type(owner).__qualname__)
    return UnknownNode(f"{reader} does not know the node {type(node).__module__}.{type(node).__qualname__}")


def depth_first(node: N, children: Callable[[N], Sequence[N]]) -> Iterator[N]:
    """`node` and every node inside it, depth first (jinja2's `find_all`): the walk of a tree
    whose `children` says what a node holds."""
    todo = [node]
    while todo:
        node = todo.pop()
        yield node
        todo.extend(reversed(children(node)))
