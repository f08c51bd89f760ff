"""The game state: what everyone sees, the full deal, and one seat's information set.

``PublicState`` is what every seat knows, ``GameState`` adds the hidden hands,
``SeatView`` is one seat's hand with the public state.

States are immutable records (``NamedTuple``): ``game.apply`` returns a new one
and never changes its argument, so keeping, comparing and hashing states is
free. Sets of cards are 40-bit card masks (see ``cards``). Facts about every
seat are packed into one int with a fixed-width block per absolute seat, seat
0 in the lowest bits, so that turning the table to an observer's point of view
is one bit rotation (``rotate_seats``):

    played    4 blocks of 40 bits   cards each seat has played this hand
    accusi.revealed  4 blocks of 40 bits   cards each seat's declarations revealed
    signals   4 blocks of 12 bits   bit 3*suit + (signal - 1): busso, striscio, volo given in that suit
    voids     4 blocks of 4 bits    bit suit: the seat failed to follow that suit

Seats are 0..3, play goes from seat i to seat i+1, team = seat % 2.
"""

from __future__ import annotations

from typing import NamedTuple

from .cards import CardMask
from .rules import Rules
from .scoring import Declarations, HandScore, trick_winner

Seat = int
"""A seat, 0..3. Partners sit opposite: team = seat % 2."""

PLAYING, HAND_OVER, GAME_OVER = 0, 1, 2
"""``PublicState.status``: cards are being played; a hand of a match is over
and the next must be dealt (``game.next_hand``); the episode is over (the hand
in ``episode="hand"``, the match in ``episode="match"``)."""


def rotate_seats(packed: int, seat: Seat, block: int) -> int:
    """Turn a 4-block packed int so that block 0 is ``seat``, block 1 the next seat, and so on."""
    shift = block * seat
    return ((packed >> shift) | (packed << (4 * block - shift))) & ((1 << (4 * block)) - 1)


class PublicState(NamedTuple):
    """Everything every seat at the table knows.

    ``game.apply`` builds it positionally (it is faster): keep the field order.
    """

    rules: Rules
    status: int
    """PLAYING, HAND_OVER or GAME_OVER."""
    turn: Seat
    """The seat to act; -1 when no card is being played."""
    leader: Seat
    """The seat that led (or will lead) the current trick."""
    trick: tuple[int, ...]
    """Cards on the table in play order; card i was played by seat (leader + i) % 4."""
    tricks_done: int
    """Completed tricks of this hand, 0..10."""
    played: int
    """Cards played this hand, by seat (4 blocks of 40 bits)."""
    signals: int
    """Signals given this hand, by seat (4 blocks of 12 bits)."""
    voids: int
    """Suits each seat has shown it lacks by failing to follow (4 blocks of 4 bits)."""
    thirds: tuple[int, int]
    """Thirds each team has taken this hand (the last trick's 3 included once taken)."""
    history: tuple[int, ...]
    """Every action of this hand in order (card + 40 * signal)."""
    dealer: Seat
    first_leader: Seat
    """The seat that led the first trick of this hand."""
    accusi: Declarations
    """The declarations of this hand (none without ``accusi``); public from the first lead."""
    match_score: tuple[int, int]
    """Each team's points over the hands finished so far in this episode."""
    hand_number: int
    """0 for the first hand of the episode, then 1, 2, ..."""
    result: HandScore | None
    """The score of this hand once it is over."""
    winner: int | None
    """The team that won the match (``episode="match"``), once decided."""

    def played_by(self, seat: Seat) -> CardMask:
        """Cards ``seat`` has played this hand."""
        return (self.played >> (40 * seat)) & 0xFFFFFFFFFF

    def revealed_by(self, seat: Seat) -> CardMask:
        """Cards ``seat``'s declarations revealed."""
        return (self.accusi.revealed >> (40 * seat)) & 0xFFFFFFFFFF

    def signals_by(self, seat: Seat, suit: int) -> tuple[bool, bool, bool]:
        """Whether ``seat`` gave (busso, striscio, volo) in ``suit`` this hand."""
        bits = self.signals >> (12 * seat + 3 * suit)
        return bool(bits & 1), bool(bits & 2), bool(bits & 4)

    def is_void(self, seat: Seat, suit: int) -> bool:
        """Whether ``seat`` has shown it has no card of ``suit`` left."""
        return bool(self.voids >> (4 * seat + suit) & 1)

    @property
    def all_played(self) -> CardMask:
        """Every card played this hand, by anyone."""
        p = self.played
        return (p | p >> 40 | p >> 80 | p >> 120) & 0xFFFFFFFFFF

    def tricks(self) -> list[tuple[Seat, tuple[int, ...], tuple[int, ...]]]:
        """The tricks of this hand so far: (leader, cards, actions), the current one last."""
        out = []
        leader = self.first_leader
        for start in range(0, len(self.history), 4):
            actions = self.history[start : start + 4]
            cards = tuple(a % 40 for a in actions)
            out.append((leader, cards, actions))
            if len(cards) == 4:
                leader = trick_winner(leader, cards)
        return out


class GameState(NamedTuple):
    """The whole game, hidden hands included. Never show it to a player: use ``game.view``."""

    public: PublicState
    hands: tuple[CardMask, CardMask, CardMask, CardMask]
    """The cards each seat holds now."""
    dealt: tuple[CardMask, CardMask, CardMask, CardMask]
    """The cards each seat was dealt this hand."""

    def __str__(self) -> str:
        from .render import render_state

        return render_state(self)


class SeatView(NamedTuple):
    """What one seat knows: its own hand and the public state. Players see only this."""

    seat: Seat
    hand: CardMask
    public: PublicState

    @property
    def unseen(self) -> CardMask:
        """Cards this seat has not seen: held by the others and not yet played or revealed."""
        p = self.public
        r = p.accusi.revealed
        revealed = (r | r >> 40 | r >> 80 | r >> 120) & 0xFFFFFFFFFF
        return 0xFFFFFFFFFF & ~(self.hand | p.all_played | revealed)

    def __str__(self) -> str:
        from .render import render_view

        return render_view(self)
