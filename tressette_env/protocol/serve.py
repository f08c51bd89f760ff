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

import json
import random
from collections.abc import Iterable
from typing import IO, Any

from ..messages import cut, shown
from .state import decode_view

MAX_MESSAGE = 1 << 22
"""The longest message line read (4 MiB; an ``act`` message is some 10 to 40 kB)."""


def _action(player: Any, line: str, rng: random.Random) -> int | None:
    """The player's action for one message line; None for a message that needs no answer."""
    if len(line) > MAX_MESSAGE:
        raise ValueError(f"a message of {len(line)} characters: at most {MAX_MESSAGE}")
    try:
        message = json.loads(line)
    except ValueError:
        raise ValueError(f"not JSON: {cut(line.strip())}") from None
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
    action = player.act(view, ids, rng)
    if action not in ids:
        raise ValueError(f"the player chose {shown(action)}, not one of the legal actions")
    return action


def serve(player: Any, stdin: Iterable[str], stdout: IO[str], rng: random.Random) -> None:
    """Answer every ``act`` message of ``stdin`` on ``stdout`` until the input ends."""
    for line in stdin:
        if not line.strip():
            continue
        try:
            action = _action(player, line, rng)
        except Exception as error:  # noqa: BLE001 - a record that decodes but is no game's state fails anywhere
            stdout.write(json.dumps({"error": cut(f"{type(error).__name__}: {error}", 300)}) + "\n")
            stdout.flush()
            continue
        if action is not None:
            stdout.write(json.dumps({"action": action}) + "\n")
            stdout.flush()
