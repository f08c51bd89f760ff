"""Each game's observation and state vector, by its rules record: ``observation_of(rules)``, ``state_of(rules)``.

Example:
    >>> from tressette_env.engine import Rules
    >>> observation_of(Rules()).size
    790
"""

from __future__ import annotations

import importlib
from typing import Any

from .global_state import CLASSIC_STATE, StateEncoder
from .history import choose
from .observation import CLASSIC, Observation

_MODULES = {
    "tressette_in_due": "tressette_env.encoders.in_due",
    "tressette_col_morto": "tressette_env.encoders.col_morto",
    "tressette_a_perdere": "tressette_env.encoders.a_perdere",
    "calabresella": "tressette_env.encoders.calabresella",
    "tressette_a_chiamare": "tressette_env.encoders.a_chiamare",
}


def _module(rules: Any):
    name = rules.game.name
    if name not in _MODULES:
        raise ValueError(f"no observation for the game {name!r}")
    return importlib.import_module(_MODULES[name])


def observation_of(rules: Any, history: bool = False) -> Observation:
    """The observation of a seat in the game ``rules`` belongs to; with ``history``, the history observation.

    ``history=True`` appends the whole public record of the card play to the default
    observation (``encoders.history``: each card's trick and place, each trick's leader and
    winner, each lead's signal).
    """
    return choose(CLASSIC if rules.game.name == "tressette" else _module(rules).observation(rules), history)


def state_of(rules: Any) -> StateEncoder:
    """``env.state()``'s vector for the game ``rules`` belongs to."""
    if rules.game.name == "tressette":
        return CLASSIC_STATE
    return _module(rules).state_encoder(rules)
