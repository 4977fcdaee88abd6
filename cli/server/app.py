"""The ASGI application of `cardrules serve` (Starlette): the pages, the lobby's two calls, and
a WebSocket per seat that carries the seat's moves in and its own state out.

A socket first says hello with its seat's token; a wrong or missing token, or a seat that
another socket holds, is refused and closed. What a browser sends is bounded: a message's size
(`MAX_MESSAGE`), and its rate (a bucket of `BURST` messages refilled at `RATE` a second; a
socket that keeps flooding is closed). A bad message gets a refusal that says why, and never
reaches another table. Bots think in worker threads, so a long search holds up only its table.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from collections.abc import AsyncIterator, Mapping
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager
from functools import lru_cache
from importlib.resources import files
from typing import TypedDict, cast

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocket, WebSocketDisconnect

from ...interpreter.bots import SeatView
from ...interpreter.compile import Compiled, compile_ruleset
from ...interpreter.engine import EngineError
from ...interpreter.errors import CardrulesError, clip
from ...interpreter.export import Json
from ...interpreter.seats import KINDS, SeatError, parse_seat
from .tables import Table, Tables, load_spec

MAX_MESSAGE = 2_000  # characters of one message from a browser
MAX_FRAME = 64 * 1024  # bytes of a WebSocket frame the server reads at all (uvicorn closes the socket beyond)
MAX_BODY = 4_096  # bytes of a lobby request
RATE, BURST = 10.0, 30  # messages a second a socket may send, and how many at once
STRIKES = 50  # messages refused for the rate before the socket is closed
HELLO_SECONDS = 10.0  # a socket that has not said hello by then is closed
OUTBOX = 256  # messages waiting for a slow browser before its socket is closed (it reconnects)
BOT_WORKERS = 4

log = logging.getLogger("cardrules.serve")
SECURITY = {  # the page loads only its own files and talks only to its own server
    "Content-Security-Policy": "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
                               "connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class Variant(TypedDict):
    name: str
    requires: list[str]


class Offered(TypedDict):
    """A shipped ruleset as the lobby offers it."""

    name: str
    title: str
    counts: list[int]
    editions: list[str]
    variants: list[Variant]


def _page(name: str) -> str:
    return (files("cardrules.cli.server") / "static" / name).read_text("utf-8")


class Refused(Exception):
    """A message from a browser that is refused; the text says why."""


class Connection:
    """One seat's socket: the messages waiting for it, sent in order by its writer."""

    def __init__(self, socket: WebSocket, table: Table, seat: int, rate: float = RATE):
        self.socket, self.table, self.seat, self.rate = socket, table, seat, rate
        self.outbox: asyncio.Queue[Json | None] = asyncio.Queue(OUTBOX)  # None: close the socket
        self.tokens, self.refilled, self.strikes = float(BURST), time.monotonic(), 0

    def send(self, message: Json) -> None:
        """Queue `message` for this socket; a browser too slow to take them is let go."""
        try:
            self.outbox.put_nowait(message)
        except asyncio.QueueFull:  # what waits is dropped; the writer closes the socket, the page reconnects
            while not self.outbox.empty():
                self.outbox.get_nowait()
            self.outbox.put_nowait(None)

    async def write(self) -> None:
        while True:
            message = await self.outbox.get()
            if message is None:
                await self.socket.close(1013, "too slow to follow the table; reconnect")
                return
            await self.socket.send_text(json.dumps(message, ensure_ascii=False))

    def allowed(self) -> bool:
        """Whether one more message is within the rate (a token bucket)."""
        now = time.monotonic()
        self.tokens = min(float(BURST), self.tokens + (now - self.refilled) * self.rate)
        self.refilled = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        self.strikes += 1
        return False


class Server:
    """The tables of one server, the sockets at their seats, and the bots' worker threads."""

    def __init__(self, tables: Tables, lobby: bool, rate: float = RATE):
        self.tables, self.lobby, self.rate = tables, lobby, rate
        self.sockets: dict[tuple[str, int], Connection] = {}
        self.pool = ThreadPoolExecutor(BOT_WORKERS, thread_name_prefix="cardrules-bot")
        self.disk = ThreadPoolExecutor(1, thread_name_prefix="cardrules-sync")  # a disk flush holds up no table
        self.tasks: set[asyncio.Task[None]] = set()

    # ---------------------------------------------------------------- the tables going on

    def broadcast(self, table: Table) -> None:
        """Send every seat at `table` that has a socket its own state."""
        for seat in range(len(table.kinds)):
            connection = self.sockets.get((table.id, seat))
            if connection is not None:
                connection.send(table.state_for(seat))

    def start_bots(self, table: Table) -> None:
        """Let the bots of `table` move if one is to; else the table waits for a person, and its
        journal is made durable (in the disk's thread) as `play` does before each wait."""
        if not table.bot_to_move():
            self.disk.submit(table.journal.sync)
        elif not table.busy:
            task = asyncio.get_running_loop().create_task(self.run_bots(table))
            self.tasks.add(task)
            task.add_done_callback(self.tasks.discard)

    async def run_bots(self, table: Table) -> None:
        """Let the bots play until a person is to move or the match ends; a bot that searches
        does it in a worker thread, on a copy of what its seat knows."""
        table.busy = True
        loop = asyncio.get_running_loop()
        try:
            while table.bot_to_move():
                bot, given = table.bot_turn()
                # `bots.Bot` names a SeatView; a bot that does not observe reads only `actions()`,
                # which the table's `_Legal` gives, as `bots.Choices` does
                seen = cast(SeatView, given)
                if getattr(bot, "observes", False):
                    action = await loop.run_in_executor(self.pool, bot.choose, seen)
                else:
                    action = bot.choose(seen)
                    await asyncio.sleep(0)  # a long run of quick bots lets the other tables in
                try:
                    table.play(action)
                except EngineError as e:
                    table.broken = str(e)
                self.broadcast(table)
            self.disk.submit(table.journal.sync)  # waiting for a person: every move so far on the disk
        except Exception as e:  # noqa: BLE001 - a bug of ours stops this table, not the server
            log.exception("table %s stopped", table.id)
            table.broken = f"internal error: {type(e).__name__}: {clip(str(e), 200)}"
            self.broadcast(table)
        finally:
            table.busy = False

    # ---------------------------------------------------------------- a seat's socket

    async def seat_socket(self, socket: WebSocket) -> None:
        await socket.accept()
        table = self.tables.open.get(socket.path_params["table"])
        seat = socket.path_params["seat"]
        if table is None or not 0 <= seat < len(table.kinds):
            await _refuse(socket, 4404, "no such table or seat here: the match has ended, or the link is wrong")
            return
        try:
            hello = await asyncio.wait_for(socket.receive(), HELLO_SECONDS)
        except TimeoutError:
            await _refuse(socket, 4408, f"no hello within {HELLO_SECONDS:g} seconds")
            return
        if hello["type"] == "websocket.disconnect":
            return
        try:
            token = _message(hello).get("token")
        except Refused as e:
            await _refuse(socket, 4400, f"the first message must be the hello with the seat's token: {e}")
            return
        if not table.is_person(seat):
            await _refuse(socket, 4403, f"seat {seat} is played by a bot ({table.kinds[seat]})")
            return
        if not table.token_fits(seat, token):
            await _refuse(socket, 4403, "this link's token does not open the seat: ask for the seat's link again")
            return
        key = (table.id, seat)
        if key in self.sockets:
            await _refuse(socket, 4409, f"seat {seat} is open in another window; close it, or wait a few seconds")
            return
        connection = self.sockets[key] = Connection(socket, table, seat, self.rate)
        writer = asyncio.get_running_loop().create_task(connection.write())
        try:
            connection.send(table.state_for(seat))
            await self._serve(connection)
        finally:
            del self.sockets[key]
            writer.cancel()

    async def _serve(self, connection: Connection) -> None:
        """Answer the seat's messages until its socket closes."""
        socket, table, seat = connection.socket, connection.table, connection.seat
        while True:
            try:
                message = await socket.receive()
            except (WebSocketDisconnect, RuntimeError):
                return
            if message["type"] == "websocket.disconnect":
                return
            if not connection.allowed():
                if connection.strikes >= STRIKES:
                    await socket.close(1008, "too many messages")
                    return
                connection.send({"type": "reply", "ok": False,
                                 "text": f"too many messages: at most {self.rate:g} a second; this one is "
                                         "ignored"})
                continue
            try:
                reply = self._answer(table, seat, _message(message))
            except Refused as e:
                reply = {"type": "reply", "ok": False, "text": str(e)}
            connection.send(reply)
            if reply.get("moved"):
                self.broadcast(table)
                self.start_bots(table)

    def _answer(self, table: Table, seat: int, message: Json) -> Json:
        kind = message.get("type")
        if "seat" in message and message["seat"] != seat:
            raise Refused(f"this link plays seat {seat} only; a message for seat {clip(str(message['seat']), 10)} "
                          "is refused")
        if kind == "state":
            return table.state_for(seat)
        if kind not in ("move", "why", "card"):
            raise Refused(f"unknown message type {clip(json.dumps(kind), 30)}: the types are move, why, card, state")
        text = message.get("move" if kind != "card" else "name", "")
        if not isinstance(text, str):
            raise Refused(f"'{kind}' takes text")
        text = text.strip()
        if kind == "move":
            if table.busy:
                return {"type": "reply", "to": kind, "ok": False, "text": "a bot is thinking; wait for your turn"}
            try:
                reply = table.move(seat, text)
            except EngineError as e:
                table.broken = str(e)
                return {"type": "reply", "to": kind, "ok": False, "text": str(e), "moved": True}
            return {"type": "reply", "to": kind, "ok": reply.ok, "text": reply.text, "moved": reply.ok}
        reply = table.why(seat, text) if kind == "why" else table.card(text)
        return {"type": "reply", "to": kind, "ok": reply.ok, "text": reply.text}

    # ---------------------------------------------------------------- the lobby

    async def rulesets(self, request: Request) -> Response:
        if not self.lobby:
            return PlainTextResponse("this server serves its own tables; there is no lobby", 404)
        return JSONResponse({"rulesets": shipped(), "kinds": list(KINDS)})

    async def new_table(self, request: Request) -> Response:
        if not self.lobby:
            return PlainTextResponse("this server serves its own tables; there is no lobby", 404)
        try:
            asked = _message({"type": "websocket.receive", "text": (await _body(request)).decode("utf-8", "replace")})
            spec, kinds = _table_asked(asked)
            table = self.tables.create(_compiled(spec, len(kinds)), spec, kinds)
        except (Refused, SeatError, CardrulesError, OSError) as e:
            text = getattr(e, "message", "") or str(e)
            hint = getattr(e, "hint", "")
            return JSONResponse({"error": text + (f" (hint: {hint})" if hint else "")}, 400)
        self.start_bots(table)
        return JSONResponse({"table": table.id, "title": table.title, "seats": [
            {"seat": seat, "kind": kind, "url": f"/t/{table.id}/{seat}#{table.tokens[seat]}" if seat in table.tokens
             else None} for seat, kind in enumerate(table.kinds)]})

    # ---------------------------------------------------------------- pages

    async def home(self, request: Request) -> Response:
        if not self.lobby:
            return PlainTextResponse("cardrules serve: open your seat's link to play", 200)
        return HTMLResponse(_page("lobby.html"))

    async def table_page(self, request: Request) -> Response:
        table = self.tables.open.get(request.path_params["table"])
        if table is None:
            return PlainTextResponse("no such table here: the match has ended, or the link is wrong", 404)
        return HTMLResponse(_page("table.html"))

    def close(self) -> None:
        self.pool.shutdown(wait=False, cancel_futures=True)
        self.disk.shutdown(wait=True)
        self.tables.close()


async def _refuse(socket: WebSocket, code: int, why: str) -> None:
    """Tell the page why, then close with a code it can tell apart (4xxx: as HTTP's 4xx)."""
    try:
        await socket.send_text(json.dumps({"type": "refused", "code": code, "text": why}))
        await socket.close(code, why[:120])
    except (RuntimeError, WebSocketDisconnect):
        pass


def _message(message: Mapping[str, object]) -> Json:
    """A browser's message as a JSON object, or `Refused` saying what is wrong with it."""
    text = message.get("text")
    if not isinstance(text, str):  # None: a binary frame
        raise Refused("messages are JSON text, not binary frames")
    if len(text) > MAX_MESSAGE:
        raise Refused(f"a message of {len(text):,} characters: at most {MAX_MESSAGE:,}")
    try:
        data = json.loads(text)
    except (ValueError, RecursionError):
        raise Refused("not JSON: a message is an object such as {\"type\": \"move\", \"move\": \"...\"}") from None
    if not isinstance(data, dict):
        raise Refused("a message is a JSON object")
    return data


async def _body(request: Request) -> bytes:
    """A request's body, refused beyond `MAX_BODY` bytes before more is read."""
    body = b""
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise Refused(f"a request of more than {MAX_BODY:,} bytes")
    return body


def shipped() -> list[Offered]:
    """The shipped rulesets as the lobby offers them: editions, variants, player counts."""
    return [Offered(**info) for info in _shipped()]


@lru_cache(maxsize=1)
def _shipped() -> tuple[Offered, ...]:
    found = []
    for entry in sorted(files("cardrules.rulesets").iterdir(), key=lambda e: e.name):
        if not entry.name.endswith(".rules"):
            continue
        name = entry.name[:-len(".rules")]
        model = load_spec(name).model
        found.append(Offered(name=name, title=model.title, counts=list(model.counts),
                             editions=[o.name for o in model.options if o.kind == "edition"],
                             variants=[Variant(name=o.name, requires=list(o.requires))
                                       for o in model.options if o.kind == "variant"]))
    return tuple(found)


def _table_asked(asked: Json) -> tuple[str, list[str]]:
    """The spec and seats a lobby request asks for, only of shipped rulesets and their options."""
    offered = {r["name"]: r for r in shipped()}
    name, edition, variants, seats = (asked.get(k) for k in ("ruleset", "edition", "variants", "seats"))
    if not isinstance(name, str) or name not in offered:
        raise Refused(f"no shipped ruleset {clip(json.dumps(name), 40)}: " + ", ".join(offered))
    ruleset = offered[name]
    if edition not in (None, "", *ruleset["editions"]):
        raise Refused(f"{name} has no edition {clip(json.dumps(edition), 40)}")
    variants = variants or []
    names = [v["name"] for v in ruleset["variants"]]
    if not isinstance(variants, list) or any(v not in names for v in variants) or len(set(variants)) != len(variants):
        raise Refused(f"the variants of {name} are: {', '.join(names) or 'none'}")
    if not isinstance(seats, list) or not all(isinstance(s, str) and len(s) <= 40 for s in seats):
        raise Refused("seats: a list of kinds, e.g. [\"human\", \"ismcts\"]")
    if len(seats) not in ruleset["counts"]:
        raise Refused(f"{name} is played by {', '.join(map(str, ruleset['counts']))} players, not {len(seats)}")
    kinds = [str(parse_seat(s)) for s in seats]
    return name + (f"@{edition}" if edition else "") + "".join(f"+{v}" for v in variants), kinds


@lru_cache(maxsize=64)
def _compiled(spec: str, players: int) -> Compiled:
    """A lobby's ruleset compiled once for all its tables (a compiled ruleset is never changed)."""
    return compile_ruleset(load_spec(spec).model, players)


def make_app(tables: Tables, lobby: bool, rate: float = RATE) -> Starlette:
    """The application serving `tables` (and, with `lobby`, making new ones from shipped rulesets);
    `rate`: messages a second a socket may send (tests and the load check play faster than people)."""
    server = Server(tables, lobby, rate)

    @asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        for table in list(tables.open.values()):
            server.start_bots(table)
        try:
            yield
        finally:
            server.close()

    app = Starlette(routes=[
        Route("/", server.home),
        Route("/favicon.ico", lambda request: Response(status_code=204)),  # no icon, and no 404 for it
        Route("/t/{table}/{seat:int}", server.table_page),
        Route("/api/rulesets", server.rulesets),
        Route("/api/tables", server.new_table, methods=["POST"]),
        WebSocketRoute("/ws/{table}/{seat:int}", server.seat_socket),
        Mount("/static", StaticFiles(packages=[("cardrules.cli.server", "static")]), name="static"),
    ], lifespan=lifespan, middleware=[Middleware(SecurityHeaders)])
    app.state.server = server  # tests reach the tables through it
    return app


class SecurityHeaders:
    """Every HTTP response carries `SECURITY`'s headers."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            return await self.app(scope, receive, send)

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []),
                                      *((k.lower().encode(), v.encode()) for k, v in SECURITY.items())]
            await send(message)
        await self.app(scope, receive, with_headers)
