"""What every command shares: loading a ruleset or exiting with its located errors, reading
`--param NAME=VALUE` options, and the two consoles (results to stdout, diagnostics to stderr)."""
from __future__ import annotations

import dataclasses
import os
from collections.abc import Iterable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.console import Console
from rich.segment import Segment

from ..interpreter.compile import Compiled, ConfigError, compile_ruleset
from ..interpreter.diagnostics import RulesError, render_all
from ..interpreter.errors import EXIT_FINDINGS, EXIT_USAGE, clip
from ..interpreter.files import is_regular_file
from ..interpreter.load import Loaded, load, resolve, split_selection
from ..interpreter.options import SelectionError
from . import i18n

if TYPE_CHECKING:  # logs and seats: imported by the commands that read them (`check` does not)
    from ..interpreter.gamelog import GameLog
    from ..interpreter.seats import Seat

# Control characters, and the marks that reorder text on screen, as they come from a file
# (ESC clears a screen or retitles a window): shown as escapes, never sent to the terminal.
_BIDI = "\u061c\u200b\u200c\u200d\u2060\ufeff\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
_ESCAPES = {c: f"\\x{c:02x}" for c in (*range(0x20), *range(0x7f, 0xa0)) if chr(c) not in "\n\t"}
_ESCAPES.update({ord(c): f"\\u{ord(c):04x}" for c in _BIDI})


_JSON_ESCAPES = {c: f"\\u{c:04x}" for c in _ESCAPES if c >= 0x7f}  # JSON escapes those below itself


def escaped(text: str) -> str:
    """`text` with every control character (but the line end and tab) and bidi mark escaped."""
    return text.translate(_ESCAPES)


def echo(text: str, nl: bool = True, is_json: bool = False) -> None:
    """Plain output to stdout (JSON, Markdown): control characters escaped as the format writes
    them, so that JSON stays JSON."""
    typer.echo(text.translate(_JSON_ESCAPES) if is_json else escaped(text), nl=nl)


class SafeConsole(Console):
    """A console for text that may come from a file: no markup, no emoji codes, no highlighting
    (`[b]`, `:thumbs_up:` and `rules.rules:100:20` print as written: styles are given as `Text`),
    and control characters escaped in all it prints, whatever renderable carries them. Rich's
    own control codes (a progress bar's cursor moves) are segments of their own and pass."""

    def __init__(self, **options: Any) -> None:
        super().__init__(highlight=False, soft_wrap=True, markup=False, emoji=False, **options)

    def _render_buffer(self, buffer: Iterable[Segment]) -> str:
        return super()._render_buffer(segment if segment.control else Segment(escaped(segment.text), segment.style)
                                      for segment in buffer)


out = SafeConsole()
err = SafeConsole(stderr=True)


def fail(message: str, hint: str = "", code: int = EXIT_FINDINGS) -> typer.Exit:
    """Print `message` (and a hint) to stderr; return the Exit to raise."""
    err.print(f"error: {message}", markup=False)
    if hint:
        err.print(f"  hint: {hint}", markup=False)
    return typer.Exit(code)


Edition = Annotated[str | None, typer.Option(
    "--edition", "-e", metavar="NAME", help="The edition to use, of those the ruleset declares (default: its first). "
                                            "FILE@NAME says the same.", show_default=False)]
Variants = Annotated[list[str] | None, typer.Option(
    "--variant", "-V", metavar="NAME", help="A variant to use (repeatable); FILE+NAME says the same. "
                                            "`cardrules check FILE` lists them.", show_default=False)]
Lang = Annotated[str | None, typer.Option(
    "--lang", metavar="LANG", help="Speak this language (en, ru) and show cards in it when the ruleset names "
                                   "them so; moves may name cards in any of its languages.", show_default=False)]


def seed_in_range(seed: int | None) -> int | None:
    """A --seed every log can hold: 0 to 2^63-1. (A range given to typer would be printed in every
    help as `[0<=x<=9223372036854775807]`, squeezing the help column.)"""
    from ..interpreter.gamelog import MAX_SEED

    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise typer.BadParameter("a seed is a whole number from 0 to 2^63-1")
    return seed


House = Annotated[str | None, typer.Option(
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
        loaded = (load(spec.path, edition, variants) if house is None
                  else _with_house(spec.path, house, edition, variants))
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
    from ..interpreter.gamelog import sha256_of
    from ..interpreter.house import apply_house, read_house  # YAML and its schema: only when asked for

    house = read_house(house_file)
    given = resolve(path)  # the same file, or a copy of it (a shipped ruleset and the one in a checkout)
    if given.resolve() != house.ruleset.resolve() and (not is_regular_file(given) or sha256_of(given)
                                                      != sha256_of(house.ruleset)):
        raise fail(f"{house_file} changes {os.path.normpath(house.ruleset)}, not {path}",
                   f"give the ruleset the house rules name: {house.data['ruleset']}", EXIT_USAGE)
    named = (house.data.get("edition"), sorted(house.data.get("variants", [])))
    if (edition is not None and edition != named[0]) or (variants and sorted(variants) != named[1]):
        raise fail(f"{house_file} chooses the edition and variants itself: "
                   f"{named[0] or 'the first edition'}{''.join(' +' + v for v in named[1])}",
                   "leave out --edition and --variant, or change them in the house file", EXIT_USAGE)
    return apply_house(house)


MAX_PARAM_DIGITS = 9  # as a rules file writes numbers


def parse_params(pairs: list[str] | None) -> dict[str, int]:
    """`--param NAME=VALUE` options as a dict; VALUE is ASCII digits, a minus sign allowed."""
    params = {}
    for pair in pairs or ():
        name, sep, value = (part.strip() for part in pair.partition("="))
        digits = value.removeprefix("-")
        if not sep or not name or not (digits.isascii() and digits.isdigit()):
            raise fail(f"--param {clip(pair)!r} is not NAME=NUMBER", "e.g. --param NAME=200 (digits 0-9)", EXIT_USAGE)
        if len(digits.lstrip("0")) > MAX_PARAM_DIGITS:
            raise fail(f"--param {clip(name)}: the number {clip(value, 20)} has too many digits",
                       f"a param is a number of at most {MAX_PARAM_DIGITS} digits", EXIT_USAGE)
        params[name] = int(value)
    return params


def compile_or_exit(loaded: Loaded, players: int | None, params: dict[str, int] | None = None,
                    lang: str | None = None) -> Compiled:
    model = loaded.model
    count = players if players is not None else model.counts[0]
    lang = lang or model.language
    if lang is not None and lang not in model.languages and lang in ("en", *i18n.languages()):
        lang = None  # the interface speaks it; the cards keep their faces
    if lang is not None and lang not in model.languages:
        raise fail(f"{model.file} names its cards in no language '{lang}'",
                   "its languages: " + (", ".join(model.languages) or "none besides the faces themselves"), EXIT_USAGE)
    try:
        return compile_ruleset(model, count, params, lang)
    except ConfigError as e:
        raise fail(str(e), f"players: {', '.join(map(str, model.counts))}; params: "
                   + (", ".join(f"{p.name} {p.low}..{p.high}" for p in model.params) or "none"), EXIT_USAGE) from None


def compile_log_ruleset(log: GameLog, log_file: str) -> Compiled:
    """The log's ruleset (beside the log, or from here) compiled with the log's options; a changed
    ruleset is a warning, since the replay tells whether the moves still apply."""
    from ..interpreter import gamelog

    spec = split_selection(log.ruleset)
    path = gamelog.ruleset_path(dataclasses.replace(log, ruleset=spec.path), log_file)
    if not is_regular_file(resolve(path)):
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


def seats_or_exit(seats: str | None, players: int | None, *, bots_only: bool = False) -> list[Seat] | None:
    """The seats `--seats` names (None when not given), one per player when --players is given;
    else a usage error with a hint."""
    from ..interpreter.seats import SeatError, parse_seats

    if seats is None:
        return None
    try:
        kinds = list(parse_seats(seats))
    except SeatError as e:
        raise fail(f"--seats: {e.message}", e.hint, EXIT_USAGE) from None
    if bots_only and not all(kind.is_bot for kind in kinds):
        raise fail("--seats: self-play has no person at the table", "give bots only: random, greedy or ismcts",
                   EXIT_USAGE)
    if players is not None and len(kinds) != players:
        raise fail(f"--seats names {len(kinds)} seats but --players is {players}",
                   "give one kind per seat, or leave out --players", EXIT_USAGE)
    return kinds
