"""Players by name: ``make_player("heuristic")``, ``make_player("search:samples=20,time_budget=0.1")``.

| spec | player |
| --- | --- |
| `random` | ``RandomPlayer`` |
| `heuristic` | ``HeuristicPlayer`` |
| `search[:samples=N,time_budget=S]` | ``SearchPlayer`` (PIMC over a double-dummy solver) |

Options after the colon are ``key=value`` pairs passed to the player's constructor
(ints, floats, ``true``/``false``, or strings).

Example:
    >>> make_player("random").name
    'random'
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

from .base import Player

# name -> "module:Class" (imported on first use, so a player's dependencies load only when asked for).
PLAYERS: dict[str, str] = {
    "random": "tressette_env.agents.random_player:RandomPlayer",
    "heuristic": "tressette_env.agents.heuristic:HeuristicPlayer",
    "search": "tressette_env.agents.search:SearchPlayer",
}

_LOADERS: list[tuple[Callable[[str], bool], Callable[[str], Player]]] = []


def register_loader(accepts: Callable[[str], bool], load: Callable[[str], Player]) -> None:
    """Let ``make_player`` build players from specs ``accepts`` recognises (e.g. model paths)."""
    _LOADERS.append((accepts, load))


def _value(text: str) -> object:
    for cast in (int, float):
        try:
            return cast(text)
        except ValueError:
            pass
    return {"true": True, "false": False, "none": None}.get(text.lower(), text)


def parse_spec(spec: str) -> tuple[str, dict[str, object]]:
    """Split ``"name:key=value,key=value"`` into the name and its options."""
    name, _, rest = spec.partition(":")
    options = {}
    for item in filter(None, rest.split(",")):
        key, eq, value = item.partition("=")
        if not eq or not key:
            raise ValueError(f"bad player option {item!r} in {spec!r}: options are key=value, separated by commas")
        options[key.strip()] = _value(value.strip())
    return name.strip(), options


def make_player(spec: str) -> Player:
    """The player named by ``spec`` (see the table in the module docstring)."""
    for accepts, load in _LOADERS:
        if accepts(spec):
            return load(spec)
    name, options = parse_spec(spec)
    if name not in PLAYERS:
        raise ValueError(f"unknown player {name!r}; the players are: {', '.join(PLAYERS)} (or a saved model's path)")
    module, _, cls = PLAYERS[name].partition(":")
    player_class = getattr(importlib.import_module(module), cls)
    try:
        return player_class(**options)
    except TypeError as error:
        raise ValueError(f"bad options for player {name!r}: {error}") from None
