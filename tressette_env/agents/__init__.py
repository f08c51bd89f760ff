"""Players to compare against: all implement ``Player.act(view, legal, rng) -> action``.

They see the ``engine`` only (a ``SeatView``), never an RL library.
"""

from .base import Player
from .random_player import RandomPlayer

__all__ = ["Player", "RandomPlayer"]
