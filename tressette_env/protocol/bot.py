"""A program in any language seated as a player: ``BotPlayer(name, command)``.

The command is started (no shell: its words as ``shlex`` splits them) on the first decision,
with pipes for its stdin and stdout (its stderr is ours). Each decision writes one line, the
``act`` message (``protocol.view``), and reads one line back, ``{"action": <id or name>}``;
the end of each hand writes one ``end`` line per agent the bot plays, which needs no answer.
Everything that can go wrong ends in a ``BotError`` of one line that names the bot:

| what the bot does | error |
| --- | --- |
| the command cannot start | ``bot NAME: cannot start ...`` |
| answers something that is not ``{"action": ...}``, or an illegal action | ``bot NAME: ...`` with what it answered and the legal actions |
| no whole line within ``timeout`` seconds | ``bot NAME: no answer within T s`` (the process is killed) |
| does not read its input for ``timeout`` seconds (a full pipe) | ``bot NAME: did not read its input within T s`` |
| ends | ``bot NAME ended (exit status N) without answering`` |
| closes its stdout but runs on | ``bot NAME closed its output without answering (it is still running)`` |

With a ``fallback`` player, every error but the first row's is not raised: the fallback plays
that decision from the same view, ``fallbacks`` counts it, the first error is written to
stderr, and the bot's process (killed) is started afresh at its next decision. A command that
cannot start is an error with or without a fallback.

The process runs in its own session and is killed with its process group (its children, but
not one that calls ``setsid`` itself) on ``close()``, when the
player is collected, at the interpreter's exit, and at the end of each chunk of boards of the
duplicate evaluation (which pickles players into its workers: a pickled bot carries its
command, not its process, and each worker starts its own).

Example:
    >>> import sys
    >>> bot = BotPlayer("first", [sys.executable, "-c", FIRST_LEGAL])
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> state = new_game(seed=0)
    >>> bot.act(view(state, state.public.turn), legal_actions(state), None) == legal_actions(state)[0]
    True
    >>> bot.close()
"""

from __future__ import annotations

import atexit
import json
import os
import select
import shlex
import signal
import subprocess
import sys
import time
import weakref
from collections.abc import Sequence
from typing import Any

from ..engine.state import SeatView
from ..messages import cut, shown
from .view import MAX_ANSWER, AnswerError, act_message, end_message, read_answer

DEFAULT_TIMEOUT = 5.0
"""Seconds a bot has to answer one decision, by default."""

FIRST_LEGAL = (
    "import json, sys\n"
    "for line in sys.stdin:\n"
    "    message = json.loads(line)\n"
    "    if message.get('type') == 'act':\n"
    "        print(json.dumps({'action': message['legal'][0]['id']}), flush=True)\n"
)
"""The smallest bot, in Python: the first legal action (``python -c FIRST_LEGAL``)."""

_LIVE: weakref.WeakSet = weakref.WeakSet()


class BotError(RuntimeError):
    """A bot that could not be started, answered badly, too late or not at all (one line, naming the bot)."""


class BotStartError(BotError):
    """A bot whose command could not be started (no fallback covers it: the command is wrong)."""


class BotPlayer:
    """A subprocess speaking the table protocol, as a player (see the module docstring).

    Args:
        name: the bot's name in errors and reports.
        command: the program and its arguments, a string (split as a shell would, but run without one) or a list.
        timeout: seconds for each answer (> 0); the first answer of a started (or restarted) bot's process
            has its start-up in them too.
        fallback: a player that plays the decisions the bot fails (None: a failure raises ``BotError``).
    """

    def __init__(
        self, name: str, command: str | Sequence[str], timeout: float = DEFAULT_TIMEOUT, fallback: Any = None
    ) -> None:
        try:
            words = shlex.split(command) if isinstance(command, str) else list(command)
        except ValueError as error:  # an unclosed quotation: shlex's words, with the bot and the command
            raise ValueError(
                f"bot {cut(str(name))}: the command {cut(str(command))} cannot be split into words as a shell "
                f"would: {str(error).lower()}"
            ) from None
        if not words or not all(isinstance(w, str) for w in words):
            raise ValueError(f"bot {cut(str(name))}: the command is a program and its arguments; got {shown(command)}")
        if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout <= 3600:
            raise ValueError(f"bot {cut(str(name))}: timeout is seconds > 0 (at most 3600); got {shown(timeout)}")
        self.name = str(name)
        self.command = words
        self.timeout = float(timeout)
        self.decisions = 0
        """Decisions answered by this copy of the bot."""
        self.seconds = 0.0
        """Seconds this copy waited for its answers."""
        self.fallback = fallback
        self.fallbacks = 0
        """Decisions of this copy that the fallback played."""
        self.first_error = ""
        """The first error the fallback covered, in this copy."""
        self._process: subprocess.Popen | None = None
        self._buffer = b""

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_process"], state["_buffer"] = None, b""
        return state

    def __del__(self) -> None:
        self.close()

    def _fail(self, problem: str) -> BotError:
        self.close()
        return BotError(f"bot {cut(self.name)}: {problem}")

    def _start(self) -> subprocess.Popen:
        try:
            process = subprocess.Popen(
                self.command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, bufsize=0, start_new_session=True
            )
        except OSError as error:
            raise BotStartError(
                f"bot {cut(self.name)}: cannot start {cut(shlex.join(self.command))}: {error.strerror or error}"
            ) from None
        os.set_blocking(process.stdin.fileno(), False)
        self._process, self._buffer = process, b""
        _LIVE.add(self)
        return process

    def act(self, view: SeatView, legal: list[int], rng: Any) -> int:
        """Send the ``act`` message, read the answer: a legal action id (the fallback's, if the bot fails)."""
        message = act_message(view, legal)
        try:
            line = self.ask(json.dumps(message, separators=(",", ":")))
            try:
                action = read_answer(line, message["legal"])
            except AnswerError as error:
                raise self._fail(str(error)) from None
        except BotError as error:
            if self.fallback is None or isinstance(error, BotStartError):
                raise
            return self._fall_back(error, view, legal, rng)
        self.decisions += 1
        return action

    def _fall_back(self, error: BotError, view: SeatView, legal: list[int], rng: Any) -> int:
        self.fallbacks += 1
        if not self.first_error:
            self.first_error = str(error)
            name = getattr(self.fallback, "name", type(self.fallback).__name__)
            print(f"tressette: {error}; the fallback {name} plays its failed decisions", file=sys.stderr)
        return self.fallback.act(view, legal, rng)

    def end(self, view: SeatView) -> None:
        """Send the ``end`` message of a finished hand (no answer is read); nothing if the bot is not running."""
        if self._process is None:
            return
        try:
            self._write(json.dumps(end_message(view), separators=(",", ":")), time.monotonic() + self.timeout)
        except BotError as error:
            if self.fallback is None:
                raise
            if not self.first_error:  # not a decision, so not counted; the bot starts afresh at its next one
                self.first_error = str(error)
                print(f"tressette: {error}; it starts again at its next decision", file=sys.stderr)

    def ask(self, text: str) -> str:
        """Write ``text`` as one line, return the bot's answer line (within ``timeout``)."""
        process = self._process or self._start()
        start = time.monotonic()
        deadline = start + self.timeout
        fd = process.stdout.fileno()
        waiting = select.select([fd], [], [], 0)[0]  # a line nobody asked for: an answer to an end line?
        if self._buffer or waiting:
            stray = (self._buffer + (os.read(fd, MAX_ANSWER) if waiting else b"")).strip()
            if stray:
                raise self._fail(
                    f"wrote {cut(stray.decode('utf-8', 'replace'))} when no answer was asked "
                    "(an end message needs none)"
                )
        self._write(text, deadline)
        while b"\n" not in self._buffer:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"no answer within {self.timeout:g} s")
            ready, _, _ = select.select([fd], [], [], min(left, 0.1))
            if not ready:
                if process.poll() is not None:  # it ended, though a child of its may hold its stdout open
                    raise self._fail(f"ended (exit status {process.returncode}) without answering")
                continue
            chunk = os.read(fd, 65536)
            if not chunk:
                try:
                    code = process.wait(timeout=1)
                except subprocess.TimeoutExpired:  # still running, its output closed: it can answer no more
                    raise self._fail("closed its output without answering (it is still running)") from None
                raise self._fail(f"ended (exit status {code}) without answering")
            self._buffer += chunk
            if len(self._buffer) > MAX_ANSWER and b"\n" not in self._buffer[:MAX_ANSWER]:
                raise self._fail(f"an answer line longer than {MAX_ANSWER} bytes")
        line, _, self._buffer = self._buffer.partition(b"\n")
        self.seconds += time.monotonic() - start
        return line.decode("utf-8", "replace")

    def _write(self, text: str, deadline: float) -> None:
        """Write ``text`` and a newline to the bot's stdin by ``deadline`` (a bot that reads nothing cannot block us)."""
        process = self._process
        fd = process.stdin.fileno()
        data = memoryview(text.encode() + b"\n")
        while data:
            left = deadline - time.monotonic()
            if left <= 0:
                raise self._fail(f"did not read its input within {self.timeout:g} s")
            _, ready, _ = select.select([], [fd], [], min(left, 0.1))
            if not ready:
                if process.poll() is not None:
                    raise self._fail(f"ended (exit status {process.returncode}) before its message was written")
                continue
            try:
                written = os.write(fd, data)
            except BlockingIOError:
                continue
            except OSError:
                raise self._fail(f"ended (exit status {process.poll()}) before its message was written") from None
            data = data[written:]

    def close(self) -> None:
        """End the bot's process (and its children): its stdin closed, then killed if it lingers."""
        process, self._process = getattr(self, "_process", None), None
        if process is None:
            return
        try:
            try:
                process.stdin.close()
            except OSError:
                pass
            try:
                process.wait(timeout=0.5)
            except subprocess.TimeoutExpired:
                pass
        finally:  # (also when the wait is interrupted: the handle is gone, so the kill cannot wait for later)
            try:
                os.killpg(process.pid, signal.SIGKILL)  # its whole session: children it started too
            except (ProcessLookupError, PermissionError):
                pass
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:  # pragma: no cover - a process that survives SIGKILL
            pass
        process.stdout.close()


@atexit.register
def _close_all() -> None:
    for bot in list(_LIVE):
        bot.close()
