"""Game records: one episode (a hand or a match) as one line of JSON, and its replay.

A record holds what is needed to read a game and to play it again exactly:

| key | value |
| --- | --- |
| ``"version"`` | ``1`` |
| ``"game"`` | the game's name (``"tressette"``, ``"calabresella"``...) |
| ``"rules"`` | the rule switches that differ from the defaults |
| ``"seed"`` | the seed of the engine's deals (``random.Random(seed)``: ``new_game``, then ``next_hand``) |
| ``"players"`` | each agent's player spec |
| ``"deal"`` | (only if the first hand's deal was chosen) ``new_game``'s deal keywords |
| ``"hands"`` | one entry per hand: ``"dealer"``, ``"dealt"`` (each seat's cards as codes, ``"3d"``), ``"actions"`` (``[seat, action id, name]`` in order; an illegal action an environment played as a renuncio has a fourth entry, ``"renuncio"``), ``"result"`` (the hand's info, as the environments report it) |
| ``"returns"`` | each agent's return for the episode |
| ``"truncated"`` | (only if ``max_cycles`` cut the episode) ``true``; then there are no returns |

Records come from ``tressette play --record FILE``, ``tressette eval --record DIR`` (one
record per play of a board, with its ``"board"`` and ``"lineup"``) and from every
environment built with ``record=FILE`` (AEC, parallel, single-seat).

``replay(record)`` deals from the seed, checks each hand's dealt cards, plays the actions
(checking each seat and that each action is legal) and checks each result; it reads JSON
only, so a record cannot run code. ``read_records(path)`` reads a file of records, one per
line, with an error naming the line of a damaged one. Whatever is damaged (a line that is
not UTF-8 text or not JSON, a missing or mistyped key, a hand cut short, an action out of
turn), the error is ``RecordError`` (naming the hand and the action, each counted from 1, as
``tressette replay --hand K`` counts), and what is read is bounded: a line holds at most
``MAX_LINE_BYTES`` bytes and nests lists and objects at most ``MAX_DEPTH`` deep, and a file
is read a line at a time.

Example:
    >>> from tressette_env.engine import apply, legal_actions, new_game
    >>> import random
    >>> recorder = Recorder("tressette", new_game().public.rules, seed=3, players=["random"] * 4)
    >>> state = recorder.start()
    >>> while state.public.status == 0:
    ...     state = recorder.play(state, legal_actions(state)[0])
    >>> record = recorder.finish(state)
    >>> replay(record).public.result == state.public.result
    True
"""

from __future__ import annotations

import dataclasses
import json
import random
import re
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from .catalog import names as game_names
from .engine.cards import card_code, cards_of
from .engine.game import apply, legal_actions_mask, new_game, next_hand, renuncio
from .engine.state import HAND_OVER, PLAYING, GameState
from .engine.switches import make_effective, make_switches
from .envs.spec import game_spec
from .messages import cut, shown

VERSION = 1
RENUNCIO = "renuncio"
"""The fourth entry of an illegal action an environment played as a renuncio."""


MAX_LINE_BYTES = 8 * 2**20
"""The longest line ``read_records`` reads, in bytes (8 MiB). A record takes about 1 kB a hand:
a match of Tressette a chiamare over 41 rounds (205 hands) is 0.2 MB, so this holds some
8,000 hands."""
MAX_DEPTH = 32
"""The deepest nesting of lists and objects on a line that ``read_records`` reads (a record
nests at most 6 deep)."""

# A JSON string (its closing quote optional, so an unclosed one is one token, not a rescan) or a bracket.
_TOKENS = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*"?|[\[\]{}]')


class RecordError(ValueError):
    """A record that cannot be read or does not replay (says what is wrong, and where)."""


def _jsonable(value: Any) -> Any:
    return json.loads(json.dumps(value, default=list))


def rule_switches(rules: Any) -> dict[str, Any]:
    """The switches of ``rules`` that differ from their defaults (JSON values)."""
    defaults = type(rules)()
    return {
        f.name: _jsonable(getattr(rules, f.name))
        for f in dataclasses.fields(rules)
        if getattr(rules, f.name) != getattr(defaults, f.name)
    }


def _rules_of(game: str, switches: dict[str, Any]) -> Any:
    spec = game_spec(game)
    fields = {f.name: f for f in dataclasses.fields(type(spec.make_rules()))}
    values = {}
    for name, value in switches.items():
        default = fields[name].default if name in fields else None
        values[name] = tuple(value) if isinstance(value, list) and not isinstance(default, list) else value
    # A switch that had no effect (records written before such switches were refused) is left at its
    # default: the record replays as it was played.
    rules_type = type(spec.make_rules())
    if any(name not in fields for name in values):
        make_switches(rules_type, **values)  # raises the TypeError that names the unknown switch
    return make_effective(rules_type, **values)


def dealt_codes(state: GameState) -> list[list[str]]:
    """Each seat's dealt cards as codes."""
    return [[card_code(c) for c in cards_of(hand)] for hand in state.dealt]


class Recorder:
    """Builds a record while an episode is played.

    Either it deals (``start``, ``play`` each action, ``next_hand``, ``finish``), or it follows
    an episode dealt elsewhere from ``random.Random(seed)`` (``open_hand`` for each hand dealt,
    ``played`` after each action, ``finish``): the evaluation and the environments do that.
    ``deal`` holds the first hand's chosen deal (``new_game``'s keywords), if it was chosen.
    """

    def __init__(self, game: str, rules: Any, seed: int, players: Sequence[str], deal: dict | None = None):
        self.game, self.rules, self.seed = game, rules, seed
        self._rng = random.Random(seed)
        self.record: dict[str, Any] = {
            "version": VERSION,
            "game": game,
            "rules": rule_switches(rules),
            "seed": seed,
            "players": list(players),
            "hands": [],
        }
        if deal:
            self.record["deal"] = _jsonable(deal)

    def start(self) -> GameState:
        """The episode's first hand, dealt from the seed."""
        state = new_game(self.rules, self._rng, **self.record.get("deal", {}))
        self.open_hand(state)
        return state

    def open_hand(self, state: GameState) -> None:
        """Begin the record of the hand just dealt in ``state``."""
        p = state.public
        self.record["hands"].append({"dealer": p.dealer, "dealt": dealt_codes(state), "actions": []})

    def played(self, before: GameState, action: int, state: GameState, renuncio: bool = False) -> None:
        """Record that the seat on turn in ``before`` took ``action``, which led to ``state`` (``renuncio``: it was illegal).

        The step's name is the game's (``Game.action_label``: in due's ``volta Ad``, a chiamare's ``sola``).
        """
        hand = self.record["hands"][-1]
        p = before.public
        step = [p.turn, action, p.rules.game.action_label(p, action)]
        if renuncio:
            step.append(RENUNCIO)
        hand["actions"].append(step)
        if state.public.status != PLAYING:
            hand["result"] = _jsonable(state.public.rules.game.hand_info(state.public))

    def play(self, state: GameState, action: int) -> GameState:
        """``state`` after the seat on turn plays ``action``, recorded (a finished hand's result too)."""
        after = apply(state, action)
        self.played(state, action, after)
        return after

    def next_hand(self, state: GameState) -> GameState:
        """The match's next hand, dealt from the seed's stream."""
        state = next_hand(state, self._rng)
        self.open_hand(state)
        return state

    def finish(self, state: GameState, truncated: bool = False) -> dict[str, Any]:
        """The record of the episode (``truncated``: cut before its end, by ``max_cycles``)."""
        if truncated:
            self.record["truncated"] = True
        else:
            self.record["returns"] = list(state.public.rules.game.returns(state.public))
        return self.record


def write_record(path: str | Path, record: dict[str, Any]) -> None:
    """Append ``record`` to ``path`` as one line of JSON."""
    with open(path, "a", encoding="utf-8") as out:
        out.write(json.dumps(record, separators=(",", ":")) + "\n")


def read_records(path: str | Path) -> Iterator[dict[str, Any]]:
    """The records of a file, one per line (``RecordError`` names a damaged line)."""
    for _, record in numbered_records(path):
        yield record


def numbered_records(path: str | Path) -> Iterator[tuple[int, dict[str, Any]]]:
    """Each record of a file with the number of its line (1 first; blank lines are skipped).

    Reads a line at a time, so only one line is held at once.

    Raises:
        RecordError: ``"<path>, line <n>: <what is wrong>"``: a line longer than
            ``MAX_LINE_BYTES``, not UTF-8 text, nested deeper than ``MAX_DEPTH``, not JSON,
            or not the keys and types of a record.
        OSError: the file cannot be opened or read.
    """
    with open(path, "rb") as lines:
        number = 0
        while raw := lines.readline(MAX_LINE_BYTES + 1):
            number += 1
            where = f"{path}, line {number}"
            if len(raw.rstrip(b"\n")) > MAX_LINE_BYTES:
                raise RecordError(f"{where}: longer than {MAX_LINE_BYTES} bytes, the most a record's line may hold")
            try:
                line = raw.decode("utf-8")
            except UnicodeDecodeError as error:
                utf16 = " (this looks like UTF-16)" if raw[:2] in (b"\xff\xfe", b"\xfe\xff") else ""
                raise RecordError(
                    f"{where}: not UTF-8 text: byte {raw[error.start]:#04x} at byte {error.start + 1}; "
                    f"records are written in UTF-8{utf16}"
                ) from None
            if not line.strip():
                continue
            yield number, parse_line(line, where)


def parse_line(line: str, where: str = "the record") -> dict[str, Any]:
    """One line of a record file as a record, read as data and checked (``check_record``); ``RecordError`` if not.

    Its nesting is checked before it is parsed (at most ``MAX_DEPTH``); ``where`` names it in the error.
    """
    if _too_deep(line):
        raise RecordError(f"{where}: lists and objects nested over {MAX_DEPTH} deep; a record nests at most 6")
    try:
        record = json.loads(line)
    except ValueError as error:  # JSONDecodeError, or an integer of over 4300 digits
        raise RecordError(f"{where}: not JSON ({getattr(error, 'msg', None) or shown(str(error))})") from None
    check_record(record, where)
    return record


def _too_deep(line: str) -> bool:
    """Whether ``line`` nests lists and objects over ``MAX_DEPTH`` deep (brackets in strings do not count)."""
    depth = 0
    for token in _TOKENS.finditer(line):  # stops at the first bracket past the bound
        token = token.group()
        if token == "[" or token == "{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif token == "]" or token == "}":
            depth -= 1
    return False


def check_record(record: Any, where: str = "the record") -> None:
    """Raise ``RecordError`` unless ``record`` has the keys and types of a record."""
    if not isinstance(record, dict):
        raise RecordError(f"{where}: a record is a JSON object; got {type(record).__name__}")
    if type(record.get("version")) is not int or record["version"] != VERSION:  # (not true, not 1.0)
        raise RecordError(f"{where}: version {shown(record.get('version'))}; this package reads version {VERSION}")
    if record.get("game") not in game_names():
        raise RecordError(f"{where}: unknown game {shown(record.get('game'))}; the games are {', '.join(game_names())}")
    for key, kind in (("rules", dict), ("seed", int), ("hands", list)):
        if not isinstance(record.get(key), kind) or isinstance(record.get(key), bool):
            raise RecordError(f"{where}: {key!r} must be a JSON {kind.__name__}")
    for k, hand in enumerate(record["hands"]):
        if not isinstance(hand, dict) or not isinstance(hand.get("actions"), list):
            raise RecordError(f"{where}: hand {k + 1} has no list of actions")


def _same_result(replayed: dict, recorded: Any, no_seat_keys: tuple[str, ...]) -> bool:
    """Whether a hand's replayed info is the record's (``Game.no_seat_keys``: an older record's null is -1)."""
    if replayed == recorded:
        return True
    if not isinstance(recorded, dict):
        return False
    return replayed == {k: -1 if k in no_seat_keys and v is None else v for k, v in recorded.items()}


def replay(record: dict[str, Any], on_action: Any = None, *, on_step: Any = None) -> GameState:
    """Play ``record`` again from its seed; the final state.

    ``on_action(state, seat, action)`` sees each step with the state after it; ``on_step(before,
    action, after)`` with the state before it too (what the step's name reads: ``Game.action_label``).

    Raises:
        RecordError: the record is damaged, or it does not replay (another deal, a seat out of
            turn, an illegal action, another result).
    """
    check_record(record)
    try:
        rules = _rules_of(record["game"], record["rules"])
    except (TypeError, ValueError) as error:
        raise RecordError(f"the record's rules: {cut(str(error), 300)}") from None
    rng = random.Random(record["seed"])
    deal = record.get("deal", {})
    if not isinstance(deal, dict):
        raise RecordError(f"'deal' must be a JSON object of new_game's deal keywords; got {shown(deal)}")
    try:
        state = new_game(rules, rng, **deal)
    except (TypeError, ValueError) as error:
        raise RecordError(f"the record's deal: {cut(str(error), 300)}") from None
    for k, hand in enumerate(record["hands"]):
        if k:
            if state.public.status != HAND_OVER:
                raise RecordError(f"hand {k + 1}: the record goes on after the episode ended")
            state = next_hand(state, rng)
        if hand.get("dealt") != dealt_codes(state):
            raise RecordError(
                f"hand {k + 1}: the seed deals other cards than the record's (another version's shuffle?)"
            )
        for n, step in enumerate(hand["actions"]):
            if not (isinstance(step, list) and len(step) >= 2 and all(type(x) is int for x in step[:2])):
                raise RecordError(
                    f"hand {k + 1}, action {n + 1}: an action is [seat, action id, name]; got {shown(step)}"
                )
            seat, action = step[0], step[1]
            before = state
            p = state.public
            if p.status != PLAYING:
                raise RecordError(f"hand {k + 1}, action {n + 1}: the hand is over")
            if seat != p.turn:
                raise RecordError(f"hand {k + 1}, action {n + 1}: seat {seat} acts, but seat {p.turn} is on turn")
            if not 0 <= action < 256:
                raise RecordError(f"hand {k + 1}, action {n + 1}: {action} is not an action id (0 to 255)")
            if not legal_actions_mask(state) >> action & 1:
                if not (step[3:4] == [RENUNCIO] and rules.illegal_action == "renuncio"):
                    raise RecordError(f"hand {k + 1}, action {n + 1}: action {action} is not legal for seat {seat}")
                state = renuncio(state)  # an illegal action an environment played: its side loses the hand
            else:
                state = apply(state, action)
            if on_action is not None:
                on_action(state, seat, action)
            if on_step is not None:
                on_step(before, action, state)
        if "result" in hand:
            if state.public.status == PLAYING:
                raise RecordError(
                    f"hand {k + 1}: the record gives the hand's result, but its {len(hand['actions'])} action(s) "
                    "end before the hand is over (a record cut short?)"
                )
            if not _same_result(_jsonable(rules.game.hand_info(state.public)), hand["result"], rules.game.no_seat_keys):
                raise RecordError(f"hand {k + 1}: the replay's result differs from the record's")
    if state.public.status == PLAYING and record.get("truncated") is not True:
        raise RecordError("the record ends in the middle of a hand")
    if "returns" in record:
        if state.public.status == PLAYING:  # (a truncated record has none: a hand cut short scores nothing yet)
            raise RecordError("the record gives returns, but it is truncated: cut in the middle of a hand, it has none")
        if list(rules.game.returns(state.public)) != record["returns"]:
            raise RecordError("the replay's returns differ from the record's")
    return state
