"""Card play for one side against another when the sides are not fixed pairs: Calabresella, Tressette a chiamare.

``side_card(view, cards, friends, foes)`` chooses a card to take points for the seat's side,
knowing which seats are its friends and which its foes (the others are unknown: a chiamare's
secret partner); ``call_card(hand, cards)`` chooses the card a soloist or a caller calls. The
rules of ``side_card``, in order:

On lead:
1. Cash a master: the card no unseen card of its suit beats, the one holding the most points
   (then the strongest).
2. Otherwise lead the lowest card of the longest suit (then the one with the fewest points).

Following suit:
3. A friend wins the trick and nobody who may be a foe plays after (or the winning card is a
   master): load it with the most points that are not a master.
4. A card of ours wins the trick: with nobody who may be a foe after, the cheapest such
   card; otherwise a master that wins, or, when the trick holds a point, the strongest card.
5. Otherwise play the lowest card (no points given away).

Void in the led suit:
6. A friend wins safely (as in 3): throw the most points; otherwise throw the cheapest card,
   from the longest suit.

Example:
    >>> from tressette_env.engine import new_game, view
    >>> from tressette_env.engine.cards import cards_of
    >>> from tressette_env.games.calabresella import CalabresellaRules
    >>> state = new_game(CalabresellaRules(), seed=0)
    >>> me = view(state, 0)
    >>> side_card(me, cards_of(me.hand), frozenset({0}), frozenset({1, 2})) in cards_of(me.hand)
    True
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS, cards_of
from ..engine.state import SeatView
from ..engine.tricks import winning_position


def is_master(card: int, unseen: int) -> bool:
    """No card of ``card``'s suit that another seat may hold beats it."""
    return not any(STRENGTH[o] > STRENGTH[card] for o in cards_of(unseen & SUIT_MASK[card // 10]))


def suit_length(cards: Sequence[int], suit: int) -> int:
    """How many of ``cards`` are of ``suit``."""
    return sum(1 for c in cards if c // 10 == suit)


def side_card(view: SeatView, cards: Sequence[int], friends: frozenset[int], foes: frozenset[int]) -> int:
    """The card to play of ``cards`` (the legal ones) for the seat's side (the module docstring's rules)."""
    p = view.public
    unseen = view.unseen
    trick = p.trick
    if not trick:
        masters = [c for c in cards if is_master(c, unseen)]
        if masters:  # 1. cash a master
            return max(masters, key=lambda c: (THIRDS[c], STRENGTH[c]))
        # 2. the lowest card of the longest suit
        return min(cards, key=lambda c: (-suit_length(cards, c // 10), STRENGTH[c], THIRDS[c]))
    n = p.table.seats
    led = trick[0] // 10
    position = winning_position(trick)
    top = trick[position]
    winner = (p.leader + position) % n
    after = [(p.turn + k) % n for k in range(1, n - len(trick))]
    danger_after = any(s not in friends for s in after)
    safe = winner in friends and (not danger_after or is_master(top, unseen & ~view.hand))
    following = [c for c in cards if c // 10 == led]
    if following:
        if safe:  # 3. load the friend's trick
            plain = [c for c in following if not is_master(c, unseen)] or following
            return max(plain, key=lambda c: (THIRDS[c], -STRENGTH[c]))
        beaters = [c for c in following if STRENGTH[c] > STRENGTH[top]]
        if beaters and winner not in friends:  # 4. take it
            if not danger_after:
                return min(beaters, key=lambda c: (STRENGTH[c], -THIRDS[c]))
            masters = [c for c in beaters if is_master(c, unseen)]
            if masters:
                return min(masters, key=STRENGTH.__getitem__)
            if sum(THIRDS[c] for c in trick) >= 3:
                return max(beaters, key=STRENGTH.__getitem__)
        # 5. the lowest card
        return min(following, key=lambda c: (THIRDS[c], STRENGTH[c]))
    if safe:  # 6. throw points to the friend
        plain = [c for c in cards if not is_master(c, unseen)] or list(cards)
        return max(plain, key=lambda c: (THIRDS[c], -STRENGTH[c]))
    return min(cards, key=lambda c: (THIRDS[c], STRENGTH[c], -suit_length(cards, c // 10)))


def hand_strength(hand: int) -> float:
    """A bidder's count of his hand, in points he may expect to take.

    His cards' points, his sure tricks (each 3, a 2 with its 3 or with two more cards, an asso with the 3 and
    the 2), and half a trick for each card past four in a suit (a long suit takes the late tricks).
    """
    points = sum(THIRDS[c] for c in cards_of(hand)) / 3
    sure = 0.0
    for suit in range(4):
        held = hand & SUIT_MASK[suit]
        length = held.bit_count()
        three, two, ace = (held >> (10 * suit + r) & 1 for r in (2, 1, 0))
        sure += three + (two and (three or length >= 3)) + (ace and three and two)
        sure += max(0, length - 4) * 0.5  # long suits take the late tricks
    return points + sure


def call_card(hand: int, callable_cards: list[int]) -> int:
    """Of the cards it may call, one of the highest rank it lacks, in its longest suit (then its richest)."""
    best = max(STRENGTH[c] for c in callable_cards)
    top = [c for c in callable_cards if STRENGTH[c] == best]
    mine = cards_of(hand)

    def suit_value(card: int) -> tuple[int, int]:
        suit = card // 10
        return suit_length(mine, suit), sum(THIRDS[c] for c in cards_of(hand & SUIT_MASK[suit]))

    return max(top, key=suit_value)
