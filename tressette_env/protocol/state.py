"""The public record of a hand as JSON and back, exactly: what ``tressette bot`` rebuilds a seat's view from.

``encode_public(public)`` turns a ``PublicState`` (every field public: the rules, the table, the
game's own record, the history) into JSON values: a named tuple as ``{"@": "module:Class",
"v": [fields...]}``, the rules as ``{"@rules": game, "switches": {...}}``, tuples as lists.
``decode_view(seat, hand, private, state)`` rebuilds the ``SeatView`` from an ``act`` message's
``"seat"``, ``"hand"``, ``"private"`` (absent: ``[]``) and ``"state"``; nothing from the message is run: a class is looked up only
among the named tuples of the engine, the games and the catalog's rules modules, and must be one.

Example:
    >>> from tressette_env.engine import new_game, view
    >>> state = new_game(seed=0)
    >>> decode_public(encode_public(state.public)) == state.public
    True
"""

from __future__ import annotations

import importlib
from dataclasses import fields, is_dataclass
from typing import Any

from .. import catalog
from ..engine.state import PublicState, SeatView
from ..messages import shown

MAX_DEPTH = 32
"""The deepest nesting ``decode_public`` follows (a record is some 6 deep)."""


class StateError(ValueError):
    """A ``"state"`` that is not the JSON of a public record."""


def encode_public(value: Any) -> Any:
    """``value`` (a ``PublicState`` or any part of it) as JSON values."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        cls = type(value)
        return {"@": f"{cls.__module__}:{cls.__qualname__}", "v": [encode_public(v) for v in value]}
    if isinstance(value, (tuple, list)):
        return [encode_public(v) for v in value]
    if is_dataclass(value) and hasattr(type(value), "game"):
        switches = {f.name: encode_public(getattr(value, f.name)) for f in fields(value)}
        return {"@rules": value.game.name, "switches": switches}
    if isinstance(value, dict):
        return {str(k): encode_public(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"no JSON form for {type(value).__name__} in a public record")


def _allowed_module(name: str) -> bool:
    if name.startswith(("tressette_env.engine.", "tressette_env.games.")):
        return True
    return any(name == e.rules.partition(":")[0] for e in catalog.entries())


def _named_tuple(tag: Any) -> type:
    if not isinstance(tag, str) or tag.count(":") != 1:
        raise StateError(f"a named tuple's tag is 'module:Class'; got {shown(tag)}")
    module, _, name = tag.partition(":")
    if not _allowed_module(module):
        raise StateError(f"{shown(tag)}: not a record of the engine, the games or the catalog's rules modules")
    try:
        loaded = importlib.import_module(module)
    except ImportError:
        raise StateError(f"{shown(tag)}: no such module") from None
    cls = getattr(loaded, name, None)
    if not (isinstance(cls, type) and issubclass(cls, tuple) and hasattr(cls, "_fields")):
        raise StateError(f"{shown(tag)}: not a named tuple of the public record")
    return cls


def decode_public(value: Any, depth: int = 0) -> Any:
    """The record ``encode_public`` made of it.

    Raises:
        StateError: the JSON is not such a record (an unknown class, a wrong field count, too deep...).
    """
    if depth > MAX_DEPTH:
        raise StateError(f"the state nests deeper than {MAX_DEPTH}")
    if isinstance(value, list):
        return tuple(decode_public(v, depth + 1) for v in value)
    if isinstance(value, dict):
        if "@" in value:
            cls = _named_tuple(value["@"])
            items = value.get("v")
            if not isinstance(items, list) or len(items) != len(cls._fields):
                raise StateError(f"{cls.__name__} has {len(cls._fields)} fields; got {shown(items)}")
            return cls(*(decode_public(v, depth + 1) for v in items))
        if "@rules" in value:
            switches = value.get("switches")
            if not isinstance(switches, dict):
                raise StateError(f"rules need a 'switches' object; got {shown(switches)}")
            try:
                rules_type = catalog.entry(value["@rules"]).rules_type()
                decoded = {k: decode_public(v, depth + 1) for k, v in switches.items()}
                return rules_type(**decoded)
            except (TypeError, ValueError) as error:
                raise StateError(f"rules: {error}") from None
        return {k: decode_public(v, depth + 1) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise StateError(f"not a JSON value: {shown(value)}")


def decode_view(seat: Any, hand: Any, private: Any, state: Any) -> SeatView:
    """The ``SeatView`` of an ``act`` message: the seat, its hand and private cards (card ids), the state.

    Raises:
        StateError: a part is not what it should be.
    """
    public = decode_public(state)
    if not isinstance(public, PublicState):
        raise StateError("the state is not a PublicState")
    _check_bounds(public)
    n = public.table.seats
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise StateError(f"seat {shown(seat)}: a seat from 0 to {n - 1}")
    return SeatView(seat, _mask(hand, "hand"), public, _mask(private, "private"))


MAX_INT = 1 << 320
"""Every card mask of a record is below 2**320 (a mask of eight seats' 40 cards)."""

MAX_COUNT = 1 << 24
"""Every number of a record but a card mask or a match's score or hand count (a count, a seat, a card, an action, a
hand's points or stakes) lies below 2**24 in size.

The players shift bits by such numbers (a thermometer of the thirds, the trick number's bit): one
of 2**33 made ``tressette bot ppo`` take 2.3 GB before it failed. In play the largest is a hand's
stakes or charges (a switch of at most 10,000 times a few).
"""

MAX_SCORE = 1 << 48
"""A match's score (``match_score``) and hand count (``hand_number``, a perdere's ``out_at``) lie below 2**48 in size.

A score adds up stakes of up to 10,000 times a few for as many hands as the match lasts; a match
to a high target between equal players (Calabresella's and a chiamare's scores add to zero) has
been simulated past 2**24 hands. The players only add and compare these, or cut them to a
thermometer's width."""

MASK_FIELDS = frozenset({"played", "signals", "voids", "exposed", "revealed", "cards", "monte_shown", "removed"})
"""The fields of the public records (``engine.state``, the games' own records) that hold card masks (bit c: card
c, 40 bits a seat): ints from 0 to below ``MAX_INT``."""

SCORE_FIELDS = frozenset({"match_score", "hand_number", "out_at"})
"""The fields that grow with a match (its scores, its hands): ints below ``MAX_SCORE`` in size."""


def _ints(value: Any, path: str = "state"):
    """Every int of a decoded record, with where it is."""
    if isinstance(value, bool):
        return
    if isinstance(value, int):
        yield path, value
    elif isinstance(value, tuple):
        for k, item in enumerate(value):
            yield from _ints(item, f"{path}.{value._fields[k]}" if hasattr(value, "_fields") else f"{path}[{k}]")
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _ints(item, f"{path}.{key}")


def _check_bounds(public: PublicState) -> None:
    """The sizes and numbers the players loop over, in their ranges: a record cannot make a player loop or grow forever.

    The table has 2 to 8 seats and 1 to 20 tricks; every card mask (``MASK_FIELDS``) lies from 0
    to below ``MAX_INT``, every match score (``SCORE_FIELDS``) within ``MAX_SCORE`` and every other
    number within ``MAX_COUNT`` (a shift by it is small). What these checks leave (a game's own record with values no deal has) is
    bounded in time by ``tressette bot``'s decision limit.
    """
    table = public.table
    if not hasattr(table, "seats") or type(table.seats) is not int or not 2 <= table.seats <= 8:
        raise StateError(f"table.seats {shown(getattr(table, 'seats', None))}: a table has 2 to 8 seats")
    if type(table.tricks) is not int or not 1 <= table.tricks <= 20:
        raise StateError(f"table.tricks {shown(table.tricks)}: a hand has 1 to 20 tricks")
    for where, number in _ints(public):
        field = _field_name(where)
        if field in MASK_FIELDS:
            if not 0 <= number < MAX_INT:
                raise StateError(f"{where} = {shown(number)}: a card mask is an int from 0 to below 2**320")
        elif field in SCORE_FIELDS:
            if not -MAX_SCORE < number < MAX_SCORE:
                raise StateError(f"{where} = {shown(number)}: a match's score or hand count lies within ±2**48")
        elif not -MAX_COUNT < number < MAX_COUNT:
            raise StateError(
                f"{where} = {shown(number)}: a count, a seat, a card, an action or a hand's points lie within ±2**24"
            )
    masks = {"played": public.played, "signals": public.signals, "voids": public.voids,
             "table.exposed": table.exposed, "accusi.revealed": getattr(public.accusi, "revealed", 0)}  # fmt: skip
    for where, mask in masks.items():
        if type(mask) is not int or mask < 0:
            raise StateError(f"{where} = {shown(mask)}: a card mask is an int >= 0")
    _check_fields(public)


def _field_name(where: str) -> str:
    """The field a path of ``_ints`` ends in: ``state.accusi.by_seat[0][1].cards`` -> ``cards``."""
    return where.rpartition(".")[2].partition("[")[0]


def _check_fields(public: PublicState) -> None:
    """The fields every game reads in their types and ranges (a seat, a card, an action id, a count)."""
    n = public.table.seats
    _whole(public.status, "status", 0, MAX_COUNT - 1)
    _whole(public.hand_number, "hand_number", 0, MAX_SCORE - 1)
    _whole(public.tricks_done, "tricks_done", 0, public.table.tricks)
    for name in ("dealer", "first_leader", "leader", "turn"):  # -1: no seat (no one on turn, no lead yet)
        _whole(getattr(public, name), name, -1, n - 1)
    _whole_tuple(public.thirds, "thirds", 1 - MAX_COUNT, MAX_COUNT - 1, 8)
    _whole_tuple(public.match_score, "match_score", 1 - MAX_SCORE, MAX_SCORE - 1, 8)
    _whole_tuple(public.trick, "trick", 0, 39, n)
    _whole_tuple(public.history, "history", 0, 255, 400)
    table = public.table
    _whole_tuple(table.sides, "table.sides", 0, n - 1, n)
    _whole_tuple(table.controllers, "table.controllers", -1, 7, n)  # each seat's agent (of up to eight)
    _whole_tuple(table.seat_of, "table.seat_of", -1, n - 1, 8)  # each agent's seat; -1: out of this hand


def _whole(value: Any, where: str, least: int, most: int) -> None:
    if type(value) is not int or not least <= value <= most:
        raise StateError(f"{where} = {shown(value)}: {_range(least, most)}")


def _range(least: int, most: int) -> str:
    for bound, text in ((MAX_COUNT, "2**24"), (MAX_SCORE, "2**48")):
        if least == 1 - bound and most == bound - 1:
            return f"an int within ±{text} (exclusive)"
    return f"an int from {least} to {most}"


def _whole_tuple(value: Any, where: str, least: int, most: int, longest: int) -> None:
    if not isinstance(value, tuple) or len(value) > longest:
        raise StateError(f"{where} = {shown(value)}: a list of at most {longest} ints")
    for k, item in enumerate(value):
        if type(item) is not int or not least <= item <= most:
            raise StateError(f"{where}[{k}] = {shown(item)}: {_range(least, most)}")


def _mask(cards: Any, what: str) -> int:
    if not isinstance(cards, list) or not all(type(c) is int and 0 <= c < 40 for c in cards):
        raise StateError(f"{what} is a list of card ids 0..39; got {shown(cards)}")
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask
