"""Points in thirds, declarations (accusi) and the score of a hand (the trick winner's home is ``tricks``).

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

from .cards import ASSO, DUE, SUITS, TRE, CardMask
from .tricks import trick_winner  # noqa: F401  (its home is tricks; importable from here as before)

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


_HONOUR_CARDS = sum(all_four for _rank, all_four in _HONOURS)
"""The twelve cards a combination is made of (every asso, 2 and 3): the only ones ``find_accusi`` reads."""
_FOUND: dict[CardMask, tuple[Accuso, ...]] = {}
"""``find_accusi``'s answers by a hand's ``_HONOUR_CARDS`` (at most 4,096 of them), filled as they are asked."""


def find_accusi(hand: CardMask) -> tuple[Accuso, ...]:
    """Every combination in a dealt hand: napoletane by suit, then tris/quattro by rank.

    Every deal asks it of every hand: the answer is kept for the hand's asso, 2 and 3 (what it
    depends on), so that a deal after the first few thousand reads it (0.1 µs, against 0.9 µs).
    """
    honours = hand & _HONOUR_CARDS
    found = _FOUND.get(honours)
    if found is None:  # (kept as plain ints whatever int type the first caller passed, a NumPy one included)
        honours = int(honours)
        found = _FOUND[honours] = _combinations(honours)
    return found


def _combinations(hand: CardMask) -> tuple[Accuso, ...]:
    """``find_accusi`` worked out."""
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
    """The declarations of a hand: public once declared (in the four-seat game, from the first lead)."""

    by_seat: tuple[tuple[Accuso, ...], ...]
    """Each seat's combinations (all empty when ``accusi`` is off)."""
    revealed: int
    """The cards they reveal, N blocks of 40 bits by seat (see ``state``)."""
    points: tuple[int, ...]
    """Declared points by side, before a cappotto voids them."""


NO_DECLARATIONS = Declarations(((), (), (), ()), 0, (0, 0))


def no_declarations(seats: int, sides: int) -> Declarations:
    """The declarations of a hand without any."""
    if (seats, sides) == (4, 2):
        return NO_DECLARATIONS
    return Declarations(((),) * seats, 0, (0,) * sides)


def declare(hands: tuple[CardMask, ...], sides: tuple[int, ...] = (0, 1, 0, 1)) -> Declarations:
    """Every seat's declarations from the dealt hands; ``sides[seat]`` is the side each seat's points go to."""
    by_seat = tuple(find_accusi(h) for h in hands)
    revealed = 0
    points = [0] * (max(sides) + 1)
    for seat, found in enumerate(by_seat):
        for accuso in found:
            revealed |= accuso.cards << (40 * seat)
            points[sides[seat]] += accuso.points
    return Declarations(by_seat, revealed, tuple(points))


def thirds_to_points(thirds: int) -> int:
    """Whole points of a team's thirds, rounded down (the leftover thirds are lost)."""
    return thirds // 3


class HandScore(NamedTuple):
    """The outcome of one hand, by side (in the four-seat game: team 0 = seats 0 and 2)."""

    points: tuple[int, ...]
    """Points each side scores for the hand: cards, last trick, declarations, bonus."""
    card_thirds: tuple[int, ...]
    """Thirds each side took in cards, the last trick's 3 included."""
    accusi: tuple[int, ...]
    """Declaration points each side scores (0 for a side that made no card point)."""
    cappotto: int | None = None
    """The side that made every point, if one did."""
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


def renuncio_score(side: int, card_thirds: tuple[int, int]) -> HandScore:
    """The hand lost by ``side`` for an illegal play (two sides): the other side scores 11.

    The caller records the offending seat in ``renuncio``.
    """
    points = (0, RENUNCIO_POINTS) if side == 0 else (RENUNCIO_POINTS, 0)
    return HandScore(points, card_thirds, (0, 0))
