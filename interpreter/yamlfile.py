"""YAML from strangers, read safely and validated with every error at its node.

Scenario files and house rules are YAML a user writes or downloads. This reads one with the
safe loader only (no tag builds a Python object), refuses what a hostile file tries (a
duplicate key that would silently win, an alias bomb, a file too large, nesting too deep),
keeps the composed tree so that every error can point at its node's line and column, and
turns JSON Schema errors into one plain message each, at the node that is wrong.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING, Any, Protocol, TypeAlias

import jsonschema
import yaml

from .diagnostics import Diagnostic, RulesError, Span
from .errors import clip
from .expressions import near
from .files import decode, position, read_bytes

MAX_BYTES = 1 << 20  # a scenario or house file of a megabyte is already far more than any needs
MAX_VALUES = 200_000  # values in a file once its aliases are expanded: no alias bombs
MAX_DEPTH = 100  # levels of nesting: a house or scenario file needs five or six
MAX_DIGITS = 30  # digits of a YAML integer; the schemas bound them far lower, int() refuses 4,300
MERGE_TAG, STR_TAG, INT_TAG = "tag:yaml.org,2002:merge", "tag:yaml.org,2002:str", "tag:yaml.org,2002:int"
SAFE_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml when present: the same nodes, faster
NodePath: TypeAlias = tuple[str | int, ...]  # keys and list indexes from the top of a YAML file to a node
Schema: TypeAlias = dict[str, Any]  # a JSON Schema document, as json.loads reads it
KINDS = {"object": "a mapping", "array": "a list", "string": "a text", "integer": "a whole number",
         "boolean": "true or false", "null": "null", "number": "a number"}


class Located:
    """The located errors of one YAML file, all collected before it is given up."""

    def __init__(self, file: str, text: str, tree: yaml.Node):
        self.file, self.text, self.tree = file, text, tree
        self.items: list[Diagnostic] = []

    def span(self, path: NodePath, key: bool = False) -> Span:
        return span_of(node_at(self.tree, path, key))

    def error(self, path: NodePath, message: str, hint: str = "", key: bool = False) -> None:
        d = Diagnostic("error", message, self.span(path, key), hint, self.file)
        if d not in self.items:
            self.items.append(d)

    def stop(self) -> None:
        if self.items:
            raise RulesError(sorted(self.items, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0)),
                             self.text)


def read_file(path: str, what: str, kind: str) -> str:
    """The text of a YAML file of the user's, read under the size bound (`what` names it in a
    message, `kind` says what it should be), or a located error."""
    return decode(read_bytes(path, MAX_BYTES, what, kind), path, kind)


if TYPE_CHECKING:  # the C loader builds the same nodes; the stubs type the Python one
    _SafeLoader = yaml.SafeLoader
else:
    _SafeLoader = SAFE_LOADER


class _Loader(_SafeLoader):
    """The safe loader, with the two constructors that could fail without a location made
    located: a number too long for `int()`, a date that is no date (JSON has no dates: a
    date is kept as its text, and the schema says where a text is wrong)."""

    def construct_yaml_int(self, node: yaml.ScalarNode) -> int:
        if len(node.value) > MAX_DIGITS:
            raise yaml.constructor.ConstructorError(None, None, f"a number of more than {MAX_DIGITS} digits",
                                                    node.start_mark)
        return super().construct_yaml_int(node)


_Loader.add_constructor("tag:yaml.org,2002:int", _Loader.construct_yaml_int)
_Loader.add_constructor("tag:yaml.org,2002:timestamp",  # type: ignore[type-var]  # stubs: self is a SafeConstructor
                        _Loader.construct_yaml_str)


def read_yaml(text: str, file: str, first_key: str) -> tuple[yaml.Node, object]:
    """The composed tree (for locations) and the data, each mapping key as text, as in JSON.
    `first_key` is what an empty file is told to start with."""
    try:
        _no_deep_nesting(text, file)
        loader = _Loader(text)
    except yaml.YAMLError as e:
        raise _not_yaml(e, file, text) from None
    try:
        tree = loader.get_single_node()
        if tree is None:
            raise RulesError([Diagnostic("error", "the file is empty", Span.point(1, 1),
                                         f"it starts with `{first_key}: ...`", file)], text)
        _check_nodes(tree, file, text)
        return tree, _as_json(loader.construct_document(tree), [MAX_VALUES])
    except yaml.YAMLError as e:
        raise _not_yaml(e, file, text) from None
    except _TooLarge:
        raise RulesError([Diagnostic("error", f"the file holds more than {MAX_VALUES:,} values once its aliases "
                                     "are expanded", None, "write the values out; aliases may not multiply them",
                                     file)], text) from None
    finally:
        loader.dispose()


def _not_yaml(e: yaml.YAMLError, file: str, text: str) -> RulesError:
    """A located error for whatever the YAML reader, parser or constructor refused."""
    if isinstance(e, yaml.reader.ReaderError):  # a control character, say: located by its index
        shown = f"character {e.character!r}" if isinstance(e.character, str) else f"character U+{e.character:04X}"
        return RulesError([Diagnostic("error", f"not valid YAML: {shown} is not allowed in YAML text",
                                      Span.point(*position(text, e.position)),
                                      "remove it, or write it as an escape such as \\t in a double-quoted text",
                                      file)], text)
    mark = getattr(e, "problem_mark", None) or getattr(e, "context_mark", None)
    message = ", ".join(x for x in (getattr(e, "context", None), getattr(e, "problem", None)) if x) or str(e)
    hint = ("the file holds plain YAML: mappings, lists, texts and numbers, no tags"
            if isinstance(e, yaml.constructor.ConstructorError) else
            "mind the indentation; quote a text that holds ': ' or starts with '@'")
    return RulesError([Diagnostic("error", f"not valid YAML: {message}",
                                  Span.point(mark.line + 1, mark.column + 1) if mark else None, hint, file)], text)


def _no_deep_nesting(text: str, file: str) -> None:
    """Refuse nesting deeper than MAX_DEPTH from the event stream, before anything is composed:
    libyaml's composer recurses, and 50,000 `[` kill the process. Newer libyamls (PyYAML 6.0.4's)
    refuse deep nesting themselves, a thousand levels down, and may do so before the stream
    reaches MAX_DEPTH: their scanner reads ahead of the events. That is the same error."""
    depth = 0
    try:
        for event in yaml.parse(text, Loader=SAFE_LOADER):
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_DEPTH:
                    raise _too_deep(event.start_mark, file, text)
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.MarkedYAMLError as e:
        if "nesting depth" not in str(e.problem):
            raise
        raise _too_deep(e.problem_mark, file, text) from None


class _Mark(Protocol):
    """Where the parser stands: PyYAML's mark or libyaml's."""

    line: int
    column: int


def _too_deep(mark: _Mark | None, file: str, text: str) -> RulesError:
    assert mark is not None  # the parser marks every event and every error of its own
    return RulesError([Diagnostic("error", f"the file nests more than {MAX_DEPTH} levels deep",
                                  Span.point(mark.line + 1, mark.column + 1),
                                  "a house or scenario file nests a few levels: is it the right file?", file)], text)


def _check_nodes(tree: yaml.Node, file: str, text: str) -> None:
    """Every mapping's keys are texts or whole numbers, none twice; and the tree, its aliases
    followed, nests at most MAX_DEPTH levels and holds no alias to itself. Walked without
    recursion: a node's depth is known once its children's are."""
    depth: dict[int, int] = {}
    todo: list[tuple[yaml.Node, bool, frozenset[int]]] = [(tree, False, frozenset())]
    while todo:
        node, children_done, above = todo.pop()
        children = ([x for pair in node.value for x in pair] if isinstance(node, yaml.MappingNode) else
                    node.value if isinstance(node, yaml.SequenceNode) else [])
        if children_done:
            depth[id(node)] = 1 + max((depth[id(c)] for c in children), default=0)
            if depth[id(node)] > MAX_DEPTH:
                raise _node_error(node, f"the file nests more than {MAX_DEPTH} levels deep once its aliases are "
                                  "followed", "write the values out", file, text)
            continue
        if id(node) in depth:
            continue
        if isinstance(node, yaml.MappingNode):
            _keys(node, file, text)
        todo.append((node, True, above))
        for child in children:
            if child is node or id(child) in above:
                raise _node_error(child, "an alias refers to the value it stands in", "write the values out",
                                  file, text)
            if id(child) not in depth:
                todo.append((child, False, above | {id(node)}))


def _keys(node: yaml.MappingNode, file: str, text: str) -> None:
    """A mapping's keys: each a text or a whole number (a seat), none twice."""
    keys: dict[str, yaml.ScalarNode] = {}
    for k, _ in node.value:
        if isinstance(k, yaml.ScalarNode) and k.tag == MERGE_TAG:
            continue
        if not isinstance(k, yaml.ScalarNode) or k.tag not in (STR_TAG, INT_TAG):
            shown = ("a list or a mapping" if not isinstance(k, yaml.ScalarNode) else
                     "null" if k.tag.endswith(":null") else f"'{clip(k.value)}', not a name")
            raise _node_error(k, f"a key is {shown}: keys here are names or numbers",
                              "write the key as a name; quote it to keep it a text", file, text)
        if k.value in keys:
            raise _node_error(k, f"the key '{clip(k.value)}' comes twice in one mapping",
                              f"the first is at line {keys[k.value].start_mark.line + 1}; keep one", file, text)
        keys[k.value] = k


def _node_error(node: yaml.Node, message: str, hint: str, file: str, text: str) -> RulesError:
    return RulesError([Diagnostic("error", message, span_of(node), hint, file)], text)


class _TooLarge(Exception):
    pass


def _as_json(x: object, budget: list[int]) -> object:
    """What the safe loader built, each mapping key as text; the schema says what is wrong in it."""
    budget[0] -= 1
    if budget[0] < 0:
        raise _TooLarge
    if isinstance(x, dict):
        return {str(k): _as_json(v, budget) for k, v in x.items()}
    if isinstance(x, list):
        return [_as_json(v, budget) for v in x]
    return x


def node_at(tree: yaml.Node, path: NodePath, key: bool = False) -> yaml.Node:
    """The node at a JSON path, or the deepest one on the way; `key`: the last key's own node."""
    node = tree
    for i, part in enumerate(path):
        if isinstance(node, yaml.MappingNode):
            pair = next(((k, v) for k, v in reversed(node.value) if isinstance(k, yaml.ScalarNode)
                         and k.value == str(part)), None)
            if pair is None:
                break
            node = pair[0] if key and i == len(path) - 1 else pair[1]
        elif isinstance(node, yaml.SequenceNode) and isinstance(part, int) and part < len(node.value):
            node = node.value[part]
        else:
            break
    return node


def span_of(node: yaml.Node) -> Span:
    start, end = node.start_mark, node.end_mark
    return Span(start.line + 1, start.column + 1, end.line + 1, end.column + 1)


@cache
def shipped_schema(name: str) -> Schema:
    schema: Schema = json.loads((files("cardrules.schemas") / name).read_text("utf-8"))
    return schema


def validate(data: object, schema: Schema, here: Located) -> None:
    """Every way `data` breaks `schema`, each said once, plainly, at its node. Where a list
    item may take one of several shapes (`oneOf`), the shape its keys announce is the one it
    is checked against, so the message is about that shape, not a list of all of them."""
    for e in _Validator(schema).iter_errors(data):
        _report(e, here, schema)


# JSON Schema's `integer` takes 2.0, which would reach the compiler and the logs as a float:
# here a whole number is written as one.
_Validator = jsonschema.validators.extend(  # type: ignore[no-untyped-call]  # the stubs leave extend untyped
    jsonschema.Draft202012Validator, type_checker=(
    jsonschema.Draft202012Validator.TYPE_CHECKER.redefine(
        "integer", lambda checker, x: isinstance(x, int) and not isinstance(x, bool))))


def _report(e: jsonschema.ValidationError, here: Located, root: Schema) -> None:
    schema: Mapping[str, Any] = e.schema if isinstance(e.schema, Mapping) else {}  # not a boolean schema
    instance: Any = e.instance  # the JSON data that failed, of any shape
    value: Any = e.validator_value  # the failed keyword's value, as the schema's JSON writes it
    path, title = tuple(e.absolute_path), schema.get("title", "")
    if e.validator == "additionalProperties" and "properties" in schema:
        known = schema["properties"]
        for k in (k for k in instance if k not in known):
            guess = near(k, known)
            here.error(path + (k,), (f"{title}: " if title else "") + f"unknown key '{k}'",
                       (f"{guess} " if guess else "") + f"The keys here: {', '.join(known)}.", key=True)
    elif "propertyNames" in e.relative_schema_path:
        here.error(path + (instance,), f"'{instance}' is not {schema['description']}", key=True)
    elif e.validator in ("oneOf", "anyOf"):
        chosen = _announced(e, root)
        if chosen is not None:
            for sub in chosen:
                _report(sub, here, root)
        elif "description" in schema:
            has = f"; this one has {', '.join(instance)}" if isinstance(instance, dict) and instance else ""
            here.error(path, schema["description"] + has)
        else:
            best = jsonschema.exceptions.best_match(e.context)
            _report(best, here, root) if best is not None else here.error(path, e.message)
    elif e.validator == "required":
        missing = [k for k in value if k not in instance]
        here.error(path, f"{title or 'this mapping'} needs {', '.join(repr(k) for k in missing)}")
    elif e.validator == "dependentRequired":
        for k, needs in value.items():
            if k in instance:
                here.error(path + (k,), f"'{k}' goes with {', '.join(repr(n) for n in needs)}", key=True)
    elif e.validator == "enum" and isinstance(instance, str):
        guess = near(instance, [v for v in value if isinstance(v, str)])
        where = _last_key(path)
        here.error(path, (f"{where}: " if where else "") + f"'{instance}' is not one of the names here",
                   (f"{guess} " if guess else "") + "One of: "
                   + ", ".join(map(str, value[:30])) + (", ..." if len(value) > 30 else ""))
    else:
        where = _last_key(path)
        message = e.message if e.validator != "type" else "expected {}, found {}".format(
            " or ".join(KINDS[t] for t in ([value] if isinstance(value, str)
                                            else value)), kind_of(instance))
        here.error(path, (f"{where}: " if where else "") + message)


def _announced(e: jsonschema.ValidationError, root: Schema) -> list[jsonschema.ValidationError] | None:
    """The errors of the one branch of a oneOf/anyOf whose first `required` key the instance
    has (the branch its keys announce: `set:` announces a setting), or None when not one does."""
    if not isinstance(e.instance, dict) or not isinstance(e.schema, Mapping) or not isinstance(e.validator, str):
        return None
    branches = [root["$defs"][b["$ref"].removeprefix("#/$defs/")] if b.get("$ref", "").startswith("#/$defs/") else b
                for b in e.schema.get(e.validator, [])]
    fitting = [i for i, b in enumerate(branches) if b.get("required") and b["required"][0] in e.instance]
    if len(fitting) != 1:
        return None
    return [sub for sub in e.context if sub.relative_schema_path and sub.relative_schema_path[0] == fitting[0]]


def _last_key(path: NodePath) -> str:
    return next((p for p in reversed(path) if isinstance(p, str) and not p.isdigit()), "")


def kind_of(x: object) -> str:
    """What a YAML value is, in a few words, for a message."""
    if isinstance(x, (dict, list)):
        return KINDS["object" if isinstance(x, dict) else "array"]
    shown = repr(x) if isinstance(x, str) else json.dumps(x, default=str)
    return shown if len(shown) <= 40 else shown[:37] + "..."
