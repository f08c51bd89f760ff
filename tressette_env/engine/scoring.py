"""Trick winner, points in thirds, declarations (accusi) and the score of a hand.

Points are counted in thirds of a point so that the arithmetic stays exact:
asso 3, the 3, 2, re, cavallo, fante 1 each, the last trick 3. A team's thirds
become whole points only in ``thirds_to_points``, which rounds down, each team
separately (4 + 5/3 -> 5). The deck holds 32 thirds, the last trick adds 3, so
without declarations the two teams always score 11 between them.

Declarations, from the cards dealt (they add up; a card may count in several):

| combination | points |
| --- | --- |
| napoletana: asso, 2 and 3 of one suit | 3 |
| tris: three 3s, three 2s or three assi | 3 |
| quattro: all four 3s, 2s or assi | 4 |

A team that makes no card point in the hand scores no declaration points; with
``cappotto_bonus`` the team that made every point scores that many more.

Example:
    >>> from tressette_env.engine.cards import parse_cards
    >>> [a.name for a in find_accusi(parse_cards("Ac 2c 3c 2s 2b 4d 5d 6d 7d Fd"))]
    ['napoletana di coppe', 'tris di 2 (manca denari)']
    >>> sum(a.points for a in find_accusi(parse_cards("Ac 2c 3c 2s 2b 4d 5d 6d 7d Fd")))
    6
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import ASSO, DUE, STRENGTH, SUITS, TRE, Card, CardMask

LAST_TRICK_THIRDS = 3
HAND_THIRDS = 35  # 32 in the cards + 3 for the last trick
RENUNCIO_POINTS = 11

_HONOUR_NAMES = {ASSO: "assi", DUE: "2", TRE: "3"}


class Accuso(NamedTuple):
    """One declared combination."""

    kind: str
    """``"napoletana"``, ``"tris"`` or ``"quattro"``."""
    cards: CardMask
    """The cards the declaration reveals."""
    points: int

    @property
    def name(self) -> str:
        """Italian description, e.g. ``'napoletana di coppe'``, ``'tris di 3 (manca spade)'``."""
        low = self.cards & -self.cards
        first = low.bit_length() - 1
        if self.kind == "napoletana":
            return f"napoletana di {SUITS[first // 10]}"
        rank = first % 10
        if self.kind == "quattro":
            return f"quattro {_HONOUR_NAMES[rank]}"
        missing = next(s for s in range(4) if not self.cards >> (10 * s + rank) & 1)
        return f"tris di {_HONOUR_NAMES[rank]} (manca {SUITS[missing]})"


_NAPOLETANE = tuple(((1 << ASSO) | (1 << DUE) | (1 << TRE)) << (10 * suit) for suit in range(4))
_HONOURS = tuple((rank, sum(1 << (10 * suit + rank) for suit in range(4))) for rank in (ASSO, DUE, TRE))


def find_accusi(hand: CardMask) -> tuple[Accuso, ...]:
    """Every combination in a dealt hand: napoletane by suit, then tris/quattro by rank."""
    found = [Accuso("napoletana", cards, 3) for cards in _NAPOLETANE if hand & cards == cards]
    for _rank, all_four in _HONOURS:
        cards = hand & all_four
        count = cards.bit_count()
        if count == 4:
            found.append(Accuso("quattro", cards, 4))
        elif count == 3:
            found.append(Accuso("tris", cards, 3))
    return tuple(found)


class Declarations(NamedTuple):
    """The declarations of a hand, fixed at the deal and public from the first lead."""

    by_seat: tuple[tuple[Accuso, ...], ...]
    """Each seat's combinations (all empty when ``accusi`` is off)."""
    revealed: int
    """The cards they reveal, 4 blocks of 40 bits by seat (see ``state``)."""
    points: tuple[int, int]
    """Declared points by team, before a cappotto voids them."""


NO_DECLARATIONS = Declarations(((), (), (), ()), 0, (0, 0))


def declare(hands: tuple[CardMask, ...]) -> Declarations:
    """Every seat's declarations from the dealt hands."""
    by_seat = tuple(find_accusi(h) for h in hands)
    revealed = 0
    points = [0, 0]
    for seat, found in enumerate(by_seat):
        for accuso in found:
            revealed |= accuso.cards << (40 * seat)
            points[seat % 2] += accuso.points
    return Declarations(by_seat, revealed, (points[0], points[1]))


def trick_winner(leader: int, cards: tuple[Card, ...] | list[Card]) -> int:
    """The seat that takes a trick: the highest card of the led suit.

    ``cards`` are in play order, the first led by ``leader``; the i-th card was
    played by seat ``(leader + i) % 4``.
    """
    led = cards[0] // 10
    best = 0
    for i in range(1, len(cards)):
        card = cards[i]
        if card // 10 == led and STRENGTH[card] > STRENGTH[cards[best]]:
            best = i
    return (leader + best) % 4


def thirds_to_points(thirds: int) -> int:
    """Whole points of a team's thirds, rounded down (the leftover thirds are lost)."""
    return thirds // 3


class HandScore(NamedTuple):
    """The outcome of one hand, by team (team 0 = seats 0 and 2)."""

    points: tuple[int, int]
    """Points each team scores for the hand: cards, last trick, declarations, bonus."""
    card_thirds: tuple[int, int]
    """Thirds each team took in cards, the last trick's 3 included."""
    accusi: tuple[int, int]
    """Declaration points each team scores (0 for a team that made no card point)."""
    cappotto: int | None = None
    """The team that made every point, if one did."""
    renuncio: int | None = None
    """The seat whose illegal play ended the hand, if one did."""
    called_out: int | None = None
    """The seat that claimed the match (chiamarsi fuori), if one did."""


def team_points(card_thirds: int, declared: int) -> int:
    """A team's points from its thirds and its declarations, void without a card point."""
    card_points = thirds_to_points(card_thirds)
    return card_points + declared if card_points else 0


def score_hand(
    card_thirds: tuple[int, int], declared: tuple[int, int], cappotto_bonus: int = 0, *, complete: bool = True
) -> HandScore:
    """Score a hand from each team's thirds and declared points.

    ``complete=False`` scores a hand cut short (a claim): no cappotto is decided.
    """
    points = [team_points(card_thirds[0], declared[0]), team_points(card_thirds[1], declared[1])]
    accusi = (declared[0] if points[0] else 0, declared[1] if points[1] else 0)
    cappotto = None
    if complete:
        # The deck always gives someone points, so at most one team can have none.
        cappotto = 0 if not points[1] else 1 if not points[0] else None
        if cappotto is not None:
            points[cappotto] += cappotto_bonus
    return HandScore((points[0], points[1]), card_thirds, accusi, cappotto)


def renuncio_score(seat: int, card_thirds: tuple[int, int]) -> HandScore:
    """The hand lost by ``seat``'s team for an illegal play: the opponents score 11."""
    points = (0, RENUNCIO_POINTS) if seat % 2 == 0 else (RENUNCIO_POINTS, 0)
    return HandScore(points, card_thirds, (0, 0), renuncio=seat)
