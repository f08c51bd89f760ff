"""The four-seat game's observation and state vector: one layout for every rule set (``CLASSIC``, ``CLASSIC_STATE``).

Example:
    >>> from tressette_env.engine import Rules
    >>> observation(Rules()).size, state_encoder(Rules()).size
    (790, 1040)
"""

from __future__ import annotations

from typing import Any

from .global_state import CLASSIC_STATE, StateEncoder
from .observation import CLASSIC, Observation


def observation(rules: Any) -> Observation:
    """The observation of a seat of the four-seat game (the same layout under every switch)."""
    return CLASSIC


def state_encoder(rules: Any) -> StateEncoder:
    """``env.state()``'s vector of the four-seat game."""
    return CLASSIC_STATE
