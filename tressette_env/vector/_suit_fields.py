"""A suit as a 10-bit field: the card tables of the batched heuristics that read engine card masks (in due, a perdere).

Bit r of a field is rank index r (0 asso, 1 the 2, 2 the 3, 3..6 the 4..7, 7 fante, 8 cavallo,
9 re); suit s of an engine card mask (bit c = card c) is its bits 10 s .. 10 s + 9. An
``Order`` sorts the ten ranks by a key of the scalar heuristic's (its ``min`` or ``max`` over
cards), so that the first card of the order in a suit is one lookup of the suit's field and
over the suits a ``min`` of ``place * 4 + suit`` (the lowest suit on a tie, as the scalar
heuristics' card order).

| name | what it is |
| --- | --- |
| ``FIELDS``, ``S``, ``T``, ``NONE`` | every field 0..1023; taking power and thirds by rank; the place of an empty field |
| ``Order``, ``order(key)`` | a rank order as lookups (``place`` by field, ``rank`` by place) |
| ``CHEAPEST``, ``DEAREST``, ``WEAKEST``, ``STRONGEST`` | by (thirds, power) up and down, by (power, thirds) up and down |
| ``ABOVE``, ``BELOW``, ``TOP``, ``ABOVE_ALL`` | [rank] the ranks that beat it, that it beats (rank -1: none); [field] its strongest rank (-1 empty), the ranks that beat all of it |
| ``POP``, ``POINTS`` | [field] its cards; the field of the ranks with a point |
| ``M10``, ``FULL``, ``SHIFTS``, ``SUIT_COL``, ``SUIT_BITS`` | a field's bits, the 40 cards, the suits' shifts and columns, [suit] its cards (index 4: none) |
| ``fields(masks)``, ``choose(fields, order)``, ``card(key, order)``, ``best(fields, order)`` | (4, M) fields of masks; the first card of an order over the suits, as a key and as a card |

(The four-seat heuristic, ``vector.heuristic``, reads ``TressetteBatch``'s reversed masks and
has tables of its own.)
"""

from __future__ import annotations

from typing import Any, NamedTuple

import numpy as np

from ..engine.cards import STRENGTH, THIRDS

FIELDS = np.arange(1024)
S = STRENGTH[:10]
"""Taking power by rank."""
T = THIRDS[:10]
"""Points in thirds by rank."""
NONE = 10
"""The place of an empty field (after every rank)."""


class Order(NamedTuple):
    place: np.ndarray
    """[field] -> the place in the order of the field's first rank; ``NONE`` for an empty field."""
    rank: np.ndarray
    """[place] -> the rank at that place; -1 at ``NONE``."""


def order(key: Any) -> Order:
    """The ranks sorted by ``key`` (a function of the rank) as lookups."""
    ranks = sorted(range(10), key=key)
    place = np.full(1024, NONE, dtype=np.int64)
    for p in range(9, -1, -1):  # the first rank of the order written last
        place[FIELDS >> ranks[p] & 1 == 1] = p
    return Order(place, np.array([*ranks, -1], dtype=np.int64))


CHEAPEST = order(lambda r: (T[r], S[r]))  # min(cards, key=(THIRDS, STRENGTH))
DEAREST = order(lambda r: (-T[r], -S[r]))  # max(cards, key=(THIRDS, STRENGTH))
WEAKEST = order(lambda r: (S[r], T[r]))  # min by (STRENGTH, THIRDS) (or (STRENGTH, -THIRDS): power alone)
STRONGEST = order(lambda r: (-S[r], -T[r]))  # max by (STRENGTH, THIRDS) (or (STRENGTH, -THIRDS))
ABOVE = np.array([sum(1 << x for x in range(10) if S[x] > S[r]) for r in range(10)] + [0], dtype=np.int64)
"""[rank] -> the field of the ranks that beat it; [-1] (no rank) -> 0."""
BELOW = np.array([sum(1 << x for x in range(10) if S[x] < S[r]) for r in range(10)] + [0], dtype=np.int64)
"""[rank] -> the field of the ranks it beats; [-1] (no rank) -> 0."""
TOP = STRONGEST.rank.take(STRONGEST.place)
"""[field] -> its strongest rank, -1 for an empty field."""
ABOVE_ALL = np.where(FIELDS == 0, 0x3FF, ABOVE.take(TOP))
"""[field] -> the ranks that beat every card of the field (all ten for an empty field)."""
POP = np.bitwise_count(FIELDS).astype(np.int64)
POINTS = sum(1 << r for r in range(10) if T[r])  # asso, 2, 3, fante, cavallo, re
M10 = np.uint64(0x3FF)
FULL = np.uint64((1 << 40) - 1)
SHIFTS = np.array([[0], [10], [20], [30]], dtype=np.uint64)
SUIT_COL = np.arange(4, dtype=np.int64)[:, None]
SUIT_BITS = np.array([0x3FF << (10 * s) for s in range(4)] + [0], dtype=np.uint64)
"""The cards of suit s; index 4 (no suit led) is 0."""


def fields(masks: np.ndarray) -> np.ndarray:
    """(M,) uint64 engine card masks -> (4, M) int64 suit fields."""
    return ((masks >> SHIFTS) & M10).view(np.int64)


def choose(suit_fields: np.ndarray, by: Order) -> np.ndarray:
    """(4, M) fields -> the key ``place * 4 + suit`` of the first card of order ``by``, lowest suit on a tie."""
    return (by.place.take(suit_fields) * 4 + SUIT_COL).min(axis=0)


def card(key: np.ndarray, by: Order) -> np.ndarray:
    """The card of a ``choose`` key (-1 when no suit has one)."""
    place = key >> 2
    return np.where(place < NONE, 10 * (key & 3) + by.rank.take(np.minimum(place, NONE)), -1)


def best(suit_fields: np.ndarray, by: Order) -> np.ndarray:
    """(4, M) fields -> the first card of order ``by`` over the suits (lowest suit on a tie); -1 when all are empty."""
    return card(choose(suit_fields, by), by)
