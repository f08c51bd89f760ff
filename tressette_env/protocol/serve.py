"""One of our players answering the table protocol on stdin and stdout: ``tressette bot SPEC``.

For each ``act`` message it rebuilds the seat's view from the message (``protocol.state``),
asks the player, and writes ``{"action": <id>}``. A line it cannot read, or whose view it
cannot rebuild or play (a record of the right shape with values no game has), gets
``{"error": "..."}`` (one line, what was wrong) and the next line is read;
other message types get no answer. It ends at the end of its input.

Example:
    >>> import io, json, random
    >>> from tressette_env.agents import HeuristicPlayer
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> from tressette_env.protocol.view import act_message
    >>> state = new_game(seed=0)
    >>> message = act_message(view(state, state.public.turn), legal_actions(state))
    >>> out = io.StringIO()
    >>> serve(HeuristicPlayer(), [json.dumps(message)], out, random.Random(0))
    >>> seat = view(state, state.public.turn)
    >>> json.loads(out.getvalue())["action"] == HeuristicPlayer().act(seat, legal_actions(state), None)
    True
"""

from __future__ import annotations

import contextlib
import json
import random
import signal
import threading
from collections.abc import Iterable
from typing import IO, Any

from ..engine.actions import CALL_OUT, FAMILY_NUM_ACTIONS, card_of
from ..messages import cut, not_json, shown
from .state import decode_view

MAX_MESSAGE = 1 << 22
"""The longest message line read (4 MiB; an ``act`` message is some 10 to 40 kB)."""


def _action(player: Any, line: str, rng: random.Random) -> int | None:
    """The player's action for one message line; None for a message that needs no answer."""
    if len(line) > MAX_MESSAGE:
        raise ValueError(f"a message of {len(line)} characters: at most {MAX_MESSAGE}")
    try:
        message = json.loads(line)
    except (ValueError, RecursionError) as error:  # RecursionError: lists or objects nested past the parser's depth
        raise ValueError(f"{not_json(error)}: {cut(line.strip())}") from None
    if not isinstance(message, dict):
        raise ValueError(f"a message is a JSON object; got {shown(message)}")
    if message.get("type") != "act":
        return None
    legal = message.get("legal")
    if (
        not isinstance(legal, list)
        or not legal
        or not all(isinstance(i, dict) and type(i.get("id")) is int for i in legal)
    ):
        raise ValueError(f'\'legal\' is a non-empty list of {{"id": int, "name": str}}; got {shown(legal)}')
    view = decode_view(message.get("seat"), message.get("hand"), message.get("private", []), message.get("state"))
    ids = [item["id"] for item in legal]
    playable = view.hand  # the seat's hand and the cards lying face up (a dummy's, which its controller plays)
    for seat in range(view.public.table.seats):
        playable |= view.public.exposed_by(seat)
    for i in ids:  # ids of the family's table; those below chiamarsi fuori's play a card
        if not 0 <= i < FAMILY_NUM_ACTIONS:
            raise ValueError(f"'legal' holds id {shown(i)}: action ids are 0..{FAMILY_NUM_ACTIONS - 1}")
        if i < CALL_OUT and not playable >> card_of(i) & 1:
            raise ValueError(f"'legal' plays card {card_of(i)} (id {i}), which is neither in 'hand' nor face up")
    action = player.act(view, ids, rng)
    if action not in ids:
        raise ValueError(f"the player chose {shown(action)}, not one of the legal actions")
    return action


DECISION_LIMIT = 60.0
"""Seconds a decision may take before its message gets ``{"error": ...}`` (``tressette bot --decision-limit``)."""


class _TooLong(Exception):
    pass


def _lines(stdin: Iterable[str]):
    """The input's lines, each read at most ``MAX_MESSAGE + 1`` characters at a time (a longer one: None)."""
    readline = getattr(stdin, "readline", None)
    if readline is None:
        yield from stdin
        return
    while True:
        line = readline(MAX_MESSAGE + 1)
        if not line:
            return
        if len(line) > MAX_MESSAGE and not line.endswith("\n"):
            while line and not line.endswith("\n"):  # skip the rest of it, a bounded piece at a time
                line = readline(MAX_MESSAGE + 1)
            yield None
            continue
        yield line


@contextlib.contextmanager
def _limit(seconds: float | None):
    """Raise ``_TooLong`` in the block after ``seconds`` (the main thread of a Unix process; elsewhere no limit)."""
    usable = seconds and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread()
    if not usable:
        yield
        return

    def expired(signum, frame):
        raise _TooLong

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def serve(
    player: Any,
    stdin: Iterable[str],
    stdout: IO[str],
    rng: random.Random,
    decision_limit: float | None = DECISION_LIMIT,
) -> None:
    """Answer every ``act`` message of ``stdin`` on ``stdout`` until the input ends.

    A decision that takes longer than ``decision_limit`` seconds (a record that makes the player
    search forever) is stopped and answered ``{"error": ...}``.
    """
    for line in _lines(stdin):
        if line is not None and not line.strip():
            continue
        try:
            if line is None:
                raise ValueError(f"a message longer than {MAX_MESSAGE} characters")
            with _limit(decision_limit):
                action = _action(player, line, rng)
        except _TooLong:
            stdout.write(json.dumps({"error": f"the decision took more than {decision_limit:g} s"}) + "\n")
            stdout.flush()
            continue
        except Exception as error:  # noqa: BLE001 - a record that decodes but is no game's state fails anywhere
            stdout.write(json.dumps({"error": cut(f"{type(error).__name__}: {error}", 300)}) + "\n")
            stdout.flush()
            continue
        if action is not None:
            stdout.write(json.dumps({"action": action}) + "\n")
            stdout.flush()
