"""Players to compare against: all implement ``Player.act(view, legal, rng) -> action``.

They see the ``engine`` only (a ``SeatView``), never an RL library.

| name | player |
| --- | --- |
| `random` | ``RandomPlayer``: a uniformly random legal action |
| `heuristic` | ``HeuristicPlayer``: a rule player after the seeds' advice |
| `search` | ``SearchPlayer``: perfect-information Monte Carlo over the double-dummy ``solver`` |
"""

from .base import Player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer
from .search import SearchPlayer

__all__ = ["HeuristicPlayer", "Player", "RandomPlayer", "SearchPlayer"]
