"""Text agents: the prompt in English and Italian, free text read as an action, the chat player against a stub server."""

from __future__ import annotations

import json
import random
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tressette_env.cli import main
from tressette_env.engine import apply, legal_actions, new_game, parse_card, view
from tressette_env.engine.actions import BUSSO, CHIAMO, PASS
from tressette_env.games.calabresella import CalabresellaRules
from tressette_env.protocol.llm import ChatError, ChatPlayer
from tressette_env.protocol.text import TextActionError, parse_action, prompt


def auction_view():
    state = new_game(CalabresellaRules(), seed=1)
    return view(state, state.public.turn), legal_actions(state)


def lead_view():
    """The four-seat game, a seat on lead holding the 3 di denari and another denari (busso is legal)."""
    for seed in range(200):
        state = new_game(seed=seed)
        seat = state.public.turn
        three = parse_card("3d")
        if state.hands[seat] >> three & 1 and three + 40 * BUSSO in legal_actions(state):
            return view(state, seat), legal_actions(state)
    raise AssertionError("no such deal")


@pytest.mark.parametrize(
    "text, expected",
    [
        ("passo", PASS),
        ("Chiamo", CHIAMO),
        ("I bid chiamo!", CHIAMO),
        ("After some thought:\n2", CHIAMO),
        ("**passo**", PASS),
    ],
)
def test_free_text_in_the_auction(text, expected):
    seat, legal = auction_view()
    assert parse_action(text, seat, legal) == expected


def test_free_text_in_the_card_play():
    seat, legal = lead_view()
    three = parse_card("3d")
    assert parse_action("3 di denari", seat, legal) == three
    assert parse_action("3d busso", seat, legal) == three + 40 * BUSSO
    assert parse_action("I lead the 3 di denari and knock: 3d busso", seat, legal) == three + 40 * BUSSO
    assert parse_action("I lead the 3 di denari with busso", seat, legal) == three + 40 * BUSSO
    assert parse_action("Busso con il 3 di denari", seat, legal) == three + 40 * BUSSO
    assert parse_action("I play 3d.", seat, legal) == three
    for words in [
        "I will play as low as possible.",
        "Same as before",
        "Gioco una carta bassa, ad esempio la più debole.",
    ]:
        with pytest.raises(TextActionError):  # "as" and "ad" are words, not the asso di spade or di denari
            parse_action(words, seat, legal)
    with pytest.raises(TextActionError, match="names another"):
        parse_action("I choose action 2: 3 di denari", seat, legal)


@pytest.mark.parametrize(
    "text, words",
    [("banana", "not an action"), ("solo or chiamo", "several actions"), ("3d busso", "not legal now"), ("", "")],
)
def test_what_cannot_be_read_is_said_in_one_line(text, words):
    seat, legal = auction_view()
    with pytest.raises(TextActionError) as error:
        parse_action(text, seat, legal)
    assert words in str(error.value) and "\n" not in str(error.value) and len(str(error.value)) < 400


def test_the_prompt_in_english_and_in_italian_shows_the_hand_and_the_numbered_actions():
    seat, legal = lead_view()
    english, italian = prompt(seat, legal, "en"), prompt(seat, legal, "it")
    assert "You play Tressette" in english and "your actions:" in english and "1) 3d" in english
    assert "Le tue carte:" in italian and "3 di denari" in italian and "Azioni possibili: 1 " in italian
    with pytest.raises(ValueError, match="language"):
        prompt(seat, legal, "fr")


# ---------------------------------------------------------------------- the chat player against a stub


class Stub:
    """An OpenAI-compatible chat endpoint on 127.0.0.1 that answers from a script of replies."""

    def __init__(self, reply):
        self.reply = reply
        self.requests: list[dict] = []
        self.headers: list[dict] = []
        stub = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):  # noqa: N802
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                stub.requests.append(body)
                stub.headers.append(dict(self.headers))
                if self.path != "/v1/chat/completions":
                    self.send_response(404)
                    self.end_headers()
                    return
                content = stub.reply(body)
                data = json.dumps({"choices": [{"message": {"role": "assistant", "content": content}}]}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/v1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def stub():
    made = []

    def make(reply):
        made.append(Stub(reply))
        return made[-1]

    yield make
    for server in made:
        server.close()


def first_action(body) -> str:
    """The stub's model: the first numbered action of the prompt, said in a sentence."""
    return "Let me think. I choose action 1."


def last_action(body) -> str:
    """The stub's Italian model: the last of the numbered actions (the highest bid, then a card)."""
    line = next(x for x in body["messages"][-1]["content"].splitlines() if x.startswith("Azioni possibili:"))
    return f"Scelgo l'azione {line.count(';') + 1}."


def test_the_chat_player_plays_a_game_through_the_endpoint(stub):
    server = stub(last_action)
    player = ChatPlayer(url=server.url, model="stub", key="sk-test", language="it")
    state = new_game(CalabresellaRules(), seed=2)
    rng = random.Random(0)
    decisions = 0
    while state.public.turn >= 0 and decisions < 60:
        legal = legal_actions(state)
        state = apply(state, player.act(view(state, state.public.turn), legal, rng))
        decisions += 1
    assert decisions > 10 and len(server.requests) == decisions
    request = server.requests[0]
    assert request["model"] == "stub" and request["messages"][1]["content"].startswith("Giochi a Calabresella")
    assert server.headers[0]["Authorization"] == "Bearer sk-test"
    assert "sk-test" not in repr(player)


def test_a_reply_with_no_action_is_asked_again_with_the_reason(stub):
    replies = iter(["I am not sure.", "passo"])
    server = stub(lambda body: next(replies))
    seat, legal = auction_view()
    assert ChatPlayer(url=server.url).act(seat, legal, None) == PASS
    assert "not an action" in server.requests[1]["messages"][-1]["content"]


def test_the_chat_player_in_the_evaluation_and_its_errors(stub, tmp_path, capsys):
    server = stub(first_action)
    out = tmp_path / "r.json"
    spec = f"llm:url={server.url},model=stub"
    assert main(["eval", spec, "random", "--deals", "2", "--workers", "1", "--no-progress", "--json", str(out)]) == 0
    assert json.loads(out.read_text())["boards"] == 2
    silly = stub(lambda body: "no idea")
    code = main(
        ["eval", f"llm:url={silly.url},model=silly", "random", "--deals", "2", "--workers", "1", "--no-progress"]
    )
    assert code == 1
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and "llm silly: no legal action in 2 replies" in err[0]
    with pytest.raises(ChatError, match="HTTP 404"):
        ChatPlayer(url=server.url.replace("/v1", "/v2")).chat([])
    with pytest.raises(ChatError, match="cannot reach"):
        ChatPlayer(url="http://127.0.0.1:9", timeout=2).chat([])
    with pytest.raises(ValueError, match="url"):
        ChatPlayer(url="file:///etc/passwd")


def test_the_key_stays_out_of_the_results_and_is_not_carried_by_a_redirect(stub, tmp_path, capsys):
    server = stub(first_action)
    out = tmp_path / "r.json"
    spec = f"llm:url={server.url},model=stub,key=sk-SECRET123"
    assert main(["eval", spec, "random", "--deals", "2", "--workers", "1", "--no-progress", "--json", str(out)]) == 0
    assert "sk-SECRET123" not in capsys.readouterr().out + out.read_text()
    assert "key=***" in out.read_text()

    class Redirect(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            self.send_response(302)
            self.send_header("Location", server.url + "/chat/completions")
            self.end_headers()

        def log_message(self, *args):
            pass

    redirecting = ThreadingHTTPServer(("127.0.0.1", 0), Redirect)
    threading.Thread(target=redirecting.serve_forever, daemon=True).start()
    try:
        before = len(server.requests)
        url = f"http://127.0.0.1:{redirecting.server_address[1]}/v1"
        with pytest.raises(ChatError, match="HTTP 302"):
            ChatPlayer(url=url, key="sk-SECRET123").chat([])
        assert len(server.requests) == before  # the key went nowhere else
    finally:
        redirecting.shutdown()
        redirecting.server_close()


def test_a_reply_nested_past_the_json_parser_is_a_chat_error():
    """A reply of lists nested past the parser's depth (its RecursionError) is a ChatError of one line."""

    class Nested(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            data = ("[" * 5000 + "]" * 5000).encode()
            self.send_response(200)
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Nested)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        with pytest.raises(ChatError, match="not a chat completion") as error:
            ChatPlayer(url=f"http://127.0.0.1:{server.server_address[1]}/v1", timeout=5).chat([])
        assert "\n" not in str(error.value) and len(str(error.value)) < 400
    finally:
        server.shutdown()
        server.server_close()


def test_the_timeout_bounds_the_whole_reply():
    stop, finished = threading.Event(), threading.Event()

    class Drip(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            try:
                self.send_response(200)
                self.send_header("Content-Length", "100")
                self.end_headers()
                for _ in range(100):
                    if stop.is_set():
                        return
                    self.wfile.write(b" ")
                    self.wfile.flush()
                    time.sleep(0.2)
            except OSError:  # the client hung up (it timed out): nothing to say to the test output
                return
            finally:
                finished.set()

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Drip)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        start = time.monotonic()
        with pytest.raises(ChatError, match="within 1 s"):
            ChatPlayer(url=f"http://127.0.0.1:{server.server_address[1]}/v1", timeout=1).chat([])
        assert time.monotonic() - start < 5
    finally:
        # The handler runs in a daemon thread the server does not wait for: stop it here, so that
        # nothing it writes (a broken pipe's traceback) lands in a later test's captured output.
        stop.set()
        finished.wait(5)
        server.shutdown()
        server.server_close()


def test_turning_a_packet_up_in_due_is_named_volta_in_both_languages_and_read_back():
    from tressette_env.engine.actions import CALL
    from tressette_env.games.in_due import InDueRules

    state = new_game(InDueRules(deal="packets"), seed=2)
    seat = view(state, state.public.turn)
    legal = legal_actions(state)
    card = legal[0] - CALL
    from tressette_env.engine import card_code

    code = card_code(card)
    assert f"volta {code.lower()}" in prompt(seat, legal, "it").lower()
    assert "chiama" not in prompt(seat, legal, "it").lower()
    assert "turn up a packet by its bottom card (volta)" in prompt(seat, legal, "en")
    assert parse_action(f"volta {code}", seat, legal) == legal[0]
    assert parse_action(f"Volto il {code}", seat, legal) == legal[0]


def test_the_italian_prompt_holds_the_counts_signals_accusi_and_the_signals_a_card_may_carry():
    state = new_game(seed=3)
    start = prompt(view(state, state.public.turn), legal_actions(state), "it")
    assert "Il giocatore 0 ha 10 carte." in start and "sei il giocatore 2" in start
    assert "1 Fd (fante di denari, o Fd busso o Fd striscio); 2 7d (7 di denari, o 7d busso o 7d striscio);" in start
    assert (
        "Accusi: giocatore 1 tris di 2 (manca coppe) (3 punti); giocatore 2 tris di 3 (manca denari) (3 punti)."
        in start
    )
    for _ in range(5):
        state = apply(state, legal_actions(state)[-1])
    later = prompt(view(state, state.public.turn), legal_actions(state), "it")
    assert "Il giocatore 0 ha 8 carte.\nIl giocatore 2 ha 9 carte." in later
    assert "Segnali: giocatore 0 volo a bastoni; giocatore 2 striscio a bastoni." in later
    assert "Azioni possibili: 1 2b (2 di bastoni)." in later  # a card that follows carries no signal
    english = prompt(view(state, state.public.turn), legal_actions(state), "en")
    assert "signals: player 0 volo in bastoni; player 2 striscio in bastoni" in english


def test_a_server_that_takes_the_request_and_never_answers_gave_no_reply():
    import socket

    with socket.socket() as listener:  # connections complete in its backlog; nothing is ever read or written
        listener.bind(("127.0.0.1", 0))
        listener.listen(1)
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/v1"
        start = time.monotonic()
        with pytest.raises(ChatError, match=f"llm stub: {url} gave no reply within 1 s"):
            ChatPlayer(url=url, model="stub", timeout=1).chat([])
        assert time.monotonic() - start < 5


def test_a_long_run_of_spaces_after_action_is_read_in_linear_time():
    """A reply of "action", a megabyte of spaces and more took the number's search hours (n * n steps)."""
    seat, legal = auction_view()
    start = time.process_time()
    for spaces in (" " * 1_000_000, "\t \n" * 300_000):
        with pytest.raises(TextActionError):
            parse_action("action" + spaces + "x", seat, legal)
    assert parse_action("I choose action   \n  #  2", seat, legal) == CHIAMO  # still read across a run
    assert time.process_time() - start < 20  # (about 0.5 s here; the old search: hours)


def _serve(handler_body):
    """A one-connection-at-a-time endpoint on loopback whose handler writes ``handler_body(wfile, stop)``."""
    stop = threading.Event()

    class Handler(BaseHTTPRequestHandler):
        def do_POST(self):  # noqa: N802
            try:
                self.rfile.read(int(self.headers.get("Content-Length", 0)))
                handler_body(self.wfile, stop)
            except OSError:  # the client hung up
                pass

        def log_message(self, *args):
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server, stop


def test_the_timeout_bounds_a_status_line_and_headers_sent_a_byte_at_a_time():
    def drip(wfile, stop):
        wfile.write(b"HTTP/1.0 200 OK\r\n")
        wfile.flush()
        while not stop.is_set():  # one header byte every 0.2 s: each read in time, the whole never
            wfile.write(b"X")
            wfile.flush()
            time.sleep(0.2)

    server, stop = _serve(drip)
    try:
        start = time.monotonic()
        with pytest.raises(ChatError, match="no whole reply within 1 s"):
            ChatPlayer(url=f"http://127.0.0.1:{server.server_address[1]}/v1", model="stub", timeout=1).chat([])
        assert time.monotonic() - start < 5
    finally:
        stop.set()
        server.shutdown()
        server.server_close()


def test_a_reply_that_is_not_http_is_one_line():
    def garbage(wfile, stop):
        wfile.write(b"HELLO THERE\r\n\r\n")

    server, stop = _serve(garbage)
    try:
        with pytest.raises(ChatError, match="answered not in HTTP") as error:
            ChatPlayer(url=f"http://127.0.0.1:{server.server_address[1]}/v1", model="stub", timeout=5).chat([])
        assert "\n" not in str(error.value)
    finally:
        server.shutdown()
        server.server_close()
