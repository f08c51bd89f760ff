"""Players to compare against: all implement ``Player.act(view, legal, rng) -> action``.

They see the ``engine`` only (a ``SeatView``), never an RL library.

| name | player |
| --- | --- |
| `random` | ``RandomPlayer``: a uniformly random legal action |
| `heuristic` | ``HeuristicPlayer``: a rule player after the seeds' advice |
| `search` | ``SearchPlayer``: perfect-information Monte Carlo over the double-dummy ``solver`` |

``make_player(spec)`` (``registry``) builds any of them by name, options and trained models
included: ``make_player("search:samples=20")``, ``make_player("runs/x/policy.npz")``.
"""

from .base import Player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer
from .registry import PLAYERS, make_player, parse_spec
from .search import SearchPlayer

__all__ = ["PLAYERS", "HeuristicPlayer", "Player", "RandomPlayer", "SearchPlayer", "make_player", "parse_spec"]
