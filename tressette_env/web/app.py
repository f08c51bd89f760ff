"""The web table's server: a Starlette app with the page and a websocket; ``serve`` runs it with uvicorn.

``make_app()`` serves the page (``/``: ``static/index.html``; ``/static``: its scripts and
styles) and the websocket ``/ws``, which speaks the web protocol (JSON text frames,
``docs/web.md``): a connection creates a table (``create``: it takes a person's seat, bots
fill the others), watches a table of bots (``watch``), takes a free person's seat by its link
(``join``), acts, asks a hint, deals the next hand, sets the bots' pace, or uploads a record to
step through (``record``). The bots play in a worker thread at the table's pace; after every
action each connection of the table gets its own ``view`` (``Table.message_for``: its seat's
information only; a spectator of a table of bots sees every hand). When a hand ends, its view
goes out at once with the review ``pending``, and a ``review`` message follows when it is
computed (``Table.review_message``; 0.2 s at the median for a four-seat hand, 2 s at worst), so
that nobody's last card waits on it; ``"review": false`` in ``create`` or ``watch`` opens a
table without reviews.

Bounds and errors:

| what | bound |
| --- | --- |
| a frame | ``MAX_FRAME`` (64 KiB) of text; a ``record`` frame ``MAX_RECORD_FRAME``; lists and objects ``MAX_DEPTH`` deep |
| tables, connections | ``max_tables`` (64), ``max_connections`` (256) at once |
| a table's connections | ``MAX_TABLE_CONNECTIONS`` (its persons and spectators) |
| the pace | 0 to ``MAX_PACE_MS`` (5000) milliseconds between the bots' actions |

Every bad frame (not JSON, too large, an unknown type, an unknown game, switch or player, a seat
that is not a person's, not your turn, an illegal action, a full table, too many tables or
connections) is answered ``{"type": "error", "message": ...}`` saying what was wrong and what
is allowed, and changes nothing. A client's ``"id"`` comes back in the reply (an error too); in a
``hint``, whose ``"id"`` is the action's, it comes back as ``"ref"``. A connection from another site's page (its ``Origin`` is not
this server's) is refused, and so, on a server bound to a loopback address, is one whose ``Host``
is not a loopback name (``LOOPBACK_HOSTS``: a page of another site whose name was pointed at
this machine). A table is closed, its bots stopped, when its last connection leaves. A table of
several people is dealt from a secret seed (a ``create`` naming one is refused): a chosen seed, or
one of few enough to search, would tell each person the others' hands. The links to a table's
free seats go to its creator only. Each connection's messages wait in a queue of its own
(``MAX_QUEUED``): a connection that does not read holds up nobody, and is closed when its queue
is full. A ``next`` naming the deal it closes (``"deal"``) does nothing when that deal is
already followed (two people pressed Next hand).

The bots a page may seat are ``table.WEB_PLAYERS`` (``ppo`` where the game has a model) and the
model files the server was started with (``models``), named by their file names: a page never
names a path on the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import secrets
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from starlette.applications import Starlette
from starlette.responses import FileResponse, PlainTextResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from ..messages import cut, not_json, reason, shown
from ..records import _too_deep
from .records_view import replay_message
from .table import PERSON, WEB_PLAYERS, Table, TableError, catalog_message

STATIC = Path(__file__).parent / "static"
LOOPBACK_HOSTS = ("127.0.0.1", "localhost", "::1")
"""The host names a server bound to a loopback address answers as (``serve``): another is refused."""
BOT_WORKERS = 4
"""Threads for the bots' decisions, all tables together (a search bot's takes up to seconds)."""
REVIEW_WORKERS = 2
"""Threads for the after-hand reviews and the records' replays, all tables together (the solver releases the GIL)."""
MAX_FRAME = 64 * 2**10
"""The longest text frame read, in characters, but a ``record`` frame's."""
MAX_RECORD_FRAME = 2 * 2**20
"""The longest ``record`` frame, in characters (2 MiB; its text is bounded by ``records_view.MAX_TEXT_BYTES`` too)."""
MAX_DEPTH = 32
"""The deepest nesting of lists and objects a frame may have."""
MAX_QUEUED = 256
"""The most messages waiting for a connection that does not read; one more closes it."""
MAX_QUEUED_BYTES = 64 * 2**20
"""The most bytes of messages waiting for (or being written to) a connection; one more message closes it.

A replay's reply is the largest message (up to ``records_view.MAX_FRAMES`` views: some 20 MB); a
client asking for replays without reading them held 256 of them before."""
MAX_TABLE_CONNECTIONS = 16
"""The most connections one table has (its persons and spectators)."""
MAX_PACE_MS = 5000
DEFAULT_PACE_MS = 600
TYPES = ("catalog", "create", "watch", "join", "act", "hint", "next", "pace", "record", "leave")
"""The types of a client's message."""


class _Client:
    """One websocket connection: its table and agent (None: a spectator), and its queue of messages to send.

    ``send`` only queues: a table never waits on a connection that reads slowly. A task of the
    connection's own (``start``) writes the queue out in order; a connection that lets
    ``MAX_QUEUED`` messages or ``MAX_QUEUED_BYTES`` pile up is closed (code 1008), and its seat is
    free again.
    """

    def __init__(self, ws: WebSocket):
        self.ws = ws
        self.room: _Room | None = None
        self.agent: int | None = None
        self.queue: asyncio.Queue[str] = asyncio.Queue(MAX_QUEUED)
        self.pending = 0
        """Bytes queued or being written."""
        self.writer: asyncio.Task | None = None
        self.gone = False

    def start(self) -> None:
        self.writer = asyncio.create_task(self._write())

    async def stop(self) -> None:
        self.gone = True
        if self.writer is not None:
            self.writer.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.writer

    async def send(self, message: dict) -> None:
        if self.gone:
            return
        text = json.dumps(message, separators=(",", ":"))
        try:
            if self.pending and self.pending + len(text) > MAX_QUEUED_BYTES:  # (one message alone always goes)
                raise asyncio.QueueFull
            self.queue.put_nowait(text)
            self.pending += len(text)
        except asyncio.QueueFull:  # it does not read: closed, so that it holds no seat nor memory
            self.gone = True
            if self.writer is not None:
                self.writer.cancel()
            with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
                await self.ws.close(
                    code=1008, reason=f"messages unread past {MAX_QUEUED} or {MAX_QUEUED_BYTES >> 20} MiB"
                )

    async def send_now(self, message: dict) -> None:
        """Write at once (before ``start``: the refusal of a connection)."""
        with contextlib.suppress(RuntimeError, WebSocketDisconnect, OSError):
            await self.ws.send_text(json.dumps(message, separators=(",", ":")))

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            try:
                await self.ws.send_text(text)
            except (RuntimeError, WebSocketDisconnect, OSError):  # the connection went away meanwhile
                self.gone = True
                return
            self.pending -= len(text)


class _Room:
    """A table with its connections, the tokens of its person seats, its bots' pace and its driver task."""

    def __init__(self, table: Table, pace_ms: int, players: list[str], creator: int | None = None):
        self.table = table
        self.creator = creator  # the agent of the person who opened the table: the links to the others are his
        self.players = players  # as the page named them (a model by its file's name)
        self.pace_ms = pace_ms
        self.clients: set[_Client] = set()
        self.tokens = {agent: secrets.token_urlsafe(12) for agent in table.persons}
        self.seated: dict[int, _Client] = {}
        self.lock = asyncio.Lock()  # one change of the table (and its messages) at a time
        self.wake = asyncio.Event()
        self.task: asyncio.Task | None = None
        self.closed = False

    def link(self, agent: int) -> str:
        return f"/?table={self.table.table_id}&token={self.tokens[agent]}"

    def free_links(self) -> dict[str, str]:
        return {str(a): self.link(a) for a in self.table.persons if a not in self.seated}


class _Refused(Exception):
    """A bad request: its message is the error reply."""


class Server:
    """The tables and connections of one app (``make_app``)."""

    def __init__(
        self,
        max_tables: int = 64,
        max_connections: int = 256,
        models: Sequence[str | Path] = (),
        secret_seeds: Any = None,
        allowed_hosts: Sequence[str] | None = None,
    ):
        self.max_tables = max_tables
        self.allowed_hosts = None if allowed_hosts is None else frozenset(h.lower() for h in allowed_hosts)
        self.secret_seeds = secret_seeds if secret_seeds is not None else secrets.SystemRandom()
        self.max_connections = max_connections
        self.models = {Path(m).name: str(m) for m in models}
        self.rooms: dict[str, _Room] = {}
        self.connections = 0
        self.catalog = catalog_message(list(self.models))
        # The slow work has pools of its own, so that a table's quick work (an action checked and
        # played, its views written: asyncio's default pool) never queues behind a search bot's
        # decision, a hand's review (0.2 s to 2 s each) or a record's replay (up to 0.5 s).
        self.bot_pool = ThreadPoolExecutor(BOT_WORKERS, thread_name_prefix="tressette-bot")
        self.review_pool = ThreadPoolExecutor(REVIEW_WORKERS, thread_name_prefix="tressette-review")

    async def _in(self, pool: ThreadPoolExecutor, work: Any) -> Any:
        return await asyncio.get_running_loop().run_in_executor(pool, work)

    # ------------------------------------------------------------------ the connection

    async def websocket(self, ws: WebSocket) -> None:
        origin = ws.headers.get("origin")
        await ws.accept()
        client = _Client(ws)
        host = ws.headers.get("host", "")
        if self.allowed_hosts is not None and (urlsplit(f"//{host}").hostname or "") not in self.allowed_hosts:
            # a page of another site whose name was pointed at this machine (DNS rebinding) names its own host
            await client.send_now(
                _error(f"this server answers as {', '.join(sorted(self.allowed_hosts))}, not {cut(host)}")
            )
            await ws.close(code=1008)
            return
        if origin and urlsplit(origin).netloc != host:
            await client.send_now(_error(f"a connection from another site ({cut(origin)}) is refused"))
            await ws.close(code=1008)
            return
        if self.connections >= self.max_connections:
            await client.send_now(_error(f"too many connections: this server takes {self.max_connections} at once"))
            await ws.close(code=1013)
            return
        self.connections += 1
        client.start()
        try:
            while True:
                raw = await ws.receive()
                if raw["type"] == "websocket.disconnect":
                    break
                if client.gone:  # closed for not reading, or its writes failed: what it sent before goes unread
                    break
                text = raw.get("text")
                if text is None:
                    await client.send(_error("send text frames of JSON, not binary ones"))
                    continue
                await self._frame(client, text)
        except WebSocketDisconnect:
            pass
        finally:
            self.connections -= 1
            await self._leave(client)
            await client.stop()

    async def _frame(self, client: _Client, text: str) -> None:
        """Read one frame and answer it; a bad one gets an error reply and changes nothing."""
        ident = None
        try:
            message = _parse(text)
            ident = message.get("id")
            if ident is not None and not (
                (isinstance(ident, int) and not isinstance(ident, bool) and abs(ident) < 2**53)
                or (isinstance(ident, str) and len(ident) <= 64)
            ):
                bad, ident = ident, None
                raise _Refused(f'"id" {shown(bad)}: a number or a short string the reply echoes')
            kind = message.get("type")
            if kind not in TYPES:
                raise _Refused(f"unknown message type {shown(kind)}; the types are: {', '.join(TYPES)}")
            replies = await getattr(self, f"_on_{kind}")(client, message)
        except (_Refused, TableError) as error:
            replies = [_error(str(error))]
        except Exception as error:  # noqa: BLE001 - a fault of the server's own: the connection stays, and says it
            replies = [_error(f"the server failed on this message: {reason(error)}")]
        for reply in replies:
            if ident is not None:  # a hint's own "id" is its action's: the client's number is then "ref"
                reply = {**reply, "ref" if "id" in reply else "id": ident}
            await client.send(reply)

    # ------------------------------------------------------------------ the messages

    async def _on_catalog(self, client: _Client, message: dict) -> list[dict]:
        return [self.catalog]

    async def _on_create(self, client: _Client, message: dict) -> list[dict]:
        players = self._players(message.get("players"), persons=True)
        seat = message.get("seat", 0)
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < len(players):
            raise _Refused(f'"seat" {shown(seat)}: your agent, 0 to {len(players) - 1}, one of the "person" entries')
        if players[seat] != PERSON:
            persons = [a for a, spec in enumerate(players) if spec == PERSON]
            raise _Refused(f'"seat" {seat} is a bot ({players[seat]}), not a person\'s seat; yours may be {persons}')
        room = await self._open(message, players, creator=seat)
        return await self._enter(client, room, seat)

    async def _on_watch(self, client: _Client, message: dict) -> list[dict]:
        players = self._players(message.get("players"), persons=False)
        room = await self._open(message, players)
        return await self._enter(client, room, None)

    async def _on_join(self, client: _Client, message: dict) -> list[dict]:
        table_id, token = message.get("table"), message.get("token")
        room = self.rooms.get(table_id) if isinstance(table_id, str) else None
        if room is None:
            raise _Refused(f"no table {shown(table_id)} is open here (a table closes when its last connection leaves)")
        readable = isinstance(token, str) and token.isascii() and len(token) <= 64
        agent = next((a for a, t in room.tokens.items() if readable and secrets.compare_digest(t, token)), None)
        if agent is None:
            raise _Refused(f"the token does not name a person's seat of table {table_id}: open the link you were given")
        if agent in room.seated and room.seated[agent] is not client:
            raise _Refused(f"player {agent}'s seat of table {table_id} is taken: ask who sent you the link")
        if len(room.clients) >= MAX_TABLE_CONNECTIONS and client not in room.clients:
            raise _Refused(f"table {table_id} is full: {MAX_TABLE_CONNECTIONS} connections at most")
        return await self._enter(client, room, agent)

    async def _on_act(self, client: _Client, message: dict) -> list[dict]:
        room, agent = self._seated(client, "act")
        if "action" not in message:
            raise _Refused('an act names its action: {"type": "act", "action": <id or name>}')
        action = message["action"]
        async with room.lock:
            await asyncio.to_thread(room.table.act, agent, action)
            await self._broadcast(room)
        room.wake.set()
        return []

    async def _on_hint(self, client: _Client, message: dict) -> list[dict]:
        room, agent = self._seated(client, "hint")
        hint = await asyncio.to_thread(room.table.hint, agent)
        return [{"type": "hint", **hint}]

    async def _on_next(self, client: _Client, message: dict) -> list[dict]:
        room = client.room
        if room is None:
            raise _Refused("you are at no table: create, watch or join one first")
        deal = message.get("deal")
        async with room.lock:
            dealt = await asyncio.to_thread(room.table.next_hand, deal)
            if dealt:  # not when another person's next dealt this hand already
                await self._broadcast(room)
        room.wake.set()
        return []

    async def _on_pace(self, client: _Client, message: dict) -> list[dict]:
        if client.room is None:
            raise _Refused("you are at no table: create, watch or join one first")
        client.room.pace_ms = _pace(message.get("ms"))
        return [{"type": "pace", "ms": client.room.pace_ms}]

    async def _on_record(self, client: _Client, message: dict) -> list[dict]:
        text, index = message.get("text"), message.get("index", 0)
        return [await self._in(self.review_pool, lambda: replay_message(text, index))]

    async def _on_leave(self, client: _Client, message: dict) -> list[dict]:
        room = client.room
        await self._leave(client)
        return [{"type": "left", "table": room.table.table_id if room else None}]

    # ------------------------------------------------------------------ tables

    def _players(self, players: Any, persons: bool) -> list[str]:
        """The player specs of a create (``persons``: at least one ``"person"``) or a watch (none)."""
        bots = [*WEB_PLAYERS, *self.models]
        allowed = ([PERSON] if persons else []) + bots
        if not isinstance(players, list) or not players or len(players) > 16:
            raise _Refused(f'"players": a list of one spec per player of the game: {", ".join(allowed)}')
        if persons and PERSON not in players:
            raise _Refused('a table you play has a "person" entry (yours); to watch bots send "watch"')
        if not persons and PERSON in players:
            raise _Refused('a table you watch has only bots: "person" seats a person (send "create" to play)')
        for agent, spec in enumerate(players):
            if spec not in allowed:
                raise _Refused(f"player {agent}: unknown player {shown(spec)}; the players are: {', '.join(allowed)}")
        return list(players)

    async def _open(self, message: dict, players: list[str], creator: int | None = None) -> _Room:
        """A new table (``create`` or ``watch``), checked before anything is kept."""
        if len(self.rooms) >= self.max_tables:
            raise _Refused(f"too many tables: this server holds {self.max_tables} at once; try again later")
        seed = message.get("seed")
        if seed is not None and players.count(PERSON) > 1:
            # each person sees one hand: a seed one of them chose, or few enough to search, would tell the others'
            raise _Refused(
                '"seed": a table of several people is dealt from a secret seed (a chosen one would tell who holds '
                'what): leave "seed" out'
            )
        if seed is None:
            seed = self.secret_seeds.getrandbits(63)  # 2**63 deals: nobody finds the seed from the hand he holds
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise _Refused(f'"seed" {shown(seed)}: an integer 0 to 2**63 - 1 (or leave it out: a random one)')
        pace = _pace(message.get("pace_ms", DEFAULT_PACE_MS))
        table_id = secrets.token_hex(3)
        while table_id in self.rooms:
            table_id = secrets.token_hex(3)
        game, rules = message.get("game"), message.get("rules", {})
        specs = [self.models.get(spec, spec) for spec in players]  # a model's name -> its file, on the server only
        review = message.get("review", True)
        table = await asyncio.to_thread(Table, game, rules, specs, seed, table_id, None, review)
        if len(self.rooms) >= self.max_tables:  # another table opened while this one was made
            raise _Refused(f"too many tables: this server holds {self.max_tables} at once; try again later")
        room = _Room(table, pace, players, creator)
        self.rooms[table_id] = room
        room.task = asyncio.create_task(self._drive(room))
        return room

    async def _enter(self, client: _Client, room: _Room, agent: int | None) -> list[dict]:
        """``client`` takes ``agent``'s seat (None: watches) at ``room``, leaving its table before."""
        if client.room is not None and client.room is not room:
            await self._leave(client)
        elif client.room is room and client.agent is not None:
            room.seated.pop(client.agent, None)
        client.room, client.agent = room, agent
        room.clients.add(client)
        if agent is not None:
            room.seated[agent] = client
        table = room.table
        joined = {
            "type": "joined",
            "table": table.table_id,
            "you": agent,
            "seat": table.state.public.table.seat_of[agent] if agent is not None else None,
            "names": ["you" if a == agent else f"player {a}" for a in range(table.agents)],
            "players": room.players,
            "links": room.free_links() if agent is not None and agent == room.creator else {},
            "own_link": room.link(agent) if agent is not None else None,
            "pace_ms": room.pace_ms,
        }
        async with room.lock:
            view = await asyncio.to_thread(table.message_for, agent)
        room.wake.set()
        return [joined, view]

    def _seated(self, client: _Client, what: str) -> tuple[_Room, int]:
        if client.room is None:
            raise _Refused("you are at no table: create, watch or join one first")
        if client.agent is None:
            raise _Refused(f"you watch this table: a spectator does not {what}")
        return client.room, client.agent

    async def _leave(self, client: _Client) -> None:
        """``client`` leaves its table; a table with no connection left is closed (its bots stopped)."""
        room = client.room
        if room is None:
            return
        client.room = None
        room.clients.discard(client)
        if client.agent is not None and room.seated.get(client.agent) is client:
            del room.seated[client.agent]
        client.agent = None
        if not room.clients:
            room.closed = True
            if room.task is not None:
                room.task.cancel()
            self.rooms.pop(room.table.table_id, None)

    async def _broadcast(self, room: _Room) -> None:
        """Each connection of the table gets its own view (computed in a worker thread: a review may take a while)."""
        clients = list(room.clients)
        messages = await asyncio.to_thread(lambda: [room.table.message_for(c.agent, review=False) for c in clients])
        for client, message in zip(clients, messages, strict=True):
            await client.send(message)
        if any(m.get("end", {}).get("review", {}).get("kind") == "pending" for m in messages):
            # the hand is over: its review follows the view, so that the last card's view is not kept waiting
            reviews = await self._in(self.review_pool, lambda: [room.table.review_message(c.agent) for c in clients])
            for client, review in zip(clients, reviews, strict=True):
                if review is not None:
                    await client.send(review)

    async def _drive(self, room: _Room) -> None:
        """The table's bots: each plays at the pace when on turn, in a worker thread, and every view is sent."""
        try:
            while not room.closed:
                await room.wake.wait()
                room.wake.clear()
                while not room.closed and room.table.bot_turn():
                    await _pause(room)
                    async with room.lock:
                        if room.closed or not room.table.bot_turn():
                            break
                        await self._in(self.bot_pool, room.table.play_bot)
                        await self._broadcast(room)
        except asyncio.CancelledError:
            raise
        except Exception as error:  # noqa: BLE001 - a bot that fails stops its table, and its people hear why
            for client in list(room.clients):
                await client.send(_error(f"the table's bot failed: {cut(str(error), 200)}; start a new table"))


async def _pause(room: _Room) -> None:
    """Wait the table's pace before a bot's action (a pace changed meanwhile counts at once)."""
    loop = asyncio.get_running_loop()
    start = loop.time()
    while not room.closed:
        left = room.pace_ms / 1000 - (loop.time() - start)
        if left <= 0:
            return
        await asyncio.sleep(min(left, 0.05))


def _parse(text: str) -> dict:
    """A client's frame as a JSON object, within the bounds, or ``_Refused`` saying why not."""
    if len(text) > MAX_RECORD_FRAME:
        raise _Refused(
            f"a frame of {len(text)} characters is too large: at most {MAX_FRAME}, a record's {MAX_RECORD_FRAME}"
        )
    if _too_deep(text):
        raise _Refused(f"lists and objects nested over {MAX_DEPTH} deep: a message nests a few")
    try:
        message = json.loads(text)
    except (ValueError, RecursionError) as error:
        raise _Refused(f'{not_json(error)}: {cut(text)}; send objects such as {{"type": "catalog"}}') from None
    if not isinstance(message, dict):
        raise _Refused(f'{shown(message)}: a message is a JSON object such as {{"type": "catalog"}}')
    if len(text) > MAX_FRAME and message.get("type") != "record":
        raise _Refused(
            f"a frame of {len(text)} characters is too large: at most {MAX_FRAME} (a record's: {MAX_RECORD_FRAME})"
        )
    return message


def _pace(ms: Any) -> int:
    if isinstance(ms, bool) or not isinstance(ms, int) or not 0 <= ms <= MAX_PACE_MS:
        raise _Refused(f"pace {shown(ms)}: milliseconds between the bots' actions, 0 to {MAX_PACE_MS}")
    return ms


def _error(message: str) -> dict:
    return {"type": "error", "message": message}


def make_app(
    max_tables: int = 64,
    max_connections: int = 256,
    models: Sequence[str | Path] = (),
    secret_seeds: Any = None,
    allowed_hosts: Sequence[str] | None = None,
) -> Starlette:
    """The web table's app: ``/`` the page, ``/static`` its files, ``/ws`` the websocket (module docstring).

    ``models``: model files (``.npz``, ``.zip``) the page may seat as bots, by file name.
    ``secret_seeds``: where the seeds of tables without a chosen one come from (a ``random.Random``
    with ``getrandbits``; default the system's, ``secrets.SystemRandom()``): a test's own makes them reproducible.
    ``allowed_hosts``: the host names a websocket's ``Host`` may hold (None: any); ``serve`` bound to a
    loopback address allows ``LOOPBACK_HOSTS`` only.
    """
    server = Server(max_tables, max_connections, models, secret_seeds, allowed_hosts)

    async def index(request: Any) -> Response:
        page = STATIC / "index.html"
        if not page.is_file():
            return PlainTextResponse("the page (tressette_env/web/static/index.html) is missing", status_code=500)
        return FileResponse(page, headers={"Cache-Control": "no-cache"})

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> Any:
        yield
        for pool in (server.bot_pool, server.review_pool):  # the server stops: no decision or review waits on
            pool.shutdown(wait=False, cancel_futures=True)

    app = Starlette(
        lifespan=lifespan,
        routes=[
            Route("/", index),
            WebSocketRoute("/ws", server.websocket),
            Mount("/static", StaticFiles(directory=STATIC, check_dir=False), name="static"),
        ],
    )
    app.state.server = server
    return app


def is_loopback(host: str) -> bool:
    """Whether ``host`` (an address to bind, or ``localhost``) is this machine's only.

    >>> is_loopback("127.0.0.1"), is_loopback("::1"), is_loopback("localhost"), is_loopback("0.0.0.0")
    (True, True, True, False)
    """
    import ipaddress

    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return host == "localhost"


def serve(
    host: str = "127.0.0.1",
    port: int = 8000,
    max_tables: int = 64,
    max_connections: int = 256,
    models: Sequence[str | Path] = (),
) -> None:
    """Run the web table with uvicorn on ``host``:``port`` until interrupted (Ctrl-C)."""
    import uvicorn

    app = make_app(max_tables, max_connections, models, allowed_hosts=LOOPBACK_HOSTS if is_loopback(host) else None)
    uvicorn.run(app, host=host, port=port, ws_max_size=2 * MAX_RECORD_FRAME, log_level="info")
