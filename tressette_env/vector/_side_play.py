"""``agents.side_play`` for M decisions at once, over plain arrays: what the batched side heuristics share.

The rule players of Calabresella and Tressette a chiamare both count their hands, call a card
and play for a side with ``agents.side_play``; their batched forms
(``vector.calabresella_heuristic``, ``vector.a_chiamare_heuristic``) read their batch's arrays
and hand them to these functions, which know no batch: card sets are (M,) uint64 engine masks
(bit c = card c), the trick is (M, S) card ids by seat (-1: none), the sides are seat masks.

| function | what it gives |
| --- | --- |
| ``hand_strength6(hand)`` | (M,) ``side_play.hand_strength`` times 6, exact integers: a lookup a suit in a table made by ``hand_strength`` itself |
| ``call_card(hand, options)`` | (M,) ``side_play.call_card``: the strongest rank, then the longest and richest suit of the hand |
| ``side_card(legal, unseen, trick, led, count, me, friends, seats)`` | (M,) ``side_play.side_card``'s card, the friends as seat masks (it reads no foes) |
| ``master_cards(unseen)`` | (M,) uint64 the cards ``side_play.is_master`` marks, by a table of each suit's unseen cards |
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

import functools
from typing import Any, NamedTuple

import numpy as np

from ..agents.side_play import hand_strength
from ..engine.cards import STRENGTH, SUIT_MASK, THIRDS
from ._family import deal_indices, popcount, sum_columns

U64 = np.uint64
ZERO = U64(0)
ONE = U64(1)
IDS = np.arange(40, dtype=np.int64)
_SHIFT = IDS.astype(U64)
STR = np.array(STRENGTH, dtype=np.int64)
TH = np.array(THIRDS, dtype=np.int64)
_TH_OR_NONE = np.append(TH, 0)
"""Each card's thirds, and 0 at index -1 (no card)."""
SUIT = IDS // 10
SUITS = np.array(SUIT_MASK, dtype=U64)
STRONGER = np.array(
    [sum(1 << o for o in range(40) if o // 10 == c // 10 and STRENGTH[o] > STRENGTH[c]) for c in range(40)], dtype=U64
)
"""The cards of each card's suit that beat it."""
FULL = U64((1 << 40) - 1)
_FIELD = U64(1023)
"""A suit's 10 bits of a card mask, after shifting it down by 10 * suit."""
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
    words = b._legal_words(rows)  # noqa: SLF001
    return OnTurn(
        rows=rows,
        out=np.full(len(rows), -1, dtype=np.int64),
        playing=playing,
        me=me,
        phase=np.where(playing, b._phase[rows], -1),  # noqa: SLF001
        hand=b._hands[rows, me],  # noqa: SLF001
        words=words,
        legal_count=sum_columns(popcount(words)),
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


def _strength6_fields() -> np.ndarray:
    """(4, 1024) int64: ``side_play.hand_strength`` times 6 of each suit's 10-bit field (it adds up suit by suit)."""
    return np.array(
        [[round(6 * hand_strength(field << (10 * suit))) for field in range(1024)] for suit in range(4)], dtype=np.int64
    )


_STRENGTH6 = _strength6_fields()


def hand_strength6(hand: np.ndarray) -> np.ndarray:
    """(M,) ``side_play.hand_strength`` of each hand times 6: exact integers (the thirds over 3 are sixths), a lookup a suit."""
    out = _STRENGTH6[0].take((hand & _FIELD).astype(np.intp))
    for suit in range(1, 4):
        out = out + _STRENGTH6[suit].take(((hand >> U64(10 * suit)) & _FIELD).astype(np.intp))
    return out


def call_card(hand: np.ndarray, options: np.ndarray) -> np.ndarray:
    """(M,) ``side_play.call_card(hand, options)``: of ``options`` the strongest rank, in the hand's longest suit, then its richest."""
    cols = columns(options)
    best_strength = np.where(cols, STR[None, :], -1).max(axis=1)
    top = cols & (STR[None, :] == best_strength[:, None])
    suit_thirds = (columns(hand) * TH[None, :]) @ (SUIT[:, None] == np.arange(4)[None, :])  # (M, 4)
    return best(top, key(suit_lengths(hand), suit_thirds[:, SUIT]), highest=True)


def _master_fields() -> np.ndarray:
    """(4, 1024) uint64: for a suit and the 10-bit field of its unseen cards, the suit's cards no unseen card beats."""
    out = np.zeros((4, 1024), dtype=U64)
    for suit in range(4):
        ranks = [STRENGTH[10 * suit + r] for r in range(10)]
        for field in range(1024):
            top = max((ranks[r] for r in range(10) if field >> r & 1), default=-1)
            out[suit, field] = sum(1 << (10 * suit + r) for r in range(10) if ranks[r] >= top)
    return out


_MASTER_FIELDS = _master_fields()


def master_cards(unseen: np.ndarray) -> np.ndarray:
    """(M,) uint64: the cards ``side_play.is_master`` marks (no card of ``unseen`` of its suit beats it), one lookup a suit."""
    out = _MASTER_FIELDS[0].take((unseen & _FIELD).astype(np.intp))
    for suit in range(1, 4):
        out = out | _MASTER_FIELDS[suit].take(((unseen >> U64(10 * suit)) & _FIELD).astype(np.intp))
    return out


_ZERO_KEY = np.zeros_like(TH)
_RULE_KEYS = np.array(
    [
        -key(TH, STR),  # 1. cash a master: the most (thirds, power)
        key(_ZERO_KEY, STR, TH),  # 2. lead low: (-length, power, thirds), the length added by the row
        -key(TH, -STR),  # 3. load the friend's trick, 6. throw it points: the most (thirds, -power)
        key(STR, -TH),  # 4. take it, nobody after: the cheapest winner, (power, -thirds)
        key(STR),  # 4. take it with the weakest master
        -key(STR),  # 4. take it with the strongest, the trick worth a point
        key(TH, STR),  # 5. the lowest card, (thirds, power)
        key(TH, STR, _ZERO_KEY),  # 6. void, no safe friend: (thirds, power, -length), the length added by the row
    ],
    dtype=np.int64,
)
"""(8, 40): each rule's key of every card, lowest chosen (a highest-first key negated)."""
_RULE_LENGTH = np.array([0, -(_K**2), 0, 0, 0, 0, 0, -1], dtype=np.int64)
"""What each rule's key adds per card of the card's suit in the legal cards (``key``'s place of the length)."""
_RULE_SCORES = (_RULE_KEYS * _K + IDS + (1 << 22)).astype(np.int32)
"""Each rule's score of every card: its key times 64 plus the card id (the lowest id first among equal keys),
plus 2**22, so that with the length's part every score lies in 0 .. 2**24."""
_RULE_LENGTH_SCORES = (_RULE_LENGTH * _K).astype(np.int32)


@functools.cache
def _later_seats(seats: int) -> np.ndarray:
    """(S, S + 1) int64 seat masks: [me, count] the seats still to play after ``me`` in a trick holding ``count`` cards."""
    out = np.zeros((seats, seats + 1), dtype=np.int64)
    for me in range(seats):
        for count in range(seats + 1):
            out[me, count] = sum(1 << (me + k) % seats for k in range(1, seats - count))
    return out


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

    Each row's rule is found first, on card masks ((M,) uint64), then the least score of the
    rule's candidates (its key, then the card id): one pass over (M, 40) for the eight rules,
    not one each (the batched heuristics' tests pin its cards to the scalar player's).

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
    master = master_cards(unseen)
    # The trick so far: its best card of the led suit, whose seat wins it now.
    on_table = np.where((trick >= 0) & (trick // 10 == led[:, None]), STR.take(np.maximum(trick, 0)), -1)
    winner = on_table.argmax(axis=1)
    top_card = np.maximum(trick[np.arange(m), winner], 0)
    in_trick = sum_columns(_TH_OR_NONE.take(trick))  # the thirds on the table (a -1 takes the 0 at the end)
    later = _later_seats(seats).reshape(-1).take(me * (seats + 1) + count)  # the seats after this one in the trick
    danger = (later & ~friends) != 0  # a foe plays after it
    top_master = (unseen & STRONGER.take(top_card)) == ZERO
    friend_wins = ((friends >> winner) & 1) != 0
    safe = friend_wins & (~danger | top_master)
    following = legal & np.where(led >= 0, SUITS.take(np.maximum(led, 0)), ZERO)
    beaters = following & STRONGER.take(top_card)
    take = (beaters != ZERO) & ~friend_wins
    master_beaters = beaters & master
    cashable = legal & master
    plain_following = following & ~master
    plain_following = np.where(plain_following != ZERO, plain_following, following)
    plain = legal & ~master
    plain = np.where(plain != ZERO, plain, legal)
    lead = count == 0
    follows = following != ZERO
    rules = [  # the first that applies, as side_play.side_card tries them
        (lead & (cashable != ZERO), 0, cashable),
        (lead, 1, legal),
        (follows & safe, 2, plain_following),
        (follows & take & ~danger, 3, beaters),
        (follows & take & (master_beaters != ZERO), 4, master_beaters),
        (follows & take & (in_trick >= 3), 5, beaters),
        (follows, 6, following),
        (safe, 2, plain),
    ]
    rule = np.full(m, 7, dtype=np.intp)
    candidates = legal
    for condition, r, cards in reversed(rules):  # the first rule that applies is written last
        rule = np.where(condition, r, rule)
        candidates = np.where(condition, cards, candidates)
    by_suit = popcount(legal[:, None] & SUITS[None, :]).astype(np.int32)  # (M, 4) lengths
    score = _RULE_SCORES[rule] + (_RULE_LENGTH_SCORES[rule][:, None] * by_suit).take(SUIT, axis=1)
    held = np.unpackbits(candidates.astype("<u8").view(np.uint8).reshape(m, 8), axis=1, bitorder="little")[:, :40]
    # A card not a candidate gets bit 30 (scores are 0 .. 2**24); a score's low six bits are its card, so
    # the least score names the card (an OR and a min: np.where and argmin cost 3.6 times as much, bench_numpy_idioms.py).
    score |= (held ^ 1).astype(np.int32) << 30
    card = (score.min(axis=1) & (_K - 1)).astype(np.int64)
    return np.where(candidates != ZERO, card, 0)  # no candidate (no legal card): 0, as an argmin gives
