"""Players to compare against: all implement ``Player.act(view, legal, rng) -> action``.

They see the ``engine`` only (a ``SeatView``), never an RL library.

| name | player |
| --- | --- |
| `random` | ``RandomPlayer``: a uniformly random legal action |
| `heuristic` | ``HeuristicPlayer``: a rule player after the seeds' advice |
| `search` | ``SearchPlayer``: perfect-information Monte Carlo over the double-dummy ``solver`` |

``make_player(spec)`` (``registry``) builds any of them by name, options and trained models
included: ``make_player("search:samples=20")``, ``make_player("runs/x/policy.npz")``.

``SearchPlayer`` is imported on first use (``tressette_env.agents.SearchPlayer``): its solver
compiles with numba, some 60 MB that an environment, which needs none of it, should not pay.
"""

from .base import Player
from .heuristic import HeuristicPlayer
from .random_player import RandomPlayer
from .registry import PLAYERS, make_player, parse_spec

__all__ = ["PLAYERS", "HeuristicPlayer", "Player", "RandomPlayer", "SearchPlayer", "make_player", "parse_spec"]


def __getattr__(name: str):
    if name == "SearchPlayer":  # numba and the solver only when a search player is wanted
        from .search import SearchPlayer

        return SearchPlayer
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
