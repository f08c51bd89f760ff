"""The family's batched trick play: the card tables and the trick-play step, in one home.

The batched counterparts of ``engine.tricks`` and ``engine.scoring`` for the family's own
batched engines (``vector.in_due``, ``vector.a_perdere``, ``vector.a_chiamare``,
``vector.calabresella``), whose cards are engine masks (bit c = card c; the four-seat
``TressetteBatch`` reverses them and keeps its own tables). A card id of -1 is "no card"; the
tables have an entry 40 for it (and ``SUIT_BITS`` an entry 4 for "no suit led").

| name | what it is |
| --- | --- |
| ``CARD_BIT``, ``SUIT_BITS``, ``STRENGTH``, ``THIRDS`` | by card id (index 40: no card -> 0, 0, -1, 0); ``SUIT_BITS`` by suit (index 4: none) |
| ``THREE_THIRDS``, ``ONE_THIRD``, ``FULL``, ``RANKS`` | the assi, the cards worth a third, the 40 cards, the cards of each strength (the 3s first) |
| ``card_bits(cards)``, ``thirds_of(masks)`` | the bit of each card id (-1: 0); the thirds of a point in each mask |
| ``follow_suit(hand, led)``, ``playable(hand, led)`` | the cards of the led suit in each hand; the cards it may play (``engine.tricks.follow_suit``) |
| ``signal_words(words, hand, lead, volo)`` | OR the leader's signals (busso, striscio, volo: truthful) into the legal actions' 256-bit words |
| ``play_cards(t, play, seat, a, card, bit, seats, signals)`` | a card into the trick: voids shown, the signal given, the lead, the turn; which tricks are complete |
| ``close_tricks(t, complete, hand_tricks)`` | the complete tricks: their winner (``engine.tricks.trick_winner``) leads, the thirds taken with the last trick's bonus |

``play_cards`` and ``close_tricks`` work on an engine ``t`` with (N, S) state, batch axis
first: ``_ar``, ``_played``, ``_voids``, ``_signals``, ``_trick`` (-1: no card yet), ``_led``
(-1: none), ``_count``, ``_turn``, ``_tricks``, ``_leader``; the hand and what the tricks
are worth to whom stay with the engine (a side, a team, the asso di bastoni). In due's
two-seat, seat-first trick (the stock, the void shown only without a card of the suit) is its
own and uses the tables and ``follow_suit`` only.

Example:
    >>> import numpy as np
    >>> hands = np.array([0b11, 0b11 << 10], dtype=np.uint64)  # the asso and 2 of suit 0; of suit 1
    >>> playable(hands, np.array([0, 0])).tolist()  # suit 0 led: the second has none of it, any card
    [3, 3072]
    >>> thirds_of(hands).tolist(), card_bits(np.array([-1, 0, 39])).tolist()
    ([4, 4], [0, 1, 549755813888])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ..engine.cards import STRENGTH as _STRENGTH_OF
from ..engine.cards import SUIT_MASK
from ..engine.cards import THIRDS as _THIRDS_OF
from ..engine.scoring import LAST_TRICK_THIRDS
from ._family import popcount

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
FULL = U64((1 << 40) - 1)
"""The 40 cards."""
CARD_BIT = np.array([1 << c for c in range(40)] + [0], dtype=U64)
"""Bit of card c; index 40 (no card) is 0."""
SUIT_BITS = np.array(list(SUIT_MASK) + [0], dtype=U64)
"""The cards of suit s; index 4 (no suit led) is 0."""
STRENGTH = np.array(list(_STRENGTH_OF) + [-1], dtype=np.int64)
"""Strength of card c in its suit (3 highest: 9 ... 4 lowest: 0); index 40 (no card) is -1."""
THIRDS = np.array(list(_THIRDS_OF) + [0], dtype=np.int64)
"""Thirds of a point of card c; index 40 (no card) is 0."""
THREE_THIRDS = U64(sum(1 << c for c in range(40) if _THIRDS_OF[c] == 3))
"""The four assi (a point each)."""
ONE_THIRD = U64(sum(1 << c for c in range(40) if _THIRDS_OF[c] == 1))
"""The 3s, 2s and figures (a third each)."""
RANKS = [U64(sum(1 << c for c in range(40) if _STRENGTH_OF[c] == s)) for s in range(9, -1, -1)]
"""The cards of each strength, the strongest (the 3s) first: ``call_rule="highest_missing"``."""


def card_bits(cards: np.ndarray) -> np.ndarray:
    """The bit of each card id (-1: no card -> 0)."""
    return CARD_BIT.take(np.where(cards < 0, 40, cards))


def thirds_of(mask: np.ndarray) -> np.ndarray:
    """The thirds of a point in each card mask."""
    return 3 * popcount(mask & THREE_THIRDS) + popcount(mask & ONE_THIRD)


def follow_suit(hand: np.ndarray, led: np.ndarray) -> np.ndarray:
    """The cards of the led suit in each hand (led -1: none led -> 0)."""
    return hand & SUIT_BITS.take(np.where(led < 0, 4, led))


def playable(hand: np.ndarray, led: np.ndarray) -> np.ndarray:
    """The cards each hand may play: the led suit if it holds any, else any card."""
    follow = follow_suit(hand, led)
    return np.where(follow != _ZERO, follow, hand)


def signal_words(words: np.ndarray, hand: np.ndarray, lead: np.ndarray, volo: bool) -> None:
    """OR into ``words`` ((N, 4) uint64, bit a: action a) the signals the leader may give where ``lead``.

    Truthful signals: busso (40 + c) and striscio (80 + c) on a card of a suit of two or more,
    volo (120 + c, with ``volo``) on the last card of its suit.
    """
    if not lead.any():
        return
    multi = np.zeros(len(hand), dtype=U64)
    single = np.zeros(len(hand), dtype=U64)
    for suit in range(4):
        c = hand & SUIT_BITS[suit]
        count = popcount(c)
        multi |= np.where(count >= 2, c, _ZERO)
        single |= np.where(count == 1, c, _ZERO)
    multi = np.where(lead, multi, _ZERO)
    put_bits(words, multi, 40)
    put_bits(words, multi, 80)
    if volo:
        put_bits(words, np.where(lead, single, _ZERO), 120)


def put_bits(words: np.ndarray, cards: np.ndarray, at: int) -> None:
    """OR the 40-bit masks ``cards`` ((N,) uint64) into the 256-bit ``words`` (N, 4) from bit ``at``."""
    q, r = divmod(at, 64)
    words[:, q] |= cards << U64(r)
    if r + 40 > 64:
        words[:, q + 1] |= cards >> U64(64 - r)


def play_cards(
    t: Any,
    play: np.ndarray,
    seat: np.ndarray,
    a: np.ndarray,
    card: np.ndarray,
    bit: np.ndarray,
    seats: Any,
    signals: bool,
) -> np.ndarray:
    """The seat on turn plays ``card`` (its ``bit``, 0 where not ``play``) into the trick of the deals ``play``.

    The engine took the card out of the hand. A card off the led suit shows a void (it was
    legal, so the seat has none of it); with ``signals`` the leader's signal (``a // 40``) is
    recorded; the next seat of ``seats`` (an int or (N,)) is on turn. Returns (N,) bool: the
    trick is complete (every seat played).
    """
    ar = t._ar
    t._played[ar, seat] |= bit
    led = t._led
    leading = play & (led < 0)
    following = play & (led >= 0)
    suit = card // 10
    fail = following & (suit != led)  # a legal card off the led suit: the seat has none of it
    t._voids[ar, seat] |= np.where(fail, _ONE << np.maximum(led, 0).astype(U64), _ZERO)
    if signals:
        signal = a // 40
        given = leading & (signal > 0)
        t._signals[ar, seat] |= np.where(given, _ONE << np.maximum(3 * suit + signal - 1, 0).astype(U64), _ZERO)
    t._trick[ar, seat] = np.where(play, card, t._trick[ar, seat])
    t._led = np.where(leading, suit, led)
    t._count += play
    complete = play & (t._count == seats)
    t._turn = np.where(play, (seat + 1) % seats, t._turn)
    return complete


def close_tricks(
    t: Any, complete: np.ndarray, hand_tricks: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tricks of the deals ``complete``: the winner leads the next, the table is cleared.

    The winner is the strongest card of the led suit. ``hand_tricks`` (an int or (N,)) is the
    number of tricks in a hand: the last one takes ``LAST_TRICK_THIRDS`` more. Returns
    (winner seat, thirds taken, last trick, the trick's cards (N, S)); the engine credits them.
    """
    trick = t._trick
    strength = np.where(trick // 10 == t._led[:, None], STRENGTH.take(np.maximum(trick, 0)), -1)
    winner = strength.argmax(axis=1)
    tricks = t._tricks + complete
    last = tricks == hand_tricks
    taken = THIRDS.take(np.where(trick < 0, 40, trick)).sum(axis=1) + LAST_TRICK_THIRDS * last
    t._tricks = tricks
    t._turn = np.where(complete, winner, t._turn)
    t._leader = np.where(complete, winner, t._leader)
    t._trick = np.where(complete[:, None], -1, trick)
    t._led = np.where(complete, -1, t._led)
    t._count = np.where(complete, 0, t._count)
    return winner, taken, last, trick
