"""The 40-card Italian deck: card ids, suits, taking power and point values.

Card id (the contract for actions, saved deals and tests)::

    id = suit * 10 + (value - 1)

    suit   0 denari   1 coppe   2 spade   3 bastoni
    value  1 asso  2  3  4  5  6  7  8 fante  9 cavallo  10 re

    0 = asso di denari, 2 = 3 di denari, 9 = re di denari,
    10 = asso di coppe, 39 = re di bastoni.

A set of cards is a *card mask*: an int whose bit ``id`` is set for every card in
the set. Suit ``s`` occupies bits ``10*s .. 10*s+9``, so ``mask & SUIT_MASK[s]``
is the part of a hand in suit ``s``.

Taking power inside a suit, highest first: 3, 2, asso, re, cavallo, fante, 7,
6, 5, 4 (``STRENGTH``). Card points are counted in thirds of a point
(``THIRDS``): asso 3, the 3, 2, re, cavallo and fante 1 each, 4 to 7 nothing;
the deck holds 32 thirds (10 2/3 points).

Example:
    >>> card_name(parse_card("3d"))
    '3 di denari'
    >>> [card_code(c) for c in cards_of(parse_cards("Rb Ac 4d"))]
    ['4d', 'Ac', 'Rb']
"""

from __future__ import annotations

from collections.abc import Iterable

Card = int
"""A card id, 0..39."""
CardMask = int
"""A set of cards: bit ``id`` set for each card in the set."""

NUM_CARDS = 40
NUM_SUITS = 4
CARDS_PER_SUIT = 10
FULL_DECK: CardMask = (1 << NUM_CARDS) - 1

SUITS = ("denari", "coppe", "spade", "bastoni")
SUIT_CODES = ("d", "c", "s", "b")
# Index = value - 1.
RANK_NAMES = ("asso", "2", "3", "4", "5", "6", "7", "fante", "cavallo", "re")
RANK_CODES = ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R")

SUIT_MASK: tuple[CardMask, ...] = tuple(0x3FF << (10 * s) for s in range(NUM_SUITS))

# Taking power by rank index (value - 1): 9 for the 3 down to 0 for the 4.
_RANK_STRENGTH = (7, 8, 9, 0, 1, 2, 3, 4, 5, 6)
STRENGTH: tuple[int, ...] = tuple(_RANK_STRENGTH[c % 10] for c in range(NUM_CARDS))

# Points in thirds by rank index: asso 3; 2, 3, fante, cavallo, re 1; 4-7 nothing.
_RANK_THIRDS = (3, 1, 1, 0, 0, 0, 0, 1, 1, 1)
THIRDS: tuple[int, ...] = tuple(_RANK_THIRDS[c % 10] for c in range(NUM_CARDS))
DECK_THIRDS = sum(THIRDS)  # 32 = 10 2/3 points

ASSO, DUE, TRE = 0, 1, 2
"""Rank indices (value - 1) of the three honours (carichi)."""
HONOURS: tuple[CardMask, ...] = tuple(0b111 << (10 * s) for s in range(NUM_SUITS))
"""The asso, 2 and 3 of each suit (the honours), by suit."""

FOUR_OF_DENARI: Card = 3


def card_id(suit: int, value: int) -> Card:
    """The id of the card of ``suit`` (0-3) and ``value`` (1-10)."""
    if not (0 <= suit < NUM_SUITS and 1 <= value <= CARDS_PER_SUIT):
        raise ValueError(f"no card with suit {suit!r} and value {value!r}: suits are 0-3, values 1-10")
    return suit * 10 + value - 1


def suit_of(card: Card) -> int:
    """The suit (0 denari, 1 coppe, 2 spade, 3 bastoni) of a card id."""
    return card // 10


def cards_of(mask: CardMask) -> list[Card]:
    """The card ids in a mask, lowest id first."""
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def undealt(*masks: CardMask) -> list[Card]:
    """The card ids in none of ``masks``, lowest id first: what a chosen deal leaves to shuffle."""
    fixed = 0
    for mask in masks:
        fixed |= mask
    return cards_of(FULL_DECK & ~fixed) if fixed else list(range(NUM_CARDS))


def mask_of(cards: Iterable[Card]) -> CardMask:
    """The mask of a collection of card ids."""
    mask = 0
    for c in cards:
        mask |= 1 << c
    return mask


def card_name(card: Card) -> str:
    """Italian name of a card, e.g. ``'asso di coppe'``."""
    return f"{RANK_NAMES[card % 10]} di {SUITS[card // 10]}"


def card_code(card: Card) -> str:
    """Two-letter code of a card: rank (A 2 3 4 5 6 7 F C R) and suit (d c s b)."""
    return RANK_CODES[card % 10] + SUIT_CODES[card // 10]


def parse_card(text: str) -> Card:
    """The card id of a code such as ``'3d'``, ``'Ac'``, ``'Rb'`` (see ``card_code``)."""
    if len(text) != 2 or text[0] not in RANK_CODES or text[1] not in SUIT_CODES:
        raise ValueError(
            f"bad card code {text!r}: a rank of {''.join(RANK_CODES)} followed by a suit of {''.join(SUIT_CODES)}"
        )
    return SUIT_CODES.index(text[1]) * 10 + RANK_CODES.index(text[0])


def parse_cards(text: str) -> CardMask:
    """The mask of space-separated card codes, e.g. ``parse_cards('Ad 2d 3d')``."""
    return mask_of(parse_card(t) for t in text.split())
