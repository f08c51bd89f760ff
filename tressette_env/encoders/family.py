"""Each game's observation and state vector, by its rules record: ``observation_of(rules)``, ``state_of(rules)``.

The game's encoders module comes from its catalog entry (``tressette_env.catalog``).

Example:
    >>> from tressette_env.engine import Rules
    >>> observation_of(Rules()).size
    790
"""

from __future__ import annotations

from typing import Any

from ..catalog import entry_of
from .global_state import StateEncoder
from .history import choose
from .observation import Observation


def observation_of(rules: Any, history: bool = False) -> Observation:
    """The observation of a seat in the game ``rules`` belongs to; with ``history``, the history observation.

    ``history=True`` appends the whole public record of the card play to the default
    observation (``encoders.history``: each card's trick and place, each trick's leader and
    winner, each lead's signal).
    """
    return choose(entry_of(rules).observation(rules), history)


def state_of(rules: Any) -> StateEncoder:
    """``env.state()``'s vector for the game ``rules`` belongs to."""
    return entry_of(rules).state_encoder(rules)
