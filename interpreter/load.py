"""One way in: a path (or text) to a checked model, or a `RulesError` with every diagnostic."""
from __future__ import annotations

import difflib
import os
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from importlib.resources import files
from pathlib import Path

from . import model as m
from . import options
from . import syntax as s
from .check import check
from .diagnostics import Diagnostic, RulesError, Sink
from .files import decode, exists, is_regular_file, read_bytes
from .options import SelectionError
from .parse import MAX_BYTES, parse


@dataclass(frozen=True)
class Loaded:
    model: m.Ruleset
    text: str
    warnings: tuple[Diagnostic, ...]


EXAMPLES = ("docs", "examples")  # example rulesets, beside the shipped ones in a checkout


def catalogue() -> dict[str, Path]:
    """Every ruleset that can be named by its name alone: the shipped ones, then the examples
    of the documentation (where the checkout has them), by name."""
    shipped = Path(str(files("cardrules.rulesets")))
    found: dict[str, Path] = {}
    for folder in (shipped, shipped.parent.joinpath(*EXAMPLES)):
        if folder.is_dir():
            for path in sorted(folder.glob("*.rules")):
                found.setdefault(path.stem, path)
    return found


def resolve(path: str) -> Path:
    """A path as given, or else the name of a shipped ruleset (`NAME` or `NAME.rules` for
    rulesets/NAME.rules), or of an example of the documentation (docs/examples/NAME.rules)."""
    p = Path(path)
    if exists(p):
        return p
    shipped = Path(str(files("cardrules.rulesets") / (path if path.endswith(".rules") else path + ".rules")))
    if not p.parent.parts or p.parent == Path("rulesets"):
        candidate = Path(str(files("cardrules.rulesets") / p.name))
        if is_regular_file(candidate):
            return candidate
        if is_regular_file(shipped):
            return shipped
        example = catalogue().get(p.name.removesuffix(".rules"))
        if example is not None:
            return example
    return p


def named_ruleset(name: str, base: Path) -> tuple[Path | None, str]:
    """The ruleset a data file (house rules, scenarios, a log) names: a path from the data file's
    folder `base`, or a shipped ruleset's name; else None and why not, in words that name the
    path but quote nothing of what it holds."""
    for path in (base / name, resolve(name)):
        if is_regular_file(path):
            if not is_rules_file(path):
                return None, f"'{os.path.normpath(path)}' is not a .rules file; only a .rules file is read as a ruleset"
            return path, ""
    return None, f"no ruleset '{name}' in {base.resolve()}, nor shipped with cardrules"


@dataclass(frozen=True)
class Spec:
    """`FILE@EDITION+VARIANT+...+house:HOUSE.yaml`, as the command line and logs write a ruleset."""

    path: str
    edition: str | None = None
    variants: tuple[str, ...] = ()
    house: str | None = None


def split_selection(spec: str) -> Spec:
    """A ruleset spec into its parts; a path that exists as written is only a path."""
    if exists(resolve(spec)) or ("@" not in spec and "+" not in spec):
        return Spec(spec)
    head, _, rest = spec.partition("+")
    path, _, edition = head.partition("@")
    parts = [v for v in rest.split("+") if v]
    house = next((p.removeprefix("house:") for p in parts if p.startswith("house:")), None)
    return Spec(path, edition or None, tuple(p for p in parts if not p.startswith("house:")), house)


def is_rules_file(path: Path) -> bool:
    """A `.rules` file, also where a link leads: a link `x.rules` to /proc/self/environ is not one."""
    return path.suffix == ".rules" and path.resolve().suffix == ".rules"


def read(path: str) -> tuple[str, str]:
    """The text of a ruleset and the name to show for it, or a `RulesError` saying why not. Only a
    `.rules` file is read as a ruleset: any other file (a path from a log, `/proc/self/environ`)
    is refused before a byte of it is read, so no message can quote it."""
    p = resolve(path)
    if is_regular_file(p) and not is_rules_file(p):
        raise RulesError([Diagnostic("error", "only a .rules file is read as a ruleset", None,
                                     "give the path of a .rules file, or the name of a shipped ruleset", str(path))])
    if str(path) and not exists(p) and not Path(path).parent.parts:
        close = difflib.get_close_matches(Path(path).stem, list(catalogue()), n=3)
        if close:
            raise RulesError([Diagnostic("error", "no such file, nor a ruleset of that name", None,
                                         f"did you mean {' or '.join(close)}? `cardrules list` shows them all",
                                         str(path))])
    return decode(read_bytes(str(p) if str(path) else "", MAX_BYTES), str(path)), str(path)


def load_text(text: str, file: str = "<input>", edition: str | None = None, variants: Iterable[str] = ()) -> Loaded:
    """The checked model of one selection of the file: its edition (the first, when it has
    editions and none is given) and variants. A name the file does not declare is a
    `SelectionError`; everything else wrong is a located `RulesError`."""
    return check_selection(parse(text, file), text, file, edition, tuple(variants))


def load_all(text: str, file: str) -> list[tuple[str, Loaded | RulesError]]:
    """Every legal selection of the file (just the file, when it declares no options), each
    checked: what `check` without --edition verifies."""
    clauses = parse(text, file)
    sink = Sink(file, text)
    d = options.declared(clauses, sink)
    shared = None if sink.errors or sink.warnings else d  # else each selection reports what is wrong in it
    out: list[tuple[str, Loaded | RulesError]] = []
    for edition, variants in options.selections(d) if d.has_options else [(None, ())]:
        try:
            out.append((m.selection_text(edition, variants),
                        check_selection(clauses, text, file, edition, variants, declared=shared)))
        except RulesError as e:
            out.append((m.selection_text(edition, variants), e))
    return out


def check_selection(clauses: list[s.Clause], text: str, file: str, edition: str | None, variants: tuple[str, ...],
                    patch: Callable[[list[s.Clause]], list[s.Clause]] | None = None,
                    others: dict[str, str] | None = None, declared: options.Declared | None = None) -> Loaded:
    """The checked model of one selection of a file's clauses. `patch` may change the chosen
    clauses before the check (house rules); `others` are the texts of the files its clauses
    come from, for the errors that point into them. `declared`: the clauses' options, declared
    without a fault, when every selection is checked."""
    sink = Sink(file, text)
    d = declared if declared is not None else options.declared(clauses, sink)
    if not d.has_options and (edition is not None or variants):
        raise SelectionError(f"{file} declares no edition or variant", "leave out --edition and --variant")
    edition, variants = options.choose(d, edition, variants)
    model = None
    if not sink.errors and options.legal(d, edition, variants, sink):
        chosen = options.apply(d, edition, variants, sink)
        if not sink.errors:
            model = check(patch(chosen) if patch else chosen, sink)
    if model is None:
        raise RulesError(_in_file_order(sink.errors) + _in_file_order(sink.warnings), text, others)
    model = replace(model, options=d.options(), edition=edition, variants=variants, language=d.language(edition))
    return Loaded(model, text, tuple(_in_file_order(sink.warnings)))


def _in_file_order(diagnostics: list[Diagnostic]) -> list[Diagnostic]:
    return sorted(diagnostics, key=lambda d: (d.span.line, d.span.column) if d.span else (0, 0))


def load(path: str, edition: str | None = None, variants: Iterable[str] = ()) -> Loaded:
    text, name = read(path)
    return load_text(text, name, edition, variants)
