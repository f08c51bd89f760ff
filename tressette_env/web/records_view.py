"""An uploaded record file as replay frames: the page steps through a recorded episode, every hand shown.

The text is JSON lines (``tressette play --record``, ``tressette eval --record``,
``env(record=...)``), read as data only, with the bounds of ``tressette_env.records``: each line
nested at most ``records.MAX_DEPTH`` deep (checked before it is parsed: ``records.parse_line``), each record with the
keys and types of one (``records.check_record``), then played again by ``records.replay``,
which checks every deal, seat, action and result. On top of those, an upload holds at most
``MAX_TEXT_BYTES`` of text and ``MAX_RECORDS`` records, and a replay at most ``MAX_FRAMES``
frames. Whatever is wrong, the error is a ``RecordTextError`` (a ``TableError``) naming the
line: ``line 3: not JSON (Expecting value)``; nothing is kept of a refused upload.

``replay_message(text, index)`` is the web protocol's ``replay`` message for the record number
``index`` (0 first) of the text:

| field | what it is |
| --- | --- |
| ``type``, ``game`` | ``"replay"``, the record's game |
| ``index``, ``records``, ``line`` | the record replayed, how many the text holds, its line in the text |
| ``players``, ``seed``, ``returns`` | the record's player specs, seed and returns (None when truncated) |
| ``frames`` | one spectator ``view`` message (``table.view_message``: every hand shown; without the protocol's ``state``, the exact public record) for each hand as dealt, then one per action, each with ``step``: ``{"hand", "seat", "action", "name"}`` (``"dealt"``, seat and action None, for a hand as dealt) |

Example:
    >>> import json
    >>> from tressette_env.web.table import Table
    >>> table = Table("tressette_in_due", {}, ["random", "random"], seed=2)
    >>> while table.on_turn() is not None:
    ...     table.play_bot()
    >>> text = json.dumps(table.record())
    >>> message = replay_message(text)
    >>> message["game"], len(message["frames"]), message["frames"][0]["step"]["name"], message["frames"][-1]["status"]
    ('tressette_in_due', 41, 'dealt', 'match_over')
    >>> replay_message(text[:-2])
    Traceback (most recent call last):
    ...
    tressette_env.web.records_view.RecordTextError: line 1: not JSON (Expecting ',' delimiter)
"""

from __future__ import annotations

import random
from typing import Any

from ..engine.game import new_game, next_hand
from ..messages import shown
from ..records import RENUNCIO, RecordError, _rules_of, parse_line, replay
from .table import TableError, log_entries, view_message

MAX_TEXT_BYTES = 2 * 2**20
"""The most text an upload holds, in bytes of UTF-8 (2 MiB: some 2,000 hands of records)."""
MAX_RECORDS = 200
"""The most records an upload holds."""
MAX_FRAMES = 4000
"""The most frames one replay holds (one per action and one per hand as dealt: a hand of the four-seat game is 41;
a match of ten rounds of a chiamare, 50 hands, some 2,500)."""
REPLAY_REVIEW = {"kind": "none", "reason": "a replay is not reviewed", "plays": []}


class RecordTextError(TableError):
    """Uploaded record text that cannot be read or replayed (the message names the line and what is wrong)."""


class _TooManyFrames(Exception):
    """Raised inside the replay when it would pass ``MAX_FRAMES``."""


def read_text(text: Any) -> list[tuple[int, dict]]:
    """The records of ``text`` with their line numbers (1 first; blank lines skipped), checked as data.

    Raises:
        RecordTextError: not text, over the bounds, no record, or a damaged line (named).
    """
    if not isinstance(text, str):
        raise RecordTextError(f'"text" must be the record file\'s text (JSON lines); got {type(text).__name__}')
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > MAX_TEXT_BYTES:
        raise RecordTextError(f"{size} bytes of records: at most {MAX_TEXT_BYTES} (2 MiB); upload fewer episodes")
    found = []
    for number, line in enumerate(text.split("\n"), start=1):
        if not line.strip():
            continue
        where = f"line {number}"
        if len(found) == MAX_RECORDS:
            raise RecordTextError(f"{where}: more than {MAX_RECORDS} records; upload at most {MAX_RECORDS}")
        try:
            found.append((number, parse_line(line, where)))
        except RecordError as error:
            raise RecordTextError(str(error)) from None
    if not found:
        raise RecordTextError("no record in the text: a record file holds one JSON object a line")
    return found


def replay_message(text: Any, index: Any = 0, table_id: str = "replay") -> dict:
    """The ``replay`` message of record ``index`` (0 first) of ``text`` (the module docstring's table).

    Raises:
        RecordTextError: the text is refused (``read_text``), ``index`` names no record, or the
            record does not replay (another deal, an illegal action...) or has too many actions.
    """
    records = read_text(text)
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < len(records):
        raise RecordTextError(f"index {shown(index)}: the text holds records 0 to {len(records) - 1}")
    line, record = records[index]
    where = f"line {line}"
    frames: list[dict] = []
    try:
        rules = _rules_of(record["game"], record["rules"])
        deals = random.Random(record["seed"])  # the replay's own deals, drawn again for each hand's dealt state
        before = new_game(rules, deals, **record.get("deal", {}))
    except (TypeError, ValueError) as error:
        raise RecordTextError(f"{where}: the record's rules or deal: {shown(str(error), 300)}") from None
    log: list[dict] = []
    steps = [step for hand in record["hands"] for step in hand["actions"]]

    def add(message: dict) -> None:
        if len(frames) == MAX_FRAMES:
            raise _TooManyFrames
        message["act"].pop("state", None)  # the exact public record, for a harness: a page steps without it
        if "end" in message:
            message["end"].pop("state", None)
        frames.append(message)

    def dealt(state: Any) -> None:
        """A hand as dealt, before its first action."""
        message = view_message(state, None, table_id=table_id, log=[], review=REPLAY_REVIEW)
        message["step"] = {"hand": state.public.hand_number, "seat": None, "action": None, "name": "dealt"}
        add(message)

    played = 0  # the record's actions replayed so far

    def frame(state: Any, seat: int, action: int) -> None:
        nonlocal before, log, played
        if not frames:
            dealt(before)
        if state.public.hand_number != before.public.hand_number:  # the first action of the next hand
            before, log = next_hand(before, deals), []
            dealt(before)
        step = steps[played]
        played += 1
        renuncio = len(step) > 3 and step[3] == RENUNCIO
        entries = log_entries(before, state, seat, action)
        if renuncio:
            entries[0]["text"] += f" (renuncio: not legal; {before.public.rules.game.renuncio_words(before.public)})"
        log = log + entries
        message = view_message(state, None, table_id=table_id, log=log, review=REPLAY_REVIEW)
        message["step"] = {
            "hand": state.public.hand_number,
            "seat": seat,
            "action": action,
            "name": before.public.rules.game.action_label(before.public, action),
        }
        add(message)
        before = state

    try:
        replay(record, frame)
    except RecordError as error:
        raise RecordTextError(f"{where}: {error}") from None
    except _TooManyFrames:
        raise RecordTextError(
            f"{where}: the episode has more than {MAX_FRAMES} actions, the most a replay shows; "
            "record a shorter episode"
        ) from None
    return {
        "type": "replay",
        "game": record["game"],
        "index": index,
        "records": len(records),
        "line": line,
        "players": record.get("players"),
        "seed": record["seed"],
        "returns": record.get("returns"),
        "frames": frames,
    }
