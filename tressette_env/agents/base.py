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

A player that chooses from the legal actions alone (the random player) may also have
``act_mask(legal, rng)``: the choice ``act`` makes, from the legal actions as an int bit mask
(bit a: action a), drawing from ``rng`` exactly as ``act`` does. The single-learner
environments then skip building the view and the list for its seats (``mask_chooser``).

A player may also have ``end(view)``: the duplicate evaluation and ``tressette play`` call
it (``hand_over``) when a hand ends, once for each agent the player plays, with that agent's
own seat's view of the finished hand (a dummy's seat gets none: its player hears from his
own). A bot (``protocol.bot.BotPlayer``) sends it on as the table protocol's ``end``
message; players that need no news of the end have no such method.

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
from collections.abc import Callable, Sequence
from typing import Protocol, runtime_checkable

from ..engine.game import view
from ..engine.state import GameState, SeatView


@runtime_checkable
class Player(Protocol):
    """Anything with ``act(view, legal, rng) -> action id``."""

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """Choose one of ``legal`` for the seat that ``view`` belongs to."""
        ...


def mask_chooser(player: object) -> Callable[[int, random.Random], int] | None:
    """``player.act_mask`` where the class that defines ``act`` defines it too (so both choose alike), else None.

    A subclass that overrides ``act`` alone, or an ``act`` set on the object, is asked through ``act``.
    """
    if "act" in getattr(player, "__dict__", {}):
        return None
    for cls in type(player).__mro__:
        has_act, has_mask = "act" in cls.__dict__, "act_mask" in cls.__dict__
        if has_act or has_mask:
            return player.act_mask if has_act and has_mask else None
    return None


def hand_over(players: Sequence[object], state: GameState) -> None:
    """Tell each player with an ``end`` method that the hand of ``state`` is over, once per agent it plays.

    ``players[agent]`` plays agent ``agent``; the view is that agent's own seat's (a dummy's
    player is told once, from its own seat).
    """
    seat_of = state.public.table.seat_of
    for agent, player in enumerate(players):
        end = getattr(player, "end", None)
        if end is not None and seat_of[agent] >= 0:
            end(view(state, seat_of[agent]))
