"""What every command shares: loading a ruleset or exiting with its located errors, reading
`--param NAME=VALUE` options, and the two consoles (results to stdout, diagnostics to stderr)."""
from __future__ import annotations

import dataclasses
import os

import typer
from rich.console import Console

from typing import Annotated, Optional

from ..interpreter import gamelog
from ..interpreter.compile import Compiled, ConfigError, compile_ruleset
from ..interpreter.diagnostics import RulesError, render_all
from ..interpreter.load import Loaded, load, resolve, split_selection
from ..interpreter.options import SelectionError

out = Console(highlight=False, soft_wrap=True)
err = Console(stderr=True, highlight=False, soft_wrap=True)

EXIT_FINDINGS = 1  # bad input, or findings such as a failed scenario
EXIT_USAGE = 2  # the command line itself is wrong


def fail(message: str, hint: str = "", code: int = EXIT_FINDINGS) -> typer.Exit:
    """Print `message` (and a hint) to stderr; return the Exit to raise."""
    err.print(f"error: {message}", markup=False)
    if hint:
        err.print(f"  hint: {hint}", markup=False)
    return typer.Exit(code)


Edition = Annotated[Optional[str], typer.Option(
    "--edition", "-e", metavar="NAME", help="The edition to use, of those the ruleset declares (default: its first). "
                                            "FILE@NAME says the same.", show_default=False)]
Variants = Annotated[Optional[list[str]], typer.Option(
    "--variant", "-V", metavar="NAME", help="A variant to use (repeatable); FILE+NAME says the same. "
                                            "`cardrules check FILE` lists them.", show_default=False)]
Lang = Annotated[Optional[str], typer.Option(
    "--lang", metavar="LANG", help="Show cards in this language (e.g. ru, en) when the ruleset names them so; "
                                   "moves may name cards in any of its languages.", show_default=False)]


House = Annotated[Optional[str], typer.Option(
    "--house", metavar="FILE.yaml", help="Apply these house rules to the ruleset (they name its edition and "
                                         "variants); FILE+house:FILE.yaml says the same.", show_default=False)]


def load_or_exit(path: str, edition: str | None = None, variants: list[str] | None = None, house: str | None = None,
                 *, show_warnings: bool = True) -> Loaded:
    """The checked model of FILE (or FILE@EDITION+VARIANT...+house:H.yaml) and the options given,
    or exit: 1 with the located errors, 2 for an edition or variant the file does not declare."""
    spec = split_selection(path)
    if spec.edition and edition and spec.edition != edition:
        raise fail(f"two editions: @{spec.edition} and --edition {edition}", "give one", EXIT_USAGE)
    edition, variants, house = edition or spec.edition, [*spec.variants, *(variants or ())], house or spec.house
    try:
        loaded = load(spec.path, edition, variants) if house is None else _with_house(spec.path, house, edition, variants)
    except SelectionError as e:
        raise fail(e.message, e.hint, EXIT_USAGE) from None
    except RulesError as e:
        print_located(e.render())
        raise typer.Exit(EXIT_FINDINGS) from None
    if show_warnings:
        print_warnings(loaded)
    return loaded


def print_warnings(loaded: Loaded) -> None:
    """The warnings of a loaded ruleset, located, on stderr."""
    if loaded.warnings:
        print_located(render_all(list(loaded.warnings), loaded.text))


def print_located(rendered: str) -> None:
    """Rendered diagnostics on stderr, their lines of rules in colour on a terminal."""
    from .highlight import located  # Pygments: only when there is something to show

    err.print(located(rendered, err))


def _with_house(path: str, house_file: str, edition: str | None, variants: list[str]) -> Loaded:
    """The ruleset with the house rules applied; they must be for this ruleset, and they name
    its edition and variants themselves."""
    from ..interpreter.house import apply_house, read_house  # YAML and its schema: only when asked for

    house = read_house(house_file)
    given = resolve(path)  # the same file, or a copy of it (a shipped ruleset and the one in a checkout)
    if given.resolve() != house.ruleset.resolve() and (not given.is_file()
                                                      or given.read_bytes() != house.ruleset.read_bytes()):
        raise fail(f"{house_file} changes {os.path.normpath(house.ruleset)}, not {path}",
                   f"give the ruleset the house rules name: {house.data['ruleset']}", EXIT_USAGE)
    named = (house.data.get("edition"), sorted(house.data.get("variants", [])))
    if (edition is not None and edition != named[0]) or (variants and sorted(variants) != named[1]):
        raise fail(f"{house_file} chooses the edition and variants itself: "
                   f"{named[0] or 'the first edition'}{''.join(' +' + v for v in named[1])}",
                   "leave out --edition and --variant, or change them in the house file", EXIT_USAGE)
    return apply_house(house)


def parse_params(pairs: list[str] | None) -> dict[str, int]:
    params = {}
    for pair in pairs or ():
        name, sep, value = pair.partition("=")
        if not sep or not name.strip() or not value.strip().lstrip("-").isdigit() or len(value.strip()) > 10:
            raise fail(f"--param {pair!r} is not NAME=NUMBER", "e.g. --param NAME=200", EXIT_USAGE)
        params[name.strip()] = int(value)
    return params


def compile_or_exit(loaded: Loaded, players: int | None, params: dict[str, int] | None = None,
                    lang: str | None = None) -> Compiled:
    model = loaded.model
    count = players if players is not None else model.counts[0]
    lang = lang or model.language
    if lang is not None and lang not in model.languages:
        raise fail(f"{model.file} names its cards in no language '{lang}'",
                   "its languages: " + (", ".join(model.languages) or "none besides the faces themselves"), EXIT_USAGE)
    try:
        return compile_ruleset(model, count, params, lang)
    except ConfigError as e:
        raise fail(str(e), f"players: {', '.join(map(str, model.counts))}; params: "
                   + (", ".join(f"{p.name} {p.low}..{p.high}" for p in model.params) or "none"), EXIT_USAGE) from None


def compile_log_ruleset(log: gamelog.GameLog, log_file: str) -> Compiled:
    """The log's ruleset (beside the log, or from here) compiled with the log's options; a changed
    ruleset is a warning, since the replay tells whether the moves still apply."""
    spec = split_selection(log.ruleset)
    path = gamelog.ruleset_path(dataclasses.replace(log, ruleset=spec.path), log_file)
    if not resolve(path).is_file():
        raise fail(f"{log_file}: its ruleset '{log.ruleset}' is found neither beside the log nor from here",
                   "run from the folder the game was played in, or edit the log's \"ruleset\"")
    loaded = load_or_exit(path, spec.edition, list(spec.variants), spec.house)
    if gamelog.sha256_of(resolve(path)) != log.ruleset_sha256:
        err.print(f"warning: {path} has changed since the log was written (its sha256 differs); replaying anyway",
                  markup=False)
    try:
        return compile_ruleset(loaded.model, log.players, log.params)
    except ConfigError as e:
        raise fail(f"{log_file}: the log's options do not fit {path}: {e}") from None
