"""Rule switches written as text, ``name=value``: the command line's ``--rule`` and the web table's switches.

``rule_switches(["episode=match", "target_score=21"], Rules)`` gives ``{"episode": "match",
"target_score": 21}``, the keyword switches of a game's rules record, and ``game_rules(game,
items)`` the record itself (``tressette_env.envs.spec.game_spec(game).make_rules(**switches)``,
which validates every switch and names what is allowed). How a value is read:

| switch | written | read as |
| --- | --- | --- |
| true or false | ``accusi=false`` | a bool (``true`` or ``false``, any case; anything else is refused) |
| a number, a word | ``target_score=21``, ``episode=match`` | an int (ASCII digits, an optional sign), else the word (no switch takes a float) |
| a word that may be ``none`` | ``signals=none`` | the switch's own word ``"none"`` where it allows one, else Python's None |
| a list | ``contracts=chiamo,solo`` | a tuple of words |
| a mapping | ``multipliers=solo:4,chiamo:2`` | a dict of words to numbers (at most nine digits each) |

One home for this reading: ``tressette play``, ``eval``, ``train`` and ``serve``'s web table
(``web.table.table_rules``, which writes a JSON value as this text first) all read switches here.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from .engine.rules import Rules
from .engine.switches import LISTED, switch_kind
from .envs.spec import game_spec
from .messages import shown


def rule_switches(items: Sequence[str], rules_type: type = Rules, option: str = "--rule ") -> dict[str, object]:
    """``name=value`` texts as keyword switches of ``rules_type`` (a game's rules record).

    ``option``: how an error names a switch as written, and its examples: ``--rule 'accusi=1'``
    (the command line's, the default), or ``'accusi=1'`` with ``option=""`` (the web table's).
    """
    names = tuple(f.name for f in dataclasses.fields(rules_type))
    booleans = {f.name for f in dataclasses.fields(rules_type) if isinstance(f.default, bool)}
    fields = {f.name: f for f in dataclasses.fields(rules_type)}
    switches: dict[str, object] = {}
    for item in items:
        name, eq, text = item.partition("=")
        if not eq:
            raise ValueError(
                f"{option}{shown(item)}: write name=value, e.g. {option}episode=match ({', '.join(names)})"
            )
        if name in fields and switch_kind(fields[name]) in LISTED and text.strip().lower() != "none":
            switches[name] = _listed_switch(item, fields[name], text, option)
            continue
        if "," in text:
            raise ValueError(
                f"{option}{shown(item)}: {name} takes one value (a comma separates a list switch's values)"
            )
        value = _value(text.strip())
        if value is None and name in fields and "none" in _choices(fields[name]):
            value = "none"  # the switch's own word (accusi, signals, cappotto), not Python's None
        if name in booleans and not isinstance(value, bool):
            raise ValueError(f"{option}{shown(item)}: {name} is true or false, e.g. {option}{name}=false")
        switches[name] = value
    return switches


def _choices(field: dataclasses.Field) -> tuple:
    """The values a ``"choice"`` switch allows (``engine.switches.KINDS``); () for any other field."""
    return field.metadata["switch"].allowed if switch_kind(field) == "choice" else ()


def _value(text: str) -> object:
    """A single switch's value: true or false (any case), none, an int in ASCII digits, else the word itself.

    >>> [_value(t) for t in ("FALSE", "none", "21", "-1", "match", "1_0", "1.5")]
    [False, None, 21, -1, 'match', '1_0', '1.5']

    (No switch takes a float; ``1_0`` or other scripts' digits are words, which the rules then refuse as numbers.)
    """
    word = text.lower()
    if word in ("true", "false"):
        return word == "true"
    if word == "none":
        return None
    return int(text) if re.fullmatch("[+-]?[0-9]{1,30}", text) else text


def _listed_switch(item: str, field: dataclasses.Field, text: str, option: str) -> object:
    """A list switch's ``a,b`` as a tuple, a mapping switch's ``a:2,b:4`` as a dict (the rules check the names)."""
    name, parts = field.name, [part.strip() for part in text.split(",")]
    if switch_kind(field) == "subset|None":
        return tuple(parts)
    keys = field.metadata["switch"].allowed[1]
    example = ",".join(f"{key}:{number}" for key, number in zip(keys[:2], (2, 4), strict=False))
    pairs = {}
    for part in parts:
        key, colon, number = part.partition(":")
        key, number = key.strip(), number.strip()
        if not colon or not re.fullmatch("[0-9]{1,9}", number):
            raise ValueError(
                f"{option}{shown(item)}: {name} is written name:number,name:number, e.g. {option}{name}={example}"
            )
        if key in pairs:
            raise ValueError(f"{option}{shown(item)}: {shown(key)} is given twice")
        pairs[key] = int(number)
    return pairs


def game_rules(game: str, items: Sequence[str], option: str = "--rule ") -> object:
    """The rules record of ``game`` with the switches ``items`` (``name=value`` texts, as ``rule_switches`` reads them).

    Raises:
        ValueError: an unknown game (``envs.spec.game_spec``'s message), a switch written other
            than ``name=value``, or a switch or value the game's rules do not allow (the rules'
            own message, which names what is allowed).
        TypeError: a value of the wrong kind, as the rules record refuses it.
    """
    spec = game_spec(game)
    rules_type = type(spec.make_rules())
    return spec.make_rules(**rule_switches(items, rules_type, option))
