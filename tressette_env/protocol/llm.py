"""A language-model agent: ``ChatPlayer`` asks any OpenAI-compatible chat endpoint for each decision.

Each decision sends the rules in a line and the seat's prompt (``protocol.text.prompt``, in
English or Italian) to ``POST {url}/chat/completions`` (``model``, ``messages``,
``temperature``), reads the reply's text as an action (``protocol.text.parse_action``), and,
when it names none, tells the model why and asks again (``attempts`` in all). The standard
library's ``urllib`` only: no client package needed.

| option | default | where else it is read |
| --- | --- | --- |
| ``url`` | ``http://127.0.0.1:8000/v1`` | ``TRESSETTE_LLM_URL`` |
| ``model`` | ``"default"`` | ``TRESSETTE_LLM_MODEL`` |
| ``key`` | none (no ``Authorization`` header) | ``TRESSETTE_LLM_KEY``, then ``OPENAI_API_KEY`` |
| ``language`` | ``"en"`` | ``"it"`` for the Italian prompt |
| ``timeout`` | 60 s a request | |
| ``attempts`` | 2 | |

The key goes to ``url`` only: a redirect is not followed, and the key is never printed (a
``key=...`` option of a player spec shows as ``key=***`` in tables, files and records); the
``timeout`` bounds the whole reply. A request that fails, a reply that is not a chat completion,
or ``attempts`` replies that name
no legal action raise ``ChatError`` (a ``BotError``: ``tressette eval`` stops with one line and
exit status 1). As a player spec: ``tressette eval "llm:model=llama3,url=http://127.0.0.1:8080/v1" heuristic``.
"""

from __future__ import annotations

import functools
import http.client
import json
import os
import socket
import threading
import time
import urllib.error
import urllib.request
from typing import Any

from ..engine.state import SeatView
from ..messages import cut, shown
from .bot import BotError
from .text import LANGUAGES, TextActionError, parse_action, prompt

MAX_REPLY = 1 << 20
"""The most bytes of a reply read."""

SYSTEM = {
    "en": "You are playing an Italian trick-taking card game of the Tressette family (40 cards: denari, coppe, "
    "spade, bastoni; the 3 is the highest card of a suit, then the 2, the asso, re, cavallo, fante, 7 down to 4; "
    "follow suit when you can; no trumps). Choose one of the legal actions you are shown.",
    "it": "Stai giocando a un gioco di carte della famiglia del Tressette (40 carte: denari, coppe, spade, bastoni; "
    "il 3 è la carta più forte del seme, poi il 2, l'asso, re, cavallo, fante, dal 7 al 4; si risponde al seme "
    "quando si può; niente briscola). Scegli una delle azioni possibili che ti vengono mostrate.",
}


class _NoRedirects(urllib.request.HTTPRedirectHandler):
    """A redirect is refused: it would carry the key to another address."""

    def redirect_request(self, req, fp, code, msg, headers, newurl):
        raise urllib.error.HTTPError(req.full_url, code, f"a redirect to {newurl} (not followed)", headers, fp)


class _Deadline:
    """Shuts a request's sockets down when its time is up (urllib's timeout bounds each read, not the whole reply).

    An endpoint that sends its status line and headers a byte at a time kept a request open for
    as long as it liked; the shutdown ends the blocked read at once.
    """

    def __init__(self, seconds: float) -> None:
        self.at = time.monotonic() + seconds
        self._timers: list[threading.Timer] = []

    def watch(self, sock: socket.socket) -> None:
        timer = threading.Timer(max(0.0, self.at - time.monotonic()), _shut_down, (sock,))
        timer.daemon = True
        timer.start()
        self._timers.append(timer)

    def passed(self) -> bool:
        return time.monotonic() >= self.at

    def cancel(self) -> None:
        for timer in self._timers:
            timer.cancel()


def _shut_down(sock: socket.socket) -> None:
    try:
        sock.shutdown(socket.SHUT_RDWR)
    except OSError:  # already closed
        pass


class _Watched:
    """A connection whose socket ``deadline`` shuts down when the request's time is up."""

    def __init__(self, *args: Any, deadline: _Deadline, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._deadline = deadline

    def connect(self) -> None:
        super().connect()
        self._deadline.watch(self.sock)


class _WatchedHTTP(_Watched, http.client.HTTPConnection):
    pass


class _WatchedHTTPS(_Watched, http.client.HTTPSConnection):
    pass


def _opener(deadline: _Deadline) -> urllib.request.OpenerDirector:
    """An opener whose connections end at ``deadline`` and that follows no redirect."""
    plain = functools.partial(_WatchedHTTP, deadline=deadline)
    secure = functools.partial(_WatchedHTTPS, deadline=deadline)

    class Plain(urllib.request.HTTPHandler):
        def http_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(plain, req)

    class Secure(urllib.request.HTTPSHandler):
        def https_open(self, req: urllib.request.Request) -> Any:
            return self.do_open(secure, req, context=self._context)

    return urllib.request.build_opener(_NoRedirects, Plain, Secure)


class ChatError(BotError):
    """The endpoint failed, or its replies named no legal action (one line)."""


class ChatPlayer:
    """A language model behind an OpenAI-compatible chat endpoint, as a player (see the module docstring)."""

    name = "llm"

    def __init__(
        self,
        url: str | None = None,
        model: str | None = None,
        key: str | None = None,
        language: str = "en",
        timeout: float = 60.0,
        attempts: int = 2,
    ) -> None:
        if language not in LANGUAGES:
            raise ValueError(f"language {shown(language)}: one of {', '.join(LANGUAGES)}")
        if isinstance(attempts, bool) or not isinstance(attempts, int) or not 1 <= attempts <= 10:
            raise ValueError(f"attempts {shown(attempts)}: an int from 1 to 10")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
            raise ValueError(f"timeout {shown(timeout)}: seconds > 0 (at most 3600)")
        self.url = str(url or os.environ.get("TRESSETTE_LLM_URL") or "http://127.0.0.1:8000/v1").rstrip("/")
        if not self.url.startswith(("http://", "https://")):
            raise ValueError(f"url {shown(self.url)}: an http:// or https:// address")
        self.model = str(model or os.environ.get("TRESSETTE_LLM_MODEL") or "default")
        self.key = key or os.environ.get("TRESSETTE_LLM_KEY") or os.environ.get("OPENAI_API_KEY")
        self.language = language
        self.timeout = float(timeout)
        self.attempts = attempts
        self.requests = 0
        """Requests this copy sent."""

    def __repr__(self) -> str:  # the key stays out of logs
        return f"ChatPlayer(url={self.url!r}, model={self.model!r}, language={self.language!r})"

    def act(self, view: SeatView, legal: list[int], rng: Any) -> int:
        """Ask the model; read its reply as a legal action (asking again with the reason when it names none)."""
        messages = [
            {"role": "system", "content": SYSTEM[self.language]},
            {"role": "user", "content": prompt(view, legal, self.language)},
        ]
        reply = ""
        for _ in range(self.attempts):
            reply = self.chat(messages)
            try:
                return parse_action(reply, view, legal)
            except TextActionError as error:
                messages += [{"role": "assistant", "content": reply}, {"role": "user", "content": str(error)}]
        raise ChatError(
            f"llm {cut(self.model)}: no legal action in {self.attempts} replies; the last: {cut(reply, 80)!r}"
        )

    def chat(self, messages: list[dict]) -> str:
        """One chat completion's text."""
        body = json.dumps({"model": self.model, "messages": messages, "temperature": 0}).encode()
        headers = {"Content-Type": "application/json"}
        if self.key:
            headers["Authorization"] = f"Bearer {self.key}"
        request = urllib.request.Request(f"{self.url}/chat/completions", data=body, headers=headers, method="POST")
        self.requests += 1
        deadline = _Deadline(self.timeout)
        late = f"llm {cut(self.model)}: no whole reply within {self.timeout:g} s"
        try:
            with _opener(deadline).open(request, timeout=self.timeout) as response:
                raw = b""
                while len(raw) <= MAX_REPLY:  # the whole reply within the timeout, not each read
                    if deadline.passed():
                        raise ChatError(late)
                    chunk = response.read1(65536)
                    if not chunk:
                        break
                    raw += chunk
        except urllib.error.HTTPError as error:
            raise ChatError(f"llm {cut(self.model)}: {self.url} answered HTTP {error.code}") from None
        except (urllib.error.URLError, OSError, http.client.HTTPException) as error:
            reason = getattr(error, "reason", error)
            nothing = isinstance(error, http.client.RemoteDisconnected) and deadline.passed()  # (shut down)
            if isinstance(reason, TimeoutError) or nothing:  # connected (or connecting) and nothing came in time
                raise ChatError(
                    f"llm {cut(self.model)}: {cut(self.url)} gave no reply within {self.timeout:g} s"
                ) from None
            if deadline.passed():
                raise ChatError(late) from None
            if isinstance(error, http.client.HTTPException):  # a status line or headers that are not HTTP
                raise ChatError(
                    f"llm {cut(self.model)}: {cut(self.url)} answered not in HTTP: {cut(repr(error))}"
                ) from None
            raise ChatError(f"llm {cut(self.model)}: cannot reach {cut(self.url)}: {cut(str(reason))}") from None
        finally:
            deadline.cancel()
        if len(raw) > MAX_REPLY:
            raise ChatError(f"llm {cut(self.model)}: a reply past {MAX_REPLY} bytes")
        try:
            text = json.loads(raw)["choices"][0]["message"]["content"]
        except (ValueError, KeyError, IndexError, TypeError, RecursionError):  # (nested past the parser's depth)
            if deadline.passed():  # the reply cut short by the deadline's shutdown
                raise ChatError(late) from None
            raise ChatError(
                f"llm {cut(self.model)}: not a chat completion: {cut(raw.decode('utf-8', 'replace'))}"
            ) from None
        if not isinstance(text, str):
            raise ChatError(f"llm {cut(self.model)}: the reply's content is {type(text).__name__}, not text")
        return text
