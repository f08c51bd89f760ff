"""Rule switches as data: each game's switches are declared once, with what is allowed and what they mean.

A game's rules record is a frozen dataclass whose fields carry a ``Switch`` in their
metadata (``switch(default, allowed, meaning)``); ``check_switches`` validates a record
(raising ``ValueError`` with the bad value and what is allowed), ``switch_table`` writes
the table the docs show, ``make_switches`` builds a record from keywords and names an
unknown switch (``TypeError``). The four-seat game's ``Rules`` keeps its own, older checks
with the same messages.

Example:
    >>> from dataclasses import dataclass
    >>> @dataclass(frozen=True)
    ... class R:
    ...     episode: str = switch("hand", ("hand", "match"), "one deal, or a match")
    ...     def __post_init__(self):
    ...         check_switches(self)
    >>> R(episode="game")
    Traceback (most recent call last):
    ...
    ValueError: rule switch episode='game': must be one of 'hand', 'match'
"""

from __future__ import annotations

import dataclasses
from typing import Any, NamedTuple


class Switch(NamedTuple):
    """What a switch allows.

    A tuple of values, ``bool``, ``("int", least)``, ``("int|None", least)``, ``("subset|None",
    values)`` (some of ``values``, in their order, as a tuple) or ``("mapping|None", keys)``
    (whole numbers >= 1 for some of ``keys``, kept as a tuple of pairs).
    """

    allowed: Any
    meaning: str


def switch(default: Any, allowed: Any, meaning: str) -> Any:
    """A dataclass field that is a rule switch."""
    return dataclasses.field(default=default, metadata={"switch": Switch(allowed, meaning)})


def _allowed_text(allowed: Any) -> str:
    if allowed is bool:
        return "bool"
    if isinstance(allowed, tuple) and allowed and allowed[0] == "subset|None":
        return "None or some of " + ", ".join(f"`{v!r}`".replace("'", '"') for v in allowed[1]) + ", in that order"
    if isinstance(allowed, tuple) and allowed and allowed[0] == "mapping|None":
        keys = ", ".join(f"`{v!r}`".replace("'", '"') for v in allowed[1])
        return f"None or a dict from {keys} to ints >= 1"
    if isinstance(allowed, tuple) and allowed and allowed[0] in ("int", "int|None"):
        text = f"int >= {allowed[1]}"
        return text + " or None" if allowed[0] == "int|None" else text
    return ", ".join(f"`{v!r}`".replace("'", '"') for v in allowed)


def check_switches(rules: Any) -> None:
    """Validate every switch of a rules record; NumPy ints become plain ints.

    Raises:
        ValueError: a switch has a value it does not allow (the message names what is allowed).
    """
    for f in dataclasses.fields(rules):
        spec = f.metadata.get("switch")
        if spec is None:
            continue
        value = getattr(rules, f.name)
        allowed = spec.allowed
        if allowed is bool:
            if not isinstance(value, bool):
                raise ValueError(f"rule switch {f.name}={value!r}: must be True or False")
        elif isinstance(allowed, tuple) and allowed and allowed[0] == "subset|None":
            if value is not None:
                object.__setattr__(rules, f.name, _subset(f.name, value, allowed[1]))
        elif isinstance(allowed, tuple) and allowed and allowed[0] == "mapping|None":
            if value is not None:
                object.__setattr__(rules, f.name, _mapping(f.name, value, allowed[1]))
        elif isinstance(allowed, tuple) and allowed and allowed[0] in ("int", "int|None"):
            if value is None and allowed[0] == "int|None":
                continue
            if isinstance(value, bool) or not hasattr(value, "__index__") or value.__index__() < allowed[1]:
                raise ValueError(f"rule switch {f.name}={value!r}: must be an {_allowed_text(allowed)}")
            object.__setattr__(rules, f.name, value.__index__())
        else:
            try:
                ok = value in allowed and type(value) in {type(v) for v in allowed}
            except TypeError:
                ok = False
            if not ok:
                raise ValueError(f"rule switch {f.name}={value!r}: must be one of {', '.join(map(repr, allowed))}")


def _subset(name: str, value: Any, values: tuple) -> tuple:
    """``value`` as a tuple of distinct members of ``values`` in their order, or a ``ValueError``."""
    what = f"some of {', '.join(map(repr, values))}, in that order"
    if isinstance(value, str) or not hasattr(value, "__iter__"):
        raise ValueError(f"rule switch {name}={value!r}: must be a tuple of {what}")
    items = tuple(value)
    if not items or any(v not in values for v in items) or len(set(items)) < len(items):
        raise ValueError(f"rule switch {name}={value!r}: must be a tuple of {what}")
    if list(items) != sorted(items, key=values.index):
        raise ValueError(f"rule switch {name}={value!r}: must list {what}")
    return items


def _mapping(name: str, value: Any, keys: tuple) -> tuple:
    """``value`` (a dict or pairs) as a tuple of (key, int >= 1) pairs in ``keys``' order, or a ``ValueError``."""
    what = f"a dict from {', '.join(map(repr, keys))} to ints >= 1"
    try:
        pairs = dict(value)
    except (TypeError, ValueError):
        raise ValueError(f"rule switch {name}={value!r}: must be {what}") from None
    for key, number in pairs.items():
        if key not in keys or isinstance(number, bool) or not hasattr(number, "__index__") or number < 1:
            raise ValueError(f"rule switch {name}={value!r}: must be {what}; {key!r}: {number!r} is not")
    return tuple((key, int(pairs[key])) for key in keys if key in pairs)


def switch_names(rules_type: type) -> tuple[str, ...]:
    """The switches of a rules record, in order."""
    return tuple(f.name for f in dataclasses.fields(rules_type) if "switch" in f.metadata)


def switch_table(rules_type: type) -> str:
    """The Markdown table of a rules record's switches: switch, default, allowed, meaning."""
    rows = ["| switch | default | allowed | meaning |", "| --- | --- | --- | --- |"]
    for f in dataclasses.fields(rules_type):
        spec = f.metadata.get("switch")
        if spec is None:
            continue
        default = f'"{f.default}"' if isinstance(f.default, str) else f.default
        rows.append(f"| `{f.name}` | `{default}` | {_allowed_text(spec.allowed)} | {spec.meaning} |")
    return "\n".join(rows)


def make_switches(rules_type: type, **switches: Any) -> Any:
    """Build a rules record from keyword switches, naming any unknown switch in the error."""
    names = switch_names(rules_type)
    for name in switches:
        if name not in names:
            raise TypeError(f"unknown rule switch {name!r}; the switches are: {', '.join(names)}")
    return rules_type(**switches)
