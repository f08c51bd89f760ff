"""A rule player for Tressette in due: it counts the cards it has seen and plays the endgame exactly.

It calls out when the claim is true (``calling_out``). While cards remain to be drawn (or
hidden in the packets) it plays by these rules, in order:

On lead:
1. Lead a master card (the highest card of its suit not yet seen elsewhere) that holds a
   point while the opponent may still follow: it takes for sure.
2. Otherwise lead low: a card without points from the suit where it holds the most, never
   an unguarded asso.
Following:
3. Take a trick that holds points with the cheapest card that wins it.
4. Take a trick for the first draw when the winning card costs nothing (a 4 to 7 that wins).
5. Otherwise play the cheapest card: no points, lowest power (when void, the least useful).
With ``objective="avoid"`` the player ducks: it follows with the highest card that loses,
and leads its lowest card.

Once the stock is empty (the stock form) it knows the opponent's ten cards and plays the
perfect-information endgame exactly (``open_solver``): the card whose value for its side is
best, the cheapest of equal values. Choosing packets (the packet form) it turns face up the
two packets whose bottom cards are worth least, keeping the strong ones in hand; picking
packets blind it takes the lowest-numbered ones.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> from tressette_env.games.in_due import InDueRules
    >>> state = new_game(InDueRules(), seed=0)
    >>> seat = state.public.turn
    >>> InDueHeuristic().act(view(state, seat), legal_actions(state), random.Random(0)) in legal_actions(state)
    True
"""

from __future__ import annotations

import random

from ..engine.actions import CALL, CALL_OUT
from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of
from ..engine.scoring import team_points
from ..engine.state import SeatView
from ..games.in_due import PLAY_PACKETS, PLAY_STOCK, SELECT_PACKETS, TURN_PACKETS
from .open_solver import best_open_move

_FULL = (1 << 40) - 1
_HONOURS = tuple(0b111 << (10 * s) for s in range(4))


def _cheapest(cards: list[int]) -> int:
    return min(cards, key=lambda c: (THIRDS[c], STRENGTH[c]))


class InDueHeuristic:
    """The rule player described in the module docstring (deterministic)."""

    name = "heuristic"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        p = view.public
        phase = p.table.phase
        if phase == SELECT_PACKETS:
            return legal[0]
        if phase == TURN_PACKETS:
            # Turn up the packet whose bottom card (CALL + card) is worth least.
            return min(legal, key=lambda a: (THIRDS[a - CALL], STRENGTH[a - CALL]))
        me = view.seat
        if (
            CALL_OUT in legal
            and p.match_score[me] + team_points(p.thirds[me], p.accusi.points[me]) >= p.rules.target_score
        ):
            return CALL_OUT  # the claim is true
        cards = [a for a in legal if a < CALL_OUT]
        avoid = p.rules.objective == "avoid"
        if phase not in (PLAY_STOCK, PLAY_PACKETS):
            return self.endgame(view, cards, avoid)
        if avoid:
            return self._duck(view, cards)
        hand = view.hand
        # Cards the opponent may hold: not mine, not played, not seen elsewhere (its face-up cards it holds).
        others = _FULL & ~(hand | p.all_played)
        if not p.trick:
            masters = [c for c in cards if THIRDS[c] and self._master(c, others) and others & SUIT_MASK[c // 10]]
            if masters:  # 1. a sure trick with a point in it
                return max(masters, key=lambda c: (THIRDS[c], STRENGTH[c]))
            return self._low_lead(hand, cards)  # 2.
        led = p.trick[0]
        winners = [c for c in cards if c // 10 == led // 10 and STRENGTH[c] > STRENGTH[led]]
        if winners:
            cheapest = min(winners, key=lambda c: (THIRDS[c], STRENGTH[c]))
            if THIRDS[led]:  # 3. points on the table
                return cheapest
            if not THIRDS[cheapest] and phase == PLAY_STOCK:  # 4. the first draw for nothing
                return cheapest
        return _cheapest(cards)  # 5.

    @staticmethod
    def _master(card: int, others: int) -> bool:
        """No card the opponent may hold beats ``card``."""
        return not any(STRENGTH[o] > STRENGTH[card] for o in cards_of(others & SUIT_MASK[card // 10]))

    @staticmethod
    def _low_lead(hand: int, cards: list[int]) -> int:
        """A card without points from the longest suit; else the cheapest that is not a lone asso."""
        lisci = [c for c in cards if not THIRDS[c]]
        if lisci:
            return max(lisci, key=lambda c: ((hand & SUIT_MASK[c // 10]).bit_count(), -STRENGTH[c]))
        safe = [c for c in cards if c % 10 != 0 or hand & _HONOURS[c // 10] & ~(1 << c)] or cards
        return _cheapest(safe)

    @staticmethod
    def _duck(view: SeatView, cards: list[int]) -> int:
        """``objective="avoid"``: lose the trick with the highest card that loses it; lead the lowest card."""
        trick = view.public.trick
        if not trick:
            return min(cards, key=lambda c: (STRENGTH[c], THIRDS[c]))
        led = trick[0]
        losers = [c for c in cards if c // 10 != led // 10 or STRENGTH[c] < STRENGTH[led]]
        if losers:
            return max(losers, key=lambda c: (THIRDS[c], STRENGTH[c]))
        return min(cards, key=lambda c: (STRENGTH[c], THIRDS[c]))

    @staticmethod
    def endgame(view: SeatView, cards: list[int], avoid: bool | None = None) -> int:
        """The stock is empty: every card is known; play the best of ``cards`` by the exact solution.

        ``avoid``: the side plays to take the fewest points (None: ``objective="avoid"``). The
        search player's endgame too (``Game.search_mode="endgame"``).
        """
        p = view.public
        if avoid is None:
            avoid = p.rules.objective == "avoid"
        me = view.seat
        hands = [0, 0]
        hands[me] = view.hand
        hands[1 - me] = _FULL & ~(view.hand | p.all_played)
        cheapest = lambda c: (THIRDS[c], STRENGTH[c])  # noqa: E731  (equal values: the cheapest card)
        return best_open_move(hands, p.leader, p.trick, sides=(0, 1), prefer=cheapest, least=avoid)
