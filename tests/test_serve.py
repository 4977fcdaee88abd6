"""`cardrules serve`: only views leave the server, tokens keep the seats, tables outlive the
server, bad input is refused, a thinking bot stalls no other table. Played through Starlette's
test client (the app in-process, real WebSocket messages); the command through a subprocess."""
from __future__ import annotations

import json
import random
import re
import threading
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the 'serve' extra")

from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from cardrules.interpreter.compile import compile_ruleset  # noqa: E402
from cardrules.interpreter.load import load  # noqa: E402
from cardrules.interpreter.notation import parse_move  # noqa: E402
from cardrules.server import app as serving  # noqa: E402
from cardrules.server.tables import Tables  # noqa: E402

from .conftest import within  # noqa: E402

pytestmark = pytest.mark.filterwarnings("ignore::DeprecationWarning")


def compiled(spec: str, players: int):
    path, _, edition = spec.partition("@")
    return compile_ruleset(load(path, edition or None).model, players)


def hello(ws, token) -> dict:
    ws.send_text(json.dumps({"type": "hello", "token": token}))
    return json.loads(ws.receive_text())


def receive(ws) -> dict:
    return json.loads(ws.receive_text())


def until_state(ws) -> dict:
    """Read until the next state message; the replies before it are returned in it as 'replies'."""
    replies = []
    while True:
        message = receive(ws)
        if message["type"] == "state":
            message["replies"] = replies
            return message
        replies.append(message)


@pytest.fixture
def server(tmp_path):
    """A server on a fresh data folder: (tables, client factory)."""
    tables = Tables(tmp_path / "tables")

    def client(rate=1e6, lobby=True):
        return TestClient(serving.make_app(tables, lobby=lobby, rate=rate))
    return tables, client


# ------------------------------------------------------------------ only views leave the server


def visible_faces(table, seat: int) -> set[str]:
    """The faces of the cards `seat` may see now, read from the state itself (not from a view):
    public zones, and owner-only zones of its own."""
    c, state = table.compiled, table.game.state
    found = set()

    def add(content):
        for x in content:
            if isinstance(x, list):
                add(x)
            else:
                found.add(c.faces[c.face_of[x]])
    for zone, content in zip(c.model.zones, state.zones):
        if zone.per_seat:
            for owner, part in enumerate(content):
                if zone.visibility == "public" or (zone.visibility == "owner" and owner == seat):
                    add(part)
        elif zone.visibility == "public":
            add(content)
    return found


def shown_by_last_move(table, seat: int) -> set[str]:
    """The faces of the last move when it left or entered a zone `seat` sees: playing shows a card."""
    if not table.moves:
        return set()
    model = table.compiled.model
    mover = table.seating.history[seat][-1].mover
    move = parse_move(table.moves[-1], tuple(p.name for p in model.plays) + ("pass",))
    if not move.card:
        return set()
    play = model.play(move.play)
    source, dest = model.zone(play.card_zone), model.zone(play.dest_zone)
    dest_owner = move.seat if dest.per_seat else None
    seen = (source.visibility == "public" or (source.visibility == "owner" and mover == seat)
            or dest.visibility == "public" or (dest.visibility == "owner" and dest_owner == seat))
    return set(move.card.split("+")) if seen else set()


def words(value) -> set[str]:
    """Every word of every string in a message, keys too."""
    if isinstance(value, dict):
        return set().union(*(words(k) | words(v) for k, v in value.items())) if value else set()
    if isinstance(value, list):
        return set().union(*(words(v) for v in value)) if value else set()
    return set(re.split(r"[\s@/+:,()\[\]]+", value)) if isinstance(value, str) else set()


SHIPPED = [("klats", 2), ("klats", 3), ("arne_92", 2), ("arne_total@en", 3), ("arne_total@ru", 2)]


@pytest.mark.parametrize("spec,players", SHIPPED)
def test_no_face_hidden_from_a_seat_reaches_its_socket(server, monkeypatch, spec, players):
    """Whole games, every seat a socket: each message to a seat is checked, at the moment it is
    sent, against the faces the seat has never had in sight (read from the state, not the view)."""
    tables, client = server
    table = tables.create(compiled(spec, players), spec, ["human"] * players, seed=players * 7 + len(spec))
    model = table.compiled.model  # a word that names a play or a zone says nothing of a card
    every_face = set(table.compiled.faces) - {p.name for p in model.plays} - {z.name for z in model.zones}
    ever = {seat: set() for seat in range(players)}
    sent: list[tuple[int, dict, frozenset]] = []
    send = serving.Connection.send

    def spy(connection, message):
        seat = connection.seat
        ever[seat] |= visible_faces(table, seat) | shown_by_last_move(table, seat)
        sent.append((seat, json.loads(json.dumps(message)), frozenset(every_face - ever[seat])))
        send(connection, message)
    monkeypatch.setattr(serving.Connection, "send", spy)
    rng = random.Random(1)
    received = {seat: [] for seat in range(players)}
    with within(120), client() as c, ExitStack() as stack:
        sockets = [stack.enter_context(c.websocket_connect(f"/ws/{table.id}/{seat}")) for seat in range(players)]
        for seat, ws in enumerate(sockets):
            received[seat].append(hello(ws, table.tokens[seat]))
        states = [received[seat][-1] for seat in range(players)]
        while states[0]["winners"] is None:
            mover = states[0]["view"]["to_move"]
            move = rng.choice(states[mover]["moves"])
            sockets[mover].send_text(json.dumps({"type": "move", "move": move}))
            for seat, ws in enumerate(sockets):
                states[seat] = until_state(ws)
                received[seat] += [*states[seat].pop("replies"), states[seat]]
                assert len(states[seat]["log"]) == min(len(table.moves), serving_log_limit())
    assert table.game.over and len(table.moves) > 20
    secret_seen = 0
    for seat, message, secret in sent:
        leaked = words(message) & secret
        assert not leaked, f"seat {seat} was sent {sorted(leaked)}, hidden from it: {message}"
        secret_seen += bool(secret)
    assert secret_seen > len(sent) // 4, "the check had faces to look for in most messages"
    # the check has teeth: the first state of seat 0 holds no face of seat 1's hand, which seat 1's does
    first = {seat: next(m for s, m, _ in sent if s == seat) for seat in range(players)}
    secret0 = next(secret for s, _, secret in sent if s == 0)
    assert words(first[1]) & secret0 and not words(first[0]) & secret0
    for seat in range(players):  # what the sockets got is what was sent, all of it
        assert received[seat] == [m for s, m, _ in sent if s == seat]


def serving_log_limit() -> int:
    from cardrules.server.tables import MAX_LOG
    return MAX_LOG
