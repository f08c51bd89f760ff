"""The web table's app over Starlette's ``TestClient``: tables, persons by link, every bad input refused, the bounds."""

from __future__ import annotations

import json
import time
import warnings

import pytest

pytest.importorskip("starlette")
pytest.importorskip("httpx")

with warnings.catch_warnings():  # Starlette 1.x: "Using httpx with starlette.testclient is deprecated"
    warnings.simplefilter("ignore", UserWarning)
    from starlette.testclient import TestClient  # noqa: E402

from tressette_env.web.app import MAX_FRAME, MAX_RECORD_FRAME, TYPES, make_app  # noqa: E402
from tressette_env.web.records_view import MAX_RECORDS, MAX_TEXT_BYTES  # noqa: E402
from tressette_env.web.table import Table  # noqa: E402


def server_of(client: TestClient):
    return client.app.state.server


def wait_for(test, seconds: float = 5.0) -> None:
    """Wait until ``test()`` holds (the server's cleanup runs after the client's close)."""
    end = time.monotonic() + seconds
    while not test():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.01)


def create(ws, **fields) -> tuple[dict, dict]:
    seed = {} if fields.get("players", []).count("person") > 1 else {"seed": 1}  # several people: a secret seed
    ws.send_json({"type": "create", "pace_ms": 0, **seed, **fields})
    joined = ws.receive_json()
    assert joined["type"] == "joined", joined
    view = ws.receive_json()
    assert view["type"] == "view"
    return joined, view


def error_of(ws, message) -> str:
    """Send ``message`` (an object, or a raw text frame) and return the error reply's message."""
    ws.send_text(message if isinstance(message, str) else json.dumps(message))
    reply = ws.receive_json()
    assert reply["type"] == "error", reply
    return reply["message"]


def until(ws, kind: str) -> dict:
    """The next message of type ``kind`` (the views of the bots' actions before it skipped)."""
    while True:
        message = ws.receive_json()
        if message["type"] == kind:
            return message
        assert message["type"] == "view", message


def play_to_the_end(ws, view: dict) -> dict:
    """Answer every turn of this connection with its first legal action until the hand is over."""
    while view["status"] == "playing":
        if view["your_turn"]:
            ws.send_json({"type": "act", "action": view["act"]["legal"][0]["name"]})
        view = ws.receive_json()
        assert view["type"] == "view", view
    return with_review(ws, view)


def with_review(ws, view: dict) -> dict:
    """The hand's last ``view`` with its review in place: the view says "pending", a ``review`` message follows."""
    assert view["end"]["review"]["kind"] == "pending", view["end"]["review"]
    review = ws.receive_json()
    assert review["type"] == "review" and review["table"] == view["table"], review
    assert review["hand_number"] == view["end"]["hand_number"]
    view["end"]["review"] = review["review"]
    return view


def test_the_page_the_catalog_and_a_hand_against_a_bot():
    with TestClient(make_app()) as client:
        page = client.get("/")
        assert page.status_code == 200 and "<html" in page.text.lower()
        with client.websocket_connect("/ws") as ws:
            ws.send_json({"type": "catalog", "id": 5})
            catalog = ws.receive_json()
            assert catalog["type"] == "catalog" and catalog["id"] == 5 and len(catalog["games"]) >= 6
            joined, view = create(ws, game="tressette_in_due", players=["person", "heuristic"], seat=0)
            assert joined["you"] == 0 and joined["links"] == {} and joined["players"] == ["person", "heuristic"]
            assert view["you"] == 0 and "hands" not in view and len(view["act"]["hand"]) == 10
            while not view["your_turn"]:
                view = ws.receive_json()
            ws.send_json({"type": "hint", "id": "h"})
            hint = ws.receive_json()
            assert hint["type"] == "hint" and hint["ref"] == "h"
            assert {"id": hint["id"], "name": hint["name"]} in view["act"]["legal"]
            end = play_to_the_end(ws, view)
            assert end["status"] == "match_over" and end["end"]["summary"][0] == "hand 1 over"
            assert end["end"]["review"]["kind"] == "double_dummy"
            ws.send_json({"type": "next"})
            again = ws.receive_json()
            assert again["status"] == "playing" and again["log"] == []
            ws.send_json({"type": "pace", "ms": 100, "id": 1})
            assert until(ws, "pace") == {"type": "pace", "ms": 100, "id": 1}
            ws.send_json({"type": "leave"})
            assert until(ws, "left")["table"] == joined["table"]
            wait_for(lambda: not server_of(client).rooms)


def test_every_bad_input_gets_an_error_and_changes_nothing():
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as ws:
        server = server_of(client)
        four = ["person", "random", "random", "random"]
        cases = [
            ("nope", "not JSON: nope"),
            ("[1, 2]", "a message is a JSON object"),
            ({"type": "dance"}, f"unknown message type 'dance'; the types are: {', '.join(TYPES)}"),
            ({"kind": "act"}, "unknown message type None"),
            ({"type": "catalog", "id": [1]}, '"id" [1]: a number or a short string'),
            ("[" * 40 + "]" * 40, "nested over 32 deep"),
            ({"type": "catalog", "pad": "x" * MAX_FRAME}, f"too large: at most {MAX_FRAME}"),
            ({"type": "act", "action": 0}, "you are at no table"),
            ({"type": "hint"}, "you are at no table"),
            ({"type": "next"}, "you are at no table"),
            ({"type": "pace", "ms": 10}, "you are at no table"),
            ({"type": "create", "game": "scopa", "players": ["person"]}, "unknown game 'scopa'; the games are"),
            ({"type": "create", "game": "tressette", "players": four, "rules": {"x": 1}}, "unknown rule switch 'x'"),
            ({"type": "create", "game": "tressette", "players": four, "rules": {"signals": 3}}, "true or false"),
            (
                {
                    "type": "create",
                    "game": "calabresella",
                    "players": ["person", "random", "random"],
                    "rules": {"contracts": "chiamo"},
                },
                "contracts: a list or a mapping, which a table does not set",
            ),
            ({"type": "create", "game": "tressette", "players": ["person", "wizard"]}, "unknown player 'wizard'"),
            ({"type": "create", "game": "tressette", "players": ["person", "llm"]}, "unknown player 'llm'"),
            ({"type": "create", "game": "tressette", "players": ["person", "/etc/passwd.npz"]}, "unknown player"),
            ({"type": "create", "game": "tressette", "players": "person"}, '"players": a list'),
            ({"type": "create", "game": "tressette", "players": ["person"] * 3}, "tressette has 4 players"),
            ({"type": "create", "game": "tressette", "players": four, "seat": 1}, "is a bot (random)"),
            ({"type": "create", "game": "tressette", "players": four, "seat": 9}, '"seat" 9: your agent, 0 to 3'),
            ({"type": "create", "game": "tressette", "players": ["random"] * 4}, 'a table you play has a "person"'),
            ({"type": "create", "game": "tressette", "players": four, "seed": -1}, '"seed" -1'),
            ({"type": "create", "game": "tressette", "players": four, "pace_ms": 9000}, "0 to 5000"),
            ({"type": "watch", "game": "tressette", "players": four}, "a table you watch has only bots"),
            ({"type": "join", "table": "zzz", "token": "t"}, "no table 'zzz' is open here"),
            ({"type": "record", "text": "{"}, "line 1: not JSON"),
            ({"type": "record", "text": 3}, '"text" must be the record file'),
        ]
        for message, words in cases:
            assert words in error_of(ws, message), message
            assert not server.rooms
        ws.send_bytes(b"{}")
        assert "text frames" in ws.receive_json()["message"]
        ws.send_json({"type": "nope", "id": 7})
        assert ws.receive_json()["id"] == 7  # an error reply echoes the id too
        # At a table: a bot on turn, then the person's own turn with an illegal action.
        joined, view = create(ws, game="tressette", players=four, seat=0, pace_ms=5000, seed=2)
        assert view["on_turn"] != 0  # a bot leads, slowly
        assert "not your turn: player" in error_of(ws, {"type": "act", "action": 0})
        assert "not your turn" in error_of(ws, {"type": "hint"})
        assert "the hand is not over" in error_of(ws, {"type": "next"})
        assert '{"type": "act", "action": <id or name>}' in error_of(ws, {"type": "act"})
        assert "pace 9999" in error_of(ws, {"type": "pace", "ms": 9999})
        table = server.rooms[joined["table"]].table
        ws.send_json({"type": "pace", "ms": 0})
        assert until(ws, "pace")["ms"] == 0
        view = ws.receive_json()
        while not view["your_turn"]:
            view = ws.receive_json()
        before = table.state  # the bots wait for the person
        legal = {item["id"] for item in view["act"]["legal"]}
        illegal = next(a for a in range(40) if a not in legal)
        message = error_of(ws, {"type": "act", "action": illegal})
        assert f"action {illegal} is not legal; legal: " in message
        assert "no legal action's name" in error_of(ws, {"type": "act", "action": "re di picche"})
        assert table.state is before and len(server.rooms) == 1


def test_a_second_person_joins_by_the_link_and_sees_only_its_seat():
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as one:
        people = ["person", "person"]  # no bot: nothing is played but what the two send, so their views keep step
        message = error_of(one, {"type": "create", "game": "tressette_in_due", "players": people, "seed": 3})
        assert "secret seed" in message and 'leave "seed" out' in message and not server_of(client).rooms
        joined, view = create(one, game="tressette_in_due", players=people, seat=0)
        assert set(joined["links"]) == {"1"} and joined["own_link"].startswith(f"/?table={joined['table']}&token=")
        table = server_of(client).rooms[joined["table"]].table
        link = joined["links"]["1"]
        token = link.split("token=")[1]
        with client.websocket_connect("/ws") as two:
            assert "does not name a person's seat" in error_of(
                two, {"type": "join", "table": joined["table"], "token": "x"}
            )
            assert "does not name a person's seat" in error_of(
                two, {"type": "join", "table": joined["table"], "token": "é" * 16}
            )
            two.send_json({"type": "join", "table": joined["table"], "token": token})
            second = two.receive_json()
            assert second["type"] == "joined" and second["you"] == 1 and second["links"] == {}  # no link told
            mine = two.receive_json()
            assert mine["you"] == 1 and mine["seat"] == 1 and "hands" not in mine
            with client.websocket_connect("/ws") as three:
                taken = error_of(three, {"type": "join", "table": joined["table"], "token": token})
                assert "seat of table" in taken and "is taken" in taken and "token" not in taken  # no link told
            # Both play the hand: each gets a view after every action, with its own seat's cards only.
            views = {0: view, 1: mine}
            conns = {0: one, 1: two}
            while views[0]["status"] == "playing":
                assert views[0]["deal"] == views[1]["deal"] == 1
                for agent in (0, 1):
                    act = views[agent]["act"]
                    assert views[agent]["you"] == agent and act["seat"] == agent and "hands" not in views[agent]
                    assert set(act["hand"]) <= set(range(40)) and not set(act["hand"]) & set(
                        views[1 - agent]["act"]["hand"]
                    )
                    if views[agent]["your_turn"]:
                        conns[agent].send_json({"type": "act", "action": act["legal"][-1]["id"]})
                views = {agent: conns[agent].receive_json() for agent in (0, 1)}
            assert views[1]["end"]["seat"] == 1
            for agent in (0, 1):
                assert conns[agent].receive_json()["type"] == "review"
            # Both press Next hand: the first deals, the second (naming the same finished deal) does nothing.
            for agent in (0, 1):
                conns[agent].send_json({"type": "next", "deal": 1})
            for agent in (0, 1):
                again = conns[agent].receive_json()
                assert again["type"] == "view" and again["status"] == "playing" and again["deal"] == 2
            assert table.deal_number == 2
            one.send_json({"type": "pace", "ms": 0})  # no error came for the second next: the next reply is this
            assert one.receive_json()["type"] == "pace"
        # The second person left: its seat is free again, by the same link.
        wait_for(lambda: 1 not in server_of(client).rooms[joined["table"]].seated)


def test_own_seat_hands_only():
    """Each message of a person's connection holds its own seat's hand, never another's."""
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as ws:
        joined, view = create(ws, game="calabresella", players=["person", "random", "random"], seat=0, seed=8)
        table = server_of(client).rooms[joined["table"]].table
        for _ in range(60):
            if view["status"] != "playing":
                break
            if view["your_turn"]:
                ws.send_json({"type": "act", "action": view["act"]["legal"][0]["id"]})
            view = ws.receive_json()
            assert "hands" not in view and view["act"]["seat"] == 0
        assert table.persons == [0]


def test_a_table_of_bots_is_watched_with_every_hand_shown():
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "watch", "game": "tressette_a_perdere", "players": ["random"] * 4, "pace_ms": 0})
        joined = ws.receive_json()
        assert joined["you"] is None and joined["links"] == {}
        view = ws.receive_json()
        assert view["you"] is None and len(view["hands"]) == 4
        while view["status"] == "playing":
            view = ws.receive_json()
        assert with_review(ws, view)["end"]["review"]["kind"] == "heuristic"  # a perdere: no double dummy
        assert "a spectator does not act" in error_of(ws, {"type": "act", "action": 0})
        ws.send_json({"type": "next"})
        assert ws.receive_json()["status"] == "playing"


def test_a_record_is_uploaded_and_stepped_through_and_a_damaged_one_refused():
    table = Table("tressette_in_due", {}, ["random", "heuristic"], seed=6)
    while table.on_turn() is not None:
        table.play_bot()
    line = json.dumps(table.record())
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "record", "text": "\n" + line + "\n" + line + "\n", "index": 1, "id": 3})
        replay = ws.receive_json()
        assert replay["type"] == "replay" and replay["id"] == 3 and replay["index"] == 1 and replay["line"] == 3
        assert len(replay["frames"]) == 41 and all(len(f["hands"]) == 2 for f in replay["frames"])
        dealt = replay["frames"][0]
        assert dealt["step"] == {"hand": 0, "seat": None, "action": None, "name": "dealt"} and dealt["log"] == []
        assert [len(h) for h in dealt["hands"].values()] == [10, 10]  # the hands as dealt, before the first card
        assert all("state" not in f["act"] for f in replay["frames"])
        assert replay["frames"][1]["step"]["hand"] == 0 and replay["frames"][-1]["status"] == "match_over"
        damaged = line.replace('"seed": 6', '"seed": 7')
        assert "line 2: hand 1: the seed deals other cards" in error_of(ws, {"type": "record", "text": "\n" + damaged})
        assert "line 1: not JSON" in error_of(ws, {"type": "record", "text": line[:-1]})
        assert "line 1: version 2" in error_of(
            ws, {"type": "record", "text": line.replace('"version": 1', '"version": 2')}
        )
        assert "index 2: the text holds records 0 to 0" in error_of(ws, {"type": "record", "text": line, "index": 2})
        assert "nested over 32 deep" in error_of(ws, {"type": "record", "text": "[" * 50})
        many = "\n".join([line] * (MAX_RECORDS + 1))
        assert f"more than {MAX_RECORDS} records" in error_of(ws, {"type": "record", "text": many})
        huge = {"type": "record", "text": "x" * MAX_RECORD_FRAME}
        assert f"at most {MAX_FRAME}, a record's {MAX_RECORD_FRAME}" in error_of(ws, huge)
        wide = json.dumps({"type": "record", "text": "é" * (MAX_TEXT_BYTES // 2 + 10)}, ensure_ascii=False)
        assert len(wide) < MAX_RECORD_FRAME and "bytes of records: at most 2097152 (2 MiB)" in error_of(ws, wide)


def test_tables_and_connections_are_bounded_and_closed_when_left():
    with TestClient(make_app(max_tables=1, max_connections=2)) as client:
        server = server_of(client)
        with client.websocket_connect("/ws") as one, client.websocket_connect("/ws") as two:
            joined, _ = create(one, game="tressette_in_due", players=["person", "random"], pace_ms=2000)
            assert "too many tables: this server holds 1" in error_of(
                two, {"type": "create", "game": "tressette_in_due", "players": ["person", "random"]}
            )
            with client.websocket_connect("/ws") as three:
                assert "too many connections: this server takes 2" in three.receive_json()["message"]
            assert len(server.rooms) == 1
            task = server.rooms[joined["table"]].task
        wait_for(lambda: not server.rooms and server.connections == 0)
        wait_for(task.done)
        with client.websocket_connect("/ws", headers={"origin": "http://evil.example"}) as ws:
            assert "another site" in ws.receive_json()["message"]


def test_a_model_file_the_server_offers_is_a_bot_named_by_its_file_name():
    from pathlib import Path

    import tressette_env

    model = Path(tressette_env.__file__).parent / "models" / "ppo_in_due_v0.npz"
    with TestClient(make_app(models=[model])) as client, client.websocket_connect("/ws") as ws:
        ws.send_json({"type": "catalog"})
        assert ws.receive_json()["players"][-1] == "ppo_in_due_v0.npz"
        joined, view = create(ws, game="tressette_in_due", players=["person", "ppo_in_due_v0.npz"])
        assert joined["players"] == ["person", "ppo_in_due_v0.npz"] and str(model) not in json.dumps(joined)
        assert play_to_the_end(ws, view)["status"] == "match_over"
        message = error_of(
            ws, {"type": "create", "game": "tressette", "players": ["person", *["ppo_in_due_v0.npz"] * 3]}
        )
        assert message.startswith("player 1: ")
        assert str(model) in server_of(client).rooms[joined["table"]].table.players[1]


def test_a_table_without_reviews_sends_none_and_a_bad_review_switch_is_refused():
    with TestClient(make_app()) as client, client.websocket_connect("/ws") as ws:
        message = error_of(ws, {"type": "create", "game": "tressette_in_due", "players": ["person", "random"],
                                "review": "yes"})  # fmt: skip
        assert '"review"' in message and "true" in message and "false" in message
        assert not server_of(client).rooms  # nothing was opened
        joined, view = create(ws, game="tressette_in_due", players=["person", "random"], review=False)
        while view["status"] == "playing":
            if view["your_turn"]:
                ws.send_json({"type": "act", "action": view["act"]["legal"][0]["id"]})
            view = ws.receive_json()
        assert view["end"]["review"]["kind"] == "none" and "without reviews" in view["end"]["review"]["reason"]
        ws.send_json({"type": "pace", "ms": 0})
        assert ws.receive_json()["type"] == "pace"  # no review message came between


def test_a_server_bound_to_loopback_refuses_another_host_name():
    """DNS rebinding: a page of another site whose name points at this machine names its own host."""
    with TestClient(make_app(allowed_hosts=["127.0.0.1", "localhost"])) as client:
        with client.websocket_connect("/ws") as ws:  # the test client's host is "testserver"
            reply = ws.receive_json()
            assert reply["type"] == "error" and "answers as 127.0.0.1, localhost, not testserver" in reply["message"]
        with client.websocket_connect("/ws", headers={"host": "localhost:8000"}) as ws:
            ws.send_json({"type": "catalog"})
            assert ws.receive_json()["type"] == "catalog"


def test_a_connection_that_does_not_read_is_closed_and_holds_up_nobody():
    import asyncio

    from tressette_env.web import app as web_app

    class Stuck:  # a websocket whose writes never finish
        async def send_text(self, text):
            await asyncio.sleep(3600)

        async def close(self, code=1000, reason=None):
            self.closed = code

    async def run():
        client = web_app._Client(Stuck())
        client.start()
        sent = 0
        while not client.gone and sent < web_app.MAX_QUEUED + 2:  # one in the writer's hands, the rest queued
            await asyncio.wait_for(client.send({"type": "view"}), timeout=1)  # at once, whatever the connection does
            sent += 1
        assert client.gone and client.ws.closed == 1008 and sent > web_app.MAX_QUEUED
        await client.stop()
        # Fewer but larger messages (replays): closed past MAX_QUEUED_BYTES, the first one always taken.
        client = web_app._Client(Stuck())
        client.start()
        big = {"type": "replay", "frames": "x" * (web_app.MAX_QUEUED_BYTES // 3 - 100)}
        sent = 0
        while not client.gone and sent < 10:
            await asyncio.wait_for(client.send(big), timeout=1)
            sent += 1
        assert client.gone and client.ws.closed == 1008 and sent == 4  # three held (one being written), the fourth
        await client.stop()
        client = web_app._Client(Stuck())
        await client.send({"type": "replay", "frames": "x" * (web_app.MAX_QUEUED_BYTES + 1)})  # alone, it goes
        assert not client.gone and client.queue.qsize() == 1

    asyncio.run(run())


def test_a_number_past_pythons_digits_is_said_as_such_not_as_not_json():
    import sys

    from tressette_env.web.app import _parse, _Refused

    digits = getattr(sys, "get_int_max_str_digits", lambda: 0)()  # (0: no limit, before Python 3.10.7)
    if digits:
        with pytest.raises(_Refused, match=f"a number of more than {digits} digits"):
            _parse('{"type": "act", "action": ' + "9" * (digits + 100) + "}")
    with pytest.raises(_Refused, match="not JSON"):
        _parse('{"type": "act", "action": ' + "9" * 40)


def test_the_frames_a_closed_connection_sent_before_are_not_worked_on():
    """A client that sent replays and went away (or was closed for not reading) left the server replaying them."""
    import asyncio

    from tressette_env.web import app as web_app

    class Gone:  # a websocket whose writes fail (the client went away) and that holds ten frames sent before
        headers = {"host": "127.0.0.1:8000"}

        def __init__(self):
            self.frames = [{"type": "websocket.receive", "text": '{"type": "catalog"}'}] * 10

        async def accept(self):
            pass

        async def receive(self):
            await asyncio.sleep(0.01)  # (the writer's turn)
            return self.frames.pop(0) if self.frames else {"type": "websocket.disconnect"}

        async def send_text(self, text):
            raise OSError("the connection is gone")

        async def close(self, code=1000, reason=None):
            pass

    server = web_app.Server(max_tables=4, max_connections=4)
    handled = []
    original = server._frame

    async def counting(client, text):
        handled.append(text)
        await original(client, text)

    server._frame = counting
    ws = Gone()
    asyncio.run(server.websocket(ws))
    assert len(handled) == 1 and len(ws.frames) == 8  # the first answered (its reply failed), the second read: gone


def test_serve_refuses_a_model_file_it_cannot_seat_before_the_server_starts(tmp_path, capsys, monkeypatch):
    from tressette_env import cli

    monkeypatch.setattr("tressette_env.web.app.serve", lambda *args, **kwargs: pytest.fail("the server started"))
    for name, content, status, words in [
        ("model.pt", b"weights", 2, "--model {path}: a model file ends in .npz or .zip"),
        ("bad.npz", b"not a zip", 1, "tressette serve: error: {path}: "),
    ]:
        path = tmp_path / name
        path.write_bytes(content)
        with pytest.raises(SystemExit) as stop:
            cli.main(["serve", "--model", str(path), "--port", "0"])
        err = capsys.readouterr().err
        assert stop.value.code == status and words.format(path=path) in err and "Traceback" not in err, err
