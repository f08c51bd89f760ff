"""The batched trick play of every game of the family: the card tables and the trick-play step, in one home.

The batched counterparts of ``engine.tricks`` and ``engine.scoring``, for every batched engine:
the four-seat ``TressetteBatch`` (``vector.engine``, and col morto's batch on it) and the
family's own (``vector.in_due``, ``vector.a_perdere``, ``vector.a_chiamare``,
``vector.calabresella``). The trick winner, the follow-suit mask, the thirds with the last
trick's bonus and the signals' truth are here once, on card masks in either bit order
(``CardOrder``): ``ENGINE``, the engine's masks (bit c = card c), which the family's batches
use, and ``REVERSED`` (bit 39 - c), the four-seat batch's (``vector._tables``). A card id of
-1 is "no card"; the tables have an entry 40 for it (and the suit tables an entry 4, which a
led suit of -1 also reads, for "no suit led").

| name | what it is |
| --- | --- |
| ``CARD_BIT``, ``STRENGTH``, ``THIRDS``, ``SUIT_BITS`` | the first three by card id (index 40: no card -> 0, -1, 0); ``SUIT_BITS`` by suit (index 4: none) |
| ``LED_STRENGTH``, ``PLAY_CARD`` | a card's strength in the led suit by (led suit, card), -1 off it; the card of a card play by action id |
| ``THREE_THIRDS``, ``ONE_THIRD``, ``FULL``, ``RANKS`` | the assi, the cards worth a third, the 40 cards, the cards of each strength (the 3s first) |
| ``CardOrder``, ``ENGINE``, ``REVERSED`` | the tables of one bit order: card bits, suits, each suit's strongest card, thirds, honours |
| ``card_bits(cards)``, ``thirds_of(masks)`` | the bit of each card id (-1: 0); the thirds of a point in each mask |
| ``cards_thirds(cards, order)`` | the thirds of a point in each mask of either order |
| ``trick_thirds(cards, last, order)`` | a trick's thirds: its cards', and ``LAST_TRICK_THIRDS`` more for the hand's last trick |
| ``winning_card(cards, led, order)`` | the bit of the card that takes each trick: the strongest of the led suit (``engine.tricks.trick_winner``) |
| ``playable_of(hand, led_cards)`` | the cards each hand may play, given the led suit's cards (``engine.tricks.follow_suit``) |
| ``follow_suit(hand, led)``, ``playable(hand, led)`` | the same by led suit id, engine order: the cards of the led suit in each hand; the cards it may play |
| ``signal_cards(hand, order, no_honours=False)`` | the signals' truth: the cards a leader may busso, striscio, volo on |
| ``signal_words(words, hand, lead, volo)`` | OR the leader's signals (busso, striscio, volo: truthful) into the legal actions' 256-bit words |
| ``flat_view(x)`` | a C-contiguous (N, S) state array as one flat view, to write (deal, seat) places by flat index (a ValueError otherwise) |
| ``play_cards(t, play, seat, a, card, bit, seats, signals)`` | a card into the trick: voids shown, the signal given, the lead, the turn; which tricks are complete |
| ``close_tricks(t, complete, hand_tricks)`` | the complete tricks: their winner leads, the thirds taken with the last trick's bonus |

``play_cards`` and ``close_tricks`` work on an engine ``t`` with (N, S) state, batch axis
first (the family's batches, S seats, any sides): ``_ar``, ``_played``, ``_voids``,
``_signals``, ``_trick`` (-1: no card yet), ``_led`` (-1: none), ``_count``, ``_turn``,
``_tricks``, ``_leader``; the hand and what the tricks are worth to whom stay with the engine
(a side, a team, the asso di bastoni). The four-seat batch keeps its own layout (seats in
slots that turn with the play, (4, N) arrays, reversed masks) and calls the functions on
masks: ``playable_of``, ``signal_cards``, ``winning_card``, ``trick_thirds``. In due's
two-seat, seat-first trick (the stock, the void shown only without a card of the suit) uses
the tables, ``follow_suit``, ``winning_card`` and ``trick_thirds``.

Example:
    >>> import numpy as np
    >>> hands = np.array([0b11, 0b11 << 10], dtype=np.uint64)  # the asso and 2 of suit 0; of suit 1
    >>> playable(hands, np.array([0, 0])).tolist()  # suit 0 led: the second has none of it, any card
    [3, 3072]
    >>> thirds_of(hands).tolist(), card_bits(np.array([-1, 0, 39])).tolist()
    ([4, 4], [0, 1, 549755813888])
    >>> winning_card(hands, np.array([0, 1]), ENGINE).tolist()  # the 2 beats the asso
    [2, 2048]
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..engine.cards import STRENGTH as _STRENGTH_OF
from ..engine.cards import THIRDS as _THIRDS_OF
from ..engine.scoring import LAST_TRICK_THIRDS

U64 = np.uint64
_ZERO = U64(0)
_ONE = U64(1)
FULL = U64((1 << 40) - 1)
"""The 40 cards."""


class CardOrder(NamedTuple):
    """The tables of one bit order of the 40-card masks (``ENGINE``: bit c; ``REVERSED``: bit 39 - c).

    Indexed by card id (``card_bit``: 40 entries and 0 for "no card") or by suit (4 entries and
    0 for "no suit led", which a led suit of 4 or -1 reads).
    """

    card_bit: np.ndarray
    """(41,) uint64: the bit of card c; index 40 (no card) is 0."""
    suit_bits: np.ndarray
    """(5,) uint64: the cards of suit s; index 4 (none) is 0."""
    suit_shift: np.ndarray
    """(5,) uint64: ``(mask >> suit_shift[s]) & 0x3FF`` is suit s as a 10-bit field; index 4: 0."""
    top_rank: np.ndarray
    """(1024,) int64: the strongest rank index (value - 1) in a 10-bit suit field; 0 for an empty one."""
    win_bit: np.ndarray
    """(50,) uint64: the bit of card ``10 * suit + rank``; the entries of suit 4 (none) are 0."""
    three_thirds: np.uint64
    """The four assi (a point each)."""
    one_third: np.uint64
    """The 3s, 2s and figures (a third each)."""
    honours: np.uint64
    """Every asso, 2 and 3."""
    suits_of_code: np.ndarray
    """(16,) uint64: the cards of the suits whose bits are set in a 4-bit code (bit s: suit s)."""


def _card_order(bit_of: Any) -> CardOrder:
    """The tables of the bit order that puts card c at bit ``bit_of(c)`` (a suit's ten cards in ten bits in a row)."""
    card_bit = np.array([1 << bit_of(c) for c in range(40)] + [0], dtype=U64)
    low = [min(bit_of(10 * s), bit_of(10 * s + 9)) for s in range(4)]
    suit_bits = np.array([0x3FF << low[s] for s in range(4)] + [0], dtype=U64)
    order = sorted(range(10), key=lambda r: -_STRENGTH_OF[r])  # rank indices by taking power, highest first
    top_rank = np.zeros(1024, dtype=np.int64)
    for field in range(1, 1024):
        top_rank[field] = next(r for r in order if field >> (bit_of(r) - low[0]) & 1)
    return CardOrder(
        card_bit=card_bit,
        suit_bits=suit_bits,
        suit_shift=np.array(low + [0], dtype=U64),
        top_rank=top_rank,
        win_bit=np.concatenate([card_bit[:40], np.zeros(10, dtype=U64)]),
        three_thirds=U64(sum(1 << bit_of(c) for c in range(40) if _THIRDS_OF[c] == 3)),
        one_third=U64(sum(1 << bit_of(c) for c in range(40) if _THIRDS_OF[c] == 1)),
        honours=U64(sum(1 << bit_of(c) for c in range(40) if c % 10 < 3)),
        suits_of_code=np.array(
            [sum(1 << bit_of(c) for c in range(40) if code >> (c // 10) & 1) for code in range(16)], dtype=U64
        ),
    )


ENGINE = _card_order(lambda c: c)
"""The engine's masks (bit c = card c): the family's batches."""
REVERSED = _card_order(lambda c: 39 - c)
"""Reversed masks (bit 39 - c = card c): the four-seat ``TressetteBatch`` (``vector._tables``)."""
CARD_BIT = ENGINE.card_bit
"""Bit of card c; index 40 (no card) is 0."""
SUIT_BITS = ENGINE.suit_bits
"""The cards of suit s; index 4 (no suit led) is 0."""
STRENGTH = np.array(list(_STRENGTH_OF) + [-1], dtype=np.int64)
"""Strength of card c in its suit (3 highest: 9 ... 4 lowest: 0); index 40 (no card) is -1."""
THIRDS = np.array(list(_THIRDS_OF) + [0], dtype=np.int64)
"""Thirds of a point of card c; index 40 (no card) is 0."""
PLAY_CARD = np.arange(256, dtype=np.int64) % 40
"""``[a]``: ``a % 40``, the card of a card play ``a`` (0..159, a signal in ``a // 40``), for any action id 0..255 (a
lookup: NumPy's integer ``%`` by 40 cost 4.7 times as much at 4096, ``benchmarks/bench_numpy_idioms.py``)."""
LED_STRENGTH = np.array(
    [-1] * 41 + [v for led in range(4) for v in [-1] + [_STRENGTH_OF[c] if c // 10 == led else -1 for c in range(40)]],
    dtype=np.int64,
)
"""``[(led + 1) * 41 + card + 1]``: the strength of card (-1..39) if it is of the led suit (-1..3), else -1 (another
suit, no card, no suit led): one lookup where a suit and a ``STRENGTH`` lookup, a comparison and a ``where``
cost 2.2 times as much at 4096 x 5 (``benchmarks/bench_numpy_idioms.py``)."""
THREE_THIRDS = ENGINE.three_thirds
"""The four assi (a point each)."""
ONE_THIRD = ENGINE.one_third
"""The 3s, 2s and figures (a third each)."""
RANKS = [U64(sum(1 << c for c in range(40) if _STRENGTH_OF[c] == s)) for s in range(9, -1, -1)]
"""The cards of each strength, the strongest (the 3s) first: ``call_rule="highest_missing"``."""


_M10 = U64(0x3FF)
_THREE = np.uint8(3)


def card_bits(cards: np.ndarray) -> np.ndarray:
    """The bit of each card id -1..39 (-1: no card -> 0).

    ``take(mode="wrap")`` reads -1 as ``CARD_BIT``'s last entry, index 40, whose bit is 0: half the cost of mapping
    -1 to 40 first with ``np.where`` (``benchmarks/bench_numpy_idioms.py``).
    """
    return CARD_BIT.take(cards, mode="wrap")


def cards_thirds(cards: np.ndarray, order: CardOrder = ENGINE) -> np.ndarray:
    """The thirds of a point in each card mask of ``order`` (int64)."""
    thirds = np.bitwise_count(cards & order.three_thirds) * _THREE + np.bitwise_count(cards & order.one_third)
    return thirds.astype(np.int64)


def thirds_of(mask: np.ndarray) -> np.ndarray:
    """The thirds of a point in each card mask."""
    return cards_thirds(mask, ENGINE)


def trick_thirds(cards: np.ndarray, last: np.ndarray, order: CardOrder = ENGINE) -> np.ndarray:
    """The thirds a trick of ``cards`` (masks of ``order``) takes: its cards', and ``LAST_TRICK_THIRDS`` more where ``last``."""
    return cards_thirds(cards, order) + LAST_TRICK_THIRDS * last


def winning_card(cards: np.ndarray, led: np.ndarray, order: CardOrder = ENGINE) -> np.ndarray:
    """The bit of the card that takes each trick: the strongest card of the led suit among ``cards``.

    ``cards``: each trick's cards, a mask of ``order``; ``led``: the led suit (4 or -1: none
    led -> 0). Taking power in a suit: 3, 2, asso, re, cavallo, fante, 7, 6, 5, 4.
    """
    field = (cards >> order.suit_shift.take(led)) & _M10
    return order.win_bit.take(led * 10 + order.top_rank.take(field.view(np.int64)))


def follow_suit(hand: np.ndarray, led: np.ndarray) -> np.ndarray:
    """The cards of the led suit in each hand (led -1: none led -> 0)."""
    return hand & SUIT_BITS.take(led)


def playable_of(hand: np.ndarray, led_cards: np.ndarray) -> np.ndarray:
    """The cards each hand may play: those of the led suit (``led_cards``, its 10 cards or 0) if it holds any, else any."""
    follow = hand & led_cards
    return np.where(follow == _ZERO, hand, follow)


def playable(hand: np.ndarray, led: np.ndarray) -> np.ndarray:
    """The cards each hand may play: the led suit if it holds any, else any card (led -1: none led)."""
    return playable_of(hand, SUIT_BITS.take(led))


def signal_cards(
    hand: np.ndarray, order: CardOrder = ENGINE, no_honours: bool = False
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """The signals' truth: the cards of each leader's ``hand`` it may busso, striscio and volo on.

    Busso on a card of a suit of two cards or more; striscio the same (with ``no_honours``,
    ``Rules.striscio="no_honours"``: on a suit with no asso, 2 or 3, or on the one such card
    of its suit); volo on the last card of its suit. Returns (busso, striscio, volo) masks.
    """
    # The suits with two cards or more, as a 4-bit code, then their cards.
    bits = order.suit_bits
    code = (np.bitwise_count(hand & bits[0]) > 1).view(np.uint8)
    for s in (1, 2, 3):
        code = code | ((np.bitwise_count(hand & bits[s]) > 1).view(np.uint8) << np.uint8(s))
    multi = hand & order.suits_of_code.take(code)
    single = hand ^ multi
    stri = multi
    if no_honours:  # striscio only where no 3, 2 or asso stays behind
        hon = multi & order.honours
        some = (np.bitwise_count(hon & bits[0]) > 0).view(np.uint8)
        one = (np.bitwise_count(hon & bits[0]) == 1).view(np.uint8)
        for s in (1, 2, 3):
            count = np.bitwise_count(hon & bits[s])
            some = some | ((count > 0).view(np.uint8) << np.uint8(s))
            one = one | ((count == 1).view(np.uint8) << np.uint8(s))
        stri = (multi & ~order.suits_of_code.take(some)) | (hon & order.suits_of_code.take(one))
    return multi, stri, single


def signal_words(words: np.ndarray, hand: np.ndarray, lead: np.ndarray, volo: bool) -> None:
    """OR into ``words`` ((N, 4) uint64, bit a: action a) the signals the leader may give where ``lead``.

    Truthful signals (``signal_cards``): busso (40 + c) and striscio (80 + c) on a card of a
    suit of two or more, volo (120 + c, with ``volo``) on the last card of its suit.
    """
    if not lead.any():
        return
    multi, _, single = signal_cards(np.where(lead, hand, _ZERO))
    put_bits(words, multi, 40)
    put_bits(words, multi, 80)
    if volo:
        put_bits(words, single, 120)


def put_bits(words: np.ndarray, cards: np.ndarray, at: int) -> None:
    """OR the 40-bit masks ``cards`` ((N,) uint64) into the 256-bit ``words`` (N, 4) from bit ``at``."""
    q, r = divmod(at, 64)
    words[:, q] |= cards << U64(r)
    if r + 40 > 64:
        words[:, q + 1] |= cards >> U64(64 - r)


def flat_view(x: np.ndarray) -> np.ndarray:
    """The state array ``x`` (deals x seats) as one flat view, to write by flat index; it must be C-contiguous."""
    if not x.flags.c_contiguous:
        raise ValueError("a state array of the trick is not C-contiguous: it cannot be written through a flat view")
    return x.reshape(-1)


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
    playing = np.flatnonzero(play)
    # (deal, seat) of the deals that play, in the state arrays seen flat (a 2-D fancy index cost 5.6 times a
    # flat one to gather: bench_numpy_idioms.py)
    at = np.zeros_like(seat)
    at[playing] = playing * t._played.shape[1] + seat[playing]
    flat_view(t._played)[at[playing]] |= bit[playing]
    led = t._led
    leading = play & (led < 0)
    following = play & (led >= 0)
    suit = card // 10
    fail = np.flatnonzero(following & (suit != led))  # a legal card off the led suit: the seat has none of it
    if len(fail):
        flat_view(t._voids)[at[fail]] |= _ONE << led[fail].astype(U64)
    if signals:
        signal = a // 40
        given = np.flatnonzero(leading & (signal > 0))
        if len(given):
            flat_view(t._signals)[at[given]] |= _ONE << (3 * suit[given] + signal[given] - 1).astype(U64)
    flat_view(t._trick)[at[playing]] = card[playing]
    t._led = np.where(leading, suit, led)
    t._count += play
    complete = play & (t._count == seats)
    following_seat = seat + 1  # (seat + 1) % seats, without NumPy's slow integer %
    t._turn = np.where(play, np.where(following_seat == seats, 0, following_seat), t._turn)
    return complete


def close_tricks(
    t: Any, complete: np.ndarray, hand_tricks: Any
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray, np.ndarray]:
    """The tricks of the deals ``complete``: the winner leads the next, the table is cleared.

    The winner holds the strongest card of the led suit (``winning_card``); ``hand_tricks`` (an int or (N,)) is the
    number of tricks in a hand: the last one takes ``LAST_TRICK_THIRDS`` more (``trick_thirds``). Computed on those
    deals only (a fraction of the batch: one in S when the deals are at different cards of their tricks). Returns
    (``done``: their indices, and for each of them: the winner seat, the thirds taken, whether it was the hand's last
    trick, the trick's cards as a mask); the engine credits them.
    """
    done = np.flatnonzero(complete)
    bits = CARD_BIT.take(t._trick[done])  # (M, S)
    cards = bits[:, 0]
    for s in range(1, bits.shape[1]):
        cards = cards | bits[:, s]
    win = winning_card(cards, t._led[done])
    winner = np.zeros(len(done), dtype=np.int64)  # the first seat holding it (argmax(axis=1) cost 2.2x)
    for s in range(bits.shape[1] - 1, 0, -1):
        winner = np.where(bits[:, s] == win, s, winner)
    tricks = t._tricks[done] + 1
    last = tricks == (hand_tricks if np.ndim(hand_tricks) == 0 else hand_tricks[done])
    taken = trick_thirds(cards, last)
    t._tricks[done] = tricks
    t._turn[done] = winner
    t._leader[done] = winner
    t._trick[done] = -1
    t._led[done] = -1
    t._count[done] = 0
    return done, winner, taken, last, cards
