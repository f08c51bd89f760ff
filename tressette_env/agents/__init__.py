"""Players to compare against: all implement ``Player.act(view, legal, rng) -> action``.

They see the ``engine`` only (a ``SeatView``), never an RL library.

| name | player |
| --- | --- |
| `random` | ``RandomPlayer``: a uniformly random legal action |
| `heuristic` | ``HeuristicPlayer``: a rule player after the seeds' advice |
"""

from .base import Player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer

__all__ = ["HeuristicPlayer", "Player", "RandomPlayer"]
