"""The heuristic of a game that has none of its own: a few rules of trick play that hold in any game of the family.

``HeuristicPlayer`` plays the game's own heuristic (the catalog entry's ``heuristic``); a game
registered without one gets this player, which reads nothing but the public record, its
hand and ``Game.points_sign``:

| situation | play |
| --- | --- |
| no card among the legal actions (a bid, a call, an exchange) | the first legal action |
| leading | the weakest card (fewest thirds, then lowest power) |
| following, points to take (``points_sign`` +1) | the lowest card that beats the trick, when it holds points or can be won; else the weakest |
| following, points to avoid (``points_sign`` -1) | the strongest card that does not beat the trick; else the weakest |

It plays every card without a signal where that is legal.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> state = new_game(seed=3)
    >>> action = GenericHeuristic().act(view(state, state.public.turn), legal_actions(state), random.Random(0))
    >>> action in legal_actions(state)
    True
"""

from __future__ import annotations

import random

from ..engine.actions import CALL_OUT
from ..engine.cards import STRENGTH, THIRDS
from ..engine.state import SeatView


def _beats(card: int, best: int) -> bool:
    """Whether ``card`` takes a trick whose best card so far is ``best`` (no trumps: the led suit's strongest)."""
    return card // 10 == best // 10 and STRENGTH[card] > STRENGTH[best]


class GenericHeuristic:
    """The rules of the module docstring (deterministic: ``rng`` breaks no ties)."""

    name = "heuristic"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        """The action the module docstring's table gives."""
        cards = sorted({a % 40 for a in legal if a < CALL_OUT})
        if not cards:
            return legal[0]
        p = view.public
        card = self._card(cards, p.trick, p.rules.game.points_sign(p.rules))
        return card if card in legal else min(a for a in legal if a < CALL_OUT and a % 40 == card)

    @staticmethod
    def _card(cards: list[int], trick: tuple[int, ...], sign: int) -> int:
        weakest = min(cards, key=lambda c: (THIRDS[c], STRENGTH[c], c))
        if not trick:
            return weakest
        best = trick[0]
        for c in trick[1:]:
            if _beats(c, best):
                best = c
        winners = [c for c in cards if _beats(c, best)]
        if sign > 0:
            return min(winners, key=lambda c: (STRENGTH[c], c)) if winners else weakest
        losers = [c for c in cards if not _beats(c, best)]
        return max(losers, key=lambda c: (STRENGTH[c], THIRDS[c], -c)) if losers else weakest
