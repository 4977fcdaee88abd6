"""Dispatch by a node's class: `visit(owner, "_effect_", node)` finds `owner._effect_Swap` for a
`Swap`, or the method of its nearest base class (`_effect_Effect`), as jinja2's
`NodeVisitor.visit_For` and lark's `Transformer` find theirs by name.

A node no method takes is a bug of ours (a class added to the syntax or the model and not to
its readers): it raises `UnknownNode` naming the class, never falls through to another case.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any


class UnknownNode(TypeError):
    """A reader met a node class it has no method for: an internal error, not a bad input."""


def visit(owner: object, prefix: str, node: object) -> Callable[..., Any]:
    """The bound method of `owner` for `node`: `prefix` and the name of its class or of the
    nearest base class that has one."""
    for cls in type(node).__mro__:
        method = getattr(owner, prefix + cls.__name__, None)
        if method is not None:
            return method  # type: ignore[no-any-return]
    raise unknown(owner, node)


def unknown(owner: object, node: object) -> UnknownNode:
    """The error for a node `owner` (an object, a class or a function) does not know."""
    reader = getattr(owner, "__qualname__", type(owner).__qualname__)
    return UnknownNode(f"{reader} does not know the node {type(node).__module__}.{type(node).__qualname__}")
