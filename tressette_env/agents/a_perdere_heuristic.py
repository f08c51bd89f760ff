"""A rule player for Tressette a perdere: it plays to take as few points as it can, and spoils a cappotto.

Its rules, in order (``objective="avoid"``):

On lead:
1. Spoil a cappotto: when another player has taken every point so far (and a good share of
   them), lead a master that holds a point, to take one.
2. Lead the low card most likely to be beaten: of the lowest card of each suit, the one with
   the most higher cards still out (then the fewest points).
Following suit:
3. Spoil a cappotto: take a trick with points on it when another player holds every point so far.
4. Duck: the highest card that loses to the card now winning the trick.
5. Every card wins: last to play, take with the highest card (the trick is yours anyway);
   else play the lowest (a player after may take it).
Void in the led suit:
6. Throw the most dangerous card: the most points, then the highest (an asso first).
The dealer's discards (``reduce="dealer_discard"``) are its most dangerous cards, by the same
measure. With ``objective="take"`` it plays the other way: it takes points with the cheapest
card that wins, and otherwise sheds its cheapest.

Example:
    >>> import random
    >>> from tressette_env.engine import legal_actions, new_game, view
    >>> from tressette_env.games.a_perdere import APerdereRules
    >>> state = new_game(APerdereRules(), seed=0)
    >>> seat = state.public.turn
    >>> APerdereHeuristic().act(view(state, seat), legal_actions(state), random.Random(0)) in legal_actions(state)
    True
"""

from __future__ import annotations

import random

from ..engine.actions import GIVE
from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of
from ..engine.state import SeatView
from ..engine.tricks import winning_position
from ..games.a_perdere import DISCARD

_FULL = (1 << 40) - 1


def _danger(card: int) -> tuple[int, int]:
    """How much a card may cost: its points, then its taking power."""
    return THIRDS[card], STRENGTH[card]


class APerdereHeuristic:
    """The rule player described in the module docstring (deterministic)."""

    name = "heuristic"

    def act(self, view: SeatView, legal: list[int], rng: random.Random) -> int:
        if len(legal) == 1:
            return legal[0]
        p = view.public
        if p.table.phase == DISCARD:
            return GIVE + max((a - GIVE for a in legal), key=_danger)
        cards = [a % 40 for a in legal if a < 40] or [a % 40 for a in legal]
        by_card = {a % 40: a for a in legal}
        if p.rules.objective == "take":
            return by_card[self._take(view, cards)]
        return by_card[self._avoid(view, cards)]

    def _avoid(self, view: SeatView, cards: list[int]) -> int:
        p = view.public
        others = _FULL & ~(view.hand | p.all_played)  # cards another player may hold
        spoil = self._cappotto_threat(view)
        if not p.trick:
            if spoil:  # 1. take a point back with a sure card
                masters = [c for c in cards if THIRDS[c] and not any(
                    STRENGTH[o] > STRENGTH[c] for o in cards_of(others & SUIT_MASK[c // 10]))]  # fmt: skip
                if masters:
                    return max(masters, key=_danger)
            # 2. the low card most likely to be beaten
            lows = {}
            for c in cards:
                suit = c // 10
                if suit not in lows or STRENGTH[c] < STRENGTH[lows[suit]]:
                    lows[suit] = c

            def beaten_by(c: int) -> int:
                return sum(1 for o in cards_of(others & SUIT_MASK[c // 10]) if STRENGTH[o] > STRENGTH[c])

            return max(lows.values(), key=lambda c: (beaten_by(c), -THIRDS[c], -STRENGTH[c]))
        trick = p.trick
        led = trick[0] // 10
        top = trick[winning_position(trick)]
        following = [c for c in cards if c // 10 == led]
        if not following:
            return max(cards, key=_danger)  # 6. void: throw the most dangerous card
        winners = [c for c in following if STRENGTH[c] > STRENGTH[top]]
        points = sum(THIRDS[c] for c in trick)
        if spoil and winners and points:  # 3. take a point from the would-be cappotto
            return min(winners, key=_danger)
        losers = [c for c in following if STRENGTH[c] < STRENGTH[top]]
        if losers:  # 4. duck under the winning card with the highest that loses
            return max(losers, key=lambda c: (STRENGTH[c], THIRDS[c]))
        last = len(trick) == p.table.seats - 1
        if last:  # 5. the trick is ours: take it with the highest card
            return max(following, key=lambda c: (STRENGTH[c], THIRDS[c]))
        return min(following, key=lambda c: (STRENGTH[c], THIRDS[c]))

    @staticmethod
    def _cappotto_threat(view: SeatView) -> bool:
        """Another player has taken every point so far, and most of the hand's."""
        p = view.public
        mine = p.table.sides[view.seat]
        taken = [(side, t) for side, t in enumerate(p.thirds) if t]
        return len(taken) == 1 and taken[0][0] != mine and taken[0][1] >= 18

    def _take(self, view: SeatView, cards: list[int]) -> int:
        p = view.public
        if not p.trick:
            return max(cards, key=lambda c: (STRENGTH[c], -THIRDS[c]))
        trick = p.trick
        led = trick[0] // 10
        top = trick[winning_position(trick)]
        winners = [c for c in cards if c // 10 == led and STRENGTH[c] > STRENGTH[top]]
        if winners:
            return min(winners, key=lambda c: (STRENGTH[c], -THIRDS[c]))
        return min(cards, key=_danger)
