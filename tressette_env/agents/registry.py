"""Players by name: ``make_player("heuristic")``, ``make_player("search:samples=20,time_budget=0.1")``.

| spec | player |
| --- | --- |
| `random` | ``RandomPlayer`` |
| `heuristic` | ``HeuristicPlayer`` |
| `search[:samples=N,time_budget=S]` | ``SearchPlayer`` (PIMC over a double-dummy solver) |
| `search_v1` | ``search_v1()``: the search player's settings before the compiled solver (a yardstick) |
| `ppo[:deterministic=false]` | the MaskablePPO model shipped with the package (``tressette_env/models``) |
| `human[:confirm=false,hint=search]` | ``HumanPlayer``: a person typing in the terminal (``tressette play`` seats one) |
| `llm[:url=URL,model=NAME,language=it]` | ``protocol.llm.ChatPlayer``: a language model behind an OpenAI-compatible chat endpoint |
| `ismcts[:simulations=100,uct_c=2.0,rollouts=1,max_world_samples=-1]` | ``integrations.openspiel_players.ISMCTSPlayer``: OpenSpiel's Python ISMCTS, resampling the seat's view (the ``openspiel`` extra) |
| `mcts[:simulations=100,uct_c=2.0,rollouts=1]` | ``integrations.openspiel_players.MCTSPlayer``: OpenSpiel's Python MCTS on one deal drawn from the seat's view (the ``openspiel`` extra) |
| a path ending in `.npz` or `.zip` | a trained model: a NumPy policy, or an SB3 MaskablePPO model (needs torch); read without unpickling, so a file cannot run code |

Options after the colon are ``key=value`` pairs passed to the player's constructor
(ints, floats, ``true``/``false``, or strings).

Example:
    >>> make_player("random").name
    'random'
"""

from __future__ import annotations

import importlib
import inspect
import itertools
import re
from typing import Any

from ..messages import shown
from .base import Player

# name -> "module:Class" (imported on first use, so a player's dependencies load only when asked for).
PLAYERS: dict[str, str] = {
    "random": "tressette_env.agents.random_player:RandomPlayer",
    "heuristic": "tressette_env.agents.heuristic:HeuristicPlayer",
    "search": "tressette_env.agents.search:SearchPlayer",
    "search_v1": "tressette_env.agents.search:search_v1",
    "ppo": "tressette_env.learned.loading:shipped_player",
    "human": "tressette_env.agents.human:HumanPlayer",
    "llm": "tressette_env.protocol.llm:ChatPlayer",
    "ismcts": "tressette_env.integrations.openspiel_players:ISMCTSPlayer",
    "mcts": "tressette_env.integrations.openspiel_players:MCTSPlayer",
}
MODEL_SUFFIXES = (".npz", ".zip")


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
    """The player named by ``spec`` (see the table in the module docstring).

    Raises:
        ValueError: an unknown name, bad options, or a model file that cannot be read
            (``tressette_env.learned.ModelFileError``, which names the file and the problem).
        ImportError: a player whose dependencies are not installed.
    """
    if spec.endswith(MODEL_SUFFIXES):
        from ..learned.loading import load_player  # NumPy (and SB3 for .zip) only when a model is asked for

        return load_player(spec)
    name, options = parse_spec(spec)
    if name not in PLAYERS:
        raise ValueError(
            f"unknown player {name!r}; the players are: {', '.join(PLAYERS)}, or a model's path ending in .npz or .zip"
        )
    module, _, cls = PLAYERS[name].partition(":")
    player_class = getattr(importlib.import_module(module), cls)
    unknown = sorted(set(options) - set(_options_of(player_class)))
    if unknown and not _takes_any_keyword(player_class):
        known = _options_of(player_class)
        allowed = f"its options are {', '.join(known)}" if known else "it takes no options"
        raise ValueError(f"bad options for player {name!r}: no option {unknown[0]!r}; {allowed}")
    try:
        return player_class(**options)
    except TypeError as error:
        raise ValueError(f"bad options for player {name!r}: {error}") from None


def _parameters(player_class: Any) -> list[inspect.Parameter]:
    try:
        return list(inspect.signature(player_class).parameters.values())
    except (TypeError, ValueError):  # no signature to read: the call says what is wrong
        return [inspect.Parameter("options", inspect.Parameter.VAR_KEYWORD)]


def _options_of(player_class: Any) -> list[str]:
    """The keyword options a spec may give ``player_class`` (``samples``, ``time_budget``...), in its order.

    A class's ``spec_options`` (a tuple of names), where it has one, keeps out the options only
    Python can pass (the human player's ``read`` and ``write`` functions).
    """
    kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    names = [p.name for p in _parameters(player_class) if p.kind in kinds]
    only = getattr(player_class, "spec_options", None)
    return names if only is None else [name for name in names if name in only]


def _takes_any_keyword(player_class: Any) -> bool:
    return any(p.kind is inspect.Parameter.VAR_KEYWORD for p in _parameters(player_class))


def as_player(spec: Any, name: str = "others") -> Player:
    """A ``Player`` from a player or a player spec (``"heuristic"``, a model's path...).

    Raises:
        TypeError: ``spec`` is neither a name nor an object with the players' ``act``.
    """
    if isinstance(spec, str):
        return make_player(spec)
    if not callable(getattr(spec, "act", None)):
        raise TypeError(
            f"{name}: a player is a name ('heuristic', 'random', a model's path...) or an object with "
            f"act(view, legal, rng); got {shown(spec)}"
        )
    return spec


def players_of(others: Any, count: int, name: str = "others") -> tuple[Player, ...]:
    """``count`` players from one player (or name) for all, or a sequence of ``count`` (``as_player``)."""
    if isinstance(others, str) or callable(getattr(others, "act", None)):
        others = (others,) * count
    elif hasattr(others, "__iter__") and not isinstance(others, (bytes, dict)):
        others = tuple(itertools.islice(others, count + 1))  # (an endless iterator: one too many is enough)
    if isinstance(others, tuple):
        if len(others) != count:
            raise ValueError(f"{name} is one player or {count} (one per other agent); got {len(others)}")
        return tuple(as_player(p, name) for p in others)
    as_player(others, name)  # (raises: neither a player nor a sequence of them)
    raise AssertionError("unreachable")


def shown_spec(spec: str) -> str:
    """A player spec as a name for tables, files and records: a ``key=...`` option shown as ``key=***``."""
    return re.sub(r"(?<=[:,])key=[^,]*", "key=***", spec)
