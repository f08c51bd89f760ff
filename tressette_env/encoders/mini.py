"""Tressette mini's observation and state vector: the family's pieces for its seats and tricks, no signals, no declarations.

Seats are relative (0 = you); with four players the sides are the four-seat game's (you and
the seat opposite). The layout depends on the players and the hand size (``suits * ranks /
players`` tricks), so a policy fits one deck.
"""

from __future__ import annotations

from functools import cache

from ..games.mini import MiniRules
from .global_state import StateEncoder
from .observation import Observation


@cache
def _observation(players: int, tricks: int) -> Observation:
    return Observation(players, 2, tricks, 2, signals=False, accusi=False)


@cache
def _state(players: int, tricks: int) -> StateEncoder:
    return StateEncoder(players, 2, tricks, 2, signals=False, accusi=False)


def observation(rules: MiniRules) -> Observation:
    """The observation of a seat under ``rules``."""
    return _observation(rules.players, rules.hand_size)


def state_encoder(rules: MiniRules) -> StateEncoder:
    """``env.state()``'s vector under ``rules``."""
    return _state(rules.players, rules.hand_size)
