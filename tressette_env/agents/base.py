"""The player protocol: one seat's view and the legal actions in, one action id out.

Every player (random, heuristic, search, a trained model) implements ``Player``:

    act(view: SeatView, legal: list[int], rng: random.Random) -> int

- ``view`` is what the seat may know (``engine.view(state, seat)``): its own hand and
  the public state. Players never see a ``GameState``.
- ``legal`` is the sorted list of legal action ids (``engine.legal_actions``).
- ``rng`` is the only source of randomness a player may use, so a seeded ``rng``
  makes play reproducible.

Players hold no state between calls (the view has perfect recall), so one object can
play several seats, several games, and be copied to worker processes.

Example:
    >>> import random
    >>> from tressette_env.engine import new_game, legal_actions, view, apply
    >>> from tressette_env.agents import RandomPlayer
    >>> state = new_game(seed=0)
    >>> player = RandomPlayer()
    >>> action = player.act(view(state, state.public.turn), legal_actions(state), random.Random(0))
    >>> action in legal_actions(state)
    True
"""

from __future__ import annotations

import random
from typing import Protocol, runtime_checkable

from ..engine.state import SeatView


@runtime_checkable
class Player(Protocol):
    """Anything with ``act(view, legal, rng) -> action id``."""

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """Choose one of ``legal`` for the seat that ``view`` belongs to."""
        ...
