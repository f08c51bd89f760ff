"""The trick: who takes it, what it is worth, and which cards may be played to it.

One home for each of these rules, used by every game of the family, by the players and by
the solver:

| function | rule |
| --- | --- |
| ``winning_position(cards)`` | the highest card of the led suit takes the trick (no trumps; an off-suit card never takes) |
| ``trick_winner(leader, cards, seats)`` | the seat that played that card |
| ``trick_thirds(cards)`` | the thirds of a point the trick holds (see ``cards.THIRDS``) |
| ``follow_suit(hand, led)`` | a seat that holds a card of the led suit must play one; otherwise any card |

Example:
    >>> from tressette_env.engine.cards import parse_card, parse_cards
    >>> trick = [parse_card(c) for c in ("4c", "3c", "Ad")]
    >>> winning_position(trick), trick_winner(2, trick, 3), trick_thirds(trick)
    (1, 0, 4)
    >>> follow_suit(parse_cards("Ac 5c 3d"), 1) == parse_cards("Ac 5c")
    True
"""

from __future__ import annotations

from collections.abc import Sequence

from .cards import STRENGTH, SUIT_MASK, THIRDS, Card, CardMask


def winning_position(cards: Sequence[Card]) -> int:
    """The position (0 = the lead) of the card that takes a trick: the highest of the led suit."""
    led = cards[0] // 10
    best = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if card // 10 == led and STRENGTH[card] > STRENGTH[cards[best]]:
            best = i
    return best


def trick_winner(leader: int, cards: Sequence[Card], seats: int = 4) -> int:
    """The seat that takes a trick whose cards (in play order) were led by ``leader``.

    The i-th card was played by seat ``(leader + i) % seats``.
    """
    return (leader + winning_position(cards)) % seats


def trick_thirds(cards: Sequence[Card]) -> int:
    """The thirds of a point in a trick's cards (the last trick's bonus not included)."""
    return sum(THIRDS[c] for c in cards)


def follow_suit(hand: CardMask, led: int | None) -> CardMask:
    """The cards of ``hand`` that may be played when ``led`` (a suit, or None on the lead) was led."""
    if led is None:
        return hand
    return hand & SUIT_MASK[led] or hand
