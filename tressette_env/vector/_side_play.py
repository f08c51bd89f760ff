"""``agents.side_play`` for M decisions at once, over plain arrays: what the batched side heuristics share.

The rule players of Calabresella and Tressette a chiamare both count their hands, call a card
and play for a side with ``agents.side_play``; their batched forms
(``vector.calabresella_heuristic``, ``vector.a_chiamare_heuristic``) read their batch's arrays
and hand them to these functions, which know no batch: card sets are (M,) uint64 engine masks
(bit c = card c), the trick is (M, S) card ids by seat (-1: none), the sides are seat masks.

| function | what it gives |
| --- | --- |
| ``hand_strength6(hand)`` | (M,) ``side_play.hand_strength`` times 6, exact integers |
| ``call_card(hand, options)`` | (M,) ``side_play.call_card``: the strongest rank, then the longest and richest suit of the hand |
| ``side_card(legal, unseen, trick, led, count, me, friends, seats)`` | (M,) ``side_play.side_card``'s card, the friends as seat masks (it reads no foes) |
| ``masters(unseen)`` | (M, 40) bool ``side_play.is_master`` of every card |
| ``on_turn(batch, deals, kind)`` | the rows asked for and the seat on turn's state in them (a TypeError for another game's batch) |
| ``cards_at(words, at)`` / ``only(words)`` | the 40 cards of 256-bit legal words from action ``at`` on; the lowest legal action |
| ``columns``, ``best``, ``key``, ``suit_lengths`` | masks as (M, 40) columns; the first card of the best composite key; suit lengths by card |

Python's ``min``/``max`` over a list sorted by card id keep the first card among equal keys:
every choice here is an argmax (argmin) of one integer key per card with the card id as the
last tie-break, lowest id first (``best``).

Example:
    >>> import numpy as np
    >>> from tressette_env.agents.side_play import hand_strength
    >>> hand = 0b111 << 20  # the asso, the 2 and the 3 of one suit: 5 thirds and three sure tricks
    >>> hand_strength6(np.array([hand], dtype=np.uint64)).tolist(), 6 * hand_strength(hand)
    ([28], 28.0)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS
from ._family import deal_indices, popcount

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
IDS = np.arange(40, dtype=np.int64)
_SHIFT = IDS.astype(U64)
STR = np.array(STRENGTH, dtype=np.int64)
TH = np.array(THIRDS, dtype=np.int64)
SUIT = IDS // 10
SUITS = np.array(SUIT_MASK, dtype=U64)
STRONGER = np.array(
    [sum(1 << o for o in range(40) if o // 10 == c // 10 and STRENGTH[o] > STRENGTH[c]) for c in range(40)], dtype=U64
)
"""The cards of each card's suit that beat it."""
_THIRD_MASKS = np.array(
    [sum(1 << c for c in range(40) if THIRDS[c] == 1), sum(1 << c for c in range(40) if THIRDS[c] == 3)], dtype=U64
)
"""The cards worth one third, and those worth three (the assi)."""
FULL = U64((1 << 40) - 1)
_BIG = np.int64(1) << 40
_K = 64
"""The base of the composite keys (every part lies in -16..47 after its offset)."""


class OnTurn(NamedTuple):
    """The seat on turn's state in the chosen deals (``on_turn``)."""

    rows: np.ndarray
    """(M,) the deals, in the order asked."""
    out: np.ndarray
    """(M,) int64 -1: the actions to fill in (-1 stays where the deal is finished)."""
    playing: np.ndarray
    me: np.ndarray
    """(M,) the seat on turn."""
    phase: np.ndarray
    """(M,) the phase; -1 in a finished deal."""
    hand: np.ndarray
    words: np.ndarray
    """(M, 4) uint64 legal-action words."""
    legal_count: np.ndarray


def on_turn(batch: Any, deals: Any, kind: type) -> OnTurn:
    """The rows of ``deals`` (all when None) and the seat on turn's state there, read from a ``kind`` batch."""
    if not isinstance(batch, kind):
        raise TypeError(f"heuristic_actions plays a {kind.__name__}; got {type(batch).__name__}")
    b = batch
    rows = deal_indices(deals, b.n, b._ar)  # noqa: SLF001
    playing = b._playing[rows]  # noqa: SLF001
    me = b._turn[rows]  # noqa: SLF001
    words = b._legal_words()[rows]  # noqa: SLF001
    return OnTurn(
        rows=rows,
        out=np.full(len(rows), -1, dtype=np.int64),
        playing=playing,
        me=me,
        phase=np.where(playing, b._phase[rows], -1),  # noqa: SLF001
        hand=b._hands[rows, me],  # noqa: SLF001
        words=words,
        legal_count=popcount(words).sum(axis=1),
    )


def columns(masks: np.ndarray) -> np.ndarray:
    """(M,) uint64 card masks -> (M, 40) bool."""
    return ((masks[:, None] >> _SHIFT) & ONE) != ZERO


def best(candidates: np.ndarray, key: np.ndarray, highest: bool) -> np.ndarray:
    """(M,) the card of ``candidates`` with the highest (lowest) ``key``; the lowest card id among equal keys."""
    if highest:
        score = np.where(candidates, key * _K + (_K - 1 - IDS), -_BIG)
        return score.argmax(axis=1)
    score = np.where(candidates, key * _K + IDS, _BIG)
    return score.argmin(axis=1)


def key(*parts: np.ndarray) -> np.ndarray:
    """One integer key from parts compared in order (each within -16..47)."""
    out = np.asarray(parts[0], dtype=np.int64) + 16
    for part in parts[1:]:
        out = out * _K + (part + 16)
    return out


def suit_lengths(cards: np.ndarray) -> np.ndarray:
    """(M, 40): how many of ``cards`` ((M,) masks) are of each card's suit."""
    by_suit = popcount(cards[:, None] & SUITS[None, :])  # (M, 4)
    return by_suit[:, SUIT]


def masters(unseen: np.ndarray) -> np.ndarray:
    """(M, 40) bool: ``side_play.is_master`` of every card: no card of ``unseen`` ((M,) masks) of its suit beats it."""
    return (unseen[:, None] & STRONGER[None, :]) == ZERO


def cards_at(words: np.ndarray, at: int) -> np.ndarray:
    """(M,) uint64: the 40 actions ``at .. at + 39`` of 256-bit legal words (M, 4) as a card mask."""
    q, r = divmod(at, 64)
    out = words[:, q] >> U64(r)
    if r + 40 > 64:
        out = out | (words[:, q + 1] << U64(64 - r))
    return out & FULL


def only(words: np.ndarray) -> np.ndarray:
    """(M,) the lowest legal action of 256-bit legal words (M, 4) (the only one, where there is one)."""
    nonzero = words != ZERO
    w = nonzero.argmax(axis=1)
    word = words[np.arange(len(words)), w]
    low = word & (~word + ONE)
    return 64 * w + np.log2(np.maximum(low, ONE).astype(np.float64)).astype(np.int64)


def hand_strength6(hand: np.ndarray) -> np.ndarray:
    """(M,) ``side_play.hand_strength`` of each hand times 6: exact integers (the thirds over 3 are sixths)."""
    thirds = popcount(hand[:, None] & _THIRD_MASKS[None, :]) @ np.array([1, 3])  # the hand's thirds
    sure6 = np.zeros(len(hand), dtype=np.int64)  # sure tricks and long suits, in sixths
    for suit in range(4):
        held = hand & SUITS[suit]
        length = popcount(held)
        three, two, ace = (((held >> U64(10 * suit + r)) & ONE) != ZERO for r in (2, 1, 0))
        sure = three.astype(np.int64) + (two & (three | (length >= 3))) + (ace & three & two)
        sure6 += 6 * sure + 3 * np.maximum(0, length - 4)
    return 2 * thirds + sure6


def call_card(hand: np.ndarray, options: np.ndarray) -> np.ndarray:
    """(M,) ``side_play.call_card(hand, options)``: of ``options`` the strongest rank, in the hand's longest suit, then its richest."""
    cols = columns(options)
    best_strength = np.where(cols, STR[None, :], -1).max(axis=1)
    top = cols & (STR[None, :] == best_strength[:, None])
    suit_thirds = (columns(hand) * TH[None, :]) @ (SUIT[:, None] == np.arange(4)[None, :])  # (M, 4)
    return best(top, key(suit_lengths(hand), suit_thirds[:, SUIT]), highest=True)


def side_card(
    legal: np.ndarray,
    unseen: np.ndarray,
    trick: np.ndarray,
    led: np.ndarray,
    count: np.ndarray,
    me: np.ndarray,
    friends: np.ndarray,
    seats: int,
) -> np.ndarray:
    """(M,) ``side_play.side_card``'s card for the seat ``me`` on turn.

    Args:
        legal: (M,) uint64 the legal cards (the plain plays).
        unseen: (M,) uint64 ``SeatView.unseen`` of the seat on turn.
        trick: (M, S) int64 the trick's cards by seat (-1: none yet).
        led: (M,) the led suit (-1 on lead).
        count: (M,) cards in the trick.
        me: (M,) the seat on turn.
        friends: (M,) int64 seat masks: the seat's friends, itself included.
        seats: S, the seats at the table.
    """
    m = len(legal)
    ar = np.arange(m)
    cards = columns(legal)
    master = masters(unseen)  # (M, 40)
    lengths = suit_lengths(legal)
    th, st = TH[None, :], STR[None, :]
    # On lead: 1. cash a master (most points, then strongest); 2. the lowest card of the longest suit.
    cashable = cards & master
    cash = best(cashable, key(th, st), highest=True)
    low = best(cards, key(-lengths, st, th), highest=False)
    lead = np.where(cashable.any(axis=1), cash, low)
    # Following: the trick so far.
    on_table = np.where((trick >= 0) & (trick // 10 == led[:, None]), STR.take(np.maximum(trick, 0)), -1)
    winner = on_table.argmax(axis=1)
    top_card = trick[ar, winner]
    top_strength = on_table.max(axis=1)
    in_trick = np.where(trick >= 0, TH.take(np.maximum(trick, 0)), 0).sum(axis=1)
    k = np.arange(1, seats)[None, :]
    after = (me[:, None] + k) % seats
    later = k < (seats - count)[:, None]  # the seats after this one in the trick
    danger = (later & (((friends[:, None] >> after) & 1) == 0)).any(axis=1)
    top_master = (unseen & STRONGER.take(np.maximum(top_card, 0))) == ZERO
    friend_wins = ((friends >> winner) & 1) != 0
    safe = friend_wins & (~danger | top_master)
    following = cards & (SUIT[None, :] == led[:, None])
    plain_f = following & ~master
    plain_f = np.where(plain_f.any(axis=1)[:, None], plain_f, following)
    load = best(plain_f, key(th, -st), highest=True)
    beaters = following & (st > top_strength[:, None])
    take = beaters.any(axis=1) & ~friend_wins
    cheapest_beater = best(beaters, key(st, -th), highest=False)
    master_beaters = beaters & master
    weakest_master = best(master_beaters, key(st), highest=False)
    strongest = best(beaters, key(st), highest=True)
    lowest = best(following, key(th, st), highest=False)
    follow_card = np.where(
        safe,
        load,
        np.where(
            take & ~danger,
            cheapest_beater,
            np.where(
                take & master_beaters.any(axis=1),
                weakest_master,
                np.where(take & (in_trick >= 3), strongest, lowest),
            ),
        ),
    )
    # Void in the led suit: 6. throw points to a safe friend, else the cheapest card, from the longest suit.
    plain = cards & ~master
    plain = np.where(plain.any(axis=1)[:, None], plain, cards)
    throw = best(plain, key(th, -st), highest=True)
    cheap = best(cards, key(th, st, -lengths), highest=False)
    void_card = np.where(safe, throw, cheap)
    return np.where(count == 0, lead, np.where(following.any(axis=1), follow_card, void_card))
