"""Scenario files: positions and moves that show a ruleset's clauses at work.

A scenario file is YAML, validated by schemas/scenarios.schema.json:

    ruleset: mygame.rules                  # relative to the scenario file
    edition: en                            # a ruleset with editions and variants: the file's
    variants: [minimum]                    # choice; a scenario may name its own instead
    defaults: {players: 2, params: {target_total: 100}, seed: 0}
    scenarios:
      - name: stacking on the same colour
        clause: "play put: onto pile when top(pile).colour == card.colour"
        edition: ru                        # this scenario's edition, and (left out) the file's variants
        position:                          # left out: the seed deals the match
          zones: {hand: {0: [red5]}, row: {0: [[red1]], 1: []}, stock: [red2]}
          active: 0
        steps:
          - play: put red5 @0/0            # must be legal, and is played
          - refuse: put red2 @1/0          # must be refused ...
            because: top(pile).colour      # ... for a reason that says this
          - expect: {to_move: 1, zones: {row: {0: [[red1, red5]]}}}
          - expect: {by: 0, view: {stock: 1, hand: {1: 3}}, cards_in_play: 90}  # what seat 0 sees:
                                           # how many cards, where it may not look; the deck's size

`load` reads the file and checks all that needs no play (the schema, the edition and variants,
then zones, faces, seats, players and params against the ruleset), every error located at its
YAML node; the ruleset is parsed once, and each distinct selection of edition and variants
checked once. `run` plays each scenario up to its first step that does not hold, and says
where, what was expected and what was found. Nothing in the file is executed: YAML is read with the safe loader only.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import NotRequired, TypeAlias, TypedDict, cast

import yaml

from .compile import Compiled, ConfigError, compile_ruleset
from .diagnostics import Diagnostic, RulesError, Span
from .engine import EngineError, Game, PositionError, RoundResult, new_game
from .expressions import near
from .files import exists
from .load import Loaded, check_selection, named_ruleset, read, resolve
from .model import Zone
from .notation import IllegalMoveError, Move, MoveError, parse_move
from .options import SelectionError
from .parse import parse
from .yamlfile import Located, NodePath, node_at, read_file, read_yaml, shipped_schema, span_of, validate

# The file as schemas/scenarios.schema.json lets it be: the types of what `validate` passed.
Cards: TypeAlias = str | list[str]  # a card's face, or a pile's faces (top last)
ZoneData: TypeAlias = list[Cards] | dict[str, list[Cards]]  # a shared zone, or a zone per seat ("0": ...)
Seen: TypeAlias = int | list[Cards] | Mapping[str, int | list[Cards]]  # a zone's cards, or how many, maybe per seat
Count: TypeAlias = int | dict[str, int]
Value: TypeAlias = int | bool | str


class PositionData(TypedDict):
    zones: dict[str, ZoneData]
    active: NotRequired[int]
    round: NotRequired[int]
    totals: NotRequired[list[int]]
    rest: NotRequired[str]
    values: NotRequired[dict[str, Value]]


class ResultData(TypedDict):
    round: NotRequired[int]
    reason: str
    scores: list[int]
    totals: NotRequired[list[int]]


class RoundOverData(TypedDict, total=False):
    reason: str
    scores: list[int]
    totals: list[int]


class ExpectData(TypedDict, total=False):
    zones: dict[str, ZoneData]
    counts: dict[str, Count]
    view: dict[str, Seen]
    cards_in_play: int
    to_move: int | None
    active: int | None
    round: int
    totals: list[int]
    round_over: bool | RoundOverData
    results: list[ResultData]
    match_over: bool
    winners: list[int]
    legal: list[str]
    not_legal: list[str]
    legal_count: int
    values: dict[str, Value | None]
    by: int


class StepData(TypedDict, total=False):  # one of play, refuse, expect
    play: str
    refuse: str
    because: str
    by: int
    expect: ExpectData


class DefaultsData(TypedDict, total=False):
    players: int
    params: dict[str, int]
    seed: int


class ScenarioData(TypedDict):
    name: str
    clause: str
    edition: NotRequired[str]
    variants: NotRequired[list[str]]
    players: NotRequired[int]
    params: NotRequired[dict[str, int]]
    seed: NotRequired[int]
    position: NotRequired[PositionData]
    steps: list[StepData]


class FileData(TypedDict):
    ruleset: str
    edition: NotRequired[str]
    variants: NotRequired[list[str]]
    defaults: NotRequired[DefaultsData]
    scenarios: list[ScenarioData]


@dataclass(frozen=True)
class Scenario:
    name: str
    clause: str
    compiled: Compiled  # the ruleset for this scenario's players and params
    seed: int
    position: PositionData | None
    steps: tuple[StepData, ...]
    index: int  # its place in the file's list, to locate its steps


@dataclass(frozen=True)
class ScenarioFile:
    file: str  # the name to show
    text: str
    ruleset: Loaded
    scenarios: tuple[Scenario, ...]
    tree: yaml.Node  # the composed YAML: its nodes know their lines

    def span(self, path: NodePath, key: bool = False) -> Span:
        return span_of(node_at(self.tree, path, key))


@dataclass(frozen=True)
class Outcome:
    scenario: Scenario
    failures: tuple[Diagnostic, ...]  # the mismatches of the first step that did not hold
    log: tuple[str, ...]  # what each step did

    @property
    def passed(self) -> bool:
        return not self.failures


# ---------------------------------------------------------------- reading


def load_file(path: str) -> ScenarioFile:
    """A checked scenario file, or a `RulesError` with every located error."""
    where = resolve(path)
    if not exists(where):
        raise RulesError([Diagnostic("error", f"no scenario file '{path}'", None,
                                     "give the path of a scenario file (YAML)", str(path))])
    return load_text(read_file(str(where), "the scenario file", "a scenario file (YAML)"), str(path), where.parent)


def load_text(text: str, file: str = "<input>", base: Path = Path(".")) -> ScenarioFile:
    """`base` is the folder the file's `ruleset:` path is relative to."""
    tree, raw = read_yaml(text, file, "ruleset")
    here = Located(file, text, tree)
    validate(raw, shipped_schema("scenarios.schema.json"), here)
    here.stop()
    data = cast(FileData, raw)  # the schema passed it
    rulesets = _Rulesets(_ruleset_path(data["ruleset"], base, here), here)
    file_choice = _choice(data, (), _Choice(None, (), (), (), ()))
    ruleset = rulesets.get(file_choice)
    here.stop()
    defaults: DefaultsData = data.get("defaults", {})
    compiled: dict[tuple[str, int, tuple[tuple[str, int], ...]], Compiled] = {}
    scenarios: list[Scenario] = []
    names: dict[str, int] = {}
    for i, s in enumerate(data["scenarios"]):
        at: NodePath = ("scenarios", i)
        if s["name"] in names:
            here.error(at + ("name",), f"a second scenario is called '{s['name']}'",
                       f"the first is at line {here.span(('scenarios', names[s['name']], 'name')).line}; "
                       "give each scenario its own name")
        names.setdefault(s["name"], i)
        loaded = rulesets.get(_choice(s, at, file_choice))
        if loaded is None:
            continue
        players = s.get("players", defaults.get("players", loaded.model.players[0]))
        params = {**defaults.get("params", {}), **s.get("params", {})}
        key = (loaded.model.selection, players, tuple(sorted(params.items())))
        try:
            compiled[key] = compiled.get(key) or compile_ruleset(loaded.model, players, params)
        except ConfigError as e:
            setting = next((p for p in (at + ("params",), at + ("players",)) if p[-1] in s),
                           ("defaults",) if defaults else at)
            here.error(setting, f"{e}" + (f" (in {loaded.model.selection})" if loaded.model.options else ""))
            continue
        c = compiled[key]
        if "position" in s:
            _check_position(c, s["position"], at + ("position",), here)
        for j, step in enumerate(s["steps"]):
            expect = step.get("expect", {})
            for name, content in expect.get("zones", {}).items():
                _check_zone(c, name, content, at + ("steps", j, "expect", "zones"), here)
            for name, count in expect.get("counts", {}).items():
                _check_zone(c, name, count, at + ("steps", j, "expect", "counts"), here, counts=True)
            for name, seen in expect.get("view", {}).items():
                _check_view(c, name, seen, at + ("steps", j, "expect", "view"), here)
        scenarios.append(Scenario(s["name"], s["clause"], c, s.get("seed", defaults.get("seed", 0)),
                                  s.get("position"), tuple(s["steps"]), i))
    here.stop()
    assert ruleset is not None  # `stop` raised the errors that left it out
    return ScenarioFile(file, text, ruleset, tuple(scenarios), tree)


def _ruleset_path(name: str, base: Path, here: Located) -> Path:
    path, problem = named_ruleset(name, base)
    if path is None:
        here.error(("ruleset",), problem, "the path is relative to the scenario file's folder")
        here.stop()
    assert path is not None  # `stop` raised the error
    return path


@dataclass(frozen=True)
class _Choice:
    """An edition and variants, each with the path of the YAML node that names it (() if none)."""

    edition: str | None
    variants: tuple[str, ...]
    edition_at: NodePath
    variants_at: NodePath
    at: NodePath  # the scenario that chooses, or () for the file


def _choice(s: FileData | ScenarioData, at: NodePath, default: _Choice) -> _Choice:
    """What a scenario (or, at (), the file) chooses; what it leaves out comes from `default`."""
    edition, edition_at = (s["edition"], at + ("edition",)) if "edition" in s else (
        default.edition, default.edition_at)
    variants, variants_at = (tuple(s["variants"]), at + ("variants",)) if "variants" in s else (
        default.variants, default.variants_at)
    return _Choice(edition, variants, edition_at, variants_at, at)


class _Rulesets:
    """The ruleset in each selection the file chooses: read and parsed once (a file that does
    not parse raises its own errors), each selection checked once; a selection that cannot be
    checked is reported at every node that chooses it, and gives None."""

    def __init__(self, path: Path, here: Located):
        self.here = here
        self.text, self.name = read(str(path))
        self.clauses = parse(self.text, self.name)
        self.loaded: dict[tuple[str | None, tuple[str, ...]], Loaded | SelectionError | RulesError] = {}

    def _check(self, edition: str | None, variants: tuple[str, ...]) -> Loaded:
        return check_selection(self.clauses, self.text, self.name, edition, variants)

    def get(self, choice: _Choice) -> Loaded | None:
        key = (choice.edition, tuple(sorted(choice.variants)))
        if key not in self.loaded:
            try:
                self.loaded[key] = self._check(choice.edition, choice.variants)
            except (SelectionError, RulesError) as e:
                self.loaded[key] = e
        found = self.loaded[key]
        if isinstance(found, SelectionError):
            self.here.error(_naming(choice, found.message), found.message, found.hint)
        elif isinstance(found, RulesError):
            self._not_chosen(choice, found)
        return found if isinstance(found, Loaded) else None

    def _not_chosen(self, choice: _Choice, e: RulesError) -> None:
        """A selection the ruleset refuses (variants that do not go together), located at the
        scenario's node; a ruleset that is broken whatever is chosen raises its own errors."""
        self._check(None, ())  # raises the ruleset's own errors
        for d in (d for d in e.diagnostics if d.severity == "error"):
            where = f" ({d.file}:{d.span.line}:{d.span.column})" if d.span else ""
            self.here.error(_naming(choice, d.message), d.message + where, d.hint)


def _naming(choice: _Choice, message: str) -> NodePath:
    """The node that names what a message is about: the edition or the variant it quotes first,
    or else the variants or the edition; a node of the scenario itself before one of the file's."""
    named = [("edition", choice.edition, choice.edition_at),
             *(("variant", v, choice.variants_at + (k,)) for k, v in enumerate(choice.variants))]
    quotes = [(message.find(f"{kind} '{name}'"), at) for kind, name, at in named if name is not None]
    quoted = min(((i, at) for i, at in quotes if i >= 0), default=(0, None))[1]
    own = [at for at in (choice.variants_at, choice.edition_at) if at and at[:len(choice.at)] == choice.at]
    if quoted is not None and (quoted[:len(choice.at)] == choice.at or not own):
        return quoted
    return own[0] if own else choice.variants_at or choice.edition_at or choice.at or ("ruleset",)


def _check_position(c: Compiled, position: PositionData, at: NodePath, here: Located) -> None:
    copies = Counter(c.face_of)
    used: Counter[int] = Counter()
    for name, content in position["zones"].items():
        for path, face in _check_zone(c, name, content, at + ("zones",), here):
            index = c.face_index[face.lower()]
            used[index] += 1
            if used[index] > copies[index]:
                here.error(path, f"the deck has {copies[index]} {c.faces[index]}; this is one more",
                           "name each card once in a position")
    seats = f"seats are 0 to {c.players - 1}"
    if position.get("active", 0) >= c.players:
        here.error(at + ("active",), f"there is no seat {position['active']}: {seats}")
    if len(position.get("totals", [0] * c.players)) != c.players:
        here.error(at + ("totals",), f"totals: give one number per seat, {c.players} in all")
    rest = position.get("rest")
    if rest is not None:
        zone = _zone(c, rest)
        if zone is None or zone.per_seat or zone.piles:
            shared = [z.name for z in c.model.zones if not z.per_seat and not z.piles]
            here.error(at + ("rest",), f"'rest' names a shared zone of cards, not '{rest}'",
                       f"shared zones of cards: {', '.join(shared) or 'none'}")


def _check_zone(c: Compiled, name: str, content: Seen, at: NodePath, here: Located,
                counts: bool = False) -> list[tuple[NodePath, str]]:
    """Check a zone's name, its shape and its faces; return the faces with their paths."""
    zone = _zone(c, name)
    if zone is None:
        here.error(at + (name,), f"no zone '{name}'",
                   near(name, c.zone_index) or f"zones: {', '.join(c.zone_index)}", key=True)
        return []
    at = at + (name,)
    if zone.per_seat != isinstance(content, dict):
        shape = "a mapping SEAT: " + ("number" if counts else "[...]") if zone.per_seat else (
            "a number" if counts else "a list")
        here.error(at, f"'{name}' is {'a per-seat' if zone.per_seat else 'a shared'} zone: write {shape}")
        return []
    if counts:
        for seat in content if isinstance(content, dict) else ():  # a zone per seat
            _check_seat(c, seat, at, here)
        return []
    if isinstance(content, dict):  # a zone per seat
        lists = [(at + (seat,), cards) for seat, cards in content.items()
                 if isinstance(cards, list) and _check_seat(c, seat, at, here)]
    else:
        lists = [(at, content)] if isinstance(content, list) else []
    faces = []
    for path, cards in lists:
        for k, item in enumerate(cards):
            if zone.piles != isinstance(item, list):
                here.error(path + (k,), f"'{name}' holds " + (
                    "piles: write each pile as a list of cards, top last" if zone.piles else "cards, not piles"))
                continue
            if zone.piles and not item and not counts:
                here.error(path + (k,), f"pile {k} of '{name}' is empty: a pile holds one card at least",
                           "leave the pile out, or name its cards")
                continue
            faces += [(path + (k, j), f) for j, f in enumerate(item)] if zone.piles else [(path + (k,), item)]
    return [(path, face) for path, face in faces if _known_face(c, face, path, here)]


def _check_view(c: Compiled, name: str, seen: Seen, at: NodePath, here: Located) -> None:
    """A zone as a seat sees it: cards where it may see them, else a number of cards; a per-seat
    zone may mix the two, seat by seat."""
    if not isinstance(seen, dict):
        _check_zone(c, name, seen, at, here, counts=isinstance(seen, int))
        return
    for counts in (True, False):
        part = {seat: v for seat, v in seen.items() if isinstance(v, int) == counts}
        if part or (not seen and not counts):
            _check_zone(c, name, part, at, here, counts=counts)


def _check_seat(c: Compiled, seat: str, at: NodePath, here: Located) -> bool:
    if int(seat) < c.players:
        return True
    here.error(at + (seat,), f"there is no seat {seat}: seats are 0 to {c.players - 1}", key=True)
    return False


def _known_face(c: Compiled, face: str, path: NodePath, here: Located) -> bool:
    if face.lower() in c.face_index:
        return True
    here.error(path, f"no card is called '{face}'",
               near(face.lower(), c.face_index) or f"faces are like {', '.join(c.faces[:3])}")
    return False


def _zone(c: Compiled, name: str) -> Zone | None:
    index = c.zone_index.get(name)
    return None if index is None else c.model.zones[index]


# ---------------------------------------------------------------- running


# `differ(path, what, expected, found, shown)`: a mismatch at `path` of the step, unless the two are equal
Differ: TypeAlias = Callable[[NodePath, str, object, object, "str | None"], None]


class _Failed(Exception):
    def __init__(self, *mismatches: tuple[NodePath, str]):
        super().__init__(mismatches[0][1])
        self.mismatches = mismatches  # (path in the step, message)


def run(sf: ScenarioFile) -> list[Outcome]:
    return [run_one(sf, s) for s in sf.scenarios]


def run_one(sf: ScenarioFile, s: Scenario) -> Outcome:
    """Play one scenario up to its first step that does not hold."""
    model = s.compiled.model
    log: list[str] = []
    if model.options:
        log.append(f"{Path(model.file).name}{model.selection}, {s.compiled.players} players")
    at = ("scenarios", s.index)
    step_at: NodePath = at + ("position",)
    what = "position"
    try:
        game = _start(s)
        ended = list(game.state.results)  # the rounds the last move (or the position) ended
        for i, step in enumerate(s.steps):
            kind = next(k for k in ("play", "refuse", "expect") if k in step)
            step_at, what = at + ("steps", i), f"step {i + 1} ({kind})"
            if "expect" in step:
                _expect(game, step["expect"], ended)
                log.append(f"expect {', '.join(k for k in step['expect'] if k != 'by')}: as expected")
            elif "play" in step:
                before = len(game.state.results)
                _play(game, step["play"], step.get("by"))
                ended = game.state.results[before:]
                log.append(f"play {step['play']}" + _by(step) + "".join(
                    f"; round {r.round} ends ({r.reason}), scores {_text(r.scores)}" for r in ended))
            else:
                reason = _refuse(game, step["refuse"], step.get("by"), step.get("because"))
                log.append(f"refuse {step['refuse']}{_by(step)}: {reason}")
    except _Failed as f:
        located = sorted(((sf.span(step_at + where), message) for where, message in f.mismatches),
                         key=lambda found: (found[0].line, found[0].column))
        failures = tuple(Diagnostic("error", f"scenario '{s.name}', {what}: {message}", span, "", sf.file)
                         for span, message in located)
        return Outcome(s, failures, tuple(log))
    return Outcome(s, (), tuple(log))


def _by(step: StepData) -> str:
    return f" by seat {step['by']}" if "by" in step else ""


def _start(s: Scenario) -> Game:
    if s.position is None:
        return new_game(s.compiled, s.seed)
    game = new_game(s.compiled, s.seed, deal=False)
    p = s.position
    zones = {name: ({int(seat): cards for seat, cards in content.items()} if isinstance(content, dict) else content)
             for name, content in p["zones"].items()}
    try:
        game.set_position(zones, active=p.get("active", 0), round=p.get("round", 0), totals=p.get("totals"),
                          values=p.get("values"),
                          rest=p.get("rest"))
    except (PositionError, EngineError) as e:
        raise _Failed(((), f"the position cannot be set: {e}")) from None
    return game


def _move(game: Game, text: str, key: NodePath = ()) -> Move:
    """The `Move` a text names, its face in the ruleset's spelling; with the play's name left
    out, the plays open now (or, when none is, all plays) tell which play it is."""
    try:
        move = parse_move(text, game.open_plays() or tuple(p.name for p in game.c.plays))
    except MoveError as e:
        raise _Failed((key, f"'{text}' is not a move: {e.message}")) from None
    index, faces = game.c.face_index, game.c.faces
    parts = move.card.split("+")  # a compound play names two faces
    if all(part.lower() in index for part in parts):
        move = move._replace(card="+".join(faces[index[part.lower()]] for part in parts))
    return move


def _not_to_move(game: Game, by: int | None) -> str:
    if by is None or by == game.to_move:
        return ""
    return f"seat {by} may not play now: " + (
        "the match is over" if game.to_move is None else f"seat {game.to_move} is to move")


def _play(game: Game, text: str, by: int | None) -> None:
    if reason := _not_to_move(game, by):
        raise _Failed((("play",), f"'{text}' must be legal, but {reason}"))
    move = _move(game, text, ("play",))
    if reason := _refusal(game, move):
        raise _Failed((("play",), f"'{text}' must be legal, but it is refused: {reason}"))
    try:
        game.apply(move)
    except EngineError as e:
        raise _Failed((("play",), f"the engine stopped: {e}")) from None


def _refuse(game: Game, text: str, by: int | None, because: str | None) -> str:
    """Why the game refuses `text`; a failure when it does not, or for another reason."""
    reason = _not_to_move(game, by) or _refusal(game, _move(game, text, ("refuse",)))
    if not reason:
        raise _Failed((("refuse",), f"'{text}' must be refused, but it is legal"))
    if because is not None and because not in reason:
        raise _Failed((("because",), f"'{text}' is refused, but the reason does not say '{because}': {reason}"))
    return reason


def _refusal(game: Game, move: Move) -> str:
    """Why the rules refuse `move` now (the rule and its provenance), or "" when it is one of
    the legal moves of the seat to move."""
    if game.over:
        return "the match is over"
    seat = game.to_move
    assert seat is not None  # a match under way has a seat to move
    if move in game.legal_moves(seat):
        return ""
    try:
        game.action_of(move)  # a meld's faces written in another order name the same move
    except IllegalMoveError:
        return game.why_illegal(move)
    return ""


def _expect(game: Game, want: ExpectData, ended: list[RoundResult]) -> None:
    """Compare every expectation of one step; fail with all that differ."""
    c, st = game.c, game.state
    bad: list[tuple[NodePath, str]] = []

    def differ(path: NodePath, what: str, expected: object, found: object, shown: str | None = None) -> None:
        if expected != found:
            bad.append((("expect",) + path, f"{what}: expected {_text(expected)}, found {_text(found)}"
                        + (f" ({shown})" if shown else "")))

    expected_zones: dict[str, Mapping[str, ZoneData | Count]] = {
        "zones": want.get("zones", {}), "counts": want.get("counts", {})}
    for key, part in expected_zones.items():
        for name, content in part.items():
            index = c.zone_index[name]
            zone = c.model.zones[index]
            per_seat: Iterable[tuple[str | None, list[Cards] | int]] = (
                content.items() if isinstance(content, dict) else [(None, content)])  # dict: a zone per seat
            for seat, expected in per_seat:
                now = st.zones[index] if seat is None else st.zones[index][int(seat)]
                path: NodePath = (key, name)
                what = f"{key}.{name}"
                if seat is not None:
                    path, what = path + (seat,), what + f" of seat {seat}"
                if isinstance(expected, int):  # a count
                    differ(path, what, expected, sum(map(len, now)) if zone.piles else len(now))
                elif zone.piles:
                    differ(path, what, _faces(c, expected, piles=True),
                           [[c.faces[c.face_of[x]] for x in p] for p in now])
                else:
                    cards = [c.faces[c.face_of[x]] for x in now]
                    faces = _faces(c, expected, piles=False)
                    differ(path, what, faces, cards,
                           "the same cards in another order; top last" if sorted(faces) == sorted(cards) else None)
    by = want.get("by", game.to_move)
    if "view" in want:
        _expect_view(game, want["view"], by, differ, bad)
    if "values" in want:
        shown = game.values(by)
        differ(("values",), "values" + ("" if by is None else f", as seat {by} sees them"), want["values"],
               {name: shown.get(name, "(no such value)") for name in want["values"]})
    now = {"to_move": game.to_move, "active": None if game.over else st.active, "round": st.round,
           "totals": st.totals, "match_over": game.over, "winners": game.winners(), "cards_in_play": c.deck_size}
    fields: Mapping[str, object] = want
    for key in (k for k in now if k in fields):
        differ((key,), key, fields[key], now[key])
    if "round_over" in want:
        last = _result(ended[-1]) if ended else None
        expected_end = want["round_over"]
        found_end: object = last
        if isinstance(expected_end, dict) and last is not None:
            found_end = {k: last[k] for k in expected_end}
        elif expected_end is True or last is None:
            found_end = last is not None
        differ(("round_over",), "round_over (of the last move)", expected_end, found_end)
    if "results" in want:
        results = [_result(r) for r in st.results]
        if len(want["results"]) != len(results):
            differ(("results",), "results", want["results"], results)
        # A length mismatch is reported above; the results both lists have are compared one by one.
        for k, (expected_result, found) in enumerate(zip(want["results"], results, strict=False)):
            differ(("results", k), f"results[{k}]", expected_result, {key: found[key] for key in expected_result})
    legal = [str(m) for m in game.legal_moves(by)] if by is not None else []
    for key, must, texts in (("legal", True, want.get("legal", [])), ("not_legal", False, want.get("not_legal", []))):
        for k, text in enumerate(texts):
            move = _move(game, text, ("expect", key, k))
            if (str(move) in legal) != must:
                why = game.why_illegal(move) if must and by == game.to_move else ""
                who = "anyone: the match is over" if by is None else f"seat {by}"
                bad.append((("expect", key, k), f"{key}: '{move}' is {'not ' if must else ''}legal for {who}"
                            + (f": {why}" if why else "")))
    if "legal_count" in want:
        differ(("legal_count",), "legal_count", want["legal_count"], len(legal), ", ".join(legal) or "no move")
    if bad:
        raise _Failed(*bad)


def _expect_view(game: Game, want: dict[str, Seen], seat: int | None, differ: Differ,
                 bad: list[tuple[NodePath, str]]) -> None:
    """Compare what `seat` sees of each zone: its cards, or how many there are where it may not look."""
    if seat is None:
        bad.append((("expect", "view"), "view: the match is over: say whose view with `by: SEAT`"))
        return
    c, zones = game.c, game.view(seat)["zones"]
    for name, content in want.items():
        zone = c.model.zones[c.zone_index[name]]
        per_seat: Iterable[tuple[str | None, list[Cards] | int]] = (
            content.items() if isinstance(content, Mapping) else [(None, content)])  # a zone per seat
        for owner, seen in per_seat:
            shown = zones[name] if owner is None else zones[name][int(owner)]
            found = shown["count"] if isinstance(shown, dict) else shown
            expected = _faces(c, seen, zone.piles) if isinstance(seen, list) else seen
            path: NodePath = ("view", name) + (() if owner is None else (owner,))
            what = f"view.{name}" + ("" if owner is None else f" of seat {owner}") + f", as seat {seat} sees it"
            differ(
                path,
                what,
                expected,
                found,
                "it sees the cards"
                if isinstance(shown, list) and isinstance(expected, int)
                else "it sees only how many"
                if isinstance(shown, dict) and isinstance(expected, list)
                else None,
            )


def _result(r: RoundResult) -> dict[str, object]:
    return {"round": r.round, "reason": r.reason, "scores": list(r.scores), "totals": list(r.totals)}


def _faces(c: Compiled, cards: list[Cards], piles: bool) -> list[list[str]] | list[str]:
    """Cards a scenario expects, each face in the ruleset's spelling: piles, or cards."""
    if piles:
        return [[_face(c, f) for f in pile] for pile in cards]
    return [_face(c, f) for f in cards if isinstance(f, str)]  # a zone of cards: `load` checked none is a list


def _face(c: Compiled, face: str) -> str:
    return c.faces[c.face_index[face.lower()]]


def _text(x: object) -> str:
    """A value as a scenario file writes it: faces bare, lists in brackets."""
    if isinstance(x, bool) or x is None:
        return {True: "true", False: "false", None: "null"}[x]
    if isinstance(x, (list, tuple)):
        return "[" + ", ".join(map(_text, x)) + "]"
    if isinstance(x, dict):
        return "{" + ", ".join(f"{k}: {_text(v)}" for k, v in x.items()) + "}"
    return str(x)
