"""`cardrules serve`: only views leave the server, tokens keep the seats, tables outlive the
server, bad input is refused, a thinking bot stalls no other table. Played through Starlette's
test client (the app in-process, real WebSocket messages); the command through a subprocess."""
from __future__ import annotations

import json
import random
import re
import threading
import warnings
from contextlib import ExitStack

import pytest

pytest.importorskip("starlette", reason="cardrules serve needs the 'serve' extra")

with warnings.catch_warnings():  # Starlette's notice about its test client's HTTP library
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402
from starlette.websockets import WebSocketDisconnect  # noqa: E402

from cardrules.cli.server import app as serving  # noqa: E402
from cardrules.cli.server.tables import Tables  # noqa: E402
from cardrules.interpreter.compile import compile_ruleset  # noqa: E402
from cardrules.interpreter.load import load  # noqa: E402
from cardrules.interpreter.notation import parse_move  # noqa: E402

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
    for zone, content in zip(c.model.zones, state.zones, strict=True):
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
    from cardrules.cli.server.tables import MAX_LOG
    return MAX_LOG


# ------------------------------------------------------------------ a token acts only for its seat


def refusal(ws, token) -> dict:
    """The refusal of a hello, and the close that follows it."""
    answer = hello(ws, token)
    assert answer["type"] == "refused"
    with pytest.raises(WebSocketDisconnect) as closed:
        ws.receive_text()
    assert closed.value.code == answer["code"]
    return answer


def test_tokens_open_only_their_own_seat(server):
    tables, client = server
    table = tables.create(compiled("klats", 3), "klats", ["human", "human", "random"], seed=4)
    with client() as c:
        for token, code in ((None, 4403), ("", 4403), ("forged" + table.tokens[0][6:], 4403), (table.tokens[1], 4403)):
            with c.websocket_connect(f"/ws/{table.id}/0") as ws:
                assert refusal(ws, token)["code"] == code
        with c.websocket_connect(f"/ws/{table.id}/2") as ws:  # a bot's seat has no token to fit
            assert "bot" in refusal(ws, table.tokens[0])["text"]
        with c.websocket_connect(f"/ws/{table.id}/0") as ws:
            ws.send_text("not even JSON")
            assert receive(ws)["code"] == 4400
            with pytest.raises(WebSocketDisconnect) as closed:
                receive(ws)
            assert closed.value.code == 4400
        with c.websocket_connect("/ws/nosuchtable/0") as ws:
            assert refusal(ws, table.tokens[0])["code"] == 4404
        with c.websocket_connect(f"/ws/{table.id}/0") as ws:
            state = hello(ws, table.tokens[0])
            assert state["type"] == "state" and state["seat"] == 0
            with c.websocket_connect(f"/ws/{table.id}/0") as second:  # the seat is taken
                assert "another window" in refusal(second, table.tokens[0])["text"]
            mover = state["view"]["to_move"]
            other = 1 - mover if mover in (0, 1) else 1
            ws.send_text(json.dumps({"type": "move", "seat": other, "move": "1"}))
            assert "plays seat 0 only" in receive(ws)["text"]
            if mover != 0:
                ws.send_text(json.dumps({"type": "move", "move": "1"}))
                assert "not your turn" in receive(ws)["text"]
        with c.websocket_connect(f"/ws/{table.id}/0") as again:  # the seat is free again once its socket closed
            assert hello(again, table.tokens[0])["type"] == "state"


# ------------------------------------------------------------------ bad input from a browser


def test_bad_messages_are_refused_and_the_table_goes_on(server):
    tables, client = server
    table = tables.create(compiled("klats", 2), "klats", ["human", "human"], seed=5)
    other = tables.create(compiled("klats", 2), "klats", ["human", "random"], seed=6)
    with client(rate=serving.RATE) as c:
        with c.websocket_connect(f"/ws/{table.id}/0") as ws:
            hello(ws, table.tokens[0])
            for frame, says in ((b"\x00\xff binary", "not binary"), ("{]", "not JSON"), ("[1, 2]", "JSON object"),
                                ("x" * (serving.MAX_MESSAGE + 1), "at most"),
                                ('{"type": "drop tables"}', "unknown message type"),
                                ('{"type": "move", "move": 7}', "takes text"),
                                ("[" * 1000 + "]" * 1000, "JSON"),
                                ('{"type": "move", "move": "put nothing @99/99"}', "")):
                ws.send_bytes(frame) if isinstance(frame, bytes) else ws.send_text(frame)
                answer = receive(ws)
                assert answer["type"] == "reply" and not answer["ok"] and says in answer["text"]
            for _ in range(serving.BURST + serving.STRIKES + 5):  # a flood: refused, then the socket closed
                ws.send_text('{"type": "state"}')
            answers = []
            with pytest.raises(WebSocketDisconnect) as closed:
                while True:
                    answers.append(receive(ws))
            assert closed.value.code == 1008
            assert any("too many messages" in a.get("text", "") for a in answers)
        with c.websocket_connect(f"/ws/{other.id}/0") as ws:  # another table never noticed
            state = hello(ws, other.tokens[0])
            ws.send_text(json.dumps({"type": "move", "move": state["moves"][0]}))
            assert until_state(ws)["log"][0]["move"] == state["moves"][0]
        with c.websocket_connect(f"/ws/{table.id}/0") as ws:  # nor did the flooded one: its seat opens again
            assert hello(ws, table.tokens[0])["type"] == "state"


# ------------------------------------------------------------------ why, card


def test_why_and_card_answer_the_seat(server):
    tables, client = server
    table = tables.create(compiled("klats", 2), "klats", ["human", "human"], seed=8)
    mover = table.game.to_move
    with client() as c, c.websocket_connect(f"/ws/{table.id}/{mover}") as ws, \
            c.websocket_connect(f"/ws/{table.id}/{1 - mover}") as waiting:
        state = hello(ws, table.tokens[mover])
        hello(waiting, table.tokens[1 - mover])
        ws.send_text(json.dumps({"type": "why", "move": state["moves"][0]}))
        assert receive(ws)["text"] == f"{state['moves'][0]} is legal now"
        ws.send_text(json.dumps({"type": "why", "move": "put " + state["view"]["zones"]["hand"][mover][0] + " @0/7"}))
        answer = receive(ws)
        assert answer["ok"] and "piles" in answer["text"]
        waiting.send_text(json.dumps({"type": "why", "move": state["moves"][0]}))  # it would read the mover's hand
        assert "not your turn" in receive(waiting)["text"]
        waiting.send_text(json.dumps({"type": "card", "name": ""}))
        kinds = receive(waiting)
        assert kinds["ok"] and "kind" in kinds["text"] and "card NAME" in kinds["text"]
        face = state["view"]["zones"]["hand"][mover][0]
        ws.send_text(json.dumps({"type": "card", "name": face}))
        answer = receive(ws)
        assert answer["ok"] and answer["text"].startswith(face) and "used in" in answer["text"]
        ws.send_text(json.dumps({"type": "card", "name": "nosuchcard"}))
        answer = receive(ws)
        assert not answer["ok"] and "nosuchcard" in answer["text"]


# ------------------------------------------------------------------ a table outlives its server


def test_a_restarted_server_reopens_the_table_where_it_stood(tmp_path):
    data = tmp_path / "tables"
    tables = Tables(data)
    table = tables.create(compiled("klats", 2), "klats", ["human", "greedy:2"], seed=9)
    token = table.tokens[0]
    with TestClient(serving.make_app(tables, lobby=False, rate=1e6)) as c, \
            c.websocket_connect(f"/ws/{table.id}/0") as ws:
        state = hello(ws, token)
        for _ in range(3):
            while not state["moves"]:
                state = until_state(ws)
            ws.send_text(json.dumps({"type": "move", "move": state["moves"][-1]}))
            state = until_state(ws)
        while state["view"]["to_move"] != 0:
            state = until_state(ws)
    before = state
    assert len(before["log"]) >= 5
    again = Tables(data)
    assert again.reopen() == []
    reopened = again.open[table.id]
    assert reopened.moves == table.moves and reopened.tokens == {0: token}
    assert (data / f"{table.id}.seats.json").stat().st_mode & 0o077 == 0  # the tokens: for the owner's eyes
    with TestClient(serving.make_app(again, lobby=False, rate=1e6)) as c, \
            c.websocket_connect(f"/ws/{table.id}/0") as ws:
        state = hello(ws, token)
        assert state["log"] == before["log"] and state["view"] == before["view"] and state["moves"] == before["moves"]
        while state["winners"] is None:  # and it plays on to the end
            if state["moves"]:
                ws.send_text(json.dumps({"type": "move", "move": state["moves"][0]}))
            state = until_state(ws)
    assert Tables(data).reopen() == [] and not Tables(data).open  # a finished table is not reopened
    from cardrules.interpreter import gamelog
    log = gamelog.read(data / f"{table.id}.journal")
    assert log.result is not None and len(log.moves) == len(reopened.moves)


def test_a_broken_journal_is_said_and_skipped(tmp_path):
    tables = Tables(tmp_path)
    table = tables.create(compiled("klats", 2), "klats", ["human", "human"], seed=1)
    tables.close()
    (tmp_path / f"{table.id}.journal").write_text('{"format": "cardrules-journal/1", "ruleset": "klats"\n')
    failed = Tables(tmp_path).reopen()
    assert [table_id for table_id, _ in failed] == [table.id] and "JSON" in failed[0][1]


# ------------------------------------------------------------------ bots think beside the server


def test_a_thinking_bot_stalls_no_other_table(server, monkeypatch):
    """While one table's bot is held mid-thought in its worker thread, another table plays on."""
    tables, client = server
    thinking, go_on = threading.Event(), threading.Event()
    from cardrules.interpreter.bots import GreedyBot
    choose = GreedyBot.choose

    def slow(bot, seen):
        if bot.kind != "greedy:3":  # the other table's bot
            return choose(bot, seen)
        thinking.set()
        assert go_on.wait(30)
        return choose(bot, seen)
    monkeypatch.setattr(GreedyBot, "choose", slow)
    slow_table = tables.create(compiled("klats", 2), "klats", ["human", "greedy:3"], seed=2)
    quick = tables.create(compiled("klats", 2), "klats", ["human", "greedy"], seed=3)
    with within(60), client() as c:
        with c.websocket_connect(f"/ws/{slow_table.id}/0") as ws:
            state = hello(ws, slow_table.tokens[0])
            if state["view"]["to_move"] == 0:
                ws.send_text(json.dumps({"type": "move", "move": state["moves"][0]}))
            assert thinking.wait(30) and slow_table.busy
            ws.send_text(json.dumps({"type": "move", "move": "1"}))
            answer = receive(ws)
            while answer.get("ok", True):  # the replies and states of the move before
                answer = receive(ws)
            assert "not your turn" in answer["text"] or "bot is thinking" in answer["text"]
            with c.websocket_connect(f"/ws/{quick.id}/0") as other:
                state = hello(other, quick.tokens[0])
                for _ in range(2):
                    while not state["moves"]:
                        state = until_state(other)
                    other.send_text(json.dumps({"type": "move", "move": state["moves"][0]}))
                    state = until_state(other)
                    assert state["replies"] == [{"type": "reply", "to": "move", "ok": True, "text": "", "moved": True}]
            assert slow_table.busy and len(quick.moves) >= 3  # the other table moved while the bot thought
            go_on.set()
            while until_state(ws)["view"]["to_move"] != 0:
                pass
        assert not slow_table.busy


# ------------------------------------------------------------------ the lobby


def test_the_lobby_opens_tables_of_shipped_rulesets_only(server):
    tables, client = server
    with client() as c:
        page = c.get("/")
        assert page.status_code == 200 and "lobby.js" in page.text
        assert "default-src 'none'" in page.headers["content-security-policy"]
        offered = {r["name"]: r for r in c.get("/api/rulesets").json()["rulesets"]}
        assert {"klats", "arne_92", "arne_total"} <= set(offered) and "ru" in offered["arne_total"]["editions"]
        made = c.post("/api/tables", json={"ruleset": "arne_total", "edition": "en", "variants": [],
                                           "seats": ["human", "ismcts", "human"]})
        assert made.status_code == 200, made.text
        answer = made.json()
        links = [s["url"] for s in answer["seats"]]
        assert links[1] is None and all(link.startswith(f"/t/{answer['table']}/") for link in (links[0], links[2]))
        assert c.get(links[0].split("#")[0]).status_code == 200 and c.get("/t/nosuch/0").status_code == 404
        seat, token = links[2].split("#")[0].rsplit("/", 1)[1], links[2].split("#")[1]
        with c.websocket_connect(f"/ws/{answer['table']}/{seat}") as ws:
            assert hello(ws, token)["title"] == "ARNE Total@en"
        for asked, says in (({"ruleset": "/etc/passwd", "seats": ["human", "human"]}, "no shipped ruleset"),
                            ({"ruleset": "../klats", "seats": ["human", "human"]}, "no shipped ruleset"),
                            ({"ruleset": "klats", "edition": "xx", "seats": ["human", "human"]}, "no edition"),
                            ({"ruleset": "klats", "seats": ["human"]}, "not 1"),
                            ({"ruleset": "klats", "seats": ["random", "random"]}, "person"),
                            ({"ruleset": "klats", "seats": ["human", "wizard"]}, "unknown kind"),
                            ({"ruleset": "klats", "variants": "all", "seats": ["human", "human"]}, "variants")):
            refused = c.post("/api/tables", json=asked)
            assert refused.status_code == 400 and says in refused.json()["error"], (asked, refused.text)
        huge = c.post("/api/tables", content=b"{" + b" " * 10_000 + b"}")
        assert huge.status_code == 400 and "bytes" in huge.json()["error"]
    with client(lobby=False) as c:
        assert c.post("/api/tables", json={"ruleset": "klats", "seats": ["human", "human"]}).status_code == 404


# ------------------------------------------------------------------ the command


def start(*args, data):
    """`cardrules serve ARGS --port 0 --data DATA` as a process, and the lines it printed up to its
    last before serving."""
    import os
    import subprocess
    import sys

    env = {**os.environ, "PYTHONIOENCODING": "utf-8", "COLUMNS": "300"}
    process = subprocess.Popen([sys.executable, "-m", "cardrules.cli.main", "serve", *args, "--port", "0",
                                "--data", str(data)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                               env=env)
    lines = []
    with within(60):
        while not lines or "Ctrl-C" not in lines[-1]:
            line = process.stdout.readline()
            assert line, f"serve ended: {process.stderr.read()}"
            lines.append(line.rstrip("\n"))
    return process, lines


def stop(process) -> None:
    import signal

    process.send_signal(signal.SIGINT)
    try:
        assert process.wait(20) == 0
    finally:
        process.kill() if process.poll() is None else None
        process.stdout.close()
        process.stderr.close()


def links(lines) -> dict[int, str]:
    return {int(m.group(1)): m.group(2) for m in map(re.compile(r"seat (\d+): (http://\S+)$").match, lines) if m}


def connect(url: str):
    from websockets.sync.client import connect as ws_connect

    address, token = url.split("#")
    socket = ws_connect(address.replace("http://", "ws://").replace("/t/", "/ws/"), open_timeout=10)
    socket.send(json.dumps({"type": "hello", "token": token}))
    return socket


def test_serve_prints_a_link_a_person_and_reopens_its_table_after_a_restart(tmp_path):
    pytest.importorskip("websockets")
    process, lines = start("klats", "--seats", "human,human,random", data=tmp_path)
    try:
        seat_links = links(lines)
        assert sorted(seat_links) == [0, 1] and "Klats: 3 players (human, human, random)" in lines[0]
        with connect(seat_links[0]) as ws:
            state = json.loads(ws.recv(10))
            assert state["type"] == "state" and state["seat"] == 0 and state["kinds"][2] == "random"
            ws.send("x" * (70 * 1024))  # beyond what the server reads of a frame: the socket is closed
            from websockets.exceptions import ConnectionClosed
            with pytest.raises(ConnectionClosed) as closed:
                while True:
                    ws.recv(10)
            assert closed.value.rcvd.code == 1009
        with connect(seat_links[1]) as ws:  # the server goes on
            state = json.loads(ws.recv(10))
            assert state["seat"] == 1
            mover = state["view"]["to_move"]
        with connect(seat_links[mover]) as ws:
            state = json.loads(ws.recv(10))
            ws.send(json.dumps({"type": "move", "move": state["moves"][0]}))
            while json.loads(ws.recv(10))["type"] != "reply":
                pass
            state = json.loads(ws.recv(10))
            moved = len(state["log"])
            assert moved >= 1
    finally:
        stop(process)
    process, lines = start(data=tmp_path)  # no ruleset: the lobby, and the table reopened
    try:
        assert any("reopened after" in line for line in lines) and any(line.startswith("lobby: ") for line in lines)
        again = links(lines)
        assert {s: u.split("/t/")[1] for s, u in again.items()} == {s: u.split("/t/")[1] for s, u in seat_links.items()}
        with connect(again[0]) as ws:
            state = json.loads(ws.recv(10))
            assert len(state["log"]) >= moved
    finally:
        stop(process)


def test_serve_with_a_seed_deals_its_table_alike_each_time(tmp_path):
    """`--seed`: two servers given the same seed deal the same hands (and a third, another seed,
    other ones), so a table can be played again and a test knows its deal."""
    pytest.importorskip("websockets")

    def first_view(seed: str, folder: str) -> dict:
        process, lines = start("klats", "--seats", "human,human", "--seed", seed, data=tmp_path / folder)
        try:
            with connect(links(lines)[0]) as ws:
                state = json.loads(ws.recv(10))
        finally:
            stop(process)
        journal = next((tmp_path / folder).glob("*.journal"))
        assert json.loads(journal.read_text().splitlines()[0])["seed"] == int(seed)
        return state["view"]

    assert first_view("41", "a") == first_view("41", "b") != first_view("42", "c")


@pytest.mark.parametrize("args,code,says", [
    (["klats", "--seats", "random,random"], 2, "no seat is a person's"),
    (["--seats", "human,human"], 2, "give its ruleset"),
    (["--seed", "7"], 2, "give its ruleset"),
    (["klats", "--seed", "-1"], 2, "a seed is a whole number"),
    (["nosuchgame"], 1, "nosuchgame"),
    (["klats", "--seats", "human,wizard"], 2, "unknown kind"),
])
def test_serve_refuses_a_bad_command_line(tmp_path, args, code, says):
    from .conftest import cli_process

    result = cli_process("serve", *args, "--port", "0", "--data", str(tmp_path), timeout=60)
    assert result.code == code and says in result.stderr and "Traceback" not in result.stderr


# ------------------------------------------------------------------ a real browser


def chromium() -> str | None:
    """Debian's Chromium (or one named by $CHROMIUM): the browser test drives it, never a download."""
    import os
    import shutil

    return os.environ.get("CHROMIUM") or next(
        (found for name in ("chromium", "chromium-browser", "google-chrome") if (found := shutil.which(name))), None)


def test_two_browsers_play_a_match_each_seeing_its_own_hand(tmp_path):
    """Headless Chromium, one context a seat, clicks the moves of a whole match of Klats; each page
    shows its own hand's cards and only a count of the other's. Screenshots go to
    $CARDRULES_SCREENS (default: the test's folder)."""
    import os
    from pathlib import Path

    browser_path = chromium()
    if browser_path is None:
        pytest.skip("no Chromium installed (Debian: apt-get install chromium); .ci/run installs it")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the browser test drives Chromium with playwright")
    screens = Path(os.environ.get("CARDRULES_SCREENS") or tmp_path)
    process, lines = start("klats", "--seats", "human,human", "--param", "target_total=50", "--seed", "3",
                           data=tmp_path / "tables")
    seat_links = links(lines)
    try:
        with within(150), sync_api.sync_playwright() as p:
            browser = p.chromium.launch(executable_path=browser_path, args=["--no-sandbox"])
            pages = []
            for seat in (0, 1):
                page = browser.new_context(viewport={"width": 1100, "height": 820}).new_page()
                page.goto(seat_links[seat])
                page.wait_for_selector("#seats tr[data-seat]")
                pages.append(page)
            look = """seat => {  // what the page shows: its hands, its buttons, its last move's number
                const hand = (s) => document.querySelector(`#seats tr[data-seat='${s}'] td[data-zone='hand']`);
                const last = document.querySelector('#log > li:last-child');
                return {own: hand(seat).querySelectorAll('.card').length, other: hand(1 - seat).innerText.trim(),
                        other_cards: hand(1 - seat).querySelectorAll('.card').length,
                        buttons: document.querySelectorAll('#moves button').length, last: last ? last.value : 0,
                        over: document.querySelector('#result').innerText.includes('match over')};
            }"""
            moves, rng = 0, random.Random(2)
            while True:
                shown = [page.evaluate(look, seat) for seat, page in enumerate(pages)]
                for seen in shown:  # its own hand as cards; the other's as a count
                    assert seen["other_cards"] == 0 and re.fullmatch(r"\d+ cards?", seen["other"]), seen
                    assert seen["last"] == moves
                if shown[0]["over"]:
                    break
                if moves == 8:
                    for seat, page in enumerate(pages):
                        assert shown[seat]["own"]
                        page.screenshot(path=str(screens / f"serve_seat{seat}.png"), full_page=True)
                mover = next(s for s, seen in enumerate(shown) if seen["buttons"])
                pages[mover].locator("#moves button").nth(rng.randrange(shown[mover]["buttons"])).click()
                moves += 1
                for page in pages:
                    page.wait_for_function("n => (document.querySelector('#log > li:last-child')?.value || 0) >= n",
                                           arg=moves)
            for seat, page in enumerate(pages):
                assert "match over" in page.inner_text("#result") and "no more moves" in page.inner_text("#moves")
                page.screenshot(path=str(screens / f"serve_seat{seat}_end.png"), full_page=True)
            browser.close()
        assert moves > 8, moves  # seed 3's match and these clicks: one screenshot mid-match
    finally:
        stop(process)


def test_a_browser_too_slow_to_read_is_let_go(server, monkeypatch):
    """More messages waiting than OUTBOX: they are dropped and the socket closed, so it reconnects
    to the state as it is now; the server holds nothing more for it."""
    tables, client = server
    table = tables.create(compiled("klats", 2), "klats", ["human", "human"], seed=2)
    monkeypatch.setattr(serving, "OUTBOX", 4)
    with within(30), client() as c, c.websocket_connect(f"/ws/{table.id}/0") as ws:
        hello(ws, table.tokens[0])
        connection = c.app.state.server.sockets[(table.id, 0)]
        c.portal.call(lambda: _flood(connection))
        with pytest.raises(WebSocketDisconnect) as closed:
            while True:
                receive(ws)
        assert closed.value.code == 1013


async def _flood(connection) -> None:
    for _ in range(serving.OUTBOX + 3):  # sent at once, before the writer can take any
        connection.send({"type": "state", "n": 0})
